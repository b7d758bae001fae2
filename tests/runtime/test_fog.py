"""The trace as one side sees it (language 6.3b): `known to` states and `umpire run --side`."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.cli import main
from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.common.values import Place, Unit
from interpreter.runtime.games.scenario import run_scenario
from interpreter.runtime.world.fog import SideView
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
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
    assert main(["run", NIGHT, "--side", "green"]) == 1
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


SIGHTING = "tests/lang/fog_sighting.scenario"
EX_12 = "scenarios/sea_of_glory_1805/ex_12_brest_northeast_sortie.scenario"


def printed(capsys, *args: str) -> list[str]:
    assert main(["run", *args]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_line_hidden_from_a_side_reads_what_the_side_sees_of_it():
    whole, red, blue = trace(None, SIGHTING), trace("red", SIGHTING), trace("blue", SIGHTING)
    assert whole == blue == ["[6.1] BLUE1 moves to reach", "[6.1] BLUE1 sails to reach", "[6.2] cargo is now gold",
                             "[6.2] the convoy carries gold", "[6.3] BLUE1 anchors at reach"]
    # The convoy is seen moving as what it is `seen as`, from where to where; its cargo is hidden; what
    # Red sees of them is said instead; a face-down text that itself names the unseen block is hidden too.
    assert red == ["[6.1] a block moves from home to reach", "[6.1] a block sails to reach", "[6.2] (hidden from red)",
                   "[6.2] a convoy is sighted off reach", "[6.3] (hidden from red)"]


def test_a_side_reads_only_the_expectations_it_may_see_each_counted(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    red = printed(capsys, SIGHTING, "--side", "red")
    assert red[red.index("expectations:"):] == [
        "expectations:", "  ok   (hidden from red)", "  ok   (hidden from red)", "  ok   count(units_at(@reach)) == 1",
        "result: 3 of 3 expectations met"]
    # A state known to the other side (Blue's supply chit) is hidden; a block revealed is seen.
    night = printed(capsys, NIGHT, "--side", "red")
    assert night[night.index("expectations:"):] == [
        "expectations:", "  ok   BLUE1.location == @cove and BLUE1.revealed  -- found, then sailed on",
        "  ok   objective == @reach", "  ok   (hidden from red)", "result: 3 of 3 expectations met"]
    assert main(["run", NIGHT, "--side", "blue", "--json"]) == 0
    checks = json.loads(capsys.readouterr().out)["expectations"]
    assert [c["text"] for c in checks] == ["BLUE1.location == @cove and BLUE1.revealed", "(hidden from blue)", "@cove.supplied"]


def test_the_british_see_a_brest_sortie_and_not_which_blocks_are_decoys(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    british = printed(capsys, EX_12, "--side", "british")
    assert british[british.index("trace: (the narration; --detail adds 21 line(s): facts recorded, states set, decisions)") + 1:] == [
        "  [11.1; EX-12] sortie_winds: read at 12, 1 -> 1",
        "  [5.12] the Provisions chit at 0906 is turned face up: May Sortie (5.12)",
        "  [10.3] (hidden from british)",
        "  [11.1] a block sorties from 0906, declaring inshore (11.1)",
        "  [7.8] a block moves from set_aside[allied] to 0906",
        "  [7.8] a block is placed at 0906 (inshore)",
        "  [7.8] a block moves from set_aside[allied] to 0906",
        "  [7.8] a block is placed at 0906 (inshore)",
        "expectations:",
        "  ok   (hidden from british)",
        "  ok   (hidden from british)",
        "  ok   @0906.sortie_used  -- one Allied fleet per port and activation (11.1)",
        "  ok   (hidden from british)",
        "result: 4 of 4 expectations met"]
    assert not any("FOG" in line or "BREST" in line or "box_a" in line for line in british if not line.startswith("note"))
    allied = printed(capsys, EX_12, "--side", "allied")
    assert "  [7.8] FOG1, a Fog of War block, joins BREST at 0906 (inshore)" in allied
    assert "  ok   BREST.station == inshore  -- printed: Brest sorties on a northeast wind" in allied


def test_another_sides_refused_answer_is_not_shown(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    case = "scenarios/sea_of_glory_1805/case_admin_manpower.scenario"
    allied, british = printed(capsys, case, "--side", "allied"), printed(capsys, case, "--side", "british")
    assert allied[-2:] == ["  ok   (hidden from allied)", "result: 6 of 6 expectations met"]
    assert british[-2:] == ['  ok   refused: british manpower_use: BR_A -- "not one of the legal options" [5.2.1]',
                            "result: 6 of 6 expectations met"]


def test_a_block_at_sea_is_seen_sailing_hex_to_hex_not_which_it_is(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    allied = printed(capsys, "scenarios/sea_of_glory_1805/ex_04_cadiz_to_lisbon.scenario", "--side", "allied")
    assert [line for line in allied if line.startswith("  [9.2]")] == [
        "  [9.2] a block moves from 1022 to 0922", "  [9.2] a block moves from 0922 to 0821",
        "  [9.2] a block moves from 0821 to 0721", "  [9.2] a block moves from 0721 to 0620"]
    assert not any("CHANNEL" in line for line in allied)


def test_a_move_names_each_unit_as_the_side_sees_it_or_is_hidden_if_one_is_not_seen():
    class Engine:
        sym = type("Sym", (), {"hidden": {"convoy": type("Decl", (), {"seen_as": "a block"})}})

        @staticmethod
        def sees(side, u):
            return u.side == side

    home, cove, reach = Place("home", "area"), Place("cove", "area"), Place("reach", "area")
    red, blue1, blue2 = Unit("RED1", "squadron", "block", "red"), Unit("BLUE1", "convoy", "block", "blue"), \
        Unit("BLUE2", "convoy", "block", "blue")
    squadron = Unit("BLUE3", "squadron", "block", "blue")
    view = SideView(Engine(), "red")
    assert view.seen_moving([blue1, blue2], [home, home], reach) == "a block, a block move from home to reach"
    assert view.seen_moving([red, blue1], [home, cove], reach) == "RED1 from home, a block from cove move to reach"
    assert view.seen_moving([blue1], [None], reach) == "a block moves to reach"
    assert view.seen_moving([blue1, squadron], [home, home], reach) is None, "a squadron is not seen at all"
    assert view.seen_face_down(None) == "(hidden from red)"
