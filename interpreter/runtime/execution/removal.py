"""Which rule removed an option (`umpire explain --why` of a refusal, `--why-not OPTION`).

A decision's options are computed by the rules: a comprehension's condition, often a function
of the ruleset calling others (in the toy tests/lang/barred.rules, `open_to` calls `enemy_there`).
A refusal says only that the answer "is not one of the legal options"; this module says which
condition removed it, followed down through the functions it calls, each with its citation and
its arguments' values:

    bay is forbidden by enemy_there(bay, C1) [4.2], which holds
    for bay, 'open_to(q, u)' does not hold
    open_to(bay, C1) [4.0; 4.1; 4.2]: 'enemy_there(q, u)' holds
    enemy_there(bay, C1) [4.2]: 'any([v.side != u.side for v in units_at(q)])' holds

The rule that forbids the option is the first function found to hold where the option needs it
not to (a bar), or else the deepest function that does not hold, with its condition that is not
met (a requirement unmet). It is worked out in the position the decision was asked in, only when
explaining: the conditions are evaluated again, with the option in place of the comprehension's
variable. Nothing here knows a game.
"""

from __future__ import annotations

from typing import Any

from ...ir import nodes as n
from ..common.requests import RuleError
from ..common.values import show
from .calls import bind_args

Env = dict[str, Any]
LINES = 8  # steps of one explanation shown at most


class Removal:
    """The explanation of an option's absence from one decision's options, asked in one position."""

    def __init__(self, compiler, options: n.Expr, lets: dict[str, Any]):
        self.compiler, self.engine = compiler, compiler.engine
        self.options, self.lets = options, lets
        self.absent: list[str] = []  # the lists the options are drawn from that do not hold the item

    def of(self, env: Env, item: Any) -> list[str]:
        """The steps that removed item, with the rule that forbids it first; [] when none is found."""
        consulted = list(self.engine.consulted)  # evaluating again must not add to what the line consulted
        steps: list[tuple[str, str | None, bool]] = []
        self.absent = []
        try:
            self.source(self.options, env, item, steps)
        except RuleError:
            pass  # a condition that cannot be evaluated for this item: the steps found so far stand
        finally:
            self.engine.consulted[:] = consulted
        if not steps:
            return [f"{show(item)} is not in '{self.absent[0]}'"] if self.absent else []
        return [_verdict(item, steps)] + [text for text, _, _ in steps[:LINES]]

    # ── where the options come from ──
    def source(self, e: n.Expr, env: Env, item: Any, steps: list) -> bool:
        """Explain item's absence from the list e computes; False when e holds nothing to explain."""
        if isinstance(e, n.Var) and e.name in self.lets:
            return self.source(self.lets[e.name], env, item, steps)
        if isinstance(e, n.BinOp) and e.op == "+":
            return self.source(e.left, env, item, steps) or self.source(e.right, env, item, steps)
        if isinstance(e, n.CondExpr):
            taken = bool(self.value(e.test, env))
            if not taken and isinstance(e.orelse, n.ListLit) and not e.orelse.items:
                steps.append((f"there are no options unless '{self.text(e.test)}' holds", None, False))
                return True
            return self.source(e.then if taken else e.orelse, env, item, steps)
        if isinstance(e, n.Comprehension) and e.where is not None:
            if item not in self.value(e.iterable, env):
                self.absent.append(self.text(e.iterable))
                return False
            local = dict(env)
            local[e.var] = item
            self.condition(e.where, local, True, steps, f"for {show(item)}, ")
            return True
        if item not in self.value(e, env):  # a list computed otherwise (range(…), a function's): it lacks the item
            self.absent.append(self.text(e))
        return False

    # ── why a condition has the value it has ──
    def condition(self, e: n.Expr, env: Env, failing: bool, steps: list, lead: str = "") -> None:
        """Explain why e does not hold (failing) or holds (not failing), one step per rule followed."""
        if isinstance(e, n.Not):
            self.condition(e.operand, env, not failing, steps, lead)
            return
        if isinstance(e, n.BoolOp):
            # One item decides a failing 'and' (a false one) and a holding 'or' (a true one); else every one does.
            if (e.op == "and") == failing:
                deciding = next((i for i in e.items if bool(self.value(i, env)) != failing), None)
                if deciding is not None:
                    self.condition(deciding, env, failing, steps, lead)
            else:
                for item in e.items:
                    if len(steps) < LINES:
                        self.condition(item, env, failing, steps, lead)
            return
        steps.append((f"{lead}'{self.text(e)}' {'does not hold' if failing else 'holds'}", None, failing))
        if isinstance(e, n.CallExpr) and len(steps) < LINES:
            self.function(e, env, failing, steps)

    def function(self, e: n.CallExpr, env: Env, failing: bool, steps: list) -> None:
        """Into a ruleset function: its arguments bound, its body explained with its citation; into
        all(…)/any(…) of a comprehension, the element that decides."""
        decl = self.compiler.sym.functions.get(e.func)
        if decl is None:
            self.quantifier(e, env, failing, steps)
            return
        values = [self.value(a.value, env) for a in e.args]
        frame = bind_args([p.name for p in decl.params], [(a.name, v) for a, v in zip(e.args, values)])
        call = f"{decl.name}({', '.join(show(v) for v in values)}) [{decl.cite or decl.name}]"
        steps[-1] = (steps[-1][0], call, failing)
        self.condition(decl.body, frame, failing, steps, f"{call}: ")

    def quantifier(self, e: n.CallExpr, env: Env, failing: bool, steps: list) -> None:
        """all(…)/any(…) of a comprehension: the element that decides a failing all() or a holding any();
        every element of a holding all()."""
        if e.func not in ("all", "any") or len(e.args) != 1 or not isinstance(e.args[0].value, n.Comprehension):
            return
        comp = e.args[0].value
        for element in self.value(comp.iterable, env):
            local = dict(env)
            local[comp.var] = element
            if comp.where is not None and not self.value(comp.where, local):
                continue
            holds = bool(self.value(comp.expr, local))
            if (e.func == "all" and failing and not holds) or (e.func == "any" and not failing and holds):
                self.condition(comp.expr, local, failing, steps, f"for {show(element)}, ")
                return
            if e.func == "all" and not failing and len(steps) < LINES:
                self.condition(comp.expr, local, False, steps, f"for {show(element)}, ")

    def value(self, e: n.Expr, env: Env) -> Any:
        return self.compiler.expr(e)(env)

    def text(self, e: n.Expr) -> str:
        return self.engine.source_text(e.span)


def _verdict(item: Any, steps: list[tuple[str, str | None, bool]]) -> str:
    """The rule that forbids the option: the first function that holds where the option needs it not
    to, or else the deepest function that does not hold."""
    calls = [(call, failing) for _, call, failing in steps if call is not None]
    bar = next((call for call, failing in calls if not failing), None)
    if bar is not None:
        return f"{show(item)} is forbidden by {bar}, which holds"
    if calls:
        deepest, last = calls[-1][0], steps[-1][0]
        if last.startswith(f"{deepest}: "):  # the condition of the function that is not met
            return f"{show(item)} is forbidden by {last}"
        return f"{show(item)} is forbidden by {deepest}, which does not hold"
    return f"{show(item)} is forbidden: {steps[0][0].split(', ', 1)[-1]}"  # a condition that calls no function
