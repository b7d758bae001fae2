"""Language constructs on a toy game (tests/lang/toy.rules) that no rulebook provides.

A scenario named ``error_*.scenario`` carries its expected error on its first line, as
``# expect-error: TEXT`` (jlox style); the others must run clean and match their trace.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent
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
