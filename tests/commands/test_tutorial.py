"""The overlay tutorial (docs/tutorial-overlays.md) works as written: its house rule and its
scenario, taken from the page itself, check and run with the outputs the page shows."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
PAGE = (ROOT / "docs" / "tutorial-overlays.md").read_text(encoding="utf-8")


def block_after(marker: str) -> str:
    """The first fenced block that follows the marker on the page."""
    at = PAGE.index(marker) + len(marker)
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
    out = capsys.readouterr().out
    assert all(line in out.splitlines() for line in block_after("check\nagain:").splitlines())

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


def test_the_tutorial_restriction_and_new_step(tmp_path, capsys, monkeypatch):
    shutil.copytree(ROOT / "rulesets", tmp_path / "rulesets")
    shutil.copytree(ROOT / "scenarios", tmp_path / "scenarios")
    monkeypatch.chdir(tmp_path)

    # Section 10: the shipped restriction is the page's, a misspelt decision lists them all, the
    # scenario shows the refusal with the house rule's citation and reason.
    house = Path("rulesets/jenkins_ear/house/harbour_bound.house")
    shown = block_after("`rulesets/jenkins_ear/house/harbour_bound.house`. Open it")
    assert shown in house.read_text()
    house.write_text(house.read_text().replace("decision movers", "decision mover"))
    assert main(["check", str(house)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == block_after("umpire check rulesets/jenkins_ear/house/harbour_bound.house\n```").split("\noverlay ")[0].strip()
    house.write_text(house.read_text().replace("decision mover", "decision movers"))
    assert main(["run", "scenarios/jenkins_ear/house_harbour_bound.scenario"]) == 0
    out = capsys.readouterr().out
    page = block_after("umpire run scenarios/jenkins_ear/house_harbour_bound.scenario\n```")
    assert all(line in out for line in page.splitlines() if line != "…")

    # Section 11: the new step, misspelt then right, in a played game.
    mine = Path("rulesets/jenkins_ear/house/my_subsidy.house")
    mine.write_text(block_after("Create\n`rulesets/jenkins_ear/house/my_subsidy.house` with:"))
    assert main(["check", str(mine)]) == 1
    assert "did you mean 'war_fund_purchases'? phase 'english_phase' has the steps" in capsys.readouterr().err
    mine.write_text(mine.read_text().replace("war_fund_purchase of", "war_fund_purchases of"))
    assert main(["check", str(mine)]) == 0
    capsys.readouterr()
    assert main(["play", "rulesets/jenkins_ear.rules", "--with", str(mine), "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert all(line in out for line in block_after("Every turn's story now has the new step").splitlines())


# ── sections 13-16: the newer games, with the example files of docs/examples ──

EXAMPLES = ROOT / "docs" / "examples"


def said(capsys, *argv: str) -> tuple[int, list[str]]:
    """Run one command from the repository's root: its exit code and every line it printed."""
    code = main(list(argv))
    out = capsys.readouterr()
    return code, (out.out + out.err).splitlines()


def shown_after(command: str) -> list[str]:
    """The lines of the output block the page shows after the block ending with ``command``,
    without the '…' that stand for lines left out."""
    return [line for line in block_after(command + "\n```").splitlines() if line.strip() != "…"]


def test_the_newer_games_overlays_are_the_pages(monkeypatch):
    monkeypatch.chdir(ROOT)
    for name in ("sea_of_glory_1805/search_nine.house", "when_lions_sailed/seven_to_five.house",
                 "yellow_jack/slow_france.house", "yellow_jack/club.errata"):
        assert block_after(f"`docs/examples/{name}`") == (EXAMPLES / name).read_text(encoding="utf-8"), name
    # The printed errata the page quotes are the shipped errata files' own lines.
    assert block_after("the Day of Battle chart's only printed\ncells:") in (ROOT / "rulesets/sea_of_glory_1805.errata").read_text()
    assert block_after("so each is a note on the missing\ncards:") in (ROOT / "rulesets/when_lions_sailed.errata").read_text()


def test_the_newer_games_house_rules_check_and_change_the_cases(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    cases = [
        ("sea_of_glory_1805/search_nine.house", "scenarios/sea_of_glory_1805/case_search_north_sea_fleet.scenario"),
        ("when_lions_sailed/seven_to_five.house", "scenarios/when_lions_sailed/case_econ_victory_two_player_draw.scenario"),
        ("yellow_jack/slow_france.house", "scenarios/yellow_jack/case_assault_d6_france_triggered.scenario"),
    ]
    for house, case in cases:
        house = f"docs/examples/{house}"
        checked, check_lines = said(capsys, "check", house)
        assert checked == 0, house
        ran, run_lines = said(capsys, "run", case, "--with", house)
        assert ran == 1, "the case, written for the printed rules, fails under the house rule"
        page = shown_after(f"umpire run {case} --with {house}")
        assert [line for line in page if line not in check_lines + run_lines] == [], house
        assert main(["run", case]) == 0, "the same case passes under the printed rules"
        capsys.readouterr()


def test_the_newer_games_errata_and_finds(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    case = "scenarios/sea_of_glory_1805/case_battle_day_of_battle_errata.scenario"
    code, lines = said(capsys, "run", case)
    assert code == 0 and not [line for line in shown_after(f"umpire run {case}") if line not in lines]
    code, lines = said(capsys, "check", "docs/examples/yellow_jack/club.errata")
    assert code == 0 and not [line for line in shown_after("umpire check docs/examples/yellow_jack/club.errata") if line not in lines]
    code, lines = said(capsys, "check", "rulesets/when_lions_sailed.rules")
    assert any("amended by X-1 [3.0 errata]: the French set-up deploys a 4-strength regiment in Calais, not a 2; " in line
               for line in lines)
    for ruleset, name in (("sea_of_glory_1805", "search_attempt"), ("when_lions_sailed", "qualifies"),
                          ("yellow_jack", "port_captured"), ("when_lions_sailed", "qualify")):
        command = f"umpire find rulesets/{ruleset}.rules {name}"
        code, lines = said(capsys, "find", f"rulesets/{ruleset}.rules", name)
        assert lines == shown_after(command), command
    code, lines = said(capsys, "find", "rulesets/sea_of_glory_1805.rules", "--missing")
    assert not [line for line in shown_after("umpire find rulesets/sea_of_glory_1805.rules --missing") if line not in lines]
