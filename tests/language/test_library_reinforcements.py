"""The standard library's reinforcements (interpreter/library/reinforcements.rules,
docs/library/reinforcements.md) on its toy game, tests/lang/reinforcements.rules: units entering on
their turn or later at an open entry hex, replacements bought with the points of the turn, the
library's defaults and the game's settings, a house rule replacing a setting, and a position saved
between two replacements."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from positions import as_data, loaded, resumed, started

from interpreter.cli import main
from interpreter.runtime.common.requests import ChoiceRequest

LANG = Path(__file__).resolve().parent.parent / "lang"
RULES = (LANG / "reinforcements.rules").read_text()

REPLACEMENTS = """
scenario "r" uses "reinforcements.rules" [4.0] {
  places { hex 0101 { edge: west }  hex 0102 { edge: west }  hex 0201 {} }
  units {
    T1: tanks of red in dead_pile
    R6: rifles of red in dead_pile
    R7: rifles of red in dead_pile
  }
  at turn TURN phase red_turn step red_replacements
  run step red_replacements
  DECISIONS
  expect { EXPECT }
}
"""


def _write(tmp_path: Path, rules: str, scenario: str) -> Path:
    (tmp_path / "reinforcements.rules").write_text(rules)
    path = tmp_path / "r.scenario"
    path.write_text(scenario)
    return path


def test_units_enter_on_their_turn_or_later_where_no_enemy_stands(capsys):
    assert main(["run", str(LANG / "reinforcements_turn2.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert "0101 is not one of the legal options (0102, 0103)" in out  # Blue holds 0101
    assert "[4.0] R3 moves to 0102" in out and "[4.0] R5 moves to 0103" in out  # R5 was due on turn 1
    assert "R4" not in out.split("expectations:")[0]  # due on turn 3
    assert "result: 4 of 4 expectations met" in out


def test_a_unit_with_every_entry_barred_waits(capsys):
    assert main(["run", str(LANG / "reinforcements_barred.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert "[4.0] B3 cannot enter: every entry place is barred; it waits" in out
    assert "result: 2 of 2 expectations met" in out


def test_replacements_spend_the_points_of_the_turn(capsys):
    # 2 points on turn 3: two rifle battalions; the tanks (2) are beyond the point left after one.
    assert main(["run", str(LANG / "reinforcements_replacements.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert out.count("is rebuilt for 1 replacement point(s)") == 2
    assert "result: 4 of 4 expectations met" in out


def test_the_points_the_game_gives_decide_what_is_rebuilt(tmp_path, capsys):
    # On turn 2 the toy gives 1 point: the tanks are no option, and one rifle battalion is all.
    path = _write(tmp_path, RULES, REPLACEMENTS.replace("TURN", "2").replace("DECISIONS", "decisions { red rebuilt: T1 }")
                  .replace("EXPECT", "true"))
    assert main(["run", str(path)]) == 1
    assert "T1 is not one of the legal options (R6, R7)" in capsys.readouterr().err
    path = _write(tmp_path, RULES, REPLACEMENTS.replace("TURN", "2").replace("DECISIONS", "decisions { red rebuilt: R7\n red entry: 0102 }")
                  .replace("EXPECT", "R7.location == @0102 and R6.location == dead_pile[red]"))
    assert main(["run", str(path)]) == 0, capsys.readouterr().out
    # Three points: the tanks, then a rifle battalion.
    rules = RULES.replace("replacement_points = if turn() >= 3 then 2 else 1", "replacement_points = 3")
    path = _write(tmp_path, rules, REPLACEMENTS.replace("TURN", "2").replace(
        "DECISIONS", "decisions { red rebuilt: T1\n red entry: 0101\n red rebuilt: R6\n red entry: 0101 }")
        .replace("EXPECT", "T1.location == @0101 and R6.location == @0101 and R7.location == dead_pile[red]"))
    assert main(["run", str(path)]) == 0, capsys.readouterr().out


def test_by_default_replacements_return_eliminated_units_and_cost_nothing_without_points(tmp_path, capsys):
    # Without the toy's replacement settings and dead pile: an eliminated unit (location none) may be
    # rebuilt, at 1 point each, and the library gives no points unless the game does.
    rules = RULES[:RULES.index("  replacement_points =")] + "}\n" + RULES[RULES.index("on eliminated(u)"):]
    rules = rules.replace("  move u to dead_pile[u.side] [3.2]\n", "  say \"{u} is gone\" [3.2]\n") + """
procedure battle() [7.0] {
  eliminate [u for u in all_units() where u.side == red] because "battle" [7.0]
  let unspent = call take_replacements(red)
  record "unspent" = unspent [7.0]
}
"""
    scenario = """
scenario "b" uses "reinforcements.rules" [7.0] {
  places { hex 0101 { edge: west }  hex 0201 {} }
  units { R6: rifles of red at 0201
          T1: tanks of red at 0201 }
  run battle()
  DECISIONS
  expect { EXPECT }
}
"""
    path = _write(tmp_path, rules, scenario.replace("DECISIONS", "").replace("EXPECT", "R6.location == none and T1.location == none"))
    assert main(["run", str(path), "--detail"]) == 0, capsys.readouterr().out
    assert "rebuilt" not in capsys.readouterr().out  # 0 points by default
    # Three points given, one spent: the procedure gives back the two left, for a game that banks them.
    given = rules.replace("  entry_places =", "  replacement_points = 3 [4.2]\n  entry_places =")
    path = _write(tmp_path, given, scenario.replace("DECISIONS", "decisions { red rebuilt: T1\n red rebuilt: pass }")
                  .replace("EXPECT", 'T1.location == @0101 and R6.location == none and fact("unspent") == 2'))
    assert main(["run", str(path), "--detail"]) == 0, capsys.readouterr().out
    assert "[4.0] T1 is rebuilt for 1 replacement point(s)" in capsys.readouterr().out


def test_a_house_rule_replaces_a_setting_by_name(tmp_path, capsys):
    # Reinforcements may land where the enemy stands: the 3rd Guards enter the hex Red holds.
    shutil.copy(LANG / "reinforcements.rules", tmp_path)
    shutil.copy(LANG / "reinforcements_barred.scenario", tmp_path / "b.scenario")
    (tmp_path / "landing.house").write_text("""
overlay landing "House rule: contested landings" amends "reinforcements.rules" {
  amend H-1 "Reinforcements may enter where the enemy stands" [4.1 house rule] {
    replace function may_arrive_at(u: unit, p: place) [4.1 house rule] = true
  }
}
""")
    text = (tmp_path / "b.scenario").read_text()
    text = text.replace("{\n  places", '{\n  with "landing.house"\n  places', 1)
    text = text[:text.index("  expect {")] + "  expect { B3.location == @0201 }\n}\n"
    (tmp_path / "b.scenario").write_text(text)
    assert main(["check", str(tmp_path / "landing.house")]) == 0, capsys.readouterr()
    assert main(["run", str(tmp_path / "b.scenario"), "--detail"]) == 0, capsys.readouterr().out
    assert "[4.0] B3 moves to 0201" in capsys.readouterr().out


def test_a_position_saved_between_two_replacements_keeps_the_points_left(tmp_path, monkeypatch):
    _write(tmp_path, RULES, REPLACEMENTS.replace("TURN", "3").replace("DECISIONS", "").replace("EXPECT", "true"))
    monkeypatch.chdir(tmp_path)
    sym, sources, sc = loaded("r.scenario")
    engine, proc = started(sym, sources, sc)
    ask = proc.send(None)
    assert isinstance(ask, ChoiceRequest) and ask.name == "rebuilt" and [u.id for u in ask.options] == ["T1", "R6", "R7"]
    ask = proc.send(engine.state.units["R6"])
    assert ask.name == "entry"
    ask = proc.send(engine.state.places["0102"])
    # 1 point left: the tanks are beyond it.
    assert ask.name == "rebuilt" and [u.id for u in ask.options] == ["R7"] and ask.prompt == "rebuild a unit (1 replacement points left)"
    other, shell = resumed(as_data(engine, proc), sym, sources, sc)
    for engine_, process in ((engine, proc), (other, shell)):
        entry = process.send(engine_.state.units["R7"])
        assert isinstance(entry, ChoiceRequest) and entry.name == "entry"
        with pytest.raises(StopIteration):  # no point left: the loop ends without asking again
            process.send(engine_.state.places["0101"])
        units = engine_.state.units
        assert units["R6"].location.id == "0102" and units["R7"].location.id == "0101"
        assert units["T1"].location.id == "dead_pile[red]"
