"""The five games measured whole: a campaign game with random agents, a greedy decision from a fixed
mid-game position, and a battle's odds (bench/targets.py prints the rows, bench/bench.py names them).

Everything here is CPU time (`time.process_time`, or the children's CPU for a command), so a figure
holds on a machine others share; each row still carries a baseline measured in the same run.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Game:
    key: str             # the row names' suffix: game-KEY, greedy-KEY, check-cold-KEY …
    name: str
    rules: str
    campaign: str        # the game row's "what"
    target: float        # a game's target, seconds of CPU
    greedy_after: int    # the greedy row's position: this many decisions of seed 1's random game
    battle: str | None = None  # the odds row's scenario (the three newer games)


GAMES = (
    Game("je", "Jenkins' Ear", "rulesets/jenkins_ear.rules", "a 10-turn Jenkins' Ear game", 0.03, 150),
    Game("gam", "Guerra a Muerte", "rulesets/guerra_a_muerte.rules", "a Guerra a Muerte campaign", 1.0, 1300),
    Game("sog", "Sea of Glory", "rulesets/sea_of_glory_1805.rules", "a Sea of Glory campaign", 1.0, 2650,
         "scenarios/sea_of_glory_1805/case_battle_two_rounds.scenario"),
    Game("wls", "When Lions Sailed", "rulesets/when_lions_sailed.rules", "a When Lions Sailed campaign", 1.0, 78,
         "scenarios/when_lions_sailed/case_combat_s3_broadside.scenario"),
    Game("yj", "Yellow Jack", "rulesets/yellow_jack.rules", "a Yellow Jack campaign", 1.0, 225,
         "scenarios/yellow_jack/case_forces_battle_frigates.scenario"),
)
BY_KEY = {g.key: g for g in GAMES}


@dataclass
class Loaded:
    symbols: object
    sources: object
    setup: object
    seconds: float  # CPU to load, check and read the demo set-up


def loaded(game: Game) -> Loaded:
    """The rules as `umpire play RULES` plays them: errata applied, the header's demo set-up."""
    from interpreter import files
    from interpreter.load import header_file, load_rules, load_scenario
    from interpreter.syntax.diagnostics import Sources

    start = time.process_time()
    sources = Sources()
    rules = load_rules(game.rules, sources, with_demo=True, with_errata=True)
    header = rules.symbols.game
    setup = load_scenario(header_file(header, header.demo_setup, files.SCENARIO, "demo setup"), sources)
    return Loaded(rules.symbols, sources, setup, time.process_time() - start)


@dataclass
class Played:
    seconds: list[float]  # CPU a game, seed 1 first
    errors: list[str]

    @property
    def median(self) -> float:
        return median(self.seconds)


def games(load: Loaded, seeds: int, kept: bool = False) -> Played:
    """Seeds 1..N played with random agents, as `umpire play RULES --seed S --agents random,random`
    plays them: each on a new engine (lowering the rules included, as one process a game pays), or,
    `kept`, all on one engine made ready again for each (`play.again`, as a study plays them); the
    kept engine plays one game first, not counted, so every counted game finds the rules lowered."""
    from interpreter.runtime.execution.engine import Engine
    from interpreter.runtime.games.play import play

    engine = None
    if kept:
        engine = Engine(load.symbols)
        play(load.symbols, load.sources, load.setup, 1, ["random", "random"], narrate=False, engine=engine)
    out = Played([], [])
    for seed in range(1, seeds + 1):
        start = time.process_time()
        game = play(load.symbols, load.sources, load.setup, seed, ["random", "random"], engine=engine)
        out.seconds.append(time.process_time() - start)
        if game.error is not None:
            out.errors.append(f"seed {seed} stopped on an error: {game.error.message}")
    return out


# ── a greedy decision ──


class _Enough(Exception):
    """The decisions to time have been timed: the game stops here."""


@contextmanager
def _timed_greedy(after: int, count: int, times: list[float]):
    """`greedy` agents that answer as the random agent of the same seed would for the game's first
    `after` decisions (so the position is that of the random game), then decide greedily, timing
    each decision that plays rollouts, until `count` are timed."""
    from unittest import mock

    from interpreter.runtime.games import play as played
    from interpreter.runtime.games.agents import RandomAgent
    from interpreter.runtime.games.search import GreedyAgent

    asked = [0]

    class TimedGreedy(GreedyAgent):
        def __init__(self, seed, *args, **kwargs):
            super().__init__(seed, *args, **kwargs)
            self.random = RandomAgent(seed)  # the same seed as the random game's agent of this side

        def choose(self, req):
            asked[0] += 1
            if asked[0] <= after:
                return self.random.choose(req)
            rollouts = self.lookahead.rollouts
            start = time.process_time()
            answer = super().choose(req)
            if self.lookahead.rollouts > rollouts:
                times.append(time.process_time() - start)
                if len(times) >= count:
                    raise _Enough
            return answer

    with mock.patch.object(played, "GreedyAgent", TimedGreedy), \
            mock.patch.object(played.Lookahead, "rollouts", 0, create=True), \
            mock.patch.object(played.Lookahead, "rollout", _counted(played.Lookahead.rollout)):
        yield


def _counted(rollout):
    def counting(self, *args, **kwargs):
        self.rollouts += 1
        return rollout(self, *args, **kwargs)

    return counting


def greedy_decisions(game: Game, load: Loaded, count: int) -> list[float]:
    """CPU of each of `count` greedy decisions (those with rollouts to play) from decision
    `game.greedy_after` of seed 1's random game on, both sides greedy from there."""
    from interpreter.runtime.games.play import play

    times: list[float] = []
    with _timed_greedy(game.greedy_after, count, times):
        try:
            play(load.symbols, load.sources, load.setup, 1, ["greedy", "greedy"], narrate=False)
        except _Enough:
            pass
    return times


# ── a battle's odds, as `umpire odds SCENARIO` answers them ──


@dataclass
class Odds:
    said: str       # what the command answered: exact, refused (Monte Carlo offered), stopped at the cap, failed
    cpu: float      # the command's CPU
    wall: float


def odds(scenario: str, cap: float) -> Odds:
    """`python -m interpreter odds SCENARIO`, killed after `cap` seconds."""
    return _command([sys.executable, "-m", "interpreter", "odds", scenario], cap, _odds_said)


def python_pass() -> Odds:
    return _command([sys.executable, "-c", "pass"], 60.0, lambda code, out: "")


def _command(cmd: list[str], cap: float, said) -> Odds:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=cap)
        text = said(done.returncode, done.stdout + done.stderr)
    except subprocess.TimeoutExpired:
        text = f"stopped at the cap ({cap:.0f} s)"
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Odds(text, cpu, wall)


def _odds_said(code: int, out: str) -> str:
    if code == 0 and "total probability" in out:
        return "exact"
    if "refused" in out and "--monte-carlo" in out:
        return "refused, Monte Carlo offered"
    if "refused" in out:
        return "refused"
    last = [line for line in out.splitlines() if line.strip()][-1:] or ["no output"]
    return f"failed (exit {code}): {last[0][:60]}"
