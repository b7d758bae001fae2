"""What a person at the terminal reads of the game: a decision's options, one line each, and the
position as their side sees it (`?`).

Everything shown comes from the ruleset's declarations and the scenario's data, never from a game
of its own: a unit reads as its counter and type labels, the printed values it shows (its face)
and its states; a place as its id (a hex or square number, an area's name: what the printed map
shows) with the name the map gives it (`named "…"`), a box by its label, its properties and states
and who stands there; beside an option, what its decision's `showing` computes (a cost, a value). What the side may
not see stays hidden: a unit outside the ruleset's `view` is shown only as its kind is `seen as` (a block
standing on edge reads "a block" where it stands) and otherwise not at all, not even counted: whether
a side may know how many pieces stand somewhere is the rules' to say (a stack of counters on the map
shows its height, a force kept on a concealed display sheet does not), and `hidden … seen as` is
where a ruleset says it; a state `known to` another side is left out; a game state held per side
(a map keyed by the sides) shows this side's entry alone.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..common.values import MISSING, Place, Unit, X, show
from ..execution import cups
from ..execution.calendar import turn_label
from ..world.fog import seen_as, seen_faces, unknown_to

# A stat a counter prints as X (no such value), does not print (?) or lacks: not worth a word.
_UNPRINTED = (None, X, MISSING)


class Readout:
    """The game as ``side`` reads it at the terminal (the whole of it, for no side)."""

    def __init__(self, engine, side: str | None):
        self.engine, self.side = engine, side

    # ── options ──

    def options(self, options: list, showing=None) -> list[str]:
        """Each option on one line; units say where they are only when the options are not all in one place;
        ``showing(option)``, when given, is read after it."""
        where = {u.location for u in options if isinstance(u, Unit)}
        lines = [self.option(o, len(where) > 1) for o in options]
        if showing is not None:
            lines = [_beside(line, showing(o)) for line, o in zip(lines, options)]
        return lines

    def option(self, option: Any, located: bool = False) -> str:
        if isinstance(option, Unit):
            return self.unit(option, located)
        if isinstance(option, Place):
            return self.place(option)
        return show(option)

    def unit(self, u: Unit, located: bool = False) -> str:
        """``ID — label, type: stat N, …; states; side; in PLACE`` (an unseen unit as it is seen, without its id)."""
        if not self.sees(u):  # its id would tell what the side may not know: only what it sees of it
            return f"{seen_as(self.engine.sym, u) or 'a piece'} ({self.side} does not see which)"
        names = [u.label] if u.label else []
        type_decl = self.engine.sym.types.get(u.type)
        names.append(type_decl.label if type_decl is not None and type_decl.label else u.type)
        parts = [", ".join(names)]
        values = [f"{name} {show(v)}" for name in u.stats if (v := self.engine.face_value(u, name)) not in _UNPRINTED]
        if values:
            parts[0] += ": " + ", ".join(values)
        parts += [", ".join(s) for s in [_states(u.state.items())] if s]
        if u.side != self.side:
            parts.append(u.side)
        if u.carrier is not None:
            parts.append(f"aboard {u.carrier}")
        elif located and u.location is not None:
            parts.append(f"in {self.where(u.location)}")
        return f"{u.id} — " + "; ".join(parts)

    def place(self, p: Place) -> str:
        """``ID — name: properties, states; who stands there``."""
        name = self.place_label(p)
        facts = ", ".join(self.properties(p) + self.place_states(p))
        head = ": ".join(x for x in (name if name != p.id else "", facts) if x)
        text = "; ".join(x for x in (head, self.who_is_there(p)) if x)
        return f"{p.id} — {text}" if text else p.id

    def place_label(self, p: Place) -> str:
        """A box's label, a place's name, else its id."""
        if p.is_box:
            base, _, key = p.id.partition("[")
            decl = self.engine.sym.boxes.get(base)
            label = decl.label if decl is not None and decl.label else base
            return f"{label} [{key}" if key else label
        return p.name or p.id

    def where(self, p: Place) -> str:
        """A place as a person names it: a box by its label, a map place by its id and its name ('camp Camp Hill')."""
        if p.is_box:
            return self.place_label(p)
        return f"{p.id} {p.name}" if p.name else p.id

    def properties(self, p: Place) -> list[str]:
        enums = self.engine.sym.enum_values
        return [_fact(name, v, enums) for name, v in p.props.items() if _fact(name, v, enums)]

    def place_states(self, p: Place) -> list[str]:
        decls = self.engine.sym.place_props
        return _states((k, v) for k, v in p.state.items() if self.knows(decls.get(k)))

    def who_is_there(self, p: Place) -> str:
        """The units in a place this side sees, counted by side, then what it sees of the others
        (`a block x2`); a unit it does not see, and one aboard such a unit, is not counted."""
        here = self.engine.state.units_at(p)
        by_side = Counter(u.side for u in here if self.sees(u))
        counted = [f"{side} {k}" for side, k in by_side.items()]
        faces = self.faces([u for u in here if u.carrier is None or self.sees(u.carrier)])
        return "units: " + ", ".join(counted + faces) if counted or faces else ""

    def sees(self, u: Unit) -> bool:
        return self.side is None or self.engine.sees(self.side, u)

    def knows(self, decl) -> bool:
        """A game or place state is read unless it is known to another side (language 6.3b)."""
        return self.side is None or not unknown_to(decl, self.side)

    # ── the position ──

    def position(self) -> str:
        """The clock, the tracks, the game states this side knows, the cups, then every place and
        box where a unit stands: the units this side sees named (with their states and, in brackets, what
        they carry), the others as they are `seen as`, if at all."""
        engine, st = self.engine, self.engine.state
        seen_by = f" (as {self.side} sees it)" if self.side else ""
        lines = [f"turn {turn_label(engine.sym.game, st.turn)}, {st.phase}, {st.step}{seen_by}"]
        for track in st.tracks.values():
            lines.append(f"  {track.name}: " + ", ".join(f"{k or track.name} {v}" for k, v in track.values.items()))
        known = self.game_states()
        if known:
            lines.append("  states: " + ", ".join(known))
        for name, chits in st.cups.items():  # what is left in a cup is open knowledge: the drawn chits were seen
            lines.append(f"  cup {name}: {cups.listing(list(chits), list(chits.values()))}")
        for place in st.every_place():
            text = self.stack(place)
            if text:
                lines.append(f"  {self.where(place)}: {text}")
        return "\n".join(lines)

    def game_states(self) -> list[str]:
        decls, sides = self.engine.sym.game_states, self.engine.sym.sides
        shown = []
        for name, value in self.engine.state.globals.items():
            if not self.knows(decls.get(name)):
                continue
            if self.side is not None and isinstance(value, dict) and value and all(k in sides for k in value):
                value = value.get(self.side)  # held per side: this side's own
            shown += _states([(name, value)])
        return shown

    def stack(self, place: Place) -> str:
        """The units standing in a place (not aboard another) as this side sees them."""
        return ", ".join(self.shown([u for u in self.engine.state.units_at(place) if u.carrier is None]))

    def shown(self, units: list[Unit]) -> list[str]:
        """The units this side sees, each with its states and its cargo, then the others by what they
        are `seen as` (``a block x2``); a unit seen as nothing, and whatever it carries, is left out."""
        return [self.counter(u) for u in units if self.sees(u)] + self.faces(units)

    def faces(self, units: list[Unit]) -> list[str]:
        """What this side sees of the units among ``units`` it does not see: each kind's `seen as` text,
        with how many (``a block x2``)."""
        seen = seen_faces(self.engine.sym, [u for u in units if not self.sees(u)])
        return [cups.listing(list(seen), list(seen.values()))] if seen else []

    def counter(self, u: Unit) -> str:
        """``ID (states) [cargo]``: what a unit shows in the position."""
        states = _states(u.state.items())
        cargo = self.shown(u.cargo)
        return u.id + (f" ({', '.join(states)})" if states else "") + (f" [{', '.join(cargo)}]" if cargo else "")


def _beside(line: str, text: str) -> str:
    """An option's line with what its decision shows of it: after the states ('; 3 MP'), or after a bare value;
    an empty text (nothing to say of this option) adds nothing."""
    if not text:
        return line
    return f"{line}; {text}" if " — " in line else f"{line} — {text}"


def _fact(name: str, value: Any, enums: dict[str, str]) -> str:
    """A place property: an enumeration's value by itself ('coastal'), a number or a side by name and value."""
    if value is None or value is False:
        return ""
    if value is True or (isinstance(value, str) and enums.get(value) == name):
        return name if value is True else value
    return f"{name} {show(value)}"


def _states(items) -> list[str]:
    """States worth a word: a true flag by its name, a value other than none, no, 0 or empty by name and value."""
    out = []
    for name, value in items:
        if value is None or value is False or (isinstance(value, (list, dict, tuple, set, str)) and not value):
            continue
        if isinstance(value, int) and not isinstance(value, bool) and value == 0:
            continue
        out.append(name if value is True else f"{name} {show(value)}")
    return out
