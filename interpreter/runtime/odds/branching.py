"""Exact odds by branching and merging positions (issues 13-14), not by replaying every dice path.

The scenario's run goes on until it waits for dice. There its position is taken (runtime/position/
position.py) and, for each outcome of the roll (a multiset of faces, weighted by its
orderings, as `odds.roll_outcomes` gives them), restored and sent on with that outcome to its
next roll or its end. Positions with equal keys are one, whichever path meets them first: a
roll of 3d6 counted into hits and then a second roll leaves four positions waiting for the
second (one per count), not 56, once the first dice are no longer read (`Code.live`). Each
distinct position is sent on once; the outcomes are edges of a graph whose ends' probabilities
(and dice-path counts) `chance_graph.solve` computes, cycles included (a roll repeated on a tie). The
work is the positions times their outcomes, where a replay's is the number of paths.

What is reported is what the replay reported: the number of dice paths, how many stopped
early, and the same distribution; the replay stays as `umpire odds --replay`, and the tests
compare the two.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

from ..common.requests import DrawRequest, RollRequest, Unprinted
from ..common.spread import SPLITS, Split, Splits, Spread
from ..execution.vm import Process, driven_on
from ..games.driver import Runner
from ..position.position import Position, canon

Bar = Callable[[int, int], Any]  # (roll number, branches in it) -> an object with update(n) and close()


UNPRINTED = "unprinted"  # the fact naming the unprinted result a path of `umpire odds` stopped at (language 8.7)


class Cut(Exception):
    """Raised by the engine's `on_record` as soon as every measured fact is known."""


@dataclass
class Waiting:
    """A position waiting for dice, with what it stands for."""

    position: Position
    request: RollRequest | DrawRequest
    part: int                # which of the run's processes it is in (a scenario's steps run one after another;
                             # one past the last: the game's end after an `end game`)
    path: tuple[int, ...]    # the outcome taken at each roll by the first path to meet it, for messages
    memory: Any = None       # what the agents remember (a script's cursor): part of the position


@dataclass
class Ended:
    facts: dict
    cut: bool
    probability: Fraction = Fraction(0)  # summed over the edges into it (Graph.solve)
    paths: int | None = 0                # dice paths into it; None when a cycle makes them endless


class Brancher:
    """Runs the parts of a scenario's target on one engine, position by position."""

    def __init__(self, engine, parts: list[Callable[[], Process]], runner: Runner, first=None):
        self.engine, self.parts, self.runner = engine, parts, runner
        self.first = first  # work under way before the parts (a position's decision and the rest of its segment)
        self.shell = Process(engine, None)  # what a restored position's stack is put into
        self.part = 0  # the part running (one past the last: the game's end after an `end game`)
        self.work = 0  # outcomes sent on: what the limit counts
        self.limit, self.roll = float("inf"), 0  # set by enumerate_positions: a split past the limit is refused
        self.rolled: set[str] = set()  # the labels of every roll met (a table's is its name)
        # Agents that remember (a scenario's script, read in order) keep that memory with the position.
        self.minds = [a for a in dict.fromkeys(runner.agents.values()) if hasattr(a, "memory")]

    def start(self) -> Waiting | Ended:
        if self.first is None:
            return self._go(self._from(0), ())
        self.part = -1  # the work under way is the part before the first: a roll in it goes on to part 0
        return self._go(self._from(0, self.first), ())

    def branch(self, w: Waiting, outcomes: list[tuple[tuple[int, ...] | Spread, Fraction]]):
        """Each outcome of the roll a position waits for, sent on from that position: what it reached,
        with the outcome's probability and the dice paths it stands for. A roll kept as a distribution (a
        `Spread`) is one outcome, sent on once more for each value of each read that splits it (`_spread`)."""
        for index, (dice, p) in enumerate(outcomes):
            if dice.__class__ is Spread:
                yield from self._spread(w, index, dice, p)
                continue
            self.work += 1
            self._restore(w)
            yield self._go(self._from(w.part + 1, driven_on(self.shell, list(dice))), w.path + (index,)), p, 1

    def _restore(self, w: Waiting) -> None:
        w.position.restore(self.engine, self.shell)
        for mind, memory in zip(self.minds, w.memory or ()):
            mind.recall(memory)
        self.part = w.part

    def _spread(self, w: Waiting, index: int, spread: Spread, p: Fraction):
        """A roll kept as a distribution sent on from its position: the run goes on until a read of a pool
        so kept has more than one value (`Split`), then runs again from the position once per value, each
        run taking the values its path names (common/spread.py), to the next roll or the end. What each
        path reached, with its probability and the dice paths it stands for: the roll's multisets, times the
        share of its pools' multisets the path's reads kept (so the count is the replay's)."""
        paths: list[tuple[int, ...]] = [()]
        while paths:
            path = paths.pop()
            self._restore(w)
            splits = Splits(path)
            token = SPLITS.set(splits)
            try:
                reached = self._go(self._from(w.part + 1, driven_on(self.shell, spread)), w.path + (index,) + path)
            except Split as split:
                if self.work + len(paths) + split.ways > self.limit:
                    raise TooLarge(self.roll, 1, split.ways, self.work) from None
                paths.extend(path + (k,) for k in range(split.ways - 1, -1, -1))
                continue
            finally:
                SPLITS.reset(token)
            self.work += 1  # an outcome sent on: a value of the reads (a run stopped by a split is not one)
            yield reached, p * splits.probability, spread.multisets() * splits.paths

    def _from(self, part: int, first=None):
        """The run from part `part` on (after ``first``, the part under way) to its end (`Engine.run_to_end`)."""
        parts = [partial(self._enter, i) for i in range(part, len(self.parts))]
        return self.engine.run_to_end(parts, first, at_the_end=self._game_ends)

    def _enter(self, part: int) -> Process:
        self.part = part
        return self.parts[part]()

    def _game_ends(self) -> None:
        self.part = len(self.parts)  # the game's end after an `end game`: a part after the last

    def _go(self, run, path: tuple[int, ...]) -> Waiting | Ended:
        """Run on to the next roll (decisions taken by the runner's agents) or to the end."""
        engine, runner = self.engine, self.runner
        self.path = path  # where an error is reported from
        answer = None
        while True:
            try:
                engine.epoch += 1
                req = run.send(answer)
            except StopIteration:
                return Ended(dict(engine.state.facts), False)
            except Cut:
                return Ended(dict(engine.state.facts), True)
            except Unprinted as gap:  # a result the rulebook does not print: the path ends, its odds reported
                return Ended({**engine.state.facts, UNPRINTED: gap.missing[0]}, False)
            if isinstance(req, (RollRequest, DrawRequest)):  # a draw branches as a roll does (runtime/execution/cups.py)
                self.rolled.add(req.label)
                memory = tuple(mind.memory() for mind in self.minds)
                return Waiting(Position.of(engine, engine.process), req, self.part, path, memory)
            answer = runner.decide(req)


class TooLarge(Exception):
    """The next roll would send on more outcomes than the limit: refused before any of it is run."""

    def __init__(self, roll: int, waiting: int, outcomes: int, done: int):
        super().__init__(outcomes)
        self.roll, self.waiting, self.outcomes, self.done = roll, waiting, outcomes, done


def enumerate_positions(brancher: Brancher, outcomes_of: Callable[[RollRequest], list], limit: int,
                        bar: Bar | None = None) -> tuple[list[Ended], int]:
    """Every end of the run (ends with the same facts added up), weighted; and how many positions
    waited for dice. Each distinct position is sent on once, whenever it is first met: the run is
    a graph of positions (a chance process), solved for the probability of each end by
    `chance_graph.solve` (exactly, cycles included: a roll repeated on a tie). The frontier's size is
    known before its work starts; one that would take the work past ``limit`` is refused
    (`TooLarge`) before it is run."""
    graph = Graph()
    root = graph.place(brancher.start())
    frontier, roll = graph.fresh(), 0
    brancher.limit = limit
    while frontier:
        roll += 1
        brancher.roll = roll
        branches = [(i, outcomes_of(graph.nodes[i].request)) for i in frontier]
        size = sum(len(o) for _, o in branches)
        if brancher.work + size > limit:
            raise TooLarge(roll, len(frontier), size, brancher.work)
        _send_on(brancher, graph, branches, bar(roll, size) if bar is not None else None)
        frontier = graph.fresh()
    return graph.solve(root), len(graph.nodes)


def _send_on(brancher: Brancher, graph: Graph, branches: list, shown) -> None:
    """One frontier's work: every outcome of every new position sent on, an edge to what it reached."""
    for i, outs in branches:
        graph.edges[i] = [(graph.place(result), p, m) for result, p, m in brancher.branch(graph.nodes[i], outs)]
        if shown is not None:
            shown.update(len(outs))
    if shown is not None:
        shown.close()


class Graph:
    """Positions met (by key, each once) and ends (by facts); edges carry the outcome's probability.
    A node is ``i >= 0``, an end ``~j`` (negative)."""

    def __init__(self):
        self.nodes: list[Waiting] = []
        self.edges: dict[int, list[tuple[int, Fraction, Fraction | int]]] = {}  # (target, probability, dice paths)
        self.ends: list[Ended] = []
        self._ids: dict[Any, int] = {}
        self._expanded = 0

    def place(self, result: Waiting | Ended) -> int:
        if isinstance(result, Ended):
            key = ("end", result.cut, _facts_key(result.facts))
        else:
            key = ("node", result.part, result.memory, result.position.key())
        found = self._ids.get(key)
        if found is not None:
            return found
        if isinstance(result, Ended):
            self.ends.append(result)
            found = ~(len(self.ends) - 1)
        else:
            self.nodes.append(result)
            found = len(self.nodes) - 1
        self._ids[key] = found
        return found

    def fresh(self) -> list[int]:
        """The positions met since the last call, not yet sent on."""
        new = list(range(self._expanded, len(self.nodes)))
        self._expanded = len(self.nodes)
        return new

    def solve(self, root: int) -> list[Ended]:
        from .chance_graph import solve

        reach, paths = solve(len(self.nodes), self.edges, root)
        for i, edges in self.edges.items():
            for target, p, m in edges:
                if target < 0:
                    end = self.ends[~target]
                    end.probability += reach[i] * p
                    end.paths = None if paths is None or end.paths is None else end.paths + int(paths[i] * m)
        if root < 0:
            self.ends[~root].probability, self.ends[~root].paths = Fraction(1), 1
        return self.ends


_PLAIN = frozenset({int, str})  # values whose key (canon) is themselves: equal ones are the same value
_FACTS_KEYS: dict[tuple, Any] = {}  # the facts of an end as they came, for plain values -> canon(facts)


def _facts_key(facts: dict) -> Any:
    """canon(facts), found again for facts of plain values seen before (ends repeat the same few)."""
    items = tuple(facts.items())
    if {x.__class__ for item in items for x in item} <= _PLAIN:
        key = _FACTS_KEYS.get(items)
        if key is None:
            if len(_FACTS_KEYS) >= 10_000:
                _FACTS_KEYS.clear()
            key = _FACTS_KEYS[items] = canon(facts)
        return key
    return canon(facts)
