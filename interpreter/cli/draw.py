"""`umpire draw`, `play --draw DIR` and `explain --draw FILE`: pictures of positions (interpreter/picture/).

A scenario is run as `umpire run` runs it, and the picture is taken at the moment asked: the
set-up (the default), after trace line N or the first line holding a text (numbered as `umpire
explain` numbers them), at the end of the run, or before and after a step of the sequence of
play. A rules file is drawn at its demo set-up, or at the set-up of a scenario its header names
(`--scenario NAME`, as `play` takes it). No file is written over unless `--force`.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from ..digits import is_number
from ..load import game_to_play, ready_scenario
from ..saves import output_refusal
from ..syntax.diagnostics import Sources, UmpireError, render, render_all
from ..writing import WriteError, write_file


@dataclass
class DrawArgs:
    path: str
    at: str | None = None  # N, TEXT, 'end', or None: the set-up
    side: str | None = None
    out: str | None = None
    force: bool = False
    step: str | None = None
    overlays: tuple[str, ...] = ()
    scenario: str | None = None  # a rules file's set-up by the name its header gives it


def cmd_draw(a: DrawArgs) -> int:
    targets = _targets(a)
    # Options that do not go together, and a file that must not be written (as a save's or a
    # study's), are refusals of what was asked, exit 1: argparse's exit 2 is for a command line
    # it cannot read.
    refused = _option_problem(a) or next((p for t in targets if (p := output_problem(t, a.force))), None)
    if refused:
        print(f"umpire: error: {refused}", file=sys.stderr)
        return 1
    sources = Sources()
    try:
        drawn = _rules_pictures(a, sources) if a.path.endswith(".rules") else _scenario_pictures(a, sources)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources), file=sys.stderr)
        return 1
    if isinstance(drawn, str):
        if drawn:  # else the errors are printed already
            print(f"umpire: error: {drawn}", file=sys.stderr)
        return 1
    try:
        for target, drawing in zip(targets, drawn):
            write(drawing, target, a.force)
    except WriteError as err:
        print(f"umpire: error: {err.message}", file=sys.stderr)
        return 1
    return 0


def _targets(a: DrawArgs) -> list[str]:
    out = a.out or f"{Path(a.path).stem}.svg"
    if a.step is None:
        return [out]
    base = out[:-4] if out.lower().endswith(".svg") else out
    return [f"{base}_before.svg", f"{base}_after.svg"]


def _option_problem(a: DrawArgs) -> str | None:
    if a.at is not None and a.step is not None:
        return "--at and --step each choose the moment drawn: give one of them"
    if a.scenario is not None and not a.path.endswith(".rules"):
        return "--scenario names one of the set-ups a game header lists: give the rules file, or draw the scenario file"
    if a.path.endswith(".rules") and (a.at is not None or a.step is not None):
        return "a rules file is drawn at its demo set-up: --at and --step choose a moment of a scenario's run"
    if a.at is not None and not a.at.strip():
        return "--at needs a line number, a text of the line, or 'end'"
    return None


def output_problem(path: str, force: bool) -> str | None:
    """Why a picture must not be written to ``path``, or None."""
    if not path.strip() or "\0" in path:
        return "a picture needs a file name"
    problem = output_refusal(path, force, (".svg",), "a picture")
    if problem == f"{path} must end in .svg":
        return f"{path}: a picture is an SVG file: name it .svg"
    return problem


def write(drawing, path: str, force: bool) -> None:
    write_file(path, drawing.as_svg(), force)
    print(f"picture written to {path}")


def _side_problem(sym, side: str | None) -> str | None:
    from ..syntax.diagnostics import did_you_mean

    if side is None or side in sym.sides:
        return None
    return f"--side: the game has no side '{side}'; " + (did_you_mean(side, list(sym.sides)) or
                                                          f"its sides are {', '.join(sym.sides)}")


def _rules_pictures(a: DrawArgs, sources: Sources):
    """A rules file: the picture of its demo set-up, or of the header's scenario named (an empty map when none)."""
    from ..picture import layout, scene, svg
    from ..runtime.execution.engine import Engine

    setup, loaded, set_up = game_to_play(a.path, sources, list(a.overlays), True, a.scenario)
    problem = _side_problem(loaded.symbols, a.side)
    if problem:
        return problem
    engine = set_up.engine if set_up is not None else Engine(loaded.symbols)  # the check's set-up, drawn
    engine.sources = sources
    _say_stands_in(setup, loaded.symbols)
    title = setup.title if setup is not None else (loaded.symbols.game.title if loaded.symbols.game else a.path)
    taken = scene.take(engine, title or a.path, "the set-up", a.side)
    return [svg.draw(taken, layout.board_of(engine, setup))]


def _say_stands_in(setup, sym) -> None:
    """A picture of a demo map or demo counters says so, as an odds answer does (runtime/games/stands_in.py)."""
    from ..runtime.games.stands_in import stands_in

    print("".join(f"rests on: {line}\n" for line in stands_in(setup, sym)), end="")


def _scenario_pictures(a: DrawArgs, sources: Sources):
    """A scenario: run it, taking the scenes asked on the way."""
    from ..runtime.games.scenario import run_scenario

    ready = ready_scenario(a.path, sources, list(a.overlays))
    if ready is None:
        return ""  # the errors are printed
    scenario, loaded, set_up = ready
    problem = _side_problem(loaded.symbols, a.side)
    if problem:
        return problem
    _say_stands_in(scenario, loaded.symbols)
    camera = Camera(scenario, a.side, a.at, a.step)
    outcome = run_scenario(scenario, loaded.symbols, sources, watch=camera.watch, side=a.side, set_up=set_up)
    done = camera.done()
    if outcome.error is not None:
        print(render(outcome.error, sources), file=sys.stderr)
        if not done:
            return "the run stopped on the error above before the moment asked"
        print("umpire: the run stopped on the error above; the picture shows the moment asked before it", file=sys.stderr)
    return camera.pictures() if done else camera.missed(outcome.events)


class Camera:
    """Takes the scenes asked of a scenario's run as it goes (the engine's state changes after)."""

    def __init__(self, scenario, side: str | None, at: str | None, step: str | None):
        self.scenario, self.side, self.at, self.step = scenario, side, at, step
        self.scenes: dict[str, object] = {}
        self.board = None
        self.last: tuple | None = None  # --at end: the engine and its last line, taken once the run is over
        self.closed = False  # --step: the step has begun and ended

    def watch(self, engine, number: int) -> None:
        from ..picture import layout

        if self.board is None:
            self.board = layout.board_of(engine, self.scenario)
        if self.step is not None:
            self._watch_step(engine, number)
        elif self.at == "end":
            self.last = (engine, number)  # taken once the run is over: the state then is the end
        elif "picture" not in self.scenes and self._is_moment(engine, number):
            self.scenes["picture"] = self._take(engine, self._moment(engine, number))

    def _is_moment(self, engine, number: int) -> bool:
        if self.at is None:
            return number == 0
        if is_number(self.at):
            return number == int(self.at)
        return number > 0 and self.at.lower() in engine.events[number - 1].line().lower()

    def _watch_step(self, engine, number: int) -> None:
        """Before: the first moment the clock stands at the step; after: the last moment it still does
        (taken at every line of the step, since the next line may already be past it)."""
        if self.closed:
            return
        if engine.state.step != self.step:
            self.closed = "before" in self.scenes
            return
        if "before" not in self.scenes:
            self.scenes["before"] = self._take(engine, self._moment(engine, number, f"as step {self.step} begins"))
        self.scenes["after"] = self._take(engine, self._moment(engine, number, f"as step {self.step} ends"))

    def _moment(self, engine, number: int, what: str | None = None) -> str:
        if number == 0:
            return what or "the set-up"
        line = engine.events[number - 1].line()
        return (what + ", " if what else "") + f"after line {number}: {line}"  # the picture wraps it whole

    def _take(self, engine, moment: str):
        from ..picture import scene

        return scene.take(engine, self.scenario.title, moment, self.side)

    def done(self) -> bool:
        if self.step is not None:
            return "after" in self.scenes
        if self.at == "end" and self.last is not None and "picture" not in self.scenes:
            engine, number = self.last
            self.scenes["picture"] = self._take(engine, self._moment(engine, number, "the end of the run"))
        return "picture" in self.scenes

    def pictures(self) -> list:
        from ..picture import svg

        names = ("before", "after") if self.step is not None else ("picture",)
        return [svg.draw(self.scenes[name], self.board) for name in names]

    def missed(self, events) -> str:
        if self.step is not None:
            return f"the run never stands at a step '{self.step}' (the clock's step names it)"
        return f"no trace line matches '{self.at}' (the trace has {len(events)} lines)"


class TurnPictures:
    """`play --draw DIR`: the position as each turn begins (DIR/turn-01.svg …) and once the game is over
    (DIR/end.svg), each written as it is taken; as ``side`` sees it, or the whole position (None). A
    picture that cannot be written stops the pictures, not the game: ``failed`` says why."""

    def __init__(self, folder: str, setup, title: str, side: str | None = None, force: bool = False):
        self.folder, self.setup, self.title, self.side, self.force = folder, setup, title, side, force
        self.board = None
        self.written: list[str] = []
        self.failed: str | None = None

    @staticmethod
    def problem(folder: str, force: bool) -> str | None:
        """Why the pictures must not be written into ``folder`` (checked before the game is played)."""
        if not folder.strip() or "\0" in folder:
            return "--draw needs a folder name"
        target = Path(folder)
        if target.exists() and not target.is_dir():
            return f"--draw: {folder} is not a folder"
        if not target.exists():
            parent = target.parent if str(target.parent) else Path(".")
            if not parent.is_dir():
                return f"--draw: the folder {parent} does not exist"
            return None if os.access(parent, os.W_OK) else f"--draw: the folder {parent} cannot be written to"
        if not os.access(target, os.W_OK):
            return f"--draw: the folder {folder} cannot be written to"
        taken = sorted(p.name for p in target.iterdir() if p.name == "end.svg" or (p.name.startswith("turn-")
                                                                                  and p.suffix == ".svg"))
        if taken and not force:
            return f"--draw: {folder} already holds pictures ({taken[0]}…): use --force to replace them"
        return None

    def watch(self, engine, label: tuple) -> None:
        """Told as each segment of the game begins (its clock set, none of its rules run yet): a turn's
        start, or for a set-up that starts inside a turn its first step, is the position as that turn
        begins; the game's end is the last picture."""
        from ..picture import layout

        if self.board is None:
            self.board = layout.board_of(engine, self.setup)
        if label[0] == "game_over":
            self._write(engine, "end.svg", "the end of the game")
        elif label[0] == "turn_start" or (not self.written and label[0] == "step"):
            self._write(engine, f"turn-{label[1]:02d}.svg", f"as turn {label[1]} begins")

    def _write(self, engine, name: str, moment: str) -> None:
        from ..picture import scene, svg

        if self.failed:
            return
        path = os.path.join(self.folder, name)
        try:
            os.makedirs(self.folder, exist_ok=True)
            write_file(path, svg.draw(scene.take(engine, self.title, moment, self.side), self.board).as_svg(), self.force)
        except OSError as err:
            self.failed = f"cannot make the folder {self.folder}: {err.strerror or err}"
            return
        except WriteError as err:
            self.failed = err.message
            return
        self.written.append(path)
