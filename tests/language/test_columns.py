"""Column tables (language 8.3): odds, difference and value columns, shifts, the policy beyond
the columns, declared results with effects, overlays that change a shift, and exact odds over
a column table. Each test runs the CLI on a small game written here."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from interpreter.cli import main

RULES = """
game siegecraft "Siegecraft" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [1.2]
}
table assault(attack: int, defence: int, works: bool, friction: bool) "Assault Table" [6.1] {
  roll 1 d6
  columns odds(attack, defence) [6.1]: 1:2, 1:1, 3:2, 2:1, 3:1
  shift works: +2 when works [6.4]
  shift friction: -1 when friction [3.4]
  beyond columns: clamp [6.1]
  1..2 -> ae, ar, ar, ex, dr [6.1]
  3..4 -> ar, ex, dr, dr, de [6.1]
  5..6 -> ex, dr, de, de, de [6.1]
  result ae "attacker eliminated" [6.1]
  result ar "attacker retreats" [6.1]
  result ex "exchange" [6.1]
  result dr "defender retreats" [6.1]
  result de "defender eliminated" [6.1] { say "the garrison is gone" [6.1] }
}
table melee(attack: int, defence: int) "Melee" [7.1] {
  roll 1 d6
  columns difference(attack, defence) [7.1]: -9..-1 "behind", 0, 1..3 "ahead", 4..20 "far ahead"
  beyond columns: unresolved [7.1]
  1..3 -> miss, miss, hit, hit [7.1]
  4..6 -> miss, hit, hit, kill [7.1]
}
table weather(ships: int) "Weather" [8.1] {
  roll 1 d6
  columns value(ships) [8.1]: 1..5, 6..10, 11..20 "11 to 20 ships"
  beyond columns: no_effect [8.1]
  1..6 -> calm, squall, storm [8.1]
}
"""


def scenario(run: str, dice: str, expect: str) -> str:
    return f"""
scenario "case" uses "siege.rules" [6.1] {{
  run {run}
  dice {{ {dice} }}
  expect {{
    {expect}
  }}
}}
"""


def play(tmp_path, capsys, run: str, dice: str, expect: str, *extra: str) -> tuple[int, str, str]:
    (tmp_path / "siege.rules").write_text(RULES)
    (tmp_path / "case.scenario").write_text(scenario(run, dice, expect))
    code = main(["run", str(tmp_path / "case.scenario"), *extra])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_odds_round_down_to_a_column_and_shifts_move_it(tmp_path, capsys):
    # 7 to 3 is 2.33: the 2:1 column; siege works move it two to the right, past 3:1, read as 3:1.
    code, out, _ = play(tmp_path, capsys, "assault(7, 3, true, false)", '3 "assault"',
                        'fact("assault column") == "3:1"\n    fact("assault result") == de')
    assert code == 0, out
    assert "[6.1] assault: odds 7:3 -> 2:1, works +2 [6.4] -> right of 3:1, read as 3:1 [6.1]; roll 3 = 3 -> defender eliminated" in out
    assert "[6.1] the garrison is gone" in out


def test_two_shifts_add_up(tmp_path, capsys):
    # 3 to 2 is exactly the 3:2 column; +2 and -1 leave it one to the right: 2:1.
    code, out, _ = play(tmp_path, capsys, "assault(3, 2, true, true)", '1 "assault"', 'fact("assault column") == "2:1"')
    assert code == 0, out
    assert "odds 3:2 -> 3:2, works +2 [6.4] -> 3:1, friction -1 [3.4] -> 2:1; roll 1 = 1 -> exchange" in out


def test_odds_below_the_first_column_are_read_by_the_policy(tmp_path, capsys):
    code, out, _ = play(tmp_path, capsys, "assault(1, 5, false, false)", '1 "assault"', "fact(\"assault result\") == ae")
    assert code == 0, out
    assert "odds 1:5 -> left of 1:2, read as 1:2 [6.1]; roll 1 = 1 -> attacker eliminated" in out


def test_a_defence_of_nothing_is_off_the_right_of_the_table(tmp_path, capsys):
    code, out, _ = play(tmp_path, capsys, "assault(4, 0, false, false)", '6 "assault"', 'fact("assault column") == "3:1"')
    assert code == 0, out
    assert "odds 4:0 -> right of 3:1, read as 3:1 [6.1]; roll 6 = 6 -> defender eliminated" in out


def test_difference_columns_with_labels(tmp_path, capsys):
    code, out, _ = play(tmp_path, capsys, "melee(9, 6)", '4 "melee"', 'fact("melee result") == hit\n    fact("melee column") == "ahead"')
    assert code == 0, out
    assert "[7.1] melee: difference 3 -> ahead; roll 4 = 4 -> hit" in out


def test_a_difference_off_the_table_stops_the_run_when_unresolved(tmp_path, capsys):
    code, out, err = play(tmp_path, capsys, "melee(1, 12)", '4 "melee"', "true")
    assert code == 1
    assert "melee: difference -11 -> left of behind: the column is off the table and the rulebook gives no ruling" in err
    assert "Traceback" not in err


def test_a_value_off_the_table_has_no_effect_when_so_ruled(tmp_path, capsys):
    code, out, _ = play(tmp_path, capsys, "weather(30)", "", "true")
    assert code == 0, out
    assert "[8.1] weather: value 30 -> right of 11 to 20 ships, beyond the columns: no effect" in out


def test_an_overlay_changes_a_shift(tmp_path, capsys):
    (tmp_path / "works.overlay").write_text("""
overlay halfworks "House rule: siege works shift one column" amends "siege.rules" {
  amend HR-1 "Siege works are worth one column" [HR-1] {
    replace shift works of table assault with shift works: +1 when works [HR-1]
  }
}
""")
    code, out, _ = play(tmp_path, capsys, "assault(3, 2, true, false)", '1 "assault"', 'fact("assault column") == "2:1"',
                        "--with", str(tmp_path / "works.overlay"))
    assert code == 0, out
    assert "works +1 [HR-1] -> 2:1" in out


def test_exact_odds_over_a_column_table(tmp_path, capsys):
    (tmp_path / "siege.rules").write_text(RULES)
    (tmp_path / "odds.scenario").write_text(scenario("assault(2, 1, false, false)", "", "true").replace('dice {  }', ""))
    assert main(["odds", str(tmp_path / "odds.scenario"), "--fact", "assault result"]) == 0
    out = capsys.readouterr().out
    # The 2:1 column reads ex, dr, de on two faces each.
    shares = dict(re.findall(r"^  (\w+) +(\S+) ", out, re.M))
    assert {k: Fraction(v) for k, v in shares.items()} == {"ex": Fraction(1, 3), "dr": Fraction(1, 3), "de": Fraction(1, 3)}
    assert "total probability: 1 (exactly)" in out


@pytest.mark.parametrize("change, message", [
    ("1:2, 1:1, 3:2", "row 1..2 of table 'assault' has 5 cell(s) for 3 columns"),
    ("1:2, 3:2, 1:1, 2:1, 3:1", "column 1:1 of table 'assault' does not come after column 3:2"),
    ("1:2, 1..3, 3:2, 2:1, 3:1", "column 1..3 of table 'assault' should be a ratio such as 3:2 for columns odds(…)"),
])
def test_the_checker_reads_the_columns(tmp_path, capsys, change, message):
    (tmp_path / "siege.rules").write_text(RULES.replace("1:2, 1:1, 3:2, 2:1, 3:1", change))
    assert main(["check", str(tmp_path / "siege.rules")]) == 1
    assert message in capsys.readouterr().err


def test_a_table_with_columns_must_say_what_lies_beyond_them(tmp_path, capsys):
    (tmp_path / "siege.rules").write_text(RULES.replace("  beyond columns: clamp [6.1]\n", ""))
    assert main(["check", str(tmp_path / "siege.rules")]) == 1
    assert "table 'assault' has columns but does not say what a value beyond them means" in capsys.readouterr().err


def test_check_describes_the_columns_and_their_shifts(tmp_path, capsys):
    (tmp_path / "siege.rules").write_text(RULES)
    assert main(["check", str(tmp_path / "siege.rules")]) == 0
    out = capsys.readouterr()
    assert ("5 column(s) 1:2..3:1 by odds; shifts works +2 when works, friction -1 when friction; "
            "beyond the columns: clamp [6.1]") in out.out + out.err
