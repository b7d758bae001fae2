"""A search agent: it tries its candidate answers by playing on through the same rules, in the
engine itself, and puts the position back after each try (issue 16; decision 35).

**Rollouts.** At a decision the agent's `Lookahead` takes the position (runtime/position/position.py),
answers, and plays on with random agents and dice of its own to a horizon: the rest of the
current step and then `horizon` more steps, or the game's end (in a scenario, the end of its run).
At a decision inside `secretly`, the answers other sides gave earlier in the block are replaced by
random legal ones first: the agent cannot see them (language §11.13a). It then reads what the ruleset
declares (the game header's `outcome` and `worth`, language §4) and restores the position, so
the game goes on exactly as if nothing had been tried: the game's own dice, agents and trace are
never touched, and a game with the same seed and budget replays byte for byte.

**Fog of war.** Before each rollout, the enemy units the agent's side does not see (the view,
language §6.3b) are dealt again at random among the places where such units stand: the agent
plays on from a position it could believe, not from the one it cannot see. Units carried or
carrying are left where they are.

**Choosing.** Candidates are every option of a one-option decision (sampled down to `width`),
or `width` distinct random answers of the others, with declining when it is legal. Successive
halving spreads the rollout budget over them: each round gives every candidate left the same
number of rollouts and keeps the better half by mean reward.

**Reward.** A rollout whose outcome (the header's game state or fact) names the agent's side at its
end scores 1, one naming another side 0, and one naming none yet (the game not over) 0.5. With a
`worth` function the score is that, times 1000, plus the worth to the side at the end of the
rollout: winning counts first, and the designer's worth breaks ties and guides play before the end.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from statistics import mean
from typing import Any

from ..common.requests import ChoiceRequest, RuleError, ScriptError
from ..common.values import Unit
from ..execution.dice import SeededDice
from ..execution.vm import Choose, driven_on
from ..position.position import Position
from .agents import PASS, Agent, EagerAgent, RandomAgent
from .driver import Runner, illegal, normalize

WIN_WEIGHT = 1000  # a won game outweighs any worth a designer's function gives


class Lookahead:
    """Plays on from the decision a game is waiting for, and puts the game back."""

    def __init__(self, engine, segments_after: Callable[[int | None], Iterator]):
        self.engine = engine
        self.segments_after = segments_after  # the game's segments after the current one (play.py)
        game = engine.sym.game
        self.outcome = game.outcome.name if game is not None and game.outcome is not None else None
        self.winners = dict(game.outcome.sides) if self.outcome is not None else {}  # "a red win" -> red
        worth = engine.sym.functions.get(game.worth.name) if game is not None and game.worth is not None else None
        self.worth = engine.function_values(worth, [None], worth.span) if worth is not None else None
        self.held: Position | None = None  # the position of the decision being searched (see `at_decision`)
        self.unseen: dict[str, list] = {}  # the side -> the units it does not see there, and where they stand

    @contextmanager
    def at_decision(self):
        """The rollouts of one decision all start from its position: it is taken once and put back
        after each rollout (restoring leaves a position as it was), and what each side does not see
        there is found once."""
        self.held, self.unseen = Position.of(self.engine, self.engine.process), {}
        try:
            yield
        finally:
            self.held, self.unseen = None, {}

    def rollout(self, answer: Any, side: str, seed: int, horizon: int | None, own: Agent | None = None,
                halt: bool = False) -> float:
        """Answer, play on to the horizon with random agents (`own` for the side, when given) and
        seeded dice, score, restore. With `halt`, play on only to the next decision, anyone's."""
        engine = self.engine
        proc = engine.process
        before = self.held if self.held is not None else Position.of(engine, proc)
        narrate, engine.narrate = engine.narrate, False
        rng = random.Random(seed)
        try:
            self.deal_unseen(side, rng)
            self.redraw_sealed(proc, side, rng)
            agents = {s: RandomAgent(rng.randrange(2**31)) for s in engine.sym.sides}
            if own is not None:
                agents[side] = own
            if halt:
                agents = dict.fromkeys(engine.sym.sides, HALT)
            runner = Runner(engine, SeededDice(rng.randrange(2**31)), agents)
            self.play_on(runner, proc, answer, horizon)
            return self.score(side)
        except (RuleError, ScriptError, Halted):
            return self.score(side)  # a rule the rollout could not apply: scored where it stopped
        finally:
            before.restore(engine, proc)
            engine.process, engine.narrate = proc, narrate

    def play_on(self, runner: Runner, proc, answer: Any, horizon: int | None) -> None:
        """The rest of the waiting process, then the segments after it, to the horizon (an `end
        game` goes on to the game's end, `Engine.run_to_end`)."""
        after = (begin for _label, begin in self.segments_after(horizon))
        runner.run(self.engine.run_to_end(after, first=driven_on(proc, answer)))

    def score(self, side: str) -> float:
        """1 for a rollout whose outcome names the side, 0 for one naming another side, 0.5 when it
        names none yet (the game or the scenario's run not over); plus the worth, when declared."""
        engine = self.engine
        won = 0.5
        if self.outcome is not None:
            st = engine.state
            value = st.globals.get(self.outcome, st.facts.get(self.outcome))
            value = self.winners.get(value, value) if isinstance(value, str) else value
            if value in engine.sym.sides:
                won = 1.0 if value == side else 0.0
        if self.worth is None:
            return won
        engine.epoch += 1  # the worth of this position, not a cached one
        worth = self.worth([side])
        return won * WIN_WEIGHT + (worth if isinstance(worth, int | float) and not isinstance(worth, bool) else 0)

    def deal_unseen(self, side: str, rng: random.Random) -> None:
        """The enemy units `side` does not see, dealt again among the places they stand in."""
        hidden, places = self.unseen.get(side) or self.not_seen(side)
        places = list(places)
        rng.shuffle(places)
        for unit, place in zip(hidden, places):
            if unit.location is not place:
                unit.location = place


    def not_seen(self, side: str) -> tuple[list, list]:
        """The enemy units `side` does not see where the game stands, and the places they stand in
        (kept for the rollouts of the decision searched: its position is theirs)."""
        engine = self.engine
        hidden = [u for u in engine.state.units.values()
                  if u.side != side and u.location is not None and not u.location.is_box and not u.carrier and not u.cargo and not engine.sees(side, u)]
        found = (hidden, [u.location for u in hidden])
        if self.held is not None:
            self.unseen[side] = found
        return found

    def redraw_sealed(self, proc, side: str, rng: random.Random) -> None:
        """At a decision inside 'secretly', the answers other sides gave earlier in the block are
        not known to `side`: the rollout plays on from random legal answers in their place."""
        frame = proc.stack[-1] if proc.stack else None
        loops = getattr(frame, "loops", None)
        if not loops or loops[-1][0] != "secret":
            return
        ops, i = frame.code.ops, frame.pc - 2  # the waiting decision is at pc - 1; the block's earlier ones before it
        while i >= 0 and isinstance(ops[i], Choose) and ops[i].secret:
            req = ops[i].ask(frame.env)
            if req.chooser != side:
                frame.env[ops[i].name] = normalize(req, RandomAgent(rng.randrange(2**31)).choose(req))
            i -= 1


class Halted(Exception):
    """The next decision was reached: a one-step lookahead scores the position there."""


class _HaltAgent(Agent):
    def choose(self, req: ChoiceRequest) -> Any:
        raise Halted


HALT = _HaltAgent()


class SearchAgent(Agent):
    """Tries its candidate answers by rollouts (see the module's account); seeded."""

    ROLLOUTS = 24  # a decision's budget unless `search:N` says otherwise

    def __init__(self, seed: int, side: str, lookahead: Lookahead, rollouts: int = ROLLOUTS, width: int = 6,
                 horizon: int | None = 6):
        self.rng = random.Random(seed)
        self.side, self.lookahead = side, lookahead
        self.rollouts, self.width, self.horizon = rollouts, width, horizon

    def choose(self, req: ChoiceRequest) -> Any:
        # Normalised as the driver normalises an answer: a rollout sends it to the process directly.
        candidates = [normalize(req, a) for a in self.candidates(req)]
        if len(candidates) == 1:
            return candidates[0]
        with self.lookahead.at_decision():
            return candidates[self.halving(candidates)]

    def rollout_seed(self) -> int:
        return self.rng.randrange(2**31)

    def candidates(self, req: ChoiceRequest) -> list:
        """Distinct legal answers to try, declining first when it is legal."""
        out: list = []
        if req.optional or req.mode in ("up_to", "reroll"):
            out.append(PASS)
        if req.mode == "one":
            options = list(req.options)
            if len(options) > self.width:
                options = self.rng.sample(options, self.width)
            return out + options
        sampler = EagerAgent(0)
        sampler.rng = self.rng
        seen = {_canon(a) for a in out}
        for _ in range(self.width * 3):
            answer = sampler.choose(req)
            key = _canon(answer)
            if key not in seen:
                seen.add(key)
                out.append(answer)
            if len(out) >= self.width:
                break
        return out

    def halving(self, candidates: list) -> int:
        """The index of the candidate with the best mean reward after successive halving."""
        alive = list(range(len(candidates)))
        rewards: list[list[float]] = [[] for _ in candidates]
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        per_round = max(1, self.rollouts // rounds)
        while True:
            each = max(1, per_round // len(alive))
            for i in alive:
                for _ in range(each):
                    seed = self.rng.randrange(2**31)
                    rewards[i].append(self.lookahead.rollout(candidates[i], self.side, seed, self.horizon))
            if len(alive) == 1 or rounds == 1:
                break
            alive = sorted(alive, key=lambda i: (-mean(rewards[i]), i))[: max(1, len(alive) // 2)]
            rounds -= 1
        return max(alive, key=lambda i: (mean(rewards[i]), -i))


def _canon(answer: Any) -> Any:
    if isinstance(answer, dict):
        return ("split", tuple(sorted((_name(k), v) for k, v in answer.items())))
    if isinstance(answer, list):
        return ("list", tuple(sorted(_name(a) for a in answer)))
    if isinstance(answer, tuple):
        return ("reroll", tuple(_name(a) for a in answer))
    return ("one", _name(answer))


def _name(x: Any) -> str:
    return x.id if isinstance(x, Unit) else str(x)


# ── the tree search (`mcts`): the agent's own later decisions searched too ──

TREE_DEPTH = 12  # own decisions a rollout follows the tree for, below the one being decided
UCB_C = 1.0


class Node:
    """One of the searching side's decisions in a rollout, reached by the answers above it (open
    loop: whatever the dice and the other sides did in between)."""

    __slots__ = ("children", "visits", "total", "untried")

    def __init__(self, untried: list | None = None):
        self.children: dict[Any, tuple[Any, Node]] = {}
        self.visits, self.total = 0, 0.0
        self.untried = untried  # answers not tried yet; None until the node's decision is first met


class TreeSearchAgent(SearchAgent):
    """Monte Carlo tree search, open loop (issue 16): moving a stack is a chain of small decisions,
    and a flat search completes the chain at random in its rollouts, so it rarely sees a move
    through. Here each rollout also walks the tree of the side's own later decisions, trying each
    candidate once and then choosing by UCB1 (rewards scaled by the least and greatest seen), and
    plays randomly below the node it adds. The answer is the most visited first move."""

    def choose(self, req: ChoiceRequest) -> Any:
        candidates = [normalize(req, a) for a in self.candidates(req)]
        if len(candidates) == 1:
            return candidates[0]
        root, self.low, self.high = Node(list(reversed(candidates))), math.inf, -math.inf
        with self.lookahead.at_decision():
            for _ in range(self.rollouts):
                answer, child = self.descend(root)
                policy = TreePolicy(self, child, random.Random(self.rollout_seed()))
                reward = self.lookahead.rollout(answer, self.side, self.rollout_seed(), self.horizon, policy)
                self.low, self.high = min(self.low, reward), max(self.high, reward)
                for node in (root, child, *policy.path):
                    node.visits += 1
                    node.total += reward
        best = max(root.children.values(), key=lambda pair: pair[1].visits)
        return best[0]

    def descend(self, node: Node) -> tuple[Any, Node]:
        """The answer to try at `node`: an untried one (its child added), else the best by UCB1."""
        if node.untried:
            answer = node.untried.pop()
            child = Node()
            node.children[_canon(answer)] = (answer, child)
            return answer, child
        return max(node.children.values(), key=lambda pair: self.ucb(node, pair[1]))

    def ucb(self, parent: Node, child: Node) -> float:
        if child.visits == 0:
            return math.inf
        spread = self.high - self.low
        value = (child.total / child.visits - self.low) / spread if spread > 0 else 0.5
        return value + UCB_C * math.sqrt(math.log(parent.visits) / child.visits)


class TreePolicy(Agent):
    """The searching side inside one rollout: down the tree while its answers are legal, then random."""

    def __init__(self, owner: TreeSearchAgent, node: Node, rng: random.Random):
        self.owner, self.node, self.path = owner, node, []
        self.random = RandomAgent(rng.randrange(2**31))

    def choose(self, req: ChoiceRequest) -> Any:
        node = self.node
        if node is None or len(self.path) >= TREE_DEPTH:
            return self.random.choose(req)
        if node.untried is None:  # first met: its candidates, from this rollout's request
            node.untried = list(reversed([normalize(req, a) for a in self.owner.candidates(req)]))
        answer, child = self.owner.descend(node)
        if illegal(req, normalize(req, answer)):  # open loop: another path made this answer impossible here
            self.node = None
            return self.random.choose(req)
        self.path.append(child)
        self.node = child if child.visits else None  # below a node added in this rollout: random play
        return answer



class GreedyAgent(SearchAgent):
    """One step ahead: each candidate is played on (the dice seeded) to the next decision, anyone's,
    and the position there scored by the ruleset's worth; the best is taken, ties by lot.

    It does not go round in circles: where the rules set no limit (a stack may move on while it
    likes), plays that hope for more could keep it moving for ever. So it remembers the positions
    it has decided in during the current step, and at one it has met before it declines when it
    may. The memory is part of a save (`memory`), so a loaded game goes on as the whole game does."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.memory: dict = {"clock": [], "seen": []}

    def choose(self, req: ChoiceRequest) -> Any:
        candidates = [normalize(req, a) for a in self.candidates(req)]
        if len(candidates) == 1:
            return candidates[0]
        if self.met_before() and (req.optional or req.mode in ("up_to", "reroll")):
            return candidates[0]  # declining, which candidates() puts first when it is legal
        each = max(1, self.rollouts // len(candidates))
        with self.lookahead.at_decision():
            scores = [mean(self.lookahead.rollout(c, self.side, self.rollout_seed(), self.horizon, halt=True)
                           for _ in range(each)) for c in candidates]
            top = [c for c, v in zip(candidates, scores) if v == max(scores)]
            if len(top) > 1:  # no difference by the next decision: the best of a few plays to the end of the step
                scores = [max(self.lookahead.rollout(c, self.side, self.rollout_seed(), 0) for _ in range(each)) for c in top]
                top = [c for c, v in zip(top, scores) if v == max(scores)]
        return self.rng.choice(top)

    def met_before(self) -> bool:
        """Whether this step has asked the side here before, in this very position (plain
        `repeat` counts are not part of a position's key); remembered either way."""
        engine = self.lookahead.engine
        clock = [str(c) for c in engine.clock()]
        if clock != self.memory["clock"]:
            self.memory = {"clock": clock, "seen": []}
        digest = hashlib.sha1(repr(Position.of(engine, engine.process).key()).encode()).hexdigest()[:20]
        if digest in self.memory["seen"]:
            return True
        self.memory["seen"].append(digest)
        return False
