"""Fuzzing the limits (docs/limits.md): deep nesting and runaway rules never end in a traceback.

Hypothesis builds rulesets that nest statements and expressions to random depths (around
and far past the limits), and rules that run away (recursion, fan-out, growing numbers,
strings and lists, loops in loops), then runs ``umpire check`` and ``umpire run`` on them.
Whatever the input, ``main()`` must return 0 or 1 and print neither "Traceback" nor
"internal error". Runs have a small step budget (UMPIRE_MAX_STEPS), so each takes
well under a second.

The example counts keep the file to about half a minute on two cores; set
UMPIRE_FUZZ_SCALE=10 (or more) for a longer hunt.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzzing import assert_clean, cli, fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

HEADER = """game g "G" [1.0] {
  sides a "A", b "B" [1.1]
  die d6 1..6 [1.2]
  turns 3 [1.3]
}
"""
SCENARIO = 'scenario "fuzz" uses "g.rules" [1.0] {\n  places { area hill { } }\n  run main()\n}\n'





@pytest.fixture
def workdir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("UMPIRE_MAX_STEPS", "3000")
    (tmp_path / "g.scenario").write_text(SCENARIO, encoding="utf-8")
    return tmp_path


def check_and_run(workdir: Path, body: str) -> None:
    (workdir / "g.rules").write_text(HEADER + body, encoding="utf-8")
    for command in ("check", "run"):
        code, out = cli(command, str(workdir / "g.scenario"))
        assert_clean(code, out, body)


# ───────────────────────────── deep nesting ─────────────────────────────

# Each wraps an expression in one more level (some in several: a call and its argument).
_WRAPS = [
    "({})", "-{}", "not {}", "{} + 1", "1 + {}", "{} * 2", "min({}, 3)", "max(1, {})", "[{}][0]",
    "if true then {} else 0", "if false then 0 else {}", "count([{}])", "{} == 1", "({} and true)",
]


@st.composite
def deep_expression(draw) -> str:
    depth = draw(st.integers(1, 260))
    wraps = draw(st.lists(st.sampled_from(_WRAPS), min_size=depth, max_size=depth))
    text = draw(st.sampled_from(["1", "true", "n"]))
    for w in wraps:
        text = w.format(text)
    return text


@st.composite
def deep_blocks(draw) -> str:
    depth = draw(st.integers(1, 140))
    opens = draw(st.lists(st.sampled_from(["if n > 0 {", "for each x in [1] {", "repeat { stop\n", "simultaneously {"]),
                          min_size=depth, max_size=depth))
    inner = draw(st.sampled_from(['say "deep"', "set n = n + 1", 'record "r" = n']))
    return "\n".join(opens) + "\n" + inner + "\n" + "}\n" * depth


@fuzz_settings(40)
@given(expr=deep_expression())
def test_deep_expressions(workdir, expr):
    body = f'function f(n: int) [2.0] = {expr}\nprocedure main() [2.1] {{\n  let n = 1\n  say "{{f(1)}}"\n  let v = {expr}\n}}\n'
    check_and_run(workdir, body)


@fuzz_settings(25)
@given(blocks=deep_blocks())
def test_deep_blocks(workdir, blocks):
    check_and_run(workdir, f"procedure main() [2.0] {{\n  let n = 1\n{blocks}}}\n")


@fuzz_settings(15)
@given(expr=deep_expression(), depth=st.integers(1, 80))
def test_deep_expressions_in_deep_blocks(workdir, expr, depth):
    body = "procedure main() [2.0] {\n  let n = 1\n" + "if true {\n" * depth + f"let v = {expr}\n" + "}\n" * depth + "}\n"
    check_and_run(workdir, body)


# ───────────────────────────── runaway rules ─────────────────────────────

_RUNAWAY_FUNCTIONS = [
    "function f(n: int) [2.0] = f(n + {k})",
    "function f(n: int) [2.0] = if n == 0 then 0 else {k} + f(n - 1)",
    "function f(n: int) [2.0] = if n > 100000 then n else f(n * {k} + 1)",
    "function f(n: int) [2.0] = g(n) + {k}\nfunction g(n: int) [2.0] = f(n + 1)",
    "function f(n: int) [2.0] = count([f(n + {k}) for x in range(1, 3)])",
]
_RUNAWAY_STATEMENTS = [
    "repeat [3.{k}] {{ set n = n * n + {k} }}",
    "repeat [3.{k}] {{ set n = n + n }}",
    'let s = "x{k}"\nrepeat [3.{k}] {{ set s = "{{s}}{{s}}" }}',
    "let xs = [1]\nrepeat [3.{k}] {{ set xs = xs + xs }}",
    "repeat {{ repeat {{ repeat {{ adjust n by {k} }} }} }}",
    "let xs = [a * b for a in range(1, 9{k}999) for b in range(1, 9999)]",
    "let xs = range(1, {k}99999999999)",
    "call fan({k})",
    "call main()",
    'say "{{f({k})}}"',
    "for each x in range(1, 99999) {{ for each y in range(1, 99999) {{ adjust n by 1 }} }}",
]
_FAN = "procedure fan(m: int) [4.0] {\n  if m < 90 {\n    call fan(m + 1)\n    call fan(m + 1)\n  }\n}\n"


@fuzz_settings(40)
@given(function=st.sampled_from(_RUNAWAY_FUNCTIONS), statements=st.lists(st.sampled_from(_RUNAWAY_STATEMENTS), min_size=1, max_size=3),
       k=st.integers(0, 9))
def test_runaway_rules(workdir, function, statements, k):
    lines = "\n".join("  " + s.format(k=k) for s in statements)
    body = f"{function.format(k=k)}\n{_FAN}procedure main() [2.1] {{\n  let n = 2\n{lines}\n}}\n"
    check_and_run(workdir, body)
