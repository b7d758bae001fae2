"""The exact-odds targets (docs/performance.md): the engine's exact odds of a land combat beside icepool and plain Python.

The question, for each position: the exact joint distribution of the two sides' land-combat hits
(9.2 step 4: each side's dice matched to its own green values, a die at most the value). The
engine answers it with ``exact_odds`` (what ``umpire odds --fact ... --fact ...`` runs) in a worker
process stopped after ``--cap`` seconds; the baselines answer the same question in this process:
icepool (each die mapped to the green value it can hit, the pool's multiset read by the matching,
as tests/runtime/test_odds.py maps a die to a hit) and a plain-Python enumeration of the multisets of faces
weighted by their orderings (what the engine's enumeration does, without the rules).

Run by hand as a worker:  python bench/odds_targets.py SCENARIO  (prints its progress line by line).
"""

from __future__ import annotations

import math
import os
import selectors
import subprocess
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations_with_replacement
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FACTS = ("3018 land hits scored by english", "3018 land hits scored by spanish")
DICE_FACTS = ("3018 land dice rolled by english", "3018 land dice rolled by spanish")
WITHIN_ICEPOOL = 20.0  # the target: exact odds within this many times icepool's time, in the same run
LOAD_TIMEOUT = 120.0  # seconds the worker may take to load the rules before its enumeration starts


@dataclass(frozen=True)
class Battle:
    name: str                               # for --only
    what: str
    scenario: str
    english: tuple[int, tuple[int, ...]]    # dice, green values
    spanish: tuple[int, tuple[int, ...]]
    target: float                           # seconds

    @property
    def paths(self) -> int:
        """Dice paths the engine enumerates: the multisets of each side's pool (both facts known after both rolls)."""
        return math.comb(self.english[0] + 5, 5) * math.comb(self.spanish[0] + 5, 5)

    @property
    def outcomes(self) -> int:
        """Outcomes the engine's branching sends on: the English multisets from the one position at the
        English roll, then each Spanish multiset from each position at the Spanish roll (the combat
        reads both pools after both rolls, so no two of those positions are equal)."""
        return math.comb(self.english[0] + 5, 5) * (1 + math.comb(self.spanish[0] + 5, 5))


BATTLES = (
    Battle("odds-3018", "exact odds, Leogane land combat, 9 v 2 dice", "scenarios/jenkins_ear/eop_land_3018.scenario",
           (9, (1, 2)), (2, (2,)), 0.5),
    Battle("odds-13", "exact odds, the same with 13 v 2 dice", "bench/positions/land_3018_13_dice.scenario",
           (13, (1, 2)), (2, (2,)), 1.0),
    Battle("odds-20v20", "exact odds, a land combat of 20 v 20 dice", "bench/positions/land_20_v_20.scenario",
           (20, (1, 2, 2, 3)), (20, (1, 2, 2, 3)), 1.0),
)


# ── the plain-Python baseline: multisets of faces, weighted by their orderings ──


def matching_hits(dice: tuple[int, ...], values: tuple[int, ...]) -> int:
    """A maximum matching of sorted dice to sorted green values (a die at most the value): nested
    neighbourhoods, so each value in turn takes the smallest die left, if that die fits."""
    used = 0
    for v in values:
        if used < len(dice) and dice[used] <= v:
            used += 1
    return used


def plain_side(count: int, values: tuple[int, ...]) -> dict[int, int]:
    """Hits -> number of the 6**count ordered rolls that give them."""
    fact = [math.factorial(k) for k in range(count + 1)]
    out: dict[int, int] = {}
    for dice in combinations_with_replacement(range(1, 7), count):
        weight = fact[count]
        for face in range(1, 7):
            weight //= fact[dice.count(face)]
        hits = matching_hits(dice, values)
        out[hits] = out.get(hits, 0) + weight
    return out


def plain_odds(battle: Battle) -> dict[tuple, Fraction]:
    english, spanish = plain_side(*battle.english), plain_side(*battle.spanish)
    total = 6 ** (battle.english[0] + battle.spanish[0])
    return {(e, s): Fraction(we * ws, total) for e, we in english.items() for s, ws in spanish.items()}


# ── the icepool baseline ──


def _icepool_side(icepool, count: int, values: tuple[int, ...]):
    if count == 0:
        return icepool.Die([0])
    ordered = sorted(values)

    def value_hit(face: int) -> int:  # the smallest green value the face can hit (7: none)
        return next((v for v in ordered if face <= v), 7)

    return icepool.map(lambda dice: matching_hits(dice, tuple(ordered)), icepool.d6.map(value_hit).pool(count).expand())


def icepool_odds(battle: Battle) -> dict[tuple, Fraction]:
    import icepool

    joint = icepool.tupleize(_icepool_side(icepool, *battle.english), _icepool_side(icepool, *battle.spanish))
    return {tuple(k): Fraction(q, joint.denominator()) for k, q in zip(joint.outcomes(), joint.quantities())}


def timed(fn, repeats: int = 5) -> tuple[float, object]:
    """The median time of ``repeats`` calls, and the first call's value."""
    times, value = [], None
    for i in range(repeats):
        start = time.perf_counter()
        got = fn()
        times.append(time.perf_counter() - start)
        value = got if i == 0 else value
    return sorted(times)[len(times) // 2], value


# ── the engine, in a worker process stopped after the cap ──


@dataclass
class EngineOdds:
    status: str = "failed"              # done | stopped | refused | failed
    seconds: float = 0.0                # the enumeration (exact_odds), or how long it ran before it was stopped
    runs: int = 0                       # dice paths (when done)
    sent: int = 0                       # outcomes sent on (at the last progress report when stopped)
    load: float = 0.0                   # the worker's loading of the scenario and rules
    dice: tuple = ()                    # the dice counts of one seeded run: the position gives what it should
    message: str = ""
    outcomes: dict = field(default_factory=dict)


def engine_odds(battle: Battle, cap: float) -> EngineOdds:
    """Run the worker on the battle; kill it ``cap`` seconds after its enumeration starts."""
    cmd = [sys.executable, str(Path(__file__).resolve()), battle.scenario]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    result, started, pending = EngineOdds(), None, b""
    deadline = time.monotonic() + LOAD_TIMEOUT
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                proc.kill()
                _stopped(result, started)
                break
            if not sel.select(left):
                continue
            chunk = os.read(proc.stdout.fileno(), 65536)  # not readline: a buffered line would wait for the next one
            if not chunk:
                break
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                if _read_line(line.decode().split(), result) == "start":
                    started, deadline = time.monotonic(), time.monotonic() + cap
    err = proc.communicate()[1].decode(errors="replace")
    if result.status == "failed" and not result.message:
        result.message = (err.strip().splitlines() or ["the worker printed nothing"])[-1]
    return result


def _stopped(result: EngineOdds, started: float | None) -> None:
    if started is None:
        result.message = f"no enumeration after {LOAD_TIMEOUT:.0f} s"
        return
    result.status, result.seconds = "stopped", time.monotonic() - started


def _read_line(words: list[str], result: EngineOdds) -> str:
    """Fold one line of the worker's output into the result; the line's first word."""
    head = words[0] if words else ""
    if head == "dice":
        result.dice = tuple(int(w) for w in words[1:])
    elif head == "loaded":
        result.load = float(words[1])
    elif head == "progress":
        result.sent = int(words[1])
    elif head == "outcome":
        result.outcomes[(int(words[1]), int(words[2]))] = Fraction(int(words[3]), int(words[4]))
    elif head == "done":
        result.status, result.runs, result.seconds = "done", int(words[1]), float(words[2])
    elif head == "refused":
        result.status, result.seconds, result.message = "refused", float(words[1]), " ".join(words[2:])
    return head


def worker(scenario_path: str) -> None:
    """Load, check the dice the position gives with one seeded run, then enumerate; one line per event."""
    from interpreter.load import load_rules, load_scenario, rules_path_for
    from interpreter.runtime.odds.odds import OddsError, exact_odds, monte_carlo
    from interpreter.syntax.diagnostics import Sources

    start = time.perf_counter()
    sources = Sources()
    sc = load_scenario(scenario_path, sources)
    sym = load_rules(rules_path_for(sc), sources).symbols
    print(f"loaded {time.perf_counter() - start:.3f}", flush=True)
    counts, _ = monte_carlo(sc, sym, sources, list(DICE_FACTS), 1)
    print("dice", *next(iter(counts)), flush=True)
    print("start", flush=True)
    started = time.perf_counter()

    try:  # stopped by the cap, not by the limit
        odds = exact_odds(sc, sym, sources, list(FACTS), limit=10**15, bar=_ProgressLines(started).bar)
    except OddsError as err:
        print(f"refused {time.perf_counter() - started:.3f} {err.message}", flush=True)
        return
    seconds = time.perf_counter() - started
    for (e, s), p in odds.outcomes.items():
        print(f"outcome {e} {s} {p.numerator} {p.denominator}")
    print(f"done {odds.runs} {seconds:.4f}", flush=True)


class _ProgressLines:
    """exact_odds' bar as lines the parent reads: outcomes sent on so far, every 5,000."""

    def __init__(self, started: float):
        self.started, self.sent, self.said = started, 0, 0

    def bar(self, roll: int, total: int):
        return self

    def update(self, n: int) -> None:
        self.sent += n
        if self.sent - self.said >= 5000:
            self.said = self.sent
            print(f"progress {self.sent} {time.perf_counter() - self.started:.3f}", flush=True)

    def close(self) -> None:
        pass


if __name__ == "__main__":
    os.chdir(ROOT)
    worker(sys.argv[1])
