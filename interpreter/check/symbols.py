"""Collecting the declarations of a ruleset into its symbol table (ir/symbols.py).

Collecting names is a pass of its own (like starlark's resolver's first pass) so that
declarations may be used before the point where they are written.
"""

from __future__ import annotations

from ..ir import nodes as n
from ..ir.symbols import Symbols
from ..ir.trust import trusted
from ..ir.visit import dispatch
from ..limits import MAX_CHITS
from ..syntax.diagnostics import Diagnostic

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

    def decl_look(self, decl: n.LookDecl) -> None:
        self.sym.looks.append(decl)  # checked once every name is known (resolve.check_looks)

    def decl_sequence(self, decl: n.SequenceDecl) -> None:
        if self.sym.sequence is not None:
            return self.error("a ruleset declares one sequence of play", decl)
        self.sym.sequence = decl

    # ── place properties: the map's, and the mutable ones declared apart ──
    def decl_place_state(self, decl: n.PlaceStateDecl) -> None:
        with trusted():  # the declaration's own fields (ir/trust.py)
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

    def decl_use(self, decl: n.UseDecl) -> None:
        """The loader put the mechanic's declarations after the `use` (load.py): nothing to collect here."""

    def decl_setting(self, decl: n.SettingDecl) -> None:
        self.error(f"'setting {decl.name}' is written in a library mechanic, not in a game's rules", decl)

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

    def decl_enumeration(self, decl: n.EnumerationDecl) -> None:
        """A named enumeration: its values are names as an enumerated state's are, and it keys per-key states."""
        first = self.sym.enumeration_decls.get(decl.name)
        if first is not None:
            self.duplicate("enumeration", decl.name, decl, first.span)
        self.sym.enumeration_decls[decl.name] = decl
        for value in decl.values:
            self.sym.enum_values.setdefault(value, decl.name)
        self.enumeration(decl.name, decl.values)

    decl_stat = decl_flag = decl_class = decl_type = decl_counter = register_named
    decl_box = decl_track = decl_missing = decl_table = decl_function = decl_procedure = register_named
    decl_unit_state = decl_game_state = register_state

    def decl_record_type(self, decl: n.RecordDecl) -> None:
        for f in decl.fields:
            for value in f.type.enum:
                self.sym.enum_values.setdefault(value, f.name)
            self.enumeration(f.name, f.type.enum)
        self.register_named(decl)
