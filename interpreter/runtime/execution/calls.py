"""Calls of ruleset functions whose arguments are all positional (nearly all of them), written out per arity.

A call is made often (a long campaign makes some 600,000) and most of its cost was
its bookkeeping: packing the values, testing how many there are, zipping the frame. Here the
caller of `f(p, s)` is a Python function of exactly two values, its memo key and its frame
written out for two: the same key memo_keys.py's `memo_key` makes, the same frame `bind_args`
builds, the same limits and errors, in the same order. The text is this module's own (one per
arity, compiled once per process); the function's name and its parameters' names are values
the factory is given, never text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...limits import MAX_FUNCTION_DEPTH
from .guards import function_too_deep, python_too_deep
from .memo_keys import EXACT_SCALARS, MISS, call_key

_TEMPLATE = '''
def factory(engine, compile_body, name, cite, span, {params}):
    memo = engine._memo  # the engine's one cache: cleared at each epoch, never replaced
    names = (None,) * {arity}
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
# recorded (the calls it makes, the steps it counts) and its value kept for the game.
_LASTING_TEMPLATE = '''
def factory(engine, compile_body, name, cite, span, {params}):
    memo = engine._memo  # the engine's one cache: cleared at each epoch, never replaced
    lasting = engine.lasting
    recording = lasting.recording
    states = lasting.reads[name]  # the game states it reads: their values are part of its kept key
    names = (None,) * {arity}
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
            kept_key = lasting.key_of(key) if states else key
            if kept_key is not None:
                kept = lasting.owned().get(kept_key)
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
            lasting.end(kept_key, value, frame)
        return value

    return call
'''

_FACTORIES: dict[tuple[int, int, bool], Callable] = {}


def positional_caller(engine, decl, arity: int, span, compile_body: Callable) -> Callable:
    """The caller of `decl` with `arity` positional values: `call(v0, v1, …)` gives the function's value."""
    params = [p.name for p in decl.params]
    bound = min(arity, len(params))  # the frame zip(params, values) makes: extra values, or parameters, left out
    lasting = decl.name in engine.lasting.names
    factory = _FACTORIES.get((arity, bound, lasting))
    if factory is None:
        factory = _FACTORIES[(arity, bound, lasting)] = _factory(arity, bound, lasting)
    return factory(engine, compile_body, decl.name, decl.cite, span, *params[:bound])


def _factory(arity: int, bound: int, lasting: bool) -> Callable:
    values = [f"v{i}" for i in range(arity)]
    text = (_LASTING_TEMPLATE if lasting else _TEMPLATE).format(
        arity=arity,
        params=", ".join(["*_"] + [f"p{i}" for i in range(bound)]) if bound == 0 else ", ".join(f"p{i}" for i in range(bound)),
        values=", ".join(values) + ("," if arity == 1 else ""),
        exact=" and ".join(f"{v}.__class__ in _EXACT_SCALARS" for v in values) or "True",
        frame=", ".join(f"p{i}: v{i}" for i in range(bound)),
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
