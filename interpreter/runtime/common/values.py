"""Runtime values: units, places, dice and pools, and the printed 'X' and missing marks.

These are plain Python objects (no pydantic) because the executor touches them in
its hot loop. Sides, nations and enum values are plain strings.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any


class _Mark:
    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


X = _Mark("X")  # printed 'X': exists, has no combat or tactical value
MISSING = _Mark("?")  # not printed in the rulebook; a scenario must supply it


class Place:
    """A map place (hex, area, square, point) or an off-map box."""

    __slots__ = ("id", "name", "shape", "props", "state", "neighbours", "links", "is_box", "side", "present", "in_order", "borders",
                 "exits")

    def __init__(self, id: str, shape: str, is_box: bool = False, side: str | None = None, name: str | None = None):
        self.id = id
        self.name = name  # the rulebook's name, for a person to read; the narration and traces say the id
        self.present: dict[Unit, None] = {}  # the units located here, kept by Unit.location
        self.in_order: tuple[Unit, ...] | None = None  # the same in set-up order, until one comes or goes
        self.shape = shape
        self.props: dict[str, Any] = {}
        self.state: dict[str, Any] = {}
        self.neighbours: list[Place] = []
        self.links: dict[str, list[Place]] = {}  # edge kind -> linked places
        self.borders: dict[str, dict[str, Any]] = {}  # a neighbour's id -> the values of the side between them
        self.exits: dict[int, list[Place]] = {}  # a numbered exit -> the places it leads to
        self.is_box = is_box
        self.side = side

    def __repr__(self) -> str:
        return self.id

    __str__ = __repr__


class Unit:
    """One counter on the map, in a box, or aboard another unit."""

    __slots__ = ("id", "type", "cls", "side", "stats", "flags", "state", "_location", "carrier", "cargo", "label", "ordinal")

    def __init__(self, id: str, type: str, cls: str, side: str, label: str | None = None, ordinal: int = 0):
        self.id = id
        self.type = type
        self.cls = cls
        self.side = side
        self.stats: dict[str, Any] = {}
        self.flags: set[str] = set()
        self.state: dict[str, Any] = {}
        self._location: Place | None = None
        self.carrier: Unit | None = None
        self.cargo: list[Unit] = []
        self.label = label
        self.ordinal = ordinal  # its place in the set-up: units in a place are listed in this order

    @property
    def location(self) -> Place | None:
        return self._location

    @location.setter
    def location(self, place: Place | None) -> None:
        # Every move goes through here, so each place knows its units: `units_at` needs no scan.
        old = self._location
        if old is place:
            return
        if old is not None:
            del old.present[self]
            old.in_order = None
        self._location = place
        if place is not None:
            place.present[self] = None
            place.in_order = None

    def __repr__(self) -> str:
        return self.id

    __str__ = __repr__


class Die(int):
    """A die's face, remembering which roll produced it (for traces and rerolls)."""

    label: str
    history: tuple[int, ...]

    def __new__(cls, value: int, label: str, history: tuple[int, ...] = ()):
        obj = super().__new__(cls, value)
        obj.label = label
        obj.history = history
        return obj

    def __deepcopy__(self, memo) -> Die:
        return self  # a face never changes (a reroll puts a new Die in its place)


class OrderedRead(Exception):  # noqa: N818 - a signal to the odds enumeration, not an error
    """Exact odds enumerated a roll's dice as a multiset (sorted), and the rules read one die by its
    place in the roll: the enumeration starts again with that roll's dice in every order."""

    def __init__(self, label: str):
        super().__init__(label)
        self.label = label


# While exact odds enumerate: the labels of the rolls whose dice are enumerated in every order.
# None (the default: dice really rolled, in the order rolled) lets a pool be read by position.
ORDER_WATCH: ContextVar[frozenset | None] = ContextVar("order_watch", default=None)


class Pool(list):
    """The dice of one roll statement; a reroll replaces one die in place. Under exact odds a pool of two
    dice or more is kept as a distribution (``spread``, runtime/common/spread.py) until the rules read it."""

    spread = None  # a Spread while exact odds keep the pool's faces unsettled

    def __init__(self, dice: list[Die], label: str, key: Any = None, die: tuple[str, int, int] = ("d6", 1, 6)):
        super().__init__(dice)
        self.label = label
        self.key = key
        self.die = die  # (name, low face, high face), for rerolls


class Record:
    """A value of a declared record type (language 3.1): its type's name and its fields, in the declared
    order. Changeable field by field (``set r.hits = 2``) and shared like a map: a procedure given a
    record changes the caller's."""

    __slots__ = ("type", "fields")

    def __init__(self, type: str, fields: dict[str, Any]):
        self.type = type
        self.fields = fields

    def __eq__(self, other: Any) -> bool:
        return other.__class__ is Record and other.type == self.type and other.fields == self.fields

    __hash__ = None  # changeable: never a key

    def __repr__(self) -> str:
        return show(self)


def show(value: Any) -> str:
    """How a value reads in a trace line or a message."""
    cls = value.__class__
    # The commonest, read first (a narration shows some seventy values a combat): the text, the
    # number, the id; then the other kinds by their class, and what derives from them last.
    if cls is str:
        return value
    if cls is int:
        return f"{value}"
    if cls is Unit or cls is Place:
        return value.id
    if cls is Pool:
        return str(int(value[0])) if len(value) == 1 else _show_faces(value)
    shown = _SHOWN.get(cls)
    return shown(value) if shown is not None else _show_derived(value)


def _show_faces(dice: list) -> str:
    return "[" + ", ".join(str(int(d)) for d in dice) + "]"


def _show_pool(pool: Pool) -> str:
    """A roll's dice: one die by its face, more as a list of faces."""
    return str(int(pool[0])) if len(pool) == 1 else _show_faces(pool)


def _show_list(items: list) -> str:
    if items and isinstance(items[0], Die):  # a list of faces
        return _show_faces(items)
    return "[" + ", ".join(show(v) for v in items) + "]"


def _show_record(record: Record) -> str:
    return record.type + "(" + ", ".join(f"{k}: {show(v)}" for k, v in record.fields.items()) + ")"


_SHOWN: dict[type, Any] = {
    bool: lambda b: "yes" if b else "no",
    type(None): lambda _: "none",
    Pool: _show_pool,
    list: _show_list,
    tuple: lambda items: "[" + ", ".join(show(v) for v in items) + "]",
    dict: lambda d: "{" + ", ".join(f"{show(k)}: {show(v)}" for k, v in d.items()) + "}",
    Die: lambda d: str(int(d)),
    Record: _show_record,
    _Mark: str,
}


def _show_derived(value: Any) -> str:
    """show() of a value of a class derived from those above (by the first it derives from), or of
    anything else by its text."""
    if isinstance(value, (str, int, Unit, Place)) and not isinstance(value, (bool, Die)):
        return str(value)
    for cls in (bool, Pool, list, tuple, dict, Die, Record):
        if isinstance(value, cls):
            return _SHOWN[cls](value)
    return str(value)


_SHORT_NUMBER = 10**19  # a number between minus and plus this shows in at most 20 characters


def shown_at_most(value: Any) -> int:
    """An upper bound on len(show(value)), found without writing the text (for lines nobody reads)."""
    cls = value.__class__
    if cls is str:
        return len(value)
    if cls is Unit or cls is Place:
        return len(value.id)
    if value is None or cls is bool:
        return 4
    if (cls is int or cls is Die) and -_SHORT_NUMBER < value < _SHORT_NUMBER:
        return 20
    if cls is list or cls is tuple or cls is Pool:
        return _items_at_most(value)
    if cls is dict:
        return 2 + sum(shown_at_most(k) + shown_at_most(v) + 4 for k, v in value.items())
    return len(show(value))


def _items_at_most(items: list | tuple) -> int:
    """shown_at_most of a list, a tuple or a pool: each item and its ', '."""
    if items.__class__ is Pool and (items.spread is not None or not items
                                    or (-_SHORT_NUMBER < min(items) and max(items) < _SHORT_NUMBER)):
        return 2 + 22 * len(items)  # faces: numbers (a pool kept as a distribution by exact odds has a die's faces)
    size = 2
    for v in items:  # numbers and text measured here, the rest by a call
        c = v.__class__
        size += 2 + (20 if (c is int or c is Die) and -_SHORT_NUMBER < v < _SHORT_NUMBER else len(v) if c is str
                     else shown_at_most(v))
    return size
