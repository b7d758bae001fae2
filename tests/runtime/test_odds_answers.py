"""`umpire odds` says what it measured (issue 14): decisions from the scenario's script or
--decide, a warning naming the decision that skipped what was measured, an estimate of the size
before the work, a refusal before a roll too large, Monte Carlo alone with intervals, what the
answer rests on, the facts a ruleset records; and a roll repeated on a tie solved exactly."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from test_odds import load  # the scenario, its checked rules, their sources

from interpreter.cli import main
from interpreter.runtime.odds.odds import OddsError, TooLargeError, estimate, exact_odds, replay_odds, sample
from interpreter.runtime.odds.odds_report import shown_value, wilson

ROOT = Path(__file__).resolve().parent.parent.parent

CONTEST = """
game contest "Contest" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
# Each side rolls a die, red adds its edge; the higher wins, a tie is rolled again.
procedure contest(edge: int) [3.0] {
  repeat [3.1] {
    roll r = 1 d6 [3.1]
    roll b = 1 d6 [3.1]
    if sum(r) + edge != sum(b) [3.2] {
      record "winner" = if sum(r) + edge > sum(b) then red else blue [3.2]
      stop
    }
  }
}
# Red may attack; only then are dice rolled.
procedure raid() [4.0] {
  choose go by red from ["attack"] may "red may attack" [4.1]
  if go == "attack" [4.1] {
    roll shots = 2 d6 [4.2]
    record "raid hits" = count([d for d in shots where d >= 5]) [4.2]
  }
}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / "contest.rules").write_text(CONTEST)
    (tmp_path / name).write_text(text)
    return str(tmp_path / name)


def by_brute_force(edge: int) -> Fraction:
    """P(red wins) when ties are rolled again: P(red ahead) / P(not a tie)."""
    ahead = sum(1 for r, b in product(range(1, 7), repeat=2) if r + edge > b)
    tie = sum(1 for r, b in product(range(1, 7), repeat=2) if r + edge == b)
    return Fraction(ahead, 36 - tie)


@pytest.mark.parametrize("edge", [0, 1, 3])
def test_a_tie_rolled_again_is_solved_exactly(tmp_path, edge):
    path = write(tmp_path, "c.scenario", f'scenario "c" uses "contest.rules" [1.0] {{\n  run contest({edge})\n}}\n')
    odds = exact_odds(*load(path))
    assert odds.runs is None  # infinitely many dice paths: a tie comes back to the same position
    assert odds.total == 1
    assert odds.marginal(0) == {"blue": 1 - by_brute_force(edge), "red": by_brute_force(edge)}


def test_a_tie_rolled_again_reads_as_endless_in_the_report(tmp_path, capsys):
    path = write(tmp_path, "c.scenario", 'scenario "c" uses "contest.rules" [1.0] {\n  run contest(1)\n}\n')
    assert main(["odds", path]) == 0
    out = capsys.readouterr().out
    assert "infinitely many dice paths" in out and "total probability: 1 (exactly)" in out
    assert f"{by_brute_force(1)}" in out


RAID = 'scenario "raid" uses "contest.rules" [1.0] {\n  run raid()\n%s}\n'


def test_a_declined_decision_is_named_when_nothing_is_measured(tmp_path, capsys):
    path = write(tmp_path, "r.scenario", RAID % "")
    assert main(["odds", path]) == 0
    out = capsys.readouterr().out
    assert "warning: nothing was measured: no path records a fact" in out
    assert "red 'go' [4.1]" in out and "--decide" in out


def test_the_scenarios_script_and_decide_make_the_battle_happen(tmp_path, capsys):
    scripted = write(tmp_path, "s.scenario", RAID % '  decisions {\n    red go: attack\n  }\n')
    odds = exact_odds(*load(scripted), policy="script")
    assert odds.marginal(0) == {0: Fraction(4, 9), 1: Fraction(4, 9), 2: Fraction(1, 9)}
    assert main(["odds", scripted]) == 0  # the default policy when the scenario scripts decisions
    out = capsys.readouterr().out
    assert "decisions: script" in out and "warning" not in out and "4/9" in out
    bare = write(tmp_path, "r.scenario", RAID % "")
    assert main(["odds", bare, "--decide", "go=attack"]) == 0
    out = capsys.readouterr().out
    assert "decisions: --decide go=attack" in out and "1/9" in out and "warning" not in out
    assert main(["odds", bare, "--decide", "go"]) == 1
    assert "--decide takes NAME=ANSWER" in capsys.readouterr().err


def test_script_policy_agrees_with_the_replay(tmp_path):
    scripted = write(tmp_path, "s.scenario", RAID % '  decisions {\n    red go: attack\n  }\n')
    loaded = load(scripted)
    assert exact_odds(*loaded, policy="script").outcomes == replay_odds(*loaded, policy="script").outcomes


def test_the_size_is_estimated_first_and_a_roll_too_large_refused_before_it_runs(tmp_path, capsys):
    path = write(tmp_path, "s.scenario", RAID % '  decisions {\n    red go: attack\n  }\n')
    sc, sym, sources = load(path)
    assert estimate(sc, sym, sources, policy="script").paths == 21  # one roll of 2d6: 21 multisets
    with pytest.raises(TooLargeError) as refused:
        exact_odds(sc, sym, sources, policy="script", limit=20)
    assert "roll 1 would send on 21 outcomes" in refused.value.message and "before it was run" in refused.value.message
    assert main(["odds", path, "--limit", "20"]) == 1  # the estimate passes the limit: refused before any roll
    err = capsys.readouterr().err
    assert "refused before any enumeration" in err and "--monte-carlo" in err


def test_monte_carlo_answers_alone_with_intervals_when_the_enumeration_is_refused(tmp_path, capsys):
    path = write(tmp_path, "s.scenario", RAID % '  decisions {\n    red go: attack\n  }\n')
    assert main(["odds", path, "--limit", "20", "--monte-carlo", "400"]) == 0
    out = capsys.readouterr().out
    assert "exact: refused" in out and "an estimate, not exact" in out
    sampled = sample(*load(path), None, 400, 1, "script")
    assert sum(sampled.counts.values()) == 400 and sampled.names == ["raid hits"]
    for (hits,), count in sampled.counts.items():
        low, high = wilson(count, 400)
        assert f"({low:.2%} to {high:.2%})" in out
        truth = {0: 4 / 9, 1: 4 / 9, 2: 1 / 9}[hits]
        assert low - 0.05 < truth < high + 0.05
    assert main(["odds", path, "--no-exact"]) == 1
    assert main(["odds", path, "--monte-carlo", "-5"]) == 1
    assert "--monte-carlo takes a number of runs of at least 1" in capsys.readouterr().err


def test_wilson_interval_is_sound_at_the_edges():
    low, high = wilson(0, 100)
    assert low == 0.0 and 0.03 < high < 0.04  # the normal interval would be [0, 0]
    low, high = wilson(50, 100)
    assert math.isclose((low + high) / 2, 0.5, abs_tol=1e-9) and 0.09 < high - low < 0.2


def test_the_chance_the_english_lose_nothing_in_leogane(monkeypatch, capsys):
    """Docs' question: the Spanish roll 2 dice against their one green 2 (Reggio adds a die, no
    green value): they hit unless both dice show 3 or more; each hit costs the English a counter."""
    monkeypatch.chdir(ROOT)
    assert main(["odds", "scenarios/jenkins_ear/eop_land_3018.scenario",
                 "--fact", "3018 land counters lost by english"]) == 0
    out = capsys.readouterr().out
    assert "3018 land counters lost by english:" in out
    assert f"  0                 {Fraction(4, 6) ** 2}  44.4444%" in out


def test_list_facts_names_every_record_and_the_scenarios_own(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(["odds", "scenarios/jenkins_ear/eop_land_3018.scenario", "--list-facts"]) == 0
    out = capsys.readouterr().out
    assert '"{hex} land counters lost by {s}" [9.2 step 6]' in out
    assert "* 3018 land hits scored by english" in out


def test_demo_tables_and_missing_tables_are_said(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(["odds", "scenarios/jenkins_ear/case_admin_fortunes_of_war_demo.scenario"]) == 0
    out = capsys.readouterr().out
    assert "rests on: table 'fortunes_of_war' is not printed in the rulebook [6.6; 10.0]" in out
    assert "overlays: jenkins_ear_errata" in out
    gam = "scenarios/guerra_a_muerte/case_battle_needs_tables.scenario"
    assert main(["odds", gam, "--all-facts"]) == 1
    err = capsys.readouterr().err
    assert "the rulebook does not print tactical_options, combat_results" in err and "--demo" in err


def test_an_unknown_policy_is_refused(tmp_path):
    path = write(tmp_path, "r.scenario", RAID % "")
    with pytest.raises(OddsError):
        exact_odds(*load(path), policy="clever")


def test_a_guerra_a_muerte_battle_on_the_demo_tables(monkeypatch, capsys):
    """With --demo the battle is fought on the demo TOT and CRT (said, with their file), and both
    sides' losses are measured; the initiative roll repeated on a tie is solved exactly."""
    monkeypatch.chdir(ROOT)
    gam = "scenarios/guerra_a_muerte/case_battle_needs_tables.scenario"
    assert main(["odds", gam, "--demo", "--fact", "salta units lost by royalist", "--fact", "salta units lost by patriot"]) == 0
    out = capsys.readouterr().out
    assert "rests on: table 'combat_results' is not printed in the rulebook [6.1]: the odds use the rows of " \
           "rulesets/guerra_a_muerte/demo.rules" in out
    assert "infinitely many dice paths" in out and "total probability: 1 (exactly)" in out
    assert "salta units lost by patriot:" in out


def test_a_missing_table_read_at_a_value_is_said_too(tmp_path, capsys):
    """A table the rulebook does not print is named in 'rests on' whether it is rolled or read at a
    value (found by the 'TABLE result' fact every read records)."""
    (tmp_path / "g.rules").write_text('game g "G" [1.0] {\n  sides red "Red", blue "Blue" [1.1]\n  die d6 1..6 [2.0]\n}\n'
                                      'missing table hull "the Hull Chart, printed on the map" [3.0]\n')
    (tmp_path / "demo.rules").write_text('table hull(points: int) "DEMO Hull Chart" [3.0] {\n  read at points\n'
                                         '  0..3 -> 0 [3.0 demo]\n  4..6 -> 1 [3.0 demo]\n}\n')
    (tmp_path / "h.rules").write_text('include "g.rules" [1.0]\ninclude "demo.rules" [3.0]\nprocedure shot() [4.0] {\n'
                                      '  roll d = 1 d6 [4.0]\n  lookup lost = hull(sum(d)) [4.0]\n  record "lost" = lost [4.0]\n}\n')
    path = tmp_path / "s.scenario"
    path.write_text('scenario "s" uses "h.rules" [1.0] {\n  run shot()\n}\n')
    for extra in ([], ["--replay"], ["--no-exact", "--monte-carlo", "50"]):
        assert main(["odds", str(path), *extra]) == 0
        out = capsys.readouterr().out
        assert "rests on: table 'hull' is not printed in the rulebook [3.0]: the odds use the rows of " in out, extra


def test_a_list_recorded_as_a_fact_is_measured_not_a_crash(tmp_path, capsys):
    """A fact whose value is a list (the low dice of a roll) keys the distribution by its
    canonical form and is shown as recorded."""
    (tmp_path / "l.rules").write_text('game g "G" [1.0] {\n  sides red "Red", blue "Blue" [1.1]\n  die d6 1..6 [2.0]\n}\n'
                                      'procedure p() [3.0] {\n  roll d = 2 d6 [3.0]\n'
                                      '  record "low dice" = [x for x in d where x <= 2] [3.0]\n}\n')
    path = tmp_path / "s.scenario"
    path.write_text('scenario "s" uses "l.rules" [1.0] {\n  run p()\n}\n')
    odds = exact_odds(*load(str(path)))
    shown = {tuple(k[0].value) if hasattr(k[0], "value") else k[0]: p for k, p in odds.outcomes.items()}
    assert shown == {(): Fraction(4, 9), (1,): Fraction(2, 9), (2,): Fraction(2, 9), (1, 1): Fraction(1, 36),
                     (1, 2): Fraction(1, 18), (2, 2): Fraction(1, 36)}
    assert main(["odds", str(path)]) == 0
    out = capsys.readouterr().out
    assert "  [1, 2]                1/18   5.5556%" in out and "total probability: 1 (exactly)" in out


def test_a_roll_read_die_by_die_is_enumerated_in_every_order(tmp_path, capsys, monkeypatch):
    """`g[0] > g[1]` over two d6 is 15/36 = 5/12; as sorted multisets it would never hold. Exact
    odds see the rules read a die by its place, and enumerate that roll in every order (both ways)."""
    (tmp_path / "ord.rules").write_text(
        'game ord "Ordered" [1.0] {\n  sides red "Red", blue "Blue" [1.1]\n  die d6 1..6 [1.2]\n  turns 1 [1.3]\n}\n'
        'procedure gauge() [2.0] {\n  roll g = 2 d6 [2.0]\n  roll h = 2 d6 [2.2]\n'
        '  record "first beats second" = g[0] > g[1] [2.1]\n  record "h total" = h [2.2]\n}\n')
    (tmp_path / "ord.scenario").write_text(
        'scenario "ordered" uses "ord.rules" [2.0] {\n  run gauge()\n  dice { 5 "g" 2 "g" 1 "h" 1 "h" }\n'
        '  expect { fact("first beats second") }\n}\n')
    monkeypatch.chdir(tmp_path)
    for extra in ([], ["--replay"]):
        assert main(["odds", "ord.scenario", "--fact", "first beats second", *extra]) == 0
        out = capsys.readouterr().out
        yes = [line for line in out.splitlines() if line.strip().startswith("yes")]
        assert sum(Fraction(line.split()[-2]) for line in yes) == Fraction(5, 12)
        assert "except g, whose dice the rules read one by one" in out and "except g, h" not in out


def test_a_place_recorded_by_many_runs_is_counted_as_one_value():
    # Each seeded run plays on its own copy of the position, so the place it records is another
    # object each time: the tally keys it by its id, not by the object.
    sc, sym, sources = load("scenarios/yellow_jack/ex_e1_hurricane_ida.scenario")[:3]
    sampled = sample(sc, sym, sources, ["hurricane over, MPI 1"], 60)
    shown = [shown_value(key[0]) for key in sampled.counts]
    assert len(shown) == len(set(shown)) and "yucatan_sz" in shown
    assert sum(sampled.counts.values()) == 60
