"""Exact odds: every die of a run enumerated, through the very rules the game runs.

There is no separate odds code per game: the scenario's position is set up and its
``run`` target executed by the same engine as ``umpire run`` and ``umpire play``; only the
dice differ. Two ways to enumerate, giving the same answer (the tests compare them):

- by branching (the default, runtime/branching.py): at each roll the game's position is
  taken, every outcome sent on from it, and positions that come out equal are merged, so the
  work is positions times outcomes;
- by replaying (``--replay``): the run is replayed from its set-up for every dice path, each
  run exactly once with its exact probability; slow, and independent of positions and keys.

Two reductions keep the tree small, both stated in the output:
- the dice of one roll (a pool, `roll x = 9 d6`) are enumerated as multisets, sorted, each
  weighted by its number of orderings: the rules are assumed to read a pool by its faces
  (totals, counts, matchings), not by the position of a die in it;
- when the outcomes measured are named facts (`record` lines), a path stops as soon as all
  of them are recorded: later dice cannot change what is measured (each fact is measured
  as first recorded).

Decisions inside are taken by a named policy, the same for every path.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from ..check.symbols import Symbols
from ..ir import nodes as n
from ..syntax.diagnostics import Sources
from .agents import Agent, FirstLegalAgent
from .branching import Bar, Brancher, Cut, enumerate_positions
from .dice import DiceProvider, SeededDice
from .driver import Runner
from .engine import Engine
from .requests import RollRequest, RuleError, ScriptError
from .scenario import run_target, target_parts
from .setup import Setup
from .values import show

POLICIES: dict[str, str] = {
    "first": "the first legal option of every decision; optional decisions declined",
}

# An enumeration is refused once it has sent on this many outcomes (by branching) or run this many paths
# (by replaying), counted as it grows, so a huge one runs until it gets there; an estimate up front is issue 14.
DEFAULT_LIMIT = 2_000_000


class OddsError(Exception):
    def __init__(self, message: str, hint: str | None = None, span=None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.span = span  # the rule that failed, when one did


def roll_outcomes(req: RollRequest) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every multiset of faces a roll can show, sorted, with its exact probability."""
    return _outcomes(req.count, req.low, req.high)


@lru_cache(maxsize=256)
def _outcomes(count: int, low: int, high: int) -> list[tuple[tuple[int, ...], Fraction]]:
    faces = range(low, high + 1)
    total = len(faces) ** count
    out = []
    for dice in combinations_with_replacement(faces, count):
        orderings = math.factorial(count)
        for k in Counter(dice).values():
            orderings //= math.factorial(k)
        out.append((dice, Fraction(orderings, total)))
    return out


class EnumeratedDice(DiceProvider):
    """Follows a path (one outcome index per roll) and extends it with outcome 0, recording
    the siblings it leaves for later runs."""

    def __init__(self, path: list[int], pending: list[list[int]]):
        self.path = path
        self.pending = pending
        self.depth = 0
        self.probability = Fraction(1)

    def roll(self, req: RollRequest) -> list[int]:
        outcomes = roll_outcomes(req)
        if self.depth < len(self.path):
            index = self.path[self.depth]
        else:
            index = 0
            self.pending.extend(self.path + [k] for k in range(len(outcomes) - 1, 0, -1))
            self.path = self.path + [0]
        dice, p = outcomes[index]
        self.depth += 1
        self.probability *= p
        return list(dice)


@dataclass
class Odds:
    names: list[str]                      # what is measured, in order
    outcomes: dict[tuple, Fraction]       # one value per name -> exact probability
    runs: int = 0                         # dice paths (leaves of the tree)
    cut: int = 0                          # paths stopped early, once every fact was known
    seconds: float = 0.0
    policy: str = "first"
    notes: list[str] = field(default_factory=list)
    positions: int | None = None          # positions that waited for dice, after merging (by branching)

    @property
    def total(self) -> Fraction:
        return sum(self.outcomes.values(), Fraction(0))

    def marginal(self, i: int) -> dict[Any, Fraction]:
        out: dict[Any, Fraction] = {}
        for key, p in self.outcomes.items():
            out[key[i]] = out.get(key[i], Fraction(0)) + p
        return dict(sorted(out.items(), key=lambda kv: _order(kv[0])))


def _order(value: Any) -> tuple:
    return (0, value, "") if isinstance(value, (int, float)) and not isinstance(value, bool) else (1, 0, show(value))


def _agents(sym: Symbols, policy: str) -> dict[str, Agent]:
    if policy not in POLICIES:
        raise OddsError(f"unknown decision policy '{policy}'", f"the policies are {', '.join(POLICIES)}")
    return {side: FirstLegalAgent() for side in sym.sides}


class _Trial:
    """One engine, reset and set up again for each run of the scenario's target."""

    def __init__(self, sc: n.Scenario, sym: Symbols, sources: Sources, facts: list[str] | None):
        self.sc, self.sym, self.facts = sc, sym, facts
        self.wanted = frozenset(facts or ())
        self.engine = Engine(sym, sources)
        self.engine.narrate = False  # nothing here reads the trace: only facts are measured
        if facts is not None:
            self.engine.on_record = self._stop_when_known

    def _stop_when_known(self) -> None:
        if self.known():
            raise Cut

    def run(self, dice: DiceProvider, policy: str) -> tuple[dict[str, Any], bool]:
        """Run once; the facts measured and whether the run was cut."""
        engine = self.engine
        engine.reset()
        Setup(engine, self.sc).run()
        runner = Runner(engine, dice, _agents(self.sym, policy))
        cut = False
        try:
            runner.run(run_target(engine, self.sc))
        except Cut:
            cut = True
        return dict(engine.state.facts), cut

    def known(self) -> bool:
        return self.facts is not None and self.engine.state.facts.keys() >= self.wanted


def exact_odds(sc: n.Scenario, sym: Symbols, sources: Sources, facts: list[str] | None = None,
               policy: str = "first", limit: int = DEFAULT_LIMIT, bar: Bar | None = None) -> Odds:
    """The exact distribution of ``facts`` (or of every fact any path records) over all dice, by
    branching at each roll and merging equal positions."""
    trial = _Trial(sc, sym, sources, facts)
    started = time.perf_counter()
    engine = trial.engine
    engine.reset()
    Setup(engine, sc).run()
    brancher = Brancher(engine, target_parts(engine, sc), Runner(engine, _NoDice(), _agents(sym, policy)))
    try:
        ended, positions = enumerate_positions(brancher, roll_outcomes, limit, bar)
    except (RuleError, ScriptError) as err:
        raise _failed(err, brancher.path) from err
    except OverflowError as err:
        raise OddsError(f"more than {limit} outcomes sent on from the positions waiting for dice: the enumeration is too large",
                        "measure fewer facts (--fact), or start the scenario closer to the roll") from err
    names = facts if facts is not None else sorted({k for e in ended for k in e.facts} - _NOT_MEASURED)
    outcomes: dict[tuple, Fraction] = {}
    for e in ended:
        key = tuple(e.facts.get(name) for name in names)
        outcomes[key] = outcomes.get(key, Fraction(0)) + e.probability
    odds = Odds(names, outcomes, sum(e.paths for e in ended), sum(e.paths for e in ended if e.cut),
                time.perf_counter() - started, policy, positions=positions)
    odds.notes.extend(_notes(facts))
    odds.notes.append(f"positions are merged when equal: {positions} waited for dice, "
                      f"{brancher.work} outcomes sent on from them")
    return odds


_NOT_MEASURED = {"departures", "rule checks failed"}


class _NoDice(DiceProvider):
    def roll(self, req: RollRequest) -> list[int]:
        raise AssertionError("branching answers every roll itself")


def _notes(facts: list[str] | None) -> list[str]:
    notes = ["the dice of one roll are enumerated as a multiset: the rules read a pool by its faces"]
    if facts:
        notes.append("a path stops as soon as every measured fact is recorded")
    return notes


def _failed(err: RuleError | ScriptError, path: tuple[int, ...]) -> OddsError:
    hint = (f"{err.hint}; or " if err.hint else "") + "measure only facts recorded before this point (--fact)"
    return OddsError(f"{err.message} (on the dice path {'/'.join(map(str, path)) or '(first roll)'})", hint, err.span)


def replay_odds(sc: n.Scenario, sym: Symbols, sources: Sources, facts: list[str] | None = None,
                policy: str = "first", limit: int = DEFAULT_LIMIT,
                progress: Callable[[int, int], None] | None = None) -> Odds:
    """The same distribution by replaying the run from its set-up for every dice path."""
    trial = _Trial(sc, sym, sources, facts)
    started = time.perf_counter()
    outcomes: dict[tuple, Fraction] = {}
    names: list[str] | None = facts
    pending: list[list[int]] = [[]]
    runs = cut = 0
    while pending:
        path = pending.pop()
        dice = EnumeratedDice(path, pending)
        try:
            recorded, was_cut = trial.run(dice, policy)
        except (RuleError, ScriptError) as err:
            raise _failed(err, tuple(dice.path[: dice.depth])) from err
        runs += 1
        cut += was_cut
        if names is None:
            names = sorted(k for k in recorded if k not in _NOT_MEASURED)
        key = tuple(recorded.get(name) for name in names)
        outcomes[key] = outcomes.get(key, Fraction(0)) + dice.probability
        if runs > limit:
            raise OddsError(f"more than {limit} dice paths: the enumeration is too large",
                            "measure fewer facts (--fact), or start the scenario closer to the roll")
        if progress and runs % 5000 == 0:
            progress(runs, len(pending))
    odds = Odds(names or [], outcomes, runs, cut, time.perf_counter() - started, policy)
    odds.notes.extend(_notes(facts))
    odds.notes.append("every dice path replayed from the set-up")
    return odds


def monte_carlo(sc: n.Scenario, sym: Symbols, sources: Sources, names: list[str], runs: int, seed: int = 1,
                policy: str = "first") -> tuple[Counter, float]:
    """The same measurement from ``runs`` seeded runs of the interpreter (for cross-checks)."""
    trial = _Trial(sc, sym, sources, names)
    counts: Counter = Counter()
    started = time.perf_counter()
    dice = SeededDice(seed)
    for _ in range(runs):
        recorded, _ = trial.run(dice, policy)
        counts[tuple(recorded.get(name) for name in names)] += 1
    return counts, time.perf_counter() - started


def report(odds: Odds, mc: tuple[Counter, float] | None = None) -> list[str]:
    """The distribution as a rules lawyer reads it: fractions, percentages, each fact, then jointly."""
    lines = [f"decisions: {odds.policy} ({POLICIES[odds.policy]})"]
    lines += [f"enumeration: {note}" for note in odds.notes]
    lines.append(f"enumeration: {odds.runs} dice paths" + (f", {odds.cut} stopped early" if odds.cut else "")
                 + f", {odds.seconds:.2f} s")
    for i, name in enumerate(odds.names):
        lines.append(f"{name}:")
        mc_marginal = _mc_marginal(mc[0], i) if mc else None
        marginal = odds.marginal(i)
        width = max(len(_value(v)) for v in marginal)
        for value, p in marginal.items():
            lines.append(f"  {_value(value):>{width}}  {_fraction(p)}" + _mc_text(mc_marginal, value, p, mc))
    if len(odds.names) > 1:
        lines.append("jointly (" + ", ".join(odds.names) + "):")
        joint = sorted(odds.outcomes.items(), key=lambda kv: tuple(_order(v) for v in kv[0]))
        width = max(len(", ".join(_value(v) for v in key)) for key, _ in joint)
        for key, p in joint:
            lines.append(f"  {', '.join(_value(v) for v in key):>{width}}  {_fraction(p)}")
    total = odds.total
    lines.append(f"total probability: {total}" + (" (exactly)" if total == 1 else " -- NOT 1: a bug in Umpire"))
    if mc:
        runs = sum(mc[0].values())
        lines.append(f"monte carlo: {runs} seeded runs of the interpreter, {mc[1]:.2f} s; "
                     f"largest deviation {_largest_deviation(odds, mc[0]):.2f} standard errors")
    return lines


def _mc_marginal(counts: Counter, i: int) -> Counter:
    out: Counter = Counter()
    for key, c in counts.items():
        out[key[i]] += c
    return out


def _mc_text(marginal: Counter | None, value: Any, p: Fraction, mc) -> str:
    if marginal is None:
        return ""
    runs = sum(mc[0].values())
    return f"   monte carlo {marginal.get(value, 0) / runs:7.2%}"


def _largest_deviation(odds: Odds, counts: Counter) -> float:
    """max over joint outcomes of |observed - expected| / standard error."""
    runs = sum(counts.values())
    worst = 0.0
    for key, p in odds.outcomes.items():
        q = float(p)
        se = math.sqrt(q * (1 - q) / runs) if 0 < q < 1 else 0.0
        if se:
            worst = max(worst, abs(counts.get(key, 0) / runs - q) / se)
    return worst


def _value(value: Any) -> str:
    return "none" if value is None else show(value)


def _fraction(p: Fraction) -> str:
    return f"{str(p):>18}  {float(p):8.4%}"
