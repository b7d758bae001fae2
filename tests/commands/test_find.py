"""`umpire find RULESET NAME`: where a name is declared among the files a ruleset reads, with
file:line:col, what declares it, its citation and its line; a decision where it is asked."""

from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent

TOY = "tests/lang/toy.rules"


def found(capsys, name: str) -> list[str]:
    assert main(["find", TOY, name]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_table_in_an_included_part(capsys):
    assert found(capsys, "morale") == [
        "tests/lang/parts/morale.rules:2:7: table morale [5.0]",
        '    table morale(bonus: int) "Morale Table" [5.0] {',
    ]


def test_a_phase_a_step_and_missing_data(capsys):
    assert found(capsys, "red_turn")[0] == "tests/lang/toy.rules:87:9: phase red_turn [7.1]"
    assert found(capsys, "fight")[0] == "tests/lang/toy.rules:88:10: step fight [7.2]"
    assert found(capsys, "weather")[0] == "tests/lang/toy.rules:94:15: missing table weather [8.0]"


def test_a_decision_where_it_is_asked(capsys):
    assert found(capsys, "losses") == [
        "tests/lang/toy.rules:46:7: decision asked losses [6.4]",
        '    choose losses by s from mine exactly min(hits[enemy(s)], count(mine)) "choose losses" [6.4]',
    ]


def test_an_unknown_name_gets_the_closest(capsys):
    assert main(["find", TOY, "moral"]) == 1
    assert capsys.readouterr().err == (
        "umpire: 'moral' is declared nowhere in tests/lang/toy.rules or the files it reads; did you mean 'morale'?\n")


def test_only_a_rules_file_is_read(capsys):
    assert main(["find", "tests/lang/battle.scenario", "x"]) == 1
    assert "umpire find reads a rules file (.rules); 'tests/lang/battle.scenario' is not one" in capsys.readouterr().err


def test_the_missing_data_and_what_stands_in(capsys):
    assert main(["find", TOY, "--missing"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "data the rulebook does not print, declared 'missing' in tests/lang/toy.rules; for a table, the demo table "
        "that stands in for it in play:",
        "  table weather  tests/lang/toy.rules:94  no table supplies it",
        "1 missing: 1 table(s), 0 with a demo table, 1 with none; 0 other (maps, counters, charts, rules)",
    ]


def test_a_name_or_missing_is_asked(capsys):
    assert main(["find", TOY]) == 1
    assert capsys.readouterr().err == "umpire find: error: give a NAME to find, or --missing (not both)\n"


def test_what_an_overlay_adds_is_found_in_the_overlay(tmp_path, capsys, monkeypatch):
    shutil.copytree(ROOT / "tests" / "lang" / "parts", tmp_path / "parts")
    shutil.copy(ROOT / TOY, tmp_path / "toy.rules")
    (tmp_path / "muster.house").write_text(
        'overlay muster "House rule: a muster" amends "toy.rules" {\n'
        '  amend M-1 "Red musters before the fight" [7.2 house rule] {\n'
        '    add step before fight of phase red_turn with step muster {\n'
        '      choose mustered by red from [1, 2] "how many to muster"\n'
        '    }\n'
        '  }\n'
        '}\n')
    monkeypatch.chdir(tmp_path)
    assert main(["find", "toy.rules", "muster"]) == 1, "not in the ruleset itself"
    assert "'muster' is declared nowhere in toy.rules" in capsys.readouterr().err
    assert main(["find", "toy.rules", "muster", "--with", "muster.house"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "muster.house:3:55: step muster [7.2 house rule]",
        "    add step before fight of phase red_turn with step muster {",
    ]
    assert main(["find", "toy.rules", "mustered", "--with", "muster.house"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "muster.house:4:7: decision asked mustered"
