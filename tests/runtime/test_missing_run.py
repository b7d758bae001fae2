"""A scenario that runs a table the ruleset declares missing (the rulebook does not print it) is told
so, with the declaration and the demo data that stands in for it, not "unknown … did you mean"
a neighbouring table. The toy's messages are goldens (tests/bad/missing_table_run*.scenario); here,
Sea of Glory's Day of Battle (17.5) run on the bare ruleset rather than through a harness."""

from __future__ import annotations

import os
import re
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent


def test_a_missing_sea_of_glory_chart_names_its_declaration_and_its_demo_stand_in(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    ruleset = os.path.relpath(ROOT / "rulesets" / "sea_of_glory_1805.rules", tmp_path).replace(os.sep, "/")
    scenario = tmp_path / "day.scenario"
    scenario.write_text(f'scenario "the Day of Battle" uses "{ruleset}" [17.5] {{\n'
                        '  run day_of_battle(10, "summer")\n}\n', encoding="utf-8")
    assert main(["run", str(scenario)]) == 1
    err = capsys.readouterr().err
    assert f"error: table 'day_of_battle' is declared missing: the rulebook does not print it, and {ruleset} " \
           "does not supply it" in err
    # The files as the scenario's path reaches them (here from a temporary folder, so not checked whole).
    assert re.search(r"note: declared at \S*rulesets/sea_of_glory_1805\.rules:\d+ \[17\.5\]: the Day of Battle chart", err)
    assert re.search(r"note: the game's demo data \S*rulesets/sea_of_glory_1805/demo\.rules \(named at "
                     r"\S*rulesets/sea_of_glory_1805\.rules:\d+\) supplies it at \S*rulesets/sea_of_glory_1805/"
                     r"demo_battle\.rules:\d+, invented, as 'umpire play' reads it", err)
    assert f'include "{ruleset}" then include "{ruleset.removesuffix(".rules")}/demo.rules"' in err
    assert "unknown" not in err and "did you mean" not in err
