"""Hex directions (language 6.1d) and weighted paths (language 13: cheapest, reach) against
independent oracles: the six directions against the adjacency the grid has always computed, and
Dijkstra's least costs against every simple path of the toy map, enumerated."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.grids.geometry import hex_directions, hex_neighbours, parse_hex_id
from interpreter.lang import HEX_DIRECTIONS
from interpreter.load import load_rules, load_scenario, rules_path_for
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.games.setup import Setup
from interpreter.runtime.world.paths import cheapest, reach
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
OPPOSITE = dict(zip(HEX_DIRECTIONS, HEX_DIRECTIONS[3:] + HEX_DIRECTIONS[:3]))
IDS = [f"{c:02d}{r:02d}" for c in range(0, 8) for r in range(0, 8)]


@pytest.mark.parametrize("columns", ["even_q", "odd_q"])
def test_the_six_directions_are_the_adjacency_the_grid_computes(columns):
    for pid in IDS:
        around = hex_directions(pid, columns)
        assert [d for d, _ in around] == [d for d in HEX_DIRECTIONS if d in dict(around)]  # n first, clockwise
        assert {nid for _, nid in around} == hex_neighbours(pid, columns)
        assert len(around) == 6 or "00" in (pid[:2], pid[2:]) or pid[2:] == "01"  # only the edges lose hexes


@pytest.mark.parametrize("columns", ["even_q", "odd_q"])
def test_a_step_and_its_opposite_come_back(columns):
    for pid in IDS:
        for d, nid in hex_directions(pid, columns):
            assert dict(hex_directions(nid, columns))[OPPOSITE[d]] == pid


@pytest.mark.parametrize(("columns", "low_column"), [("even_q", 2), ("odd_q", 1)])
def test_the_lower_column_touches_rows_r_and_r_plus_1(columns, low_column):
    """The shifted column (even_q: the even ones) sits half a hex down: its ne/se are rows r and r+1."""
    for pid in ("0203", "0103"):
        col, row = parse_hex_id(pid)
        around = {d: parse_hex_id(nid) for d, nid in hex_directions(pid, columns)}
        low = col % 2 == low_column % 2
        assert around["ne"] == (col + 1, row if low else row - 1)
        assert around["se"] == (col + 1, row + 1 if low else row)
        assert around["n"] == (col, row - 1) and around["s"] == (col, row + 1)


def _engine(path: str) -> Engine:
    sources = Sources()
    sc = load_scenario(path, sources)
    loaded = load_rules(rules_path_for(sc), sources)
    assert not loaded.errors
    engine = Engine(loaded.symbols)
    Setup(engine, sc).run()
    return engine


def _all_paths_least(engine, start, goal, through, step) -> int | None:
    """The least cost over every simple path (no place twice) from start to goal: the oracle."""
    best = None

    def walk(p, seen, cost):
        nonlocal best
        if p == goal:
            best = cost if best is None else min(best, cost)
            return
        for q in p.neighbours:
            move = step(p, q) if q in through and q not in seen else None
            if move is not None and (best is None or cost + move < best):
                walk(q, seen | {q}, cost + move)

    walk(start, {start}, 0)
    return best


@pytest.mark.parametrize("wind", [1, 3, 5])
def test_cheapest_is_the_least_cost_of_every_path(monkeypatch, wind):
    monkeypatch.chdir(ROOT)
    engine = _engine("tests/lang/winds_rose.scenario")
    engine.state.globals["wind"] = wind
    step = engine.function_positional(engine.sym.functions["move_cost"], 2, None)
    places = list(engine.state.places.values())
    sea = [p for p in places if p.props["terrain"] != "land"]
    start = engine.state.places["0402"]
    for goal in places:
        want = _all_paths_least(engine, start, goal, set(sea), step)
        assert cheapest(engine, None, start, goal, sea, step) == want, goal.id
    for budget in range(0, 7):
        got = reach(engine, None, start, budget, sea, step)
        costs = [cheapest(engine, None, start, p, sea, step) for p in got]
        assert costs == sorted(costs) and all(c <= budget for c in costs)  # cheapest first, within budget
        assert set(got) == {p for p in sea if (c := cheapest(engine, None, start, p, sea, step)) is not None and c <= budget}


def test_explain_notes_each_call_of_the_step_function(monkeypatch, capsys):
    """The STEP function is called as a call written in the rules is: explaining notes each call."""
    from interpreter.cli import main

    monkeypatch.chdir(ROOT)
    assert main(["explain", "tests/lang/winds_paths.scenario", "--at", "1"]) == 0
    out = capsys.readouterr().out
    assert "consulted move_cost(0402, 0302) [3.5] = 3" in out  # into the strait
    assert "consulted move_cost(0402, 0401) [3.5] = 1" in out  # n, the wind from the se
