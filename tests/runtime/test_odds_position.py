"""Odds measured from a saved game's position (runtime/odds/from_position.py): a toy skirmish saved in its
second turn, before Red's attack. What the rules record after the position, to the horizon, is enumerated
exactly from the position put back, agrees with a brute force over the dice, with the replay and with
seeded runs, and stops at the horizon (the end of the step, the phase or the turn)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.cli.odds_position import read_saved_game
from interpreter.files import sandbox
from interpreter.runtime.odds.odds import exact_odds, replay_odds, sample
from interpreter.runtime.odds.odds_report import largest_deviation, shown_value
from interpreter.syntax.diagnostics import Sources

RULES = Path(__file__).parent / "position_odds" / "skirmish.rules"
ATTACK = {"red:target": "B1"}  # Red's answer to the decision in front of it: attack Blue's unit


@pytest.fixture(scope="module")
def save(tmp_path_factory) -> str:
    """The skirmish played by random agents to the third decision (turn 2, Red's attack) and saved."""
    path = str(tmp_path_factory.mktemp("saves") / "skirmish.toml")
    assert main(["play", str(RULES), "--seed", "1", "--agents", "random,random", "--stop-after", "2", "--save", path]) == 0
    return path


def _game(save: str, until: str = "step"):
    sources = Sources()
    game, box = read_saved_game(save, until, sources)
    return game, box, sources


def _exact(save: str, until: str = "step", decide=ATTACK, replay: bool = False):
    game, box, sources = _game(save, until)
    with sandbox(box):
        measure = replay_odds if replay else exact_odds
        return measure(game.setup, game.symbols, sources, None, "first", decide=decide, start=game.start)


def _hits_by_brute_force() -> dict[int, Fraction]:
    """Two dice, a hit on each 5 or 6: every ordered pair of faces counted."""
    counts = Counter(sum(d >= 5 for d in dice) for dice in product(range(1, 7), repeat=2))
    return {hits: Fraction(c, 36) for hits, c in counts.items()}


def test_the_attack_in_front_of_red_is_measured_exactly_from_the_save(save):
    game, _, _ = _game(save)
    assert game.start.clock == (2, "red_turn", "red_combat") and game.decisions == 2
    odds = _exact(save)
    assert odds.names == ["hits"]  # Blue's hits of turn 1, recorded before the position, are not measured
    assert odds.marginal(0) == _hits_by_brute_force() == {0: Fraction(4, 9), 1: Fraction(4, 9), 2: Fraction(1, 9)}
    assert odds.total == 1


def test_the_replay_and_seeded_runs_agree_with_the_enumeration(save):
    exact = _exact(save, "phase")
    assert _exact(save, "phase", replay=True).outcomes == exact.outcomes
    game, box, sources = _game(save, "phase")
    with sandbox(box):
        sampled = sample(game.setup, game.symbols, sources, exact.names, 600, 3, "first", ATTACK, start=game.start)
    assert sum(sampled.counts.values()) == 600 and set(sampled.counts) <= set(exact.outcomes)
    assert largest_deviation(exact, sampled.counts) < 4  # every joint share within four standard errors


@pytest.mark.parametrize("until,measured", [
    ("step", ["hits"]),
    ("phase", ["hits", "tally of red"]),
    ("turn", ["hits", "tally of blue", "tally of red"]),
])
def test_the_horizon_is_respected(save, until, measured):
    odds = _exact(save, until)
    assert odds.names == measured
    if until != "step":
        tally = odds.marginal(odds.names.index("tally of red"))
        assert {shown_value(v): p for v, p in tally.items()} == {str(face): Fraction(1, 6) for face in range(1, 7)}


def test_the_decision_declined_measures_nothing(save):
    odds = _exact(save, decide={"red:target": "pass"})
    assert odds.names == [] and odds.outcomes == {(): Fraction(1)}


def test_the_command_says_where_it_starts_and_its_horizon(save, capsys):
    assert main(["odds", save, "--decide", "red:target=B1", "--until", "phase"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"odds: from the position of {save} (Set-up), before decision 3"
    assert "from: turn 2, phase red_turn, step red_combat" in out
    assert "decision: red decides 'target' [5.0]: B1; it may be declined (pass)" in out
    assert "until: the end of the phase the position stands in (red_turn)" in out
    assert out[out.index("hits:") + 1:out.index("hits:") + 4] == [
        "  0                 4/9  44.4444%", "  1                 4/9  44.4444%", "  2                 1/9  11.1111%"]
