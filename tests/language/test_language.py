"""Language constructs on a toy game (tests/lang/toy.rules) that no rulebook provides.

A scenario named ``error_*.scenario`` carries its expected error on its first line, as
``# expect-error: TEXT`` (jlox style); the others must run clean and match their trace.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
LANG = sorted((ROOT / "tests" / "lang").glob("*.scenario"))


@pytest.mark.parametrize("path", [p for p in LANG if not p.name.startswith("error_")], ids=lambda p: p.stem)
def test_toy_scenario_runs(path, capsys, monkeypatch, trace_snapshot):
    monkeypatch.chdir(ROOT)
    assert main(["run", str(path.relative_to(ROOT)), "--detail"]) == 0  # the snapshot holds the whole trace
    out = capsys.readouterr()
    assert out.err == ""
    assert out.out == trace_snapshot


@pytest.mark.parametrize("path", [p for p in LANG if p.name.startswith("error_")], ids=lambda p: p.stem)
def test_toy_scenario_fails_as_expected(path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect-error: ")
    expected = first.removeprefix("# expect-error: ")
    assert main(["run", str(path.relative_to(ROOT))]) == 1
    err = capsys.readouterr().err
    assert expected in err
    assert "Traceback" not in err


def test_toy_ruleset_checks_clean(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", "tests/lang/toy.rules"]) == 0


def test_toy_check_lists_what_is_not_encoded(capsys, monkeypatch):
    # `not encoded` and `partly encoded` declarations are listed after the missing data, with their rule.
    monkeypatch.chdir(ROOT)
    assert main(["check", "tests/lang/toy.rules"]) == 0
    out = capsys.readouterr().out
    assert "missing table 'weather': the Weather Table, printed on the imaginary map [8.0]" in out
    assert "partly encoded [6.5]: retreats: a beaten defender never retreats;" in out
    assert "not encoded [8.1]: night turns: no rule darkens a turn or stops a move at night" in out


def test_a_departure_whose_printed_claim_holds_fails_its_expectation(capsys, monkeypatch, tmp_path):
    """`departs … printed EXPR`: the example's claim must not hold; if it does, the rules agree with
    the example and the scenario is wrong to call it a departure."""
    monkeypatch.chdir(ROOT)
    text = (ROOT / "tests" / "lang" / "printed_departure.scenario").read_text(encoding="utf-8")
    agreeing = text.replace('printed fact("hits red") == 2', 'printed fact("hits red") == 1')
    assert agreeing != text
    path = ROOT / "tests" / "lang" / "parts" / "_agreeing_departure.scenario"
    path.write_text(agreeing.replace('uses "toy.rules"', 'uses "../toy.rules"'), encoding="utf-8")
    try:
        assert main(["run", str(path.relative_to(ROOT))]) == 1
    finally:
        path.unlink()
    out = capsys.readouterr().out
    assert 'FAIL fact("hits red") == 1' in out
    assert "departure X1: the example's claim fact(\"hits red\") == 1 holds too, so the rules do not depart from it" in out
