"""The ruleset functions whose values last the whole game, and the memo that keeps them (design decision 22a).

The memo of function values (`Engine._memo`) lives for one epoch, a stretch of unchanged state,
because a function may read the state. A function whose body reads none of it (only its
parameters, the map's fixed geometry and properties, constants, the built-ins of the map and of
lists, and other such functions) gives the same value for the same arguments all game long: a
list of the map's sea hexes need not go through hundreds of places at every statement that asks
for it. `lasting_functions` finds such functions once from their bodies; the memo here keeps
their values until the game's state object is replaced (a new game on the engine).

A value kept from an earlier epoch must leave the run as it would have been: the step budget counts
the items a body goes through, and the depth of calls is limited. So each kept value remembers the
steps its body counted itself and the calls it made (in order, each by its memo key); using it in
a new epoch replays that evaluation over the epoch's memo (`charge`): a call already known in
the epoch costs nothing, as it would not have run, and any other adds its own steps and its calls',
and enters the epoch's memo as the evaluation would have entered it. When the replay would pass
the budget or come near the limit of depth, or a call it needs was never kept, the body runs
instead, and stops where it always stopped. Explaining (which notes every call) keeps no value
past its epoch. A path's STEP function, called at every move, replays its kept values from trees
of their calls (`frequent`, design decision 22b).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

from ...ir import nodes as n
from ...lang import FUNCTION_ARGUMENTS, UNIT_ATTRS
from ...limits import MAX_FUNCTION_DEPTH
from ..common.values import Place, Unit
from .memo_keys import MISS

# Built-ins whose value depends on their arguments and the map alone (the places and their
# adjacency, links, borders and coasts, fixed for a game), never on units, tracks, the clock or facts.
STATELESS_BUILTINS = frozenset({
    "places", "adjacent", "linked", "sides", "enemy", "count", "sum", "min", "max", "any", "all", "distinct",
    "rotated", "range", "keys", "values", "get", "neighbour", "direction", "diagonal", "flanking", "border",
    "between", "within", "distance", "cheapest", "reach",
})


def lasting_functions(sym) -> dict[str, tuple[str, ...]]:
    """The functions whose bodies read no state, directly or through the functions they call, but
    game-wide states of one value: each with the names of those states it reads (in order of name;
    none for a function of its arguments alone). Every function is taken as lasting, then those found
    to read other state (or to call one that does) are dropped until none is left to drop (so
    functions that call each other are judged together)."""
    deps: dict[str, set[str]] = {}
    reads: dict[str, set[str]] = {}
    for name, decl in sym.functions.items():
        calls: set[str] = set()
        states: set[str] = set()
        if _stateless(decl.body, {p.name for p in decl.params}, sym, calls, states):
            deps[name], reads[name] = calls, states
    changed = True
    while changed:
        changed = False
        for name, calls in list(deps.items()):
            if any(c not in deps for c in calls):
                del deps[name]
                changed = True
            else:
                more = set().union(*(reads[c] for c in calls)) - reads[name]
                if more:
                    reads[name] |= more
                    changed = True
    return {name: tuple(sorted(reads[name])) for name in deps}


def _stateless(e: Any, local: set[str], sym, calls: set[str], states: set[str]) -> bool:
    """Whether `e` reads no state, given the names bound locally; the functions it calls go into `calls`."""
    k = e.kind
    if k in ("int", "bool", "none", "x", "place"):
        return True
    if k == "str":
        return all(p.expr is None or _stateless(p.expr, local, sym, calls, states) for p in e.parts)
    if k == "var":
        return _stateless_name(e.name, local, sym, calls, states)
    if k == "attr":
        if sym.enumeration_value(e) is not None and not (e.obj.kind == "var" and e.obj.name in local):
            return True
        return _fixed_attribute(e.name, sym) and _stateless(e.obj, local, sym, calls, states)
    if k == "index":
        return _stateless(e.obj, local, sym, calls, states) and _stateless(e.key, local, sym, calls, states)
    if k == "call":
        return _stateless_call(e, local, sym, calls, states)
    if k in ("binop", "compare"):
        return _stateless(e.left, local, sym, calls, states) and _stateless(e.right, local, sym, calls, states)
    if k == "rounded":
        return all(x is None or _stateless(x, local, sym, calls, states) for x in (e.left, e.right, e.least))
    if k == "boolop":
        return all(_stateless(x, local, sym, calls, states) for x in e.items)
    if k in ("not", "neg"):
        return _stateless(e.operand, local, sym, calls, states)
    if k == "in":
        return _stateless(e.item, local, sym, calls, states) and _stateless(e.collection, local, sym, calls, states)
    if k == "cond":
        return all(_stateless(x, local, sym, calls, states) for x in (e.test, e.then, e.orelse))
    if k == "list":
        return all(_stateless(x, local, sym, calls, states) for x in e.items)
    if k == "map":
        return all(_stateless(m.key, local, sym, calls, states) and _stateless(m.value, local, sym, calls, states) for m in e.entries)
    if k == "comprehension":
        inner = local | {e.var}
        return (_stateless(e.iterable, local, sym, calls, states) and _stateless(e.expr, inner, sym, calls, states)
                and (e.where is None or _stateless(e.where, inner, sym, calls, states)))
    if k == "matching":
        inner = local | {e.die_var, e.unit_var}
        return (_stateless(e.dice, local, sym, calls, states) and _stateless(e.units, local, sym, calls, states)
                and _stateless(e.where, inner, sym, calls, states))
    return False  # `is`, `has` (a unit's class, flags and faces) and anything not listed: taken as state


def _stateless_name(name: str, local: set[str], sym, calls: set[str], states: set[str]) -> bool:
    """A name read as a value: a local; a function given by its name (as it is); or a game-wide name
    whose value is fixed for the game (a side, an enumeration's value, a unit or box as itself).
    Game states, tracks and cups are state; a counter not in play is an error, taken as state."""
    if name in local:
        return True
    if name in sym.functions:
        calls.add(name)
        return True
    if name in sym.game_states and sym.state_keys(name) is None:
        states.add(name)  # its value becomes part of the key the function's values are kept under
        return True
    return not (name in sym.game_states or name in sym.tracks or name in sym.cups or name in sym.counters)


def _fixed_attribute(name: str, sym) -> bool:
    """An attribute that cannot change in a game: an id, or a place property the map gives and no
    statement may set (never a unit's stat, flag or state, which faces and statements change)."""
    if name == "id":
        return True
    prop = sym.place_props.get(name)
    return (prop is not None and not prop.mutable and name not in sym.stats and name not in sym.flags
            and name not in sym.unit_states and name not in UNIT_ATTRS)


def _stateless_call(e: n.CallExpr, local: set[str], sym, calls: set[str], states: set[str]) -> bool:
    if not all(_stateless(a.value, local, sym, calls, states) for a in e.args):
        return False
    if e.func in sym.functions:
        calls.add(e.func)
        return True
    if e.func in sym.records:
        return True
    if e.func in sym.tables:  # a table read at its arguments alone; modifiers and column shifts may read the state
        t = sym.tables[e.func]
        return t.read_at is not None and not t.modifiers and t.columns is None and not t.shifts
    return e.func in STATELESS_BUILTINS and (e.func not in FUNCTION_ARGUMENTS or _passed_ok(e, sym))


def _passed_ok(e: n.CallExpr, sym) -> bool:
    """The function a built-in is given by name must be lasting too (its calls were added above)."""
    at = FUNCTION_ARGUMENTS[e.func]
    if at >= len(e.args):
        return True
    passed = e.args[at].value
    name = passed.name if passed.kind == "var" else passed.func if passed.kind == "call" else None
    return name in sym.functions


_KEYED = frozenset({int, str, bool, type(None)})  # a game state's values that may be part of a key
_SHARED = frozenset({int, str, bool, type(None), Unit, Place})  # values no statement changes in place


def _unchangeable(value) -> bool:
    """Whether a value may be handed to every epoch: numbers, text, units and places, and lists of
    them (a list is never changed in place). A map (`set m[k] = v`) or a record (`set t.f = v`) is
    changed in place, so each epoch gets its own (`_copied`)."""
    if value.__class__ in _SHARED:
        return True
    if value.__class__ is list or value.__class__ is tuple:
        return all(_unchangeable(v) for v in value)
    return False


def _copied(value) -> bool:
    """Whether a value is a map of values no statement changes in place (a table of numbers by name):
    kept as made, and each epoch that asks for it given a copy of its own, as the body would have
    made it, so a statement's change to one reaches no other epoch. A record is not kept."""
    return value.__class__ is dict and all(_unchangeable(v) for v in value.values())


def _reader(states: tuple[str, ...]) -> Callable:
    if not states:
        return lambda now: ()
    if len(states) == 1:
        only = itemgetter(states[0])
        return lambda now: (only(now),)
    return itemgetter(*states)


def _enter(tree, memo: dict):
    """A kept evaluation's replay read from its tree (`LastingMemo.frequent`): its calls not known in
    this epoch entered first, each as its own replay, then its value (a map: this epoch's own copy)."""
    key, value, made, calls, _ = tree
    for inner in calls:
        if inner[0] not in memo:
            _enter(inner, memo)
    if made is not None:
        value = dict(made)
    memo[key] = value
    return value


class _Unkept(Exception):
    """A replay that cannot stand for the evaluation: the body runs instead."""


class LastingMemo:
    """The values of lasting functions for one game: an entry is (value, its own steps, the memo keys of its
    calls); a map's entry also holds the map as made, copied for each epoch (`_copied`). A function that
    reads no game state keeps its entries by memo key. One that may read some keeps them by memo key,
    then by the names of the states the evaluation read (noted as it ran: `note`, and those its calls
    read), then by their values: a value is used again only where every state its evaluation read holds
    the same value (a move's cost may read the wind of the hex entered, not every wind).

    `recording` is the stack of lasting evaluations under way: each a list [the keys of its calls,
    the steps counted when it began, the steps its calls counted, whether it may be kept, the names of
    the game states its body read itself (None until it reads one)]."""

    def __init__(self, engine) -> None:
        self.engine = engine
        self.reads = lasting_functions(engine.sym)  # name -> the game states it reads
        self.names = frozenset(self.reads)
        # name -> the values of the game states it reads, as a tuple, from the state's game-wide values
        self.readers = {name: _reader(states) for name, states in self.reads.items() if states}
        self.read_by: dict[tuple[str, ...], Callable] = {}  # names of states read -> their values, as a tuple
        self.values: dict = {}
        # Kept evaluations counting no steps, as trees of the calls a replay enters (`frequent`): by the
        # function and the values of the states it reads, then by memo key.
        self.trees: dict = {}
        # Kept evaluations' calls, and theirs, flattened for their replays (`charge`): by the entry's
        # identity, (the entry, {the memo key of every call below it: its value}, {the same: its own
        # steps, where it counts some}, {the same: the map as made, where it gives one}, the height of
        # its tree), or (the entry, None, None, None, 0) where one is not kept. A few objects an entry,
        # as what a game keeps is walked by each full sweep of Python's collector.
        self.flats: dict = {}
        self.state = None  # the game state the values belong to
        self.paths: dict = {}  # what the built-ins of paths keep over the map for the game (world/paths.py `Rings`)
        self.recording: list[list] = []

    def find(self, key):
        """The kept entry of a call (by its memo key) that holds in the present state, or None."""
        self.owned()
        return self._found(key)

    def _found(self, key):
        found = self.values.get(key)
        if found is None or not self.reads[key[0]]:
            return found
        read = self._read(found)
        return None if read is None else read[1]

    def _read(self, variants):
        """(the names of the states read, the entry) of the variant of a call whose states read hold the
        values they held when it was kept, or None: at most one can (an evaluation reads what the
        values it read lead it to)."""
        now = self.engine.state.globals
        for names, (reader, by_values) in variants.items():
            values = reader(now)
            for v in values:
                if v.__class__ not in _KEYED:
                    break
            else:
                entry = by_values.get(values)
                if entry is not None:
                    return names, entry
        return None

    def note(self, name: str) -> None:
        """A game state read by the body of the lasting evaluation under way (Engine.global_value)."""
        frame = self.recording[-1]
        if frame[4] is None:
            frame[4] = [name]
        else:
            frame[4].append(name)

    def _names_read(self, key, frame: list) -> tuple[str, ...]:
        """The names of the game states an evaluation read: its body's, and those each of its calls read
        (the variant of the call kept, which holds in this state); every state its function may read
        where a call's value was not kept."""
        names = set(frame[4] or ())
        values, reads = self.values, self.reads
        for k in frame[0]:
            if reads[k[0]]:
                variants = values.get(k)
                read = self._read(variants) if variants is not None else None
                if read is None:
                    return reads[key[0]]
                names.update(read[0])
        return tuple(sorted(names))

    def owned(self) -> dict:
        """The values, emptied when the engine plays another game (its state is another object)."""
        if self.state is not self.engine.state:
            self.values.clear()
            self.trees.clear()
            self.flats.clear()
            self.paths.clear()
            self.state = self.engine.state
        return self.values

    def charge(self, key, entry) -> bool:
        """Replay a kept value's evaluation over this epoch's memo: its steps counted, its calls entered;
        False (nothing changed) when the body must run instead."""
        engine = self.engine
        if engine.explain:
            return False  # explaining notes every call the body makes: it runs
        memo = engine._memo
        added: list = []
        flat = self._flat(entry)
        if flat[1] is not None and engine.calls + flat[4] - 1 < MAX_FUNCTION_DEPTH - 2:
            steps = self._enter_flat(key, entry, flat, memo, added)
        else:
            try:
                steps = self._replay(key, entry, engine.calls, memo, added)
            except _Unkept:
                steps = None
        if steps is None or engine.steps + steps > engine.max_steps:
            for k in added:
                del memo[k]
            return False
        engine.steps += steps
        if self.recording:
            self.recording[-1][2] += steps
        return True

    def _replay(self, key, entry, depth: int, memo: dict, added: list) -> int:
        # A body counting steps or calling within two of the depth limit runs itself (its calls
        # written in place check the depth one deeper): the limit stops it where it always did.
        if depth >= MAX_FUNCTION_DEPTH - 2:
            raise _Unkept
        value, steps, inner = entry[0], entry[1], entry[2]
        for k in inner:
            if k in memo:
                continue  # known in this epoch: the evaluation would not have run it
            found = self._found(k)
            if found is None:
                raise _Unkept
            steps += self._replay(k, found, depth + 1, memo, added)
        if len(entry) == 4:  # a map: this epoch's own copy of the one kept (`_copied`), which the caller hands out
            value = entry[0] = dict(entry[3])
        memo[key] = value
        added.append(key)
        return steps

    def _flat(self, entry):
        """The calls below a kept evaluation, flattened (`flats`): their values, their own steps and, for a
        map, the map as made; None where one of them is not kept. Those of a function reading game states
        are the ones holding in the state its value holds in, as every state they read is one it read."""
        kept = self.flats.get(id(entry))
        if kept is None or kept[0] is not entry:
            values: dict = {}
            counted: dict = {}
            made: dict = {}
            try:
                height = self._flatten(entry, (values, counted, made), {}, 1)
            except _Unkept:
                kept = self.flats[id(entry)] = (entry, None, None, None, 0)
            else:
                kept = self.flats[id(entry)] = (entry, values, counted or None, made or None, height)
        return kept

    def _flatten(self, entry, into: tuple[dict, dict, dict], heights: dict, level: int) -> int:
        """The height of an evaluation's tree of calls (itself 1), its calls entered in `into`."""
        if level > MAX_FUNCTION_DEPTH:
            raise _Unkept
        height = 1
        for k in entry[2]:
            below = heights.get(k)
            if below is None:
                found = self._found(k)
                if found is None:
                    raise _Unkept
                into[0][k] = found[0]
                if found[1]:
                    into[1][k] = found[1]
                if len(found) == 4:
                    into[2][k] = found[3]
                below = heights[k] = self._flatten(found, into, heights, level + 1)
            height = max(height, below + 1)
        return height

    @staticmethod
    def _enter_flat(key, entry, flat: tuple, memo: dict, added: list) -> int:
        """`_replay` of an evaluation from its flattened calls: those not known in this epoch entered (a
        map as this epoch's own copy) and their steps counted with its own. Where a call is known, so
        is every call below it (it was run or replayed in this epoch), so these are the calls `_replay`
        would visit, each once. The tree is lower than the depth where `_replay` gives way to the body."""
        _, values, counted, made, _ = flat
        steps = entry[1]
        for k in values:
            if k not in memo:
                memo[k] = values[k] if made is None or k not in made else dict(made[k])
                added.append(k)
                if counted is not None:
                    steps += counted.get(k, 0)
        value = entry[0]
        if len(entry) == 4:  # a map: this epoch's own copy (`_copied`)
            value = entry[0] = dict(entry[3])
        memo[key] = value
        added.append(key)
        return steps

    def frequent(self, name: str, call: Callable) -> Callable:
        """`call`, the caller of the lasting function `name` given two values, for a built-in that calls
        it many times within one statement (a path's every move): a call of the same value and effects.
        Where the kept evaluation and every one it replays count no steps, the replay is read from a
        tree of its calls made once for these values of the states the function reads (each node's
        memo key, value and calls), not looked up call by call: the call is noted in the evaluation
        under way and the calls not yet known in this epoch enter its memo, in the order `_replay`
        enters them. Anything else (a value not kept, steps counted, a replay that could come near
        the depth limit, explaining, the memo turned off) goes through `call`."""
        engine = self.engine
        if not engine.memo or engine.explain:
            return call
        stamp = self.readers[name](engine.state.globals) if name in self.readers else ()
        if any(v.__class__ not in _KEYED for v in stamp):
            return call
        self.owned()
        trees = self.trees.setdefault((name, stamp), {})
        memo = engine._memo
        if engine._memo_epoch != engine.epoch:  # as the caller does before it reads the memo
            memo.clear()
            engine._memo_epoch = engine.epoch
        recording, names, room = self.recording, (None, None), MAX_FUNCTION_DEPTH - 2 - engine.calls

        def weigh(a, b):
            key = (name, names, a, b)
            tree = trees.get(key)
            if tree is None:
                tree = self._tree(key, 0)
                if tree is None:
                    return call(a, b)
                trees[key] = tree
            if tree[4] >= room:  # the replay could reach the depth where `_replay` gives way to the body
                return call(a, b)
            if recording:
                recording[-1][0].append(key)
            found = memo.get(key, MISS)
            if found is not MISS:
                return found
            return _enter(tree, memo)

        return weigh

    def _tree(self, key, depth: int):
        """(memo key, value, the map as made or None, the trees of its calls, their height) of a kept
        evaluation counting no steps whose calls are all kept and count none; None otherwise."""
        if depth >= MAX_FUNCTION_DEPTH:
            return None
        entry = self._found(key)
        if entry is None or entry[1]:
            return None
        calls = []
        for k in entry[2]:
            inner = self._tree(k, depth + 1)
            if inner is None:
                return None
            calls.append(inner)
        height = 1 + max((c[4] for c in calls), default=0)
        return (key, entry[0], entry[3] if len(entry) == 4 else None, tuple(calls), height)

    def begin(self) -> list:
        frame = [[], self.engine.steps, 0, True, None]
        self.recording.append(frame)
        return frame

    def end(self, key, value, frame: list) -> None:
        """An evaluation finished: its value kept with its own steps and calls (under the values of the
        states it read), and its steps told to the evaluation that called it (the caller has taken its
        frame off the stack)."""
        total = self.engine.steps - frame[1]
        if frame[3]:
            if _unchangeable(value):
                self._keep(key, frame, (value, total - frame[2], tuple(frame[0])))
            elif _copied(value):  # [the copy last handed out, steps, calls, the map as made]
                self._keep(key, frame, [value, total - frame[2], tuple(frame[0]), dict(value)])
        if self.recording:
            self.recording[-1][2] += total

    def _keep(self, key, frame: list, entry) -> None:
        if not self.reads[key[0]]:
            self.values[key] = entry
            return
        names = self._names_read(key, frame)
        reader = self.read_by.get(names)
        if reader is None:
            reader = self.read_by[names] = _reader(names)
        values = reader(self.engine.state.globals)
        for v in values:
            if v.__class__ not in _KEYED:
                return  # a state holding a list or a map: no key
        variants = self.values.setdefault(key, {})
        kept = variants.get(names)
        if kept is None:
            kept = variants[names] = (reader, {})
        kept[1][values] = entry

    def unkept(self) -> None:
        """A call whose value has no key (a map given to it): the evaluation under way runs it every time, so is not kept."""
        if self.recording:
            self.recording[-1][3] = False
