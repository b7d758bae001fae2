"""`umpire format`'s breaking of long lines (interpreter/syntax/format.py): it keeps the meaning of every
file exactly (the IR of the formatted text is the IR of the original, spans aside), keeps comments and
the lines within the width as written, breaks a long line at the outermost places the same way every
time (formatting twice changes nothing), and names the lines it cannot bring within the width."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from interpreter.ir.build import build
from interpreter.overlay.ir import build_overlay
from interpreter.syntax.diagnostics import Span, UmpireError
from interpreter.syntax.format import format_text, start_symbol
from interpreter.syntax.parse import parse

ROOT = Path(__file__).resolve().parent.parent.parent
_KINDS = ("*.rules", "*.scenario", "*.errata", "*.house", "*.overlay")


def _files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for kind in _KINDS for p in (ROOT / folder).rglob(kind))


# Every file of the five games (their rules, parts, demo data, errata and scenarios) and of the toy games.
ALL_FILES = _files("rulesets", "scenarios", "tests/lang")


def without_spans(node):
    """The IR as plain data with every span left out: what the text means, not where it was written."""
    if isinstance(node, Span):
        return None
    if isinstance(node, BaseModel):
        fields = {name: without_spans(value) for name, value in node if not isinstance(value, Span)}
        return (type(node).__name__, fields)
    if isinstance(node, (tuple, list)):
        return [without_spans(item) for item in node]
    if isinstance(node, dict):
        return {key: without_spans(value) for key, value in node.items()}
    return node


def meaning(text: str, name: str):
    start = start_symbol(name)
    tree = parse(text, name, start)
    return without_spans(build_overlay(tree, name) if start == "overlay_file" else build(tree, name))


def _comments(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip().startswith("#")]


def _fmt(text: str, width: int, name: str = "t.rules"):
    return format_text(text, name, start_symbol(name), width)


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_formatting_keeps_the_meaning_and_a_second_pass_changes_nothing(path):
    text = path.read_bytes().decode("utf-8")  # as written: a string may hold a carriage return
    name = str(path.relative_to(ROOT))
    before = meaning(text, name)
    # The default width, and a narrow one that breaks nearly every line at every place it has.
    for width in (120, 30):
        once = _fmt(text, width, name).text
        assert meaning(once, name) == before, width
        assert _fmt(once, width, name).text == once, width
        assert _comments(once) == _comments(text)


def test_the_meaning_helper_sees_a_change_of_meaning():
    # The check above would be empty if the helper read two texts alike whatever they said.
    assert meaning("function f(a: int) = a + 1 * 2", "t.rules") != meaning("function f(a: int) = (a + 1) * 2", "t.rules")
    assert meaning("function f(a: int) = a + 1", "t.rules") == meaning("function f(a: int) =\n    a  +  1", "t.rules")


def test_a_line_within_the_width_is_left_as_written():
    text = ("table t {\n  roll 1 d6\n  1..2   -> a     [5.1]\n  3      -> b     [5.2]\n}\n"
            "function   f(x: int)   =   x  +  1   # spacing kept\n")
    assert _fmt(text, 60).text == text


def test_a_list_is_filled_after_its_commas_and_continued_one_indent_deeper():
    text = "function f(a: int) = g(aaaa, bbbb, cccc, dddd, eeee, ffff)\n"
    assert _fmt(text, 44).text == ("function f(a: int) =\n"
                                   "    g(aaaa, bbbb, cccc, dddd, eeee, ffff)\n")
    assert _fmt(text, 30).text == ("function f(a: int) =\n"
                                   "    g(aaaa, bbbb, cccc, dddd,\n"
                                   "        eeee, ffff)\n")


def test_a_block_is_broken_into_one_statement_a_line():
    text = "procedure p() { let a = 1  let b = 2 [4.1]  say \"done\" }\n"
    assert _fmt(text, 30).text == ("procedure p() {\n"
                                   "  let a = 1\n"
                                   "  let b = 2 [4.1]\n"
                                   "  say \"done\"\n"
                                   "}\n")
    # Indented as the file indents its blocks (here by three spaces), the '}' back at the opening line's indent.
    nested = "procedure p() {\n   if true { let a = 1  let b = 2 } else { say \"none\" }\n}\n"
    assert _fmt(nested, 30).text == ("procedure p() {\n"
                                     "   if true {\n"
                                     "      let a = 1\n"
                                     "      let b = 2\n"
                                     "   } else { say \"none\" }\n"
                                     "}\n")


def test_a_declarations_header_breaks_before_its_block():
    text = ('table attempt(place: int, moved: int, season: int) "Search Attempt" [14.0] {\n'
            '  roll 2 d6\n  ..7 -> none [14.0]\n}\n')
    assert _fmt(text, 60).text == ('table attempt(place: int, moved: int, season: int)\n'
                                   '    "Search Attempt" [14.0] {\n'
                                   '  roll 2 d6\n  ..7 -> none [14.0]\n}\n')


def test_conditions_break_before_and_or_then_else_and_a_citation():
    text = "function f(a: int) [7.2] = if a > 1 and a < 9 and a != 5 then a * 2 else a - 1\n"
    assert _fmt(text, 50).text == ("function f(a: int) [7.2] =\n"
                                   "    if a > 1 and a < 9 and a != 5 then a * 2\n"
                                   "        else a - 1\n")
    assert _fmt(text, 40).text == ("function f(a: int) [7.2] =\n"
                                   "    if a > 1 and a < 9 and a != 5\n"
                                   "        then a * 2\n"
                                   "        else a - 1\n")
    assert _fmt(text, 28).text == ("function f(a: int) [7.2] =\n"
                                   "    if a > 1 and a < 9\n"
                                   "        and a != 5\n"
                                   "        then a * 2\n"
                                   "        else a - 1\n")
    # An 'else if' chain: its branches one a line, whatever would fit beside them.
    chain = 'function g(s: str) = if s == "a" then 1 else if s == "b" then 2 else if s == "c" then 3 else 0\n'
    assert _fmt(chain, 60).text == ("function g(s: str) =\n"
                                    '    if s == "a" then 1\n'
                                    '        else if s == "b" then 2\n'
                                    '        else if s == "c" then 3\n'
                                    "        else 0\n")
    cited = "procedure p() {\n  let total = first_value + second_value [12.3a]\n}\n"
    assert _fmt(cited, 40).text == ("procedure p() {\n"
                                    "  let total = first_value + second_value\n"
                                    "      [12.3a]\n"
                                    "}\n")


def test_a_trailing_comment_stays_on_the_last_piece():
    text = "function f(a: int) = [a, a, a, a, a, a]  # six times\n"
    assert _fmt(text, 36).text == "function f(a: int) =\n    [a, a, a, a, a, a]  # six times\n"


def test_line_endings_and_a_last_line_without_a_newline_are_kept():
    text = "stat x\r\nfunction f(a: int) = g(aaaa, bbbb, cccc)"
    assert _fmt(text, 24).text == "stat x\r\nfunction f(a: int) =\r\n    g(aaaa, bbbb, cccc)"


def test_a_line_that_cannot_be_brought_within_the_width_is_named():
    long_text = "x" * 60
    text = f'stat a\nnot encoded "{long_text}" [2.1]\n'
    result = _fmt(text, 40)
    assert result.text == f'stat a\nnot encoded\n    "{long_text}"\n    [2.1]\n'
    assert result.too_long == [(3, 66)]
    assert _fmt(result.text, 40).text == result.text


def test_a_text_too_long_alone_is_written_in_pieces_cut_at_spaces_never_inside_braces():
    text = 'procedure p() {\n  say "the first half of it and {x + 1} and then the second half" [3.1]\n}\n'
    result = _fmt(text, 36)
    assert result.text == ('procedure p() {\n'
                           '  say "the first half of it and "\n'
                           '      "{x + 1} and then the second "\n'
                           '      "half"\n'
                           '      [3.1]\n'
                           '}\n')
    assert result.too_long == []
    assert meaning(result.text, "t.rules") == meaning(text, "t.rules")
    assert _fmt(result.text, 36).text == result.text
    # A text that starts its line keeps its pieces at its own column.
    encoded = 'partly encoded\n    "the barges are drawn from the pool as the rules say"\n'
    assert _fmt(encoded, 40).text == ('partly encoded\n'
                                      '    "the barges are drawn from the "\n'
                                      '    "pool as the rules say"\n')
    # What follows a text on its line stays after its last piece.
    noted = 'procedure p() {\n  say "the first half and the second half" # said\n}\n'
    assert _fmt(noted, 32).text == ('procedure p() {\n'
                                    '  say "the first half and the "\n'
                                    '      "second half" # said\n'
                                    '}\n')


def test_a_string_where_no_text_is_taken_is_never_cut():
    # A scenario's note and a stat's label are one string each: two strings there mean something else.
    text = 'stat strength "the strength of a unit as printed on its counter, left to right" [2.1]\n'
    assert _fmt(text, 40).text == ('stat strength\n'
                                   '    "the strength of a unit as printed on its counter, left to right"\n'
                                   '    [2.1]\n')


def test_text_that_does_not_parse_is_refused_with_its_place():
    with pytest.raises(UmpireError) as err:
        _fmt("game g {\n  turns 3 ]\n}\n", 40)
    assert str(err.value.diagnostics[0].span) == "t.rules:2:11"


@pytest.mark.parametrize("path", sorted((ROOT / "rulesets").rglob("*.rules")), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_rulesets_are_formatted(path):
    # After an edit that writes a long line: umpire format rulesets/*.rules rulesets/*/*.rules
    text = path.read_bytes().decode("utf-8")
    assert _fmt(text, 120, str(path)).text == text
