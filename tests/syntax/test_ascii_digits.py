"""Numbers are ASCII digits wherever Umpire reads one (interpreter/digits.py): Python's int() and
str.isdigit() take the digits of every script ('৪' is a Bengali 4), and a regular expression's \\d
matches them. The rules and scenarios are covered by the goldens tests/bad/syntax_number_other_script*."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import limits
from interpreter.cli import main
from interpreter.grids.geometry import parse_hex_id
from interpreter.grids.squares import id_format

ROOT = Path(__file__).resolve().parent.parent.parent
FIRE = "scenarios/jenkins_ear/case_naval_fire_ship.scenario"
BENGALI_FOUR = "\u09ea"


@pytest.mark.parametrize("option", ["--seed", "--stop-after"])
def test_a_command_line_number_in_another_script_is_a_usage_error_naming_the_digit(option, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    with pytest.raises(SystemExit) as stopped:
        main(["play", "rulesets/yellow_jack.rules", option, BENGALI_FOUR])
    assert stopped.value.code == 2
    assert f"'{BENGALI_FOUR}' (BENGALI DIGIT FOUR) is not one of the digits 0-9" in capsys.readouterr().err


def test_explain_at_a_number_in_another_script_is_a_text_to_find_not_an_event_number(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["explain", FIRE, "--at", "\u0662"]) == 1  # an Arabic-Indic 2: no event's line holds it
    assert "no event matches" in capsys.readouterr().err
    assert main(["explain", FIRE, "--at", "2"]) == 0


def test_the_step_budget_from_the_environment_takes_ascii_digits_only(monkeypatch):
    monkeypatch.setenv(limits.STEPS_VARIABLE, BENGALI_FOUR * 3)
    assert limits.max_steps() == limits.DEFAULT_MAX_STEPS
    monkeypatch.setenv(limits.STEPS_VARIABLE, "444")
    assert limits.max_steps() == 444


def test_place_ids_of_a_grid_are_read_in_ascii_digits_only():
    bengali = "\u09e6\u09e7\u09e6\u09e8"  # 0102 in Bengali digits
    assert parse_hex_id("0102") == (1, 2) and parse_hex_id(bengali) is None
    square = id_format("CCRR")
    assert square.read("0102") == (1, 2) and square.read(bengali) is None
    assert square.coordinate("row", "2") == 2 and square.coordinate("row", "\u09e8") is None
