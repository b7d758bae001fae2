"""Paths whose STEP function's values last the game (world/paths.py, execution/lasting.py `frequent`):
a move's kept cost is replayed from a tree made once for the values of the game states the function
reads. The same run as calling the function at every move: the costs follow a state that changes, a
statement's change to a map reaches no other, the step budget and the depth limit stop a run where
they always did. Each test compares a run with the trees against the same run without them."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.runtime.execution import lasting
from interpreter.runtime.world import paths
from tests.played import cli_output as cli
from tests.played import toy_scenario

HEADER = """game g "G" [1.0] {
  sides a "A", b "B" [1.1]
  die d6 1..6 [1.2]
  turns 1 [1.3]
}
map m [2.0] {
  grid hex "CCRR" columns even_q [2.0]
  property rough: int [2.0]
}
state wind: int [2.0]
# The cost of crossing each hex side under wind 1 (a map of numbers, kept and copied for each epoch).
function side_costs() [3.0] = {"n": 1, "ne": 2, "se": 3, "s": 1, "sw": 2, "nw": 3}
function step(a: place, b: place) [3.0] = if wind == 1 then side_costs()[direction(a, b)] else b.rough
"""

CELLS = ("hex 0101 { rough: 1 }  hex 0102 { rough: 3 }  hex 0103 { rough: 1 }  hex 0201 { rough: 2 }  "
         "hex 0202 { rough: 1 }  hex 0203 { rough: 2 }  hex 0301 { rough: 1 }  hex 0302 { rough: 1 }  "
         "hex 0303 { rough: 3 }")


def scenario(tmp_path: Path, body: str) -> Path:
    return toy_scenario(tmp_path, HEADER + body, CELLS)


def both(tmp_path: Path, monkeypatch, body: str, *argv: str) -> tuple[tuple[int, str], int]:
    """The run with the trees (and how many kept costs it replayed from them), and checked equal to the
    same run calling the STEP function at every move."""
    rules = scenario(tmp_path, body)
    replayed = [0]
    enter = lasting._enter

    def counted(tree, memo):
        replayed[0] += 1
        return enter(tree, memo)

    with monkeypatch.context() as m:
        m.setattr(lasting, "_enter", counted)
        kept = cli(*argv, str(rules))
    with monkeypatch.context() as m:
        m.setattr(paths, "_frequent", lambda engine, step: step)
        plain = cli(*argv, str(rules))
    assert kept == plain
    return kept, replayed[0]


WINDS = """procedure main() [4.0] {
  set wind = 1 [4.1]
  say "one {reach(@0101, 3, places(), step)}" [4.2]
  say "one again {reach(@0101, 3, places(), step)} {cheapest(@0101, @0303, places(), step)}" [4.3]
  set wind = 2 [4.4]
  say "two {reach(@0101, 3, places(), step)} {cheapest(@0101, @0303, places(), step)}" [4.5]
  set wind = 1 [4.6]
  say "one at last {reach(@0101, 3, places(), step)}" [4.7]
}
"""


def test_kept_costs_follow_the_state_the_step_function_reads(tmp_path: Path, monkeypatch):
    (code, out), replayed = both(tmp_path, monkeypatch, WINDS, "run")
    assert code == 0, out
    # Under wind 1 the sides' costs, under wind 2 the hexes' roughness: other places, and wind 1's again after.
    assert "[4.2] one [0101, 0102, 0103, 0201]\n" in out, out
    assert "[4.3] one again [0101, 0102, 0103, 0201] 7\n" in out, out
    assert "[4.5] two [0101, 0201, 0102, 0202, 0301, 0302] 6\n" in out, out
    assert "[4.7] one at last [0101, 0102, 0103, 0201]\n" in out, out
    assert replayed > 0  # the later paths under wind 1 replayed kept costs from the trees


# A map one statement is given in the epoch a path entered it into: the statement's change to it
# reaches no later path (each replay enters a copy of the map as made).
CHANGED_MAP = """procedure main() [4.0] {
  set wind = 1 [4.1]
  say "first {reach(@0101, 3, places(), step)}" [4.2]
  let k = "n"
  let c = if count(reach(@0101, 3, places(), step)) > 0 then side_costs() else side_costs()
  set c[k] = 9 [4.3]
  say "changed {c[k]}" [4.4]
  say "then {reach(@0101, 3, places(), step)} {side_costs()[k]}" [4.5]
}
"""


def test_a_map_a_replay_entered_is_not_shared_with_later_statements(tmp_path: Path, monkeypatch):
    (code, out), replayed = both(tmp_path, monkeypatch, CHANGED_MAP, "run")
    assert code == 0, out
    assert "[4.2] first [0101, 0102, 0103, 0201]\n" in out and "[4.4] changed 9\n" in out, out
    assert "[4.5] then [0101, 0102, 0103, 0201] 1\n" in out, out
    assert replayed > 0


# `can` is kept with the calls it made (the path's every move); its replays in later statements, the
# step budget and the depth of calls meet their limits where the run calling `step` at every move does.
BUDGET = """function evens() [3.0] = [i for i in range(1, 30) where i % 2 == 0]
function counted(a: place, b: place) [3.0] = step(a, b) + count(evens()) - 14
function can(a: place, b: place, n: int) [3.0] = b in reach(a, n, places(), step)
function can_counted(a: place, b: place, n: int) [3.0] = b in reach(a, n, places(), counted)
procedure main() [4.0] {
  set wind = 1 [4.1]
  for each r in range(1, 400) [4.2] {
    say "round {r}: {can(@0101, @0303, r % 5)} {can_counted(@0303, @0101, r % 4)}" [4.3]
    if r % 7 == 0 [4.4] {
      set wind = 3 - wind [4.5]
    }
  }
}
"""


def test_the_step_budget_is_met_where_it_always_was(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("UMPIRE_MAX_STEPS", "6000")
    (code, out), replayed = both(tmp_path, monkeypatch, BUDGET, "run")
    assert code == 1 and "the run has taken 6,000 steps" in out and "Traceback" not in out, out[-2000:]
    assert 10 < out.count("round ") < 399, out[-2000:]  # met within the loop
    assert replayed > 0


# Each `deep(n, n)` finds the path at n calls deep, with a budget of its own (so `can` is not kept):
# the moves' costs kept by the shallow call are replayed from the trees until the replay could come
# near the depth limit.
DEEP = """function can(a: place, b: place, n: int) [3.0] = b in reach(a, n, places(), step)
function deep(n: int, budget: int) [3.0] = if n <= 0 then can(@0101, @0303, budget) else deep(n - 1, budget)
procedure main() [4.0] {
  set wind = 1 [4.1]
  say "shallow {deep(0, 9)}" [4.2]
  for each n in range(185, 200) [4.3] {
    say "{n} calls deep: {deep(n, n)}" [4.4]
  }
}
"""


def test_the_depth_limit_stops_a_run_where_it_always_did(tmp_path: Path, monkeypatch):
    (code, out), replayed = both(tmp_path, monkeypatch, DEEP, "run")
    assert code == 1 and "Traceback" not in out, out[-2000:]
    # The run stops at the same depth and call (deeper than the replays may go, the bodies run).
    assert "196 calls deep: yes" in out and "197 calls deep" not in out, out[-2000:]
    assert "'side_costs' [3.0] is called more than 200 deep" in out, out[-2000:]
    assert replayed > 0


# A replay read from the trees notes each move's call in the evaluation under way (`kept_can` keeps
# them all, so its own replays go as deep as the moves' did), and enters every call not yet known in
# the epoch (`near(@0303)`, asked again in the statement just short of the depth limit, is known:
# it does not run).
NOTED = """function near(p: place) [3.0] = p.rough + side_costs()[\"n\"]
function step3(a: place, b: place) [3.0] = near(b)
function kept_can(a: place, b: place) [3.0] = b in reach(a, 9, places(), step3)
function deep_can(n: int) [3.0] = if n <= 0 then kept_can(@0101, @0303) else deep_can(n - 1)
function deep_near(n: int) [3.0] = if n <= 0 then near(@0303) else deep_near(n - 1)
procedure main() [4.0] {
  set wind = 1 [4.1]
  say "moves kept {count(reach(@0101, 9, places(), step3))}" [4.2]
  say "can kept {kept_can(@0101, @0303)}" [4.3]
  for each n in range(190, 202) [4.4] {
    say "{n}: LOOKED" [4.5]
  }
}
"""
LOOKS = {
    "deep_can": ("{deep_can(n)}", "195: yes", "196:", "'side_costs' [3.0] is called more than 200 deep"),
    "deep_near": ("{count(reach(@0101, 9, places(), step3))} {deep_near(n)}", "199: 9 4", "200:",
                  "'deep_near' [3.0] is called more than 200 deep"),
}


@pytest.mark.parametrize("look", sorted(LOOKS))
def test_a_replay_notes_and_enters_the_calls_the_moves_made(tmp_path: Path, monkeypatch, look):
    looked, last, stopped, error = LOOKS[look]
    (code, out), replayed = both(tmp_path, monkeypatch, NOTED.replace("LOOKED", looked), "run")
    assert code == 1 and "Traceback" not in out, out[-2000:]
    assert f"{last}\n" in out and stopped not in out and error in out, out[-2000:]
    assert replayed > 0


def test_explain_is_the_same_with_the_trees(tmp_path: Path, monkeypatch):
    (code, out), _ = both(tmp_path, monkeypatch, WINDS, "explain")
    assert code == 0 and "reach" in out, out
