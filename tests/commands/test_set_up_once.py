"""A scenario is set up once per command: the front end's check runs its set-up (load.set_up_and_checked)
and the command that runs or plays or draws it goes on from that engine, never setting it up again."""

from __future__ import annotations

import pytest

from interpreter.cli import main
from interpreter.runtime.games.setup import Setup

NIGHT = "tests/lang/fog_night.scenario"
EOP = "scenarios/jenkins_ear/eop_combat_step.scenario"


@pytest.fixture
def set_ups(monkeypatch) -> list[str]:
    """The scenario files set up, one entry per run of a set-up."""
    runs: list[str] = []
    real = Setup.run

    def counted(self: Setup) -> None:
        runs.append(self.sc.file)
        real(self)

    monkeypatch.setattr(Setup, "run", counted)
    return runs


@pytest.mark.parametrize("argv", [
    ["run", NIGHT],
    ["run", NIGHT, "--json"],
    ["explain", NIGHT],
    ["draw", NIGHT, "--at", "end", "-o", "{tmp}/night.svg"],
    ["play", EOP, "--agents", "first,first", "--seed", "1"],
    ["draw", "rulesets/jenkins_ear.rules", "-o", "{tmp}/demo.svg"],
], ids=["run", "run-json", "explain", "draw-scenario", "play-scenario", "draw-demo-set-up"])
def test_a_command_sets_its_scenario_up_once(argv, set_ups, tmp_path, capsys):
    assert main([arg.format(tmp=tmp_path) for arg in argv]) == 0
    assert len(set_ups) == 1, set_ups

