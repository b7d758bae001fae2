"""A change of an overlay in words: the line ``umpire check`` lists for it, and the start of its
messages when it waits or is refused. One method per kind of change, found by ``dispatch``."""

from __future__ import annotations

from ..ir.nodes import show_range
from ..ir.visit import dispatch
from . import ir as ov


def describe(c) -> str:
    return dispatch(_WORDS, "describe_", c)


def _selector(sel: ov.ClauseSelector | None) -> str:
    if sel is None:
        return ""
    return (f"{sel.keyword} " if sel.keyword else "") + f"[{sel.cite}]"


def _declared(decl) -> str:
    """A declaration by its kind and its name (a hook by its event)."""
    return f"{decl.kind.replace('_', ' ')} {getattr(decl, 'name', getattr(decl, 'event', ''))}"


class _Words:
    """The stage: ``describe_KIND`` for every kind of change (tests/syntax/test_structure.py checks)."""

    # ── tables ──
    def describe_replace_row(self, c: ov.ReplaceRow) -> str:
        return f"replace row {show_range(c.low, c.high)} of table {c.table}"

    def describe_remove_row(self, c: ov.RemoveRow) -> str:
        return f"remove row {show_range(c.low, c.high)} of table {c.table}"

    def describe_add_row(self, c: ov.AddRow) -> str:
        return f"add row {show_range(c.row.low, c.row.high)} to table {c.table}"

    def describe_replace_modifier(self, c: ov.ReplaceModifier) -> str:
        return f"replace {c.of} {c.name} of table {c.table}"

    def describe_remove_modifier(self, c: ov.RemoveModifier) -> str:
        return f"remove {c.of} {c.name} of table {c.table}"

    def describe_add_modifier(self, c: ov.AddModifier) -> str:
        return f"add {c.of} {c.modifier.name} to table {c.table}"

    def describe_set_beyond(self, c: ov.SetBeyond) -> str:
        return f"set beyond of table {c.table} to {c.policy}"

    # ── values ──
    def describe_set_stat(self, c: ov.SetStat) -> str:
        return f"set stat {c.stat} of {c.holder} to {c.value}"

    def describe_set_range(self, c: ov.SetRange) -> str:
        return f"set range of track {c.track} to {c.low}..{c.high}"

    def describe_set_start(self, c: ov.SetStart) -> str:
        return f"set start of track {c.track}"

    def describe_set_turns(self, c: ov.SetTurns) -> str:
        return f"set turns to {c.turns}"

    # ── whole declarations ──
    def describe_replace_decl(self, c: ov.ReplaceDecl) -> str:
        return f"replace {_declared(c.decl)}"

    def describe_add_decl(self, c: ov.AddDecl) -> str:
        return f"add {_declared(c.decl)}"

    # ── clauses ──
    def describe_replace_clause(self, c: ov.ReplaceClause) -> str:
        return f"replace clause {_selector(c.selector)} of {c.container.describe()}"

    def describe_disable_clause(self, c: ov.DisableClause) -> str:
        return f"disable clause {_selector(c.selector)} of {c.container.describe()}"

    def describe_add_clause(self, c: ov.AddClause) -> str:
        where = {"end": "to", "start": "to start of"}.get(c.where) or f"{c.where} {_selector(c.selector)} of"
        return f"add clause {where} {c.container.describe()}"

    # ── steps ──
    def describe_replace_step(self, c: ov.ReplaceStep) -> str:
        return f"replace step {c.step} of phase {c.phase}"

    def describe_disable_step(self, c: ov.DisableStep) -> str:
        return f"disable step {c.step} of phase {c.phase}"

    def describe_add_step(self, c: ov.AddStep) -> str:
        where = "to" if c.where == "end" else f"{c.where} {c.anchor} of"
        return f"add step {c.new.name} {where} phase {c.phase}"

    # ── decisions and missing data ──
    def describe_may_to_must(self, c: ov.MayToMust) -> str:
        return f"change may to must in {c.container.describe()}"

    def describe_restrict_decision(self, c: ov.RestrictDecision) -> str:
        return f"restrict decision {c.decision}" + (f": {c.reason}" if c.reason else "")

    def describe_missing_note(self, c: ov.MissingNote) -> str:
        return f"note on missing '{c.name}'"


_WORDS = _Words()
