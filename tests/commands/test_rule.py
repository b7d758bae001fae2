"""`umpire rule RULESET SECTION`: every line that encodes a section and its subsections, in the
rulebook's order, with file:line (interpreter/cli/rule.py, docs/rules-lawyer.md)."""

from __future__ import annotations

from interpreter.cli import main

RULES = '''game g "G" [1.0] {
  sides a "A", b "B" [1.1]
  die d6 1..6 [1.2]
}
# Fire: a 5 or 6 hits.
table fire(x: int) [9.2] {
  read at x [9.2.1]
  1..4 -> miss [9.2]
  5..6 -> hit [9.2]
}
# The battle: both sides fire, then the loser retreats.
procedure battle() [9.1] {
  roll shot = 1 d6 [9.1 step 2]
  lookup r = fire(shot) [9.2]
  say "the shot: {r}"
  if r == hit [9.1a] {
    say "a hit" [9.10]
  }
  say "the battle is over" [9.1.3]
}
'''
SECTIONS = '''9.0 Combat
  9.1 Battles
  9.2 Fire
  9.10 Retreats
'''


def _write(tmp_path, sections: bool = True) -> str:
    (tmp_path / "g.rules").write_text(RULES, encoding="utf-8")
    if sections:
        (tmp_path / "g.sections").write_text(SECTIONS, encoding="utf-8")
    return str(tmp_path / "g.rules")


def test_a_section_and_its_subsections_with_the_lines_they_inherit(tmp_path, capsys):
    path = _write(tmp_path)
    assert main(["rule", path, "9.1"]) == 0
    out = capsys.readouterr().out
    # 9.1, 9.1 step 2, 9.1a and 9.1.3 are under 9.1; the uncited 'say' inherits 9.1, the closing
    # brace the 'if' it closes; 9.2 (the lookup) and 9.10 (the 'say' in the 'if') are other sections.
    assert out == f"""rule 9.1 Battles: 7 line(s) of {path} in 3 place(s), in the rulebook's order

[9.1] {path}:12-13, in procedure battle
  11 | # The battle: both sides fire, then the loser retreats.
  12 | procedure battle() [9.1] {{
  13 |   roll shot = 1 d6 [9.1 step 2]

[9.1] {path}:15-16, in procedure battle
  15 |   say "the shot: {{r}}"
  16 |   if r == hit [9.1a] {{

[9.1a] {path}:18-20, in procedure battle
  18 |   }}
  19 |   say "the battle is over" [9.1.3]
  20 | }}
"""


def _headings(path: str, capsys) -> list[str]:
    assert main(["rule", path, "9"]) == 0
    return [line for line in capsys.readouterr().out.splitlines() if line.startswith("[")]


def test_places_follow_the_rulebooks_order_of_sections(tmp_path, capsys):
    # 9 takes in every line of the procedure, so it is one place, under its first line's 9.1.
    path = _write(tmp_path)
    table, battle = f"[9.2] {path}:6-10, in table fire", f"[9.1] {path}:12-20, in procedure battle"
    assert _headings(path, capsys) == [battle, table]  # the file writes the table first
    (tmp_path / "g.sections").write_text(SECTIONS.replace("  9.1 Battles\n  9.2 Fire\n", "  9.2 Fire\n  9.1 Battles\n"),
                                         encoding="utf-8")
    assert _headings(path, capsys) == [table, battle]


def test_without_a_sections_file_the_numbers_order_the_places(tmp_path, capsys):
    path = _write(tmp_path, sections=False)
    assert main(["rule", path, "9"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"rule 9: 14 line(s) of {path} in 2 place(s), in the rulebook's order"
    assert out.index("[9.1]") < out.index("[9.2]")


def test_a_section_no_line_cites_is_an_error_with_the_closest(tmp_path, capsys):
    path = _write(tmp_path)
    assert main(["rule", path, "9.3"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"umpire rule: error: no line of {path} cites 9.3; did you mean '9.")


def test_a_game_of_many_files_reads_a_rule_across_them(capsys):
    assert main(["rule", "rulesets/jenkins_ear.rules", "6.3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rule 6.3 ")
    files = {line.split("] ")[1].split(":")[0] for line in out.splitlines() if line.startswith("[6.3")}
    assert {"rulesets/jenkins_ear.rules", "rulesets/jenkins_ear/movement.rules"} <= files


def test_a_citation_written_inside_a_construct_brings_its_line(tmp_path, capsys):
    # The table's 'read at' line cites 9.2.1 on its own; the table around it cites 9.2.
    path = _write(tmp_path)
    assert main(["rule", path, "9.2.1"]) == 0
    assert capsys.readouterr().out == f"""rule 9.2.1: 1 line(s) of {path} in 1 place(s), in the rulebook's order

[9.2.1] {path}:7, in table fire
  7 |   read at x [9.2.1]
"""


def test_a_closing_brace_alone_is_no_place(tmp_path, capsys):
    # 9.1a is the 'if' (line 16) and its closing brace (18), with a 9.10 line between them.
    path = _write(tmp_path)
    assert main(["rule", path, "9.1a"]) == 0
    assert capsys.readouterr().out == f"""rule 9.1a: 1 line(s) of {path} in 1 place(s), in the rulebook's order

[9.1a] {path}:16, in procedure battle
  16 |   if r == hit [9.1a] {{
"""
