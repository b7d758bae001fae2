"""Whole games of Jenkins' Ear on the labelled demo data, with seeded dice and random agents.

100 seeded games reach the victory determination without an error; the same seed gives a
byte-identical narration; a game saved after N decisions and loaded again goes on exactly as
the uninterrupted game does (20 games, at different points).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.played import HeaderGames

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = "rulesets/jenkins_ear.rules"


@pytest.fixture(scope="module")
def game_data():
    """The demo set-up, played with the rules as printed (no errata)."""
    with HeaderGames.load(ROOT, RULES, demo="demo", errata=False) as games:
        yield games


def run(game_data, seed, **kw):
    return game_data.afresh("demo", seed, **kw)


def test_a_hundred_seeded_games_reach_the_victory_determination(game_data):
    winners = {}
    for seed in range(1, 101):
        game = run(game_data, seed)
        assert game.error is None, (seed, game.error.message)
        assert "[1.2] the game ends after turn 10" in game.lines, seed
        winner = [line for line in game.lines if line.startswith("[5.0] record winner = ")]
        assert len(winner) == 1, seed
        winners[seed] = winner[0].rsplit(" ", 1)[1]
        assert game.lines[-1] == f"[5.0] the game is over: the {winners[seed]} win", seed
        assert all(line.startswith("[") for line in game.lines[2:]), "every narration line cites its rule"
    assert set(winners.values()) <= {"english", "spanish"}


@pytest.mark.parametrize("seed", [3, 42])
def test_the_same_seed_gives_a_byte_identical_game(game_data, seed):
    assert run(game_data, seed).lines == run(game_data, seed).lines


@pytest.mark.parametrize("seed", range(1, 21))
def test_save_load_continue_equals_the_uninterrupted_game(game_data, seed):
    whole = run(game_data, seed)
    stop = 5 + (seed * 7) % 40
    first = run(game_data, seed, stop_after=stop)
    if first.save is None:  # the game asked fewer decisions than that: nothing to suspend
        assert first.lines == whole.lines
        return
    save = first.save["umpire_save"]
    resumed = run(game_data, seed, resume={**save, "state": first.save["state"]})
    assert resumed.error is None
    assert first.lines[:-1] + resumed.lines[2:] == whole.lines


def test_eager_agents_fight_and_finish(game_data):
    """Agents that seize every opportunity bring the fleets together: combat happens in play."""
    combats = 0
    for seed in range(1, 21):
        game = game_data.afresh("demo", seed, ("eager", "eager"))
        assert game.error is None, (seed, game.error.message)
        assert game.lines[-1].startswith("[5.0] the game is over: the "), seed
        combats += sum(line.startswith("[9.1] naval combat in ") for line in game.lines)
    assert combats >= 3, combats
