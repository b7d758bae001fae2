"""The checker's part for square and hex directions, borders, coasts, secondary maps (language
6.1a-6.1d) and the step function of weighted paths (language 13).

A mix-in of Checker: what it can see without a scenario — a square grid's id format and wrapping
edges, the names a map built-in is given as literals (a direction of the grid's own, a border
property, a coast), the function cheapest and reach are given by name, and each secondary map's
paths. What needs a scenario (the places at the ends of a coast) is
checked with it, by check/scenario.py through `coast_ends`.
"""

from __future__ import annotations

from ..grids.compass import direction_hint
from ..grids.squares import DEFAULT_SQUARE_ID, id_format
from ..ir import nodes as n
from ..lang import BUILTINS, DIRECTIONS, HEX_DIRECTIONS, WRAP_AXES
from ..syntax.diagnostics import did_you_mean

# The built-ins that read a square grid's directions (a run on another map would stop at them).
SQUARE_BUILTINS = ("diagonal", "flanking")
# Those that read the directions of a square grid or of a hex grid with columns (language 6.1d).
COMPASS_BUILTINS = ("neighbour", "direction")


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
        ranges = [(wrap.axis, wrap.low, wrap.high)] + ([(wrap.on_axis, wrap.on_low, wrap.on_high)] if wrap.on_axis else [])
        for axis, low, high in ranges:
            ends = [form.coordinate(axis[:-1], x) for x in (low, high)]
            if None in ends or ends[0] >= ends[1]:
                kind = "a capital letter" if form.coordinate(axis[:-1], "A") is not None else "a number"
                self.error(f"the wrap's {axis} {low}..{high} must be two {axis} of this grid, the first lower "
                           f"(its ids write a {axis[:-1]} as {kind})", wrap.span,
                           "as in 'wrap columns 1..30 on rows A..O' for ids such as C12")
                return

    def check_map_call(self, e: n.CallExpr) -> None:
        """A literal a map built-in is given: a direction one of the grid's own, a border property declared,
        a coast declared."""
        if e.func == "between" and e.args:
            self.check_coast_name(e.args[0].value)
        directions = self.check_compass_grid(e)
        literal = {"neighbour": (1, directions, "direction"), "border": (2, self.sym.borders, "border property")}.get(e.func)
        if literal is None or len(e.args) <= literal[0]:
            return
        arg = e.args[literal[0]].value
        if not isinstance(arg, n.StrLit) or arg.parts or arg.value in literal[1]:
            return
        hint = did_you_mean(arg.value, literal[1])
        if e.func == "neighbour":
            hint = direction_hint(arg.value, directions) or hint or f"a direction is one of {', '.join(directions)}"
        self.error(f"unknown {literal[2]} '{arg.value}'", arg.span, hint)

    def check_compass_grid(self, e: n.CallExpr) -> tuple[str, ...]:
        """A direction built-in on a grid that has its directions: the directions (a square grid's eight
        when the map has none, so that a literal is still checked)."""
        grid = self.sym.map.grid if self.sym.map else None
        shape = f"a {grid.shape} grid" if grid else "not declared"
        if e.func in SQUARE_BUILTINS and (grid is None or grid.shape != "square"):
            self.error(f"'{e.func}' needs a square grid, and this ruleset's map is {shape}", e.span,
                       "declare the map's grid: grid square \"{row letter}{column}\"")
        hexes = grid is not None and grid.shape == "hex" and bool(grid.columns)
        if e.func in COMPASS_BUILTINS and not hexes and (grid is None or grid.shape != "square"):
            self.error(f"'{e.func}' needs a square grid or a hex grid with columns, and this ruleset's map is "
                       f"{shape}{' without columns' if grid is not None and grid.shape == 'hex' else ''}", e.span,
                       "declare the map's grid: grid square \"{row letter}{column}\", or grid hex \"CCRR\" columns even_q")
        return HEX_DIRECTIONS if hexes else DIRECTIONS

    def check_step_function(self, fn: str, arg, scope: set[str]) -> None:
        """The STEP of cheapest/reach: the bare name of a ruleset function of two places (from, to)."""
        call = "cheapest(a, b, through, move_cost)" if fn == "cheapest" else "reach(start, budget, through, move_cost)"
        example = f"as in {call} with function move_cost(a: place, b: place) [rule] = …"
        if isinstance(arg, n.CallExpr) and arg.func in self.sym.functions and arg.func not in scope:
            self.check_step_partial(fn, arg, scope, example)
            return
        name = arg.name if isinstance(arg, n.Var) else None
        if name is None or name in scope:
            self.error(f"{fn} needs the bare name of a function giving a move's cost; {_not_a_name(arg, name)}", arg.span, example)
            return
        decl = self.sym.functions.get(name)
        if decl is None:
            kind = ("a built-in" if name in BUILTINS else "a procedure" if name in self.sym.procedures
                    else "a table" if name in self.sym.tables else None)
            if kind is None and name not in self.values:
                self.unknown("function", name, arg.span, self.sym.functions)
                return
            self.error(f"'{name}' is {kind or 'not a function'}: {fn} needs a function of the ruleset giving a move's cost",
                       arg.span, example + " (a function is pure: it cannot roll, ask or change anything)")
            return
        types = [p.type for p in decl.params]
        if types != ["place", "place"]:
            self.error(f"the function '{name}' takes {len(types)} parameter(s) ({', '.join(types) or 'none'}): "
                       f"{fn} calls it with two places, the move's from and to", arg.span,
                       f"declare it as function {name}(a: place, b: place) [rule] = …")

    def check_step_partial(self, fn: str, arg: n.CallExpr, scope: set[str], example: str) -> None:
        """A STEP given its leading arguments (`move_cost(u)`, the mover): the function takes those, then
        the move's two places, which the built-in gives it."""
        decl = self.sym.functions[arg.func]
        for a in arg.args:
            self.expr(a.value, scope)
        named = next((a for a in arg.args if a.name is not None), None)
        if named is not None:
            self.error(f"{fn} gives '{arg.func}' its leading arguments by position: '{named.name}: …' names one",
                       named.span, f"write {arg.func}({', '.join('…' for _ in arg.args)})")
            return
        types, given = [p.type for p in decl.params], len(arg.args)
        if len(types) == given + 2 and types[given:] == ["place", "place"]:
            return
        if given >= len(types):
            self.error(f"{fn} needs a function giving a move's cost; {arg.func}(…) calls the function: give its name "
                       f"alone, {arg.func}, or only the arguments before the move's from and to, which {fn} gives it",
                       arg.span, example)
            return
        leading = [f"{p.name}: {p.type}" for p in decl.params[:given]]
        self.error(f"the function '{arg.func}' takes {len(types)} parameter(s) ({', '.join(types) or 'none'}): {fn} gives "
                   f"it the {given} written here and then the move's from and to, two places", arg.span,
                   f"declare it as function {arg.func}({', '.join([*leading, 'a: place', 'b: place'])}) [rule] = …, "
                   f"or give it only the arguments before the two places")

    def check_secondary_maps(self) -> None:
        """Each secondary map's die is declared, its paths lead to its own points, and the paths from a
        point share out the die's faces: each face picks exactly one path."""
        for decl in self.sym.secondary_maps.values():
            die = self.sym.dice.get(decl.die)
            if die is None:
                self.unknown("die", decl.die, decl.die_span, self.sym.dice)
            for point in decl.points:
                for path in point.paths:
                    if self.sym.map_points.get(path.to) != decl.name:
                        self.error(f"'{path.to}' is not a point of {decl.name}", path.span,
                                   did_you_mean(path.to, [p.name for p in decl.points]))
                if point.paths and die is not None and die.high - die.low < 1000:
                    self.check_point_faces(point, die.low, die.high)

    def check_point_faces(self, point: n.MapPoint, low: int, high: int) -> None:
        taken: dict[int, n.MapPath] = {}
        for path in point.paths:
            if path.low > path.high or path.low < low or path.high > high:
                self.error(f"the path {path.low}..{path.high} -> {path.to} is not a range of the die's faces {low}..{high}", path.span)
                continue
            twice = next((f for f in range(path.low, path.high + 1) if f in taken), None)
            if twice is not None:
                self.error(f"{twice} picks two paths from {point.name}: -> {taken[twice].to} and -> {path.to}", path.span)
            taken.update({f: path for f in range(path.low, path.high + 1)})
        missing = [f for f in range(low, high + 1) if f not in taken]
        if missing:
            self.error(f"no path from {point.name} for {_faces(missing)}", point.span,
                       "every face of the die picks a path from a point that has any; a point with none ends the walk")

    def check_coast_name(self, arg) -> None:
        """between's first argument written as a name: it must be a coast (a known name of another kind,
        such as an edge kind, is reported here; an unknown one by the name check)."""
        if isinstance(arg, n.Var) and arg.name not in self.sym.coasts and arg.name in self.values:
            self.error(f"'{arg.name}' is not a coast", arg.span,
                       did_you_mean(arg.name, self.sym.coasts) or "declare it in the map: coast NAME \"label\" [rule]")


def _not_a_name(arg, local: str | None) -> str:
    """What a STEP argument that is not a function's bare name is instead."""
    if local is not None:
        return f"'{local}' is a local name here"
    if isinstance(arg, n.StrLit):
        return f"\"{arg.value}\" is a string: write the function's name without quotes"
    if isinstance(arg, n.CallExpr):
        return f"{arg.func}(…) calls the function: give its name alone, {arg.func}"
    return "this is an expression"


def coast_ends(walked, roots) -> list[tuple[str, n.PlaceLit]]:
    """(coast, place) for each place written as a literal at an end of a between() call of the rules
    (found through the ruleset's ``walked``, visit.Walked): a scenario's coasts tell whether each is on its coast."""
    out = []
    for node in walked.of(roots, n.CallExpr):
        if node.func == "between" and len(node.args) == 3 and isinstance(node.args[0].value, n.Var):
            out.extend((node.args[0].value.name, a.value) for a in node.args[1:] if isinstance(a.value, n.PlaceLit))
    return out


def _faces(faces: list[int]) -> str:
    """Faces as ranges: 5..6, 9."""
    runs: list[list[int]] = []
    for f in faces:
        if runs and runs[-1][1] == f - 1:
            runs[-1][1] = f
        else:
            runs.append([f, f])
    return ", ".join(str(a) if a == b else f"{a}..{b}" for a, b in runs)
