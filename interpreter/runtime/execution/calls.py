"""Calls of ruleset functions: the one caller every call goes through, written out per shape of call.

A call is made often (a long campaign makes some 600,000) and most of its cost was
its bookkeeping: packing the values, testing how many there are, zipping the frame. Here the
caller of `f(p, s)` is a Python function of exactly two values, its memo key and its frame
written out for two: the key memo_keys.py's `memo_key` makes, the frame `bind_args` builds
(the positional values under the parameters' names in order, then the named ones), the limits
and errors in their order. The closures, the generated code and the engine's own calls (a
`worth`, a function passed to a built-in) all call through it. The text is this module's own
(one per shape of call, compiled once per process); the function's name, its arguments' names
and the frame's keys are values the factory is given, never text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...limits import MAX_FUNCTION_DEPTH
from .guards import function_too_deep, python_too_deep
from .memo_keys import EXACT_SCALARS, MISS, call_key

_TEMPLATE = '''
def factory(engine, compile_body, name, names, cite, span, {keys}):
    memo = engine._memo  # the engine's one cache: cleared at each epoch, never replaced
    prefix = (name, names)
    body = None

    def call({values}):
        nonlocal body
        if body is None:
            body = compile_body()  # compiled on first use: functions may recurse
        key = None
        if engine.memo:
            key = (name, names, {values}) if {exact} else _call_key(prefix, ({values}))
            if key is not None:
                if engine._memo_epoch != engine.epoch:
                    memo.clear()
                    engine._memo_epoch = engine.epoch
                found = memo.get(key, _MISS)
                if found is not _MISS:
                    return found
        if engine.calls >= MAX_FUNCTION_DEPTH:
            raise function_too_deep(name, cite, span)
        engine.calls += 1
        try:
            value = body({{{frame}}})
        except RecursionError:  # Python's stack, before the limit: deep expressions in every call
            raise python_too_deep(name, cite, span) from None
        finally:
            engine.calls -= 1
        if key is not None:
            memo[key] = value
        return value

    return call
'''

# The caller of a lasting function (lasting.py): the same, but a value not known in this epoch is looked
# for among the game's kept values (replayed over the epoch: its steps counted), and an evaluation is
# recorded (the calls it makes, the steps it counts, the game states it reads) and its value kept for the game.
_LASTING_TEMPLATE = '''
def factory(engine, compile_body, name, names, cite, span, {keys}):
    memo = engine._memo  # the engine's one cache: cleared at each epoch, never replaced
    lasting = engine.lasting
    recording = lasting.recording
    states = lasting.reads[name]  # the game states it may read: a kept value holds while those it read hold their values
    prefix = (name, names)
    body = None

    def call({values}):
        nonlocal body
        if body is None:
            body = compile_body()  # compiled on first use: functions may recurse
        key = None
        if engine.memo:
            key = (name, names, {values}) if {exact} else _call_key(prefix, ({values}))
        if key is None:
            lasting.unkept()
        else:
            if engine._memo_epoch != engine.epoch:
                memo.clear()
                engine._memo_epoch = engine.epoch
            if recording:
                recording[-1][0].append(key)
            found = memo.get(key, _MISS)
            if found is not _MISS:
                return found
            kept = lasting.find(key) if states else lasting.owned().get(key)
            if kept is not None and lasting.charge(key, kept):
                return kept[0]
        if engine.calls >= MAX_FUNCTION_DEPTH:
            raise function_too_deep(name, cite, span)
        frame = lasting.begin() if key is not None else None
        engine.calls += 1
        try:
            value = body({{{frame}}})
        except RecursionError:  # Python's stack, before the limit: deep expressions in every call
            raise python_too_deep(name, cite, span) from None
        finally:
            engine.calls -= 1
            if frame is not None:
                recording.pop()  # an error leaves it unkept
        if key is not None:
            memo[key] = value
            lasting.end(key, value, frame)
        return value

    return call
'''

_FACTORIES: dict[tuple[int, tuple[int, ...], bool], Callable] = {}


def caller(engine, decl, names: tuple, span, compile_body: Callable) -> Callable:
    """The caller of `decl` given values under `names` (None for a positional one, in order):
    `call(v0, v1, …)` gives the function's value. A lasting function (lasting.py) called with its
    values all positional keeps them for the game; called with a name, its value is kept for the
    epoch only, and an evaluation calling it keeps none past the epoch."""
    keys, slots = frame_slots([p.name for p in decl.params], names)
    lasting = decl.name in engine.lasting.names
    positional = all(k is None for k in names)
    shape = (len(names), slots, lasting and positional)
    factory = _FACTORIES.get(shape)
    if factory is None:
        factory = _FACTORIES[shape] = _factory(*shape)
    call = factory(engine, compile_body, decl.name, names, decl.cite, span, *keys)
    if not lasting or positional:
        return call
    unkept = engine.lasting.unkept

    def named(*values):
        unkept()
        return call(*values)

    return named


def frame_slots(params: list[str], names: tuple) -> tuple[list[str], tuple[int, ...]]:
    """The frame bind_args builds, as its keys and the index of the value each key takes, in the order
    bind_args sets them: positional values under the parameters in order (extra values, or parameters,
    left out), then the named ones (a name given twice, or given a parameter's value too, takes the last)."""
    positional = [i for i, k in enumerate(names) if k is None]
    keys = params[:len(positional)]
    slots = positional[:len(keys)]
    for i, k in enumerate(names):
        if k is not None:
            keys.append(k)
            slots.append(i)
    return keys, tuple(slots)


def _factory(arity: int, slots: tuple[int, ...], lasting: bool) -> Callable:
    values = [f"v{i}" for i in range(arity)]
    text = (_LASTING_TEMPLATE if lasting else _TEMPLATE).format(
        keys=", ".join(f"k{j}" for j in range(len(slots))) or "*_",
        values=", ".join(values) + ("," if arity == 1 else ""),
        exact=" and ".join(f"{v}.__class__ in _EXACT_SCALARS" for v in values) or "True",
        frame=", ".join(f"k{j}: v{i}" for j, i in enumerate(slots)),
    )
    namespace = {"_EXACT_SCALARS": EXACT_SCALARS, "_MISS": MISS, "_call_key": call_key,
                 "MAX_FUNCTION_DEPTH": MAX_FUNCTION_DEPTH, "function_too_deep": function_too_deep,
                 "python_too_deep": python_too_deep}
    exec(compile(text, f"<call of {arity} values{' (lasting)' if lasting else ''}>", "exec"), namespace)  # this module's text only
    return namespace["factory"]


def bind_args(params: list[str], args: list[tuple[str | None, Any]]) -> dict:
    """The frame of a call whose arguments may be named: the positional ones in order, then the named."""
    frame: dict = {}
    positional = [v for k, v in args if k is None]
    for p, v in zip(params, positional):
        frame[p] = v
    for k, v in args:
        if k is not None:
            frame[k] = v
    return frame
