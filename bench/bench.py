"""Benchmarks: the interpreter against the same rules hand-written in plain Python, and the performance targets (docs/performance.md).

Run from the repository root:  python bench/bench.py [--seconds S] [--only NAME ...] [--cap SECONDS]
It prints combats per second for the engine (running rulesets/jenkins_ear.rules) and for a
plain-Python transcription of the same combat, and their ratio, measured side by side in
the same process; then one row per performance target (exact odds beside icepool and plain
Python; for each of the five games a campaign, a greedy decision, cold and warm `check`, and a
battle's odds in the three newer ones; start-up, copying a position): the engine's figure, a
baseline measured in the same run, their ratio and the target. It is a measurement, not a test: nothing here
asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import game_targets  # noqa: E402  (bench/, beside this file)
import odds_targets  # noqa: E402
import targets  # noqa: E402

from interpreter.load import load_rules, load_scenario, rules_path_for  # noqa: E402
from interpreter.runtime.execution.dice import SeededDice  # noqa: E402
from interpreter.runtime.execution.engine import Engine  # noqa: E402
from interpreter.runtime.games.agents import FirstLegalAgent  # noqa: E402
from interpreter.runtime.games.driver import Runner  # noqa: E402
from interpreter.runtime.games.setup import Setup  # noqa: E402
from interpreter.syntax.diagnostics import Sources  # noqa: E402


def engine_combat(scenario_path: str, proc: str, args_of):
    """A function that sets up the scenario's position and runs one combat through the engine."""
    sources = Sources()
    scenario = load_scenario(scenario_path, sources)
    sym = load_rules(rules_path_for(scenario), sources).symbols

    engine = Engine(sym, sources)  # one engine, as in a game: the rules are lowered once

    def once(seed: int) -> None:
        engine.reset()
        Setup(engine, scenario).run()
        agents = {side: FirstLegalAgent() for side in sym.sides}
        runner = Runner(engine, SeededDice(seed), agents)
        runner.run(engine.procedure(proc).call(args_of(engine)))

    return once


def engine_combat_from_position(scenario_path: str, proc: str, args_of):
    """The same combat from the position taken once after the set-up and restored before every combat
    (what a search or the odds pay), instead of setting the scenario up again."""
    from interpreter.runtime.execution.vm import Process
    from interpreter.runtime.position.position import Position

    sources = Sources()
    scenario = load_scenario(scenario_path, sources)
    sym = load_rules(rules_path_for(scenario), sources).symbols
    engine = Engine(sym, sources)
    Setup(engine, scenario).run()
    shell = Process(engine, None)
    shell.stack = []
    start = Position.of(engine, shell)

    def once(seed: int) -> None:
        start.restore(engine, shell)
        del engine.events[:]
        agents = {side: FirstLegalAgent() for side in sym.sides}
        runner = Runner(engine, SeededDice(seed), agents)
        runner.run(engine.procedure(proc).call(args_of(engine)))

    return once


# ── the same combats, hand-written: only what these positions need ──


def plain_land_combat(seed: int) -> tuple[int, int]:
    """Leogane, 3018: English soldiers (green 1, 2), 9 cannonade, -2 seaport; Spanish green 2 and a +1 leader."""
    rng = random.Random(seed)
    english = [{"id": "ES1", "land": 1, "cost": 2}, {"id": "ES2", "land": 2, "cost": 2}, {"id": "ECAN", "land": None, "cost": 2}]
    spanish = [{"id": "SSOL", "land": 2, "cost": 2}, {"id": "REGGIO", "land": None, "cost": 3}]
    e_dice = [rng.randint(1, 6) for _ in range(max(0, 2 + 0 + 9 - 2))]
    s_dice = [rng.randint(1, 6) for _ in range(1 + 1)]

    def hits(dice, units):
        values = sorted(u["land"] for u in units if u["land"] is not None)
        pool = sorted(dice)
        count = 0
        for v in values:  # nested neighbourhoods: greedy smallest value first is a maximum matching
            for i, d in enumerate(pool):
                if d <= v:
                    pool.pop(i)
                    count += 1
                    break
        return count

    eh, sh = hits(e_dice, english), hits(s_dice, spanish)
    for side, lost in ((english, sh), (spanish, eh)):
        for _unit in side[: min(lost, len(side))]:
            rng.randint(1, 6)  # the 9.3 disposition roll
    return eh, sh


def plain_naval_combat(seed: int) -> tuple[int, int]:
    """Leogane, 3018: four English warships (+2 in an enemy seaport, Ogle's 3 dice) against two ships and a battery."""
    rng = random.Random(seed)
    english = [("AUGUSTA", 6, 1), ("FREDERICK", 7, 1), ("CORNWALL", 8, 4), ("EFR3", 4, 1)]  # Ogle's +3 on Cornwall
    spanish = [("SFR3", 3, 1), ("SANTA_ISABEL", 6, 1), ("SCAN", 2, 1)]
    eh = sum(1 for _, gun, n in english if min(rng.randint(1, 6) for _ in range(n)) + 2 <= gun)
    sh = sum(1 for _, gun, n in spanish if min(rng.randint(1, 6) for _ in range(n)) <= gun)
    for lost in (min(sh, 5), min(eh, 3)):
        for _ in range(lost):
            rng.randint(1, 6)  # the 9.3 disposition roll
    return eh, sh


def rate(fn, seconds: float) -> float:
    """Calls of `fn` a second of this process's CPU time: on a shared machine the wall clock also
    counts the time other work holds the core."""
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        fn(n)
        n += 1
    return n / (time.process_time() - start)


KEYS = [g.key for g in game_targets.GAMES]
BATTLES = [g.key for g in game_targets.GAMES if g.battle]
ROWS = ("odds-3018", "odds-13", "odds-20v20", *(f"odds-{k}" for k in BATTLES), "land", "naval",
        *(f"game-{k}" for k in KEYS), *(f"greedy-{k}" for k in KEYS), *(f"check-warm-{k}" for k in KEYS),
        *(f"check-cold-{k}" for k in KEYS), "help", "copy", "save", "study")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--only", nargs="+", metavar="NAME", default=[],
                        help="only the rows whose names start with one of these: " + ", ".join(ROWS))
    parser.add_argument("--cap", type=float, default=60.0,
                        help="stop each exact-odds run of the engine after this many seconds (default 60)")
    parser.add_argument("--seeds", type=int, default=3, help="games played of each game (seeds 1..N)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each command timed")
    parser.add_argument("--decisions", type=int, default=5, help="greedy decisions timed in each game")
    parser.add_argument("--study-games", type=int, default=1000,
                        help="games of the study row (a fifth of them, at least 20, for its one-worker baseline)")
    parser.add_argument("--odds", action="store_true", help="also time exact odds against a Monte Carlo (about a minute)")
    args = parser.parse_args()
    import os

    os.chdir(ROOT)
    wanted = [name for name in ROWS if not args.only or any(name.startswith(o) for o in args.only)]
    unknown = [o for o in args.only if not any(name.startswith(o) for name in ROWS)]
    if unknown:
        parser.error(f"no row is named {', '.join(unknown)}: the rows are {', '.join(ROWS)}")
    rates = combats(wanted, args.seconds)
    targets_table(wanted, args, rates)
    if args.odds:
        exact_against_monte_carlo()


def combats(wanted: list[str], seconds: float) -> dict[str, tuple[float, float]]:
    """The land and naval combats per second, engine and plain Python, printed as they always were."""
    rates = {}
    for key, name, plain_fn in (("land", "land combat (Leogane)", plain_land_combat),
                                ("naval", "naval combat (Leogane)", plain_naval_combat)):
        if key not in wanted:
            continue
        engine_fn = engine_combat(f"scenarios/jenkins_ear/eop_{key}_3018.scenario", f"{key}_combat",
                                  lambda e: [(None, e.state.places["3018"]), (None, "english")])
        if not rates:
            print(f"{'combat':<28}{'engine /s':>12}{'plain Python /s':>18}{'ratio':>9}")
        e, p = rate(engine_fn, seconds), rate(plain_fn, seconds)
        rates[key] = (e, p)
        print(f"{name:<28}{e:>12.0f}{p:>18.0f}{p / e:>8.1f}x")
        from_position = engine_combat_from_position(f"scenarios/jenkins_ear/eop_{key}_3018.scenario", f"{key}_combat",
                                                    lambda e: [(None, e.state.places["3018"]), (None, "english")])
        r = rate(from_position, seconds)
        print(f"{'  from a restored position':<28}{r:>12.0f}{p:>18.0f}{p / r:>8.1f}x")
    if rates:
        print("(the engine figures include setting the position up again from the scenario before every combat;\n"
              " 'from a restored position' restores the position taken after one set-up instead)\n")
    return rates


def targets_table(wanted: list[str], args, rates: dict[str, tuple[float, float]]) -> None:
    """The performance targets, one row each as it is measured, then the notes."""
    notes: list[str] = []
    battles = {b.name: b for b in odds_targets.BATTLES}
    base = targets.Baselines(plain_land_combat, args.seeds, args.decisions, notes)
    print(targets.header(), flush=True)
    for name in wanted:
        kind, _, key = name.rpartition("-")
        game = game_targets.BY_KEY.get(key)
        if name in battles:
            rows = targets.odds_rows(battles[name], args.cap, notes)
        elif name in rates:
            rows = [targets.combat_row(f"{name} combat (Leogane), one combat", *rates[name])]
        elif kind == "odds":
            rows = [targets.battle_odds_row(game, args.cap, base)]
        elif kind == "game":
            rows = targets.game_rows(game, base)
        elif kind == "greedy":
            rows = targets.greedy_rows(game, base)
        elif kind in ("check-warm", "check-cold"):
            cold = kind == "check-cold"
            rows = [targets.command_row(f"umpire check {Path(game.rules).stem} ({'cold' if cold else 'warm'})",
                                        ["check", game.rules], 1.0 if cold else 0.15, args.repeats, cold)]
        elif name == "help":
            rows = [targets.command_row("umpire --help", ["--help"], 0.15, args.repeats)]
        elif name == "copy":
            rows = [targets.copy_row()]
        elif name == "save":
            rows = targets.save_rows()
        elif name == "study":
            rows = targets.study_rows(args.study_games, max(20, args.study_games // 5))
        else:
            rows = []
        for row in rows:
            print(targets.line(row), flush=True)
    print("\n".join(["", *NOTES, *(f"  {note}" for note in notes)]))


NOTES = (
    "notes: exact odds: the engine's figure is exact_odds (what `umpire odds --fact ... --fact ...` runs) in a worker",
    "  process, loading not counted, stopped after --cap seconds; the baselines compute the same joint distribution of",
    "  both sides' hits (exact fractions, checked equal to each other and to the engine's when it finishes), median of 5.",
    "  A battle's odds: `python -m interpreter odds SCENARIO` (loading counted), killed after --cap seconds; its CPU.",
    "  Combats: per combat, from the rates above. Games: play() in this process, as `umpire play RULES --seed S",
    "  --agents random,random` (errata applied, demo set-up), CPU median over seeds 1..N, each game on a new engine",
    "  (lowering the rules included); 'one engine' plays them all on one engine made ready again (a study's games);",
    "  the set-up is measured apart. Greedy: seed 1's random game to decision N, then both sides greedy (24 rollouts",
    "  a decision); the CPU of each decision that played rollouts, --decisions of them.",
    "  Commands: `python -m interpreter ...`, the child's CPU, median of --repeats, beside `python -c pass` run in turn;",
    "  Python's bytecode cache allowed; cold: a fresh empty TMPDIR and XDG_CACHE_HOME for every run.",
)


def exact_against_monte_carlo(runs: int = 5000) -> None:
    """`umpire odds` on the Leogane land combat, against the Monte Carlo that would replace it."""
    from interpreter.runtime.odds.odds import exact_odds, monte_carlo

    sources = Sources()
    scenario = load_scenario("scenarios/jenkins_ear/eop_land_3018.scenario", sources)
    sym = load_rules(rules_path_for(scenario), sources).symbols
    facts = ["3018 land hits scored by english", "3018 land hits scored by spanish"]
    odds = exact_odds(scenario, sym, sources, facts)
    _, seconds = monte_carlo(scenario, sym, sources, facts, runs)
    per_100k = seconds / runs * 100_000
    print(f"exact odds of the Leogane land combat: {odds.runs} dice paths in {targets.seconds(odds.seconds)}; "
          f"a 100,000-combat Monte Carlo of the interpreter: {per_100k:.1f} s (from {runs} runs); "
          f"ratio {targets.ratio(per_100k, odds.seconds)} in favour of the exact odds")


if __name__ == "__main__":
    main()
