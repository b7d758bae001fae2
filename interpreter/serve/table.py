"""A game played in the workbench: `umpire play` with a person at one side, the browser for a terminal.

The game runs in a thread of its own through the engine's `play`, as at the terminal: the person is
the human agent, which reads each answer as the line a person would type (its number, its numbers,
or an option's name to hear the rule that removed it) and refuses an illegal one with the rule that
forbids it. The browser is shown the decision as data (its options as the side reads them, and what
to type for each), the narration as it is written, and a picture at each decision, as each turn
begins and at the game's end, as the person's side sees it (`draw --side`).
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from .. import files
from ..limits import SERVE_ANSWER_SECONDS, SERVE_KEPT_GAMES
from ..runtime.games.play import agent_of_each_side
from ..syntax.diagnostics import Sources, UmpireError, render
from .workbench import Library, WorkbenchError, known_side, sections_of

_ENDED = object()  # put in place of an answer: the game is let go


@dataclass
class Moment:
    """A point of the game the timeline can show: its label, the narration told by then, the scene."""

    label: str
    told: int
    scene: object


@dataclass
class Table:
    """One game in play: its thread, what it has told and what it waits for."""

    id: str
    title: str
    side: str | None
    sides: list[str]
    ruleset: str
    narration: list[str] = field(default_factory=list)
    said: list[str] = field(default_factory=list)  # what the human agent wrote: refusals, mostly
    decision: dict | None = None
    moments: list[Moment] = field(default_factory=list)
    board: object = None
    over: bool = False
    ending: str | None = None  # the error that stopped it, or how it ended
    answers: queue.Queue = field(default_factory=queue.Queue)
    changed: threading.Condition = field(default_factory=threading.Condition)
    waiting: bool = False
    described: bool = False  # the decision's text, shown as data already, is not said again
    standing: dict | None = None  # where the game stands at the decision asked (a save's position and segment)
    game: tuple = ()  # the game's set-up, rules and sources: what the odds of its position are measured with

    def state(self, since: int = 0) -> dict:
        with self.changed:
            return {"kind": "game", "id": self.id, "title": self.title, "side": self.side, "sides": self.sides,
                    "ruleset": self.ruleset, "narration": self.narration[since:], "told": len(self.narration),
                    "from": since, "decision": self.decision if self.waiting else None, "said": list(self.said),
                    "moments": [{"label": m.label, "told": m.told} for m in self.moments],
                    "over": self.over, "ending": self.ending}

    def picture(self, at: int) -> str:
        from ..picture import svg

        if not 0 <= at < len(self.moments):
            raise WorkbenchError.saying(f"no moment {at}: the game has {len(self.moments)} so far", 404)
        return svg.draw(self.moments[at].scene, self.board).as_svg()

    def answer(self, line: str) -> dict:
        """Give the game the person's answer, as typed; wait for its next decision or its end."""
        if self.over:
            raise WorkbenchError.saying("the game is over")
        if not self.waiting:
            raise WorkbenchError.saying("the game is not waiting for a decision", 409)
        if not isinstance(line, str) or not line.strip() or "\0" in line:
            raise WorkbenchError.saying("an answer is the text a player would type: an option's number, or numbers")
        with self.changed:
            self.said.clear()
            self.waiting = False
            self.answers.put(line)
            self.changed.wait_for(lambda: self.waiting or self.over, timeout=SERVE_ANSWER_SECONDS)
        return self.state()

    # ── told by the game's thread ──

    def read(self) -> str | None:
        with self.changed:
            self.waiting = True
            self.changed.notify_all()
        line = self.answers.get()
        return None if line is _ENDED else line

    def stands(self, where: dict) -> None:
        """Where the game stands as the person is asked (play.Terminal.stands): the odds start there."""
        with self.changed:
            self.standing = where

    def position(self) -> dict:
        """Where the game stands at the decision in front of the person, and that decision."""
        with self.changed:
            if self.over or not self.waiting or self.standing is None or self.decision is None:
                raise WorkbenchError.saying("the odds are those of the position in front of you: the game is not "
                                            "waiting for your decision", 409)
            return {"standing": self.standing, "decision": self.decision}

    def write(self, text: str) -> None:
        with self.changed:
            if self.described:
                self.described = False
            else:
                self.said.append(text)

    def narrate(self, lines: list[str]) -> None:
        with self.changed:
            self.narration.extend(narrated(line) for line in lines)

    def finish(self, ending: str | None) -> None:
        with self.changed:
            self.over, self.ending, self.waiting = True, ending, False
            self.changed.notify_all()


def narrated(line: str) -> dict:
    """A line of the narration, its citation apart (`[CITE] text`), with the sections it names."""
    cite, sep, text = line[1:].partition("] ") if line.startswith("[") else ("", "", line)
    if not sep:
        return {"cite": None, "text": line, "sections": []}
    return {"cite": cite, "text": text, "sections": sections_of(cite)}


def decision_of(req, agent) -> dict:
    """A decision as the browser shows it: who decides what, under which rule, each option as the
    side reads it (its cost, its values: what `showing` computes) and the answer that chooses it."""
    if req.mode == "reroll":
        texts = [f"{pool.label} die {k + 1} ({int(pool[k])})" for pool, k in req.options]
    else:
        texts = agent.readout.options(req.options, req.showing)
    from ..runtime.common.values import show

    names = [show(o) for o in req.options] if req.mode != "reroll" else [None] * len(req.options)
    return {"chooser": req.chooser, "name": req.name, "cite": str(req.cite), "sections": sections_of(str(req.cite)),
            "prompt": req.prompt, "mode": req.mode, "amount": req.amount, "optional": req.optional,
            "expected": agent.expected(req),
            "options": [{"answer": a, "text": t, "name": name} for a, t, name in zip(agent.answers(req), texts, names)],
            "ruled_out": ruled_out(req, agent)}


def ruled_out(req, agent) -> list[dict]:
    """The options a restriction removed (an errata's or a house rule's `restrict decision`), each with
    the name that answers it (refused, with the restriction) and why it is not legal."""
    from ..runtime.common.values import show

    return [{"answer": show(o), "text": agent.readout.option(o), "why": req.explain(o) if req.explain else None}
            for o in req.ruled_out]


class Tables:
    """The games in play, the latest kept (limits.SERVE_KEPT_GAMES)."""

    def __init__(self, library: Library):
        self.library = library
        self.kept: OrderedDict[str, Table] = OrderedDict()
        self.ids = itertools.count(1)
        self.lock = threading.Lock()

    def get(self, game_id: str) -> Table:
        table = self.kept.get(game_id)
        if table is None:
            raise WorkbenchError.saying(f"no game '{game_id}' is in play (start it again)", 404)
        return table

    def start(self, path: str, choice: str | None, seed: int, side: str | None, agent: str,
              overlays: list[str] = ()) -> Table:
        """A game of the rules or scenario at ``path`` (``choice``: a set-up its header names) with the
        ``overlays`` (`--with`), the person playing ``side`` (none: the agents play every side), ``agent``
        the other sides."""
        from ..lang import agent_known
        from ..runtime.games.play import AGENT_KINDS

        if not agent_known(agent, AGENT_KINDS) or agent == "human":
            raise WorkbenchError.saying(f"unknown agent '{agent}'", hint=f"use one of {', '.join(AGENT_KINDS[:-1])}")
        sources = Sources()
        with self.library.reading(path), files.sandbox(files.current().with_files(overlays)):
            try:
                from ..load import game_to_play

                setup, loaded, set_up = game_to_play(path, sources, list(overlays), True, choice)
            except UmpireError as err:
                raise WorkbenchError(err.diagnostics, sources) from None
        sym = loaded.symbols
        known_side(side, sym.sides)
        kinds = ["human" if s == side else agent for s in sym.sides]
        return self._launch(path, sym, sources, setup, set_up, seed, kinds, None)

    def resume(self, path: str) -> Table:
        """A saved game (`play --save`), resumed where it was saved: its person's sides are the
        browser's, its agents play the others (a save with no person plays on to its end)."""
        from ..cli.play import read_save, resumed
        from ..load import game_to_play
        from ..runtime.games.play import AGENT_KINDS
        from ..saves import SaveError

        sources = Sources()
        try:
            with self.library.reading(path):
                save = read_save(path, AGENT_KINDS)
                with files.sandbox(files.current().with_files([save.file, *save.overlays], [save.root] if save.root else [])):
                    setup, loaded, set_up = game_to_play(save.file, sources, save.overlays, save.errata, save.scenario or None)
        except SaveError as err:
            raise WorkbenchError.saying(f"{path}: {err.message}") from None
        except UmpireError as err:
            raise WorkbenchError(err.diagnostics, sources) from None
        return self._launch(save.file, loaded.symbols, sources, setup, set_up, save.seed, list(save.agents), resumed(save))

    def _launch(self, path: str, sym, sources, setup, set_up, seed: int, kinds: list[str], resume) -> Table:
        """The game's table, its thread started; back once it waits for the person or is over."""
        people = [s for s, kind in zip(sym.sides, agent_of_each_side(sym, kinds)) if kind == "human"]
        title = setup.title if setup is not None else (sym.game.title or sym.game.name) if sym.game else path
        table = Table(f"g{next(self.ids)}", title, people[0] if people else None, list(sym.sides), _ruleset(path, setup),
                      game=(setup, sym, sources, path))
        thread = threading.Thread(target=self._play, args=(table, path, sym, sources, setup, set_up, seed, kinds, resume),
                                  daemon=True, name=f"umpire-serve-{table.id}")
        self._keep(table)
        with table.changed:
            thread.start()
            table.changed.wait_for(lambda: table.waiting or table.over, timeout=SERVE_ANSWER_SECONDS)
        return table

    def _keep(self, table: Table) -> None:
        with self.lock:
            self.kept[table.id] = table
            while len(self.kept) > SERVE_KEPT_GAMES:
                _, oldest = self.kept.popitem(last=False)
                oldest.answers.put(_ENDED)

    def _play(self, table: Table, path, sym, sources, setup, set_up, seed: int, kinds: list[str], resume) -> None:
        from ..picture import layout, scene
        from ..runtime.games.play import Terminal, play

        def take(engine, label: str) -> None:
            if table.board is None:
                table.board = layout.board_of(engine, setup)
            with table.changed:
                table.moments.append(Moment(label, len(table.narration), scene.take(engine, table.title, label, table.side)))

        def asked(req, agent) -> None:
            with table.changed:
                table.decision, table.described = decision_of(req, agent), True
            take(agent.readout.engine, f"{req.chooser} decides '{req.name}'")

        def watch(engine, label: tuple) -> None:
            if label[0] == "turn_start":
                take(engine, f"as turn {label[1]} begins")
            elif label[0] == "game_over":
                take(engine, "the end of the game")

        terminal = Terminal(read=table.read, write=table.write, narrate=table.narrate, asked=asked, stands=table.stands)
        try:
            with self.library.reading(path):
                game = play(sym, sources, setup, seed, kinds, terminal=terminal, watch=watch, set_up=set_up, resume=resume)
            ending = render(game.error, sources) if game.error is not None else game.quit
        except Exception as err:  # a bug in Umpire ends this game, never the workbench
            ending = f"internal error ({type(err).__name__}: {err}); this is a bug in Umpire, please report it"
        table.finish(ending)


def _ruleset(path: str, setup) -> str:
    """The rules file a game's citations are read in."""
    if path.endswith(".rules"):
        return path
    from ..load import rules_path_for

    return rules_path_for(setup)
