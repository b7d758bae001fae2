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
