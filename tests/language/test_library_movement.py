"""The standard library's movement (interpreter/library/movement.rules, docs/library/movement.md) on its
toy game, tests/lang/movement.rules: costs that depend on the mover, against a hand count of the toy
map; a setting the game gives changing where a unit can go; an overlay replacing the library's cost
of a move; a position saved in the middle of a side's movement; and the mechanic used without zones of
control. Movement rolls no dice, so there are no odds to count."""

from __future__ import annotations

import re
from pathlib import Path

from positions import as_data, loaded, resumed, started

from interpreter.cli import main
from interpreter.runtime.common.requests import ChoiceRequest

LANG = Path(__file__).resolve().parent.parent / "lang"
RULES = (LANG / "movement.rules").read_text(encoding="utf-8")
TERRAIN = (LANG / "movement_terrain.scenario").read_text(encoding="utf-8")
PLACES = TERRAIN[TERRAIN.index("  places {"):TERRAIN.index("  units {")]


def paid(out: str, unit: str) -> dict[str, int]:
    """What the survey recorded a unit pays for each hex it can reach: {hex: cost}."""
    line = next(line for line in out.splitlines() if f"record {unit} pays = [" in line)
    return {hex_: int(cost) for hex_, cost in re.findall(r"(\d{4}) (\d+)", line.split("= ", 1)[1])}


def play(tmp_path, capsys, rules: str, units: str, decisions: str = "", overlay: str = "") -> str:
    """A scenario of the toy map run with a copy of the toy rules: the trace printed."""
    (tmp_path / "movement.rules").write_text(rules, encoding="utf-8")
    if overlay:
        (tmp_path / "house.house").write_text(overlay, encoding="utf-8")
    (tmp_path / "t.scenario").write_text(f"""
scenario "t" uses "movement.rules" [4.0] {{
  {'with "house.house"' if overlay else ''}
{PLACES}  units {{ {units} }}
  run turn_of_movement()
  decisions {{ {decisions} }}
  expect {{ true }}
}}
""", encoding="utf-8")
    code = main(["run", str(tmp_path / "t.scenario"), "--detail"])
    out = capsys.readouterr()
    assert code == 0, out.out + out.err
    return out.out


def test_the_toy_checks_clean(capsys):
    assert main(["check", str(LANG / "movement.rules")]) == 0
    assert "movement.rules: 0 error(s), 0 warning(s)\n" in capsys.readouterr().out


def test_each_hex_costs_what_the_mover_pays(capsys):
    # Counted by hand on the toy map from 0101: clear 1, woods 3 for a tank and 2 for the rifles, the
    # river between columns 03 and 04 adds 2 for a tank and 1 for the rifles, the lake is closed.
    assert main(["run", str(LANG / "movement_terrain.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert paid(out, "T1") == {"0102": 1, "0103": 2, "0202": 2, "0201": 3, "0302": 3, "0303": 3,
                               "0301": 6, "0401": 6, "0402": 6, "0403": 6}
    assert paid(out, "R1") == {"0102": 1, "0201": 2, "0103": 2, "0202": 2, "0302": 3, "0303": 3, "0301": 4}
    assert "[4.0] R1 spends 4 of 4 movement points\n  [4.0] R1 moves to 0301\n" in out


def test_a_hexside_the_game_closes_to_armour_keeps_the_tanks_on_their_bank(tmp_path, capsys):
    closed = RULES.replace('hexside_cost = if border(a, b, "crossing") == river then river_cost(u) else 0 [4.3]',
                           'hexside_cost = if border(a, b, "crossing") != river then 0 else if u is armour then none else 1 [4.3]')
    assert closed != RULES
    out = play(tmp_path, capsys, closed, "T1: tanks of red at 0101")
    assert not {"0401", "0402", "0403"} & set(paid(out, "T1"))
    out = play(tmp_path, capsys, closed, "T1: tanks of red at 0302")
    assert set(paid(out, "T1")) >= {"0301", "0303"} and not {"0401", "0402", "0403"} & set(paid(out, "T1"))


def test_units_move_in_their_order_when_the_owner_does_not_choose_it(tmp_path, capsys):
    ordered = RULES.replace("  extra_cost = zoc_move_cost(u, a, b) [5.3]\n",
                            "  extra_cost = zoc_move_cost(u, a, b) [5.3]\n  movement_owner_orders = false [6.1]\n")
    out = play(tmp_path, capsys, ordered, "T1: tanks of red at 0101 R1: rifles of red at 0103",
               "red destination: 0402 red destination: 0202")
    assert "next_mover" not in out
    assert out.index("T1 moves to 0402") < out.index("R1 moves to 0202")


def test_a_house_rule_replacing_the_cost_of_a_move(tmp_path, capsys):
    # Every hex costs 1 and nothing stops a move: the rifles reach across the river, 3 hexes away.
    out = play(tmp_path, capsys, RULES, "R1: rifles of red at 0101", overlay="""
overlay march "House rule: forced march" amends "movement.rules" {
  amend H-1 "Every hex costs one point" [4.0 house rule] {
    replace function move_cost(u: unit, a: place, b: place) [4.0 house rule] = if may_enter(u, b) then 1 else none
  }
}
""")
    assert paid(out, "R1")["0402"] == 3 and paid(out, "R1")["0201"] == 1 and "0203" in paid(out, "R1")


def test_a_position_saved_between_two_units_moves_keeps_who_has_moved(monkeypatch):
    monkeypatch.chdir(LANG)
    sym, sources, sc = loaded("movement_terrain.scenario")
    engine, proc = started(sym, sources, sc)
    req = proc.send(None)
    assert req.name == "next_mover" and sorted(u.id for u in req.options) == ["R1", "T1"]
    req = proc.send(next(u for u in req.options if u.id == "R1"))
    req = proc.send(next(p for p in req.options if p.id == "0301"))
    assert isinstance(req, ChoiceRequest) and [u.id for u in req.options] == ["T1"]
    other, shell = resumed(as_data(engine, proc), sym, sources, sc)
    for eng, process in ((engine, proc), (other, shell)):  # R1 has moved: only T1 is still asked about
        ask = process.send(eng.state.units["T1"])
        assert ask.name == "destination" and "0402" in [p.id for p in ask.options]
        ask = process.send(next(p for p in ask.options if p.id == "0402"))
        assert ask.name == "next_mover" and ask.options == []
    assert other.state.facts == engine.state.facts
    assert other.state.units["R1"].location.id == "0301" and other.state.units["T1"].location.id == "0402"


def test_movement_needs_no_zones_of_control(tmp_path, capsys):
    alone = RULES.replace("  stops_in = zoc_stops_in(u, p) [5.2]\n  extra_cost = zoc_move_cost(u, a, b) [5.3]\n", "")
    alone = alone.replace("use zones_of_control [5.0]\n", "")
    assert "zoc" not in alone.split("use movement")[1].split("}")[0]
    out = play(tmp_path, capsys, alone, "T1: tanks of red at 0101 B1: rifles of blue at 0402")
    assert main(["check", str(tmp_path / "movement.rules")]) == 0
    # Without zones of control the tanks go on past 0302, but never into the hex the enemy holds.
    assert paid(out, "T1")["0401"] == 6 and "0402" not in paid(out, "T1")


def test_the_one_hex_move_the_end_of_a_move_and_roads_given_by_the_game(tmp_path, capsys):
    slow = RULES.replace("movement_allowance = u.move [4.1]", "movement_allowance = 1 [4.1]")
    out = play(tmp_path, capsys, slow, "R1: rifles of red at 0101")
    assert paid(out, "R1") == {"0102": 1}  # the woods at 0201 cost 2
    one_hex = slow.replace("movement_allowance = 1 [4.1]", "movement_allowance = 1 [4.1]\n  movement_one_hex = true [4.4]")
    assert paid(play(tmp_path, capsys, one_hex, "R1: rifles of red at 0101"), "R1") == {"0102": 1, "0201": 2}
    # A move may not end where a friendly unit stands, but may pass through it.
    alone = RULES.replace("movement_allowance = u.move [4.1]",
                          "movement_allowance = u.move [4.1]\n  movement_may_end = count(units_at(p)) == 0 [4.5]")
    out = play(tmp_path, capsys, alone, "R1: rifles of red at 0101 T1: tanks of red at 0102")
    assert "0102" not in paid(out, "R1") and paid(out, "R1")["0202"] == 2
    # A road through the side costs 1 whatever the hex: the tanks take it into the woods at 0201.
    road = RULES.replace("movement_allowance = u.move [4.1]",
                         'movement_allowance = u.move [4.1]\n  movement_road_cost = if a.id == "0101" and b.id == "0201" then 1 else none [4.6]')
    assert paid(play(tmp_path, capsys, road, "T1: tanks of red at 0101"), "T1")["0201"] == 1
