"""The standard library's retreats mechanic (docs/library/retreats.md): a retreat of N hexes picked
hex by hex, each farther from the start, never twice the same hex; a unit that cannot finish it
losing what the game says; the advance after combat. The toy game is tests/lang/retreats.rules; its
scenarios' traces are snapshots in test_language.py. Here: the exact odds of a rout, a position taken
between two hexes of a retreat, an overlay replacing the rule of which hexes a retreat may enter,
and the game's retreat_loss deciding whether a unit short of its retreat survives."""

from __future__ import annotations

import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from positions import as_data, loaded, resumed, started

from interpreter.cli import main
from interpreter.runtime.common.requests import ChoiceRequest

LANG = Path(__file__).resolve().parent.parent / "lang"


def shares(out: str) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in re.findall(r"^ +(\S+) +(\d+(?:/\d+)?) ", out, re.M)}


def test_odds_of_a_rout_that_falls_short(capsys):
    # The brigade can retreat one hex only: a 1 costs nothing, a 2 one step (1 hex short), 3 to 6
    # both its steps.
    assert main(["odds", str(LANG / "retreats_rout.scenario"), "--fact", "steps left"]) == 0
    out = capsys.readouterr().out
    assert shares(out) == {"0": Fraction(2, 3), "1": Fraction(1, 6), "2": Fraction(1, 6)}
    assert "total probability: 1 (exactly)" in out


def _in(tmp_path: Path, scenario: str, rules: str | None = None, house: str | None = None) -> Path:
    """A copy of the toy game and one of its scenarios in tmp_path, the rules text or a house rule changed."""
    (tmp_path / "retreats.rules").write_text(rules if rules is not None else (LANG / "retreats.rules").read_text())
    shutil.copy(LANG / scenario, tmp_path)
    if house is not None:
        (tmp_path / "h.house").write_text(house)
        text = (tmp_path / scenario).read_text()
        (tmp_path / scenario).write_text(text.replace("  units {", '  with "h.house"\n  units {', 1))
    return tmp_path / scenario


def test_a_position_between_two_hexes_keeps_where_the_retreat_started_and_has_been(tmp_path, monkeypatch):
    # A retreat of three hexes from 0302 on an open field: through 0401 and 0502, the third hex is
    # 0601 or 0602, farther from 0302 (three hexes away); a position taken at the choice of the second
    # goes on with the same start and the hexes it has been through.
    shutil.copy(LANG / "retreats.rules", tmp_path)
    hexes = " ".join(f"hex 0{c}0{r} {{ }}" for c in range(1, 7) for r in range(1, 4))
    (tmp_path / "open.scenario").write_text(f"""
scenario "open" uses "retreats.rules" [7.0] {{
  places {{ {hexes} }}
  units {{ B1: rifles of blue at 0302 }}
  run retreat(B1, 3)
  expect {{ true }}
}}
""")
    monkeypatch.chdir(tmp_path)
    sym, sources, sc = loaded("open.scenario")
    engine, proc = started(sym, sources, sc)
    first = proc.send(None)
    assert isinstance(first, ChoiceRequest) and sorted(map(str, first.options)) == ["0201", "0202", "0301", "0303", "0401", "0402"]
    second = proc.send(_option(first, "0401"))
    assert isinstance(second, ChoiceRequest) and second.prompt == "retreat B1 hex 2 of 3"
    assert sorted(map(str, second.options)) == ["0501", "0502"], "farther from 0302, not back"
    other, shell = resumed(as_data(engine, proc), sym, sources, sc)
    thirds = []
    for process, eng in ((proc, engine), (shell, other)):
        third = process.send(eng.state.places["0502"])  # each engine's own hex
        assert isinstance(third, ChoiceRequest) and third.prompt == "retreat B1 hex 3 of 3"
        thirds.append(sorted(map(str, third.options)))
        with pytest.raises(StopIteration):
            process.send(_option(third, "0602"))
        assert str(eng.state.units["B1"].location) == "0602"
    assert thirds == [["0601", "0602"], ["0601", "0602"]]


def _option(req: ChoiceRequest, name: str):
    return next(o for o in req.options if str(o) == name)


def test_an_overlay_lets_a_retreat_go_sideways(tmp_path, capsys):
    # A house rule replaces the mechanic's function of the hexes a retreat may enter: no nearer to the
    # start, instead of farther. From 0401, 0402 is then open beside 0502.
    house = """
overlay sideways "House rule: a retreat may go sideways" amends "retreats.rules" {
  amend H-1 "Sideways retreats" [7.0 house rule] {
    replace function retreat_options(u: unit, start: place, here: place, been: list) [7.0 house rule] = [p for p in adjacent(here) where not (p in been) and retreat_crosses(here, p) and may_retreat_into(u, p) and distance(start, p, places()) >= distance(start, here, places())]
  }
}
"""
    path = _in(tmp_path, "retreats_path.scenario", house=house)
    path.write_text(path.read_text().replace("    blue retreat_to: 0401\n", "    blue retreat_to: 0401\n    blue retreat_to: 0402\n")
                    .replace("B1.location == @0502", "B1.location == @0402"))
    assert main(["run", str(path), "--detail"]) == 0, capsys.readouterr().out
    assert "blue retreat_to: 0402\n" in capsys.readouterr().out
    # Without the house rule 0402 is no farther from 0302 than 0401: 0502 is the only hex left, and
    # the script's answer is never asked for.
    path.write_text(path.read_text().replace('  with "h.house"\n', ""))
    assert main(["run", str(path), "--detail"]) == 1
    out = capsys.readouterr()
    assert "blue retreat_to: 0502 (no other choice)" in out.out and "decision 'blue retreat_to: 0402' at line 20 was never asked" in out.err


def test_the_games_retreat_loss_decides_whether_a_unit_short_of_its_retreat_survives(tmp_path, capsys):
    # The toy loses a step per hex short (7.3); by default a unit that cannot retreat is eliminated.
    text = (LANG / "retreats.rules").read_text()
    assert "  retreat_loss = short [7.3]\n" in text
    path = _in(tmp_path, "retreats_blocked.scenario", rules=text.replace("  retreat_loss = short [7.3]\n", ""))
    assert main(["run", str(path)]) == 1
    out = capsys.readouterr().out
    assert "B1 is eliminated (its last step lost)" in out and "FAIL B1.location == @0301" in out
    assert main(["run", str(LANG / "retreats_blocked.scenario")]) == 0
    assert "B1 loses a step" in capsys.readouterr().out


def test_the_toy_game_checks_clean(capsys):
    assert main(["check", str(LANG / "retreats.rules")]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out
