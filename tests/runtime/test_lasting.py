"""The values of ruleset functions that read no state, kept for the whole game (execution/lasting.py):
which functions qualify, that a function reading state is asked again once the state changes, and that
the step budget counts a kept value's steps as the evaluation it stands for would have."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.files import Sources
from interpreter.load import load_rules
from interpreter.runtime.execution import lasting
from interpreter.runtime.execution.lasting import lasting_functions
from tests.played import cli_output as cli
from tests.played import toy_scenario

HEADER = """game g "G" [1.0] {
  sides a "A", b "B" [1.1]
  die d6 1..6 [1.2]
  turns 3 [1.3]
}
"""

FUNCTIONS = """state level: int [2.0]
place state flooded: bool [2.0]
map m [2.0] {
  grid hex "CCRR" columns even_q [2.0]
  property rough: int [2.0]
}
table loss(n: int) "Loss" [2.1] {
  read at n
  1..3 -> 1 [2.1]
  4..9 -> 2 [2.1]
}
function constant() [3.0] = 7
function roughness(p: place) [3.0] = p.rough + constant()
function rough_places() [3.0] = [p for p in places() where roughness(p) > 1]
function step(a: place, b: place) [3.0] = roughness(b)
function far(a: place) [3.0] = reach(a, 9, places(), step)
function hill() [3.0] = @0101
function raised() [3.1] = level + 1
function calls_state() [3.1] = raised() * 2
function wet(p: place) [3.1] = p.flooded
function read_table() [3.1] = loss(2)
function unit_count(p: place) [3.1] = count(units_at(p))
function loop_a(n: int) [3.2] = if n <= 0 then 0 else loop_b(n - 1)
function loop_b(n: int) [3.2] = if n <= 0 then level else loop_a(n - 1)
procedure main() [4.0] { say "{far(hill())} {rough_places()} {calls_state()} {wet(hill())} {read_table()} {unit_count(hill())}" }
"""


def test_only_functions_that_read_no_state_last_the_game(tmp_path: Path):
    (tmp_path / "g.rules").write_text(HEADER + FUNCTIONS, encoding="utf-8")
    loaded = load_rules(str(tmp_path / "g.rules"), Sources())
    assert not loaded.errors, loaded.errors
    # The map's fixed properties, constants, the map's built-ins, functions passed to them and tables read
    # at their arguments last, each with the game states of one value it reads (whose values are part of
    # its key); a place state, the units, and any function calling one of them do not.
    assert lasting_functions(loaded.symbols) == {
        "constant": (), "roughness": (), "rough_places": (), "step": (), "far": (), "hill": (), "read_table": (),
        "raised": ("level",), "calls_state": ("level",), "loop_a": ("level",), "loop_b": ("level",)}


def scenario(tmp_path: Path, body: str, cells: str = "hex 0101  hex 0102") -> Path:
    return toy_scenario(tmp_path, HEADER + body, cells)


STATE_READ = """state level: int [2.0]
map m [2.0] {
  grid hex "CCRR" columns even_q [2.0]
}
function level_plus(n: int) [3.0] = level + count([i for i in range(1, n)])
procedure main() [4.0] {
  set level = 1 [4.1]
  say "first {level_plus(10)}" [4.2]
  set level = 5 [4.3]
  say "then {level_plus(10)}" [4.4]
}
"""


def test_a_function_reading_state_is_asked_again_after_the_state_changes(tmp_path: Path):
    code, out = cli("run", str(scenario(tmp_path, STATE_READ)))
    assert code == 0, out
    assert "first 11" in out and "then 15" in out, out  # called, not written in place (a comprehension)


# Each statement of the loop asks `evens()` again in a new epoch: 49 items gone through each time, whether
# its value is kept for the game or found again, so the budget runs out at the same round either way.
BUDGET = """map m [2.0] {
  grid hex "CCRR" columns even_q [2.0]
}
function evens() [3.0] = [i for i in range(1, 99) where i % 2 == 0]
procedure main() [4.0] {
  for each r in range(1, 500) [4.1] {
    say "round {r}: {count(evens())}" [4.2]
  }
}
"""


def played(tmp_path: Path, monkeypatch, kept: bool) -> str:
    if not kept:
        monkeypatch.setattr(lasting, "lasting_functions", lambda sym: {})
    monkeypatch.setenv("UMPIRE_MAX_STEPS", "5000")
    code, out = cli("run", str(scenario(tmp_path, BUDGET)))
    assert code == 1 and "Traceback" not in out, out[-2000:]
    return out


def test_the_step_budget_counts_a_kept_value_as_the_evaluation_it_stands_for(tmp_path: Path, monkeypatch):
    kept = played(tmp_path, monkeypatch, kept=True)
    assert "the run has taken 5,000 steps" in kept, kept[-2000:]
    with monkeypatch.context() as m:
        plain = played(tmp_path, m, kept=False)
    assert kept == plain
    assert kept.count("round ") < 100  # about 50 steps a round: the budget is met within the loop


@pytest.mark.parametrize("explain", [False, True])
def test_kept_values_leave_explain_as_it_was(tmp_path: Path, monkeypatch, explain):
    # far() and rough_places() asked at two statements: the second finds the values kept at the first.
    twice = 'procedure main() [4.0] {\n  say "{far(hill())} {rough_places()}" [4.1]\n  say "{far(hill())} {rough_places()}" [4.2]\n}\n'
    body = FUNCTIONS[:FUNCTIONS.index("procedure main()")] + twice
    rules = scenario(tmp_path, body, "hex 0101 { rough: 2 }  hex 0102 { rough: 1 }")
    args = ["explain", str(rules)] if explain else ["run", str(rules)]
    kept = cli(*args)
    assert kept[0] == 0 and "0101" in kept[1], kept
    monkeypatch.setattr(lasting, "lasting_functions", lambda sym: {})
    assert cli(*args) == kept


# A map or a record is changed in place (`set m[k] = v`, `set t.f = v`): each epoch gets its own from
# the body, so a change made to one statement's value is not seen by the next statement's call.
CHANGED_IN_PLACE = """map m [2.0] {
  grid hex "CCRR" columns even_q [2.0]
}
function costs() [3.0] = {"n": 1, "s": 2}
procedure main() [4.0] {
  let c = costs()
  let k = "n"
  set c[k] = 9 [4.1]
  say "changed {c[k]}" [4.2]
  say "asked again {costs()[k]}" [4.3]
}
"""


def test_a_map_a_function_gives_is_not_shared_with_later_statements(tmp_path: Path):
    code, out = cli("run", str(scenario(tmp_path, CHANGED_IN_PLACE)))
    assert code == 0, out
    assert "changed 9" in out and "asked again 1" in out, out


# A map of maps: a copy of the outer map would share the inner ones, so such a value is made again by
# the body in each epoch; a change to an inner map reaches no later statement.
CHANGED_INSIDE = """map m [2.0] {
  grid hex "CCRR" columns even_q [2.0]
}
function costs() [3.0] = {"n": {"wind": 1}, "s": {"wind": 2}}
procedure main() [4.0] {
  let k = "n"
  let w = "wind"
  say "first {costs()[k][w]}" [4.1]
  let c = costs()
  let inner = c[k]
  set inner[w] = 9 [4.2]
  say "changed {c[k][w]}" [4.3]
  say "asked again {costs()[k][w]}" [4.4]
}
"""


def test_a_map_of_maps_a_function_gives_is_not_shared_with_later_statements(tmp_path: Path):
    code, out = cli("run", str(scenario(tmp_path, CHANGED_INSIDE)))
    assert code == 0, out
    assert "first 1" in out and "changed 9" in out and "asked again 1" in out, out


# A map of numbers is kept for the game: each later statement's call is given a copy of its own, so
# the body is not made to run again and a change made to one statement's copy reaches no other.
KEPT_MAP = """map m [2.0] {
  grid hex "CCRR" columns even_q [2.0]
}
function costs() [3.0] = {"n": 1, "s": 2}
procedure main() [4.0] {
  for each r in range(1, 3) [4.1] {
    let c = costs()
    let k = "n"
    say "round {r}: {c[k]}" [4.2]
    set c[k] = 9 [4.3]
    say "changed {c[k]}" [4.4]
  }
}
"""


def test_a_map_of_numbers_is_kept_and_each_statement_gets_its_own_copy(tmp_path: Path, monkeypatch):
    runs = []
    body = lasting.LastingMemo.end

    def end(self, kept, value, frame):
        if kept is not None and kept[0] == "costs":
            runs.append(value)
        return body(self, kept, value, frame)

    monkeypatch.setattr(lasting.LastingMemo, "end", end)
    code, out = cli("run", str(scenario(tmp_path, KEPT_MAP)))
    assert code == 0, out
    assert "round 1: 1" in out and "round 2: 1" in out and "round 3: 1" in out and out.count("changed 9") == 3, out
    assert len(runs) == 1  # the body ran once; rounds 2 and 3 were given copies of the kept map
