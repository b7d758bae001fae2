"""The performance targets as rows of one table: what, the engine's figure, a baseline measured in the same run,
their ratio, the target, and the engine's figure over the target (above 1: not met yet).

bench/bench.py builds the rows (``python bench/bench.py --help`` lists their names for ``--only``);
this module measures the commands and the odds and makes every row (the five games' figures come
from bench/game_targets.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import median

import game_targets
import odds_targets
import save_check

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Row:
    what: str
    engine: str
    baseline: str = "-"
    ratio: str = "-"
    target: str = ""
    to_target: str = "-"


WIDTHS = (50, 40, 34, 10, 30, 13)  # what, engine, baseline, ratio, target, engine/target


def header() -> str:
    w = WIDTHS
    return (f"{'what':<{w[0]}}{'engine':<{w[1]}}{'baseline (same run)':<{w[2]}}{'ratio':>{w[3]}}  {'target':<{w[4]}}"
            f"{'engine/target':>{w[5]}}\n" + "-" * (sum(w) + 2))


def line(row: Row) -> str:
    w = WIDTHS
    return (f"{row.what:<{w[0]}}{row.engine:<{w[1]}}{row.baseline:<{w[2]}}{row.ratio:>{w[3]}}  {row.target:<{w[4]}}"
            f"{row.to_target:>{w[5]}}")


def seconds(s: float) -> str:
    """Three significant figures, in µs, ms or s; past an hour in hours, days or years."""
    for unit, scale in (("years", 365 * 86400.0), ("days", 86400.0), ("hours", 3600.0)):
        if s >= 2 * scale:
            return f"{s / scale:,.0f} {unit}"
    for unit, scale in (("µs", 1e-6), ("ms", 1e-3)):
        if s < 999.5 * scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s:.3g} s" if s < 999.5 else f"{s:,.0f} s"


def ratio(a: float, b: float, above: bool = False) -> str:
    return ("> " if above else "") + (f"{a / b:.1f}x" if a / b < 100 else f"{a / b:,.0f}x")


# ── combats: the figures bench.py measured, per combat ──


def combat_row(what: str, engine_rate: float, plain_rate: float) -> Row:
    return Row(what, f"{seconds(1 / engine_rate)} a combat", f"{seconds(1 / plain_rate)} plain Python",
               ratio(plain_rate, engine_rate), "within 5x (aim 1x)", ratio(plain_rate / engine_rate, 5))


# ── exact odds ──


def odds_rows(battle: odds_targets.Battle, cap: float, notes: list[str]) -> list[Row]:
    plain_s, plain = odds_targets.timed(lambda: odds_targets.plain_odds(battle))
    ice_s, ice = odds_targets.timed(lambda: odds_targets.icepool_odds(battle))
    if ice != plain:
        notes.append(f"{battle.name}: icepool and plain Python DISAGREE")
    got = odds_targets.engine_odds(battle, cap)
    engine, slow, above = _engine_odds_text(battle, got, cap, notes)
    if got.status == "done" and got.outcomes != plain:
        notes.append(f"{battle.name}: the engine's distribution DIFFERS from the baselines'")
    target = f"< {seconds(battle.target)}"
    to_target = ratio(slow, battle.target, above) if slow else "-"
    within = odds_targets.WITHIN_ICEPOOL
    return [Row(battle.what, engine, f"icepool {seconds(ice_s)}", ratio(slow, ice_s, above) if slow else "-",
                f"within {within:.0f}x icepool", ratio(slow / ice_s, within, above) if slow else "-"),
            Row("  the same", '"', f"plain Python {seconds(plain_s)}",
                ratio(slow, plain_s, above) if slow else "-", target, to_target)]


def _engine_odds_text(battle, got, cap: float, notes: list[str]) -> tuple[str, float, bool]:
    """The engine's cell, the seconds to compare (0: none) and whether they are a lower bound."""
    dice = (battle.english[0], battle.spanish[0])
    if got.dice and got.dice != dice:
        notes.append(f"{battle.name}: the position gives {got.dice[0]} v {got.dice[1]} dice, not {dice[0]} v {dice[1]}")
    if got.load:
        notes.append(f"{battle.name}: {battle.paths:,} dice paths; the worker loaded the rules in {seconds(got.load)} "
                     f"(not counted)" + _progress(battle, got))
    if got.status == "done":
        return f"{seconds(got.seconds)} ({got.runs:,} paths)", got.seconds, False
    if got.status == "stopped":
        return f"> {seconds(cap)} (stopped)", got.seconds, True
    if got.status == "refused":
        notes.append(f"{battle.name}: refused after {seconds(got.seconds)}: {got.message}")
        return f"refused after {seconds(got.seconds)}", got.seconds, True
    notes.append(f"{battle.name}: the worker failed: {got.message}")
    return "failed (see notes)", 0.0, False


def _progress(battle, got) -> str:
    if got.status != "stopped":
        return ""
    if not got.sent:
        return (f"; stopped before its first progress report (5,000 outcomes sent on): under {5000 / got.seconds:,.0f} "
                f"outcomes/s")
    per_s = got.sent / got.seconds
    return (f"; stopped after at least {got.sent:,} of its {battle.outcomes:,} outcomes sent on ({per_s:,.0f}/s: "
            f"all of them would take about {seconds(battle.outcomes / per_s)})")


# ── the five games: whole games, greedy decisions, a battle's odds (bench/game_targets.py measures them) ──


class Baselines:
    """The baselines the game rows share, each measured once in the run, when a row first needs it:
    1,000 plain-Python Leogane combats (a fixed amount of Python), Jenkins' Ear's game and greedy
    decision (what the other games are compared with), `python -c pass` (for a command)."""

    def __init__(self, plain_combat, seeds: int, decisions: int, notes: list[str]):
        self.plain_combat, self.seeds, self.decisions, self.notes = plain_combat, seeds, decisions, notes
        self.loads: dict[str, game_targets.Loaded] = {}
        self.found: dict[str, float] = {}

    def load(self, game: game_targets.Game) -> game_targets.Loaded:
        if game.key not in self.loads:
            self.loads[game.key] = game_targets.loaded(game)
        return self.loads[game.key]

    def plain(self) -> float:
        """CPU of 1,000 plain-Python land combats, median of 5."""
        if "plain" not in self.found:
            runs = []
            for _ in range(5):
                start = time.process_time()
                for seed in range(1000):
                    self.plain_combat(seed)
                runs.append(time.process_time() - start)
            self.found["plain"] = sorted(runs)[2]
        return self.found["plain"]

    def game(self, game: game_targets.Game) -> game_targets.Played:
        played = game_targets.games(self.load(game), self.seeds)
        self.notes.extend(f"game-{game.key}: {e}" for e in played.errors)
        self.found[f"game-{game.key}"] = played.median
        return played

    def je_game(self) -> float:
        if "game-je" not in self.found:
            self.game(game_targets.BY_KEY["je"])
        return self.found["game-je"]

    def greedy(self, game: game_targets.Game) -> list[float]:
        times = game_targets.greedy_decisions(game, self.load(game), self.decisions)
        if times:
            self.found[f"greedy-{game.key}"] = median(times)
        return times

    def je_greedy(self) -> float | None:
        if "greedy-je" not in self.found:
            self.greedy(game_targets.BY_KEY["je"])
        return self.found.get("greedy-je")

    def python_pass(self) -> float:
        if "pass" not in self.found:
            self.found["pass"] = sorted(game_targets.python_pass().cpu for _ in range(5))[2]
        return self.found["pass"]


def _spread(times: list[float]) -> str:
    return f" ({seconds(min(times))}-{seconds(max(times))})" if len(times) > 1 else ""


def game_rows(game: game_targets.Game, base: Baselines) -> list[Row]:
    """A campaign game of random agents, seeds 1..N, CPU median and range, each on a new engine; then
    the same games on one engine kept for all (a study's games), and the loading."""
    load = base.load(game)
    played = base.game(game)
    if game.key == "je":
        plain = base.plain()
        baseline, against = f"1,000 plain-Python combats {seconds(plain)}", plain
    else:
        against = base.je_game()
        baseline = f"Jenkins' Ear's game {seconds(against)}"
    kept = game_targets.games(load, base.seeds, kept=True)
    return [Row(f"{game.campaign} (random agents)", f"{seconds(played.median)} CPU a game{_spread(played.seconds)}",
                baseline, ratio(played.median, against), f"< {seconds(game.target)}", ratio(played.median, game.target)),
            Row("  the same, one engine for every game", f"{seconds(kept.median)}{_spread(kept.seconds)}",
                f"a new engine a game {seconds(played.median)}", ratio(kept.median, played.median),
                f"< {seconds(game.target)}", ratio(kept.median, game.target)),
            Row("  set-up: load, check, demo set-up", seconds(load.seconds), "-", "-", "(once; see check)")]


def greedy_rows(game: game_targets.Game, base: Baselines) -> list[Row]:
    """A greedy decision (24 rollouts) from decision N of seed 1's random game on, CPU median and range."""
    times = base.greedy(game)
    what = f"a greedy decision, {game.name} (after {game.greedy_after})"
    if not times:
        base.notes.append(f"greedy-{game.key}: the game ended before a greedy decision played a rollout")
        return [Row(what, "none timed", "-", "-", "< 200 ms")]
    mid = median(times)
    if game.key == "je":
        against, baseline = base.plain(), f"1,000 plain-Python combats {seconds(base.plain())}"
    else:
        against = base.je_greedy()
        baseline = f"Jenkins' Ear's {seconds(against)}" if against else "-"
    return [Row(what, f"{seconds(mid)} CPU{_spread(times)}", baseline, ratio(mid, against) if against else "-",
                "< 200 ms", ratio(mid, 0.2))]


def battle_odds_row(game: game_targets.Game, cap: float, base: Baselines) -> Row:
    """`umpire odds` on a battle of the game: exact within 10 s, or refused within 2 s (Monte Carlo offered)."""
    got = game_targets.odds(game.battle, cap)
    base.notes.append(f"odds-{game.key}: {game.battle}: {got.said}, {seconds(got.cpu)} CPU, {seconds(got.wall)} wall")
    target = 10.0 if got.said == "exact" else 2.0
    stopped = got.said.startswith("stopped")
    engine = f"{got.said.split(',')[0]}: {seconds(got.cpu)} CPU"
    return Row(f"a battle's odds, {game.name}", engine, f"python -c pass {seconds(base.python_pass())}",
               ratio(got.cpu, base.python_pass(), stopped), "exact < 10 s or refused < 2 s",
               ratio(got.cpu, target, stopped))


# ── commands, timed from outside, paired with `python -c pass` ──


def command_row(what: str, args: list[str], target: float, repeats: int, cold: bool = False) -> Row:
    """Median CPU of ``python -m interpreter ARGS`` (the child's, user and system) beside ``python -c pass``,
    run in turn; the ratio is the median of the pairs' ratios.

    Cold: every run gets a fresh, empty temporary and cache folder (TMPDIR, XDG_CACHE_HOME), so
    nothing cached by an earlier run (the cache of loads) is found; warm: one run first, not
    counted. Both may use Python's bytecode cache (__pycache__, written by the first run here), as
    an installed umpire does."""
    cmd = [sys.executable, "-m", "interpreter", *args]
    base = [sys.executable, "-c", "pass"]
    if not cold:
        _cpu(cmd)
    pairs = [(_cpu(cmd, cold), _cpu(base)) for _ in range(repeats)]
    a = sorted(p[0] for p in pairs)[repeats // 2]
    b = sorted(p[1] for p in pairs)[repeats // 2]
    r = sorted(p[0] / p[1] for p in pairs)[repeats // 2]
    return Row(what, f"{seconds(a)} CPU", f"python -c pass {seconds(b)}", f"{r:.1f}x", f"< {seconds(target)}",
               ratio(a, target))


def _cpu(cmd: list[str], cold: bool = False) -> float:
    import resource

    env, fresh = dict(os.environ), None
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # Python's own bytecode cache, as an installed umpire has it
    if cold:
        fresh = tempfile.mkdtemp(prefix="umpire-cold-")
        env.update(TMPDIR=fresh, XDG_CACHE_HOME=fresh)
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    finally:
        if fresh:
            shutil.rmtree(fresh, ignore_errors=True)


# ── saves of the position ──


def save_rows(seeds: int = 100) -> list[Row]:
    """Each game played whole, then suspended at a decision that depends on the seed, written as a
    save's TOML, read back, loaded from its position and played on: the two halves must tell the
    uninterrupted game, line for line."""
    rows = []
    for what, rules in (("Jenkins' Ear", "rulesets/jenkins_ear.rules"), ("Guerra a Muerte", "rulesets/guerra_a_muerte.rules")):
        start = time.perf_counter()
        equal, tried = save_check.round_trips(rules, range(1, seeds + 1))
        took = time.perf_counter() - start
        rows.append(Row(f"save -> load -> continue, {what}", f"{equal}/{tried} seeds equal", "uninterrupted games", "-",
                        f"{seeds} seeds a game", "met" if equal == tried == seeds else "NOT MET"))
        rows.append(Row(f"  ({took:.0f} s: three games a seed)", "", "-", "-", ""))
    return rows



def copy_row(runs: int = 200) -> Row:
    """Position.of and restore on the Leogane land combat, stopped at its second roll (the state and
    the stack), beside a deep copy of the state alone (how a position was copied before records)."""
    import copy

    from interpreter.load import load_scenario, load_scenario_rules
    from interpreter.runtime.execution.engine import Engine
    from interpreter.runtime.games.scenario import run_target
    from interpreter.runtime.games.setup import Setup
    from interpreter.runtime.position.position import Position
    from interpreter.syntax.diagnostics import Sources

    sources = Sources()
    scenario = load_scenario("scenarios/jenkins_ear/eop_land_3018.scenario", sources)
    engine = Engine(load_scenario_rules(scenario, sources).symbols, sources)
    Setup(engine, scenario).run()
    proc = run_target(engine, scenario)
    req = proc.send(None)
    proc.send([3] * req.count)
    start = time.perf_counter()
    for _ in range(runs):
        position = Position.of(engine, proc)
    taken = (time.perf_counter() - start) / runs
    start = time.perf_counter()
    for _ in range(runs):
        position.restore(engine, proc)
    restored = (time.perf_counter() - start) / runs
    start = time.perf_counter()
    for _ in range(runs):
        copy.deepcopy(engine.state)
    state = (time.perf_counter() - start) / runs
    worst = max(taken, restored)
    return Row("copy a mid-combat position", f"{taken * 1e6:.0f} µs of, {restored * 1e6:.0f} µs restore",
               f"deepcopy of the state {state * 1e6:.0f} µs", f"{worst / state:.2f}x", "< 50 µs", ratio(worst, 50e-6))


# ── studies ──


def study_rows(games: int, scaling_games: int) -> list[Row]:
    """`umpire study`'s games: `games` random Jenkins' Ear games on two worker processes against the
    two-minute target, and `scaling_games` of them on one worker beside the same on two (the
    baseline of the same run: the speed-up two cores give)."""
    from interpreter.study import Spec, prepared, run_games

    spec = Spec("rulesets/jenkins_ear.rules", ("random", "random"), outcome="winner")
    prepared(spec)  # loading is not a game
    walls = {}
    for workers, count in ((1, scaling_games), (2, scaling_games), (2, games)):
        start = time.perf_counter()
        results = run_games(spec, list(range(1, count + 1)), workers=workers)
        walls[(workers, count)] = time.perf_counter() - start
        assert len(results) == count and all(r.error is None for r in results)
    one, two = walls[(1, scaling_games)], walls[(2, scaling_games)]
    return [Row(f"umpire study: {games} JE games, 2 workers", seconds(walls[(2, games)]), "-", "-", "< 120 s",
                ratio(walls[(2, games)], 120.0)),
            Row(f"  {scaling_games} games: 2 workers vs 1", seconds(two), f"{seconds(one)} (1 worker)",
                f"{one / two:.2f}x", "2 workers >= 1.7x", f"{(one / two) / 1.7:.2f}")]

