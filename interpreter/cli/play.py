"""`umpire play`: a whole game with seeded dice and agents, a person among them or not; saved and
resumed (saves.py), its turns drawn with --draw (draw.py)."""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from typing import Any

from .. import files, progress
from ..lang import agent_known
from ..load import game_to_play
from ..style import enabled, printable
from ..syntax.diagnostics import Sources, UmpireError, render, render_all
from ..writing import WriteError


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
    draw: str | None = None  # --draw DIR: a picture as each turn begins (draw.TurnPictures)


def cmd_play(path: str | None, seed: int, agents: str, save: str | None = None, stop_after: int | None = None,
             load: str | None = None, overlays: list[str] = (), errata: bool = True, choice: str | None = None,
             detail: bool = False, force: bool = False, verify: bool = False, draw: str | None = None) -> int:
    from .. import saves
    from ..runtime.games.play import AGENT_KINDS

    try:
        resume = read_save(load, AGENT_KINDS) if load else None
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


def read_save(load: str, agent_kinds: tuple[str, ...]):
    """The saved game to resume, its game files checked as command-line files."""
    from .. import saves

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
        from .draw import TurnPictures

        return TurnPictures.problem(args.draw, args.force)
    return None


def _save_scope(args: _PlayArgs):
    """A loaded save's game files are read as if named on the command line (their folders become roots)."""
    resume = args.resume
    if resume is None:
        return contextlib.nullcontext()
    return files.sandbox(files.current().with_files([args.path, *args.overlays], [resume.root] if resume.root else []))


def _play(args: _PlayArgs) -> int:
    from ..runtime.games.stopping import stopped_like_ctrl_c

    with stopped_like_ctrl_c():  # SIGTERM and SIGHUP stop the game as Ctrl-C does (docs/safety.md §3)
        return _play_game(args)


def _play_game(args: _PlayArgs) -> int:
    from ..runtime.games.play import play

    sources = Sources()
    ready = _ready_game(args, sources)
    if ready is None:
        return 1
    scenario, loaded, applied, set_up = ready
    resume = args.resume
    human = "human" in args.kinds
    pictures = _turn_pictures(args.draw, scenario, loaded.symbols, args.kinds, args.force) if args.draw else None
    # The narration is shown as it is played; on a terminal, below it a bar of the turns played, unless a
    # person plays (the prompts are theirs to read).
    turns = contextlib.nullcontext(None) if human else progress.counting(None, "turn", " turns")
    with turns as update:
        terminal = _terminal(update and (lambda turn, last: update(turn - 1, total=last)))
        game = play(loaded.symbols, sources, scenario, args.seed, args.kinds, terminal=terminal,
                    stop_after=args.stop_after, resume=resume and resumed(resume), detail=args.detail,
                    watch=pictures.watch if pictures else None, set_up=set_up)
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
    from ..runtime.games.play import agent_of_each_side
    from .draw import TurnPictures

    title = setup.title if setup is not None else (sym.game.title or sym.game.name) if sym.game else "the game"
    people = [side for side, kind in zip(sym.sides, agent_of_each_side(sym, kinds)) if kind == "human"]
    return TurnPictures(folder, setup, title, people[0] if len(people) == 1 else None, force)


def resumed(resume) -> dict:
    """A loaded save as play() reads it: the header, and the position when it goes on from there."""
    out = {**resume.head, "state": resume.state}
    if resume.position is not None:
        out["position"], out["goes_on"] = resume.position, resume.goes_on
    if resume.compare is not None:
        out["compare"] = resume.compare
    return out


def _ready_game(args: _PlayArgs, sources: Sources):
    """The set-up, the checked ruleset, the names of the overlays applied and the set-up run for the check
    (the game is played on it); None once the error is printed."""
    try:
        scenario, loaded, set_up = game_to_play(args.path, sources, args.overlays, args.errata, args.choice)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return None
    applied = [o.name for o in loaded.overlays]
    resume = args.resume
    if resume is not None and "applied" in resume.head and resume.head["applied"] != applied:
        print(f"umpire: error: {args.load}: field 'errata' or 'overlays': the game was saved with the overlays "
              f"{resume.head['applied'] or 'none'}; the save as it stands applies {applied or 'none'}", file=sys.stderr)
        return None
    return scenario, loaded, applied, set_up


def _terminal(turn_begins=None):
    """Prompts on stderr; the narration on stdout as it happens (a pipe reads each line at once, and
    on a terminal the bar of the turns is drawn below it, never on its lines)."""
    from ..runtime.games.play import Terminal

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
    from .. import saves

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



def _ask_where_to_save(force: bool) -> str | None:
    """After a person ends the game: where to save it, asked until a usable name or an empty answer
    (Ctrl-D and Ctrl-C here decline too)."""
    from .. import saves

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
