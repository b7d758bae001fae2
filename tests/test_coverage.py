"""`umpire coverage`: the rulebook's sections a ruleset cites, on a tiny game and on Jenkins' Ear."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.cli import main
from interpreter.coverage import measure, read_sections, sections_path_for
from interpreter.ir.citations import names as split_citation
from interpreter.ir.citations import written
from interpreter.load import load_rules
from interpreter.syntax.diagnostics import Sources, UmpireError

ROOT = Path(__file__).resolve().parent.parent
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
    return measure(sections, written(loaded.ruleset.decls))


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


def test_tiny_ruleset_covered_and_uncovered_sections(tmp_path):
    cov = _measure(_tiny(tmp_path))
    cited = {s for s in cov.sections if cov.is_cited(s)}
    assert cited == {"1.0", "1.1", "2.0", "2.2", "2.3", "3.1", "7.2"}  # 3.1.2a counts for 3.1, the nearest listed
    assert {s for s in cov.sections if cov.through_subsection(s)} == {"3.0", "7.0"}
    assert {s for s in cov.sections if cov.status(s) == "not cited"} == {"2.1", "3.1.1", "3.2", "4.0"}
    assert len(cov.cited["2.2"]) == 2  # '2.2 Note' and '2.2'
    assert cov.counts() == (13, 7, 9)
    assert dict(cov.rulings) == {"A-05": 1, "A-22": 1}
    assert dict(cov.examples) == {"EoP": 1}
    assert [(number, c.span.line, c.span.col) for number, c in cov.unknown] == [("11.1", 11, 16)]


def test_tiny_ruleset_report_and_did_you_mean(tmp_path, capsys):
    rules = _tiny(tmp_path)
    assert main(["coverage", str(rules)]) == 0
    out = capsys.readouterr().out
    assert "coverage: 7 of 13 sections cited (53.8%); 9 of 13 cited or covered through a subsection (69.2%)" in out
    assert "not cited (4): 2.1 Counters, 3.1.1 Dry Dock, 3.2 Rest, 4.0 Victory" in out
    assert "covered only through subsections (2): 3.0 Play, 7.0 Movement" in out
    assert re.search(r"^  2\.2 +Counter Types +cited +2  .*skirmish\.rules:5, 6$", out, re.M)
    assert re.search(r"^3\.0 +Play +via subsections +0$", out, re.M)
    assert f"{rules}:11:16: warning: rule 11.1 is not a section of the rulebook" in out
    assert "did you mean '1.1'?" in out
    assert "rulings cited (not rule numbers): A-05 (1), A-22 (1)" in out


def test_missing_lists_only_the_sections_not_cited(tmp_path, capsys):
    assert main(["coverage", "--missing", str(_tiny(tmp_path))]) == 0
    out = capsys.readouterr().out
    table = out.split("\n\n")[0].splitlines()[2:]
    assert [line.split()[0] for line in table] == ["2.1", "3.0", "3.1.1", "3.2", "4.0", "7.0"]


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
    total, cited, either = cov.counts()
    assert total == 53  # 1.0 to 11.9 as the rulebook numbers them
    printed = re.search(r"^coverage: (\d+) of (\d+) sections cited \((\d+\.\d)%\)", out, re.M)
    assert printed is not None
    assert printed.groups() == (str(cited), str(total), f"{100 * cited / total:.1f}")
    for section in ("9.1", "9.2", "9.3", "7.2", "6.3", "6.8", "5.0", "11.7", "11.9"):
        assert cov.status(section) == "cited", section
        assert re.search(rf"^ *{re.escape(section)} .* cited +\d+  rulesets/", out, re.M), section
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
