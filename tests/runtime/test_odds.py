"""Exact odds: every die enumerated through the rules the game runs.

Checked three ways: against icepool (an independent dice-probability library, used only
here as an oracle) for pure dice pools; against closed-form probabilities for the Example
of Play's land combat in Leogane; and against a seeded Monte Carlo run of the interpreter.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import icepool

from interpreter.cli import main
from interpreter.runtime.odds.odds import exact_odds, monte_carlo, replay_odds
from tests.played import load_for_odds

ROOT = Path(__file__).resolve().parent.parent.parent

POOLS = """
game pools "Pools" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
procedure volley() [3.0] {
  roll shots = 4 d6 [3.1]
  record "hits" = count([d for d in shots where d <= 2]) [3.1]
  roll total = 3 d6 [3.2]
  record "total" = sum(total) [3.2]
}
"""

VOLLEY = """
scenario "a volley" uses "pools.rules" [1.0] {
  run volley()
}
"""


load = load_for_odds


def as_dict(die: icepool.Die) -> dict:
    return {k: Fraction(q, die.denominator()) for k, q in zip(die.outcomes(), die.quantities())}


def test_pools_match_icepool(tmp_path):
    (tmp_path / "pools.rules").write_text(POOLS)
    (tmp_path / "volley.scenario").write_text(VOLLEY)
    odds = exact_odds(*load(str(tmp_path / "volley.scenario")))
    assert odds.names == ["hits", "total"]
    assert odds.total == 1
    assert odds.runs == math.comb(4 + 5, 5) * math.comb(3 + 5, 5)  # multisets of 4d6 times multisets of 3d6
    assert odds.marginal(0) == as_dict(4 @ icepool.d6.map(lambda x: 1 if x <= 2 else 0))
    assert odds.marginal(1) == as_dict(3 @ icepool.d6)


SPENT = """
game spent "Spent dice" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
procedure volley() [3.0] {
  roll first = 3 d6 [3.1]
  let hits = count([d for d in first where d >= 5]) [3.1]
  roll second = 2 d6 [3.2]
  record "hits" = hits + count([d for d in second where d >= 5]) [3.2]
}
"""


def test_positions_that_differ_only_in_spent_dice_are_merged(tmp_path):
    """After the first roll is counted its dice are never read again: the positions waiting for the
    second roll are one per count of hits (0..3), not one per multiset of 3d6 (56); the answer is
    the one the replay of every path gives, and the paths are counted as the replay counts them."""
    (tmp_path / "spent.rules").write_text(SPENT)
    (tmp_path / "volley.scenario").write_text(VOLLEY.replace("pools.rules", "spent.rules"))
    loaded = load(str(tmp_path / "volley.scenario"))
    odds, replayed = exact_odds(*loaded), replay_odds(*loaded)
    assert odds.positions == 1 + 4
    assert odds.outcomes == replayed.outcomes and odds.names == replayed.names == ["hits"]
    assert odds.runs == replayed.runs == math.comb(3 + 5, 5) * math.comb(2 + 5, 5)
    assert odds.marginal(0) == as_dict(5 @ icepool.d6.map(lambda x: 1 if x >= 5 else 0))


def test_branching_and_replaying_give_the_same_odds_for_the_example_combats(monkeypatch):
    """The two enumerations share the engine but not the positions, keys or liveness: equal
    distributions, path counts and facts on a table read, a naval combat and a whole game step."""
    monkeypatch.chdir(ROOT)
    cases = [("scenarios/jenkins_ear/case_table_perilous_storm_and_admiral.scenario", None),
             ("scenarios/jenkins_ear/tc_9_1b_la_guaira.scenario", ["3624 naval hits scored by english", "3624 naval hits scored by spanish"])]
    for path, facts in cases:
        loaded = load(path)
        odds, replayed = exact_odds(*loaded, facts=facts), replay_odds(*loaded, facts=facts)
        assert (odds.outcomes, odds.names, odds.runs, odds.cut) == (replayed.outcomes, replayed.names, replayed.runs, replayed.cut), path
        assert odds.total == 1 and odds.positions < odds.runs


def test_a_path_stops_once_the_measured_facts_are_known(tmp_path):
    (tmp_path / "pools.rules").write_text(POOLS)
    (tmp_path / "volley.scenario").write_text(VOLLEY)
    odds = exact_odds(*load(str(tmp_path / "volley.scenario")), facts=["hits"])
    assert odds.runs == odds.cut == math.comb(4 + 5, 5)  # the 3d6 is never rolled
    assert odds.marginal(0) == as_dict(4 @ icepool.d6.map(lambda x: 1 if x <= 2 else 0))


def test_leogane_land_combat_exact(monkeypatch):
    monkeypatch.chdir(ROOT)
    facts = ["3018 land hits scored by english", "3018 land hits scored by spanish"]
    odds = exact_odds(*load("scenarios/jenkins_ear/eop_land_3018.scenario"), facts=facts)
    assert odds.total == 1
    english, spanish = odds.marginal(0), odds.marginal(1)
    # English: 9 dice against green values 1 and 2 (a maximum matching). No hit: no die at most
    # 2. Two hits: at least two dice at most 2, at least one of them a 1.
    none = Fraction(4, 6) ** 9
    one_low = 9 * Fraction(2, 6) * Fraction(4, 6) ** 8            # exactly one die at most 2
    two_low = 1 - none - one_low                                 # at least two dice at most 2
    twos_only = Fraction(5, 6) ** 9 - none - 9 * Fraction(1, 6) * Fraction(4, 6) ** 8  # ...all of them 2s
    two = two_low - twos_only
    assert english[0] == none
    assert english[2] == two
    assert english[1] == 1 - none - two
    # Spanish: 2 dice (soldiers + Reggio) against one green 2.
    assert spanish == {0: Fraction(4, 9), 1: Fraction(5, 9)}
    # Independent rolls: the joint distribution is the product.
    for (e, s), p in odds.outcomes.items():
        assert p == english[e] * spanish[s]


def test_monte_carlo_of_the_interpreter_agrees(monkeypatch):
    monkeypatch.chdir(ROOT)
    facts = ["3624 naval hits scored by english", "3624 naval hits scored by spanish"]
    sc, sym, sources = load("scenarios/jenkins_ear/tc_9_1b_la_guaira.scenario")
    odds = exact_odds(sc, sym, sources, facts=facts)
    runs = 3000
    counts, _ = monte_carlo(sc, sym, sources, odds.names, runs, seed=11)
    assert sum(counts.values()) == runs
    for key, p in odds.outcomes.items():
        q = float(p)
        se = math.sqrt(q * (1 - q) / runs)
        assert abs(counts.get(key, 0) / runs - q) < 4.5 * se, key


def test_odds_command_prints_fractions_and_refuses_an_unknown_policy(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["odds", "scenarios/jenkins_ear/case_table_perilous_storm_and_admiral.scenario"]) == 0
    out = capsys.readouterr().out
    assert "perilous_sea result:" in out
    assert "no_effect" in out and "2/3" in out
    assert "total probability: 1 (exactly)" in out
    assert main(["odds", "scenarios/jenkins_ear/case_table_perilous_storm_and_admiral.scenario", "--policy", "clever"]) == 1
    assert "unknown decision policy 'clever'" in capsys.readouterr().err


def test_a_rule_that_fails_on_some_path_is_reported_with_the_path(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    # Every fact of the run: the path on which Ogle is lost needs his unprinted cost (9.3). The estimate
    # of every fact's tree passes the default limit; a limit above it lets the enumeration meet the rule.
    assert main(["odds", "scenarios/jenkins_ear/tc_9_1b_la_guaira.scenario", "--all-facts", "--limit", str(10**15)]) == 1
    err = capsys.readouterr().err
    assert "OGLE's cost value is not printed" in err and "on the dice path" in err
    assert "--fact" in err


def test_the_command_replays_on_request_and_prints_no_progress_off_a_terminal(capsys, monkeypatch):
    """`--replay` gives the same lines as branching but for how it enumerated; standard error (not
    a terminal here) stays empty: no bar, no progress lines."""
    monkeypatch.chdir(ROOT)
    path = "scenarios/jenkins_ear/case_table_perilous_storm_and_admiral.scenario"
    assert main(["odds", path]) == 0
    branched = capsys.readouterr()
    assert main(["odds", path, "--replay"]) == 0
    replayed = capsys.readouterr()
    assert branched.err == replayed.err == ""

    def results(out: str) -> list[str]:
        return [line for line in out.splitlines() if not line.startswith(("enumeration:", "estimate:"))]

    assert results(branched.out) == results(replayed.out)
    assert "positions are merged when equal" in branched.out and "every dice path replayed" in replayed.out


def test_odds_of_a_drift_on_a_square_grid_across_its_wrapping_edge(monkeypatch):
    """A die moves a ship due east on a square grid, across the edge that wraps, until land: the
    squares it can end on are one per number of steps before A2's land stops it (language 6.1a)."""
    monkeypatch.chdir(ROOT)
    loaded = load("tests/lang/grid_drift.scenario")
    odds, replayed = exact_odds(*loaded), replay_odds(*loaded)
    assert odds.names == ["drift ends at"] and odds.outcomes == replayed.outcomes
    assert odds.marginal(0) == {"A5": Fraction(1, 6), "A6": Fraction(1, 6), "A1": Fraction(2, 3)}


def test_odds_of_a_voyage_cost_under_a_wind_a_die_sets(monkeypatch):
    """A die sets the wind, then cheapest() reads it through the ruleset's step function (language 13):
    round the strait from 0402 to 0201 costs 3 with the wind from the se, 4 from the ne or the s, and 5
    from the n, sw or nw (each checked by hand against the rose); the step function's cached values
    must follow the wind."""
    monkeypatch.chdir(ROOT)
    loaded = load("tests/lang/winds_shift.scenario")
    odds, replayed = exact_odds(*loaded), replay_odds(*loaded)
    assert odds.names == ["voyage cost"] and odds.outcomes == replayed.outcomes
    assert odds.marginal(0) == {3: Fraction(1, 6), 4: Fraction(1, 3), 5: Fraction(1, 2)}


def test_odds_of_a_marker_walking_a_secondary_map(monkeypatch):
    """Two rolls walk a storm over a secondary map's die-range paths (language 6.1c): delta_dot is
    reached by 0..3 then 5..9 (4/10 x 5/10) or 7..9 then 0..5 (3/10 x 6/10); else it leaves the map."""
    monkeypatch.chdir(ROOT)
    loaded = load("tests/lang/storms_walk.scenario")
    odds, replayed = exact_odds(*loaded), replay_odds(*loaded)
    assert odds.outcomes == replayed.outcomes
    assert odds.marginal(0) == {"delta_dot": Fraction(19, 50), "off_map": Fraction(31, 50)}
