"""The front end in one call: read → parse → build IR → check. Used by every command."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .check.resolve import check_ruleset
from .check.symbols import Symbols
from .ir import nodes as n
from .ir.build import build
from .syntax.diagnostics import Diagnostic, Sources, Span, UmpireError
from .syntax.parse import parse


@dataclass
class Loaded:
    ruleset: n.Ruleset
    symbols: Symbols
    diagnostics: list[Diagnostic]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


def read(path: str, sources: Sources) -> str:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise UmpireError([Diagnostic("error", f"cannot read {path}: {reason}", Span(file=path, line=0, col=0, end_line=0, end_col=0))]) from None
    sources.add(path, text)
    return text


def load_rules(path: str, sources: Sources) -> Loaded:
    """Parse and check a rules file; syntax errors raise, check diagnostics are returned."""
    text = read(path, sources)
    ruleset = build(parse(text, path, "rules_file"), path)
    symbols, diags = check_ruleset(ruleset)
    return Loaded(ruleset, symbols, diags)


def load_scenario(path: str, sources: Sources) -> n.Scenario:
    text = read(path, sources)
    return build(parse(text, path, "scenario_file"), path)


def rules_path_for(scenario: n.Scenario) -> str:
    """A scenario names its ruleset relative to its own folder."""
    return os.path.normpath(os.path.join(os.path.dirname(scenario.file), scenario.uses))
