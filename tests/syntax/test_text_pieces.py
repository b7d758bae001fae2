"""A text written in pieces: where a rules or overlay file takes a text ('say', 'ensure', 'end game', a choice's
prompt, 'because', 'stop when', 'missing', 'not encoded' / 'partly encoded', 'errata', 'note on missing'),
adjacent strings are one string, as in C and Python; a scenario's adjacent strings keep their own meanings."""

from __future__ import annotations

import pytest

from interpreter.ir.build import build
from interpreter.syntax.diagnostics import UmpireError
from interpreter.syntax.parse import parse
from tests.syntax.test_format import meaning

_GAME = 'game g "G" {\n  sides a, b\n  turns 1\n}\n'


@pytest.mark.parametrize(("pieces", "whole"), [
    ('say "the first half "\n    "the second half" [3.1]', 'say "the first half the second half" [3.1]'),
    ('say "a" known to a else "face " "down"', 'say "a" known to a else "face down"'),
    ('ensure 1 == 1 "a " "b"', 'ensure 1 == 1 "a b"'),
    ('ensure x == "a" "b " "c"', 'ensure x == "a" "b c"'),
    ('end game "over " "now"', 'end game "over now"'),
    ('eliminate units() because "lost " "at sea"', 'eliminate units() because "lost at sea"'),
    ('choose c by a from [1, 2] may "which " "one?"', 'choose c by a from [1, 2] may "which one?"'),
    ('say "{x} " "and {x + 1}"', 'say "{x} and {x + 1}"'),
])
def test_adjacent_strings_in_a_statement_are_one_string(pieces, whole):
    def procedure(body: str) -> str:
        return f"{_GAME}state x: int\nprocedure p() {{\n  {body}\n}}\n"

    assert meaning(procedure(pieces), "t.rules") == meaning(procedure(whole), "t.rules")


def test_adjacent_strings_in_a_declaration_are_one_string():
    pieces = 'missing map world "the world map: "\n    "drawn by hand" [1.1]\npartly encoded "not " "all" [2.1]\n'
    whole = 'missing map world "the world map: drawn by hand" [1.1]\npartly encoded "not all" [2.1]\n'
    assert meaning(pieces, "t.rules") == meaning(whole, "t.rules")


def test_adjacent_strings_in_an_overlay_note_are_one_string():
    def overlay(note: str) -> str:
        return f'overlay fix "Fix" amends "g" {{\n  amend a "A" {{\n    note on missing world {note} [1.1]\n  }}\n}}\n'

    assert meaning(overlay('"drawn " "later"'), "t.errata") == meaning(overlay('"drawn later"'), "t.errata")


def test_a_text_in_pieces_spans_them_all_and_finds_an_expression_in_a_later_piece_where_it_stands():
    text = f'{_GAME}state x: int\nprocedure p() {{\n  say "aaa "\n      "b {{x}} c" [3.1]\n}}\n'
    say = next(d for d in build(parse(text, "t.rules", "rules_file"), "t.rules").decls if hasattr(d, "body")).body[0]
    assert (say.text.span.line, say.text.span.col, say.text.span.end_line) == (7, 7, 8)
    assert say.text.value == "aaa b {x} c"
    expr = say.text.parts[1].expr
    assert (expr.span.line, expr.span.col) == (8, 11)


def test_a_brace_left_open_at_a_pieces_end_is_simply_joined():
    def procedure(body: str) -> str:
        return f"{_GAME}state x: int\nprocedure p() {{\n  {body}\n}}\n"

    assert meaning(procedure('say "a {x " "+ 1} b"'), "t.rules") == meaning(procedure('say "a {x + 1} b"'), "t.rules")


def test_a_scenarios_adjacent_strings_keep_their_own_meanings():
    # 'camp named "Camp Hill" "a note"': the place's name, then its note; never one string.
    name_then_note = meaning('scenario "s" uses "g.rules" {\n  places {\n    camp area named "Camp Hill" "a note"\n  }\n}\n',
                             "t.scenario")
    joined = meaning('scenario "s" uses "g.rules" {\n  places {\n    camp area named "Camp Hill a note"\n  }\n}\n',
                     "t.scenario")
    assert name_then_note != joined


def test_a_string_where_no_text_is_taken_stays_one_piece():
    # A stat's label is a label, not a text: two strings there are still a syntax error.
    with pytest.raises(UmpireError):
        parse('stat strength "the " "strength"\n', "t.rules", "rules_file")
