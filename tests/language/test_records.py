"""Record types (language 3.1, 11.8b): built with named fields, changed by the procedures they are
given to, returned, copied and keyed in positions, written as data and read back checked, and
followed by `umpire odds`. The toy game is tests/lang/records.rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import check_text
from positions import as_data, loaded, resumed, set_up

from interpreter.cli import main
from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.common.requests import RollRequest
from interpreter.runtime.common.values import Record
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.execution.vm import Process
from interpreter.runtime.games.scenario import run_scenario, run_target
from interpreter.runtime.games.setup import Setup
from interpreter.runtime.position.position import Position
from interpreter.runtime.position.position_data import PositionError, from_data
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
HEAD = '''game g "G" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
record Tally "a tally" [2.0] {
  attacker: side
  hits: int = 0
}
'''


def test_the_toy_records_check_clean(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", "tests/lang/records.rules"]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out


def test_odds_follow_a_record_through_the_procedures_that_change_and_return_it(capsys, monkeypatch):
    # Three dice, a hit on 5 or 6 (1/3 each): the hits are binomial, the outcome read from them.
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/records_battle.scenario"]) == 0
    out = capsys.readouterr().out
    hits = out.split("hits:")[1].split("result:")[0]
    assert "0                8/27" in hits and "1                 4/9" in hits
    assert "2                 2/9" in hits and "3                1/27" in hits
    result = out.split("result:")[1].split("jointly")[0]
    assert "won                7/27" in result and "drawn                 4/9" in result
    assert "total probability: 1 (exactly)" in out


def _at_second_volley(monkeypatch) -> tuple[Engine, Process, Sources, object]:
    """The toy battle stopped at its second roll: the tally (one volley fired) is in the frames' locals."""
    monkeypatch.chdir(ROOT)
    sym, sources, sc = loaded("tests/lang/records_battle.scenario")
    engine = Engine(sym, sources)
    Setup(engine, sc).run()
    proc = run_target(engine, sc)
    req = proc.send(None)
    assert isinstance(req, RollRequest)
    req = proc.send([5, 6])
    assert isinstance(req, RollRequest)
    return engine, proc, sources, sc


def _records(pos: Position) -> list[Record]:
    return [v for f in pos.stack for v in getattr(f, "env", {}).values() if isinstance(v, Record)]


def test_a_position_copies_a_record_once_and_keeps_it_shared(monkeypatch):
    engine, proc, _, _ = _at_second_volley(monkeypatch)
    pos = Position.of(engine, proc)
    found = _records(pos)
    assert len(found) == 2 and found[0] is found[1]  # the battle's 't' and fire's 't': one record
    live = [v for f in proc.stack for v in getattr(f, "env", {}).values() if isinstance(v, Record)]
    assert found[0] is not live[0] and found[0] == live[0]
    live[0].fields["hits"] = 9  # the game goes on: the position taken does not change
    assert found[0].fields["hits"] == 2
    assert Position.of(engine, proc).key() != pos.key()


def test_a_record_written_as_data_is_read_back_and_the_game_goes_on_alike(monkeypatch):
    engine, proc, sources, sc = _at_second_volley(monkeypatch)
    taken = Position.of(engine, proc)
    other, shell = resumed(as_data(engine, proc), engine.sym, sources, sc)
    assert Position.of(other, shell).key() == taken.key()
    with pytest.raises(StopIteration):
        shell.send([2])
    assert other.state.facts["hits"] == 2 and other.state.facts["result"] == "won"


def _damaged(monkeypatch, damage) -> str:
    engine, proc, sources, sc = _at_second_volley(monkeypatch)
    data = as_data(engine, proc)
    record = next(v for f in data["stack"] for v in f["fields"]["env"]["items"] if isinstance(v[1], dict)
                  and v[1].get("t") == "record")[1]
    damage(record)
    other = set_up(engine.sym, sources, sc)
    with pytest.raises(PositionError) as err:
        from_data(data, other)
    return err.value.message


def test_a_damaged_record_is_refused_with_its_field(monkeypatch):
    assert "declare no record type 'Nothing'" in _damaged(monkeypatch, lambda r: r.update(type="Nothing"))
    message = _damaged(monkeypatch, lambda r: r["fields"].pop())
    assert "a Tally has the fields attacker, hits, volleys, outcome, in that order" in message
    message = _damaged(monkeypatch, lambda r: r["fields"][1].__setitem__(1, "many"))
    assert "field 'hits' of Tally is of type int: it cannot hold many" in message and ".fields[1]'" in message


def check(tmp_path, body: str, capsys) -> tuple[int, str]:
    return check_text(tmp_path, HEAD + body, capsys)


def test_a_field_of_a_parameter_declared_with_the_record_type_is_checked(tmp_path, capsys):
    code, out = check(tmp_path, 'procedure p(t: Tally) [3.0] {\n  say "{t.hist}" [3.0]\n}\n', capsys)
    assert code == 1 and "record 'Tally' has no field 'hist'" in out and "did you mean 'hits'?" in out


def test_a_record_is_built_with_named_fields_only(tmp_path, capsys):
    code, out = check(tmp_path, 'function f() [3.0] = Tally(red)\n', capsys)
    assert code == 1 and "record 'Tally' is built with named fields, as in 'Tally(attacker: …)'" in out


def test_a_field_of_an_unknown_type_and_a_default_naming_a_local(tmp_path, capsys):
    code, out = check(tmp_path, 'record Bad [3.0] {\n  a: nmber\n  b: int = c\n}\n', capsys)
    assert code == 1 and "unknown type 'nmber'" in out and "unknown name 'c'" in out


def test_a_record_type_may_be_a_field_s_and_a_parameter_s_type(tmp_path, capsys):
    body = ('record Battle [3.0] {\n  first: Tally\n  rounds: int = 1\n}\n'
            'function hits_of(b: Battle) [3.0] = b.first.hits\n'
            'function opening() [3.0] = Battle(first: Tally(attacker: red, hits: 2))\n')
    code, out = check(tmp_path, body, capsys)
    assert code == 0, out
    code, out = check(tmp_path, body.replace("first: Tally(", "first: Battle(").replace("hits: 2))", "rounds: 2))"), capsys)
    assert "field 'first' of record 'Battle' is of type Tally: it cannot hold a Battle" in out


def _run(tmp_path, rules: str, target: str, overlay: str | None = None):
    """Run `target` of the rules HEAD + rules (with an overlay, if given): its trace lines, or its error."""
    (tmp_path / "t.rules").write_text(HEAD + rules, encoding="utf-8")
    with_ = ""
    if overlay is not None:
        (tmp_path / "o.overlay").write_text(overlay, encoding="utf-8")
        with_ = 'with "o.overlay"\n'
    (tmp_path / "t.scenario").write_text(f'scenario "s" uses "t.rules" [1.0] {{\n{with_}run {target}\n}}\n', encoding="utf-8")
    sources = Sources()
    sc = load_scenario(str(tmp_path / "t.scenario"), sources)
    loaded = load_scenario_rules(sc, sources)
    assert not loaded.errors, loaded.errors
    outcome = run_scenario(sc, loaded.symbols, sources)
    return [line for line in outcome.lines if line.startswith("  [")], outcome.error


def test_a_record_s_field_is_read_by_its_name_as_a_map_s_entry(tmp_path):
    lines, error = _run(tmp_path, 'procedure p() [3.0] {\n  let t = Tally(attacker: red, hits: 2)\n'
                        '  say "{t[\\"hits\\"]} {get(t, \\"hits\\", 0)} {get(t, \\"misses\\", 7)}" [3.0]\n}\n', "p()")
    assert error is None and lines == ["  [3.0] 2 2 7"]


def test_an_errata_replaces_a_record_type_and_builds_use_its_new_field(tmp_path):
    overlay = ('overlay errata "E" amends "t.rules" {\n  amend E-1 "a tally counts retreats" [2.0 errata] {\n'
               '    replace record Tally "a tally" [2.0 errata] {\n      attacker: side\n      hits: int = 0\n'
               '      retreats: int = 1\n    }\n  }\n}\n')
    lines, error = _run(tmp_path, 'procedure p() [3.0] {\n  say "{Tally(attacker: blue)}" [3.0]\n}\n', "p()", overlay)
    assert error is None and lines == ["  [3.0] Tally(attacker: blue, hits: 0, retreats: 1)"]


def test_a_qualified_value_is_the_value_unless_a_local_has_the_qualifier_s_name(tmp_path):
    rules = ('state mood: {calm, angry} [2.1]\nrecord Face [2.2] {\n  mood: {calm, glad}\n}\n'
             'procedure p() [3.0] {\n  say "{mood.calm}" [3.0]\n  let mood = Face(mood: mood.glad)\n'
             '  say "{mood.mood}" [3.1]\n}\n')
    lines, error = _run(tmp_path, rules, "p()")
    assert error is None and lines == ["  [3.0] calm", "  [3.1] glad"]


def test_the_record_type_given_by_a_function_or_returned_by_a_procedure_is_known(tmp_path, capsys):
    body = ('function fresh(s: side) [3.0] = Tally(attacker: s)\n'
            'procedure battle(s: side) [3.1] {\n  let t = fresh(s)\n  return t [3.1]\n}\n'
            'procedure p() [3.2] {\n  let a = fresh(red)\n  let b = call battle(blue) [3.2]\n'
            '  say "{a.hist} {b.hist} {a.hits + b.hits}" [3.2]\n}\n')
    code, out = check(tmp_path, body, capsys)
    assert code == 1 and out.count("record 'Tally' has no field 'hist'") == 2, out
