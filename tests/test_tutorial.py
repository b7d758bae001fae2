"""The overlay tutorial (docs/tutorial-overlays.md) works as written: its house rule and its
scenario, taken from the page itself, check and run with the outputs the page shows."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "tutorial-overlays.md").read_text(encoding="utf-8")


def block_after(marker: str) -> str:
    """The first fenced block that follows the marker on the page."""
    at = PAGE.index(marker)
    found = re.search(r"```[a-z]*\n(.*?)```", PAGE[at:], re.S)
    assert found, marker
    return found.group(1)


def test_the_tutorial_house_rule_and_case(tmp_path, capsys, monkeypatch):
    shutil.copytree(ROOT / "rulesets", tmp_path / "rulesets")
    (tmp_path / "scenarios" / "jenkins_ear").mkdir(parents=True)
    shutil.copy(ROOT / "scenarios/jenkins_ear/case_table_perilous_storm.scenario", tmp_path / "scenarios/jenkins_ear")
    monkeypatch.chdir(tmp_path)
    house = Path("rulesets/jenkins_ear/house/calm_seas.house")
    house.write_text(block_after("Create a new file `rulesets/jenkins_ear/house/calm_seas.house`"))

    # Step 4: the deliberate misspelling is caught, with the page's message and suggestion.
    assert main(["check", str(house)]) == 1
    err = capsys.readouterr().err
    assert "calm_seas.house:4:21: error: unknown modifier 'strom' of table 'perilous_sea'" in err
    assert "did you mean 'storm'?" in err
    house.write_text(house.read_text().replace("strom", "storm"))
    assert main(["check", str(house)]) == 0
    assert "remove modifier storm of table perilous_sea" in capsys.readouterr().out

    # Step 5: the rulebook case as printed, then with the house rule.
    case = "scenarios/jenkins_ear/case_table_perilous_storm.scenario"
    assert main(["run", case]) == 0
    assert "[6.3] perilous_sea: roll 5 storm -1 [6.3] = 4 -> The Briny Deep" in capsys.readouterr().out
    assert main(["run", case, "--with", str(house)]) == 1
    assert "[6.3] perilous_sea: roll 5 = 5 -> No effect" in capsys.readouterr().out

    # Step 6: the reader's own case, which names the house rule itself.
    mine = Path("scenarios/jenkins_ear/my_calm_seas.scenario")
    mine.write_text(block_after("Create\n`scenarios/jenkins_ear/my_calm_seas.scenario` with:"))
    assert main(["run", str(mine)]) == 0
    out = capsys.readouterr().out
    assert "overlays: calm_seas (rulesets/jenkins_ear/house/calm_seas.house): CALM-1" in out
    assert "result: 2 of 2 expectations met" in out
