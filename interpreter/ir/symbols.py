"""The symbol table of a ruleset: every declared name, by namespace.

The checker fills it (check/symbols.py collects the declarations) and the runtime reads it: it lives
below both stages so that neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import nodes as n
from .visit import WALKED, Walked


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
    enumeration_decls: dict[str, n.EnumerationDecl] = field(default_factory=dict)  # declared on their own lines
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
    looks: list[n.LookDecl] = field(default_factory=list)  # how pictures draw sides, places, edges, counters (language 6.3c)
    cups: dict[str, n.CupDecl] = field(default_factory=dict)
    chits: dict[str, str] = field(default_factory=dict)  # chit name -> the first cup that holds it
    overlays: list = field(default_factory=list)  # the overlays applied to the ruleset (interpreter/overlay/apply.py), in order
    @property
    def walked(self) -> Walked:
        """The nodes under each declaration, found once for every question asked of them (visit.WALKED):
        shared by the readings of one ruleset (as written, with its demo data), whose declarations are the same."""
        return WALKED

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
        for node in self.walked.of(self.bodies(), (n.Impulses, n.Repeat)):
            unit = node.unit
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

    def state_keys(self, name: str) -> tuple[str, ...] | None:
        """The keys of a per-key game state (language 6.4a): the sides, the nations or the enumeration's values,
        in declared order; None for a state with one value (or no state of that name)."""
        decl = self.game_states.get(name)
        if decl is None or decl.per is None:
            return None
        if decl.per == "side":
            return tuple(self.sides)
        if decl.per == "nation":
            return tuple(self.nations)
        return self.enumerations.get(decl.per, ())

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
