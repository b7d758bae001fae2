"""`umpire check SCENARIO` finds what a run would only find at its end: a fact no rule records and a place
the set-up does not have, named in an expectation, each with a did-you-mean."""

from __future__ import annotations

from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
MISSPELT = "tests/bad/expect_unknown_fact_and_place.scenario"


def test_check_names_the_misspelt_fact_and_the_unknown_place(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", MISSPELT]) == 1
    out, err = capsys.readouterr()
    heads = [line for line in err.splitlines() if ": error: " in line]
    assert heads == [f"{MISSPELT}:14:10: error: no rule records a fact 'hit red'",
                     f"{MISSPELT}:15:20: error: there is no place '0201' in this scenario's set-up"]
    assert "did you mean 'hits red'?" in err and "did you mean '0101'?" in err
    assert out == f"{MISSPELT}: 2 error(s), 0 warning(s)\n"


def test_facts_the_engine_and_the_tables_record_are_known(capsys, monkeypatch):
    """'departures', 'rule checks failed' and a table's 'NAME result' are recorded by the engine, not by a rule."""
    from interpreter.check.scenario import recorded_facts
    from interpreter.load import load_rules
    from interpreter.syntax.diagnostics import Sources

    monkeypatch.chdir(ROOT)
    sym = load_rules("tests/bad/support/harbour.rules", Sources()).symbols
    known = [text for _, text in recorded_facts(sym)]
    assert {"departures", "rule checks failed", "peril result"} <= set(known)
