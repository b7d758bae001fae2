"""Guerra a Muerte 5.1.3: the units in an Ejercito marker's holding box are hidden from the enemy.

The ruleset's `view` decides what a person is shown of the position during `umpire play`. In
`case_ejercito_reorganized` the Patriot's P1 and P2 start in the box of the marker in Los
Llanos, P3 on the map: the Royalist is shown P3 alone, the Patriot all three. The units in the box
are not counted either: their number is what the box keeps from the enemy. The marker itself is
not shown: a gap of the language (a marker is no piece of its own), reported in recruitment.rules.
"""

from __future__ import annotations

from pathlib import Path

from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.games.play import position
from interpreter.runtime.games.setup import Setup
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIO = "scenarios/guerra_a_muerte/case_ejercito_reorganized.scenario"


def line_of(text: str, place: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"  {place}: "))


def test_the_enemy_does_not_see_the_units_in_an_ejercito_box(monkeypatch):
    monkeypatch.chdir(ROOT)
    sources = Sources()
    scenario = load_scenario(SCENARIO, sources)
    loaded = load_scenario_rules(scenario, sources)
    assert not loaded.errors
    engine = Engine(loaded.symbols, sources)
    Setup(engine, scenario).run()
    seen_by_royalist = line_of(position(engine, "royalist"), "los_llanos")
    assert "P3" in seen_by_royalist
    assert seen_by_royalist == "  los_llanos: P3"  # neither named nor counted
    seen_by_patriot = line_of(position(engine, "patriot"), "los_llanos")
    assert all(u in seen_by_patriot for u in ("P1", "P2", "P3"))
    assert "hidden" not in seen_by_patriot
