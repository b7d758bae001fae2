"""The standard library's step_replacements (docs/library/step_replacements.md): a side's replacement
points rebuild steps of its reduced units, one at a time, at each one's cost; the game says which units
may take one. The toy game is tests/lang/step_replacements.rules; its scenario's trace is a snapshot in
test_language.py."""

from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
LANG = ROOT / "tests" / "lang"
SCENARIO = """scenario "s" uses "step_replacements.rules" [5.0] {
  places { hex 0101 {} hex 0102 {} hex 0201 {} hex 0202 {} hex 0301 {} }
  units {
    R1: guards of red at 0101 { steps_lost: 2 }
    R2: rifles of red at 0201 { steps_lost: 1 }
    R3: rifles of red at 0102 { steps_lost: 1 }
    B1: rifles of blue at 0301
  }
  WITH
  run replacements(red)
  decisions {
DECISIONS
  }
  expect {
EXPECT
  }
}
"""


def _run(tmp_path, capsys, decisions: list[str], expect: list[str], with_: str = "", copy: bool = True) -> tuple[int, str]:
    """The toy's rules (copied unless a test changed them) and a scenario of these decisions and expectations, run."""
    if copy:
        shutil.copy(LANG / "step_replacements.rules", tmp_path)
    path = tmp_path / "s.scenario"
    path.write_text(SCENARIO.replace("WITH", with_).replace("DECISIONS", "\n".join(f"    red {d}" for d in decisions))
                    .replace("EXPECT", "\n".join(f"    {e}" for e in expect)))
    code = main(["run", str(path), "--detail"])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_points_rebuild_steps_at_each_units_cost(tmp_path, capsys):
    # Two points: two rifle brigades at one each, not the guards at two; R2 is engaged (5.3).
    code, out = _run(tmp_path, capsys, ["restored: R3", "restored: R1 refused \"not one of the legal options\"",
                                        "restored: pass"],
                     ["R1.steps_lost == 2", "R3.steps_lost == 0", 'fact("unspent") == 1'])
    assert code == 0, out
    assert "R3 regains a step" in out and "4 of 4 expectations met" in out


def test_the_games_setting_says_who_may_take_a_step(tmp_path, capsys):
    code, out = _run(tmp_path, capsys, ["restored: R2 refused \"not one of the legal options\"", "restored: R3"],
                     ["R2.steps_lost == 1 and R3.steps_lost == 0"])
    assert code == 0 and "2 of 2 expectations met" in out, out
    # Without the game's 5.3 (engaged units take none), the library's default lets R2 rebuild.
    rules = tmp_path / "step_replacements.rules"
    text = rules.read_text()
    rules.write_text(text[:text.index("use step_replacements")] + "use step_replacements [5.0]\n"
                     + text[text.index("procedure replacements"):])
    code, out = _run(tmp_path, capsys, ["restored: R2", "restored: R3"], ["R2.steps_lost == 0 and R3.steps_lost == 0"],
                     copy=False)
    assert code == 0 and "R2 regains a step" in out, out


def test_a_side_that_declines_keeps_its_points(tmp_path, capsys):
    code, out = _run(tmp_path, capsys, ["restored: pass"], ["R1.steps_lost == 2", 'fact("unspent") == 2'])
    assert code == 0, out
    assert "regains a step" not in out


def test_an_overlay_replaces_the_mechanics_procedure(tmp_path, capsys):
    (tmp_path / "free.house").write_text("""overlay free "Toy house rule: every reduced unit is rebuilt free" amends "step_replacements.rules" {
  amend H-1 "Free replacements" [5.0 house rule] {
    replace procedure restore_steps(s: side) [5.0 house rule] {
      for each u in [u for u in all_units() where u.side == s and is_reduced(u)] [5.0 house rule] {
        call restore_step(u) [5.0 house rule]
      }
      return replacement_points(s)
    }
  }
}
""")
    code, out = _run(tmp_path, capsys, [], ["R2.steps_lost == 0 and R3.steps_lost == 0", 'fact("unspent") == 2'],
                     'with "free.house"')
    assert code == 0, out
    assert out.count("regains a step") == 3
