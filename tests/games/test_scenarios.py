"""Every scenario runs, meets its expectations, and narrates exactly its reviewed trace.

A scenario's trace lives beside it, scenarios/<game>/traces/<stem>.trace (the ScenarioTrace
extension in conftest.py); after an intended change, regenerate them with
`python -m pytest --snapshot-update` and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import TRACE_TEST, trace_of

from interpreter.load import check_scenario, load_scenario, load_scenario_rules
from interpreter.runtime.games.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources, render

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.scenario"))


def run(path: Path):
    sources = Sources()
    rel = str(path.relative_to(ROOT))
    scenario = load_scenario(rel, sources)
    loaded = load_scenario_rules(scenario, sources)  # with the overlays the scenario names
    assert not loaded.errors, [render(d, sources) for d in loaded.errors]
    problems = [d for d in check_scenario(scenario, loaded.symbols) if d.severity == "error"]
    assert not problems, [render(d, sources) for d in problems]
    return run_scenario(scenario, loaded.symbols, sources), sources


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 4


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(path, scenario_trace, monkeypatch):
    monkeypatch.chdir(ROOT)
    outcome, sources = run(path)
    assert outcome.error is None, render(outcome.error, sources)
    assert outcome.ok, "\n".join(outcome.lines)
    assert "\n".join(outcome.lines) + "\n" == scenario_trace


def test_every_scenario_has_its_trace_beside_it_and_every_trace_its_scenario():
    assert test_scenario.__name__ == TRACE_TEST  # the snapshot name ScenarioTrace gives a trace
    missing = [str(p.relative_to(ROOT)) for p in SCENARIOS if not trace_of(p).is_file()]
    assert not missing, f"no reviewed trace (record it with --snapshot-update): {missing}"
    traces = sorted((ROOT / "scenarios").rglob("*.trace"))
    assert len(traces) == len(SCENARIOS)
    misplaced = [str(t.relative_to(ROOT)) for t in traces if t.parent.name != "traces"]
    assert not misplaced, f"a trace belongs in its game's traces/ folder: {misplaced}"
    orphans = [str(t.relative_to(ROOT)) for t in traces if t.parent.name == "traces"
               and not (t.parent.parent / f"{t.stem}.scenario").is_file()]
    assert not orphans, f"traces without their scenario: {orphans}"
    assert not [p for p in (ROOT / "scenarios").rglob("*") if p.is_file() and p.parent.name == "traces"
                and p.suffix != ".trace"], "a traces/ folder holds traces only"


def test_umpire_run_prints_the_narration_and_detail_prints_the_reviewed_trace(capsys, monkeypatch):
    from interpreter.cli import main

    monkeypatch.chdir(ROOT)
    path = "scenarios/jenkins_ear/case_stacking_end_of_move_english_naval.scenario"
    outcome, _ = run(ROOT / path)
    assert main(["run", path, "--detail"]) == 0
    assert capsys.readouterr().out.splitlines() == outcome.lines, "--detail prints the whole (snapshot) trace"
    assert main(["run", path]) == 0
    told = capsys.readouterr().out.splitlines()
    hidden = [e for e in outcome.events if e.detail]
    assert {e.kind for e in hidden} == {"record", "decision", "state"}
    assert f"trace: (the narration; --detail adds {len(hidden)} line(s): facts recorded, states set, decisions)" in told
    assert len(told) == len(outcome.lines) - len(hidden)
    assert not [line for line in told if "] record " in line or " overstacked_naval: " in line]
    assert "  [4.5] ENS2 is eliminated (overstacked in 2719)" in told
    assert "  [4.0] 2719 holds 5 counted english naval counters; its seaport value is 4" in told
    assert told[-1] == outcome.lines[-1] == "result: 5 of 5 expectations met"


def test_umpire_run_puts_the_narration_first_and_tells_each_departure_once(capsys, monkeypatch):
    """The set-up's fixtures are counted in one line (listed with --fixtures), so the narration
    follows a short header; a rule check the printed example breaks reads as its declared departure;
    each departure is told once, where it happens, and named after the trace by its tag."""
    from interpreter.cli import main

    monkeypatch.chdir(ROOT)
    path = "scenarios/jenkins_ear/eop_combat_step.scenario"
    assert main(["run", path]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("trace:"))
    assert start < 15 and not [line for line in lines if line.startswith("fixture: BOYNE ")]
    assert ("fixtures: 53 values the rulebook does not print, supplied by the scenario's set-up "
            "(umpire run --fixtures lists them)") in lines[:start]
    assert lines[start + 1].startswith("  [7.3] departure D5: the example fails the rule check 'BOYNE carries 3 land "
                                       "counters; its capacity is 1' (")
    assert not [line for line in lines if "rule check failed" in line]
    assert sum("departure D1:" in line for line in lines) == 1
    assert ("departures from the rules (the engine follows the rules): D5 [7.3] and D1 [11.4], told in the trace above"
            in lines)
    assert main(["run", path, "--fixtures"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("fixture: ") for line in listed) == 55 and not [x for x in listed if x.startswith("fixtures:")]
