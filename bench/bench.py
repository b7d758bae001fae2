"""Benchmarks: the interpreter against the same rules hand-written in plain Python.

Run from the repository root:  python bench/bench.py [--seconds S]
It prints combats per second for the engine (running rulesets/jenkins_ear.rules) and for a
plain-Python transcription of the same combat, and their ratio, measured side by side in
the same process. It is a measurement, not a test: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.load import load_rules, load_scenario, rules_path_for  # noqa: E402
from interpreter.runtime.agents import FirstLegalAgent  # noqa: E402
from interpreter.runtime.dice import SeededDice  # noqa: E402
from interpreter.runtime.driver import Runner  # noqa: E402
from interpreter.runtime.engine import Engine  # noqa: E402
from interpreter.runtime.setup import Setup  # noqa: E402
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
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn(n)
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--odds", action="store_true", help="also time exact odds against a Monte Carlo (about a minute)")
    args = parser.parse_args()
    import os

    os.chdir(ROOT)
    land = engine_combat("scenarios/jenkins_ear/eop_land_3018.scenario", "land_combat",
                         lambda e: [(None, e.state.places["3018"]), (None, "english")])
    naval = engine_combat("scenarios/jenkins_ear/eop_naval_3018.scenario", "naval_combat",
                          lambda e: [(None, e.state.places["3018"]), (None, "english")])
    print(f"{'combat':<28}{'engine /s':>12}{'plain Python /s':>18}{'ratio':>9}")
    for name, engine_fn, plain_fn in (("land combat (Leogane)", land, plain_land_combat),
                                      ("naval combat (Leogane)", naval, plain_naval_combat)):
        e, p = rate(engine_fn, args.seconds), rate(plain_fn, args.seconds)
        print(f"{name:<28}{e:>12.0f}{p:>18.0f}{p / e:>8.1f}x")
    print("(the engine figures include setting the position up again from the scenario before every combat)")
    from interpreter.load import demo_path
    from interpreter.runtime.play import play

    sources = Sources()
    loaded = load_rules("rulesets/jenkins_ear.rules", sources, with_demo=True)
    setup = load_scenario(demo_path(loaded.symbols.game.span.file, loaded.symbols.game.demo_setup), sources)
    games = rate(lambda seed: play(loaded.symbols, sources, setup, seed + 1, ["random", "random"]), args.seconds)
    print(f"{'full 10-turn games (demo data, random agents)':<46}{games:>8.2f} /s")
    if args.odds:
        exact_against_monte_carlo()


def exact_against_monte_carlo(runs: int = 5000) -> None:
    """`umpire odds` on the Leogane land combat, against the Monte Carlo that would replace it."""
    from interpreter.runtime.odds import exact_odds, monte_carlo

    sources = Sources()
    scenario = load_scenario("scenarios/jenkins_ear/eop_land_3018.scenario", sources)
    sym = load_rules(rules_path_for(scenario), sources).symbols
    facts = ["3018 land hits english", "3018 land hits spanish"]
    odds = exact_odds(scenario, sym, sources, facts)
    _, seconds = monte_carlo(scenario, sym, sources, facts, runs)
    per_100k = seconds / runs * 100_000
    print(f"exact odds of the Leogane land combat: {odds.runs} dice paths in {odds.seconds:.1f} s; "
          f"a 100,000-combat Monte Carlo of the interpreter: {per_100k:.1f} s (from {runs} runs); "
          f"ratio {per_100k / odds.seconds:.1f}x in favour of the exact odds")


if __name__ == "__main__":
    main()
