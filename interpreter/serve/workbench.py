"""What the workbench holds: the files it may open, the scenario runs opened (a picture of the
position after every trace line), the rules' lines for a citation, and the odds asked.

Every answer comes from the engine's own functions, as the commands call them: a scenario is run as
`umpire explain` runs it (numbered lines, the statement behind each), pictured as `umpire draw --at N`
pictures it, a citation read as `umpire rule` reads it, the odds asked as `umpire odds` asks them.
Nothing here knows any game. A file that cannot be read is refused with the command line's own
diagnostics (WorkbenchError carries them, app.py sends them as JSON).
"""

from __future__ import annotations

import itertools
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from .. import files
from ..ir import citations
from ..limits import SERVE_KEPT_RUNS
from ..syntax.diagnostics import NO_SPAN, Diagnostic, Sources, UmpireError, render


class WorkbenchError(Exception):
    """A request refused: its diagnostics, rendered as the command line renders them, and a status."""

    def __init__(self, diagnostics: list[Diagnostic], sources: Sources | None = None, status: int = 400):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics, self.sources, self.status = diagnostics, sources or Sources(), status

    @classmethod
    def saying(cls, message: str, status: int = 400, hint: str | None = None) -> WorkbenchError:
        return cls([Diagnostic("error", message, NO_SPAN, hint)], status=status)

    def as_json(self) -> dict:
        from ..report_json import diagnostic

        return {"error": self.diagnostics[0].message if self.diagnostics else "refused",
                "diagnostics": [diagnostic(d) | {"text": render(d, self.sources)} for d in self.diagnostics]}


def sections_of(cite: str) -> list[str]:
    """The rulebook's sections a citation names (its rulings and examples are no sections)."""
    return list(citations.names(cite)[0])


# ─────────────────────────────── the files ───────────────────────────────

OPENED = (files.RULES, files.SCENARIO, files.SAVE)


class Library:
    """The folders the workbench may read: the working folder, the folder of the file it was started
    with, and each --allow-path folder (the sandbox of a command's run, docs/safety.md)."""

    def __init__(self, start: str | None, allowed: list[str]):
        self.start = start
        self.box = files.Sandbox.for_run([start] if start else [], allowed)

    def listing(self) -> dict:
        """The rulesets and scenarios under the working folder (rulesets/*.rules, scenarios/*/…), and the
        house rules a game may be played with; a save is opened by its path."""
        import glob

        found = {name: sorted(p for pattern in patterns for p in glob.glob(pattern, recursive=True) if "/traces/" not in p)
                 for name, patterns in (("rulesets", ["rulesets/*.rules"]), ("scenarios", ["scenarios/**/*.scenario"]),
                                        ("overlays", ["rulesets/**/*.house", "rulesets/**/*.overlay"]))}
        return found | {"start": self.start}

    def admitted(self, path: str) -> str:
        """The path, when it is a file the workbench opens (a ruleset, scenario or save inside its
        folders); refused with the command line's message otherwise."""
        try:
            files.command_line_file(path, "the workbench opens", OPENED)
        except UmpireError as err:
            raise WorkbenchError(err.diagnostics) from None
        if not self.box.admits(os.path.realpath(path)):
            raise WorkbenchError.saying(f"'{path}' is outside the folders the workbench may read ({self.box.shown()})",
                                        hint="start it with --allow-path FOLDER to open files there")
        if not os.path.isfile(path):
            raise WorkbenchError.saying(f"{path}: no such file", 404)
        return path

    def overlay(self, path: str) -> str:
        """An overlay a game is played with (`--with`): an errata or house-rule file inside the folders."""
        try:
            files.command_line_file(path, "--with names", (files.OVERLAY,))
        except UmpireError as err:
            raise WorkbenchError(err.diagnostics) from None
        if not self.box.admits(os.path.realpath(path)):
            raise WorkbenchError.saying(f"'{path}' is outside the folders the workbench may read ({self.box.shown()})")
        return path

    def reading(self, path: str):
        """The sandbox a file opened is read in: the workbench's folders and the file's own."""
        return files.sandbox(self.box.with_files([path]))


# ─────────────────────────────── a scenario run ───────────────────────────────


@dataclass
class Run:
    """A scenario run as `umpire explain` runs it, with the scene after every line (0: the set-up)."""

    id: str
    path: str
    side: str | None
    ruleset: str
    title: str
    lines: list[dict]
    scenes: list = field(default_factory=list)
    moments: list[str] = field(default_factory=list)
    board: object = None
    result: list[str] = field(default_factory=list)
    error: str | None = None
    sides: list[str] = field(default_factory=list)
    stands_in: list[str] = field(default_factory=list)

    def summary(self) -> dict:
        return {"kind": "scenario", "id": self.id, "path": self.path, "side": self.side, "ruleset": self.ruleset,
                "title": self.title, "lines": self.lines, "moments": len(self.scenes) - 1, "result": self.result,
                "error": self.error, "sides": self.sides, "rests_on": self.stands_in}

    def picture(self, at: int) -> str:
        from ..picture import svg

        if not 0 <= at < len(self.scenes):
            raise WorkbenchError.saying(f"no trace line {at}: the trace has {len(self.scenes) - 1} lines", 404)
        return svg.draw(self.scenes[at], self.board).as_svg()


def explained_line(number: int, event, sources: Sources) -> dict:
    """A trace line as `umpire explain` numbers and explains it, with the sections its citation names."""
    where = event.where
    source = sources.line(where.file, where.line) if where is not None else None
    return {"n": number, "cite": event.cite, "text": event.text, "detail": event.detail,
            "sections": sections_of(event.cite),
            "where": f"{where.file}:{where.line}" if where is not None else None,
            "source": source.strip() if source else None, "within": list(event.within),
            "consulted": list(event.consulted)}


def moment(engine, number: int) -> str:
    """The moment a scene shows, as `umpire draw --at N` names it."""
    if number == 0:
        return "the set-up"
    line = engine.events[number - 1].line()
    return f"after line {number}: {line if len(line) <= 90 else line[:89] + '…'}"


class Runs:
    """The scenario runs opened, the latest kept (limits.SERVE_KEPT_RUNS)."""

    def __init__(self, library: Library):
        self.library = library
        self.kept: OrderedDict[str, Run] = OrderedDict()
        self.ids = itertools.count(1)
        self.lock = threading.Lock()

    def get(self, run_id: str) -> Run:
        run = self.kept.get(run_id)
        if run is None:
            raise WorkbenchError.saying(f"no scenario run '{run_id}' is open (open the scenario again)", 404)
        return run

    def open(self, path: str, side: str | None) -> Run:
        with self.library.reading(path):
            run = self._run(path, side)
        with self.lock:
            self.kept[run.id] = run
            while len(self.kept) > SERVE_KEPT_RUNS:
                self.kept.popitem(last=False)
        return run

    def _run(self, path: str, side: str | None) -> Run:
        from ..load import prepared_scenario, rules_path_for
        from ..picture import layout, scene
        from ..runtime.games.scenario import run_scenario
        from ..runtime.games.stands_in import stands_in

        sources = Sources()
        try:
            scenario, loaded, set_up = prepared_scenario(path, sources, [])
        except UmpireError as err:
            raise WorkbenchError(err.diagnostics, sources) from None
        sym = loaded.symbols
        known_side(side, sym.sides)
        run = Run(f"r{next(self.ids)}", path, side, rules_path_for(scenario), scenario.title, [], sides=list(sym.sides),
                  stands_in=list(stands_in(scenario, sym)))

        def watch(engine, number: int) -> None:
            if run.board is None:
                run.board = layout.board_of(engine, scenario)
            run.scenes.append(scene.take(engine, scenario.title, moment(engine, number), side))

        outcome = run_scenario(scenario, sym, sources, explain=True, watch=watch, side=side, set_up=set_up)
        run.lines = [explained_line(i, e, sources) for i, e in enumerate(outcome.events, start=1)]
        run.result = [line for line in outcome.lines[outcome.lines.index("expectations:"):]] \
            if "expectations:" in outcome.lines else []
        run.error = render(outcome.error, sources) if outcome.error is not None else None
        return run


def known_side(side: str | None, sides) -> None:
    """A side named must be one of the game's (as `--side` is checked)."""
    from ..syntax.diagnostics import did_you_mean

    if side is not None and side not in sides:
        hint = did_you_mean(side, list(sides)) or f"its sides are {', '.join(sides)}"
        raise WorkbenchError.saying(f"the game has no side '{side}'", hint=hint)


# ─────────────────────────────── a citation ───────────────────────────────


class Rules:
    """The lines of a ruleset that encode a section, as `umpire rule` prints them (its loads kept)."""

    def __init__(self, library: Library):
        self.library = library
        self.loaded: dict[str, tuple] = {}
        self.lock = threading.Lock()

    def encoding(self, ruleset: str, section: str) -> dict:
        from ..cli.rule import encoding

        if not section.strip():
            raise WorkbenchError.saying("name a section of the rulebook (9.1)")
        decls, sources = self._loaded(ruleset)
        found = encoding(ruleset, section.strip(), decls, sources)
        if isinstance(found, str):
            raise WorkbenchError.saying(found, 404)
        return {"ruleset": ruleset, "section": section, "heading": found.heading, "places": found.places}

    def _loaded(self, ruleset: str) -> tuple:
        from ..load import load_rules

        if not ruleset.endswith(".rules"):
            raise WorkbenchError.saying(f"'{ruleset}' is not a rules file (.rules)")
        with self.lock:
            if ruleset not in self.loaded:
                self.library.admitted(ruleset)
                sources = Sources()
                with self.library.reading(ruleset):
                    try:
                        loaded = load_rules(ruleset, sources, with_demo=True)
                    except UmpireError as err:
                        raise WorkbenchError(err.diagnostics, sources) from None
                self.loaded[ruleset] = (loaded.ruleset.decls, sources)
            return self.loaded[ruleset]
