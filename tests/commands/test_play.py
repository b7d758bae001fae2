"""Whole games with seeded dice and random agents: they finish, and the same seed repeats."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli import main
from tests.played import play_cli

ROOT = Path(__file__).resolve().parent.parent.parent
SETUP = "scenarios/jenkins_ear/eop_combat_step.scenario"


play = play_cli


@pytest.mark.parametrize("seed", range(1, 21))
def test_seeded_games_finish(seed, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = play(capsys, SETUP, "--seed", str(seed), "--agents", "random,random", "--detail")
    lines = out.splitlines()
    assert "[1.2] the game ends after turn 10" in lines
    assert any(line.startswith("[5.0] record winner = ") for line in lines), "victory is determined after turn 10"
    assert lines[-1].startswith("[5.0] the game is over: the "), "the winner is on the last line"
    assert sum("turn 10, administrative_phase" in line for line in lines) >= 4
    assert all(line.startswith("[") for line in lines[2:]), "every narration line cites its rule"


def test_the_same_seed_gives_the_same_game_byte_for_byte(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    first = play(capsys, SETUP, "--seed", "7")
    again = play(capsys, SETUP, "--seed", "7")
    other = play(capsys, SETUP, "--seed", "8")
    assert first == again
    assert first != other


def test_first_legal_agents_play_the_same_game_whatever_the_agent_seed(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = play(capsys, SETUP, "--agents", "first,first", "--seed", "4", "--detail")
    assert out.splitlines()[-2:] == ["[5.0] record winner = spanish", "[5.0] the game is over: the spanish win"]
    assert "english next: 3119" in out  # the first legal option: places in set-up order


def test_a_rule_that_cannot_apply_stops_the_game_with_a_diagnostic(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    # The toy game forbids the supply track's overflow: by turn 3 red would pass 10.
    assert main(["play", "tests/lang/battle.scenario", "--agents", "first,first"]) == 1
    err = capsys.readouterr().err
    assert "error: supply[red] would go from 9 to 11, outside 0..10" in err


def test_an_unknown_agent_is_refused(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["play", SETUP, "--agents", "clever"]) == 1
    assert "unknown agent 'clever'" in capsys.readouterr().err


def narration(text: str) -> list[str]:
    return [line for line in text.splitlines()[2:] if not line.startswith(("(suspended", "saved to"))]


@pytest.mark.parametrize("seed,stop", [(s, k) for s in (2, 9) for k in (1, 4, 7)])
def test_save_load_continue_is_the_uninterrupted_game(seed, stop, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    whole = play(capsys, SETUP, "--seed", str(seed))
    save = tmp_path / "game.toml"
    first = play(capsys, SETUP, "--seed", str(seed), "--save", str(save), "--stop-after", str(stop))
    assert save.exists()
    rest = play(capsys, "--load", str(save))
    assert narration(first) + narration(rest) == narration(whole)


def test_a_save_that_no_longer_replays_is_refused(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    save = tmp_path / "game.toml"
    play(capsys, SETUP, "--seed", "5", "--save", str(save), "--stop-after", "3")
    text = save.read_text(encoding="utf-8").replace("seed = 5", "seed = 6")
    save.write_text(text, encoding="utf-8")
    assert main(["play", "--load", str(save), "--verify"]) == 1  # the position alone goes on from its own dice
    assert "does not replay to the saved position" in capsys.readouterr().err


def type_at_the_terminal(monkeypatch, *lines: str) -> None:
    """What a person types, line by line; after the last line the input ends."""
    answers = iter(lines)

    def typed(prompt=""):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", typed)


def test_a_person_answers_with_numbered_options_and_can_ask_for_the_position(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    type_at_the_terminal(monkeypatch, "?", "9", "1", "2:1")
    code = main(["play", SETUP, "--agents", "human,first", "--seed", "3", "--detail"])
    out = capsys.readouterr()
    assert code == 0  # the person stopped typing: the game ends, offering a save (declined: the input is over)
    assert "umpire: the game was ended: no more input: english must decide 'reroll' [11.2]" in out.err
    assert out.err.rstrip().endswith("umpire: not saved")
    assert "[A-17] english, decide 'next': choose the next hex in which to resolve combat" in out.err
    # Each hex with its properties, its states and who stands there (the counters aboard ships included).
    assert "  1. 3119 — sea, interceptor spanish; units: english 7, spanish 4" in out.err
    assert "  2. 3018 — coastal, seaport 2, nation spanish, interceptor english; units: english 9, spanish 5" in out.err
    assert "turn 1, english_phase, combat_resolution" in out.err  # the position, asked with '?'
    assert "not understood [A-17]: '9' is not an option number from 1 to 2; answer: one number from 1 to 2; ? shows the position" in out.err
    assert "[A-17] english next: 3119" in out.out
    assert "[9.1 step 2a] english bonus: {EFR2: 1}" in out.out


def test_a_person_sees_only_what_the_view_lets_a_side_see(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    type_at_the_terminal(monkeypatch, "?")
    assert main(["play", "rulesets/jenkins_ear.rules", "--agents", "human,random", "--seed", "1"]) == 0
    err = capsys.readouterr().err
    assert "(as english sees it)" in err
    # Cartagena's Spanish stack shows its top counter only (4.4); the others are counted, not named
    # (`hidden … seen as "a counter"`): the English see how high the stack is.
    cartagena = next(line for line in err.splitlines() if line.startswith("  2922 Cartagena: "))  # its id and its name
    assert cartagena == "  2922 Cartagena: S_SOLDIERS_CAR, a counter x6"
    # English stacks are fully visible to the English.
    assert "OGLETHORPE" in err
    assert "umpire: the game was ended: no more input: english must decide 'buy' [3.3]" in err


HOOKED = """
game relay "Relay" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
  turns 2 [1.2]
}
class ship "ship" [2.0]
type frigate "Frigate": ship [2.1] { }
box reinforcements "Turn Record Track" per turn [3.0]
state arrivals: int [3.0]
on game_start() [3.0] {
  set arrivals = 0 [3.0]
}
on turn_start() [6.0] {
  set arrivals = arrivals + count(units_at(reinforcements[turn()])) [6.0]
}
on game_end() [5.0] {
  say "{arrivals} frigate(s) arrived" [5.0]
}
sequence [6.0] {
  phase play [6.0] {
    step first [6.1] { say "turn {turn()} first step" [6.1] }
    step second [6.2] { say "turn {turn()} second step" [6.2] }
  }
}
"""

HOOKED_SETUP = """
scenario "two frigates on the track" uses "relay.rules" [1.0] {
  units {
    F1: frigate of red in reinforcements[1]
    F2: frigate of blue in reinforcements[2]
  }
  at turn 1 phase play step first
  run step first
}
"""


def test_game_hooks_run_at_set_up_each_turn_start_and_the_end(tmp_path, capsys):
    (tmp_path / "relay.rules").write_text(HOOKED)
    (tmp_path / "setup.scenario").write_text(HOOKED_SETUP)
    assert main(["play", str(tmp_path / "setup.scenario"), "--agents", "first,first", "--detail"]) == 0
    lines = capsys.readouterr().out.splitlines()
    body = [line for line in lines[2:] if "arrivals is now" not in line]
    assert body == [
        "[3.0] turn 1: game start",
        "[6.0] turn 1: turn start",
        "[6.1] turn 1, play, first",
        "[6.1] turn 1 first step",
        "[6.2] turn 1, play, second",
        "[6.2] turn 1 second step",
        "[6.0] turn 2: turn start",
        "[6.1] turn 2, play, first",
        "[6.1] turn 2 first step",
        "[6.2] turn 2, play, second",
        "[6.2] turn 2 second step",
        "[1.2] the game ends after turn 2",
        "[5.0] turn 2: game end",
        "[5.0] 2 frigate(s) arrived",
    ]
    assert "[6.0] arrivals is now 2" in lines


# ── trace levels: the narration by default, the whole trace with --detail ──

def test_the_default_narration_has_no_bookkeeping_and_detail_adds_exactly_it(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    told = play(capsys, "rulesets/jenkins_ear.rules", "--seed", "7", "--agents", "eager,eager").splitlines()
    whole = play(capsys, "rulesets/jenkins_ear.rules", "--seed", "7", "--agents", "eager,eager", "--detail").splitlines()
    body = told[2:]
    assert not [line for line in body if "] record " in line], "no recorded fact in the narration"
    assert not [line for line in body if " is now " in line], "no state set in the narration"
    assert not [line for line in body if " next_hex: " in line or " buy: " in line], "no decision in the narration"
    # The narration is the whole trace with those lines taken out, in the same order.
    it = iter(whole)
    assert all(any(line == other for other in it) for line in told), "the narration is a subsequence of the detail"
    dropped = [line for line in whole[2:] if line not in set(body)]
    bookkeeping = re.compile(r"\[[^\]]+\] (record .+ = .+|\S+ is now .+|(english|spanish) \w+: .+)")
    assert dropped and all(bookkeeping.fullmatch(line) for line in dropped), [x for x in dropped if not bookkeeping.fullmatch(x)][:3]
    assert any("] record " in line for line in dropped) and any(" next_hex: " in line for line in dropped)
    # The game's events are all still told: purchases, moves, funds, dice, losses, the winner.
    for event in (" buys ", " moves to ", "war_funds[english] ", "roll ", " is eliminated ", "the game is over: the "):
        assert any(event in line for line in body), event
    assert told[-1] == whole[-1] and told[-1].startswith("[5.0] the game is over: the ")
    assert all(line.startswith("[") for line in body), "every narration line cites its rule"


def test_the_narration_says_how_much_detail_it_hides(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["play", SETUP, "--seed", "3"]) == 0
    out = capsys.readouterr()
    hidden = int(out.err.split("umpire: ")[1].split(" line(s) of detail not shown")[0])
    assert main(["play", SETUP, "--seed", "3", "--detail"]) == 0
    full = capsys.readouterr()
    assert len(full.out.splitlines()) - len(out.out.splitlines()) == hidden
    assert "--detail shows them" in out.err and "detail not shown" not in full.err


def test_a_guerra_a_muerte_narration_ends_with_the_victory_and_keeps_its_events(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = ["rulesets/guerra_a_muerte.rules", "--scenario", "opening_guns", "--seed", "3"]
    told = play(capsys, *args).splitlines()
    whole = play(capsys, *args, "--detail").splitlines()
    assert not [line for line in told if "] record " in line]
    assert whole[-1].startswith("[12.1.4] record victory = ")
    assert told[-1].endswith(whole[-1].split(" = ")[1]), "the victory, said in words, ends the narration"
    for event in (" activates ", " collects ", "op_left ", " moves to ", "combat_results: ", "guerrilla mode"):
        assert any(event in line for line in told), event


def test_the_narration_of_computer_agents_is_written_as_the_game_is_played(capsys, monkeypatch):
    """A pipe reads the narration as it is played, a batch at each decision and each segment's end,
    not all of it when the game is over (each batch goes through progress.say, which flushes)."""
    from interpreter import progress

    monkeypatch.chdir(ROOT)
    whole = play(capsys, SETUP, "--seed", "3").splitlines()
    batches: list[list[str]] = []
    monkeypatch.setattr(progress, "say", lambda lines: batches.append(list(lines)))
    assert main(["play", SETUP, "--seed", "3"]) == 0
    assert capsys.readouterr().out == "", "nothing is held back until the game is over"
    assert len(batches) > 10 and batches[0][0].startswith("game: ")
    assert [line for batch in batches for line in batch] == whole, "the same narration, in the same order"
    assert whole[-1].startswith("[5.0] the game is over: the ")


def test_the_readme_showcase_game_has_combat(capsys, monkeypatch):
    """The first game the README plays shows the rules at work: fleets meet and fight."""
    import shlex

    monkeypatch.chdir(ROOT)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = readme.split("## Play it", 1)[1].split("```sh\n", 1)[1].split("\n", 1)[0]
    args = shlex.split(command)
    assert args[:2] == ["umpire", "play"], command
    told = play(capsys, *args[2:]).splitlines()
    combats = [line for line in told if re.search(r"\] (naval|land) combat in ", line)]
    assert combats and any(re.search(r"\] \w+ hits: ", line) for line in told), "a combat, with a hit scored"
    assert told[-1].startswith("[5.0] the game is over: the ")
