"""Static analysis of a ruleset that checks clean: what `umpire check` reports beyond names.

The checker (resolve.py) refuses what cannot run; this pass tells a rules author what will
run, and where the rules are probably wrong, without running a game:

- tables: the range of the modified roll, from the dice and the bounds of the modifiers
  (bounds.py), against the rows: gaps between rows, values beyond them and the `beyond`
  policy that reads them, rows no roll can reach;
- reachability: the procedures and tables that the sequence of play and the hooks lead to,
  through `call` and `lookup`; the others run only when a scenario runs them;
- unused names: functions, states, stats, flags, boxes and tracks no rule mentions, cups no
  rule draws from;
- decisions that can have no legal answer, where the options and the count are constants;
- statements that never run: after `stop`, `return`, `pass` or `end game` in the same block;
- a `repeat` with no way to end (no `stop`, `return` or `up to` in it);
- a printed number written in two places under the same citation (printed.py).

Warnings are probable defects; notes are information (a table's range, a procedure that
only scenarios run, a stat no rule reads yet). Every message cites the rule concerned.
"""

from __future__ import annotations

from .. import library
from ..ir import nodes as n
from ..ir.symbols import Symbols
from ..ir.trust import trusted
from ..lang import FUNCTION_ARGUMENTS
from ..syntax.diagnostics import Diagnostic
from .bounds import BOOL, FALSE, INF, TRUE, Bounds, Ctx, Site, Values, describe, nodes, show, sites, statements
from .printed import repeated_numbers


def analyse(sym: Symbols) -> tuple[list[Diagnostic], list[str]]:
    """Diagnostics (warnings and notes) and summary lines for a ruleset that has no errors."""
    return Analysis(sym).run()


def _cite(cite: str | None) -> str:
    return f" [{cite}]" if cite else ""


def _signed(values: Values) -> str:
    if values.size() == 1:
        return f"{int(values.low):+d}"
    return describe(values)


def _truth(values: Values, type_name: str | None) -> str:
    if type_name == "bool" or values in (BOOL, TRUE, FALSE):
        return {BOOL: "true or false", TRUE: "true", FALSE: "false"}.get(values, describe(values))
    return describe(values)


def _ends_loop(body: tuple, kind: str) -> bool:
    """Whether a loop's body can end it: a 'stop' of its own (not one of a nested loop), a 'return',
    an 'end game', and for an 'impulses' loop a 'pass' (which leaves the repeats inside the impulse too)."""
    own = ("stop", "return", "pass", "end_game") if kind == "impulses" else ("stop", "return", "end_game")
    for s in body:
        if s.kind in own:
            return True
        if s.kind in ("repeat", "impulses"):  # its 'stop' ends that loop, not this one
            reaching = ("return", "pass", "end_game") if kind == "impulses" and s.kind == "repeat" else ("return", "end_game")
            if any(x.kind in reaching for x in statements(s.body)):
                return True
            continue
        if any(_ends_loop(inner, kind) for name in ("body", "orelse") if isinstance(inner := getattr(s, name, None), tuple)):
            return True
    return False


def _written(r: n.Row, reach: Values) -> Values:
    """The values a row names, its open ends ('..2', '12..') taken as far as the table reads and no further."""
    return Values.range(max(r.first, reach.low) if r.low is None else r.first,
                        min(r.last, reach.high) if r.high is None else r.last)


def _are(values: Values) -> str:
    return "is" if values.size() == 1 else "are"


class Analysis:
    def __init__(self, sym: Symbols):
        self.sym = sym
        self.sites = sites(sym)
        self.by_key = {(s.kind, s.name): s for s in self.sites}
        self.bounds = Bounds(sym, self.sites)
        self.diags: list[Diagnostic] = []

    def note(self, message: str, span, hint: str | None = None, notes: list[str] | None = None) -> None:
        self.diags.append(Diagnostic("note", message, span, hint, notes or []))

    def warning(self, message: str, span, hint: str | None = None, notes: list[str] | None = None) -> None:
        self.diags.append(Diagnostic("warning", message, span, hint, notes or []))

    def run(self) -> tuple[list[Diagnostic], list[str]]:
        for table in self.sym.tables.values():
            self.table(table)
        reached = self.reachability()
        self.unused()
        self.decisions()
        self.after_ending()
        self.diags += repeated_numbers(self.sym)
        self.diags.sort(key=lambda d: (d.span.file, d.span.line, d.span.col))
        procedures = len(self.sym.procedures)
        ran = sum(1 for p in self.sym.procedures if ("procedure", p) in reached)
        with_mods = sum(1 for t in self.sym.tables.values() if t.modifiers)
        summary = [f"analysis: {len(self.sym.tables)} table(s), {with_mods} with modifiers; {ran} of {procedures} "
                   "procedure(s) reachable from the sequence of play and the hooks"]
        return self.diags, summary

    # ── statements that never run ──
    def after_ending(self) -> None:
        """A statement after `stop`, `return`, `pass` or `end game` in the same block never runs (a bare `return` followed
        by an `if` even reads the `if` as its value): a warning at the first such statement."""
        for site in self.sites:
            for body in site.bodies:
                for block in _blocks(body):
                    self._ends_early(block, site)
                for s in statements(body):
                    if s.kind in ("repeat", "impulses") and s.limit is None and not _ends_loop(s.body, s.kind):
                        self.endless(s, site)

    def endless(self, s, site) -> None:
        """A loop nothing in it can end: it runs until the run stops it as a runaway loop."""
        if s.kind == "repeat":
            self.warning(f"this 'repeat' of {site.title()} has no 'stop', 'return' or 'up to': it ends only"
                         " when the run stops it as a runaway loop", s.span,
                         "add 'stop when CONDITION \"why\"' for each way the loop ends, or 'up to N' rounds")
        else:
            self.warning(f"this 'impulses' loop of {site.title()} has no 'pass', 'stop', 'return' or 'up to': no seat"
                         " can pass, so it ends only when the run stops it as a runaway loop", s.span,
                         "write 'pass' where a seat passes its impulse (a declined decision, nothing left to do)")

    def _ends_early(self, block: tuple, site) -> None:
        for i, s in enumerate(block[:-1]):
            if s.kind in ("stop", "return", "pass", "end_game") and getattr(s, "when", None) is None:  # 'stop when' may not stop
                word = s.kind.replace("_", " ")
                self.warning(f"this statement never runs: it comes after '{word}' at line {s.span.line} in the same block"
                          f" of {site.title()}", block[i + 1].span,
                          f"move it before the '{word}', or remove it")
                return

    # ── tables ──
    def table(self, t: n.TableDecl) -> None:
        die = self.sym.dice.get(t.die)
        if (die is None and t.read_at is None) or not t.rows:
            return
        site = self.by_key[("table", t.name)]
        ctx = Ctx(site, {}, [])
        reach, parts = self.unmodified(t, die, ctx)
        for m in t.modifiers:
            contribution, text = self.modifier(m, ctx)
            reach = reach + contribution
            parts.append(text)
        rows = Values()
        for r in t.rows:
            rows |= Values.range(r.first, r.last)
        span = Values.range(rows.low, rows.high)
        gaps, outside = (reach & span) - rows, reach - span
        rolled = ("the modified " if t.modifiers else "the ") + ("value" if t.read_at is not None else "roll")
        head = f"table {t.name}{_cite(t.cite)}: {rolled} ranges over {reach} ({'; '.join(parts)}); rows cover {rows}"
        verdicts, warn = self.verdicts(t, reach, gaps, outside)
        if t.columns is not None:
            verdicts.append(self.columns(t, ctx))
        notes = self.param_notes(t, ctx) + ctx.why
        (self.warning if warn else self.note)(head + "; " + "; ".join(verdicts), t.span, notes=notes)
        self.unreachable_rows(t, reach, rows)

    def unmodified(self, t: n.TableDecl, die, ctx: Ctx) -> tuple[Values, list[str]]:
        """What the table reads before its modifiers, and how to say it: its dice, or the value it is read at."""
        if t.read_at is not None:
            # 'read at points': the parameter's values at the calls (unbounded when a call's value is not known).
            with trusted():  # the table's own fields (ir/trust.py)
                read_at = n.Var(span=t.span, name=t.read_at)
            values = self.bounds.expr(read_at, ctx)
            return values, [f"read at {t.read_at} (= {values})"]
        if t.count_param is None:
            roll = Values.range(t.count * die.low, t.count * die.high)
            return roll, [f"{t.count}{t.die} {roll}"]
        # 'roll dice d6': as many dice as the parameter's values at the calls (any number: unbounded).
        with trusted():
            count_param = n.Var(span=t.span, name=t.count_param)
        counts = self.bounds.expr(count_param, ctx)
        roll = Values()
        if counts.bounded() and counts.size() <= 20:
            for k in counts.points():
                roll |= Values.range(k * die.low, k * die.high)
        else:
            roll = Values.range(min(die.low, 0), float("inf"))
        return roll, [f"{t.count_param} (= {counts}) {t.die} {roll}"]

    def columns(self, t: n.TableDecl, ctx: Ctx) -> str:
        """A column table's columns and what can move them: '7 columns 1:2..5:1 by odds; shifts siege_works +2 when works'."""
        heads = t.columns.headers
        span = heads[0].label if len(heads) == 1 else f"{heads[0].label}..{heads[-1].label}"
        text = f"{len(heads)} column(s) {span} by {t.columns.by}"
        if t.columns.rounding_span is not None:
            text += f" rounded {t.columns.rounding}"
        if t.shifts:
            text += "; shifts " + ", ".join(self.modifier(sh, ctx)[1] for sh in t.shifts)
        if t.columns_beyond is not None:
            return text + f"; beyond the columns: {t.columns_beyond}{_cite(t.columns_beyond_cite)}"
        ends = [(end, *t.column_end(end)) for end in ("below", "above")]
        return text + "".join(f"; {end} the columns: {policy}{_cite(cite)}" for end, policy, _, cite in ends)

    def modifier(self, m: n.Modifier | n.ColumnShift, ctx: Ctx) -> tuple[Values, str]:
        """What a modifier adds to the roll, and how to say it: '-1 when tired', '1..3 when bonus > 0'."""
        truth = self.bounds.expr(m.when, ctx).truth() if m.when is not None else "always"
        value = self.bounds.expr(m.value, self.bounds.narrow(m.when, ctx) if m.when is not None else ctx)
        if truth == "never":
            return Values.of(0), f"{m.name} never applies: '{show(m.when)}' never holds"
        if truth == "maybe":
            return value | Values.of(0), f"{m.name} {_signed(value)} when {show(m.when)}"
        always = " (its condition always holds)" if m.when is not None else ""
        return value, f"{m.name} {_signed(value)}{always}"

    def verdicts(self, t: n.TableDecl, reach: Values, gaps: Values, outside: Values) -> tuple[list[str], bool]:
        """What the rows and the 'beyond' policy make of the reachable values; True if that is a probable defect."""
        policy = f"'beyond: {t.beyond}'{_cite(t.beyond_cite)}" if t.beyond else None
        if gaps.empty() and outside.empty() and (reach.low == -INF or reach.high == INF):
            return ["the rows are open-ended ('..N', 'N..'), so every value it can take has a row"], False
        if not reach.bounded():
            out = ["its bound is not known (see below), so whether it leaves the rows cannot be told"]
            if not gaps.empty():
                out.append(f"if it reaches {gaps}, which no row covers, the run stops there")
            out.append({"clamp": f"{policy} reads anything beyond the rows as the nearest row",
                        "no_effect": f"{policy} gives no effect beyond the rows",
                        "unresolved": f"{policy} would stop the run beyond the rows"}.get(t.beyond or "", "the table has no 'beyond' policy"))
            return out, False
        out, warn = [], False
        if not gaps.empty():
            out.append(f"{gaps} {_are(gaps)} between rows and no row covers {'it' if gaps.size() == 1 else 'them'}: "
                       "the run stops there whatever the 'beyond' policy")
            warn = True
        if not outside.empty():
            if t.beyond == "clamp":
                out.append(f"{outside} {_are(outside)} read as the nearest row by {policy}")
            elif t.beyond == "no_effect":
                out.append(f"{outside} {'has' if outside.size() == 1 else 'have'} no effect by {policy}")
            else:
                rule = f"{policy} stops the run there" if t.beyond else "the table has no 'beyond' policy, so the run stops there"
                out.append(f"{outside} {_are(outside)} beyond the rows and {rule}")
                warn = True
        if not out:
            out.append("every value it can take has a row" + (f" ({policy} is never needed)" if policy else ""))
        return out, warn

    def param_notes(self, t: n.TableDecl, ctx: Ctx) -> list[str]:
        """Where the bounds of the parameters the modifiers read come from: the calls that pass them."""
        types = {p.name: p.type for p in t.params}
        used = {e.name for m in t.modifiers for e in nodes((m.value, m.when)) if isinstance(e, n.Var) and e.name in types}
        used |= {t.read_at} & set(types)
        out = []
        for p in (p.name for p in t.params if p.name in used):
            values = self.bounds.param("table", t.name, p, ctx)
            calls = self.bounds.arguments("table", t.name, p)
            passed = "; ".join(f"{show(arg) if arg is not None else '?'} in {call.site.title()}" for call, arg in calls[:3])
            more = f" and {len(calls) - 3} more call(s)" if len(calls) > 3 else ""
            out.append(f"{p}: {_truth(values, types[p])}" + (f", from {passed}{more}" if calls else ""))
        return out

    def unreachable_rows(self, t: n.TableDecl, reach: Values, rows: Values) -> None:
        below = reach & Values.range(-INF, rows.low - 1)
        above = reach & Values.range(rows.high + 1, INF)
        rolled = t.read_at is None
        for r in t.rows:
            hit = not (reach & Values.range(r.first, r.last)).empty()
            clamped = t.beyond == "clamp" and ((r.first == rows.low and not below.empty()) or (r.last == rows.high and not above.empty()))
            read = f"the {'modified ' if t.modifiers else ''}{'value' if t.read_at is not None else 'roll'} ranges over {reach}"
            if not (hit or clamped):
                self.warning(f"row {r.shown()} -> {r.result}{_cite(r.cite or t.cite)} of table {t.name} can never be read: "
                             f"{read}", r.span)
            elif rolled and reach.bounded() and not r.more and not (never := _written(r, reach) - reach).empty():
                # A row of a rolled table written wider than any roll (6..7 on a d6) is most often a misread
                # key or a forgotten modifier: a warning, like a row never read at all. Open-ended rows ('..2',
                # '12..') are the rulebook's way of saying 'or less', 'or more' and are never flagged; a chart
                # read at a value keeps the keys it prints, which the calls need not all reach.
                self.warning(f"row {r.shown()} -> {r.result}{_cite(r.cite or t.cite)} of table {t.name} names "
                             f"{never}, which can never be read: {read}", r.span,
                             f"write the row as the rulebook prints it (the values it can read: {_written(r, reach) & reach}), "
                             "or add the modifier that reaches the rest")

    # ── reachability ──
    def reachability(self) -> set[tuple[str, str]]:
        """Procedures and tables that a step of the sequence of play, a hook or an invariant leads to."""
        edges: dict[tuple[str, str], set[tuple[str, str]]] = {}
        roots: set[tuple[str, str]] = set()
        tables = self.sym.tables
        # A table read in an expression (language 8.4) is reached where the expression is: in a body, or in
        # a function (whose calls are not followed: any function's reading counts).
        roots.update(("table", x.func) for f in self.sym.functions.values() for x in nodes((f.body,))
                     if isinstance(x, n.CallExpr) and x.func in tables)
        for site in self.sites:
            callees = {("procedure", s.proc) if isinstance(s, n.CallStmt) else ("table", s.table)
                       for body in site.bodies for s in statements(body) if isinstance(s, (n.CallStmt, n.Lookup))}
            callees |= {("table", x.func) for body in site.bodies for x in nodes(body)
                        if isinstance(x, n.CallExpr) and x.func in tables}
            if site.kind in ("procedure", "table"):
                edges[(site.kind, site.name)] = callees
            else:
                roots |= callees
        reached, todo = set(), list(roots)
        while todo:
            key = todo.pop()
            if key not in reached:
                reached.add(key)
                todo.extend(edges.get(key, ()))
        sym = self.sym
        if not sym.sequence and not sym.hooks and not sym.invariants:
            if sym.game is not None and (sym.procedures or sym.tables):
                self.note(f"the ruleset has no sequence of play and no hooks: its {len(sym.procedures)} procedure(s) and "
                          f"{len(sym.tables)} table(s) run only when a scenario runs them", sym.game.span)
            return reached
        for kind, space in (("procedure", sym.procedures), ("table", sym.tables)):
            for name, decl in space.items():
                if (kind, name) not in reached and not library.is_library(decl.span.file):  # a game uses what it needs
                    self.unreachable(kind, decl)
        return reached

    def unreachable(self, kind: str, decl) -> None:
        callers = sorted({c.site.title() for c in self.bounds.calls.get((kind, decl.name), [])})
        how = ("no rule calls it" if kind == "procedure" else "no rule reads it") if not callers else \
            f"only {', '.join(callers)} {'leads' if len(callers) == 1 else 'lead'} to it, and nothing reaches {'that' if len(callers) == 1 else 'those'}"
        self.note(f"{kind} '{decl.name}'{_cite(decl.cite)} is reachable only from scenarios: no step of the sequence of play "
                  f"and no hook leads to it ({how})", decl.span)

    # ── unused names ──
    def references(self) -> tuple[set[str], set[str], set[str], set[str]]:
        """Names the rules read (variables, attributes and 'is' tests), names they set, and functions they call."""
        sym = self.sym
        roots: list = [f.body for f in sym.functions.values()]
        roots += [(m.value, m.when) for t in sym.tables.values() for m in t.modifiers + t.shifts]
        roots += [t.columns.args for t in sym.tables.values() if t.columns is not None]
        roots += [body for site in self.sites for body in site.bodies]
        reads, sets, calls, targets = set(), set(), set(), set()
        kinds: set[str] = set()
        for node in nodes(tuple(roots)):
            if isinstance(node, (n.SetStmt, n.Roll)) and isinstance(node.target, (n.Attr, n.Var)):
                sets.add(node.target.name)
                targets.add(id(node.target))
            elif isinstance(node, n.SetStmt) and _keyed_target(node.target, sym):
                sets.add(node.target.obj.name)  # `set active[mc] = …` sets the per-key state (language 6.4a)
                targets.add(id(node.target.obj))
            elif isinstance(node, (n.Var, n.Attr)) and id(node) not in targets:
                reads.add(node.name)
            elif isinstance(node, n.IsTest):
                kinds.add(node.name)
            elif isinstance(node, n.CallExpr):
                calls.add(node.func)
                calls.update(_passed_function(node))
        if sym.view is not None:
            calls.add(sym.view.function)
        calls.update(s.words[0] for look in sym.looks for s in look.settings if s.name == "owner" and s.words)
        if sym.game is not None and sym.game.worth is not None:
            calls.add(sym.game.worth.name)  # the search agents call it
        if sym.game is not None and sym.game.outcome is not None:
            reads.add(sym.game.outcome.name)  # studies and search agents read it
        return reads, sets, calls, kinds

    def unused(self) -> None:
        sym = self.sym
        reads, sets, calls, kinds = self.references()
        for f in sym.functions.values():
            if f.name not in calls and not library.is_library(f.span.file):  # a game uses what it needs of a mechanic
                self.warning(f"function '{f.name}'{_cite(f.cite)} is used by no rule", f.span,
                             "call it where its rule applies, or remove it")
        states = [("unit state", d) for d in sym.unit_states.values()] + [("game state", d) for d in sym.game_states.values()]
        states += [("place state", d) for d in sym.place_props.values() if d.mutable]
        for what, d in states:
            read, written = d.name in reads, d.name in sets
            if not read and not written:
                self.warning(f"{what} '{d.name}'{_cite(d.cite)} is neither read nor set by any rule", d.span,
                             "use it in the rule it encodes, or remove it")
            elif not read:
                self.note(f"{what} '{d.name}'{_cite(d.cite)} is set but no rule reads it", d.span)
            elif not written:
                start = "false" if d.type.name == "bool" else "none"
                self.note(f"{what} '{d.name}'{_cite(d.cite)} is read but no rule sets it: it stays {start} "
                          "unless a scenario gives it a value", d.span)
        for what, space, used in (("stat", sym.stats, reads), ("flag", sym.flags, reads | kinds)):
            for d in space.values():
                if d.name not in used:
                    self.note(f"{what} '{d.name}'{_cite(d.cite)} is read by no rule", d.span)
        for what, space in (("box", sym.boxes), ("track", sym.tracks)):
            for d in space.values():
                if d.name not in reads:
                    self.note(f"{what} '{d.name}'{_cite(d.cite)} is used by no rule", d.span)
        self.undrawn()

    def undrawn(self) -> None:
        """A cup no rule draws from: its chits never come out at random (read, put or refilled only)."""
        if not self.sym.cups:
            return
        drawn = {x.cup for site in self.sites for body in site.bodies for x in nodes(body) if isinstance(x, n.Draw)}
        for d in self.sym.cups.values():
            if d.name not in drawn:
                self.note(f"cup '{d.name}'{_cite(d.cite)} is drawn from by no rule", d.span)

    # ── decisions ──
    def decisions(self) -> None:
        for site in self.sites:
            for body in site.bodies:
                for s in statements(body):
                    if isinstance(s, n.Choose) and s.mode in ("one", "exactly"):
                        self.decision(s, site)

    def decision(self, s: n.Choose, site: Site) -> None:
        """A decision whose options are a constant list that cannot give a legal answer."""
        size = self.list_length(s.options, site)
        if size is None:
            return
        where = f"decision '{s.name}'{_cite(s.cite)} in {site.title()}"
        if s.mode == "one" and size == 0:
            if s.optional:
                self.warning(f"{where} has no option: it is always declined", s.span)
            else:
                self.warning(f"{where} has no option: the run stops whenever it is reached", s.span,
                             "give it options, or make it optional with 'may'")
        elif s.mode == "exactly" and s.amount is not None:
            amount = self.bounds.expr(s.amount, Ctx(site, {}, []))
            if not amount.empty() and (amount.low > size or amount.high < 0):
                self.warning(f"{where} asks for exactly {amount} of its {size} option(s): it never has a legal answer, "
                             "so the run stops whenever it is reached", s.span)

    def list_length(self, e, site: Site) -> int | None:
        """The number of items of a list written as a constant, directly or through locals only ever bound to one."""
        if isinstance(e, n.ListLit):
            return len(e.items)
        if isinstance(e, n.Var) and e.name in site.assigned and e.name not in site.params:
            sizes = set()
            for s in site.assigned[e.name]:
                if not isinstance(s, (n.Let, n.SetStmt)) or not isinstance(s.value, n.ListLit):
                    return None
                sizes.add(len(s.value.items))
            return sizes.pop() if len(sizes) == 1 else None
        return None


def _blocks(block: tuple):
    """A block and every block nested in its statements (an if's branches, a loop's body)."""
    from ..ir.visit import blocks

    yield block
    for s in block:
        for _, inner in blocks(s):
            yield from _blocks(inner)


def _passed_function(call: n.CallExpr) -> tuple[str, ...]:
    """The function a built-in is given by its bare name (cheapest's STEP): it is called there too."""
    at = FUNCTION_ARGUMENTS.get(call.func)
    arg = call.args[at].value if at is not None and at < len(call.args) else None
    if isinstance(arg, n.CallExpr):  # given its leading arguments: move_cost(u)
        return (arg.func,)
    return (arg.name,) if isinstance(arg, n.Var) else ()


def _keyed_target(target, sym) -> bool:
    """`NAME[key]` where NAME is a per-key game state."""
    return isinstance(target, n.Index) and isinstance(target.obj, n.Var) and sym.state_keys(target.obj.name) is not None
