"""The trace as one side sees it (hidden information, language 6.3b).

A line is hidden from the side when it names a unit the side does not see at that moment (the
ruleset's `view`), sets a state that is `known to` another side, or gives another side's answer to
a decision (its effects are shown or hidden by their own lines; a `secretly` block's answers are
shown to all when it reveals them). Visibility is decided as the
line is written, so a block seen later does not unveil what it did before. The hidden line keeps
its rule citation — the side knows a rule was applied, as a player sees his opponent busy with a
block — and loses everything else, unless the rules say what the side sees of it instead (`say …
else TEXT`: a block seen sailing, not read; `hidden KIND seen as TEXT`: a move of a block standing on
edge, seen from where to where as TEXT). A scenario's expectations are read in the final position by
the same test.
"""

from __future__ import annotations

import re
from collections import Counter

from ...ir import nodes as n
from ...ir.visit import descendants
from ..common.requests import RuleError
from ..common.values import show

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class SideView:
    def __init__(self, engine, side: str):
        self.engine = engine
        self.side = side

    def hidden_line(self) -> str:
        return f"(hidden from {self.side})"

    def hides(self, text: str, secret: bool) -> bool:
        """Whether the side may not read this line: a state it does not know, or an unseen unit named."""
        if secret:
            return True
        units = self.engine.state.units
        return any(u is not None and not self.engine.sees(self.side, u)
                   for u in (units.get(w) for w in set(_WORD.findall(text))))

    def seen_face_down(self, text: str | None) -> str:
        """What the side reads of a line hidden from it that says what it sees (`say … else TEXT`, a move
        of units `hidden … seen as`): TEXT, unless there is none or TEXT itself names a unit the side does
        not see."""
        return self.hidden_line() if text is None or self.hides(text, False) else text

    def seen_moving(self, units: list, origins: list, to) -> str | None:
        """What the side sees of a move (`a block moves from home to reach`): each unit it does not see by
        what its class or type is `seen as`, with where it came from, as the side does not know it; None
        when a unit it does not see is not seen at all (its kind declares nothing)."""
        shown = []
        for u in units:
            if self.engine.sees(self.side, u):
                shown.append(str(u))
                continue
            face = seen_as(self.engine.sym, u)
            if face is None:
                return None
            shown.append(face)
        if len(set(map(id, origins))) == 1 and origins[0] is not None:
            return moved(shown, f"from {origins[0]} to {to}")
        return moved([what if where is None else f"{what} from {where}" for what, where in zip(shown, origins)], f"to {to}")

    def hides_expectation(self, text: str, expr) -> bool:
        """Whether the side may not read a scenario's expectation, evaluated in the final position: it names
        a unit the side does not see then, or reads a game or place state known to another side."""
        return self.hides(text, self.reads_unknown(expr))

    def reads_unknown(self, expr) -> bool:
        """Whether an expression reads a game state or a place state known to a side other than this one."""
        sym = self.engine.sym
        for node in descendants([expr]):
            if isinstance(node, n.Var) and unknown_to(sym.game_states.get(node.name), self.side):
                return True
            if isinstance(node, n.Attr) and unknown_to(sym.place_props.get(node.name), self.side):
                return True
        return False

    def unknown_state(self, decl) -> bool:
        """A state (game or place) known to a side other than this one."""
        return unknown_to(decl, self.side)


def seen_as(sym, u) -> str | None:
    """What a side that does not see ``u`` sees of it where it stands: its type's `hidden … seen as`
    text, else its class's; None when neither declares one (the unit is not seen at all)."""
    decl = sym.hidden.get(u.type) or sym.hidden.get(u.cls)
    return None if decl is None else decl.seen_as


def seen_faces(sym, unseen) -> Counter[str]:
    """What a side sees of the units ``unseen`` it does not see: each `seen as` text with how many
    units show it (`a block` x2); a unit seen as nothing is neither shown nor counted."""
    return Counter(face for u in unseen if (face := seen_as(sym, u)))


def moved(names: list[str], where: str) -> str:
    """The line of a move: `BLUE1 moves to reach`, `BLUE1, BLUE2 move to cove`."""
    return f"{', '.join(names)} {'moves' if len(names) == 1 else 'move'} {where}"


def unknown_to(decl, side: str) -> bool:
    """Whether a game or place state's declaration says it is `known to` a side other than ``side``."""
    known = getattr(decl, "known_to", None)
    return known is not None and known.side != side


def sides_named(who, sides, span) -> set[str]:
    """The sides a draw's or a pick's ``known to WHO`` shows what it gives: a side, a list of sides, or
    none (nobody: face down to all)."""
    named = [] if who is None else who if isinstance(who, list) else [who]
    for side in named:
        if side not in sides:
            raise RuleError(f"'known to' names the sides that see what is drawn: {show(who)} is not a side, "
                            "a list of sides or none", span)
    return set(named)
