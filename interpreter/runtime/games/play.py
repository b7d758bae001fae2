"""Whole games: the sequence of play, turn after turn, with seeded dice and agents.

A game starts from a scenario's set-up (or an empty position) and runs every phase and
step of the ruleset's sequence until the last turn. Steps the ruleset declares `pending`
are named in the narration and skipped, so an incomplete ruleset still plays honestly.
The same seed and agents give the same game, byte for byte.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from ...ir import nodes as n
from ...ir.symbols import Symbols
from ...overlay.apply import header_line
from ...syntax.diagnostics import NO_SPAN, Diagnostic, Sources
from ..common.requests import RuleError, ScriptError
from ..execution.calendar import start_turn, turn_label
from ..execution.dice import SeededDice
from ..execution.engine import Engine
from ..execution.vm import Process, driven_on
from ..position.position import Position
from ..position.position_data import PositionError, from_data, to_data
from ..position.save_check import agents_problem, differences, flat, generator_differences, position_fields, shown
from .agents import Agent, EagerAgent, FirstLegalAgent, RandomAgent
from .driver import Quit, Runner, Suspend
from .human import HumanAgent
from .readout import Readout
from .search import GreedyAgent, Lookahead, SearchAgent, TreeSearchAgent
from .setup import Setup
from .stands_in import stands_in_brief
from .stopping import held, what_stopped

AGENT_KINDS = ("random", "eager", "first", "search", "mcts", "greedy", "human")


@dataclass
class Game:
    lines: list[str] = field(default_factory=list)       # the whole trace (what --detail prints)
    narration: list[str] = field(default_factory=list)   # the same without the detail lines (engine.DETAIL_KINDS)
    error: Diagnostic | None = None
    save: dict | None = None  # what --save writes, when the game was suspended
    quit: str | None = None   # why a person ended the game early (the save then holds the position)
    streamed: int = 0         # lines of the narration already shown on the terminal while playing
    rewound: bool = False     # the save is of the position before an open 'secretly' block's first decision
    final: dict = field(default_factory=dict)  # where the game ended: turn, decisions, game states and facts
    differences: list[str] = field(default_factory=list)  # a replayed save's fields that are not the saved ones


@dataclass
class Terminal:
    """Where human agents read and write: a person, or a test's canned lines.

    ``narrate``, when given, shows the narration as it happens, a few lines at a time: before each
    decision (a person sees the opponent's moves and the dice before answering) and as each segment
    of the game ends, so a reader of a game played by computer agents follows it as it is played."""

    read: Callable[[], str | None]
    write: Callable[[str], None]
    narrate: Callable[[list[str]], None] | None = None
    turn_begins: Callable[[int, int], None] | None = None  # (turn, last turn): a progress bar's tick
    asked: Callable | None = None  # told each decision a person is asked, before its text (HumanAgent.on_ask)
    # told, before each decision a person is asked, the position and what the game goes on from, as a save
    # holds them (the odds of the position in front of the person: runtime/odds/from_position.py)
    stands: Callable[[dict], None] | None = None


def make_agents(sym: Symbols, kinds: list[str], seed: int, engine: Engine, terminal: Terminal | None,
                typed: list[str], before_asking: Callable[[], None] = lambda: None,
                lookahead: Lookahead | None = None) -> dict[str, Agent]:
    """One agent per side, in the order the sides are declared; each has its own seeded generator.

    Human agents first replay ``typed`` (the answers of a loaded game), then read the terminal.
    """
    agents: dict[str, Agent] = {}
    replay = iter(typed)
    replaying = [bool(typed)]
    log: list[str] = []  # every human answer of the game, in order, shared by all human agents
    for i, side in enumerate(sym.sides):
        kind = kinds[i] if i < len(kinds) else kinds[-1]
        if kind == "random":
            agents[side] = RandomAgent(seed * 1000 + i + 1)
        elif kind == "eager":
            agents[side] = EagerAgent(seed * 1000 + i + 1)
        elif kind == "first":
            agents[side] = FirstLegalAgent()
        elif kind.startswith(("search", "mcts", "greedy")):  # search or search:N, N rollouts a decision; mcts alike
            name, _, budget = kind.partition(":")
            cls = {"search": SearchAgent, "mcts": TreeSearchAgent, "greedy": GreedyAgent}[name]
            agents[side] = cls(seed * 1000 + i + 1, side, lookahead, rollouts=int(budget or cls.ROLLOUTS))
        else:
            def read(replay=replay, terminal=terminal, replaying=replaying):
                line = next(replay, None)
                if line is not None:
                    return line
                replaying[0] = False
                return terminal.read() if terminal else None

            def write(text, terminal=terminal, replaying=replaying):
                if terminal and not replaying[0]:  # a loaded game replays its answers silently
                    terminal.write(text)

            human = HumanAgent(read, write, Readout(engine, side), before_asking)
            human.typed = log
            human.on_ask = terminal.asked if terminal is not None else None
            agents[side] = human
    return agents


def position(engine: Engine, side: str | None = None) -> str:
    """The position as a person asks for it, seen by ``side`` (everything without one)."""
    return Readout(engine, side).position()


def snapshot(engine: Engine) -> dict:
    """The state as plain data (for a save, and to check that a loaded game is the same game)."""
    st = engine.state

    def plain(v):
        return "" if v is None else v if isinstance(v, (bool, int, str)) else str(v)

    out = {
        "turn": st.turn, "phase": plain(st.phase), "step": plain(st.step),
        "units": {u.id: {"location": plain(u.location), "carrier": plain(u.carrier),
                         "state": {k: plain(v) for k, v in u.state.items()}} for u in st.units.values()},
        "places": {p.id: {k: plain(v) for k, v in p.state.items()} for p in st.places.values() if p.state},
        "tracks": {t.name: {(k or t.name): v for k, v in t.values.items()} for t in st.tracks.values()},
        "globals": {k: plain(v) for k, v in st.globals.items()},
    }
    if st.cups:  # only a game with cups has them: other saves keep the table they always had
        out["cups"] = {name: dict(chits) for name, chits in st.cups.items()}
    return out


def last_turn(sym: Symbols, setup: n.Scenario | None) -> int:
    """The set-up's `until turn N`, else the game header's turns."""
    if setup is not None and setup.until is not None:
        return setup.until
    return sym.game.turns if sym.game and sym.game.turns else 1


def steps_from(sym: Symbols, start: n.StepAt | None, turns: int | None = None):
    """(turn, phase, step) triples from the start point to the end of the last turn."""
    seq = sym.sequence
    if seq is None:
        return
    turns = turns if turns is not None else (sym.game.turns if sym.game and sym.game.turns else 1)
    first_turn, first_phase, first_step = (start_turn(sym.game, start), start.phase, start.step) if start else (1, None, None)
    started = start is None or start.phase is None  # 'at turn N' alone: from the turn's first step
    for turn in range(first_turn, turns + 1):
        for phase in seq.phases:
            for step in phase.steps:
                if not started and (phase.name, step.name) == (first_phase, first_step):
                    started = True
                if started:
                    yield turn, phase, step


# Python's collector of reference cycles sweeps its oldest generation (everything alive: the rules'
# IR, their lowered code, the game's trace) after this many sweeps of the middle one; 10 by default.
# During a game it is this many instead (see `_fewer_full_sweeps`).
FULL_SWEEP_AFTER = 100


@contextlib.contextmanager
def _fewer_full_sweeps():
    """A game with fewer full sweeps of the collector. A full sweep walks every object alive, most of them
    the rules' (their IR, their lowered code), which a game never lets go of; by default one came every
    ten sweeps of the middle generation, several in a long campaign, and took about a fifth
    of its CPU. The game's own garbage in cycles is swept as before by the younger generations' sweeps; what
    reaches the oldest (an engine of an earlier game, let go) waits for the next full sweep, about one every
    few games in a process that plays many. Nothing the game does depends on when the collector runs."""
    young, middle, oldest = gc.get_threshold()
    gc.set_threshold(young, middle, max(oldest, FULL_SWEEP_AFTER))
    try:
        yield
    finally:
        gc.set_threshold(young, middle, oldest)


def play(sym: Symbols, sources: Sources, setup: n.Scenario | None, seed: int, kinds: list[str], *,
         terminal: Terminal | None = None, stop_after: int | None = None, resume: dict | None = None,
         detail: bool = False, narrate: bool = True, watch: Callable | None = None, set_up: Setup | None = None,
         engine: Engine | None = None) -> Game:
    """Play from the set-up to the end (``set_up``: the set-up already run on its engine, by the front
    end's check: the game is played on it; ``engine``: an engine of these rules that played an earlier
    game, made ready for this one by `again`); ``stop_after`` suspends before that many decisions,
    ``resume`` (a loaded save) replays silently to the save point and goes on from there.
    A person who ends the game at a prompt (end of input, Ctrl-C) suspends it there too.
    ``watch(engine, label)`` is called as each segment of the game begins, its clock set and none of
    its rules run yet (its label: a turn's start is `("turn_start", N)`), and with `("game_over",)`
    once the game has ended (`play --draw`)."""
    session = _Session(sym, sources, setup, seed, kinds, terminal, resume, detail, set_up, engine)
    session.watch = watch
    session.engine.narrate = narrate  # a study reads only where the game ends
    game = session.game
    try:
        with _fewer_full_sweeps():
            session.run(stop_after)
    except Suspend:
        game.save = session.save(stop_after)
    except Quit as stop:
        # The person's decision was being asked: the position before it is the one to save.
        game.quit = stop.why
        game.save = session.save(session.runner.asked - 1)
    except (RuleError, ScriptError) as err:
        game.error = Diagnostic("error", err.message, err.span or NO_SPAN, getattr(err, "hint", None))
        game.differences = list(getattr(err, "differences", ()))
    except KeyboardInterrupt as interrupt:
        # Between two decisions a rule may be half done: that position is not one a save can hold.
        game.quit = f"interrupted ({what_stopped(interrupt)}) while the rules were running; a position can be saved only at a decision"
    session.stream()
    session.tell()
    game.final = _final(session)
    return game


def again(engine: Engine) -> Engine:
    """An engine that played a game, ready for another of the same rules, as a new engine would be.

    Lowering the rules to Python is a quarter to a third of a short game's cost, and it depends on
    the rules alone, so a process that plays many games (a study, the benchmarks) keeps one engine
    and plays each game on it. Nothing of a game outlives it: the
    state, the trace and the counters start afresh (`Engine.reset`), the cached function values are
    those of an epoch that is over, no process is waiting, and the explaining notes are empty.
    Only an engine of a plain game is played again (no explanation, side's view or scenario's
    departures: a study's games have none)."""
    if engine.explain or engine.viewer is not None or engine.check_departures or engine.why_not is not None:
        raise ValueError("only an engine of a plain game plays another")
    engine.reset()
    engine.epoch += 1  # the cached function values belong to the last game's positions
    engine.process = None
    engine.narrate = True
    for notes in (engine.consulted, engine.touched, engine.removed):
        notes.clear()
    engine.triggers.clear()
    return engine


def _final(session: _Session) -> dict:
    """Where the game stopped, as values (what a study reads): the clock, the decisions asked,
    the game states, the tracks and the facts recorded."""
    st = session.engine.state
    asked = session.runner.asked if session.runner is not None else 0
    tracks = {f"{t.name}[{k}]" if k else t.name: v for t in st.tracks.values() for k, v in t.values.items()}
    return {"turn": st.turn, "decisions": asked, "globals": dict(st.globals), "facts": dict(st.facts), "tracks": tracks}


class _Session:
    """One game in play: its engine, agents and runner, and how much of its narration is told."""

    def __init__(self, sym: Symbols, sources: Sources, setup: n.Scenario | None, seed: int, kinds: list[str],
                 terminal: Terminal | None, resume: dict | None, detail: bool, set_up: Setup | None = None,
                 engine: Engine | None = None):
        self.game = Game()
        self.set_up = set_up
        self.engine = set_up.engine if set_up is not None else again(engine) if engine is not None else Engine(sym)
        self.engine.sources = sources
        self.sym, self.setup, self.seed, self.kinds = sym, setup, seed, kinds
        self.terminal, self.resume, self.detail = terminal, resume, detail
        self.game.lines.append(_header(sym, seed, kinds))
        self.agents: dict[str, Agent] = {}
        self.resumed_at = [0, False]  # where the replay reached the save (its narration starts there), and whether it has
        self.runner: Runner | None = None
        self.segment: tuple = ()  # the segment of the game running (a save says it)
        # The narration before this engine's first line, when the game was loaded from its position:
        # how many lines, their digest, and where earlier loads joined it (see _chain).
        self.before = (0, None)
        self.links: list[int] = list(resume.get("links", [])) if resume else []
        self.final = 0  # the last turn (play_turns sets it)
        self.secret_save: dict | None = None  # the save at the first decision of the open 'secretly' block
        self.shown: int | None = None  # the engine's lines already considered for the terminal (None: not started)
        self.watch: Callable | None = None  # told as each segment begins (see play)

    def run(self, stop_after: int | None) -> None:
        """The set-up, then the sequence of play from where it stands to the end of the last turn."""
        engine, setup = self.engine, self.setup
        if setup is not None:
            if self.set_up is None:
                Setup(engine, setup).run()
            demo = stands_in_brief(setup)
            self.game.lines.append(f"set-up: {setup.title}" + (f"; {demo}" if demo else ""))
            engine.run_invariants()  # the set-up's position is checked as a scenario's is
        self.start(stop_after)
        self.play_turns(last_turn(self.sym, setup))

    def start(self, stop_after: int | None) -> None:
        """The agents and the runner that asks them. A game loaded by replay replays what was typed
        and checks the position at its save point; one loaded from its position only keeps what was
        typed, for its own saves."""
        resume = self.resume
        by_replay = bool(resume) and "position" not in resume
        typed = list(resume["typed"]) if by_replay else []
        searching = any(k.startswith(("search", "mcts", "greedy")) for k in self.kinds)
        lookahead = Lookahead(self.engine, self.segments_after) if searching else None
        self.agents = make_agents(self.sym, self.kinds, self.seed, self.engine, self.terminal, typed, self.stream,
                                  lookahead)
        self.runner = Runner(self.engine, SeededDice(self.seed), self.agents)
        self.runner.stop_after = stop_after
        self.runner.on_secret = self.hold_secret
        check = _resume_check(self.engine, resume, self.resumed_at, self.where_it_stands) if by_replay else None

        def asked(count: int) -> None:  # the real game's position, between the search agents' rollouts
            if check is not None:
                check(count)
            self.stream()

        self.runner.on_asked = asked
        if resume and not by_replay:
            humans = [a for a in self.agents.values() if isinstance(a, HumanAgent)]
            if humans:
                humans[0].typed.extend(resume["typed"])  # one log, shared by every human agent
        if self.terminal is not None and self.terminal.stands is not None:
            for agent in self.agents.values():
                if isinstance(agent, HumanAgent):
                    agent.on_ask = self.telling_where(agent.on_ask)

    def telling_where(self, on_ask: Callable | None) -> Callable:
        """A person's decision, told first where the game stands (`Terminal.stands`)."""
        def asked(req, agent) -> None:
            self.terminal.stands({**self.where_it_stands(), "decisions": self.runner.asked - 1})
            if on_ask is not None:
                on_ask(req, agent)
        return asked

    def play_turns(self, final: int) -> None:
        """Every step from the set-up's point to the end of turn `final`, then the game's end; a
        game loaded from its position goes on from the segment it was saved in. An `end game` goes
        straight to the game's end (`Engine.run_to_end`: its game_end hooks, without the line of
        the last turn)."""
        self.final = final
        loaded = self.loaded()
        segments = list(self.segments(final))
        first = None
        if loaded is not None:  # the game goes on inside the segment it was saved in
            labels = [label for label, _begin in segments]
            if loaded[0] not in labels:
                raise ScriptError(f"field 'goes_on.segment': {list(loaded[0])} is no part of this game's sequence of play")
            after = labels.index(loaded[0]) + 1
            self.segment, first, segments = loaded[0], self.told(answered(*loaded[1:])), segments[after:]
        parts = [self.begins(label, begin) for label, begin in segments]
        self.runner.run(self.engine.run_to_end(parts, first, at_the_end=self.game_ends))
        self.end_check()
        if self.watch is not None:
            self.watch(self.engine, ("game_over",))

    def begins(self, label: tuple, begin: Callable):
        """A segment of the game played, as it begins: named (a save says it), its clock set, the
        watcher and the terminal's bar told; its narration told once it has run."""
        def part():
            self.segment, work = label, begin()
            if self.watch is not None:  # the segment's clock is set; its rules have not run
                self.watch(self.engine, label)
            self.tick(label)
            return self.told(work)
        return part

    def game_ends(self) -> None:
        """An `end game` ran: the game is in its end segment (a save at a hook's decision says so)."""
        self.segment = ("game_end", self.final)

    def told(self, work):
        """A segment's work, then its narration shown (not after an `end game`: the game's end follows)."""
        if work is not None:
            yield from work
        self.stream()

    def segments_after(self, horizon: int | None):
        """The segments after the one running, up to `horizon` more steps (None: to the game's end):
        what a search agent's rollout plays on through."""
        following, steps = False, 0
        for label, begin in self.segments(self.final):
            if following:
                yield label, begin
                steps += label[0] == "step"
                if horizon is not None and steps >= horizon:
                    return
            elif label == self.segment:
                following = True

    def segments(self, final: int):
        """The game as segments run one after another (`Sequence.segments`)."""
        return Sequence(self.engine, self.sym, self.setup).segments(final)

    def tick(self, label: tuple) -> None:
        """A turn of the game played begins: the terminal's bar moves on (not in a search agent's
        rollouts, which begin the same segments)."""
        if label[0] == "turn_start" and self.terminal is not None and self.terminal.turn_begins is not None:
            self.terminal.turn_begins(label[1], self.final)

    def end_check(self) -> None:
        """A game replayed from a save must have reached its save point by its end."""
        resume, runner = self.resume, self.runner
        if resume and "position" not in resume and not self.resumed_at[1]:
            raise ScriptError(f"field 'decisions': the save is of the position before decision {resume['decisions'] + 1}, "
                              f"but this game ends after {runner.asked} decisions")

    def loaded(self):
        """A save's position put back in place: (its segment, the process, the decision it waits for)."""
        resume = self.resume
        if not resume or "position" not in resume:
            return None
        engine = self.engine
        try:
            position = from_data(resume["position"], engine)
        except PositionError as err:
            raise ScriptError(f"this save's position cannot be played: {err.within('position')}") from None
        proc = Process(engine, None)
        position.restore(engine, proc)
        engine.process = proc  # the process waiting (a save at its decision reads it from here)
        self.agree(resume)
        del engine.events[:]  # what the set-up traced again is before the save point: not told again
        self.before = (resume["events"], resume["narration"])
        self.links.append(resume["events"])
        self.resumed_at[:] = [0, True]
        goes_on = resume["goes_on"]
        self.runner.asked = resume["decisions"]
        self.runner.dice.rng.setstate(_rng(goes_on["dice"]))
        for side, state in goes_on["agents"].items():
            self.agents[side].rng.setstate(_rng(state))
        for side, memory in goes_on.get("memory", {}).items():
            if hasattr(self.agents.get(side), "memory"):
                self.agents[side].memory = {"clock": list(memory["clock"]), "seen": list(memory["seen"])}
        return tuple(goes_on["segment"]), proc, proc.pending()

    def agree(self, resume: dict) -> None:
        """A loaded save's parts agree: its summary of the position (`state`) is the position put back,
        and its generators and memories are those of the game's agents."""
        found = differences(flat(resume["state"]), flat(snapshot(self.engine)))
        if found:
            path, summary, held = found[0]
            raise ScriptError(f"field 'state.{path}': the summary of the position says {summary}; "
                              f"the position holds {held}")
        segment, clock = resume["goes_on"]["segment"], resume["position"]["clock"]
        if segment[0] in ("turn_start", "step") and clock[:len(segment) - 1] != segment[1:]:
            raise ScriptError(f"field 'goes_on.segment': {segment} is not the segment of the sequence of play the "
                              f"position's clock {clock} stands in")
        drawing = {side for side, a in self.agents.items() if getattr(a, "rng", None) is not None}
        remembering = {side for side, a in self.agents.items() if hasattr(a, "memory")}
        problem = agents_problem(resume["goes_on"], drawing, remembering)
        if problem:
            raise ScriptError(f"field '{problem[0]}': {problem[1]}")

    def where_it_stands(self) -> dict:
        """The position and what the game goes on from, as a save holds them."""
        proc = self.engine.process
        goes_on = {
            "segment": list(self.segment),
            "dice": _rng_state(self.runner.dice.rng),
            "agents": {side: _rng_state(a.rng) for side, a in self.agents.items() if getattr(a, "rng", None) is not None},
        }
        memory = {side: a.memory for side, a in self.agents.items() if getattr(a, "memory", None) is not None}
        if memory:  # the greedy agent's positions met in this step (search.py); other saves are unchanged
            goes_on["memory"] = memory
        return {"position": to_data(Position.of(self.engine, proc)), "goes_on": goes_on}

    def hold_secret(self) -> None:
        """The save of the position before a 'secretly' block's first answer. A save asked for while
        the block holds answers not yet revealed is this one: the file never holds a secret answer
        (nor what a person typed for it), and the block's decisions are asked again when it is loaded."""
        self.secret_save = None
        self.secret_save = self.save(self.runner.asked)

    def save(self, decisions: int) -> dict:
        if self.secret_save is not None and _sealed(self.engine.process):
            self.game.rewound = True
            return self.secret_save
        data = _save(self.engine, self.seed, self.kinds, decisions, self.agents)
        lines = [e.line() for e in self.engine.events]
        told, digest = self.before
        head = data["umpire_save"]
        head["events"] = told + len(lines)
        head["narration"] = _link(digest, lines) if digest is not None else _chain(lines, self.links)
        if self.links:
            head["links"] = list(self.links)
        data.update(self.where_it_stands())
        return data

    def stream(self) -> None:
        """Show the narration written since the last call on the terminal (never during the silent
        replay of a save). Called only where the engine's lines are the game's own: between segments
        and before a decision is asked, never inside a search agent's rollout."""
        terminal, game, events = self.terminal, self.game, self.engine.events
        if terminal is None or terminal.narrate is None or (self.resume and not self.resumed_at[1]):
            return
        new = [] if self.shown is not None else list(game.lines)  # the game's header, told first
        start = self.resumed_at[0] if self.shown is None else self.shown
        new += [e.line() for e in events[start:] if self.detail or not e.detail]
        self.shown = len(events)
        if new:
            with held():
                terminal.narrate(new)
                game.streamed += len(new)

    def tell(self) -> None:
        """The game's whole trace and its narration, from where a loaded game reached its save point."""
        game, engine = self.game, self.engine
        # A loaded game replays silently to its save point: nothing of it is told if it never got there.
        start = len(engine.events) if self.resume and not self.resumed_at[1] else self.resumed_at[0]
        head = game.lines
        game.lines, game.narration = _told(head, engine, start, True), _told(head, engine, start, False)
        if game.save is not None:
            asked = game.save["umpire_save"]["decisions"]
            suspended = f"(suspended before decision {asked + 1}: the position can be saved)"
            if game.rewound:
                suspended = (f"(suspended before decision {asked + 1}, the first of the open 'secretly' block: the "
                             f"answers not yet revealed are never saved, and are asked again when the game is loaded)")
            game.lines.append(suspended)
            game.narration.append(suspended)


class Sequence:
    """The sequence of play of a game set up on an engine, as segments: what a game plays one after
    another, and what odds measured from a position play on through to their horizon."""

    def __init__(self, engine: Engine, sym: Symbols, setup: n.Scenario | None):
        self.engine, self.sym, self.setup = engine, sym, setup

    def segments(self, final: int):
        """The game as segments run one after another, each named (a save says which it is in): the
        game's start, each turn's start, each step, and the game's end. `begin` does what comes
        before the segment's rules (the clock, its trace line) and gives what the runner runs."""
        engine, setup = self.engine, self.setup
        first = engine.first_step()
        start = setup.at if setup is not None else None
        if start is None or start_turn(self.sym.game, start) == 1 and (start.phase is None or (start.phase, start.step) == first):
            yield ("game_start",), lambda: self._event("game_start", 1)
        for turn, phase, step in steps_from(self.sym, start, final):
            if (phase.name, step.name) == first:
                yield ("turn_start", turn), lambda turn=turn, phase=phase, step=step: self._turn_start(turn, phase, step)
            yield ("step", turn, phase.name, step.name), lambda turn=turn, phase=phase, step=step: self._step(turn, phase, step)
        yield ("game_end", final), lambda: self._end(final)

    def _event(self, event: str, turn: int):
        self.engine.state.turn = turn
        return self.engine.game_event(event)

    def _turn_start(self, turn, phase, step):
        engine = self.engine
        engine.state.turn, engine.state.phase, engine.state.step = turn, phase.name, step.name
        return engine.game_event("turn_start")

    def _step(self, turn, phase, step):
        engine = self.engine
        engine.state.turn, engine.state.phase, engine.state.step = turn, phase.name, step.name
        # A game goes on past a step it cannot play, and says so (a scenario stops there instead).
        why = engine.not_playable(step)
        if why:
            engine.trace(step.cite or step.name, f"turn {turn_label(self.sym.game, turn)}, {phase.name}, {step.name}: {why}, skipped")
            return None
        return engine.start_step(phase.name, step)

    def _end(self, final: int):
        """The game's end, with its rule."""
        sym, setup = self.sym, self.setup
        end_cite = (sym.game.turns_cite or sym.game.cite) if sym.game else None
        if setup is not None and setup.until is not None:
            end_cite = setup.cite or end_cite
        self.engine.trace(end_cite or "game", f"the game ends after turn {turn_label(sym.game, final)}")
        return self.engine.game_event("game_end")


def agent_of_each_side(sym: Symbols, kinds: list[str]) -> list[str]:
    """The agent each side is played by, in the order the sides are declared: the last one named plays
    the sides after it (as the agents are made)."""
    return [kinds[i] if i < len(kinds) else kinds[-1] for i in range(len(sym.sides))] if kinds else []


def _header(sym: Symbols, seed: int, kinds: list[str]) -> str:
    """The game's first line: its title, seed and agents, and the overlays applied (one header line each)."""
    title = sym.game.title if sym.game and sym.game.title else (sym.game.name if sym.game else "?")
    # Every side, with the agent it plays: a four-sided game played with "random,random" lists four.
    every = agent_of_each_side(sym, kinds)
    head = f"game: {title}, seed {seed}, agents {', '.join(f'{s} {k}' for s, k in zip(sym.sides, every))}"
    return head + (f"; {header_line(sym.overlays)}" if sym.overlays else "")


def _told(head: list[str], engine: Engine, start: int, detail: bool) -> list[str]:
    return head + [e.line() for e in engine.events[start:] if detail or not e.detail]


def _save(engine: Engine, seed: int, kinds: list[str], decisions: int, agents: dict[str, Agent]) -> dict:
    """The position as a save holds it (the caller adds the files played and where they are)."""
    humans = [a for a in agents.values() if isinstance(a, HumanAgent)]
    return {
        "umpire_save": {"seed": seed, "agents": kinds, "decisions": decisions, "events": len(engine.events),
                        "narration": _digest(engine), "typed": [t for h in humans[:1] for t in h.typed]},
        "state": snapshot(engine),
    }


def _sealed(proc: Process | None) -> bool:
    """Whether an open 'secretly' block holds an answer not yet revealed."""
    return proc is not None and any(
        loop[0] == "secret" and loop[1] for f in proc.stack for loop in getattr(f, "loops", ()))


def answered(proc: Process, req):
    """A loaded process driven as the runner drives one: the decision it waits for first."""
    answer = yield req
    return (yield from driven_on(proc, answer))


def _rng_state(rng) -> list:
    """A generator's state as TOML holds it: [version, [624 words and the index]] (no gauss cache: unused)."""
    version, internal, _gauss = rng.getstate()
    return [version, list(internal)]


def _rng(state: list) -> tuple:
    version, internal = state
    return version, tuple(internal), None


def _digest(engine: Engine) -> str:
    """A fingerprint of the narration so far: a loaded game must have told the same story."""
    return _chain([e.line() for e in engine.events], [])


def _chain(lines: list[str], links: list[int]) -> str:
    """The digest of the narration, chained at `links` (the line counts where a game was loaded from its
    position and went on without the lines before): a game saved again after such a load cannot hash
    the lines it never had, so it hashes its own onto the digest it was loaded with; a replay (--verify),
    which has every line, computes the same chain. No links: the digest of all the lines."""
    digest = None
    bounds = [0, *links, len(lines)]
    for a, b in zip(bounds, bounds[1:]):
        digest = _link(digest, lines[a:b])
    return digest


def _link(before: str | None, lines: list[str]) -> str:
    text = "\n".join(lines) if before is None else before + "\n" + "\n".join(lines)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _resume_check(engine: Engine, resume: dict, resumed_at: list[int], where_it_stands: Callable[[], dict]):
    """At the save point, the replayed state must be the saved one; narration resumes there. With
    `--verify` (`compare`: the saved position and what it goes on from), so must those be."""
    target = resume["decisions"]

    def check(asked: int) -> None:
        if asked == target and not resumed_at[1]:
            told = _chain([e.line() for e in engine.events], resume.get("links", []))
            found = shown("state", differences(flat(resume["state"]), flat(snapshot(engine))))
            if "compare" in resume:
                found += _compared(resume["compare"], where_it_stands())
            if told != resume.get("narration"):
                found.append(f"narration differs from the replay: saved digest {resume.get('narration')}, replayed {told}")
            if found:
                raise NotTheReplay(found)
            if resume["events"] != len(engine.events):
                raise ScriptError(f"field 'events': the save says {resume['events']} lines of narration before the saved "
                                  f"position; the game has {len(engine.events)}")
            resumed_at[0], resumed_at[1] = resume["events"], True

    return check


def _compared(saved: dict, replayed: dict) -> list[str]:
    """The saved position and what it goes on from against the replay's, field by field."""
    found = shown("position", differences(position_fields(saved["position"]), position_fields(replayed["position"])))
    goes_on, again = saved["goes_on"], replayed["goes_on"]
    diffs = differences(flat(goes_on.get("segment"), "segment"), flat(again["segment"], "segment"))
    diffs += generator_differences("dice", goes_on.get("dice"), again["dice"])
    for side in dict.fromkeys([*goes_on.get("agents", {}), *again["agents"]]):
        diffs += generator_differences(f"agents.{side}", goes_on.get("agents", {}).get(side), again["agents"].get(side))
    diffs += differences(flat(goes_on.get("memory", {}), "memory"), flat(again.get("memory", {}), "memory"))
    return found + shown("goes_on", diffs)


class NotTheReplay(ScriptError):
    """A save whose fields are not the replay's: each difference is a line of its own."""

    def __init__(self, found: list[str]):
        super().__init__(f"this saved game does not replay to the saved position: {len(found)} difference(s), "
                         f"listed above (the rules, set-up or seed changed, or the save was edited)")
        self.differences = found
