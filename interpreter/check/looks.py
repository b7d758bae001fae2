"""The checks of `look` declarations (language 6.3c): each names what it draws (a side, a place property
and one of its values, an edge kind or border value, a class or type) and gives only the settings its
subject takes, each in the form it takes (a colour as "#rrggbb", a pattern by its name, stats by name)."""

from __future__ import annotations

import re

from ..ir import nodes as n

# What each subject draws, and its settings: the kind of value each takes.
SETTINGS = {
    "side": {"colour": "colour"},
    "place": {"fill": "colour", "pattern": "pattern", "outline": "colour", "mark": "text"},
    "edge": {"line": "colour", "pattern": "line_pattern"},
    "counter": {"colour": "colour", "symbol": "text", "factors": "stats", "reduced": "state"},
    "unit": {"owner": "function"},
}
PATTERNS = ("dots", "hatch", "waves", "grid")  # a place's fill pattern, over its fill colour
LINE_PATTERNS = ("solid", "dashed", "dotted")
_COLOUR = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_NAMED = {"side": 1, "place": 2, "edge": 2, "counter": 1, "unit": 0}  # the names after the subject, at most


class LookChecks:
    def check_looks(self) -> None:
        seen: dict[tuple, n.LookDecl] = {}
        for decl in self.sym.looks:
            if decl.subject not in SETTINGS:
                self.error(f"'look {decl.subject}': a look is of a side, place, edge, counter or unit", decl.subject_span,
                           "write 'look side NAME', 'look place PROPERTY [VALUE]', 'look edge KIND [VALUE]', "
                           "'look counter CLASS', or 'look unit'")
                continue
            if not self.look_names(decl):
                continue
            key = (decl.subject, decl.name, decl.value)
            if key in seen:
                self.error(f"'{_what(decl)}' is declared twice (first at line {seen[key].span.line})", decl.span)
            seen[key] = decl
            for setting in decl.settings:
                self.look_setting(decl, setting)

    def look_names(self, decl: n.LookDecl) -> bool:
        """Whether the names after the subject name what the subject draws."""
        named = (decl.name is not None) + (decl.value is not None)
        if named > _NAMED[decl.subject] or (decl.subject in ("side", "place", "edge", "counter") and decl.name is None):
            forms = {"side": "look side SIDE", "place": "look place PROPERTY [VALUE]", "edge": "look edge KIND [VALUE]",
                     "counter": "look counter CLASS", "unit": "look unit"}
            self.error(f"'{_what(decl)}' does not name what it draws as '{forms[decl.subject]}' does", decl.span)
            return False
        sym = self.sym
        if decl.subject == "side" and decl.name not in sym.sides:
            self.unknown("side", decl.name, decl.name_span, sym.sides)
        elif decl.subject == "counter" and decl.name not in sym.classes and decl.name not in sym.types:
            self.unknown("class or type", decl.name, decl.name_span, list(sym.classes) + list(sym.types))
        elif decl.subject == "place":
            return self.look_value(decl, sym.place_props.get(decl.name), "place property", sym.place_props)
        elif decl.subject == "edge":
            if decl.name in sym.edges and decl.value is None:
                return True
            return self.look_value(decl, sym.borders.get(decl.name), "edge kind or border", list(sym.edges) + list(sym.borders))
        else:
            return True
        return False

    def look_value(self, decl: n.LookDecl, prop, what: str, names) -> bool:
        if prop is None:
            self.unknown(what, decl.name, decl.name_span, names)
            return False
        values = prop.type.enum or self.sym.enumerations.get(prop.type.name or "", ())
        if decl.value is not None and decl.value not in values:
            self.error(f"'{decl.value}' is not a value of '{decl.name}'" + (f" ({', '.join(values)})" if values else ""),
                       decl.value_span, "name one of its values, or leave it out: the places where it is set")
            return False
        return True

    def look_setting(self, decl: n.LookDecl, setting: n.LookSetting) -> None:
        takes = SETTINGS[decl.subject]
        kind = takes.get(setting.name)
        if kind is None:
            self.error(f"'{_what(decl)}' has no setting '{setting.name}'", setting.span,
                       f"its settings are {', '.join(takes)}")
            return
        problem = self.look_value_problem(kind, setting)
        if problem:
            self.error(f"'{setting.name}' {problem}", setting.span)

    def look_value_problem(self, kind: str, setting: n.LookSetting) -> str | None:
        words, sym = setting.words, self.sym
        if kind in ("colour", "text") and not setting.quoted:
            return "takes a quoted text" + (', a colour such as "#b03a2e"' if kind == "colour" else "")
        if kind == "colour" and not _COLOUR.fullmatch(words[0]):
            return f'is a colour written "#rrggbb" (or "#rgb"), not "{words[0]}"'
        if kind in ("pattern", "line_pattern"):
            known = PATTERNS if kind == "pattern" else LINE_PATTERNS
            if setting.quoted or len(words) != 1 or words[0] not in known:
                return f"is one of {', '.join(known)}"
        if kind == "stats":
            unknown = [w for w in words if w not in sym.stats] if not setting.quoted else list(words)
            if unknown:
                return f"names stats: '{unknown[0]}' is not one"
        if kind == "state":
            if setting.quoted or len(words) > 2 or words[0] not in sym.unit_states:
                return "names a unit state, and the value it has on the reduced face (true, or more than 0, without one)"
        if kind == "function":
            fn = sym.functions.get(words[0]) if not setting.quoted and len(words) == 1 else None
            if fn is None or [p.type for p in fn.params] != ["unit"]:
                return "names a function of a unit (u: unit) that gives the side whose colour it shows, or none"
        return None


def _what(decl: n.LookDecl) -> str:
    return " ".join(x for x in ("look", decl.subject, decl.name, decl.value) if x)
