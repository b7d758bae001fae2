"""The two ways an expression is evaluated agree: generated Python (generated_code.py, with small
functions written in place and runs of statements that never wait written as blocks) and the
compiler's closures of every node and statement (compile.py, `Engine.GENERATE = False`) narrate every
toy game's scenarios byte for byte alike, errors included; with UMPIRE_LONG=1 every scenario of the five
games as well (about five minutes)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from interpreter.load import check_scenario, load_scenario, load_scenario_rules
from interpreter.runtime.execution import generated_code
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.games.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources, UmpireError

ROOT = Path(__file__).resolve().parent.parent.parent
TOYS = sorted((ROOT / "tests" / "lang").glob("*.scenario"))
GAMES = sorted((ROOT / "scenarios").rglob("*.scenario"))


def narrated(path: Path, generate: bool, monkeypatch) -> tuple[str, str | None]:
    monkeypatch.setattr(Engine, "GENERATE", generate)
    if not generate:  # the closures' run (after the generated one) writes no Python at all
        monkeypatch.setattr(generated_code, "generate", lambda comp, e: pytest.fail(f"code generated for {e.kind}"))
        monkeypatch.setattr(generated_code, "block", lambda comp, run, *rest: pytest.fail(f"a block generated at {run[0][0].span}"))
    sources = Sources()
    try:
        scenario = load_scenario(str(path.relative_to(ROOT)), sources)
        loaded = load_scenario_rules(scenario, sources)
    except UmpireError as e:  # a toy whose files are refused: nothing runs, either way
        return "", str(e)
    refused = [d.message for d in (*loaded.errors, *check_scenario(scenario, loaded.symbols)) if d.severity == "error"]
    if refused:  # a toy the checker refuses is never run
        return "", "; ".join(refused)
    outcome = run_scenario(scenario, loaded.symbols, sources)
    return "\n".join(outcome.lines), None if outcome.error is None else outcome.error.message


def test_there_are_toy_scenarios():
    assert len(TOYS) >= 100


@pytest.mark.parametrize("path", TOYS, ids=lambda p: p.stem)
def test_generated_code_and_closures_narrate_alike(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert narrated(path, True, monkeypatch) == narrated(path, False, monkeypatch)


@pytest.mark.skipif(not os.environ.get("UMPIRE_LONG"), reason="every game scenario both ways takes minutes: UMPIRE_LONG=1")
@pytest.mark.parametrize("path", GAMES, ids=lambda p: str(p.relative_to(ROOT / "scenarios")))
def test_every_game_scenario_narrates_alike_both_ways(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert narrated(path, True, monkeypatch) == narrated(path, False, monkeypatch)
