"""The standard library's zones of control (interpreter/library/zones_of_control.rules, docs/library/
zones_of_control.md) on its toy game, tests/lang/zones_of_control.rules, with the movement mechanic:
which hexes a zone covers, each kind (sticky, costly, locking, zone to zone) as the mover meets it, a
friendly unit cancelling a zone, a setting the game gives changing each, and an overlay replacing one
of the mechanic's functions. Zones of control roll no dice and hold no state of their own: their odds
and a saved position are those of the mechanics that read them (tests/language/test_library_supply.py)."""

from __future__ import annotations

from pathlib import Path

from interpreter.cli import main

LANG = Path(__file__).resolve().parent.parent / "lang"
RULES = (LANG / "zones_of_control.rules").read_text(encoding="utf-8")
KINDS = (LANG / "zones_of_control_kinds.scenario").read_text(encoding="utf-8")
PLACES = KINDS[KINDS.index("  places {"):KINDS.index("  units {")]
UNITS = KINDS[KINDS.index("  units {"):KINDS.index("  run ")]


def holds(tmp_path, capsys, expect: str, rules: str = RULES, overlay: str = "") -> list[str]:
    """The toy set-up (Blue's infantry at 0302, Red's guns at 0202, infantry at 0101, cavalry at 0203)
    with a copy of the rules: the expectations that failed."""
    (tmp_path / "zoc.rules").write_text(rules, encoding="utf-8")
    if overlay:
        (tmp_path / "house.house").write_text(overlay, encoding="utf-8")
    (tmp_path / "t.scenario").write_text(f"""
scenario "t" uses "zoc.rules" [4.0] {{
  {'with "house.house"' if overlay else ''}
{PLACES}{UNITS}  run red_moves()
  expect {{
{expect}
  }}
}}
""", encoding="utf-8")
    main(["run", str(tmp_path / "t.scenario")])
    out = capsys.readouterr()
    assert "expectations met" in out.out, out.out + out.err
    return [line.strip() for line in out.out.splitlines() if line.strip().startswith("FAIL")]


def test_the_toy_checks_clean(capsys):
    assert main(["check", str(LANG / "zones_of_control.rules")]) == 0
    assert "zones_of_control.rules: 0 error(s), 0 warning(s)\n" in capsys.readouterr().out


def test_the_zone_covers_the_hexes_around_but_not_across_the_river(tmp_path, capsys):
    expect = """    [p.id for p in zoc_of(B1)] == ["0201", "0202", "0301", "0303"]
    in_enemy_zoc(red, @0303) and not in_enemy_zoc(red, @0402) and not in_enemy_zoc(blue, @0401)
    zoc_of(BW) == [] and not in_enemy_zoc(red, @0204)"""
    assert holds(tmp_path, capsys, expect) == []
    across = RULES.replace('  zoc_crosses = border(from, into, "crossing") != river [4.2]\n', "")
    assert across != RULES
    assert holds(tmp_path, capsys, expect, across) == [
        'FAIL [p.id for p in zoc_of(B1)] == ["0201", "0202", "0301", "0303"]  '
        '([p.id for p in zoc_of(B1)] is [0201, 0202, 0301, 0303, 0401, 0402])',
        "FAIL in_enemy_zoc(red, @0303) and not in_enemy_zoc(red, @0402) and not in_enemy_zoc(blue, @0401)  (got no)"]


def test_each_kind_as_the_mover_meets_it(tmp_path, capsys):
    assert holds(tmp_path, capsys, """
    moves_of(G1) == [] "locking: the guns may not leave the zone they begin in"
    zoc_stops_in(I1, @0201) and not zoc_stops_in(C1, @0201) "sticky for infantry, not for cavalry"
    zoc_move_cost(C1, @0103, @0202) == 1 and zoc_move_cost(I1, @0103, @0202) == 0 "costly for cavalry"
    zoc_move_cost(C1, @0201, @0202) == none "no move from one hex of the zone to another"
    zoc_move_cost(I1, @0201, @0101) == 0 "leaving is free"
    @0202 in moves_of(I1) and not (@0301 in moves_of(I1)) "the infantry stops in the first hex of the zone"
    @0404 in moves_of(C1) and movement_spent(C1, @0404) == 2""") == []


def test_the_games_settings_change_each_kind(tmp_path, capsys):
    given = RULES.replace("  zoc_locks = u is artillery [4.5]\n",
                          "  zoc_locks = false [4.5]\n  zoc_to_zoc = true [4.6]\n  zoc_exit_cost = 2 [4.7]\n")
    assert holds(tmp_path, capsys, """
    count(moves_of(G1)) > 0 "not locked"
    zoc_move_cost(C1, @0201, @0202) == 3 "zone to zone: 2 to leave, 1 to enter"
    zoc_move_cost(I1, @0201, @0101) == 2 "2 to leave\"""", given) == []


def test_a_friendly_unit_cancels_the_zone_unless_the_game_says_not(tmp_path, capsys):
    expect = "    not enemy_zoc_unnegated(red, @0202) and enemy_zoc_unnegated(red, @0201) and in_enemy_zoc(red, @0202)"
    assert holds(tmp_path, capsys, expect) == []  # the guns at 0202 cancel it there
    never = RULES.replace("  zoc_locks = u is artillery [4.5]\n", "  zoc_locks = u is artillery [4.5]\n  zoc_negates = false [4.8]\n")
    assert holds(tmp_path, capsys, expect, never) == [f"FAIL {expect.strip()}  (got no)"]


def test_a_house_rule_replacing_a_function_of_the_mechanic(tmp_path, capsys):
    # Guns are no longer locked: the house rule replaces the library's zoc_move_cost by one that charges
    # 1 to leave a zone and forbids nothing.
    assert holds(tmp_path, capsys, "    count(moves_of(G1)) > 0 and movement_spent(G1, @0102) == 2", overlay="""
overlay loose "House rule: loose zones" amends "zoc.rules" {
  amend H-1 "Leaving a zone costs 1, and nothing is locked" [4.5 house rule] {
    replace function zoc_move_cost(u: unit, a: place, b: place) [4.5 house rule] = if in_enemy_zoc(u.side, a) then 1 else 0
  }
}
""") == []
