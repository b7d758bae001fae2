"""The designer's guide (docs/designing.md) works as written: its rules blocks are the game's file,
in order; the game checks clean, runs its worked example with the trace and the exact odds the page
shows, plays to its end, and keeps to the shape the guide promises (issue targets: at most 150 code
lines, at most 35% of them statements)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
PAGE = (ROOT / "docs" / "designing.md").read_text(encoding="utf-8")
GAME = ROOT / "docs" / "designing"


def blocks(kind: str) -> list[str]:
    """The page's fenced blocks of one kind, in order."""
    return re.findall(rf"```{kind}\n(.*?)```", PAGE, re.S)


def shown_after(marker: str) -> list[str]:
    """The lines of the first plain fenced block after the marker (what the page says a command prints)."""
    at = PAGE.index(marker) + len(marker)
    found = re.search(r"```\n(.*?)```", PAGE[at:], re.S)
    assert found, marker
    return [line for line in found.group(1).splitlines() if line.strip()]


def test_the_pages_rules_are_the_games_file():
    assert "\n".join(blocks("rules")) == (GAME / "kestrel_ridge.rules").read_text(encoding="utf-8")


def test_the_game_checks_clean_as_the_page_says(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", "docs/designing/kestrel_ridge.rules"]) == 0
    out = capsys.readouterr().out
    assert all(line in out.splitlines() for line in shown_after("prints, besides two notes of the table analysis:"))


def test_the_worked_example_runs_with_the_pages_trace_and_odds(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["run", "docs/designing/kestrel_ridge_attack.scenario"]) == 0
    out = capsys.readouterr().out
    assert "result: 4 of 4 expectations met" in out
    trace = shown_after('umpire run docs/designing/kestrel_ridge_attack.scenario\n```\n')
    assert all(line in out.splitlines() for line in trace), out
    assert main(["odds", "docs/designing/kestrel_ridge_attack.scenario", "--fact", "crt result"]) == 0
    out = capsys.readouterr().out
    odds = shown_after('--fact "crt result"\n```\n')
    assert all(line in out.splitlines() for line in odds), out


def test_the_game_plays_to_its_end(tmp_path, capsys, monkeypatch):
    for name in ("kestrel_ridge.rules", "kestrel_ridge_map.scenario", "kestrel_ridge_setup.scenario"):
        shutil.copy(GAME / name, tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["play", "kestrel_ridge.rules", "--scenario", "standard", "--agents", "random,random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "[1.3] the game ends after turn 5" in out
    assert re.search(r"\[9\.0\] victory: read at \d+ -> (North wins|South wins|a draw)", out), out


def test_the_game_keeps_the_shape_the_guide_promises(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["coverage", "--shape", "--json", "docs/designing/kestrel_ridge.rules"]) == 0
    shape = json.loads(capsys.readouterr().out)
    assert shape["code"] <= 150 and shape["statements"] <= 0.35 * shape["code"], shape
    assert f"its rules are {shape['code']} code lines" in PAGE
    assert shape["statement_share"] in PAGE
    assert set(shape["library"]) == {"movement", "zones_of_control", "stacking", "steps", "retreats", "combat_results",
                                     "reinforcements", "victory_points"}


def test_the_larger_example_checks_runs_its_example_and_plays(tmp_path, capsys, monkeypatch):
    # Harrow Gap (docs/designing/harrow_gap/), a larger game written from the guide alone.
    monkeypatch.chdir(ROOT)
    folder = "docs/designing/harrow_gap"
    assert main(["check", f"{folder}/harrow_gap.rules"]) == 0
    assert " 0 error(s), 0 warning(s)" in capsys.readouterr().out
    assert main(["run", f"{folder}/harrow_gap_attack.scenario"]) == 0
    assert "result: 7 of 7 expectations met" in capsys.readouterr().out
    shutil.copytree(ROOT / folder, tmp_path / "harrow_gap")
    monkeypatch.chdir(tmp_path / "harrow_gap")
    assert main(["play", "harrow_gap.rules", "--scenario", "standard", "--agents", "random,random", "--seed", "1"]) == 0
    assert "the game ends" in capsys.readouterr().out
