"""Demo maps and demo counters (language 19.2a, `demo map NAME "…"`) are said wherever demo tables
are: an odds answer, a study, a picture and a game that rest on them say so, in exact words. The
toy game tests/lang/sketch.rules prints neither its map nor its counters; its sketch map is shared
through `places from`, and its demo set-up adds invented counters."""

from __future__ import annotations

from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent

MAP = ("rests on: map 'coast' is not printed in the rulebook [2.0]: the position uses the demo map of "
       "tests/lang/parts/sketch_map.scenario:3 (invented: both bays and their links), not published data")
COUNTERS = ("rests on: counters 'sheet' is not printed in the rulebook [2.1]: the position uses the demo counters of "
            "tests/lang/parts/sketch_setup.scenario:3 (invented: the ship's guns), not published data")


def test_odds_on_a_demo_map_say_so(monkeypatch, capsys):
    """The scenario takes its places from the sketch: the map's 'demo map' comes with them."""
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/sketch_volley.scenario"]) == 0
    out = capsys.readouterr().out
    assert MAP in out.splitlines() and "counters 'sheet'" not in out
    assert main(["odds", "tests/lang/sketch_volley.scenario", "--no-exact", "--monte-carlo", "5"]) == 0
    assert MAP in capsys.readouterr().out.splitlines()


def test_a_game_on_the_demo_set_up_says_so_in_its_header(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(["play", "tests/lang/sketch.rules", "--agents", "first,first"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == ("set-up: DEMO set-up of the sketch; demo data: the set-up's map 'coast' "
                        "(tests/lang/parts/sketch_map.scenario:3), counters 'sheet' (tests/lang/parts/sketch_setup.scenario:3): "
                        "invented, not the published game")


def test_a_study_and_a_picture_of_the_demo_set_up_say_so(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(ROOT)
    assert main(["study", "tests/lang/sketch.rules", "--games", "2", "--agents", "first,first"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:3] == [MAP, COUNTERS]
    assert main(["draw", "tests/lang/sketch.rules", "-o", str(tmp_path / "sketch.svg")]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [MAP, COUNTERS]


def test_a_when_lions_sailed_case_on_the_demo_map_says_so(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(["odds", "scenarios/when_lions_sailed/case_control_home_port.scenario"]) == 0
    assert ("rests on: map 'world' is not printed in the rulebook [2.1; 2.2; 8.2; 16.7]: the position uses the demo map "
            "of rulesets/when_lions_sailed/demo_map.scenario:14") in capsys.readouterr().out
