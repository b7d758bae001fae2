"""How a game looks, read from its `look` declarations (language 6.3c) with a default for everything
left undeclared: each side's colour, the fill, pattern, outline and mark of the places by their
properties, each kind of edge or border's line, and each class or type's counter (its symbol, the
stats printed on it, the state that shows its reduced face, its own colour).

Nothing here knows a game: a property's values mean nothing to a drawer until the ruleset says how
they look, so an undeclared map is drawn in one land colour."""

from __future__ import annotations

from dataclasses import dataclass, field

from .colours import side_colours

LAND = "#efe6cc"  # a place no declaration colours


@dataclass
class PlaceLook:
    fill: str | None = None
    pattern: str | None = None
    outline: str | None = None
    mark: str | None = None  # a symbol drawn with the place's name


@dataclass
class CounterLook:
    colour: str | None = None  # the counter's own printed colour (a unit of no side shows it)
    symbol: str | None = None
    factors: tuple[str, ...] = ()
    reduced: tuple[str, ...] = ()  # a unit state, and the value it has on the reduced face


@dataclass
class Look:
    sides: dict[str, str]
    places: dict[tuple[str, str | None], PlaceLook] = field(default_factory=dict)  # (property, value or None: set)
    edges: dict[tuple[str, str | None], tuple[str, str]] = field(default_factory=dict)  # -> (colour, pattern)
    counters: dict[str, CounterLook] = field(default_factory=dict)  # a class or a type
    owner: str | None = None  # the function (u: unit) giving the side whose colour a unit shows

    def place(self, props: dict) -> PlaceLook:
        """A place's look: each declared property's look in turn, the first to give each part keeping it."""
        out = PlaceLook()
        for (prop, value), look in self.places.items():
            if prop in props and (props[prop] == value if value is not None else _set(props[prop])):
                for part in ("fill", "pattern", "outline", "mark"):
                    if getattr(out, part) is None and getattr(look, part) is not None:
                        setattr(out, part, getattr(look, part))
        return out

    def counter(self, type_: str, cls: str) -> CounterLook:
        """The type's look, then its class's for what the type's leaves out."""
        mine, parent = self.counters.get(type_), self.counters.get(cls)
        if mine is None or parent is None:
            return mine or parent or CounterLook()
        return CounterLook(mine.colour or parent.colour, mine.symbol or parent.symbol, mine.factors or parent.factors,
                           mine.reduced or parent.reduced)


def _set(value) -> bool:
    """A property a place has: any number (a place whose value is 0 still has it), a true flag, a value but none."""
    return value is not None and value is not False and value != "none" and value != ()


def look_of(sym) -> Look:
    look = Look(side_colours(list(sym.sides)))
    for decl in getattr(sym, "looks", ()):
        words = {s.name: s.words for s in decl.settings}
        first = {name: w[0] for name, w in words.items() if w}
        if decl.subject == "side" and "colour" in first:
            look.sides[decl.name] = first["colour"]
        elif decl.subject == "place":
            look.places[(decl.name, decl.value)] = PlaceLook(first.get("fill"), first.get("pattern"), first.get("outline"),
                                                             first.get("mark"))
        elif decl.subject == "edge":
            look.edges[(decl.name, decl.value)] = (first.get("line", "#7a6a4f"), first.get("pattern", "solid"))
        elif decl.subject == "counter":
            look.counters[decl.name] = CounterLook(first.get("colour"), first.get("symbol"), words.get("factors", ()),
                                                   words.get("reduced", ()))
        elif decl.subject == "unit":
            look.owner = first.get("owner")
    return look
