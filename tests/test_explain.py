"""`umpire explain`: every trace line with the statement, the calls and the values behind it."""

from __future__ import annotations

from pathlib import Path

from interpreter.cli import main
from interpreter.load import load_rules, load_scenario, rules_path_for
from interpreter.runtime.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent
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
