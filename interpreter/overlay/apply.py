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

This module drives the application and lists what was applied; the jobs are modules of their
own: ``order.py`` (the order and the conflicts), ``locate.py`` (finding a target),
``amender.py`` (writing each kind of change) and ``describe.py`` (a change in words).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..ir import nodes as n
from ..ir.trust import trusted
from ..syntax.diagnostics import Diagnostic
from . import ir as ov
from .amender import Amender
from .describe import describe
from .locate import Refused, Waits
from .order import application_order, conflicts


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


def apply_overlays(base: n.Ruleset, overlays: list[ov.Overlay]) -> tuple[n.Ruleset, list[Diagnostic], list[AppliedOverlay]]:
    """The base ruleset amended by the overlays: a new Ruleset, diagnostics, and what was applied.

    The base is never changed. Errors (an unknown target, a conflict, an overlay for another
    ruleset) leave the change out and are reported; the caller checks the new ruleset as usual.
    """
    diags: list[Diagnostic] = []
    order, follows = application_order(overlays, diags)
    amender = Amender(base, diags)
    applied = [_apply(amender, index, overlay) for index, overlay in enumerate(order)]
    conflicts(amender.touched, follows, order, diags)
    with trusted():  # declarations of the builder, amended by nodes of the overlays' builder (ir/trust.py)
        amended = n.Ruleset(file=base.file, decls=tuple(amender.decls))
    return amended, diags, applied


def _apply(amender: Amender, index: int, overlay: ov.Overlay) -> AppliedOverlay:
    """One overlay applied, unless it amends another ruleset (an error)."""
    record = AppliedOverlay(overlay.name, overlay.file, overlay.title, overlay.cite)
    base = amender.base
    files = {os.path.realpath(d.span.file) for d in base.decls} | {os.path.realpath(base.file)}
    amends = os.path.normpath(os.path.join(os.path.dirname(overlay.file), overlay.amends))
    if os.path.realpath(amends) not in files:
        amender.diags.append(Diagnostic(
            "error", f"overlay '{overlay.name}' amends {amends}, which is not part of this ruleset", overlay.amends_span,
            f"it is applied to {os.path.normpath(base.file)} and the files that includes",
        ))
        return record
    record.amendments = [_amend(amender, index, overlay, amendment) for amendment in overlay.amendments]
    return record


def _amend(amender: Amender, index: int, overlay: ov.Overlay, amendment: ov.Amendment) -> AppliedAmendment:
    """One amendment's changes applied; one that cannot apply is listed as waiting or refused."""
    done = AppliedAmendment(amendment.id, amendment.label, amendment.cite)
    if not amendment.cite:
        amender.diags.append(Diagnostic("error", f"amendment {amendment.id} has no rule citation", amendment.id_span,
                                        "cite its source, for example [6.2 errata] or [6.3 house rule]"))
    if not amendment.changes:
        amender.diags.append(Diagnostic("warning", f"amendment {amendment.id} changes nothing: it has no change", amendment.id_span))
    for change in amendment.changes:
        try:
            done.changes.append(amender.change(index, overlay, amendment, change, done))
        except Waits as waits:
            done.waiting.append(waits.table)
            done.changes.append(f"{describe(change)}: waits for the missing table '{waits.table}' "
                                "(not printed in the rulebook; no data file supplies it here)")
        except Refused as refused:
            amender.diags.append(refused.diag)
            done.changes.append(f"{describe(change)}: not applied (error)")
    return done


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
