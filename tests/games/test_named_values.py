"""A printed value read in two places is one named value: an erratum to it changes both.

Sea of Glory's Inshore search modifier (+3, 14.6) is read by a stationary searcher's area
modifier (`area_mod`, through `search_from`) and by the search order of a block sortieing from
its port (`t14`, through `inactive_searches`). Each test erratum in tests/overlays/ changes it
once; both searches must then roll at +2. The checker's warning for a number written twice
has its golden in tests/bad/warn_printed_number_twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.games.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources, render

SORTIE = "scenarios/sea_of_glory_1805/case_search_sortie_spotted.scenario"  # T-14: searched Inshore as it sorties
STATIONARY = "scenarios/sea_of_glory_1805/ex_07_revealed_report.scenario"  # search_from: an Inshore searcher
ROOT = Path(__file__).resolve().parent.parent.parent
ERRATA = ["tests/overlays/sog_inshore_two.overlay", "tests/overlays/sog_area_mod.overlay"]


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def search_lines(path: str, overlays: list[str]) -> list[str]:
    """The Search Attempt lines of a scenario's trace, run with the overlays."""
    sources = Sources()
    sc = load_scenario(path, sources)
    loaded = load_scenario_rules(sc, sources, overlays)
    assert not loaded.errors, [render(d, sources) for d in loaded.errors]
    outcome = run_scenario(sc, loaded.symbols, sources)
    assert outcome.error is None, render(outcome.error, sources)
    return [line for line in outcome.lines if "search_attempt: roll" in line]


@pytest.mark.parametrize("path", [SORTIE, STATIONARY])
def test_the_printed_inshore_modifier_is_3(at_root, path):
    assert [line for line in search_lines(path, []) if "location +3 [14.2; 14.6]" in line]


@pytest.mark.parametrize("erratum", ERRATA)
@pytest.mark.parametrize("path", [SORTIE, STATIONARY])
def test_an_erratum_to_the_inshore_modifier_changes_every_search(at_root, path, erratum):
    lines = search_lines(path, [erratum])
    assert [line for line in lines if "location +2 [14.2; 14.6]" in line], lines
    assert not [line for line in lines if "location +3" in line], lines
