"""`umpire draw`, `play --draw` and `explain --draw`: the pictures are parsed (xml.etree) and their
elements checked against positions whose content is known from their scenarios and traces."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_play import type_at_the_terminal as typed

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
NS = "{http://www.w3.org/2000/svg}"
EOP = "scenarios/jenkins_ear/eop_combat_step.scenario"
FOG = "scenarios/jenkins_ear/case_fog_of_war_top_counter.scenario"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("UMPIRE_DEBUG", raising=False)


def draw(tmp_path: Path, *args: str, name: str = "p.svg") -> ET.Element:
    out = tmp_path / name
    assert main(["draw", *args, "-o", str(out)]) == 0
    return ET.parse(out).getroot()


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def places(root: ET.Element, tag: str) -> dict[str, ET.Element]:
    """The outline of every place of the map, by id."""
    return {el.get("data-place"): el for el in root.iter(NS + tag) if "place" in classes(el)}


def stacks(root: ET.Element) -> dict[str, dict[str, ET.Element]]:
    """Place or box id -> the counters standing there (not those aboard), by unit id."""
    out = {}
    for g in root.iter(NS + "g"):
        if "stack" in classes(g):
            out[g.get("data-place")] = {c.get("data-unit"): c for c in g.findall(NS + "g") if classes(c) == {"counter"}}
    return out


def aboard(counter: ET.Element) -> list[str]:
    return [g.get("data-unit") for g in counter.findall(NS + "g") if "aboard" in classes(g)]


def marks(root: ET.Element) -> list[tuple[str, str | None, str]]:
    """Every place state shown: (place, the side it names, the state's name)."""
    out = []
    for spot in root.iter(NS + "g"):
        if "spot" in classes(spot):
            for g in spot.findall(NS + "g"):
                if "place-mark" in classes(g):
                    out.append((spot.get("data-place"), g.get("data-side"), g.get("data-state")))
    return out


def texts(root: ET.Element, cls: str | None = None) -> list[str]:
    return [el.text or "" for el in root.iter(NS + "text") if cls is None or cls in classes(el)]


def face_down(root: ET.Element) -> dict[str, list[tuple[str, str, list[str]]]]:
    """Place or box id -> its face-down counters, standing or aboard: (the `seen as` text, how many,
    the texts drawn)."""
    out = {}
    for stack in root.iter(NS + "g"):
        if "stack" in classes(stack):
            found = [(g.get("data-face"), g.get("data-count"),
                      [g.find(NS + "title").text] if "aboard" in classes(g) else texts(g))  # a chip: its tooltip
                     for g in stack.iter(NS + "g") if "face-down" in classes(g)]
            if found:
                out[stack.get("data-place")] = found
    return out


def test_every_hex_of_the_example_is_a_numbered_polygon(tmp_path):
    root = draw(tmp_path, EOP)
    hexes = places(root, "polygon")
    assert set(hexes) == {"3119", "3019", "2919", "3018", "3118"}
    assert all(len(h.get("points").split()) == 6 for h in hexes.values())
    assert sorted(texts(root, "place-id")) == sorted(hexes)
    # The grid's columns: 3018 (an even column, shifted down by even_q) sits half a hex below 3118.
    y = {pid: sum(float(p.split(",")[1]) for p in h.get("points").split()) / 6 for pid, h in hexes.items()}
    x = {pid: sum(float(p.split(",")[0]) for p in h.get("points").split()) / 6 for pid, h in hexes.items()}
    assert x["3018"] < x["3118"] and y["3018"] > y["3118"]
    assert y["3119"] > y["3118"] and x["3119"] == pytest.approx(x["3118"])


def test_each_stack_holds_its_counters_by_side_and_type(tmp_path):
    at = stacks(draw(tmp_path, EOP))
    assert set(at["3119"]) == {"BOYNE", "EFR2", "EFIRE", "ORIENTE", "SFR1", "SFR2"}
    assert {u: c.get("data-side") for u, c in at["3119"].items() if c.get("data-side") == "spanish"}.keys() == {
        "ORIENTE", "SFR1", "SFR2"}
    assert at["3119"]["BOYNE"].get("data-type") == "named_ship" and at["3119"]["SFR1"].get("data-type") == "frigate"
    assert aboard(at["3119"]["BOYNE"]) == ["ESUP", "EDEC1", "EDEC2"]  # units aboard a ship are drawn with it
    assert aboard(at["3018"]["EMERCH"]) == ["ES1", "ECAN"]
    assert texts(at["3119"]["BOYNE"], "factors") == ["8-2"]  # its gun and cannonade, as its look prints them
    assert "gun 8" in at["3119"]["BOYNE"].find(NS + "title").text  # every printed value, on hover
    assert "3119" in {m[0] for m in marks(draw(tmp_path, EOP, name="q.svg")) if m[2] == "interceptor"}


def test_at_end_the_retreat_the_losses_and_the_capture_are_drawn(tmp_path):
    root = draw(tmp_path, EOP, "--at", "end")
    at = stacks(root)
    assert "ORIENTE" in at["3019"] and "ORIENTE" not in at.get("3119", {})
    assert {"EFIRE", "EFR2"} <= set(at["force_pool[english]"])  # boxes are drawn beside the map
    assert ("3018", "english", "captured_by") in marks(root)


def test_at_a_line_number_draws_the_position_that_line_leaves(tmp_path):
    # Line 137 of the trace (as `umpire explain` numbers it) is '3018.captured_by is now english'.
    before = marks(draw(tmp_path, EOP, "--at", "136", name="a.svg"))
    after = marks(draw(tmp_path, EOP, "--at", "137", name="b.svg"))
    assert ("3018", "english", "captured_by") not in before
    assert ("3018", "english", "captured_by") in after
    by_text = marks(draw(tmp_path, EOP, "--at", "captured_by is now", name="c.svg"))
    assert by_text == after


def test_step_draws_before_and_after(tmp_path):
    assert main(["draw", EOP, "--step", "combat_resolution", "-o", str(tmp_path / "eop.svg")]) == 0
    before = stacks(ET.parse(tmp_path / "eop_before.svg").getroot())
    after = stacks(ET.parse(tmp_path / "eop_after.svg").getroot())
    assert "ORIENTE" in before["3119"] and "ORIENTE" in after["3019"]


def test_a_side_sees_only_what_the_view_shows_it(tmp_path):
    everything = stacks(draw(tmp_path, FOG, name="all.svg"))
    assert set(everything["2010"]) == {"SSOL1", "SSOL2"}
    root = draw(tmp_path, FOG, "--side", "english")
    seen = stacks(root)
    assert set(seen["2010"]) == {"SSOL1"} and set(seen["2012"]) == {"SDEC1"}
    assert aboard(seen["2014"]["SFR1"]) == [None]  # the soldiers under the frigate are not named
    assert set(seen["2016"]) == {"SSOL5", "SSOL6", "EDEC2"} and set(seen["2018"]) == {"ESOL1", "ESOL2"}
    # A counter under the top one is drawn face down as "a counter" (`hidden … seen as`, 4.4): the
    # English see each stack's height, not what it holds.
    assert face_down(root) == {"2010": [("a counter", "1", ["a counter"])],
                               "2012": [("a counter", "1", ["a counter"])],
                               "2014": [("a counter", "1", ["a counter: face down, not seen"])]}
    assert not [m for m in marks(root) if m[2] == "hidden"]
    svg = (tmp_path / "p.svg").read_text(encoding="utf-8")
    assert "SSOL2" not in svg and "SSOL4" not in svg  # not even in a counter's title
    assert "hidden" not in svg
    assert set(stacks(draw(tmp_path, FOG, "--side", "spanish", name="s.svg"))["2018"]) == {"ESOL1"}


def test_a_sea_of_glory_fleet_is_a_blank_block_to_the_enemy_its_ships_neither_drawn_nor_counted(tmp_path):
    # 2.3, 2.5: a block stands on edge (the enemy sees where it is, not whose or which it is); the ships
    # and admiral aboard sit on a concealed display sheet.
    root = draw(tmp_path, "scenarios/sea_of_glory_1805/case_battle_two_rounds.scenario", "--side", "allied")
    assert set(stacks(root)["1712"]) == {"A1"}
    assert face_down(root) == {"1712": [("a block", "1", ["a block"])]}
    svg = (tmp_path / "p.svg").read_text(encoding="utf-8")
    assert not any(u in svg for u in ("B1", "COLLINGWOOD", "HMS1")) and "hidden" not in svg
    assert " ".join(texts(root, "note")) == ("units allied does not see are drawn face down as the rules say they are "
                                             "seen, or not at all")  # no count of what is left out


def test_the_units_in_a_guerra_a_muerte_ejercito_box_are_not_drawn_nor_counted_for_the_enemy(tmp_path):
    # 5.1.3: P1 and P2 in the box of the Ejercito marker in Los Llanos; P3 on the map beside it.
    scenario = "scenarios/guerra_a_muerte/case_ejercito_reorganized.scenario"
    root = draw(tmp_path, scenario, "--side", "royalist")
    assert set(stacks(root)["los_llanos"]) == {"P3"} and face_down(root) == {}
    svg = (tmp_path / "p.svg").read_text(encoding="utf-8")
    assert "P1" not in svg and "P2" not in svg and "hidden" not in svg and "2 counter" not in svg
    assert {"P1", "P2", "P3"} <= set(stacks(draw(tmp_path, scenario, "--side", "patriot", name="q.svg"))["los_llanos"])


def test_units_not_seen_are_blank_counters_labelled_as_they_are_seen_what_they_carry_left_out(tmp_path):
    # tests/lang/fog.rules: a convoy is seen as "a block", a squadron as nothing.
    cargo = "tests/lang/fog_cargo.scenario"
    root = draw(tmp_path, cargo, "--side", "red")
    assert set(stacks(root)["reach"]) == {"RED1", "BLUE3"}  # BLUE3 turned face up by a search
    assert aboard(stacks(root)["reach"]["BLUE3"]) == [None]  # its two convoys, as one face-down tag
    assert face_down(root) == {"reach": [("a block", "2", ["a block x2: face down, not seen"])],  # the squadron aboard: not there
                               "home": [("a block", "1", ["a block"])]}  # nor the squadron aboard the convoy
    svg = (tmp_path / "p.svg").read_text(encoding="utf-8")
    assert not any(u in svg for u in ("BLUE1", "BLUE2", "BLUE4", "BLUE5", "BLUE6"))
    # Two convoys standing in the reach: one blank counter, 'x2'; the squadron beside them is not drawn.
    position = draw(tmp_path, "tests/lang/fog_position.scenario", "--side", "red", name="q.svg")
    assert face_down(position) == {"reach": [("a block", "2", ["a block", "x2"])], "home": [("a block", "1", ["a block"])]}
    assert set(stacks(position)["reach"]) == {"RED1"}


def test_a_sides_picture_names_the_moment_as_that_side_reads_the_trace(tmp_path):
    # Line 2 of fog_cargo's run is '[6.1] BLUE5 sails to reach'; Red reads 'a block sails to reach' (6.1).
    root = draw(tmp_path, "tests/lang/fog_cargo.scenario", "--side", "red", "--at", "2")
    assert texts(root, "moment") == ["after line 2: [6.1] a block sails to reach"]
    # the pile drawn from its bottom: the face-down block, then BLUE3 on top with its convoys aboard
    assert face_down(root)["reach"] == [("a block", "1", ["a block"]), ("a block", "2", ["a block x2: face down, not seen"])]
    assert "home" not in face_down(root) and "BLUE" not in (tmp_path / "p.svg").read_text(encoding="utf-8").replace(
        "BLUE3", "")


def test_the_area_map_draws_every_area_where_the_demo_map_puts_it(tmp_path):
    root = draw(tmp_path, "rulesets/guerra_a_muerte.rules")
    areas = places(root, "rect")
    listed = (ROOT / "rulesets/guerra_a_muerte/demo_map.scenario").read_text(encoding="utf-8").count("\n    area ")
    assert len(areas) == listed == 78
    x = {pid: float(r.get("x")) for pid, r in areas.items()}
    y = {pid: float(r.get("y")) for pid, r in areas.items()}
    assert x["nueva_california"] < x["cuba"] and y["nueva_california"] < y["chiloe"]
    assert not [t for t in texts(root, "note") if "no position" in t]


def test_positions_given_with_at_place_the_areas(tmp_path):
    areas = places(draw(tmp_path, "tests/lang/layout.scenario"), "rect")
    x = {pid: float(r.get("x")) for pid, r in areas.items()}
    y = {pid: float(r.get("y")) for pid, r in areas.items()}
    assert x["farm"] < x["hill"] < x["town"]
    assert y["hill"] < y["farm"] == y["town"]


def test_a_map_without_positions_still_draws_and_says_so(tmp_path):
    root = draw(tmp_path, "tests/lang/battle.scenario", "--at", "end")
    assert set(places(root, "rect")) == {"hill", "farm", "town"}
    assert any("3 place(s) have no position" in t for t in texts(root, "note"))
    assert ("hill", "red", "holder") in marks(root)
    assert set(stacks(root)["hill"]) == {"R1", "R2"} and set(stacks(root)["graveyard[blue]"]) == {"B1"}


def test_a_square_grid_is_drawn_from_its_ids(tmp_path):
    squares = places(draw(tmp_path, "tests/lang/grid_drift.scenario"), "rect")
    assert {"A4", "A5", "A6", "A1", "A2"} <= set(squares)
    x = {pid: float(r.get("x")) for pid, r in squares.items()}
    assert x["A1"] < x["A2"] < x["A4"] < x["A5"] < x["A6"]
    assert len({float(r.get("width")) for r in squares.values()}) == 1


def test_a_wrapping_edge_is_noted_on_its_squares_not_drawn_across_the_map(tmp_path):
    root = draw(tmp_path, "tests/lang/grid_drift.scenario")
    notes = texts(root, "wrap")
    # grid.rules wraps columns 1..6 on rows A..B: A6 and A1 touch across the edge.
    assert "\u21c4 A1" in notes and "\u21c4 A6" in notes
    lines = [el for el in root.iter(NS + "line") if el.get("class") == "link"]
    xs = [abs(float(el.get("x1")) - float(el.get("x2"))) for el in lines]
    assert all(x < 200 for x in xs), "no link line runs the width of the map"


def test_a_rules_file_draws_the_set_up_of_a_scenario_its_header_names(tmp_path, capsys):
    # Yellow Jack's Extended Campaign: its set-up applies an overlay and holds the waiting counters.
    root = draw(tmp_path, "rulesets/yellow_jack.rules", "--scenario", "extended")
    assert any("Extended Campaign" in t for t in texts(root))
    held = stacks(root)
    assert "AZOGUES" in held["convoy_pool[bourbon]"] and "BR_REINFORCEMENT" in held["reinforcement_pool[british]"]
    assert main(["draw", "rulesets/yellow_jack.rules", "--scenario", "extnded", "-o", str(tmp_path / "x.svg")]) == 1
    assert "did you mean 'extended'?" in capsys.readouterr().err
    assert main(["draw", EOP, "--scenario", "extended", "-o", str(tmp_path / "y.svg")]) == 1
    assert "give the rules file" in capsys.readouterr().err
    assert main(["draw", "rulesets/yellow_jack.rules", "--at", "3", "-o", str(tmp_path / "z.svg")]) == 1
    assert "a rules file is drawn at its demo set-up" in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists() and not (tmp_path / "y.svg").exists() and not (tmp_path / "z.svg").exists()


def test_an_existing_picture_is_kept_unless_forced(tmp_path, capsys):
    out = tmp_path / "p.svg"
    out.write_text("mine", encoding="utf-8")
    assert main(["draw", EOP, "-o", str(out)]) == 1
    assert "already exists: use --force" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "mine"
    assert main(["draw", EOP, "-o", str(out), "--force"]) == 0
    assert ET.parse(out).getroot().tag == NS + "svg"


@pytest.mark.parametrize("args, code, message", [
    (["--side", "french"], 1, "the game has no side 'french'"),
    (["--at", "9999"], 1, "no trace line matches '9999' (the trace has 141 lines)"),
    (["--step", "nowhere"], 1, "never stands at a step 'nowhere'"),
    (["--at", "3", "--step", "combat_resolution"], 1, "give one of them"),  # a refusal, not argparse's exit 2
    (["--at", " "], 1, "--at needs a line number, a text of the line, or 'end'"),
])
def test_bad_values_are_refused_with_a_message(tmp_path, capsys, args, code, message):
    assert main(["draw", EOP, *args, "-o", str(tmp_path / "p.svg")]) == code
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "p.svg").exists()


def test_a_picture_never_replaces_a_game_file(tmp_path, capsys):
    target = tmp_path / "x.rules"
    assert main(["draw", EOP, "-o", str(target)]) == 1
    assert "never replaces" in capsys.readouterr().err and not target.exists()


def test_play_draws_a_picture_as_each_turn_begins(tmp_path, capsys):
    folder = tmp_path / "game"
    assert main(["play", "rulesets/jenkins_ear.rules", "--seed", "3", "--draw", str(folder)]) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["end.svg"] + [f"turn-{t:02d}.svg" for t in range(1, 11)], "one picture a turn, the last turn's too"
    assert "umpire: 11 picture(s) written to" in capsys.readouterr().err
    first = ET.parse(folder / "turn-01.svg").getroot()
    assert places(first, "polygon") and stacks(first)
    # Taken before turn 1's first step runs (its clock stands there), not once turn 1 is over.
    assert texts(first, "clock") == ["turn 1, english_phase, war_fund_purchases"]
    assert texts(ET.parse(folder / "turn-10.svg").getroot(), "clock") == ["turn 10, english_phase, war_fund_purchases"]
    capsys.readouterr()
    assert main(["play", "rulesets/jenkins_ear.rules", "--seed", "3", "--draw", str(folder)]) == 1
    assert "already holds pictures" in capsys.readouterr().err


def test_explain_draws_the_line_it_explains(tmp_path, capsys):
    out = tmp_path / "line.svg"
    assert main(["explain", EOP, "--at", "137", "--draw", str(out)]) == 0
    assert "#137 [7.6] 3018.captured_by is now english" in capsys.readouterr().out
    assert ("3018", "english", "captured_by") in marks(ET.parse(out).getroot())
    assert main(["explain", EOP, "--draw", str(tmp_path / "other.svg")]) == 1
    assert "choose it with --at N" in capsys.readouterr().err


def test_a_shared_map_brings_its_positions_and_a_scenario_may_move_a_place(tmp_path):
    from interpreter.load import load_scenario
    from interpreter.syntax.diagnostics import Sources

    shared = load_scenario("rulesets/guerra_a_muerte/scenario_opening_guns.scenario", Sources())
    assert {p.id: p.at for p in shared.places}["cuba"] == (5, 2)
    (tmp_path / "map.scenario").write_text('scenario "map" uses "toy.rules" {\n  places {\n    area a { } at 0, 0\n'
                                           '    area b { } at 1, 0\n  }\n}\n', encoding="utf-8")
    (tmp_path / "own.scenario").write_text('scenario "own" uses "toy.rules" {\n  places from "map.scenario"\n'
                                           '  places {\n    area a at 3, 1\n  }\n}\n', encoding="utf-8")
    own = load_scenario(str(tmp_path / "own.scenario"), Sources())
    assert {p.id: p.at for p in own.places} == {"a": (3, 1), "b": (1, 0)}


def test_a_run_that_stops_on_an_error_is_drawn_up_to_it(tmp_path, capsys):
    path = "tests/lang/error_track_overflow.scenario"
    assert main(["draw", path, "--at", "end", "-o", str(tmp_path / "p.svg")]) == 0
    err = capsys.readouterr().err
    assert "error: supply[red] would go" in err and "the picture shows the moment asked before it" in err
    assert ET.parse(tmp_path / "p.svg").getroot().tag == NS + "svg"
    assert main(["draw", path, "--at", "999", "-o", str(tmp_path / "q.svg")]) == 1
    assert "the run stopped on the error above before the moment asked" in capsys.readouterr().err
    assert not (tmp_path / "q.svg").exists()


def spot_names(root: ET.Element) -> dict[str, str]:
    """Place id -> the name drawn on it (its lines joined)."""
    spots = {g.get("data-place"): g for g in root.iter(NS + "g") if "spot" in classes(g)}
    return {pid: " ".join(texts(g, "place-name")) for pid, g in spots.items() if texts(g, "place-name")}


def test_an_area_shows_its_name_and_a_marked_hex_its_mark_and_name(tmp_path):
    names = spot_names(draw(tmp_path, "rulesets/yellow_jack.rules"))
    assert names["port_royal_jamaica"] == "Port Royal (Jamaica)" and names["space_9"] == "Space #9"
    assert names["savannah_harbour"] == "Harbour of Savannah"
    hexes = draw(tmp_path, "rulesets/jenkins_ear.rules", name="je.svg")
    # A seaport (`look place seaport { mark: "⚓" }`) is named at its foot; another named hex in its tooltip.
    assert spot_names(hexes)["3018"] == "⚓ Leogane" and spot_names(hexes)["2719"] == "⚓ Port Royal"
    spots = {g.get("data-place"): g for g in hexes.iter(NS + "g") if "spot" in classes(g)}
    assert spots["3018"].find(NS + "title").text == "3018 Leogane"
    assert set(spot_names(hexes)) == {pid for pid, look in _seaports().items() if look}


def _seaports() -> dict[str, bool]:
    from interpreter.load import game_to_play
    from interpreter.syntax.diagnostics import Sources

    _, _, set_up = game_to_play("rulesets/jenkins_ear.rules", Sources(), [], True, None)
    return {p.id: "seaport" in p.props for p in set_up.engine.state.places.values()}


@pytest.mark.parametrize("agents, viewer", [("human,random", "english"), ("random,human", "spanish"),
                                            ("human,human", None)])
def test_play_draws_what_the_one_person_playing_sees(tmp_path, capsys, monkeypatch, agents, viewer):
    # Each person buys nothing at the set-up (3.2) and names the first turn the San Isidoro may arrive
    # (11.9); then the input ends, in turn 1 (the game is ended there).
    typed(monkeypatch, "0", "0", "1")
    folder = tmp_path / "game"
    assert main(["play", "rulesets/jenkins_ear.rules", "--seed", "1", "--agents", agents, "--draw", str(folder)]) == 0
    seen = f" (as {viewer} sees it)" if viewer else ""
    assert f"umpire: 1 picture(s) written to {folder}{seen}\n" in capsys.readouterr().err
    root = ET.parse(folder / "turn-01.svg").getroot()
    cartagena = stacks(root)["2922"]
    clock = texts(root, "clock")[0]
    if viewer == "english":  # the Spanish stack shows its top counter, the others face down (4.4)
        assert set(cartagena) == {"S_SOLDIERS_CAR"} and face_down(root)["2922"] == [("a counter", "8", ["a counter", "x8"])]
        assert clock.endswith(" — as english sees it")
    elif viewer == "spanish":  # the Spanish see their own stack whole
        assert len(cartagena) == 7 and "2922" not in face_down(root) and clock.endswith(" — as spanish sees it")
    else:  # two people at the table: the whole position, as without a person
        assert len(cartagena) == 7 and face_down(root) == {} and "sees it" not in clock


def test_when_lions_sailed_shows_land_counters_and_not_a_fleets_ships(tmp_path):
    # At Amsterdam (C13, the demo set-up) stand the Dutch fleet_1 (three ships with a regiment and De
    # Ruyter aboard, all in the off-map Fleet Holding Box: 2.10) and a fort (a face-down counter on the
    # map: 15.1); England sees one counter.
    root = draw(tmp_path, "rulesets/when_lions_sailed.rules", "--side", "england")
    assert face_down(root)["C13"] == [("a counter", "1", ["a counter"])]
    assert not stacks(root).get("C13")


# ── how a game looks: the ruleset's `look` declarations (language 6.3c) ──

GAMES = ("jenkins_ear", "guerra_a_muerte", "sea_of_glory_1805", "when_lions_sailed", "yellow_jack")


def fills(root: ET.Element) -> dict[str, str]:
    return {el.get("data-place"): el.get("data-fill") for el in root.iter() if "place" in classes(el) and el.get("data-fill")}


def test_terrain_is_filled_as_the_ruleset_declares_it(tmp_path):
    from interpreter.load import game_to_play
    from interpreter.syntax.diagnostics import Sources

    drawn = fills(draw(tmp_path, "rulesets/jenkins_ear.rules"))
    _, _, set_up = game_to_play("rulesets/jenkins_ear.rules", Sources(), [], True, None)
    declared = {"sea": "#b7d3ea", "coastal": "#d6e6c2", "land": "#e3d3a8"}  # jenkins_ear.rules: look place terrain …
    terrain = {p.id: p.props.get("terrain") for p in set_up.engine.state.places.values()}
    assert drawn and all(drawn[pid] == declared[t] for pid, t in terrain.items() if t)
    assert {drawn[pid] for pid in drawn} == set(declared.values())  # every terrain on the demo map is told apart
    patterns = {el.get("data-pattern") for el in draw(tmp_path, "rulesets/jenkins_ear.rules", name="q.svg").iter()
                if el.get("data-pattern")}
    assert patterns == {"waves", "dots"}


def test_an_undeclared_map_is_one_land_colour(tmp_path):
    from interpreter.picture.look import LAND

    assert set(fills(draw(tmp_path, "tests/lang/fog_cargo.scenario")).values()) == {LAND}


def test_sides_show_their_declared_colours_and_a_unit_its_owners(tmp_path):
    root = draw(tmp_path, "rulesets/when_lions_sailed.rules")
    legend = {g.get("data-side"): g.find(NS + "rect").get("fill") for g in root.iter(NS + "g") if "legend" in classes(g)}
    assert legend == {"england": "#b3261e", "netherlands": "#e07b1a", "spain": "#e3b53b", "france": "#2f5da8"}
    at = stacks(root)
    # The set-up places the pirates and treasure fleets 'of england': off the map they are nobody's, and show
    # their own printed colours (`look unit { owner: drawn_owner }`, `look counter pirate_ship { colour: … }`).
    pirates = at["pirate_supply"]
    assert pirates and all(c.get("data-side") == "england" and c.get("data-owner") == "none" for c in pirates.values())
    face = {c.get("data-type"): c.find(NS + "rect").get("fill") for c in pirates.values()}
    assert face["pirate_ship"] == "#3a3a3a"
    assert {c.find(NS + "rect").get("fill") for c in at["treasure_supply"].values()} == {"#c9a227"}
    assert at["C12"]["EN_SOVEREIGN"].find(NS + "rect").get("fill") == legend["england"]


def test_a_reduced_counter_shows_a_face_unlike_a_full_one(tmp_path):
    at = stacks(draw(tmp_path, "scenarios/guerra_a_muerte/case_militia_upgrade.scenario"))
    reduced, full = at["santa_fe"]["GR"], at["santa_fe"]["GM"]
    assert reduced.get("data-reduced") == "true" and full.get("data-reduced") is None
    assert reduced.find(NS + "rect").get("fill") != full.find(NS + "rect").get("fill")  # the pale face
    assert [r for r in reduced.iter(NS + "rect") if "reduced-band" in classes(r)]
    assert texts(full, "factors") and texts(full, "counter-symbol") == ["⚔"]  # combat-op, under its symbol


def _extent(el: ET.Element, dy: float) -> tuple[float, float, float]:
    """A text's left and right ends and its baseline, about (counters.text_width's estimate)."""
    from interpreter.picture.counters import text_width

    x, size = float(el.get("x")), float(el.get("font-size"))
    width = text_width(el.text or "", size)
    anchor = el.get("text-anchor", "start")
    left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
    return left, left + width, float(el.get("y")) + dy


@pytest.mark.parametrize("game", GAMES)
def test_each_game_fits_a_picture_read_1600_wide_and_no_text_runs_off_it(tmp_path, game):
    root = draw(tmp_path, f"rulesets/{game}.rules")
    width, height = float(root.get("width")), float(root.get("height"))
    assert width <= 2200 and height <= 2000  # shown 1600 wide, a counter keeps most of its size
    for parent in root.iter():
        dy = float(parent.get("transform", "translate(0,0)").split(",")[1].rstrip(")")) if "translate" in parent.get(
            "transform", "") else 0.0
        for el in parent.findall(NS + "text"):
            left, right, base = _extent(el, dy)
            assert left >= 0 and right <= width + 1 and 0 <= base <= height, (el.text, left, right, base)
    places_drawn = [el for el in root.iter() if "place" in classes(el) and el.get("data-place")]
    assert places_drawn
    assert [g for g in root.iter(NS + "g") if "demo" in classes(g)], "a demo map carries its label"


def test_a_river_is_drawn_along_the_hexsides_the_scenario_gives_it(tmp_path):
    # tests/lang/movement.rules: `look edge crossing river`; movement_terrain.scenario: five river hexsides.
    root = draw(tmp_path, "tests/lang/movement_terrain.scenario")
    rivers = [el for el in root.iter(NS + "line") if "border" in classes(el)]
    assert len(rivers) == 5 and {el.get("stroke") for el in rivers} == {"#2f6db5"}
    hexes = places(root, "polygon")
    corners = {pid: [tuple(map(float, p.split(","))) for p in h.get("points").split()] for pid, h in hexes.items()}

    def on(pid, x, y):
        return any(abs(x - cx) < 0.2 and abs(y - cy) < 0.2 for cx, cy in corners[pid])
    ends = [((float(el.get("x1")), float(el.get("y1"))), (float(el.get("x2")), float(el.get("y2")))) for el in rivers]
    # the side 0301-0401 is drawn: both its ends are corners of both hexes
    assert any(all(on(pid, *end) for pid in ("0301", "0401") for end in pair) for pair in ends)
    assert {fills(root)[pid] for pid in hexes} >= {"#9cc68a"}  # the woods, as the toy game declares them
