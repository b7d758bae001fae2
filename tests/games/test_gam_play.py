"""Whole games of Guerra a Muerte on the labelled demo data, with seeded dice and random agents.

The campaign (the demo set-up, turns I-XV) and the three scenarios of 12.0 (played with
`umpire play … --scenario NAME`) reach their victory determination, whose last line names the
outcome with its rule; the same seed gives a byte-identical game. The four set-ups share one
demo map (`places from "demo_map.scenario"`), each adding its own markers.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.load import load_scenario
from interpreter.syntax.diagnostics import Sources
from tests.played import HeaderGames

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = "rulesets/guerra_a_muerte.rules"

# name: (first step narrated, the line that ends the game, the victory procedure's citation)
GAMES = {
    "campaign": ("turn 1, events, liberals", "[11.0] the game ends after turn 15", "11.1"),
    "opening_guns": ("turn 1, patriot_operations, el_plata_chile", "[12.1] the game ends after turn 5", "12.1.4"),
    "empire_strikes_back": ("turn 6, uprisings, uprisings", "[12.2] the game ends after turn 9", "12.2.4"),
    "end_of_empire": ("turn 11, uprisings, uprisings", "[12.3] the game ends after turn 15", "11.1"),
}
SEEDS = {"campaign": (1, 2), "opening_guns": (1, 2), "empire_strikes_back": (1, 2), "end_of_empire": (1, 2)}


@pytest.fixture(scope="module")
def gam():
    with HeaderGames.load(ROOT, RULES, demo="campaign") as games:
        yield games


def run(gam, name: str, seed: int) -> list[str]:
    """The game played afresh (not one kept)."""
    return gam.afresh(name, seed).lines


def played(gam, name: str, seed: int) -> list[str]:
    """The game, played once for the module (to keep the file's runtime modest)."""
    return gam.run(name, seed).lines


def test_the_game_header_names_the_three_scenarios_and_the_demo_files(gam):
    sym, setups = gam.symbols, gam.setups
    assert set(setups) == set(GAMES)
    assert sym.game.demo_data and sym.game.demo_setup
    # Each set-up says which game it is (the game_end hook picks the victory conditions by it).
    for name, setup in setups.items():
        assert f"  state played: {name}" in Path(setup.file).read_text(encoding="utf-8"), name
    # 12.1.1, 12.2.1, 12.3.1: lengths of 5, 4 and 5 turns from the phases the text names.
    assert ((setups["opening_guns"].at.turn, setups["opening_guns"].at.phase), setups["opening_guns"].until) == ((1, "patriot_operations"), 5)
    assert ((setups["empire_strikes_back"].at.turn, setups["empire_strikes_back"].at.phase), setups["empire_strikes_back"].until) == ((6, "uprisings"), 9)
    assert ((setups["end_of_empire"].at.turn, setups["end_of_empire"].at.phase), setups["end_of_empire"].until) == ((11, "uprisings"), 15)
    assert setups["campaign"].until is None and sym.game.turns == 15


@pytest.mark.parametrize("name,seed", [(n, s) for n in GAMES for s in SEEDS[n]])
def test_a_seeded_game_reaches_its_victory_determination(gam, name, seed):
    first, ends, cite = GAMES[name]
    lines = played(gam, name, seed)
    assert any(line.endswith(first) for line in lines[2:5]), lines[2:5]
    assert ends in lines
    # The last line is the outcome, cited with the victory rule; nothing comes after it.
    assert re.fullmatch(rf"\[{re.escape(cite)}\] record victory = (Patriot victory|stalemate|Royalist victory)", lines[-1]), lines[-1]
    assert lines.index(ends) > len(lines) - 8
    assert all(line.startswith("[") for line in lines[2:]), "every narration line cites its rule"
    # The demo tables are read in play: the battles, sieges and attrition of the demo data.
    assert any(" combat_results: odds " in line for line in lines), "a battle is fought on the demo CRT"


def test_the_same_seed_gives_a_byte_identical_game(gam):
    first = played(gam, "opening_guns", 1)
    assert run(gam, "opening_guns", 1) == first, "the same seed, played again, gives the same game"
    assert played(gam, "opening_guns", 2) != first


def test_the_four_set_ups_share_one_demo_map(gam):
    setups = gam.setups
    sources = Sources()
    shared = load_scenario(str(ROOT / "rulesets" / "guerra_a_muerte" / "demo_map.scenario"), sources)
    ids = [pd.id for pd in shared.places]
    for name, setup in setups.items():
        assert [pd.id for pd in setup.places] == ids, name
        links = [(a.kind, a.place, a.neighbours) for a in setup.adjacency]
        assert links[: len(shared.adjacency)] == [(a.kind, a.place, a.neighbours) for a in shared.adjacency], name
    text = (ROOT / "rulesets" / "guerra_a_muerte" / "demo_map.scenario").read_text(encoding="utf-8")
    # What the text states is kept (1.1, 1.1.3, 3.5, 5.0, 6.6, 10.3): a few samples.
    assert "adjacent chiquitos salta chaco" in text and "edge andes chiquitos salta" in text
    assert "area chaco { kind: land_area, rp_value: 0" in text and "area pampas { kind: land_area, rp_value: 0 }" in text
    assert "area salta { kind: land_area, rp_value: 3, border: pro_patriot }" in text
    assert "edge long_route atlantic_iii pacific_x" in text and "edge long_route atlantic_i caribbean_vi" in text
    assert not re.search(r"adjacent (chaco[^\n]*\bsalta\b|salta[^\n]*\bchaco\b)", text), "the Chaco and Salta meet at a point only"


def test_a_set_up_adds_its_markers_to_the_shared_map(gam):
    setups = gam.setups
    values = {pd.id: {v.name: v.value for v in pd.values} for pd in setups["empire_strikes_back"].places}
    # The shared values stay, the set-up's marker is added (12.2.3's Mexican uprisings).
    assert values["central_mexico"]["rp_value"] == 5 and values["central_mexico"]["masses_patriot"] == 5
    assert values["northern_chile"]["repression"] == "true"
