"""Constructs a second game needed: tracks per nation, units changing side, scenarios named in
the game header and played with `umpire play --scenario NAME` until their own last turn."""

from __future__ import annotations

from interpreter.cli import main

RULES = """
game relay "Relay" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  nations chile "Chile", mexico "Mexico" [1.2]
  die d6 1..6 [2.0]
  turns 15 [1.3]
  scenario opening "opening.scenario" [12.1]
  scenario finale "finale.scenario" [12.3]
}
class foot "foot" [2.0]
type militia "Militia": foot [2.1] { }
track rp "Resource Points" per nation 0..20 excess discarded [4.0] start chile 3, mexico 5
procedure defect(u: unit, s: side) [10.2] {
  change side of u to s [10.2]
  adjust rp[chile] by 2 [4.0]
}
sequence [3.0] {
  phase ops [3.1] {
    step move [3.2] { say "turn {turn()}: rp {rp[chile]}/{rp[mexico]}" [3.2] }
  }
}
"""

DEFECT = """
scenario "a defection" uses "relay.rules" [10.2] {
  places { area camp }
  units { M1: militia of red at camp }
  track rp mexico 9
  run defect(M1, blue)
  expect {
    M1.side == blue
    rp[chile] == 5 and rp[mexico] == 9
  }
}
"""

OPENING = """
scenario "Opening" uses "relay.rules" [12.1] {
  places { area camp }
  units { M1: militia of red at camp }
  at turn 1 phase ops step move
  until turn 3
  run step move
}
"""

FINALE = """
scenario "Finale" uses "relay.rules" [12.3] {
  at turn 14 phase ops step move
  run step move
}
"""


def write(tmp_path):
    for name, text in (("relay.rules", RULES), ("defect.scenario", DEFECT), ("opening.scenario", OPENING),
                       ("finale.scenario", FINALE)):
        (tmp_path / name).write_text(text)


def test_a_track_per_nation_and_a_unit_changing_side(tmp_path, capsys):
    write(tmp_path)
    assert main(["run", str(tmp_path / "defect.scenario")]) == 0
    out = capsys.readouterr().out
    assert "[10.2] M1 changes side: red -> blue" in out
    assert "[4.0] rp[chile] 3 -> 5" in out
    assert "result: 2 of 2 expectations met" in out


def test_a_side_that_is_not_a_side_is_refused(tmp_path, capsys):
    write(tmp_path)
    (tmp_path / "bad.scenario").write_text(DEFECT.replace("defect(M1, blue)", "defect(M1, chile)"))
    assert main(["run", str(tmp_path / "bad.scenario")]) == 1
    assert "chile is not a side" in capsys.readouterr().err


def test_a_per_nation_start_names_nations(tmp_path, capsys):
    write(tmp_path)
    (tmp_path / "relay.rules").write_text(RULES.replace("start chile 3, mexico 5", "start chile 3, mexcio 5"))
    assert main(["check", str(tmp_path / "relay.rules")]) == 1
    err = capsys.readouterr().err
    assert "unknown nation 'mexcio'" in err and "did you mean 'mexico'?" in err


def test_play_a_named_scenario_until_its_last_turn(tmp_path, capsys):
    write(tmp_path)
    assert main(["play", str(tmp_path / "relay.rules"), "--scenario", "opening", "--agents", "first,first"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "set-up: Opening"
    assert [line for line in lines if "rp 3/5" in line] == [f"[3.2] turn {t}: rp 3/5" for t in (1, 2, 3)]
    assert lines[-1] == "[12.1] the game ends after turn 3"
    assert main(["play", str(tmp_path / "relay.rules"), "--scenario", "finale", "--agents", "first,first"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "[1.3] the game ends after turn 15"


def test_an_unknown_scenario_is_refused_with_the_names(tmp_path, capsys):
    write(tmp_path)
    assert main(["play", str(tmp_path / "relay.rules"), "--scenario", "openin"]) == 1
    err = capsys.readouterr().err
    assert "the game names no scenario 'openin'" in err and "did you mean 'opening'?" in err
    assert "Traceback" not in err


def test_check_checks_every_named_scenario(tmp_path, capsys):
    write(tmp_path)
    (tmp_path / "finale.scenario").write_text(FINALE.replace("step move", "step mvoe", 1))
    assert main(["check", str(tmp_path / "relay.rules")]) == 1
    assert "mvoe" in capsys.readouterr().err


NEEDS = """
game raid "Raid" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
missing table crt "the Combat Results Table, printed on the map" [6.1]
procedure battle() [6.1] needs crt {
  lookup result = crt() [6.1]
}
procedure skirmish() [6.0] {
  say "a skirmish" [6.0]
  call battle() [6.1]
}
"""

CRT = """
include "raid.rules" [1.0]
table crt() "DEMO Combat Results Table" [6.1] {
  roll 1 d6
  1..3 -> attacker_loses "Attacker loses" [6.1 demo]
  4..6 -> defender_loses "Defender loses" [6.1 demo]
}
"""


def test_a_procedure_that_needs_a_missing_table(tmp_path, capsys):
    (tmp_path / "raid.rules").write_text(NEEDS)
    (tmp_path / "with_crt.rules").write_text(CRT)
    (tmp_path / "plain.scenario").write_text('scenario "s" uses "raid.rules" [6.0] {\n  run skirmish()\n}\n')
    (tmp_path / "demo.scenario").write_text(
        'scenario "s" uses "with_crt.rules" [6.0] {\n  run skirmish()\n  dice { 5 "crt" }\n'
        '  expect { fact("crt result") == defender_loses }\n}\n')
    assert main(["check", str(tmp_path / "raid.rules")]) == 0
    assert "warning: procedure 'battle' [6.1] needs the missing table(s) crt" in capsys.readouterr().err
    # Without the table, calling it stops the run with the reason, after what came before it.
    assert main(["run", str(tmp_path / "plain.scenario")]) == 1
    captured = capsys.readouterr()
    assert "[6.0] a skirmish" in captured.out
    assert "procedure 'battle' needs the missing table(s) crt, which no data file supplies" in captured.err
    # With a data file supplying it, the procedure runs like any other.
    assert main(["run", str(tmp_path / "demo.scenario")]) == 0
    assert "crt: roll 5 = 5 -> Defender loses" in capsys.readouterr().out


def test_range_counts_like_a_rulebook(tmp_path, capsys):
    rules = RULES.replace('''procedure defect(u: unit, s: side) [10.2] {''', '''procedure count_up() [3.0] {
  record "boxes" = range(1, 3) [3.0]
  record "none" = range(4, 3) [3.0]
  record "total" = sum([n * 2 for n in range(1, 4)]) [3.0]
}
procedure defect(u: unit, s: side) [10.2] {''')
    write(tmp_path)
    (tmp_path / "relay.rules").write_text(rules)
    (tmp_path / "count.scenario").write_text(
        'scenario "c" uses "relay.rules" [3.0] {\n  run count_up()\n'
        '  expect { fact("boxes") == [1, 2, 3] and fact("none") == [] and fact("total") == 20 }\n}\n')
    assert main(["run", str(tmp_path / "count.scenario")]) == 0
    (tmp_path / "huge.scenario").write_text('scenario "h" uses "relay.rules" [3.0] {\n  run count_up()\n}\n')
    (tmp_path / "relay.rules").write_text(rules.replace("range(1, 3)", "range(1, 1000000)"))
    capsys.readouterr()
    assert main(["run", str(tmp_path / "huge.scenario")]) == 1
    assert "range(1, 1000000) would hold more than 100000 numbers" in capsys.readouterr().err


SEAS = """
game voyage "Voyage" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
map sea [1.1] {
  grid area "area" [1.1]
  property kind: {land, sea} [1.1]
}
function seas() [7.1] = [p for p in places() where p.kind == sea]
procedure look(from: place) [7.1] {
  say "{count(within(from, 2, seas()))} sea areas within two of {from}" [7.1]
}
"""

SEA_CASE = """
scenario "reach" uses "voyage.rules" [7.1] {
  places {
    area s1 { kind: sea }
    area s2 { kind: sea }
    area s3 { kind: sea }
    area s4 { kind: sea }
    area isthmus { kind: land }
    area s5 { kind: sea }
    adjacent s1 s2
    adjacent s2 s3
    adjacent s3 s4
    adjacent s1 isthmus
    adjacent isthmus s5
  }
  run look(@s1)
  expect {
    within(@s1, 2, seas()) == [@s1, @s2, @s3]
    within([@s4, @s1], 1, seas()) == [@s4, @s1, @s3, @s2]
    distance(@s1, @s4, seas()) == 3
    distance(@s1, @s5, seas()) == none
    distance(@s1, @s5, places()) == 2
    within(@s1, 0, seas()) == [@s1];
    [[p, q] for p in [@s1, @s2] for q in adjacent(p) where q.kind == sea] == [[@s1, @s2], [@s2, @s1], [@s2, @s3]];
    [[p, q] for p in [@s1] for q in [@s2, @s3] for r in [1, 2] where r > 1] == [[@s1, @s2], [@s1, @s3]]
  }
}
"""


def test_within_and_distance_count_moves_through_the_places_allowed(tmp_path, capsys):
    (tmp_path / "voyage.rules").write_text(SEAS)
    (tmp_path / "reach.scenario").write_text(SEA_CASE)
    assert main(["run", str(tmp_path / "reach.scenario")]) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert "[7.1] 3 sea areas within two of s1" in out
    assert "result: 8 of 8 expectations met" in out


def test_within_refuses_what_is_not_a_place(tmp_path, capsys):
    (tmp_path / "voyage.rules").write_text(SEAS)
    (tmp_path / "reach.scenario").write_text(SEA_CASE.replace("run look(@s1)", "run look(3)"))
    assert main(["run", str(tmp_path / "reach.scenario")]) == 1
    out = capsys.readouterr()
    assert "within needs a place or a list of places to start from, not 3" in out.out + out.err
    assert "Traceback" not in out.err


MAP = """
scenario "a shared map" uses "voyage.rules" [1.1] {
  places {
    area s1 { kind: sea } "the open sea"
    area s2 { kind: sea }
    adjacent s1 s2
  }
}
"""

ON_MAP = """
scenario "on the shared map" uses "voyage.rules" [7.1] {
  places from "map.scenario" [1.1]
  places {
    area s2 { kind: land } "silted up in this set-up"
    area s3 { kind: sea }
    adjacent s2 s3
  }
  run look(@s1)
  expect {
    @s2.kind == land and @s1.kind == sea
    adjacent(@s2) == [@s1, @s3]
  }
}
"""


def test_places_from_a_shared_map_with_the_set_ups_own_values(tmp_path, capsys):
    (tmp_path / "voyage.rules").write_text(SEAS)
    (tmp_path / "map.scenario").write_text(MAP)
    (tmp_path / "on.scenario").write_text(ON_MAP)
    assert main(["check", str(tmp_path / "map.scenario")]) == 0
    assert main(["run", str(tmp_path / "on.scenario")]) == 0
    out = capsys.readouterr().out
    assert "[7.1] 1 sea areas within two of s1" in out
    assert "result: 2 of 2 expectations met" in out


def test_places_from_a_missing_file_or_a_cycle_is_an_error(tmp_path, capsys):
    (tmp_path / "voyage.rules").write_text(SEAS)
    (tmp_path / "on.scenario").write_text(ON_MAP)
    assert main(["run", str(tmp_path / "on.scenario")]) == 1
    err = capsys.readouterr().err
    assert "cannot take places from 'map.scenario': there is no file" in err and "Traceback" not in err
    (tmp_path / "map.scenario").write_text(MAP.replace("  places {", '  places from "on.scenario"\n  places {', 1))
    assert main(["run", str(tmp_path / "on.scenario")]) == 1
    assert "places from a cycle" in capsys.readouterr().err


def test_the_values_of_an_enumerated_game_state_are_names(tmp_path, capsys):
    rules = SEAS + """
state tide: {ebb, flood} [7.2]
procedure turn_tide() [7.2] {
  if tide == ebb [7.2] {
    set tide = flood [7.2]
  }
  say "the tide is {tide}" [7.2]
}
"""
    (tmp_path / "voyage.rules").write_text(rules)
    (tmp_path / "tide.scenario").write_text("""
scenario "tide" uses "voyage.rules" [7.2] {
  state tide: ebb
  run turn_tide()
  expect {
    tide == flood
  }
}
""")
    assert main(["run", str(tmp_path / "tide.scenario")]) == 0
    out = capsys.readouterr().out
    assert "[7.2] the tide is flood" in out and "result: 1 of 1 expectations met" in out
    (tmp_path / "voyage.rules").write_text(rules.replace("tide == ebb", "tide == eb"))
    assert main(["check", str(tmp_path / "voyage.rules")]) == 1
    assert "unknown name 'eb'" in capsys.readouterr().err


DICE_COUNT = """
game toy "Toy" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [1.2]
}
table tactics(dice: int) "Tactics" [6.1] {
  roll dice d6
  1..6 -> plain [6.1]
  7..12 -> clever [6.1]
}
procedure battle(first: bool) [6.1] {
  lookup mine = tactics(if first then 2 else 1) [6.1]
}
"""


def test_a_table_rolls_as_many_dice_as_its_parameter_says(tmp_path, capsys):
    (tmp_path / "toy.rules").write_text(DICE_COUNT)
    assert main(["check", str(tmp_path / "toy.rules")]) == 0
    out = capsys.readouterr()
    assert "the roll ranges over 1..12 (dice (= 1..2) d6 1..12)" in out.out + out.err
    (tmp_path / "two.scenario").write_text("""
scenario "two dice" uses "toy.rules" [6.1] {
  run battle(true)
  dice { 4 "tactics" 5 "tactics" }
  expect { fact("tactics result") == clever }
}
""")
    assert main(["run", str(tmp_path / "two.scenario")]) == 0
    assert "[6.1] tactics: roll 9 = 9 -> clever" in capsys.readouterr().out
    (tmp_path / "toy.rules").write_text(DICE_COUNT.replace("roll dice d6", "roll dcie d6"))
    assert main(["check", str(tmp_path / "toy.rules")]) == 1
    err = capsys.readouterr().err
    assert "table 'tactics' rolls 'dcie' dice, but it has no such parameter" in err and "did you mean 'dice'?" in err


def test_a_script_may_name_a_nation_or_a_box_the_rules_refuse(tmp_path, capsys):
    (tmp_path / "relay.rules").write_text(RULES + """
box harbour "Harbour" [4.1]
procedure pick() [4.0] {
  choose pool by red from [chile] "which nation's RP" [4.0]
  choose shelter by red from places() "where to shelter" [4.1]
}
""")
    (tmp_path / "pick.scenario").write_text("""
scenario "refused" uses "relay.rules" [4.0] {
  places { area camp }
  run pick()
  decisions {
    red pool: mexico departs X1 [4.0] "the script takes Mexico's RP" instead chile
    red shelter: harbour departs X2 [4.1] "the script shelters in the box" instead camp
  }
  expect { true }
}
""")
    assert main(["run", str(tmp_path / "pick.scenario")]) == 0
    out = capsys.readouterr().out
    assert "departure X1: the script has red decide 'pool: mexico'" in out and "the rules refuse it: the rules leave only chile" in out
    assert "departure X2: the script has red decide 'shelter: harbour'" in out and "the rules leave only camp" in out


def test_a_scenario_may_expect_the_run_to_stop(tmp_path, capsys):
    (tmp_path / "relay.rules").write_text(RULES + """
missing table weather "the weather table, printed on the map" [5.0]
procedure forecast() [5.0] needs weather {
  say "the weather is read" [5.0]
}
procedure calm() [5.0] {
  say "calm" [5.0]
}
""")
    case = """
scenario "stop" uses "relay.rules" [5.0] {
  run RUN
  stops "needs the missing table(s) weather" [5.0]
  expect { rp[chile] == 3 }
}
"""
    (tmp_path / "stop.scenario").write_text(case.replace("RUN", "forecast()"))
    assert main(["run", str(tmp_path / "stop.scenario")]) == 0
    out = capsys.readouterr().out
    assert "stopped: procedure 'forecast' needs the missing table(s) weather" in out
    assert 'ok   the run stops: "needs the missing table(s) weather"  -- [5.0]' in out and "result: 2 of 2" in out
    (tmp_path / "stop.scenario").write_text(case.replace("RUN", "calm()"))
    assert main(["run", str(tmp_path / "stop.scenario")]) == 1
    assert 'FAIL the run stops: "needs the missing table(s) weather"  -- [5.0]  (it ran to its end)' in capsys.readouterr().out


STEPS = """
game relay "Relay" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [1.2]
  turns 1 [1.3]
}
missing table weather "the weather table, printed on the map" [5.0]
sequence [2.0] {
  phase play [2.0] {
    step muster [2.1] { say "mustered" [2.1] }
    step forecast [2.2] needs weather { say "the weather is read" [2.2] }
    step supply [2.3] pending
  }
}
"""


def test_a_game_skips_the_steps_it_cannot_play_and_a_scenario_stops_at_them(tmp_path, capsys):
    (tmp_path / "steps.rules").write_text(STEPS)
    assert main(["play", str(tmp_path / "steps.rules"), "--agents", "first,first"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == ["[2.1] turn 1, play, muster", "[2.1] mustered",
                       "[2.2] turn 1, play, forecast: needs the missing weather, skipped",
                       "[2.3] turn 1, play, supply: not encoded yet, skipped",
                       "[1.3] the game ends after turn 1"]
    for step, message in (("forecast", "step 'forecast' [2.2] needs the missing weather"),
                          ("supply", "step 'supply' [2.3] is not encoded yet")):
        (tmp_path / "one.scenario").write_text(
            f'scenario "one" uses "steps.rules" [2.0] {{\n  at turn 1 phase play step {step}\n  run step {step}\n}}\n')
        assert main(["run", str(tmp_path / "one.scenario")]) == 1
        assert message in capsys.readouterr().err
