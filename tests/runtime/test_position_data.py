"""A position written as TOML and read back (runtime/position/position_data.py, issue 13).

Taken at a roll in the middle of a combat, written, read into a fresh engine set up from the
same scenario and restored there, a position goes on exactly as the game it was taken from:
the same trace lines and facts, for many seeds and every roll of the run. A damaged file is
refused with the field that is wrong, never with a traceback.
"""

from __future__ import annotations

import copy
import random
import tomllib
from pathlib import Path

import pytest
import tomli_w
from fuzzing import leaves

from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.common.requests import RollRequest, RuleError
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.execution.vm import Process
from interpreter.runtime.games.scenario import run_target
from interpreter.runtime.games.setup import Setup
from interpreter.runtime.position.position import Position
from interpreter.runtime.position.position_data import PositionError, from_data, to_data
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIOS = ["eop_land_3018", "tc_9_1b_la_guaira", "case_table_perilous_storm_and_admiral", "ex06_reinforcements_abort"]


class Game:
    def __init__(self, stem: str):
        path = next((ROOT / "scenarios").rglob(f"{stem}.scenario"))
        self.sources = Sources()
        self.sc = load_scenario(str(path.relative_to(ROOT)), self.sources)
        self.sym = load_scenario_rules(self.sc, self.sources).symbols

    def start(self) -> tuple[Engine, Process]:
        engine = Engine(self.sym, self.sources)
        Setup(engine, self.sc).run()
        proc = run_target(engine, self.sc)
        assert isinstance(proc, Process)
        return engine, proc


def answer(req, rng: random.Random):
    if isinstance(req, RollRequest):
        return [rng.randint(req.low, req.high) for _ in range(req.count)]
    if req.mode == "one":
        return rng.choice(req.options) if req.options and not req.optional else None
    return [] if req.mode != "split" else {}


def play(engine, proc, rng, req=None, stop_at: int | None = None):
    """Answer requests from rng until the end, or until the stop_at-th roll is asked (returned)."""
    rolls = 0
    start = len(engine.events)
    try:
        req = proc.send(None) if req is None else req
        while True:
            if isinstance(req, RollRequest):
                rolls += 1
                if rolls == stop_at:
                    return req
            req = proc.send(answer(req, rng))
    except StopIteration:
        return [e.line() for e in engine.events[start:]], dict(engine.state.facts), None
    except RuleError as err:  # some paths need a value the rulebook does not print: the same error both ways
        return [e.line() for e in engine.events[start:]], dict(engine.state.facts), err.message


@pytest.mark.parametrize("stem", SCENARIOS)
def test_a_position_written_and_read_goes_on_as_the_game(stem, monkeypatch):
    monkeypatch.chdir(ROOT)
    game = Game(stem)
    compared = 0
    for seed in range(25):
        for stop_at in (1, 2, 3):
            engine, proc = game.start()
            req = play(engine, proc, random.Random(seed), stop_at=stop_at)
            if not isinstance(req, RollRequest):
                break  # the run has fewer rolls
            taken = Position.of(engine, proc)
            text = tomli_w.dumps(to_data(taken))
            rng_state = random.Random(seed * 7 + stop_at)
            uninterrupted = play(engine, proc, copy.deepcopy(rng_state), req)

            other, _ = game.start()
            loaded = from_data(tomllib.loads(text), other)
            shell = Process(other, None)
            loaded.restore(other, shell)
            assert Position.of(other, shell).key() == taken.key()
            assert play(other, shell, copy.deepcopy(rng_state), req) == uninterrupted, (seed, stop_at)
            compared += 1
    assert compared >= 25


def _data(monkeypatch):
    monkeypatch.chdir(ROOT)
    game = Game("eop_land_3018")
    engine, proc = game.start()
    play(engine, proc, random.Random(1), stop_at=2)
    return game, tomllib.loads(tomli_w.dumps(to_data(Position.of(engine, proc))))


@pytest.mark.parametrize("damage, field", [
    (lambda d: d["units"][0].update(id="NOBODY"), "units[0].id"),
    (lambda d: d["units"][0]["location"].update(id="9999"), "units[0].location.id"),
    (lambda d: d["stack"][0]["fields"].update(pc=10_000), "stack[0].fields.pc"),
    (lambda d: d["stack"][0]["fields"]["code"].update(name=["procedure", "no_such"]), "stack[0].fields.code.name"),
    (lambda d: d["stack"][0].update(frame="Generator"), "stack[0].frame"),
    (lambda d: d["stack"][0]["fields"].pop("env"), "stack[0].fields"),
    (lambda d: d["stack"][0]["fields"].update(color="red"), "stack[0].fields.color"),
    (lambda d: d.update(waiting="yes"), "waiting"),
    (lambda d: d.update(format=99), "format"),
    (lambda d: d["facts"].update(t="lambda"), "facts.t"),
    (lambda d: d.pop("units"), ""),
    # what the rules tell apart, beyond the names of units, places and code
    (lambda d: d["units"][0].update(side="martians"), "units[0].side"),
    (lambda d: d["units"].insert(1, dict(d["units"][0])), "units[1].id"),
    (lambda d: d["units"][1].update(cargo=[]), "units[2].carrier"),
    (lambda d: d["units"][0].update(cargo=["ES1"]), "units[0].cargo[0]"),
    (lambda d: d["units"][0]["state"]["items"].append(["zeal", 3]), "units[0].state.zeal"),
    (lambda d: d["globals"]["items"][0].__setitem__(1, "martians"), "globals.winner"),
    (lambda d: d["globals"]["items"][1].__setitem__(1, 10**19), "globals.items[1]"),
    (lambda d: d["globals"]["items"].pop(), "globals"),
    (lambda d: d["places"].append({"id": d["units"][0]["location"]["id"],
                                   "state": {"t": "map", "ref": 99, "items": [["fort", 2]]}}), "places[0].state.fort"),
    (lambda d: d["tracks"][0]["values"][1].__setitem__(1, -1), "tracks[0].values[1][1]"),
    (lambda d: d["tracks"][0]["values"].pop(), "tracks[0].values"),
    (lambda d: d["tracks"].append(d["tracks"][0]), "tracks[1].name"),
    (lambda d: d.update(clock=[1, "english_phase", "no_step"]), "clock[2]"),
    (lambda d: d.update(clock=[10**6, "english_phase", "combat_resolution"]), "clock[0]"),
    (lambda d: d.update(depth=-1), "depth"),
    (lambda d: d.update(umpire=1), "umpire"),
    (lambda d: d["units"][0]["location"].update(near="2719"), "units[0].location.near"),
])
def test_a_damaged_position_is_refused_with_its_field(damage, field, monkeypatch):
    game, data = _data(monkeypatch)
    damage(data)
    engine, _ = game.start()
    with pytest.raises(PositionError) as err:
        from_data(data, engine)
    assert f"field '{field}'" in err.value.message if field else "'units' is missing" in err.value.message


def test_any_damage_is_a_position_error_never_a_traceback(monkeypatch):
    """Every leaf of the data replaced in turn by a value of another kind: read back, or refused."""
    game, data = _data(monkeypatch)
    engine, _ = game.start()
    paths = list(leaves(data))
    rng = random.Random(5)
    for path in rng.sample(paths, min(400, len(paths))):
        damaged = copy.deepcopy(data)
        holder = damaged
        for k in path[:-1]:
            holder = holder[k]
        holder[path[-1]] = rng.choice([-1, "?", True, [], {}, {"t": "unit", "id": "X"}, 10**9])
        try:
            from_data(damaged, engine)
        except PositionError:
            pass



def test_a_marker_on_a_secondary_map_is_written_with_the_position(monkeypatch):
    """A marker walking a secondary map (language 6.1c) is a game state whose value is a point: the
    position holds it, and a fresh engine restored from the written data walks on from that point."""
    monkeypatch.chdir(ROOT)
    sources = Sources()
    sc = load_scenario("tests/lang/storms_walk.scenario", sources)
    sym = load_scenario_rules(sc, sources).symbols

    def start():
        engine = Engine(sym, sources)
        Setup(engine, sc).run()
        return engine, run_target(engine, sc)

    engine, proc = start()
    req = play(engine, proc, random.Random(3), stop_at=2)  # the storm's second roll: it stands on its first dot
    taken = Position.of(engine, proc)
    data = tomllib.loads(tomli_w.dumps(to_data(taken)))
    assert data["globals"]["items"] == [["storm_at", engine.state.globals["storm_at"]]]
    assert engine.state.globals["storm_at"] in ("north_dot", "delta_dot", "bay_dot")
    uninterrupted = play(engine, proc, random.Random(5), req)
    other, _ = start()
    shell = Process(other, None)
    from_data(data, other).restore(other, shell)
    assert Position.of(other, shell).key() == taken.key()
    assert play(other, shell, random.Random(5), req) == uninterrupted
