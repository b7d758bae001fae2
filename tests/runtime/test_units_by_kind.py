"""A comprehension over `all_units()` whose filter begins with `u is KIND` goes through the units of that
kind alone (GameState.units_that_are, generated_code's `_kind_filtered`): the same items in the same
order, every unit still counted as a step of the budget, and the kind's units kept while the game's
units are the same (a restored position, a set-up put back)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from interpreter.cli import main
from interpreter.runtime.common.values import Unit
from interpreter.runtime.execution.engine import Engine

RULES = """game g "G" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [1.2]
  turns 1 [1.3]
}

class ship "a ship" [1.4]
class army "an army" [1.4]
type frigate "Frigate": ship [1.4]
type brig "Brig": ship [1.4]
type foot "Foot": army [1.4]
flag veteran "veteran" [1.5]

map sea [1.6] {
  grid points [1.6]
}

procedure main() [2.0] {
  for each i in [1, 2, 3, 4, 5] [2.1] {
    say "red ships: {[u for u in all_units() where u is ship and u.side == red]}" [2.1]
  }
  say "veterans: {[u.id for u in all_units() where u is veteran]}" [2.2]
  say "frigates: {count([u for u in all_units() where u is frigate and u.location != none])}" [2.3]
  say "not ships: {[u for u in all_units() where u is not ship]}" [2.4]
}
"""

SCENARIO = """scenario "kinds" uses "g.rules" [1.0] {
  places {
    points harbour
    points field
  }
  units {
    F1: frigate of red at harbour
    A1: foot of red at field { veteran }
    B1: brig of blue at harbour { veteran }
    A2: foot of blue at field
    F2: frigate of red at harbour
    A3: foot of red at field
  }
  at turn 1
  run main()
}
"""


def scenario(tmp_path: Path) -> str:
    (tmp_path / "g.rules").write_text(RULES, encoding="utf-8")
    path = tmp_path / "g.scenario"
    path.write_text(SCENARIO, encoding="utf-8")
    return str(path)


def run(args: list[str], generate: bool, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setattr(Engine, "GENERATE", generate)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def counting_class_reads(monkeypatch) -> list[int]:
    """Every read of a unit's class counted (the test `u is k` reads it first, for every unit it sees)."""
    reads = [0]
    slot = Unit.__dict__["cls"]

    def read(u):
        reads[0] += 1
        return slot.__get__(u, Unit)

    monkeypatch.setattr(Unit, "cls", property(read, slot.__set__))
    return reads


def test_the_units_of_a_kind_are_those_every_unit_would_give(tmp_path, monkeypatch):
    args = ["run", scenario(tmp_path)]
    generated = run(args, True, monkeypatch)
    assert generated == run(args, False, monkeypatch)  # the compiler's closures go through every unit
    out = generated[1]
    assert out.count("red ships: [F1, F2]") == 5
    assert "veterans: [A1, B1]" in out and "frigates: 2" in out
    assert "not ships: [A1, A2, A3]" in out  # `is not`: every unit gone through


def test_a_filter_that_begins_with_a_kind_goes_through_that_kind_alone(tmp_path, monkeypatch):
    """The six units' classes read once to list each kind (ship, veteran, frigate), then once more by
    the test for each unit of the kind: 5 x 3 red and blue ships, 2 veterans, 2 frigates; the `is not`
    comprehension reads all six. Going through every unit reads 5 x 6 + 6 + 6 + 6."""
    reads = counting_class_reads(monkeypatch)
    assert run(["run", scenario(tmp_path)], True, monkeypatch)[0] == 0
    assert reads[0] == 3 * 6 + 5 * 3 + 2 + 2 + 6


def test_every_unit_is_still_a_step_of_the_budget(tmp_path, monkeypatch):
    """Each comprehension counts the six units: the budget runs out at the same statement either way."""
    args = ["run", scenario(tmp_path)]
    for budget in (20, 35, 40):
        monkeypatch.setenv("UMPIRE_MAX_STEPS", str(budget))
        generated = run(args, True, monkeypatch)
        assert generated == run(args, False, monkeypatch)
    # 40 steps: the five rounds' statements and 5 x 6 units, then the veterans' comprehension (six more)
    said = generated[1] + generated[2]
    assert "has taken 40 steps" in said and "[2.2]; a rule that never ends?" in said
