"""What each command of the ``umpire`` command line does (cli.py reads the arguments).

Every failure reaches the user as a diagnostic (file:line:col, the source line, a
caret, a hint) and an exit code, never as a Python traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import cache, files, progress
from .lang import agent_known
from .load import demo_path, header_file, load_overlay, load_rules, load_scenario, load_scenario_rules, rules_path_for
from .style import counted, enabled, printable, report_lines
from .syntax.diagnostics import NO_SPAN, Diagnostic, Sources, UmpireError, did_you_mean, render, render_all
from .writing import WriteError

# The IR, the checker, the overlays and the runtime are imported by the functions that use them:
# `umpire check` of files the cache has seen (cache.py) needs none of them.
if TYPE_CHECKING:
    from .ir import nodes as n


def dispatch(args: argparse.Namespace) -> int:
    if getattr(args, "as_json", False):
        return _dispatch_json(args)
    if args.command == "check":
        return cmd_check(args.files, args.quiet, args.overlays, args.all)
    if args.command == "run":
        return cmd_run(args.scenario, args.overlays, args.detail, args.side, args.fixtures)
    if args.command == "explain":
        return cmd_explain(args.scenario, args.at, args.overlays, args.why, args.draw, args.force, args.why_not)
    if args.command == "draw":
        from .commands_draw import DrawArgs, cmd_draw

        return cmd_draw(DrawArgs(args.file, args.at, args.side, args.output, args.force, args.step, tuple(args.overlays),
                                 args.scenario))
    if args.command == "odds":
        from .commands_odds import cmd_odds

        return cmd_odds(_odds_args(args))
    if args.command == "play":
        return cmd_play(args.file, args.seed, args.agents, args.save, args.stop_after, args.load, args.overlays,
                        not args.no_errata, args.scenario, args.detail, args.force, args.verify, args.draw)
    if args.command == "study":
        from .commands_study import StudyArgs, cmd_study

        outputs = {k: getattr(args, k) for k in ("csv", "json", "plot") if getattr(args, k)}
        return cmd_study(StudyArgs(args.file, args.games, args.seed, args.agents, args.outcome, args.fact, args.overlays,
                                   args.compare, not args.no_errata, args.scenario, args.workers, args.cluster, outputs,
                                   args.force, args.allow_path))
    if args.command == "lsp":
        return cmd_lsp(files.allowed_folders(args.allow_path))
    if args.command == "coverage":
        from .coverage import cmd_coverage

        return cmd_coverage(args.ruleset, args.sections, args.missing)
    if args.command == "find":
        from .commands_find import cmd_find

        return cmd_find(args.ruleset, args.name, args.missing, args.overlays)
    from .ir import nodes as n

    print(json.dumps(n.Ruleset.model_json_schema(), indent=1))
    return 0


def _dispatch_json(args: argparse.Namespace) -> int:
    """The commands that write their result as one JSON document (commands_json.py)."""
    from . import commands_json as cj

    if args.command == "check":
        return cj.check(args.files, args.quiet, args.overlays, args.all)
    if args.command == "run":
        return cj.run(args.scenario, args.overlays, args.detail, args.side)
    if args.command == "coverage":
        return cj.coverage(args.ruleset, args.sections, args.missing)
    return cj.odds(_odds_args(args))


def _odds_args(args: argparse.Namespace):
    from .commands_odds import OddsArgs

    return OddsArgs(args.scenario, args.fact, args.policy, args.monte_carlo, args.seed, args.limit, args.overlays,
                    args.replay, args.decide, args.no_exact, args.list_facts, args.all_facts, args.demo,
                    args.allow_path)


def cmd_lsp(allowed: list[str]) -> int:
    """The language server (editors/lsp.py), speaking on stdin and stdout until the editor ends it."""
    try:
        from .editors.lsp import serve
    except ImportError as err:
        print(f"umpire: error: umpire lsp needs the package pygls ({err}); install it with: pip install pygls",
              file=sys.stderr)
        return 1
    return serve(allowed)


def cmd_check(paths: list[str], quiet: bool = False, overlays: list[str] = (), every: bool = False) -> int:
    """Each file's diagnostics on standard error, then its summary and counts on standard output.
    With overlays, the overlays' own diagnostics and every error are listed and the base ruleset's
    others counted in one line (``every``, --all, lists them too)."""
    failed = False
    for path in paths:
        sources = Sources()
        diags, summary = check_file(path, sources, overlays)
        own, base = split_base(path, overlays, diags)
        listed = own + [d for d in base if every or d.severity == "error"]
        for d in listed if not quiet else [d for d in listed if d.severity == "error"]:
            print(render(d, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        failed |= any(d.severity == "error" for d in diags)
        if not quiet:
            on = enabled(sys.stdout)
            for line in summary:
                print(line)
            if base:
                print(f"the base ruleset: {_counts(base, on)}" + ("" if every else " (--all lists them)"))
            print(f"{path}: {_counts(own + [d for d in base if d.severity == 'error'], on, notes_if_any=True)}")
    return 1 if failed else 0


def split_base(path: str, overlays: list[str], diags: list[Diagnostic]) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """A check's diagnostics in the overlays it was given (and the overlay file it checks), and the base
    ruleset's (its files, errata, demo data and set-ups), when overlays are checked; all are its own otherwise."""
    mine = {os.path.normpath(o) for o in overlays}
    if files.OVERLAY.fits(path):
        mine.add(os.path.normpath(path))
    elif not files.RULES.fits(path):
        mine = set()
    if not mine:
        return diags, []
    own = [d for d in diags if os.path.normpath(d.span.file) in mine]
    return own, [d for d in diags if os.path.normpath(d.span.file) not in mine]


def _counts(diags: list[Diagnostic], colour: bool, notes_if_any: bool = False) -> str:
    """'E error(s), W warning(s), N note(s)' (the notes only when there are any, with ``notes_if_any``)."""
    errors = sum(1 for d in diags if d.severity == "error")
    notes = sum(1 for d in diags if d.severity == "note")
    warnings = len(diags) - errors - notes
    return (f"{counted(errors, 'error', 'error', colour)}, {counted(warnings, 'warning', 'warning', colour)}"
            + (f", {counted(notes, 'note', 'note', colour)}" if notes or not notes_if_any else ""))


def check_file(path: str, sources: Sources, overlays: list[str] = ()) -> tuple[list[Diagnostic], list[str]]:
    """What `umpire check` finds in one file (a ruleset, a scenario or an overlay, by its extension):
    its diagnostics and summary lines; a file that cannot be read or parsed gives its one diagnostic.
    The language server (editors/lsp.py) checks an editor's buffers with it."""
    try:
        kind = files.command_line_file(path, "umpire check reads", (files.RULES, files.SCENARIO, files.OVERLAY))
        check = _check_scenario if kind is files.SCENARIO else _check_rules if kind is files.RULES else _check_overlay
        # The verdict on a file is kept by the cache with the files it read (cache.py).
        return cache.through(("check", path, list(overlays)), sources, tuple, check, path, sources, list(overlays))
    except UmpireError as err:
        return err.diagnostics, []


def _check_rules(path: str, sources: Sources, overlays: list[str] = ()) -> tuple[list[Diagnostic], list[str]]:
    _, diags, summary = _rules_verdict(path, sources, overlays)
    return diags, summary


def _rules_verdict(path: str, sources: Sources, overlays: list[str] = ()):
    """A ruleset checked as 'play' reads it (with its demo data and errata when the header names them, its
    demo set-up and scenarios too): the ruleset so read, every diagnostic, the summary lines."""
    from .load import check_scenario
    from .overlay.apply import summary_lines

    loaded = load_rules(path, sources, overlays=overlays)
    game = loaded.symbols.game
    played = game is not None and bool(game.demo_data or game.errata or game.scenarios)
    if not played or (loaded.errors and not overlays):
        found, lines = _analysis(loaded, loaded.diagnostics)
        diags = loaded.diagnostics
        if loaded.errors and played and game.demo_data:  # the errors are the verdict: no wait is told
            diags = [d for d in diags if not _waits_for_data(d)]
        return loaded, diags + found, _missing_summary(loaded) + summary_lines(loaded.overlays) + lines
    # The ruleset names demo data or errata: check it with them as well (as 'play' reads it), and its demo set-up.
    with_demo = load_rules(path, sources, with_demo=True, with_errata=True, overlays=overlays)
    demo_read = {_where(d) for d in with_demo.diagnostics}
    # Overlays are judged as 'play' reads them (an overlay may name what only the errata or the demo data
    # declare): the errors of the reading without them are not theirs.
    plain = [d for d in loaded.diagnostics if not (overlays and d.severity == "error")]
    # A step or procedure that waits for a table the demo data supplies does not wait as 'play' reads the
    # rules: its warning goes (the summary's 'missing table' line says the demo data supplies the table).
    # When the rules as played have errors, those errors are the verdict, and no wait is told.
    diags = [d for d in plain if not _waits_for_data(d) or (_where(d) in demo_read and not with_demo.errors)]
    seen = {_where(d) for d in diags}
    diags += [d for d in with_demo.diagnostics if _where(d) not in seen]
    summary = _missing_summary(with_demo) + summary_lines(with_demo.overlays)
    if game.demo_data:
        summary.append(f"demo data: {demo_path(game.span.file, game.demo_data)} (stands in for what the rulebook does not print)")
    if game.demo_setup and not with_demo.errors:
        setup_path = header_file(game, game.demo_setup, files.SCENARIO, "demo setup")
        scenario = load_scenario(setup_path, sources)
        diags += check_scenario(scenario, with_demo.symbols)
        summary.append(f"demo set-up: {setup_path}")
    for listed in game.scenarios if not with_demo.errors else ():
        setup_path = header_file(game, listed.file, files.SCENARIO, "scenario")
        diags += check_scenario(load_scenario(setup_path, sources), with_demo.symbols)
        summary.append(f"scenario {listed.name}: {setup_path} (umpire play --scenario {listed.name})")
    found, lines = _analysis(with_demo, diags)
    return with_demo, diags + found, summary + lines


def _where(d: Diagnostic) -> tuple:
    return d.span.file, d.span.line, d.span.col, d.message


def _waits_for_data(d: Diagnostic) -> bool:
    """The checker's warning that a step or procedure needs a missing table (check/resolve.py, waits_for_data)."""
    return d.severity == "warning" and " needs the missing table(s) " in d.message


def _analysis(loaded, diags: list[Diagnostic]) -> tuple[list[Diagnostic], list[str]]:
    """Static analysis (table ranges, reachability, unused names), only for a ruleset that checks clean."""
    if any(d.severity == "error" for d in diags):
        return [], []
    from .check.analysis import analyse

    return analyse(loaded.symbols)


def _missing_summary(loaded) -> list[str]:
    from .overlay.apply import missing_notes

    sym = loaded.symbols
    lines = []
    for m in sym.missing.values():
        line = f"missing {m.what} '{m.name}': {m.description}" + (f" [{m.cite}]" if m.cite else "")
        supplied = sym.tables.get(m.name) if m.what == "table" else None
        if supplied is not None:
            line += f"; supplied by {supplied.span.file}:{supplied.span.line}, not the published data"
        for note in missing_notes(loaded.overlays).get(m.name, []):
            line += f"; amended by {note}"
        lines.append(line)
    unknown = [
        f"{c.name}.{v.name}" for c in sym.counters.values() for v in c.values if v.value == "?"
    ]
    if unknown:
        lines.append(f"missing printed values ({len(unknown)}): {', '.join(unknown)}")
    lines.extend(_unprinted_results(sym))
    lines.extend(f"{gap.extent} encoded" + (f" [{gap.cite}]" if gap.cite else "") + f": {gap.reason}" for gap in sym.unencoded)
    return lines


def _unprinted_results(sym) -> list[str]:
    """The keys of each partly printed table whose result the rulebook does not print ('-> ?', language 8.7)."""
    lines = []
    for t in sym.tables.values():
        keys = f"({', '.join((t.read_at, *t.read_also))}) = " if t.read_at is not None else "the roll "
        heads = t.columns.headers if t.columns is not None else ()
        cells = [(r, i) for r in t.rows for i, c in enumerate(r.cells) if c == "?"]
        if cells:
            where = [r.shown() + (f" in column {heads[i].label}" if heads else "") for r, i in cells]
            lines.append(f"table '{t.name}' is printed only in part [{t.cite}]: the rulebook does not print the result for "
                         f"{keys}{'; '.join(where)}")
    return lines


def _load_scenario_and_rules(path: str, sources: Sources, overlays: list[str] = (), with_errata: bool = False,
                             with_demo: bool = False):
    """The scenario, its ruleset amended by the overlays the scenario names and then ``overlays``, and every
    diagnostic of both."""
    from .load import check_scenario

    scenario = load_scenario(path, sources)
    rules = rules_path_for(scenario)
    if not os.path.exists(rules):
        cache.note_absent(rules)  # a checked verdict kept by the cache holds until the file appears
        missing = Diagnostic("error", f"the ruleset '{scenario.uses}' does not exist (looked for {rules})", scenario.uses_span)
        return scenario, None, [missing]
    loaded = load_scenario_rules(scenario, sources, overlays, with_errata=with_errata, with_demo=with_demo)
    if loaded.errors:
        return scenario, loaded, loaded.errors
    return scenario, loaded, check_scenario(scenario, loaded.symbols)


def _check_scenario(path: str, sources: Sources, overlays: list[str] = ()) -> tuple[list[Diagnostic], list[str]]:
    from .overlay.apply import summary_lines

    scenario, loaded, diags = _load_scenario_and_rules(path, sources, overlays)
    return diags, summary_lines(loaded.overlays) if loaded is not None else []


def _check_overlay(path: str, sources: Sources, overlays: list[str] = ()) -> tuple[list[Diagnostic], list[str]]:
    """An overlay file, applied to the ruleset it amends as 'play' reads it: with the demo data and the
    game's errata (unless it is the errata), then the other overlays given, then this one; the ruleset's
    demo set-up and scenarios checked with it, and its analysis."""
    from .overlay.apply import summary_lines

    overlay = load_overlay(path, sources)
    rules = files.resolve_reference(overlay.amends, path, files.RULES, overlay.amends_span, "amends")
    if not os.path.exists(rules):
        raise UmpireError([Diagnostic("error", f"the ruleset '{overlay.amends}' does not exist (looked for {rules})",
                                      overlay.amends_span)])
    applied = [*overlays, path]
    _, diags, _ = _rules_verdict(rules, sources, applied)
    loaded = load_rules(rules, sources, with_demo=True, with_errata=True, overlays=applied)  # as 'play' reads it
    reading = ""
    errors = [d for d in diags if d.severity == "error"]
    if errors and all(_defined_twice(d) for d in errors):
        # A scenario's fixture overlay amends the ruleset as scenarios read it, without the demo data
        # (it may supply a table the demo data also supplies): when a second definition of a name is
        # all it clashes on, it is checked without the demo data and reported so. Any other error
        # (a name the overlay cannot see, a clash with the errata) is an error, as 'play' would refuse it.
        plain = load_rules(rules, sources, with_errata=True, overlays=applied)
        if not plain.errors:
            clash = "; ".join(d.message for d in errors)
            found, _ = _analysis(plain, plain.diagnostics)
            loaded, diags = plain, plain.diagnostics + found
            reading = f" as scenarios read it (not with the demo data, as 'play' would: {clash})"
    mine = [o for o in loaded.overlays if os.path.normpath(o.file) == os.path.normpath(path)]
    return diags, summary_lines(mine) + [f"applied to {rules}{reading}" + (
        f" with {', '.join(o.name for o in loaded.overlays if o not in mine)}" if len(loaded.overlays) > len(mine) else "")]


def _defined_twice(d: Diagnostic) -> bool:
    """An overlay's declaration of a name the ruleset, as read, already declares (overlay/amender.py)."""
    return d.message.endswith("' already exists")


def _stop_on_errors(diags: list[Diagnostic]) -> None:
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise UmpireError(errors)


def prepared_scenario(path: str, sources: Sources, overlays: list[str], with_demo: bool = False):
    """The scenario and its checked ruleset, ready to run; an UmpireError with the errors otherwise."""
    scenario, loaded, diags = _load_scenario_and_rules(path, sources, overlays, with_demo=with_demo)
    _stop_on_errors(diags)
    if scenario.run is None:  # the check lets a file of places alone through: it is a shared map
        raise UmpireError([Diagnostic("error", "this file holds places alone (a shared map): it has no 'run' line to run",
                                      scenario.span, "'umpire check' checks it; a scenario takes its places with "
                                      "'places from \"FILE\"' and runs them")])
    return scenario, loaded


def _ready_scenario(path: str, sources: Sources, overlays: list[str], with_demo: bool = False):
    """The scenario and its checked ruleset, ready to run, or None once the errors are printed."""
    try:
        scenario, loaded = prepared_scenario(path, sources, overlays, with_demo)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return None
    return scenario, loaded


def _finish(outcome, sources: Sources) -> int:
    """Exit 1, with the error rendered, when the run stopped on one."""
    if outcome.error is not None:
        print(render(outcome.error, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return 1
    return 0


def cmd_run(path: str, overlays: list[str] = (), detail: bool = False, side: str | None = None,
            fixtures: bool = False) -> int:
    from .runtime.scenario import run_scenario

    sources = Sources()
    ready = _ready_scenario(path, sources, overlays)
    if ready is None:
        return 1
    scenario, loaded = ready
    problem = unknown_side(side, loaded.symbols)
    if problem:
        print(f"umpire: error: {problem}", file=sys.stderr)
        return 1
    outcome = run_scenario(scenario, loaded.symbols, sources, detail=detail, side=side, fixtures=fixtures)
    print(report_lines(outcome.lines, sys.stdout))
    return _finish(outcome, sources) or (0 if outcome.ok else 1)


def unknown_side(side: str | None, sym) -> str | None:
    """The message for a --side that is not a side of the game, with the sides it has."""
    if side is None or side in sym.sides:
        return None
    return f"--side: '{side}' is not a side of this game (its sides: {', '.join(sym.sides)})"


def cmd_explain(path: str, at: str | None, overlays: list[str] = (), why: str | None = None, draw: str | None = None,
                force: bool = False, why_not: str | None = None) -> int:
    from .runtime.explain import explain_lines
    from .runtime.scenario import run_scenario

    if draw is not None:
        problem = _explain_draw_problem(at, draw, force)
        if problem:
            print(f"umpire: error: {problem}", file=sys.stderr)
            return 1
    sources = Sources()
    ready = _ready_scenario(path, sources, overlays)
    if ready is None:
        return 1
    scenario, loaded = ready
    outcome = run_scenario(scenario, loaded.symbols, sources, explain=True, why_not=why_not)
    print(f"explain: {scenario.title}" + (f" [{scenario.cite}]" if scenario.cite else ""))
    if why is not None:
        return _explain_why(scenario, loaded.symbols, outcome, why)
    if why_not is not None:
        return _explain_why_not(outcome, why_not, at)
    lines = explain_lines(outcome.events, sources, at)
    if at is not None and not lines:
        print(f"umpire: error: no event matches '{at}' (the trace has {len(outcome.events)} events)", file=sys.stderr)
        return 1
    print("\n".join(lines))
    if draw is not None and outcome.error is None:
        from .commands_draw import DrawArgs, cmd_draw

        return cmd_draw(DrawArgs(path, at, out=draw, force=force, overlays=tuple(overlays)))
    return _finish(outcome, sources)


def _explain_draw_problem(at: str | None, draw: str, force: bool) -> str | None:
    """`explain --draw FILE` draws the position after the line --at chooses (its first, chosen by a text)."""
    from .commands_draw import output_problem

    if at is None:
        return "--draw draws the position after one line: choose it with --at N (or --at TEXT: the first line holding it)"
    return output_problem(draw, force)


def _explain_why(scenario, sym, outcome, text: str) -> int:
    """`explain --why TEXT`: the story of the first line holding TEXT, told by rules (runtime/why.py)."""
    from .runtime.why import why_lines

    ids = {u.id for u in scenario.units} | set(sym.counters)
    error = outcome.error.message if outcome.error is not None else None
    lines = why_lines(outcome.events, ids, text, error)
    if not lines:
        print(f"umpire: error: no event matches '{text}' (the trace has {len(outcome.events)} events)", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


def _explain_why_not(outcome, name: str, at: str | None) -> int:
    """`explain --why-not OPTION`: which rule removed the option at the first decision (after line
    --at) that left it out (runtime/why.py)."""
    from .runtime.why import why_not_lines

    lines = why_not_lines(outcome.events, name, at)
    if not lines:
        where = f" after '{at}'" if at else ""
        print(f"umpire: error: no decision{where} leaves out '{name}' among options of its kind "
              f"(the trace has {len(outcome.events)} events)", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


@dataclass
class _PlayArgs:
    """What `umpire play` plays and how: the command line's options, a loaded save's where it gives them."""

    path: str | None
    seed: int
    kinds: list[str]
    overlays: list[str]
    errata: bool
    choice: str | None
    save: str | None
    stop_after: int | None
    force: bool
    detail: bool
    load: str | None
    resume: Any  # the loaded save (saves.Resume), or None
    draw: str | None = None  # --draw DIR: a picture as each turn begins (commands_draw.TurnPictures)


def cmd_play(path: str | None, seed: int, agents: str, save: str | None = None, stop_after: int | None = None,
             load: str | None = None, overlays: list[str] = (), errata: bool = True, choice: str | None = None,
             detail: bool = False, force: bool = False, verify: bool = False, draw: str | None = None) -> int:
    from . import saves
    from .runtime.play import AGENT_KINDS

    try:
        resume = _read_save(load, AGENT_KINDS) if load else None
        if resume is not None and verify and resume.position is not None:
            # replayed from the seed, as format 2 saves are, and the saved position compared with the replay's
            resume.compare = {"position": resume.position, "goes_on": resume.goes_on}
            resume.position = resume.goes_on = None
        if save is not None:
            saves.check_target(save, force)
    except saves.SaveError as err:
        named = "" if not load or save else f"{load!r}: " if "\0" in load else f"{load}: "
        print(f"umpire: error: {named}{err.message}", file=sys.stderr)
        return 1
    except UmpireError as err:
        print(f"umpire: error: {load}: {err.diagnostics[0].message}", file=sys.stderr)
        return 1
    if resume is not None:
        args = _PlayArgs(resume.file, resume.seed, list(resume.agents), resume.overlays, resume.errata, resume.scenario,
                         save, stop_after, force, detail, load, resume)
    else:
        args = _PlayArgs(path, seed, [k.strip() for k in agents.split(",") if k.strip()], overlays, errata, choice,
                         save, stop_after, force, detail, load, None)
    args.draw = draw
    problem = _play_problem(args, agents, AGENT_KINDS)
    if problem:
        print(f"umpire: error: {problem}", file=sys.stderr)
        return 1
    with _save_scope(args):
        return _play(args)


def _read_save(load: str, agent_kinds: tuple[str, ...]):
    """The saved game to resume, its game files checked as command-line files."""
    from . import saves

    resume = saves.read(load, agent_kinds)
    # The game files a save names are read as if named on the command line, but only as the
    # kinds of file they must be (docs/safety.md): a save never makes umpire quote another file.
    files.command_line_file(resume.file, "a save's 'file' names", (files.RULES, files.SCENARIO))
    for overlay in resume.overlays:
        files.command_line_file(overlay, "a save's 'overlays' name", (files.OVERLAY,))
    return resume


def _play_problem(args: _PlayArgs, agents: str, agent_kinds: tuple[str, ...]) -> str | None:
    """What makes the options unplayable, before any file is read."""
    bad = [k for k in args.kinds if not agent_known(k, agent_kinds)]
    if not args.kinds or bad:
        return f"unknown agent '{bad[0] if bad else agents}'; use {', '.join(agent_kinds)} (search:N: N rollouts a decision)"
    if not args.path:
        return "name a rules or scenario file to play, or --load a saved game"
    if args.stop_after is not None and args.save is None:
        return "--stop-after needs --save FILE (where the position is saved)"
    if args.stop_after is not None and args.stop_after < 0:
        return "--stop-after counts decisions: 0 or more"
    if args.draw is not None:
        from .commands_draw import TurnPictures

        return TurnPictures.problem(args.draw, args.force)
    return None


def _save_scope(args: _PlayArgs):
    """A loaded save's game files are read as if named on the command line (their folders become roots)."""
    resume = args.resume
    if resume is None:
        return contextlib.nullcontext()
    return files.sandbox(files.current().with_files([args.path, *args.overlays], [resume.root] if resume.root else []))


def _play(args: _PlayArgs) -> int:
    from .runtime.stopping import stopped_like_ctrl_c

    with stopped_like_ctrl_c():  # SIGTERM and SIGHUP stop the game as Ctrl-C does (docs/safety.md §3)
        return _play_game(args)


def _play_game(args: _PlayArgs) -> int:
    from .runtime.play import play

    sources = Sources()
    ready = _ready_game(args, sources)
    if ready is None:
        return 1
    scenario, loaded, applied = ready
    resume = args.resume
    human = "human" in args.kinds
    pictures = _turn_pictures(args.draw, scenario, loaded.symbols, args.kinds, args.force) if args.draw else None
    # The narration is shown as it is played; on a terminal, below it a bar of the turns played, unless a
    # person plays (the prompts are theirs to read).
    turns = contextlib.nullcontext(None) if human else progress.counting(None, "turn", " turns")
    with turns as update:
        terminal = _terminal(update and (lambda turn, last: update(turn - 1, total=last)))
        game = play(loaded.symbols, sources, scenario, args.seed, args.kinds, terminal=terminal,
                    stop_after=args.stop_after, resume=resume and _resumed(resume), detail=args.detail,
                    watch=pictures.watch if pictures else None)
    _tell_the_rest(game, args.detail)
    if pictures is not None and pictures.written:
        seen = f" (as {pictures.side} sees it)" if pictures.side else ""
        print(f"umpire: {len(pictures.written)} picture(s) written to {args.draw}{seen}", file=sys.stderr)
    if pictures is not None and pictures.failed:
        print(f"umpire: error: --draw: {pictures.failed}", file=sys.stderr)
    if game.error is not None:
        for difference in game.differences:  # a replayed save's fields that are not the saved ones, one a line
            print(f"umpire: error: {printable(difference)}", file=sys.stderr)
        print(render(game.error, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return 1
    saved = _after_the_game(game, args, applied, sources.names())
    return 1 if pictures is not None and pictures.failed else saved


def _turn_pictures(folder: str, setup, sym, kinds: list[str], force: bool):
    """`play --draw DIR`: when one side alone is played by a person, the pictures show what that side
    sees (its view, as `draw --side`), since a person shown the whole position would see the enemy's
    hidden pieces; with two people at the table, or none, the whole position."""
    from .commands_draw import TurnPictures
    from .runtime.play import agent_of_each_side

    title = setup.title if setup is not None else (sym.game.title or sym.game.name) if sym.game else "the game"
    people = [side for side, kind in zip(sym.sides, agent_of_each_side(sym, kinds)) if kind == "human"]
    return TurnPictures(folder, setup, title, people[0] if len(people) == 1 else None, force)


def _resumed(resume) -> dict:
    """A loaded save as play() reads it: the header, and the position when it goes on from there."""
    out = {**resume.head, "state": resume.state}
    if resume.position is not None:
        out["position"], out["goes_on"] = resume.position, resume.goes_on
    if resume.compare is not None:
        out["compare"] = resume.compare
    return out


def _ready_game(args: _PlayArgs, sources: Sources):
    """The set-up, the checked ruleset and the names of the overlays applied; None once the error is printed."""
    try:
        scenario, loaded = _game_to_play(args.path, sources, args.overlays, args.errata, args.choice)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return None
    applied = [o.name for o in loaded.overlays]
    resume = args.resume
    if resume is not None and "applied" in resume.head and resume.head["applied"] != applied:
        print(f"umpire: error: {args.load}: field 'errata' or 'overlays': the game was saved with the overlays "
              f"{resume.head['applied'] or 'none'}; the save as it stands applies {applied or 'none'}", file=sys.stderr)
        return None
    return scenario, loaded, applied


def _terminal(turn_begins=None):
    """Prompts on stderr; the narration on stdout as it happens (a pipe reads each line at once, and
    on a terminal the bar of the turns is drawn below it, never on its lines)."""
    from .runtime.play import Terminal

    return Terminal(read=_read_line, write=lambda text: print(text, file=sys.stderr), narrate=progress.say,
                    turn_begins=turn_begins)


def _tell_the_rest(game, detail: bool) -> None:
    """What the terminal has not shown yet of the trace (or the narration), and how much detail is left out."""
    told = game.lines if detail else game.narration
    if told[game.streamed:]:
        print("\n".join(told[game.streamed:]))
    if not detail and len(game.lines) > len(game.narration):
        print(f"umpire: {len(game.lines) - len(game.narration)} line(s) of detail not shown (facts recorded, states set, "
              "decisions): --detail shows them", file=sys.stderr)


def _after_the_game(game, args: _PlayArgs, applied: list[str], read: list[str]) -> int:
    """Save the game where it stopped, if it is to be saved: suspended, or ended by a person who names a file.

    The exit code (docs/safety.md §3): 0 when the game ran to its end, and when a person ended it at a
    decision (Ctrl-C or Ctrl-D, whether they saved it or not: stopping is their choice, not a failure);
    130 when Ctrl-C stopped the rules between two decisions (no position a save can hold); 1 on an error,
    a save that cannot be written included."""
    save = args.save
    if game.quit is not None:
        print(f"umpire: the game was ended: {game.quit}", file=sys.stderr)
        if game.save is None:
            return 130
        save = save or _ask_where_to_save(args.force)
    elif args.stop_after is not None and game.save is None:
        print(f"umpire: error: the game ended before decision {args.stop_after + 1}: there was nothing to save", file=sys.stderr)
        return 1
    if game.save is None or save is None:
        if game.quit is None and save is not None:
            print(f"umpire: the game ran to its end: nothing was saved in {save}", file=sys.stderr)
        return 0
    return _write_save(game.save, save, args, applied, read)


def _write_save(data: dict, save: str, args: _PlayArgs, applied: list[str], read: list[str]) -> int:
    """The save, with the files played as paths from its own folder, and the root that holds them all."""
    from . import saves

    root = saves.game_root(read, files.current().admits)
    data["umpire_save"].update(format=saves.FORMAT, file=saves.portable(save, args.path),
                               **({"root": saves.portable(save, root)} if root else {}),
                               overlays=[saves.portable(save, o) for o in args.overlays],
                               errata=args.errata, scenario=args.choice or "", applied=applied)
    try:
        saves.write(save, data, args.force)
    except WriteError as err:
        print(f"umpire: error: {err.message}", file=sys.stderr)
        return 1
    print(f"saved to {save}")
    return 0


def _game_to_play(path: str, sources: Sources, overlays, errata: bool, choice: str | None):
    """The set-up (a scenario, the demo set-up or a named scenario) and the checked ruleset to play."""
    from .load import check_scenario

    if path.endswith(".scenario"):
        scenario, loaded, diags = _load_scenario_and_rules(path, sources, overlays, with_errata=errata)
    else:
        scenario, loaded = None, load_rules(path, sources, with_demo=True, with_errata=errata, overlays=overlays)
        diags = loaded.diagnostics
        setup = _chosen_setup(loaded.symbols.game, choice) if not loaded.errors else None
        if setup is not None:
            scenario = load_scenario(setup, sources)
            if scenario.overlays:  # a set-up with rules of its own (a scenario's overlay): played with them
                scenario, loaded, diags = _load_scenario_and_rules(setup, sources, overlays, with_errata=errata, with_demo=True)
            else:
                diags = diags + check_scenario(scenario, loaded.symbols)
    _stop_on_errors(diags)
    return scenario, loaded


def _ask_where_to_save(force: bool) -> str | None:
    """After a person ends the game: where to save it, asked until a usable name or an empty answer
    (Ctrl-D and Ctrl-C here decline too)."""
    from . import saves

    while True:
        print("save the game? type a file name (.toml), or press Enter not to save", file=sys.stderr)
        try:
            answer = _read_line()
        except KeyboardInterrupt:
            print(file=sys.stderr)  # the '^C' the terminal echoed ends its line
            answer = None
        if not answer or not answer.strip():
            print("umpire: not saved", file=sys.stderr)
            return None
        try:
            saves.check_target(answer.strip(), force)
            return answer.strip()
        except saves.SaveError as err:
            print(f"  {err.message}", file=sys.stderr)


def _chosen_setup(game: n.Game | None, choice: str | None) -> str | None:
    """The set-up file to play from: the scenario the header names as `choice`, else the demo set-up."""
    if game is None:
        if choice:
            raise UmpireError([Diagnostic("error", f"no game header names a scenario '{choice}'", NO_SPAN)])
        return None
    if choice is None:
        return header_file(game, game.demo_setup, files.SCENARIO, "demo setup") if game.demo_setup else None
    for listed in game.scenarios:
        if listed.name == choice:
            return header_file(game, listed.file, files.SCENARIO, "scenario")
    names = [listed.name for listed in game.scenarios]
    hint = did_you_mean(choice, names) or (f"the game's scenarios are {', '.join(names)}" if names else
                                            "the game header names no scenario ('scenario NAME \"file\"')")
    raise UmpireError([Diagnostic("error", f"the game names no scenario '{choice}'", game.span, hint)])


def _at_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):  # replaced by a test's stand-in, or closed
        return False


def _read_line() -> str | None:
    """A person's answer. At a terminal, input() writes the prompt, so that line editing knows where
    the answer starts; with the narration going to a file or pipe, the prompt goes where the questions
    go, to standard error, so the narration keeps none; with the answers piped in, no one reads a
    prompt, and none is written."""
    try:
        if _at_terminal(sys.stdout):
            return input("> ")
        if _at_terminal(sys.stdin):
            print("> ", end="", file=sys.stderr, flush=True)
        return input()
    except EOFError:
        return None
