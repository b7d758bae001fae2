"""Sea of Glory scenarios whose seeded runs take other paths than their scripted dice: every one of
`odds --list-facts`'s twenty runs reaches its end. A search may make contact and bring a battle, whose
fleets the generic admirals command (8.4), and a fast passage may bring a British block to its West
Indies arrival port (12.3, 12.5); the positions hold those counters and places."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize("stem", ["case_search_crossing_zone", "case_search_entry_loose", "case_transit_fast_passage"])
def test_no_seeded_run_stops_on_a_rule(stem, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(["odds", f"scenarios/sea_of_glory_1805/{stem}.scenario", "--list-facts"]) == 0
    out = capsys.readouterr().out
    assert "recorded by this scenario's run (20 seeded runs; * named by its expectations):" in out
    assert "stopped where a rule could not be applied" not in out
