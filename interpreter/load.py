"""The front end in one call: read → parse → build IR → check (a scenario's set-up run for its check). Used by every command."""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import cache, files
from .files import demo_path as demo_path  # the commands name it with the loads
from .style import enabled
from .syntax.diagnostics import Diagnostic, Sources, UmpireError, did_you_mean, render_all

# The IR, the parser, the builder, the checker and the overlays are imported by the loads that
# run them: a load served from the cache (cache.py) needs none of them.
if TYPE_CHECKING:
    from .ir import nodes as n
    from .ir.symbols import Symbols
    from .overlay.apply import AppliedOverlay
    from .overlay.ir import Overlay
    from .runtime.setup import Setup


@dataclass
class Loaded:
    ruleset: n.Ruleset
    symbols: Symbols
    diagnostics: list[Diagnostic]
    overlays: list[AppliedOverlay] = field(default_factory=list)  # in the order applied
    base: n.Ruleset | None = None  # the ruleset before the overlays (the same as `ruleset` without any)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


@contextlib.contextmanager
def unswept():
    """Python's collector of reference cycles paused while a load runs. A load makes some hundred
    thousand IR nodes that all stay alive, and each few hundred allocations made the collector walk
    the ever larger heap again: about a fifth of a cold check. The IR is plain data in a tree (no
    cycles), so nothing is lost: what garbage does form in cycles is swept when the collector runs next.
    That sweep also walks what the load made, once. Not moved into the oldest generation unswept
    (gc.freeze, gc.unfreeze) to save it: garbage in cycles would then wait for full collections, which
    a growing heap makes rare, and a process reading ruleset after ruleset grew to gigabytes."""
    paused = gc.isenabled()
    gc.disable()
    _unswept_at_exit()
    try:
        yield
    finally:
        if paused and not _ends_with_these_loads:
            gc.enable()


_ends_with_these_loads = False


def last_loads() -> None:
    """The loads from now on are the process's last (`umpire check` run as a command, before its last
    file): the collector stays paused once they are done. All they make lives to the process's end,
    when it is set aside unswept (``_unswept_at_exit``), so the one sweep of it that resuming the
    collector brings (0.05-0.09 s for the largest rulesets) would find nothing to free. A process that goes on
    (the language server, the tests, `play`) never calls this."""
    global _ends_with_these_loads
    _ends_with_these_loads = True


@functools.cache
def _unswept_at_exit() -> None:
    """At the process's end, what is alive is set aside from the collector (``gc.freeze``) before
    Python's own last collection walks it: the loads' nodes, kept to the end, made that walk about a
    sixth of a cold `umpire check`. Registered once, by the first load; a process that goes on (the
    language server, the tests) sweeps as before."""
    atexit.register(gc.freeze)


def read(path: str, sources: Sources) -> str:
    """The text of a file, kept in ``sources``; only a regular file of bounded size is read (files.py).
    The cache (cache.py) notes every file read, to key the load's entry by their content."""
    text = files.read_checked(path, sources)
    cache.note_read(path, text)
    return text


def load_rules(path: str, sources: Sources, with_demo: bool = False, overlays: Sequence[str] = (),
               with_errata: bool = False) -> Loaded:
    """Parse and check a rules file and the files it includes; syntax errors raise.

    ``with_demo`` adds the demo data file the game header names (play uses it while the
    published data is missing); its declarations keep their own file in every span.
    ``with_errata`` applies the errata overlay the game header names, then ``overlays``
    (overlay files: errata, house rules) are applied in order (``after`` in an overlay's
    header reorders them); the checker runs on the amended ruleset. This is the one entry
    point of every command that reads a ruleset with overlays (check, run, play, odds).
    The result comes from the cache (cache.py) when no file it was made from has changed.
    """
    with files.entry(path), unswept():
        request = ("rules", path, with_demo, list(overlays), with_errata)
        return cache.through(request, sources, Loaded, _load_rules, path, sources, with_demo, overlays, with_errata,
                             kept=_code_kept)


def _code_kept(loaded: Loaded, entry: cache.CodeEntry) -> None:
    """A ruleset kept by the cache keeps the code compiled from the texts its lowering generates, beside
    it: a new process that plays it compiles none it compiled before (runtime/execution/kept_code.py)."""
    from .runtime.execution import kept_code

    kept_code.keep(loaded.symbols, entry)


def _load_rules(path: str, sources: Sources, with_demo: bool, overlays: Sequence[str], with_errata: bool) -> Loaded:
    from .check.resolve import check_ruleset
    from .ir import nodes as n
    from .ir.trust import trusted
    from .overlay.apply import apply_overlays

    read_files: set[str] = set()
    uses = _Uses()
    decls = _read_rules(path, sources, chain=(), read_files=read_files, uses=uses)
    game = next((d for d in decls if isinstance(d, n.Game)), None)
    if with_demo and game is not None and game.demo_data:
        demo = header_file(game, game.demo_data, files.RULES, "demo data")
        if not os.path.exists(demo):
            raise UmpireError([Diagnostic("error", f"the demo data file {demo} does not exist", game.span)])
        # A harness may include the demo data itself (a demo file of nothing but includes declares
        # nothing of its own, so the files read say so, not the declarations).
        if demo not in read_files:
            decls += _read_rules(demo, sources, chain=(os.path.normpath(path),), uses=uses)
    uses.check()
    with trusted():  # the builder's declarations (ir/trust.py)
        base = n.Ruleset(file=path, decls=tuple(decls))
    applied_files = list(overlays)
    if with_errata and game is not None and game.errata:
        errata = header_file(game, game.errata, files.OVERLAY, "errata")
        if not os.path.exists(errata):
            raise UmpireError([Diagnostic("error", f"the errata file {errata} does not exist", game.span)])
        applied_files.insert(0, errata)
    unique: dict[str, str] = {}  # an overlay named twice (the errata by a scenario too) is applied once
    for f in applied_files:
        unique.setdefault(os.path.realpath(f), os.path.normpath(f))
    if not unique:
        symbols, diags = check_ruleset(base)
        return Loaded(base, symbols, diags, [], base)
    ruleset, overlay_diags, applied = apply_overlays(base, [load_overlay(f, sources) for f in unique.values()])
    symbols, diags = check_ruleset(ruleset)
    symbols.overlays = applied
    return Loaded(ruleset, symbols, overlay_diags + diags, applied, base)


def load_overlay(path: str, sources: Sources) -> Overlay:
    """Parse an overlay file (errata, house rules) into its IR; syntax errors raise."""
    from .overlay.ir import build_overlay
    from .syntax.parse import parse

    with files.entry(path):
        text = read(path, sources)
    return build_overlay(parse(text, path, "overlay_file"), path)


def overlay_paths(scenario: n.Scenario) -> list[str]:
    """The overlays a scenario names ('with "FILE"'), relative to its own folder; a missing file raises."""
    out = []
    for named in scenario.overlays:
        with files.entry(scenario.file):
            path = files.resolve_reference(named.path, scenario.file, files.OVERLAY, named.span, "with")
        if not os.path.exists(path):
            raise UmpireError([Diagnostic("error", f"the overlay '{named.path}' does not exist (looked for {path})", named.span)])
        out.append(path)
    return out


def load_scenario_rules(scenario: n.Scenario, sources: Sources, overlays: Sequence[str] = (),
                        with_errata: bool = False, with_demo: bool = False) -> Loaded:
    """The ruleset a scenario uses, amended by the overlays it names and then by ``overlays``
    (after the game's errata first, with ``with_errata``, as 'play' reads it); with ``with_demo``,
    the game's demo data too (`umpire odds --demo`)."""
    with files.entry(scenario.file):
        return load_rules(rules_path_for(scenario), sources, overlays=overlay_paths(scenario) + list(overlays),
                          with_errata=with_errata, with_demo=with_demo)


@dataclass
class _Uses:
    """The library mechanics a ruleset uses, and those their own files say they need (a library's
    `use OTHER` without a block: its rules read the other mechanic's names)."""

    written: dict[str, n.UseDecl] = field(default_factory=dict)
    needed: list[tuple[n.UseDecl, str]] = field(default_factory=list)

    def check(self) -> None:
        missing = [(use, name) for use, name in self.needed if name not in self.written]
        if missing:
            raise UmpireError([Diagnostic("error", f"'use {use.name}' needs 'use {name}' too: its rules read names that mechanic gives",
                                          use.span, f"add 'use {name} [RULE]' to the rules") for use, name in missing])


def _read_rules(path: str, sources: Sources, chain: tuple[str, ...], read_files: set[str] | None = None,
                uses: _Uses | None = None) -> list:
    """The declarations of one file, each include replaced by the declarations it names and each `use`
    by its library mechanic's; the files read are added to ``read_files``."""
    from .ir import nodes as n

    if read_files is not None:
        read_files.add(os.path.normpath(path))
    text = read(path, sources)
    out: list = []
    for decl in _built(text, path, "rules_file").decls:
        if isinstance(decl, n.UseDecl):  # kept before its declarations: where the game says it uses the mechanic
            out.append(decl)
            out.extend(_used(decl, sources, uses if uses is not None else _Uses()))
            continue
        if isinstance(decl, n.SettingDecl):
            raise UmpireError([Diagnostic("error", f"'setting {decl.name}' is written in a library mechanic, not in a game's rules",
                                          decl.span, f"write 'function {decl.name}(…) = …', or give the setting in a 'use' block")])
        if not isinstance(decl, n.IncludeDecl):
            out.append(decl)
            continue
        target = files.resolve_reference(decl.path, path, files.RULES, decl.path_span or decl.span, "include")
        if target in chain or target == os.path.normpath(path):
            cycle = " -> ".join((*chain, path, target))
            raise UmpireError([Diagnostic("error", f"include cycle: {cycle}", decl.span)])
        if not os.path.exists(target):
            raise UmpireError([Diagnostic("error", f"cannot include '{decl.path}': there is no file {target}", decl.span)])
        out.extend(_read_rules(target, sources, (*chain, os.path.normpath(path)), read_files, uses))
    return out


def _used(use: n.UseDecl, sources: Sources, uses: _Uses) -> list:
    """The declarations of the library mechanic a `use` names, made the game's own (ir/uses.py)."""
    from . import library
    from .ir import nodes as n
    from .ir.uses import expanded

    first = uses.written.get(use.name)
    if first is not None:
        raise UmpireError([Diagnostic("error", f"'use {use.name}' is written twice (first at {first.span.file}:{first.span.line})",
                                      use.span, "a mechanic is used once; give all its settings in one 'use'")])
    uses.written[use.name] = use
    path = library.path_of(use.name)
    text = library.text(path)
    if text is None:
        hint = did_you_mean(use.name, library.names()) or f"the library's mechanics: {', '.join(library.names())}"
        raise UmpireError([Diagnostic("error", f"there is no library mechanic '{use.name}'", use.name_span, hint)])
    sources.add(path, text)
    cache.note_read(path, text)
    decls = _built(text, path, "rules_file").decls
    nested = next((d for d in decls if isinstance(d, n.IncludeDecl) or isinstance(d, n.UseDecl) and d.bindings), None)
    if nested is not None:
        raise UmpireError([Diagnostic("error", "a library mechanic is one file: it includes none, and names the "
                                      "mechanics it needs with a 'use' without a block", nested.span)])
    uses.needed += [(use, d.name) for d in decls if isinstance(d, n.UseDecl)]
    return expanded(use, [d for d in decls if not isinstance(d, n.UseDecl)])


def built(text: str, path: str, start: str):
    """The IR of one file's text as the loader builds it (kept like the loader's): the editors'
    index of names (editors/index.py) reads the files a check read."""
    return _built(text, path, start)


@functools.lru_cache(maxsize=32)
def _built(text: str, path: str, start: str):
    """A file's text parsed and built into its IR (a rules file's declarations, a scenario), kept
    for the rest of the process: the IR is immutable, and `umpire check` reads a ruleset twice (as
    written, then as played: with its demo data and errata), the scenarios of a game share a map."""
    from .ir.build import parse_and_build

    return parse_and_build(text, path, start)


def load_scenario(path: str, sources: Sources, chain: tuple[str, ...] = ()) -> n.Scenario:
    """Parse a scenario file and the files it takes places from; from the cache (cache.py) when
    none of them has changed."""
    from .ir import nodes

    with files.entry(path), unswept():
        if chain:
            return _load_scenario(path, sources, chain)
        return cache.through(("scenario", path), sources, nodes.Scenario, _load_scenario, path, sources, chain)


def check_scenario(scenario: n.Scenario, symbols: Symbols) -> list[Diagnostic]:
    """A scenario checked against its ruleset (`set_up_and_checked`), its diagnostics alone."""
    return set_up_and_checked(scenario, symbols)[1]


def set_up_and_checked(scenario: n.Scenario, symbols: Symbols) -> tuple[Setup | None, list[Diagnostic]]:
    """A scenario checked against its ruleset: the checker's static checks, then its set-up run on an
    engine of its own, which reports an unknown type, place or stat, or a printed value the scenario
    overrides, in the set-up's own words; the places and coasts it sets up are what the expectations
    and the rules' coast ends are checked against. The checker runs nothing itself: the set-up is the
    runtime's, and this is the one place that joins the two. The set-up (None when it failed) is handed
    on to the command that runs the scenario, which runs on its engine: a scenario is set up once."""
    from .check.scenario import check_set_up, static_checks
    from .runtime.common.requests import ScriptError
    from .runtime.execution.engine import Engine
    from .runtime.games.setup import Setup

    diags = static_checks(scenario, symbols, lambda: _demo_symbols(scenario))
    set_up = Setup(Engine(symbols), scenario)
    try:
        set_up.run()
    except ScriptError as err:
        return None, [*diags, Diagnostic("error", err.message, err.span or scenario.span, err.hint)]
    state = set_up.engine.state
    coasts = {name: [place.id for place in listed] for name, listed in state.coasts.items()}
    return set_up, diags + check_set_up(scenario, symbols, state.places, coasts)


def _demo_symbols(scenario: n.Scenario) -> Symbols | None:
    """The symbols of the scenario's ruleset read with its game's demo data, as 'umpire play' reads it
    (None when that reading fails: its own errors are reported where it is read)."""
    try:
        return load_rules(rules_path_for(scenario), Sources(), with_demo=True).symbols
    except UmpireError:
        return None


def _load_scenario(path: str, sources: Sources, chain: tuple[str, ...]) -> n.Scenario:
    text = read(path, sources)
    scenario = _built(text, path, "scenario_file")
    return _with_shared_places(scenario, sources, (*chain, os.path.normpath(path))) if scenario.places_from else scenario


def _with_shared_places(scenario: n.Scenario, sources: Sources, chain: tuple[str, ...]) -> n.Scenario:
    """'places from "FILE"': the places and links of another scenario file come first; a place the
    scenario's own block names again takes the values given there (a marker on a shared map)."""
    places: dict[str, n.PlaceDef] = {}
    adjacency: list[n.Adjacency] = []
    map_data: list[n.MapData] = []
    notes: list[str] = []
    stands_in: list[n.StandsIn] = []
    for named in scenario.places_from:
        rel, span = named.path, named.span
        target = files.resolve_reference(rel, scenario.file, files.SCENARIO, span, "places from")
        if target in chain:
            raise UmpireError([Diagnostic("error", f"places from a cycle: {' -> '.join((*chain, target))}", span)])
        if not os.path.exists(target):
            raise UmpireError([Diagnostic("error", f"cannot take places from '{rel}': there is no file {target}", span)])
        shared = load_scenario(target, sources, chain)
        for pd in shared.places:
            if pd.id in places:
                raise UmpireError([Diagnostic("error", f"place {pd.id} comes from two shared files", span)])
            places[pd.id] = pd
        adjacency.extend(shared.adjacency)
        map_data.extend(shared.map_data)
        stands_in.extend(shared.stands_in)  # a demo map stays one wherever its places are used
        notes.append(f"places from {rel}: {shared.title} ({len(shared.places)} places)")
    own: list[n.PlaceDef] = []
    for pd in scenario.places:
        base = places.get(pd.id)
        if base is None:
            own.append(pd)
            continue
        given = {v.name for v in pd.values}
        values = tuple(v for v in base.values if v.name not in given) + pd.values
        places[pd.id] = base.model_copy(update={"values": values, "name": pd.name or base.name, "note": pd.note or base.note, "at": pd.at or base.at})
    return scenario.model_copy(update={"places": tuple(places.values()) + tuple(own),
                                       "adjacency": tuple(adjacency) + scenario.adjacency,
                                       "map_data": tuple(map_data) + scenario.map_data,
                                       "notes": tuple(notes) + scenario.notes,
                                       "stands_in": tuple(stands_in) + scenario.stands_in})


def rules_path_for(scenario: n.Scenario) -> str:
    """A scenario names its ruleset relative to its own folder; a refused path raises (files.py)."""
    with files.entry(scenario.file):
        return files.resolve_reference(scenario.uses, scenario.file, files.RULES, scenario.uses_span, "uses")


def header_file(game: n.Game, relative: str, kind: files.Kind, construct: str) -> str:
    """A file the game header names (demo data, demo setup, errata, a scenario), checked as a reference."""
    with files.entry(game.span.file):
        return files.resolve_reference(relative, game.span.file, kind, game.span_of(relative), construct)


# ─────────────── a path made ready to run: the scenario or set-up and its checked ruleset ───────────────
# Every command that runs or plays a game, and the study's workers, start here.


def scenario_and_rules(path: str, sources: Sources, overlays: list[str] = (), with_errata: bool = False,
                       with_demo: bool = False):
    """The scenario, its ruleset amended by the overlays the scenario names and then ``overlays``, every
    diagnostic of both, and the scenario set up for its check (None when it was not: `set_up_and_checked`)."""
    scenario = load_scenario(path, sources)
    rules = rules_path_for(scenario)
    if not os.path.exists(rules):
        cache.note_absent(rules)  # a checked verdict kept by the cache holds until the file appears
        missing = Diagnostic("error", f"the ruleset '{scenario.uses}' does not exist (looked for {rules})", scenario.uses_span)
        return scenario, None, [missing], None
    loaded = load_scenario_rules(scenario, sources, overlays, with_errata=with_errata, with_demo=with_demo)
    if loaded.errors:
        return scenario, loaded, loaded.errors, None
    set_up, diags = set_up_and_checked(scenario, loaded.symbols)
    return scenario, loaded, diags, set_up


def stop_on_errors(diags: list[Diagnostic]) -> None:
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise UmpireError(errors)


def prepared_scenario(path: str, sources: Sources, overlays: list[str], with_demo: bool = False):
    """The scenario, its checked ruleset and its set-up (the check's: the run goes on from it), ready to
    run; an UmpireError with the errors otherwise."""
    scenario, loaded, diags, set_up = scenario_and_rules(path, sources, overlays, with_demo=with_demo)
    stop_on_errors(diags)
    if scenario.run is None:  # the check lets a file of places alone through: it is a shared map
        raise UmpireError([Diagnostic("error", "this file holds places alone (a shared map): it has no 'run' line to run",
                                      scenario.span, "'umpire check' checks it; a scenario takes its places with "
                                      "'places from \"FILE\"' and runs them")])
    return scenario, loaded, set_up


def ready_scenario(path: str, sources: Sources, overlays: list[str], with_demo: bool = False):
    """The scenario, its checked ruleset and its set-up, ready to run, or None once the errors are printed."""
    try:
        return prepared_scenario(path, sources, overlays, with_demo)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return None


def game_to_play(path: str, sources: Sources, overlays, errata: bool, choice: str | None):
    """The set-up (a scenario, the demo set-up or a named scenario), the checked ruleset to play, and the
    position its check set up (None without a set-up: the game starts from an empty position)."""
    set_up = None
    if path.endswith(".scenario"):
        scenario, loaded, diags, set_up = scenario_and_rules(path, sources, overlays, with_errata=errata)
    else:
        scenario, loaded = None, load_rules(path, sources, with_demo=True, with_errata=errata, overlays=overlays)
        diags = loaded.diagnostics
        setup = chosen_setup(loaded.symbols.game, choice) if not loaded.errors else None
        if setup is not None:
            scenario = load_scenario(setup, sources)
            if scenario.overlays:  # a set-up with rules of its own (a scenario's overlay): played with them
                scenario, loaded, diags, set_up = scenario_and_rules(setup, sources, overlays, with_errata=errata, with_demo=True)
            else:
                set_up, checked = set_up_and_checked(scenario, loaded.symbols)
                diags = diags + checked
    stop_on_errors(diags)
    return scenario, loaded, set_up


def chosen_setup(game: n.Game | None, choice: str | None) -> str | None:
    """The set-up file to play from: the scenario the header names as `choice`, else the demo set-up."""
    if game is None:
        if choice:
            from .syntax.spans import NO_SPAN

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
