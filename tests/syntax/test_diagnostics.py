"""Golden diagnostics: every malformed input in tests/bad/ gives exactly its reviewed output.

In the spirit of starlark-go's and jlox's test suites: each ``tests/bad/NAME.rules`` is
given to ``umpire check`` and each ``tests/bad/NAME.scenario`` to ``umpire run``; what
the command prints, and its exit code, must equal ``tests/bad/NAME.golden``. Inputs named
``warn_*`` have no error, only warnings (probable defects found by the static analysis, an
overlay amendment that changes nothing): they check with exit 0; every other input fails
with exit 1.

    exit: 1
    --- stdout
    ...what went to standard output: the summary, the trace...
    --- stderr
    ...what went to standard error: every diagnostic...

The goldens are syrupy snapshots stored beside their inputs (tests/conftest.py, DiagnosticGolden),
updated as the traces are: after an intended change to a message, regenerate them and review the diff:

    python -m pytest tests/syntax/test_diagnostics.py --snapshot-update

Whatever the input, no output may contain a Python traceback or an "internal error".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import BAD, BAD_SUFFIXES

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
# An `.overlay` input (errata, house rules) is given to `umpire check`, like a rules file.
INPUTS = sorted(p for p in BAD.iterdir() if p.suffix in BAD_SUFFIXES)

# The head line of every diagnostic: file:line:col: severity: message (or file: severity: message).
HEAD = re.compile(r"^[^\s:][^:]*(:\d+:\d+)?: (error|warning|note): \S")


def run_cli(path: Path, capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("UMPIRE_DEBUG", raising=False)
    rel = str(path.relative_to(ROOT))
    command = "run" if path.suffix == ".scenario" else "check"
    capsys.readouterr()
    code = main([command, rel, "--detail"] if command == "run" else [command, rel])  # goldens hold the whole trace
    out, err = capsys.readouterr()
    return code, out, err


def render_golden(code: int, out: str, err: str) -> str:
    def section(text: str) -> str:
        return text if not text or text.endswith("\n") else text + "\n"

    return f"exit: {code}\n--- stdout\n{section(out)}--- stderr\n{section(err)}"


def test_there_are_enough_bad_inputs():
    rules = [p for p in INPUTS if p.suffix == ".rules"]
    scenarios = [p for p in INPUTS if p.suffix == ".scenario"]
    assert len(INPUTS) >= 24 and len(rules) >= 12 and len(scenarios) >= 8, (len(rules), len(scenarios))


def test_support_ruleset_is_valid(capsys, monkeypatch):
    """The scenario inputs run against tests/bad/support/skirmish.rules: only their own mistake may show."""
    monkeypatch.chdir(ROOT)
    assert main(["check", "--quiet", "tests/bad/support/skirmish.rules"]) == 0, capsys.readouterr().err


def test_every_golden_has_its_input():
    stems = {p.stem for p in INPUTS}
    orphans = [g.name for g in BAD.glob("*.golden") if g.stem not in stems]
    assert not orphans, f"goldens without an input: {orphans}"


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_diagnostic(path: Path, capsys, monkeypatch, diagnostic_golden):
    code, out, err = run_cli(path, capsys, monkeypatch)
    text = render_golden(code, out, err)

    # Never a traceback, never a bug report: every bad input gets a diagnostic and exit 1,
    # except warn_* inputs, whose warnings leave the exit code at 0. Every diagnostic, a warning
    # as much as an error, goes to standard error; standard output holds the summary and the trace.
    assert "Traceback" not in text, text
    assert "internal error" not in text, text
    if path.stem.startswith("warn_"):
        assert code == 0 and ": warning: " in err and ": error: " not in err, text
    else:
        assert code == 1, text
    assert not [line for line in out.splitlines() if HEAD.match(line)], f"a diagnostic on standard output:\n{out}"
    if err:
        assert HEAD.match(err.splitlines()[0]), f"the first line of stderr is not a diagnostic head:\n{err}"

    assert text == diagnostic_golden  # tests/bad/NAME.golden (conftest.DiagnosticGolden)


# ───────────────────────────── the shaping helpers ─────────────────────────────


def test_did_you_mean():
    from interpreter.syntax.diagnostics import did_you_mean

    assert did_you_mean("friggate", ["frigate", "merchant"]) == "did you mean 'frigate'?"
    assert did_you_mean("cornwall", ["CORNWALL", "AUGUSTA"]) == "did you mean 'CORNWALL'?"  # case does not count
    assert did_you_mean("d8", ["d6"]) == "did you mean 'd6'?"  # one edit away, though difflib finds it far
    assert did_you_mean("x", ["y"]) is None  # one letter is too little to guess from
    assert did_you_mean("zzzz", ["frigate"]) is None
    assert did_you_mean(3, ["hits"]) is None  # a runtime value, not a name: no crash


def test_render_keeps_tabs_and_whole_file_errors():
    from interpreter.syntax.diagnostics import Diagnostic, Sources, Span, render

    sources = Sources()
    sources.add("t.rules", "\tstat gun [2.2]\n")
    tabbed = render(Diagnostic("error", "m", Span(file="t.rules", line=1, col=7, end_line=1, end_col=10), "h"), sources)
    assert tabbed.splitlines()[2].endswith("| \t     ^^^ h")
    whole = render(Diagnostic("error", "cannot read t.rules", Span(file="t.rules", line=0, col=0, end_line=0, end_col=0)), sources)
    assert whole == "t.rules: error: cannot read t.rules"
