"""A scenario's position built into an engine's state: places, links, units, values, where the game stands.

Problems are ScriptErrors at the scenario's spans. A scenario states the values the rulebook does
not print (fixtures, listed in its report) and can never override a printed one.

A set-up reads the scenario, the engine's rules and the state as `Engine.reset` leaves it, and
nothing else (no dice, no seed, no file, no clock), so a second set-up of the same scenario on the
same engine builds what the first built. The engine keeps the position its latest set-up left
(`Kept`), and a set-up of the same scenario on a state as the first found it puts that position back
(the units and places the first made, their values as they were then) instead of reading the
scenario again: a benchmark's combats, a study's games, the odds' runs and every save loaded from its
position set their scenario up again and again (design decision 31a).
"""

from __future__ import annotations

from functools import lru_cache

from ...digits import is_number
from ...grids.geometry import DEFAULT_HEX_ID, hex_neighbours
from ...grids.squares import square_grid
from ...ir import nodes as n
from ...ir.symbols import Symbols
from ...syntax.diagnostics import Span, did_you_mean
from ..common.requests import ScriptError
from ..common.values import MISSING, Place, Unit, X, show
from ..execution.calendar import start_turn
from ..execution.engine import Engine
from ..execution.vm import Process
from ..position.position import Position, copied


@lru_cache(maxsize=65536)
def _neighbour_ids(pid: str, columns: str, form: str) -> tuple[str, ...]:
    """The ids a hex grid makes neighbours of `pid`, in order: the same for every set-up of a map (a
    scenario set up again before every combat or odds path computes them once)."""
    return tuple(sorted(hex_neighbours(pid, columns, form)))


class Setup:
    """Builds an engine's state from a scenario; problems are ScriptErrors at the scenario's spans."""

    def __init__(self, engine: Engine, scenario: n.Scenario):
        self.engine = engine
        self.sym: Symbols = engine.sym
        self.sc = scenario
        self.fixtures: list[str] = []
        self.notes: list[str] = []  # what the scenario says of a place or unit
        # Unit-valued starting states name a unit the scenario may define further down: they are
        # set once every unit exists.
        self.unit_refs: list[tuple[Unit, n.StatValue, n.TypeName]] = []

    KEEP = True  # a set-up of the same scenario put back from the position the first left (tests turn it off to compare)

    def run(self) -> None:
        engine = self.engine
        engine.epoch += 1  # the set-up changes the state: no function value cached before it holds after it
        found = _found(engine) if Setup.KEEP else None
        kept = engine.set_up_kept
        if found is not None and kept is not None and kept.scenario is self.sc and found == kept.found:
            kept.put_back(self)
            return
        found = copied(found)  # as it was: the set-up changes some of it (the tracks, the game states)
        self.places()
        self.units()
        self.position()
        if found is not None:
            engine.set_up_kept = Kept(self, found)

    def places(self) -> None:
        st, sym = self.engine.state, self.sym
        grid = sym.map.grid if sym.map else None
        for pd in self.sc.places:
            st.places[pd.id] = self.place_def(pd, grid)
            if pd.note:
                self.notes.append(f"{pd.id}: {pd.note}")
        computed = bool(grid and grid.shape == "hex" and grid.columns)
        if computed:
            self.grid_neighbours(grid)
        squares = square_grid(sym.map)
        if squares:
            self.square_neighbours(squares)
        for adj in self.sc.adjacency:
            self.adjacency(adj, computed or bool(squares))
        for data in self.sc.map_data:
            {n.BorderDef: self.border, n.ExitDef: self.exit, n.CoastDef: self.coast}[type(data)](data)

    def place_def(self, pd: n.PlaceDef, grid) -> Place:
        """One place of the scenario, with the values it gives."""
        if grid and pd.shape != grid.shape:
            raise ScriptError(f"this game's map is a {grid.shape} grid, not '{pd.shape}'", pd.span)
        squares = square_grid(self.sym.map)
        if squares and squares.form.read(pd.id) is None:
            raise ScriptError(f"square {pd.id} is not written in the map's id format \"{grid.id_format or 'CCRR'}\"", pd.span,
                              f"the square in column 12 of row 3 is written {squares.form.write(12, 3)}")
        if pd.id in self.engine.state.places:
            raise ScriptError(f"place {pd.id} is defined twice", pd.span)
        place = Place(pd.id, pd.shape, name=pd.name)
        given: set[str] = set()
        for v in pd.values:
            if v.name in given:
                raise ScriptError(f"'{v.name}' is given twice for {pd.id}", v.span)
            given.add(v.name)
            self.place_value(place, v)
        return place

    def grid_neighbours(self, grid) -> None:
        """On a hex grid with columns, the places the grid makes neighbours are adjacent."""
        places = self.engine.state.places
        for place in places.values():
            for nid in _neighbour_ids(place.id, grid.columns, grid.id_format or DEFAULT_HEX_ID):
                if nid in places:
                    place.neighbours.append(places[nid])

    def square_neighbours(self, squares) -> None:
        """On a square grid, the eight squares around each (and across a wrapping edge) are adjacent, n first."""
        places = self.engine.state.places
        for place in places.values():
            for _d, nid in squares.neighbours(place.id):
                if nid in places:
                    place.neighbours.append(places[nid])

    def border(self, bd: n.BorderDef) -> None:
        """The values of the side between two neighbouring places, the same read from either."""
        a, b = self.place(bd.a, bd.span), self.place(bd.b, bd.span)
        if b not in a.neighbours:
            raise ScriptError(f"{a.id} and {b.id} are not neighbours: no side lies between them", bd.span)
        for v in bd.values:
            prop = self.sym.borders.get(v.name)
            if prop is None:
                raise ScriptError(f"borders have no property '{v.name}'", v.span, did_you_mean(v.name, self.sym.borders))
            if v.name in a.borders.get(b.id, {}):
                raise ScriptError(f"'{v.name}' is given twice for the side {a.id}-{b.id}", v.span)
            value = self.typed(v, prop.type, v.span)
            a.borders.setdefault(b.id, {})[v.name] = value
            b.borders.setdefault(a.id, {})[v.name] = value

    def exit(self, ed: n.ExitDef) -> None:
        """A numbered exit: a number may lead to several places, in the order written."""
        a = self.place(ed.place, ed.span)
        for pid in ed.to:
            b = self.place(pid, ed.span)
            if b not in a.exits.setdefault(ed.number, []):
                a.exits[ed.number].append(b)

    def coast(self, cd: n.CoastDef) -> None:
        coasts = self.engine.state.coasts
        if cd.name not in self.sym.coasts:
            raise ScriptError(f"unknown coast '{cd.name}'", cd.span, did_you_mean(cd.name, self.sym.coasts))
        if cd.name in coasts:
            raise ScriptError(f"coast {cd.name} is listed twice: list its places once, in order", cd.span)
        listed: list[Place] = []
        for pid in cd.places:
            place = self.place(pid, cd.span)
            if place in listed:  # between() reads the list by position: a place twice has no one position
                raise ScriptError(f"{place.id} is listed twice in coast {cd.name}", cd.span)
            listed.append(place)
        coasts[cd.name] = listed

    def adjacency(self, adj: n.Adjacency, computed: bool) -> None:
        """An adjacency the scenario states: a link of a kind, or neighbours (a fixture where the grid computes them)."""
        a = self.place(adj.place, adj.span)
        if adj.kind is not None:
            self.link(a, adj)
            return
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
        if t.name == "unit":
            return self.unit_named(v.value, span)
        if t.name in sym.secondary_maps:
            points = [p.name for p in sym.secondary_maps[t.name].points]
            if v.value not in points and v.value != "none":
                raise ScriptError(f"'{v.name}' is a point of {t.name}, not '{v.value}'", span, did_you_mean(str(v.value), points))
            return None if v.value == "none" else v.value
        return v.value

    def place_named(self, value, span: Span) -> Place:
        """A place written as a value: its id, or a hex number whose leading zeros the number lost."""
        places = self.engine.state.places
        if str(value) not in places and isinstance(value, int):
            same = [p for pid, p in places.items() if is_number(pid) and int(pid) == value]
            if len(same) == 1:
                return same[0]
        return self.place(str(value), span)

    def unit_named(self, value, span: Span) -> Unit | None:
        """A unit written as a value: its id (the rules then compare it with the unit itself), or none."""
        if value == "none":
            return None
        units = self.engine.state.units
        unit = units.get(str(value))
        if unit is None:
            raise ScriptError(f"unknown unit '{value}'", span, did_you_mean(str(value), units))
        return unit

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
        for unit, v, t in self.unit_refs:
            unit.state[v.name] = self.typed(v, t, v.span)
        for ud in self.sc.units:
            self.locate(st.units[ud.id], ud)

    def apply(self, unit: Unit, values: tuple[n.StatValue, ...], printed: bool, counter=None) -> None:
        """A unit's values: printed ones (its type's, then its counter's), or those its scenario gives."""
        given: set[str] = set()
        for v in values:
            if not printed:
                if v.name in given:
                    raise ScriptError(f"'{v.name}' is given twice for {unit.id}", v.span)
                given.add(v.name)
                if self.starting_state(unit, v):
                    continue
            if v.is_flag:
                self.flag(unit, v, printed, counter)
            else:
                self.stat(unit, v, printed, counter)

    def starting_state(self, unit: Unit, v: n.StatValue) -> bool:
        """A scenario's starting value of a state that changes in play (not a printed value): set, if `v` is one."""
        state = self.sym.unit_states.get(v.name)
        if state is None:
            return False
        if state.type.name == "unit" and not v.is_flag:
            self.unit_refs.append((unit, v, state.type))
            return True
        unit.state[v.name] = True if v.is_flag and state.type.name == "bool" else self.typed(v, state.type, v.span)
        return True

    def flag(self, unit: Unit, v: n.StatValue, printed: bool, counter) -> None:
        if v.name not in self.sym.flags:
            raise ScriptError(f"unknown flag '{v.name}'", v.span, did_you_mean(v.name, self.sym.flags))
        if not printed and counter is not None:
            raise ScriptError(f"{unit.id}'s flags are printed [{counter.cite}]; a scenario cannot add '{v.name}'", v.span)
        unit.flags.add(v.name)
        if not printed:
            self.fixtures.append(f"{unit.id} {v.name} (not printed in the rulebook)")

    def stat(self, unit: Unit, v: n.StatValue, printed: bool, counter) -> None:
        """A stat's value; a scenario may give only those the rulebook does not print (fixtures)."""
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
            turn, phase, step = start_turn(sym.game, sc.at), sc.at.phase, sc.at.step
            if phase is not None and (phase, step) not in sym.steps():
                raise _not_in_sequence(sym, phase, step, sc.at.span)
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
            keys = sym.state_keys(v.name)
            if keys is None and v.key is None:
                st.globals[v.name] = self.typed(v, decl.type, v.span)
            else:
                self.keyed_state(v, decl, keys)

    def keyed_state(self, v: n.StatValue, decl: n.GameStateDecl, keys: tuple[str, ...] | None) -> None:
        """`state NAME[KEY]: VALUE`: one key's value of a per-key game state (language 6.4a)."""
        if keys is None:
            raise ScriptError(f"game state '{v.name}' has one value, not one per key: write 'state {v.name}: …'", v.span)
        if v.key is None:
            raise ScriptError(f"game state '{v.name}' has a value for each {decl.per}: write 'state {v.name}[{keys[0] if keys else 'KEY'}]: …'", v.span)
        if v.key not in keys:
            raise ScriptError(f"'{v.key}' is not a key of {v.name}: its keys are {', '.join(keys)}", v.span, did_you_mean(v.key, keys))
        self.engine.state.globals[v.name][v.key] = self.typed(v, decl.type, v.span)


def _not_in_sequence(sym: Symbols, phase: str, step: str, span: Span) -> ScriptError:
    """An 'at' line's unknown phase (with a did-you-mean and the phases) or step (and the phase's steps),
    as an overlay's unknown phase or step is told (overlay/locate.py)."""
    from ...overlay.locate import phases_hint, steps_hint

    phases = {ph.name: [st.name for st in ph.steps] for ph in sym.sequence.phases} if sym.sequence else {}
    if phase not in phases:
        return ScriptError(f"the sequence of play has no phase '{phase}'", span, phases_hint(phase, list(phases)))
    return ScriptError(f"the sequence of play has no step '{step}' in phase '{phase}'", span,
                       steps_hint(step, phase, phases[phase]))


def _found(engine: Engine) -> tuple | None:
    """What a set-up reads of the engine besides the scenario: its rules, and its state and trace as
    `Engine.reset` leaves them (the tracks' and game states' starting values, no fact, the first turn,
    the boxes empty); what it leaves alone is here too, since putting a position back sets it. None
    when the state already holds a map or units (a set-up there is not one `Kept` can stand for)."""
    st = engine.state
    if st.places or st.units or st.coasts:
        return None
    return (engine.sym, len(engine.events), len(engine.violations), engine.deferred, engine.depth, engine.steps,
            {name: t.values for name, t in st.tracks.items()}, st.globals, st.facts, st.cups,
            (st.turn, st.phase, st.step), [p.state for p in st.every_place()])


class Kept:
    """A scenario's set-up as it left the engine: its places, coasts, boxes and units (the objects
    themselves: what a game never changes of them, their map and printed values, is theirs), the
    position of what a game changes (`Position.of`), and what the set-up noted; with what it found
    (`_found`). Putting it back onto a state that is what the set-up found gives the state, the trace,
    the position's key and every game played after it that the set-up itself gives
    (tests/runtime/test_set_up_kept.py)."""

    __slots__ = ("scenario", "found", "places", "coasts", "boxes", "units", "shell", "position", "fixtures", "notes")

    def __init__(self, setup: Setup, found: tuple):
        st = setup.engine.state
        self.scenario, self.found = setup.sc, found
        self.places, self.coasts, self.boxes, self.units = st.places, st.coasts, st.boxes, st.units
        self.shell = Process(setup.engine, None)  # the position of a set-up: no rule under way
        self.shell.stack = []
        self.position = Position.of(setup.engine, self.shell)
        self.fixtures, self.notes = tuple(setup.fixtures), tuple(setup.notes)

    def put_back(self, setup: Setup) -> None:
        st = setup.engine.state
        st.places, st.coasts, st.boxes, st.units = self.places, self.coasts, self.boxes, self.units
        self.position.restore(setup.engine, self.shell)
        setup.fixtures, setup.notes = list(self.fixtures), list(self.notes)
