"""``umpire study`` (issue 16): many whole games, the same per seed wherever they are played, summed
up with intervals, compared on paired seeds, and written as CSV, JSON and a plot."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.study import Result, Spec, kept_engine, one_game, prepared, run_games
from interpreter.study_report import comparison, summary

ROOT = Path(__file__).resolve().parent.parent.parent
JE = "rulesets/jenkins_ear.rules"
HOUSE = "rulesets/jenkins_ear/house/heavy_weather.house"


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_each_seed_gives_the_same_game_in_one_process_in_several_and_on_a_cluster(at_root):
    distributed = pytest.importorskip("dask.distributed")
    spec = Spec(JE, ("random", "eager"), outcome="winner", facts=("war_funds[english]", "war_in_europe_over"))
    seeds = list(range(5, 11))
    alone = run_games(spec, seeds)
    assert [r.seed for r in alone] == seeds and all(r.error is None for r in alone)
    assert run_games(spec, seeds, workers=2) == alone
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        assert run_games(spec, seeds, cluster=cluster.scheduler_address) == alone
    # The study plays each game as `umpire play --seed S` does, narration aside.
    assert {r.outcome for r in alone} <= {"english", "spanish"}


def test_a_study_plays_every_game_on_one_engine_as_a_fresh_engine_plays_it(at_root, monkeypatch):
    """A process lowers the rules once and plays each game on the same engine made ready again; each
    seed's result is the one a fresh engine (a process of its own) gives."""
    from interpreter.runtime.execution.engine import Engine

    spec = Spec(JE, ("random", "eager"), outcome="winner", facts=("war_funds[english]", "war_in_europe_over"))
    seeds = [4, 1, 3, 1]  # seed 1 again after others: nothing of a game is left for the next
    fresh = []
    for seed in seeds:
        kept_engine.cache_clear()  # a new engine for each game
        fresh.append(one_game(spec, seed))
    made = []
    build = Engine.__init__
    monkeypatch.setattr(Engine, "__init__", lambda self, *a, **k: (made.append(self), build(self, *a, **k))[1])
    kept_engine.cache_clear()
    assert [one_game(spec, seed) for seed in seeds] == fresh
    assert len(made) == 1  # the games shared one engine
    assert fresh[1] == fresh[3] and len({r.decisions for r in fresh[:3]}) > 1  # three different games


def test_games_played_in_turn_on_one_engine_tell_what_fresh_engines_tell(at_root):
    """The whole narration, not only what a study reads: seed 2 played on the engine seed 1 played on
    is seed 2 played by a process of its own."""
    from interpreter.runtime.execution.engine import Engine
    from interpreter.runtime.games.play import play

    sym, sources, scenario = prepared(Spec(JE, ("random", "random")))
    engine = Engine(sym)
    for seed in (1, 2):
        again = play(sym, sources, scenario, seed, ["random", "random"], engine=engine)
        alone = play(sym, sources, scenario, seed, ["random", "random"])
        assert again.lines == alone.lines and again.final == alone.final
        assert len(again.lines) > 100


def test_the_summary_gives_each_outcome_with_its_wilson_interval():
    results = [Result(seed=s, outcome="english" if s <= 3 else "spanish", turns=10 - (s == 1), decisions=100 + s,
                      facts={"funds": str(s % 2)}) for s in range(1, 11)]
    lines = summary(results, "winner", ("funds",))
    assert lines[0] == "games: 10 (seeds 1..10)"
    # 7 of 10: Wilson's 95% interval is [39.7%, 89.2%]; 3 of 10: [10.8%, 60.3%].
    assert lines[2].split() == ["spanish", "7", "70.0%", "[39.7%,", "89.2%]"]
    assert lines[3].split() == ["english", "3", "30.0%", "[10.8%,", "60.3%]"]
    assert lines[4] == "turns: mean 9.90, from 9 to 10; decisions: mean 105.5"
    assert lines[5] == "funds: 0 5 (50.0%), 1 5 (50.0%)"


def test_a_comparison_tests_the_seeds_whose_outcome_changed():
    """McNemar's exact test: 8 seeds turned English and 1 turned Spanish; under no effect each changed
    seed is a fair coin, so p = 2 * P(X >= 8 of 9) = 2 * 10 / 512."""
    base = [Result(seed=s, outcome="spanish") for s in range(20)]
    other = [Result(seed=s, outcome="english" if s < 8 else "spanish") for s in range(20)]
    base[19].outcome = "english"
    lines = comparison(base, other, "house.house")
    english = next(line for line in lines if line.split()[0] == "english")
    assert english.split()[1:4] == ["5.0%", "40.0%", "+35.0%"]
    assert f"{2 * 10 / 512:.3g} (significant)" in english
    unchanged = comparison(base, base, "house.house")
    assert all(line.endswith("1 (not significant)") for line in unchanged[2:])


def test_the_command_reports_and_writes_every_game(at_root, capsys, tmp_path):
    out = {k: tmp_path / f"study.{ext}" for k, ext in (("csv", "csv"), ("json", "json"), ("plot", "svg"))}
    assert main(["study", JE, "--games", "3", "--seed", "4", "--workers", "1", "--outcome", "winner",
                 "--fact", "war_funds[spanish]", "--compare", HOUSE,
                 "--csv", str(out["csv"]), "--json", str(out["json"]), "--plot", str(out["plot"])]) == 0
    told = capsys.readouterr().out
    assert told.startswith("study: rulesets/jenkins_ear.rules, agents random,random, as written\n"
                           "rests on: map 'caribbean' is not printed in the rulebook [2.0]: the position uses the demo map "
                           "of rulesets/jenkins_ear/demo_setup.scenario:")
    assert "\ngames: 3 (seeds 4..6)" in told
    assert "study: with heavy_weather.house" in told and "paired (McNemar's exact test, 5% level)" in told
    rows = list(csv.DictReader(out["csv"].open()))
    assert [(r["rules"], r["seed"]) for r in rows] == [("as written", "4"), ("as written", "5"), ("as written", "6"),
                                                        ("with heavy_weather.house", "4"),
                                                        ("with heavy_weather.house", "5"),
                                                        ("with heavy_weather.house", "6")]
    assert all(r["outcome"] in ("english", "spanish") and r["turns"] == "10" and r["war_funds[spanish]"] for r in rows)
    data = json.loads(out["json"].read_text())
    assert [g["seed"] for g in data["as written"]] == [4, 5, 6]
    assert data["as written"][0]["outcome"] == rows[0]["outcome"]
    svg = ET.parse(out["plot"]).getroot()
    words = " ".join("".join(t.itertext()) for t in svg.iter("{http://www.w3.org/2000/svg}text"))
    assert "share of games (winner)" in words and "with heavy_weather.house" in words
    assert rows[0]["outcome"] in words


@pytest.mark.parametrize("extra, message", [
    (["--agents", "human,random"], "--agents: 'human' is not an agent a study can use; choose from random, eager, first, search, mcts, greedy "
                                    "(a study plays unattended: no human agent)"),
    (["--outcome", "winer"], "'winer' is not a game state, a track or a fact the rules record; did you mean 'winner'?"),
    (["--outcome", "winner", "--csv", "x.txt"], "--csv: x.txt must end in .csv"),
    (["--json", "rulesets/jenkins_ear.rules"], "--json: rulesets/jenkins_ear.rules is a .rules file, which a study never replaces"),
    (["--json", "README.md.json", "--games", "0"], "--games must be 1 or more, not 0"),
    (["--cluster", "127.0.0.1:8786"], "--cluster: '127.0.0.1:8786' is not a scheduler address such as tcp://127.0.0.1:8786"),
])
def test_a_bad_request_is_refused_before_any_game_is_played(at_root, capsys, extra, message):
    assert main(["study", JE, "--games", "2", *extra]) == 1
    err = capsys.readouterr().err
    assert err.strip() == f"umpire: error: {message}"


def test_the_outcome_is_the_game_header_s_unless_named(at_root, capsys, tmp_path):
    assert main(["study", JE, "--games", "2", "--workers", "1"]) == 0
    assert "winner (95% interval, Wilson):" in capsys.readouterr().out  # JE's header: outcome winner [5.0]
    plot = tmp_path / "x.svg"
    assert main(["study", "tests/lang/chitpull.rules", "--games", "1", "--plot", str(plot)]) == 1  # no outcome
    assert not plot.exists()
    assert capsys.readouterr().err.strip() == ("umpire: error: --plot draws the outcome's shares: the game header "
                                               "declares no outcome; name one with --outcome")


def test_an_existing_output_is_kept_without_force(at_root, capsys, tmp_path):
    kept = tmp_path / "kept.csv"
    kept.write_text("mine\n")
    assert main(["study", JE, "--games", "1", "--csv", str(kept)]) == 1
    assert "already exists: use --force to replace it" in capsys.readouterr().err
    assert kept.read_text() == "mine\n"
