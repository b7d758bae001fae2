"""Odds columns as a rulebook prints them (language 8.3): '1-2, 1-1, 3-2' headers, the rounding of
odds between two columns ('rounded down|up|nearest'), and what lies below the first column and above
the last, each on its own line, a policy or a result of the table read with no roll. The exact odds
are checked against a hand computation."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from positions import as_data, loaded, resumed, started

from interpreter.cli import main
from interpreter.runtime.common.requests import RollRequest
from interpreter.runtime.execution.odds_columns import odds_column

# 1-1, 3-2, 2-1, 3-1; below 1-1 the attacker is eliminated, above 3-1 the defender, with no roll.
RULES = """
game storming "Storming" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [1.2]
}
table crt(attack: int, defence: int) "Combat Results Table" [6.1] {
  roll 1 d6
  columns odds(attack, defence) ROUNDING[6.1]: 1-1, 3-2, 2-1, 3-1
  ENDS
  1..3 -> ar, ar, ex, dr [6.1]
  4..6 -> ar, ex, dr, dr [6.1]
  result ae "attacker eliminated" [6.3] { say "the stormers are cut down" [6.3] }
  result ar "attacker retreats" [6.1]
  result ex "exchange" [6.1]
  result dr "defender retreats" [6.1]
  result de "defender eliminated" [6.3]
}
function odds_read(a: int, d: int) [7.0] = crt_value(a, d)
table crt_value(attack: int, defence: int) "Quick Combat Table" [7.0] {
  read at attack
  columns odds(attack, defence) [7.0]: 1-1, 2-1
  below columns: ae [7.1]
  above columns: no_effect [7.1]
  1..99 -> ar, ae [7.0]
}
# The attacking strength is a die: a sally of one to six companies against a fixed garrison.
procedure sally(garrison: int) [6.0] {
  roll companies = 1 d6 [6.0]
  lookup outcome = crt(companies, garrison) [6.0]
}
"""

ENDS = "below columns: ae [6.2]\n  above columns: de [6.2]"


def write(tmp_path, rounding: str = "", ends: str = ENDS) -> None:
    text = RULES.replace("ROUNDING", f"rounded {rounding} " if rounding else "").replace("ENDS", ends)
    (tmp_path / "storming.rules").write_text(text)


def play(tmp_path, capsys, run: str, dice: str, expect: str, **rules) -> tuple[int, str, str]:
    write(tmp_path, **rules)
    (tmp_path / "case.scenario").write_text(f"""
scenario "case" uses "storming.rules" [6.1] {{
  run {run}
  dice {{ {dice} }}
  expect {{
    {expect}
  }}
}}
""")
    code = main(["run", str(tmp_path / "case.scenario")])
    out = capsys.readouterr()
    return code, out.out, out.err


def odds_of(tmp_path, capsys, garrison: int, **rules) -> dict[str, Fraction]:
    write(tmp_path, **rules)
    (tmp_path / "odds.scenario").write_text(f"""
scenario "odds" uses "storming.rules" [6.0] {{
  run sally({garrison})
  expect {{ true }}
}}
""")
    assert main(["odds", str(tmp_path / "odds.scenario"), "--fact", "crt result"]) == 0
    out = capsys.readouterr().out
    assert "total probability: 1 (exactly)" in out
    return {k: Fraction(v) for k, v in re.findall(r"^  (\w+) +(\S+) ", out, re.M)}


def test_printed_columns_are_traced_as_written(tmp_path, capsys):
    # 7 to 3 is 2 1/3: rounded down, the 2-1 column; the odds are shown as the columns are written.
    code, out, _ = play(tmp_path, capsys, "crt(7, 3)", '4 "crt"', 'fact("crt column") == "2-1"\n    fact("crt result") == dr')
    assert code == 0, out
    assert "[6.1] crt: odds 7-3 -> 2-1; roll 4 = 4 -> defender retreats" in out


def test_ratio_columns_read_as_the_printed_ones(tmp_path, capsys):
    write(tmp_path)
    text = (tmp_path / "storming.rules").read_text().replace("1-1, 3-2, 2-1, 3-1", "1:1, 3:2, 2:1, 3:1")
    (tmp_path / "storming.rules").write_text(text)
    (tmp_path / "case.scenario").write_text("""
scenario "case" uses "storming.rules" [6.1] {
  run crt(7, 3)
  dice { 4 "crt" }
  expect { fact("crt column") == "2:1" }
}
""")
    assert main(["run", str(tmp_path / "case.scenario")]) == 0
    assert "[6.1] crt: odds 7:3 -> 2:1; roll 4 = 4 -> defender retreats" in capsys.readouterr().out


@pytest.mark.parametrize("rounding, column", [("", "2-1"), ("down", "2-1"), ("up", "3-1"), ("nearest", "2-1")])
def test_the_rounding_picks_the_column(tmp_path, capsys, rounding, column):
    # 7 to 3 is 2 1/3: down and nearest read 2-1, up reads 3-1.
    code, out, _ = play(tmp_path, capsys, "crt(7, 3)", '1 "crt"', f'fact("crt column") == "{column}"', rounding=rounding)
    assert code == 0, out


def test_the_odds_rounded_on_the_printed_scale():
    columns = [(1, 2), (1, 1), (3, 2), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]
    rounded = {r: [odds_column(a, b, columns, r) for a, b in [(8, 3), (5, 2), (5, 4), (2, 5), (1, 3), (13, 2), (7, 1), (4, 0), (0, 4)]]
               for r in ("down", "up", "nearest")}
    # 8:3 (2 2/3) is nearer 3-1; 5:2 and 5:4 lie halfway between two columns (nearest: the higher);
    # 2:5 (1-2 1/2) halfway between 1-2 and the 1-3 off the table; 1:3 is one whole ratio below 1-2;
    # 13:2 (6 1/2-1) is below 7-1, the first ratio off the top; no defence is above every column.
    assert rounded == {
        "down": [3, 3, 1, -1, -1, 7, 8, 8, -1],
        "up": [4, 4, 2, 0, -1, 8, 8, 8, -1],
        "nearest": [4, 4, 2, 0, -1, 8, 8, 8, -1],
    }


# Hand computation, a sally of 1..6 companies (1/6 each) against a garrison of 3, each column's
# cells ar, ar | ar, ex | ex, dr | dr, dr for rolls 1-3 | 4-6 (1/2 each):
#   companies    1      2         3    4          5          6
#   odds        1:3    2:3       1:1  4:3        5:3        2:1
#   down        below  below     1-1  1-1        3-2        2-1
#   up          below  1-1       1-1  3-2        2-1        2-1
#   nearest     below  1-1 (tie) 1-1  3-2 (1/6)  3-2 (1/6)  2-1
# down:    ae 2/6; ar 2/6 + 1/12; ex 1/12 + 1/12; dr 1/12.
# up:      ae 1/6; ar 2/6 + 1/12; ex 1/12 + 2/12; dr 2/12.
# nearest: ae 1/6; ar 2/6 + 2/12; ex 2/12 + 1/12; dr 1/12.
@pytest.mark.parametrize("rounding, shares", [
    ("down", {"ae": Fraction(1, 3), "ar": Fraction(5, 12), "ex": Fraction(1, 6), "dr": Fraction(1, 12)}),
    ("up", {"ae": Fraction(1, 6), "ar": Fraction(5, 12), "ex": Fraction(1, 4), "dr": Fraction(1, 6)}),
    ("nearest", {"ae": Fraction(1, 6), "ar": Fraction(1, 2), "ex": Fraction(1, 4), "dr": Fraction(1, 12)}),
])
def test_exact_odds_count_the_result_below_the_columns(tmp_path, capsys, rounding, shares):
    assert odds_of(tmp_path, capsys, 3, rounding=rounding) == shares


def test_exact_odds_count_the_result_above_the_columns(tmp_path, capsys):
    # Against a garrison of 1: 1:1, 2:1 and 3:1 read a column (ar 1/6; ex, dr 1/12 each; dr 1/6);
    # 4:1, 5:1 and 6:1 reach 4-1, above the last column: defender eliminated with no roll (1/2).
    assert odds_of(tmp_path, capsys, 1) == {"ar": Fraction(1, 6), "ex": Fraction(1, 12), "dr": Fraction(1, 4), "de": Fraction(1, 2)}


def test_a_result_below_the_columns_runs_its_effect_with_no_roll(tmp_path, capsys):
    code, out, _ = play(tmp_path, capsys, "crt(1, 3)", "", 'fact("crt result") == ae\n    fact("crt column") == "left of 1-1"')
    assert code == 0, out
    assert "[6.2] crt: odds 1-3 -> left of 1-1; below the columns, no roll -> attacker eliminated" in out
    assert "[6.3] the stormers are cut down" in out


def test_beyond_columns_may_name_a_result_for_both_ends(tmp_path, capsys):
    code, out, _ = play(tmp_path, capsys, "crt(9, 2)", "", 'fact("crt result") == ex', ends="beyond columns: ex [6.2]")
    assert code == 0, out
    assert "[6.2] crt: odds 9-2 -> right of 3-1; above the columns, no roll -> exchange" in out


def test_each_end_keeps_its_own_policy(tmp_path, capsys):
    ends = "below columns: no_effect [6.2]\n  above columns: unresolved [6.4]"
    code, out, _ = play(tmp_path, capsys, "crt(1, 2)", "", "true", ends=ends)
    assert code == 0, out
    assert "[6.2] crt: odds 1-2 -> left of 1-1, beyond the columns: no effect" in out
    code, _, err = play(tmp_path, capsys, "crt(5, 1)", "", "true", ends=ends)
    assert code == 1
    assert "crt: odds 5-1 -> right of 3-1: the column is off the table and the rulebook gives no ruling" in err
    assert "[6.4]" in err


def test_a_table_read_in_an_expression_gives_the_result_beyond_its_columns(tmp_path, capsys):
    code, out, _ = play(tmp_path, capsys, "crt(2, 2)", '1 "crt"',
                        'odds_read(1, 2) == ae\n    odds_read(3, 1) == none\n    odds_read(2, 1) == ae and odds_read(1, 1) == ar')
    assert code == 0, out


def test_a_result_read_only_beyond_the_columns_is_used(tmp_path, capsys):
    # ae and de are in no row: the lines below and above the columns read them.
    write(tmp_path)
    assert main(["check", str(tmp_path / "storming.rules")]) == 0
    out = capsys.readouterr()
    assert "is in no row" not in out.out + out.err
    assert ("4 column(s) 1-1..3-1 by odds; below the columns: ae [6.2]; above the columns: de [6.2]") in out.out + out.err


@pytest.mark.parametrize("rows, message", [
    # No result declared: the line names one the cells name, else it is read as a policy.
    ("1..3 -> ae, ar, ex, dr [6.1]\n  4..6 -> ar, ex, dr, de [6.1]", None),
    ("1..3 -> ar, ar, ex, dr [6.1]\n  4..6 -> ar, ex, dr, de [6.1]", "unknown out-of-range policy 'ae'"),
    ("1..6 -> 1, 2, 3, 4 [6.1]", "'below columns' of table 'crt' names the result 'ae', but the table gives numbers"),
])
def test_a_result_beyond_the_columns_is_one_the_table_gives(tmp_path, capsys, rows, message):
    write(tmp_path)
    path = tmp_path / "storming.rules"
    text = path.read_text().replace("1..3 -> ar, ar, ex, dr [6.1]\n  4..6 -> ar, ex, dr, dr [6.1]", rows)
    path.write_text(re.sub(r"  result \w+ .*\n", "", text))
    code = main(["check", str(path)])
    err = capsys.readouterr().err
    if message is None:
        assert code == 0, err
    else:
        assert code == 1 and message in err, err


def test_what_lies_below_needs_columns(tmp_path, capsys):
    (tmp_path / "t.rules").write_text("""
game t "T" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [1.2]
}
table morale(x: int) "Morale" [2.0] {
  roll 1 d6
  below columns: clamp [2.1]
  1..6 -> holds [2.0]
}
""")
    assert main(["check", str(tmp_path / "t.rules")]) == 1
    assert "table 'morale' says what lies below its columns, but it has no columns" in capsys.readouterr().err


def test_a_printed_column_is_not_a_subtraction_elsewhere(tmp_path, capsys):
    # '3-2' is an odds column only in a columns line: in an expression it is 3 - 2.
    code, out, _ = play(tmp_path, capsys, "crt(3, 2)", '1 "crt"', 'fact("crt column") == "3-2"\n    3-2 == 1')
    assert code == 0, out


def test_a_position_taken_inside_a_result_given_below_the_columns_goes_on(tmp_path, monkeypatch):
    # The attackers eliminated below the columns roll for their losses: a position saved at that
    # roll holds the table's frame with no column read, and goes on as the uninterrupted run.
    write(tmp_path)
    path = tmp_path / "storming.rules"
    path.write_text(path.read_text().replace('{ say "the stormers are cut down" [6.3] }',
                                             '{\n    roll lost = 1 d6 [6.3]\n    record "lost" = sum(lost) [6.3]\n  }'))
    (tmp_path / "save.scenario").write_text("""
scenario "save" uses "storming.rules" [6.2] {
  run crt(1, 3)
  expect { true }
}
""")
    monkeypatch.chdir(tmp_path)
    sym, sources, sc = loaded("save.scenario")
    engine, proc = started(sym, sources, sc)
    req = proc.send(None)
    assert isinstance(req, RollRequest) and req.label == "lost"
    other, shell = resumed(as_data(engine, proc), sym, sources, sc)
    for process in (proc, shell):
        with pytest.raises(StopIteration):
            process.send([4])
    assert other.state.facts == engine.state.facts
    assert engine.state.facts["crt result"] == "ae" and engine.state.facts["lost"] == 4


def test_the_bounds_of_a_lookup_that_may_fall_beyond_the_columns_with_no_effect(tmp_path, capsys):
    # 20 ships lie above the columns, where the lookup gives none: the value read at it is not
    # known to be 0 or 1, though every printed cell is.
    (tmp_path / "t.rules").write_text("""
game t "T" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [1.2]
  turns 1 [1.3]
}
table hits(ships: int) "Hits" [4.0] {
  roll 1 d6
  columns value(ships) [4.0]: 1..5, 6..10
  below columns: clamp [4.1]
  above columns: no_effect [4.1]
  1..6 -> 0, 1 [4.0]
}
table damage(h: int) "Damage" [4.2] {
  read at h
  0 -> none_lost [4.2]
  1 -> one_lost [4.2]
}
procedure fire(n: int) [5.0] {
  lookup h = hits(n) [5.0]
  lookup d = damage(h) [5.0]
}
sequence [6.0] {
  phase p [6.0] {
    step s [6.0] { call fire(20) [6.0] }
  }
}
""")
    assert main(["check", str(tmp_path / "t.rules")]) == 0
    out = capsys.readouterr()
    assert "table damage [4.2]: the value ranges over any number (read at h (= any number))" in out.out + out.err
