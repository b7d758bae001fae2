"""The symbol table of a ruleset: every declared name, by namespace.

Collecting names is a pass of its own (like starlark's resolver's first pass) so that
declarations may be used before the point where they are written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir import nodes as n
from ..ir.visit import descendants, dispatch
from ..limits import MAX_CHITS
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
    faces: list[n.FaceDecl] = field(default_factory=list)  # in source order
    game_states: dict[str, n.GameStateDecl] = field(default_factory=dict)
    classes: dict[str, n.ClassDecl] = field(default_factory=dict)
    types: dict[str, n.TypeDecl] = field(default_factory=dict)
    counters: dict[str, n.CounterDecl] = field(default_factory=dict)
    map: n.MapDecl | None = None
    place_props: dict[str, n.PlaceProp] = field(default_factory=dict)
    enum_values: dict[str, str] = field(default_factory=dict)  # value -> property
    # The enumerations by the name that declares them (a place property or state, a game or unit state, a
    # record's field): its values, which `NAME.value` names; and each value's enumerations, in declared order.
    enumerations: dict[str, tuple[str, ...]] = field(default_factory=dict)
    enum_owners: dict[str, list[str]] = field(default_factory=dict)
    edges: dict[str, n.EdgeDecl] = field(default_factory=dict)
    borders: dict[str, n.BorderProp] = field(default_factory=dict)  # facts of the side between two places
    coasts: dict[str, n.CoastDecl] = field(default_factory=dict)  # ordered lists of places
    secondary_maps: dict[str, n.SecondaryMap] = field(default_factory=dict)
    map_points: dict[str, str] = field(default_factory=dict)  # a point of a secondary map -> its map
    # Names of the map's data whose value is the name itself: coasts, secondary maps and their points.
    map_names: dict[str, str] = field(default_factory=dict)
    boxes: dict[str, n.BoxDecl] = field(default_factory=dict)
    tracks: dict[str, n.TrackDecl] = field(default_factory=dict)
    missing: dict[str, n.MissingDecl] = field(default_factory=dict)
    unencoded: list[n.Unencoded] = field(default_factory=list)  # rules declared not (fully) encoded, in source order
    tables: dict[str, n.TableDecl] = field(default_factory=dict)
    functions: dict[str, n.FunctionDecl] = field(default_factory=dict)
    procedures: dict[str, n.ProcedureDecl] = field(default_factory=dict)
    records: dict[str, n.RecordDecl] = field(default_factory=dict)
    hooks: list[n.HookDecl] = field(default_factory=list)
    invariants: list[n.InvariantDecl] = field(default_factory=list)
    sequence: n.SequenceDecl | None = None
    restrictions: dict[str, list[n.Restriction]] = field(default_factory=dict)  # decision name -> its overlays' restrictions
    view: n.ViewDecl | None = None
    hidden: dict[str, n.HiddenDecl] = field(default_factory=dict)  # a class or type -> how a side it is hidden from sees it
    cups: dict[str, n.CupDecl] = field(default_factory=dict)
    chits: dict[str, str] = field(default_factory=dict)  # chit name -> the first cup that holds it
    overlays: list = field(default_factory=list)  # the overlays applied to the ruleset (interpreter/overlay/apply.py), in order

    def value_names(self) -> set[str]:
        """Names an expression may use as a value without declaring them locally."""
        return (
            set(self.sides) | set(self.nations) | set(self.enum_values) | set(self.boxes) | set(self.tracks)
            | set(self.game_states) | set(self.counters) | set(self.edges) | set(self.map_names) | self.results()
            | set(self.cups) | set(self.chits)
        )

    def time_units(self) -> dict[str, str]:
        """The hook events the loops declare (language 10.2): UNIT_start and UNIT_end for each
        time unit a loop names (an 'impulses' loop, a named 'repeat'), with what the hook names."""
        out: dict[str, str] = {}
        for node in descendants(self.bodies()):
            unit = getattr(node, "unit", None) if getattr(node, "kind", None) in ("impulses", "repeat") else None
            if unit:
                subject = "s" if node.kind == "impulses" else "r"
                out.setdefault(f"{unit}_start", subject)
                out.setdefault(f"{unit}_end", subject)
        return out

    def bodies(self) -> list:
        """Every body of statements of the ruleset: procedures, steps, hooks, invariants, table rows."""
        out = [p.body for p in self.procedures.values()] + [h.body for h in self.hooks] + [i.body for i in self.invariants]
        out += [step.body or () for step in self.steps().values()]
        out += [r.effect for t in self.tables.values() for r in (*t.rows, *t.results)]
        return out

    def results(self) -> set[str]:
        """Result names of table rows: a lookup's value can be compared with them."""
        return ({cell for t in self.tables.values() for row in t.rows if row.value is None and not row.cell_values
                 for cell in (row.cells or (row.result,)) if cell != "?"}
                | {r.name for t in self.tables.values() for r in t.results})

    def qualified_forms(self, value: str) -> list[str]:
        """`theatre.west_indies`, `region.west_indies`: how a value of several enumerations is written, or []
        when it belongs to one at most (its bare name is then enough)."""
        owners = self.enum_owners.get(value, [])
        return [f"{owner}.{value}" for owner in owners] if len(owners) > 1 else []

    def enumeration_value(self, e) -> str | None:
        """The value an expression `NAME.value` names when NAME declares an enumeration holding it (unless a
        local of that name hides it: the caller knows its locals)."""
        obj = getattr(e, "obj", None)
        if e.kind == "attr" and obj.kind == "var" and e.name in self.enumerations.get(obj.name, ()):
            return e.name
        return None

    def unit_kinds(self) -> set[str]:
        """Names that ``u is NAME`` may test: classes, types and flags."""
        return set(self.classes) | set(self.types) | set(self.flags)

    def attribute_names(self) -> set[str]:
        from ..lang import PLACE_ATTRS, UNIT_ATTRS

        return set(self.stats) | set(self.flags) | set(self.unit_states) | set(self.place_props) | set(UNIT_ATTRS) | set(PLACE_ATTRS)


    def faced_stats(self) -> set[str]:
        """The stats some face changes: reading one of them asks which face the unit shows (5.6)."""
        return {v.name for f in self.faces for v in f.values if not v.is_flag}

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
    n.RecordDecl: "records",
}


def collect(ruleset: n.Ruleset) -> tuple[Symbols, list[Diagnostic]]:
    """Gather every declaration; report duplicates where they are declared again."""
    collector = Collector()
    for decl in ruleset.decls:
        dispatch(collector, "decl_", decl)
    return collector.sym, collector.diags


class Collector:
    """Registers each declaration in its namespace: one method per kind of declaration, found by
    ``dispatch`` (prefix ``decl_``), so a new kind without a registration is noticed at once."""

    def __init__(self) -> None:
        self.sym = Symbols()
        self.diags: list[Diagnostic] = []
        self.chits = 0  # the chits the cups declare so far, in all (limits.MAX_CHITS)

    def error(self, message: str, decl) -> None:
        self.diags.append(Diagnostic("error", message, decl.span))

    def duplicate(self, kind: str, name: str, decl, first=None) -> None:
        """`first` is the first declaration's span: its line, and its file too when that is
        another file of the ruleset (an `include`d part), so the reader can find it."""
        where = ""
        if first is not None:
            where = f" (first at line {first.line})" if first.file == decl.span.file else f" (first at {first})"
        self.error(f"{kind} '{name}' is declared twice{where}", decl)

    # ── the declarations a ruleset has once ──
    def decl_game(self, decl: n.Game) -> None:
        if self.sym.game is not None:
            return self.error("a ruleset declares one game", decl)
        self.sym.game = decl
        self.sym.sides.update((label.name, label) for label in decl.sides)
        self.sym.nations.update((label.name, label) for label in decl.nations)
        self.sym.dice.update((die.name, die) for die in decl.dice)

    def decl_map(self, decl: n.MapDecl) -> None:
        if self.sym.map is not None:
            return self.error("a ruleset declares one map", decl)
        self.sym.map = decl
        for prop in decl.props:
            self.place_property(prop, prop)
        for edge in decl.edges:
            if edge.name in self.sym.edges:
                self.duplicate("edge kind", edge.name, edge)
            self.sym.edges[edge.name] = edge
        for border in decl.borders:
            if border.name in self.sym.borders:
                self.duplicate("border property", border.name, border)
            self.sym.borders[border.name] = border
            for value in border.type.enum:
                self.sym.enum_values[value] = border.name
        for coast in decl.coasts:
            if coast.name in self.sym.map_names or coast.name in self.sym.edges:
                self.duplicate("coast", coast.name, coast)
            self.sym.coasts[coast.name] = coast
            self.sym.map_names[coast.name] = "coast"

    def decl_secondary_map(self, decl: n.SecondaryMap) -> None:
        sym = self.sym
        if decl.name in sym.map_names:
            self.duplicate(sym.map_names[decl.name], decl.name, decl)
        sym.secondary_maps[decl.name] = decl
        sym.map_names[decl.name] = "secondary map"
        for point in decl.points:
            if point.name in sym.map_names:
                self.duplicate(sym.map_names[point.name], point.name, point)
            sym.map_points[point.name] = decl.name
            sym.map_names[point.name] = f"point of {decl.name}"

    def decl_view(self, decl: n.ViewDecl) -> None:
        if self.sym.view is not None:
            self.error("a ruleset declares one view", decl)  # reported, yet the later view is the one kept
        self.sym.view = decl

    def decl_hidden(self, decl: n.HiddenDecl) -> None:
        first = self.sym.hidden.get(decl.name)
        if first is not None:
            self.duplicate("hidden", decl.name, decl, first.span)
        self.sym.hidden[decl.name] = decl

    def decl_sequence(self, decl: n.SequenceDecl) -> None:
        if self.sym.sequence is not None:
            return self.error("a ruleset declares one sequence of play", decl)
        self.sym.sequence = decl

    # ── place properties: the map's, and the mutable ones declared apart ──
    def decl_place_state(self, decl: n.PlaceStateDecl) -> None:
        prop = n.PlaceProp(span=decl.span, name=decl.name, type=decl.type, mutable=True, known_to=decl.known_to, cite=decl.cite)
        self.place_property(prop, decl)

    def place_property(self, prop: n.PlaceProp, decl) -> None:
        if prop.name in self.sym.place_props:
            self.duplicate("place property", prop.name, decl)
        self.sym.place_props[prop.name] = prop
        for value in prop.type.enum:
            self.sym.enum_values[value] = prop.name
        self.enumeration(prop.name, prop.type.enum)

    def enumeration(self, owner: str, values: tuple[str, ...]) -> None:
        """An enumeration declared by `owner`: its values, qualified by the owner's name (language 15)."""
        if not values:
            return
        known = self.sym.enumerations.get(owner, ())
        self.sym.enumerations[owner] = known + tuple(v for v in values if v not in known)
        for value in values:
            owners = self.sym.enum_owners.setdefault(value, [])
            if owner not in owners:
                owners.append(owner)

    def decl_cup(self, decl: n.CupDecl) -> None:
        """A cup is a name (its contents, read as a list); its chits are names that name themselves."""
        if decl.name in self.sym.cups:
            self.duplicate("cup", decl.name, decl, self.sym.cups[decl.name].span)
        self.sym.cups[decl.name] = decl
        for chit in decl.chits:
            self.sym.chits.setdefault(chit.name, decl.name)
            self.count_chits(chit)

    def count_chits(self, chit: n.ChitCount) -> None:
        """The chits of every cup, counted in all: a draw goes through the chits of its cup, so a
        ruleset declaring millions would make each draw slow and each cup's contents huge."""
        before, self.chits = self.chits, self.chits + chit.count
        if before <= MAX_CHITS < self.chits:  # said once, at the chit that passes the limit
            self.error(f"the cups declare {self.chits:,} chits with these; the cups of a ruleset hold at most "
                       f"{MAX_CHITS:,} in all", chit)

    # ── declarations kept in source order ──
    def decl_hook(self, decl: n.HookDecl) -> None:
        self.sym.hooks.append(decl)

    def decl_invariant(self, decl: n.InvariantDecl) -> None:
        self.sym.invariants.append(decl)

    def decl_face(self, decl: n.FaceDecl) -> None:
        self.sym.faces.append(decl)

    def decl_restriction(self, decl: n.Restriction) -> None:
        self.sym.restrictions.setdefault(decl.decision, []).append(decl)

    def decl_unencoded(self, decl: n.Unencoded) -> None:
        self.sym.unencoded.append(decl)

    def decl_include(self, decl: n.IncludeDecl) -> None:
        self.error(f"'{decl.path}' was not included by the loader", decl)

    # ── named declarations, one namespace per kind ──
    def register_named(self, decl) -> None:
        space = getattr(self.sym, _NAMESPACE[type(decl)])
        kind = decl.kind.replace("_", " ")
        if decl.name in space:
            self.duplicate(kind, decl.name, decl, space[decl.name].span)
        space[decl.name] = decl

    def register_state(self, decl: n.GameStateDecl | n.UnitStateDecl) -> None:
        # The values of an enumerated game or unit state are names, as a place property's are.
        for value in decl.type.enum:
            self.sym.enum_values.setdefault(value, decl.name)
        self.enumeration(decl.name, decl.type.enum)
        self.register_named(decl)

    decl_stat = decl_flag = decl_class = decl_type = decl_counter = register_named
    decl_box = decl_track = decl_missing = decl_table = decl_function = decl_procedure = register_named
    decl_unit_state = decl_game_state = register_state

    def decl_record_type(self, decl: n.RecordDecl) -> None:
        for f in decl.fields:
            for value in f.type.enum:
                self.sym.enum_values.setdefault(value, f.name)
            self.enumeration(f.name, f.type.enum)
        self.register_named(decl)
