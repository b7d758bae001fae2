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
    """Parse and check a rules file and the files it includes; syntax errors raise."""
    decls = _read_rules(path, sources, chain=())
    ruleset = n.Ruleset(file=path, decls=tuple(decls))
    symbols, diags = check_ruleset(ruleset)
    return Loaded(ruleset, symbols, diags)


def _read_rules(path: str, sources: Sources, chain: tuple[str, ...]) -> list:
    """The declarations of one file, each include replaced by the declarations it names."""
    text = read(path, sources)
    out: list = []
    for decl in build(parse(text, path, "rules_file"), path).decls:
        if not isinstance(decl, n.IncludeDecl):
            out.append(decl)
            continue
        target = os.path.normpath(os.path.join(os.path.dirname(path), decl.path))
        if target in chain or target == os.path.normpath(path):
            cycle = " -> ".join((*chain, path, target))
            raise UmpireError([Diagnostic("error", f"include cycle: {cycle}", decl.span)])
        if not os.path.isfile(target):
            raise UmpireError([Diagnostic("error", f"cannot include '{decl.path}': there is no file {target}", decl.span)])
        out.extend(_read_rules(target, sources, (*chain, os.path.normpath(path))))
    return out


def load_scenario(path: str, sources: Sources) -> n.Scenario:
    text = read(path, sources)
    return build(parse(text, path, "scenario_file"), path)


def rules_path_for(scenario: n.Scenario) -> str:
    """A scenario names its ruleset relative to its own folder."""
    return os.path.normpath(os.path.join(os.path.dirname(scenario.file), scenario.uses))
