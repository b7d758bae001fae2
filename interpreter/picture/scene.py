"""What a picture shows, read out of the live engine state as plain data.

A scene is taken at one moment of a run (the set-up, after a trace line, as a turn begins) and
kept: the engine goes on changing its units and places, the scene does not. With a viewer, the
scene holds what that side sees by the ruleset's `view` (the function the engine asks for a
side's position, `Engine.sees`). A unit it does not see is drawn face down, as its kind is `seen as`
(language 6.3b), one counter for each such text in a place with how many units show it, as the
readout of `?` lists them ("a block x2"); a unit whose kind declares nothing is left out, not
counted, and so is whatever an unseen unit carries: whether a side may know how many pieces stand
somewhere is the rules' to say.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..runtime.common.values import MISSING, Place, Unit, X, show
from ..runtime.execution import cups
from ..runtime.execution.calendar import turn_label
from ..runtime.world.fog import seen_faces, unknown_to
from .look import look_of


@dataclass
class Counter:
    """One unit as drawn: its id, side, type, printed values and states, and what it carries. Face down,
    the units a side does not see that show one `seen as` text: the text is its label, no id, side or type."""

    id: str
    side: str
    type: str
    label: str  # the type's label, as the counter shows it; face down, the `seen as` text
    values: list[str]
    marks: list[str]
    cargo: list[Counter] = field(default_factory=list)
    face_down: int = 0  # face down: how many units show the label
    owner: str | None = None  # the side whose colour it shows (the ruleset's `look unit { owner: … }`), None: no side's
    colour: str | None = None  # its class or type's own colour, declared with `look counter`
    symbol: str | None = None  # what the middle of the counter shows: the declared symbol, else a short label
    factors: list[str] = field(default_factory=list)  # the printed values along its bottom edge, as its face shows them
    reduced: bool = False  # it shows its reduced face (the `reduced:` unit state of its `look counter`)

    @property
    def face_text(self) -> str:
        """A face-down counter's text with how many units show it (``a block x2``), as the readout writes it."""
        return cups.listing([self.label], [self.face_down])


def face_down(text: str, units: int) -> Counter:
    return Counter("", "", "", text, [], [], face_down=units)


@dataclass
class Mark:
    """A place state shown on the place: its text, and the side it names (a capture, an owner) if any."""

    name: str
    text: str
    side: str | None = None


@dataclass
class Spot:
    """A place or a box and what stands in it."""

    id: str
    label: str
    stack: list[Counter] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    side: str | None = None  # a box kept per side: whose it is
    name: str | None = None  # a map place's name ('named "…"'), drawn under its id
    shape: str = "box"  # the place's shape: a hex has no room for its name, which is then its tooltip


@dataclass
class Scene:
    title: str
    moment: str  # when: the set-up, after which trace line, which turn
    clock: str
    sides: list[tuple[str, str]]  # (name, label) in header order
    viewer: str | None
    places: dict[str, Spot]
    boxes: list[Spot]
    tracks: list[str]
    values: list[str]


def take(engine, title: str, moment: str, viewer: str | None = None) -> Scene:
    """The scene of the engine's state now, as ``viewer`` sees it (everything without one)."""
    st, sym = engine.state, engine.sym
    reader = _Reader(engine, viewer)
    places = {p.id: reader.spot(p, p.id, p.name) for p in st.places.values()}
    boxes = [box for p in st.every_place() if p.is_box and (box := reader.spot(p, _box_label(sym, p))).stack]
    sides = [(name, side.label or name) for name, side in sym.sides.items()]
    clock = ", ".join(str(x) for x in (f"turn {turn_label(sym.game, st.turn)}", st.phase, st.step) if x)
    return Scene(title, moment, clock, sides, viewer, places, boxes, _tracks(sym, st), _values(st, reader))


class _Reader:
    def __init__(self, engine, viewer: str | None):
        self.engine, self.viewer, self.sides = engine, viewer, set(engine.sym.sides)
        self.look = look_of(engine.sym)
        self.owner_of = _owner_function(engine, self.look.owner)

    def sees(self, u: Unit) -> bool:
        return self.viewer is None or self.engine.sees(self.viewer, u)

    def knows(self, decl) -> bool:
        """A game or place state's value is shown unless it is known to another side (language 6.3b)."""
        return self.viewer is None or not unknown_to(decl, self.viewer)

    def spot(self, place: Place, label: str, name: str | None = None) -> Spot:
        here = [u for u in self.engine.state.units_at(place) if u.carrier is None]
        return Spot(place.id, label, self.shown(here), self.marks(place), side=place.side, name=name, shape=place.shape)

    def shown(self, units: list[Unit]) -> list[Counter]:
        """The units the viewer sees, then the others face down by what they are `seen as`; a unit seen
        as nothing, and whatever it carries, is left out."""
        faces = seen_faces(self.engine.sym, [u for u in units if not self.sees(u)])
        return [self.counter(u) for u in units if self.sees(u)] + [face_down(text, k) for text, k in faces.items()]

    def counter(self, u: Unit) -> Counter:
        values = [_value_text(name, self.engine.face_value(u, name)) for name in u.stats]
        values = [v for v in values if v] + sorted(u.flags)
        marks = [text for name, value in u.state.items() if (text := _state_text(name, value))]
        cargo = self.shown(u.cargo)
        type_decl = self.engine.sym.types.get(u.type)
        label = type_decl.label if type_decl is not None and type_decl.label else u.type
        look = self.look.counter(u.type, u.cls)
        factors = [_factor(self.engine.face_value(u, name)) for name in look.factors]
        return Counter(u.id, u.side, u.type, label, values, marks, cargo, owner=self.owner_of(u), colour=look.colour,
                       symbol=look.symbol, factors=factors, reduced=_reduced(u, look.reduced))

    def marks(self, place: Place) -> list[Mark]:
        out = []
        for name, value in place.state.items():
            text = _state_text(name, value) if self.knows(self.engine.sym.place_props.get(name)) else ""
            if text:
                out.append(Mark(name, text, value if isinstance(value, str) and value in self.sides else None))
        return out


def _owner_function(engine, name: str | None):
    """The side whose colour a unit shows: the ruleset's owner function's answer (a side, or none for no
    side's), else the unit's side."""
    decl = engine.sym.functions.get(name) if name else None
    if decl is None:
        return lambda u: u.side
    param, body = decl.params[0].name, engine.compiler.expr(decl.body)

    def owner(u: Unit) -> str | None:
        side = body({param: u})
        return side if isinstance(side, str) and side in engine.sym.sides else None
    return owner


def _factor(value: Any) -> str:
    """A printed factor as the counter shows it: a number, X, or '?' for a value the rulebook does not print."""
    if value is None or value is MISSING:
        return "?"
    return "X" if value is X else show(value)


def _reduced(u: Unit, reduced: tuple[str, ...]) -> bool:
    """Whether the unit shows its reduced face: its state has the value named, or is set (true, more than 0)."""
    if not reduced:
        return False
    value = u.state.get(reduced[0])
    if len(reduced) > 1:
        return show(value) == reduced[1] if value is not None else False
    return value not in (None, False, 0, "none")


def _value_text(name: str, value: Any) -> str:
    """A printed value as a counter shows it ('gun 8', 'land X'); one not printed is left off."""
    if value is None or value is MISSING:
        return ""
    return f"{name} {'X' if value is X else show(value)}"


def _state_text(name: str, value: Any) -> str:
    """A state worth a label: a true flag by its name, a value other than none, no or 0 by name and value."""
    if value is None or value is False or (isinstance(value, int) and not isinstance(value, bool) and value == 0):
        return ""
    if value is True:
        return name
    if isinstance(value, (list, dict, tuple, set)) and not value:
        return ""
    return f"{name}: {show(value)}"


def _box_label(sym, box: Place) -> str:
    """A box as the rules label it, with its side or turn when it is one of a set ('dead units [red]': the toy game's graveyard)."""
    base, _, key = box.id.partition("[")
    decl = sym.boxes.get(base)
    label = decl.label if decl is not None and decl.label else base
    return f"{label} [{key}" if key else label


def _tracks(sym, st) -> list[str]:
    out = []
    for name, track in st.tracks.items():
        decl = sym.tracks.get(name)
        label = decl.label if decl is not None and decl.label else name
        values = ", ".join(f"{key} {v}" if key else str(v) for key, v in track.values.items())
        out.append(f"{label}: {values}")
    return out


def _values(st, reader: _Reader) -> list[str]:
    states = reader.engine.sym.game_states
    return [text for name, value in st.globals.items()
            if reader.knows(states.get(name)) and (text := _state_text(name, value))]
