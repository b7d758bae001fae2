"""`--json` on check, run, odds and coverage: one JSON document on standard output, built from the
same data as the text, so each test reads both and checks they tell the same thing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
JE = "rulesets/jenkins_ear.rules"
EOP = "scenarios/jenkins_ear/eop_combat_step.scenario"
PERILOUS = "scenarios/jenkins_ear/case_table_perilous_storm_and_admiral.scenario"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def as_json(capsys, argv: list[str]) -> tuple[int, dict, str]:
    """Run a command with --json: its exit code, the one document on standard output, standard error."""
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def text(capsys, argv: list[str]) -> tuple[int, str]:
    """The exit code and everything the text command prints (the diagnostics are on standard error)."""
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out + err


def test_check_counts_the_game_as_the_text_does(capsys):
    code, doc, _ = as_json(capsys, ["check", JE])
    assert code == 0 and doc["format"] == "umpire-check/1" and doc["exit"] == 0
    (result,) = doc["files"]
    assert result["file"] == JE and result["counts"] == {"errors": 0, "warnings": 0, "notes": 5} == doc["counts"]
    severities = [d["severity"] for d in result["diagnostics"]]
    assert severities.count("warning") == 0 and severities.count("note") == 5
    # Each diagnostic is where the text puts it: file:line:col and message.
    _, shown = text(capsys, ["check", JE])
    for d in result["diagnostics"]:
        assert f"{d['file']}:{d['line']}:{d['col']}: {d['severity']}: {d['message']}" in shown
        assert d["end_line"] >= d["line"] and d["code"] in ("table-range", "unused")
    assert result["summary"] and all(line in shown for line in result["summary"])


def test_check_of_a_parse_error_is_json_on_stdout_with_the_exit_code_kept(capsys):
    code, doc, err = as_json(capsys, ["check", "tests/bad/syntax_ampersand.rules"])
    assert code == 1 and doc["exit"] == 1 and err == ""
    (d,) = doc["files"][0]["diagnostics"]
    assert (d["severity"], d["line"], d["col"], d["end_col"]) == ("error", 10, 44, 45)
    assert d["message"] == "unexpected character '&'" and d["hint"] == "write 'and'" and d["code"] == "syntax"
    assert doc["counts"] == {"errors": 1, "warnings": 0, "notes": 0}


def test_check_quiet_lists_errors_alone_but_counts_all(capsys):
    _, doc, _ = as_json(capsys, ["check", JE, "--quiet"])
    assert doc["files"][0]["diagnostics"] == [] and doc["files"][0]["summary"] == []
    assert doc["counts"]["notes"] == 5


def test_run_gives_the_trace_and_every_expectation_held(capsys):
    code, doc, _ = as_json(capsys, ["run", EOP])
    assert code == 0 and doc["format"] == "umpire-run/1" and doc["ok"] is True and doc["exit"] == 0
    assert doc["title"] == "Example of Play: the English Combat Resolution Step" and doc["cite"] == "EoP"
    assert doc["total"] == doc["met"] == len(doc["expectations"]) == 13
    assert all(e["held"] for e in doc["expectations"]) and not doc["errors"]
    _, shown = text(capsys, ["run", EOP])
    # The narration is the text's trace line for line, each numbered in the whole trace.
    told = [line[2:] for line in shown.splitlines() if line.startswith("  [")]
    assert [f"[{e['cite']}] {e['text']}" for e in doc["trace"]] == told[:len(doc["trace"])]
    numbers = [e["number"] for e in doc["trace"]]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers) and not any(e["detail"] for e in doc["trace"])
    step = next(e for e in doc["trace"] if e["text"] == "turn 1, english_phase, combat_resolution")
    assert (step["rules"], step["turn"], step["phase"], step["step"]) == (["6.4"], 1, "english_phase", "combat_resolution")
    assert step["side"] == "english"  # the phase's active side, from the sequence of play
    # Every departure in full, in the order the trace tells them (the text names them by tag after it).
    assert [d.split(":")[0] for d in doc["departures"]] == ["[7.3] departure D5", "[11.4] departure D1"]
    assert len(doc["fixtures"]) == 55, "every fixture, though the text counts the set-up's in one line"
    assert "result: 13 of 13 expectations met" in shown


def test_run_with_detail_numbers_every_line(capsys):
    _, doc, _ = as_json(capsys, ["run", EOP, "--detail"])
    assert [e["number"] for e in doc["trace"]] == list(range(1, len(doc["trace"]) + 1))
    assert any(e["detail"] and e["kind"] == "record" for e in doc["trace"])


def test_run_of_failed_expectations_says_which_and_why(capsys):
    code, doc, _ = as_json(capsys, ["run", "tests/bad/expectation_fails.scenario"])
    assert code == 1 and doc["exit"] == 1 and doc["ok"] is False and doc["met"] == 0
    first = doc["expectations"][0]
    assert first == {"kind": "expect", "text": 'fact("hits blue") == 2', "held": False, "label": "B1 hits twice",
                     "why": 'fact("hits blue") is 1'}


def test_run_stopped_by_an_error_reports_it(capsys):
    code, doc, err = as_json(capsys, ["run", "tests/bad/die_wrong_label.scenario"])
    assert code == 1 and doc["exit"] == 1 and err == ""
    (d,) = doc["errors"]
    assert (d["line"], d["col"]) == (12, 10) and d["message"].startswith("script gives die 5 for 'R1'")


def test_run_of_a_scenario_that_cannot_load_is_json(capsys, tmp_path):
    bad = tmp_path / "x.scenario"
    bad.write_text('scenario "x" uses "nowhere.rules" {\n}\n')
    code, doc, err = as_json(capsys, ["run", str(bad)])
    assert code == 1 and doc["format"] == "umpire-run/1" and doc["exit"] == 1 and err == ""
    assert "does not exist" in doc["errors"][0]["message"] and doc["errors"][0]["line"] == 1


def test_odds_fractions_are_the_texts(capsys):
    code, doc, _ = as_json(capsys, ["odds", PERILOUS])
    assert code == 0 and doc["format"] == "umpire-odds/1" and doc["policy"] == "script"
    (fact,) = doc["exact"]["facts"]
    assert fact["name"] == "perilous_sea result"
    got = {v["value"]: v["fraction"] for v in fact["values"]}
    assert got == {"briny_deep": "1/6", "davy_jones_locker": "1/6", "no_effect": "2/3"}
    assert all(abs(v["probability"] - _fraction(v["fraction"])) < 1e-12 for v in fact["values"])
    assert doc["exact"]["total"] == {"fraction": "1", "probability": 1.0}
    _, shown = text(capsys, ["odds", PERILOUS])
    for value, fraction in got.items():
        assert re.search(rf"^\s+{value}\s+{re.escape(fraction)}\s", shown, re.M)
    assert f"measured: {doc['measured']}" in shown and f"enumeration: {doc['exact']['paths']} dice paths" in shown
    assert [f"rests on: {line}" for line in doc["rests_on"]] == [s for s in shown.splitlines() if s.startswith("rests on:")]
    assert doc["estimate"]["probes"] == 48 and doc["overlays"] == []


def test_odds_monte_carlo_alone_gives_shares_and_intervals(capsys):
    code, doc, _ = as_json(capsys, ["odds", PERILOUS, "--no-exact", "--monte-carlo", "60"])
    assert code == 0 and "exact" not in doc
    mc = doc["monte_carlo"]
    assert mc["runs"] == 60 and sum(v["runs"] for v in mc["facts"][0]["values"]) == 60
    assert all(low <= v["share"] <= high for v in mc["facts"][0]["values"] for low, high in [v["interval95"]])


def test_odds_bad_option_is_json_and_exit_1(capsys):
    code, doc, _ = as_json(capsys, ["odds", PERILOUS, "--decide", "nonsense"])
    assert code == 1 and doc["exit"] == 1 and "--decide takes NAME=ANSWER" in doc["errors"][0]["message"]


def test_odds_names_the_overlays_applied(capsys):
    scenario = "tests/lang/charts2_long_battles.scenario"
    code, doc, _ = as_json(capsys, ["odds", scenario])
    _, shown = text(capsys, ["odds", scenario])
    (overlay,) = doc["overlays"]
    header = next(line for line in shown.splitlines() if line.startswith("overlays: "))
    assert code == 0 and header.startswith(f"overlays: {overlay['name']} (") and overlay["amendments"]
    assert all(amendment in header for amendment in overlay["amendments"])


def test_coverage_percentage_is_the_texts(capsys):
    code, doc, _ = as_json(capsys, ["coverage", JE])
    assert code == 0 and doc["format"] == "umpire-coverage/1"
    _, shown = text(capsys, ["coverage", JE])
    line = next(line for line in shown.splitlines() if line.startswith("coverage: "))
    assert line.startswith(f"coverage: {doc['encoded']} of {doc['total']} sections encoded ({doc['percent']})")
    assert doc["percent"] == f"{doc['percentage']}%" and sum(doc["by_status"].values()) == doc["total"]
    assert len(doc["sections"]) == doc["total"]
    for s in doc["sections"]:  # each section's row of the text table holds its status and count of citations
        assert re.search(rf"^\s*{re.escape(s['number'])}\s+{re.escape(s['title'])}\s+{s['status']}\s+{s['cites']}\b",
                         shown, re.M), s["number"]
    encoded = [s for s in doc["sections"] if s["status"] == "encoded"]
    assert len(encoded) == doc["encoded"] and all(s["cited_at"] for s in encoded)


def test_coverage_missing_lists_what_is_left_out(capsys):
    _, doc, _ = as_json(capsys, ["coverage", JE, "--missing"])
    assert doc["sections"] and all(s["status"] != "encoded" for s in doc["sections"])
    assert any(s["left_out"] for s in doc["sections"] if s["status"] == "partly encoded")


def test_coverage_without_sections_is_json(capsys, tmp_path):
    rules = tmp_path / "lone.rules"
    rules.write_text('game lone "Lone" [1.0] {\n  sides red "Red", blue "Blue" [1.1]\n  die d6 1..6 [2.0]\n}\n')
    code, doc, err = as_json(capsys, ["coverage", str(rules)])
    assert code == 1 and doc["exit"] == 1 and err == ""
    (d,) = doc["errors"]
    assert d["message"].startswith("no list of the rulebook's sections") and d["line"] is None
    assert d["file"] == str(tmp_path / "lone.sections") and d["hint"].startswith("write one")


def test_a_file_refused_on_the_command_line_is_json(capsys):
    code, doc, err = as_json(capsys, ["run", "README.md"])
    assert code == 1 and doc == {"format": "umpire-run/1", "errors": doc["errors"], "exit": 1} and err == ""
    assert "umpire run reads" in doc["errors"][0]["message"]


def _fraction(text: str) -> float:
    from fractions import Fraction

    return float(Fraction(text))
