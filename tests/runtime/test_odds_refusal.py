"""`umpire odds` on questions too large to enumerate, and how it says what it does: the estimate
comes first and a question past --limit is refused before any enumeration, naming the Monte Carlo
command that answers it; progress on standard error in a pipe; --decide for one side; the header
naming each optional decision the policy declined; --list-facts where a rule stops some runs."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from interpreter import progress
from interpreter.cli import main
from interpreter.cli import odds as odds_command
from interpreter.runtime.odds import odds as odds_module

ROOT = Path(__file__).resolve().parent.parent.parent

HOPELESS = """game hopeless "Hopeless" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
procedure barrage() [3.0] {
""" + "".join(f"  roll {v} = 6 d6 [3.1]\n" for v in "abcdefgh") + """\
  record "total" = a + b + c + d + e + f + g + h [3.2]
}
"""

REFUSAL = """\
hopeless.scenario:1:1: error: refused before any enumeration: the estimate is about 881.3 billion outcomes to send on, more than --limit 2000000
     1 | scenario "a barrage of eight volleys" uses "hopeless.rules" [3.0] {
       | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ seeded runs answer it, each share within \
about 3 points (95%): umpire odds hopeless.scenario --monte-carlo 1000; or measure fewer facts (--fact), or start the \
scenario closer to the roll; positions that merge may make the enumeration smaller than the estimate: a --limit above \
it tries it
"""


@pytest.fixture
def hopeless(tmp_path, monkeypatch):
    """Eight volleys of 6d6 all read at the end by their totals: 462^8 dice paths (about 2.1e21); branching keeps
    each volley as a distribution until its total is read, 31 values each (31^8, about 8.5e11), none merging."""
    (tmp_path / "hopeless.rules").write_text(HOPELESS)
    (tmp_path / "hopeless.scenario").write_text(
        'scenario "a barrage of eight volleys" uses "hopeless.rules" [3.0] {\n  run barrage()\n}\n')
    monkeypatch.chdir(tmp_path)
    return "hopeless.scenario"


@pytest.fixture
def no_enumeration(monkeypatch):
    """Count the enumerations started: a refusal by the estimate starts none."""
    started = []

    def refuse(*args, **kwargs):
        started.append(args)
        raise AssertionError("the enumeration was started")

    monkeypatch.setattr(odds_command, "enumerated", refuse)
    monkeypatch.setattr(odds_module, "exact_odds", refuse)
    monkeypatch.setattr(odds_module, "replay_odds", refuse)
    return started


def test_a_hopeless_question_is_refused_before_any_enumeration(hopeless, no_enumeration, capsys):
    assert main(["odds", hopeless]) == 1
    out, err = capsys.readouterr()
    assert err == REFUSAL
    assert out.splitlines()[-1].startswith("estimate: about 2.1e21 dice paths; at most about 881.3 billion outcomes to send on")
    assert out.splitlines()[-1].endswith("; more than --limit 2000000")
    assert no_enumeration == []


def test_a_replay_is_refused_by_its_estimated_dice_paths(hopeless, no_enumeration, capsys):
    assert main(["odds", hopeless, "--replay"]) == 1
    assert "the estimate is about 2.1e21 dice paths to replay, more than --limit 2000000" in capsys.readouterr().err
    assert no_enumeration == []


def test_the_command_the_refusal_names_answers_the_question(hopeless, capsys):
    command = REFUSAL.split("(95%): ")[1].split(";")[0]
    words = shlex.split(command)
    assert words[:2] == ["umpire", "odds"]
    assert main(words[1:]) == 0
    out = capsys.readouterr().out
    assert "exact: refused before any enumeration: the estimate is about 881.3 billion outcomes" in out
    assert "monte carlo: 1000 seeded runs of the interpreter" in out and "total:" in out


def test_the_monte_carlo_command_keeps_every_option_of_the_question():
    a = odds_command.OddsArgs("my scenario.scenario", ["3018 land hits scored by english"], "first", None, 7, 2_000_000,
                 ["house.overlay"], decide=["english:losses=ES1,ES2"], demo=True, allow=["../maps"])
    assert odds_command.monte_carlo_command(a) == (
        "umpire odds 'my scenario.scenario' --fact '3018 land hits scored by english' --policy first "
        "--decide english:losses=ES1,ES2 --demo --with house.overlay --allow-path ../maps --seed 7 --monte-carlo 1000")


TWO_VOLLEYS = """game two "Two volleys" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
procedure barrage() [3.0] {
  roll a = 3 d6 [3.1]
  roll b = 3 d6 [3.1]
  # Each die read by its face (a comprehension): both rolls enumerated as multisets, 56 x 56 outcomes.
  record "high dice" = count([d for d in a where d >= 4]) + count([d for d in b where d >= 4]) [3.2]
}
"""


def test_progress_goes_to_standard_error_in_a_pipe(tmp_path, monkeypatch, capsys):
    """In a pipe (the test's standard error is not a terminal) progress lines come on standard error,
    here one per update (the interval set to 0); standard output is the same without them."""
    (tmp_path / "two.rules").write_text(TWO_VOLLEYS)
    (tmp_path / "two.scenario").write_text('scenario "two volleys" uses "two.rules" [3.0] {\n  run barrage()\n}\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(progress.Piped, "interval", 3600.0, raising=False)
    assert main(["odds", "two.scenario"]) == 0
    quiet_out, quiet_err = capsys.readouterr()
    assert quiet_err == ""
    monkeypatch.setattr(progress.Piped, "interval", 0.0)
    assert main(["odds", "two.scenario"]) == 0
    out, err = capsys.readouterr()
    assert _stable(out) == _stable(quiet_out)
    lines = err.splitlines()
    assert lines and all(line.startswith("odds: roll ") for line in lines)
    assert any(line.startswith("odds: roll 2: 56 of 3136 outcomes, ") for line in lines)
    assert main(["odds", "two.scenario", "--no-exact", "--monte-carlo", "3"]) == 0
    assert capsys.readouterr().err.splitlines()[-1].startswith("odds: monte carlo: 3 of 3 runs, ")


def _stable(out: str) -> list[str]:
    """The answer less the lines that give seconds."""
    return [line for line in out.splitlines() if not line.startswith(("estimate:", "enumeration: 3136 dice paths"))]


DUEL = """game duel "Duel" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
# Each side may fire at the other; a shot hits on 5 or 6.
procedure duel() [3.0] {
  for each s in [red, blue] [3.1] {
    choose fire by s from ["at the enemy", "at the rigging"] may "fire?" [3.1]
    if fire != none [3.2] {
      roll shot = 1 d6 [3.2]
      record "{s} hits" = if sum(shot) >= 5 then 1 else 0 [3.2]
    }
  }
}
"""


@pytest.fixture
def duel(tmp_path, monkeypatch):
    (tmp_path / "duel.rules").write_text(DUEL)
    (tmp_path / "duel.scenario").write_text('scenario "a duel" uses "duel.rules" [3.0] {\n  run duel()\n}\n')
    monkeypatch.chdir(tmp_path)
    return "duel.scenario"


def test_the_header_names_each_optional_decision_the_policy_declined(duel, capsys):
    assert main(["odds", duel]) == 0
    out = capsys.readouterr().out
    assert ("decisions: the policy declined blue's optional 'fire' [3.1] on some paths; to take it, "
            "--decide blue:fire=first (or an option's name); to decline it without this line, --decide blue:fire=pass") \
        in out.splitlines()
    assert "decisions: the policy declined red's optional 'fire' [3.1]" in out
    assert main(["odds", duel, "--no-exact", "--monte-carlo", "5"]) == 0
    assert "decisions: the policy declined red's optional 'fire' [3.1]" in capsys.readouterr().out


def test_decide_answers_one_sides_decision(duel, capsys):
    assert main(["odds", duel, "--decide", "red:fire=first", "--decide", "blue:fire=pass"]) == 0
    out = capsys.readouterr().out
    assert "decisions: --decide red:fire=first" in out.splitlines() and "the policy declined" not in out
    assert "red hits:\n  0                 2/3  66.6667%\n  1                 1/3  33.3333%\n" in out
    assert "blue hits" not in out
    assert main(["odds", duel, "--decide", "fire=at the rigging", "--decide", "blue:fire=pass"]) == 0
    out = capsys.readouterr().out  # the side's answer comes before the answer for either side
    assert "red hits:" in out and "blue hits" not in out


def test_decide_for_a_side_the_game_does_not_have_is_refused(duel, capsys):
    assert main(["odds", duel, "--decide", "rde:fire=first"]) == 1
    assert capsys.readouterr().err == ("umpire: error: --decide rde:fire=first: 'rde' is not a side of this game "
                                       "(its sides: red, blue); did you mean 'red'?\n")
    assert main(["odds", duel, "--decide", ":fire=first"]) == 1
    assert "--decide takes NAME=ANSWER or SIDE:NAME=ANSWER" in capsys.readouterr().err


def test_a_when_lions_sailed_battle_names_the_fire_it_declines(monkeypatch, capsys):
    """The ships' 'fire' is optional (hold fire, 17.3): the header says the policy declined it."""
    monkeypatch.chdir(ROOT)
    path = "scenarios/when_lions_sailed/case_combat_s3_broadside.scenario"
    assert main(["odds", path, "--no-exact", "--monte-carlo", "10"]) == 0
    out = capsys.readouterr().out
    assert ("decisions: the policy declined england's optional 'fire' [17.4; 17.7; 17.3] on some paths; to take it, "
            "--decide england:fire=first (or an option's name); to decline it without this line, "
            "--decide england:fire=pass") in out.splitlines()


STOPPING = """game stopping "Stopping" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
procedure volley() [3.0] {
  roll hit = 1 d6 [3.1]
  record "hit" = hit [3.2]
  record "target" = [t for t in [1, 2, 3] where t == hit][0] [3.3]
}
"""


@pytest.fixture
def stopping(tmp_path, monkeypatch):
    """A volley whose die names one of three targets: a 4, 5 or 6 names none, and the rule reading the
    target cannot be applied."""
    (tmp_path / "stopping.rules").write_text(STOPPING)
    (tmp_path / "stopping.scenario").write_text(
        'scenario "a volley at three targets" uses "stopping.rules" [3.0] {\n  run volley()\n}\n')
    monkeypatch.chdir(tmp_path)
    return "stopping.scenario"


def test_list_facts_where_a_rule_stops_some_runs(stopping, capsys):
    """A seeded run a rule stops (here a die naming no target) is listed with the facts it recorded,
    and the first such stop is said: not an internal error."""
    assert main(["odds", stopping, "--list-facts"]) == 0
    out = capsys.readouterr().out
    assert "recorded by this scenario's run (20 seeded runs; * named by its expectations):" in out
    assert ("  (12 of the 20 runs stopped where a rule could not be applied; the facts they recorded before it are "
            "listed; the first: [] has no entry 0 (stopping.rules:8))") in out.splitlines()


def test_monte_carlo_stopped_by_a_rule_is_an_error_not_a_crash(stopping, capsys):
    assert main(["odds", stopping, "--all-facts", "--no-exact", "--monte-carlo", "20"]) == 1
    err = capsys.readouterr().err
    assert "error: [] has no entry 0 (on seeded run 2 of 20, --seed 1)" in err


def test_the_refusal_is_json_too(hopeless, no_enumeration, capsys):
    import json

    assert main(["odds", hopeless, "--json"]) == 1
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert err == "" and doc["exit"] == 1
    (error,) = doc["errors"]
    assert error["message"] == ("refused before any enumeration: the estimate is about 881.3 billion outcomes to send on, "
                                "more than --limit 2000000")
    assert "umpire odds hopeless.scenario --monte-carlo 1000" in error["hint"]
    assert no_enumeration == []
