"""Tables read at a given value (language 8.4): no roll of their own, the same rows, modifiers,
out-of-range policy, analysis and exact odds as rolled tables. The toy game is tests/lang/charts.rules."""

from __future__ import annotations

from pathlib import Path

from checking import check_text

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
HEAD = '''game skirmish "Skirmish" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
'''


def test_the_toy_charts_check_clean_with_the_range_of_the_value(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", "tests/lang/charts.rules"]) == 0
    out = capsys.readouterr().err  # the diagnostics
    assert ("table storm_effect [3.0]: the modified value ranges over 0..12 (read at severity (= 2..12); "
            "harbour -2 when sheltered); rows cover 0..12") in out
    assert "note: severity: 2..12, from severity in procedure storm [3.0]" in out


def test_odds_run_through_a_read_at_table_whose_value_was_rolled_before(capsys, monkeypatch):
    # One storm roll (2d6) read for both fleets, the second with -2: one roll waits for dice, not three; its
    # dice kept as a distribution and read by their total, so 11 outcomes (the totals) are sent on, not 21 multisets.
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/read_at.scenario"]) == 0
    out = capsys.readouterr().out
    assert "1 waited for dice, 11 outcomes sent on" in out
    red = out.split("storm red:")[1].split("storm blue:")[0]
    blue = out.split("storm blue:")[1].split("jointly")[0]
    assert "calm                 1/6" in red and "damaged                5/12" in red
    assert "calm                5/12" in blue and "damaged                 1/6" in blue
    assert "total probability: 1 (exactly)" in out


def check(tmp_path, body: str, capsys) -> tuple[int, str]:
    return check_text(tmp_path, HEAD + body, capsys)


def test_a_table_read_at_a_parameter_that_is_not_a_number_is_refused(tmp_path, capsys):
    code, out = check(tmp_path, '''table t(points: bool) "T" [1.0] {
  read at points
  0..1 -> a [1.0]
}
''', capsys)
    assert code == 1
    assert "table 't' is read at 'points', a parameter of type bool, not int" in out



def test_a_rolled_table_can_give_a_number_too(tmp_path, capsys, monkeypatch):
    (tmp_path / "t.rules").write_text(HEAD + '''table reinforcements() "Reinforcements" [3.0] {
  roll 1 d6
  1..3 -> 0 [3.1]
  4..6 -> 2 "two ships" [3.2]
}
procedure muster(ships: int) [3.0] {
  lookup more = reinforcements() [3.0]
  record "ships" = ships + more [3.0]
}
''', encoding="utf-8")
    (tmp_path / "s.scenario").write_text('''scenario "x" uses "t.rules" [3.0] {
  run muster(3)
  dice { 5 "reinforcements" }
  expect { fact("ships") == 5 }
}
''', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["run", "s.scenario"]) == 0
    out = capsys.readouterr().out
    assert "[3.2] reinforcements: roll 5 = 5 -> two ships" in out
    assert 'ok   fact("ships") == 5' in out


def test_a_table_with_columns_gives_numbers_or_names_not_both(tmp_path, capsys):
    # Numbers in the cells of a column table (language 8.5, issue 15 part 1): every cell a number, or every one a name.
    table = '''table t(a: int, b: int) "T" [1.0] {
  roll 1 d6
  columns odds(a, b) [1.0]: 1:1, 2:1
  beyond columns: clamp [1.0]
  1..3 -> 3, 4 [1.0]
  4..6 -> 5, ROW [1.0]
}
'''
    assert check(tmp_path, table.replace("ROW", "6"), capsys)[0] == 0
    code, out = check(tmp_path, table.replace("ROW", "rout"), capsys)
    assert code == 1
    assert ("row 4..6 of table 't' names the result 'rout', but row 1..3 gives a number: a table gives numbers or names, "
            "not both") in out


def test_odds_of_a_number_read_from_a_chart(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/numeric_result.scenario"]) == 0
    out = capsys.readouterr().out
    assert "3, 2                 1/2" in out and "4, 1                 1/3" in out and "5, 0                 1/6" in out
