"""Whole games of When Lions Sailed on the labelled demo data, for 2, 3 and 4 players.

Each set-up (2.3: two players take England and the Netherlands, a third Spain, a fourth France)
plays to its victory determination: the agreed last turn, a unanimous agreement (10.2(2)) or a
sudden death (26.5), each ended by `end game`, whose line is the game's last; neutral powers are
never asked a decision; the same seed gives a byte-identical game; a game saved and loaded goes on
as the whole game does; search agents play any seat; the picture draws the square grid.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli import main
from tests.played import HeaderGames

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = "rulesets/when_lions_sailed.rules"
SEATS = {"two_players": ["england", "netherlands"], "three_players": ["england", "netherlands", "spain"],
         "four_players": ["england", "netherlands", "spain", "france"]}
END = re.compile(r"^\[26\.[05]\] the game ends: (the agreed last turn \(4\) is over|every player agrees to end the game now|sudden death)$")
RESULT = re.compile(r"^\[26\.[2-5](; 26\.[2-5])*\] (\w+ wins with \d+ VP|.*the game is drawn|.*and wins)")


@pytest.fixture(scope="module")
def wls():
    with HeaderGames.load(ROOT, RULES) as games:
        assert set(games.setups) == set(SEATS)
        yield games


def run(wls, name: str, seed: int, agents=("random",), **kw):
    return wls.run(name, seed, agents, **kw)


@pytest.mark.parametrize("name", list(SEATS))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_player_count_plays_to_its_victory_determination(wls, name, seed):
    lines = run(wls, name, seed).lines
    assert END.match(lines[-1]), lines[-6:]
    assert sum(1 for line in lines if END.match(line)) == 1
    assert any(RESULT.match(line) for line in lines[-12:]), lines[-12:]
    assert all(line.startswith("[") for line in lines[2:]), "every narration line cites its rule"
    # Only the seats 2.3 gives this player count act: a neutral power is never a bidder.
    bidders = {m.group(1) for line in lines if (m := re.search(r"\] (\w+) buys the marker", line))}
    assert bidders and bidders <= set(SEATS[name])


def test_the_whole_turn_happens(wls):
    text = "\n".join(run(wls, "four_players", 5).lines)
    for seen in ("starting Campaign Markers", "has the initiative", "buys the marker", "outfits",
                 "pays", "roll movement: 2d6", "battle in", "plunders", "collects", "turn 4 ends"):
        assert seen in text, seen


def test_the_same_seed_gives_a_byte_identical_game(wls):
    for name in ("three_players", "four_players"):
        assert run(wls, name, 1).lines == wls.afresh(name, 1, ("random",)).lines


@pytest.mark.parametrize("name, seed, stop", [("three_players", 2, 60), ("four_players", 2, 120)])
def test_save_load_continue_equals_the_uninterrupted_game(wls, name, seed, stop):
    assert wls.save_and_resume(name, seed, ("random",), stop) == run(wls, name, seed).lines


@pytest.mark.parametrize("agents", [("search:2", "random", "random"), ("random", "random", "greedy:2")])
def test_search_agents_play_any_seat_of_a_three_player_game(wls, agents):
    lines = run(wls, "three_players", 1, agents=agents).lines
    assert END.match(lines[-1]), lines[-6:]
    assert agents[0] in lines[0] and agents[2] in lines[0]


def test_the_picture_draws_the_square_grid(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "wls.svg"
    assert main(["draw", RULES, "-o", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    for square in ("C12", "B14", "E6", "P14", "G26", "F11", "I5", "M12", "U4", "U8"):  # squares the text names
        assert f">{square}<" in svg, square
    assert svg.count('class="place square"') >= 280, "every square of the demo map"
    assert re.search("\u21c4 [I-O]26<", svg) and re.search("\u21c4 [I-O]1<", svg), "the west-east wrap of rows A-O is noted"
    assert not re.search("\u21c4 [P-U]", svg), "rows P-U do not wrap (16.10)"
    assert "DE_RUYTER" in svg and "EN_SOVEREIGN" in svg


def test_hands_and_the_exchange_lot_are_face_down_in_a_side_trace(capsys, monkeypatch):
    # 9.2, 15.1: the Exchange lot is drawn face down, the unbought marker goes back face down;
    # England's trace keeps the rule of each line and hides the markers (language 11.6a).
    monkeypatch.chdir(ROOT)
    case = "scenarios/when_lions_sailed/case_econ_exchange_rotation.scenario"
    assert main(["run", case]) == 0
    whole = capsys.readouterr().out
    assert main(["run", case, "--side", "england"]) == 0
    england = capsys.readouterr().out
    assert "draw lot from pool -> gunners, marines, bankers, rally, spy, treachery" in whole
    assert "put gunners into pool" in whole
    trace = england.split("expectations:")[0]  # the scenario's own expectations name the markers
    assert "gunners" not in trace and "treachery" not in trace
    assert trace.count("(hidden from england)") == 5, "the lot, and the four markers nobody bought"
    assert len(england.splitlines()) == len(whole.splitlines())
