"""Battles in rounds (language 11.5b): `repeat as VAR up to N`, `stop when COND "why"`, a
classified outcome. The toy game is tests/lang/rounds.rules; its scenarios' traces are snapshots
in test_language.py. Here: the exact odds against a hand computation, the checker's messages, and
a position taken in the middle of a battle going on as the battle."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from checking import check_text
from positions import loaded, resumed_alike

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
HEAD = '''game skirmish "Skirmish" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
'''


def _hand_odds() -> dict[str, Fraction]:
    """One ship each, at most two rounds: red hits on 5+ then 4+, blue on 6 then 5+ (close action
    from round 2); both sunk is 'neither', no sinking by the end is a draw."""
    out = dict.fromkeys(("red_wins", "blue_wins", "draw", "neither"), Fraction(0))
    alive = Fraction(1)
    for red, blue in ((Fraction(1, 3), Fraction(1, 6)), (Fraction(1, 2), Fraction(1, 3))):
        out["neither"] += alive * red * blue
        out["red_wins"] += alive * red * (1 - blue)
        out["blue_wins"] += alive * (1 - red) * blue
        alive *= (1 - red) * (1 - blue)
    out["draw"] = alive
    return out


def test_odds_of_a_battle_in_rounds_are_the_hand_computed_ones(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/rounds_draw.scenario", "--fact", "outcome"]) == 0
    out = capsys.readouterr().out
    expected = _hand_odds()
    assert expected == {"red_wins": Fraction(25, 54), "blue_wins": Fraction(11, 54), "draw": Fraction(5, 27),
                        "neither": Fraction(4, 27)}
    for name, p in expected.items():
        assert f"{name} " in out and f" {p} " in out.split(f"{name} ")[1].split("\n")[0] + " "
    assert "total probability: 1 (exactly)" in out


def check(tmp_path, body: str, capsys) -> tuple[int, str]:
    return check_text(tmp_path, HEAD + body, capsys)


def test_the_round_counter_is_known_inside_its_loop_only(tmp_path, capsys):
    code, out = check(tmp_path, '''procedure p() [3.0] {
  repeat as r up to 3 [3.0] { say "round {r}" [3.0] }
  record "last" = r [3.1]
}
''', capsys)
    assert code == 1
    assert "unknown name 'r'" in out
    assert "'r' counts the rounds of the 'repeat' at line 6; it is known inside that loop only" in out


def test_the_round_counter_is_bounded_by_the_limit(tmp_path, capsys):
    code, out = check(tmp_path, '''table fire(r: int) [4.0] {
  read at r [4.0]
  1..2 -> miss [4.0]
}
procedure p() [3.0] {
  repeat as r up to 3 [3.0] { lookup x = fire(r) [3.0] }
}
''', capsys)
    assert code == 0
    assert "the value ranges over 1..3 (read at r (= 1..3)); rows cover 1..2; 3 is beyond the rows" in out
    assert "note: r: 1..3, from r in procedure p [3.0]" in out


def test_a_repeat_with_no_way_to_end_is_warned_and_a_stop_when_is_not_an_ending(tmp_path, capsys):
    code, out = check(tmp_path, '''procedure p() [3.0] {
  let n = 0
  repeat [3.0] {
    set n = n + 1
    repeat as r up to 2 [3.1] { say "inner {r}" [3.1] }
  }
}
procedure q() [3.2] {
  let n = 0
  repeat [3.2] {
    stop when n == 3 "three" [3.2]
    set n = n + 1
  }
}
''', capsys)
    assert code == 0
    assert out.count("has no 'stop', 'return' or 'up to'") == 1
    assert "t.rules:7:3: warning: this 'repeat' of procedure p [3.0]" in out
    assert "never runs" not in out  # the statement after a 'stop when' runs when the condition fails


def test_a_limit_that_is_not_a_number_stops_the_run_at_the_repeat(tmp_path, capsys, monkeypatch):
    rules = tmp_path / "t.rules"
    rules.write_text(HEAD + 'procedure p() [3.0] {\n  repeat as r up to "three" [3.0] { stop }\n}\n', encoding="utf-8")
    (tmp_path / "t.scenario").write_text('scenario "s" uses "t.rules" [3.0] {\n  run p()\n  expect { true }\n}\n',
                                         encoding="utf-8")
    assert main(["run", str(tmp_path / "t.scenario")]) == 1
    err = capsys.readouterr().err
    assert "'repeat … up to' needs a whole number of rounds, 0 or more; it is three" in err
    assert "Traceback" not in err


def test_a_position_taken_mid_battle_goes_on_as_the_battle(monkeypatch):
    # The round's number and the limit live in the loop, so a saved position must keep them.
    monkeypatch.chdir(ROOT)
    sym, sources, sc = loaded("tests/lang/rounds_break_off.scenario")
    assert resumed_alike(sym, sources, sc, range(12), (3, 5, 7)) >= 12


def test_an_impulses_loop_where_no_seat_can_pass_is_warned(tmp_path, capsys):
    code, out = check(tmp_path, '''procedure p() [3.0] {
  impulses impulse for s in sides() [3.0] {
    say "{s} acts" [3.0]
  }
  impulses impulse for s in sides() [3.1] {
    repeat as r up to 2 [3.1] {
      if r == 2 [3.1] { pass }
    }
  }
}
''', capsys)
    assert code == 0
    assert out.count("no seat can pass") == 1
    assert "t.rules:6:3: warning: this 'impulses' loop of procedure p [3.0] has no 'pass', 'stop', 'return' or 'up to'" in out


def test_the_toy_battle_checks_clean(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", "tests/lang/rounds.rules"]) == 0
    out = capsys.readouterr()
    assert "tests/lang/rounds.rules: 0 error(s), 0 warning(s)" in out.out + out.err
