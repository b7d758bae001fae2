"""Writing the changes: one method per kind of change (``change_KIND``), found by ``dispatch``.

Each change replaces the declarations it touches, in the amender's copy of the base's list, by
amended copies (``model_copy(update=…)`` on the frozen IR). Amended nodes take the amendment's
citation where they have none of their own and keep the spans of the overlay file. Each change
records what it touches (for the conflicts between overlays) and warns when it changes nothing.
"""

from __future__ import annotations

import re

from ..ir import nodes as n
from ..ir.nodes import show_range
from ..ir.visit import descendants, dispatch
from ..syntax.diagnostics import Diagnostic, Span, did_you_mean
from . import ir as ov
from .describe import describe
from .locate import Block, Finder, error, splice, unknown, walk
from .order import Touch

# What an overlay may add as a whole declaration (the game, its map and sequence are amended, not added).
ADDABLE = (n.StatDecl, n.FlagDecl, n.UnitStateDecl, n.GameStateDecl, n.PlaceStateDecl, n.ClassDecl, n.TypeDecl,
           n.CounterDecl, n.BoxDecl, n.TrackDecl, n.MissingDecl, n.TableDecl, n.FunctionDecl, n.ProcedureDecl,
           n.HookDecl, n.InvariantDecl, n.CupDecl, n.RecordDecl, n.EnumerationDecl)


# ───────────────────────────── comparing and editing ─────────────────────────────


def _meaning(x):
    """A node without its spans and citations: what it does, to tell a change from a no-op."""
    if isinstance(x, Span):
        return None  # where a part is written (a row's cell_spans, say) is not what it does
    if isinstance(x, n.BaseModel):
        return (type(x).__name__,) + tuple((k, _meaning(v)) for k, v in x if not (k == "span" or k.endswith("_span") or k.endswith("cite")))
    if isinstance(x, tuple):
        return tuple(_meaning(v) for v in x)
    return x


def _same(a, b) -> bool:
    return _meaning(a) == _meaning(b)


def _pin(stmts: tuple, cite: n.Citation | None) -> tuple:
    """Statements that inherit a citation get it written on them, so a new container cite does not reach them."""
    return tuple(s if s.cite or cite is None else s.model_copy(update={"cite": cite}) for s in stmts)


def _spliced(items: tuple, k: int, new=None) -> tuple:
    """items with item k replaced by new, or removed when there is none."""
    return items[:k] + ((new,) if new is not None else ()) + items[k + 1:]


def _adjusters(t: n.TableDecl, of: str) -> tuple[str, tuple]:
    """A modifier of the roll, or a shift of a column table's column (8.3): amended the same way."""
    return ("modifiers", t.modifiers) if of == "modifier" else ("shifts", t.shifts)


_MAY = re.compile(r"\b(may|May|MAY)\b")


def _must(text: str) -> str:
    return _MAY.sub(lambda m: {"may": "must", "May": "Must", "MAY": "MUST"}[m.group(1)], text)


def _must_string(s: n.StrLit | None) -> n.StrLit | None:
    if s is None:
        return None
    parts = tuple(p if p.text is None else p.model_copy(update={"text": _must(p.text)}) for p in s.parts)
    return s.model_copy(update={"value": _must(s.value), "parts": parts})


# ───────────────────────────── the amender ─────────────────────────────


class Amender:
    """The base's declarations as the changes amend them, what the changes touched, their warnings."""

    def __init__(self, base: n.Ruleset, diags: list[Diagnostic]):
        self.base = base
        self.decls: list = list(base.decls)
        self.find = Finder(self.decls)
        self.diags = diags
        self.touched: list[Touch] = []

    def change(self, index: int, overlay: ov.Overlay, amendment: ov.Amendment, change, done) -> str:
        """Apply one change of an amendment of the overlay at ``index`` in application order; the line
        ``umpire check`` lists for it. Raises Refused or Waits when it cannot apply."""
        self.index, self.overlay, self.done = index, overlay, done
        self.amendment, self.cite = amendment, change.cite or amendment.cite
        return dispatch(self, "change_", change) or describe(change)

    def touch(self, key: tuple, span: Span, what: str) -> None:
        self.touched.append(Touch(key, self.index, span, what))

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

    # ── tables ──
    def row_of(self, c) -> tuple[int, int]:
        """The table and the row a change names, touched: (the table's index, the row's)."""
        i = self.find.table(c.table, c.table_span)
        k = self.find.row(self.decls[i], c.low, c.high, c.range_span)
        self.touch(("table", c.table, "row", c.low, c.high), c.span, f"row {show_range(c.low, c.high)} of table {c.table}")
        return i, k

    def change_replace_row(self, c: ov.ReplaceRow) -> None:
        i, k = self.row_of(c)
        t = self.decls[i]
        new = self.stamp(c.row)
        if _same(new, t.rows[k]):
            self.noop(c.span, f"row {show_range(c.low, c.high)} of table '{c.table}' is already so")
        self.decls[i] = t.model_copy(update={"rows": _spliced(t.rows, k, new)})

    def change_remove_row(self, c: ov.RemoveRow) -> None:
        i, k = self.row_of(c)
        self.decls[i] = self.decls[i].model_copy(update={"rows": _spliced(self.decls[i].rows, k)})

    def change_add_row(self, c: ov.AddRow) -> None:
        i = self.find.table(c.table, c.table_span)
        t = self.decls[i]
        new = self.stamp(c.row)
        self.touch(("table", c.table, "row", new.low, new.high), c.span, f"row {show_range(new.low, new.high)} of table {c.table}")
        self.decls[i] = t.model_copy(update={"rows": t.rows + (new,)})  # the checker reports an overlap

    def change_add_modifier(self, c: ov.AddModifier) -> None:
        i = self.find.table(c.table, c.table_span)
        field, now = _adjusters(self.decls[i], c.of)
        new = self.stamp(c.modifier)
        if any(m.name == new.name for m in now):
            raise error(f"table '{c.table}' already has a {c.of} '{new.name}'", c.modifier.span,
                        f"to change it, write 'replace {c.of} NAME of table TABLE with …'")
        self.touch(("table", c.table, c.of, new.name), c.span, f"{c.of} {new.name} of table {c.table}")
        self.decls[i] = self.decls[i].model_copy(update={field: now + (new,)})

    def modifier_of(self, c) -> tuple[int, str, tuple, int]:
        """The table and the modifier (or shift) a change names, touched: (the table's index, the
        field that holds its modifiers or shifts, those, the modifier's index)."""
        i = self.find.table(c.table, c.table_span)
        field, now = _adjusters(self.decls[i], c.of)
        k = next((k for k, m in enumerate(now) if m.name == c.name), None)
        if k is None:
            raise unknown(c.of, c.name, c.name_span, [m.name for m in now], f" of table '{c.table}'")
        self.touch(("table", c.table, c.of, c.name), c.span, f"{c.of} {c.name} of table {c.table}")
        return i, field, now, k

    def change_replace_modifier(self, c: ov.ReplaceModifier) -> None:
        i, field, now, k = self.modifier_of(c)
        new = self.stamp(c.modifier)
        if _same(new, now[k]):
            self.noop(c.span, f"{c.of} '{c.name}' of table '{c.table}' is already so")
        self.decls[i] = self.decls[i].model_copy(update={field: _spliced(now, k, new)})

    def change_remove_modifier(self, c: ov.RemoveModifier) -> None:
        i, field, now, k = self.modifier_of(c)
        self.decls[i] = self.decls[i].model_copy(update={field: _spliced(now, k)})

    def change_set_beyond(self, c: ov.SetBeyond) -> None:
        i = self.find.table(c.table, c.table_span)
        t = self.decls[i]
        self.touch(("table", c.table, "beyond"), c.span, f"the out-of-range policy of table {c.table}")
        if t.beyond == c.policy:
            self.noop(c.span, f"table '{c.table}' already reads 'beyond: {c.policy}'")
        self.decls[i] = t.model_copy(update={"beyond": c.policy, "beyond_span": c.policy_span, "beyond_cite": self.cite})

    # ── values ──
    def change_set_stat(self, c: ov.SetStat) -> None:
        self.find.named(n.StatDecl, "stat", c.stat, c.stat_span)
        if isinstance(c.value, str) and c.value not in ("X", "?"):
            raise error(f"a stat takes a number, 'X' or '?', not '{c.value}'", c.value_span)
        i = self.find.holder(c.holder, c.holder_span)
        holder = self.decls[i]
        self.touch(("stat", c.holder, c.stat), c.span, f"the {c.stat} of {c.holder}")
        new = n.StatValue(span=c.span, name=c.stat, value=c.value, cite=self.cite)
        old = next((v for v in holder.values if v.name == c.stat and not v.is_flag), None)
        if old is not None and old.value == c.value:
            self.noop(c.span, f"{c.holder}'s {c.stat} is already {c.value}")
        values = tuple(new if v is old else v for v in holder.values) if old is not None else holder.values + (new,)
        self.decls[i] = holder.model_copy(update={"values": values})

    def change_set_range(self, c: ov.SetRange) -> None:
        i = self.find.named(n.TrackDecl, "track", c.track, c.track_span)
        t: n.TrackDecl = self.decls[i]
        self.touch(("track", c.track, "range"), c.span, f"the range of track {c.track}")
        if (t.low, t.high) == (c.low, c.high):
            self.noop(c.span, f"track '{c.track}' already runs {c.low}..{c.high}")
        self.decls[i] = t.model_copy(update={"low": c.low, "high": c.high, "span": c.span, "cite": self.cite})

    def change_set_start(self, c: ov.SetStart) -> None:
        i = self.find.named(n.TrackDecl, "track", c.track, c.track_span)
        t: n.TrackDecl = self.decls[i]
        self.touch(("track", c.track, "start"), c.span, f"the start of track {c.track}")
        if {(s.side, s.value) for s in t.start} == {(s.side, s.value) for s in c.start}:
            self.noop(c.span, f"track '{c.track}' already starts so")
        self.decls[i] = t.model_copy(update={"start": c.start, "span": c.span, "cite": self.cite})

    def change_set_turns(self, c: ov.SetTurns) -> None:
        i = next((i for i, d in enumerate(self.decls) if isinstance(d, n.Game)), None)
        if i is None:
            raise error("the ruleset declares no game whose turns could be set", c.span)
        self.touch(("game", "turns"), c.span, "the number of turns")
        game = self.decls[i]
        if game.turns == c.turns:
            self.noop(c.span, f"the game already lasts {c.turns} turns")
        self.decls[i] = game.model_copy(update={"turns": c.turns, "turns_cite": self.cite})

    # ── whole declarations ──
    def change_replace_decl(self, c: ov.ReplaceDecl) -> None:
        new, cls = c.decl, type(c.decl)
        i = self.find.decl(cls, new.name)
        if i is None:
            if cls is n.TableDecl:
                self.find.table(new.name, new.span)  # waits for a missing table, or reports an unknown one
            raise unknown(new.kind, new.name, new.span, self.find.names(cls), ": there is nothing to replace")
        self.touch((new.kind, new.name), c.span, f"{new.kind} {new.name}")
        new = self.stamp(new)
        if _same(new, self.decls[i]):
            self.noop(c.span, f"{new.kind} '{new.name}' is already so")
        self.decls[i] = new

    def change_add_decl(self, c: ov.AddDecl) -> None:
        new = c.decl
        if not isinstance(new, ADDABLE):
            raise error(f"an overlay cannot add a {new.kind}: amend the one the ruleset has", new.span)
        if isinstance(new, n.HookDecl):
            self.touch(("hook", new.event, "added"), c.span, f"the '{new.event}' hooks")
        else:
            if self.find.decl(type(new), new.name) is not None:
                raise error(f"{new.kind.replace('_', ' ')} '{new.name}' already exists", new.span,
                            f"to change it, write 'replace {new.kind} …'" if isinstance(new, (n.TableDecl, n.FunctionDecl, n.ProcedureDecl, n.RecordDecl)) else None)
            self.touch((new.kind, new.name), c.span, f"{new.kind} {new.name}")
        self.decls.append(self.stamp(new))

    # ── the blocks clauses belong to: one method per kind of container ──
    def block(self, c: ov.Container) -> Block:
        return dispatch(self, "block_", c)

    def block_procedure(self, c: ov.Container) -> Block:
        i = self.find.named(n.ProcedureDecl, "procedure", c.name, c.name_span)
        proc = self.decls[i]

        def write(stmts):
            self.decls[i] = self.decls[i].model_copy(update={"body": stmts})
        return Block(proc.body, write, ("procedure", c.name), f"procedure {c.name}", proc.cite)

    def block_row(self, c: ov.Container) -> Block:
        i = self.find.table(c.name, c.name_span)
        t = self.decls[i]
        k = self.find.row(t, c.low, c.high, c.range_span)
        row = t.rows[k]

        def write(stmts):  # the row's result is the amendment's now: its trace line cites it and names it
            table = self.decls[i]
            old = table.rows[k]
            update = dict(effect=_pin(stmts, old.cite or table.cite), cite=self.cite, span=self.span,
                          label=self.amended_label(old))
            self.decls[i] = table.model_copy(update={"rows": _spliced(table.rows, k, old.model_copy(update=update))})
        return Block(row.effect, write, ("table", c.name, "row", c.low, c.high), c.describe(), row.cite or t.cite)

    def block_result(self, c: ov.Container) -> Block:
        """A table's declared result (8.3a): its effect serves every cell that names it, whatever the arguments."""
        i = self.find.table(c.name, c.name_span)
        t = self.decls[i]
        k = self.find.result(t, c.result, c.result_span)

        def write(stmts):
            table = self.decls[i]
            old = table.results[k]
            new = old.model_copy(update=dict(effect=_pin(stmts, old.cite or table.cite)))
            self.decls[i] = table.model_copy(update={"results": _spliced(table.results, k, new)})
        return Block(t.results[k].effect, write, ("table", c.name, "result", c.result), c.describe(), t.results[k].cite or t.cite)

    def block_step(self, c: ov.Container) -> Block:
        seq, p, k = self.find.step(c.phase, c.phase_span, c.name, c.name_span)
        step = self.decls[seq].phases[p].steps[k]

        def write(stmts):
            self.set_step(seq, p, k, self.decls[seq].phases[p].steps[k].model_copy(update={"body": stmts}))
        return Block(step.body, write, ("sequence", c.phase, c.name), c.describe(), step.cite)

    def block_hook(self, c: ov.Container) -> Block:
        i = self.find.hook(c.name, c.name_span)

        def write(stmts):
            self.decls[i] = self.decls[i].model_copy(update={"body": stmts})
        return Block(self.decls[i].body, write, ("hook", c.name), c.describe(), self.decls[i].cite)

    def block_table(self, c: ov.Container) -> Block:
        raise error("a clause belongs to a procedure, a table row or result, a step or a hook, not a whole table", c.span,
                    f"name the row, as in 'row 3 of table {c.name}'")

    # ── clauses ──
    def change_replace_clause(self, c: ov.ReplaceClause) -> None:
        block = self.block(c.container)
        self.span = c.span
        path, key, old = self.find.clause(block, c.selector)
        new = _pin(c.body, self.cite)
        self.touch(key, c.span, f"clause [{c.selector.cite}] of {block.what}")
        stmts = splice(block.stmts, path, lambda _: new)
        if _same(new, (old,)):
            self.noop(c.span, f"clause [{c.selector.cite}] of {block.what} is already so")
        block.write(stmts)

    def change_disable_clause(self, c: ov.DisableClause) -> None:
        block = self.block(c.container)
        self.span = c.span
        path, key, _ = self.find.clause(block, c.selector)
        self.touch(key, c.span, f"clause [{c.selector.cite}] of {block.what}")
        block.write(splice(block.stmts, path, lambda _: ()))

    def change_add_clause(self, c: ov.AddClause) -> None:
        block = self.block(c.container)
        self.span = c.span
        if c.where in ("start", "end"):
            new = _pin(c.body, self.cite)
            self.touch(block.key + (c.where,), c.span, f"the {c.where} of {block.what}")
            block.write(new + block.stmts if c.where == "start" else block.stmts + new)
            return
        path, key, _ = self.find.clause(block, c.selector)
        new = _pin(c.body, self.cite)
        self.touch(key + (c.where,), c.span, f"{c.where} clause [{c.selector.cite}] of {block.what}")
        block.write(splice(block.stmts, path, (lambda old: new + (old,)) if c.where == "before" else (lambda old: (old,) + new)))

    # ── decisions ──
    def change_may_to_must(self, c: ov.MayToMust) -> str:
        self.span = c.span
        count = self.compel_rows(c) if c.container.what in ("table", "row") else self.compel_block(c)
        if count == 0:
            self.noop(c.span, f"{c.container.describe()} has no optional ('may') decision")
        return f"{describe(c)} ({count} decision(s) made compulsory)"

    def compel(self, stmts: tuple, span: Span) -> tuple[tuple, int]:
        """The block with its optional decisions, nested or not, made compulsory; how many there were."""
        count = 0
        for path, _, s in list(walk(stmts)):
            if isinstance(s, n.Choose) and s.optional:
                count += 1
                stmts = splice(stmts, path, lambda old: (old.model_copy(update={
                    "optional": False, "prompt": _must_string(old.prompt), "cite": self.cite, "span": span}),))
        return stmts, count

    def compel_block(self, c: ov.MayToMust) -> int:
        block = self.block(c.container)
        self.touch(block.key, c.span, f"the decisions of {block.what}")
        stmts, count = self.compel(block.stmts, c.span)
        if count:
            block.write(stmts)
        return count

    def compel_rows(self, c: ov.MayToMust) -> int:
        """The decisions of a table's rows (or of one row); the rows' labels are the results' printed
        words: they change too."""
        i = self.find.table(c.container.name, c.container.name_span)
        t = self.decls[i]
        only = None
        if c.container.what == "row":
            only = t.rows[self.find.row(t, c.container.low, c.container.high, c.container.range_span)]
            self.touch(("table", t.name, "row", only.low, only.high), c.span, f"the decisions of {c.container.describe()}")
        else:
            self.touch(("table", t.name), c.span, f"the decisions of table {t.name}")
        rows, count = [], 0
        for row in t.rows:
            if only is None or row is only:
                row, found = self.compel_row(t, row, c.span)
                count += found
            rows.append(row)
        results = []
        for result in t.results:  # a declared result's decisions belong to every row naming it (8.3, 8.3a)
            effect, found = self.compel(result.effect, c.span) if only is None else (result.effect, 0)
            label = _must(result.label) if result.label and only is None else result.label
            if found or label != result.label:
                result = result.model_copy(update={"effect": _pin(effect, result.cite or t.cite), "label": label})
            count += found
            results.append(result)
        self.decls[i] = t.model_copy(update={"rows": tuple(rows), "results": tuple(results)})
        return count

    def compel_row(self, t: n.TableDecl, row: n.Row, span: Span) -> tuple[n.Row, int]:
        effect, count = self.compel(row.effect, span)
        label = _must(row.label) if row.label else row.label
        if count or label != row.label:
            row = row.model_copy(update={"effect": _pin(effect, row.cite or t.cite), "cite": self.cite, "span": span,
                                         "label": self.amended_label(row.model_copy(update={"label": label}))})
        return row, count

    def change_restrict_decision(self, c: ov.RestrictDecision) -> None:
        """A restriction is a declaration of the amended ruleset, found by the decision's name wherever
        the decision is asked (so a clause that rewrites the 'choose' keeps it); restrictions compose."""
        names = sorted({x.name for x in descendants(self.decls) if isinstance(x, n.Choose)})
        if c.decision not in names:
            close = did_you_mean(c.decision, names)
            listed = f"the decisions of the ruleset are {', '.join(names)}" if names else "the ruleset asks no decision"
            raise error(f"unknown decision '{c.decision}'", c.decision_span, f"{close} {listed}" if close else listed)
        self.touch(("decision", c.decision, self.overlay.name, self.amendment.id), c.span, f"decision {c.decision}")
        self.decls.append(n.Restriction(span=c.span, decision=c.decision, decision_span=c.decision_span, var=c.var,
                                        where=c.where, reason=c.reason or self.amendment.label or "restricted by an overlay",
                                        by=self.amendment.id, cite=self.cite))

    # ── steps ──
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

    def step_of(self, c) -> tuple[int, int, int]:
        """The step a change names, touched: (the sequence's index, the phase's, the step's)."""
        seq, p, k = self.find.step(c.phase, c.phase_span, c.step, c.step_span)
        self.touch(("sequence", c.phase, c.step), c.span, f"step {c.step} of phase {c.phase}")
        return seq, p, k

    def change_replace_step(self, c: ov.ReplaceStep) -> None:
        seq, p, k = self.step_of(c)
        new = self.stamp(c.new)
        if _same(new, self.decls[seq].phases[p].steps[k]):
            self.noop(c.span, f"step '{c.step}' of phase '{c.phase}' is already so")
        self.set_step(seq, p, k, new)

    def change_disable_step(self, c: ov.DisableStep) -> None:
        seq, p, k = self.step_of(c)
        old = self.decls[seq].phases[p].steps[k]
        label = f": {self.amendment.label}" if self.amendment.label else ""
        text = f"{c.step} is disabled by {self.overlay.name} {self.amendment.id}{label}"
        say = n.Say(span=c.span, text=n.StrLit(span=c.span, value=text), cite=self.cite)
        self.set_step(seq, p, k, old.model_copy(update={"body": (say,), "needs": (), "pending": False, "cite": self.cite, "span": c.span}))

    def change_add_step(self, c: ov.AddStep) -> None:
        anchor = c.anchor if c.where != "end" else None
        seq, p, k = self.find.step(c.phase, c.phase_span, anchor, c.anchor_span)
        new = self.stamp(c.new)
        self.touch(("sequence", c.phase, anchor or "end", c.where), c.span, f"{c.where} step {anchor or ''} of phase {c.phase}".replace("  ", " "))
        self.touch(("sequence", c.phase, new.name), c.span, f"step {new.name} of phase {c.phase}")
        at = None if k is None else (k if c.where == "before" else k + 1)
        self.set_step(seq, p, at, new, insert=True)

    # ── missing data ──
    def change_missing_note(self, c: ov.MissingNote) -> str:
        decl = self.find.missing(c.name, c.name_span)
        self.done.notes.append((c.name, c.text))
        return f"note on missing {decl.what} '{c.name}': {c.text} (recorded; the missing data is not amended)"
