"""The standard library's steps mechanic (docs/library/steps.md): a counter's steps and reduced
faces. The toy game is tests/lang/steps.rules; its scenarios' traces are snapshots in
test_language.py. Here: the exact odds of a brigade's steps after two bombardments, a position
taken between them keeping the step lost and the face shown, an overlay replacing the mechanic's
replacement rule, and the game's step count deciding whether a guard division survives."""

from __future__ import annotations

import re
import shutil
from fractions import Fraction
from pathlib import Path

from positions import as_data, loaded, resumed, resumed_alike, started

from interpreter.cli import main
from interpreter.runtime.common.requests import RollRequest

LANG = Path(__file__).resolve().parent.parent / "lang"


def shares(out: str) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in re.findall(r"^ +(\S+) +(\d+(?:/\d+)?) ", out, re.M)}


def test_odds_of_a_brigades_steps_after_two_bombardments(capsys):
    # Each bombardment: a miss 1/3, one step 1/2, two steps 1/6. A brigade of two steps keeps both
    # only after two misses (1/9), one after a miss and a hit either way round (2 * 1/3 * 1/2).
    assert main(["odds", str(LANG / "steps_flip.scenario"), "--fact", "steps left", "--fact", "attack"]) == 0
    out = capsys.readouterr().out
    left, attack = out.split("attack:")[0], out.split("attack:")[1].split("jointly")[0]
    assert shares(left) == {"0": Fraction(5, 9), "1": Fraction(1, 3), "2": Fraction(1, 9)}
    assert shares(attack) == {"0": Fraction(5, 9), "2": Fraction(1, 3), "4": Fraction(1, 9)}, "the reduced face's 2"


def test_a_position_between_bombardments_keeps_the_step_lost_and_the_face(monkeypatch):
    monkeypatch.chdir(LANG)
    sym, sources, sc = loaded(str(LANG / "steps_flip.scenario"))
    engine, proc = started(sym, sources, sc)
    assert isinstance(proc.send(None), RollRequest)
    assert isinstance(proc.send([4]), RollRequest)  # one step lost; the second bombardment waits
    other, shell = resumed(as_data(engine, proc), sym, sources, sc)
    b1 = other.state.units["B1"]
    assert b1.state["steps_lost"] == 1
    for process, eng in ((proc, engine), (shell, other)):
        try:
            process.send([1])
        except StopIteration:
            pass
        assert eng.state.facts["steps left"] == 1 and eng.state.facts["attack"] == 2
    assert resumed_alike(sym, sources, sc, range(6), (2,)) == 6


def test_an_overlay_replaces_the_replacement_rule(tmp_path, capsys):
    shutil.copy(LANG / "steps.rules", tmp_path)
    shutil.copy(LANG / "steps_replace.scenario", tmp_path)
    (tmp_path / "full.house").write_text("""
overlay full "House rule: a replacement restores a unit to full strength" amends "steps.rules" {
  amend H-1 "Full replacements" [5.0 house rule] {
    replace procedure restore_step(u: unit) [5.0 house rule] {
      set u.steps_lost = 0 [5.0 house rule]
      say "{u} is rebuilt to full strength" [5.0 house rule]
    }
  }
}
""")
    scenario = (tmp_path / "steps_replace.scenario").read_text()
    (tmp_path / "steps_replace.scenario").write_text(scenario.replace("run replace(R1)", 'with "full.house"\n  run replace(R1)'))
    assert main(["run", str(tmp_path / "steps_replace.scenario")]) == 1
    out = capsys.readouterr().out
    assert "R1 is rebuilt to full strength" in out
    assert "FAIL fact(\"steps left\") == 2" in out and "FAIL fact(\"attack\") == 6" in out  # 3 steps, attack 9


def test_the_games_step_count_decides_whether_the_guards_survive(tmp_path, capsys):
    # With the default of two steps, the two steps a 6 costs eliminate a guard division.
    text = (LANG / "steps.rules").read_text()
    given = "use steps [2.2] {\n  step_count = if u is guards then 3 else 2 [2.2]\n}"
    assert given in text
    (tmp_path / "steps.rules").write_text(text.replace(given, "use steps [2.2]"))
    shutil.copy(LANG / "steps_guards.scenario", tmp_path)
    assert main(["run", str(tmp_path / "steps_guards.scenario")]) == 1
    out = capsys.readouterr().out
    assert "R1 is eliminated (its last step lost)" in out and "FAIL fact(\"steps left\") == 1" in out
    assert main(["run", str(LANG / "steps_guards.scenario")]) == 0
    assert "R1 loses 2 steps" in capsys.readouterr().out


def test_the_toy_game_checks_clean(capsys):
    assert main(["check", str(LANG / "steps.rules")]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out
