"""The trace as one side sees it (language 6.3b): `known to` states and `umpire run --side`."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.cli import main
from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent
NIGHT = "tests/lang/fog_night.scenario"
DAWN = "tests/lang/fog_dawn.scenario"


def trace(side: str | None, path: str = NIGHT) -> list[str]:
    sources = Sources()
    scenario = load_scenario(str(ROOT / path), sources)
    loaded = load_scenario_rules(scenario, sources)
    outcome = run_scenario(scenario, loaded.symbols, sources, side=side)
    assert outcome.ok
    return [e.line() for e in outcome.events]


def test_a_side_reads_what_it_sees_and_the_rule_of_what_it_does_not():
    whole, red, blue = trace(None), trace("red"), trace("blue")
    assert len(whole) == len(red) == len(blue), "a hidden line is still a line: the side knows a rule was applied"
    # Red's own marker, Blue's choice of port and its marker, Blue's unseen move, then the search that
    # turns Blue's block face up.
    assert red[:4] == ["[2.3] objective is now reach", "[2.4] (hidden from red)", "[2.4] (hidden from red)",
                       "[4.1] (hidden from red)"]
    assert blue[:4] == ["[2.3] (hidden from blue)", "[2.4] blue port: cove", "[2.4] cove.supplied is now yes",
                        "[4.1] BLUE1 moves to reach"]
    assert whole[:4] == ["[2.3] objective is now reach", "[2.4] blue port: cove", "[2.4] cove.supplied is now yes",
                         "[4.1] BLUE1 moves to reach"]
    # Seen from the moment it is revealed: Red reads the rest of the night as it is.
    assert red[5:] == whole[5:] == blue[5:]
    assert "[4.2] BLUE1 moves to cove" in red


def test_run_side_prints_the_side_trace_and_refuses_a_side_the_game_has_not(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["run", NIGHT, "--side", "red"]) == 0
    out = capsys.readouterr().out
    assert "BLUE1 moves to reach" not in out and "(hidden from red)" in out
    assert "note: BLUE1" not in out, "a note naming a unit the side does not see is left out"
    assert main(["run", NIGHT, "--side", "green"]) == 2
    assert "'green' is not a side of this game (its sides: red, blue)" in capsys.readouterr().err
    assert main(["run", NIGHT, "--side", "red", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    texts = [e["text"] for e in doc["trace"]]
    assert doc["notes"] == [] and "(hidden from red)" in texts and "BLUE1 moves to reach" not in texts


def test_without_a_side_nothing_is_hidden(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["run", NIGHT, "--detail"]) == 0
    out = capsys.readouterr().out
    assert "hidden from" not in out and "cove.supplied is now yes" in out and "note: BLUE1" in out


def test_a_picture_for_a_side_leaves_out_the_markers_it_does_not_know(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    drawn = {}
    for side in ("red", "blue"):
        out = tmp_path / f"{side}.svg"
        assert main(["draw", NIGHT, "--at", "end", "--side", side, "-o", str(out)]) == 0
        drawn[side] = out.read_text(encoding="utf-8")
    assert "objective: reach" in drawn["red"] and "supplied" not in drawn["red"]
    assert "supplied" in drawn["blue"] and "objective" not in drawn["blue"]


def test_a_draw_or_a_line_known_to_some_sides_is_face_down_to_the_others():
    whole, red, blue = trace(None, DAWN), trace("red", DAWN), trace("blue", DAWN)
    assert len(whole) == len(red) == len(blue) == 7
    assert whole[:4] == ["[5.1] draw red_orders from orders -> advance, hold (5 left)",
                         "[5.1] draw blue_orders from orders -> hold, hold (3 left)",
                         "[5.2] pick spied at random from advance, hold -> advance",
                         "[5.3] draw reserve from orders -> advance (2 left)"]
    # Each side reads its own draw; the spied chit is known to both; the reserve to nobody.
    assert red[:4] == [whole[0], "[5.1] (hidden from red)", whole[2], "[5.3] (hidden from red)"]
    assert blue[:4] == ["[5.1] (hidden from blue)", whole[1], whole[2], "[5.3] (hidden from blue)"]
    assert red[4] == blue[4] == whole[4]
    # A line said only to Red (what its orders are).
    assert red[5] == whole[5] == "[5.1] Red reads its orders: [advance, hold]" and blue[5] == "[5.1] (hidden from blue)"
    # The reserve goes back face down: which chit it was stays hidden from both.
    assert whole[6] == "[5.3] put advance into orders (3 in it)"
    assert red[6] == "[5.3] (hidden from red)" and blue[6] == "[5.3] (hidden from blue)"
