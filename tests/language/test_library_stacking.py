"""The standard library's stacking (interpreter/library/stacking.rules, docs/library/stacking.md) on its
toy game, tests/lang/stacking.rules: the owner's eliminations from an overstack, the limit a game gives
changing who goes, a house rule replacing the library's procedure, and a position saved between two of
the owner's choices."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from positions import as_data, loaded, resumed, started

from interpreter.cli import main
from interpreter.runtime.common.requests import ChoiceRequest

LANG = Path(__file__).resolve().parent.parent / "lang"

OVERSTACK = """
scenario "o" uses "stacking.rules" [4.0] {
  places { hex 0101 { terrain: hills }  hex 0102 { terrain: town } }
  units {
    R1: rifles of red at 0101
    R2: rifles of red at 0101
    R3: tanks of red at 0101
    RG: general of red at 0101
  }
  run enforce_stacking(red)
  DECISIONS
  expect { EXPECT }
}
"""


def _scenario(tmp_path: Path, rules: str, decisions: str, expect: str) -> Path:
    (tmp_path / "stacking.rules").write_text(rules)
    path = tmp_path / "o.scenario"
    path.write_text(OVERSTACK.replace("DECISIONS", decisions).replace("EXPECT", expect))
    return path


def test_the_owner_eliminates_until_the_stack_is_within_the_limit(capsys):
    # 4 points in the hills (limit 2): two rifle battalions go and the loop ends, the general untouched.
    assert main(["run", str(LANG / "stacking_overstack.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert "[4.0] red is overstacked in 0101: 4 stacking points, limit 2\n" in out
    assert out.count("is eliminated (overstacked)") == 2
    assert "result: 6 of 6 expectations met" in out


def test_a_unit_that_counts_is_one_the_owner_may_lose(tmp_path, capsys):
    # Without the game's counts_for_stacking, the general's 1 point counts (5 points in the hills):
    # a third unit must go, and the general is one of the choices.
    rules = (LANG / "stacking.rules").read_text().replace("  counts_for_stacking = not (u is command) [4.3]\n", "")
    path = _scenario(tmp_path, rules, "decisions { red excess: R1\n red excess: R2\n red excess: RG }",
                     "RG.location == none and R3.location == @0101 and stack_points_in(@0101, red) == 2")
    assert main(["run", str(path), "--detail"]) == 0, capsys.readouterr().out
    assert "red is overstacked in 0101: 5 stacking points, limit 2" in capsys.readouterr().out
    # The toy's own settings: the general is no option, and two eliminations are enough.
    path = _scenario(tmp_path, (LANG / "stacking.rules").read_text(), "decisions { red excess: RG }", "true")
    assert main(["run", str(path)]) == 1
    assert "'counts_for_stacking(u)' does not hold" in capsys.readouterr().err


def test_the_limit_the_game_gives_decides_how_many_go(tmp_path, capsys):
    # A limit of 3 in the hills: one rifle battalion is enough.
    rules = (LANG / "stacking.rules").read_text().replace("else if p.terrain == hills then 2", "else if p.terrain == hills then 3")
    path = _scenario(tmp_path, rules, "decisions { red excess: R2 }",
                     "R2.location == none and R1.location == @0101 and not overstacked(@0101, red)")
    assert main(["run", str(path)]) == 0, capsys.readouterr().out


def test_may_stack_bars_a_march_that_would_overstack(capsys):
    assert main(["run", str(LANG / "stacking_march.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert "0102 is not one of the legal options (0201): for 0102, 'may_stack(u, q)' does not hold" in out
    assert "[5.0] RG moves to 0102" in out
    assert "ok   may_stack(R1, @0102)  -- a unit already in the hex is counted once" in out


def test_a_house_rule_replaces_the_librarys_procedure(capsys):
    assert main(["run", str(LANG / "stacking_displaced.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert "[4.0 house rule] R1 moves to 0102" in out
    assert "[4.0 house rule] R2 is eliminated (overstacked, with no room to be displaced)" in out
    assert "result: 3 of 3 expectations met" in out


def test_a_position_saved_between_two_eliminations_goes_on_alike(tmp_path, monkeypatch):
    shutil.copy(LANG / "stacking.rules", tmp_path)
    (tmp_path / "o.scenario").write_text(OVERSTACK.replace("DECISIONS", "").replace("EXPECT", "true"))
    monkeypatch.chdir(tmp_path)
    sym, sources, sc = loaded("o.scenario")
    engine, proc = started(sym, sources, sc)
    ask = proc.send(None)
    assert isinstance(ask, ChoiceRequest) and [u.id for u in ask.options] == ["R1", "R2", "R3"]
    with pytest.raises(StopIteration):  # the tanks first leave 2 points: no second decision
        proc.send(ask.options[2])
    assert engine.state.units["R3"].location is None and engine.state.units["R1"].location.id == "0101"
    engine, proc = started(sym, sources, sc)
    ask = proc.send(None)
    ask = proc.send(ask.options[0])  # a rifle battalion: 3 points, still over
    assert isinstance(ask, ChoiceRequest) and [u.id for u in ask.options] == ["R2", "R3"]
    other, shell = resumed(as_data(engine, proc), sym, sources, sc)
    for engine_, process in ((engine, proc), (other, shell)):
        with pytest.raises(StopIteration):
            process.send(engine_.state.units["R2"])  # each engine's own unit
        units = engine_.state.units
        assert units["R1"].location is None and units["R2"].location is None
        assert units["R3"].location.id == "0101" and units["RG"].location.id == "0101"


def test_the_turn_mechanics_share_a_game_with_no_name_in_common(tmp_path, capsys):
    # A game uses every mechanic at once: stacking, reinforcements, victory points and zones of
    # control declare no name twice, and may_stack reads as a condition of an arrival.
    (tmp_path / "all.rules").write_text("""
game all "All the turn mechanics" [1.0] {
  sides red, blue [1.1]
  die d6 1..6 [1.2]
  turns 2 [1.3]
}
map field [2.0] {
  grid hex "CCRR" columns even_q [2.0]
}
use zones_of_control [3.0]
use stacking [4.0] {
  stack_limit = 2 [4.1]
}
use reinforcements [5.0] {
  arrival_turn = 2 [5.1]
  entry_places = none [5.2]
  may_arrive_at = may_stack(u, p) and not in_enemy_zoc(u.side, p) [5.3]
}
use victory_points [6.0] {
  place_points = 1 [6.1]
}
sequence [7.0] {
  phase turn [7.0] {
    step arrivals [7.0] {
      call reinforcements_arrive(red) [7.0]
      call enforce_stacking(red) [7.0]
      call update_control() [7.0]
      call check_sudden_death() [7.0]
    }
  }
}
""")
    assert main(["check", str(tmp_path / "all.rules")]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out
