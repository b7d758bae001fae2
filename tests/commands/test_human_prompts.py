"""What a person playing at the terminal reads: each option with what the ruleset declares of it,
`?` with the side's whole position (pools, tracks, its own states) and nothing it may not see,
refusals of a wrong answer in a player's words with the rule that asks, and the exit codes of a
game the person ends (Ctrl-C, Ctrl-D).

The toy is tests/lang/muster.rules: Red musters a unit from its pool, places it, drills up to two.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from test_play import type_at_the_terminal as typed
from test_terminal import _read_until

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
TOY = "tests/lang/muster.scenario"


def prompts(monkeypatch, capsys, *lines: str, path: str = TOY, agents: str = "human,first") -> list[str]:
    monkeypatch.chdir(ROOT)
    typed(monkeypatch, *lines)
    main(["play", path, "--agents", agents, "--seed", "1"])
    return capsys.readouterr().err.splitlines()


def question(err: list[str], name: str) -> list[str]:
    """The lines of the question asking decision ``name``: its head, its options and the answer expected."""
    start = next(i for i, line in enumerate(err) if f"decide '{name}'" in line)
    end = next(i for i in range(start, len(err)) if err[i].startswith("  answer:"))
    return err[start:end + 1]


def test_each_option_shows_its_labels_printed_values_and_states(capsys, monkeypatch):
    err = prompts(monkeypatch, capsys, "1", "1")
    assert question(err, "bought") == [
        "[6.1] red, decide 'bought': muster a unit from the pool (8 gold, orders: hold)",
        # '; 3 gold left': what the decision's 'showing' computes for the unit (8 gold less its cost)
        "  1. GUARD — the Old Guard, Infantry: cost 5, strength 3; 3 gold left",
        "  2. R2 — Field Guns: cost 3; 5 gold left",  # strength X: the counter prints no such value
        "  answer: one number from 1 to 2; ? shows the position",
    ]
    assert question(err, "drill") == [
        "[6.4] red, decide 'drill': drill up to two units",
        "  1. GUARD — the Old Guard, Infantry: cost 5, strength 3",
        "  2. R3 — Infantry: cost 2, strength 1; drilled",
        "  answer: up to 2 numbers from 1 to 2 (0 for none); ? shows the position",
    ]


def test_a_place_shows_its_properties_its_states_and_who_stands_there_not_what_is_hidden(capsys, monkeypatch):
    err = prompts(monkeypatch, capsys, "1")
    assert question(err, "site") == [
        "[6.2] red, decide 'site': where GUARD musters",
        "  1. camp — Camp Hill: plain, fort 2, holder red; units: red 1, blue 1",  # its name, then its facts
        # Blue's mines on the ridge are known to Blue alone: Red is not told.
        "  2. ridge — hills, fort 0, holder red",
        "  answer: one number from 1 to 2; ? shows the position",
    ]


def test_the_position_shows_the_pools_tracks_and_own_states_and_hides_the_rest(capsys, monkeypatch):
    err = prompts(monkeypatch, capsys, "?")
    shown = err[err.index("  answer: one number from 1 to 2; ? shows the position") + 1:]
    assert shown[:6] == [
        "turn 1, muster_phase, muster_step (as red sees it)",
        "  gold: red 8, blue 6",
        "  states: orders hold",  # Red's own orders; Blue's, and Blue's plan (known to Blue), are not shown
        "  camp Camp Hill: R3 (drilled), B2",
        # The Blue unit in the hills is not shown: its kind is seen as nothing, so not even counted.
        "  muster pool [red]: GUARD, R2",
        "  muster pool [blue]: B3",
    ]
    assert not any("advance" in line or "plan" in line or "B1" in line or "heights" in line for line in err)


def test_a_real_games_question_shows_costs_and_values(capsys, monkeypatch):
    err = prompts(monkeypatch, capsys, path="rulesets/jenkins_ear.rules", agents="human,random")
    buy = question(err, "buy")
    assert buy[0] == "[3.3] english, decide 'buy': buy a counter from the english force pool (100 war fund points available)"
    assert buy[1] == "  1. CORNWALL — HMS Cornwall, named ship of the line: carries 1, gun 8, cannonade 3, cost 7; 93 war fund points left"
    assert "  7. E_FRIGATE1 — Frigates: carries 1, gun 4, cost 3; 97 war fund points left" in buy
    assert buy[-1] == "  answer: one number from 1 to 18 (0 for none); ? shows the position"


@pytest.mark.parametrize("answer,refusal", [
    ("1 2", "  not understood [6.1]: this question takes one answer, not 2; answer: one number from 1 to 2; ? shows the position"),
    ("1,1", "  not understood [6.1]: option 1 is typed twice; answer: one number from 1 to 2; ? shows the position"),
    ("0", "  not understood [6.1]: this question must be answered: 0 (none) is not an answer here; answer: one number "
          "from 1 to 2; ? shows the position"),
    ("3", "  not understood [6.1]: '3' is not an option number from 1 to 2; answer: one number from 1 to 2; ? shows the position"),
])
def test_an_answer_of_the_wrong_form_is_refused_in_a_players_words_with_the_rule(capsys, monkeypatch, answer, refusal):
    err = prompts(monkeypatch, capsys, answer)
    assert refusal in err
    assert not any("units_at" in line or "is not in" in line for line in err), "no internal expression leaks"


def test_too_many_answers_to_an_up_to_question_are_refused(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    typed(monkeypatch, "1", "1", "1 2 2")
    main(["play", TOY, "--agents", "human,first"])
    assert "  not understood [6.4]: option 2 is typed twice; answer: up to 2 numbers from 1 to 2 (0 for none); " \
           "? shows the position" in capsys.readouterr().err.splitlines()


def test_the_refusal_of_one_answer_too_many_in_a_real_game_names_no_internal_expression(capsys, monkeypatch):
    err = prompts(monkeypatch, capsys, "1 2", path="rulesets/jenkins_ear.rules", agents="human,random")
    assert "  not understood [3.3]: this question takes one answer, not 2; answer: one number from 1 to 18 (0 for none); " \
           "? shows the position" in err
    assert not any("units_at" in line for line in err)


# ── exit codes: a game the person ends is no failure, whichever key ends it ──

def umpire_at(stdin) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", "play", TOY, "--agents", "human,first"], cwd=ROOT,
                          stdin=stdin, capture_output=True, text=True, timeout=120)


def test_ctrl_d_ends_the_game_with_exit_0():
    done = umpire_at(subprocess.DEVNULL)  # the end of input at once: Ctrl-D at the question, and at the save question
    assert "umpire: the game was ended: no more input: red must decide 'bought' [6.1]" in done.stderr
    assert done.stderr.rstrip().endswith("umpire: not saved")
    assert done.returncode == 0


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_ctrl_c_ends_the_game_with_exit_0_too():
    pid, fd = pty.fork()
    if pid == 0:  # the child: umpire at a terminal
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "interpreter", "play", TOY, "--agents", "human,first"])
    try:
        seen = _read_until(fd, b"? shows the position\r\n> ")
        _wait_for_read(pid)
        os.write(fd, b"\x03")  # Ctrl-C at the question
        seen += _read_until(fd, b"press Enter not to save\r\n> ")
        _wait_for_read(pid)
        os.write(fd, b"\x03")  # and at the save question: not saved
        seen += _read_until(fd, b"not saved")
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    text = seen.decode(errors="replace")
    assert "the game was ended: interrupted (Ctrl-C) when red was to decide 'bought' [6.1]" in text
    assert "Traceback" not in text and "interrupted\r\n" not in text
    assert os.waitstatus_to_exitcode(status) == 0


def _wait_for_read(pid: int) -> None:
    """Until the child blocks reading the terminal: a Ctrl-C sent before is only seen at the next read."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():  # no /proc: the prompt was written just before the read
        return
    while stat.read_text().rsplit(") ", 1)[1].split()[0] in ("R", "D"):  # running, or waiting on a disk
        os.sched_yield()


def test_ctrl_c_while_the_rules_run_exits_130_and_offers_no_save(capsys, monkeypatch):
    from interpreter.runtime.games import play

    def interrupted(self, final):
        raise KeyboardInterrupt

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(play._Session, "play_turns", interrupted)
    typed(monkeypatch)
    assert main(["play", TOY, "--agents", "human,first"]) == 130
    err = capsys.readouterr().err
    assert "the game was ended: interrupted (Ctrl-C) while the rules were running" in err
    assert "save the game?" not in err


def test_what_a_decision_shows_beside_its_options_is_checked_with_the_option_bound(capsys, monkeypatch, tmp_path):
    rules = (ROOT / "tests" / "lang" / "muster.rules").read_text(encoding="utf-8")
    misspelt = tmp_path / "muster.rules"
    misspelt.write_text(rules.replace("{gold[s] - bought.cost} gold left", "{gold[s] - boght.cost} gold left"), encoding="utf-8")
    assert main(["check", str(misspelt)]) == 1
    err = capsys.readouterr()
    assert "error: unknown name 'boght'" in err.out + err.err
    assert "did you mean 'bought'?" in err.out + err.err


def test_names_and_what_a_decision_shows_are_for_the_person_not_the_narration(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["run", TOY, "--detail"]) == 0
    out = capsys.readouterr().out
    assert "gold left" not in out and "Camp Hill" not in out


def _numbers_asked(*typed_lines: str, options=(14, 15, 16, 17), optional=True):
    """A bid-like question among different whole numbers, answered by a person typing ``typed_lines``."""
    from interpreter.runtime.common.requests import ChoiceRequest
    from interpreter.runtime.games.human import HumanAgent
    from interpreter.runtime.games.readout import Readout
    from interpreter.syntax.diagnostics import Span

    lines, written = list(typed_lines), []
    agent = HumanAgent(lambda: lines.pop(0) if lines else None, written.append, Readout(None, None))
    req = ChoiceRequest(chooser="red", name="bid", mode="one", options=list(options), cite="9.3", optional=optional,
                        span=Span(file="x", line=1, col=1, end_line=1, end_col=1), prompt="bid for the marker")
    return agent.choose(req), "\n".join(written).splitlines()


def test_a_number_among_different_numbers_is_typed_as_itself():
    answer, shown = _numbers_asked("2", "16")
    assert answer == 16
    assert shown == [
        "[9.3] red, decide 'bid': bid for the marker",
        "  14", "  15", "  16", "  17",
        "  answer: one of the numbers 14 to 17, typed as it is (0 for none); ? shows the position",
        "  not understood [9.3]: '2' is not one of 14 to 17; answer: one of the numbers 14 to 17, typed as it is "
        "(0 for none); ? shows the position",
    ]


def test_a_price_of_0_is_typed_as_0_and_a_bid_declined_with_0():
    assert _numbers_asked("0", options=(0, 1, 2), optional=False)[0] == 0
    assert _numbers_asked("0")[0] is None  # none: the bid is declined
    # 0 among the numbers of a question that may be declined: 0 is 'none', so the options keep their numbers
    assert _numbers_asked("2", options=(0, 5), optional=True)[0] == 5


def test_a_move_in_jenkins_ear_shows_each_hex_with_its_name_and_the_count_toward_perilous_seas(capsys, monkeypatch):
    # No purchases (0, 0), then the first option of every question: a frigate sails out of Savannah and back.
    err = prompts(monkeypatch, capsys, "0", "0", *["1"] * 14, path="rulesets/jenkins_ear.rules", agents="human,random")
    moves = [i for i, line in enumerate(err) if "decide 'next_hex'" in line]
    assert question(err[moves[0]:], "next_hex")[1:3] == [
        "  1. 2413 — sea; sea or coastal hex 1 of 6 before perilous seas",
        "  2. turn_record[2] — Turn Record Track [2]; sails for the other ocean",
    ]
    assert question(err[moves[1]:], "next_hex")[1:3] == [
        "  1. 2412 — Savannah: coastal, seaport 3, nation english; units: english 3; "
        "a friendly seaport: the perilous-seas count starts again",
        "  2. 2414 — sea; sea or coastal hex 2 of 6 before perilous seas",
    ]
    # Back in Savannah, the count starts again.
    assert question(err[moves[2]:], "next_hex")[1] == "  1. 2413 — sea; sea or coastal hex 1 of 6 before perilous seas"


def test_a_bid_in_when_lions_sailed_is_typed_as_its_value_and_shows_the_treasury_left(capsys, monkeypatch):
    err = prompts(monkeypatch, capsys, "2", path="rulesets/when_lions_sailed.rules", agents="human,random")
    bid = question(err, "bid")
    assert bid[1:3] == ["  12 — 18 TP left", "  13 — 17 TP left"]
    assert bid[-1] == "  answer: one of the numbers 12 to 21, typed as it is (0 for none); ? shows the position"
    assert "  not understood [9.3; C-45]: '2' is not one of 12 to 21; " + bid[-1].strip() in err


# ── what a side sees of the units it does not see: their `seen as` face, or nothing ──

def readout_of(path: str, side: str):
    """The readout of ``side`` in the position a scenario sets up (before it runs)."""
    from interpreter.load import load_scenario, load_scenario_rules
    from interpreter.runtime.execution.engine import Engine
    from interpreter.runtime.games.readout import Readout
    from interpreter.runtime.games.setup import Setup
    from interpreter.syntax.diagnostics import Sources

    sources = Sources()
    scenario = load_scenario(str(ROOT / path), sources)
    loaded = load_scenario_rules(scenario, sources)
    assert not loaded.errors
    engine = Engine(loaded.symbols, sources)
    Setup(engine, scenario).run()
    return Readout(engine, side)


def test_a_unit_not_seen_shows_as_its_kind_is_seen_as_and_one_seen_as_nothing_is_not_counted():
    # tests/lang/fog.rules: a convoy is `seen as "a block"`; a squadron declares nothing.
    red = readout_of("tests/lang/fog_position.scenario", "red")
    assert red.position().splitlines()[2:] == [
        "  reach: RED1, a block x2",  # Blue's two convoys; its squadron there is neither named nor counted
        "  home: a block",  # the convoy; the squadron beside it is not there for Red
    ]
    assert red.place(red.engine.state.places["reach"]) == "reach — open_sea; units: red 1, a block x2"
    blue = readout_of("tests/lang/fog_position.scenario", "blue")
    # Blue sees its own; Red's squadron in the reach is, for Blue, seen as nothing.
    assert blue.position().splitlines()[2:] == ["  reach: BLUE1, BLUE2, BLUE3", "  home: BLUE4, BLUE5"]


def test_a_sea_of_glory_fleet_is_a_block_to_the_enemy_not_its_ships_and_admiral():
    # 2.3, 2.5: the blocks stand on edge on the map; the ships and admirals aboard sit on a concealed
    # display sheet, so the enemy learns neither whose block it is nor how many ships it holds.
    scenario = "scenarios/sea_of_glory_1805/case_battle_two_rounds.scenario"
    british = readout_of(scenario, "british")
    assert british.position().splitlines()[-1] == (
        "  1712: B1 (station at_sea) [COLLINGWOOD, HMS1 (condition undamaged), HMS2 (condition undamaged), "
        "HMS3 (condition undamaged), HMS4 (condition undamaged)], a block")
    allied = readout_of(scenario, "allied")
    assert allied.place(allied.engine.state.places["1712"]) == (
        "1712 — north_atlantic_area, bay_of_biscay; units: allied 5, a block")  # not 'british 6' nor '6 hidden'


def test_an_option_the_side_does_not_see_is_offered_as_it_is_seen_not_by_its_id():
    # A decision may offer a unit its chooser does not see (a target among face-down pieces): its id
    # would tell which it is, so the option reads as the piece is seen, or as a piece.
    red = readout_of("tests/lang/fog_position.scenario", "red")
    units = red.engine.state.units
    assert red.options([units["BLUE1"], units["BLUE3"]]) == [
        "a block (red does not see which)", "a piece (red does not see which)"]
