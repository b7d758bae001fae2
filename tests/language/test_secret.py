"""Secret decisions (language §11.13a): each side answers without seeing the other's answer, the
answers are announced together when the block ends, and no save holds an answer not yet revealed."""

from __future__ import annotations

import tomllib
from pathlib import Path

import tomli_w
from positions import loaded

from interpreter.cli import main
from interpreter.runtime.execution.dice import ScriptedDice
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.execution.vm import Process
from interpreter.runtime.games.agents import Agent
from interpreter.runtime.games.driver import Runner
from interpreter.runtime.games.scenario import run_target
from interpreter.runtime.games.setup import Setup
from interpreter.runtime.position.position import Position
from interpreter.runtime.position.position_data import from_data, to_data

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = "tests/lang/secret.rules"


class Screen:
    """A hot-seat game: what each prompt showed before it, and the lines typed (then the end of input)."""

    def __init__(self, monkeypatch, capsys, typed):
        self.capsys, self.typed, self.before = capsys, list(typed), []
        monkeypatch.setattr("builtins.input", self.input)

    def input(self, prompt=""):
        got = self.capsys.readouterr()
        self.before.append(got.out + got.err)
        item = self.typed.pop(0) if self.typed else EOFError
        if item is EOFError:
            raise EOFError
        return item


def test_the_second_side_decides_without_seeing_the_first_answer(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    save = tmp_path / "orders.toml"
    screen = Screen(monkeypatch, capsys, ["3", EOFError, str(save)])  # red withdraws; blue ends the game
    assert main(["play", RULES, "--agents", "human,human", "--seed", "1"]) == 0
    blue_saw = screen.before[1]
    assert "red has decided 'red_tactic' (secret until revealed)" in blue_saw
    assert "red_tactic: withdraw" not in blue_saw and "red_order is now" not in blue_saw
    assert "blue, decide 'blue_tactic'" in blue_saw
    # The save offered at blue's prompt is the position before red's answer: red is asked again.
    data = tomllib.loads(save.read_text())
    assert data["umpire_save"]["decisions"] == 0 and data["umpire_save"]["typed"] == []
    assert "withdraw\"" not in str(data["position"]).replace("'withdraw'", ""), "red's answer is not in the position"
    screen = Screen(monkeypatch, capsys, ["1", "1"])  # red closes, blue closes
    assert main(["play", "--load", str(save), "--detail"]) == 0
    assert "red, decide 'red_tactic'" in screen.before[0]
    out = capsys.readouterr().out
    assert "[3.1] red red_tactic: close\n[3.1] blue blue_tactic: close" in out


def test_a_save_between_secret_answers_is_the_save_before_the_first(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    saves = []
    for after in (0, 1):
        path = tmp_path / f"after{after}.toml"
        assert main(["play", RULES, "--seed", "3", "--agents", "random,random", "--stop-after", str(after),
                     "--save", str(path)]) == 0
        saves.append(path.read_bytes())
    assert saves[0] == saves[1]
    assert "asked again when the game is loaded" in capsys.readouterr().out
    assert main(["play", "--load", str(tmp_path / "after1.toml"), "--detail"]) == 0
    loaded = capsys.readouterr().out
    assert main(["play", RULES, "--seed", "3", "--agents", "random,random", "--detail"]) == 0
    whole = capsys.readouterr().out
    assert loaded.splitlines()[-6:] == whole.splitlines()[-6:], "the loaded game ends as the uninterrupted one"


class Recorder(Agent):
    """Answers from a list, and writes the position as data at the decision named `at`."""

    def __init__(self, answers, at, engine):
        self.answers, self.at, self.engine, self.taken = dict(answers), at, engine, None

    def choose(self, req):
        if req.name == self.at:
            self.taken = Position.of(self.engine, self.engine.process)
        return self.answers[req.name]


def test_a_position_between_secret_answers_is_data_that_reads_back(monkeypatch):
    """Within the block (as `umpire odds` and `explain` take positions), the held announcement is
    part of the position: written as TOML and read into a fresh engine, it has the same key."""
    monkeypatch.chdir(ROOT)
    sym, sources, sc = loaded("tests/lang/secret.scenario")
    engine = Engine(sym, sources)
    Setup(engine, sc).run()
    proc = run_target(engine, sc)
    assert isinstance(proc, Process)
    agent = Recorder({"red_tactic": "close", "blue_tactic": "hold"}, "blue_tactic", engine)
    Runner(engine, ScriptedDice(sc.dice),
           {"red": agent, "blue": agent}).run(proc)
    held = [loop for f in agent.taken.stack for loop in getattr(f, "loops", ()) if loop[0] == "secret"]
    assert held and held[0][1] == [["3.1", "red red_tactic: close"]]
    fresh = Engine(sym, sources)
    Setup(fresh, sc).run()
    again = from_data(tomllib.loads(tomli_w.dumps(to_data(agent.taken))), fresh)
    assert again.key() == agent.taken.key()


def test_odds_go_through_a_secret_block(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/secret.scenario"]) == 0
    out = capsys.readouterr().out
    # Red closes, Blue holds (the script): Red has the gauge on 3..6 of the die, 2/3.
    assert "red has the gauge                 2/3" in out and "blue has the gauge                 1/3" in out
