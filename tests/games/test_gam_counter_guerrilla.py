"""Guerra a Muerte 10.1: the counter-guerrilla operation reads a table the rulebook does not print.

The scenario case_counter_guerrilla runs with a fixture overlay that stands in for the table and
its OP cost. Run on the root ruleset alone, the same position must stop at the operation with
the reason (the procedure `needs` the table); run with the game's demo data, the operation must
read the demo table, whose name and parameters match the rules' lookup.
"""

from __future__ import annotations

from pathlib import Path

from interpreter.load import load_rules, load_scenario, rules_path_for
from interpreter.runtime.games.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIO = "scenarios/guerra_a_muerte/case_counter_guerrilla.scenario"


def run_without_overlay(monkeypatch, with_demo: bool):
    monkeypatch.chdir(ROOT)
    sources = Sources()
    scenario = load_scenario(SCENARIO, sources)
    loaded = load_rules(rules_path_for(scenario), sources, with_demo=with_demo)
    assert not loaded.errors
    return run_scenario(scenario, loaded.symbols, sources)


def test_without_data_the_operation_stops_with_the_reason(monkeypatch):
    outcome = run_without_overlay(monkeypatch, with_demo=False)
    assert outcome.error is not None
    assert "counter_guerrilla_operation" in outcome.error.message
    assert "needs the missing table(s) counter_guerrilla" in outcome.error.message
    trace = "\n".join(outcome.lines)
    assert "royalist operation: counter_guerrilla" in trace, "everything before the call has run"
    assert "counter-guerrilla DRM" not in trace, "nothing of the operation itself has run"


def test_with_the_demo_data_the_operation_reads_the_demo_table(monkeypatch):
    outcome = run_without_overlay(monkeypatch, with_demo=True)
    assert outcome.error is None
    trace = "\n".join(outcome.lines)
    # The scripted die 4 with +1 (Partidarios) and -1 (a guerrilla of militia) reads the demo row 3..4.
    assert "record salta counter-guerrilla DRM = 0" in trace
    assert "counter_guerrilla: roll 4 partidarios +1 [13.0] local_guerrillas -1 [13.0] = 4" in trace
    assert "record salta counter-guerrilla = demo_guerrilla_flushed" in trace


def test_the_fixture_overlay_checks_as_scenarios_read_it(capsys, monkeypatch):
    """The fixture supplies the table the demo data also supplies: it amends the ruleset as a
    scenario reads it (no demo data), and `umpire check` says so instead of failing."""
    from interpreter.cli import main

    monkeypatch.chdir(Path(__file__).resolve().parent.parent.parent)
    assert main(["check", "scenarios/guerra_a_muerte/fixtures/counter_guerrilla_fixture.overlay"]) == 0
    out = capsys.readouterr().out
    assert "as scenarios read it (not with the demo data, as 'play' would: function 'counter_guerrilla_cost' already exists" in out
