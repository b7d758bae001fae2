"""`umpire odds SAVE.toml`: the odds of what the rules record from a saved game's position to a horizon.

The save is read as `umpire play --load` reads it (every field checked, its game files read as if
named on the command line), its position put back on the game it was played with (its overlays, its
errata), and the question asked as of a scenario (cli/odds.py): the estimate, the exact enumeration or
its refusal, `--monte-carlo N`. The header says where the position stands (turn, phase, step, the
decision it waits for and its options) and the horizon (`--until`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from .. import files
from ..style import enabled
from ..syntax.diagnostics import Diagnostic, Sources, UmpireError, render, render_all
from .odds import OddsArgs, answer, decide_answers


@dataclass
class SavedGame:
    """A save read for its odds: the set-up and rules it was played with, and where it stands."""

    path: str
    title: str
    ruleset: str
    setup: object
    symbols: object
    decisions: int
    start: object  # runtime/odds/from_position.FromPosition


class SaveRefused(Exception):
    """A save the odds cannot start from, said in one line (its diagnostics, when it has them, printed)."""

    def __init__(self, message: str | None, printed: bool = False):
        super().__init__(message)
        self.message, self.printed = message, printed


def read_saved_game(path: str, until: str, sources: Sources) -> tuple[SavedGame, object]:
    """The save at ``path`` read and its game loaded (in the sandbox the save's files make, which is
    given back for the rest of the work: `files.sandbox(box)`); SaveRefused says why not."""
    from .. import saves
    from ..load import game_to_play
    from ..runtime.games.play import AGENT_KINDS
    from ..runtime.odds.from_position import FromPosition
    from .play import read_save

    try:
        save = read_save(path, AGENT_KINDS)
    except saves.SaveError as err:
        raise SaveRefused(f"{path}: {err.message}") from None
    except UmpireError as err:
        raise SaveRefused(f"{path}: {err.diagnostics[0].message}") from None
    if save.position is None or save.goes_on is None:
        raise SaveRefused(f"{path}: this save holds no position (an older format, replayed from its seed when loaded): "
                          f"load it and save it again with 'umpire play --load {path} --save NEW.toml'")
    box = files.current().with_files([save.file, *save.overlays], [save.root] if save.root else [])
    with files.sandbox(box):
        try:
            setup, loaded, _ = game_to_play(save.file, sources, save.overlays, save.errata, save.scenario or None)
        except UmpireError as err:
            print(render_all(err.diagnostics, sources, colour=enabled(sys.stderr)), file=sys.stderr)
            raise SaveRefused(None, printed=True) from None
    sym = loaded.symbols
    title = setup.title if setup is not None else (sym.game.title or sym.game.name) if sym.game else save.file
    start = FromPosition(save.position, tuple(save.goes_on["segment"]), until)
    return SavedGame(path, title, save.file, setup, sym, save.head.get("decisions", 0), start), box


def decision_line(req) -> str:
    """The decision the position waits for, with its options as the rules name them."""
    from ..runtime.common.values import show

    options = ", ".join(show(o) for o in req.options[:12]) + (", …" if len(req.options) > 12 else "")
    optional = "; it may be declined (pass)" if req.optional else ""
    return f"decision: {req.chooser} decides '{req.name}' [{req.cite}]: {options}{optional}"


def header(game: SavedGame, req, measured: str) -> list[str]:
    from ..overlay.apply import header_line

    start = game.start
    lines = [f"odds: from the position of {game.path} ({game.title}), before decision {game.decisions + 1}",
             f"played from: {game.ruleset}"]
    lines += [header_line(game.symbols.overlays)] if game.symbols.overlays else []
    lines.append(f"from: {start.where()}")
    lines += [decision_line(req)] if req is not None else []
    return lines + [f"until: {start.horizon()}", f"measured: {measured}"]


def measured(facts: list[str] | None) -> str:
    if facts:
        return "the facts named by --fact"
    return "every fact the rules record after the position, before the horizon (--fact NAME to choose others)"


def cmd_odds_position(a: OddsArgs) -> int:
    from ..runtime.execution.engine import Engine
    from ..runtime.odds.from_position import PositionProblem
    from ..runtime.odds.odds import OddsError

    if a.overlays or a.demo or a.list_facts or a.all_facts:
        given = "--with" if a.overlays else "--demo" if a.demo else "--list-facts" if a.list_facts else "--all-facts"
        print(f"umpire: error: {given} is for a scenario: a saved game is measured with the rules, overlays and "
              f"data it was played with, and every fact recorded after its position", file=sys.stderr)
        return 1
    sources = Sources()
    try:
        game, box = read_saved_game(a.path, a.until or "step", sources)
    except SaveRefused as err:
        if not err.printed:
            print(f"umpire: error: {err.message}", file=sys.stderr)
        return 1
    with files.sandbox(box):
        try:
            decide = decide_answers(a.decide, game.symbols.sides)
            if a.mc_runs is not None and a.mc_runs < 1:
                raise OddsError(f"--monte-carlo takes a number of runs of at least 1, not {a.mc_runs}")
            req = game.start.pending(Engine(game.symbols, sources), game.setup)
        except (OddsError, PositionProblem) as err:
            print(f"umpire: error: {a.path}: {err.message}" if isinstance(err, PositionProblem)
                  else f"umpire: error: {err.message}", file=sys.stderr)
            return 1
        a.start = game.start
        print("\n".join(header(game, req, measured(a.facts))), flush=True)
        try:
            return answer(a, game.setup, game.symbols, sources, a.facts or None, a.policy or "first", decide)
        except PositionProblem as err:
            print(f"umpire: error: {a.path}: {err.message}", file=sys.stderr)
            return 1
        except OddsError as err:
            span = err.span
            if span is None:
                print(f"umpire: error: {err.message}" + (f"\n  hint: {err.hint}" if err.hint else ""), file=sys.stderr)
            else:
                print(render(Diagnostic("error", err.message, span, err.hint), sources, colour=enabled(sys.stderr)),
                      file=sys.stderr)
            return 1
