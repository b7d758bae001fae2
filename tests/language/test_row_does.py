"""A row whose effect is one procedure given its arguments (language 8.1): `3 -> storm "…" [6.3] =
ships_lost(english, 1)` runs as its block `{ call ships_lost(english, 1) }` would, keeps the row's own
result and label, and reads as data in the shape of the ruleset."""

from __future__ import annotations

import json
import re
from pathlib import Path

from checking import check_text

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = '''game seas "Seas" [1.0] {
  sides english "English", spanish "Spanish" [1.1]
  die d6 1..6 [1.2]
}
state lost: int per side [2.0]
table peril(stack: int) "Perilous Sea" [6.3] {
  roll 1 d6
  1..2 -> calm "No effect" [6.3]
  3..4 -> squall "A squall: one ship lost" [6.3] = ships_lost(english, 1)
  5..6 -> storm "A storm: two ships lost" [6.3] = ships_lost(english, min(2, stack))
}
procedure ships_lost(s: side, n: int) [6.4] {
  set lost[s] = n [6.4]
}
procedure sail() [6.0] {
  lookup outcome = peril(3) [6.0]
  record "outcome" = outcome [6.0]
  record "lost" = lost[english] [6.0]
}
'''


def _run(tmp_path, capsys, die: int) -> str:
    (tmp_path / "t.rules").write_text(RULES, encoding="utf-8")
    (tmp_path / "t.scenario").write_text(f'scenario "s" uses "t.rules" [6.0] {{\n  run sail()\n  dice {{ {die} }}\n'
                                         '  expect { true }\n}\n', encoding="utf-8")
    assert main(["run", str(tmp_path / "t.scenario"), "--detail"]) == 0
    return capsys.readouterr().out


def test_the_row_runs_its_procedure_and_keeps_its_own_result(tmp_path, capsys):
    out = _run(tmp_path, capsys, 5)
    assert "[6.3] peril: roll 5 = 5 -> A storm: two ships lost" in out
    assert "record outcome = storm" in out and "record lost = 2" in out
    out = _run(tmp_path, capsys, 3)
    assert "record outcome = squall" in out and "record lost = 1" in out


def test_the_call_is_checked_as_a_call(tmp_path, capsys):
    code, out = check_text(tmp_path, RULES.replace("= ships_lost(english, 1)", "= ship_lost(english, 1)"), capsys)
    assert code == 1 and "unknown procedure 'ship_lost'" in out and "did you mean 'ships_lost'?" in out


def test_the_row_is_data_in_the_shape(tmp_path, capsys):
    (tmp_path / "t.rules").write_text(RULES, encoding="utf-8")
    assert main(["coverage", "--shape", "--json", str(tmp_path / "t.rules")]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["statements"] == 4  # the procedures' bodies: set, lookup, two records; not the rows


STEPS = '''game drill "Drill" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [1.2]
  turns 1 [1.3]
}
state drilled: int per side [2.0]
procedure drill(s: side, n: int) [2.1] {
  set drilled[s] = n [2.1]
}
sequence [3.0] {
  phase red_turn active red [3.1] {
    step red_drill [3.1] = drill(red, 2)
  }
  phase blue_turn active blue [3.2] {
    step blue_drill [3.2] { call drill(blue, 3) [3.2] }
  }
}
'''


def test_a_step_written_as_the_procedure_it_runs_runs_it_and_is_data(tmp_path, capsys):
    (tmp_path / "t.rules").write_text(STEPS, encoding="utf-8")
    (tmp_path / "t.scenario").write_text('scenario "s" uses "t.rules" [3.0] {\n  at turn 1 phase red_turn step red_drill\n'
                                         '  run step red_drill\n  expect { drilled[red] == 2 }\n}\n', encoding="utf-8")
    assert main(["run", str(tmp_path / "t.scenario")]) == 0
    assert "1 of 1 expectations met" in capsys.readouterr().out
    assert main(["coverage", "--shape", "--json", str(tmp_path / "t.rules")]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["statements"] == 2  # the procedure's set and blue's block; red's step is data


def test_the_toys_odds_are_the_charts(capsys, monkeypatch):
    # tests/lang/perils.rules: a squadron of three; calm 1/3 keeps 3, a squall 1/3 leaves 2, a storm 1/6
    # leaves 1, the Briny Deep 1/6 none.
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/perils_storm.scenario", "--fact", "ships"]) == 0
    out = capsys.readouterr().out
    for ships, p in ((0, "1/6"), (1, "1/6"), (2, "1/3"), (3, "1/3")):
        assert re.search(rf"^\s+{ships}\s+{p}\s", out, re.M), (ships, p, out)


def test_a_hook_written_as_the_procedure_it_runs(tmp_path, capsys):
    rules = STEPS.replace("sequence [3.0] {", "on turn_start() [2.2] = drill(blue, 1)\nsequence [3.0] {")
    (tmp_path / "t.rules").write_text(rules, encoding="utf-8")
    assert main(["play", str(tmp_path / "t.rules"), "--agents", "first,first", "--seed", "1", "--detail"]) == 0
    assert "[2.1] drilled[blue] is now 1" in capsys.readouterr().out
    assert main(["coverage", "--shape", "--json", str(tmp_path / "t.rules")]) == 0
    assert json.loads(capsys.readouterr().out)["statements"] == 2  # as without the hook: it is data
