"""Runs of statements that never wait, written as one generated function each (generated_code.block):
the machine runs them as it runs their instructions one by one (`Engine.BLOCKS = False`): the same
trace, facts and steps, a position the same at every roll and decision, the step budget and the
narration's limit stopping at the same statement with the same error, and a block's readable text
the same code as the text compiled."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.common.requests import RollRequest, RuleError
from interpreter.runtime.execution import generated_code
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.games.scenario import run_target
from interpreter.runtime.games.setup import Setup
from interpreter.runtime.position.position import Position
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
COMBATS = ("eop_land_3018", "eop_naval_3018")


def _engine(stem: str, blocks: bool, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(Engine, "BLOCKS", blocks)
    monkeypatch.setattr(Engine, "BODIES", False)  # the blocks themselves (a body writes its runs in itself)
    path = next((ROOT / "scenarios").rglob(f"{stem}.scenario"))
    sources = Sources()
    scenario = load_scenario(str(path.relative_to(ROOT)), sources)
    loaded = load_scenario_rules(scenario, sources)
    assert not loaded.errors
    engine = Engine(loaded.symbols, sources)
    Setup(engine, scenario).run()
    return engine, run_target(engine, scenario)


def _blocks_made(engine) -> int:
    return sum(op.block is not None for code in engine.vm.codes.values() for op in code.ops)


def _played(stem: str, blocks: bool, seed: int, monkeypatch, max_steps: int | None = None,
            max_narration: int | None = None) -> tuple:
    """The combat played with seeded dice and the first legal answers: its trace, facts, steps, the key of
    the position at every request, and the error that stopped it (message and place), if any."""
    engine, proc = _engine(stem, blocks, monkeypatch)
    narrated = engine.narrated
    if max_steps is not None:
        engine.max_steps = engine.steps + max_steps
    if max_narration is not None:
        engine.max_narration = engine.narrated + max_narration
    rng, answer, keys, error = random.Random(seed), None, [], None
    try:
        while True:
            req = proc.send(answer)
            keys.append(Position.of(engine, proc).key())
            if isinstance(req, RollRequest):
                answer = [rng.randint(req.low, req.high) for _ in range(req.count)]
            else:
                answer = req.options[0] if req.mode == "one" and req.options else ([] if req.mode != "one" else None)
    except StopIteration:
        pass
    except RuleError as e:
        error = (str(e), e.span)
    assert (_blocks_made(engine) > 0) == blocks
    return [e.line() for e in engine.events], dict(engine.state.facts), engine.steps, keys, error, engine.narrated - narrated


@pytest.mark.parametrize("stem", COMBATS)
def test_a_combat_runs_alike_with_and_without_blocks(stem, monkeypatch):
    for seed in range(3):
        with_blocks = _played(stem, True, seed, monkeypatch)
        assert with_blocks[4] is None and with_blocks[0]
        assert with_blocks == _played(stem, False, seed, monkeypatch)


@pytest.mark.parametrize("stem", COMBATS)
def test_the_step_budget_stops_a_block_where_the_machine_stops(stem, monkeypatch):
    steps = _played(stem, True, 0, monkeypatch)[2] - _engine(stem, True, monkeypatch)[0].steps
    stopped = 0
    for budget in range(0, steps, 3):
        with_blocks = _played(stem, True, 0, monkeypatch, max_steps=budget)
        assert with_blocks == _played(stem, False, 0, monkeypatch, max_steps=budget)
        stopped += with_blocks[4] is not None
    assert stopped == len(range(0, steps, 3))


def test_the_narrations_limit_stops_a_block_at_the_statement_that_passes_it(monkeypatch):
    size = _played("eop_land_3018", True, 0, monkeypatch)[5]  # characters the combat narrates
    for limit in range(0, size, size // 25):
        with_blocks = _played("eop_land_3018", True, 0, monkeypatch, max_narration=limit)
        assert with_blocks[4] is not None and with_blocks[4][1] is not None
        assert with_blocks == _played("eop_land_3018", False, 0, monkeypatch, max_narration=limit)


def test_a_blocks_readable_text_is_the_code_compiled(monkeypatch, tmp_path):
    shown = tmp_path / "generated.py"
    monkeypatch.setenv(generated_code.SHOW_VARIABLE, str(shown))
    monkeypatch.setattr(generated_code, "_CODE", {})  # every text compiled again, so seen
    compiled: list[tuple[str, str]] = []
    source = generated_code.block_source
    monkeypatch.setattr(generated_code, "block_source", lambda name, written: compiled.append((name, written)) or source(name, written))
    _played("eop_land_3018", True, 0, monkeypatch)
    readable = [f for f in ast.parse(shown.read_text()).body
                if isinstance(f, ast.FunctionDef) and [a.arg for a in f.args.args] == ["env", "_f"]]
    assert len(compiled) == len(readable) > 5
    for (name, written), f in zip(compiled, readable):
        assert f.name == name
        assert ast.dump(f) == ast.dump(ast.parse(source(name, written)).body[0])
    # One statement of the rules a line, each begun as the machine begins it (its pc, epoch and step).
    assert any(line.strip().startswith("env['defender'] = v_defender = ") for line in shown.read_text().splitlines())


def test_statements_nested_past_what_python_compiles_run_on_the_machine(tmp_path, monkeypatch, capsys):
    """Fifteen `if`s one inside another: more blocks than Python nests in a function, so the run is left to
    the machine, statement by statement, and narrates as with blocks off."""
    from interpreter.cli import main

    header = 'game g "G" [1.0] {\n  sides a "A", b "B" [1.1]\n  die d6 1..6 [1.2]\n  turns 3 [1.3]\n}\n'
    ifs = "".join("  " * (i + 1) + f"if x < {i + 1} {{\n" + "  " * (i + 2) + "set x = x + 1\n" for i in range(15))
    body = "procedure main() [2.1] {\n  let x = 0\n" + ifs + "".join("  " * (i + 1) + "}\n" for i in reversed(range(15)))
    (tmp_path / "g.rules").write_text(header + body + '  say "x is {x}"\n}\n', encoding="utf-8")
    scenario = tmp_path / "g.scenario"
    scenario.write_text('scenario "deep" uses "g.rules" [1.0] {\n  places { area hill { } }\n  run main()\n}\n', encoding="utf-8")
    written = []
    real = generated_code.block
    monkeypatch.setattr(generated_code, "block", lambda *a: written.append(real(*a)) or written[-1])
    outputs = []
    for blocks in (True, False):
        monkeypatch.setattr(Engine, "BLOCKS", blocks)
        assert main(["run", str(scenario)]) == 0
        outputs.append(capsys.readouterr().out)
    assert written == [None]  # asked once, with blocks on, and refused
    assert "x is 15" in outputs[0] and outputs[0] == outputs[1]
