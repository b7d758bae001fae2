"""The checker's part for per-key game states (language 6.4a): `state active: bool per campaign`.

Mixed into `resolve.Checker`. A per-key state's keys are the sides, the nations or the values of
an enumeration; the state is read and set by key (`active[mc]`, `set active[mc] = v`), never by
its name alone. Where a key is written as a name or a plain text, it must be one of the keys; where
a value's kind is plain from the text (a literal, an enumeration value), it must fit the state's type.
"""

from __future__ import annotations

from ..ir import nodes as n
from ..syntax.diagnostics import did_you_mean


class KeyedStateChecks:
    """Checks of per-key game states (see the module's account)."""

    def check_state_keys(self, decl: n.GameStateDecl) -> None:
        """`per NAME` names the sides, the nations or an enumeration."""
        if decl.per is None or decl.per in ("side", "nation") or decl.per in self.sym.enumerations:
            return
        self.error(f"game state '{decl.name}' is per '{decl.per}', which is no enumeration", decl.per_span or decl.span,
                   did_you_mean(decl.per, self.sym.enumerations) or "declare it, as in 'enumeration "
                   f"{decl.per} {{a, b}}', or write 'per side' or 'per nation'")

    def keyless_read(self, e: n.Var, verb: str = "read") -> None:
        """A per-key state named alone: which key is meant?"""
        decl = self.sym.game_states[e.name]
        keys = self.sym.state_keys(e.name)
        example = f"{e.name}[{keys[0] if keys else 'KEY'}]"
        example = f"set {example} = …" if verb == "set" else example
        self.error(f"game state '{e.name}' has a value for each {decl.per}: {verb} it by key, as in '{example}'", e.span)

    def keyed_index(self, e: n.Index, scope: set[str]) -> bool:
        """`NAME[key]` of a per-key state (not a local of that name): the key, where it is plain from the text,
        is one of the state's keys. True when the expression is read so."""
        obj = e.obj
        if not isinstance(obj, n.Var) or obj.name in scope:
            return False
        keys = self.sym.state_keys(obj.name)
        if keys is None:
            return False
        self.expr(e.key, scope)
        key = self.written_key(e.key, scope)
        if key is not None and key not in keys:
            decl = self.sym.game_states[obj.name]
            self.error(f"'{key}' is not a key of game state '{obj.name}' (per {decl.per}: {', '.join(keys)})", e.key.span,
                       did_you_mean(key, keys))
        return True

    def written_key(self, e, scope: set[str]) -> str | None:
        """A key written as a global name, a qualified enumeration value or a plain text; None otherwise."""
        if isinstance(e, n.StrLit) and not any(p.expr is not None for p in e.parts):
            return e.value
        what = self.kind_of(e, scope)
        if what is not None and what[0] == ("enum",):
            return what[1]
        return None  # a local, an expression, or an unknown name (reported as such)

    def check_state_value(self, name: str, value, scope: set[str]) -> None:
        """`set NAME[key] = value`: a value whose kind is plain from the text fits the state's type."""
        what = self.kind_of(value, scope) if value is not None else None
        if what is None:
            return
        fits, text = what
        t = self.sym.game_states[name].type
        if t.enum:
            ok, shown = fits == ("enum",) and text in t.enum, "{" + ", ".join(t.enum) + "}"
        else:
            ok = t.name in fits or (t.name in ("side", "nation", "faction") and fits == ("enum",) and self.faction(text, t.name))
            shown = t.name
            ok = ok or (t.name == "str" and fits == ("enum",))  # a name is a text at run time
        if not ok:
            given = text if fits != ("enum",) else f"'{text}'"
            self.error(f"game state '{name}' is of type {shown}: it cannot hold {given}", value.span)
