"""`umpire coverage`: the rulebook's sections a ruleset encodes, partly encodes or leaves out, on a tiny
game, the toy game of tests/lang and the two rulesets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.cli import main
from interpreter.coverage import declared, measure, read_sections, sections_path_for
from interpreter.ir.citations import names as split_citation
from interpreter.ir.citations import written
from interpreter.load import load_rules
from interpreter.syntax.diagnostics import Sources, UmpireError

ROOT = Path(__file__).resolve().parent.parent.parent
RULEBOOK = ROOT.parent / "shared" / "rulebooks" / "jenkins_ear.txt"

TINY_RULES = """\
game skirmish "Skirmish" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [2.0]
}
stat gun "gun value" [2.2 Note]
class naval "naval counter" [2.2]
type frigate "Frigate": naval [2.3 step 2a] { gun: 2 [A-05] }
procedure refit(u: unit) [3.1.2a] {
  say "refitted" [7.2; A-22]
  say "as in the example" [EoP]
  say "a typo" [11.1]
}
"""

TINY_SECTIONS = """\
# The tiny rulebook's sections.
1.0  Introduction
  1.1  Sides
2.0  Components
  2.1  Counters
  2.2  Counter Types
  2.3  Scale
3.0  Play
  3.1  Refit
    3.1.1  Dry Dock
  3.2  Rest
4.0  Victory
7.0  Movement
  7.2  Interception
"""


def _tiny(tmp_path: Path, sections: str = TINY_SECTIONS) -> Path:
    rules = tmp_path / "skirmish.rules"
    rules.write_text(TINY_RULES, encoding="utf-8")
    (tmp_path / "skirmish.sections").write_text(sections, encoding="utf-8")
    return rules


def _measure(rules: Path):
    sources = Sources()
    loaded = load_rules(str(rules), sources)
    assert not loaded.errors
    sections = read_sections(sections_path_for(str(rules)), sources)
    return measure(sections, written(loaded.ruleset.decls), declared(loaded.symbols))


def test_citations_split_into_rule_numbers_rulings_and_examples():
    assert split_citation("9.1 step 2a") == (["9.1"], [], [])
    assert split_citation("6.3 Note") == (["6.3"], [], [])
    assert split_citation("7.2; A-22") == (["7.2"], ["A-22"], [])
    assert split_citation("6.6 errata; demo") == (["6.6"], [], [])
    assert split_citation("EoP") == ([], [], ["EoP"])
    assert split_citation("TC-9.1b") == ([], [], ["TC-9.1b"])
    assert split_citation("C-10") == ([], ["C-10"], [])
    assert split_citation("6.2-errata") == (["6.2"], [], [])
    assert split_citation("EoP, 9.1") == (["9.1"], [], ["EoP"])
    assert split_citation("6.6; EX-16") == (["6.6"], [], ["EX-16"])  # a worked example of the extract, not a ruling


def test_tiny_ruleset_covered_and_uncovered_sections(tmp_path):
    cov = _measure(_tiny(tmp_path))
    cited = {s for s in cov.sections if cov.is_cited(s)}
    assert cited == {"1.0", "1.1", "2.0", "2.2", "2.3", "3.1", "7.2"}  # 3.1.2a counts for 3.1, the nearest listed
    assert {s for s in cov.sections if cov.through_subsection(s)} == {"3.0", "7.0"}
    assert {s for s in cov.sections if cov.status(s) == "not cited"} == {"2.1", "3.1.1", "3.2", "4.0"}
    assert {s for s in cov.sections if cov.status(s) == "encoded"} == cited  # nothing is declared left out
    assert len(cov.cited["2.2"]) == 2  # '2.2 Note' and '2.2'
    assert cov.tally() == {"encoded": 7, "via subsections": 2, "not cited": 4}
    assert {r: [c.span.line for c in cs] for r, cs in cov.rulings.items()} == {"A-05": [7], "A-22": [9]}
    assert dict(cov.examples) == {"EoP": 1}
    assert [(number, c.span.line, c.span.col) for number, c in cov.unknown] == [("11.1", 11, 16)]


def test_tiny_ruleset_report_and_did_you_mean(tmp_path, capsys):
    rules = _tiny(tmp_path)
    assert main(["coverage", str(rules)]) == 0
    out, err = capsys.readouterr()
    assert "coverage: 7 of 13 sections encoded (53.8%); the percentage counts 'encoded' sections only" in out
    assert ("by status: 7 encoded, 0 partly encoded, 0 missing data, 0 not encoded, 2 via subsections, 4 not cited; "
            "9 of 13 cited at all (69.2%)") in out
    assert "not cited (4): 2.1 Counters, 3.1.1 Dry Dock, 3.2 Rest, 4.0 Victory" in out
    assert "covered only through subsections (2): 3.0 Play, 7.0 Movement" in out
    assert re.search(r"^  2\.2 +Counter Types +encoded +2  .*skirmish\.rules:5, 6$", out, re.M)
    assert re.search(r"^3\.0 +Play +via subsections +0$", out, re.M)
    # The diagnostics go to standard error, the report to standard output.
    assert f"{rules}:11:16: warning: rule 11.1 is not a section of the rulebook" in err and ": warning:" not in out
    assert "did you mean '1.1'?" in err
    assert "rulings cited (not rule numbers): 2, where each applies" in out
    assert re.search(r"^  A-05  \S*skirmish\.rules:7$", out, re.M) and re.search(r"^  A-22  \S*skirmish\.rules:9$", out, re.M)


def test_missing_lists_only_the_sections_not_encoded(tmp_path, capsys):
    assert main(["coverage", "--missing", str(_tiny(tmp_path))]) == 0
    out = capsys.readouterr().out
    table = out.split("\n\n")[0].splitlines()[2:]
    assert [line.split()[0] for line in table] == ["2.1", "3.0", "3.1.1", "3.2", "4.0", "7.0"]
    assert "rulings cited" not in out  # the full report lists them


TOY = ROOT / "tests" / "lang" / "toy.rules"


def test_toy_statuses_come_from_what_the_ruleset_declares():
    cov = _measure(TOY)
    assert cov.status("6.5") == "partly encoded"  # 'partly encoded' on a section also cited elsewhere
    assert cov.status("8.0") == "missing data"  # cited only by its 'missing' table
    assert cov.status("8.1") == "not encoded"  # 'not encoded', and nothing else cites it
    assert cov.status("8.2") == "not cited"
    assert cov.status("6.4") == "encoded"
    assert not cov.cited["8.0"] and not cov.cited["8.1"]  # a declaration of what is left out encodes nothing
    assert cov.tally() == {"encoded": 35, "partly encoded": 1, "missing data": 1, "not encoded": 1, "not cited": 1}


def test_toy_missing_says_what_is_left_out_and_where(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["coverage", "--missing", "tests/lang/toy.rules"]) == 0
    out = capsys.readouterr().out
    table = out.split("\n\n")[0].splitlines()[2:]
    assert [line.split()[0] for line in table if not line.lstrip().startswith("-")] == ["6.5", "8.0", "8.1", "8.2"]
    assert re.search(r"^  6\.5 +Taking the Area +partly encoded +2  tests/lang/toy\.rules:50, 51$", out, re.M)
    assert re.search(r"^ +- partly encoded: retreats: .* \(tests/lang/toy\.rules:\d+\)$", out, re.M)
    assert re.search(r"^ +- missing table 'weather': the Weather Table, .* \(tests/lang/toy\.rules:\d+\)$", out, re.M)
    assert re.search(r"^ +- not encoded: night turns: .*$", out, re.M)
    assert "coverage: 35 of 39 sections encoded (89.7%); the percentage counts 'encoded' sections only" in out
    assert "not encoded (1): 8.1 Night" in out


def test_a_procedure_that_needs_a_missing_table_is_missing_data(tmp_path):
    rules = tmp_path / "skirmish.rules"
    rules.write_text(TINY_RULES + 'missing table omens "the Omens Table" [4.0]\n'
                     'procedure read_omens() [3.2] needs omens {\n  say "omens"\n}\n', encoding="utf-8")
    (tmp_path / "skirmish.sections").write_text(TINY_SECTIONS, encoding="utf-8")
    cov = _measure(rules)
    assert cov.status("4.0") == "missing data" and not cov.cited["4.0"]
    assert cov.status("3.2") == "missing data" and cov.cited["3.2"]  # the procedure encodes it, but cannot run it
    assert [d.text for d in cov.declared["3.2"]] == ["procedure read_omens needs the missing table(s) omens"]


@pytest.mark.parametrize(
    ("sections", "where", "message"),
    [
        ("1.0  Intro\nx.1  Sides\n", ":2:1:", "expected a section number such as 9.1 at the start of the line, found 'x.1'"),
        ("1.0  Intro\n  1.1\n", ":2:3:", "section 1.1 has no title"),
        ("1.0  Intro\n  1.1  Sides\n  1.1  Again\n", ":3:3:", "section 1.1 is listed twice (first on line 2)"),
        ("1.0  Intro\n    1.1  Sides\n  1.2  Length\n", ":3:3:", "this indentation matches no section above it"),
        ("  1.0  Intro\n", ":1:3:", "an indented section needs a section above it to belong to"),
        ("1.0  Intro\n\t1.1  Sides\n", ":2:1:", "indent sections with spaces, not tabs or other blanks"),
        ("# nothing\n", ": error:", "lists no sections"),
    ],
)
def test_malformed_sections_file_is_a_clear_error(tmp_path, capsys, sections, where, message):
    rules = _tiny(tmp_path, sections)
    assert main(["coverage", str(rules)]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'skirmish.sections'}{where}" in err
    assert message in err
    assert "Traceback" not in err


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["1.0  A", "  1.1  B", "    1.1.1 C", " 2.0 D", "\t3.0 E", "\u20034.0 F", "x", "9.9", "# c", "",
                                 "  ", "1.0"]) | st.text(), max_size=8).map(lambda xs: xs if isinstance(xs, str) else "\n".join(xs)))
def test_any_sections_text_reads_or_is_a_diagnostic(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "any.sections"
    path.write_text(text, encoding="utf-8")
    try:
        sections = read_sections(str(path), Sources())
    except UmpireError as err:
        assert all(d.severity == "error" for d in err.diagnostics)
    else:
        assert sections and all(s.parent is None or s.parent in sections for s in sections.values())


def test_missing_sections_file_is_a_clear_error(tmp_path, capsys):
    rules = _tiny(tmp_path)
    (tmp_path / "skirmish.sections").unlink()
    assert main(["coverage", str(rules)]) == 1
    err = capsys.readouterr().err
    assert "no list of the rulebook's sections" in err and "skirmish.sections does not exist" in err
    assert "--sections FILE" in err
    assert main(["coverage", str(rules), "--sections", str(tmp_path / "nowhere.sections")]) == 1
    assert "nowhere.sections does not exist" in capsys.readouterr().err


def test_jenkins_ear_coverage(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["coverage", "rulesets/jenkins_ear.rules"]) == 0
    out = capsys.readouterr().out
    cov = _measure(Path("rulesets/jenkins_ear.rules"))
    total, encoded = len(cov.sections), cov.tally()["encoded"]
    assert total == 53  # 1.0 to 11.9 as the rulebook numbers them
    printed = re.search(r"^coverage: (\d+) of (\d+) sections encoded \((\d+\.\d)%\)", out, re.M)
    assert printed is not None
    assert printed.groups() == (str(encoded), str(total), f"{100 * encoded / total:.1f}")
    for section in ("9.1", "9.2", "9.3", "7.2", "6.3", "6.8", "5.0", "11.7", "11.9"):
        assert cov.status(section) == "encoded", section
        assert re.search(rf"^ *{re.escape(section)} .* encoded +\d+  rulesets/", out, re.M), section
    # The tables printed on the map are missing; what the ruleset leaves out is declared.
    assert {s for s in cov.sections if cov.status(s) == "missing data"} == {"2.0", "2.2", "6.2", "6.6", "8.0"}
    assert {s for s in cov.sections if cov.status(s) == "partly encoded"} == {"4.0", "4.3", "7.0", "10.0"}
    assert not cov.unknown, "every rule number the ruleset cites is a section of the rulebook"
    assert "warning:" not in out


@pytest.mark.skipif(not RULEBOOK.is_file(), reason="the rulebook text is not beside the repository")
def test_jenkins_ear_sections_are_the_rulebook_headings():
    text = RULEBOOK.read_text(encoding="utf-8")
    headings = dict(re.findall(r"^(\d+\.\d+) (\S.*?)\s*$", text, re.M))
    sections = read_sections(str(ROOT / "rulesets" / "jenkins_ear.sections"), Sources())
    assert set(sections) == set(headings)
    for number, section in sections.items():
        assert section.title.casefold() == headings[number].casefold(), number


def test_guerra_a_muerte_coverage_tells_what_is_not_encoded(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    cov = _measure(Path("rulesets/guerra_a_muerte.rules"))
    # The battle, siege, attrition and counter-guerrilla rules read tables the rulebook does not print.
    for section in ("6.1", "6.2", "6.3", "5.3", "10.1"):
        assert cov.status(section) == "missing data", section
    assert cov.status("7.8") == "partly encoded"  # raids are never offered in play
    assert any(d.text.startswith("not encoded: the Mina unit") for d in cov.declared["4.10"])
    assert cov.status("4.10") == "partly encoded"  # the rest of 4.10 is encoded
    assert not cov.unknown
    assert main(["coverage", "--missing", "rulesets/guerra_a_muerte.rules"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^  7\.8 +Raiding +partly encoded ", out, re.M)
    assert re.search(r"^ +- procedure battle_outcome needs the missing table\(s\) tactical_options, combat_results ", out, re.M)
    assert "examples cited (not rule numbers): EX-02 (1), EX-16 (2)" in out
