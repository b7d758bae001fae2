"""The machine whose progress is data (runtime/execution/vm.py, issue 13).

Every scenario's reviewed trace is produced by the machine (tests/games/test_scenarios.py); here: a
position copied in the middle of a combat goes on exactly as the game it was copied from,
however many times it is restored, and a copy is independent of the game it came from.
"""

from __future__ import annotations

import random
from pathlib import Path

from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.common.requests import RollRequest
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.execution.vm import Process
from interpreter.runtime.games.scenario import run_target
from interpreter.runtime.games.setup import Setup
from interpreter.runtime.position.position import Position
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent

def _load(stem: str):
    path = next((ROOT / "scenarios").rglob(f"{stem}.scenario"))
    sources = Sources()
    scenario = load_scenario(str(path.relative_to(ROOT)), sources)
    loaded = load_scenario_rules(scenario, sources)
    assert not loaded.errors
    return scenario, loaded.symbols, sources


def _started(monkeypatch):
    """The Leogane land combat set up, its process made, and the engine that runs it."""
    monkeypatch.chdir(ROOT)
    scenario, sym, sources = _load("eop_land_3018")
    engine = Engine(sym, sources)
    Setup(engine, scenario).run()
    proc = run_target(engine, scenario)
    assert isinstance(proc, Process)
    return engine, proc


def _play_on(engine, proc: Process, rng: random.Random, answer=None) -> tuple[list[str], dict]:
    """Run to the end, rolling dice from rng and taking the first option of every decision."""
    start = len(engine.events)
    try:
        while True:
            req = proc.send(answer)
            if isinstance(req, RollRequest):
                answer = [rng.randint(req.low, req.high) for _ in range(req.count)]
            else:
                answer = req.options[0] if req.mode == "one" and req.options else ([] if req.mode != "one" else None)
    except StopIteration:
        pass
    return [e.line() for e in engine.events[start:]], dict(engine.state.facts)


def _to_the_second_roll(engine, proc: Process):
    req = proc.send(None)
    assert isinstance(req, RollRequest)
    req = proc.send([3] * req.count)
    assert isinstance(req, RollRequest), "the combat rolls again"
    return req


def test_a_position_copied_mid_combat_goes_on_as_the_game_it_was_copied_from(monkeypatch):
    engine, proc = _started(monkeypatch)
    req = _to_the_second_roll(engine, proc)
    position = Position.of(engine, proc)
    faces = [6] * req.count
    original = _play_on(engine, proc, random.Random(7), faces)
    assert original[0], "the combat went on after the copy"
    for _ in range(2):  # restored twice: playing a copy does not change the position it came from
        position.restore(engine, proc)
        assert _play_on(engine, proc, random.Random(7), faces) == original


def test_a_copy_is_independent_of_the_game_it_was_taken_from(monkeypatch):
    engine, proc = _started(monkeypatch)
    _to_the_second_roll(engine, proc)
    position = Position.of(engine, proc)
    where = sorted((u.id, u.location.id if u.location else None) for u in engine.state.units.values())
    records = [(u.id, loc) for u, _, loc, *_ in position.units]
    key = position.key()
    _play_on(engine, proc, random.Random(1), [1] * 20)
    assert sorted((u.id, u.location.id if u.location else None) for u in engine.state.units.values()) != where
    assert [(u.id, loc) for u, _, loc, *_ in position.units] == records and position.key() == key
    position.restore(engine, proc)
    assert sorted((u.id, u.location.id if u.location else None) for u in engine.state.units.values()) == where
    assert Position.of(engine, proc).key() == key


def test_a_position_s_key_names_the_game_not_the_path(monkeypatch):
    """Equal games give equal keys (however they were reached, however many steps were counted);
    a different die gives a different key; a key survives a copy and a restore."""
    keys = []
    for _ in range(2):
        engine, proc = _started(monkeypatch)
        _to_the_second_roll(engine, proc)
        keys.append(Position.of(engine, proc).key())
    assert keys[0] == keys[1] and hash(keys[0]) == hash(keys[1])
    assert " at 0x" not in repr(keys[0]), "no object's address in a key: the same in every process"
    position = Position.of(engine, proc)
    engine.steps += 1000
    assert Position.of(engine, proc).key() == position.key()
    position.restore(engine, proc)
    assert Position.of(engine, proc).key() == keys[0]

    other, proc2 = _started(monkeypatch)
    req = proc2.send(None)
    proc2.send([4] * req.count)  # the first roll differs
    assert Position.of(other, proc2).key() != keys[0]
