"""Odds measured from a position of a game in progress (a save's), to a horizon of its sequence of play.

A position is plain data: the table a save holds (runtime/position/position_data.py), the segment of the
sequence of play it stands in (a save's `goes_on.segment`) and the horizon. The enumeration starts
from it as it starts from a scenario's set-up: each run (or the branching's first position) sets the
game up, puts the position back, answers the decision it waits for (with the policy and `--decide`,
as every later decision) and plays on through the segments the horizon takes in:

- ``step``: the rest of the segment the position stands in (a battle about to be fought is in it);
- ``phase``: and the following steps of the same phase of the same turn;
- ``turn``: and the following steps of the same turn.

What is measured is what the rules record after the position: the facts recorded before it are set
aside when it is put back (a rule that reads one with `fact(...)` is told nothing was recorded).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ...ir import nodes as n
from ..common.requests import ChoiceRequest, RuleError
from ..execution.vm import Process
from ..games.play import Sequence, answered, last_turn
from ..games.setup import Setup
from ..position.position_data import PositionError, from_data

HORIZONS = {
    "step": "the end of the step the position stands in",
    "phase": "the end of the phase the position stands in",
    "turn": "the end of the turn the position stands in",
}


class PositionProblem(Exception):
    """A position the odds cannot start from: said in one line."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class FromPosition:
    """Where the odds start: a position as a save holds it, the segment it stands in, and the horizon."""

    position: dict            # position_data.to_data's table
    segment: tuple            # ("step", turn, phase, step), ("turn_start", turn), ("game_start",) or ("game_end", turn)
    until: str = "step"       # one of HORIZONS

    @property
    def clock(self) -> tuple:
        return tuple(self.position.get("clock", (None, None, None)))

    def where(self) -> str:
        """Where it stands, as the header says it."""
        turn, phase, step = (list(self.clock) + [None] * 3)[:3]
        kind = self.segment[0] if self.segment else "step"
        if kind == "step":
            return f"turn {turn}, phase {phase}, step {step}"
        if kind == "turn_start":
            return f"turn {turn}, as it begins (before its first step)"
        return f"the game's {'start' if kind == 'game_start' else 'end'} (turn {turn})"

    def horizon(self) -> str:
        turn, phase, step = (list(self.clock) + [None] * 3)[:3]
        if self.until == "step":
            return f"{HORIZONS['step']} ({step or self.segment[0]})"
        return f"{HORIZONS[self.until]} ({phase if self.until == 'phase' else f'turn {turn}'})"

    def begin(self, engine, setup: n.Scenario | None) -> tuple[list[Callable[[], Any]], Iterator]:
        """Set the game up on the (reset) engine, put the position back, and give the run from it: the
        segments to the horizon, after the work under way (the decision it waits for, then the rest of
        its segment)."""
        proc = self.restore(engine, setup)
        engine.state.facts.clear()  # what is measured is recorded after the position
        return self._parts(engine, setup), answered(proc, proc.pending())

    def restore(self, engine, setup: n.Scenario | None) -> Process:
        if setup is not None:
            Setup(engine, setup).run()
        try:
            position = from_data(self.position, engine)
        except PositionError as err:
            raise PositionProblem(f"this save's position cannot be played: {err.within('position')}") from None
        proc = Process(engine, None)
        position.restore(engine, proc)
        engine.process = proc
        del engine.events[:]  # what the set-up traced is before the position
        if not proc.waiting or not proc.stack:
            raise PositionProblem("the position waits for no decision: a save is made at one")
        return proc

    def pending(self, engine, setup: n.Scenario | None) -> ChoiceRequest | None:
        """The decision the position waits for (None when it waits for something else)."""
        engine.reset()
        try:
            req = self.restore(engine, setup).pending()
        except RuleError as err:
            raise PositionProblem(f"the position's decision cannot be asked again: {err.message}") from None
        return req if isinstance(req, ChoiceRequest) else None

    def _parts(self, engine, setup: n.Scenario | None) -> list[Callable[[], Any]]:
        """The segments after the position's, those the horizon takes in."""
        segments = list(Sequence(engine, engine.sym, setup).segments(last_turn(engine.sym, setup)))
        labels = [label for label, _begin in segments]
        if self.segment not in labels:
            raise PositionProblem(f"field 'goes_on.segment': {list(self.segment)} is no part of this game's sequence of play")
        turn, phase = self.clock[0], self.clock[1]
        parts = []
        for label, begin in segments[labels.index(self.segment) + 1:]:
            if not self._within(label, turn, phase):
                break
            parts.append(begin)
        return parts

    def _within(self, label: tuple, turn: Any, phase: Any) -> bool:
        if self.until == "step" or label[0] not in ("turn_start", "step") or label[1] != turn:
            return False
        # from the game's start, the turn's start comes before the steps of its first phase
        return self.until == "turn" or label[0] == "turn_start" or label[2] == phase
