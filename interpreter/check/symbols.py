"""The symbol table of a ruleset: every declared name, by namespace.

Collecting names is a pass of its own (like starlark's resolver's first pass) so that
declarations may be used before the point where they are written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir import nodes as n
from ..syntax.diagnostics import Diagnostic


@dataclass
class Symbols:
    game: n.Game | None = None
    sides: dict[str, n.NameLabel] = field(default_factory=dict)
    nations: dict[str, n.NameLabel] = field(default_factory=dict)
    dice: dict[str, n.Die] = field(default_factory=dict)
    stats: dict[str, n.StatDecl] = field(default_factory=dict)
    flags: dict[str, n.FlagDecl] = field(default_factory=dict)
    unit_states: dict[str, n.UnitStateDecl] = field(default_factory=dict)
    game_states: dict[str, n.GameStateDecl] = field(default_factory=dict)
    classes: dict[str, n.ClassDecl] = field(default_factory=dict)
    types: dict[str, n.TypeDecl] = field(default_factory=dict)
    counters: dict[str, n.CounterDecl] = field(default_factory=dict)
    map: n.MapDecl | None = None
    place_props: dict[str, n.PlaceProp] = field(default_factory=dict)
    enum_values: dict[str, str] = field(default_factory=dict)  # value -> property
    edges: dict[str, n.EdgeDecl] = field(default_factory=dict)
    boxes: dict[str, n.BoxDecl] = field(default_factory=dict)
    tracks: dict[str, n.TrackDecl] = field(default_factory=dict)
    missing: dict[str, n.MissingDecl] = field(default_factory=dict)
    tables: dict[str, n.TableDecl] = field(default_factory=dict)
    functions: dict[str, n.FunctionDecl] = field(default_factory=dict)
    procedures: dict[str, n.ProcedureDecl] = field(default_factory=dict)
    hooks: list[n.HookDecl] = field(default_factory=list)
    invariants: list[n.InvariantDecl] = field(default_factory=list)
    sequence: n.SequenceDecl | None = None
    view: n.ViewDecl | None = None
    overlays: list = field(default_factory=list)  # the overlays applied to the ruleset (interpreter/overlay/apply.py), in order

    def value_names(self) -> set[str]:
        """Names an expression may use as a value without declaring them locally."""
        return (
            set(self.sides) | set(self.nations) | set(self.enum_values) | set(self.boxes) | set(self.tracks)
            | set(self.game_states) | set(self.counters) | set(self.edges) | self.results()
        )

    def results(self) -> set[str]:
        """Result names of table rows: a lookup's value can be compared with them."""
        return ({cell for t in self.tables.values() for row in t.rows for cell in (row.cells or (row.result,))}
                | {r.name for t in self.tables.values() for r in t.results})

    def unit_kinds(self) -> set[str]:
        """Names that ``u is NAME`` may test: classes, types and flags."""
        return set(self.classes) | set(self.types) | set(self.flags)

    def attribute_names(self) -> set[str]:
        from ..lang import PLACE_ATTRS, UNIT_ATTRS

        return set(self.stats) | set(self.flags) | set(self.unit_states) | set(self.place_props) | set(UNIT_ATTRS) | set(PLACE_ATTRS)


    def steps(self) -> dict[tuple[str, str], n.StepDecl]:
        out: dict[tuple[str, str], n.StepDecl] = {}
        if self.sequence:
            for phase in self.sequence.phases:
                for step in phase.steps:
                    out[(phase.name, step.name)] = step
        return out


_NAMESPACE = {
    n.StatDecl: "stats",
    n.FlagDecl: "flags",
    n.UnitStateDecl: "unit_states",
    n.GameStateDecl: "game_states",
    n.ClassDecl: "classes",
    n.TypeDecl: "types",
    n.CounterDecl: "counters",
    n.BoxDecl: "boxes",
    n.TrackDecl: "tracks",
    n.MissingDecl: "missing",
    n.TableDecl: "tables",
    n.FunctionDecl: "functions",
    n.ProcedureDecl: "procedures",
}


def collect(ruleset: n.Ruleset) -> tuple[Symbols, list[Diagnostic]]:
    """Gather every declaration; report duplicates where they are declared again."""
    sym = Symbols()
    diags: list[Diagnostic] = []

    first: dict[tuple[str, str], int] = {}

    def dup(kind: str, name: str, decl) -> None:
        line = first.get((kind, name))
        where = f" (first at line {line})" if line else ""
        diags.append(Diagnostic("error", f"{kind} '{name}' is declared twice{where}", decl.span))

    for decl in ruleset.decls:
        if isinstance(decl, n.Game):
            if sym.game is not None:
                diags.append(Diagnostic("error", "a ruleset declares one game", decl.span))
                continue
            sym.game = decl
            for label in decl.sides:
                sym.sides[label.name] = label
            for label in decl.nations:
                sym.nations[label.name] = label
            for die in decl.dice:
                sym.dice[die.name] = die
        elif isinstance(decl, n.MapDecl):
            if sym.map is not None:
                diags.append(Diagnostic("error", "a ruleset declares one map", decl.span))
                continue
            sym.map = decl
            for prop in decl.props:
                if prop.name in sym.place_props:
                    dup("place property", prop.name, prop)
                sym.place_props[prop.name] = prop
                for value in prop.type.enum:
                    sym.enum_values[value] = prop.name
            for edge in decl.edges:
                if edge.name in sym.edges:
                    dup("edge kind", edge.name, edge)
                sym.edges[edge.name] = edge
        elif isinstance(decl, n.ViewDecl):
            if sym.view is not None:
                diags.append(Diagnostic("error", "a ruleset declares one view", decl.span))
            sym.view = decl
        elif isinstance(decl, n.PlaceStateDecl):
            if decl.name in sym.place_props:
                dup("place property", decl.name, decl)
            sym.place_props[decl.name] = n.PlaceProp(span=decl.span, name=decl.name, type=decl.type, mutable=True, cite=decl.cite)
            for value in decl.type.enum:
                sym.enum_values[value] = decl.name
        elif isinstance(decl, n.IncludeDecl):
            diags.append(Diagnostic("error", f"'{decl.path}' was not included by the loader", decl.span))
        elif isinstance(decl, n.HookDecl):
            sym.hooks.append(decl)
        elif isinstance(decl, n.InvariantDecl):
            sym.invariants.append(decl)
        elif isinstance(decl, n.SequenceDecl):
            if sym.sequence is not None:
                diags.append(Diagnostic("error", "a ruleset declares one sequence of play", decl.span))
                continue
            sym.sequence = decl
        else:
            # The values of an enumerated game or unit state are names, as a place property's are.
            for value in getattr(getattr(decl, "type", None), "enum", None) or ():
                if isinstance(decl, (n.GameStateDecl, n.UnitStateDecl)):
                    sym.enum_values.setdefault(value, decl.name)
            space = getattr(sym, _NAMESPACE[type(decl)])
            kind = decl.kind.replace("_", " ")
            if decl.name in space:
                first[(kind, decl.name)] = space[decl.name].span.line
                dup(kind, decl.name, decl)
            space[decl.name] = decl
    return sym, diags
