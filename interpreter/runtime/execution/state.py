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
    # The units of each class, type or flag, in the order of `units` (units_that_are), with the units
    # they were taken from: kept while `units` is the same map of the same size.
    kinds: tuple | None = field(default=None, repr=False, compare=False)
    # The places a fixed test of a place holds for (a function of the place alone: generated_code's
    # `fixed_test`), in the order of `places`, by the function's name: kept while `places` is the same map.
    fixed_places: tuple | None = field(default=None, repr=False, compare=False)

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


    def units_that_are(self, name: str) -> tuple[Unit, ...]:
        """The units that `u is name` holds for (name their class, their type or one of their flags), in the
        order of `units`: what `[u for u in all_units() where u is name …]` keeps of every unit. A unit's
        class, type and flags are fixed before it enters `units` (games/setup.py) and no unit ever leaves
        it, so the lists hold while `units` is the same map of the same size (a set-up put back replaces
        the map; a restored position changes no unit's kind)."""
        kinds = self.kinds
        if kinds is None or kinds[0] is not self.units or kinds[1] != len(self.units):
            kinds = self.kinds = (self.units, len(self.units), {})
        found = kinds[2].get(name)
        if found is None:
            found = kinds[2][name] = tuple(u for u in self.units.values()
                                           if name == u.cls or name == u.type or name in u.flags)
        return found


def _ordinal(unit: Unit) -> int:
    return unit.ordinal
