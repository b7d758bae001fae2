"""Colour on a terminal only (NO_COLOR, FORCE_COLOR, --color), and progress bars on standard error
only when it is a terminal: what a pipe reads is byte for byte the plain text."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from interpreter import progress, style
from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
BAD = "tests/bad/syntax_ampersand.rules"
FAILS = "tests/bad/expectation_fails.scenario"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
RED_ERROR = "\x1b[1;31merror\x1b[0m"


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)


def terminal(monkeypatch, *streams) -> None:
    """Make the captured streams say they are a terminal, as a person's would."""
    for stream in streams:
        monkeypatch.setattr(stream, "isatty", lambda: True)


def output(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_forced_colour_marks_the_diagnostic_and_is_otherwise_the_plain_text(capsys):
    code, out, err = output(capsys, ["check", BAD])
    assert "\x1b" not in out + err  # not a terminal: no colour
    forced = output(capsys, ["check", BAD, "--color", "always"])
    assert forced[0] == code == 1
    assert err.startswith(f"{BAD}:10:44: error:") and forced[2].startswith(f"{BAD}:10:44: {RED_ERROR}:")
    assert "\x1b[1;32m^\x1b[0m \x1b[36mwrite 'and'\x1b[0m" in forced[2]  # the caret, then the hint
    assert "\x1b[1;31m1 error(s)\x1b[0m, 0 warning(s)" in forced[1]  # the summary: only counts above 0 coloured
    assert (ANSI.sub("", forced[1]), ANSI.sub("", forced[2])) == (out, err)


def test_a_terminal_gets_colour_unless_no_color_is_set(capsys, monkeypatch):
    terminal(monkeypatch, sys.stdout, sys.stderr)
    assert RED_ERROR in output(capsys, ["check", BAD])[2]
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, err = output(capsys, ["check", BAD])
    assert code == 1 and "\x1b" not in out + err
    monkeypatch.setenv("NO_COLOR", "")  # an empty NO_COLOR does not count (no-color.org)
    assert RED_ERROR in output(capsys, ["check", BAD])[2]
    assert "\x1b" not in "".join(output(capsys, ["check", BAD, "--color", "never"])[1:])


def test_force_color_colours_a_pipe_and_never_still_wins(capsys, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert RED_ERROR in output(capsys, ["check", BAD])[2]
    assert "\x1b" not in "".join(output(capsys, ["check", BAD, "--colour", "never"])[1:])
    monkeypatch.setenv("FORCE_COLOR", "0")
    assert "\x1b" not in "".join(output(capsys, ["check", BAD])[1:])


def test_each_stream_is_decided_alone(capsys, monkeypatch):
    terminal(monkeypatch, sys.stderr)  # standard output goes to a file or a pipe
    _, out, err = output(capsys, ["check", BAD])
    assert RED_ERROR in err and "\x1b" not in out


def test_run_marks_expectations_held_and_failed(capsys):
    code, out, _ = output(capsys, ["run", FAILS, "--color", "always"])
    assert code == 1
    assert '  \x1b[1;31mFAIL\x1b[0m fact("hits blue") == 2' in out
    assert out.splitlines()[-1] == "result: 0 of 3 expectations met -- \x1b[1;31mFAILED\x1b[0m"
    assert "\x1b[1mexpectations:\x1b[0m" in out
    held = output(capsys, ["run", "scenarios/jenkins_ear/eop_combat_step.scenario", "--color", "always"])[1]
    assert "  \x1b[32mok\x1b[0m   ORIENTE.location == @3019" in held
    assert ANSI.sub("", out) == output(capsys, ["run", FAILS])[1]


def test_odds_headings_are_bold(capsys):
    scenario = "scenarios/jenkins_ear/case_table_perilous_storm_and_admiral.scenario"
    _, out, _ = output(capsys, ["odds", scenario, "--color", "always"])
    assert "\x1b[1mperilous_sea result:\x1b[0m" in out.splitlines()


def test_json_is_never_coloured(capsys):
    _, out, _ = output(capsys, ["check", BAD, "--json", "--color", "always"])
    assert "\x1b" not in out and '"severity": "error"' in out


def test_the_colour_choice_ends_with_the_run(capsys):
    output(capsys, ["check", BAD, "--color", "always"])
    assert not style.enabled(sys.stderr)  # back to auto: the next run (here, not a terminal) decides afresh


def test_a_bad_colour_choice_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["check", BAD, "--color", "sometimes"])
    assert stop.value.code == 2 and "invalid choice: 'sometimes'" in capsys.readouterr().err


def test_bars_draw_on_a_terminal_only(capsys, monkeypatch):
    with progress.counting(10, "checking", " files") as update:
        update(4)
    assert capsys.readouterr().err == ""  # not a terminal: nothing at all
    terminal(monkeypatch, sys.stderr)
    with progress.counting(10, "checking", " files") as update:
        update(4, total=12, now="x")
    err = capsys.readouterr().err
    assert "checking:   0%|          | 0/10" in err and "4/12" in err and "now=x" in err
    assert err.endswith("\r")  # the bar is cleared when the work ends: it is not part of the result


def test_play_shows_its_turns_on_a_terminal_and_tells_the_same_game(capsys, monkeypatch):
    argv = ["play", "rulesets/jenkins_ear.rules", "--seed", "2"]
    plain = output(capsys, argv)
    terminal(monkeypatch, sys.stderr)
    shown = output(capsys, argv)
    assert shown[:2] == plain[:2]  # the game's narration on standard output is the same
    assert "turn" in ANSI.sub("", shown[2]).split("umpire:")[0] and "turn:" not in plain[2]
