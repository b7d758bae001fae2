"""The true state of a game: places, boxes, units, tracks, game-wide values, records.

Only what the rules treat as state is stored; everything else (ownership, who is
an enemy, counts) is derived by the ruleset's functions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..common.values import Place, Unit


@dataclass
class Track:
    name: str
    low: int
    high: int
    excess: str | None
    values: dict[str, int] = field(default_factory=dict)


@dataclass
class GameState:
    places: dict[str, Place] = field(default_factory=dict)
    coasts: dict[str, list[Place]] = field(default_factory=dict)  # map data as the places: never changes in a game
    boxes: dict[str, Place | dict[str, Place]] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    tracks: dict[str, Track] = field(default_factory=dict)
    globals: dict[str, Any] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)
    cups: dict[str, dict[str, int]] = field(default_factory=dict)  # each cup: every chit of it -> how many are in it
    turn: int = 1
    phase: str | None = None
    step: str | None = None

    def every_place(self):
        """The map's places, then every box (a box may be one place or one per side)."""
        yield from self.places.values()
        for box in self.boxes.values():
            yield from (box.values() if isinstance(box, dict) else (box,))

    def units_at(self, place: Place) -> list[Unit]:
        """The units in a place, in set-up order (whatever order they arrived in)."""
        if place.in_order is None:
            place.in_order = tuple(sorted(place.present, key=_ordinal))
        return list(place.in_order)


def _ordinal(unit: Unit) -> int:
    return unit.ordinal
