"""Finding what a change names in the ruleset being amended: a declaration, a table's row, a step,
a clause of a block of statements.

A target that does not exist is refused with an error at the name that names it, and a "did
you mean"; a table the rulebook does not print (declared ``missing``) makes the change wait.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..ir import nodes as n
from ..ir.nodes import show_range
from ..ir.visit import blocks
from ..syntax.diagnostics import Diagnostic, Span, did_you_mean
from . import ir as ov

STATEMENT_KINDS = n.STATEMENT_KINDS  # what an overlay may name as a clause's keyword


class Refused(Exception):
    """A change that cannot be applied; carries its diagnostic."""

    def __init__(self, diag: Diagnostic):
        super().__init__(diag.message)
        self.diag = diag


class Waits(Exception):
    """A change to a missing table that no data file supplies: listed, not applied."""

    def __init__(self, table: str):
        super().__init__(table)
        self.table = table


def error(message: str, span: Span, hint: str | None = None, notes: list[str] | None = None) -> Refused:
    return Refused(Diagnostic("error", message, span, hint, list(notes or [])))


def unknown(what: str, name: str, span: Span, candidates, extra: str = "") -> Refused:
    return error(f"unknown {what} '{name}'{extra}", span, did_you_mean(name, candidates))


# ───────────────────────────── statements in blocks ─────────────────────────────


def _text(cite: n.Citation | None) -> str | None:
    """A citation as a clause's key reads it: its text (where it is written does not matter)."""
    return cite.text if cite else None


def walk(stmts: tuple, prefix: tuple = (), ancestors: tuple = ()) -> Iterator[tuple[tuple, tuple, object]]:
    """Every statement of a block and of the blocks inside it, depth first: (path, ancestors' (kind,
    cite), statement). A path is what ``splice`` replaces; the ancestors extend a clause's key."""
    for i, s in enumerate(stmts):
        yield prefix + (i,), ancestors, s
        for name, inner in blocks(s):
            yield from walk(inner, prefix + (i, name), ancestors + ((s.kind, _text(s.cite)),))


def splice(stmts: tuple, path: tuple, fn: Callable[[object], tuple]) -> tuple:
    """The block with the statement at ``path`` replaced by ``fn(statement)`` (zero or more statements)."""
    i = path[0]
    if len(path) == 1:
        return stmts[:i] + tuple(fn(stmts[i])) + stmts[i + 1:]
    s = stmts[i]
    inner = splice(getattr(s, path[1]), path[2:], fn)
    return stmts[:i] + (s.model_copy(update={path[1]: inner}),) + stmts[i + 1:]


def _stmt_text(s) -> str:
    return f"{s.kind} at {s.span.file}:{s.span.line}:{s.span.col}" + (f" [{s.cite}]" if s.cite else "")


class Block:
    """A block of statements an amendment edits, and how to write it back."""

    def __init__(self, stmts: tuple, write: Callable[[tuple], None], key: tuple, what: str, cite: n.Citation | None):
        self.stmts, self.write, self.key, self.what, self.cite = stmts, write, key, what, cite


# ───────────────────────────── the finder ─────────────────────────────


class Finder:
    """Looks targets up in the declarations being amended (the amender's own list, as it changes)."""

    def __init__(self, decls: list):
        self.decls = decls

    def decl(self, cls, name: str) -> int | None:
        return next((i for i, d in enumerate(self.decls) if isinstance(d, cls) and getattr(d, "name", None) == name), None)

    def names(self, cls) -> list[str]:
        return [d.name for d in self.decls if isinstance(d, cls)]

    def named(self, cls, what: str, name: str, span: Span, extra: str = "") -> int:
        """The index of the declaration of that class and name, or an 'unknown' error."""
        i = self.decl(cls, name)
        if i is None:
            raise unknown(what, name, span, self.names(cls), extra)
        return i

    def table(self, name: str, span: Span) -> int:
        i = self.decl(n.TableDecl, name)
        if i is not None:
            return i
        missing = self.decl(n.MissingDecl, name)
        if missing is not None and self.decls[missing].what == "table":
            raise Waits(name)
        raise unknown("table", name, span, self.names(n.TableDecl))

    def missing(self, name: str, span: Span) -> n.MissingDecl:
        i = self.decl(n.MissingDecl, name)
        if i is None:
            raise error(f"'{name}' is not declared missing in this ruleset", span,
                        did_you_mean(name, self.names(n.MissingDecl)) or "a note amends data declared with 'missing'")
        return self.decls[i]

    def row(self, table: n.TableDecl, low: int | None, high: int | None, span: Span) -> int:
        for k, row in enumerate(table.rows):
            if (row.low, row.high) == (low, high):
                return k
        rows = ", ".join(show_range(r.low, r.high) for r in table.rows)
        raise error(f"table '{table.name}' has no row {show_range(low, high)}", span, f"its rows are {rows}")

    def result(self, table: n.TableDecl, name: str, span: Span) -> int:
        """A result the table declares (8.3a), by its name."""
        for k, r in enumerate(table.results):
            if r.name == name:
                return k
        names = [r.name for r in table.results]
        raise error(f"table '{table.name}' has no result '{name}'", span,
                    did_you_mean(name, names) or (f"its results are {', '.join(names)}" if names else "it declares no results"))

    def holder(self, name: str, span: Span) -> int:
        """The counter, or else the unit type, whose printed values a stat is set on."""
        i = self.decl(n.CounterDecl, name)
        if i is None:
            i = self.decl(n.TypeDecl, name)
        if i is None:
            raise unknown("counter or unit type", name, span, self.names(n.CounterDecl) + self.names(n.TypeDecl))
        return i

    def hook(self, event: str, span: Span) -> int:
        """The one hook on the event (a clause of one of several could not tell which)."""
        found = [i for i, d in enumerate(self.decls) if isinstance(d, n.HookDecl) and d.event == event]
        if not found:
            events = {d.event for d in self.decls if isinstance(d, n.HookDecl)}
            raise unknown("hook", event, span, events, ": the ruleset has no hook for this event")
        if len(found) > 1:
            where = [f"{self.decls[i].span.file}:{self.decls[i].span.line}" for i in found]
            raise error(f"the ruleset has {len(found)} '{event}' hooks; the clause cannot tell which", span,
                        notes=[f"a '{event}' hook at {w}" for w in where])
        return found[0]

    # ── steps ──
    def step(self, phase: str, phase_span: Span, step: str | None, step_span: Span | None) -> tuple[int, int, int | None]:
        """(the sequence's index, the phase's, the step's); no step named, no step index."""
        seq = next((i for i, d in enumerate(self.decls) if isinstance(d, n.SequenceDecl)), None)
        if seq is None:
            raise error("the ruleset has no sequence of play", phase_span)
        phases = self.decls[seq].phases
        names = [ph.name for ph in phases]
        if phase not in names:
            raise error(f"unknown phase '{phase}'", phase_span, phases_hint(phase, names))
        p = names.index(phase)
        if step is None:
            return seq, p, None
        steps = [st.name for st in phases[p].steps]
        if step not in steps:
            raise error(f"unknown step '{step}' in phase '{phase}'", step_span, steps_hint(step, phase, steps))
        return seq, p, steps.index(step)

    # ── clauses ──
    def clause(self, block: Block, sel: ov.ClauseSelector) -> tuple[tuple, tuple, object]:
        """The one statement the selector names: its path, its key for conflicts, and itself."""
        if sel.keyword is not None and sel.keyword not in STATEMENT_KINDS:
            raise unknown("statement keyword", sel.keyword, sel.span, STATEMENT_KINDS)
        cite = " ".join(sel.cite.text.split())
        cited = [(p, a, s) for p, a, s in walk(block.stmts) if s.cite and " ".join(s.cite.text.split()) == cite]
        hits = [x for x in cited if sel.keyword is None or x[2].kind == sel.keyword]
        if not hits:
            raise _no_clause(block, sel, [s for _, _, s in cited])
        if len(hits) > 1:
            raise _ambiguous(block, sel, hits)
        path, ancestors, s = hits[0]
        return path, block.key + ancestors + ((s.kind, _text(s.cite)),), s


def phases_hint(phase: str, phases: list[str]) -> str:
    """A did-you-mean when a phase's name is close, and always the phases of the sequence of play."""
    listed = f"the sequence of play has the phase{'s' if len(phases) > 1 else ''} {', '.join(phases)}" if phases \
        else "the sequence of play has no phases"
    close = did_you_mean(phase, phases)
    return f"{close} {listed}" if close else listed


def steps_hint(step: str, phase: str, steps: list[str]) -> str:
    """A did-you-mean when a step's name is close, and always the steps the phase has."""
    if not steps:
        listed = f"phase '{phase}' has no steps"
    else:
        listed = f"phase '{phase}' has the step{'s' if len(steps) > 1 else ''} {', '.join(steps)}"
    close = did_you_mean(step, steps)
    return f"{close} {listed}" if close else listed


def _no_clause(block: Block, sel: ov.ClauseSelector, cited: list) -> Refused:
    """No statement of the block has the citation, or none of the keyword asked for."""
    cites = {s.cite.text for _, _, s in walk(block.stmts) if s.cite}
    if cited:
        kinds = ", ".join(sorted({s.kind for s in cited}))
        return error(f"{block.what} has no '{sel.keyword}' clause [{sel.cite}]", sel.span, f"the clauses [{sel.cite}] there are: {kinds}")
    return error(f"{block.what} has no clause [{sel.cite}]", sel.cite.span,
                 did_you_mean(sel.cite.text, cites) or (f"its clauses cite {', '.join(sorted(cites))}" if cites else "it has no cited clause"))


def _ambiguous(block: Block, sel: ov.ClauseSelector, hits: list) -> Refused:
    """Several statements share the citation: for each, the selector that names it alone (its keyword
    before the citation), or, when another of the same keyword shares it, what to amend instead."""
    kinds = [s.kind for _, _, s in hits]
    cite = f"[{sel.cite}]"
    alone = [f"'clause {k} {cite}'" for k in dict.fromkeys(kinds) if kinds.count(k) == 1]
    if alone:
        hint = f"write the keyword of the statement meant before the citation: {_either(alone)}"
    else:
        hint = "these cannot be told apart: amend the enclosing clause, or replace the whole declaration"
    notes = [f"{_stmt_text(s)}: {_selects(s, ancestors, kinds, cite)}" for _, ancestors, s in hits]
    return error(f"clause [{sel.cite}] of {block.what} is ambiguous: {len(hits)} statements cite it", sel.span, hint, notes)


def _selects(s, ancestors: tuple, kinds: list[str], cite: str) -> str:
    """What selects one statement of an ambiguous clause."""
    if kinds.count(s.kind) == 1:
        return f"'clause {s.kind} {cite}' selects it"
    outer = next(((k, c) for k, c in reversed(ancestors) if c), None)
    where = f"the enclosing '{outer[0]}' clause [{outer[1]}]" if outer else "the whole declaration"
    return f"another '{s.kind}' cites {cite} too: amend {where} instead"


def _either(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
