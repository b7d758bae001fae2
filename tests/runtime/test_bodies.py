"""A body written as one generated function that runs it from its frame's pc (generated_code.body): the
machine runs it as it runs its instructions one by one (`Engine.BODIES = False`): the same trace, facts and
steps, a position the same at every roll and decision, the step budget and the narration's limit stopping at
the same statement with the same error, a position taken in the middle of a body going on alike in an engine
with bodies and one without, and a body's readable text the same code as the text compiled."""

from __future__ import annotations

import ast
import random
import tomllib
from pathlib import Path

import pytest
import tomli_w

from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.common.requests import RollRequest, RuleError
from interpreter.runtime.execution import generated_code
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.execution.vm import Process
from interpreter.runtime.games.scenario import run_target
from interpreter.runtime.games.setup import Setup
from interpreter.runtime.position.position import Position
from interpreter.runtime.position.position_data import from_data, to_data
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
COMBATS = ("eop_land_3018", "eop_naval_3018")


def _engine(stem: str, bodies: bool, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(Engine, "BODIES", bodies)
    path = next((ROOT / "scenarios").rglob(f"{stem}.scenario"))
    sources = Sources()
    scenario = load_scenario(str(path.relative_to(ROOT)), sources)
    loaded = load_scenario_rules(scenario, sources)
    assert not loaded.errors
    engine = Engine(loaded.symbols, sources)
    Setup(engine, scenario).run()
    return engine, run_target(engine, scenario)


def _bodies_made(engine) -> int:
    return sum(code.body is not None for code in engine.vm.codes.values())


def _answer(req, rng: random.Random):
    if isinstance(req, RollRequest):
        return [rng.randint(req.low, req.high) for _ in range(req.count)]
    return req.options[0] if req.mode == "one" and req.options else ([] if req.mode != "one" else None)


def _go_on(engine, proc, rng, answer=None) -> tuple:
    """The process driven to its end with seeded dice and the first legal answers: the key of the position at
    every request, and the error that stopped it (message and place), if any."""
    keys, error = [], None
    try:
        while True:
            req = proc.send(answer)
            keys.append(Position.of(engine, proc).key())
            answer = _answer(req, rng)
    except StopIteration:
        pass
    except RuleError as e:
        error = (str(e), e.span)
    return keys, error


def _played(stem: str, bodies: bool, seed: int, monkeypatch, max_steps: int | None = None,
            max_narration: int | None = None) -> tuple:
    """The combat played: its trace, facts, steps, the position's key at every request, the error that
    stopped it, and the characters narrated."""
    engine, proc = _engine(stem, bodies, monkeypatch)
    narrated = engine.narrated
    if max_steps is not None:
        engine.max_steps = engine.steps + max_steps
    if max_narration is not None:
        engine.max_narration = engine.narrated + max_narration
    keys, error = _go_on(engine, proc, random.Random(seed))
    assert (_bodies_made(engine) > 0) == bodies
    return [e.line() for e in engine.events], dict(engine.state.facts), engine.steps, keys, error, engine.narrated - narrated


@pytest.mark.parametrize("stem", COMBATS)
def test_a_combat_runs_alike_with_and_without_bodies(stem, monkeypatch):
    for seed in range(3):
        with_bodies = _played(stem, True, seed, monkeypatch)
        assert with_bodies[4] is None and with_bodies[0]
        assert with_bodies == _played(stem, False, seed, monkeypatch)


@pytest.mark.parametrize("stem", COMBATS)
def test_the_step_budget_stops_a_body_where_the_machine_stops(stem, monkeypatch):
    steps = _played(stem, True, 0, monkeypatch)[2] - _engine(stem, True, monkeypatch)[0].steps
    for budget in range(0, steps, 2):
        with_bodies = _played(stem, True, 0, monkeypatch, max_steps=budget)
        assert with_bodies[4] is not None
        assert with_bodies == _played(stem, False, 0, monkeypatch, max_steps=budget)


def test_the_narrations_limit_stops_a_body_at_the_statement_that_passes_it(monkeypatch):
    size = _played("eop_naval_3018", True, 0, monkeypatch)[5]  # characters the combat narrates
    for limit in range(0, size, size // 25):
        with_bodies = _played("eop_naval_3018", True, 0, monkeypatch, max_narration=limit)
        assert with_bodies[4] is not None and with_bodies[4][1] is not None
        assert with_bodies == _played("eop_naval_3018", False, 0, monkeypatch, max_narration=limit)


@pytest.mark.parametrize("stem", COMBATS)
def test_a_position_taken_inside_a_body_goes_on_alike_with_and_without_bodies(stem, monkeypatch):
    """At every request of the combat the position is saved (written as data and read back), and the game goes
    on from it twice in the same engine: run by the bodies, and by the machine alone (every body taken away).
    Both go on to the same trace, facts, steps and keys: a body begins at every place a frame waits at (after
    a roll, a decision, a call, an elimination, inside loops and branches) as the machine goes on from it."""
    engine, proc = _engine(stem, True, monkeypatch)
    for name in engine.sym.procedures:  # every body lowered now, with its function
        engine.vm.code_named(("procedure", name))
    for i, hook in enumerate(engine.sym.hooks):
        engine.vm.code_named(("hook", hook.event, sum(h.event == hook.event for h in engine.sym.hooks[:i])))
    bodies = {code: code.body for code in engine.vm.codes.values()}
    assert sum(body is not None for body in bodies.values()) > 20
    rng, answer, compared = random.Random(5), None, 0
    try:
        while True:
            req = proc.send(answer)
            answer = _answer(req, rng)
            saved = tomli_w.dumps(to_data(Position.of(engine, proc)))
            runs = []
            for machine_only in (False, True):
                shell = Process(engine, None)
                from_data(tomllib.loads(saved), engine).restore(engine, shell)
                for code, body in bodies.items():
                    code.body = None if machine_only else body
                start, steps = len(engine.events), engine.steps
                keys, error = _go_on(engine, shell, random.Random(7), answer)
                runs.append(([e.line() for e in engine.events[start:]], dict(engine.state.facts), engine.steps - steps, keys, error))
            assert runs[0] == runs[1] and runs[0][4] is None
            compared += bool(runs[0][0])
            for code, body in bodies.items():
                code.body = body
            from_data(tomllib.loads(saved), engine).restore(engine, proc)  # the game goes on from where it was
    except StopIteration:
        pass
    assert compared > 5 and len(engine.vm.codes) == len(bodies)  # (no body lowered while the machine ran alone)


def test_a_bodys_readable_text_is_the_code_compiled(monkeypatch, tmp_path):
    shown = tmp_path / "generated.py"
    monkeypatch.setenv(generated_code.SHOW_VARIABLE, str(shown))
    monkeypatch.setattr(generated_code, "_CODE", {})  # every text compiled again, so seen
    compiled: list[tuple[str, str]] = []
    source = generated_code.body_source
    monkeypatch.setattr(generated_code, "body_source", lambda name, written: compiled.append((name, written)) or source(name, written))
    _played("eop_land_3018", True, 0, monkeypatch)
    readable = [f for f in ast.parse(shown.read_text()).body
                if isinstance(f, ast.FunctionDef) and [a.arg for a in f.args.args] == ["_p", "_f"]]
    assert len(compiled) == len(readable) >= 4  # land_combat, land_battle, lone_plus_check, the hook
    for (name, written), f in zip(compiled, readable):
        assert f.name == name
        assert ast.dump(f) == ast.dump(ast.parse(source(name, written)).body[0])
    # Named after the rule; a loop whose body waits steps through the frame's own cursor.
    assert "land_battle__body" in [name for name, _ in compiled]
    assert any(line.strip() == "_f.loops.pop()" for line in shown.read_text().splitlines())
