"""Exact odds by branching and merging positions (issue 13), not by replaying every dice path.

The scenario's run goes on until it waits for dice. There its position is taken (runtime/
position.py) and, for each outcome of the roll (a multiset of faces, weighted by its
orderings, as `odds.roll_outcomes` gives them), restored and sent on with that outcome to its
next roll or its end. Positions wait in layers, by the number of rolls behind them; in a
layer, positions with equal keys are one, their probabilities and path counts added: a roll
of 3d6 counted into hits and then a second roll leaves four positions waiting for the second
(one per count), not 56, once the first dice are no longer read (`Code.live`). The work is
the sum over the layers of positions times outcomes, where a replay's is the number of paths.

What is reported is what the replay reported: the number of dice paths (each position
carries how many it stands for), how many stopped early, and the same distribution; the
replay stays as `umpire odds --replay`, and the tests compare the two.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .driver import Runner
from .position import Position, canon
from .requests import RollRequest
from .vm import Process

Bar = Callable[[int, int], Any]  # (roll number, branches in it) -> an object with update(n) and close()


class Cut(Exception):
    """Raised by the engine's `on_record` as soon as every measured fact is known."""


@dataclass
class Waiting:
    """A position waiting for dice, with what it stands for."""

    position: Position
    request: RollRequest
    part: int                # which of the run's processes it is in (a scenario's steps run one after another)
    probability: Fraction
    paths: int               # dice paths merged into it
    path: tuple[int, ...]    # the first of them (the outcome taken at each roll), for messages


@dataclass
class Ended:
    facts: dict
    probability: Fraction
    paths: int
    cut: bool


class Brancher:
    """Runs the parts of a scenario's target on one engine, position by position."""

    def __init__(self, engine, parts: list[Callable[[], Process]], runner: Runner):
        self.engine, self.parts, self.runner = engine, parts, runner
        self.shell = Process(engine, None)  # what a restored position's stack is put into
        self.work = 0  # outcomes sent on: what the limit counts

    def start(self) -> Waiting | Ended:
        return self._go(self.parts[0](), 0, None, Fraction(1), 1, ())

    def branch(self, w: Waiting, outcomes: list[tuple[tuple[int, ...], Fraction]]):
        """Each outcome of the roll a position waits for, sent on from that position."""
        for index, (dice, p) in enumerate(outcomes):
            self.work += 1
            w.position.restore(self.engine, self.shell)
            yield self._go(self.shell, w.part, list(dice), w.probability * p, w.paths, w.path + (index,))

    def _go(self, proc: Process, part: int, answer, probability: Fraction, paths: int, path: tuple[int, ...]) -> Waiting | Ended:
        """Run on to the next roll (decisions taken by the runner's agents) or to the end."""
        engine, runner = self.engine, self.runner
        self.path = path  # where an error is reported from
        while True:
            try:
                engine.epoch += 1
                req = proc.send(answer)
            except StopIteration:
                part += 1
                if part == len(self.parts):
                    return Ended(dict(engine.state.facts), probability, paths, False)
                proc, answer = self.parts[part](), None
                continue
            except Cut:
                return Ended(dict(engine.state.facts), probability, paths, True)
            if isinstance(req, RollRequest):
                return Waiting(Position.of(engine, proc), req, part, probability, paths, path)
            answer = runner.decide(req)


def enumerate_positions(brancher: Brancher, outcomes_of: Callable[[RollRequest], list], limit: int,
                        bar: Bar | None = None) -> tuple[list[Ended], int]:
    """Every end of the run (ends with the same facts added up), weighted; and how many positions
    waited (after merging)."""
    ended: dict[Any, Ended] = {}
    first = brancher.start()
    layer: dict[Any, Waiting] = {}
    _place(first, layer, ended)
    positions, roll = 0, 0
    while layer:
        roll += 1
        positions += len(layer)
        branches = [(w, outcomes_of(w.request)) for w in layer.values()]
        shown = bar(roll, sum(len(o) for _, o in branches)) if bar is not None else None
        layer = {}
        for w, outs in branches:
            for result in brancher.branch(w, outs):
                _place(result, layer, ended)
            if brancher.work > limit:
                raise OverflowError(brancher.work)
            if shown is not None:
                shown.update(len(outs))
        if shown is not None:
            shown.close()
    return list(ended.values()), positions


def _place(result: Waiting | Ended, layer: dict, ended: dict[Any, Ended]) -> None:
    if isinstance(result, Ended):
        _merge(ended, (result.cut, _facts_key(result.facts)), result)
    else:
        _merge(layer, (result.part, result.position.key()), result)


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


def _merge(table: dict, key: Any, result: Waiting | Ended) -> None:
    """Equal positions (or ends with equal facts) are one: probabilities and path counts added."""
    same = table.get(key)
    if same is None:
        table[key] = result
    else:
        same.probability += result.probability
        same.paths += result.paths
