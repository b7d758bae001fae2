"""The trace as one side sees it (hidden information, language 6.3b).

A line is hidden from the side when it names a unit the side does not see at that moment (the
ruleset's `view`), sets a state that is `known to` another side, or gives another side's answer to
a decision (its effects are shown or hidden by their own lines; a `secretly` block's answers are
shown to all when it reveals them). Visibility is decided as the
line is written, so a block seen later does not unveil what it did before. The hidden line keeps
its rule citation — the side knows a rule was applied, as a player sees his opponent busy with a
block — and loses everything else, unless the rules say what the side sees of it instead (`say …
else TEXT`: a block seen sailing, not read). A scenario's expectations are read in the final
position by the same test.
"""

from __future__ import annotations

import re

from ..ir import nodes as n
from ..ir.visit import descendants
from .requests import RuleError
from .values import show

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

    def seen_face_down(self, text: str) -> str:
        """What the side reads of a line hidden from it that says what it sees (`say … else TEXT`):
        TEXT, unless TEXT itself names a unit the side does not see."""
        return self.hidden_line() if self.hides(text, False) else text

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
