"""The search agent (runtime/games/search.py, issue 16): its rollouts play on through the same rules in
the game's own engine and leave no trace, it is reproducible, and it reads the ruleset's
`outcome` and `worth`."""

from __future__ import annotations

import contextlib
import tomllib
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.runtime.games import search
from interpreter.runtime.games.agents import RandomAgent
from interpreter.runtime.games.play import play
from interpreter.study import Spec, prepared

ROOT = Path(__file__).resolve().parent.parent.parent


def _game(path: str):
    """The ruleset and the set-up `umpire play FILE` starts from."""
    return prepared(Spec(path, ("random", "random")))


@pytest.mark.parametrize("path, seed", [("rulesets/jenkins_ear.rules", 2), ("tests/lang/secret.rules", 5)])
def test_rollouts_leave_the_game_exactly_as_it_was(path, seed, monkeypatch):
    """An agent that plays rollouts at every decision, then answers as the random agent of its seat
    would, plays the very game two random agents play: same trace, line for line."""
    monkeypatch.chdir(ROOT)
    sym, sources, setup = _game(path)
    plain = play(sym, sources, setup, seed, ["random", "random"])
    rollouts = []

    def probing(self, req):
        for i, candidate in enumerate(self.candidates(req)[:2]):
            rollouts.append(self.lookahead.rollout(candidate, self.side, seed + i, 2))
        shadow = self.__dict__.setdefault("shadow", RandomAgent(seed * 1000 + 1))
        return shadow.choose(req)

    monkeypatch.setattr(search.SearchAgent, "choose", probing)
    probed = play(sym, sources, setup, seed, ["search", "random"])
    assert rollouts, "the search agent was asked"
    assert probed.lines[1:] == plain.lines[1:] and plain.lines[1:]
    assert probed.final == plain.final


def test_the_same_seed_and_budget_give_the_same_game(monkeypatch):
    monkeypatch.chdir(ROOT)
    sym, sources, setup = _game("tests/lang/secret.rules")
    first = play(sym, sources, setup, 9, ["search", "search"])
    again = play(sym, sources, setup, 9, ["search", "search"])
    assert first.lines[1:] == again.lines[1:] and first.error is None


def test_a_secret_answer_is_hidden_from_the_search_agent(monkeypatch, capsys):
    """Blue's search agent decides after Red inside 'secretly': its rollouts replace Red's answer with
    a random legal one, so what it tries, and scores, is the same whatever Red answered."""
    monkeypatch.chdir(ROOT)
    scores: dict[str, list[float]] = {}
    rollout = search.Lookahead.rollout

    def recorded(self, answer, side, seed, horizon):
        value = rollout(self, answer, side, seed, horizon)
        scores.setdefault(current, []).append((str(answer), value))
        return value

    monkeypatch.setattr(search.Lookahead, "rollout", recorded)
    for current in ("close", "withdraw"):
        assert main(["run", f"tests/lang/secret_search_{current}.scenario"]) == 0
    capsys.readouterr()
    assert scores["close"] == scores["withdraw"]
    # Won, lost, or no battle (both withdrew: no gauge holder) in the rollouts.
    assert {v for _, v in scores["close"]} == {0.0, 0.5, 1.0}


def test_a_search_budget_is_named_with_the_agent_and_kept_in_saves(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(ROOT)
    assert main(["play", "tests/lang/secret.rules", "--agents", "search:0,random"]) == 1
    assert "unknown agent 'search:0'" in capsys.readouterr().err
    save = tmp_path / "s.toml"
    game = ["play", "rulesets/jenkins_ear.rules", "--agents", "search:3,search:2", "--seed", "3"]
    assert main([*game, "--detail"]) == 0
    whole = capsys.readouterr().out.splitlines()
    assert main([*game, "--stop-after", "40", "--save", str(save)]) == 0
    assert tomllib.loads(save.read_text())["umpire_save"]["agents"] == ["search:3", "search:2"]
    capsys.readouterr()
    assert main(["play", "--load", str(save), "--detail"]) == 0
    loaded = capsys.readouterr().out.splitlines()
    # The search agents' generators are saved: the loaded game ends as the whole game does.
    assert len(loaded) > 100 and loaded[-100:] == whole[-100:]


def test_an_outcome_value_may_stand_for_a_side(monkeypatch):
    """GaM records its victory as a level; its header says which levels are a side's win."""
    from interpreter.runtime.execution.engine import Engine

    monkeypatch.chdir(ROOT)
    sym, sources, _ = _game("rulesets/guerra_a_muerte.rules")
    engine = Engine(sym, sources)
    look = search.Lookahead(engine, lambda horizon: iter(()))
    look.worth = None  # the outcome alone (GaM's worth, its areas held, is added to it in play)
    scores = {}
    for level in ("Royalist victory", "Patriot victory", "stalemate"):
        engine.state.facts["victory"] = level
        scores[level] = (look.score("royalist"), look.score("patriot"))
    assert scores == {"Royalist victory": (1.0, 0.0), "Patriot victory": (0.0, 1.0), "stalemate": (0.5, 0.5)}


def test_candidates_reach_the_rollouts_as_the_driver_would_give_them():
    """A declined reroll is sent to the process as None, never as the agents' PASS mark (a rollout
    answers the waiting process itself, without the driver)."""
    from interpreter.runtime.common.requests import ChoiceRequest
    from interpreter.runtime.games.agents import PASS

    sent = []

    class Recording:
        def at_decision(self):
            return contextlib.nullcontext()

        def rollout(self, answer, side, seed, horizon):
            sent.append(answer)
            return 0.5

    req = ChoiceRequest(chooser="red", name="reroll", mode="reroll", options=[("pool", 0), ("pool", 1)], cite="1.0",
                        span=None, spend={"red": ["R1"]})
    search.SearchAgent(1, "red", Recording()).choose(req)
    assert sent and PASS not in sent and None in sent


def test_the_tree_search_follows_a_chain_of_decisions_through(monkeypatch):
    """A lock of three digits chosen one after another: the flat search tries each first digit with
    random completions, the tree search also searches the digits after it. At 600 rollouts a decision
    (measured on 40 seeds: the tree search opened it 40 times, the flat one 29), the tree search opens
    it on every seed here, and the flat one does not."""
    from interpreter.study import Spec, run_games

    monkeypatch.chdir(ROOT)
    opened = {}
    for kind in ("mcts:600", "search:600"):
        spec = Spec("tests/lang/lock.rules", (kind, "random"), outcome="opened")
        opened[kind] = [r.outcome for r in run_games(spec, list(range(1, 9)))]
    assert opened["mcts:600"] == ["red"] * 8
    assert "blue" in opened["search:600"]


@pytest.mark.parametrize("agent", ["mcts:3", "greedy:6"])
def test_the_searching_agents_replay_with_their_seed_and_budget(agent, monkeypatch):
    monkeypatch.chdir(ROOT)
    sym, sources, setup = _game("rulesets/jenkins_ear.rules")
    first = play(sym, sources, setup, 4, [agent, "random"])
    again = play(sym, sources, setup, 4, [agent, "random"])
    assert first.error is None and first.lines[1:] == again.lines[1:] and len(first.lines) > 500


def test_the_rollouts_of_a_decision_share_its_position(monkeypatch):
    """A decision's rollouts all start from its position: it is taken once for all of them, and the
    game is the one played when every rollout takes the position itself."""
    from interpreter.runtime.position.position import Position

    monkeypatch.chdir(ROOT)
    sym, sources, setup = _game("rulesets/jenkins_ear.rules")
    counts = {"taken": 0, "rollouts": 0}
    of, rollout = Position.of.__func__, search.Lookahead.rollout

    def taking(cls, *args):
        counts["taken"] += 1
        return of(cls, *args)

    def counted(self, *args, **kwargs):
        counts["rollouts"] += 1
        return rollout(self, *args, **kwargs)

    monkeypatch.setattr(Position, "of", classmethod(taking))
    monkeypatch.setattr(search.Lookahead, "rollout", counted)
    shared = play(sym, sources, setup, 4, ["greedy:6", "random"], stop_after=60)
    shared_counts = dict(counts)
    counts.update(taken=0, rollouts=0)
    monkeypatch.setattr(search.Lookahead, "at_decision", contextlib.contextmanager(lambda self: (yield)))
    alone = play(sym, sources, setup, 4, ["greedy:6", "random"], stop_after=60)
    assert shared.lines == alone.lines and shared.save == alone.save and shared.save is not None
    assert counts["taken"] >= counts["rollouts"] == shared_counts["rollouts"] > 50
    assert shared_counts["taken"] < shared_counts["rollouts"] / 2


def test_the_greedy_agent_looks_past_a_step_worth_nothing_by_itself(monkeypatch):
    """A column must be readied (worth nothing until it marches) and then marches 0, 1 or 2 miles
    three times (tests/lang/march.rules). One step ahead every answer to 'ready?' is worth the same,
    so the greedy agent plays each to the end of the step and keeps the best: it readies and marches
    2 miles every time, 6 in all, on every seed; random play does not."""
    from interpreter.study import Spec, run_games

    monkeypatch.chdir(ROOT)
    miles = {}
    for kind in ("greedy", "random"):
        spec = Spec("tests/lang/march.rules", (kind, "random"), facts=("road[red]",))
        miles[kind] = [int(r.facts["road[red]"]) for r in run_games(spec, list(range(1, 9)))]
    assert miles["greedy"] == [6] * 8
    assert max(miles["random"]) < 6


def test_the_greedy_agent_declines_where_it_has_been(monkeypatch):
    """A scout may walk between two huts as long as he likes, and each walk may turn up gold
    (tests/lang/wander.rules): played on, walking always may pay more than stopping, so a greedy
    agent that forgot where it had been walks hundreds of times (JE's English once walked a land
    counter between two seaports until the rules' loop limit stopped the game, 7.0 and 7.5). At a
    position met before in the step it declines: a few walks, then it stops."""
    from interpreter.study import Spec, run_games

    monkeypatch.chdir(ROOT)
    spec = Spec("tests/lang/wander.rules", ("greedy", "random"))
    walks = [r.decisions for r in run_games(spec, [1, 2, 3])]
    assert all(r < 30 for r in walks), walks
    monkeypatch.setattr(search.GreedyAgent, "met_before", lambda self: False)
    forgetful = [r.decisions for r in run_games(spec, [1, 2, 3])]
    assert max(forgetful) > 100, forgetful


def test_the_greedy_agents_memory_is_saved(monkeypatch, capsys, tmp_path):
    """A JE game saved in the middle of a step, where the greedy agent remembers the positions it
    has met, and loaded, remembers them: saved again one decision later it holds what the whole
    game holds there, and it ends as the whole game does."""
    monkeypatch.chdir(ROOT)
    game = ["play", "rulesets/jenkins_ear.rules", "--agents", "greedy:6,random", "--seed", "134"]
    assert main([*game, "--detail"]) == 0
    whole = capsys.readouterr().out.splitlines()
    saves = {name: tmp_path / f"{name}.toml" for name in ("at60", "at61", "again61")}
    assert main([*game, "--stop-after", "60", "--save", str(saves["at60"])]) == 0
    assert main([*game, "--stop-after", "61", "--save", str(saves["at61"])]) == 0
    assert main(["play", "--load", str(saves["at60"]), "--stop-after", "61", "--save", str(saves["again61"])]) == 0
    memory = {name: tomllib.loads(path.read_text())["goes_on"]["memory"] for name, path in saves.items()}
    assert len(memory["at61"]["english"]["seen"]) > 1 and memory["again61"] == memory["at61"]
    capsys.readouterr()
    assert main(["play", "--load", str(saves["at60"]), "--detail"]) == 0
    loaded = capsys.readouterr().out.splitlines()
    assert len(loaded) > 100 and loaded[-100:] == whole[-100:]


def test_a_tampered_memory_is_refused_with_its_field(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(ROOT)
    save = tmp_path / "g.toml"
    assert main(["play", "rulesets/jenkins_ear.rules", "--agents", "greedy:6,random", "--seed", "134",
                 "--stop-after", "60", "--save", str(save)]) == 0
    text = save.read_text()
    assert "[goes_on.memory.english]" in text
    save.write_text(text.replace("[goes_on.memory.english]\n", "[goes_on.memory.english]\nextra = 1\n"))
    capsys.readouterr()
    assert main(["play", "--load", str(save)]) == 1
    err = capsys.readouterr().err
    assert "goes_on.memory.english" in err and "Traceback" not in err
