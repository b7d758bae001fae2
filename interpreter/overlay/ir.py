"""The IR of overlay files (errata, house rules) and the tree → IR builder for them.

An overlay file amends a base ruleset without editing it. Its IR is a list of labelled,
cited amendments, each a list of changes; every change names its target (a table row, a
modifier, a stat, a clause of a procedure, a step…) with the span of that name, so that
a target that does not exist is reported where it is written. The changes are applied by
``interpreter/overlay/apply.py``; nothing here looks at a ruleset.

The replacement bodies (rows, modifiers, statements, steps, declarations) are built by
the rules-file builder: an overlay reuses the language's own constructs.
"""

from __future__ import annotations

import typing
from typing import Annotated, Literal

from lark import Token, v_args
from pydantic import Field

from ..ir import nodes as n
from ..ir.build import Builder, citation_of, first_token, plain_methods, unquoted
from ..ir.trust import trusted
from ..syntax.diagnostics import UmpireError


class ClauseSelector(n.Node):
    """``clause if [7.2]``: the statement of a block whose own citation is ``cite``, of kind ``keyword`` if given."""

    keyword: str | None = None
    cite: n.Citation


class Container(n.Node):
    """A block of statements an amendment edits: a procedure, a table row, a table's declared result, a step,
    a hook, or a table's rows."""

    what: Literal["procedure", "row", "result", "step", "hook", "table"]
    name: str  # the procedure, table, step or hook event
    result: str | None = None  # a declared result's name (its table is `name`)
    result_span: n.Span | None = None
    name_span: n.Span
    phase: str | None = None  # a step's phase
    phase_span: n.Span | None = None
    low: int | None = None  # a row's range
    high: int | None = None
    range_span: n.Span | None = None

    @property
    def kind(self) -> str:
        """The kind of block, by which the stages that treat each in its own way `dispatch` on it."""
        return self.what

    def describe(self) -> str:
        if self.what == "row":
            return f"row {n.show_range(self.low, self.high)} of table {self.name}"
        if self.what == "result":
            return f"result {self.result} of table {self.name}"
        if self.what == "step":
            return f"step {self.name} of phase {self.phase}"
        if self.what == "hook":
            return f"the '{self.name}' hook"
        return f"{self.what} {self.name}"


class Change(n.Cited):
    """One change of an amendment; ``cite`` is the change's own citation, if it has one."""


class ReplaceRow(Change):
    kind: Literal["replace_row"] = "replace_row"
    table: str
    table_span: n.Span
    low: int | None  # None: the row is open below ('..2')
    high: int | None  # None: open above ('16..')
    range_span: n.Span
    row: n.Row


class RemoveRow(Change):
    kind: Literal["remove_row"] = "remove_row"
    table: str
    table_span: n.Span
    low: int | None
    high: int | None
    range_span: n.Span


class AddRow(Change):
    kind: Literal["add_row"] = "add_row"
    table: str
    table_span: n.Span
    row: n.Row


class ReplaceModifier(Change):
    kind: Literal["replace_modifier"] = "replace_modifier"
    table: str
    table_span: n.Span
    name: str
    name_span: n.Span
    modifier: n.Modifier | n.ColumnShift
    of: Literal["modifier", "shift"] = "modifier"  # a table's modifier, or a column table's shift (8.3)


class RemoveModifier(Change):
    kind: Literal["remove_modifier"] = "remove_modifier"
    table: str
    table_span: n.Span
    name: str
    name_span: n.Span
    of: Literal["modifier", "shift"] = "modifier"  # a table's modifier, or a column table's shift (8.3)


class AddModifier(Change):
    kind: Literal["add_modifier"] = "add_modifier"
    table: str
    table_span: n.Span
    modifier: n.Modifier | n.ColumnShift
    of: Literal["modifier", "shift"] = "modifier"  # a table's modifier, or a column table's shift (8.3)


class SetStat(Change):
    """``set stat gun of VICTORY to 7``: a printed value of a counter or of a type."""

    kind: Literal["set_stat"] = "set_stat"
    stat: str
    stat_span: n.Span
    holder: str
    holder_span: n.Span
    value: int | str  # a number, "X", "?"
    value_span: n.Span


class SetRange(Change):
    kind: Literal["set_range"] = "set_range"
    track: str
    track_span: n.Span
    low: int
    high: int


class SetStart(Change):
    kind: Literal["set_start"] = "set_start"
    track: str
    track_span: n.Span
    start: tuple[n.TrackStart, ...]


class SetTurns(Change):
    kind: Literal["set_turns"] = "set_turns"
    turns: int


class SetBeyond(Change):
    kind: Literal["set_beyond"] = "set_beyond"
    table: str
    table_span: n.Span
    policy: str
    policy_span: n.Span


class ReplaceDecl(Change):
    """``replace function|procedure|table …``: a whole declaration, found by its name."""

    kind: Literal["replace_decl"] = "replace_decl"
    decl: n.Decl


class AddDecl(Change):
    kind: Literal["add_decl"] = "add_decl"
    decl: n.Decl


class ReplaceClause(Change):
    kind: Literal["replace_clause"] = "replace_clause"
    selector: ClauseSelector
    container: Container
    body: tuple[n.Stmt, ...]


class DisableClause(Change):
    kind: Literal["disable_clause"] = "disable_clause"
    selector: ClauseSelector
    container: Container


class AddClause(Change):
    """New statements at the start or the end of a block, or before or after one of its clauses."""

    kind: Literal["add_clause"] = "add_clause"
    where: Literal["start", "end", "before", "after"]
    selector: ClauseSelector | None = None
    container: Container
    body: tuple[n.Stmt, ...]


class ReplaceStep(Change):
    kind: Literal["replace_step"] = "replace_step"
    phase: str
    phase_span: n.Span
    step: str
    step_span: n.Span
    new: n.StepDecl


class DisableStep(Change):
    kind: Literal["disable_step"] = "disable_step"
    phase: str
    phase_span: n.Span
    step: str
    step_span: n.Span


class AddStep(Change):
    kind: Literal["add_step"] = "add_step"
    where: Literal["end", "before", "after"]
    phase: str
    phase_span: n.Span
    anchor: str | None = None
    anchor_span: n.Span | None = None
    new: n.StepDecl


class MayToMust(Change):
    """``change may to must in …``: every optional decision there becomes compulsory."""

    kind: Literal["may_to_must"] = "may_to_must"
    container: Container


class RestrictDecision(Change):
    """``restrict decision NAME to VAR where TEST "reason"``: the options of every ``choose NAME`` are
    narrowed to those for which TEST holds with VAR bound to the option."""

    kind: Literal["restrict_decision"] = "restrict_decision"
    decision: str
    decision_span: n.Span
    var: str
    where: n.Expr
    reason: str | None = None


class MissingNote(Change):
    """An amendment of data the rulebook does not print: recorded and listed, never applied."""

    kind: Literal["missing_note"] = "missing_note"
    name: str
    name_span: n.Span
    text: str


AnyChange = Annotated[
    ReplaceRow | RemoveRow | AddRow | ReplaceModifier | RemoveModifier | AddModifier | SetStat | SetRange | SetStart
    | SetTurns | SetBeyond | ReplaceDecl | AddDecl | ReplaceClause | DisableClause | AddClause | ReplaceStep
    | DisableStep | AddStep | MayToMust | RestrictDecision | MissingNote,
    Field(discriminator="kind"),
]
# The kinds of change and of container: each stage that treats them one by one has a method for each (test_structure).
CHANGE_KINDS = n.kinds_of(AnyChange)
CONTAINER_KINDS: tuple[str, ...] = typing.get_args(Container.model_fields["what"].annotation)


class Amendment(n.Cited):
    """``amend ERR-2 "label" [cite] { changes }``: one labelled, cited amendment."""

    id: str
    id_span: n.Span
    label: str | None = None
    changes: tuple[AnyChange, ...] = ()


class Overlay(n.Cited):
    """A whole overlay file: its name, the ruleset it amends, the overlays it follows, its amendments."""

    file: str
    name: str
    name_span: n.Span
    title: str | None = None
    amends: str  # the base ruleset, relative to the overlay's folder
    amends_span: n.Span
    after: tuple[tuple[str, n.Span], ...] = ()
    amendments: tuple[Amendment, ...] = ()


@plain_methods
@v_args(meta=True)
class OverlayBuilder(Builder):
    """The rules-file builder plus one method per overlay grammar rule."""

    def overlay_file(self, meta, c):
        strings = [x for x in c if isinstance(x, Token) and x.type == "STRING"]
        title, amends = (strings[0], strings[1]) if len(strings) > 1 else (None, strings[0])
        after = next((x for x in c if isinstance(x, list)), [])
        return Overlay(
            span=self.sp(meta), file=self.file, name=str(c[0]), name_span=self.ts(c[0]),
            title=unquoted(title) if title else None, amends=unquoted(amends), amends_span=self.ts(amends),
            after=tuple(after), amendments=tuple(x for x in c if isinstance(x, Amendment)), cite=citation_of(c),
        )

    def overlay_after(self, meta, c):
        return [(str(t), self.ts(t)) for t in c]

    def amendment(self, meta, c):
        ident = c[0]
        label = first_token(c, "STRING")
        return Amendment(
            span=self.sp(meta), id=str(ident), id_span=self.ts(ident), label=unquoted(label) if label else None,
            changes=tuple(x for x in c if isinstance(x, Change)), cite=citation_of(c),
        )

    def amend_id(self, meta, c):
        return c[0]

    # ── tables ──
    def replace_row(self, meta, c):
        (low, high), rng = c[0]
        return ReplaceRow(span=self.sp(meta), table=str(c[1]), table_span=self.ts(c[1]), low=low, high=high,
                          range_span=rng, row=c[2])

    def remove_row(self, meta, c):
        (low, high), rng = c[0]
        return RemoveRow(span=self.sp(meta), table=str(c[1]), table_span=self.ts(c[1]), low=low, high=high,
                         range_span=rng, cite=citation_of(c))

    def add_row(self, meta, c):
        return AddRow(span=self.sp(meta), table=str(c[0]), table_span=self.ts(c[0]), row=c[1])

    def replace_modifier(self, meta, c):
        return ReplaceModifier(span=self.sp(meta), name=str(c[0]), name_span=self.ts(c[0]), table=str(c[1]),
                               table_span=self.ts(c[1]), modifier=c[2])

    def remove_modifier(self, meta, c):
        return RemoveModifier(span=self.sp(meta), name=str(c[0]), name_span=self.ts(c[0]), table=str(c[1]),
                              table_span=self.ts(c[1]), cite=citation_of(c))

    def add_modifier(self, meta, c):
        return AddModifier(span=self.sp(meta), table=str(c[0]), table_span=self.ts(c[0]), modifier=c[1])

    def replace_shift(self, meta, c):
        return self.replace_modifier(meta, c).model_copy(update={"of": "shift"})

    def remove_shift(self, meta, c):
        return self.remove_modifier(meta, c).model_copy(update={"of": "shift"})

    def add_shift(self, meta, c):
        return self.add_modifier(meta, c).model_copy(update={"of": "shift"})

    def set_beyond(self, meta, c):
        return SetBeyond(span=self.sp(meta), table=str(c[0]), table_span=self.ts(c[0]), policy=str(c[1]),
                         policy_span=self.ts(c[1]), cite=citation_of(c))

    # A row selector keeps its span: an unknown row is reported there.
    def row_range(self, meta, c):
        return (c[0], c[1] if len(c) > 1 else c[0]), self.sp(meta)

    def row_range_above(self, meta, c):  # '16..': the row open above (8.1)
        return (c[0], None), self.sp(meta)

    def row_range_below(self, meta, c):  # '..2': the row open below
        return (None, c[0]), self.sp(meta)

    # ── values ──
    def set_stat(self, meta, c):
        raw = c[2]
        if isinstance(raw, Token) and raw.type in ("X", "MISSING"):
            value: int | str = "X" if raw.type == "X" else "?"
        else:
            value = raw
        value_span = self.ts(raw) if isinstance(raw, Token) else self.sp(meta)
        return SetStat(span=self.sp(meta), stat=str(c[0]), stat_span=self.ts(c[0]), holder=str(c[1]),
                       holder_span=self.ts(c[1]), value=value, value_span=value_span, cite=citation_of(c))

    def set_range(self, meta, c):
        return SetRange(span=self.sp(meta), track=str(c[0]), track_span=self.ts(c[0]), low=int(c[1]), high=int(c[2]),
                        cite=citation_of(c))

    def set_start(self, meta, c):
        start = next(x[1] for x in c if isinstance(x, tuple) and x and x[0] == "start")
        return SetStart(span=self.sp(meta), track=str(c[0]), track_span=self.ts(c[0]), start=start, cite=citation_of(c))

    def start_values(self, meta, c):
        return self.track_start(meta, c)

    def start_value(self, meta, c):
        return self.track_start_one(meta, c)

    def set_turns(self, meta, c):
        return SetTurns(span=self.sp(meta), turns=self.turn_count(c[0]), cite=citation_of(c))

    # ── declarations ──
    def replace_decl(self, meta, c):
        return ReplaceDecl(span=self.sp(meta), decl=c[0])

    def add_decl(self, meta, c):
        return AddDecl(span=self.sp(meta), decl=c[0])

    # ── clauses ──
    def clause_sel(self, meta, c):
        cite = next(x for x in c if isinstance(x, n.Citation))
        keyword = next((str(x) for x in c if isinstance(x, Token) and x.type == "NAME"), None)
        return ClauseSelector(span=self.sp(meta), keyword=keyword, cite=cite)

    def in_procedure(self, meta, c):
        return Container(span=self.sp(meta), what="procedure", name=str(c[0]), name_span=self.ts(c[0]))

    def in_hook(self, meta, c):
        return Container(span=self.sp(meta), what="hook", name=str(c[0]), name_span=self.ts(c[0]))

    def in_table(self, meta, c):
        return Container(span=self.sp(meta), what="table", name=str(c[0]), name_span=self.ts(c[0]))

    def in_row(self, meta, c):
        (low, high), rng = c[0]
        return Container(span=self.sp(meta), what="row", name=str(c[1]), name_span=self.ts(c[1]), low=low, high=high,
                         range_span=rng)

    def in_result(self, meta, c):
        return Container(span=self.sp(meta), what="result", name=str(c[1]), name_span=self.ts(c[1]), result=str(c[0]),
                         result_span=self.ts(c[0]))

    def in_step(self, meta, c):
        return Container(span=self.sp(meta), what="step", name=str(c[0]), name_span=self.ts(c[0]), phase=str(c[1]),
                         phase_span=self.ts(c[1]))

    def replace_clause(self, meta, c):
        return ReplaceClause(span=self.sp(meta), selector=c[0], container=c[1], body=c[2])

    def disable_clause(self, meta, c):
        return DisableClause(span=self.sp(meta), selector=c[0], container=c[1], cite=citation_of(c))

    def add_clause_end(self, meta, c):
        return AddClause(span=self.sp(meta), where="end", container=c[0], body=c[1])

    def add_clause_start(self, meta, c):
        return AddClause(span=self.sp(meta), where="start", container=c[0], body=c[1])

    def add_clause_before(self, meta, c):
        return AddClause(span=self.sp(meta), where="before", selector=c[0], container=c[1], body=c[2])

    def add_clause_after(self, meta, c):
        return AddClause(span=self.sp(meta), where="after", selector=c[0], container=c[1], body=c[2])

    # ── steps ──
    def replace_step(self, meta, c):
        return ReplaceStep(span=self.sp(meta), step=str(c[0]), step_span=self.ts(c[0]), phase=str(c[1]),
                           phase_span=self.ts(c[1]), new=c[2])

    def disable_step(self, meta, c):
        return DisableStep(span=self.sp(meta), step=str(c[0]), step_span=self.ts(c[0]), phase=str(c[1]),
                           phase_span=self.ts(c[1]), cite=citation_of(c))

    def add_step_end(self, meta, c):
        return AddStep(span=self.sp(meta), where="end", phase=str(c[0]), phase_span=self.ts(c[0]), new=c[1])

    def add_step_before(self, meta, c):
        return self._add_step_at("before", meta, c)

    def add_step_after(self, meta, c):
        return self._add_step_at("after", meta, c)

    def _add_step_at(self, where, meta, c):
        return AddStep(span=self.sp(meta), where=where, anchor=str(c[0]), anchor_span=self.ts(c[0]), phase=str(c[1]),
                       phase_span=self.ts(c[1]), new=c[2])

    # ── decisions and missing data ──
    def may_to_must(self, meta, c):
        container = next(x for x in c if isinstance(x, Container))
        return MayToMust(span=self.sp(meta), container=container, cite=citation_of(c))

    def restrict_decision(self, meta, c):
        reason = first_token(c, "STRING")
        return RestrictDecision(span=self.sp(meta), decision=str(c[0]), decision_span=self.ts(c[0]), var=str(c[1]),
                                where=c[2], reason=unquoted(reason) if reason else None, cite=citation_of(c))

    def missing_note(self, meta, c):
        return MissingNote(span=self.sp(meta), name=str(c[0]), name_span=self.ts(c[0]), text=unquoted(c[1]),
                           cite=citation_of(c))


# Overlay nodes are IR nodes: built lazily, at their first construction (ir/nodes.py).


def build_overlay(tree, file: str) -> Overlay:
    """Transform an overlay file's parse tree to its IR; raise UmpireError on any construct error."""
    builder = OverlayBuilder(file)
    with trusted():  # as the rules' builder (ir/trust.py)
        result = builder.transform(tree)
    if builder.errors:
        raise UmpireError(builder.errors)
    return result
