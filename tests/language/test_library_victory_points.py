"""The standard library's victory_points (interpreter/library/victory_points.rules,
docs/library/victory_points.md) on its toy game, tests/lang/victory_points.rules: control by the last
side to occupy a place alone, points for places and enemy units, exact odds of a sudden-death victory,
the game's settings changing them, a house rule replacing the library's procedure, the game played to
its end, and a game saved with the control it holds and resumed."""

from __future__ import annotations

import re
import shutil
from fractions import Fraction
from pathlib import Path

from interpreter.cli import main

LANG = Path(__file__).resolve().parent.parent / "lang"
RULES = LANG / "victory_points.rules"


def shares(out: str) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in re.findall(r"^ +(\S+) +(\d+(?:/\d+)?) ", out, re.M)}


def test_control_passes_to_the_last_side_alone_in_a_place(capsys):
    assert main(["run", str(LANG / "victory_points_control.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert "[7.0] red takes control of 0303\n" in out
    assert "takes control of 0202" not in out and "takes control of 0203" not in out  # contested; empty
    assert "[6.1] victory points: red 5, blue 2" in out
    assert "result: 4 of 4 expectations met" in out


def test_no_side_leads_when_they_are_level(capsys):
    assert main(["run", str(LANG / "victory_points_start.scenario")]) == 0
    out = capsys.readouterr().out
    assert "ok   leader() == none  -- level on points: no side leads" in out
    assert "result: 2 of 2 expectations met" in out


def test_exact_odds_of_a_sudden_death_victory(capsys):
    # Red holds 6 points of towns and attacks Blue's tanks (worth 2): 4 or more, 1/2, gives it 8.
    assert main(["odds", str(LANG / "victory_points_sudden.scenario"), "--fact", "sudden death"]) == 0
    out = capsys.readouterr().out
    assert shares(out) == {"red": Fraction(1, 2), "none": Fraction(1, 2)}
    assert "total probability: 1 (exactly)" in out


def test_the_games_settings_decide_the_points(tmp_path, capsys):
    # Without the game's unit_points an eliminated unit is worth nothing: Red stays at 6, no sudden death.
    (tmp_path / "victory_points.rules").write_text(RULES.read_text().replace("  unit_points = u.worth [7.2]\n", ""))
    shutil.copy(LANG / "victory_points_sudden.scenario", tmp_path)
    assert main(["odds", str(tmp_path / "victory_points_sudden.scenario"), "--fact", "sudden death"]) == 0
    assert shares(capsys.readouterr().out) == {"none": Fraction(1)}
    # A threshold of 6: Red has it already, whatever the die.
    (tmp_path / "victory_points.rules").write_text(RULES.read_text().replace("points_of(s) >= 8", "points_of(s) >= 6"))
    assert main(["odds", str(tmp_path / "victory_points_sudden.scenario"), "--fact", "sudden death"]) == 0
    assert shares(capsys.readouterr().out) == {"red": Fraction(1)}


def test_the_sudden_death_ends_the_game_and_the_games_hook_reads_it(capsys):
    assert main(["run", str(LANG / "victory_points_sudden.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert "[7.0] the game ends: sudden death: red wins with 8 victory points\n  [8.0] turn 2: game end\n  [7.3] winner is now red" in out
    assert "blue_turn" not in out


def test_a_house_rule_replaces_the_librarys_procedure(tmp_path, capsys):
    # Contested towns: a town where both sides stand has no controller.
    shutil.copy(RULES, tmp_path)
    (tmp_path / "contested.house").write_text("""
overlay contested "House rule: contested towns" amends "victory_points.rules" {
  amend H-1 "A town both sides occupy belongs to neither" [7.1 house rule] {
    replace procedure update_control() [7.1 house rule] {
      for each p in [p for p in places() where vp_tracked(p) and vp_occupiers(p) != []] [7.1 house rule] {
        let taker = if count(vp_occupiers(p)) == 1 then vp_occupiers(p)[0] else none
        if p.controller != taker [7.1 house rule] {
          say "control of {p}: {taker}" [7.1 house rule]
          set p.controller = taker [7.1 house rule]
        }
      }
    }
  }
}
""")
    text = (LANG / "victory_points_control.scenario").read_text()
    text = text.replace('[7.0] {\n  places', '[7.0] {\n  with "contested.house"\n  places', 1)
    text = text[:text.index("  expect {")] + "  expect { @0202.controller == none and points_of(blue) == 0 }\n}\n"
    (tmp_path / "c.scenario").write_text(text)
    assert main(["check", str(tmp_path / "contested.house")]) == 0, capsys.readouterr()
    assert main(["run", str(tmp_path / "c.scenario"), "--detail"]) == 0, capsys.readouterr().out
    assert "[7.1 house rule] control of 0202: none" in capsys.readouterr().out


def test_a_game_is_played_to_its_end_and_read_on_the_victory_levels(capsys):
    assert main(["play", str(RULES), "--agents", "random,random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "[1.3] the game ends after turn 4" in out
    assert "[8.1] victory_level: read at -4 -> Blue marginal victory" in out


def test_a_game_saved_with_the_control_it_holds_resumes_alike(tmp_path, capsys):
    # Seed 5: Blue takes 0202 and 0203 in turn 1; saved in turn 2, the game goes on to the same
    # sudden-death victory as the game played through.
    args = ["play", str(RULES), "--agents", "random,random", "--seed", "5"]
    assert main(args) == 0
    whole = capsys.readouterr().out
    assert "[7.0] the game ends: sudden death: blue wins with 8 victory points" in whole
    save = tmp_path / "save.toml"
    assert main([*args, "--stop-after", "10", "--save", str(save)]) == 0
    capsys.readouterr()
    assert save.read_text().count('controller = "blue"') == 3  # its home town, 0202 and 0203
    assert main(["play", "--load", str(save)]) == 0
    resumed = capsys.readouterr().out
    tail = [line for line in resumed.splitlines() if line.startswith("[")]
    assert tail and "\n".join(tail) in whole
    assert tail[-2:] == ["[7.0] the game ends: sudden death: blue wins with 8 victory points", "[8.0] turn 2: game end"]
