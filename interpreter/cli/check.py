"""`umpire check`: each file's diagnostics and summary, as text or (--json) as one document.

A ruleset is checked as 'play' reads it (with its demo data, errata, demo set-up and scenarios when
its header names them), a scenario with the ruleset it uses, an overlay applied to the ruleset it
amends. The language server (editors/workbench.py) checks an editor's buffers with ``check_file``.
"""

from __future__ import annotations

import os
import sys

from .. import cache, files
from ..load import demo_path, header_file, last_loads, load_overlay, load_rules, load_scenario, scenario_and_rules, unswept
from ..style import counted, enabled
from ..syntax.diagnostics import Diagnostic, Sources, UmpireError, Where, render

# The checker, the analysis and the overlays are imported by the functions that use them: `umpire check`
# of files the cache has seen (cache.py) needs none of them.


def cmd_check(paths: list[str], quiet: bool = False, overlays: list[str] = (), every: bool = False,
              ends_process: bool = False) -> int:
    """Each file's diagnostics on standard error, then its summary and counts on standard output.
    With overlays, the overlays' own diagnostics and every error are listed and the base ruleset's
    others counted in one line (``every``, --all, lists them too). ``ends_process``: the process ends
    with the check (load.last_loads)."""
    failed = False
    for path in paths:
        _last(path, paths, ends_process)
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


def _last(path: str, paths: list[str], ends_process: bool) -> None:
    if ends_process and path is paths[-1]:
        last_loads()


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
    with unswept():  # the loads' nodes stay alive: no sweep for cycles among them (load.py)
        try:
            kind = files.command_line_file(path, "umpire check reads", (files.RULES, files.SCENARIO, files.OVERLAY))
            check = _check_scenario if kind is files.SCENARIO else check_rules if kind is files.RULES else _check_overlay
            # The verdict on a file is kept by the cache with the files it read (cache.py).
            return cache.through(("check", path, list(overlays)), sources, tuple, _verdict, check, path, sources, list(overlays))
        except UmpireError as err:
            return _plain(err.diagnostics), []


def _verdict(check, path: str, sources: Sources, overlays: list[str]) -> tuple[list[Diagnostic], list[str]]:
    """A check's diagnostics and summary, its spans as plain data (Where): a kept verdict is read back
    and rendered without importing pydantic, the IR or the checker."""
    diags, summary = check(path, sources, overlays)
    return _plain(diags), summary


def _plain(diags: list[Diagnostic]) -> list[Diagnostic]:
    return [Diagnostic(d.severity, d.message, Where(d.span.file, d.span.line, d.span.col, d.span.end_line, d.span.end_col),
                       d.hint, list(d.notes)) for d in diags]


def check_rules(path: str, sources: Sources, overlays: list[str] = ()) -> tuple[list[Diagnostic], list[str]]:
    _, diags, summary = _rules_verdict(path, sources, overlays)
    return diags, summary


def _rules_verdict(path: str, sources: Sources, overlays: list[str] = ()):
    """A ruleset checked as 'play' reads it (with its demo data and errata when the header names them, its
    demo set-up and scenarios too): the ruleset so read, every diagnostic, the summary lines."""
    from ..load import check_scenario
    from ..overlay.apply import summary_lines

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
    from ..check.analysis import analyse

    return analyse(loaded.symbols)


def _missing_summary(loaded) -> list[str]:
    from ..overlay.apply import missing_notes

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


def _check_scenario(path: str, sources: Sources, overlays: list[str] = ()) -> tuple[list[Diagnostic], list[str]]:
    from ..overlay.apply import summary_lines

    scenario, loaded, diags, _ = scenario_and_rules(path, sources, overlays)
    return diags, summary_lines(loaded.overlays) if loaded is not None else []


def _check_overlay(path: str, sources: Sources, overlays: list[str] = ()) -> tuple[list[Diagnostic], list[str]]:
    """An overlay file, applied to the ruleset it amends as 'play' reads it: with the demo data and the
    game's errata (unless it is the errata), then the other overlays given, then this one; the ruleset's
    demo set-up and scenarios checked with it, and its analysis."""
    from ..overlay.apply import summary_lines

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


def json_check(paths: list[str], quiet: bool = False, overlays: list[str] = (), every: bool = False,
               ends_process: bool = False) -> int:
    """`umpire check --json`: each file's diagnostics (errors alone with --quiet) and counts, and the totals;
    with overlays, the base ruleset's warnings and notes are counted apart ("base") and listed with --all."""
    from .. import report_json as rj

    results, total = [], {"errors": 0, "warnings": 0, "notes": 0}
    for path in paths:
        _last(path, paths, ends_process)
        diags, summary = check_file(path, Sources(), overlays)
        counted = rj.counts(diags)
        own, base = split_base(path, overlays, diags)
        listed = own + [d for d in base if every or d.severity == "error"]
        shown = [d for d in listed if d.severity == "error" or not quiet]
        results.append({"file": path, "diagnostics": [rj.diagnostic(d) for d in shown],
                        "summary": [] if quiet else summary, "counts": counted,
                        **({"base": rj.counts(base)} if base else {})})
        total = {k: total[k] + counted[k] for k in total}
    code = 1 if total["errors"] else 0
    rj.emit(rj.document("check", files=results, counts=total, exit=code))
    return code
