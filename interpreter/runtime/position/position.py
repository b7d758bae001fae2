"""A game in progress as plain data (issue 13): what the engine's objects hold, read out and put back.

The engine plays on live objects (units, places, frames), which is what makes it quick; a
`Position` is what of them a game can change, copied out into records:

- each unit's record: its side, where it is, what carries it, what it carries, its state;
- each place's state that is not empty; the tracks; what each cup holds; the game values and
  facts; the clock;
- the stack of the process running (every frame: its code, where it stands, its locals,
  its open loops), whether it waits for an answer, and what the engine holds open for it
  (eliminations held back by `simultaneously`, the depth of calls, the steps taken).

What never changes in a game is not in it: the map's neighbours and properties, counters'
printed values and flags, the compiled code and tables. A position names units and places
by the engine's objects, so it is restored into the engine it was taken from (a search, the
odds' branches); `key()` names them by id, the same in every process.

Copying reads only the mutable parts (`_copy`: containers copied, everything else shared,
aliases kept: a pool a reroll window holds is the pool its frame's locals hold), which is
what keeps a copy to tens of microseconds where a deep copy of the state took a millisecond.
"""

from __future__ import annotations

from typing import Any

from ..common.requests import DrawRequest
from ..common.values import Die, Place, Pool, Record, Unit
from ..execution.vm import Code, CodeFrame, Frame, Process, TableFrame

_ATOMS = frozenset({int, str, float, bool, type(None), Die, Unit, Place, Code})  # never changed in place: shared


def _copy(v: Any, memo: dict) -> Any:
    """A value as a position keeps it: lists, maps, sets, pools and frames copied (once each,
    aliases kept), everything else shared."""
    t = type(v)
    if t in _ATOMS:
        return v
    found = memo.get(id(v))
    if found is not None:
        return found
    if t is dict:
        out: Any = {}
        memo[id(v)] = out
        for k, x in v.items():
            out[k] = x if type(x) in _ATOMS else _copy(x, memo)
    elif t is list:
        out = []
        memo[id(v)] = out
        for x in v:
            out.append(x if type(x) in _ATOMS else _copy(x, memo))
    elif t is tuple:
        out = tuple([x if type(x) in _ATOMS else _copy(x, memo) for x in v])
        memo[id(v)] = out
    elif t is Pool:
        out = Pool([], v.label, v.key, v.die)
        memo[id(v)] = out
        out.extend(v)  # its dice are faces: shared
        if v.spread is not None:  # kept as a distribution by exact odds (common/spread.py): never changed, shared
            out.spread = v.spread
    elif t is set or t is frozenset:
        out = t(_copy(x, memo) for x in v)
        memo[id(v)] = out
    elif t is Record:
        out = Record(v.type, {})
        memo[id(v)] = out
        out.fields = _copy(v.fields, memo)
    elif isinstance(v, Frame):
        out = _copy_frame(v, memo)
    else:
        return v  # a request, a function, a table, a citation: never changed by a copy's play
    return out


def copied(v: Any) -> Any:
    """A value copied as a position copies it (its own memo of aliases)."""
    return _copy(v, {})


def _copy_frame(f: Frame, memo: dict) -> Frame:
    out = object.__new__(type(f))
    memo[id(f)] = out
    if isinstance(f, CodeFrame):
        out.code, out.pc, out.env, out.loops = f.code, f.pc, _copy(f.env, memo), _copy(f.loops, memo)
        out.done, out.asked, out.label = f.done, f.asked, f.label
    else:
        for name, value in vars(f).items():
            setattr(out, name, _copy(value, memo))
    return out


class Position:
    """The game in progress, as records (see the module's account)."""

    __slots__ = ("units", "places", "tracks", "cups", "globals", "facts", "clock", "stack", "waiting", "deferred",
                 "depth", "steps", "events", "violations")

    @classmethod
    def of(cls, engine, proc: Process) -> Position:
        memo: dict = {}
        st, pos = engine.state, cls()
        pos.units = tuple((u, u.side, u._location, u.carrier, tuple(u.cargo), _copy(u.state, memo)) for u in st.units.values())
        pos.places = {p: _copy(p.state, memo) for p in st.every_place() if p.state}
        pos.tracks = {name: dict(t.values) for name, t in st.tracks.items()}
        pos.cups = {name: dict(chits) for name, chits in st.cups.items()}
        pos.globals, pos.facts = _copy(st.globals, memo), _copy(st.facts, memo)
        pos.clock = (st.turn, st.phase, st.step)
        pos.stack = tuple(_copy(f, memo) for f in proc.stack)
        pos.waiting, pos.deferred = proc.waiting, _copy(engine.deferred, memo)
        pos.depth, pos.steps = engine.depth, engine.steps
        pos.events, pos.violations = len(engine.events), len(engine.violations)
        return pos

    def restore(self, engine, proc: Process) -> None:
        """Put the position back into the engine it was taken from (and the process shell given);
        the position itself is not changed, so it can be restored again. The trace is cut back
        to where it stood."""
        memo: dict = {}
        st = engine.state
        for u, side, location, carrier, cargo, state in self.units:
            if u._location is not location:
                u.location = location
            u.side, u.carrier, u.cargo, u.state = side, carrier, list(cargo), _copy(state, memo) if state else {}
        for p in st.every_place():
            saved = self.places.get(p)
            if saved is not None:
                p.state = _copy(saved, memo)
            elif p.state:
                p.state = {}
        for name, t in st.tracks.items():
            t.values = dict(self.tracks[name])
        st.cups = {name: dict(chits) for name, chits in self.cups.items()}
        st.globals, st.facts = _copy(self.globals, memo), _copy(self.facts, memo)
        st.turn, st.phase, st.step = self.clock
        proc.stack, proc.waiting = [_copy(f, memo) for f in self.stack], self.waiting
        engine.deferred, engine.depth, engine.steps = _copy(self.deferred, memo), self.depth, self.steps
        del engine.events[self.events:]
        del engine.violations[self.violations:]
        engine.epoch += 1  # cached function values belong to the position that was left

    def key(self) -> tuple:
        """A canonical, hashable account of the position: two paths that reach the same game (the
        same units where they are with the same values, the same tracks, facts and game values,
        the same frames at the same instructions with the same locals still to be read) give equal
        keys. Left out: the steps taken (the budget counts work, not the game), the trace, and a
        frame's locals that no instruction still to run reads (a spent roll does not keep two
        positions apart: `Code.live`)."""
        units = tuple(sorted((u.id, side, canon(loc), canon(carrier), canon(cargo), canon(state))
                             for u, side, loc, carrier, cargo, state in self.units))
        places = tuple(sorted((p.id, canon(s)) for p, s in self.places.items()))
        tracks = tuple(sorted((name, canon(v)) for name, v in self.tracks.items()))
        game = (canon(self.globals), canon(self.facts), self.clock)
        stack = tuple(_canon_frame(f) for f in self.stack)
        cups = tuple((name, tuple(chits.values())) for name, chits in sorted(self.cups.items()))
        return units, places, tracks, game, stack, self.waiting, canon(self.deferred), self.depth, cups


def _canon_frame(frame: Frame) -> tuple:
    if isinstance(frame, CodeFrame):
        env = frame.env
        live = frame.code.live(frame.pc)
        locals_ = tuple(sorted((k, canon(v)) for k, v in env.items() if k in live))
        return ("code", frame.code.name, frame.pc, locals_, _loops(frame.loops), canon(frame.asked),
                canon(frame.done))
    fields = vars(frame)
    if isinstance(frame, TableFrame) and frame.result_to is not None:
        # the lookup's variable is in the caller's locals, which its own frame's key holds
        fields = {**fields, "result_to": frame.result_to[1]}
    return (type(frame).__name__,) + tuple((name, canon(v)) for name, v in sorted(fields.items()) if name != "label")


def _loops(loops: list) -> tuple:
    """Open loops as a key holds them: a plain `repeat`'s round count is left out (it counts work
    for the limit, as the steps do, not the game), so a position that a tie sends back to the same
    roll is the position it was. A loop of rounds (`as`, `up to`, a time unit) keeps its count and
    limit: the round's number is part of the game there."""
    return tuple(("repeat", loop[2]) if loop[0] == "repeat" and len(loop) == 3 else canon(loop) for loop in loops)


def canon(v: Any) -> Any:
    """A value as a key holds it: units and places by id, dice by face, code and tables by name,
    containers as sorted tuples; a bool kept apart from the number it equals."""
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return int(v)  # a Die reads as its face
    if isinstance(v, Pool):
        if v.spread is not None:  # kept as a distribution by exact odds (common/spread.py)
            return ("pool", v.label, v.spread.key())
        return ("pool", v.label, tuple(int(d) for d in v))
    if isinstance(v, Unit):
        return ("unit", v.id)
    if isinstance(v, (list, tuple)):
        return tuple(canon(x) for x in v)
    if isinstance(v, dict):
        return ("map", tuple(sorted(((canon(k), canon(x)) for k, x in v.items()), key=repr)))
    if isinstance(v, Record):  # its fields in their declared order, which every record of its type has
        return ("record", v.type, tuple((k, canon(x)) for k, x in v.fields.items()))
    if isinstance(v, (set, frozenset)):
        return ("set", tuple(sorted((canon(x) for x in v), key=repr)))
    return _canon_other(v)


def _canon_other(v: Any) -> Any:
    """canon() of what the rules' values are not: code, frames, a draw, places, tables, callbacks, requests."""
    if isinstance(v, Code):
        return ("code", v.name)
    if isinstance(v, Frame):
        return _canon_frame(v)
    if isinstance(v, DrawRequest):  # what it may draw, by id (its units' and places' reprs are not keys)
        return ("draw", v.label, v.cup, tuple(canon(x) for x in v.values), tuple(v.weights), v.count, v.replace,
                tuple(v.forced) if v.forced is not None else None)
    place_id = getattr(v, "is_box", None) is not None and getattr(v, "id", None)
    if place_id:
        return ("place", place_id)
    decl = getattr(v, "decl", None)
    if decl is not None:  # a table or procedure of the compiled rules
        return (type(v).__name__, decl.name)
    if callable(v):
        return ("fn", getattr(v, "__qualname__", repr(v)))
    return repr(v)  # requests, spans, citations: their text
