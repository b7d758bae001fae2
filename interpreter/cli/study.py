"""``umpire study``: the command (arguments checked, the games played, the report written).

The games themselves are played by ``interpreter/study.py``; the statistics, files and plot are in
``interpreter/study_report.py``.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..lang import agent_known
from ..saves import output_refusal
from ..style import enabled
from ..syntax.diagnostics import Sources, UmpireError, did_you_mean, render_all

OUTPUTS = {"csv": (".csv",), "json": (".json",), "plot": (".svg", ".png")}
STUDY_AGENTS = ("random", "eager", "first", "search", "mcts", "greedy")  # no person: a study plays many games unattended


@dataclass
class StudyArgs:
    path: str
    games: int = 100
    seed: int = 1
    agents: str = "random,random"
    outcome: str | None = None
    facts: list[str] = field(default_factory=list)
    overlays: list[str] = field(default_factory=list)
    compare: str | None = None
    errata: bool = True
    choice: str | None = None
    workers: int = 1
    cluster: str | None = None
    outputs: dict[str, str] = field(default_factory=dict)  # csv / json / plot -> file
    force: bool = False
    allowed: list[str] = field(default_factory=list)


def cmd_study(a: StudyArgs) -> int:
    from ..study import Spec, prepared

    problem = _argument_problem(a)
    if problem:
        print(f"umpire: error: {problem}", file=sys.stderr)
        return 1
    kinds = tuple(k.strip() for k in a.agents.split(","))
    if a.outcome is None:  # the outcome the game header declares, if any
        try:
            header = prepared(Spec(a.path, kinds, tuple(a.overlays), a.errata, a.choice, allowed=tuple(a.allowed)))[0].game
        except UmpireError as err:
            print(render_all(err.diagnostics, Sources(), colour=enabled(sys.stderr)), file=sys.stderr)
            return 1
        a.outcome = header.outcome.name if header is not None and header.outcome is not None else None
    if "plot" in a.outputs and not a.outcome:
        print("umpire: error: --plot draws the outcome's shares: the game header declares no outcome; "
              "name one with --outcome", file=sys.stderr)
        return 1
    spec = Spec(a.path, kinds, tuple(a.overlays), a.errata, a.choice, a.outcome, tuple(a.facts), tuple(a.allowed))
    specs = {"as written" if not a.overlays else "with " + ", ".join(Path(o).name for o in a.overlays): spec}
    if a.compare:
        specs[f"with {Path(a.compare).name}"] = Spec(a.path, kinds, (*a.overlays, a.compare), a.errata, a.choice, a.outcome,
                                          tuple(a.facts), tuple(a.allowed))
    for each in specs.values():
        try:
            sym = prepared(each)[0]
        except UmpireError as err:
            print(render_all(err.diagnostics, Sources(), colour=enabled(sys.stderr)), file=sys.stderr)
            return 1
        problem = _names_problem(sym, [n for n in (a.outcome, *a.facts) if n])
        if problem:
            print(f"umpire: error: {problem}", file=sys.stderr)
            return 1
    return _study(a, specs)


def _study(a: StudyArgs, specs: dict) -> int:
    from .. import study_report as report
    from ..progress import counting
    from ..study import run_games, seeds_of

    seeds = seeds_of(a.seed, a.games)
    runs = {}
    for label, spec in specs.items():
        try:
            with counting(len(seeds), label, " games") as update:
                runs[label] = run_games(spec, seeds, a.workers, a.cluster, update)
        except OSError as err:  # the cluster's scheduler could not be reached (dask raises OSError or TimeoutError)
            print(f"umpire: error: --cluster {a.cluster}: {err}", file=sys.stderr)
            return 1
    (label, base), *others = runs.items()
    print(f"study: {a.path}, agents {a.agents}, {label}")
    print("".join(f"rests on: {line}\n" for line in _stands_in(specs[label])), end="")
    print("\n".join(report.summary(base, a.outcome, tuple(a.facts))))
    for other_label, other in others:
        print(f"study: {other_label}")
        print("\n".join(report.summary(other, a.outcome, tuple(a.facts))))
        if a.outcome:
            print("\n".join(report.comparison(base, other, a.compare)))
    return _write_outputs(a, runs)


def _stands_in(spec) -> list[str]:
    """The demo map and counters the games are played on (runtime/games/stands_in.py)."""
    from ..runtime.games.stands_in import stands_in
    from ..study import prepared

    sym, _, setup = prepared(spec)
    return stands_in(setup, sym)


def _write_outputs(a: StudyArgs, runs: dict) -> int:
    """The files asked for; 1 when one cannot be written (the error names it), else 0."""
    from .. import study_report as report
    from ..writing import WriteError

    try:
        if "csv" in a.outputs:
            report.write_csv(a.outputs["csv"], runs, tuple(a.facts), a.force)
            print(f"per-game results written to {a.outputs['csv']}")
        if "json" in a.outputs:
            report.write_json(a.outputs["json"], runs, a.force)
            print(f"per-game results written to {a.outputs['json']}")
        if "plot" in a.outputs and a.outcome:
            report.plot(a.outputs["plot"], runs, a.outcome, f"{Path(a.path).stem}: {a.games} games, agents {a.agents}",
                        a.force)
            print(f"plot written to {a.outputs['plot']}")
    except WriteError as err:
        print(f"umpire: error: {err.message}", file=sys.stderr)
        return 1
    return 0


def _argument_problem(a: StudyArgs) -> str | None:
    kinds = [k.strip() for k in a.agents.split(",")]
    wrong = [k for k in kinds if not agent_known(k, STUDY_AGENTS)]
    if wrong:
        hint = " (a study plays unattended: no human agent)" if "human" in wrong else ""
        return f"--agents: '{wrong[0]}' is not an agent a study can use; choose from {', '.join(STUDY_AGENTS)}{hint}"
    if a.games < 1:
        return f"--games must be 1 or more, not {a.games}"
    if a.workers < 1:
        return f"--workers must be 1 or more, not {a.workers}"
    if a.cluster is not None and not re.fullmatch(r"(tcp|tls|inproc)://\S+", a.cluster):
        return f"--cluster: '{a.cluster}' is not a scheduler address such as tcp://127.0.0.1:8786"
    for wanted, option, module in ((a.compare, "--compare", "scipy"), ("plot" in a.outputs, "--plot", "matplotlib"),
                                   (a.cluster, "--cluster", "distributed")):
        if wanted and importlib.util.find_spec(module) is None:
            return f"{option} needs the package {module}: pip install 'umpire[study]' (or -e '.[study]' in a checkout)"
    for option, path in a.outputs.items():
        problem = _output_problem(option, path, a.force)
        if problem:
            return problem
    return None


def _output_problem(option: str, path: str, force: bool) -> str | None:
    """Refuse, before the games are played, a file an output cannot or must not be written to."""
    if not path.strip() or "\0" in path:
        return f"--{option} needs a file name"
    problem = output_refusal(path, force, OUTPUTS[option], "a study")
    return None if problem is None else f"--{option}: {problem}"


def _names_problem(sym, names: list[str]) -> str | None:
    """An outcome or fact must be a game state, a track (`funds[red]`, or its name when it is not
    per side) or a fact the rules record (literally or by a template)."""
    from ..ir import nodes as n
    from ..ir.visit import descendants

    bodies = [d for kind in (sym.procedures, sym.functions, sym.tables) for d in kind.values()] + list(sym.hooks)
    keys = {r.key.value for r in descendants(bodies) if isinstance(r, n.Record)}
    templates = [template_pieces(k) for k in keys if "{" in k]
    tracks = {f"{t}[{k}]" if k else t for t, decl in sym.tracks.items() for k in _track_keys(sym, decl)}
    known = set(sym.game_states) | tracks | {k for k in keys if "{" not in k}
    for name in names:
        if name in known or any(fits_template(t, name) for t in templates) or name.endswith(" result"):
            continue
        near = did_you_mean(name, sorted(known))
        return (f"'{name}' is not a game state, a track or a fact the rules record"
                + (f"; {near}" if near else "; game states: " + ", ".join(sorted(sym.game_states))))
    return None


def template_pieces(key: str) -> list[str]:
    """A fact's key with fields, ``"{hex} hits by {s}"``, as the text between its fields: ``["", " hits by ", ""]``."""
    return re.split(r"\{[^}]*\}", key)


def fits_template(pieces: list[str], name: str) -> bool:
    """Whether a fact's name fills a key's fields (one character or more each): the text between the
    fields found left to right, each as early as it can be. The earliest place of each piece leaves the
    most room to the rest, so this finds a way whenever there is one, in one pass over the name;
    a regular expression with a '.+' per field may try every way of cutting the name, which takes
    hours for a name of forty characters and a key of twenty fields."""
    if len(pieces) == 1:  # a '{' that opens no field is text
        return name == pieces[0]
    first, *middle, last = pieces
    start, end = len(first), len(name) - len(last)
    if not (name.startswith(first) and name.endswith(last)) or end < start:
        return False
    for piece in middle:
        found = name.find(piece, start + 1, end - 1)  # a field before it and one after it: a character each
        if found < 0:
            return False
        start = found + len(piece)
    return end - start >= 1


def _track_keys(sym, decl) -> list[str]:
    if decl.per_nation:
        return list(sym.nations)
    return list(sym.sides) if decl.keyed else [""]
