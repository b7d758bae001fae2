"""`umpire explain`: every trace line with the statement, the calls and the values behind it."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.load import load_rules, load_scenario, rules_path_for
from interpreter.runtime.games.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
FIRE = "scenarios/jenkins_ear/case_naval_fire_ship.scenario"
RULES = "rulesets/jenkins_ear.rules"


def line_of(text: str, after: str = "") -> int:
    """The line of the ruleset holding text (the first after the line holding `after`)."""
    lines = (ROOT / RULES).read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i, line in enumerate(lines[start:], start) if text in line) + 1


def explain(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["explain", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_every_line_is_numbered_with_its_statement_and_calls(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = explain(capsys, FIRE)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("explain: Rule case: a fire ship's gun doubles")
    # The leader lost with his fire ship: the hook of 9.3 inside the hook of 9.3 inside naval combat.
    at = lines.index("#9 [9.3] WATERHOUSE moves to removed")
    hook = line_of("move u to removed [9.3]", after="if disposition > u.cost")
    assert lines[at + 1] == f"    by {RULES}:{hook}: move u to removed [9.3]"
    assert lines[at + 2] == ("    within naval_combat(2020, english) [9.1] > on eliminated(EFIRE) [9.3]"
                             " > on eliminated(WATERHOUSE) [9.3]")
    # After the hooks, the second fire ship's line is the eliminate statement's again.
    at = lines.index("#14 [11.3] EFIRE2 is eliminated (fire ship used)")
    fire = line_of('because "fire ship used"')
    assert lines[at + 1].startswith(f"    by {RULES}:{fire}: eliminate [u for u in fleet[attacker]")
    # The values the rules consulted: the seaport bonus comes from owner() and enemy_seaport().
    at = next(i for i, line in enumerate(lines) if "+2 to every english die" in line)
    assert "    consulted owner(2020) [7.6] = spanish" in lines[at:at + 5]
    assert "    consulted enemy_seaport(2020, english) [9.1 step 3] = yes" in lines[at:at + 5]


def test_a_decision_shows_what_was_asked_and_the_options(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = explain(capsys, FIRE, "--at", "2")
    assert code == 0
    assert "#2 [9.1 step 2a] english bonus: {}" in out
    assert "consulted asked english: give WATERHOUSE's 1 extra dice to one, two or three naval counters — options: EFIRE, EFIRE2" in out
    assert "#3 " not in out


def test_at_text_and_no_match(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = explain(capsys, FIRE, "--at", "disposition")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines() if line.startswith("#")] == ["#8", "#11", "#15", "#29"]
    code, _, err = explain(capsys, FIRE, "--at", "no such event")
    assert code == 1
    assert "no event matches 'no such event'" in err


def test_explaining_does_not_change_the_trace(monkeypatch):
    monkeypatch.chdir(ROOT)
    sources = Sources()
    sc = load_scenario(FIRE, sources)
    sym = load_rules(rules_path_for(sc), sources).symbols
    plain = run_scenario(sc, sym, sources)
    explained = run_scenario(sc, sym, sources, explain=True)
    assert plain.lines == explained.lines
    assert all(e.where is None and not e.within for e in plain.events)


def test_why_tells_a_refusal_in_rules(capsys, monkeypatch):
    """explain --why: D4's refusal ("ES1 is not in units_at(hex)") told as the rules made it so:
    ES1 was lost with its carrier Augusta (6.3), eliminated in the naval combat (9.1 step 8) by
    the English choice of losses."""
    monkeypatch.chdir(ROOT)
    code, out, _ = explain(capsys, "scenarios/jenkins_ear/eop_strict_d4.scenario", "--why", "departure D4")
    assert code == 0
    lines = out.splitlines()
    assert lines[1].startswith("why #") and "departure D4" in lines[1]
    at = lines.index("  ES1, as the rules moved it:")
    assert "[6.3] ES1 is eliminated (lost with its carrier)" in lines[at + 1]
    assert "because" in lines[at + 2] and "[9.1 step 8] AUGUSTA is eliminated (naval combat)" in lines[at + 2]
    assert "(the rule on eliminated(AUGUSTA) [9.3] runs on it)" in lines[at + 2]
    assert "[9.1 step 8] english losses: [AUGUSTA, EFR3]" in lines[at + 3] and "(the decision it carries out)" in lines[at + 3]
    assert "  ES2: no line before this one changed it (it stands as the scenario set it up)" in lines


@pytest.mark.parametrize("scenario,text,story", [
    # Jenkins' Ear: Waterhouse is lost with the fire ship that carries him, by the 9.3 hook on its loss.
    (FIRE, "WATERHOUSE is eliminated", [
        "why #7 [6.3] WATERHOUSE is eliminated (lost with its carrier)",
        "    because #6 [11.3] EFIRE is eliminated (fire ship used)  (the rule on eliminated(EFIRE) [9.3] runs on it)",
    ]),
    # Yellow Jack: the Land Unit goes down with the Squadron whose lost Sail leave no capacity to carry it.
    ("scenarios/yellow_jack/case_forces_sunk_with_troops.scenario", "R_1 is eliminated", [
        "why #11 [2.655] R_1 is eliminated (BR_SQ lacks the capacity to carry it)",
        "    because #10 [2.655] british lost: R_1 (no other choice)  (the decision it carries out)",
        "      because #8 [2.655] BR_SQ.sail_lost is now 2  (which led the rules to enforce_capacity(BR_SQ) [2.655; E5])",
        "        because #6 [2.123] BR_SQ.dp is now 11  (which led the rules to squadron_loses_sail(BR_SQ, 2) [2.655])",
        "          because #3 [2.142 demo] bourbon target: BR_SQ (no other choice)  (the decision it carries out)",
    ]),
    # Yellow Jack: the troops lost with a Troop Convoy's damage (D3).
    ("scenarios/yellow_jack/case_land_troop_convoy_d3.scenario", "U4 is eliminated", [
        "why #5 [2.637] U4 is eliminated (lost with BR_TC's damage)",
        "    because #4 [2.637; D3] british dead: [U4, U5]  (the decision it carries out)",
        "      because #1 [2.614] BR_TC.dp is now 5  (earlier in damage_convoy(BR_TC, 5, a Spanish Squadron) [2.614; 2.616; 2.637])",
    ]),
    # Sea of Glory: the admiral leaves play with the fleet whose last ship foundered (7.1).
    ("scenarios/sea_of_glory_1805/case_weather_storm_founders_fleet.scenario", "ADMIRAL_X moves", [
        "why #19 [7.1] ADMIRAL_X moves to removed",
        "    because #14 [6.9.2; A-8] LAST_SHIP moves to vp_box[allied]  (which led the rules to disband(LAST_FLEET) [7.1; 8.4; C-13])",
    ]),
    # Sea of Glory: Cornwallis is captured when his one ship founders (20.4): the pick, the table and
    # the fate roll that sank it, in a call that names no unit.
    ("scenarios/sea_of_glory_1805/case_fate_admiral_captured.scenario", "CORNWALLIS is captured", [
        "why #73 [20.4] CORNWALLIS is captured: every ship of his fleet was sunk or taken",
        "    because #72 [20.4] CORNWALLIS moves to removed  (earlier in battle(1712, [B1, B2, A1]) [16.0])",
        "      because #68 [20.1; 23.1] HMS9 moves to vp_box[allied]  (the latest change before"
        " fate_of_admirals(Battle(where: 1712, blocks: {british: […) [20.4] began, in battle(1712, [B1, B2, A1]) [16.0])",
        "        because #67 [20.1] pick founder at random from HMS1, HMS2, HMS3, HMS9 -> HMS9  (the pick at random it carries out)",
        "          because #65 [6.9; EX-02] damage: value 4 -> 1-5; read at 6 -> 1  (the roll, pick or table read before it"
        " in ship_fate(Battle(where: 1712, blocks: {british: […, british) [20.1; 20.3; C-23])",
        "            because #64 [20.1] roll fate_roll[british]: 3d6 -> [2, 2, 2]  (the roll, pick or table read before it"
        " in ship_fate(Battle(where: 1712, blocks: {british: […, british) [20.1; 20.3; C-23])",
    ]),
])
def test_why_follows_a_knock_on_loss_to_the_loss_of_its_carrier(capsys, monkeypatch, scenario, text, story):
    monkeypatch.chdir(ROOT)
    code, out, _ = explain(capsys, scenario, "--why", text)
    assert code == 0
    assert out.splitlines()[1:1 + len(story)] == story


def test_why_of_a_value_lists_the_rolls_and_records_before_it(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = explain(capsys, "scenarios/jenkins_ear/eop_land_3018.scenario", "--why", "land counters lost by english")
    assert code == 0
    assert "in the same procedure call, before it:" in out
    assert "roll pool[spanish]: 2d6 -> [1, 5]" in out and "record 3018 land hits scored by spanish = 1" in out
    code, _, err = explain(capsys, "scenarios/jenkins_ear/eop_land_3018.scenario", "--why", "no such line")
    assert code == 1 and "no event matches 'no such line'" in err


BARRED = "tests/lang/barred.scenario"
DIAGONAL = "scenarios/when_lions_sailed/case_ops_diagonal.scenario"


def test_why_of_a_refusal_names_the_rule_that_removed_the_option(capsys, monkeypatch):
    """The refusal says only that bay is not among the options; --why names the bar that holds (4.2)."""
    monkeypatch.chdir(ROOT)
    code, out, _ = explain(capsys, BARRED, "--why", "bay refused")
    assert code == 0
    assert out.splitlines()[1:] == [
        "why #2 [4.2] red water: bay refused: bay is not one of the legal options (roads): for bay, 'open_to(q, u)' does not hold",
        "  bay is forbidden by enemy_there(bay, C1) [4.2], which holds",
        "    for bay, 'open_to(q, u)' does not hold",
        "    open_to(bay, C1) [4.0; 4.1; 4.2]: 'enemy_there(q, u)' holds",
        "    enemy_there(bay, C1) [4.2]: 'any([v.side != u.side for v in units_at(q)])' holds",
        "    for B1, 'v.side != u.side' holds",
    ]


def test_why_not_names_the_requirement_unmet_at_a_decision_that_left_the_option_out(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = explain(capsys, BARRED, "--why-not", "shallows", "--at", "3")
    assert code == 0
    assert out.splitlines()[1:3] == [
        "why not shallows at #3 [4.0] red water: roads (no other choice)",
        "  shallows is forbidden by deep_enough(shallows, C1) [4.1]: 'q.depth > u.draught' does not hold",
    ]
    code, _, err = explain(capsys, BARRED, "--why-not", "nowhere")
    assert code == 1
    assert "umpire: error: no decision leaves out 'nowhere' among options of its kind (the trace has 4 events)" in err


def test_why_not_names_a_restriction(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = explain(capsys, "tests/lang/restricted.scenario", "--why-not", "8")
    assert code == 0
    assert out.splitlines()[1:] == ["why not 8 at #2 [3.1] red bid: 6", "  8 is ruled out by HR-1 [3.1 house rule]: no bid above 6"]


def test_a_when_lions_sailed_diagonal_is_barred_by_16_5_not_16_4(capsys, monkeypatch):
    """The move's refusal cites the decision's rule (16.4, 'the next square'); the rule that removed
    F9 is 16.5: both squares beside the diagonal are impassable (E9 off the map, F8 a Dutch ship)."""
    monkeypatch.chdir(ROOT)
    for args in (("--why", "refused"), ("--why-not", "F9", "--at", "2")):
        code, out, _ = explain(capsys, DIAGONAL, *args)
        assert code == 0
        lines = out.splitlines()
        assert lines[2] == "  F9 is forbidden by diagonal_barred(E8, F9, england) [16.5], which holds"
        assert "    for F8, 'blocks_diagonal(q, s)' holds" in lines
        assert "    blocks_diagonal(F8, england) [16.5]: 'enemy_occupied(q, s)' holds" in lines
    assert lines[1] == "why not F9 at #2 [16.4] england heading: D9"
