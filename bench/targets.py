"""The performance targets as rows of one table: what, the engine's figure, a baseline measured in the same run,
their ratio, the target, and the engine's figure over the target (above 1: not met yet).

bench/bench.py builds the rows (``python bench/bench.py --help`` lists their names for ``--only``);
this module measures the games, the commands and the odds, and prints the rows.
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


WIDTHS = (46, 34, 30, 10, 24, 13)  # what, engine, baseline, ratio, target, engine/target


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


def battle_odds_row(what: str, scenario: str, repeats: int) -> Row:
    """`umpire odds SCENARIO --demo` on a battle, median wall time of the whole command (Python's start and the
    rules' loading included) beside `python -c pass`: answered exactly within 10 s, or refused within 2 s with
    the --monte-carlo command offered (exit 1, no traceback)."""
    cmd = [sys.executable, "-m", "interpreter", "odds", scenario, "--demo"]
    runs = sorted(_odds_run(cmd) for _ in range(repeats))
    wall, code, said = runs[repeats // 2]
    base = sorted(_wall([sys.executable, "-c", "pass"]) for _ in range(repeats))[repeats // 2]
    if code == 0 and "total probability: 1 (exactly)" in said:
        return Row(what, f"exact in {seconds(wall)}", f"python -c pass {seconds(base)}", f"{wall / base:.1f}x",
                   "exact < 10 s", ratio(wall, 10.0))
    refused = code == 1 and "--monte-carlo" in said and "Traceback" not in said
    return Row(what, f"{'refused' if refused else f'exit {code}'} in {seconds(wall)}", f"python -c pass {seconds(base)}",
               f"{wall / base:.1f}x", "or refused < 2 s", ratio(wall, 2.0) if refused else "failed")


def _odds_run(cmd: list[str]) -> tuple[float, int, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    return time.perf_counter() - start, done.returncode, done.stdout + done.stderr


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


# ── whole games, in process, as `umpire play RULES --seed S --agents random,random` plays them ──


def game_rows(name: str, what: str, rules: str, target: float, seeds: int, notes: list[str]) -> list[Row]:
    from interpreter import files
    from interpreter.load import header_file, load_rules, load_scenario
    from interpreter.runtime.games.play import play
    from interpreter.syntax.diagnostics import Sources

    start = time.perf_counter()
    sources = Sources()
    loaded = load_rules(rules, sources, with_demo=True, with_errata=True)
    game = loaded.symbols.game
    setup = load_scenario(header_file(game, game.demo_setup, files.SCENARIO, "demo setup"), sources)
    load_s = time.perf_counter() - start
    times = []
    for seed in range(1, seeds + 1):
        start = time.perf_counter()
        result = play(loaded.symbols, sources, setup, seed, ["random", "random"])
        times.append(time.perf_counter() - start)
        if result.error is not None:
            notes.append(f"{name}: seed {seed} stopped on an error: {result.error.message}")
    median = sorted(times)[len(times) // 2]
    spread = f" ({min(times):.2f}-{max(times):.2f})" if seeds > 1 else ""
    return [Row(what, f"{median:.2f} s a game{spread}", "-", "-", f"< {seconds(target)}", ratio(median, target)),
            Row("  set-up: load, check, demo set-up", seconds(load_s), "-", "-", "(once; see check)")]


# ── commands, timed from outside, paired with `python -c pass` ──


def command_row(what: str, args: list[str], target: float, repeats: int, cold: bool = False) -> Row:
    """Median wall time of ``python -m interpreter ARGS`` beside ``python -c pass``, run in turn.

    Cold: every run gets a fresh, empty temporary and cache folder (TMPDIR, XDG_CACHE_HOME), so
    nothing cached by an earlier run (Lark's grammar tables today, any later cache of the checked
    IR if it lives there) is found; warm: one run first, not counted. Both may use Python's bytecode
    cache (__pycache__, written by the first run here), as an installed umpire does."""
    cmd = [sys.executable, "-m", "interpreter", *args]
    base = [sys.executable, "-c", "pass"]
    if not cold:
        _wall(cmd)
    pairs = [(_wall(cmd, cold), _wall(base)) for _ in range(repeats)]
    a = sorted(p[0] for p in pairs)[repeats // 2]
    b = sorted(p[1] for p in pairs)[repeats // 2]
    r = sorted(p[0] / p[1] for p in pairs)[repeats // 2]
    return Row(what, seconds(a), f"python -c pass {seconds(b)}", f"{r:.1f}x", f"< {seconds(target)}", ratio(a, target))


def _wall(cmd: list[str], cold: bool = False) -> float:
    env, fresh = dict(os.environ), None
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # Python's own bytecode cache, as an installed umpire has it
    if cold:
        fresh = tempfile.mkdtemp(prefix="umpire-cold-")
        env.update(TMPDIR=fresh, XDG_CACHE_HOME=fresh)
    try:
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start
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

