"""What a suspended procedure asks of the outside world: dice, a draw, or a player's decision.

The executor yields these; a driver answers them with a dice provider or an agent.
The executor never knows which provider or agent is at the other end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...syntax.diagnostics import Span


@dataclass
class RollRequest:
    count: int
    low: int
    high: int
    die: str
    label: str
    cite: str
    span: Span


@dataclass
class DrawRequest:
    """Chits drawn from a cup (``cup`` its name), or elements of a list picked at random (``cup`` None):
    ``count`` of them among ``values``, of which there are ``weights`` each. Answered, like a roll, by
    the dice provider: the indexes drawn, sorted (runtime/execution/cups.py)."""

    count: int
    values: list[Any]
    weights: list[int]
    replace: bool  # a drawn item goes straight back (a cup drawn with replacement)
    label: str
    cite: str
    span: Span
    cup: str | None = None
    forced: list[int] | None = None  # the answer when chance has no part (nothing left, or all of it taken)


@dataclass
class ChoiceRequest:
    """A decision: ``mode`` is one | exactly | up_to | split | reroll."""

    chooser: str
    name: str
    mode: str
    options: list[Any]
    cite: str
    span: Span
    amount: int = 1
    limit: int | None = None
    optional: bool = False
    prompt: str = ""
    spend: dict[str, list[Any]] = field(default_factory=dict)  # reroll: the units this side may spend
    explain: Any = None  # explain(item) -> why the rule's options exclude item, or None
    ruled_out: list[Any] = field(default_factory=list)  # the options a restriction removed (explain names it)
    removal: Any = None  # when explaining: removal(item) -> the lines that say which rule removed item (removal.py)
    secret: bool = False  # made inside 'secretly': its announcement waits until the block reveals it
    showing: Any = None  # showing(option) -> what the person choosing reads beside it ('choose … showing EXPR')


class RuleError(Exception):
    """A rule cannot be applied as written (a missing value, a bad type): reported, never a traceback."""

    def __init__(self, message: str, span: Span, cite: str | None = None, hint: str | None = None,
                 missing: tuple[str, ...] = ()):
        super().__init__(message)
        self.message = message
        self.span = span
        self.cite = cite
        self.hint = hint
        self.missing = missing  # the tables the rulebook does not print that the rule needed, if that is why


class Unprinted(RuleError):
    """A table read at a key whose result the rulebook does not print ('-> ?', language 8.7): a run stops;
    `umpire odds` ends the path there and reports how likely it is to be reached."""


class ScriptError(Exception):
    """A scenario's script and the game disagree (an extra die, an illegal decision...)."""

    def __init__(self, message: str, span: Span | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint


class GameEnded(Exception):
    """An `end game` ran: the game is over at once. The game leaves the step, turn and run it was
    in and goes on to the game's end (`Engine.run_to_end`, for every driver: the game_end hooks), no further;
    ``in_the_end`` when a game_end hook ended it (the game's end is already running: nothing follows)."""

    def __init__(self, why: str, in_the_end: bool):
        super().__init__(why)
        self.why, self.in_the_end = why, in_the_end
