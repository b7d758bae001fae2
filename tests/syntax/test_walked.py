"""The index of the nodes under each declaration (interpreter/ir/visit.py, Walked): it answers what
walking the roots with `descendants` and keeping the nodes of the classes asked would, in that order,
for every ruleset, however often it is asked and whatever it forgot in between."""

import pytest

from interpreter.ir import nodes as n
from interpreter.ir.visit import Walked, descendants
from interpreter.load import load_rules
from interpreter.syntax.diagnostics import Sources

RULESETS = ["rulesets/jenkins_ear.rules", "rulesets/yellow_jack.rules"]
QUESTIONS = [n.Record, (n.Put, n.Refill), n.CallExpr, (n.Impulses, n.Repeat), (n.Var, n.Attr, n.IntLit)]


@pytest.mark.parametrize("path", RULESETS)
def test_the_index_gives_what_a_walk_gives(path):
    sym = load_rules(path, Sources(), with_demo=True, with_errata=True).symbols
    roots = [*sym.procedures.values(), *sym.functions.values(), *sym.tables.values(), *sym.hooks,
             *sym.invariants, sym.sequence, *sym.bodies()]
    walked = Walked(keep=50)  # fewer than the roots: it forgets them all on the way, and walks them again
    found = 0
    for classes in QUESTIONS * 2:
        walk = [x for x in descendants(roots) if isinstance(x, classes)]
        assert [id(x) for x in walked.of(roots, classes)] == [id(x) for x in walk]
        found += len(walk)
    assert found > 1000
