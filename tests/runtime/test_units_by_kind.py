"""A comprehension over `all_units()` whose filter begins with `u is KIND` goes through the units of that
kind alone (GameState.units_that_are, generated_code's `_kind_filtered`), and one over `places()` whose
filter begins with a fixed test of the place (a function of the place alone, written in place) goes
through the places it holds for (`_places_where`): the same items in the same order, every unit and
place still counted as a step of the budget."""

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


PLACES = """game g "G" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [1.2]
  turns 1 [1.3]
}

map sea [1.6] {
  grid points [1.6]
  property port: int [1.6]
  state held: bool [1.7]
}

function is_port(p: place) [2.0] = p.port > 0
function watched(p: place) [2.0] = is_port(p) and p.held

procedure main() [3.0] {
  for each i in [1, 2, 3, 4] [3.1] {
    say "ports held: {[p for p in places() where is_port(p) and p.held]}" [3.1]
    let q = [p for p in places() where p.id == "d"][0]
    set q.held = true [3.1]
  }
  say "watched: {[p for p in places() where watched(p)]}" [3.2]
}
"""

PLACES_SCENARIO = """scenario "ports" uses "g.rules" [1.0] {
  places {
    points a { port: 0 }
    points b { port: 2 }
    points c { port: 0 held: true }
    points d { port: 1 }
    points e { port: 3 held: true }
  }
  at turn 1
  run main()
}
"""


def test_a_filter_that_begins_with_a_fixed_test_of_the_place_goes_through_the_places_it_holds_for(tmp_path, monkeypatch):
    """`is_port(p)` depends on the place alone: asked once of each of the five places, then only of the
    three ports in each of the four rounds (5 + 4 x 3 reads of `port`); `watched` reads a state, so its
    comprehension goes through every place (5 more). Going through every place reads 4 x 5 + 5."""
    (tmp_path / "g.rules").write_text(PLACES, encoding="utf-8")
    (tmp_path / "g.scenario").write_text(PLACES_SCENARIO, encoding="utf-8")
    args = ["run", str(tmp_path / "g.scenario")]
    generated = run(args, True, monkeypatch)
    assert generated == run(args, False, monkeypatch)
    assert generated[1].count("ports held: [e]") == 1 and generated[1].count("ports held: [d, e]") == 3
    assert "watched: [d, e]" in generated[1]
    reads = counting_port_reads(monkeypatch)
    assert run(args, True, monkeypatch) == generated
    assert reads[0] == 5 + 4 * 3 + 5
    for budget in (30, 44):  # the rounds' statements and 5 places each: the budget stops where it did
        monkeypatch.setenv("UMPIRE_MAX_STEPS", str(budget))
        assert run(args, True, monkeypatch) == run(args, False, monkeypatch)


def counting_port_reads(monkeypatch) -> list[int]:
    """Every read of a place's property `port` counted (the map's properties are read through `props`)."""
    from interpreter.runtime.common.values import Place

    reads = [0]
    slot = Place.__dict__["props"]

    class Counted(dict):
        def __getitem__(self, k):
            reads[0] += k == "port"
            return dict.__getitem__(self, k)

        def get(self, k, default=None):
            reads[0] += k == "port"
            return dict.get(self, k, default)

    def read(p):
        props = slot.__get__(p, Place)
        if not isinstance(props, Counted):  # the place's own map, counted from now on
            props = Counted(props)
            slot.__set__(p, props)
        return props

    monkeypatch.setattr(Place, "props", property(read, slot.__set__))
    return reads
