"""A position as plain data (TOML-able) and back (issue 13), checked field by field on the way in.

`to_data(position)` writes what `Position` holds with every object named: units and places by
id, code by its key (`("procedure", "land_combat")`), tables by name, citations and spans by
their fields, dice by face, label and history. Containers a position holds twice (a pool in a
frame's locals and in a reroll window; the caller's locals a table read writes its result into)
are written once, with a `ref` number, and referred to after. TOML has no null, no tuples and
only text keys, so every value that is not a number, a text or a truth value is a small table
tagged `t` (`{t = "unit", id = "ES1"}`, `{t = "map", ref = 3, items = [[key, value], …]}`).

`from_data(data, engine)` reads it back against an engine set up with the same rules (and
scenario): every unit, place, code and table it names must exist there, every field must have
its type, and a wrong one is refused as `PositionError("field 'stack[1].env': …")`, before
anything is restored. What is read is a `Position` of that engine, which `restore` puts in place.
"""

from __future__ import annotations

from typing import Any

from ...ir import nodes as n
from ...lang import VALUE_TYPES
from ...limits import MAX_CHITS, MAX_DRAW, MAX_INT, MAX_POOL, MAX_TURNS
from ...syntax.diagnostics import Span
from ..common.requests import DrawRequest, RollRequest
from ..common.values import MISSING, Die, Place, Pool, Record, Unit, X
from ..execution.records import fits, misfit, type_text
from ..execution.vm import Code, CodeFrame, EliminateFrame, Frame, QueuedEliminations, RerollFrame, TableFrame, leave_call
from .position import Position

FORMAT = 1
_FRAMES = {cls.__name__: cls for cls in (CodeFrame, TableFrame, EliminateFrame, QueuedEliminations, RerollFrame)}
_ANY = object
_NAME = (str, type(None))
# Each kind of frame's fields and what each must be (a field in brackets only once the frame has got that far).
_FIELDS: dict[type, dict[str, Any]] = {
    CodeFrame: {"code": Code, "pc": int, "env": dict, "loops": list, "done": _ANY, "asked": (RollRequest, DrawRequest, type(None)),
                "label": _NAME},
    TableFrame: {"table": _ANY, "env": dict, "cite": _ANY, "result_to": (tuple, type(None)), "stage": str, "result": _ANY,
                 "[column]": _ANY, "[heading]": _ANY, "[effect]": Code, "[declared]": (Code, type(None)), "[given]": dict,
                 "[label]": _NAME},
    EliminateFrame: {"units": list, "because": _ANY, "cite": _ANY, "i": int, "hooked": (Unit, type(None)), "[label]": _NAME},
    QueuedEliminations: {"queued": list, "i": int, "[label]": _NAME},
    RerollFrame: {"pools": list, "sides": list, "spend": tuple, "cite": _ANY, "span": _ANY, "passes": int, "i": int,
                  "spent": list, "stage": str, "voided": _ANY, "[side]": _ANY, "[can_spend]": list, "[label]": _NAME},
}
_FUNCTIONS = {"leave_call": leave_call}  # the engine's own callbacks a frame may hold, by name
# Each kind of tagged value's fields besides its `t`: a field no kind has is refused, naming it.
_TAGGED: dict[str, tuple[str, ...]] = {
    "none": (), "x": (), "missing": (), "die": ("face", "label", "history"), "unit": ("id",), "place": ("id",),
    "code": ("name",), "cite": ("text", "section", "qualifier", "span"), "span": ("file", "line", "col", "end_line", "end_col"),
    "roll": ("count", "low", "high", "die", "label", "cite", "span"),
    "draw": ("count", "values", "weights", "replace", "label", "cup", "cite", "span"),
    "tuple": ("items",), "fn": ("name",), "table": ("name",), "ref": ("ref",), "pool": ("ref", "label", "key", "die", "dice"),
    "list": ("ref", "items"), "map": ("ref", "items"), "set": ("ref", "items"), "record": ("ref", "type", "fields"),
    "frame": ("ref", "frame", "fields"),
}
_POSITION = ("format", "clock", "units", "places", "tracks", "globals", "facts", "stack", "waiting", "deferred", "depth",
             "steps")


class PositionError(Exception):
    def __init__(self, reason: str, field: str = ""):
        super().__init__(f"field '{field}': {reason}" if field else reason)
        self.message, self.reason, self.field = str(self), reason, field

    def within(self, outer: str) -> str:
        """The message with the field named from a table the position is part of (a save's `position`)."""
        return f"field '{outer}.{self.field}': {self.reason}" if self.field else f"field '{outer}': {self.reason}"


# ───────────────────────────── writing ─────────────────────────────


class _Writer:
    def __init__(self):
        self.refs: dict[int, int] = {}
        self.keep: list = []  # what was numbered stays alive, so no id is reused while writing

    def value(self, v: Any) -> Any:
        if isinstance(v, bool) or isinstance(v, str):
            return v
        if isinstance(v, Die):
            return {"t": "die", "face": int(v), "label": v.label, "history": list(v.history)}
        if isinstance(v, int):
            return v
        simple = self._simple(v)
        if simple is not None:
            return simple
        if id(v) in self.refs:
            return {"t": "ref", "ref": self.refs[id(v)]}
        return self._container(v)

    def _simple(self, v: Any) -> dict | None:
        if v is None:
            return {"t": "none"}
        if v is X or v is MISSING:
            return {"t": "x" if v is X else "missing"}
        if isinstance(v, Unit):
            return {"t": "unit", "id": v.id}
        if isinstance(v, Place):
            return {"t": "place", "id": v.id}
        if isinstance(v, Code):
            return {"t": "code", "name": [self.value(part) for part in v.name]}
        if isinstance(v, n.Citation):
            return {"t": "cite", "text": v.text, "section": v.section, "qualifier": v.qualifier, "span": self.value(v.span)}
        if isinstance(v, Span):
            return {"t": "span", "file": v.file, "line": v.line, "col": v.col, "end_line": v.end_line, "end_col": v.end_col}
        if isinstance(v, (RollRequest, DrawRequest)):
            return self._request(v)
        if isinstance(v, tuple):
            return {"t": "tuple", "items": [self.value(x) for x in v]}
        name = next((k for k, fn in _FUNCTIONS.items() if fn is v), None)
        if name is not None:
            return {"t": "fn", "name": name}
        decl = getattr(v, "decl", None)
        if decl is not None and hasattr(v, "die"):  # a table of the rules
            return {"t": "table", "name": decl.name}
        return None

    def _request(self, v: RollRequest | DrawRequest) -> dict:
        """The roll or draw a frame waits for."""
        if isinstance(v, RollRequest):
            return {"t": "roll", "count": v.count, "low": v.low, "high": v.high, "die": v.die, "label": v.label,
                    "cite": self.value(v.cite), "span": self.value(v.span)}
        return {"t": "draw", "count": v.count, "values": [self.value(x) for x in v.values], "weights": list(v.weights),
                "replace": v.replace, "label": v.label, "cup": self.value(v.cup), "cite": self.value(v.cite),
                "span": self.value(v.span)}

    def _container(self, v: Any) -> dict:
        ref = self.refs[id(v)] = len(self.refs) + 1
        self.keep.append(v)
        if isinstance(v, Pool):
            return {"t": "pool", "ref": ref, "label": v.label, "key": self.value(v.key), "die": list(v.die),
                    "dice": [self.value(d) for d in v]}
        if isinstance(v, list):
            return {"t": "list", "ref": ref, "items": [self.value(x) for x in v]}
        if isinstance(v, dict):
            return {"t": "map", "ref": ref, "items": [[self.value(k), self.value(x)] for k, x in v.items()]}
        if isinstance(v, (set, frozenset)):
            return {"t": "set", "ref": ref, "items": [self.value(x) for x in sorted(v, key=repr)]}
        if isinstance(v, Record):
            return {"t": "record", "ref": ref, "type": v.type, "fields": [[k, self.value(x)] for k, x in v.fields.items()]}
        if isinstance(v, Frame):
            return self.frame(v, ref)
        raise PositionError(f"a {type(v).__name__} cannot be written into a position (a bug of Umpire)")

    def frame(self, f: Frame, ref: int) -> dict:
        if isinstance(f, CodeFrame):
            fields = {name: getattr(f, name) for name in CodeFrame.__slots__}
        else:
            fields = dict(vars(f))
        if isinstance(f, RerollFrame):  # its expression is the reroll statement's, found again from the frame below
            fields["spend"] = f.spend[1:]
        return {"t": "frame", "ref": ref, "frame": type(f).__name__,
                "fields": {name: self.value(v) for name, v in fields.items()}}


def to_data(pos: Position) -> dict:
    """The position as a TOML-able table (see the module's account); what each cup holds, by chit, in a
    game that has cups (a game without keeps the table it always had)."""
    w = _Writer()
    data = {
        "format": FORMAT,
        "clock": [w.value(x) for x in pos.clock],
        "units": [{"id": u.id, "side": w.value(side), "location": w.value(loc), "carrier": w.value(carrier),
                   "cargo": [c.id for c in cargo], "state": w.value(state)}
                  for u, side, loc, carrier, cargo, state in pos.units],
        "places": [{"id": p.id, "state": w.value(state)} for p, state in pos.places.items()],
        "tracks": [{"name": name, "values": [[w.value(k), v] for k, v in values.items()]} for name, values in pos.tracks.items()],
        "globals": w.value(pos.globals),
        "facts": w.value(pos.facts),
        "stack": [w.value(f) for f in pos.stack],
        "waiting": pos.waiting,
        "deferred": w.value(pos.deferred),
        "depth": pos.depth,
        "steps": pos.steps,
    }
    if pos.cups:
        data["cups"] = [{"name": name, "chits": [[chit, k] for chit, k in chits.items()]} for name, chits in pos.cups.items()]
    return data


# ───────────────────────────── reading ─────────────────────────────


class _Reader:
    def __init__(self, engine):
        self.engine = engine
        self.at = ""  # the field being read: where a damage no check foresaw is reported
        st = engine.state
        self.units = st.units
        self.places = {p.id: p for p in st.every_place()}
        self.refs: dict[int, Any] = {}

    # ── checks ──
    def want(self, v: Any, types, field: str, what: str) -> Any:
        if not isinstance(v, types) or (isinstance(v, bool) and bool not in _as_tuple(types)):
            raise PositionError(f"expected {what}, found {type(v).__name__}", field)
        return v

    def table(self, v: Any, field: str, keys: tuple[str, ...], optional: tuple[str, ...] | None = None) -> dict:
        """A table with these fields; given `optional`, with no other fields but those: a hand-added one is refused."""
        self.want(v, dict, field, "a table")
        missing = [k for k in keys if k not in v]
        if missing:
            raise PositionError(f"'{missing[0]}' is missing", field)
        extra = [k for k in v if k not in keys and k not in optional] if optional is not None else []
        if extra:
            raise PositionError("no such field in a saved position", f"{field}.{extra[0]}" if field else extra[0])
        return v

    # ── values ──
    def value(self, v: Any, field: str) -> Any:
        if isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            if not -MAX_INT <= v <= MAX_INT:  # no run computes a number of more digits (limits.py)
                raise PositionError(f"{v} has more than the {len(str(MAX_INT))} digits a number of a game can have", field)
            return v
        self.at = field
        self.want(v, dict, field, "a table")
        t = v.get("t")
        if not isinstance(t, str) or t not in _TAGGED:
            raise PositionError(f"unknown kind of value {t!r}" if "t" in v else "'t' is missing", field + ".t" if "t" in v else field)
        self.table(v, field, ("t", *_TAGGED[t]), optional=())
        return getattr(self, "v_" + t)(v, field)

    def v_none(self, v, field):
        return None

    def v_x(self, v, field):
        return X

    def v_missing(self, v, field):
        return MISSING

    def v_die(self, v, field):
        self.table(v, field, ("face", "label", "history"))
        history = tuple(self.want(h, int, f"{field}.history", "a face") for h in self.want(v["history"], list, field, "a list"))
        return Die(self.want(v["face"], int, f"{field}.face", "a face"), self.want(v["label"], str, f"{field}.label", "a text"), history)

    def v_unit(self, v, field):
        return self.unit(self.table(v, field, ("id",))["id"], f"{field}.id")

    def v_place(self, v, field):
        return self.place(self.table(v, field, ("id",))["id"], f"{field}.id")

    def v_code(self, v, field):
        name = tuple(self.value(x, f"{field}.name") for x in self.want(self.table(v, field, ("name",))["name"], list, field, "a list"))
        code = self.engine.vm.code_named(name)
        if code is None:
            raise PositionError(f"these rules have no body named {name!r}", f"{field}.name")
        return code

    def v_cite(self, v, field):
        self.table(v, field, ("text", "section", "qualifier", "span"))
        return n.Citation(text=self.want(v["text"], str, field, "a text"), section=self.want(v["section"], str, field, "a text"),
                          qualifier=self.want(v["qualifier"], str, field, "a text"), span=self.value(v["span"], f"{field}.span"))

    def v_span(self, v, field):
        self.table(v, field, ("file", "line", "col", "end_line", "end_col"))
        return Span(file=self.want(v["file"], str, field, "a text"),
                    **{k: self.want(v[k], int, f"{field}.{k}", "a number") for k in ("line", "col", "end_line", "end_col")})

    def v_roll(self, v, field):
        self.table(v, field, ("count", "low", "high", "die", "label", "cite", "span"))
        nums = [self.want(v[k], int, f"{field}.{k}", "a number") for k in ("count", "low", "high")]
        if not 0 <= nums[0] <= MAX_POOL:
            raise PositionError(f"a roll has 0 to {MAX_POOL} dice", f"{field}.count")
        return RollRequest(*nums, self.want(v["die"], str, field, "a text"), self.want(v["label"], str, field, "a text"),
                           self.value(v["cite"], f"{field}.cite"), self.value(v["span"], f"{field}.span"))

    def v_draw(self, v, field):
        self.table(v, field, ("count", "values", "weights", "replace", "label", "cup", "cite", "span"))
        values = [self.value(x, f"{field}.values[{i}]") for i, x in enumerate(self.want(v["values"], list, f"{field}.values", "a list"))]
        weights = [self.want(w, int, f"{field}.weights[{i}]", "a number") for i, w in enumerate(self.want(v["weights"], list, f"{field}.weights", "a list"))]
        count = self.want(v["count"], int, f"{field}.count", "a number")
        replace = self.want(v["replace"], bool, f"{field}.replace", "true or false")
        if len(weights) != len(values) or len(values) < 2 or any(w < 1 for w in weights) or count < 1 or (not replace and count >= sum(weights)):
            raise PositionError("the draw's counts do not fit what it draws from (a waiting draw leaves something to chance)", field)
        if sum(weights) > MAX_CHITS or count > MAX_DRAW:
            raise PositionError(f"a draw is made from at most {MAX_CHITS:,} and takes at most {MAX_DRAW:,}", field)
        cup = self.want(self.value(v["cup"], f"{field}.cup"), (str, type(None)), f"{field}.cup", "a cup's name or none")
        if cup is not None and cup not in self.engine.sym.cups:
            raise PositionError(f"these rules have no cup '{cup}'", f"{field}.cup")
        return DrawRequest(count, values, weights, replace,
                           self.want(v["label"], str, f"{field}.label", "a text"), self.value(v["cite"], f"{field}.cite"),
                           self.value(v["span"], f"{field}.span"), cup)

    def v_tuple(self, v, field):
        return tuple(self.items(v, field))

    def v_fn(self, v, field):
        name = self.table(v, field, ("name",))["name"]
        if not isinstance(name, str) or name not in _FUNCTIONS:
            raise PositionError(f"unknown callback '{name}'", f"{field}.name")
        return _FUNCTIONS[name]

    def v_table(self, v, field):
        name = self.table(v, field, ("name",))["name"]
        if not isinstance(name, str) or name not in self.engine.sym.tables:
            raise PositionError(f"these rules have no table '{name}'", f"{field}.name")
        return self.engine.table(name)

    def v_ref(self, v, field):
        ref = self.table(v, field, ("ref",))["ref"]
        if not isinstance(ref, int) or ref not in self.refs:
            raise PositionError(f"refers to {ref!r}, which no value before it is", f"{field}.ref")
        return self.refs[ref]

    def v_pool(self, v, field):
        self.table(v, field, ("ref", "label", "key", "die", "dice"))
        die = self.want(v["die"], list, f"{field}.die", "a list")
        if len(die) != 3 or not isinstance(die[0], str) or not all(isinstance(x, int) for x in die[1:]):
            raise PositionError("expected [die name, low face, high face]", f"{field}.die")
        pool = self.define(v, field, Pool([], self.want(v["label"], str, field, "a text"), None, tuple(die)))
        pool.key = self.value(v["key"], f"{field}.key")
        for i, d in enumerate(self.want(v["dice"], list, f"{field}.dice", "a list")):
            pool.append(self.want(self.value(d, f"{field}.dice[{i}]"), Die, f"{field}.dice[{i}]", "a die"))
        return pool

    def v_list(self, v, field):
        out = self.define(v, field, [])
        out.extend(self.items(v, field))
        return out

    def v_set(self, v, field):
        return self.define(v, field, set(self.items(v, field)))

    def v_map(self, v, field):
        out = self.define(v, field, {})
        for i, pair in enumerate(self.want(v.get("items"), list, f"{field}.items", "a list")):
            if not isinstance(pair, list) or len(pair) != 2:
                raise PositionError("expected [key, value]", f"{field}.items[{i}]")
            out[self.value(pair[0], f"{field}.items[{i}]")] = self.value(pair[1], f"{field}.items[{i}]")
        return out

    def v_record(self, v, field):
        """A record of a type these rules declare, with exactly its fields, each value of its field's type."""
        self.table(v, field, ("ref", "type", "fields"))
        decl = self.engine.sym.records.get(v["type"]) if isinstance(v["type"], str) else None
        if decl is None:
            raise PositionError(f"these rules declare no record type {v['type']!r}", f"{field}.type")
        out = self.define(v, field, Record(decl.name, {}))
        pairs = self.want(v["fields"], list, f"{field}.fields", "a list")
        names = [p[0] if isinstance(p, list) and len(p) == 2 else None for p in pairs]
        if names != [f.name for f in decl.fields]:
            raise PositionError(f"a {decl.name} has the fields {', '.join(f.name for f in decl.fields)}, in that order",
                                f"{field}.fields")
        for i, (f, pair) in enumerate(zip(decl.fields, pairs)):
            value = self.value(pair[1], f"{field}.fields[{i}]")
            if value is not None and not fits(value, f.type, self.engine.sym):
                raise PositionError(misfit(decl, f, value), f"{field}.fields[{i}]")
            out.fields[f.name] = value
        return out

    def v_frame(self, v, field):
        self.table(v, field, ("ref", "frame", "fields"))
        cls = _FRAMES.get(v["frame"]) if isinstance(v["frame"], str) else None
        if cls is None:
            raise PositionError(f"unknown kind of frame '{v['frame']}'", f"{field}.frame")
        frame = self.define(v, field, object.__new__(cls))
        fields = self.want(v["fields"], dict, f"{field}.fields", "a table")
        spec = _FIELDS[cls]
        for name in spec:
            if not name.startswith("[") and name not in fields:
                raise PositionError(f"a {v['frame']} needs the field '{name}'", f"{field}.fields")
        for name, x in fields.items():
            types = spec.get(name, spec.get(f"[{name}]"))
            if types is None:
                raise PositionError(f"a {v['frame']} has no field '{name}'", f"{field}.fields.{name}")
            value = self.value(x, f"{field}.fields.{name}")
            if types is not _ANY:
                self.want(value, types, f"{field}.fields.{name}", f"a {_type_names(types)}")
            setattr(frame, name, value)
        return frame

    def items(self, v, field) -> list:
        return [self.value(x, f"{field}.items[{i}]") for i, x in enumerate(self.want(v.get("items"), list, f"{field}.items", "a list"))]

    def define(self, v, field, obj):
        ref = self.want(v["ref"], int, f"{field}.ref", "a number")
        if ref in self.refs:
            raise PositionError(f"ref {ref} is defined twice", f"{field}.ref")
        self.refs[ref] = obj
        return obj

    # ── names ──
    def unit(self, uid, field) -> Unit:
        if not isinstance(uid, str) or uid not in self.units:
            raise PositionError(f"no unit '{uid}' in this game", field)
        return self.units[uid]

    def place(self, pid, field) -> Place:
        if not isinstance(pid, str) or pid not in self.places:
            raise PositionError(f"no place '{pid}' in this game", field)
        return self.places[pid]


def _type_names(types) -> str:
    return " or ".join("none" if t is type(None) else t.__name__ for t in _as_tuple(types))


def _as_tuple(types) -> tuple:
    return types if isinstance(types, tuple) else (types,)


def from_data(data: Any, engine) -> Position:
    """A position of `engine` (set up with the same rules) read from `to_data`'s table, checked."""
    r = _Reader(engine)
    try:
        return _read(r, data, engine)
    except PositionError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as err:
        # a damage the checks above did not foresee: still refused, at the value being read
        raise PositionError(f"not a value a position holds ({type(err).__name__})", r.at) from err


def _read(r: _Reader, data: Any, engine) -> Position:
    r.table(data, "", _POSITION, optional=("cups",))
    if data["format"] != FORMAT:
        raise PositionError(f"format {data['format']!r} is not {FORMAT}, the one this Umpire reads", "format")
    sym = engine.sym
    pos = Position()
    pos.clock = _clock(r, data["clock"], sym)
    pos.units = _units(r, data["units"], engine)
    pos.places = _places(r, data["places"], sym)
    pos.tracks = _tracks(r, data["tracks"], engine)
    pos.cups = _cups(r, data.get("cups", []), engine)
    pos.globals = _declared(r, r.value(data["globals"], "globals"), "globals", sym.game_states, "game state")
    unset = [name for name in sym.game_states if name not in pos.globals]
    if unset:
        raise PositionError(f"the game state '{unset[0]}' has no value", "globals")
    pos.facts = r.want(r.value(data["facts"], "facts"), dict, "facts", "a map")
    pos.stack = tuple(_frame(r, f, i) for i, f in enumerate(r.want(data["stack"], list, "stack", "a list")))
    _link_frames(pos.stack)
    pos.waiting = r.want(data["waiting"], bool, "waiting", "true or false")
    pos.deferred = r.want(r.value(data["deferred"], "deferred"), list, "deferred", "a list")
    pos.depth = _count(r, data["depth"], "depth")
    pos.steps = _count(r, data["steps"], "steps")
    pos.events, pos.violations = len(engine.events), len(engine.violations)  # a loaded position cuts no trace
    return pos


def _count(r: _Reader, v, field: str) -> int:
    """A count the engine keeps (calls nested, statements run): a whole number from 0."""
    if r.want(v, int, field, "a number") < 0:
        raise PositionError(f"{v} is less than 0", field)
    return v


def _clock(r: _Reader, v, sym) -> tuple:
    """The turn, phase and step: a turn of the game, a phase of its sequence of play and a step of that phase."""
    if not isinstance(v, list) or len(v) != 3:
        raise PositionError("expected [turn, phase, step]", "clock")
    turn, phase, step = (r.value(x, f"clock[{i}]") for i, x in enumerate(v))
    r.want(turn, int, "clock[0]", "a turn number")
    for i, x in ((1, phase), (2, step)):
        r.want(x, (str, type(None)), f"clock[{i}]", "a name")
    if not 1 <= turn <= MAX_TURNS:  # a scenario's 'until turn' may play past the header's turns, never past this
        raise PositionError(f"turn {turn} is not a turn a game can have (1..{MAX_TURNS})", "clock[0]")
    phases = {p.name: p for p in sym.sequence.phases} if sym.sequence else {}
    if phase is not None and phase not in phases:
        raise PositionError(f"no phase '{phase}' in this game's sequence of play", "clock[1]")
    if step is not None and (phase is None or step not in {s.name for s in phases[phase].steps}):
        raise PositionError(f"no step '{step}' in the phase {phase or '(none)'}", "clock[2]")
    return turn, phase, step


def _units(r: _Reader, v, engine) -> tuple:
    out, seen = [], set()
    sides = engine.sym.sides
    for i, rec in enumerate(r.want(v, list, "units", "a list")):
        f = f"units[{i}]"
        r.table(rec, f, ("id", "side", "location", "carrier", "cargo", "state"), optional=())
        u = r.unit(rec["id"], f"{f}.id")
        if u.id in seen:
            raise PositionError(f"unit '{u.id}' has a second record", f"{f}.id")
        seen.add(u.id)
        side = r.want(rec["side"], str, f"{f}.side", "a side")
        if side not in sides and side != u.side:  # a unit changes side only to a side of the game
            raise PositionError(f"'{side}' is not a side of this game ({', '.join(sides)})", f"{f}.side")
        loc = r.want(r.value(rec["location"], f"{f}.location"), (Place, type(None)), f"{f}.location", "a place or none")
        carrier = r.want(r.value(rec["carrier"], f"{f}.carrier"), (Unit, type(None)), f"{f}.carrier", "a unit or none")
        cargo = tuple(r.unit(c, f"{f}.cargo[{k}]") for k, c in enumerate(r.want(rec["cargo"], list, f"{f}.cargo", "a list")))
        state = _declared(r, r.value(rec["state"], f"{f}.state"), f"{f}.state", engine.sym.unit_states, "unit state")
        out.append((u, side, loc, carrier, cargo, state))
    absent = [uid for uid in engine.state.units if uid not in seen]
    if absent:
        raise PositionError(f"unit '{absent[0]}' of this game has no record", "units")
    _aboard(out)
    return tuple(out)


def _aboard(units: list) -> None:
    """What carries a unit carries it: each unit's carrier lists it as cargo, and is where it is."""
    records = {u: (loc, carrier, cargo) for u, _side, loc, carrier, cargo, _state in units}
    for i, (u, _side, loc, carrier, cargo, _state) in enumerate(units):
        if carrier is not None and (u not in records[carrier][2] or records[carrier][0] is not loc):
            raise PositionError(f"'{carrier.id}' does not carry '{u.id}' where it is", f"units[{i}].carrier")
        for k, c in enumerate(cargo):
            if records[c][1] is not u:
                raise PositionError(f"'{c.id}' is not aboard '{u.id}'", f"units[{i}].cargo[{k}]")


def _places(r: _Reader, v, sym) -> dict:
    """The places whose state is not empty: each place once, each state one its rules let change."""
    out = {}
    mutable = {name: prop for name, prop in sym.place_props.items() if prop.mutable}
    for i, rec in enumerate(r.want(v, list, "places", "a list")):
        r.table(rec, f"places[{i}]", ("id", "state"), optional=())
        place = r.place(rec["id"], f"places[{i}].id")
        if place in out:
            raise PositionError(f"place '{place.id}' has a second record", f"places[{i}].id")
        out[place] = _declared(r, r.value(rec["state"], f"places[{i}].state"), f"places[{i}].state", mutable,
                               "state of a place")
    return out


def _declared(r: _Reader, held, field: str, decls: dict, what: str) -> dict:
    """A map of states (a game's, a unit's, a place's): each one the rules declare, holding a value of its type."""
    r.want(held, dict, field, "a map")
    for name, value in held.items():
        decl = decls.get(name) if isinstance(name, str) else None
        if decl is None:
            raise PositionError(f"these rules declare no {what} '{name}'", f"{field}.{name}")
        keys = r.engine.sym.state_keys(name) if what == "game state" else None
        if keys is not None:
            _keyed(r, name, value, keys, decl.type, f"{field}.{name}")
        elif _checkable(decl.type, r.engine.sym) and not fits(value, decl.type, r.engine.sym):
            raise PositionError(f"{name} is of type {type_text(decl.type)}: it cannot hold {value!r}", f"{field}.{name}")
    return held


def _keyed(r: _Reader, name: str, value, keys: tuple[str, ...], t: n.TypeName, at: str) -> None:
    """A per-key game state (language 6.4a): a map with exactly the state's keys, each holding a value of its type."""
    r.want(value, dict, at, "a map of its keys")
    if set(value) != set(keys):
        raise PositionError(f"{name} holds a value for each of {', '.join(keys)}, not for {', '.join(map(str, value)) or 'none'}", at)
    sym = r.engine.sym
    for key, held in value.items():
        if _checkable(t, sym) and not fits(held, t, sym):
            raise PositionError(f"{name}[{key}] is of type {type_text(t)}: it cannot hold {held!r}", f"{at}.{key}")


def _checkable(t: n.TypeName, sym) -> bool:
    """A type whose values a saved one can be told apart from: an enumeration, a value type, a record type
    (the points of a secondary map, say, are names any text could be)."""
    return bool(t.enum) or t.name in VALUE_TYPES or t.name in sym.records


def _tracks(r: _Reader, v, engine) -> dict:
    """Every track of the game once, with a value for each of its keys (side, nation or none) within its bounds."""
    out = {}
    for i, rec in enumerate(r.want(v, list, "tracks", "a list")):
        f = f"tracks[{i}]"
        r.table(rec, f, ("name", "values"), optional=())
        name = rec["name"]
        track = engine.state.tracks.get(name) if isinstance(name, str) else None
        if track is None or name in out:
            raise PositionError(f"no track '{name}' in this game (or named twice)", f"{f}.name")
        values = out[name] = {}
        for k, pair in enumerate(r.want(rec["values"], list, f"{f}.values", "a list")):
            if not isinstance(pair, list) or len(pair) != 2:
                raise PositionError("expected [side, value]", f"{f}.values[{k}]")
            key = r.value(pair[0], f"{f}.values[{k}]")
            label = name if key is None else f"{name}[{key}]"
            if key not in track.values or key in values:
                raise PositionError(f"the track '{name}' has no entry {key!r} (or has it twice)", f"{f}.values[{k}][0]")
            value = r.want(pair[1], int, f"{f}.values[{k}]", "a number")
            if not track.low <= value <= track.high:
                raise PositionError(f"{label} {value} is outside the track ({track.low}..{track.high})", f"{f}.values[{k}][1]")
            values[key] = value
        if set(values) != set(track.values):
            raise PositionError(f"track '{name}' does not give every side its value", f"{f}.values")
    if set(out) != set(engine.state.tracks):
        raise PositionError("not every track of this game has its values", "tracks")
    return out


def _cups(r: _Reader, v, engine) -> dict:
    """What each cup holds: every cup of the game, every chit of each with a count from 0."""
    out: dict[str, dict[str, int]] = {}
    for i, rec in enumerate(r.want(v, list, "cups", "a list")):
        f = f"cups[{i}]"
        r.table(rec, f, ("name", "chits"), optional=())
        name = rec["name"]
        if not isinstance(name, str) or name not in engine.state.cups or name in out:
            raise PositionError(f"no cup '{name}' in this game (or named twice)", f"{f}.name")
        declared, chits = engine.state.cups[name], out.setdefault(name, {})
        for k, pair in enumerate(r.want(rec["chits"], list, f"{f}.chits", "a list")):
            if not isinstance(pair, list) or len(pair) != 2 or pair[0] not in declared or pair[0] in chits:
                raise PositionError(f"expected [chit of cup {name}, count], each chit once", f"{f}.chits[{k}]")
            chits[pair[0]] = r.want(pair[1], int, f"{f}.chits[{k}]", "a number")
            if isinstance(pair[1], bool) or not 0 <= chits[pair[0]] <= MAX_INT:
                raise PositionError("a count of chits is a whole number from 0", f"{f}.chits[{k}]")
            if sum(chits.values()) > MAX_CHITS:
                raise PositionError(f"a cup holds at most {MAX_CHITS:,} chits", f"{f}.chits[{k}]")
        if set(chits) != set(declared):
            raise PositionError(f"cup '{name}' does not give every chit its count", f"{f}.chits")
        out[name] = {chit: chits[chit] for chit in declared}  # in the order the cup declares them
    if set(out) != set(engine.state.cups):
        raise PositionError("not every cup of this game has its contents", "cups")
    return out


def _frame(r: _Reader, v, i: int) -> Frame:
    frame = r.value(v, f"stack[{i}]")
    if not isinstance(frame, Frame):
        raise PositionError("expected a frame", f"stack[{i}]")
    if isinstance(frame, CodeFrame):
        if not isinstance(frame.pc, int) or not 0 <= frame.pc <= len(frame.code.ops):
            raise PositionError(f"pc {frame.pc!r} is outside its code (0..{len(frame.code.ops)})", f"stack[{i}].fields.pc")
        if not isinstance(frame.env, dict) or not isinstance(frame.loops, list):
            raise PositionError("a frame's locals are a map and its loops a list", f"stack[{i}].fields")
    return frame


def _link_frames(stack: tuple) -> None:
    """What a frame holds of the frame below it: a reroll window's expression is its statement's."""
    for below, frame in zip(stack, stack[1:]):
        if isinstance(frame, RerollFrame):
            op = below.code.ops[below.pc - 1] if isinstance(below, CodeFrame) and below.pc else None
            if op is None or not hasattr(op, "spend"):
                raise PositionError("a reroll window stands on no reroll statement", "stack")
            frame.spend = (op.spend, *frame.spend)
