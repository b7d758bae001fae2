"""The generic executor: state changes, eliminations, tables, procedures and the trace.

Nothing here knows a game. The engine offers the language's effects (move, eliminate,
adjust a track, record, reroll window) and reads the ruleset's declarations; every
event it emits carries the rule citation of the statement that produced it.
"""

from __future__ import annotations

import math
from collections import namedtuple
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ... import limits
from ...ir import citations
from ...ir import nodes as n
from ...ir.symbols import Symbols
from ...limits import max_steps
from ...style import printable
from ...syntax.diagnostics import Span
from ..common.requests import GameEnded, RuleError, Unprinted
from ..common.values import MISSING, Place, Record, Unit, X, show
from ..world.fog import moved
from . import cups, records
from .builtins import implementations
from .calendar import turn_label
from .calls import bind_args, caller
from .compile import Compiler
from .guards import over_budget, too_much_narration
from .labels import brief as _brief
from .lasting import LastingMemo
from .odds_columns import odds_column
from .operations import as_number, place_reading, reader, unit_reading
from .state import GameState, Track
from .vm import Lowering, Process

# Trace levels. The narration a player reads holds what happens in the game: steps, moves,
# dice and tables, losses, tracks, what the rules say. The detail adds the bookkeeping: facts
# recorded for expectations and odds, unit, place and game states being set, and the decisions
# themselves, whose effects the narration already shows. `umpire run` and `play` print the
# narration unless asked for the detail; `umpire explain` and the trace snapshots keep it all.
DETAIL_KINDS = frozenset({"record", "state", "decision"})
RULE_CHECKS_FAILED = "rule checks failed"  # the fact that counts the failed rule checks (language §9.4)


_EventFields = namedtuple("_EventFields", "cite text kind where within consulted touched trigger clock removed")
_new_line = tuple.__new__  # a line made without a call of Python code (Engine.trace)
_Citation = n.Citation


class Event(_EventFields):
    """One line of the trace: what happened, and the rule that made it happen.

    Its fields, in order: ``cite`` and ``text`` (the line), ``kind``; filled only when the engine explains
    (umpire explain), where and why the line was written: ``where`` (the statement being executed),
    ``within`` (the procedures and tables it runs in, outermost first), ``consulted`` (functions evaluated
    and decisions asked since the last line), ``touched`` (the units and places it changed: explain
    --why), ``trigger`` (the line whose rule made this one's rule run: a hook, a row); ``clock``, the
    (turn, phase, step) when it was written (run --json); ``removed``, for a refused answer or an option
    asked about, the rule that removed it.

    A game writes thousands, so a line is a tuple with named fields (no dict of attributes, no
    dataclass's calls): `Engine.trace` makes the plain run's lines itself, every other line is made
    here. The trace is plain data: a citation node is kept as the text it prints. This is where rules
    and scenario text loses its control characters (style.py), for every line."""

    __slots__ = ()

    def __new__(cls, cite: Any, text: str, kind: str = "event", where: Span | None = None, within: tuple[str, ...] = (),
                consulted: tuple[str, ...] = (), touched: tuple[str, ...] = (), trigger: int | None = None,
                clock: tuple[int, str | None, str | None] | None = None, removed: tuple[str, ...] = ()) -> Event:
        return _new_line(cls, (cite_text(cite), text if text.isprintable() else printable(text), kind, where, within,
                               consulted, touched, trigger, clock, removed))

    def line(self) -> str:
        return f"[{self[0]}] {self[1]}"

    @property
    def detail(self) -> bool:
        """Bookkeeping, printed only with --detail (see DETAIL_KINDS)."""
        return self[2] in DETAIL_KINDS


def cite_text(cite: Any) -> str:
    """A citation as a trace line keeps it: a node's text (made once, with the rules), or any other
    value's; control characters shown escaped (isprintable() is false for every one of them: a
    citation that has none is kept as it is)."""
    cite = cite.text if cite.__class__ is _Citation else cite if cite.__class__ is str else str(cite)
    return cite if cite.isprintable() else printable(cite)


class Engine:
    MEMO = True  # cache ruleset function values within one state (tests turn it off to compare)
    INLINE = True  # write small functions in place of their calls (generated_code.py; tests turn it off to compare)
    GENERATE = True  # expressions as generated Python (generated_code.py); off, every node is a closure (compile.py)
    BLOCKS = True  # runs of statements that never wait as one generated function each (generated_code.block)
    BODIES = True  # every body as one generated function that runs it from its frame's pc (generated_code.body)

    def __init__(self, sym: Symbols, sources=None, explain: bool = False):
        self.sym = sym
        self.sources = sources
        # Explaining records, for every trace line, the statement, the calls it runs in and the
        # functions consulted; the compiler adds that bookkeeping only when asked, so plain runs
        # pay nothing for it.
        self.explain = explain
        # Whether anyone reads the trace: exact odds and Monte Carlo read only facts, so their engine
        # writes no lines (a `say`'s values are still evaluated, with their errors; see Compiler.s_say).
        self.narrate = True
        self.consulted: list[str] = []
        self.touched: list[str] = []   # explain: ids changed since the last line
        self.removed: list[str] = []   # explain: the rule that removed an option, for the next line (removal.py)
        self.why_not: str | None = None  # explain --why-not: the option asked about at every decision
        self.triggers: dict[int, tuple] = {}  # explain: id(frame) -> (frame, the line that made it run)
        self.state = GameState()
        self.events: list[Event] = []
        self.violations: list[Event] = []
        # A scenario's departures from rule checks (scenario.py): the citation of the check (None: any)
        # -> (tag, why). A failed check the printed example is known to break is traced as that departure.
        self.check_departures: dict[str | None, tuple[str, str]] = {}
        self.deferred: list[list] = []
        self.depth = 0  # procedure call depth
        self.calls = 0  # ruleset function call depth
        self.steps = 0  # statements run and items gone through in this run, against the step budget
        self.max_steps = max_steps()
        self.narrated = 0  # characters of the trace written in this run, against limits.MAX_NARRATION
        self.max_narration = limits.MAX_NARRATION
        self._view_fn = None
        self.viewer = None  # a fog.SideView: the trace is written as that side sees it (run --side)
        self.on_record = None  # called after each `record` (exact odds stop a path once its facts are known)
        # Ruleset functions are pure, so within one stretch of unchanged state a call with the same
        # arguments gives the same value: `epoch` changes at every statement boundary (statements
        # are the only things that change the state), and the cache of function values lives for
        # one epoch. `memo = False` turns it off (tests compare games with and without it).
        self.epoch = 0
        self.memo = Engine.MEMO
        self._memo: dict = {}
        self._memo_epoch = -1
        self.lasting = LastingMemo(self)  # the values of functions that read no state, kept all game (lasting.py)
        # Faces (5.6), by the counter or type they belong to; the stats they change are read through them.
        self.faces: dict[str, tuple[n.FaceDecl, ...]] = {}
        for face in sym.faces:
            self.faces[face.holder] = self.faces.get(face.holder, ()) + (face,)
        self.faced = sym.faced_stats()
        self.compiler = Compiler(self)
        self.vm = Lowering(self)  # every body runs on the machine whose progress is data (vm.py)
        self.process = None  # the machine's process running or waiting (where explain's lines come from)
        self._procs: dict[str, Procedure] = {}
        self._tables: dict[str, Table] = {}
        self._bodies: dict[str, tuple] = {}  # function name -> (its declaration, its lowered body)
        self.inline = Engine.INLINE
        self.generate = Engine.GENERATE
        self.blocks = Engine.BLOCKS
        self.bodies = Engine.BODIES
        self.inlinable: dict[str, tuple] = {}  # function name -> (its declaration, its nodes, whether it may be written in place)
        self._builtins = implementations(self)
        # The position the latest scenario set up on this engine left, to set the same scenario up
        # again by putting it back (setup.py); it holds this engine's rules, which never change.
        self.set_up_kept = None
        self._init_state()

    def reset(self) -> None:
        """A fresh game state and trace; the compiled rules are kept (they do not depend on the state)."""
        self.state = GameState()
        self.events, self.violations, self.deferred, self.depth = [], [], [], 0
        self.calls = self.steps = self.narrated = 0
        self._init_state()

    # ── set-up ──
    def _init_state(self) -> None:
        st = self.state
        for box in self.sym.boxes.values():
            if box.per_side:
                st.boxes[box.name] = {s: Place(f"{box.name}[{s}]", "box", is_box=True, side=s) for s in self.sym.sides}
            elif box.per_turn:
                turns = self.sym.game.turns if self.sym.game and self.sym.game.turns else 1
                st.boxes[box.name] = {t: Place(f"{box.name}[{t}]", "box", is_box=True) for t in range(1, turns + 1)}
            else:
                st.boxes[box.name] = Place(box.name, "box", is_box=True)
        for t in self.sym.tracks.values():
            track = Track(t.name, t.low, t.high, t.excess)
            for key in (self.sym.sides if t.per_side else self.sym.nations if t.per_nation else [None]):
                track.values[key] = t.low
            track.values.update({s.side: s.value for s in t.start})
            st.tracks[t.name] = track
        for g in self.sym.game_states.values():
            start = False if g.type.name == "bool" else None
            keys = self.sym.state_keys(g.name)
            st.globals[g.name] = start if keys is None else dict.fromkeys(keys, start)
        st.cups = {c.name: c.start() for c in self.sym.cups.values()}

    # ── trace ──
    def trace(self, cite: n.Citation | str, text: str, kind: str = "event", secret: bool = False,
              face_down: Callable[[], str | None] | None = None) -> None:
        """A line of the trace; in a side's trace a line hidden from the side reads `(hidden from SIDE)`,
        or what ``face_down`` gives (a `say … else TEXT`, a move of a unit `hidden … seen as`: what the side
        sees of it; None when it sees nothing)."""
        if not self.narrate:
            return
        self.narrated += len(text) + 1  # count_narration, written out: every line pays it
        if self.narrated > self.max_narration:
            self.narrated -= len(text) + 1
            self.count_narration(cite, text)
        if self.viewer is not None and self.viewer.hides(text, secret):
            text = self.viewer.hidden_line() if face_down is None else self.viewer.seen_face_down(face_down())
        if self.explain:
            where, within = self.process.where() if self.process is not None else (None, ())
            trigger = self.process.trigger() if self.process is not None else None
            self.events.append(Event(cite, text, kind, where, within, tuple(self.consulted), tuple(self.touched), trigger,
                                     self.clock(), tuple(self.removed)))
            self.consulted.clear()
            self.touched.clear()
            self.removed.clear()
            return
        # Event(cite, text, kind, clock=self.clock()), written out: a plain run writes a line for most
        # statements it runs, and this makes one without a call of Python code.
        if cite.__class__ is _Citation:
            cite = cite.text
            if not cite.isprintable():
                cite = printable(cite)
        else:
            cite = cite_text(cite)
        if not text.isprintable():
            text = printable(text)
        st = self.state
        self.events.append(_new_line(Event, (cite, text, kind, None, (), (), (), None, (st.turn, st.phase, st.step), ())))

    def count_narration(self, cite: n.Citation | str, text: str) -> None:
        """A line of the trace counts its characters (and its line's end) against the narration's limit:
        a rule that tells without end stops at the statement that would pass it."""
        self.narrated += len(text) + 1
        if self.narrated > self.max_narration:
            span = self.process.where()[0] if self.process is not None else None
            raise too_much_narration(self.max_narration, span, str(cite) if cite else None)

    def clock(self) -> tuple[int, str | None, str | None]:
        """Where in the sequence of play the game stands: turn, phase and step."""
        st = self.state
        return st.turn, st.phase, st.step

    def mark(self, *things: Any) -> None:
        """Explain mode: note the units and places the next trace line changes."""
        if self.explain:
            self.touched.extend(t.id for t in things if isinstance(t, (Unit, Place)))

    def note_trigger(self, frame: Any) -> None:
        """Explain mode: the frame runs because of the last line written (a hook, a row's effect)."""
        if self.explain and self.events:
            self.triggers[id(frame)] = (frame, len(self.events) - 1)

    def reveal(self, cite: Any, sealed: list) -> None:
        """The end of a 'secretly' block: its decisions' lines, held back until now, all at once."""
        if sealed:
            self.trace(cite, "the secret decisions are revealed")
            for where, line in sealed:
                self.trace(where, line, "decision")

    def record(self, key: str, value: Any, cite: str) -> None:
        self.state.facts[key] = value
        if self.narrate:
            self.trace(cite, f"record {key} = {show(value)}", "record")
        if self.on_record is not None:
            self.on_record()

    def violation(self, message: str, cite: str) -> None:
        departs = self.check_departures.get(str(cite), self.check_departures.get(None))
        if departs is None:
            event = Event(cite, f"rule check failed: {message}", "violation", clock=self.clock())
        else:  # the example's own departure, reported as such: the run goes on as the example does
            tag, why = departs
            event = Event(cite, f"departure {tag}: the example fails the rule check '{message}' ({why}); the run goes on",
                          "departure", clock=self.clock())
        self.count_narration(cite, event.text)  # a check failing in a loop tells without end too
        self.violations.append(event)
        self.state.facts[RULE_CHECKS_FAILED] = len(self.violations)
        self.events.append(event)

    def source_text(self, span: Span) -> str:
        """The text of a span of the ruleset, for explanations (falls back to its position)."""
        line = self.sources.line(span.file, span.line) if self.sources else None
        if line is None or span.end_line != span.line:
            return f"the condition at {span}"
        return line[span.col - 1 : span.end_col - 1]

    # ── names and values ──
    def global_value(self, name: str, span: Span) -> Any:
        sym, st = self.sym, self.state
        if name in st.units:
            return st.units[name]
        if name in sym.sides or name in sym.nations or name in sym.enum_values or name in sym.edges or name in sym.map_names:
            return name
        if name in st.boxes:
            return st.boxes[name]
        if name in st.tracks:
            values = st.tracks[name].values
            return values[None] if None in values else dict(values)  # read-only: tracks change by 'adjust'
        if name in st.globals:
            value = st.globals[name]
            if self.lasting.recording:  # read by a function whose values last (kept under the values it read)
                self.lasting.note(name)
            # a per-key state's map is a copy: its values change by 'set NAME[key]', which traces them
            return dict(value) if value.__class__ is dict and self.sym.state_keys(name) is not None else value
        if name in st.cups:  # the chits gone through are steps of the budget, as a comprehension's items are
            self.count_steps(sum(st.cups[name].values()), span, None)
            return cups.contents(st.cups[name])
        if name in sym.counters:
            raise RuleError(f"counter {name} is not in play in this game", span)
        if name in sym.results() or name in sym.chits:
            return name
        raise RuleError(f"unknown name '{name}'", span)

    def face_value(self, u: Unit, name: str) -> Any:
        """A stat some face changes (language 5.6): the face the unit shows gives it, else its printed value."""
        for face in self.faces.get(u.id, ()) + self.faces.get(u.type, ()):
            if u.state.get(face.state) == face.value:
                value = next((v.value for v in face.values if v.name == name), None)
                if value is not None:
                    return X if value == "X" else MISSING if value == "?" else value
        return u.stats.get(name)

    def shown_face(self, u: Unit, state: str) -> n.FaceDecl | None:
        """The face a unit shows by its unit state `state`, if one is declared for its counter or type."""
        return next((f for f in self.faces.get(u.id, ()) + self.faces.get(u.type, ())
                     if f.state == state and u.state.get(state) == f.value), None)

    def attribute(self, obj: Any, name: str, span: Span) -> Any:
        if isinstance(obj, Unit):
            if name in self.sym.stats:
                v = self.face_value(obj, name) if name in self.faced else obj.stats.get(name)
                if v is MISSING:
                    raise RuleError(
                        f"{obj}'s {name} value is not printed in the rulebook (declared '?')", span,
                        hint="a scenario must give it a fixture value",
                    )
                return v
            reading = unit_reading(self.sym, name)
            if reading is None:
                raise RuleError(f"a unit has no attribute '{name}'", span)
            return reader(reading)(obj)
        if isinstance(obj, Place):
            reading = place_reading(self.sym, name)
            if reading is not None:
                return reader(reading)(obj)
            if name in obj.state:  # a place's own state that no property declares
                return obj.state[name]
            raise RuleError(f"a place has no attribute '{name}'", span)
        if obj.__class__ is Record:
            return records.read(obj, name, lambda message: _stop(message, span))
        raise RuleError(f"cannot read '.{name}' of {show(obj)}", span)

    def require_side(self, value: Any, span: Span) -> None:
        if value not in self.sym.sides:
            raise RuleError(f"{show(value)} is not a side", span)

    def as_units(self, value: Any, span: Span) -> list[Unit]:
        if value is None:
            return []
        if isinstance(value, Unit):
            return [value]
        if isinstance(value, list) and all(isinstance(u, Unit) for u in value):
            return list(value)
        raise RuleError(f"expected a unit or a list of units, not {show(value)}", span)

    # ── effects ──
    def set_global(self, name: str, value: Any, cite: str) -> None:
        self.state.globals[name] = value
        secret = self.viewer is not None and self.viewer.unknown_state(self.sym.game_states.get(name))
        self.trace(cite, f"{name} is now {show(value)}", "state", secret)

    def keyed_state(self, name: str, key: Any, span: Span) -> Any:
        """`NAME[key]` of a per-key game state (language 6.4a): its value for that key, which must be one of its keys."""
        values = self.state.globals[name]
        if key.__class__ is not str or key not in values:
            raise RuleError(f"{show(key)} is not a key of {name}: its keys are {', '.join(values)}", span)
        return values[key]

    def set_keyed_state(self, name: str, key: Any, value: Any, cite: str, span: Span) -> None:
        """`set NAME[key] = value` of a per-key game state, traced `NAME[key] is now value`."""
        self.keyed_state(name, key, span)
        self.state.globals[name][key] = value
        secret = self.viewer is not None and self.viewer.unknown_state(self.sym.game_states.get(name))
        self.trace(cite, f"{name}[{key}] is now {show(value)}", "state", secret)

    def set_state(self, obj: Any, name: str, value: Any, cite: str, span: Span) -> None:
        if obj.__class__ is Record:
            return records.write(obj, name, value, self.sym, lambda message: _stop(message, span))
        before = None
        if isinstance(obj, Unit) and name in self.sym.unit_states:
            before = self.shown_face(obj, name) if self.faces else None
            obj.state[name] = value
        elif isinstance(obj, Place) and name in self.sym.place_props and self.sym.place_props[name].mutable:
            if obj.state.get(name) == value:
                return
            obj.state[name] = value
        else:
            raise RuleError(f"cannot set '{name}' of {show(obj)}", span)
        self.mark(obj)
        secret = self.viewer is not None and isinstance(obj, Place) and self.viewer.unknown_state(self.sym.place_props[name])
        self.trace(cite, f"{obj}.{name} is now {show(value)}", "state", secret)
        if isinstance(obj, Unit) and self.faces and obj.location is not None and not obj.location.is_box:
            self.trace_face(obj, name, before, cite)  # a counter off the map shows no face to anyone

    def trace_face(self, u: Unit, state: str, before: n.FaceDecl | None, cite: str) -> None:
        """A unit state that turns a unit's face (5.6): the values it shows now, or its printed ones again."""
        after = self.shown_face(u, state)
        if after is before:
            return
        if after is None:
            self.trace(cite, f"{u} shows its printed values again", "state")
            return
        names = dict.fromkeys(v.name for f in self.faces.get(u.id, ()) + self.faces.get(u.type, ())
                              if f.state == state and f.value == after.value for v in f.values if not v.is_flag)
        values = ", ".join(f"{name} {show(self.face_value(u, name))}" for name in names)
        shown = after.value if isinstance(after.value, str) else f"{state} {after.value}"
        self.trace(after.cite, f"{u} shows its {shown} face: {values}", "state")

    def adjust_track(self, name: str, side: Any, by: Any, cite: str, span: Span) -> None:
        track = self.state.tracks[name]
        if side not in track.values:
            raise RuleError(f"{name} has no entry for {show(side)}", span)
        by = as_number(by)
        if not isinstance(by, int):
            raise RuleError(f"cannot adjust {name} by {show(by)}", span)
        old = track.values[side]
        new = old + by
        note = ""
        if new > track.high or new < track.low:
            if track.excess == "forbidden":
                label = name if side is None else f"{name}[{side}]"
                raise RuleError(f"{label} would go from {old} to {new}, outside {track.low}..{track.high}", span)
            clamped = max(track.low, min(track.high, new))
            note = f" ({new - clamped:+d} beyond the track, discarded)"
            new = clamped
        track.values[side] = new
        label = name if side is None else f"{name}[{side}]"
        self.trace(cite, f"{label} {old} -> {new}{note}", "track")

    def place_unit(self, unit: Unit, where: Place | Unit) -> None:
        """Put a unit somewhere without a trace line (set-up)."""
        self._detach(unit)
        if isinstance(where, Unit):
            unit.carrier = where
            where.cargo.append(unit)
            unit.location = where.location
        else:
            unit.location = where

    def _detach(self, unit: Unit) -> None:
        if unit.carrier is not None:
            unit.carrier.cargo.remove(unit)
            unit.carrier = None

    def move(self, units: list[Unit], to: Any, cite: str, span: Span) -> None:
        if not isinstance(to, Place):
            raise RuleError(f"cannot move to {show(to)}: it is not a place or box", span)
        viewer = self.viewer
        origins = [u.location for u in units] if viewer is not None else []
        for u in units:
            if u.carrier is not None:
                self.mark(u.carrier)  # the carrier changes too: it has lost what it carried (explain --why)
            self._detach(u)
            u.location = to
            for c in _all_cargo(u):
                c.location = to
                self.mark(c)
        self.mark(*units)
        if units:
            seen = None if viewer is None else (lambda: viewer.seen_moving(units, origins, to))
            self.trace(cite, moved(list(map(str, units)), f"to {to}"), "move", face_down=seen)

    def change_side(self, units: list[Unit], side: Any, cite: str, span: Span) -> None:
        self.require_side(side, span)
        for u in units:
            if u.side == side:
                continue
            old, u.side = u.side, side
            self.mark(u)
            self.trace(cite, f"{u} changes side: {old} -> {side}", "side")

    def embark(self, units: list[Unit], carrier: Any, cite: str, span: Span) -> None:
        if not isinstance(carrier, Unit) or carrier.location is None:
            raise RuleError(f"cannot embark onto {show(carrier)}: it is not a unit in play", span)
        for u in units:
            if u is carrier or carrier in _all_cargo(u):
                raise RuleError(f"{u} cannot be carried by {carrier}", span)
            if u.location is not carrier.location:
                raise RuleError(f"{u} is in {u.location}, not in {carrier.location} with {carrier}", span)
            self.place_unit(u, carrier)
        self.mark(*units)
        if units:
            self.trace(cite, f"{', '.join(map(str, units))} {'embarks' if len(units) == 1 else 'embark'} aboard {carrier}", "move")

    def game_event(self, event: str) -> Process:
        """A game event (game_start, turn_start, game_end): each hook announced with its citation, then run."""
        for h in self.sym.hooks:
            if h.event == event:
                self.trace(h.cite or "hook", f"turn {turn_label(self.sym.game, self.state.turn)}: {event.replace('_', ' ')}")
        return self.vm.event(event)

    def run_to_end(self, parts: Iterable[Callable[[], Iterator | None]], first: Iterator | None = None,
                   at_the_end: Callable[[], None] | None = None) -> Iterator:
        """Parts of play run one after another, driven like one generator (a runner drives it, or
        exact odds step by step), and the one place the end of a game is handled: an `end game` in
        any of them leaves it and goes on to the game's end, the game_end hooks (unless one of them
        ended it: an `end game` in them ends only them), and no further part runs.

        ``first`` is work already under way, run before the parts (a loaded save's decision, a
        rollout's answer, a position restored to go on from a roll); each part, made when the one
        before has ended, gives the work it runs (None: nothing to run). ``at_the_end`` is told
        as the game's end begins after an `end game` (a save there is of the game's end)."""
        try:
            if first is not None:
                yield from first
            for part in parts:
                self.epoch += 1  # a part begins on a position its cached function values may not hold for
                work = part()
                if work is not None:
                    yield from work
        except GameEnded as ended:
            if ended.in_the_end:
                return
            if at_the_end is not None:
                at_the_end()
            try:
                yield from self.game_event("game_end")
            except GameEnded:
                pass

    def missing_tables(self, needs) -> list[str]:
        """The tables a step or procedure `needs` that no file supplies (the rulebook does not print them)."""
        return [t for t in needs if t not in self.sym.tables]

    def not_playable(self, step: n.StepDecl) -> str | None:
        """Why a step cannot be played here ('not encoded yet', 'needs the missing …'), or None."""
        if step.pending:
            return "not encoded yet"
        unmet = self.missing_tables(step.needs)
        return f"needs the missing {', '.join(unmet)}" if unmet else None

    def run_step(self, phase: str, step: n.StepDecl) -> Iterator:
        """One step of the sequence of play, as a game and a scenario both play it: named, then run."""
        return (yield from self.start_step(phase, step))

    def start_step(self, phase: str, step: n.StepDecl) -> Process:
        """A step named in the trace, and the process that runs it."""
        self.state.step = step.name
        self.trace(step.cite or step.name, f"turn {turn_label(self.sym.game, self.state.turn)}, {phase}, {step.name}")
        return self.vm.step(phase, step)

    def first_step(self) -> tuple[str, str] | None:
        """(phase, step) of the first step of every turn: where `turn_start` hooks run."""
        seq = self.sym.sequence
        for phase in seq.phases if seq else ():
            for step in phase.steps:
                return phase.name, step.name
        return None

    # ── procedures, functions, tables ──
    def procedure(self, name: str) -> Procedure:
        proc = self._procs.get(name)
        if proc is None:
            proc = self._procs[name] = Procedure(self, self.sym.procedures[name])
        return proc

    def table(self, name: str) -> Table:
        """The table in use under a name, with its rows' bounds and index: made once for the table's node
        (an amended table is another node, so it gets its own)."""
        decl = self.sym.tables[name]
        table = self._tables.get(name)
        if table is None or table.source is not decl:
            table = self._tables[name] = Table(self, decl)
        return table

    def function_caller(self, decl: n.FunctionDecl, args: list, names: list, span: Span):
        """A call of a ruleset function as a closure of the caller's locals (its arguments are closures)."""
        call_values = self.function_called(decl, names, span)
        if len(args) == 1:  # the usual call, f(u): no list
            single = args[0]

            def call(env):
                return call_values(single(env))
        else:
            def call(env):
                return call_values(*[a(env) for a in args])

        if not self.explain:
            return call

        def consulted(env):
            value = call(env)
            shown = ", ".join(_brief(v) for v in (a(env) for a in args))
            self.consulted.append(f"{decl.name}({shown}) [{decl.cite or decl.name}] = {_brief(value)}")
            return value

        return consulted

    def function_passed(self, decl: n.FunctionDecl, span: Span, leading: int = 0):
        """A ruleset function given by its name to a built-in (cheapest's STEP): a caller of its ``leading``
        arguments (the mover, language 13) and two values, each call noted as a call written in the rules
        is when explaining."""
        call = self.function_positional(decl, leading + 2, span)
        if not self.explain:
            if not leading and decl.name in self.lasting.names:
                call.lasting = decl.name  # a path may replay its kept values from trees (LastingMemo.frequent)
            return call

        def consulted(*values):
            value = call(*values)
            shown = ", ".join(_brief(v) for v in values)
            self.consulted.append(f"{decl.name}({shown}) [{decl.cite or decl.name}] = {_brief(value)}")
            return value

        return consulted

    def function_values(self, decl: n.FunctionDecl, names: list, span: Span):
        """A call of a ruleset function given its arguments' values in a list (named as `names` gives,
        None for a positional one): the one caller (calls.py), cached for the epoch (see `memo`)."""
        call = self.function_called(decl, names, span)
        return lambda values: call(*values)

    def function_called(self, decl: n.FunctionDecl, names: list, span: Span):
        """A call of a ruleset function given its arguments' values as they are (`call(v0, v1, …)`), named as
        `names` gives: the one caller every call goes through (calls.py)."""
        return caller(self, decl, tuple(names), span, lambda: self._function_body(decl))

    def function_positional(self, decl: n.FunctionDecl, arity: int, span: Span):
        """function_called for the usual call, its arguments all positional (`f(u)`, `f(p, s)`)."""
        return self.function_called(decl, [None] * arity, span)

    def _function_body(self, decl: n.FunctionDecl):
        """The body of a ruleset function, lowered once for every call of it (it depends on nothing else)."""
        known = self._bodies.get(decl.name)
        if known is not None and known[0] is decl:
            return known[1]
        unmet = self.missing_tables(decl.needs)
        if unmet:  # never lowered (its tables have nothing to read): a call stops the run with the reason
            body = _needs_stop(f"function '{decl.name}'", decl, unmet)
            self._bodies[decl.name] = (decl, body)
            return body
        comp = self.compiler
        outer = comp.cite, comp.rule
        comp.cite, comp.rule = decl.cite, decl.name
        try:
            body = comp.expr(decl.body)
        finally:
            comp.cite, comp.rule = outer
        self._bodies[decl.name] = (decl, body)
        return body

    def count_steps(self, steps: int, span: Span, cite: str | None) -> None:
        """Items gone through (by a comprehension, a matching) count against the step budget too."""
        self.steps += steps
        if self.steps > self.max_steps:
            raise over_budget(self.max_steps, span, cite)

    def sees(self, side: str, unit: Unit) -> bool:
        """Whether a side sees a unit, by the ruleset's view function (everything, without one)."""
        view = self.sym.view
        if view is None:
            return True
        if self._view_fn is None:
            decl = self.sym.functions[view.function]
            names = [p.name for p in decl.params]
            body = self.compiler.expr(decl.body)
            self._view_fn = lambda u, s: bool(body({names[0]: u, names[1]: s}))
        return self._view_fn(unit, side)

    def builtin(self, name: str):
        return self._builtins[name]

    def run_invariants(self) -> None:
        """Check the ruleset's invariants against the position; failures are traced, not fatal."""
        self.state.facts.setdefault(RULE_CHECKS_FAILED, 0)
        for inv in self.sym.invariants:
            try:
                for _ in self.vm.invariant(inv):
                    raise RuleError(f"invariant '{inv.name}' may not roll dice or ask for decisions", inv.span)
            except GameEnded:
                raise RuleError(f"invariant '{inv.name}' may not end the game: it checks a position", inv.span) from None


def _all_cargo(u: Unit) -> list[Unit]:
    out = []
    for c in u.cargo:
        out.append(c)
        out.extend(_all_cargo(c))
    return out


def _stop(message: str, span: Span):
    raise RuleError(message, span)


def _needs_stop(what: str, decl, unmet: list[str]):
    """What calling a procedure or function does while a table it needs is missing: stop, with the reason."""

    def stop(env):
        raise RuleError(
            f"{what} needs the missing table(s) {', '.join(unmet)}, which no data file supplies",
            decl.span, decl.cite, "run it with a ruleset whose data file supplies the table (a demo data file, or a scenario fixture overlay)",
            tuple(unmet),
        )

    return stop


class Procedure:
    def __init__(self, engine: Engine, decl: n.ProcedureDecl):
        self.decl = decl
        self.engine = engine
        self.params = [p.name for p in decl.params]
        # A procedure that needs a table no data file supplies is never lowered (its lookups
        # have nothing to read); calling it stops the run with the reason.
        self.unmet = engine.missing_tables(decl.needs)

    def check_supplied(self) -> None:
        """A procedure that needs a table no file supplies stops the run when it is called."""
        if self.unmet:
            _needs_stop(f"procedure '{self.decl.name}'", self.decl, self.unmet)({})

    def bind(self, args: list[tuple[str | None, Any]]) -> dict:
        return bind_args(self.params, args)

    def call(self, args: list[tuple[str | None, Any]]) -> Process:
        """The procedure run from its start (a scenario's `run`): a process the driver runs."""
        return self.engine.vm.call(self, args)


class Table:
    """A die table: roll, apply the modifiers that hold, find the row, run its effect."""

    def __init__(self, engine: Engine, decl: n.TableDecl):
        self.engine = engine
        self.source = decl  # the node as the rules give it (an overlay's amended table is another node)
        self.decl = decl = citations.table(decl)  # every row, modifier and policy with the citation it is traced under
        self.params = [p.name for p in decl.params]
        comp = engine.compiler
        outer, comp.rule = comp.rule, f"table_{decl.name}"  # names the generated code of its expressions
        try:
            self._lower(engine, decl, comp)
        finally:
            comp.rule = outer

    def _lower(self, engine: Engine, decl: n.TableDecl, comp) -> None:
        """The table's expressions lowered, its rows' key ranges and bounds read, its index begun."""
        self.die = engine.sym.dice[decl.die] if decl.read_at is None else None  # 'read at': no die
        self.modifiers = [(m, comp.expr(m.value), comp.expr(m.when) if m.when is not None else None) for m in decl.modifiers]
        # Every row's key ranges, read once: a table is read many times (a path's cost per hex, per wind).
        self.row_keys = [(r, r.keys()) for r in decl.rows]
        self.low = min(keys[0][0] for _, keys in self.row_keys)  # -inf or inf where an open row ('..2', '16..') ends the table
        self.high = max(keys[0][1] for _, keys in self.row_keys)
        # The bounds of each further key of a table read at two values (8.6), over every row.
        self.more_bounds = [(min(keys[i][0] for _, keys in self.row_keys), max(keys[i][1] for _, keys in self.row_keys), name)
                            for i, name in enumerate(decl.read_also, start=1)]
        # The row found for each set of keys read. A key beyond every printed bound of its place finds the
        # same rows as the bound's next value, so it is kept under that value: the index holds at most
        # the keys the rows print, plus one beyond each end.
        self.found: dict[tuple, n.Row] = {}
        self.ends = [_printed_ends([keys[i] for _, keys in self.row_keys]) for i in range(1 + len(decl.read_also))]
        self.columns = Columns(engine, decl) if decl.columns is not None else None
        # The arguments each cell gives the declared result it names (8.3a), by row and column.
        self.given_args = {(id(r), col): [(a.name, comp.expr(a.value)) for a in args]
                           for r in decl.rows for col, args in enumerate(r.cell_args) if args is not None}

    def given(self, row: n.Row, column: int, declared: n.TableResult | None, env: dict) -> dict:
        """The names the declared result a cell names reads: its parameters bound to the cell's arguments,
        each read with the table's own names (8.3a); nothing for a result without parameters."""
        args = self.given_args.get((id(row), column))  # the rows are this table's own, kept as long as it is
        if not args or declared is None:
            return {}
        return bind_args([p.name for p in declared.params], [(name, value(env)) for name, value in args])

    def bind(self, args: list[tuple[str | None, Any]]) -> dict:
        return bind_args(self.params, args)

    def run(self, env: dict, cite) -> Process:
        """The table read from the start (a scenario's `run`): a process the driver runs (vm.TableFrame)."""
        return self.engine.vm.table_run(self, env, cite)

    def column(self, env: dict) -> tuple[int | None, str, str | None]:
        """The column a column table reads and its heading, 0 for a plain table; beyond the columns (traced),
        None and the result the table gives there with no roll, or None (no effect)."""
        d = self.decl
        if self.columns is None:
            return 0, "", None
        column, heading, end = self.columns.find(env)
        if column is not None:
            self.engine.state.facts[f"{d.name} column"] = d.columns.headers[column].label
            return column, heading, None
        policy, _, cite = d.column_end(end)
        if policy == "no_effect":
            self.engine.trace(cite, f"{d.name}: {heading}, beyond the columns: no effect")
            return None, heading, None
        # A result of the table itself, read with no roll (an automatic elimination, 8.3).
        declared = next((r for r in d.results if r.name == policy), None)
        label = (declared.label if declared else None) or policy
        self.engine.trace(cite, f"{d.name}: {heading}; {end} the columns, no roll -> {label}")
        self.engine.state.facts[f"{d.name} column"] = self.columns.at(-1 if end == "below" else len(d.columns.headers))
        return None, heading, policy

    def count(self, env: dict) -> int:
        """How many dice: the printed count, or the parameter that holds it ('roll dice d6')."""
        d = self.decl
        if d.count_param is None:
            return d.count
        count = as_number(env.get(d.count_param))
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise RuleError(f"{d.name} rolls {d.count_param} = {show(count)} dice: the number of dice must be 1 or more", d.die_span)
        if count > limits.MAX_POOL:
            raise RuleError(f"{d.name} rolls {d.count_param} = {count} dice: more than the {limits.MAX_POOL} one roll "
                            "may have", d.die_span)
        return count

    def key(self, env: dict) -> int:
        """The value a 'read at' table is read at: its parameter's, a whole number."""
        d = self.decl
        v = as_number(env.get(d.read_at))
        if not isinstance(v, int) or isinstance(v, bool):
            raise RuleError(f"{d.name} is read at {d.read_at} = {show(v)}, not a number", d.die_span)
        return v

    def more_keys(self, env: dict) -> list[int | None]:
        """The further keys of a table read at two values ('read at severity, zone', 8.6), each read as the
        first is: a whole number, clamped to the rows or None (no effect) by the table's 'beyond' policy."""
        out = []
        for low, high, name in self.more_bounds:
            v = as_number(env.get(name))
            if not isinstance(v, int) or isinstance(v, bool):
                raise RuleError(f"{self.decl.name} is read at {name} = {show(v)}, not a number", self.decl.die_span)
            out.append(v if low <= v <= high else self.beyond(v, low, high, name))
        return out

    def beyond(self, v: int, low: float, high: float, what: str) -> int | None:
        """A value outside every row, as the 'beyond' policy reads it: the nearest row, no effect (None), or a stop."""
        d = self.decl
        if d.beyond == "clamp":
            return int(max(low, min(high, v)))
        if d.beyond == "no_effect":
            return None
        rows = n.show_range(*(None if abs(x) == math.inf else int(x) for x in (low, high)))
        raise RuleError(f"{d.name}: the {what} {v} is outside rows {rows} and the rulebook gives no ruling", d.span, d.beyond_cite)

    def unprinted(self, row: n.Row, keys: list[int], column: int) -> None:
        """A result the rulebook does not print ('?', 8.7): the run cannot go on, and says where."""
        d = self.decl
        names = (d.read_at, *d.read_also) if d.read_at is not None else ("the modified roll" if d.modifiers else "the roll",)
        where = ", ".join(f"{name} {k}" for name, k in zip(names, keys))
        where += f" in column {d.columns.headers[column].label}" if d.columns is not None else ""
        raise Unprinted(f"{d.name}: the rulebook does not print the result for {where}", row.span, row.cite or d.cite,
                        "no rule can go on from here: a result the table does not print is never invented",
                        missing=(f"{d.name} at {where}",))

    def value(self, env: dict) -> Any:
        """The result a table read at a value gives, read in an expression (language 8.4): no line, no fact,
        no effect (the checker allows it only for a table with none); none where the table says 'no effect'."""
        column = 0
        if self.columns is not None:
            column, _, end = self.columns.find(env)
            if column is None:
                policy = self.decl.column_end(end)[0]
                return None if policy == "no_effect" else policy  # no effect, or the result given with no roll
        total, _ = self.modified(self.key(env), env)
        index, more = self.index(total), self.more_keys(env)
        if index is None or None in more:
            return None
        row = self.row(index, more)
        result = row.cell(column)
        if result == "?":
            self.unprinted(row, [index, *more], column)
        return result

    def row(self, index: int, more: list[int]) -> n.Row:
        """The row a value (and the further keys of a table read at two values) falls in."""
        keys = (index, *more)
        row = self.found.get(keys)  # keys within the printed ones are kept as they are
        if row is not None:
            return row
        keys = tuple(k if low <= k <= high else max(low, min(high, k)) for k, (low, high) in zip(keys, self.ends))
        row = self.found.get(keys)
        if row is None:
            row = next((r for r, ranges in self.row_keys if all(lo <= k <= hi for k, (lo, hi) in zip(keys, ranges))), None)
            if row is None:
                d = self.decl
                raise RuleError(f"{d.name} has no row for {index}{''.join(f', {k}' for k in more)}", d.span)
            self.found[keys] = row
        return row

    def modified(self, raw: int, env: dict) -> tuple[int, str]:
        """The roll with every modifier that holds, and the trace's account of them."""
        total, applied = raw, []
        for m, value, when in self.modifiers:
            if when is None or when(env):
                v = as_number(value(env))
                if not isinstance(v, int):
                    raise RuleError(f"modifier '{m.name}' of {self.decl.name} is {show(v)}, not a number", m.span)
                total += v
                applied.append(f"{m.name} {v:+d} [{m.cite}]")
        return total, (f" {' '.join(applied)}" if applied else "")

    def index(self, total: int) -> int | None:
        """The row a modified roll reads: itself, clamped, or None (no effect) as the table's policy says."""
        d = self.decl
        if self.low <= total <= self.high:
            return total
        if d.beyond == "clamp":
            return max(self.low, min(self.high, total))
        if d.beyond == "no_effect":
            return None
        what = "modified roll" if d.read_at is None else ("modified value" if d.modifiers else "value")
        rows = n.show_range(*(None if abs(v) == math.inf else int(v) for v in (self.low, self.high)))
        raise RuleError(f"{d.name}: the {what} {total} is outside rows {rows} and the rulebook gives no ruling",
                        d.span, d.beyond_cite)


def _printed_ends(ranges: list[tuple[float, float]]) -> tuple[float, float]:
    """The values a key of a table is kept under in its index: every key below the lowest printed bound
    finds the rows any such key finds (those open below), and so above; one beyond each printed end."""
    printed = [bound for pair in ranges for bound in pair if abs(bound) != math.inf]
    if not printed:
        return 0, 0  # every row open at both ends in this place: one key stands for all
    return min(printed) - 1, max(printed) + 1


class Columns:
    """The column of a column table (language 8.3): found from odds, a difference or a value, then shifted."""

    def __init__(self, engine: Engine, decl: n.TableDecl):
        comp = engine.compiler
        self.decl = decl  # as `citations.table` gave it: each shift and policy carries its citation
        self.cols = decl.columns
        self.args = [comp.expr(a) for a in self.cols.args]
        self.shifts = [(sh, comp.expr(sh.value), comp.expr(sh.when) if sh.when is not None else None) for sh in decl.shifts]
        self.ratios = [h.ratio for h in self.cols.headers] if self.cols.by == "odds" else []
        # Odds are shown as the columns are written: '7:3' beside '2:1', '7-3' beside the printed '2-1'.
        self.odds_mark = "-" if self.ratios and "-" in self.cols.headers[0].label else ":"

    def number(self, value: Any, what: str) -> int:
        v = as_number(value)
        if not isinstance(v, int) or isinstance(v, bool):
            raise RuleError(f"{self.decl.name}: {what} is {show(v)}, not a number", self.cols.span)
        return v

    def base(self, env: dict) -> tuple[int, str]:
        """The column the values fall in, as an index that may lie off either end (-1, len)."""
        heads = self.cols.headers
        values = [self.number(a(env), f"the {self.cols.by} value") for a in self.args]
        if self.cols.by == "odds":
            a, b = values
            if a < 0 or b < 0:
                raise RuleError(f"{self.decl.name}: odds {a}:{b} compare a strength below 0", self.cols.span)
            return odds_column(a, b, self.ratios, self.cols.rounding), f"odds {a}{self.odds_mark}{b}"
        v = values[0] - values[1] if self.cols.by == "difference" else values[0]
        seen = f"{self.cols.by} {v}"
        for i, h in enumerate(heads):
            if (h.low is None or h.low <= v) and (h.high is None or v <= h.high):
                return i, seen
        return (-1 if heads[0].low is not None and v < heads[0].low else len(heads)), seen

    def find(self, env: dict) -> tuple[int | None, str, str | None]:
        """The column index and the trace's account of it; off the table with no column to read, None and the
        end it lies beyond ("below" or "above"), whose policy gives no effect or a result with no roll.
        The shifts apply first, then what the end says."""
        d, heads = self.decl, self.cols.headers
        index, seen = self.base(env)
        steps = [seen + " -> " + self.at(index)]
        for sh, value, when in self.shifts:
            if when is None or when(env):
                v = self.number(value(env), f"shift '{sh.name}'")
                if v:
                    index = min(max(index, -1), len(heads)) + v
                    steps.append(f"{sh.name} {v:+d} [{sh.cite}] -> {self.at(index)}")
        if not 0 <= index < len(heads):
            end = "below" if index < 0 else "above"
            policy, _, cite = d.column_end(end)
            if policy == "clamp":
                index = max(0, min(len(heads) - 1, index))
                steps.append(f"read as {heads[index].label} [{cite}]")
            elif policy == "unresolved" or policy is None:
                raise RuleError(f"{d.name}: {', '.join(steps)}: the column is off the table and the rulebook gives no ruling",
                                d.span, cite)
            else:
                return None, ", ".join(steps), end
        return index, ", ".join(steps) + "; ", None

    def at(self, index: int) -> str:
        heads = self.cols.headers
        if index < 0:
            return f"left of {heads[0].label}"
        if index >= len(heads):
            return f"right of {heads[-1].label}"
        return heads[index].label

