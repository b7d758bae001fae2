"""A counted loop (language 11.5c): `repeat N times { … }` runs its body N times and narrates
nothing of its own. The toy game is tests/lang/volleys.rules; its scenarios' traces are snapshots
in test_language.py. Here: the exact odds against a hand computation, the count read once and
refused when it is not a whole number, a `stop` inside it ending the enclosing `repeat`, and a
position taken between two volleys going on as the loop."""

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


def test_odds_of_three_volleys_are_the_binomial_ones(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/volleys_three.scenario", "--fact", "hits"]) == 0
    out = capsys.readouterr().out
    hit = Fraction(1, 3)  # a 5 or a 6
    for k, ways in enumerate((1, 3, 3, 1)):
        p = ways * hit**k * (1 - hit) ** (3 - k)
        row = next(line for line in out.splitlines() if line.strip().startswith(f"{k} "))
        assert f" {p} " in f"{row} ", (k, p, row)
    assert "total probability: 1 (exactly)" in out


def test_the_loop_narrates_nothing_of_its_own(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["run", "tests/lang/volleys_three.scenario"]) == 0
    trace = capsys.readouterr().out.split("trace:")[1].split("expectations:")[0].strip().splitlines()[1:]
    assert [line.strip() for line in trace] == [f"[2.1] roll shot: 1d6 -> {d}" for d in (5, 2, 6)]


def _run(tmp_path, capsys, body: str, run: str) -> tuple[int, str]:
    """The procedure run with --detail (facts recorded show), and what it printed."""
    (tmp_path / "t.rules").write_text(HEAD + body, encoding="utf-8")
    (tmp_path / "t.scenario").write_text(f'scenario "s" uses "t.rules" [3.0] {{\n  run {run}\n  expect {{ true }}\n}}\n',
                                         encoding="utf-8")
    code = main(["run", str(tmp_path / "t.scenario"), "--detail"])
    out = capsys.readouterr()
    return code, out.out + out.err


COUNTED = '''procedure p(n: int) [3.0] {
  let done = 0
  repeat COUNT times [3.0] { set done = done + 1 }
  record "done" = done [3.1]
}
'''


def test_the_count_is_read_once_and_zero_runs_nothing(tmp_path, capsys):
    code, out = _run(tmp_path, capsys, '''procedure p() [3.0] {
  let n = 2
  let done = 0
  repeat n times [3.0] {
    set n = n + 1
    set done = done + 1
  }
  record "done" = done [3.1]
}
''', "p()")
    assert code == 0 and "record done = 2" in out
    code, out = _run(tmp_path, capsys, COUNTED.replace("COUNT", "n"), "p(0)")
    assert code == 0 and "record done = 0" in out


def test_a_count_that_is_not_a_whole_number_stops_the_run_at_the_loop(tmp_path, capsys):
    for count, run, shown in (("n", "p(-1)", "-1"), ('"three"', "p(0)", "three"), ("n", "p(10001)", "10001")):
        code, out = _run(tmp_path, capsys, COUNTED.replace("COUNT", count), run)
        assert code == 1, out
        assert f"'repeat … times' needs a whole number of times from 0 to 10000; it is {shown}" in out
        assert "t.rules:7:3: " in out and "Traceback" not in out


def test_the_checker_reads_the_count_and_a_stop_needs_an_enclosing_repeat(tmp_path, capsys):
    code, out = check_text(tmp_path, HEAD + '''procedure p(shots: int) [3.0] {
  repeat shot times [3.0] { say "fire" [3.0] }
  repeat 2 times [3.1] { stop }
}
''', capsys)
    assert code == 1
    assert "unknown name 'shot'" in out and "did you mean 'shots'?" in out
    assert "'stop' ends a 'repeat'; it stands outside any" in out


def test_a_position_taken_between_volleys_goes_on_as_the_loop(monkeypatch):
    # The volleys still to fire live in the loop, so a saved position must keep them.
    monkeypatch.chdir(ROOT)
    sym, sources, sc = loaded("tests/lang/volleys_silenced.scenario")
    assert resumed_alike(sym, sources, sc, range(8), (2, 4)) >= 8



def test_a_roll_counts_as_its_total(tmp_path, capsys):
    # `roll shots = 2 d6` then `repeat shots times`: the dice's total, as wherever a number is read.
    (tmp_path / "t.rules").write_text(HEAD + '''procedure p() [3.0] {
  roll shots = 2 d6 [3.0]
  let done = 0
  repeat shots times [3.0] { set done = done + 1 }
  record "done" = done [3.1]
}
''', encoding="utf-8")
    (tmp_path / "t.scenario").write_text('scenario "s" uses "t.rules" [3.0] {\n  run p()\n  dice { 2 4 }\n'
                                         '  expect { fact("done") == 6 }\n}\n', encoding="utf-8")
    assert main(["run", str(tmp_path / "t.scenario")]) == 0
    assert "1 of 1 expectations met" in capsys.readouterr().out
