"""Whole games: the sequence of play, turn after turn, with seeded dice and agents.

A game starts from a scenario's set-up (or an empty position) and runs every phase and
step of the ruleset's sequence until the last turn. Steps the ruleset declares `pending`
are named in the narration and skipped, so an incomplete ruleset still plays honestly.
The same seed and agents give the same game, byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..check.symbols import Symbols
from ..ir import nodes as n
from ..syntax.diagnostics import Diagnostic, Sources
from .agents import Agent, FirstLegalAgent, RandomAgent
from .dice import SeededDice
from .driver import Runner
from .engine import Engine
from .requests import RuleError, ScriptError
from .scenario import Setup

AGENT_KINDS = ("random", "first")


@dataclass
class Game:
    lines: list[str] = field(default_factory=list)
    error: Diagnostic | None = None


def make_agents(sym: Symbols, kinds: list[str], seed: int) -> dict[str, Agent]:
    """One agent per side, in the order the sides are declared; each has its own seeded generator."""
    agents: dict[str, Agent] = {}
    for i, side in enumerate(sym.sides):
        kind = kinds[i] if i < len(kinds) else kinds[-1]
        agents[side] = RandomAgent(seed * 1000 + i + 1) if kind == "random" else FirstLegalAgent()
    return agents


def steps_from(sym: Symbols, start: tuple[int, str, str] | None):
    """(turn, phase, step) triples from the start point to the end of the last turn."""
    seq = sym.sequence
    if seq is None:
        return
    turns = sym.game.turns if sym.game and sym.game.turns else 1
    first_turn, first_phase, first_step = start if start else (1, None, None)
    started = start is None
    for turn in range(first_turn, turns + 1):
        for phase in seq.phases:
            for step in phase.steps:
                if not started and (phase.name, step.name) == (first_phase, first_step):
                    started = True
                if started:
                    yield turn, phase, step


def play(sym: Symbols, sources: Sources, setup: n.Scenario | None, seed: int, kinds: list[str]) -> Game:
    game = Game()
    engine = Engine(sym, sources)
    title = sym.game.title if sym.game and sym.game.title else (sym.game.name if sym.game else "?")
    game.lines.append(f"game: {title}, seed {seed}, agents {', '.join(f'{s} {k}' for s, k in zip(sym.sides, kinds))}")
    try:
        if setup is not None:
            Setup(engine, setup).run()
            game.lines.append(f"set-up: {setup.title}")
        runner = Runner(engine, SeededDice(seed), make_agents(sym, kinds, seed))
        for turn, phase, step in steps_from(sym, setup.at if setup is not None else None):
            engine.state.turn, engine.state.phase, engine.state.step = turn, phase.name, step.name
            cite = step.cite or step.name
            if step.pending:
                engine.trace(cite, f"turn {turn}, {phase.name}, {step.name}: not encoded yet, skipped")
                continue
            engine.trace(cite, f"turn {turn}, {phase.name}, {step.name}")
            runner.run(engine.compiler.block(step.body, cite)({}))
        turns = sym.game.turns if sym.game and sym.game.turns else 1
        end_cite = (sym.game.turns_cite or sym.game.cite) if sym.game else None
        engine.trace(end_cite or "game", f"the game ends after turn {turns}")
    except (RuleError, ScriptError) as err:
        game.error = Diagnostic("error", err.message, err.span, getattr(err, "hint", None))
    game.lines.extend(e.line() for e in engine.events)
    return game
