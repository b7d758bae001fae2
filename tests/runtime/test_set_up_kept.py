"""A scenario set up again on the engine that set it up is the position its first set-up left, put back
(runtime/games/setup.py `Kept`, design decision 31a): the state, the trace, the position's key, the
run and the game played after it are those a set-up from the scenario gives; a state that is not
what the first set-up found is set up from the scenario."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.load import game_to_play
from interpreter.runtime.common.requests import ScriptError
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.execution.vm import Process
from interpreter.runtime.games.play import play
from interpreter.runtime.games.scenario import run_scenario
from interpreter.runtime.games.setup import Setup
from interpreter.runtime.position.position import Position, canon
from interpreter.syntax.diagnostics import Sources
from tests.positions import loaded

ROOT = Path(__file__).resolve().parent.parent.parent
LANG = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "tests" / "lang").glob("*.scenario")
              if not p.name.startswith("error_"))
GAMES = [
    "scenarios/jenkins_ear/eop_land_3018.scenario",
    "scenarios/jenkins_ear/eop_naval_3018.scenario",
    "scenarios/when_lions_sailed/case_econ_revenue.scenario",  # coasts
    "scenarios/guerra_a_muerte/case_reinforcements_morelos.scenario",  # a box of each turn
    "scenarios/sea_of_glory_1805/case_move_allied_destination.scenario",
]


def _ids(places) -> tuple:
    return tuple(p.id for p in places)


def everything(engine: Engine) -> tuple:
    """The whole state a set-up builds, named by id (what a position leaves out too: the map, the
    printed values, the boxes, the order of the units in each place), and the engine's trace and counters."""
    st = engine.state
    places = tuple((p.id, p.name, p.shape, p.is_box, p.side, canon(p.props), canon(p.state), _ids(p.neighbours),
                    canon({k: _ids(v) for k, v in p.links.items()}), canon(p.borders),
                    canon({k: _ids(v) for k, v in p.exits.items()}), _ids(st.units_at(p)))
                   for p in st.every_place())
    boxes = tuple((name, canon({k: p.id for k, p in box.items()}) if isinstance(box, dict) else box.id)
                  for name, box in st.boxes.items())
    units = tuple((u.id, u.type, u.cls, u.side, canon(u.stats), tuple(sorted(u.flags)), canon(u.state),
                   u.location.id if u.location else None, u.carrier.id if u.carrier else None, _ids(u.cargo),
                   u.label, u.ordinal) for u in st.units.values())
    coasts = tuple((name, _ids(listed)) for name, listed in st.coasts.items())
    tracks = tuple((name, t.low, t.high, canon(t.values)) for name, t in st.tracks.items())
    return (places, boxes, units, coasts, tracks, canon(st.globals), canon(st.facts), canon(st.cups),
            (st.turn, st.phase, st.step), [e.line() for e in engine.events], len(engine.violations),
            engine.deferred, engine.depth, engine.steps)


def _key(engine: Engine) -> tuple:
    shell = Process(engine, None)
    shell.stack = []
    return Position.of(engine, shell).key()


@pytest.mark.parametrize("path", LANG + GAMES, ids=lambda p: Path(p).stem)
def test_a_scenario_set_up_again_is_its_first_set_up_put_back(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    sym, sources, sc = loaded(path)
    fresh = Setup(Engine(sym, sources), sc)
    fresh.run()
    built = (everything(fresh.engine), _key(fresh.engine), fresh.fixtures, fresh.notes)
    ran = run_scenario(sc, sym, sources, set_up=fresh).lines

    engine = Engine(sym, sources)
    first = Setup(engine, sc)
    first.run()
    units, places = dict(engine.state.units), dict(engine.state.places)
    run_scenario(sc, sym, sources, set_up=first)  # the run changes the units and places the set-up made
    engine.reset()
    again = Setup(engine, sc)
    again.run()
    assert all(engine.state.units[uid] is unit for uid, unit in units.items())  # put back, not built again
    assert all(engine.state.places[pid] is place for pid, place in places.items())
    assert (everything(engine), _key(engine), again.fixtures, again.notes) == built
    assert run_scenario(sc, sym, sources, set_up=again).lines == ran


@pytest.mark.parametrize("rules", ["rulesets/jenkins_ear.rules", "rulesets/when_lions_sailed.rules"])
def test_a_game_on_a_kept_engine_is_the_game_a_new_engine_plays(rules, monkeypatch):
    """A study's games: each on the engine of the last, its demo set-up put back, plays as on a new engine."""
    monkeypatch.chdir(ROOT)
    sources = Sources()
    setup, rules_loaded, _ = game_to_play(rules, sources, [], True, None)  # as a study loads it
    sym = rules_loaded.symbols
    engine = Engine(sym, sources)
    assert play(sym, sources, setup, 1, ["random", "random"], engine=engine).lines
    units = dict(engine.state.units)
    kept = play(sym, sources, setup, 2, ["random", "random"], engine=engine)
    assert all(engine.state.units[uid] is unit for uid, unit in units.items())
    new = play(sym, sources, setup, 2, ["random", "random"], engine=Engine(sym, sources))
    assert kept.lines == new.lines and canon(kept.final) == canon(new.final)  # places and units by id


def test_a_state_changed_before_the_set_up_is_set_up_from_the_scenario(monkeypatch):
    monkeypatch.chdir(ROOT)
    sym, sources, sc = loaded("scenarios/jenkins_ear/eop_land_3018.scenario")
    engine = Engine(sym, sources)
    Setup(engine, sc).run()
    units = dict(engine.state.units)
    with pytest.raises(ScriptError, match="place 3018 is defined twice"):  # not reset: as a first set-up does
        Setup(engine, sc).run()
    engine.reset()
    engine.state.tracks["war_funds"].values["spanish"] = 7
    Setup(engine, sc).run()
    assert all(engine.state.units[uid] is not unit for uid, unit in units.items())
    assert engine.state.tracks["war_funds"].values == {"english": 40, "spanish": 7}
