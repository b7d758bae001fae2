"""`umpire serve`'s JSON API, through Starlette's TestClient: what the page is told comes from the
engine's own functions, as the commands print it (explain's numbering, draw's pictures, rule's lines,
odds' report, the human player's decisions and refusals), for each of the five games; a bad file is
refused with the command line's diagnostics, as JSON."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from interpreter.cli import main
from interpreter.serve import odds as odds_module
from interpreter.serve.app import create_app

ROOT = Path(__file__).resolve().parent.parent.parent

# One scenario of each game, with a side its rules hide something from.
SCENARIOS = {
    "jenkins_ear": "scenarios/jenkins_ear/eop_combat_step.scenario",
    "guerra_a_muerte": "scenarios/guerra_a_muerte/ex17_naval_combat.scenario",
    "sea_of_glory_1805": "scenarios/sea_of_glory_1805/ex_12_brest_northeast_sortie.scenario",
    "when_lions_sailed": "scenarios/when_lions_sailed/ex_e10_neutral_spain.scenario",
    "yellow_jack": "scenarios/yellow_jack/ex_e1_hurricane_ida.scenario",
}


@pytest.fixture(scope="module")
def client():
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        yield TestClient(create_app())


def _opened(client, path: str, side: str | None = None) -> dict:
    answer = client.post("/api/open", json={"path": path, "side": side})
    assert answer.status_code == 200, answer.json()
    return answer.json()


def test_the_file_picker_lists_every_game_s_rulesets_and_scenarios(client):
    found = client.get("/api/files").json()
    assert found["rulesets"] == [f"rulesets/{game}.rules" for game in sorted(SCENARIOS)]
    for path in SCENARIOS.values():
        assert path in found["scenarios"]
    assert not [p for p in found["scenarios"] if "/traces/" in p or not p.endswith(".scenario")]


@pytest.mark.parametrize("game", sorted(SCENARIOS))
def test_a_scenario_is_numbered_as_explain_numbers_it_with_a_picture_at_every_line(client, game, capsys):
    run = _opened(client, SCENARIOS[game])
    assert main(["explain", SCENARIOS[game]]) == 0
    explained = [line for line in capsys.readouterr().out.splitlines() if re.match(r"#\d+ ", line)]
    assert [f"#{line['n']} [{line['cite']}] {line['text']}" for line in run["lines"]] == explained
    assert run["moments"] == len(explained) and run["result"][-1].startswith("result: ")
    for at in (0, run["moments"]):
        picture = client.get(f"/api/runs/{run['id']}/picture", params={"at": at})
        assert picture.headers["content-type"].startswith("image/svg+xml")
        assert "<svg" in picture.text and 'class="place' in picture.text
    assert client.get(f"/api/runs/{run['id']}/picture", params={"at": run["moments"] + 1}).status_code == 404


def test_the_map_follows_the_timeline_as_draw_at_n_draws_it(client, tmp_path, capsys):
    path = SCENARIOS["jenkins_ear"]
    run = _opened(client, path)
    capture = next(line["n"] for line in run["lines"] if "captures the seaport" in line["text"])
    before = client.get(f"/api/runs/{run['id']}/picture", params={"at": 0}).text
    after = client.get(f"/api/runs/{run['id']}/picture", params={"at": capture}).text
    assert 'data-state="captured_by"' not in before and 'data-state="captured_by"' in after
    assert main(["draw", str(ROOT / path), "--at", str(capture), "-o", str(tmp_path / "at.svg")]) == 0
    assert (tmp_path / "at.svg").read_text() == after


def test_a_side_sees_the_scenario_through_its_fog_of_war(client):
    path = SCENARIOS["sea_of_glory_1805"]
    whole, british = _opened(client, path), _opened(client, path, "british")
    seen = client.get(f"/api/runs/{british['id']}/picture", params={"at": 0}).text
    assert 'class="counter face-down"' in seen
    assert 'face-down' not in client.get(f"/api/runs/{whole['id']}/picture", params={"at": 0}).text
    refused = client.post("/api/open", json={"path": path, "side": "britsh"})
    assert refused.status_code == 400 and "did you mean 'british'" in refused.json()["diagnostics"][0]["hint"]


@pytest.mark.parametrize("path,command,where", [
    ("tests/bad/at_unknown_phase.scenario", "run", (6, 3)),
    ("tests/bad/adjust_not_track.rules", "check", (11, 10)),
])
def test_a_bad_file_shows_the_command_line_s_diagnostics(client, capsys, path, command, where):
    refused = client.post("/api/open", json={"path": path})
    assert main([command, path]) == 1
    printed = capsys.readouterr().err.strip()
    assert refused.status_code == 400
    diagnostic = refused.json()["diagnostics"][0]
    assert diagnostic["text"] == printed
    assert (diagnostic["file"], diagnostic["line"], diagnostic["col"]) == (path, *where)
    assert printed.splitlines()[2].strip().startswith("|") and "^^^" in printed.splitlines()[2]  # the caret


@pytest.mark.parametrize("path,said", [
    ("README.md", "README.md: error: the workbench opens a rules file (.rules), a scenario (.scenario) or a saved game (.toml); 'README.md' is not one"),
    ("pyproject.toml", "pyproject.toml: field 'umpire_save'"),
    ("/etc/hostname.rules", "outside the folders the workbench may read"),
    ("scenarios/none.scenario", "scenarios/none.scenario: no such file"),
])
def test_a_file_the_workbench_does_not_open_is_refused_as_json(client, path, said):
    refused = client.post("/api/open", json={"path": path})
    assert refused.status_code in (400, 404) and said in refused.json()["diagnostics"][0]["text"]


def test_errors_are_json_diagnostics_never_a_traceback(client):
    for answer in (client.get("/api/nothing"), client.post("/api/open", content=b"{"), client.get("/api/runs/r999/picture"),
                   client.get("/api/open"), client.get("/api/games/g999"), client.get("/api/odds/o999")):
        assert answer.status_code in (400, 404, 405)
        assert answer.json()["diagnostics"][0]["text"].startswith("umpire: error: ")


def test_a_citation_shows_what_umpire_rule_prints(client, capsys):
    run = _opened(client, SCENARIOS["jenkins_ear"])
    section = next(s for line in run["lines"] for s in line["sections"] if s == "9.1")
    shown = client.get("/api/rule", params={"ruleset": run["ruleset"], "section": section}).json()
    assert main(["rule", run["ruleset"], section]) == 0
    printed = capsys.readouterr().out
    assert printed == "\n\n".join([shown["heading"], *("\n".join(place) for place in shown["places"])]) + "\n"
    missing = client.get("/api/rule", params={"ruleset": run["ruleset"], "section": "99.9"})
    assert missing.status_code == 404 and "no line of rulesets/jenkins_ear.rules cites 99.9" in missing.json()["error"]


def _first_side_plays(client, ruleset: str) -> dict:
    sides = _opened(client, ruleset)["sides"]
    game = client.post("/api/games", json={"path": ruleset, "side": sides[0], "seed": 1, "agent": "random"}).json()
    assert game["side"] == sides[0]
    return game


@pytest.mark.parametrize("game", sorted(SCENARIOS))
def test_a_person_plays_each_game_against_the_agents(client, game):
    ruleset = f"rulesets/{game}.rules"
    state = _first_side_plays(client, ruleset)
    decision = state["decision"]
    assert decision is not None and decision["chooser"] == state["side"] and decision["options"], state["ending"]
    assert decision["cite"] and decision["expected"].startswith("answer: ")
    assert all(option["answer"] and option["text"] for option in decision["options"])
    picture = client.get(f"/api/games/{state['id']}/picture", params={"at": len(state["moments"]) - 1}).text
    assert "<svg" in picture and "g" in picture
    told = state["told"]
    after = client.post(f"/api/games/{state['id']}/answer", json={"answer": decision["options"][0]["answer"]}).json()
    assert after["said"] == [] and after["told"] >= told
    assert after["decision"] is not None or after["over"]


def test_an_answer_out_of_the_rules_is_refused_with_the_rule_that_asks(client):
    state = _first_side_plays(client, "rulesets/jenkins_ear.rules")
    decision = state["decision"]
    refused = client.post(f"/api/games/{state['id']}/answer", json={"answer": "999"}).json()
    assert refused["decision"]["name"] == decision["name"]  # still asked
    assert refused["said"] == [f"  not understood [{decision['cite']}]: '999' is not an option number from 1 to "
                               f"{len(decision['options'])}; {decision['expected']}"]
    assert client.post(f"/api/games/{state['id']}/answer", json={"answer": ""}).status_code == 400


def test_an_option_a_house_rule_removed_is_shown_and_refused_with_its_rule(client):
    house = "rulesets/jenkins_ear/house/harbour_bound.house"
    assert house in client.get("/api/files").json()["overlays"]
    state = client.post("/api/games", json={"path": "rulesets/jenkins_ear.rules", "side": "english",
                                            "overlays": [house]}).json()
    while not state["decision"]["ruled_out"]:  # no purchase; every counter moved as soon as it may be
        decision = state["decision"]
        answer = "0" if decision["name"] == "buy" else decision["options"][0]["answer"]
        state = client.post(f"/api/games/{state['id']}/answer", json={"answer": answer}).json()
    decision = state["decision"]
    removed = decision["ruled_out"][0]
    assert decision["name"] == "movers" and removed["answer"] not in [o["text"].split(" — ")[0] for o in decision["options"]]
    assert removed["why"] == f"{removed['answer']} is ruled out by HB-1 [7.0 house rule]: no naval counter may move in turn 1"
    refused = client.post(f"/api/games/{state['id']}/answer", json={"answer": removed["answer"]}).json()
    assert refused["said"] == [f"  not legal: {removed['answer']} is not one of the legal options "
                               f"({', '.join(o['text'].split(' — ')[0] for o in decision['options'])}): {removed['why']} [7.0]"]
    assert refused["decision"]["name"] == "movers"
    wrong = client.post("/api/games", json={"path": "rulesets/jenkins_ear.rules", "overlays": ["README.md"]})
    assert wrong.status_code == 400 and "--with names an overlay" in wrong.json()["error"]


def test_a_saved_game_is_resumed_where_it_was_saved(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    save = tmp_path / "game.toml"
    assert main(["play", "rulesets/jenkins_ear.rules", "--seed", "3", "--stop-after", "40", "--save", str(save)]) == 0
    assert main(["play", "--load", str(save)]) == 0
    printed = capsys.readouterr().out.splitlines()
    refused = TestClient(create_app()).post("/api/open", json={"path": str(save)})
    assert "outside the folders the workbench may read" in refused.json()["error"]  # unless allowed:
    state = TestClient(create_app(None, [str(tmp_path)])).post("/api/open", json={"path": str(save)}).json()
    assert state["kind"] == "game" and state["over"] and state["side"] is None and state["ending"] is None
    told = [f"[{line['cite']}] {line['text']}" if line["cite"] else line["text"] for line in state["narration"]]
    assert told == printed[printed.index("saved to " + str(save)) + 1:]


def test_the_agents_play_a_whole_game_when_no_side_is_the_person_s(client):
    state = client.post("/api/games", json={"path": SCENARIOS["guerra_a_muerte"], "seed": 2}).json()
    assert state["over"] and state["decision"] is None and state["ending"] is None
    assert state["moments"][-1]["label"] == "the end of the game"


def _answered(client, path: str) -> dict:
    job = client.post("/api/odds", json={"path": path}).json()
    while not job["over"]:
        time.sleep(0.05)
        job = client.get(f"/api/odds/{job['id']}").json()
    return job


def test_the_odds_are_exact_when_the_enumeration_is_small(client, capsys):
    path = "scenarios/jenkins_ear/eop_land_3018.scenario"
    job = _answered(client, path)
    assert job["error"] is None and job["total"] is not None and job["done"] == job["total"]
    assert main(["odds", path]) == 0
    printed = capsys.readouterr().out.splitlines()
    report = printed[printed.index(next(line for line in printed if line.startswith("decisions: "))):]
    timeless = re.compile(r", [0-9.]+ s$")  # the report says how long the enumeration took
    assert [timeless.sub("", line) for line in job["lines"][-len(report):]] == [timeless.sub("", line) for line in report]


def test_the_odds_are_sampled_with_their_intervals_when_the_enumeration_is_large(client, monkeypatch):
    monkeypatch.setattr(odds_module, "SERVE_ODDS_RUNS", 20)
    job = _answered(client, SCENARIOS["guerra_a_muerte"])
    assert job["error"] is None and (job["how"], job["done"], job["total"]) == ("monte carlo", 20, 20)
    assert "20 seeded runs answer instead" in job["lines"][2]
    assert any("95% confidence interval" in line for line in job["lines"])
    assert client.post("/api/odds", json={"path": "rulesets/jenkins_ear.rules"}).status_code == 400


def _game_odds(client, game_id: str, **asked) -> dict:
    job = client.post("/api/odds", json={"game": game_id, **asked}).json()
    assert "error" not in job or job["error"] is None, job
    while not job["over"]:
        time.sleep(0.05)
        job = client.get(f"/api/odds/{job['id']}").json()
    return job


def test_the_odds_of_the_position_in_front_of_the_person_are_umpire_odds_of_its_save(client, tmp_path, capsys):
    rules = "tests/runtime/position_odds/skirmish.rules"
    state = client.post("/api/games", json={"path": rules, "side": "red", "seed": 1, "agent": "random"}).json()
    first = state["decision"]
    assert (first["chooser"], first["name"]) == ("red", "target")
    state = client.post(f"/api/games/{state['id']}/answer", json={"answer": "0"}).json()  # declined
    decision = state["decision"]  # turn 2: Red's attack again, after Blue's turn
    assert decision["name"] == "target" and [o["name"] for o in decision["options"]] == ["B1"]
    job = _game_odds(client, state["id"], choose="B1", until="phase")
    assert job["error"] is None and job["done"] == job["total"]
    lines = job["lines"]
    assert lines[0] == f"odds: from the position of the game in play ({state['id']}) (Set-up), before decision 3"
    assert "from: turn 2, phase red_turn, step red_combat" in lines and "decisions: --decide red:target=B1" in lines
    # the same report as the command's, of a save made at that decision
    save = str(tmp_path / "skirmish.toml")
    assert main(["play", rules, "--seed", "1", "--agents", "random,random", "--stop-after", "2", "--save", save]) == 0
    capsys.readouterr()
    assert main(["odds", save, "--decide", "red:target=B1", "--until", "phase"]) == 0
    printed = capsys.readouterr().out.splitlines()
    report = printed[printed.index("hits:"):]
    assert lines[lines.index("hits:"):] == report
    declined = _game_odds(client, state["id"])
    assert "warning: nothing was measured: no path records a fact" in declined["lines"]
    bad = client.post("/api/odds", json={"game": state["id"], "choose": "R9"})
    assert bad.status_code == 400 and bad.json()["error"] == "'R9' is not an option of red's 'target'"
    assert client.post("/api/odds", json={"game": state["id"], "until": "battle"}).status_code == 400


def test_the_odds_of_the_first_decision_of_a_game_of_jenkins_ear(client):
    state = client.post("/api/games", json={"path": "rulesets/jenkins_ear.rules", "side": "english", "seed": 1,
                                            "agent": "random"}).json()
    job = _game_odds(client, state["id"])
    assert job["error"] is None and "from: the game's start (turn 1)" in job["lines"]
    assert any(line.startswith("decision: english decides ") for line in job["lines"])
    assert any(line.startswith("total probability: 1 (exactly)") for line in job["lines"])
