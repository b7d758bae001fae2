"""The standard library's supply (interpreter/library/supply.rules, docs/library/supply.md) on its toy
siege, tests/lang/supply.rules, with zones of control: the exact odds of a unit isolated three checks
in a row, a position saved between two checks keeping the count, a setting the game gives changing who
is in supply, and an overlay replacing the mechanic's in_supply."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from positions import as_data, loaded, resumed, resumed_alike, started

from interpreter.cli import main
from interpreter.runtime.common.requests import RollRequest

LANG = Path(__file__).resolve().parent.parent / "lang"
RULES = (LANG / "supply.rules").read_text(encoding="utf-8")
RANGE = (LANG / "supply_range.scenario").read_text(encoding="utf-8")


def shares(out: str) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in re.findall(r"^ +(\S+) +(\d+(?:/\d+)?) ", out, re.M)}


def out_of_supply(tmp_path, capsys, rules: str, overlay: str = "") -> str:
    """The one supply check of supply_range.scenario with a copy of the rules: the units it finds out."""
    (tmp_path / "supply.rules").write_text(rules, encoding="utf-8")
    scenario = RANGE
    if overlay:
        (tmp_path / "house.house").write_text(overlay, encoding="utf-8")
        scenario = scenario.replace("  places {", '  with "house.house"\n  places {', 1)
    (tmp_path / "t.scenario").write_text(scenario.split("  expect {")[0] + "  expect { true }\n}\n", encoding="utf-8")
    assert main(["run", str(tmp_path / "t.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    return re.search(r"record red out of supply = \[(.*)\]", out).group(1)


def test_the_toy_checks_clean_but_for_the_scenarios_entry(capsys):
    assert main(["check", str(LANG / "supply.rules")]) == 0
    out = capsys.readouterr()
    out = out.out + out.err
    assert "supply.rules: 0 error(s), 0 warning(s), 1 note(s)" in out
    assert "procedure 'siege' [6.0] is reachable only from scenarios" in out


def test_odds_of_a_unit_isolated_three_checks_in_a_row(capsys):
    # R1 is cut off until the garrison marches away (5 or 6, 1/3 a turn, rolled after the first and the
    # second check); it is eliminated at the third check if both rolls fail: (2/3)^2 = 4/9.
    assert main(["odds", str(LANG / "supply_isolated.scenario"), "--fact", "red units lost"]) == 0
    out = capsys.readouterr().out
    assert shares(out) == {"1": Fraction(4, 9), "0": Fraction(5, 9)}
    assert "total probability: 1 (exactly)" in out


def test_a_position_saved_between_two_checks_keeps_the_count(monkeypatch):
    monkeypatch.chdir(LANG)
    sym, sources, sc = loaded("supply_isolated.scenario")
    assert resumed_alike(sym, sources, sc, range(4), (1, 2)) == 8
    engine, proc = started(sym, sources, sc)
    assert isinstance(proc.send(None), RollRequest)
    req = proc.send([2])  # the garrison stays: R1 is out of supply a second time before this roll
    assert isinstance(req, RollRequest)
    other, shell = resumed(as_data(engine, proc), sym, sources, sc)
    assert other.state.units["R1"].state["out_of_supply_turns"] == 2
    for eng, process in ((engine, proc), (other, shell)):
        try:
            process.send([4])
        except StopIteration:
            pass
        assert eng.state.units["R1"].location is None and eng.state.facts["red units lost"] == 1


def test_the_games_settings_change_who_is_in_supply(tmp_path, capsys):
    assert out_of_supply(tmp_path, capsys, RULES) == "R4"
    shorter = RULES.replace("supply_range = 4 [5.2]", "supply_range = 3 [5.2]")
    assert out_of_supply(tmp_path, capsys, shorter) == "R3, R4"
    uncancelled = RULES.replace("use zones_of_control [4.0]", "use zones_of_control [4.0] {\n  zoc_negates = false [4.1]\n}")
    assert out_of_supply(tmp_path, capsys, uncancelled) == "R1, R3, R4, R7"
    by_units = RULES.replace(" or enemy_zoc_unnegated(s, p) [5.3]", " [5.3]")
    assert out_of_supply(tmp_path, capsys, by_units) == "R4"


def test_a_house_rule_replacing_in_supply(tmp_path, capsys):
    # Supply runs any distance through hexes free of enemy units: R4, 5 hexes away, is in supply.
    assert out_of_supply(tmp_path, capsys, RULES, overlay="""
overlay long "House rule: long supply lines" amends "supply.rules" {
  amend H-1 "Supply runs any distance" [5.2 house rule] {
    replace function in_supply(u: unit) [5.2 house rule] = u.on_map and distance(supply_sources(u.side), u.location, supply_open(u.side)) != none
  }
}
""") == ""


def test_a_unit_back_in_supply_starts_its_count_again(capsys):
    # The garrison stays on a 3 and marches away on a 6: R1 is out of supply at two checks, then in
    # supply, and its count is cleared (its expectations say so).
    assert main(["run", str(LANG / "supply_siege.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert "[5.0] R1 is in supply again\n  [5.0] R1.out_of_supply_turns is now 0\n" in out
    assert "result: 3 of 3 expectations met" in out
