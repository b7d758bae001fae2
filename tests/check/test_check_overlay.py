"""`umpire check OVERLAY` and `umpire check RULESET --with OVERLAY`: the overlay is checked applied to
its ruleset as `play` reads it (with the demo data), and fails where `play` would refuse it; the
overlay's own diagnostics are listed first, the base ruleset's counted in one line (--all lists them)."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
COVE = "tests/bad/support/cove.rules"
SURF = "tests/bad/overlay_demo_table_unknown_name.overlay"  # names 'f' in a modifier of a demo-only table
NOOP = "tests/bad/warn_overlay_noop.overlay"


def check(capsys, monkeypatch, *argv: str) -> tuple[int, str, str]:
    monkeypatch.chdir(ROOT)
    capsys.readouterr()
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_an_overlay_play_refuses_fails_the_check(capsys, monkeypatch):
    code, out, err = check(capsys, monkeypatch, SURF)
    assert code == 1
    assert err.startswith(f"{SURF}:5:63: error: unknown name 'f'\n")
    assert "as scenarios read it" not in out and "waits for the missing table" not in out
    assert out.splitlines()[-1] == f"{SURF}: 2 error(s), 0 warning(s)"
    # play refuses the same overlay with the same error.
    assert main(["play", COVE, "--with", SURF]) == 1
    assert capsys.readouterr().err.startswith(f"{SURF}:5:63: error: unknown name 'f'\n")


def test_the_ruleset_checked_with_the_overlay_fails_and_lists_it_first(capsys, monkeypatch):
    code, out, err = check(capsys, monkeypatch, COVE, "--with", SURF)
    assert code == 1 and err.startswith(f"{SURF}:5:63: error: unknown name 'f'\n")
    assert out.splitlines()[-1] == f"{COVE}: 2 error(s), 0 warning(s)"


def test_the_base_rulesets_diagnostics_are_counted_in_one_line(capsys, monkeypatch):
    code, out, err = check(capsys, monkeypatch, NOOP)
    assert code == 0
    assert "the base ruleset: 0 error(s), 0 warning(s), 3 note(s) (--all lists them)" in out.splitlines()
    assert out.splitlines()[-1] == f"{NOOP}: 0 error(s), 2 warning(s), 1 note(s)"
    assert "harbour.rules:" not in err and err.startswith(f"{NOOP}:5:5: warning: amendment H-1 changes nothing")


def test_all_lists_the_base_rulesets_diagnostics_after_the_overlays(capsys, monkeypatch):
    code, out, err = check(capsys, monkeypatch, NOOP, "--all")
    heads = [line.split(": ")[0] for line in err.splitlines() if ": note: " in line or ": warning: " in line]
    assert code == 0 and len(heads) == 6
    assert all(h.startswith(NOOP) for h in heads[:3]) and all(h.startswith("tests/bad/support/harbour") for h in heads[3:])
    assert "the base ruleset: 0 error(s), 0 warning(s), 3 note(s)" in out.splitlines()


def test_json_counts_the_base_apart(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", NOOP, "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)["files"]
    assert result["base"] == {"errors": 0, "warnings": 0, "notes": 3}
    assert [d["file"] for d in result["diagnostics"]] == [NOOP] * 3
