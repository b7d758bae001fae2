"""Turn names (language 4): a calendar's names in the game header, `turn_name(n)`, a scenario's
`at turn "NAME"`, and the name printed beside the turn's number where the trace and `umpire play`
print it, only in a game that names its turns (tests/lang/calendar.rules)."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def test_play_prints_each_turn_with_its_name(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["play", "tests/lang/calendar.rules", "--seed", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    steps = [line for line in out if ", admiralty, orders" in line]
    assert [s.split("] ", 1)[1] for s in steps[3:6]] == [
        "turn 4 (Feb I), admiralty, orders", "turn 5 (Feb II), admiralty, orders", "turn 6 (Feb III), admiralty, orders"]
    assert len(steps) == 12
    assert out[-1] == "[1.3] the game ends after turn 12 (Apr III)"
    assert "[2.1] a squadron promised in Jan I arrives in Mar I" in out


def test_a_game_without_names_prints_numbers_alone(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["play", "tests/lang/draws.rules", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1] == "[6.0] turn 1, pull, activations"
    assert out.splitlines()[-1] == "[1.3] the game ends after turn 2"


def test_the_json_trace_gives_the_turn_name_only_in_a_game_that_has_names(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["run", "tests/lang/calendar_ahead.scenario", "--json"]) == 0
    trace = json.loads(capsys.readouterr().out)["trace"]
    assert {(e["turn"], e["turn_name"]) for e in trace} == {(5, "Feb II")}
    assert main(["run", "tests/lang/winds_rose.scenario", "--json"]) == 0
    assert all("turn_name" not in e for e in json.loads(capsys.readouterr().out)["trace"])


def test_thirty_six_names_over_twelve_lines(tmp_path, capsys):
    """SoG's calendar: three turns a month, the list written a month to a line."""
    lines = ",\n             ".join(", ".join(f'"{m} {r}"' for r in ("I", "II", "III")) for m in MONTHS)
    (tmp_path / "year.rules").write_text(f'''game year "A Year" [1.0] {{
  sides red, blue [1.1]
  die d6 1..6 [1.2]
  turns 36 [1.3]
  turn names {lines} [1.3]
}}
procedure ahead(n: int) [2.0] {{
  record "name" = turn_name(turn() + n) [2.0]
}}
''')
    (tmp_path / "ahead.scenario").write_text('''scenario "six ahead" uses "year.rules" [2.0] {
  at turn "Feb II"
  run ahead(6)
  expect {
    fact("name") == "Apr II"
    turn() == 5 and turn_name(36) == "Dec III" and turn_name(1) == "Jan I"
  }
}
''')
    assert main(["check", str(tmp_path / "year.rules")]) == 0
    assert main(["run", str(tmp_path / "ahead.scenario")]) == 0
    assert "result: 2 of 2 expectations met" in capsys.readouterr().out


def test_turn_name_is_none_in_a_game_without_names(tmp_path, capsys):
    (tmp_path / "plain.rules").write_text('''game plain "Plain" [1.0] {
  sides red, blue [1.1]
  die d6 1..6 [1.2]
  turns 3 [1.3]
}
procedure look() [2.0] {
  record "name" = turn_name(2) [2.0]
}
''')
    (tmp_path / "look.scenario").write_text('''scenario "look" uses "plain.rules" [2.0] {
  at turn 2
  run look()
  expect {
    fact("name") == none
  }
}
''')
    assert main(["run", str(tmp_path / "look.scenario")]) == 0
    assert "result: 1 of 1 expectations met" in capsys.readouterr().out
