"""A refused answer names the house rule that removed the option, whatever the kind of option
(language §19a): a number, a text, a place, a side, a yes-or-no, a unit among several answers, in
a scenario's script and at a person's prompt. The toy is tests/lang/restricted.rules with its
overlay restricted.overlay; the scenario restricted.scenario holds one refused answer of each kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.common.values import show
from interpreter.runtime.games import scenario as scenario_module
from interpreter.runtime.games.driver import Quit
from interpreter.runtime.games.human import HumanAgent
from interpreter.runtime.games.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
TOY = "tests/lang/restricted.scenario"


def toy(monkeypatch, agents=None):
    monkeypatch.chdir(ROOT)
    sources = Sources()
    sc = load_scenario(TOY, sources)
    loaded = load_scenario_rules(sc, sources)
    assert not loaded.errors
    if agents is not None:
        monkeypatch.setattr(scenario_module, "_scripted_agents", lambda *args: agents)
    return run_scenario(sc, loaded.symbols, sources)


@pytest.mark.parametrize("line", [
    "[3.1] red bid: 7 refused: 7 is not one of the legal options (1, 2, 3, 4, 5, 6): "
    "7 is ruled out by HR-1 [3.1 house rule]: no bid above 6",
    "[3.2] red word: flee refused: flee is not one of the legal options (parley, fight): "
    "flee is ruled out by HR-2 [3.2 house rule]: the crews stand",
    "[3.3] red haven: shoal refused: shoal is not one of the legal options (harbour): "
    "shoal is ruled out by HR-3 [3.3 house rule]: the shoal is closed to boats",
    "[3.4] red ally: blue refused: blue is not one of the legal options (red): "
    "blue is ruled out by HR-4 [3.4 house rule]: red keeps its friends",
    "[3.5] red signal: no refused: no is not one of the legal options (yes): "
    "no is ruled out by HR-5 [3.5 house rule]: the signal is always hoisted",
    "[3.6] red crews: S1, B1 refused: B1 is not one of the legal options (S1): "
    "B1 is ruled out by HR-6 [3.6 house rule]: a barge never rows out",
])
def test_a_scripted_answer_naming_a_restricted_option_is_refused_with_the_house_rule(monkeypatch, line):
    outcome = toy(monkeypatch)
    assert outcome.error is None and outcome.ok
    assert f"  {line}" in outcome.lines


class _Listing:
    """What the person reads of the options and the position: enough for these questions."""

    def options(self, options: list, showing=None) -> list[str]:
        return [show(o) for o in options]

    def position(self) -> str:
        return ""


def test_a_person_naming_a_restricted_option_is_told_the_house_rule(monkeypatch):
    typed = iter(["7", "6", "flee"])
    told: list[str] = []
    person = HumanAgent(lambda: next(typed, None), told.append, _Listing())
    with pytest.raises(Quit, match=r"no more input: red must decide 'word' \[3.2\]"):
        toy(monkeypatch, {"red": person, "blue": person})
    refusals = [line for line in told if line.startswith("  not legal")]
    assert refusals == [
        "  not legal: 7 is not one of the legal options (1, 2, 3, 4, 5, 6): "
        "7 is ruled out by HR-1 [3.1 house rule]: no bid above 6 [3.1]",
        "  not legal: flee is not one of the legal options (parley, fight): "
        "flee is ruled out by HR-2 [3.2 house rule]: the crews stand [3.2]",
    ]


def test_a_script_answers_a_yes_or_no_decision_with_yes_or_no(tmp_path, monkeypatch):
    """Without the house rule, 'signal' offers both truth values, named as the trace shows them."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "restricted.rules").write_text((ROOT / "tests/lang/restricted.rules").read_text())
    text = (ROOT / TOY).read_text().replace('  with "restricted.overlay"\n', "")
    script = "red bid: 8\n red word: flee\n red haven: shoal\n red ally: blue\n red signal: no\n red crews: S1, B1"
    text = text[:text.index("decisions {")] + "decisions {\n " + script + "\n }\n  expect { true }\n}\n"
    (tmp_path / "case.scenario").write_text(text)
    sources = Sources()
    sc = load_scenario("case.scenario", sources)
    outcome = run_scenario(sc, load_scenario_rules(sc, sources).symbols, sources)
    assert outcome.error is None
    assert "  [3.0] red bids 8, says 'flee', sails for shoal, sides with blue, signals no, rows [S1, B1]" in outcome.lines


@pytest.mark.parametrize("decide, line", [
    ("bid=7", "decisions: --decide bid=7 did not fit red's 'bid' on some paths: 7 is ruled out by HR-1 "
              "[3.1 house rule]: no bid above 6; the first legal option was taken"),
    ("red:crews=S1,B1", "decisions: --decide red:crews=S1,B1 did not fit red's 'crews' on some paths: B1 is ruled "
                        "out by HR-6 [3.6 house rule]: a barge never rows out; the first legal option was taken"),
])
def test_odds_names_the_house_rule_that_removed_a_decide_answer(monkeypatch, capsys, decide, line):
    monkeypatch.chdir(ROOT)
    assert main(["odds", TOY, "--decide", decide]) == 0
    assert line in capsys.readouterr().out.splitlines()


def test_odds_says_only_that_an_answer_no_rule_removed_did_not_fit(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(["odds", TOY, "--decide", "bid=12"]) == 0
    assert ("decisions: --decide bid=12 did not fit red's 'bid' on some paths: the first legal option was taken"
            in capsys.readouterr().out.splitlines())
