"""The code of every diagnostic (`--json`'s "code"): each kind of problem has a stable code of its own,
none is null, and every message the goldens of tests/bad show has a kind (no "other-…")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.syntax.codes import CODES, code_of
from interpreter.syntax.diagnostics import NO_SPAN, Diagnostic

ROOT = Path(__file__).resolve().parent.parent.parent
HEAD = re.compile(r"^(?:[^\s:][^:]*(?::\d+:\d+)?|umpire): (error|warning|note): (.*)$")


def golden_heads() -> list[tuple[str, str, str]]:
    out = []
    for golden in sorted((ROOT / "tests" / "bad").glob("*.golden")):
        for line in golden.read_text(encoding="utf-8").splitlines():
            m = HEAD.match(line)
            if m:
                out.append((golden.name, m.group(1), m.group(2)))
    return out


def test_every_golden_diagnostic_has_a_kind():
    unknown = [(name, message) for name, severity, message in golden_heads()
               if code_of(Diagnostic(severity, message, NO_SPAN)).startswith("other-")]
    assert unknown == []


@pytest.mark.parametrize("message,code", [
    ("unknown name 'f'", "unknown-name"),
    ("unexpected character '&'", "syntax"),
    ("procedure 'go' has no rule citation", "citation"),
    ("row 6..7 -> gale [6.3] of table gale names 7, which can never be read: the roll ranges over 1..6", "row-never-read"),
    ("stat 'gun' is declared twice (first at line 3)", "duplicate"),
    ("amendment H-1 changes nothing: track 'funds' already runs 0..20", "overlay-noop"),
    ("no rule records a fact 'hit red'", "unknown-name"),
    ("script gives die 7, but a d6 reads 1..6", "script"),
])
def test_a_kind_has_its_code(message, code):
    assert code_of(Diagnostic("error", message, NO_SPAN)) == code


def test_the_codes_are_documented():
    doc = (ROOT / "docs" / "output.md").read_text(encoding="utf-8")
    assert [c for c in CODES if f"| `{c}` |" not in doc] == []
    assert len(set(CODES)) == len(CODES)


def test_json_carries_the_code(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", "tests/bad/overlay_demo_table_unknown_name.overlay", "--json"]) == 1
    (result,) = json.loads(capsys.readouterr().out)["files"]
    assert [(d["code"], d["message"]) for d in result["diagnostics"]] == [
        ("unknown-name", "unknown name 'f'"), ("unknown-name", "unknown attribute 'boats'")]
