"""The standard library's mechanism (language 9.0a): `use NAME [cite] { SETTING = … }` puts a library
mechanic's declarations in the ruleset, cited as the `use` line, each setting given the game's body or
its default; an overlay replaces them by name; the shape of a ruleset leaves them out. A STEP of
cheapest/reach given its leading arguments sees the mover (language 13); a result written as one
standard effect (language 8.3) runs as a call. Each mechanic's own tests are test_library_NAME.py;
the goldens of a wrong `use` are tests/bad/library_*.rules."""

from __future__ import annotations

import json

from checking import check_text

from interpreter import library
from interpreter.cli import main
from interpreter.load import load_rules
from interpreter.syntax.diagnostics import Sources

HEAD = '''game zoc "Zones" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [1.2]
}
stat attack "attack factor" [2.1]
class infantry "Infantry" [2.0]
type rifles "Rifles": infantry [2.0] { attack: 4 }
type hq "Headquarters": infantry [2.0] { attack: 0 }
map field [3.0] {
  grid hex "CCRR" columns even_q [3.0]
  property terrain: {clear, woods} [3.1]
}
'''
USE = '''use zones_of_control [7.0] {
  exerts_zoc = u.on_map and u.attack > 0 [7.1]
}
'''
PROBE = '''procedure probe(p: place) [7.3] {
  say "{p}: {in_enemy_zoc(red, p)}" [7.3]
}
'''
PLACES = "hex 0101 {} hex 0102 {} hex 0103 {} hex 0104 {} hex 0201 {} hex 0202 {} hex 0203 {}"


def _run(tmp_path, capsys, rules: str, run: str, command: str = "run", extra: tuple[str, ...] = ()) -> tuple[int, str]:
    (tmp_path / "t.rules").write_text(rules, encoding="utf-8")
    (tmp_path / "t.scenario").write_text(
        f'scenario "s" uses "t.rules" [7.0] {{\n  places {{ {PLACES} }}\n'
        '  units { A: rifles of blue at 0102  H: hq of blue at 0203  R: rifles of red at 0101 }\n'
        f'  run {run}\n  expect {{ true }}\n}}\n', encoding="utf-8")
    code = main([command, str(tmp_path / "t.scenario"), *extra])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_setting_given_by_the_use_replaces_the_default(tmp_path, capsys):
    # The HQ (attack 0) exerts none under the game's setting, one under the library's default.
    code, out = _run(tmp_path, capsys, HEAD + USE + PROBE, "probe(@0104)")
    assert code == 0 and "0104: no" in out, out
    code, out = _run(tmp_path, capsys, HEAD + "use zones_of_control [7.0]\n" + PROBE, "probe(@0104)")
    assert code == 0 and "0104: yes" in out, out


def test_the_mechanics_declarations_are_cited_as_the_use_line(tmp_path, capsys):
    code, out = _run(tmp_path, capsys, HEAD + USE + PROBE, "probe(@0101)", "explain")
    assert code == 0, out
    # the library's own citations ([ZOC-1]) never show; the game's setting keeps its own [7.1]
    assert "consulted in_enemy_zoc(red, 0101) [7.0] = yes" in out
    assert "consulted exerts_zoc(A) [7.1] = yes" in out
    assert "ZOC-" not in out


def test_the_rule_a_use_encodes_lists_the_mechanics_lines(tmp_path, capsys):
    (tmp_path / "t.rules").write_text(HEAD + USE + PROBE, encoding="utf-8")
    assert main(["rule", str(tmp_path / "t.rules"), "7.0"]) == 0
    out = capsys.readouterr().out
    assert f"{library.path_of('zones_of_control')}:" in out and "function in_enemy_zoc" in out
    assert "use zones_of_control [7.0]" in out


def test_an_overlay_replaces_a_library_function_by_name(tmp_path, capsys):
    (tmp_path / "h.overlay").write_text('''overlay open "Toy house rule: no zone reaches a hex" amends "t.rules" {
  amend H-1 "Zones of control do not reach" [7.0 house rule] {
    replace function in_enemy_zoc(s: side, p: place) [7.0 house rule] = false
  }
}
''', encoding="utf-8")
    code, out = _run(tmp_path, capsys, HEAD + USE + PROBE, "probe(@0101)", extra=("--with", str(tmp_path / "h.overlay")))
    assert code == 0 and "0101: no" in out, out
    code, out = _run(tmp_path, capsys, HEAD + USE + PROBE, "probe(@0101)")
    assert code == 0 and "0101: yes" in out, out


def test_a_mechanics_functions_the_game_never_calls_are_not_unused(tmp_path, capsys):
    code, out = check_text(tmp_path, HEAD + USE + PROBE + "function spare() [8.0] = 1\n", capsys)
    assert code == 0, out
    assert "function 'spare' [8.0] is used by no rule" in out  # the game's own still is
    assert "zoc_of" not in out


def test_a_binding_is_checked_as_the_games_own_body(tmp_path, capsys):
    code, out = check_text(tmp_path, HEAD + "use zones_of_control [7.0] {\n  exerts_zoc = u.atack > 0 [7.1]\n}\n", capsys)
    assert code == 1
    assert "t.rules:14:" in out and "'atack'" in out and "did you mean 'attack'?" in out


def test_a_mechanic_left_out_that_another_needs_is_named_at_the_use(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "lib"
    folder.mkdir()
    (folder / "needy.rules").write_text("use zones_of_control\nfunction needy(p: place) [N-1] = in_enemy_zoc(red, p)\n",
                                        encoding="utf-8")
    (folder / "zones_of_control.rules").write_text(
        library.text(library.path_of("zones_of_control")), encoding="utf-8")
    monkeypatch.setattr(library, "_FOLDER", folder)
    code, out = check_text(tmp_path, HEAD + "use needy [7.5]\n", capsys)
    assert code == 1
    assert "'use needy' needs 'use zones_of_control' too" in out and "t.rules:13:1" in out
    code, out = check_text(tmp_path, HEAD + USE + "use needy [7.5]\n", capsys)
    assert code == 0, out


def test_a_cached_load_still_quotes_the_mechanics_lines(tmp_path, monkeypatch):
    monkeypatch.setenv("UMPIRE_CACHE", str(tmp_path / "cache"))
    (tmp_path / "t.rules").write_text(HEAD + USE + PROBE, encoding="utf-8")
    path = library.path_of("zones_of_control")
    for _ in range(2):  # made, then read from the cache
        sources = Sources()
        loaded = load_rules(str(tmp_path / "t.rules"), sources)
        assert not loaded.errors
        assert path in sources.names()
        assert sources.line(path, 1).startswith("# Zones of control")


def test_the_shape_leaves_the_mechanics_out_and_names_them(tmp_path, capsys):
    (tmp_path / "t.rules").write_text(HEAD + USE + PROBE, encoding="utf-8")
    assert main(["coverage", "--shape", "--json", str(tmp_path / "t.rules")]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [f["file"] for f in doc["files"]] == [str(tmp_path / "t.rules")]
    assert doc["library"] == ["zones_of_control"]
    # the setting's body the game gives (a function's body) and the probe's say; none of the library's
    assert doc["statements"] == 2


MOVER = '''function cost(u: unit, a: place, b: place) [8.0] = if u.attack == 0 then 1 else if in_enemy_zoc(u.side, b) then 3 else 1
procedure go(u: unit, to: place) [8.0] {
  say "{u.id}: {cheapest(u.location, to, places(), cost(u))}" [8.0]
}
'''


def test_a_step_function_given_the_mover_costs_each_mover_its_own(tmp_path, capsys):
    # 0101 -> 0104 in three moves: the rifles pay 3 for each hex in the blue rifles' zone of control
    # (0102's neighbours), the headquarters (attack 0) 1 for every hex.
    code, out = _run(tmp_path, capsys, HEAD + USE + MOVER, "go(R, @0104)")
    assert code == 0 and "R: 5" in out, out
    code, out = _run(tmp_path, capsys, HEAD + USE + MOVER, "go(H, @0101)")
    assert code == 0 and "H: 3" in out, out


RESULTS = '''table clash(defenders: list) "Clash" [5.0] {
  roll 1 d6
  1..3 -> spared [5.0]
  4..6 -> routed [5.0]
  result spared "the defenders hold" [5.1]
  result routed "the defenders are routed" [5.2] = rout(defenders, "routed")
}
procedure rout(units: list, why: str) [5.3] {
  eliminate units because "{why}" [5.3]
}
procedure attack(p: place) [5.0] {
  lookup outcome = clash(units_at(p)) [5.0]
}
'''


def test_a_result_written_as_one_effect_runs_it_and_is_data(tmp_path, capsys):
    (tmp_path / "t.rules").write_text(HEAD + RESULTS, encoding="utf-8")
    (tmp_path / "t.scenario").write_text(
        f'scenario "s" uses "t.rules" [5.0] {{\n  places {{ {PLACES} }}\n  units {{ A: rifles of blue at 0102 }}\n'
        '  run attack(@0102)\n  dice { 5 "clash" }\n  expect { A.location == none }\n}\n', encoding="utf-8")
    assert main(["run", str(tmp_path / "t.scenario")]) == 0
    out = capsys.readouterr().out
    assert "[5.3] A is eliminated (routed)" in out and "1 of 1 expectations met" in out
    assert main(["coverage", "--shape", "--json", str(tmp_path / "t.rules")]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["statements"] == 2  # the procedures' bodies, not the result '= rout(…)'


def test_a_paragraph_of_the_mechanic_cited_as_another_rule_of_the_game(tmp_path, capsys):
    # The zones' own paragraph ZOC-1 (who exerts a zone, and where) is the game's 7.5; the rest stay 7.0.
    use = USE.replace("[7.1]\n}", "[7.1]\n  [ZOC-1] as [7.5]\n}")
    code, out = _run(tmp_path, capsys, HEAD + use + PROBE, "probe(@0101)", "explain")
    assert code == 0, out
    assert "consulted in_enemy_zoc(red, 0101) [7.5] = yes" in out
    assert "consulted exerts_zoc(A) [7.1] = yes" in out  # the game's own body keeps its own citation
    assert "consulted zoc_crosses(0102, 0101) [7.5] = yes" in out  # a setting left at its default: its paragraph's
