"""Small functions written in place of their calls (generated_code.py, `Engine.INLINE`) change
nothing but speed: whole games narrate the same, line for line, with and without it, and a call
written in place gives the value, the errors and the depth of calls its call would."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.runtime.execution.engine import Engine

HEADER = """game g "G" [1.0] {
  sides a "A", b "B" [1.1]
  die d6 1..6 [1.2]
  turns 3 [1.3]
}
"""


def run(args: list[str], inline: bool, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setattr(Engine, "INLINE", inline)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def both(args: list[str], monkeypatch) -> str:
    """The output with functions written in place, checked equal to the output with every call made."""
    inlined, called = run(args, True, monkeypatch), run(args, False, monkeypatch)
    assert inlined == called
    return inlined[1] + inlined[2]


def scenario(tmp_path: Path, body: str) -> str:
    (tmp_path / "g.rules").write_text(HEADER + body, encoding="utf-8")
    path = tmp_path / "g.scenario"
    path.write_text('scenario "inline" uses "g.rules" [1.0] {\n  places { area hill { } }\n  run main()\n}\n', encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("args", [
    ["play", "rulesets/jenkins_ear.rules", "--seed", "2", "--agents", "eager,eager"],
    ["play", "rulesets/guerra_a_muerte.rules", "--scenario", "opening_guns", "--seed", "3", "--agents", "random,random"],
], ids=["jenkins_ear", "guerra_a_muerte"])
def test_a_game_is_the_same_with_and_without_functions_written_in_place(args, monkeypatch):
    out = both(args, monkeypatch)
    assert "line(s) of detail not shown" in out.splitlines()[-1], out[-500:]  # a real game, to its end


def test_the_functions_small_enough_are_written_in_place(monkeypatch):
    """Jenkins' Ear's owner(p) and enemy_seaport(p, s) are written in place; green(p, s), which goes
    through the units (steps of the budget), is called."""
    calls = []
    real = Engine.function_positional
    monkeypatch.setattr(Engine, "function_positional", lambda self, decl, *a: calls.append(decl.name) or real(self, decl, *a))
    assert run(["run", "scenarios/jenkins_ear/eop_land_3018.scenario"], True, monkeypatch)[0] == 0
    assert "green" in calls and "owner" not in calls and "enemy_seaport" not in calls


def test_a_call_written_in_place_is_one_level_of_calls_deeper(tmp_path, monkeypatch):
    """The limit of calls is met at the same call, named as the call names it: here the small
    function called at the deepest level (inside another written in place), not the recursive one."""
    body = ("function step(n: int) [3.0] = n + 1\n"
            "function two_steps(n: int) [3.1] = step(n) + 1\n"
            "function down(n: int) [2.0] = if n > 999 then 0 else down(two_steps(n))\n"
            'procedure main() [2.1] { say "{down(0)}" }\n')
    out = both(["run", scenario(tmp_path, body)], monkeypatch)
    assert "'step' [3.0] is called more than 200 deep" in out


def test_a_body_written_in_place_reads_names_as_its_function_does(tmp_path, monkeypatch):
    """A name the body reads that is no parameter is the game's, never a local of the caller that has that name;
    an error in the body carries the function's citation."""
    body = ("state score: int [4.0]\n"
            "function plus_score(x: int) [4.1] = x + score\n"
            "function shared(x: int) [4.2] = x / 0\n"
            "procedure main() [2.1] {\n"
            "  set score = 5 [4.0]\n"
            "  let score = 100\n"
            '  say "{plus_score(1)}"\n'
            '  say "{shared(7)}"\n'
            "}\n")
    out = both(["run", scenario(tmp_path, body)], monkeypatch)
    assert "] 6\n" in out
    assert "[4.2]" in out and "Traceback" not in out


def test_a_body_written_in_place_may_call_a_function_that_goes_through_a_list(tmp_path, monkeypatch):
    """A small function calling one that goes through a list (steps of the budget, so called) is written in
    place, the call inside it made as deep as it would be: the same values, and the limit of calls met at
    the same call, named as the call names it."""
    body = ("function evens(n: int) [3.0] = count([x for x in [1, 2, 3, 4] where x % 2 == n % 2])\n"
            "function light(n: int) [3.1] = evens(n) + down(n + 1)\n"
            "function down(n: int) [2.0] = if n > 999 then 0 else light(n)\n"
            'procedure main() [2.1] {\n  say "{evens(1) + light(998)}"\n  say "{down(0)}"\n}\n')
    out = both(["run", scenario(tmp_path, body)], monkeypatch)
    assert "] 6\n" in out
    assert "is called more than 200 deep" in out


def test_jenkins_ears_fights_on_land_is_written_in_place(monkeypatch):
    """`fights_on_land(u, p)`, read for every unit `green(p, s)` goes through, is written in place; the
    `scuttled_against(u, p)` it calls goes through the units, so is called."""
    calls = []
    real = Engine.function_positional
    monkeypatch.setattr(Engine, "function_positional", lambda self, decl, *a: calls.append(decl.name) or real(self, decl, *a))
    assert run(["run", "scenarios/jenkins_ear/eop_land_3018.scenario"], True, monkeypatch)[0] == 0
    assert "scuttled_against" in calls and "fights_on_land" not in calls


def test_a_function_kept_all_game_stops_as_deep_as_when_called(tmp_path, monkeypatch):
    # deep(n) reads no state, so each value is kept for the game and replays the calls its body made
    # (lasting.py); a call written in place inside that body would be missing from the replay, and
    # the recursion would never reach the depth limit.
    path = scenario(tmp_path, """function deep(n: int) [2.0] = if n <= 0 then 1 else deep(n - 1)
procedure main() [3.0] {
  for each n in range(190, 210) [3.1] {
    say "{n}: {deep(n)}" [3.2]
  }
}
""")
    out = both(["run", path], monkeypatch)
    assert "199: 1" in out and "200: 1" not in out and "'deep' [2.0] is called more than 200 deep" in out


def test_a_larger_function_is_written_in_place_where_a_comprehension_calls_it_for_each_item(tmp_path, monkeypatch):
    """`weight` has more nodes than a call anywhere may write in place (MAX_INLINE_NODES) but no more than
    a call made for each item of a comprehension may (MAX_INLINE_NODES_PER_ITEM): the comprehension's
    calls are written in place, the lone call is made; both give the values the calls give."""
    terms = " + ".join(f"n * {k}" for k in range(1, 13))
    body = (f"function weight(n: int) [3.0] = {terms}\n"
            'procedure main() [2.1] {\n'
            '  say "{[weight(i) for i in range(1, 3) where weight(i) > 0]}" [2.1]\n'
            '  say "{weight(4)}" [2.2]\n'
            '}\n')
    calls = []
    real = Engine.function_positional
    monkeypatch.setattr(Engine, "function_positional", lambda self, decl, *a: calls.append(decl.name) or real(self, decl, *a))
    out = both(["run", scenario(tmp_path, body)], monkeypatch)
    assert "[2.1] [78, 156, 234]" in out and "[2.2] 312" in out
    calls.clear()
    run(["run", scenario(tmp_path, body)], True, monkeypatch)
    assert calls == ["weight"]  # the lone call's caller; none for the comprehension's two calls
