"""Name resolution, arity and declaration checks over a whole ruleset.

Walks every declaration, then every procedure, function, table and hook body with a
scope of local names. Problems become diagnostics at the span where they are written,
with a "did you mean" where a declared name is close. The checker never runs a game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from .. import library
from ..grids.geometry import usable_id_format
from ..ir import citations
from ..ir import nodes as n
from ..ir.symbols import Symbols
from ..ir.trust import trusted
from ..ir.visit import descendants, dispatch
from ..lang import (
    BEYOND_POLICIES,
    BUILTINS,
    COLUMN_KINDS,
    EXCESS_POLICIES,
    FUNCTION_ARGUMENTS,
    GRID_SHAPES,
    HEX_COLUMN_SCHEMES,
    HOOK_EVENTS,
    ODDS_ROUNDINGS,
    ROUNDINGS,
    VALUE_TYPES,
)
from ..syntax.diagnostics import Diagnostic, Span, did_you_mean
from .keyed import KeyedStateChecks
from .looks import LookChecks
from .maps import MapChecks
from .records import RecordChecks
from .symbols import collect

_GAME_TIME = ("turn", "game")  # the engine's own time units: their hooks are turn_start, game_start, game_end


class Checker(MapChecks, RecordChecks, KeyedStateChecks, LookChecks):
    """Checks one ruleset; ``extra_values`` adds names such as a scenario's unit ids."""

    def __init__(self, sym: Symbols, extra_values: Iterable[str] = ()):
        self.sym = sym
        self.diags: list[Diagnostic] = []
        self.values = sym.value_names() | set(extra_values)
        self.attributes = sym.attribute_names()  # computed once: every attribute and 'is' test reads them
        self.kinds = sym.unit_kinds()
        self.loops = 0  # how many 'repeat' blocks enclose the statement being checked
        self.in_procedure = False  # whether the statements checked are a procedure's body ('return')
        self.counters: dict[str, Span] = {}  # round counters of the repeats checked so far, for a hint
        self.impulse_loops = 0  # how many 'impulses' loops enclose the statement being checked ('pass')
        self.units: dict[str, str] | None = None  # the hook events of the loops' time units, once computed
        self.drawn: dict[str, str] = {}  # in the body being checked: a local holding one chit -> its cup
        self.filled = _cups_filled(sym)  # the cups some statement puts chits into
        self.typed: dict[str, str] = {}  # a local name -> its record type, where known (check/records.py)

    # ── reporting ──
    def error(self, message: str, span: Span, hint: str | None = None) -> None:
        self.diags.append(Diagnostic("error", message, span, hint))

    def warning(self, message: str, span: Span, hint: str | None = None) -> None:
        self.diags.append(Diagnostic("warning", message, span, hint))

    def unknown(self, what: str, name: str, span: Span, candidates: Iterable[str]) -> None:
        mechanic = library.declaring(name) if what in ("function", "procedure", "variable", "state", "attribute") else None
        hint = (f"'{name}' is a name of the library mechanic '{mechanic}': add 'use {mechanic} [RULE]'" if mechanic
                else did_you_mean(name, candidates))
        self.error(f"unknown {what} '{name}'", span, hint)

    def need_cite(self, node, what: str) -> None:
        if not getattr(node, "cite", None):
            self.error(f"{what} has no rule citation", node.span, "add the rule it encodes, for example [9.1]")

    # ── declarations ──
    def check_declarations(self) -> None:
        """Every kind of declaration in turn (the order of the diagnostics follows this order)."""
        self.check_game()
        self.check_citations()
        self.check_unit_types()
        self.check_counters()
        for face in self.sym.faces:
            self.check_face(face)
        self.check_map()
        self.check_secondary_maps()
        self.check_records()
        for decl in list(self.sym.unit_states.values()) + list(self.sym.game_states.values()):
            self.check_type(decl.type)
        for decl in self.sym.game_states.values():
            self.check_state_keys(decl)
        for track in self.sym.tracks.values():
            self.check_track(track)
        for table in self.sym.tables.values():
            self.check_table(table)
        self.check_view()
        self.check_hidden()
        self.check_looks()
        self.check_known_to()
        self.check_cups()
        self.check_functions()
        self.check_procedures()
        for hook in self.sym.hooks:
            self.check_hook(hook)
        for inv in self.sym.invariants:
            self.need_cite(inv, f"invariant '{inv.name}'")
            self.start_body(())
            self.body(inv.body, set())
        for gap in self.sym.unencoded:
            self.check_unencoded(gap)
        if self.sym.sequence:
            self.check_sequence(self.sym.sequence)
        for restrictions in self.sym.restrictions.values():
            for r in restrictions:
                self.expr(r.where, {r.var})  # the option and the game's names; not the procedure's locals

    def check_game(self) -> None:
        sym = self.sym
        if sym.game is None:
            return
        if not sym.sides:
            self.error("the game declares no sides", sym.game.span)
        if not sym.dice:
            self.error("the game declares no die", sym.game.span)
        for die in sym.dice.values():
            if die.low > die.high:
                self.error(f"die '{die.name}' has faces {die.low}..{die.high}: the low face is above the high one", die.span)
        self.check_outcome(sym.game.outcome)
        self.check_worth(sym.game.worth)
        self.check_turn_names(sym.game)

    def check_turn_names(self, game: n.Game) -> None:
        """`turn names`: one name for each of the game's turns, no name twice."""
        listed = game.turn_names
        if listed is None:
            return
        if game.turns is None:
            self.error(f"the game names {len(listed.names)} turn(s) but does not say how many turns it lasts", listed.span,
                       f"add 'turns {len(listed.names)} [rule]' to the game header")
        elif len(listed.names) != game.turns:
            self.error(f"the game names {len(listed.names)} turn(s), but it lasts {game.turns} (turns {game.turns})",
                       listed.span, "give one name for each turn, in order")
        seen: dict[str, Span] = {}
        for name, span in zip(listed.names, listed.name_spans):
            if name in seen:
                self.error(f"the turn name \"{name}\" is given twice (first at line {seen[name].line}, col {seen[name].col})",
                           span, "each turn's name tells it apart from the others")
            seen.setdefault(name, span)

    def check_outcome(self, ref: n.HeaderRef | None) -> None:
        """`outcome NAME`: a game state, or a fact some rule records under exactly that key."""
        if ref is None:
            return
        recorded = {r.key.value for r in self.sym.walked.of(self.bodies(), n.Record) if "{" not in r.key.value}
        if ref.name not in self.sym.game_states and ref.name not in recorded:
            near = did_you_mean(ref.name, [*self.sym.game_states, *recorded])
            self.error(f"the outcome '{ref.name}' is neither a game state nor a fact a rule records", ref.span,
                       near or "name the game state (or the recorded fact) that says who won")
        for (value, side), span in zip(ref.sides, ref.sides_span):
            if side not in self.sym.sides:
                self.error(f"the outcome value \"{value}\" is said to mean a win of '{side}', which is no side",
                           span, did_you_mean(side, self.sym.sides))

    def check_worth(self, ref: n.HeaderRef | None) -> None:
        """`worth NAME`: a function of one side (what a position is worth to it)."""
        if ref is None:
            return
        fn = self.sym.functions.get(ref.name)
        if fn is None:
            self.unknown("function", ref.name, ref.span, self.sym.functions)
        elif [p.type for p in fn.params] != ["side"]:
            self.error(f"the worth function '{ref.name}' must take one side, as in 'function {ref.name}(s: side)'",
                       ref.span, f"it is declared at {fn.span.file}:{fn.span.line}")

    def bodies(self) -> list:
        sym = self.sym
        return [d for kind in (sym.procedures, sym.functions, sym.tables) for d in kind.values()] + list(sym.hooks)

    def check_citations(self) -> None:
        """The declarations that encode a rule say which one."""
        sym = self.sym
        for kind, space in (("stat", sym.stats), ("flag", sym.flags), ("class", sym.classes), ("type", sym.types),
                            ("counter", sym.counters), ("table", sym.tables), ("procedure", sym.procedures),
                            ("track", sym.tracks), ("box", sym.boxes)):
            for decl in space.values():
                self.need_cite(decl, f"{kind} '{decl.name}'")

    def check_unencoded(self, gap: n.Unencoded) -> None:
        """A declaration of what is not encoded names the rule it leaves out, and says what and why."""
        what = f"'{gap.extent} encoded'"
        if gap.cite is None:
            self.error(f"{what} has no rule citation", gap.span, "name the rule it leaves out, for example [4.10]")
        elif not citations.names(gap.cite.text)[0]:
            self.error(f"{what} [{gap.cite}] names no rule number", gap.cite.span,
                       "name the rulebook's section, for example [4.10; A-05]: coverage reports the section")
        if not gap.reason.strip():
            self.error(f"{what} says nothing of what is left out", gap.span,
                       "write what the ruleset does not do and why, such as \"raids are never offered: their cost is missing\"")

    def check_unit_types(self) -> None:
        for decl in self.sym.types.values():
            if decl.parent not in self.sym.classes:
                self.unknown("unit class", decl.parent, decl.parent_span, self.sym.classes)
            self.check_values(decl.values)

    def check_counters(self) -> None:
        for decl in self.sym.counters.values():
            if decl.type not in self.sym.types:
                self.unknown("unit type", decl.type, decl.type_span, self.sym.types)
            if decl.side not in self.sym.sides:
                self.unknown("side", decl.side, decl.side_span, self.sym.sides)
            self.check_values(decl.values)

    def check_face(self, face: n.FaceDecl) -> None:
        """A face: of a known type or counter, on an enumerated unit state and one of its values; stats only."""
        self.need_cite(face, f"the face of '{face.holder}' when {face.state} is {face.value}")
        if face.holder not in self.sym.types and face.holder not in self.sym.counters:
            self.unknown("unit type or counter", face.holder, face.holder_span, set(self.sym.types) | set(self.sym.counters))
        state = self.sym.unit_states.get(face.state)
        numbered = state is not None and state.type.name == "int"
        if state is None or not (state.type.enum or numbered):
            enums = {name for name, s in self.sym.unit_states.items() if s.type.enum or s.type.name == "int"}
            self.error(f"a face is shown while an enumerated or numbered unit state has a value, and '{face.state}' is not one",
                       face.state_span, did_you_mean(face.state, enums) or "declare one: 'unit state condition: {undamaged, damaged}'")
        elif numbered != isinstance(face.value, int):
            wanted = "a number" if numbered else f"one of its values ({', '.join(state.type.enum)})"
            self.error(f"unit state '{face.state}' is {'a number' if numbered else 'enumerated'}: its face is shown "
                       f"at {wanted}, not '{face.value}'", face.value_span)
        elif not numbered and face.value not in state.type.enum:
            self.error(f"unit state '{face.state}' has no value '{face.value}'", face.value_span,
                       did_you_mean(face.value, state.type.enum) or f"its values are {', '.join(state.type.enum)}")
        self.check_values(face.values)
        for v in face.values:
            if v.is_flag and v.name in self.sym.flags:
                self.error(f"a face changes printed values, not flags: '{v.name}'", v.span)
        twin = next((f for f in self.sym.faces if f is not face and (f.holder, f.state, f.value) == (face.holder, face.state, face.value)), None)
        if twin is not None and twin.span.line < face.span.line:
            self.error(f"the face of '{face.holder}' when {face.state} is {face.value} is declared twice (first at line {twin.span.line})",
                       face.span)

    def check_map(self) -> None:
        if not self.sym.map:
            return
        if self.sym.map.grid:
            self.check_grid(self.sym.map.grid)
        for prop in self.sym.map.props:
            self.check_type(prop.type)
        self.check_square_map(self.sym.map)

    def check_grid(self, grid: n.Grid) -> None:
        if grid.shape not in GRID_SHAPES:
            self.unknown("grid shape", grid.shape, grid.span, GRID_SHAPES)
        if grid.columns and grid.columns not in HEX_COLUMN_SCHEMES:
            self.unknown("hex column scheme", grid.columns, grid.span, HEX_COLUMN_SCHEMES)
        if grid.columns and grid.id_format is not None and not usable_id_format(grid.id_format):
            self.error(f"the hex id format \"{grid.id_format}\" cannot be read for computed adjacency", grid.span,
                       "write a C for each digit of the column and an R for each digit of the row, as \"CCRR\"")

    def check_track(self, track: n.TrackDecl) -> None:
        if track.excess and track.excess not in EXCESS_POLICIES:
            self.unknown("overflow policy", track.excess, track.span, EXCESS_POLICIES)
        keys, what = (self.sym.nations, "nation") if track.per_nation else (self.sym.sides, "side")
        for start in track.start:
            side, value = start.side, start.value
            if track.keyed and side is None:
                self.error(f"track '{track.name}' is per {what}: give a start value for each {what}, as in 'start a 5, b 3'", track.span)
            elif not track.keyed and side is not None:
                self.error(f"track '{track.name}' is not per side: its start is one number, as in 'start 5'", track.span)
            elif side is not None and side not in keys:
                self.unknown(what, side, track.span, keys)
            if not track.low <= value <= track.high:
                self.error(f"track '{track.name}' runs {track.low}..{track.high}; it cannot start at {value}", track.span)

    def check_known_to(self) -> None:
        """A state known to one side names a side of the game."""
        props = self.sym.place_props.values()
        for decl in [*self.sym.game_states.values(), *props]:
            known = getattr(decl, "known_to", None)
            if known is not None and known.side not in self.sym.sides:
                self.unknown("side", known.side, known.span, self.sym.sides)

    def check_view(self) -> None:
        view = self.sym.view
        if view is None:
            return
        fn = self.sym.functions.get(view.function)
        if fn is None:
            self.unknown("function", view.function, view.span, self.sym.functions)
        elif [p.type for p in fn.params] != ["unit", "side"]:
            self.error(f"the view function '{fn.name}' must take (u: unit, s: side)", view.span)

    def check_hidden(self) -> None:
        """`hidden KIND seen as TEXT` names a class or a type, and shows something only where a view hides."""
        kinds = set(self.sym.classes) | set(self.sym.types)
        for decl in self.sym.hidden.values():
            self.need_cite(decl, f"'hidden {decl.name} seen as'")
            if decl.name not in kinds:
                self.unknown("class or type", decl.name, decl.name_span, kinds)
            elif self.sym.view is None:
                self.warning(f"'hidden {decl.name} seen as' shows nothing: without a 'view' every side sees every unit",
                             decl.span, "declare what a side sees with 'view FUNCTION' (language 6.3b)")

    def check_functions(self) -> None:
        for fn in self.sym.functions.values():
            self.check_params(fn.params)
            if self.waits_for_data(fn, f"function '{fn.name}'", "calling it stops the run"):
                continue
            self.start_body(fn.params)
            self.expr(fn.body, {p.name for p in fn.params})
            if fn.returns is not None:
                self.setting_kind(fn)

    def setting_kind(self, fn: n.FunctionDecl) -> None:
        """A library setting's body gives the kind of value the mechanic reads (language 9.0a), as far as its form shows."""
        given = self.static_type(fn.body, {p.name for p in fn.params})
        if given is not None and fn.returns in _TYPED and given != fn.returns:
            self.error(f"the setting '{fn.name}' gives {_a(fn.returns)}, but this is {_a(given)}", fn.body.span,
                       f"give '{fn.name}' {_a(fn.returns)} (docs/library/ says what each setting means)")

    def check_procedures(self) -> None:
        for proc in self.sym.procedures.values():
            self.check_params(proc.params)
            if not self.waits_for_data(proc, f"procedure '{proc.name}'", "calling it stops the run"):
                self.start_body(proc.params)
                self.in_procedure = True
                self.body(proc.body, {p.name for p in proc.params})
                self.in_procedure = False

    def check_hook(self, hook: n.HookDecl) -> None:
        self.need_cite(hook, f"the '{hook.event}' hook")
        if self.units is None:
            self.units = self.sym.time_units()
        units = self.units
        if hook.event in units:  # a loop's time unit: the hook may name the seat or round, or not
            self.block(hook.body, {hook.var} - {None})
            return
        if hook.event not in HOOK_EVENTS:
            events = ", ".join([f"{e}({'u' if subject else ''})" for e, subject in HOOK_EVENTS.items()]
                               + [f"{e}({units[e]})" for e in units])
            hint = did_you_mean(hook.event, [*HOOK_EVENTS, *units]) or f"the events are {events}"
            self.error(f"unknown event '{hook.event}'", hook.span, hint)
        elif (HOOK_EVENTS[hook.event] is None) != (hook.var is None):
            subject = HOOK_EVENTS[hook.event]
            self.error(
                f"the '{hook.event}' event " + (f"names the {subject} it is about" if subject else "names nothing"),
                hook.span,
                f"write 'on {hook.event}(" + ("u" if subject else "") + ")'",
            )
        self.start_body(())
        self.body(hook.body, {hook.var} - {None})

    def check_sequence(self, sequence: n.SequenceDecl) -> None:
        seen_phases: set[str] = set()
        for phase in sequence.phases:
            if phase.name in seen_phases:
                self.error(f"phase '{phase.name}' is declared twice", phase.span)
            seen_phases.add(phase.name)
            self.check_phase(phase)

    def check_phase(self, phase: n.PhaseDecl) -> None:
        seen_steps: set[str] = set()
        for step in phase.steps:
            if step.name in seen_steps:
                self.error(f"phase '{phase.name}' has two steps named '{step.name}'", step.span)
            seen_steps.add(step.name)
        self.need_cite(phase, f"phase '{phase.name}'")
        if phase.active and phase.active not in self.sym.sides:
            self.unknown("side", phase.active, phase.span, self.sym.sides)
        for step in phase.steps:
            self.need_cite(step, f"step '{step.name}'")
            if step.pending:
                self.warning(f"step '{step.name}' [{step.cite}] is declared but not encoded yet", step.span)
            if not self.waits_for_data(step, f"step '{step.name}'", "it is skipped"):
                self.start_body(())
                self.body(step.body, set())

    def waits_for_data(self, decl: n.StepDecl | n.ProcedureDecl, what: str, meanwhile: str) -> bool:
        """True (with a warning) when decl needs missing tables: its body is not checked until supplied."""
        unmet = self.unmet_needs(decl, what)
        if unmet:
            self.warning(f"{what} [{decl.cite}] needs the missing table(s) {', '.join(unmet)}: "
                         f"{meanwhile} until a data file supplies them", decl.span)
        return bool(unmet)

    def unmet_needs(self, decl: n.StepDecl | n.ProcedureDecl, what: str) -> list[str]:
        """Needed tables that are not supplied; a name that is neither a table nor missing is an error."""
        unmet = []
        for name in decl.needs:
            if name in self.sym.tables:
                continue
            missing = self.sym.missing.get(name)
            if missing is None or missing.what != "table":
                self.error(f"{what} needs '{name}', which is neither a table nor a missing table", decl.span,
                           did_you_mean(name, set(self.sym.tables) | set(self.sym.missing)))
            unmet.append(name)
        return unmet

    def check_values(self, values: tuple[n.StatValue, ...]) -> None:
        for v in values:
            if v.is_flag:
                if v.name not in self.sym.flags:
                    hint = "a stat needs a value, as in 'gun: 4'" if v.name in self.sym.stats else did_you_mean(v.name, self.sym.flags)
                    self.error(f"unknown flag '{v.name}'", v.span, hint)
            elif v.name not in self.sym.stats:
                self.unknown("stat", v.name, v.span, self.sym.stats)
            elif isinstance(v.value, str) and v.value not in ("X", "?"):
                self.error(f"stat '{v.name}' takes a number, 'X' or '?', not '{v.value}'", v.span)

    def check_type(self, t: n.TypeName) -> None:
        if t.name and t.name not in VALUE_TYPES and t.name not in self.sym.secondary_maps:
            self.unknown("type", t.name, t.span, [*VALUE_TYPES, *self.sym.secondary_maps])

    def check_params(self, params: tuple[n.Param, ...]) -> None:
        seen: set[str] = set()
        types = self.type_names()
        for p in params:
            if p.type not in types:
                self.unknown("type", p.type, p.span, types)
            if p.name in seen:
                self.error(f"parameter '{p.name}' is declared twice", p.span)
            seen.add(p.name)

    def check_table(self, table: n.TableDecl) -> None:
        self.check_params(table.params)
        self.start_body(table.params)
        if not table.rows:
            self.error(f"table '{table.name}' has no rows", table.span, "add rows such as '1..3 -> result \"Label\" [rule]'")
        scope = {p.name for p in table.params}
        if table.read_at is not None:
            for key in (table.read_at, *table.read_also):
                self.check_read_at(table, key, scope)
        elif table.die not in self.sym.dice:
            self.unknown("die", table.die, table.die_span, self.sym.dice)
        if table.count_param is not None:
            self.check_count_param(table, scope)
        for mod in table.modifiers:
            self.need_cite(mod, f"modifier '{mod.name}' of table '{table.name}'")
            self.expr(mod.value, scope)
            if mod.when is not None:
                self.expr(mod.when, scope)
        self.check_rows(table, scope)
        self.check_numbers(table)
        self.check_beyond(table)
        self.check_columns(table, scope)
        self.check_results(table, scope)

    def check_count_param(self, table: n.TableDecl, scope: set[str]) -> None:
        """'roll N dice' with N a parameter: the table has it, and it is a number."""
        param = next((p for p in table.params if p.name == table.count_param), None)
        if param is None:
            self.error(f"table '{table.name}' rolls '{table.count_param}' dice, but it has no such parameter", table.die_span,
                       did_you_mean(table.count_param, scope) or "write a number of dice, or a parameter of the table: 'roll dice d6'")
        elif param.type != "int":
            self.error(f"table '{table.name}' rolls '{table.count_param}' dice, a parameter of type {param.type}, not int", param.span)

    def check_read_at(self, table: n.TableDecl, key: str, scope: set[str]) -> None:
        """'read at points' (or one key of 'read at a, b'): the table has the parameter, and it is a number."""
        param = next((p for p in table.params if p.name == key), None)
        if param is None:
            self.error(f"table '{table.name}' is read at '{key}', but it has no such parameter", table.die_span,
                       did_you_mean(key, scope) or f"declare it: 'table {table.name}({key}: int)'")
        elif param.type != "int":
            self.error(f"table '{table.name}' is read at '{key}', a parameter of type {param.type}, not int", param.span)

    def check_rows(self, table: n.TableDecl, scope: set[str]) -> None:
        """Each row cited, not empty, overlapping no row before it; then the rolls no row covers."""
        seen: list[n.Row] = []
        for row in table.rows:
            self.need_cite(row, f"row {_row_name(row)} of table '{table.name}'")
            if any(lo > hi for lo, hi in row.keys()):
                self.error(f"row {_row_name(row)} is empty: its low end is above its high end", row.span)
            if len(row.more) != len(table.read_also):
                self.wrong_keys(table, row)
                continue
            other = next((r for r in seen if _meet(r, row)), None)
            if other is not None:
                self.overlap(table, row, other)
            seen.append(row)
            self.body(row.effect, set(scope))
        die = self.sym.dice.get(table.die)
        if table.read_also and seen:  # two keys: no gap inside the rectangle the rows span
            holes = _uncovered_pairs(seen)
            if holes:
                keys = ", ".join((table.read_at, *table.read_also))
                self.error(f"table '{table.name}' has no row for ({keys}) = {holes}", table.span,
                           "add rows for them, widen a row to cover them, or write them '-> ?' if the rulebook does not print them")
        elif table.read_at is not None and seen:  # read at a value: no gap between its first row and its last
            gaps = _uncovered(seen, min(r.first for r in seen), max(r.last for r in seen))
            if gaps:
                self.error(f"table '{table.name}' has no row for the value(s) {_ranges(gaps)}", table.span,
                           "add rows for them, or widen a row to cover them")
        elif die and seen:
            gaps = _uncovered(seen, table.count * die.low, table.count * die.high)
            if gaps:
                self.error(f"table '{table.name}' has no row for the roll(s) {_ranges(gaps)}", table.span)

    def wrong_keys(self, table: n.TableDecl, row: n.Row) -> None:
        keys = (table.read_at, *table.read_also) if table.read_at is not None else ("the roll",)
        self.error(f"row {_row_name(row)} of table '{table.name}' gives {1 + len(row.more)} key(s), but the table is read at "
                   f"{len(keys)}: {', '.join(keys)}", row.span,
                   f"give one range for each, separated by commas: '{', '.join('1..2' for _ in keys)} -> …'")

    def check_numbers(self, table: n.TableDecl) -> None:
        """Rows that give numbers (8.5), in every cell of a column table too: all of the table's cells or none
        ('?', a result not printed, is either)."""
        kinds = [(r, k) for r in table.rows for k in [_gives(r)] if k is not None]
        if not kinds:
            return
        first, kind = kinds[0]
        odd = next((r for r, k in kinds if k != kind), None)
        if odd is None:
            return
        number = next((v for v in (odd.value, *odd.cell_values) if v is not None), None)
        name = next((c for c, v in zip(odd.cells, odd.cell_values or (None,) * len(odd.cells)) if v is None and c != "?"), None)
        what = f"names the result '{name}'" if kind == "number" else f"gives the number {number}"
        self.error(f"row {_row_name(odd)} of table '{table.name}' {what}, but row {_row_name(first)} "
                   f"{'gives a number' if kind == 'number' else 'names a result'}: a table gives numbers or names, not both",
                   odd.span, "write every row's result as a number, or every one as a name")

    def overlap(self, table: n.TableDecl, row: n.Row, other: n.Row) -> None:
        """Two rows cover the same roll. When an overlay wrote one of them, the error is at the row it
        wrote (not the table's own file) and a note says where the other one is."""
        if row.span.file == other.span.file:
            self.error(f"row {_row_name(row)} overlaps row {_row_name(other)} at line {other.span.line}", row.span, _open_hint(row, other))
            return
        here, there = (other, row) if row.span.file == table.span.file else (row, other)
        at = f"{there.span.file}:{there.span.line}:{there.span.col}"
        self.diags.append(Diagnostic(
            "error", f"row {_row_name(here)} overlaps row {_row_name(there)} of table '{table.name}'", here.span,
            f"change this row's range, or amend row {_row_name(there)} too", [f"row {_row_name(there)} is at {at}"]))

    def check_beyond(self, table: n.TableDecl) -> None:
        """What a modified roll beyond the rows means: a known policy, and one is required once there are modifiers."""
        if table.beyond is not None and table.beyond not in BEYOND_POLICIES:
            self.unknown("out-of-range policy", table.beyond, table.beyond_span or table.span, BEYOND_POLICIES)
        # Rows open at both ends ('..4', '16..') leave nothing beyond them: no policy is needed.
        open_ended = table.rows and min(r.first for r in table.rows) == -math.inf and max(r.last for r in table.rows) == math.inf
        if table.modifiers and table.beyond is None and not open_ended:
            self.error(
                f"table '{table.name}' has modifiers but no out-of-range policy",
                table.span,
                "add 'beyond: clamp', 'beyond: no_effect' or 'beyond: unresolved' with the rule or ruling",
            )

    def check_columns(self, table: n.TableDecl, scope: set[str]) -> None:
        """A column table (8.3): its columns, shifts, out-of-table policy and one cell per column in every row."""
        cols = table.columns
        if cols is None:
            for shift in table.shifts:
                self.error(f"shift '{shift.name}' of table '{table.name}' moves a column, but the table has no columns", shift.span,
                           "declare them, for example 'columns odds(attack, defence) [6.1]: 1:2, 1:1, 2:1'")
            for end in _COLUMN_ENDS:
                if getattr(table, f"columns_{end}") is not None:
                    self.error(f"table '{table.name}' says what lies {end} its columns, but it has no columns",
                               getattr(table, f"columns_{end}_span"))
            for row in table.rows:
                if len(row.cells) > 1:
                    self.error(f"row {_row_name(row)} of table '{table.name}' names {len(row.cells)} results, but the table has no columns",
                               row.span, "a row names one result unless the table declares 'columns'")
            return
        self.need_cite(cols, f"the columns of table '{table.name}'")
        if cols.by not in COLUMN_KINDS:
            self.error(f"unknown kind of columns '{cols.by}'", cols.by_span,
                       did_you_mean(cols.by, COLUMN_KINDS) or "columns are found by odds(a, b), difference(a, b) or value(x)")
            return
        arity = COLUMN_KINDS[cols.by][0]
        if len(cols.args) != arity:
            self.error(f"columns {cols.by}(…) read {arity} value(s), not {len(cols.args)}", cols.span)
        for arg in cols.args:
            self.expr(arg, scope)
        self.check_headers(table, cols)
        for shift in table.shifts:
            self.need_cite(shift, f"shift '{shift.name}' of table '{table.name}'")
            self.expr(shift.value, scope)
            if shift.when is not None:
                self.expr(shift.when, scope)
        self.check_rounding(table, cols)
        self.check_column_ends(table, cols)
        for row in table.rows:
            cells = 1 if row.value is not None else len(row.cells)
            if cells != len(cols.headers):
                self.error(f"row {_row_name(row)} of table '{table.name}' has {cells} cell(s) for {len(cols.headers)} columns", row.span)
            elif len(row.cells) > 1 and (row.label is not None or row.effect):
                self.error(f"row {_row_name(row)} of table '{table.name}' has several cells, so it cannot carry a label or an effect",
                           row.span, "declare each result once with 'result NAME \"label\" [rule] { … }'")

    def check_rounding(self, table: n.TableDecl, cols: n.Columns) -> None:
        """'rounded down|up|nearest': only odds fall between columns, and only those three ways."""
        if cols.rounding_span is None:
            return
        if cols.by != "odds":
            self.error(f"the columns of table '{table.name}' are found by {cols.by}, which falls in a column, so it is not rounded",
                       cols.rounding_span, "only odds columns say how they round: 'columns odds(attack, defence) rounded up'")
        elif cols.rounding not in ODDS_ROUNDINGS:
            self.unknown("rounding of odds", cols.rounding, cols.rounding_span, ODDS_ROUNDINGS)

    def check_column_ends(self, table: n.TableDecl, cols: n.Columns) -> None:
        """What lies below the first column and above the last: 'beyond columns' for both ends, or
        'below columns' and 'above columns' each on its own line, never both ways."""
        apart = [end for end in ("below", "above") if getattr(table, f"columns_{end}") is not None]
        if table.columns_beyond is not None:
            for end in apart:
                self.error(f"table '{table.name}' says what lies {end} its columns, but 'beyond columns' at line "
                           f"{table.columns_beyond_span.line} already says it for both ends", getattr(table, f"columns_{end}_span"),
                           "keep 'beyond columns' for both ends, or write 'below columns' and 'above columns' in its place")
        elif not apart:
            self.error(f"table '{table.name}' has columns but does not say what a value beyond them means", cols.span,
                       "add 'beyond columns: clamp', 'beyond columns: no_effect' or 'beyond columns: unresolved' with the rule or ruling")
        elif len(apart) == 1:
            other = "above" if apart == ["below"] else "below"
            self.error(f"table '{table.name}' says what lies {apart[0]} its columns, but not what lies {other} them",
                       getattr(table, f"columns_{apart[0]}_span"),
                       f"add '{other} columns: clamp' (or no_effect, unresolved, or a result of the table) with the rule or ruling")
        for end in _COLUMN_ENDS:
            if getattr(table, f"columns_{end}") is not None:
                self.check_column_end(table, end)

    def check_column_end(self, table: n.TableDecl, end: str) -> None:
        """A policy beyond the columns, or a result the table gives there with no roll: one it declares
        (or, when it declares none, one its cells name), and never in a table that gives numbers."""
        name, span = getattr(table, f"columns_{end}"), getattr(table, f"columns_{end}_span")
        if name in BEYOND_POLICIES:
            return
        if any(_gives(r) == "number" for r in table.rows):
            self.error(f"'{end} columns' of table '{table.name}' names the result '{name}', but the table gives numbers",
                       span, "write 'clamp', 'no_effect' or 'unresolved': a table gives numbers or names, not both")
            return
        results = _result_names(table)
        declared = next((r for r in table.results if r.name == name), None)
        if declared is not None and declared.params:
            self.error(f"'{end} columns' of table '{table.name}' names the result '{name}', which takes arguments no cell gives it there",
                       span, "declare a result without parameters for what lies beyond the columns")
            return
        if name in results:
            return
        if table.results:
            self.error(f"'{end} columns' of table '{table.name}' names the result '{name}', which the table does not declare",
                       span, did_you_mean(name, [*BEYOND_POLICIES, *results]) or
                       "name a declared result, or write 'clamp', 'no_effect' or 'unresolved'")
        else:
            self.unknown("out-of-range policy", name, span, [*BEYOND_POLICIES, *results])

    def check_headers(self, table: n.TableDecl, cols: n.Columns) -> None:
        """Odds columns are ratios, the others ranges; either way they ascend without overlapping."""
        ratio = cols.by == "odds"
        previous = None
        for h in cols.headers:
            if (h.ratio is not None) != ratio:
                want = "a ratio such as 3:2" if ratio else "a number or a range such as 1..5"
                self.error(f"column {h.label} of table '{table.name}' should be {want} for columns {cols.by}(…)", h.span)
                return
            if h.ratio is not None and h.ratio[1] <= 0:
                self.error(f"column {h.label} of table '{table.name}' divides by {h.ratio[1]}", h.span)
                return
            if h.ratio is not None and h.ratio[0] <= 0:
                self.error(f"column {h.label} of table '{table.name}' gives the attacker nothing: no odds fall in it",
                           h.span, "an odds column's two numbers are 1 or more, as printed: 1-3, 1-2, 1-1")
                return
            if h.low is not None and h.high is not None and h.low > h.high:
                self.error(f"column {h.label} of table '{table.name}' is empty: its low end is above its high end", h.span)
                return
            if previous is not None and not _ascends(previous, h):
                self.error(f"column {h.label} of table '{table.name}' does not come after column {previous.label}",
                           h.span, "columns are written from left to right, lowest first, without overlapping")
                return
            previous = h

    def check_results(self, table: n.TableDecl, scope: set[str]) -> None:
        """Declared results: cited, once each, and every cell names one of them when any is declared."""
        declared: dict[str, n.TableResult] = {}
        for r in table.results:
            self.need_cite(r, f"result '{r.name}' of table '{table.name}'")
            if r.name in declared:
                self.error(f"result '{r.name}' of table '{table.name}' is declared twice", r.span)
            declared[r.name] = r
            self.check_params(r.params)
            self.body(r.effect, set(scope) | {p.name for p in r.params})
        used: set[str] = set()
        for row in table.rows:
            values = row.cell_values or (None,) * len(row.cells)
            given = row.cell_args or (None,) * len(row.cells)
            for cell, span, value, args in zip(row.cells, row.cell_spans or (row.span,) * len(row.cells), values, given):
                if cell == "?" or value is not None:  # not printed, or a number: no result to declare
                    continue
                if args is not None:
                    for a in args:
                        self.expr(a.value, scope)
                if not declared and args is not None:
                    self.error(f"row {_row_name(row)} of table '{table.name}' names the result '{cell}' with arguments, "
                               "but the table declares no results", span,
                               f"declare it once with its parameters: 'result {cell}(…) \"label\" [rule] {{ … }}'")
                elif declared and cell not in declared and cell not in used and not _own_result(table, row, args):
                    self.error(f"row {_row_name(row)} of table '{table.name}' names the result '{cell}', which the table does not declare",
                               span, did_you_mean(cell, declared))
                elif cell in declared:
                    self.check_result_args(table, row, declared[cell], args, span, scope)
                used.add(cell)
        if not declared:
            return
        used |= {getattr(table, f"columns_{end}") for end in _COLUMN_ENDS}  # a result read with no roll beyond the columns
        for name, r in declared.items():
            if name not in used:
                self.warning(f"result '{name}' of table '{table.name}' is in no row", r.span)

    def check_result_args(self, table: n.TableDecl, row: n.Row, result: n.TableResult, args: tuple[n.Arg, ...] | None,
                          span: Span, scope: set[str]) -> None:
        """A cell naming a declared result gives it one argument per parameter (8.3a), each of the declared type
        where its form shows the type; a result without parameters is named without parentheses."""
        what = f"result '{result.name}' of table '{table.name}'"
        shown = ", ".join(f"{p.name}: {p.type}" for p in result.params)
        if args is None:
            if result.params:
                self.error(f"row {_row_name(row)} of table '{table.name}' names the result '{result.name}' without its arguments",
                           span, f"{what} takes ({shown}): write '{result.name}(…)' with a value for each")
            return
        if not result.params:
            self.error(f"{what} takes no arguments, but row {_row_name(row)} gives it {len(args)}", span,
                       f"write '{result.name}' without parentheses, or declare its parameters: 'result {result.name}(…)'")
            return
        self.check_args(args, [p.name for p in result.params], what, span, f"its parameters: {shown}")
        positional = [a for a in args if a.name is None]
        for i, p in enumerate(result.params):
            arg = next((a for a in args if a.name == p.name), None) or (positional[i] if i < len(positional) else None)
            given = self.static_type(arg.value, scope) if arg is not None else None
            if given is not None and p.type in _TYPED and given != p.type:
                self.error(f"{what} takes '{p.name}', {_a(p.type)}, but this argument is {_a(given)}", arg.span,
                           f"pass {_a(p.type)} for '{p.name}' (its parameters: {shown})")

    def check_cups(self) -> None:
        for cup in self.sym.cups.values():
            self.need_cite(cup, f"cup '{cup.name}'")
            seen: set[str] = set()
            for chit in cup.chits:
                if chit.name in seen:
                    self.error(f"chit '{chit.name}' is named twice in cup '{cup.name}'", chit.span,
                               f"give its count once, as in '{chit.name} x2'")
                seen.add(chit.name)
                self.check_chit_name(cup, chit)
            if not cup.chits:
                self.error(f"cup '{cup.name}' declares no chits", cup.span,
                           "name the chits it can hold, with 'x0' for those put in only later: 'chits a x0, b x0'")

    def check_chit_name(self, cup: n.CupDecl, chit) -> None:
        """A chit reads as its own name, so it must not share one with a game-wide name, which a rule
        naming it would read instead (`chit == wind` comparing with the track 'wind')."""
        sym = self.sym
        for what, space in (("track", sym.tracks), ("game state", sym.game_states), ("box", sym.boxes),
                            ("cup", sym.cups), ("function", sym.functions), ("table", sym.tables)):
            if chit.name in space:
                self.error(f"chit '{chit.name}' of cup '{cup.name}' has the name of the {what} '{chit.name}': "
                           f"a rule naming it would read the {what}", chit.span,
                           f"rename the chit (as '{chit.name}_chit') or the {what}")
                return

    # ── statements ──
    def body(self, stmts: tuple, scope: set[str]) -> None:
        """A whole body (of a procedure, step, hook, row or invariant): its locals start afresh."""
        self.drawn = {}
        self.block(stmts, scope)

    def block(self, stmts: tuple, scope: set[str]) -> None:
        for s in stmts:
            self.stmt(s, scope)

    def stmt(self, s, scope: set[str]) -> None:
        dispatch(self, "stmt_", s, scope)

    def stmt_let(self, s: n.Let, scope: set[str]) -> None:
        self.expr(s.value, scope)
        self.drawn.pop(s.name, None)  # no longer a drawn chit
        self.bind(s.name, s.value, scope)
        scope.add(s.name)

    def stmt_set(self, s: n.SetStmt, scope: set[str]) -> None:
        self.expr(s.value, scope)
        self.assignable(s.target, scope, s.value)
        if isinstance(s.target, n.Var):
            self.drawn.pop(s.target.name, None)

    def stmt_adjust(self, s: n.Adjust, scope: set[str]) -> None:
        self.expr(s.by, scope)
        self.expr(s.target, scope)
        self.check_adjust_target(s.target, scope)

    def stmt_if(self, s: n.If, scope: set[str]) -> None:
        self.expr(s.test, scope)
        then, orelse = set(scope), set(scope)
        self.block(s.body, then)
        self.block(s.orelse, orelse)
        scope |= then & orelse  # a name bound on one branch only is not bound afterwards

    def stmt_for(self, s: n.ForEach, scope: set[str]) -> None:
        self.expr(s.iterable, scope)
        self.drawn.pop(s.var, None)
        self.bind(s.var, None, scope)
        self.block(s.body, scope | {s.var})

    def stmt_repeat(self, s: n.Repeat, scope: set[str]) -> None:
        if s.limit is not None:
            self.expr(s.limit, scope)
        if s.unit is not None:
            self.time_unit_name(s.unit, s.span)
        self.loops += 1
        # The round counter is known inside the loop only, as a 'for each' variable is.
        self.block(s.body, scope if s.var is None else scope | {s.var})
        self.loops -= 1
        if s.var is not None:
            self.counters[s.var] = s.span

    def stmt_repeat_times(self, s: n.RepeatTimes, scope: set[str]) -> None:
        self.expr(s.count, scope)
        self.block(s.body, scope)

    def stmt_impulses(self, s: n.Impulses, scope: set[str]) -> None:
        self.expr(s.order, scope)
        if s.limit is not None:
            self.expr(s.limit, scope)
        self.time_unit_name(s.unit, s.span)
        self.loops += 1
        self.impulse_loops += 1
        self.block(s.body, scope | {s.var})
        self.impulse_loops -= 1
        self.loops -= 1

    def stmt_pass(self, s: n.Pass, scope: set[str]) -> None:
        if not self.impulse_loops:
            self.error("'pass' ends a seat's impulse; it stands outside any 'impulses' loop", s.span,
                       "to end a 'repeat', write 'stop'; to leave a procedure, 'return'")

    def time_unit_name(self, unit: str, span: Span) -> None:
        if unit in _GAME_TIME:
            self.error(f"'{unit}' is the game's own time unit; name the loop's unit otherwise", span,
                       f"its hooks would be the game's 'on {unit}_start()'")

    def stmt_stop(self, s: n.Stop, scope: set[str]) -> None:
        if not self.loops:
            self.error("'stop' ends a 'repeat'; it stands outside any", s.span)
        if s.when is not None:
            self.expr(s.when, scope)
        if s.why is not None:
            self.string(s.why, scope)

    def stmt_return(self, s: n.Return, scope: set[str]) -> None:
        if not self.in_procedure:
            self.error("'return' ends a procedure; it stands outside any", s.span,
                       "only a procedure's body may return; a step, hook, invariant or table row ends at its last statement")
        if s.value is not None:
            self.expr(s.value, scope)

    def stmt_end_game(self, s: n.EndGame, scope: set[str]) -> None:
        self.string(s.why, scope)

    def stmt_roll(self, s: n.Roll, scope: set[str]) -> None:
        self.expr(s.count, scope)
        if s.die not in self.sym.dice:
            self.unknown("die", s.die, s.die_span, self.sym.dice)
        self.define_target(s.target, scope)

    def stmt_choose(self, s: n.Choose, scope: set[str]) -> None:
        self.expr(s.chooser, scope)
        self.expr(s.options, scope)
        for e in (s.amount, s.limit):
            if e is not None:
                self.expr(e, scope)
        if s.prompt is not None:
            self.string(s.prompt, scope)
        if s.showing is not None:
            self.expr(s.showing, scope | {s.name})  # the decision's name stands for each option in turn
        self.drawn.pop(s.name, None)
        scope.add(s.name)

    def stmt_draw(self, s: n.Draw, scope: set[str]) -> None:
        if s.count is not None:
            self.expr(s.count, scope)
        if s.known_by is not None:
            self.expr(s.known_by.who, scope)
        cup = self.cup(s.cup, s.cup_span)
        self.drawn.pop(s.name, None)
        if cup is not None and s.count is None:
            self.drawn[s.name] = cup.name
        if cup is not None and not any(c.count for c in cup.chits) and cup.name not in self.filled:
            self.warning(f"cup '{cup.name}' starts empty and no 'put' or 'refill' fills it, so this draw gives nothing",
                         s.cup_span, "give the cup's chits their counts ('a x2'), or put chits into it first")
        scope.add(s.name)

    def stmt_pick(self, s: n.Pick, scope: set[str]) -> None:
        if s.count is not None:
            self.expr(s.count, scope)
        self.expr(s.options, scope)
        if s.known_by is not None:
            self.expr(s.known_by.who, scope)
        self.drawn.pop(s.name, None)
        scope.add(s.name)

    def stmt_put(self, s: n.Put, scope: set[str]) -> None:
        self.expr(s.chits, scope)
        self.chits_of(self.cup(s.cup, s.cup_span), s.chits, scope)
        if isinstance(s, n.Put) and s.known_by is not None:  # a put face down
            self.expr(s.known_by.who, scope)

    stmt_remove = stmt_put

    def stmt_refill(self, s: n.Refill, scope: set[str]) -> None:
        self.cup(s.cup, s.cup_span)

    def cup(self, name: str, span: Span) -> n.CupDecl | None:
        found = self.sym.cups.get(name)
        if found is None:
            self.unknown("cup", name, span, self.sym.cups)
        return found

    def chits_of(self, cup: n.CupDecl | None, e, scope: set[str], drawn: str | None = None) -> None:
        """The chit names written in a 'put', a 'remove' or a comparison with a drawn chit are the cup's."""
        if cup is None:
            return
        items = e.items if isinstance(e, n.ListLit) else (e,)
        names = list(dict.fromkeys(c.name for c in cup.chits))
        for item in items:
            if isinstance(item, n.Var) and item.name not in scope:
                written = item.name
            elif isinstance(item, n.StrLit) and not any(p.expr is not None for p in item.parts):
                written = item.value
            else:
                continue
            if written not in names:
                why = f", from which '{drawn}' is drawn" if drawn else ""
                self.error(f"'{written}' is not a chit of cup '{cup.name}'{why}", item.span,
                           did_you_mean(written, names) or f"its chits are {', '.join(names)}")

    def stmt_lookup(self, s: n.Lookup, scope: set[str]) -> None:
        table = self.sym.tables.get(s.table)
        missing = self.sym.missing.get(s.table)
        if table is None and missing is not None and missing.what == "table":
            self.error(
                f"table '{s.table}' is not printed in the rulebook" + (f" [{missing.cite}]" if missing.cite else ""),
                s.table_span, "include a data file that supplies it (a table of the same name)",
            )
        elif table is None:
            self.unknown("table", s.table, s.table_span, self.sym.tables)
        else:
            keys = (table.read_at, *table.read_also) if table.read_at is not None else ()
            hint = f"the table is read at {len(keys)} values, {', '.join(keys)}: pass one for each" if len(keys) > 1 else None
            self.check_args(s.args, [p.name for p in table.params], f"table '{s.table}'", s.span, hint)
            self.check_arg_types(s, table, scope)
        for a in s.args:
            self.expr(a.value, scope)
        scope.add(s.name)

    def check_arg_types(self, s: n.Lookup, table: n.TableDecl, scope: set[str]) -> None:
        """An argument whose type is plain from its form (a number, a side's name, a test) must be of the type
        the table's parameter declares: a side passed where the table reads a number is caught here."""
        positional = [a for a in s.args if a.name is None]
        for p in table.params:
            arg = next((a for a in s.args if a.name == p.name), None) or (
                positional[table.params.index(p)] if table.params.index(p) < len(positional) else None)
            given = self.static_type(arg.value, scope) if arg is not None else None
            if given is not None and p.type in _TYPED and given != p.type:
                keys = (table.read_at, *table.read_also)
                read = "is read at" if p.name in keys else "takes"
                self.error(f"table '{table.name}' {read} '{p.name}', {_a(p.type)}, but this argument is {_a(given)}",
                           arg.span, f"pass {_a(p.type)} for '{p.name}' (the table's parameters: "
                           f"{', '.join(f'{q.name}: {q.type}' for q in table.params)})")

    def static_type(self, e, scope: set[str]) -> str | None:
        """The type an expression has by its form alone, or None when only a run can tell."""
        if e.kind == "binop":
            return "int" if e.op in ("-", "*", "/", "%") else None
        if e.kind == "var" and e.name not in scope:
            return "side" if e.name in self.sym.sides else "nation" if e.name in self.sym.nations else None
        return _FORM_TYPES.get(e.kind)

    def stmt_eliminate(self, s: n.Eliminate, scope: set[str]) -> None:
        self.expr(s.units, scope)
        if s.because is not None:
            self.string(s.because, scope)

    def stmt_move(self, s: n.Move, scope: set[str]) -> None:
        self.expr(s.units, scope)
        self.expr(s.to, scope)

    def stmt_embark(self, s: n.Embark, scope: set[str]) -> None:
        self.expr(s.units, scope)
        self.expr(s.carrier, scope)

    def stmt_change_side(self, s: n.ChangeSide, scope: set[str]) -> None:
        self.expr(s.units, scope)
        self.expr(s.side, scope)

    def stmt_say(self, s: n.Say, scope: set[str]) -> None:
        self.string(s.text, scope)
        if s.face_down is not None:
            self.string(s.face_down, scope)
        if s.known_by is not None:
            self.expr(s.known_by.who, scope)

    def stmt_call(self, s: n.CallStmt, scope: set[str]) -> None:
        proc = self.sym.procedures.get(s.proc)
        if proc is None:
            self.unknown("procedure", s.proc, s.proc_span, self.sym.procedures)
        else:
            self.check_args(s.args, [p.name for p in proc.params], f"procedure '{s.proc}'", s.span)
            if s.result is not None and not _returns_a_value(proc):
                self.error(f"procedure '{s.proc}' returns no value, so 'let {s.result} =' receives nothing", s.span,
                           f"give '{s.proc}' a 'return EXPR', or call it without 'let {s.result} ='")
        for a in s.args:
            self.expr(a.value, scope)
        if s.result is not None:
            self.receive(s.result, proc)
            scope.add(s.result)

    def stmt_reroll(self, s: n.Reroll, scope: set[str]) -> None:
        self.expr(s.pools, scope)
        self.expr(s.order, scope)
        self.expr(s.spend, scope | {s.side_var})

    def stmt_simultaneously(self, s: n.Simultaneously, scope: set[str]) -> None:
        self.block(s.body, scope)

    def stmt_secretly(self, s: n.Secretly, scope: set[str]) -> None:
        """Only decisions, each with its own name, none reading another's answer: a side must be
        able to decide before any answer of the block is known (language §11.13a)."""
        chooses = [c for c in s.body if isinstance(c, n.Choose)]
        for c in s.body:
            if not isinstance(c, n.Choose):
                self.error(f"only decisions are made secretly: a '{c.kind}' statement cannot be inside 'secretly'",
                           c.span, "move it before or after the block; the answers are known after it")
        seen: set[str] = set()
        for c in chooses:
            if c.name in seen:
                self.error(f"two secret decisions are named '{c.name}': the second would replace the first's answer",
                           c.span, "give each decision of the block its own name")
            seen.add(c.name)
        names = {c.name for c in chooses}
        for c in chooses:
            for v in descendants([c.chooser, c.options, c.amount, c.limit, c.prompt]):
                if isinstance(v, n.Var) and v.name in names and v.name != c.name:
                    self.error(f"'{c.name}' reads '{v.name}', another decision of the same 'secretly' block, "
                               f"whose answer is not revealed until the block ends", v.span,
                               f"decide '{c.name}' after the block, or without '{v.name}'")
        self.block(s.body, scope)

    def stmt_record(self, s: n.Record, scope: set[str]) -> None:
        self.string(s.key, scope)
        self.expr(s.value, scope)

    def stmt_ensure(self, s: n.Ensure, scope: set[str]) -> None:
        self.expr(s.test, scope)
        self.string(s.message, scope)

    def check_adjust_target(self, target, scope: set[str]) -> None:
        tracks = self.sym.tracks
        if isinstance(target, n.Index) and isinstance(target.obj, n.Var) and target.obj.name in tracks:
            if not tracks[target.obj.name].keyed:
                self.error(f"track '{target.obj.name}' is not per side: adjust it as 'adjust {target.obj.name} by N'", target.span)
        elif isinstance(target, n.Var) and target.name in tracks:
            if tracks[target.name].keyed:
                key = "nation" if tracks[target.name].per_nation else "side"
                self.error(f"track '{target.name}' is per {key}: adjust it as 'adjust {target.name}[{key}] by N'", target.span)
        elif not (isinstance(target, n.Var) and target.name in scope):
            self.error("'adjust' changes a track or a local number, as in 'adjust supply[side] by 2'", target.span)

    def define_target(self, target, scope: set[str]) -> None:
        if isinstance(target, n.Var):
            scope.add(target.name)
        else:
            self.assignable(target, scope)

    def assignable(self, target, scope: set[str], value=None) -> None:
        if isinstance(target, n.Var):
            if target.name not in scope and target.name not in self.sym.game_states:
                self.unknown("variable", target.name, target.span, scope | set(self.sym.game_states))
            elif target.name not in scope and self.sym.state_keys(target.name) is not None:
                self.keyless_read(target, "set")
        elif isinstance(target, n.Index) and self.keyed_index(target, scope):
            self.check_state_value(target.obj.name, value, scope)
        elif isinstance(target, n.Index):
            if isinstance(target.obj, n.Var) and target.obj.name in self.sym.tracks:
                self.error(f"'{target.obj.name}' is a track: change it with 'adjust', which applies its range", target.span)
            self.expr(target.obj, scope)
            self.expr(target.key, scope)
        elif isinstance(target, n.Attr):
            self.expr(target.obj, scope)
            if self.field_write(target, value, scope):
                return
            settable = set(self.sym.unit_states) | {p for p, d in self.sym.place_props.items() if d.mutable}
            if target.name not in settable:
                if target.name in self.sym.stats or target.name in self.sym.place_props:
                    self.error(f"'{target.name}' is a printed value and cannot be changed", target.name_span,
                               "declare a 'unit state' or a map 'state' for values that change during play")
                else:
                    self.unknown("state", target.name, target.name_span, settable)

    def check_args(self, args: tuple[n.Arg, ...], params: list[str], what: str, span: Span, hint: str | None = None) -> None:
        positional = [a for a in args if a.name is None]
        named = [a for a in args if a.name is not None]
        if len(positional) > len(params):
            self.error(f"{what} takes {len(params)} argument(s), but {len(args)} are given", span, hint)
            return
        filled = set(params[: len(positional)])
        for a in named:
            if a.name not in params:
                self.error(f"{what} has no parameter '{a.name}'", a.span, did_you_mean(a.name, params))
            elif a.name in filled:
                self.error(f"parameter '{a.name}' of {what} is given twice", a.span)
            filled.add(a.name)
        missing = [p for p in params if p not in filled]
        if missing:
            self.error(f"{what} needs a value for {', '.join(repr(m) for m in missing)}", span, hint)

    # ── expressions ──
    def string(self, s: n.StrLit, scope: set[str]) -> None:
        for part in s.parts:
            if part.expr is not None:
                self.expr(part.expr, scope)

    def expr(self, e, scope: set[str]) -> None:
        dispatch(self, "expr_", e, scope)

    def expr_literal(self, e, scope: set[str]) -> None:
        """A literal names nothing to check (a place literal is checked against the scenario's map)."""

    expr_int = expr_bool = expr_none = expr_x = expr_place = expr_literal

    def expr_var(self, e: n.Var, scope: set[str]) -> None:
        if e.name not in scope and self.sym.state_keys(e.name) is not None:
            return self.keyless_read(e)
        if e.name not in scope and e.name not in self.values:
            hint = (_call_hint(e.name, self.sym.functions.get(e.name)) or self._counter_hint(e.name)
                    or did_you_mean(e.name, scope | self.values))
            self.error(f"unknown name '{e.name}'", e.span, hint)
        elif e.name not in scope:
            self.bare_enumeration_value(e)

    def _counter_hint(self, name: str) -> str | None:
        span = self.counters.get(name)
        if span is None:
            return None
        return (f"'{name}' counts the rounds of the 'repeat' at line {span.line}; it is known inside that loop only:"
                " keep what the rounds tell in a 'let' before the loop, set inside it")

    def expr_str(self, e: n.StrLit, scope: set[str]) -> None:
        self.string(e, scope)

    def expr_attr(self, e: n.Attr, scope: set[str]) -> None:
        if self.qualified_value(e, scope):
            return
        self.expr(e.obj, scope)
        if self.field_read(e, scope):
            return
        if e.name not in self.attributes:
            self.unknown("attribute", e.name, e.name_span, self.attributes)

    def expr_index(self, e: n.Index, scope: set[str]) -> None:
        if self.keyed_index(e, scope):
            return
        self.expr(e.obj, scope)
        self.expr(e.key, scope)

    def expr_call(self, e: n.CallExpr, scope: set[str]) -> None:
        self.call(e, scope)

    def expr_binop(self, e, scope: set[str]) -> None:
        self.expr(e.left, scope)
        self.expr(e.right, scope)

    def expr_compare(self, e: n.Compare, scope: set[str]) -> None:
        self.expr_binop(e, scope)
        if e.op not in ("==", "!="):
            return
        for var, other in ((e.left, e.right), (e.right, e.left)):
            cup = self.drawn.get(var.name) if isinstance(var, n.Var) else None
            if cup is not None:
                self.chits_of(self.sym.cups[cup], other, scope, var.name)

    def expr_rounded(self, e: n.Rounded, scope: set[str]) -> None:
        self.expr(e.left, scope)
        self.expr(e.right, scope)
        if e.least is not None:
            self.expr(e.least, scope)
        if e.mode not in ROUNDINGS:
            self.error(f"unknown rounding '{e.mode}'", e.mode_span,
                       did_you_mean(e.mode, ROUNDINGS) or "write 'rounded up', 'rounded down' or 'rounded nearest' (a half up)")

    def expr_boolop(self, e: n.BoolOp, scope: set[str]) -> None:
        for item in e.items:
            self.expr(item, scope)

    def expr_operand(self, e, scope: set[str]) -> None:
        self.expr(e.operand, scope)

    expr_not = expr_neg = expr_has = expr_operand

    def expr_is(self, e: n.IsTest, scope: set[str]) -> None:
        self.expr(e.operand, scope)
        if e.name not in self.kinds:
            self.unknown("unit class, type or flag", e.name, e.name_span, self.kinds)

    def expr_in(self, e: n.InTest, scope: set[str]) -> None:
        self.expr(e.item, scope)
        self.expr(e.collection, scope)

    def expr_cond(self, e: n.CondExpr, scope: set[str]) -> None:
        for part in (e.test, e.then, e.orelse):
            self.expr(part, scope)

    def expr_list(self, e: n.ListLit, scope: set[str]) -> None:
        for item in e.items:
            self.expr(item, scope)

    def expr_map(self, e: n.MapLit, scope: set[str]) -> None:
        for entry in e.entries:
            self.expr(entry.key, scope)
            self.expr(entry.value, scope)

    def expr_comprehension(self, e: n.Comprehension, scope: set[str]) -> None:
        self.expr(e.iterable, scope)
        inner = scope | {e.var}
        self.expr(e.expr, inner)
        if e.where is not None:
            self.expr(e.where, inner)

    def expr_matching(self, e: n.Matching, scope: set[str]) -> None:
        self.expr(e.dice, scope)
        self.expr(e.units, scope)
        self.expr(e.where, scope | {e.die_var, e.unit_var})

    def table_read(self, table: n.TableDecl, e: n.CallExpr) -> None:
        """A table read in an expression (language 8.4): read at a value, with no effect, so it is a pure value."""
        if table.read_at is None:
            self.error(f"table '{table.name}' is rolled: it is read with 'lookup', not in an expression", e.span,
                       "only a table read at a value ('read at PARAM') gives a value in an expression")
        elif _table_effects(table):
            self.error(f"table '{table.name}' does things when it is read (a row or result has an effect): read it with 'lookup'", e.span)
        self.check_args(e.args, [p.name for p in table.params], f"table '{table.name}'", e.span)

    def call(self, e: n.CallExpr, scope: set[str]) -> None:
        passed = FUNCTION_ARGUMENTS.get(e.func) if e.func not in self.sym.functions else None
        for i, a in enumerate(e.args):
            if i == passed:
                self.check_step_function(e.func, a.value, scope)
            else:
                self.expr(a.value, scope)
        record = self.sym.records.get(e.func)
        if record is not None:
            self.construction(record, e, scope)
            return
        fn = self.sym.functions.get(e.func)
        if fn is not None:
            self.check_args(e.args, [p.name for p in fn.params], f"function '{e.func}'", e.span)
            return
        table = self.sym.tables.get(e.func)
        if table is not None:
            self.table_read(table, e)
            return
        if e.func in self.sym.missing and self.sym.missing[e.func].what == "table":
            self.error(f"table '{e.func}' is not printed in the rulebook (declared missing)", e.span,
                       "a function that reads it says so: 'function NAME(…) [rule] needs " + e.func + " = …', and runs once a data file supplies it")
            return
        builtin = BUILTINS.get(e.func)
        if builtin is None:
            self.unknown("function", e.func, e.span, set(BUILTINS) | set(self.sym.functions))
            return
        if any(a.name for a in e.args):
            self.error(f"'{e.func}' takes positional arguments only", e.span)
        if not builtin.min_args <= len(e.args) <= builtin.max_args:
            want = str(builtin.min_args) if builtin.min_args == builtin.max_args else f"{builtin.min_args} or {builtin.max_args}"
            self.error(f"'{e.func}' takes {want} argument(s), but {len(e.args)} are given", e.span)
        self.check_map_call(e)


def _table_effects(table: n.TableDecl) -> bool:
    """Whether reading the table does something besides giving its result (a row's or a result's effect)."""
    return any(r.effect for r in table.rows) or any(r.effect for r in table.results)


def check_ruleset(ruleset: n.Ruleset) -> tuple[Symbols, list[Diagnostic]]:
    """Collect symbols and check everything; diagnostics are sorted by position."""
    sym, diags = collect(ruleset)
    checker = Checker(sym)
    if sym.game is None:
        checker.error("the ruleset declares no game", Span(file=ruleset.file, line=1, col=1, end_line=1, end_col=2),
                      "start the file with: game NAME \"Title\" [rule] { sides a, b; die d6 1..6 }")
    checker.check_declarations()
    all_diags = diags + checker.diags
    all_diags.sort(key=lambda d: (d.span.file, d.span.line, d.span.col))
    return sym, all_diags


def _cups_filled(sym: Symbols) -> set[str]:
    """The cups a 'put' or 'refill' statement anywhere in the rules names."""
    if not sym.cups:
        return set()
    roots = [*sym.procedures.values(), *sym.tables.values(), *sym.hooks, *sym.invariants,
             *([sym.sequence] if sym.sequence else [])]
    return {node.cup for node in sym.walked.of(roots, (n.Put, n.Refill))}


def _returns_a_value(proc: n.ProcedureDecl) -> bool:
    return any(isinstance(x, n.Return) and x.value is not None for x in descendants(proc.body))


def _call_hint(name: str, fn: n.FunctionDecl | None) -> str | None:
    """A bare name that is a function, built-in or the ruleset's own: it is called, with its arguments
    in brackets (``turn()``, not ``turn``)."""
    if fn is not None:
        params = ", ".join(p.name for p in fn.params)
        return f"did you mean {name}({params})? '{name}' is a function of the ruleset: call it, with its arguments in brackets"
    builtin = BUILTINS.get(name)
    if builtin is None:
        return None
    if builtin.max_args == 0:
        return f"did you mean {name}()? '{name}' is a built-in function ({builtin.doc}): call it, even with no arguments"
    want = str(builtin.min_args) if builtin.min_args == builtin.max_args else f"{builtin.min_args} to {builtin.max_args}"
    plural = "s" if builtin.max_args > 1 else ""
    return (f"did you mean {name}(...)? '{name}' is a built-in function of {want} argument{plural} ({builtin.doc}): "
            "call it, with its arguments in brackets")


def _own_result(table: n.TableDecl, row: n.Row, args) -> bool:
    """A row of a table without columns that carries its own label or effect declares its own result, beside
    the results the table declares for other rows (8.3a)."""
    return table.columns is None and args is None and (row.label is not None or bool(row.effect))


def _row_name(row: n.Row) -> str:
    return row.shown()


# The type of an expression by its kind alone (a name's or a call's type needs more than its form).
_FORM_TYPES = {"int": "int", "neg": "int", "rounded": "int", "str": "str", "bool": "bool", "compare": "bool", "boolop": "bool", "not": "bool",
               "is": "bool", "in": "bool", "has": "bool", "place": "place", "list": "list", "comprehension": "list", "map": "map"}
_TYPED = ("int", "bool", "side", "nation", "place", "list", "map", "str")  # 'faction' and 'unit' take more than one form


def _a(type_name: str) -> str:
    return {"int": "a number (int)", "bool": "a truth value (bool)", "str": "a text (str)"}.get(type_name, f"a {type_name}")


# The lines that say what lies beyond a column table's columns: at both ends, below the first, above the last.
_COLUMN_ENDS = ("beyond", "below", "above")


def _result_names(table: n.TableDecl) -> list[str]:
    """The results a table gives: those it declares, else the names its cells give, in order."""
    if table.results:
        return [r.name for r in table.results]
    names: dict[str, None] = {}
    for row in table.rows:
        values = row.cell_values or (None,) * len(row.cells)
        names.update((c, None) for c, v in zip(row.cells or (row.result,), values) if v is None and c != "?")
    return list(names)


def _gives(row: n.Row) -> str | None:
    """'number' or 'name': what a row's printed cells give ('mixed' for both; None when none is printed)."""
    if row.value is not None:
        return "number"
    values = row.cell_values or (None,) * len(row.cells)
    kinds = {"number" if v is not None else "name" for c, v in zip(row.cells, values) if c != "?"}
    return kinds.pop() if len(kinds) == 1 else ("mixed" if kinds else None)


def _meet(a: n.Row, b: n.Row) -> bool:
    """Two rows read a common key: their ranges overlap for every key."""
    return all(alo <= bhi and blo <= ahi for (alo, ahi), (blo, bhi) in zip(a.keys(), b.keys()))


def _uncovered_pairs(rows: list[n.Row], most: int = 6) -> str:
    """The keys of a two-key table no row covers, within the rectangle its rows span: the first key's
    stretches between the rows' ends, each with the second key's gaps ('3..4, 2; 5, 1..2')."""
    lo2, hi2 = min(r.keys()[1][0] for r in rows), max(r.keys()[1][1] for r in rows)
    holes = []
    for a, b in _stretches(rows):
        over = [r for r in rows if r.first <= a <= r.last]
        with trusted():  # made of a row's own fields (ir/trust.py): validating them would build Row's validator
            spans = [n.Row(span=r.span, low=r.more[0][0], high=r.more[0][1], result="") for r in over]
        first = n.show_range(*(int(v) if math.isfinite(v) else None for v in (a, b)))
        holes += [f"{first}, {_ranges([g])}" for g in _uncovered(spans, lo2, hi2)]
    return "; ".join(holes[:most]) + ("; …" if len(holes) > most else "")


def _stretches(rows: list[n.Row]) -> list[tuple[float, float]]:
    """The first key's values cut where any row starts or ends: within a stretch the same rows apply."""
    cuts = sorted({k for r in rows for k in (r.first, r.last + 1) if math.isfinite(k)}) or [0]
    low, high = min(r.first for r in rows), max(r.last for r in rows)
    out = ([(low, cuts[0] - 1)] if low == -math.inf else []) + [(a, b - 1) for a, b in zip(cuts, cuts[1:])]
    out += [(cuts[-1], high)] if high == math.inf else []
    return [(a, b) for a, b in out if low <= a <= high and a <= b]


def _open_hint(*rows: n.Row) -> str | None:
    """What an open row of two overlapping ones reads: everything from its end on."""
    for r in rows:
        if r.high is None:
            return f"row {r.shown()} reads every value from {r.low} up: give it a high end ({r.low}..N) below the other row"
        if r.low is None:
            return f"row {r.shown()} reads every value up to {r.high}: give it a low end (N..{r.high}) above the other row"
    return None


def _ascends(a: n.ColumnHeader, b: n.ColumnHeader) -> bool:
    """Column b lies wholly to the right of column a (a larger ratio, or a range above a's)."""
    if a.ratio is not None and b.ratio is not None:
        return b.ratio[0] * a.ratio[1] > a.ratio[0] * b.ratio[1]
    return a.high is not None and b.low is not None and b.low > a.high


def _ranges(gaps: list[tuple[int, int]]) -> str:
    return ", ".join(str(a) if a == b else f"{a}..{b}" for a, b in gaps)


def _uncovered(rows: list[n.Row], low: float, high: float) -> list[tuple[int, int]]:
    """The rolls of the unmodified dice, low to high, that no row covers: intervals, so huge rows cost nothing.
    An open row ('16..', '..2') ends at infinity, so nothing lies beyond it."""
    gaps, v = [], low
    for row in sorted(rows, key=lambda r: r.first):
        if row.first > v:
            gaps.append((v, min(row.first - 1, high)))
        v = max(v, row.last + 1)
    if v <= high:
        gaps.append((v, high))
    return [(int(a), int(b)) for a, b in gaps if a <= b and math.isfinite(a) and math.isfinite(b)]
