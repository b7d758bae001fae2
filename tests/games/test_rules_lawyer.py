"""The rules lawyer's guide (docs/rules-lawyer.md), section 7 on the newer games, works as written:
its lists of demo-only tables are what `umpire find --missing` prints, its `find` and `explain`
outputs are the commands', and each game's first scenario runs as shown."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
PAGE = (ROOT / "docs" / "rules-lawyer.md").read_text(encoding="utf-8")
GAMES = ("sea_of_glory_1805", "when_lions_sailed", "yellow_jack", "guerra_a_muerte")


def block_after(marker: str) -> str:
    """The first fenced block that follows the marker on the page."""
    at = PAGE.index(marker) + len(marker)
    found = re.search(r"```[a-z]*\n(.*?)```", PAGE[at:], re.S)
    assert found, marker
    return found.group(1)


def shown_after(command: str) -> list[str]:
    """The output the page shows after the command block ending with ``command``, without the
    '…' that stand for lines left out."""
    return [line for line in block_after(command + "\n```").splitlines() if line.strip() != "…"]


def said(capsys, *argv: str) -> list[str]:
    main(list(argv))
    out = capsys.readouterr()
    return (out.out + out.err).splitlines()


@pytest.mark.parametrize("game", GAMES)
def test_the_demo_only_tables_are_what_find_lists(game, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    lines = said(capsys, "find", f"rulesets/{game}.rules", "--missing")
    page = shown_after(f"umpire find rulesets/{game}.rules --missing")
    assert [line for line in page if line not in lines] == []
    # Every table is on the page: a table declared missing later, or a new demo table, shows here.
    assert [line for line in lines if line.startswith("  table ") and line not in page] == []


def test_the_finds_and_the_explain(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert said(capsys, "find", "rulesets/sea_of_glory_1805.rules", "provisions") == shown_after(
        "umpire find rulesets/sea_of_glory_1805.rules provisions")
    assert said(capsys, "find", "rulesets/sea_of_glory_1805.rules", "damage") == shown_after(
        "umpire find rulesets/sea_of_glory_1805.rules damage")
    three = (said(capsys, "find", "rulesets/when_lions_sailed.rules", "bid")
             + said(capsys, "find", "rulesets/yellow_jack.rules", "administrative")
             + said(capsys, "find", "rulesets/yellow_jack.rules", "impulse"))
    assert three == shown_after("umpire find rulesets/yellow_jack.rules impulse")
    overlay = "rulesets/sea_of_glory_1805/trafalgar.overlay"
    assert said(capsys, "find", "rulesets/sea_of_glory_1805.rules", "trafalgar_chits", "--with", overlay) == shown_after(
        f"umpire find rulesets/sea_of_glory_1805.rules trafalgar_chits --with {overlay}")
    case = "scenarios/yellow_jack/case_assault_d6_france_triggered.scenario"
    at = PAGE.index(f"$ umpire explain {case}")  # a block inside a list item: the command, then its output
    shown = [line.removeprefix("  ") for line in PAGE[at:PAGE.index("```", at)].rstrip().splitlines()[1:]]
    assert said(capsys, "explain", case, "--at", "France will declare") == shown


@pytest.mark.parametrize("game", GAMES)
def test_each_games_first_case_runs_as_shown(game, tmp_path, capsys, monkeypatch):
    shutil.copytree(ROOT / "rulesets", tmp_path / "rulesets")
    folder = tmp_path / "scenarios" / game
    folder.mkdir(parents=True)
    if (ROOT / "scenarios" / game / "harness").is_dir():
        shutil.copytree(ROOT / "scenarios" / game / "harness", folder / "harness")
    monkeypatch.chdir(tmp_path)
    name = f"scenarios/{game}/my_first_case.scenario"
    Path(name).write_text(block_after(f"`{name}`"), encoding="utf-8")
    assert main(["run", name]) == 0
    out = capsys.readouterr().out.splitlines()
    at = PAGE.index(f"`{name}`")
    shown = re.findall(r"```[a-z]*\n(.*?)```", PAGE[at:], re.S)[1]
    assert [line for line in shown.splitlines() if line != "…" and line not in out] == []


def test_a_demo_table_run_on_the_bare_ruleset_is_refused_as_shown(tmp_path, capsys, monkeypatch):
    shutil.copytree(ROOT / "rulesets", tmp_path / "rulesets")
    name = "scenarios/sea_of_glory_1805/my_first_case.scenario"
    (tmp_path / "scenarios" / "sea_of_glory_1805").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    case = block_after(f"`{name}`").replace('"harness/battle_with_demo.rules"', '"../../rulesets/sea_of_glory_1805.rules"')
    Path(name).write_text(case, encoding="utf-8")
    assert main(["run", name]) == 1
    shown = block_after("through the bare ruleset is refused").splitlines()
    assert capsys.readouterr().err.splitlines()[:len(shown)] == shown  # first; then what else the bare ruleset lacks


def test_a_rule_numbers_lines_are_in_coverage(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert 'umpire coverage rulesets/sea_of_glory_1805.rules | grep "^  14.6 "' in PAGE
    lines = said(capsys, "coverage", "rulesets/sea_of_glory_1805.rules")
    assert "rulesets/sea_of_glory_1805/search.rules:" in [line for line in lines if line.startswith("  14.6 ")][0]


def test_the_rule_read_top_to_bottom(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert said(capsys, "rule", "rulesets/jenkins_ear.rules", "9.3") == shown_after("umpire rule rulesets/jenkins_ear.rules 9.3")
