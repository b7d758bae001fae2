"""Exact odds: every die of a run enumerated, through the very rules the game runs.

There is no separate odds code per game: the scenario's position is set up and its
``run`` target executed by the same engine as ``umpire run`` and ``umpire play``; only the
dice differ. Two ways to enumerate, giving the same answer (the tests compare them):

- by branching (the default, runtime/odds/branching.py): at each roll the game's position is
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
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, product
from typing import Any

from ...ir import nodes as n
from ...ir.symbols import Symbols
from ...limits import DEFAULT_ODDS_PATHS
from ...syntax.diagnostics import Sources
from ..common.requests import DrawRequest, RollRequest, RuleError, ScriptError, Unprinted
from ..common.spread import SPLITS, Splits, Spread, Unread
from ..common.values import ORDER_WATCH, OrderedRead, Place, Unit, show
from ..execution import cups
from ..execution.dice import DiceProvider, SeededDice
from ..execution.engine import Engine
from ..games.agents import Agent
from ..games.driver import Runner
from ..games.scenario import target_parts
from ..games.setup import Setup
from ..games.stands_in import stands_in
from ..position.position import canon
from .branching import UNPRINTED, Bar, Brancher, Cut, Ended, TooLarge, enumerate_positions
from .from_position import FromPosition
from .policies import POLICIES, Seen, agents_for

# An enumeration is refused before a roll whose outcomes would take the outcomes sent on past this
# (by branching: each roll's size is known before its work starts), or once a replay has run this many paths.
DEFAULT_LIMIT = DEFAULT_ODDS_PATHS


class OddsError(Exception):
    def __init__(self, message: str, hint: str | None = None, span=None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.span = span  # the rule that failed, when one did


def roll_outcomes(req: RollRequest | DrawRequest) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every multiset of faces a roll can show (of indexes a draw can give: runtime/execution/cups.py), sorted,
    with its exact probability; every sequence of faces instead for a roll the rules read die by die
    (its label in ORDER_WATCH: see `watching_order`)."""
    if isinstance(req, DrawRequest):
        return cups.outcomes(req)
    watched = ORDER_WATCH.get()
    if watched is not None and req.label in watched and req.count > 1:
        return _sequences(req.count, req.low, req.high)
    return _outcomes(req.count, req.low, req.high)


# While exact odds branch: the labels of the rolls whose dice are enumerated as multisets, because the rules
# read a die of them face by face (common/spread.py's `Unread`); every other roll of two dice or more is kept as
# a distribution until the rules read it.
SETTLED: ContextVar[frozenset] = ContextVar("settled", default=frozenset())


def branch_outcomes(req: RollRequest | DrawRequest) -> list[tuple[tuple[int, ...] | Spread, Fraction]]:
    """A roll's outcomes as branching sends them on: a pool of two dice or more as one outcome, its
    distribution (a `Spread`, read as the rules read it), unless its dice are read face by face or in
    order; else `roll_outcomes`."""
    if (isinstance(req, RollRequest) and req.count > 1 and req.label not in SETTLED.get()
            and req.label not in (ORDER_WATCH.get() or ())):
        return [(Spread.whole(req.count, req.low, req.high), Fraction(1))]
    return roll_outcomes(req)


@lru_cache(maxsize=64)
def _sequences(count: int, low: int, high: int) -> list[tuple[tuple[int, ...], Fraction]]:
    faces = range(low, high + 1)
    p = Fraction(1, len(faces) ** count)
    return [(dice, p) for dice in product(faces, repeat=count)]


def watching_order(enumerate_once: Callable[[], Any], multisets: list[str] | None = None) -> tuple[Any, list[str]]:
    """Run an enumeration with its rolls' dice as distributions (branching) or multisets; when the rules
    read a die of a roll kept as a distribution face by face (common/spread.py), start again with that
    roll's dice as multisets; when they read a die by its place in the roll (`gauge[0]`), which sorting
    would falsify, start again with that roll's dice in every order. The result, and the labels of the
    rolls enumerated in every order; those enumerated as multisets added to ``multisets``."""
    ordered: set[str] = set()
    settled: set[str] = set()
    while True:
        token, kept = ORDER_WATCH.set(frozenset(ordered)), SETTLED.set(frozenset(settled))
        try:
            found = enumerate_once()
            if multisets is not None:
                multisets.extend(sorted(settled - ordered))
            return found, sorted(ordered)
        except OrderedRead as read:
            ordered.add(read.label)
        except Unread as read:
            settled.add(read.label)
        finally:
            ORDER_WATCH.reset(token)
            SETTLED.reset(kept)


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

    def __init__(self, path: list[int], pending: list[list[int]], rolled: set[str] | None = None):
        self.path = path
        self.rolled = rolled if rolled is not None else set()  # labels of the rolls met (shared by the runs)
        self.pending = pending
        self.depth = 0
        self.probability = Fraction(1)

    def roll(self, req: RollRequest | DrawRequest) -> list[int]:
        outcomes = roll_outcomes(req)
        self.rolled.add(req.label)
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

    draw = roll  # a draw's outcomes are multisets of indexes, enumerated alike


@dataclass
class Odds:
    names: list[str]                      # what is measured, in order
    outcomes: dict[tuple, Fraction]       # one value per name -> exact probability
    runs: int | None = 0                  # dice paths (leaves of the tree); None: infinitely many (a cycle)
    cut: int | None = 0                   # paths stopped early, once every fact was known
    seconds: float = 0.0
    policy: str = "first"
    notes: list[str] = field(default_factory=list)
    positions: int | None = None          # positions that waited for dice, after merging (by branching)
    seen: Seen = field(default_factory=Seen)  # what the decision policy did, over every path
    rests_on: list[str] = field(default_factory=list)  # data beyond the published rules the answer uses
    unprinted: list[str] = field(default_factory=list)  # results the rulebook does not print that paths reach (8.7)

    @property
    def total(self) -> Fraction:
        return sum(self.outcomes.values(), Fraction(0))

    def marginal(self, i: int) -> dict[Any, Fraction]:
        out: dict[Any, Fraction] = {}
        for key, p in self.outcomes.items():
            out[key[i]] = out.get(key[i], Fraction(0)) + p
        return dict(sorted(out.items(), key=lambda kv: value_order(kv[0])))


def value_order(value: Any) -> tuple:
    if isinstance(value, Recorded):
        value = value.value
    return (0, value, "") if isinstance(value, (int, float)) and not isinstance(value, bool) else (1, 0, show(value))


class Recorded:
    """A recorded value that cannot key a dict as it is (a list, a map): compared by its canonical
    form (position.canon: units by id, containers as tuples), shown as it was recorded."""

    __slots__ = ("value", "key")

    def __init__(self, value: Any):
        self.value, self.key = value, canon(value)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Recorded) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)


def outcome(facts: dict, names: list[str]) -> tuple:
    """The measured facts of one end as a key of the distribution, in the order of ``names``."""
    return tuple(_keyable(facts.get(name)) for name in names)


def _keyable(value: Any) -> Any:
    # A place or a unit hashes by identity, and each run's position has its own copies: keyed as it
    # stands, one place would count once per run that ended on it.
    if isinstance(value, (Place, Unit)):
        return Recorded(value)
    try:
        hash(value)
    except TypeError:
        return Recorded(value)
    return value


def default_policy(sc: n.Scenario) -> str:
    """A scenario that scripts its decisions is measured with them (`script`); else `first`."""
    return "script" if sc.decisions else "first"


def _agents(sym: Symbols, policy: str, sc: n.Scenario | None = None, decide: dict[str, str] | None = None,
            seen: Seen | None = None) -> dict[str, Agent]:
    if policy not in POLICIES:
        raise OddsError(f"unknown decision policy '{policy}'", f"the policies are {', '.join(POLICIES)}")
    return agents_for(sym.sides, policy, sc.decisions if sc is not None else (), decide, seen or Seen())


def expected_facts(sc: n.Scenario) -> list[str]:
    """The facts the scenario's expectations name (``fact("NAME")`` with a plain string), in order."""
    from ...ir.visit import descendants

    names: list[str] = []
    for node in descendants([e.expr for e in sc.expects]):
        if isinstance(node, n.CallExpr) and node.func == "fact" and node.args:
            value = node.args[0].value
            if isinstance(value, n.StrLit) and not any(p.expr is not None for p in value.parts):
                if value.value not in names:
                    names.append(value.value)
    return names


def begin(engine: Engine, sc: n.Scenario | None, start: FromPosition | None = None) -> tuple[list, Any]:
    """The engine reset and the run made ready: the scenario set up and its `run` target (its parts, no
    work under way), or a game's position put back and the run from it to its horizon (from_position.py)."""
    engine.reset()
    if start is not None:
        return start.begin(engine, sc)
    Setup(engine, sc).run()
    return target_parts(engine, sc), None


class _Trial:
    """One engine, reset and set up again for each run of the scenario's target."""

    def __init__(self, sc: n.Scenario, sym: Symbols, sources: Sources, facts: list[str] | None,
                 decide: dict[str, str] | None = None, seen: Seen | None = None, start: FromPosition | None = None):
        self.sc, self.sym, self.facts, self.decide, self.start = sc, sym, facts, decide, start
        self.wanted = frozenset(facts or ())
        self.seen = seen if seen is not None else Seen()
        self.engine = Engine(sym, sources)
        self.engine.narrate = False  # nothing here reads the trace: only facts are measured
        if facts is not None:
            self.engine.on_record = self._stop_when_known

    def _stop_when_known(self) -> None:
        if self.known():
            raise Cut

    def agents(self, policy: str) -> dict[str, Agent]:
        return _agents(self.sym, policy, self.sc, self.decide, self.seen)

    def run(self, dice: DiceProvider, policy: str) -> tuple[dict[str, Any], bool]:
        """Run once; the facts measured and whether the run was cut."""
        engine = self.engine
        parts, first = begin(engine, self.sc, self.start)
        runner = Runner(engine, dice, self.agents(policy))
        cut = False
        try:
            runner.run(engine.run_to_end(parts, first))
        except Cut:
            cut = True
        except Unprinted as gap:  # the run ends where the rulebook prints no result, as a branch does
            return {**engine.state.facts, UNPRINTED: gap.missing[0]}, False
        return dict(engine.state.facts), cut

    def known(self) -> bool:
        return self.facts is not None and self.engine.state.facts.keys() >= self.wanted


def exact_odds(sc: n.Scenario, sym: Symbols, sources: Sources, facts: list[str] | None = None,
               policy: str = "first", limit: int = DEFAULT_LIMIT, bar: Bar | None = None,
               decide: dict[str, str] | None = None, start: FromPosition | None = None) -> Odds:
    """The exact distribution of ``facts`` (or of every fact any path records) over all dice, by
    branching at each roll and merging equal positions."""
    trial = _Trial(sc, sym, sources, facts, decide, start=start)
    started = time.perf_counter()
    engine = trial.engine

    def enumerate_once():
        parts, first = begin(engine, sc, start)
        brancher = Brancher(engine, parts, Runner(engine, _NoDice(), trial.agents(policy)), first)
        try:
            return brancher, enumerate_positions(brancher, branch_outcomes, limit, bar)
        except (RuleError, ScriptError) as err:
            raise _failed(err, brancher.path) from err
        except TooLarge as big:
            raise _too_large(big, limit) from big

    settled: list[str] = []
    (brancher, (ended, positions)), ordered = watching_order(enumerate_once, settled)
    names = facts if facts is not None else sorted({k for e in ended for k in e.facts} - _NOT_MEASURED)
    outcomes: dict[tuple, Fraction] = {}
    for e in ended:
        key = outcome(e.facts, names)
        outcomes[key] = outcomes.get(key, Fraction(0)) + e.probability
    endless = any(e.paths is None for e in ended)  # a cycle: a roll may come again without end
    runs = None if endless else sum(e.paths for e in ended)
    odds = Odds(names, outcomes, runs, None if endless else sum(e.paths for e in ended if e.cut),
                time.perf_counter() - started, policy, positions=positions, seen=trial.seen,
                rests_on=rests_on(sc, sym, brancher.rolled | _tables_read(e.facts for e in ended)))
    odds.unprinted = _unprinted(ended)
    odds.notes.extend(_notes(facts, ordered))
    odds.notes.append(_kept_note(settled))
    odds.notes.append(f"positions are merged when equal: {positions} waited for dice, "
                      f"{brancher.work} outcomes sent on from them")
    return odds


_NOT_MEASURED = {"departures", "rule checks failed"}


class TooLargeError(OddsError):
    """An enumeration refused for its size: `--monte-carlo` can still answer."""


def _too_large(big: TooLarge, limit: int) -> TooLargeError:
    return TooLargeError(
        f"roll {big.roll} would send on {big.outcomes} outcomes from {big.waiting} positions waiting for dice "
        f"({big.done} sent on before it): more than the limit of {limit}; refused before it was run",
        "measure fewer facts (--fact), start the scenario closer to the roll, raise --limit, "
        "or estimate with --monte-carlo N")


def _tables_read(facts_of_runs) -> set[str]:
    """The tables the runs read, rolled or read at a value: each read records 'TABLE result'."""
    return {k[: -len(" result")] for facts in facts_of_runs for k in facts if k.endswith(" result")}


def rests_on(sc: n.Scenario, sym: Symbols, rolled: set[str]) -> list[str]:
    """What the answer rests on beyond the published rules: the demo map and counters of the set-up
    (runtime/games/stands_in.py), tables the rulebook does not print that a path rolled on (demo or fixture
    data stands in), and the scenario's fixtures."""
    lines = stands_in(sc, sym)
    for label in sorted(rolled):
        missing = sym.missing.get(label)
        if missing is not None and missing.what == "table" and label in sym.tables:
            where = sym.tables[label].span
            lines.append(f"table '{label}' is not printed in the rulebook [{missing.cite}]: the odds use the rows "
                         f"of {where.file}:{where.line}, not published data")
    if sc is not None and sc.fixtures:
        lines.append(f"the position uses {len(sc.fixtures)} fixture(s), values the rulebook does not print "
                     f"(the scenario's 'fixture' lines)")
    return lines


def _unprinted(ended: list) -> list[str]:
    """How likely each result the rulebook does not print is to be reached: those paths end there (8.7)."""
    reached: dict[str, Fraction] = {}
    for e in ended:
        if UNPRINTED in e.facts:
            reached[e.facts[UNPRINTED]] = reached.get(e.facts[UNPRINTED], Fraction(0)) + e.probability
    return [f"{what}, reached with probability {p} ({float(p):.1%}): those paths end there (fact '{UNPRINTED}')"
            for what, p in sorted(reached.items())]


class _NoDice(DiceProvider):
    def roll(self, req: RollRequest) -> list[int]:
        raise AssertionError("branching answers every roll itself")

    draw = roll


def _notes(facts: list[str] | None, ordered: list[str] = ()) -> list[str]:
    notes = ["the dice of one roll are enumerated as a multiset: the rules read a pool by its faces"]
    if ordered:
        notes[0] += (f"; except {', '.join(ordered)}, whose dice the rules read one by one by their place in the "
                     f"roll: every order of its faces is enumerated")
    if facts:
        notes.append("a path stops as soon as every measured fact is recorded")
    return notes


def _kept_note(settled: list[str]) -> str:
    """What branching did with rolls of two dice or more (common/spread.py)."""
    note = ("a roll of two dice or more is kept as a distribution and branched only on what the rules read of it "
            "(a matching, a total, the highest or lowest die), not on each multiset")
    if settled:
        note += f"; except {', '.join(settled)}, whose dice the rules read one by one: enumerated as multisets"
    return note


def _failed(err: RuleError | ScriptError, path: tuple[int, ...]) -> OddsError:
    return _failed_at(err, f"(on the dice path {'/'.join(map(str, path)) or '(first roll)'})")


def _failed_at(err: RuleError | ScriptError, where: str) -> OddsError:
    if getattr(err, "missing", ()):
        return OddsError(f"{err.message} {where}: the rulebook does not print {', '.join(err.missing)}, so these odds "
                         f"cannot be had from the published rules",
                         "--demo measures them on the game's demo tables (invented, not the published data); "
                         "or measure only facts recorded before this point (--fact)", err.span)
    hint = (f"{err.hint}; or " if err.hint else "") + "measure only facts recorded before this point (--fact)"
    return OddsError(f"{err.message} {where}", hint, err.span)


def replay_odds(sc: n.Scenario, sym: Symbols, sources: Sources, facts: list[str] | None = None,
                policy: str = "first", limit: int = DEFAULT_LIMIT,
                progress: Callable[[int, int], None] | None = None, decide: dict[str, str] | None = None,
                start: FromPosition | None = None) -> Odds:
    """The same distribution by replaying the run from its set-up (or position) for every dice path."""
    trial = _Trial(sc, sym, sources, facts, decide, start=start)
    started = time.perf_counter()
    (outcomes, names, runs, cut, rolled, gaps), ordered = watching_order(
        lambda: _replay_paths(trial, facts, policy, limit, progress))
    odds = Odds(names or [], outcomes, runs, cut, time.perf_counter() - started, policy, seen=trial.seen,
                rests_on=rests_on(sc, sym, rolled))
    odds.unprinted = _unprinted(gaps)
    odds.notes.extend(_notes(facts, ordered))
    odds.notes.append("every dice path replayed from the " + ("position" if start is not None else "set-up"))
    return odds


def _replay_paths(trial: _Trial, facts: list[str] | None, policy: str, limit: int, progress):
    """Every dice path replayed: the distribution, the names measured, runs, runs cut, tables read, and
    the paths that ended at a result the rulebook does not print (as branching's ends)."""
    outcomes: dict[tuple, Fraction] = {}
    gaps: list[Ended] = []
    names: list[str] | None = facts
    pending: list[list[int]] = [[]]
    runs = cut = 0
    rolled: set[str] = set()
    while pending:
        path = pending.pop()
        dice = EnumeratedDice(path, pending, rolled)
        try:
            recorded, was_cut = trial.run(dice, policy)
        except (RuleError, ScriptError) as err:
            raise _failed(err, tuple(dice.path[: dice.depth])) from err
        runs += 1
        cut += was_cut
        rolled |= _tables_read([recorded])
        if UNPRINTED in recorded:
            gaps.append(Ended({UNPRINTED: recorded[UNPRINTED]}, False, dice.probability))
        if names is None:
            names = sorted(k for k in recorded if k not in _NOT_MEASURED)
        key = outcome(recorded, names)
        outcomes[key] = outcomes.get(key, Fraction(0)) + dice.probability
        if runs > limit:
            raise TooLargeError(f"more than {limit} dice paths: the enumeration is too large",
                                "measure fewer facts (--fact), or start the scenario closer to the roll")
        if progress and runs % 5000 == 0:
            progress(runs, len(pending))
    return outcomes, names, runs, cut, rolled, gaps


def monte_carlo(sc: n.Scenario, sym: Symbols, sources: Sources, names: list[str], runs: int, seed: int = 1,
                policy: str = "first", decide: dict[str, str] | None = None,
                start: FromPosition | None = None) -> tuple[Counter, float]:
    """The same measurement from ``runs`` seeded runs of the interpreter (for cross-checks)."""
    sampled = sample(sc, sym, sources, names, runs, seed, policy, decide, start=start)
    return sampled.counts, sampled.seconds


@dataclass
class Sampled:
    names: list[str]
    counts: Counter
    seconds: float
    seen: Seen
    rests_on: list[str]


def sample(sc: n.Scenario, sym: Symbols, sources: Sources, names: list[str] | None, runs: int, seed: int = 1,
           policy: str = "first", decide: dict[str, str] | None = None, errors: list[str] | None = None,
           tick: Callable[[int], None] | None = None, start: FromPosition | None = None) -> Sampled:
    """``runs`` seeded runs of the interpreter: the counts of each joint outcome. With ``names`` None,
    every fact a run records is measured (sorted by name). A rule that cannot be applied stops the
    sampling with an OddsError; given ``errors``, the run counts with the facts it recorded before the
    rule, and the error is added there (`--list-facts` lists what runs record, even runs cut short).
    ``tick(runs done)`` follows the work."""
    trial = _Trial(sc, sym, sources, names, decide, start=start)
    started = time.perf_counter()
    dice = _Watched(SeededDice(seed))
    recorded = []
    for done in range(1, runs + 1):
        try:
            recorded.append(trial.run(dice, policy)[0])
        except (RuleError, ScriptError) as err:
            if errors is None:
                raise _failed_at(err, f"(on seeded run {done} of {runs}, --seed {seed})") from err
            errors.append(err.message + (f" ({err.span.file}:{err.span.line})" if err.span is not None else ""))
            recorded.append(dict(trial.engine.state.facts))
        if tick is not None:
            tick(done)
    names = names if names is not None else sorted({k for r in recorded for k in r} - _NOT_MEASURED)
    counts: Counter = Counter(outcome(r, names) for r in recorded)
    return Sampled(names, counts, time.perf_counter() - started, trial.seen,
                   rests_on(sc, sym, dice.rolled | _tables_read(recorded)))


class _Watched(DiceProvider):
    """Seeded dice that note the label of every roll (a table's roll is labelled with its name)."""

    def __init__(self, dice: DiceProvider):
        self.dice, self.rolled = dice, set()

    def roll(self, req: RollRequest) -> list[int]:
        self.rolled.add(req.label)
        return self.dice.roll(req)

    def draw(self, req: DrawRequest) -> list[int]:
        return self.dice.draw(req)


@dataclass
class Estimate:
    """The size of an enumeration before it is run: Knuth's estimator (the product of the branching
    along uniformly random paths is an unbiased estimate of the number of leaves)."""

    paths: float       # dice paths (multisets at each roll), the leaves of the unmerged tree
    outcomes: float    # outcomes sent on if no position merged (its nodes below the root)
    probes: int
    seconds: float


def estimate(sc: n.Scenario, sym: Symbols, sources: Sources, facts: list[str] | None = None, policy: str = "first",
             decide: dict[str, str] | None = None, probes: int = 48, seed: int = 1,
             start: FromPosition | None = None) -> Estimate:
    """Knuth's estimate of the dice paths (every roll's multisets: what a replay runs) and of the outcomes
    branching sends on (a roll kept as a distribution branching only where its reads split it)."""
    import random

    trial = _Trial(sc, sym, sources, facts, decide, start=start)
    started = time.perf_counter()
    rng = random.Random(seed)
    paths = sum(_probe(trial, policy, _Probe(rng)).product for _ in range(probes))
    rng = random.Random(seed)
    settled: set[str] = set()
    while True:  # a roll whose dice the rules read face by face is probed as multisets, as branching takes it
        token = SETTLED.set(frozenset(settled))
        try:
            outcomes = sum(_probe(trial, policy, _Probe(rng, spreads=True)).nodes for _ in range(probes))
            break
        except Unread as read:
            settled.add(read.label)
        finally:
            SETTLED.reset(token)
    return Estimate(paths / probes, outcomes / probes, probes, time.perf_counter() - started)


def _probe(trial: _Trial, policy: str, dice: _Probe) -> _Probe:
    token = SPLITS.set(dice)
    try:
        trial.run(dice, policy)
    except (RuleError, ScriptError):
        pass  # the enumeration meets the same error and reports it
    finally:
        SPLITS.reset(token)
    return dice


class _Probe(DiceProvider, Splits):
    """A uniformly random outcome at each roll (not a weighted one: Knuth's estimator needs uniform); with
    ``spreads``, a roll kept as a distribution as branching keeps it, a uniformly random value at each read
    that splits it (the probe is the reads' `Splits`)."""

    def __init__(self, rng, spreads: bool = False):
        Splits.__init__(self)
        self.rng, self.spreads, self.product, self.nodes = rng, spreads, 1, 0

    def roll(self, req: RollRequest | DrawRequest) -> list[int] | Spread:
        outs = branch_outcomes(req) if self.spreads else roll_outcomes(req)
        self.product *= len(outs)
        self.nodes += self.product
        dice = outs[self.rng.randrange(len(outs))][0]
        return dice if dice.__class__ is Spread else list(dice)

    draw = roll

    def choose(self, ways: int) -> int:
        self.product *= ways
        self.nodes += self.product
        return self.rng.randrange(ways)
