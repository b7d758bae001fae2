"""Saves that store the position (issue 13): a game suspended at a decision, written as a save's
TOML, read back and loaded from its position (no replay) goes on as the uninterrupted game, line
for line. The bench runs this for 100 seeds of each game (`python bench/bench.py --only save`);
here a few seeds keep the suite quick."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "bench"))  # the bench's check, run here on fewer seeds

from save_check import round_trips  # noqa: E402


@pytest.mark.parametrize("rules,seeds", [("rulesets/jenkins_ear.rules", range(1, 9)),
                                         ("rulesets/guerra_a_muerte.rules", range(1, 3))])
def test_a_game_loaded_from_its_position_goes_on_as_the_uninterrupted_one(rules, seeds, monkeypatch):
    monkeypatch.chdir(ROOT)
    equal, tried = round_trips(rules, seeds)
    assert tried == len(seeds), "every seed's game reached its save point"
    assert equal == tried
