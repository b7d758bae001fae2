"""A scenario started by hand, and a position taken through its data form (TOML) into a fresh
engine: what the tests of a construct that holds state share (loops, records, per-key states,
results given arguments)."""

from __future__ import annotations

import copy
import random
import tomllib

import tomli_w

from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.common.requests import RollRequest
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.execution.vm import Process
from interpreter.runtime.games.scenario import run_target
from interpreter.runtime.games.setup import Setup
from interpreter.runtime.position.position import Position
from interpreter.runtime.position.position_data import from_data, to_data
from interpreter.syntax.diagnostics import Sources


def loaded(path: str) -> tuple:
    """A scenario file read with its ruleset (and the overlays it names): the checked program, the
    sources read and the scenario, as `started` and `resumed_alike` take them."""
    sources = Sources()
    sc = load_scenario(path, sources)
    return load_scenario_rules(sc, sources).symbols, sources, sc


def set_up(sym, sources, sc) -> Engine:
    """A fresh engine holding the scenario's set-up."""
    engine = Engine(sym, sources)
    Setup(engine, sc).run()
    return engine


def started(sym, sources, sc) -> tuple[Engine, Process]:
    """The scenario set up, and the process of what it runs, not yet sent anything."""
    engine = set_up(sym, sources, sc)
    return engine, run_target(engine, sc)


def as_data(engine: Engine, proc: Process) -> dict:
    """The position as a save holds it: written as TOML and read back."""
    return tomllib.loads(tomli_w.dumps(to_data(Position.of(engine, proc))))


def resumed(data: dict, sym, sources, sc) -> tuple[Engine, Process]:
    """A position's data put back into a fresh engine set up for the scenario, and the process that goes on."""
    other = set_up(sym, sources, sc)
    shell = Process(other, None)
    from_data(data, other).restore(other, shell)
    return other, shell


def play_on(engine: Engine, proc: Process, rng: random.Random, req=None, stop_at: int | None = None):
    """Answer rolls (and decisions) at random until the run ends: its new trace lines and facts;
    or the ``stop_at``-th roll request, unanswered."""
    rolls, start = 0, len(engine.events)
    try:
        req = proc.send(None) if req is None else req
        while True:
            if isinstance(req, RollRequest):
                rolls += 1
                if rolls == stop_at:
                    return req
                req = proc.send([rng.randint(req.low, req.high) for _ in range(req.count)])
            else:
                req = proc.send(rng.choice(req.options) if req.options else None)
    except StopIteration:
        return [e.line() for e in engine.events[start:]], dict(engine.state.facts)


def resumed_alike(sym, sources, sc, seeds: range, stops: tuple[int, ...]) -> int:
    """For each seed and roll: a position taken there, through its data form, goes on as the
    uninterrupted run does (same key, same trace lines and facts); how many were compared."""
    compared = 0
    for seed in seeds:
        for stop_at in stops:
            engine, proc = started(sym, sources, sc)
            req = play_on(engine, proc, random.Random(seed), stop_at=stop_at)
            if not isinstance(req, RollRequest):
                continue
            taken = Position.of(engine, proc)
            data = as_data(engine, proc)
            rng = random.Random(seed + 100)
            uninterrupted = play_on(engine, proc, copy.deepcopy(rng), req)
            other, shell = resumed(data, sym, sources, sc)
            assert Position.of(other, shell).key() == taken.key()
            assert play_on(other, shell, copy.deepcopy(rng), req) == uninterrupted
            compared += 1
    return compared
