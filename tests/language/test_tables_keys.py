"""Issue 15 part 1 (what was left) on the toy game tests/lang/charts2.rules: open ranges (language 8.1),
tables read at two keys (8.6), argument types at lookup, numbers in column tables and partly printed
tables (8.7): the checker's findings and exact odds."""

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


def check(tmp_path, body: str, capsys) -> tuple[int, str]:
    return check_text(tmp_path, HEAD + body, capsys)


def test_the_toy_charts_check_clean_and_name_the_unprinted_keys(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", "tests/lang/charts2.rules"]) == 0
    out = "".join(capsys.readouterr())  # the diagnostics (standard error) and the summary
    assert ("table 'storm_losses' is printed only in part [3.0]: the rulebook does not print the result for "
            "(severity, zone) = 12.., 3") in out
    assert ("table 'damage' is printed only in part [4.0]: the rulebook does not print the result for the roll "
            "1..2 in column 11 or more; 3..4 in column 6..10; 3..4 in column 11 or more") in out
    assert "the rows are open-ended ('..N', 'N..'), so every value it can take has a row" in out


def test_an_open_row_reads_every_roll_past_its_end(tmp_path, capsys):
    # 5.. on a d6 with a +3 modifier: 4..9 all read; no 'beyond' needed below 1 either with '..1'.
    code, out = check(tmp_path, '''table t(bonus: int) "T" [1.0] {
  roll 1 d6
  modifier bonus: bonus [1.0]
  ..1 -> low [1.0]
  2..4 -> mid [1.0]
  5.. -> high [1.0]
}
procedure p() [1.0] {
  lookup r = t(3) [1.0]
}
''', capsys)
    assert code == 0, out
    assert "rows cover any number" in out and "every value it can take has a row" in out


def test_a_gap_in_a_two_key_table_is_named_by_both_keys(tmp_path, capsys):
    code, out = check(tmp_path, '''table t(a: int, b: int) "T" [1.0] {
  read at a, b
  1..5, 1..2 -> calm [1.0]
  6..9, 1 -> gale [1.0]
  10.., 1..2 -> storm [1.0]
}
''', capsys)
    assert code == 1
    assert "table 't' has no row for (a, b) = 6..9, 2" in out


def test_two_key_rows_overlap_only_when_both_keys_do(tmp_path, capsys):
    body = '''table t(a: int, b: int) "T" [1.0] {
  read at a, b
  1..5, 1 -> calm [1.0]
  1..5, 2 -> gale [1.0]
  4..5, ROW -> storm [1.0]
}
'''
    code, out = check(tmp_path, body.replace("ROW", "2"), capsys)
    assert code == 1 and "row 4..5, 2 overlaps row 1..5, 2 at line 8" in out
    code, out = check(tmp_path, body.replace("ROW", "3"), capsys)
    assert "overlaps" not in out


def test_a_row_with_one_key_in_a_two_key_table_is_refused(tmp_path, capsys):
    code, out = check(tmp_path, '''table t(a: int, b: int) "T" [1.0] {
  read at a, b
  1..5 -> calm [1.0]
}
''', capsys)
    assert code == 1
    assert "row 1..5 of table 't' gives 1 key(s), but the table is read at 2: a, b" in out


def test_odds_report_how_likely_an_unprinted_result_is(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/charts2_two_keys.scenario"]) == 0
    out = capsys.readouterr().out
    assert ("the rulebook does not print: storm_losses at severity 12, zone 3, reached with probability 1/36 (2.8%): "
            "those paths end there (fact 'unprinted')") in out
    assert "  none                1/36   2.7778%" in out  # zone 3's loss is never recorded on the 6-6 path
    assert "total probability: 1 (exactly)" in out
    # The replay and the Monte Carlo end such a path as branching does, instead of stopping.
    assert main(["odds", "tests/lang/charts2_two_keys.scenario", "--replay", "--monte-carlo", "200"]) == 0
    out = capsys.readouterr().out
    assert ("the rulebook does not print: storm_losses at severity 12, zone 3, reached with probability 1/36 (2.8%): "
            "those paths end there (fact 'unprinted')") in out
    assert "monte carlo" in out and "total probability: 1 (exactly)" in out


def test_odds_of_a_column_table_of_numbers_printed_in_part(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/charts2_numbers_in_columns.scenario"]) == 0
    out = capsys.readouterr().out
    # 12 ships read the last column: rolls 1-4 read '?' (4/6), 5-6 give 4 hits.
    assert "damage at the roll 1 in column 11 or more, reached with probability 1/6" in out
    assert "damage at the roll 3 in column 11 or more, reached with probability 1/6" in out


def test_a_rounded_division_is_bounded_as_it_rounds(tmp_path, capsys):
    # 2d6 / 2 rounded up is 1..6; at least 2 makes it 2..6: the table's rows 2..6 cover it, no warning.
    code, out = check(tmp_path, '''table t(v: int) "T" [1.0] {
  read at v
  2..6 -> 1 [1.0]
}
procedure p() [1.0] {
  roll r = 2 d6 [1.0]
  lookup x = t(r / 2 rounded up at least 2) [1.0]
}
''', capsys)
    assert code == 0, out
    assert "table t [1.0]: the value ranges over 2..6 (read at v (= 2..6)); rows cover 2..6; every value it can take has a row" in out
    assert "v: 2..6, from r / 2 rounded up at least 2 in procedure p [1.0]" in out


def test_only_a_division_is_rounded(tmp_path, capsys):
    code, out = check(tmp_path, '''procedure p(a: int) [1.0] {
  record "x" = a * 2 rounded up [1.0]
}
''', capsys)
    assert code == 1
    assert "only a division is rounded, not '*'" in out


def test_rounding_rounds_negative_values_and_divisors_exactly():
    from interpreter.runtime.execution.operations import rounded_division
    from interpreter.syntax.diagnostics import Span

    span = Span(file="t", line=1, col=1, end_line=1, end_col=2)
    cases = {("up", 7, 2): 4, ("down", 7, 2): 3, ("nearest", 7, 2): 4, ("nearest", 5, 4): 1, ("up", -7, 2): -3,
             ("down", -7, 2): -4, ("up", 7, -2): -3, ("nearest", -5, 2): -2}
    for (mode, a, b), want in cases.items():
        assert rounded_division(a, b, mode, None, span, None) == want, (mode, a, b)
    assert rounded_division(1, 3, "down", 1, span, None) == 1


def test_odds_of_a_chart_read_at_two_dice_kept_apart(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/charts2_two_dice.scenario"]) == 0
    out = capsys.readouterr().out
    assert "blue_wins                 1/2" in out and "drawn                 1/4" in out and "red_wins                 1/4" in out


def test_a_face_counts_in_the_bounds_of_its_stats(tmp_path, capsys):
    # defense is printed 4 and shown 2 on the damaged face: a table read at it sees 2..4.
    code, out = check(tmp_path, '''stat defense "defense value" [2.0]
class ship "ship" [2.0]
type frigate "Frigate": ship [2.1] { defense: 4 }
unit state condition: {undamaged, damaged} [2.3]
face of frigate when condition is damaged [2.4] { defense: 2 }
table t(v: int) "T" [1.0] {
  read at v
  2..4 -> 1 [1.0]
}
procedure p(s: unit) [1.0] {
  lookup x = t(s.defense) [1.0]
}
''', capsys)
    assert code == 0, out
    assert "the value ranges over 2..4" in out and "frigate damaged 2" in out


def test_a_face_needs_an_enumerated_unit_state(tmp_path, capsys):
    code, out = check(tmp_path, '''stat defense "defense value" [2.0]
class ship "ship" [2.0]
type frigate "Frigate": ship [2.1] { defense: 4 }
unit state damaged: bool [2.3]
face of frigate when damaged is true [2.4] { defense: 2 }
''', capsys)
    assert code == 1
    assert "a face is shown while an enumerated or numbered unit state has a value, and 'damaged' is not one" in out
