"""Per-key game states (language 6.4a): `state held: bool per front`, one value for each key,
read and set by key, given by a scenario key by key, kept in positions and saves (read back
checked) and followed by `umpire odds`. The toy game is tests/lang/fronts.rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import check_text
from positions import as_data, loaded, resumed, set_up

from interpreter.cli import main
from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.common.requests import RollRequest
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.execution.vm import Process
from interpreter.runtime.games.scenario import run_target
from interpreter.runtime.games.setup import Setup
from interpreter.runtime.position.position import Position
from interpreter.runtime.position.position_data import PositionError, from_data
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
HEAD = '''game g "G" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  nations ana "Ana", bo "Bo" [1.1]
  die d6 1..6 [2.0]
}
enumeration front "the fronts" {north, south} [2.0]
'''


def test_the_toy_fronts_check_clean(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", "tests/lang/fronts.rules"]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out


def test_odds_read_per_key_states_and_the_values_a_scenario_gives_by_key(capsys, monkeypatch):
    # Each front falls on 4 or more (1/2): 0, 1 or 2 fronts, 1/4, 1/2, 1/4. With the south held from
    # the set-up (`state held[south]: true`), the count is 1 or 2, even odds.
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/fronts_offensive.scenario"]) == 0
    held = capsys.readouterr().out.split("fronts held:")[1].split("north:")[0]
    assert "0                 1/4" in held and "1                 1/2" in held and "2                 1/4" in held
    assert main(["odds", "tests/lang/fronts_south_held.scenario"]) == 0
    out = capsys.readouterr().out
    held = out.split("fronts held:")[1].split("north:")[0]
    assert "0  " not in held and "1                 1/2" in held and "2                 1/2" in held
    assert "total probability: 1 (exactly)" in out


def _after_the_north(monkeypatch) -> tuple[Engine, Process, Sources, object]:
    """The toy offensive stopped at the south's roll, the north taken on a 5."""
    monkeypatch.chdir(ROOT)
    sym, sources, sc = loaded("tests/lang/fronts_offensive.scenario")
    engine = Engine(sym, sources)
    Setup(engine, sc).run()
    proc = run_target(engine, sc)
    assert isinstance(proc.send(None), RollRequest)
    assert isinstance(proc.send([5]), RollRequest)
    return engine, proc, sources, sc


def test_a_position_copies_a_per_key_state_and_keys_it_by_its_values(monkeypatch):
    engine, proc, _, _ = _after_the_north(monkeypatch)
    pos = Position.of(engine, proc)
    assert pos.globals["held"] == {"north": True, "south": False}
    assert pos.globals["pressure"] == {"north": 5, "south": 3}  # the south's 3 is the scenario's
    engine.state.globals["held"]["south"] = True  # the game goes on: the position taken does not change
    assert pos.globals["held"]["south"] is False
    assert Position.of(engine, proc).key() != pos.key()


def test_a_per_key_state_written_as_data_is_read_back_and_the_game_goes_on_alike(monkeypatch):
    engine, proc, sources, sc = _after_the_north(monkeypatch)
    taken = Position.of(engine, proc)
    other, shell = resumed(as_data(engine, proc), engine.sym, sources, sc)
    assert Position.of(other, shell).key() == taken.key()
    with pytest.raises(StopIteration):
        shell.send([6])
    assert other.state.globals["held"] == {"north": True, "south": True}
    assert other.state.facts["fronts held"] == 2 and other.state.globals["reserves"]["red"] == 0


def _damaged(monkeypatch, damage) -> str:
    engine, proc, sources, sc = _after_the_north(monkeypatch)
    data = as_data(engine, proc)
    damage(data["globals"])
    other = set_up(engine.sym, sources, sc)
    with pytest.raises(PositionError) as err:
        from_data(data, other)
    return err.value.message


def _state(globals_: dict, name: str) -> dict:
    """A game state's written value in a save's `globals` (a map written as its items)."""
    return next(v for k, v in globals_["items"] if k == name)


def _entries(globals_: dict, name: str) -> list:
    return _state(globals_, name)["items"]


def test_a_damaged_per_key_state_is_refused_with_its_key(monkeypatch):
    message = _damaged(monkeypatch, lambda g: _entries(g, "held").pop())
    assert "held holds a value for each of north, south, not for north" in message
    message = _damaged(monkeypatch, lambda g: _entries(g, "held")[1].__setitem__(1, 3))
    assert "held[south] is of type bool: it cannot hold 3" in message
    message = _damaged(monkeypatch, lambda g: next(e for e in g["items"] if e[0] == "pressure").__setitem__(1, 4))
    assert "a map of its keys" in message


def _run(tmp_path, rules: str, target: str, states: str = "") -> list[str]:
    (tmp_path / "t.rules").write_text(HEAD + rules, encoding="utf-8")
    (tmp_path / "t.scenario").write_text(f'scenario "s" uses "t.rules" [1.0] {{\n{states}run {target}\n}}\n', encoding="utf-8")
    sources = Sources()
    sc = load_scenario(str(tmp_path / "t.scenario"), sources)
    loaded = load_scenario_rules(sc, sources)
    assert not loaded.errors, loaded.errors
    from interpreter.runtime.games.scenario import run_scenario

    outcome = run_scenario(sc, loaded.symbols, sources)
    assert outcome.error is None, outcome.error
    return [line for line in outcome.lines if line.startswith("  [")]


def test_states_per_side_and_per_nation_start_at_their_default_and_are_set_and_traced_by_key(tmp_path):
    rules = ('state ready: bool per side [2.1]\nstate levy: int per nation [2.2]\nstate mood: {calm, angry} per front [2.3]\n'
             'procedure p() [3.0] {\n  set ready[blue] = true [2.1]\n  set levy[bo] = 2 [2.2]\n'
             '  set mood[front.south] = angry [2.3]\n'
             '  say "{ready[red]} {ready[blue]} {levy[ana]} {levy[bo]} {mood[north]} {mood[south]}" [3.0]\n}\n')
    lines = _run(tmp_path, rules, "p()", "state levy[ana]: 4\n")
    assert lines == ["  [2.1] ready[blue] is now yes", "  [2.2] levy[bo] is now 2", "  [2.3] mood[south] is now angry",
                     "  [3.0] no yes 4 2 none angry"]


def test_a_local_of_a_per_key_state_s_name_is_a_local(tmp_path):
    rules = 'state held: bool per front [2.1]\nprocedure p() [3.0] {\n  let held = {north: 7}\n  say "{held[north]}" [3.0]\n}\n'
    assert _run(tmp_path, rules, "p()") == ["  [3.0] 7"]


def check(tmp_path, body: str, capsys) -> tuple[int, str]:
    return check_text(tmp_path, HEAD + body, capsys)


def test_a_key_that_is_a_nation_for_a_per_side_state_is_refused(tmp_path, capsys):
    code, out = check(tmp_path, 'state ready: bool per side [2.1]\nfunction f() [3.0] = ready[ana] or ready[red]\n', capsys)
    assert code == 1 and "'ana' is not a key of game state 'ready' (per side: red, blue)" in out
    assert out.count("is not a key") == 1


def test_a_per_key_state_may_be_keyed_by_an_enumerated_state_s_values(tmp_path, capsys):
    body = 'state season: {spring, autumn} [2.1]\nstate rain: int per season [2.2]\nfunction f() [3.0] = rain[season]\n'
    code, out = check(tmp_path, body, capsys)
    assert code == 0, out


def test_a_state_with_one_value_given_a_key_by_a_scenario_is_refused(tmp_path, capsys):
    (tmp_path / "t.rules").write_text(HEAD + 'state calm: bool [2.1]\nprocedure p() [3.0] {\n  say "{calm}" [3.0]\n}\n',
                                      encoding="utf-8")
    (tmp_path / "t.scenario").write_text('scenario "s" uses "t.rules" [1.0] {\nstate calm[north]: true\nrun p()\n}\n',
                                         encoding="utf-8")
    assert main(["run", str(tmp_path / "t.scenario")]) == 1
    assert "game state 'calm' has one value, not one per key: write 'state calm: …'" in capsys.readouterr().err


def test_a_per_key_state_known_to_a_side_is_hidden_from_the_other_side_s_trace(tmp_path, capsys):
    rules = ('state plan: int per front known to red [2.1]\n'
             'procedure p() [3.0] {\n  set plan[north] = 3 [2.1]\n  say "done" [3.0]\n}\n')
    (tmp_path / "t.rules").write_text(HEAD + rules, encoding="utf-8")
    (tmp_path / "t.scenario").write_text('scenario "s" uses "t.rules" [1.0] {\nrun p()\n}\n', encoding="utf-8")
    assert main(["run", str(tmp_path / "t.scenario"), "--detail", "--side", "red"]) == 0
    assert "[2.1] plan[north] is now 3" in capsys.readouterr().out
    assert main(["run", str(tmp_path / "t.scenario"), "--detail", "--side", "blue"]) == 0
    out = capsys.readouterr().out
    assert "plan[north]" not in out and "[3.0] done" in out
