"""Exact odds with a roll kept as a distribution (runtime/common/spread.py): a pool of two dice or more
is sent on once, and branched only on the values the rules read of it (a matching, a total, the highest
or lowest die); any other read of a die enumerates that roll as multisets. Checked against closed forms,
icepool and the replay of every dice path (which enumerates every multiset, as before)."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations_with_replacement, product
from pathlib import Path

import icepool

from interpreter.cli import main
from interpreter.runtime.odds.odds import exact_odds, replay_odds
from tests.played import load_for_odds as load

ROOT = Path(__file__).resolve().parent.parent.parent

READS = """
game reads "Reads" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
procedure volley() [3.0] {
  let pools = {} [3.0]
  roll pools[red] = 4 d6 [3.1]
  roll pools[blue] = 3 d6 [3.1]
  # The red pool, kept in the position across the blue roll, is read twice by two different reads.
  record "red hits" = matching d in pools[red] with v in [2, 4] where d <= v [3.2]
  record "red total" = sum(pools[red]) [3.2]
  record "blue high" = max(pools[blue]) [3.3]
}
"""

VOLLEY = 'scenario "a volley" uses "reads.rules" [1.0] {\n  run volley()\n}\n'


def _loaded(tmp_path):
    (tmp_path / "reads.rules").write_text(READS)
    (tmp_path / "volley.scenario").write_text(VOLLEY)
    return load(str(tmp_path / "volley.scenario"))


def _hand(count: int, read) -> dict:
    """A read of `count` d6 by hand: every sequence of faces, each 1/6^count."""
    out: dict = {}
    for faces in product(range(1, 7), repeat=count):
        out[read(faces)] = out.get(read(faces), Fraction(0)) + Fraction(1, 6 ** count)
    return out


def _matching(faces) -> int:
    """Dice matched to the values 2 and 4, a die at most its value (nested: the smallest dice first)."""
    low = sorted(faces)
    return int(low[0] <= 2) + int(low[1] <= 4) if low[0] <= 2 else int(low[0] <= 4)


def test_a_pool_kept_in_the_position_and_read_twice_by_different_reads(tmp_path):
    """Both rolls are sent on once each (2 positions wait for dice, not 1 + 126 multisets of 4d6); the
    red pool stays a distribution across the blue roll, its matching read splits it 3 ways, its total
    then splits each group again; the answer is the replay's and the hand computation's, and the dice
    paths are counted as the replay counts them."""
    loaded = _loaded(tmp_path)
    odds, replayed = exact_odds(*loaded), replay_odds(*loaded)
    assert odds.positions == 2
    assert (odds.outcomes, odds.names, odds.runs) == (replayed.outcomes, replayed.names, replayed.runs)
    assert odds.runs == math.comb(4 + 5, 5) * math.comb(3 + 5, 5)
    names = odds.names
    assert names == ["blue high", "red hits", "red total"]
    assert odds.marginal(names.index("red hits")) == _hand(4, _matching)
    assert odds.marginal(names.index("red total")) == {k: Fraction(q, 6 ** 4) for k, q in
                                                        zip((4 @ icepool.d6).outcomes(), (4 @ icepool.d6).quantities())}
    assert odds.marginal(names.index("blue high")) == {k: Fraction(k ** 3 - (k - 1) ** 3, 216) for k in range(1, 7)}
    joint: dict = {}
    for (_high, hits, total), p in odds.outcomes.items():
        joint[(hits, total)] = joint.get((hits, total), Fraction(0)) + p
    assert joint == _hand(4, lambda faces: (_matching(faces), sum(faces)))


def test_the_leogane_land_combat_sends_on_the_hits_not_the_multisets(monkeypatch):
    """9 v 2 dice: the English pool is one outcome, split by its matching (0, 1 or 2 hits), the Spanish by
    its (0 or 1): a handful of outcomes sent on where the multisets were 2,002 x 22; the same answer as
    every multiset's, found by hand (plain Python over the multisets of each pool)."""
    monkeypatch.chdir(ROOT)
    facts = ["3018 land hits scored by english", "3018 land hits scored by spanish"]
    odds = exact_odds(*load("scenarios/jenkins_ear/eop_land_3018.scenario"), facts=facts)
    sent_on = next(note for note in odds.notes if "outcomes sent on" in note)
    assert sent_on == "positions are merged when equal: 2 waited for dice, 7 outcomes sent on from them"
    assert odds.runs == math.comb(9 + 5, 5) * math.comb(2 + 5, 5)

    def side(count: int, values: tuple[int, ...]) -> dict:
        out: dict = {}
        for dice in combinations_with_replacement(range(1, 7), count):
            ways = math.factorial(count) // math.prod(math.factorial(dice.count(f)) for f in set(dice))
            used = 0
            for v in values:
                used += used < count and dice[used] <= v
            out[used] = out.get(used, Fraction(0)) + Fraction(ways, 6 ** count)
        return out

    english, spanish = side(9, (1, 2)), side(2, (2,))
    assert odds.outcomes == {(e, s): pe * ps for e, pe in english.items() for s, ps in spanish.items()}


def test_twenty_dice_against_twenty_answered_exactly(monkeypatch):
    """The 20 v 20 land combat (bench/positions): 2.8 billion dice paths, sent on as a few dozen outcomes;
    each side's hits as icepool computes them (each die mapped to the smallest green value it can hit)."""
    monkeypatch.chdir(ROOT)
    facts = ["3018 land hits scored by english", "3018 land hits scored by spanish"]
    odds = exact_odds(*load("bench/positions/land_20_v_20.scenario"), facts=facts)
    assert odds.runs == math.comb(20 + 5, 5) ** 2
    assert odds.total == 1

    def icepool_side(values: tuple[int, ...]) -> dict:
        die = icepool.d6.map(lambda face: min((v for v in values if face <= v), default=7))

        def hits(outcome) -> int:  # the pool's smallest hittable values matched, nested as in bench/odds_targets.py
            faces = sorted(f for f, k in outcome for _ in range(k))
            used = 0
            for v in sorted(values):
                used += used < len(faces) and faces[used] <= v
            return used

        counted = icepool.Pool([die] * 20).expand().map(lambda dice: hits([(f, 1) for f in dice]))
        return {k: Fraction(q, counted.denominator()) for k, q in zip(counted.outcomes(), counted.quantities())}

    side = icepool_side((1, 2, 2, 3))
    assert odds.marginal(0) == side and odds.marginal(1) == side


def test_a_reroll_window_reads_the_dice_one_by_one_so_they_are_enumerated(monkeypatch):
    """A deception counter spent on the lowest English die (tests/runtime/odds_reroll_window.scenario): the window
    reads a die by its place, so the English roll is enumerated as multisets (the answer unchanged). Two
    English dice, the lower voided and rolled again, against a green 2: no hit when the higher die and the
    new one are both above 2, (8/9)(2/3); the Spanish two dice against a green 2: no hit 4/9."""
    monkeypatch.chdir(ROOT)
    facts = ["3018 land hits scored by english", "3018 land hits scored by spanish"]
    odds = exact_odds(*load("tests/runtime/odds_reroll_window.scenario"), facts=facts, policy="script")
    assert odds.marginal(0) == {0: Fraction(16, 27), 1: Fraction(11, 27)}
    assert odds.marginal(1) == {0: Fraction(4, 9), 1: Fraction(5, 9)}
    assert odds.runs == 15876


def test_a_sea_of_glory_battle_is_refused_at_once_with_the_monte_carlo_offered(capsys, monkeypatch):
    """A battle of several rounds in Sea of Glory (demo charts): too large to enumerate, refused before any
    enumeration with a clear message (exit 1, no traceback) that gives the --monte-carlo command."""
    monkeypatch.chdir(ROOT)
    path = "scenarios/sea_of_glory_1805/case_battle_two_rounds.scenario"
    assert main(["odds", path, "--demo"]) == 1
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert "refused before any enumeration" in said and "Traceback" not in said
    assert f"umpire odds {path} --demo --monte-carlo 1000" in said
