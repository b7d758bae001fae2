"""The checker's part for square grids, borders, exits and coasts (language 6.1a-6.1b).

A mix-in of Checker: what it can see without a scenario — a square grid's id format and wrapping
edges, and the names a map built-in is given as literals (a direction, a border property).
"""

from __future__ import annotations

from ..ir import nodes as n
from ..lang import DIRECTIONS, WRAP_AXES
from ..runtime.squares import DEFAULT_SQUARE_ID, id_format, wrap_rule
from ..syntax.diagnostics import did_you_mean


class MapChecks:
    """Checks of the map's geometry; mixed into Checker, whose error/unknown/sym it uses."""

    def check_square_map(self, decl: n.MapDecl) -> None:
        grid = decl.grid
        square = grid is not None and grid.shape == "square"
        if square and id_format(grid.id_format or DEFAULT_SQUARE_ID) is None:
            self.error(f"the square id format \"{grid.id_format}\" cannot be read", grid.span,
                       "write a C for each digit of the column and an R for each digit of the row, as \"CCRR\", "
                       "or name the fields, as \"{row letter}{column}\" for C12")
            return
        for wrap in decl.wraps:
            if not square:
                self.error("only a square grid has edges that wrap", wrap.span,
                           f"this map's grid is {grid.shape if grid else 'not declared'}: declare 'grid square' to wrap an edge")
            else:
                self.check_wrap(wrap, id_format(grid.id_format or DEFAULT_SQUARE_ID))
        for border in decl.borders:
            self.check_type(border.type)

    def check_wrap(self, wrap: n.Wrap, form) -> None:
        for axis in (wrap.axis, wrap.on_axis):
            if axis is not None and axis not in WRAP_AXES:
                self.unknown("wrap axis", axis, wrap.span, WRAP_AXES)
                return
        if wrap.on_axis == wrap.axis:
            self.error(f"a wrap of the {wrap.axis} holds on some of the other axis: 'on {WRAP_AXES[wrap.axis == 'columns']} …'", wrap.span)
            return
        if wrap_rule(form, wrap.axis, wrap.low, wrap.high, wrap.on_axis, wrap.on_low, wrap.on_high) is None:
            self.error(f"the ends of this wrap cannot be read as {wrap.axis} of the id format", wrap.span,
                       "write the first and last column or row as place ids write them, the first lower: 'wrap columns 1..30 on rows A..O'")

    def check_map_call(self, e: n.CallExpr) -> None:
        """A literal a map built-in is given: a direction one of the eight, a border property declared,
        a coast declared."""
        if e.func == "between" and e.args:
            self.check_coast_name(e.args[0].value)
        literal = {"neighbour": (1, DIRECTIONS, "direction"), "border": (2, self.sym.borders, "border property")}.get(e.func)
        if literal is None or len(e.args) <= literal[0]:
            return
        arg = e.args[literal[0]].value
        if not isinstance(arg, n.StrLit) or arg.parts or arg.value in literal[1]:
            return
        hint = did_you_mean(arg.value, literal[1])
        if e.func == "neighbour":
            hint = _compass(arg.value) or hint or f"a direction is one of {', '.join(DIRECTIONS)}"
        self.error(f"unknown {literal[2]} '{arg.value}'", arg.span, hint)

    def check_coast_name(self, arg) -> None:
        """between's first argument written as a name: it must be a coast (a known name of another kind,
        such as an edge kind, is reported here; an unknown one by the name check)."""
        if isinstance(arg, n.Var) and arg.name not in self.sym.coasts and arg.name in self.values:
            self.error(f"'{arg.name}' is not a coast", arg.span,
                       did_you_mean(arg.name, self.sym.coasts) or "declare it in the map: coast NAME \"label\" [rule]")


def coast_ends(roots) -> list[tuple[str, n.PlaceLit]]:
    """(coast, place) for each place written as a literal at an end of a between() call of the rules:
    a scenario's coasts tell whether each is on its coast."""
    from ..ir.visit import descendants

    out = []
    for node in descendants(roots):
        if isinstance(node, n.CallExpr) and node.func == "between" and len(node.args) == 3 and isinstance(node.args[0].value, n.Var):
            out.extend((node.args[0].value.name, a.value) for a in node.args[1:] if isinstance(a.value, n.PlaceLit))
    return out


def _compass(word: str) -> str | None:
    """A direction written out ('north', 'South-West') as its short name."""
    words = word.lower().replace("-", " ").replace("north", "north ").replace("south", "south ").split()
    short = "".join(w[0] for w in words)
    if words and all(w in ("north", "south", "east", "west") for w in words) and short in DIRECTIONS:
        return f"did you mean '{short}'? directions are written short: {', '.join(DIRECTIONS)}"
    return None
