"""Limits (docs/limits.md): hostile input and runaway rules end in a diagnostic, never a traceback.

Each case writes a small ruleset and a scenario that runs it, runs ``umpire run`` (or check)
in-process, and asserts exit 1 (never 70), no "Traceback" or "internal error", the message
and the file:line:col where the limit is passed. Runaway loops run under a small step
budget set with UMPIRE_MAX_STEPS, so that the file takes seconds.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.limits import MAX_BLOCK_DEPTH, MAX_EXPR_DEPTH

HEADER = """game g "G" [1.0] {
  sides a "A", b "B" [1.1]
  die d6 1..6 [1.2]
  turns 3 [1.3]
}
"""
HEADER_LINES = HEADER.count("\n")


def cli(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue() + err.getvalue()


def write(tmp_path: Path, body: str, header: str = HEADER) -> Path:
    """A ruleset of the header and body, and a scenario that runs its procedure main()."""
    (tmp_path / "g.rules").write_text(header + body, encoding="utf-8")
    scenario = tmp_path / "g.scenario"
    scenario.write_text('scenario "limits" uses "g.rules" [1.0] {\n  places { area hill { } }\n  run main()\n}\n',
                        encoding="utf-8")
    return scenario


def fails(tmp_path: Path, body: str, *where_and_message: str, header: str = HEADER, command: str = "run") -> str:
    scenario = write(tmp_path, body, header)
    code, out = cli(command, str(scenario))
    assert "Traceback" not in out and "internal error" not in out, out[-2000:]
    assert code == 1, out[-2000:]
    for text in where_and_message:
        assert text in out, out[-2000:]
    return out


def at(line: int, col: int) -> str:
    """file:line:col of a line of the body (1-based, after the header)."""
    return f"g.rules:{HEADER_LINES + line}:{col}: error:"


@pytest.fixture
def small_budget(monkeypatch):
    monkeypatch.setenv("UMPIRE_MAX_STEPS", "5000")  # under the 10,000 rounds of one repeat


# ───────────────────────────── nesting in the text ─────────────────────────────


def test_blocks_nested_too_deep(tmp_path):
    depth = 220
    body = "procedure main() [2.0] {\n" + "if true {\n" * depth + 'say "hi"\n' + "}\n" * depth + "}\n"
    # The procedure's block is the first; the 64th 'if' (body line 65) opens the 65th block.
    fails(tmp_path, body, at(1 + MAX_BLOCK_DEPTH, 9), f"blocks nest more than {MAX_BLOCK_DEPTH} deep here")


def test_blocks_at_the_limit_run(tmp_path):
    depth = MAX_BLOCK_DEPTH - 1  # the procedure's own block is one
    body = "procedure main() [2.0] {\n" + "if true {\n" * depth + 'say "deep"\n' + "}\n" * depth + "}\n"
    code, out = cli("run", str(write(tmp_path, body)))
    assert code == 0, out
    assert "deep" in out


def test_else_if_chain_counts_as_nesting(tmp_path):
    chain = " else ".join(f"if n == {i} {{ say \"{i}\" }}" for i in range(100))
    body = f"procedure main() [2.0] {{\n let n = 3\n {chain}\n}}\n"
    fails(tmp_path, body, "g.rules:8:", f"blocks nest more than {MAX_BLOCK_DEPTH} deep here")


def test_deep_if_expression(tmp_path):
    body = "function f() [2.0] = " + "if true then " * 480 + "1" + " else 0" * 480 + "\n"
    body += 'procedure main() [2.1] { say "{f()}" }\n'
    # The 100th 'if' is the 100th level: its test, 'true', is the 101st.
    fails(tmp_path, body, at(1, 22 + 13 * (MAX_EXPR_DEPTH - 1) + 3), f"this expression nests more than {MAX_EXPR_DEPTH} deep")


def test_long_plus_chain(tmp_path):
    body = "function f() [2.0] = " + " + ".join(["1"] * 500) + '\nprocedure main() [2.1] { say "{f()}" }\n'
    fails(tmp_path, body, at(1, 22), f"this expression nests more than {MAX_EXPR_DEPTH} deep", "split it with 'let'")


def test_plus_chain_within_the_limit_runs(tmp_path):
    body = "function f() [2.0] = " + " + ".join(["1"] * 90) + '\nprocedure main() [2.1] { say "total {f()}" }\n'
    code, out = cli("run", str(write(tmp_path, body)))
    assert code == 0, out
    assert "total 90" in out


def test_nested_min(tmp_path):
    body = "function f() [2.0] = " + "min(" * 200 + "1" + ", 2)" * 200 + '\nprocedure main() [2.1] { say "{f()}" }\n'
    fails(tmp_path, body, at(1, 22 + 4 * (MAX_EXPR_DEPTH // 2)), f"this expression nests more than {MAX_EXPR_DEPTH} deep")


def test_deep_expression_inside_a_string(tmp_path):
    body = 'procedure main() [2.0] { say "{' + " + ".join(["1"] * 300) + '}" }\n'
    fails(tmp_path, body, at(1, 32), f"this expression nests more than {MAX_EXPR_DEPTH} deep")


# ───────────────────────────── sizes in the text ─────────────────────────────


def test_huge_string_literal(tmp_path):
    body = 'procedure main() [2.0] { say "' + "x" * 1_000_000 + '" }\n'
    out = fails(tmp_path, body, at(1, 30), "this string has 1000000 characters; a string in the rules has at most 10000")
    assert len(out) < 2_000  # the million-character line is quoted around the caret only


def test_number_of_5000_digits(tmp_path):
    fails(tmp_path, 'procedure main() [2.0] { say "{' + "9" * 5000 + '}" }\n', at(1, 32),
          "this number has 5000 digits; a number has at most 18")


def test_huge_turns(tmp_path):
    header = HEADER.replace("turns 3", "turns 999999999999999999")
    out = fails(tmp_path, 'procedure main() [2.0] { say "x" }\n', "g.rules:4:9: error:",
                "999999999999999999 turns is more than a game may last: at most 1000", header=header, command="check")
    assert "0 error(s)" not in out


def test_long_uses_path(tmp_path):
    scenario = tmp_path / "long.scenario"
    scenario.write_text('scenario "x" uses "' + "a" * 300 + '.rules" [1.0] {\n  run main()\n}\n', encoding="utf-8")
    for command in ("run", "check"):
        code, out = cli(command, str(scenario))
        assert code == 1 and "Traceback" not in out and "internal error" not in out, out
        assert "long.scenario:1:19: error: the ruleset 'aaaa" in out


# ───────────────────────────── runaway rules ─────────────────────────────


def test_function_that_never_ends(tmp_path):
    body = 'function f(n: int) [2.0] = f(n + 1)\nprocedure main() [2.1] { say "{f(1)}" }\n'
    fails(tmp_path, body, at(1, 28), "'f' [2.0] is called more than 200 deep (functions calling functions); a rule that never ends?")


def test_deep_but_finite_recursion_within_the_limit_runs(tmp_path):
    body = ('function f(n: int) [2.0] = if n == 0 then 0 else 1 + f(n - 1)\n'
            'procedure main() [2.1] { say "depth {f(150)}" }\n')
    code, out = cli("run", str(write(tmp_path, body)))
    assert code == 0, out
    assert "depth 150" in out


def test_procedure_that_never_ends(tmp_path):
    body = "procedure main() [2.0] {\n  call main()\n}\n"
    fails(tmp_path, body, at(2, 3), "'main' [2.0] is called more than 100 deep (procedures calling procedures)")


def test_fan_out_stops_at_the_step_budget(tmp_path, small_budget):
    body = ("procedure fan(n: int) [2.0] {\n  if n < 90 {\n    call fan(n + 1)\n    call fan(n + 1)\n  }\n}\n"
            "procedure main() [2.1] { call fan(0) }\n")
    fails(tmp_path, body, "the run has taken 5,000 steps", "[2.0]; a rule that never ends?", "UMPIRE_MAX_STEPS")


def test_nested_huge_repeats_stop_at_the_step_budget(tmp_path, small_budget):
    body = ("procedure main() [2.0] {\n  repeat [2.1] {\n    repeat [2.2] {\n      repeat [2.3] {\n"
            "        say \"round\"\n      }\n    }\n  }\n}\n")
    fails(tmp_path, body, at(5, 9), "the run has taken 5,000 steps (statements run and items gone through) "
          "without ending [2.3]")


def test_comprehension_over_huge_ranges(tmp_path, small_budget):
    body = ("procedure main() [2.0] {\n  let xs = [a + b for a in range(1, 99999) for b in range(1, 99999)]\n"
            '  say "{count(xs)}"\n}\n')
    fails(tmp_path, body, at(2, 12), "the run has taken 5,000 steps", "[2.0]")


def test_comprehension_over_huge_ranges_default_budget(tmp_path, monkeypatch):
    # Under the default budget, the list's size stops it first.
    monkeypatch.delenv("UMPIRE_MAX_STEPS", raising=False)
    body = "procedure main() [2.0] {\n  let xs = [a for a in range(1, 99999) for b in range(1, 20)]\n}\n"
    fails(tmp_path, body, at(2, 12), "this list would hold", "a list has at most 1,000,000")


def test_range_too_large(tmp_path):
    body = "procedure main() [2.0] {\n  let xs = range(1, 999999999999)\n}\n"
    fails(tmp_path, body, at(2, 12), "would hold more than 100000 numbers")


def test_repeated_squaring(tmp_path):
    body = "procedure main() [2.0] {\n  let x = 10\n  repeat [2.1] { set x = x * x }\n}\n"
    fails(tmp_path, body, at(3, 26), "this arithmetic gives a number of 33 digits [2.1]; a number has at most 18 digits")


def test_doubling_string(tmp_path):
    body = 'procedure main() [2.0] {\n  let s = "ab"\n  repeat [2.1] { set s = "{s}{s}" }\n}\n'
    fails(tmp_path, body, at(3, 26), "this string would be 131,072 characters long [2.1]; a string has at most 100,000")


def test_play_keeps_the_narration_when_the_budget_runs_out(tmp_path, small_budget):
    body = 'procedure main() [2.0] { say "never" }\non game_start() [3.0] {\n  say "the story so far"\n  repeat { let x = 1 }\n}\n'
    (tmp_path / "g.rules").write_text(HEADER + body, encoding="utf-8")
    code, out = cli("play", str(tmp_path / "g.rules"))
    assert code == 1 and "Traceback" not in out and "internal error" not in out, out
    assert "the story so far" in out
    assert "the run has taken 5,000 steps" in out


@pytest.mark.parametrize("command", ["run", "odds"])
def test_a_line_nobody_reads_is_still_too_long(tmp_path, command):
    """Exact odds write no trace (Engine.narrate), but a `say` too long to be written fails there as in a run."""
    body = 'procedure main() [2.0] {\n  let s = "ab"\n  repeat [2.1] {\n    set s = "{s}{s}"\n    say "{[s, s]}" [2.2]\n  }\n}\n'
    fails(tmp_path, body, at(5, 9), "this string would be 131,076 characters long [2.2]; a string has at most 100,000", command=command)
