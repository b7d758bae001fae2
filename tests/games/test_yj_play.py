"""Whole games of Yellow Jack on the labelled demo data (the Fighting Instructions' stand-ins, the
invented map and forces): each Minor Scenario and the Campaign Game play to a Prestige result, the
Extended Campaign until a peace roll ends it; the parts are joined in play (Orders launch
Amphibious Assaults, Convoys sail and are fought, Reinforcements come);
the same seed gives a byte-identical game; a game saved and loaded goes on as the whole game does;
search agents play either Fleet; the picture draws the point-to-point map.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli import main
from tests.played import HeaderGames

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = "rulesets/yellow_jack.rules"
LAST = {"minor_1739": 16, "minor_1740": 32, "minor_1741": 48, "minor_1742": 64, "minor_1743": 80, "campaign": 80}
RESULT = re.compile(r"^\[1\.61 demo\] DEMO victory levels: (bourbon wins on Prestige|british wins on Prestige|equal Prestige, a draw)$")


@pytest.fixture(scope="module")
def yj():
    with HeaderGames.load(ROOT, RULES) as games:
        assert set(games.setups) == set(LAST) | {"extended"}
        yield games


def run(yj, name: str, seed: int, agents=("random", "random"), **kw):
    return yj.run(name, seed, agents, **kw)


def _result(lines: list[str]) -> str:
    found = [line for line in lines if RESULT.match(line)]
    assert len(found) == 1, lines[-8:]
    return found[0]


@pytest.mark.parametrize("name", list(LAST))
def test_every_scenario_plays_to_a_prestige_result(yj, name):
    lines = run(yj, name, 1).lines
    assert f"[1.62] the game ends after turn {LAST[name]}" in lines
    _result(lines)
    assert all(line.startswith("[") for line in lines[2:]), "every narration line cites its rule"


def test_the_extended_campaign_ends_by_a_peace_roll_after_1748s_summer(yj):
    lines = run(yj, "extended", 1).lines
    ended = [line for line in lines if line.startswith("[1.622] the game ends: the Extended Campaign ends")]
    assert len(ended) == 1
    turns = [int(m.group(1)) for line in lines for m in [re.match(r"^\[[^\]]*\] turn (\d+): ", line)] if m]
    assert turns and turns[-1] >= 156, "not before 1748's Summer Quarterly Turn (turn 156)"
    _result(lines)


def test_the_parts_are_joined_in_play(yj):
    text = "\n".join(run(yj, "campaign", 1).lines)
    for seen in ("Issues an Amphibious Assault Order against",  # Orders launch AAOs (3.42)
                 "are ashore at",  # the Expedition sails to its Target and lands (3.425)
                 "Assembles at",  # Convoys Assemble (2.612) ...
                 "Disbands at",  # ... sail to their Destination and Disband (2.617)
                 "is received as a Reinforcement",  # the set-ups' waiting Formations (2.171)
                 "enemy Sail eliminated"):  # Sail sunk in Battle score Prestige (1.612)
        assert seen in text, seen


def test_the_operations_phase_happens(yj):
    text = "\n".join(run(yj, "campaign", 1).lines)
    for seen in ("impulse 1", "mpi 3", "roll hgt", "roll wind[bourbon]", "the Event Step", "the Orders Step"):
        assert seen in text, seen
    assert "a Tropical Storm appears" in text, "the campaign's hurricane seasons bring storms"


def test_the_same_seed_gives_a_byte_identical_game(yj):
    assert run(yj, "minor_1739", 2).lines == yj.afresh("minor_1739", 2, ("random", "random")).lines


def test_save_load_continue_equals_the_uninterrupted_game(yj):
    assert yj.save_and_resume("minor_1740", 3, ("random", "random"), 40) == run(yj, "minor_1740", 3).lines


@pytest.mark.parametrize("agents", [("greedy:2", "random"), ("random", "search:2")])
def test_search_agents_play_either_fleet(yj, agents):
    lines = run(yj, "minor_1739", 1, agents=agents).lines
    _result(lines)
    assert all(a in lines[0] for a in agents)


def test_the_picture_draws_the_point_to_point_map(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "yj.svg"
    assert main(["draw", RULES, "-o", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    for place in ("port_royal_jamaica", "la_habana", "cartagena_de_indias", "yucatan_sz", "space_9", "cuba_box"):
        assert f'class="place points" data-place="{place}"' in svg, place  # named places show their names
    assert "place(s) have no position" not in svg, "every demo place stands where the map puts it"
    assert svg.count('class="link"') >= 50, "the routes between the places"
    assert "JAMAICA_FLOTILLA" in svg and "HABANA_FLOTILLA" in svg
