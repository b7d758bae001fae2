"""The shape of the front end: every stage that treats node kinds one by one covers every kind of
the IR's unions, and the keyword lists are the ones the IR declares (issue 12)."""

from __future__ import annotations

import inspect
import re
import typing
from pathlib import Path
from types import SimpleNamespace

import pytest

from interpreter.check.bounds import Bounds
from interpreter.check.resolve import Checker
from interpreter.check.symbols import Collector
from interpreter.ir import nodes as n
from interpreter.ir.visit import dispatch, missing_cases
from interpreter.overlay import describe, locate
from interpreter.overlay import ir as ov
from interpreter.overlay.amender import Amender
from interpreter.runtime.execution.compile import Compiler
from interpreter.runtime.execution.vm import Lowering
from interpreter.syntax import parse

ROOT = Path(__file__).resolve().parent.parent.parent

STAGES = [
    (Checker, "stmt_", n.STATEMENT_KINDS),
    (Checker, "expr_", n.EXPRESSION_KINDS),
    (Compiler, "x_", n.EXPRESSION_KINDS),
    (Bounds, "value_", n.EXPRESSION_KINDS),
    (Collector, "decl_", n.kinds_of(n.Decl)),
    (Amender, "change_", ov.CHANGE_KINDS),  # overlays: writing each kind of change,
    (describe._Words, "describe_", ov.CHANGE_KINDS),  # describing it,
    (Amender, "block_", ov.CONTAINER_KINDS),  # and the blocks of statements a clause is found in
]


@pytest.mark.parametrize("stage,prefix,kinds", STAGES, ids=lambda v: getattr(v, "__name__", v if isinstance(v, str) else ""))
def test_every_stage_has_a_method_for_every_kind(stage, prefix, kinds):
    assert missing_cases(stage, prefix, kinds) == []


def test_every_statement_runs_one_way_only():
    # The machine lowers the statements that wait or steer (`l_` + kind); the compiler closes over
    # the rest (`s_` + kind). Each kind has exactly one of them: a new kind is a failure here.
    for kind in n.STATEMENT_KINDS:
        ways = [f"{stage.__name__}.{prefix}{kind}" for stage, prefix in ((Lowering, "l_"), (Compiler, "s_"))
                if callable(getattr(stage, prefix + kind, None))]
        assert len(ways) == 1, f"statement '{kind}': {ways or 'no way to run it'}"


def test_the_kinds_are_those_of_the_unions():
    assert "change_side" in n.STATEMENT_KINDS and "matching" in n.EXPRESSION_KINDS
    assert len(set(n.STATEMENT_KINDS)) == len(n.STATEMENT_KINDS)  # no kind twice (a new statement needs no edit here)
    assert locate.STATEMENT_KINDS == n.STATEMENT_KINDS  # what an overlay may name as a clause keyword


def test_the_parser_s_statement_keywords_are_the_statement_kinds():
    # The syntax layer lists the keywords in the order its messages show them; the set is the IR's.
    assert set(parse.statement_keywords()) == {kind.split("_")[0] for kind in n.STATEMENT_KINDS}
    assert parse.statement_keywords()[:8] == ("let", "set", "if", "for", "roll", "choose", "call", "say")


def test_a_kind_no_stage_handles_is_a_bug_raised_at_once():
    class Half:
        def stmt_let(self, node):
            return "let"

    assert dispatch(Half(), "stmt_", SimpleNamespace(kind="let")) == "let"
    with pytest.raises(NotImplementedError, match="Half has no method 'stmt_stop'"):
        dispatch(Half(), "stmt_", SimpleNamespace(kind="stop"))
    assert missing_cases(Half, "stmt_", ("let", "stop")) == ["stop"]


def _arity(fn) -> tuple[int, int]:
    """How many arguments an implementation takes, after the call's span."""
    params = list(inspect.signature(fn).parameters.values())[1:]
    return sum(p.default is p.empty for p in params), len(params)


def test_every_declared_built_in_is_implemented_with_its_arity_and_documented():
    from interpreter.lang import BUILTINS
    from interpreter.runtime.execution.builtins import implementations

    impls = implementations(SimpleNamespace(sym=None, state=None))
    assert set(impls) == set(BUILTINS), "lang.BUILTINS and runtime/execution/builtins.py name the same built-ins"
    for name, b in BUILTINS.items():
        assert _arity(impls[name]) == (b.min_args, b.max_args), name
    table = (ROOT / "docs" / "language.md").read_text(encoding="utf-8").split("## 13. Built-in functions")[1]
    table = table.split("\n## ")[0]
    assert [name for name in BUILTINS if f"`{name}(" not in table] == [], "every built-in has its row in §13"
    # The range analysis bounds a few built-ins by name: each is one the language has.
    bounded = re.findall(r'e\.func (?:==|in) \(?"(\w+)"(?:, "(\w+)")?', (ROOT / "interpreter/check/bounds.py").read_text())
    assert bounded and {n for pair in bounded for n in pair if n} <= set(BUILTINS)


def test_one_walker_finds_every_node_of_a_kind():
    from interpreter.ir.visit import descendants
    from interpreter.load import load_rules
    from interpreter.syntax.diagnostics import Sources

    loaded = load_rules(str(ROOT / "rulesets" / "jenkins_ear.rules"), Sources())
    chooses = [d for d in descendants(loaded.ruleset.decls) if isinstance(d, n.Choose)]
    text = "".join(p.read_text() for p in [ROOT / "rulesets" / "jenkins_ear.rules",
                                            *sorted((ROOT / "rulesets" / "jenkins_ear").glob("*.rules"))]
                   if p.name != "demo.rules")
    assert len(chooses) == len(re.findall(r"^\s*choose ", text, re.M)) > 20, "every 'choose' of the ruleset, nested or not"


def test_the_walked_index_finds_what_the_one_walker_finds_walking_only_the_fields_that_hold_nodes():
    """`visit.Walked` walks past the fields whose declared type holds no node (a name, a number, a
    span): it finds every node of every kind `descendants` finds, in its order."""
    from interpreter.ir.visit import Walked, descendants, node_fields_backwards
    from interpreter.load import load_rules
    from interpreter.syntax.diagnostics import Sources
    from interpreter.syntax.spans import Span

    assert node_fields_backwards(n.Var) == () and node_fields_backwards(n.Attr) == ("obj",)
    decls = load_rules(str(ROOT / "rulesets" / "yellow_jack.rules"), Sources(), with_demo=True).ruleset.decls
    everything = [x for x in descendants(decls) if not isinstance(x, Span)]
    walked = list(Walked(keep=100_000).of(decls, n.BaseModel))
    assert len(walked) == len(everything) > 10_000
    assert all(a is b for a, b in zip(walked, everything))


def test_the_overlay_walk_finds_every_statement_the_one_walker_finds():
    # Overlays walk blocks with paths (to splice) and ancestors (to key conflicts), which the one walker
    # has not; its blocks come from the statements' fields, so it must find the very same statements.
    from interpreter.ir.visit import descendants
    from interpreter.load import load_rules
    from interpreter.syntax.diagnostics import Sources

    statements = typing.get_args(typing.get_args(n.Stmt)[0])  # the union's classes (a call expression is no statement)
    decls = load_rules(str(ROOT / "rulesets" / "jenkins_ear.rules"), Sources()).ruleset.decls
    blocks = [d.body for d in decls if isinstance(d, n.ProcedureDecl | n.HookDecl)]
    blocks += [r.effect for d in decls if isinstance(d, n.TableDecl) for r in d.rows]
    walked = [s for block in blocks for _, _, s in locate.walk(block)]
    assert walked == [s for s in descendants(blocks) if isinstance(s, statements)]
    assert len({s.kind for s in walked} & {"if", "for", "repeat", "simultaneously"}) >= 3, "nested blocks are walked"


# Words of a game's title that English uses everywhere ("When Lions Sailed"): not a game's name.
TITLE_WORDS = {"when", "with", "from", "where", "against", "there"}


def test_the_engine_names_no_game():
    """interpreter/ knows no game: no ruleset's name, title, side or nation appears in its code, its
    comments included (examples there use the toy games' names)."""
    from interpreter.load import load_rules
    from interpreter.syntax.diagnostics import Sources

    words = set()
    for rules in sorted((ROOT / "rulesets").glob("*.rules")):
        game = load_rules(str(rules.relative_to(ROOT)), Sources()).symbols.game
        words |= {game.name, *(w for w in re.findall(r"[A-Za-z']{4,}", game.title or "")
                               if w[0].isupper() and w.lower() not in TITLE_WORDS)}
        words |= {s.name for s in (*game.sides, *game.nations)}
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, words))) + r")\b", re.IGNORECASE)
    found = [f"{p.relative_to(ROOT)}:{i}: {m.group(0)}" for p in sorted((ROOT / "interpreter").rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) for m in [pattern.search(line)] if m]
    assert len(words) >= 8
    assert found == []


# The command line and the modules beside it: the front end (load.py), the reports, the language server.
COMMAND_LAYER = [*(ROOT / "interpreter").glob("*.py"), *(ROOT / "interpreter" / "cli").glob("*.py"),
                 *(ROOT / "interpreter" / "editors").glob("*.py")]
# Every module of the interpreter.
INTERPRETER = sorted((ROOT / "interpreter").rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, module_level: bool = False) -> list[tuple[str, list[str]]]:
    """Each `from MODULE import NAMES` of Umpire's own modules in a file, function-level ones too unless
    `module_level` (then only those run when the module is imported: not in a function, a class's
    method or an `if TYPE_CHECKING:` block), as (the module's full name, the names)."""
    import ast

    def module_level_nodes(body):
        for node in body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            yield node
            if isinstance(node, (ast.If, ast.Try)):
                yield from module_level_nodes(node.body + node.orelse + [s for h in getattr(node, "handlers", []) for s in h.body])

    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in (module_level_nodes(tree.body) if module_level else ast.walk(tree)):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            found.append((".".join([*base, *([node.module] if node.module else [])]), [a.name for a in node.names]))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "interpreter":
            found.append((node.module, [a.name for a in node.names]))
    return found


def _import_graph(paths: list[Path], module_level: bool = False) -> dict[str, set[str]]:
    """Which of these modules each of them imports (a name imported from a package may be a module)."""
    modules = {_module_name(p): p for p in paths}
    graph = {name: set() for name in modules}
    for name, path in modules.items():
        for module, names in _imported(path, module_level):
            graph[name] |= {m for m in (module, *(f"{module}.{n}" for n in names)) if m in modules and m != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of a graph: its strongly connected components of more than one module."""
    reaches = {m: set() for m in graph}
    for m in graph:
        todo = list(graph[m])
        while todo:
            k = todo.pop()
            if k not in reaches[m]:
                reaches[m].add(k)
                todo += graph[k]
    return sorted({tuple(sorted(k for k in reaches[m] if m in reaches[k])) for m in graph if m in reaches[m]})


def test_no_module_of_the_interpreter_imports_a_private_name_of_another():
    """What one module needs of another is public (load.py's front end, a command's helpers, the
    operators' general paths): a name with a leading underscore stays in its module."""
    private = [f"{path.relative_to(ROOT)}: from {module} import {name}" for path in INTERPRETER
               for module, names in _imported(path) for name in names if name.startswith("_") and not name.startswith("__")]
    assert private == []


def test_the_command_modules_import_one_another_without_a_cycle():
    """A command's module may use another's (explain draws, play draws its turns) but never in a circle."""
    assert _cycles(_import_graph(COMMAND_LAYER)) == []


def test_no_module_of_the_interpreter_is_in_an_import_cycle_at_module_level():
    """Importing any module of the interpreter imports the modules below it, never one that imports
    it back: what two modules share lives below both (execution/operations.py, the built-ins' tables)."""
    assert _cycles(_import_graph(INTERPRETER, module_level=True)) == []


def test_the_cycle_finder_finds_a_cycle_and_only_its_modules():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _cycles(graph) == [("a", "b", "c")]
    assert _cycles({"a": {"b"}, "b": set()}) == []
