"""The one dice interface, with its providers: scripted, seeded and enumerated (runtime/odds/odds.py).

Every die of every rule goes through ``DiceProvider.roll``, and every chit drawn from a cup or
element picked at random through ``DiceProvider.draw`` (runtime/execution/cups.py). Scripted dice
reproduce a rulebook's worked example; seeded dice make play reproducible byte for byte.
"""

from __future__ import annotations

import random
import re

from ...ir import nodes as n
from ...syntax.diagnostics import did_you_mean
from ..common.requests import DrawRequest, RollRequest, ScriptError
from ..common.values import show
from . import cups


def _names(label: str, rolled: str) -> bool:
    """A script label matches a roll whose label contains it as whole words ("SFR1" not in "SFR10")."""
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(label)}(?![A-Za-z0-9_])", rolled, re.IGNORECASE) is not None


class DiceProvider:
    def roll(self, req: RollRequest) -> list[int]:
        raise NotImplementedError

    def draw(self, req: DrawRequest) -> list[int]:
        """The indexes drawn (into ``req.values``), sorted."""
        raise NotImplementedError

    def finish(self) -> None:
        """Called when the run ends; a script may complain about unused dice."""


class SeededDice(DiceProvider):
    """Pseudo-random dice from a seed: the same seed gives the same game."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def roll(self, req: RollRequest) -> list[int]:
        return [self.rng.randint(req.low, req.high) for _ in range(req.count)]

    def draw(self, req: DrawRequest) -> list[int]:
        return cups.seeded(self.rng, req)


class ScriptedDice(DiceProvider):
    """Dice read in order from a scenario's ``dice { ... }`` block."""

    def __init__(self, script: tuple[n.ScriptedDie, ...]):
        self.script = list(script)
        self.pos = 0

    def roll(self, req: RollRequest) -> list[int]:
        out = []
        for i in range(req.count):
            if self.pos >= len(self.script):
                raise ScriptError(
                    f"the script has no die left for {req.label} (die {i + 1} of {req.count}) [{req.cite}]",
                    req.span,
                    "add the die to the scenario's dice block",
                )
            entry = self.script[self.pos]
            if isinstance(entry, n.ScriptedDraw):
                raise ScriptError(f"script draws {entry.chit} at line {entry.span.line}, but a die is rolled here: "
                                  f"{req.label} [{req.cite}]", entry.span)
            if not req.low <= entry.value <= req.high:
                raise ScriptError(f"script gives die {entry.value}, but a {req.die} reads {req.low}..{req.high}", entry.span)
            if entry.label and not _names(entry.label, req.label):
                raise ScriptError(
                    f"script gives die {entry.value} for '{entry.label}' at line {entry.span.line}, but the die rolled here is {req.label} [{req.cite}]",
                    entry.span,
                )
            self.pos += 1
            out.append(entry.value)
        return out

    def draw(self, req: DrawRequest) -> list[int]:
        left = list(req.weights)
        out = []
        for i in range(req.count):
            entry = self._draw_entry(req, i)
            index = next((k for k, v in enumerate(req.values) if left[k] > 0 and show(v) == entry.chit), None)
            if index is None:
                names = [show(v) for v, k in zip(req.values, left) if k > 0]
                raise ScriptError(f"script draws {entry.chit} at line {entry.span.line}, but {_holds(req, left)} [{req.cite}]",
                                  entry.span, did_you_mean(entry.chit, names) or "script one of them")
            if not req.replace:
                left[index] -= 1
            self.pos += 1
            out.append(index)
        return sorted(out)

    def _draw_entry(self, req: DrawRequest, i: int) -> n.ScriptedDraw:
        what = f"{req.label} ({i + 1} of {req.count})" if req.count > 1 else req.label
        verb = "pick" if req.cup is None else "draw"
        if self.pos >= len(self.script):
            raise ScriptError(f"the script has no {verb} left for {what} [{req.cite}]", req.span,
                              f"add 'draw NAME' to the scenario's dice block; {_holds(req, req.weights)}")
        entry = self.script[self.pos]
        if not isinstance(entry, n.ScriptedDraw):
            raise ScriptError(f"script gives die {entry.value} at line {entry.span.line}, but the rules {verb} "
                              f"{what} here [{req.cite}]", entry.span, "script the chit drawn as 'draw NAME'")
        if entry.label and not _names(entry.label, req.label):
            raise ScriptError(f"script draws {entry.chit} for '{entry.label}' at line {entry.span.line}, but the rules "
                              f"{verb} {what} here [{req.cite}]", entry.span)
        return entry

    def finish(self) -> None:
        if self.pos < len(self.script):
            entry = self.script[self.pos]
            left = len(self.script) - self.pos
            if isinstance(entry, n.ScriptedDraw):
                raise ScriptError(f"script draws {entry.chit} at line {entry.span.line}, but nothing is drawn here"
                                  + (f" ({left} entries unused)" if left > 1 else ""), entry.span)
            raise ScriptError(
                f"script gives die {entry.value} at line {entry.span.line}, but no die is rolled here"
                + (f" ({left} dice unused)" if left > 1 else ""),
                entry.span,
            )


def _holds(req: DrawRequest, left: list[int]) -> str:
    """What a draw could still give, for a script's message."""
    listed = cups.listing(req.values, left)
    return f"cup {req.cup} holds {listed}" if req.cup is not None else f"the options are {listed}"
