"""Whole games of 1805: Sea of Glory on the labelled demo data, with seeded dice and agents.

The campaign (the demo set-up, Jan I to Dec III) and the Trafalgar scenario (24, played with its
overlay) reach their victory determination, whose last line names the outcome with its rule; the
same seed gives a byte-identical game; a game saved and loaded goes on as the whole game does; the
greedy agent plays Trafalgar to a result; the picture of the set-up draws the (demo) map; a side's
trace hides the other side's blocks. A greedy campaign (minutes) runs with UMPIRE_LONG=1.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from interpreter.cli import main
from tests.played import HeaderGames

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = "rulesets/sea_of_glory_1805.rules"
TRAFALGAR_END = re.compile(r"^\[24\.3\] .*: the (Allied|British) player wins the Trafalgar scenario$")
CAMPAIGN_END = re.compile(r"^\[23\.1\] (Allied|British) \d+ VP, (Allied|British) \d+ VP: the (Allied player wins|British player wins|game is a draw)")


@pytest.fixture(scope="module")
def sog():
    """The campaign (the demo set-up) and Trafalgar, played with the rules its set-up names (24.2)."""
    with HeaderGames.load(ROOT, RULES, demo="campaign") as games:
        assert set(games.setups) == {"campaign", "trafalgar"} and set(games.own_rules) == {"trafalgar"}
        yield games


def run(sog, name: str, seed: int, agents=("random", "random"), **kw):
    return sog.run(name, seed, agents, **kw)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_campaign_reaches_its_victory_determination(sog, seed):
    lines = run(sog, "campaign", seed).lines
    assert "[3.0; 23.1] the game ends after turn 36 (Dec III)" in lines
    assert _ending(lines, CAMPAIGN_END.match)
    assert all(line.startswith("[") for line in lines[2:]), "every narration line cites its rule"
    # The whole game happens: chits drawn, blocks moving, searches, battles, weather.
    text = "\n".join(lines)
    for seen in ("the first Initiative chit", "draw chit from activation", "searches at", "battle in", "weather_type: read at"):
        assert seen in text, seen


def test_trafalgar_reaches_its_victory_determination(sog):
    lines = run(sog, "trafalgar", 1).lines
    assert "[24.0] the game ends after turn 30 (Oct III)" in lines
    assert _ending(lines, TRAFALGAR_END.match)
    assert any("battle in" in line for line in lines)


def test_villeneuve_against_nelson_shows_his_lower_command(sog):
    """Seed 7's campaign brings Villeneuve to command against a fleet Nelson commands (8.6): his counter's
    reverse gives his Command, and the game goes on to its end."""
    lines = run(sog, "campaign", 7).lines
    assert "[17.1] british broad pennant: NELSON, Seamanship 4, Command 5" in lines
    assert "[17.1] allied broad pennant: VILLENEUVE, Seamanship 2, Command 1" in lines
    assert _ending(lines, CAMPAIGN_END.match)


@pytest.mark.parametrize("name", ["campaign", "trafalgar"])
def test_every_allied_admiral_has_his_nation(sog, name):
    """The Allied chain of command ranks admirals by nation (8.2) and the generics are present by it (8.4):
    an admiral without one would be outranked by every generic, so each set-up gives each his own."""
    setup = sog.setups[name]
    admirals = [u for u in setup.units if u.side == "allied" and u.type in ("named_admiral", "generic_admiral")]
    assert admirals
    assert [u.id for u in admirals if "nationality" not in {v.name for v in u.values}] == []


def test_villeneuve_commands_the_toulon_block_at_trafalgar(sog):
    """14 French and 6 Spanish ships: the French lead and Villeneuve, the senior French admiral, commands
    (8.2, 24.1.1), not a generic."""
    lines = run(sog, "trafalgar", 2).lines
    assert "[17.1] allied broad pennant: VILLENEUVE, Seamanship 2, Command 2" in lines


def test_the_same_seed_gives_a_byte_identical_game(sog):
    assert run(sog, "campaign", 1).lines == sog.afresh("campaign", 1).lines
    assert run(sog, "trafalgar", 3).lines == sog.afresh("trafalgar", 3).lines


def _ending(lines: list[str], is_result) -> bool:
    """The victory determination's line is among the game's last lines (after it: its recorded facts),
    and no other line is one."""
    found = [i for i, line in enumerate(lines) if is_result(line)]
    return len(found) == 1 and found[0] >= len(lines) - 6


@pytest.mark.parametrize("name, seed, stop", [("campaign", 1, 400), ("trafalgar", 2, 60)])
def test_save_load_continue_equals_the_uninterrupted_game(sog, name, seed, stop):
    whole = run(sog, name, seed)
    first = run(sog, name, seed, stop_after=stop)
    assert first.save is not None, "the game asks more decisions than that"
    save = first.save["umpire_save"]
    resumed = run(sog, name, seed, resume={**save, "state": first.save["state"]})
    assert first.lines[:-1] + resumed.lines[2:] == whole.lines


def test_the_greedy_agent_plays_trafalgar_to_a_result(sog):
    lines = run(sog, "trafalgar", 1, agents=("random", "greedy:4")).lines
    assert _ending(lines, TRAFALGAR_END.match)


@pytest.mark.skipif(not os.environ.get("UMPIRE_LONG"), reason="a greedy campaign takes minutes: UMPIRE_LONG=1")
def test_the_greedy_agent_plays_the_campaign_to_a_result(sog):
    lines = run(sog, "campaign", 1, agents=("greedy:2", "random")).lines
    assert _ending(lines, CAMPAIGN_END.match)


def test_the_picture_of_the_set_up_draws_the_demo_map(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "sog.svg"
    assert main(["draw", RULES, "-o", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    for hex_id in ("0204", "1123", "1403", "2414", "0620"):  # hexes the text names
        assert f">{hex_id}<" in svg, hex_id
    assert svg.count("<polygon") >= 500, "every hex of the demo map"
    assert "CHANNEL_FLEET" in svg and "BREST_FLEET" in svg


def test_a_side_does_not_read_the_other_sides_blocks(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    path = "scenarios/sea_of_glory_1805/ex_12_brest_northeast_sortie.scenario"
    assert main(["run", path, "--detail"]) == 0
    whole = capsys.readouterr().out
    assert main(["run", path, "--side", "british", "--detail"]) == 0
    british = capsys.readouterr().out
    def trace(out: str) -> list[str]:  # the trace's lines (the expectations after it are the umpire's)
        return [line for line in out.splitlines() if line.startswith("  [")]

    assert len(trace(whole)) == len(trace(british)), "a hidden line is still a line"
    named = [line for line in trace(whole) if "BREST" in line or "FR01" in line]
    assert len(named) >= 3, "the Allied fleet's sortie is in the whole trace"
    assert not [line for line in trace(british) if "BREST" in line or "FR01" in line], "the British never read its name"
    assert british.count("(hidden from british)") >= len(named)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_trafalgar_places_no_mediterranean_wind(sog, seed):
    """The Mediterranean's wind chits are out of the Trafalgar cup (24.1): its Last Wind marker is
    not placed, and the narration names no wind there."""
    lines = run(sog, "trafalgar", seed, stop_after=5).lines
    assert "[24.1; 5.6] Last Wind marker: the North Atlantic on the west rose; the Mediterranean is out of play" in lines
    assert not [line for line in lines if "none rose" in line]
