"""The command line's conventions: `umpire --version`, help text for every argument and option."""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path

import pytest

from interpreter.cli import main, parser

ROOT = Path(__file__).resolve().parent.parent.parent


def test_version_is_the_packages(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert stop.value.code == 0 and capsys.readouterr().out == f"umpire {version}\n"


def _arguments(parser: argparse.ArgumentParser, name: str):
    for action in parser._actions:
        yield name, action
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                yield from _arguments(sub, f"umpire {command}")


def test_every_argument_and_option_has_help_text():
    bare = [f"{name} {'/'.join(a.option_strings) or a.dest}" for name, a in _arguments(parser(), "umpire")
            if not (a.help or "").strip()]
    assert bare == []


def test_help_describes_the_positional_arguments_and_the_seed(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--seed SEED the seed of the dice and of the agents' choices" in text
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert "scenario the scenario to run (.scenario)" in " ".join(capsys.readouterr().out.split())


@pytest.fixture
def served(monkeypatch):
    """`umpire serve` with uvicorn's run recorded instead of listening."""
    import uvicorn

    calls: list[dict] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(options))
    return calls


def test_serve_listens_on_this_machine_unless_told_otherwise_and_warns_then(served, capsys):
    assert main(["serve"]) == 0
    said = capsys.readouterr().err
    assert served[-1] == {"host": "127.0.0.1", "port": 8036, "log_level": "warning"}
    assert "warning" not in said and "http://127.0.0.1:8036/" in said
    assert main(["serve", "rulesets/jenkins_ear.rules", "--host", "0.0.0.0", "--port", "9000"]) == 0
    said = capsys.readouterr().err
    assert served[-1]["host"] == "0.0.0.0" and served[-1]["port"] == 9000
    assert said.startswith("umpire: warning: serving on 0.0.0.0, not 127.0.0.1: anyone who reaches this address")
    assert "http://0.0.0.0:9000/?open=rulesets/jenkins_ear.rules" in said


@pytest.mark.parametrize("argv,said", [
    (["serve", "README.md"], "README.md: error: umpire serve opens a rules file (.rules), a scenario (.scenario) or a saved game (.toml)"),
    (["serve", "--port", "0"], "umpire: error: --port takes a port number from 1 to 65535, not 0"),
    (["serve", "--port", "70000"], "umpire: error: --port takes a port number from 1 to 65535, not 70000"),
])
def test_serve_refuses_what_it_cannot_serve_in_one_line_exit_1(served, capsys, argv, said):
    assert main(argv) == 1
    assert capsys.readouterr().err.startswith(said) and served == []


def test_serve_says_when_it_cannot_listen(monkeypatch, capsys):
    import uvicorn

    def taken(app, **options):
        raise OSError(98, "Address already in use")

    monkeypatch.setattr(uvicorn, "run", taken)
    assert main(["serve", "--port", "8036"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == "umpire: error: cannot listen on 127.0.0.1:8036: Address already in use"


def test_serve_help_describes_its_path_and_address(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert stop.value.code == 0
    assert "PATH a ruleset, scenario or saved game the page opens" in text and "--host HOST the address to listen on (default 127.0.0.1" in text
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", "eighty"])
    assert stop.value.code == 2


@pytest.mark.parametrize("text,said", [
    ("not toml at all [", "umpire: error: {path}: "),
    ("[umpire_save]\nseed = 1\n", "umpire: error: {path}: "),
])
def test_odds_refuse_a_bad_save_in_one_line_exit_1(tmp_path, capsys, text, said):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["odds", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(said.format(path=path)) and err.count("\n") == 1 and "Traceback" not in err


def test_odds_until_takes_a_horizon_and_only_with_a_save(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["odds", "scenarios/jenkins_ear/eop_land_3018.scenario", "--until", "battle"])
    assert stop.value.code == 2 and "argument --until: invalid choice: 'battle'" in capsys.readouterr().err
    assert main(["odds", "scenarios/jenkins_ear/eop_land_3018.scenario", "--until", "phase"]) == 1
    assert capsys.readouterr().err == ("umpire: error: --until measures from a saved game's position (.toml); a scenario "
                                       "is measured from its set-up to the end of its run\n")
    assert main(["odds", "README.md"]).__class__ is int  # a file of neither kind is refused, as before
    assert "umpire odds reads a scenario (.scenario) or a saved game (.toml)" in capsys.readouterr().err
