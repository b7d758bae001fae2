"""Overlays applied: a base ruleset's IR amended by errata and house rules into a new IR.

An overlay never edits the base. The base's declarations are copied into a list, each
change of each amendment replaces the declarations it touches by amended copies
(``model_copy(update=…)`` on the frozen IR), and a new ``Ruleset`` comes out; the usual
checker then runs on it. Amended nodes take the amendment's citation where they have none
of their own and keep the spans of the overlay file, so a diagnostic points at the
overlay and a trace line produced by an amended rule cites the errata or house rule.

Overlays are applied in the order given, except that ``after OTHER`` in an overlay's
header puts it after OTHER. Two overlays that amend the same thing (or one thing and a
part of it) conflict unless one of them states that it comes after the other: the result
would otherwise depend on the order they happened to be given in.

A target that does not exist is an error at the name that names it, with a "did you
mean"; an amendment that changes nothing is a warning. An amendment of a table the
rulebook does not print (declared ``missing``) waits, listed, until a data file supplies
the table; an amendment of other missing data (a map) is a note, listed and never applied.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..ir import nodes as n
from ..syntax.diagnostics import Diagnostic, Span, did_you_mean
from . import ir as ov

STATEMENT_KINDS = n.STATEMENT_KINDS
# What an overlay may add as a whole declaration (the game, its map and sequence are amended, not added).
ADDABLE = (n.StatDecl, n.FlagDecl, n.UnitStateDecl, n.GameStateDecl, n.PlaceStateDecl, n.ClassDecl, n.TypeDecl,
           n.CounterDecl, n.BoxDecl, n.TrackDecl, n.MissingDecl, n.TableDecl, n.FunctionDecl, n.ProcedureDecl,
           n.HookDecl, n.InvariantDecl)


@dataclass
class AppliedAmendment:
    """What became of one amendment: one line per change ('waits for …' when it could not apply yet)."""

    id: str
    label: str | None
    cite: str | None
    changes: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)  # the missing tables it waits for
    notes: list[tuple[str, str]] = field(default_factory=list)  # (missing item, note)


@dataclass
class AppliedOverlay:
    """One overlay as applied to a ruleset, in application order."""

    name: str
    file: str
    title: str | None
    cite: str | None
    amendments: list[AppliedAmendment] = field(default_factory=list)


class _Refused(Exception):
    """A change that cannot be applied; carries its diagnostic."""

    def __init__(self, diag: Diagnostic):
        super().__init__(diag.message)
        self.diag = diag


class _Waits(Exception):
    """A change to a missing table that no data file supplies: listed, not applied."""

    def __init__(self, table: str):
        super().__init__(table)
        self.table = table


@dataclass
class _Touch:
    key: tuple
    overlay: int  # index in application order
    span: Span
    what: str


def apply_overlays(base: n.Ruleset, overlays: list[ov.Overlay]) -> tuple[n.Ruleset, list[Diagnostic], list[AppliedOverlay]]:
    """The base ruleset amended by the overlays: a new Ruleset, diagnostics, and what was applied.

    The base is never changed. Errors (an unknown target, a conflict, an overlay for another
    ruleset) leave the change out and are reported; the caller checks the new ruleset as usual.
    """
    amender = _Amender(base)
    order = amender.order(overlays)
    for index, overlay in enumerate(order):
        amender.apply(index, overlay)
    amender.conflicts(order)
    return n.Ruleset(file=base.file, decls=tuple(amender.decls)), amender.diags, amender.applied


def header_line(applied: list[AppliedOverlay]) -> str:
    """The trace's header line naming the overlays a run used, and their amendments."""
    parts = []
    for o in applied:
        ids = []
        for a in o.amendments:
            extra = ["waits for the missing " + ", ".join(a.waiting)] if a.waiting else []
            extra += ["note on missing data"] if a.notes else []
            ids.append(a.id + (f" ({'; '.join(extra)})" if extra else ""))
        parts.append(f"{o.name} ({os.path.normpath(o.file)}): " + ", ".join(ids))
    return "overlays: " + "; ".join(parts)


def summary_lines(applied: list[AppliedOverlay]) -> list[str]:
    """What ``umpire check`` lists: every overlay, every amendment and what each change did."""
    lines = []
    for o in applied:
        title = f' "{o.title}"' if o.title else ""
        lines.append(f"overlay {o.name}{title} ({os.path.normpath(o.file)}):")
        for a in o.amendments:
            head = f"  {a.id}" + (f" [{a.cite}]" if a.cite else "") + (f" {a.label}" if a.label else "")
            lines.append(head)
            lines.extend(f"    {c}" for c in a.changes)
    return lines


def missing_notes(applied: list[AppliedOverlay]) -> dict[str, list[str]]:
    """Missing item → the overlay notes about it ('ERR-1 [6.0 errata]: …')."""
    out: dict[str, list[str]] = {}
    for o in applied:
        for a in o.amendments:
            for name, text in a.notes:
                out.setdefault(name, []).append(f"{a.id}" + (f" [{a.cite}]" if a.cite else "") + f": {text}")
    return out


# ───────────────────────────── comparing and stamping ─────────────────────────────


def _meaning(x):
    """A node without its spans and citations: what it does, to tell a change from a no-op."""
    if isinstance(x, n.BaseModel):
        return (type(x).__name__,) + tuple((k, _meaning(v)) for k, v in x if not (k == "span" or k.endswith("_span") or k.endswith("cite")))
    if isinstance(x, tuple):
        return tuple(_meaning(v) for v in x)
    return x


def _same(a, b) -> bool:
    return _meaning(a) == _meaning(b)


def _pin(stmts: tuple, cite: str | None) -> tuple:
    """Statements that inherit a citation get it written on them, so a new container cite does not reach them."""
    return tuple(s if s.cite or cite is None else s.model_copy(update={"cite": cite}) for s in stmts)


def _text(cite: n.Citation | None) -> str | None:
    """A citation as a conflict key reads it: its text (where it is written does not matter)."""
    return cite.text if cite else None


def _walk(stmts: tuple, prefix: tuple = (), ancestors: tuple = ()) -> Iterator[tuple[tuple, tuple, object]]:
    """Every statement of a block and of the blocks inside it: (path, ancestors' (kind, cite), statement)."""
    for i, s in enumerate(stmts):
        yield prefix + (i,), ancestors, s
        for name in ("body", "orelse"):
            inner = getattr(s, name, None)
            if isinstance(inner, tuple) and inner:
                yield from _walk(inner, prefix + (i, name), ancestors + ((s.kind, _text(s.cite)),))


def _splice(stmts: tuple, path: tuple, fn: Callable[[object], tuple]) -> tuple:
    """The block with the statement at ``path`` replaced by ``fn(statement)`` (zero or more statements)."""
    i = path[0]
    if len(path) == 1:
        return stmts[:i] + tuple(fn(stmts[i])) + stmts[i + 1:]
    s = stmts[i]
    inner = _splice(getattr(s, path[1]), path[2:], fn)
    return stmts[:i] + (s.model_copy(update={path[1]: inner}),) + stmts[i + 1:]


_MAY = re.compile(r"\b(may|May|MAY)\b")


def _must(text: str) -> str:
    return _MAY.sub(lambda m: {"may": "must", "May": "Must", "MAY": "MUST"}[m.group(1)], text)


def _must_string(s: n.StrLit | None) -> n.StrLit | None:
    if s is None:
        return None
    parts = tuple(p if p.text is None else p.model_copy(update={"text": _must(p.text)}) for p in s.parts)
    return s.model_copy(update={"value": _must(s.value), "parts": parts})


def _range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}..{high}"


def _stmt_text(s) -> str:
    return f"{s.kind} at {s.span.file}:{s.span.line}:{s.span.col}" + (f" [{s.cite}]" if s.cite else "")


# ───────────────────────────── the amender ─────────────────────────────


class _Block:
    """A block of statements an amendment edits, and how to write it back."""

    def __init__(self, stmts: tuple, write: Callable[..., None], key: tuple, what: str, cite: str | None):
        self.stmts, self.write, self.key, self.what, self.cite = stmts, write, key, what, cite


class _Amender:
    def __init__(self, base: n.Ruleset):
        self.base = base
        self.decls: list = list(base.decls)
        self.diags: list[Diagnostic] = []
        self.applied: list[AppliedOverlay] = []
        self.touched: list[_Touch] = []
        self.before: dict[int, set[int]] = {}  # overlay index -> indices of the overlays it is stated to follow
        self.files = {os.path.realpath(d.span.file) for d in base.decls} | {os.path.realpath(base.file)}

    # ── reporting ──
    def error(self, message: str, span: Span, hint: str | None = None, notes: list[str] | None = None) -> _Refused:
        return _Refused(Diagnostic("error", message, span, hint, list(notes or [])))

    def unknown(self, what: str, name: str, span: Span, candidates, extra: str = "") -> _Refused:
        return self.error(f"unknown {what} '{name}'{extra}", span, did_you_mean(name, candidates))

    # ── order ──
    def order(self, overlays: list[ov.Overlay]) -> list[ov.Overlay]:
        """The application order: as given, each overlay moved after those it says it follows."""
        by_name: dict[str, ov.Overlay] = {}
        for o in overlays:
            if o.name in by_name:
                self.diags.append(Diagnostic("error", f"two overlays are named '{o.name}' ({by_name[o.name].file} and {o.file})",
                                             o.name_span, "give each overlay its own name"))
                continue
            by_name[o.name] = o
        kept = list(by_name.values())
        deps: dict[str, set[str]] = {}
        for o in kept:
            deps[o.name] = set()
            for name, span in o.after:
                if name in by_name:
                    deps[o.name].add(name)
                elif did_you_mean(name, by_name):
                    self.diags.append(Diagnostic("warning", f"no overlay named '{name}' is applied here, so 'after {name}' orders nothing",
                                                 span, did_you_mean(name, by_name)))
        ordered: list[ov.Overlay] = []
        placed: set[str] = set()
        while len(ordered) < len(kept):
            ready = [o for o in kept if o.name not in placed and deps[o.name] <= placed]
            if not ready:
                stuck = [o for o in kept if o.name not in placed]
                names = ", ".join(f"'{o.name}'" for o in stuck)
                self.diags.append(Diagnostic("error", f"the overlays {names} each come 'after' another of them: no order satisfies them",
                                             stuck[0].name_span))
                ready = stuck[:1]
            ordered.append(ready[0])
            placed.add(ready[0].name)
        index = {o.name: i for i, o in enumerate(ordered)}
        for o in ordered:
            direct = {index[d] for d in deps[o.name] if d in index}
            self.before[index[o.name]] = direct
        changed = True
        while changed:  # the transitive closure: after B after A means after A
            changed = False
            for earlier in self.before.values():
                more = set().union(*(self.before.get(j, set()) for j in earlier)) - earlier if earlier else set()
                if more:
                    earlier |= more
                    changed = True
        return ordered

    def ordered(self, a: int, b: int) -> bool:
        return a in self.before.get(b, set()) or b in self.before.get(a, set())

    # ── applying ──
    def apply(self, index: int, overlay: ov.Overlay) -> None:
        self.index, self.overlay = index, overlay
        record = AppliedOverlay(overlay.name, overlay.file, overlay.title, overlay.cite)
        self.applied.append(record)
        amends = os.path.normpath(os.path.join(os.path.dirname(overlay.file), overlay.amends))
        if os.path.realpath(amends) not in self.files:
            self.diags.append(Diagnostic(
                "error", f"overlay '{overlay.name}' amends {amends}, which is not part of this ruleset", overlay.amends_span,
                f"it is applied to {os.path.normpath(self.base.file)} and the files that includes",
            ))
            return
        for amendment in overlay.amendments:
            done = AppliedAmendment(amendment.id, amendment.label, amendment.cite)
            record.amendments.append(done)
            if not amendment.cite:
                self.diags.append(Diagnostic("error", f"amendment {amendment.id} has no rule citation", amendment.id_span,
                                             "cite its source, for example [6.2 errata] or [6.3 house rule]"))
            if not amendment.changes:
                self.diags.append(Diagnostic("warning", f"amendment {amendment.id} changes nothing: it has no change", amendment.id_span))
            for change in amendment.changes:
                self.amendment, self.cite = amendment, change.cite or amendment.cite
                try:
                    done.changes.append(self.change(change, done))
                except _Waits as waits:
                    done.waiting.append(waits.table)
                    done.changes.append(f"{self.describe(change)}: waits for the missing table '{waits.table}' "
                                        "(not printed in the rulebook; no data file supplies it here)")
                except _Refused as refused:
                    self.diags.append(refused.diag)
                    done.changes.append(f"{self.describe(change)}: not applied (error)")

    def describe(self, c) -> str:
        """A change in words, for the listing of ``umpire check``."""
        if isinstance(c, (ov.ReplaceRow, ov.RemoveRow)):
            return f"{'replace' if isinstance(c, ov.ReplaceRow) else 'remove'} row {_range(c.low, c.high)} of table {c.table}"
        if isinstance(c, ov.AddRow):
            return f"add row {_range(c.row.low, c.row.high)} to table {c.table}"
        if isinstance(c, (ov.ReplaceModifier, ov.RemoveModifier)):
            return f"{'replace' if isinstance(c, ov.ReplaceModifier) else 'remove'} {c.of} {c.name} of table {c.table}"
        if isinstance(c, ov.AddModifier):
            return f"add {c.of} {c.modifier.name} to table {c.table}"
        if isinstance(c, ov.SetBeyond):
            return f"set beyond of table {c.table} to {c.policy}"
        if isinstance(c, ov.SetStat):
            return f"set stat {c.stat} of {c.holder} to {c.value}"
        if isinstance(c, ov.SetRange):
            return f"set range of track {c.track} to {c.low}..{c.high}"
        if isinstance(c, ov.SetStart):
            return f"set start of track {c.track}"
        if isinstance(c, ov.SetTurns):
            return f"set turns to {c.turns}"
        if isinstance(c, (ov.ReplaceDecl, ov.AddDecl)):
            verb = "replace" if isinstance(c, ov.ReplaceDecl) else "add"
            return f"{verb} {c.decl.kind.replace('_', ' ')} {getattr(c.decl, 'name', getattr(c.decl, 'event', ''))}"
        if isinstance(c, (ov.ReplaceClause, ov.DisableClause)):
            verb = "replace" if isinstance(c, ov.ReplaceClause) else "disable"
            return f"{verb} clause {_selector(c.selector)} of {c.container.describe()}"
        if isinstance(c, ov.AddClause):
            where = "to" if c.where == "end" else f"{c.where} {_selector(c.selector)} of"
            return f"add clause {where} {c.container.describe()}"
        if isinstance(c, (ov.ReplaceStep, ov.DisableStep)):
            verb = "replace" if isinstance(c, ov.ReplaceStep) else "disable"
            return f"{verb} step {c.step} of phase {c.phase}"
        if isinstance(c, ov.AddStep):
            where = "to" if c.where == "end" else f"{c.where} {c.anchor} of"
            return f"add step {c.new.name} {where} phase {c.phase}"
        if isinstance(c, ov.MayToMust):
            return f"change may to must in {c.container.describe()}"
        return f"note on missing '{c.name}'"

    def touch(self, key: tuple, span: Span, what: str) -> None:
        self.touched.append(_Touch(key, self.index, span, what))

    def noop(self, span: Span, what: str) -> None:
        self.diags.append(Diagnostic("warning", f"amendment {self.amendment.id} changes nothing: {what}", span,
                                     "remove the change, or check that it says what the errata or house rule says"))

    def amended_label(self, row: n.Row) -> str:
        """A row amended in place says so where the trace prints its result."""
        return f"{row.label or row.result} (amended by {self.amendment.id})"

    def stamp(self, node):
        """A node written in the overlay takes the amendment's citation when it has none of its own
        (and so do the rows and modifiers of a table written there, which the checker asks a citation of)."""
        if isinstance(node, n.TableDecl):
            node = node.model_copy(update={"rows": tuple(self.stamp(r) for r in node.rows),
                                           "modifiers": tuple(self.stamp(m) for m in node.modifiers)})
        return node if getattr(node, "cite", None) or self.cite is None else node.model_copy(update={"cite": self.cite})

    def change(self, c, done: AppliedAmendment) -> str:  # noqa: C901 - one case per kind of change
        what = self.describe(c)
        if isinstance(c, (ov.ReplaceRow, ov.RemoveRow, ov.AddRow, ov.ReplaceModifier, ov.RemoveModifier, ov.AddModifier, ov.SetBeyond)):
            self.table_change(c)
        elif isinstance(c, ov.SetStat):
            self.set_stat(c)
        elif isinstance(c, (ov.SetRange, ov.SetStart)):
            self.track_change(c)
        elif isinstance(c, ov.SetTurns):
            self.set_turns(c)
        elif isinstance(c, ov.ReplaceDecl):
            self.replace_decl(c)
        elif isinstance(c, ov.AddDecl):
            self.add_decl(c)
        elif isinstance(c, (ov.ReplaceClause, ov.DisableClause, ov.AddClause)):
            self.clause_change(c)
        elif isinstance(c, (ov.ReplaceStep, ov.DisableStep, ov.AddStep)):
            self.step_change(c)
        elif isinstance(c, ov.MayToMust):
            count = self.may_to_must(c)
            what += f" ({count} decision(s) made compulsory)"
        elif isinstance(c, ov.MissingNote):
            decl = self.missing(c.name, c.name_span)
            done.notes.append((c.name, c.text))
            what = f"note on missing {decl.what} '{c.name}': {c.text} (recorded; the missing data is not amended)"
        return what

    # ── finding declarations ──
    def find(self, cls, name: str) -> int | None:
        return next((i for i, d in enumerate(self.decls) if isinstance(d, cls) and getattr(d, "name", None) == name), None)

    def names(self, cls) -> list[str]:
        return [d.name for d in self.decls if isinstance(d, cls)]

    def table(self, name: str, span: Span) -> int:
        i = self.find(n.TableDecl, name)
        if i is not None:
            return i
        missing = self.find(n.MissingDecl, name)
        if missing is not None and self.decls[missing].what == "table":
            raise _Waits(name)
        raise self.unknown("table", name, span, self.names(n.TableDecl))

    def missing(self, name: str, span: Span) -> n.MissingDecl:
        i = self.find(n.MissingDecl, name)
        if i is None:
            raise self.error(f"'{name}' is not declared missing in this ruleset", span,
                             did_you_mean(name, self.names(n.MissingDecl)) or "a note amends data declared with 'missing'")
        return self.decls[i]

    def row_index(self, table: n.TableDecl, low: int, high: int, span: Span) -> int:
        for k, row in enumerate(table.rows):
            if (row.low, row.high) == (low, high):
                return k
        rows = ", ".join(_range(r.low, r.high) for r in table.rows)
        raise self.error(f"table '{table.name}' has no row {_range(low, high)}", span, f"its rows are {rows}")

    # ── tables ──
    def table_change(self, c) -> None:
        i = self.table(c.table, c.table_span)
        t: n.TableDecl = self.decls[i]
        key = ("table", c.table)
        if isinstance(c, (ov.ReplaceRow, ov.RemoveRow)):
            k = self.row_index(t, c.low, c.high, c.range_span)
            self.touch(key + ("row", c.low, c.high), c.span, f"row {_range(c.low, c.high)} of table {c.table}")
            if isinstance(c, ov.RemoveRow):
                rows = _spliced(t.rows, k)
            else:
                new = self.stamp(c.row)
                if _same(new, t.rows[k]):
                    self.noop(c.span, f"row {_range(c.low, c.high)} of table '{c.table}' is already so")
                rows = _spliced(t.rows, k, new)
            self.decls[i] = t.model_copy(update={"rows": rows})
        elif isinstance(c, ov.AddRow):
            new = self.stamp(c.row)
            self.touch(key + ("row", new.low, new.high), c.span, f"row {_range(new.low, new.high)} of table {c.table}")
            self.decls[i] = t.model_copy(update={"rows": t.rows + (new,)})  # the checker reports an overlap
        elif isinstance(c, ov.AddModifier):
            field, now = _adjusters(t, c.of)
            new = self.stamp(c.modifier)
            if any(m.name == new.name for m in now):
                raise self.error(f"table '{c.table}' already has a {c.of} '{new.name}'", c.modifier.span,
                                 f"to change it, write 'replace {c.of} NAME of table TABLE with …'")
            self.touch(key + (c.of, new.name), c.span, f"{c.of} {new.name} of table {c.table}")
            self.decls[i] = t.model_copy(update={field: now + (new,)})
        elif isinstance(c, (ov.ReplaceModifier, ov.RemoveModifier)):
            field, now = _adjusters(t, c.of)
            k = next((k for k, m in enumerate(now) if m.name == c.name), None)
            if k is None:
                raise self.unknown(c.of, c.name, c.name_span, [m.name for m in now], f" of table '{c.table}'")
            self.touch(key + (c.of, c.name), c.span, f"{c.of} {c.name} of table {c.table}")
            if isinstance(c, ov.RemoveModifier):
                mods = _spliced(now, k)
            else:
                new = self.stamp(c.modifier)
                if _same(new, now[k]):
                    self.noop(c.span, f"{c.of} '{c.name}' of table '{c.table}' is already so")
                mods = _spliced(now, k, new)
            self.decls[i] = t.model_copy(update={field: mods})
        else:
            self.touch(key + ("beyond",), c.span, f"the out-of-range policy of table {c.table}")
            if t.beyond == c.policy:
                self.noop(c.span, f"table '{c.table}' already reads 'beyond: {c.policy}'")
            self.decls[i] = t.model_copy(update={"beyond": c.policy, "beyond_span": c.policy_span, "beyond_cite": self.cite})

    # ── values ──
    def set_stat(self, c: ov.SetStat) -> None:
        if self.find(n.StatDecl, c.stat) is None:
            raise self.unknown("stat", c.stat, c.stat_span, self.names(n.StatDecl))
        if isinstance(c.value, str) and c.value not in ("X", "?"):
            raise self.error(f"a stat takes a number, 'X' or '?', not '{c.value}'", c.value_span)
        i = self.find(n.CounterDecl, c.holder)
        if i is None:
            i = self.find(n.TypeDecl, c.holder)
        if i is None:
            raise self.unknown("counter or unit type", c.holder, c.holder_span,
                               self.names(n.CounterDecl) + self.names(n.TypeDecl))
        holder = self.decls[i]
        self.touch(("stat", c.holder, c.stat), c.span, f"the {c.stat} of {c.holder}")
        new = n.StatValue(span=c.span, name=c.stat, value=c.value, cite=self.cite)
        old = next((v for v in holder.values if v.name == c.stat and not v.is_flag), None)
        if old is not None and old.value == c.value:
            self.noop(c.span, f"{c.holder}'s {c.stat} is already {c.value}")
        values = tuple(new if v is old else v for v in holder.values) if old is not None else holder.values + (new,)
        self.decls[i] = holder.model_copy(update={"values": values})

    def track_change(self, c) -> None:
        i = self.find(n.TrackDecl, c.track)
        if i is None:
            raise self.unknown("track", c.track, c.track_span, self.names(n.TrackDecl))
        t: n.TrackDecl = self.decls[i]
        if isinstance(c, ov.SetRange):
            self.touch(("track", c.track, "range"), c.span, f"the range of track {c.track}")
            if (t.low, t.high) == (c.low, c.high):
                self.noop(c.span, f"track '{c.track}' already runs {c.low}..{c.high}")
            self.decls[i] = t.model_copy(update={"low": c.low, "high": c.high, "span": c.span, "cite": self.cite})
        else:
            self.touch(("track", c.track, "start"), c.span, f"the start of track {c.track}")
            if {(s.side, s.value) for s in t.start} == {(s.side, s.value) for s in c.start}:
                self.noop(c.span, f"track '{c.track}' already starts so")
            self.decls[i] = t.model_copy(update={"start": c.start, "span": c.span, "cite": self.cite})

    def set_turns(self, c: ov.SetTurns) -> None:
        i = next((i for i, d in enumerate(self.decls) if isinstance(d, n.Game)), None)
        if i is None:
            raise self.error("the ruleset declares no game whose turns could be set", c.span)
        self.touch(("game", "turns"), c.span, "the number of turns")
        game = self.decls[i]
        if game.turns == c.turns:
            self.noop(c.span, f"the game already lasts {c.turns} turns")
        self.decls[i] = game.model_copy(update={"turns": c.turns, "turns_cite": self.cite})

    # ── whole declarations ──
    def replace_decl(self, c: ov.ReplaceDecl) -> None:
        new, cls = c.decl, type(c.decl)
        i = self.find(cls, new.name)
        if i is None:
            if cls is n.TableDecl:
                self.table(new.name, new.span)  # waits for a missing table, or reports an unknown one
            raise self.unknown(new.kind, new.name, new.span, self.names(cls), ": there is nothing to replace")
        self.touch((new.kind, new.name), c.span, f"{new.kind} {new.name}")
        new = self.stamp(new)
        if _same(new, self.decls[i]):
            self.noop(c.span, f"{new.kind} '{new.name}' is already so")
        self.decls[i] = new

    def add_decl(self, c: ov.AddDecl) -> None:
        new = c.decl
        if not isinstance(new, ADDABLE):
            raise self.error(f"an overlay cannot add a {new.kind}: amend the one the ruleset has", new.span)
        if isinstance(new, n.HookDecl):
            self.touch(("hook", new.event, "added"), c.span, f"the '{new.event}' hooks")
        else:
            if self.find(type(new), new.name) is not None:
                raise self.error(f"{new.kind.replace('_', ' ')} '{new.name}' already exists", new.span,
                                 f"to change it, write 'replace {new.kind} …'" if isinstance(new, (n.TableDecl, n.FunctionDecl, n.ProcedureDecl)) else None)
            self.touch((new.kind, new.name), c.span, f"{new.kind} {new.name}")
        self.decls.append(self.stamp(new))

    # ── clauses ──
    def block(self, c: ov.Container) -> _Block:  # noqa: C901 - one case per kind of container
        if c.what == "procedure":
            i = self.find(n.ProcedureDecl, c.name)
            if i is None:
                raise self.unknown("procedure", c.name, c.name_span, self.names(n.ProcedureDecl))
            proc = self.decls[i]

            def write(stmts, **_):
                self.decls[i] = self.decls[i].model_copy(update={"body": stmts})
            return _Block(proc.body, write, ("procedure", c.name), f"procedure {c.name}", proc.cite)
        if c.what == "row":
            i = self.table(c.name, c.name_span)
            t = self.decls[i]
            k = self.row_index(t, c.low, c.high, c.range_span)
            row = t.rows[k]

            def write(stmts, amended=True):
                table = self.decls[i]
                old = table.rows[k]
                update = {"effect": stmts}
                if amended:  # the row's result is the amendment's now: its trace line cites it and names it
                    update.update(effect=_pin(stmts, old.cite or table.cite), cite=self.cite, span=self.span,
                                  label=self.amended_label(old))
                self.decls[i] = table.model_copy(update={"rows": _spliced(table.rows, k, old.model_copy(update=update))})
            return _Block(row.effect, write, ("table", c.name, "row", c.low, c.high), c.describe(), row.cite or t.cite)
        if c.what == "step":
            seq, p, k = self.step_at(c.phase, c.phase_span, c.name, c.name_span)
            step = self.decls[seq].phases[p].steps[k]

            def write(stmts, **_):
                self.set_step(seq, p, k, self.decls[seq].phases[p].steps[k].model_copy(update={"body": stmts}))
            return _Block(step.body, write, ("sequence", c.phase, c.name), c.describe(), step.cite)
        if c.what == "hook":
            found = [i for i, d in enumerate(self.decls) if isinstance(d, n.HookDecl) and d.event == c.name]
            if not found:
                events = {d.event for d in self.decls if isinstance(d, n.HookDecl)}
                raise self.unknown("hook", c.name, c.name_span, events, ": the ruleset has no hook for this event")
            if len(found) > 1:
                where = [f"{self.decls[i].span.file}:{self.decls[i].span.line}" for i in found]
                raise self.error(f"the ruleset has {len(found)} '{c.name}' hooks; the clause cannot tell which", c.name_span,
                                 notes=[f"a '{c.name}' hook at {w}" for w in where])
            i = found[0]

            def write(stmts, **_):
                self.decls[i] = self.decls[i].model_copy(update={"body": stmts})
            return _Block(self.decls[i].body, write, ("hook", c.name), c.describe(), self.decls[i].cite)
        raise self.error("a clause belongs to a procedure, a table row, a step or a hook, not a whole table", c.span,
                         f"name the row, as in 'row 3 of table {c.name}'")

    def select(self, block: _Block, sel: ov.ClauseSelector) -> tuple[tuple, tuple]:
        """The path of the one statement the selector names, and its key for conflicts."""
        if sel.keyword is not None and sel.keyword not in STATEMENT_KINDS:
            raise self.unknown("statement keyword", sel.keyword, sel.span, STATEMENT_KINDS)
        cite = " ".join(sel.cite.split())
        cited = [(p, a, s) for p, a, s in _walk(block.stmts) if s.cite and " ".join(s.cite.text.split()) == cite]
        hits = [x for x in cited if sel.keyword is None or x[2].kind == sel.keyword]
        if not hits:
            cites = {s.cite.text for _, _, s in _walk(block.stmts) if s.cite}
            if cited:
                kinds = ", ".join(sorted({s.kind for _, _, s in cited}))
                raise self.error(f"{block.what} has no '{sel.keyword}' clause [{sel.cite}]", sel.span, f"the clauses [{sel.cite}] there are: {kinds}")
            raise self.error(f"{block.what} has no clause [{sel.cite}]", sel.cite_span,
                             did_you_mean(sel.cite, cites) or (f"its clauses cite {', '.join(sorted(cites))}" if cites else "it has no cited clause"))
        if len(hits) > 1:
            kinds = {s.kind for _, _, s in hits}
            hint = (f"write the statement's keyword before the citation, as in 'clause {sorted(kinds)[0]} [{sel.cite}]'"
                    if len(kinds) > 1 else "these cannot be told apart: amend the enclosing clause, or replace the whole declaration")
            raise self.error(f"clause [{sel.cite}] of {block.what} is ambiguous: {len(hits)} statements cite it", sel.span, hint,
                             [_stmt_text(s) for _, _, s in hits])
        path, ancestors, s = hits[0]
        return path, block.key + ancestors + ((s.kind, _text(s.cite)),)

    def clause_change(self, c) -> None:
        block = self.block(c.container)
        self.span = c.span
        if isinstance(c, ov.AddClause) and c.where == "end":
            new = _pin(c.body, self.cite)
            self.touch(block.key + ("end",), c.span, f"the end of {block.what}")
            block.write(block.stmts + new)
            return
        path, key = self.select(block, c.selector)
        if isinstance(c, ov.DisableClause):
            self.touch(key, c.span, f"clause [{c.selector.cite}] of {block.what}")
            block.write(_splice(block.stmts, path, lambda old: ()))
            return
        new = _pin(c.body, self.cite)
        if isinstance(c, ov.ReplaceClause):
            self.touch(key, c.span, f"clause [{c.selector.cite}] of {block.what}")
            old = [None]

            def replace(stmt):
                old[0] = stmt
                return new
            stmts = _splice(block.stmts, path, replace)
            if _same(new, (old[0],)):
                self.noop(c.span, f"clause [{c.selector.cite}] of {block.what} is already so")
            block.write(stmts)
            return
        self.touch(key + (c.where,), c.span, f"{c.where} clause [{c.selector.cite}] of {block.what}")
        block.write(_splice(block.stmts, path, (lambda old: new + (old,)) if c.where == "before" else (lambda old: (old,) + new)))

    def may_to_must(self, c: ov.MayToMust) -> int:
        self.span = c.span
        count = 0

        def compel(stmts: tuple) -> tuple:
            nonlocal count
            for path, _, s in list(_walk(stmts)):
                if isinstance(s, n.Choose) and s.optional:
                    count += 1
                    stmts = _splice(stmts, path, lambda old: (old.model_copy(update={
                        "optional": False, "prompt": _must_string(old.prompt), "cite": self.cite, "span": c.span}),))
            return stmts

        if c.container.what in ("table", "row"):  # the rows' labels are the results' printed words: they change too
            i = self.table(c.container.name, c.container.name_span)
            t = self.decls[i]
            only = None
            if c.container.what == "row":
                only = t.rows[self.row_index(t, c.container.low, c.container.high, c.container.range_span)]
                self.touch(("table", t.name, "row", only.low, only.high), c.span, f"the decisions of {c.container.describe()}")
            else:
                self.touch(("table", t.name), c.span, f"the decisions of table {t.name}")
            rows = []
            for row in t.rows:
                if only is not None and row is not only:
                    rows.append(row)
                    continue
                before = count
                effect = compel(row.effect)
                label = _must(row.label) if row.label else row.label
                if count > before or label != row.label:
                    row = row.model_copy(update={"effect": _pin(effect, row.cite or t.cite), "cite": self.cite, "span": c.span,
                                                 "label": self.amended_label(row.model_copy(update={"label": label}))})
                rows.append(row)
            self.decls[i] = t.model_copy(update={"rows": tuple(rows)})
        else:
            block = self.block(c.container)
            self.touch(block.key, c.span, f"the decisions of {block.what}")
            stmts = compel(block.stmts)
            if count:
                block.write(stmts)
        if count == 0:
            self.noop(c.span, f"{c.container.describe()} has no optional ('may') decision")
        return count

    # ── steps ──
    def step_at(self, phase: str, phase_span: Span, step: str | None, step_span: Span | None) -> tuple[int, int, int | None]:
        seq = next((i for i, d in enumerate(self.decls) if isinstance(d, n.SequenceDecl)), None)
        if seq is None:
            raise self.error("the ruleset has no sequence of play", phase_span)
        phases = self.decls[seq].phases
        p = next((k for k, ph in enumerate(phases) if ph.name == phase), None)
        if p is None:
            raise self.unknown("phase", phase, phase_span, [ph.name for ph in phases])
        if step is None:
            return seq, p, None
        k = next((k for k, st in enumerate(phases[p].steps) if st.name == step), None)
        if k is None:
            raise self.unknown("step", step, step_span, [st.name for st in phases[p].steps], f" in phase '{phase}'")
        return seq, p, k

    def set_step(self, seq: int, p: int, k: int | None, step: n.StepDecl | None, insert: bool = False) -> None:
        sequence = self.decls[seq]
        phase = sequence.phases[p]
        steps = list(phase.steps)
        if insert:
            steps.insert(len(steps) if k is None else k, step)
        elif step is None:
            del steps[k]
        else:
            steps[k] = step
        phases = sequence.phases[:p] + (phase.model_copy(update={"steps": tuple(steps)}),) + sequence.phases[p + 1:]
        self.decls[seq] = sequence.model_copy(update={"phases": phases})

    def step_change(self, c) -> None:
        if isinstance(c, ov.AddStep):
            anchor = c.anchor if c.where != "end" else None
            seq, p, k = self.step_at(c.phase, c.phase_span, anchor, c.anchor_span)
            new = self.stamp(c.new)
            self.touch(("sequence", c.phase, anchor or "end", c.where), c.span, f"{c.where} step {anchor or ''} of phase {c.phase}".replace("  ", " "))
            self.touch(("sequence", c.phase, new.name), c.span, f"step {new.name} of phase {c.phase}")
            at = None if k is None else (k if c.where == "before" else k + 1)
            self.set_step(seq, p, at, new, insert=True)
            return
        seq, p, k = self.step_at(c.phase, c.phase_span, c.step, c.step_span)
        old = self.decls[seq].phases[p].steps[k]
        self.touch(("sequence", c.phase, c.step), c.span, f"step {c.step} of phase {c.phase}")
        if isinstance(c, ov.ReplaceStep):
            new = self.stamp(c.new)
            if _same(new, old):
                self.noop(c.span, f"step '{c.step}' of phase '{c.phase}' is already so")
            self.set_step(seq, p, k, new)
            return
        label = f": {self.amendment.label}" if self.amendment.label else ""
        text = f"{c.step} is disabled by {self.overlay.name} {self.amendment.id}{label}"
        say = n.Say(span=c.span, text=n.StrLit(span=c.span, value=text), cite=self.cite)
        self.set_step(seq, p, k, old.model_copy(update={"body": (say,), "needs": (), "pending": False, "cite": self.cite, "span": c.span}))

    # ── conflicts ──
    def conflicts(self, order: list[ov.Overlay]) -> None:
        reported: set[tuple[int, int]] = set()
        for later in self.touched:
            for earlier in self.touched:
                if earlier.overlay >= later.overlay or (earlier.overlay, later.overlay) in reported:
                    continue
                short = min(len(earlier.key), len(later.key))
                if earlier.key[:short] != later.key[:short] or self.ordered(earlier.overlay, later.overlay):
                    continue
                reported.add((earlier.overlay, later.overlay))
                first, second = order[earlier.overlay].name, order[later.overlay].name
                self.diags.append(Diagnostic(
                    "error", f"overlays '{first}' and '{second}' both amend {later.what}; which applies last is not stated",
                    later.span, f"write 'after {first}' in the header of '{second}' (or the reverse)",
                    [f"'{first}' amends {earlier.what} at {earlier.span}"],
                ))


def _selector(sel: ov.ClauseSelector | None) -> str:
    if sel is None:
        return ""
    return (f"{sel.keyword} " if sel.keyword else "") + f"[{sel.cite}]"


def _spliced(items: tuple, k: int, new=None) -> tuple:
    """items with item k replaced by new, or removed when there is none."""
    return items[:k] + ((new,) if new is not None else ()) + items[k + 1:]


def _adjusters(t: n.TableDecl, of: str) -> tuple[str, tuple]:
    """A modifier of the roll, or a shift of a column table's column (8.3): amended the same way."""
    return ("modifiers", t.modifiers) if of == "modifier" else ("shifts", t.shifts)
