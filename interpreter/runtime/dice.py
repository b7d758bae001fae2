"""The one dice interface, with its providers: scripted, seeded and (later) enumerated.

Every die of every rule goes through ``DiceProvider.roll``. Scripted dice reproduce a
rulebook's worked example; seeded dice make play reproducible byte for byte.
"""

from __future__ import annotations

import random
import re

from ..ir import nodes as n
from .requests import RollRequest, ScriptError


def _names(label: str, rolled: str) -> bool:
    """A script label matches a roll whose label contains it as whole words ("SFR1" not in "SFR10")."""
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(label)}(?![A-Za-z0-9_])", rolled, re.IGNORECASE) is not None


class DiceProvider:
    def roll(self, req: RollRequest) -> list[int]:
        raise NotImplementedError

    def finish(self) -> None:
        """Called when the run ends; a script may complain about unused dice."""


class SeededDice(DiceProvider):
    """Pseudo-random dice from a seed: the same seed gives the same game."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def roll(self, req: RollRequest) -> list[int]:
        return [self.rng.randint(req.low, req.high) for _ in range(req.count)]


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

    def finish(self) -> None:
        if self.pos < len(self.script):
            entry = self.script[self.pos]
            left = len(self.script) - self.pos
            raise ScriptError(
                f"script gives die {entry.value} at line {entry.span.line}, but no die is rolled here"
                + (f" ({left} dice unused)" if left > 1 else ""),
                entry.span,
            )
