"""Scenarios: set up a position, script dice and decisions, run, check expectations.

A scenario reproduces a rulebook's worked example (or a hand-made rule case). Values
the rulebook does not print are fixtures: the scenario states them and the report
lists them. The ruleset's printed values cannot be overridden from a scenario.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..amend import header_line
from ..check.resolve import Checker
from ..check.symbols import Symbols
from ..ir import nodes as n
from ..syntax.diagnostics import Diagnostic, Sources, Span, did_you_mean
from .agents import ScriptedAgent
from .dice import ScriptedDice
from .driver import Runner
from .engine import Engine, Event
from .requests import RuleError, ScriptError
from .values import MISSING, Place, Unit, X, show


@dataclass
class Outcome:
    """What ``umpire run`` prints and whether the scenario held."""

    lines: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)  # the trace, with the explanation when asked
    ok: bool = True
    failures: int = 0
    error: Diagnostic | None = None


def hex_neighbours(pid: str, columns: str) -> set[str]:
    """Neighbours of a CCRR hex id in a flat-topped column layout (even_q or odd_q)."""
    if len(pid) != 4 or not pid.isdigit():
        return set()
    c, r = int(pid[:2]), int(pid[2:])
    up_shift = (c % 2 == 1) if columns == "even_q" else (c % 2 == 0)
    side_rows = (r - 1, r) if up_shift else (r, r + 1)
    cells = [(c, r - 1), (c, r + 1)] + [(c + dc, rr) for dc in (-1, 1) for rr in side_rows]
    return {f"{cc:02d}{rr:02d}" for cc, rr in cells if cc >= 0 and rr >= 0}


class Setup:
    """Builds an engine's state from a scenario; problems are ScriptErrors at the scenario's spans."""

    def __init__(self, engine: Engine, scenario: n.Scenario):
        self.engine = engine
        self.sym: Symbols = engine.sym
        self.sc = scenario
        self.fixtures: list[str] = []
        self.notes: list[str] = []  # what the scenario says of a place or unit

    def run(self) -> None:
        self.places()
        self.units()
        self.position()

    def places(self) -> None:
        st, sym = self.engine.state, self.sym
        grid = sym.map.grid if sym.map else None
        for pd in self.sc.places:
            if grid and pd.shape != grid.shape:
                raise ScriptError(f"this game's map is a {grid.shape} grid, not '{pd.shape}'", pd.span)
            if pd.id in st.places:
                raise ScriptError(f"place {pd.id} is defined twice", pd.span)
            place = Place(pd.id, pd.shape)
            given: set[str] = set()
            for v in pd.values:
                if v.name in given:
                    raise ScriptError(f"'{v.name}' is given twice for {pd.id}", v.span)
                given.add(v.name)
                self.place_value(place, v)
            st.places[pd.id] = place
            if pd.note:
                self.notes.append(f"{pd.id}: {pd.note}")
        computed = bool(grid and grid.shape == "hex" and grid.columns)
        if computed:
            for place in st.places.values():
                for nid in sorted(hex_neighbours(place.id, grid.columns)):
                    if nid in st.places:
                        place.neighbours.append(st.places[nid])
        for adj in self.sc.adjacency:
            a = self.place(adj.place, adj.span)
            if adj.kind is not None:
                self.link(a, adj)
                continue
            for nid in adj.neighbours:
                b = self.place(nid, adj.span)
                if b not in a.neighbours:
                    a.neighbours.append(b)
                    b.neighbours.append(a)
                    if computed:
                        self.fixtures.append(f"{a.id}-{b.id} adjacent: stated by the scenario (the grid does not make them neighbours)")

    def link(self, a: Place, adj: n.Adjacency) -> None:
        if adj.kind not in self.sym.edges:
            raise ScriptError(f"unknown edge kind '{adj.kind}'", adj.span, did_you_mean(adj.kind, self.sym.edges))
        for nid in adj.neighbours:
            b = self.place(nid, adj.span)
            if b in a.links.get(adj.kind, []):
                continue
            a.links.setdefault(adj.kind, []).append(b)
            b.links.setdefault(adj.kind, []).append(a)

    def place(self, pid: str, span: Span) -> Place:
        place = self.engine.state.places.get(pid)
        if place is None:
            raise ScriptError(f"unknown place '{pid}'", span, did_you_mean(pid, self.engine.state.places))
        return place

    def place_value(self, place: Place, v: n.StatValue) -> None:
        prop = self.sym.place_props.get(v.name)
        if prop is None:
            raise ScriptError(f"places have no property '{v.name}'", v.span, did_you_mean(v.name, self.sym.place_props))
        if v.is_flag:
            raise ScriptError(f"'{v.name}' needs a value, as in '{v.name}: ...'", v.span)
        value = self.typed(v, prop.type, v.span)
        (place.state if prop.mutable else place.props)[v.name] = value

    def typed(self, v: n.StatValue, t: n.TypeName, span: Span):
        sym = self.sym
        if t.enum:
            if v.value not in t.enum:
                raise ScriptError(f"'{v.name}' is one of {', '.join(t.enum)}, not '{v.value}'", span, did_you_mean(str(v.value), t.enum))
            return v.value
        if t.name == "int":
            if not isinstance(v.value, int):
                raise ScriptError(f"'{v.name}' takes a number", span)
            return v.value
        if t.name in ("side", "nation", "faction"):
            allowed = {"side": set(sym.sides), "nation": set(sym.nations), "faction": set(sym.sides) | set(sym.nations)}[t.name]
            if v.value not in allowed:
                raise ScriptError(f"'{v.name}' takes a {t.name}, not '{v.value}'", span, did_you_mean(str(v.value), allowed))
            return v.value
        if t.name == "bool":
            if v.value not in ("true", "false"):
                raise ScriptError(f"'{v.name}' is true or false", span)
            return v.value == "true"
        if t.name == "place":
            return self.place_named(v.value, span)
        return v.value

    def place_named(self, value, span: Span) -> Place:
        """A place written as a value: its id, or a hex number whose leading zeros the number lost."""
        places = self.engine.state.places
        if str(value) not in places and isinstance(value, int):
            same = [p for pid, p in places.items() if pid.isdigit() and int(pid) == value]
            if len(same) == 1:
                return same[0]
        return self.place(str(value), span)

    def units(self) -> None:
        st, sym = self.engine.state, self.sym
        for ud in self.sc.units:
            if ud.id in st.units:
                raise ScriptError(f"unit {ud.id} is defined twice", ud.span)
            type_decl = sym.types.get(ud.type)
            if type_decl is None:
                raise ScriptError(f"unknown unit type '{ud.type}'", ud.type_span, did_you_mean(ud.type, sym.types))
            if ud.side not in sym.sides:
                raise ScriptError(f"unknown side '{ud.side}'", ud.side_span, did_you_mean(ud.side, sym.sides))
            counter = sym.counters.get(ud.id)
            if counter and (counter.type != ud.type or counter.side != ud.side):
                raise ScriptError(
                    f"{ud.id} is printed as a {counter.type} of {counter.side} [{counter.cite}]", ud.type_span,
                )
            unit = Unit(ud.id, ud.type, type_decl.parent, ud.side, counter.label if counter else None, len(st.units))
            self.apply(unit, type_decl.values, printed=True)
            if counter:
                self.apply(unit, counter.values, printed=True)
            self.apply(unit, ud.values, printed=False, counter=counter)
            if ud.note:
                self.notes.append(f"{ud.id}: {ud.note}")
            st.units[ud.id] = unit
        for ud in self.sc.units:
            self.locate(st.units[ud.id], ud)

    def apply(self, unit: Unit, values: tuple[n.StatValue, ...], printed: bool, counter=None) -> None:
        given: set[str] = set()
        for v in values:
            if not printed:
                if v.name in given:
                    raise ScriptError(f"'{v.name}' is given twice for {unit.id}", v.span)
                given.add(v.name)
                state = self.sym.unit_states.get(v.name)
                if state is not None:  # a starting value of a state that changes in play, not a printed value
                    unit.state[v.name] = True if v.is_flag and state.type.name == "bool" else self.typed(v, state.type, v.span)
                    continue
            if v.is_flag:
                if v.name not in self.sym.flags:
                    raise ScriptError(f"unknown flag '{v.name}'", v.span, did_you_mean(v.name, self.sym.flags))
                if not printed and counter is not None:
                    raise ScriptError(f"{unit.id}'s flags are printed [{counter.cite}]; a scenario cannot add '{v.name}'", v.span)
                unit.flags.add(v.name)
                if not printed:
                    self.fixtures.append(f"{unit.id} {v.name} (not printed in the rulebook)")
                continue
            if v.name not in self.sym.stats:
                raise ScriptError(f"unknown stat '{v.name}'", v.span, did_you_mean(v.name, self.sym.stats))
            if isinstance(v.value, str) and v.value not in ("X", "?"):
                raise ScriptError(f"'{v.name}' takes a number, 'X' or '?', not '{v.value}'", v.span)
            value = X if v.value == "X" else MISSING if v.value == "?" else v.value
            current = unit.stats.get(v.name)
            if not printed and counter is not None and v.name not in unit.stats:
                raise ScriptError(
                    f"{unit.id} is printed without a {v.name} value [{counter.cite}]; a scenario may only supply values "
                    "the ruleset marks '?'",
                    v.span,
                )
            if not printed and v.name in unit.stats and current is not MISSING:
                raise ScriptError(
                    f"{unit.id}'s {v.name} is printed as {show(current)}; a scenario may only supply values the rulebook does not print",
                    v.span,
                )
            unit.stats[v.name] = value
            if not printed:
                self.fixtures.append(f"{unit.id} {v.name} {show(value)} (not printed in the rulebook)")

    def locate(self, unit: Unit, ud: n.UnitDef) -> None:
        st = self.engine.state
        if ud.where == "at":
            self.engine.place_unit(unit, self.place(ud.location, ud.location_span))
        elif ud.where == "aboard":
            carrier = st.units.get(ud.location)
            if carrier is None:
                raise ScriptError(f"unknown unit '{ud.location}'", ud.location_span, did_you_mean(ud.location, st.units))
            if carrier.location is None:
                raise ScriptError(f"{carrier.id} is not placed yet; define carriers before their cargo", ud.location_span)
            self.engine.place_unit(unit, carrier)
        else:
            box = st.boxes.get(ud.location)
            if box is None:
                raise ScriptError(f"unknown box '{ud.location}'", ud.location_span, did_you_mean(ud.location, st.boxes))
            self.engine.place_unit(unit, self.box_for(unit, box, ud))

    def box_for(self, unit: Unit, box: Place | dict, ud: n.UnitDef) -> Place:
        """A plain box; a side's box of a per-side box; or `BOX[N]` of a per-turn box."""
        if not isinstance(box, dict):
            return box
        if unit.side in box and ud.box_index is None:
            return box[unit.side]
        if ud.box_index in box:
            return box[ud.box_index]
        keys = ", ".join(map(str, box))
        raise ScriptError(f"box '{ud.location}' has no entry {ud.box_index if ud.box_index is not None else 'for ' + str(unit.side)}",
                          ud.location_span, f"one box per entry: {ud.location}[N] for N in {keys}")

    def position(self) -> None:
        st, sym, sc = self.engine.state, self.sym, self.sc
        if sc.at:
            turn, phase, step = sc.at
            if (phase, step) not in sym.steps():
                raise ScriptError(f"the sequence of play has no step '{step}' in phase '{phase}'", sc.at_span)
            st.turn, st.phase, st.step = turn, phase, step
        for ts in sc.tracks:
            track = st.tracks.get(ts.track)
            if track is None:
                raise ScriptError(f"unknown track '{ts.track}'", ts.span, did_you_mean(ts.track, st.tracks))
            if ts.side not in track.values:
                needs = "needs a side, as in 'track NAME SIDE N'" if ts.side is None else f"has no entry for '{ts.side}'"
                raise ScriptError(f"track {ts.track} {needs}", ts.span)
            if not track.low <= ts.value <= track.high:
                raise ScriptError(f"{ts.track} runs {track.low}..{track.high}; {ts.value} is off the track", ts.span)
            track.values[ts.side] = ts.value
        for v in sc.states:
            decl = sym.game_states.get(v.name)
            if decl is None:
                raise ScriptError(f"unknown game state '{v.name}'", v.span, did_you_mean(v.name, sym.game_states))
            if v.is_flag or v.value in ("X", "?"):
                raise ScriptError(f"game state '{v.name}' needs a value, as in 'state {v.name}: …'", v.span)
            st.globals[v.name] = self.typed(v, decl.type, v.span)


def check_scenario(sc: n.Scenario, sym: Symbols) -> list[Diagnostic]:
    """Static checks of what a scenario runs and expects, before anything runs."""
    checker = Checker(sym, extra_values={u.id for u in sc.units})
    run = sc.run
    if run is None:
        # A file of places alone is a shared map ('places from'): it has nothing to run.
        if sc.units or sc.dice or sc.decisions or sc.expects or sc.at is not None or not sc.places:
            checker.error("the scenario has no 'run' line", sc.span, "add 'run step NAME' or 'run PROCEDURE(args)'")
    elif run.proc is not None:
        target = sym.procedures.get(run.proc) or sym.tables.get(run.proc)
        if target is None:
            checker.unknown("procedure or table", run.proc, run.span, set(sym.procedures) | set(sym.tables))
        else:
            checker.check_args(run.args, [p.name for p in target.params], f"'{run.proc}'", run.span)
        for a in run.args:
            checker.expr(a.value, set())
    elif run.step is not None and sc.at is None:
        checker.error("'run step' needs an 'at turn N phase P step S' line", run.span)
    for exp in sc.expects:
        checker.expr(exp.expr, set())
    decision_names = _decision_names(sym)
    for dec in sc.decisions:
        if dec.side not in sym.sides:
            checker.unknown("side", dec.side, dec.span, sym.sides)
        if dec.name not in decision_names:
            checker.unknown("decision", dec.name, dec.span, decision_names)
    try:  # the set-up is static: unknown types, places, stats and printed values are found here
        Setup(Engine(sym), sc).run()
    except ScriptError as err:
        checker.error(err.message, err.span or sc.span, err.hint)
    return checker.diags


def _decision_names(sym: Symbols) -> set[str]:
    """Every name a ruleset's choose statements use, plus the reroll window's."""
    names = {"reroll"}

    def walk(node) -> None:
        if isinstance(node, n.Choose):
            names.add(node.name)
        if isinstance(node, tuple):
            for x in node:
                walk(x)
        elif isinstance(node, n.BaseModel):
            for _, value in node:
                if isinstance(value, (tuple, n.BaseModel)):
                    walk(value)

    for decls in (sym.procedures.values(), sym.tables.values(), sym.hooks):
        for decl in decls:
            walk(decl)
    if sym.sequence:
        walk(sym.sequence)
    return names


def run_scenario(sc: n.Scenario, sym: Symbols, sources: Sources, explain: bool = False, detail: bool = True) -> Outcome:
    """Run a scenario; its trace is the whole trace, or with ``detail=False`` the narration alone."""
    out = Outcome()
    engine = Engine(sym, sources, explain)
    out.events = engine.events
    setup = Setup(engine, sc)
    title = f"scenario: {sc.title}" + (f" [{sc.cite}]" if sc.cite else "")
    out.lines.append(title)
    game = sym.game
    out.lines.append(f"ruleset: {sc.uses}" + (f" ({game.title})" if game and game.title else ""))
    if sym.overlays:
        out.lines.append(header_line(sym.overlays))
    runner = None
    try:
        setup.run()
        for note in list(sc.notes) + setup.notes:
            out.lines.append(f"note: {note}")
        for text, cite in sc.fixtures:
            setup.fixtures.append(text + (f" [{cite}]" if cite else ""))
        for f in setup.fixtures:
            out.lines.append(f"fixture: {f}")
        engine.state.facts.setdefault("departures", 0)
        engine.run_invariants()
        runner = Runner(engine, ScriptedDice(sc.dice), _scripted_agents(sc, sym))
        runner.run(run_target(engine, sc))
        runner.finish(sc.cite or "scenario")
        stopped = None
    except (RuleError, ScriptError) as err:
        cite = getattr(err, "cite", None)
        message = err.message + (f" [{cite}]" if cite and f"[{cite}]" not in err.message else "")
        if not (isinstance(err, RuleError) and sc.stops is not None and sc.stops.lower() in message.lower()):
            _trace_into(out, engine.events, detail)
            out.ok = False
            out.error = Diagnostic("error", message, err.span or sc.span, err.hint)
            return out
        stopped = message  # the stop the scenario expects: the position at the stop is checked
    _trace_into(out, engine.events, detail)
    if stopped is not None:
        out.lines.append(f"stopped: {stopped}")
    if runner is not None and runner.departures:
        out.lines.append("departures of the script from the rules (the engine follows the rules):")
        out.lines.extend(f"  {e.line()}" for e in runner.departures)
    out.lines.append("expectations:")
    if sc.stops is not None:
        why = f"  -- [{sc.stops_cite}]" if sc.stops_cite else ""
        if stopped is None:
            out.lines.append(f'  FAIL the run stops: "{sc.stops}"{why}  (it ran to its end)')
            out.ok = False
            out.failures += 1
        else:
            out.lines.append(f'  ok   the run stops: "{sc.stops}"{why}')
    comp = engine.compiler
    for exp in sc.expects:
        text = _source_text(sources, exp.expr.span)
        try:
            held = comp.expr(exp.expr)({})
            status = "ok  " if held is True else "FAIL"
            detail = "" if held is True else f"  ({_what_was(comp, exp.expr, sources)})"
        except RuleError as err:
            status, detail = "FAIL", f"  ({err.message})"
            held = False
        label = f"  -- {exp.label}" if exp.label else ""
        out.lines.append(f"  {status} {text}{label}{detail}")
        if held is not True:
            out.ok = False
            out.failures += 1
    total = len(sc.expects) + (sc.stops is not None)
    met = total - out.failures
    out.lines.append(f"result: {met} of {total} expectations met" + ("" if out.ok else " -- FAILED"))
    return out


def _what_was(comp, expr, sources: Sources) -> str:
    """For a failed comparison, the value its left side had; otherwise the value itself."""
    if isinstance(expr, n.Compare):
        return f"{_source_text(sources, expr.left.span)} is {show(comp.expr(expr.left)({}))}"
    return f"got {show(comp.expr(expr)({}))}"


def _trace_into(out: Outcome, events: list[Event], detail: bool = True) -> None:
    told = events if detail else [e for e in events if not e.detail]
    hidden = len(events) - len(told)
    out.lines.append("trace:" + (f" (the narration; --detail adds {hidden} line(s): facts recorded, states set, decisions)"
                                 if hidden else ""))
    out.lines.extend(f"  {e.line()}" for e in told)


def _scripted_agents(sc: n.Scenario, sym: Symbols) -> dict:
    agent = ScriptedAgent(sc.decisions)
    return {side: agent for side in sym.sides}


def run_target(engine: Engine, sc: n.Scenario):
    run = sc.run
    if run.step is not None:
        return _run_steps(engine, sc, (run.step, *run.more_steps))
    args = [(a.name, engine.compiler.expr(a.value)({})) for a in run.args]
    if run.proc in engine.sym.tables:
        table = engine.table(run.proc)
        return table.run(table.bind(args), table.decl.cite)
    return engine.procedure(run.proc).call(args)


def _run_steps(engine: Engine, sc: n.Scenario, names: tuple[str, ...]):
    """The named steps of the scenario's phase, one after the other."""
    phase, run = sc.at[1], sc.run
    steps = []
    for name in names:
        step = engine.sym.steps().get((phase, name))
        if step is None:
            raise ScriptError(f"phase '{phase}' has no step '{name}'", run.span)
        why = engine.not_playable(step)
        if why:
            raise ScriptError(f"step '{name}' [{step.cite}] is {why}" if step.pending else
                              f"step '{name}' [{step.cite}] {why}", run.span,
                              None if step.pending else "run it with a ruleset whose data file supplies the table")
        steps.append(step)
    # A turn begins with its first step: playing that step plays the turn's start as the game does.
    # (A scenario's position replaces the set-up, so `game_start` hooks never run here.)
    if (phase, names[0]) == engine.first_step():
        yield from engine.game_event("turn_start")
    for step in steps:
        yield from engine.run_step(phase, step)


def _source_text(sources: Sources, span: Span) -> str:
    line = sources.line(span.file, span.line)
    if line is None:
        return "?"
    if span.end_line == span.line:
        return line[span.col - 1 : span.end_col - 1]
    return line[span.col - 1 :].rstrip()

