"""The TextMate grammar (editors/vscode/syntaxes/umpire.tmLanguage.json): generated from the
language's grammar, and giving comments, strings, citations, keywords and declared names their scopes."""

from __future__ import annotations

import json
import re

import pytest
from lark.lexer import PatternStr

from interpreter.editors import textmate
from interpreter.syntax.parse import parser
from tests.textmate_scopes import scope_of

COMMITTED = textmate.OUTPUT


@pytest.fixture(scope="module")
def grammar() -> dict:
    return json.loads(COMMITTED.read_text(encoding="utf-8"))


def test_the_committed_grammar_is_what_the_generator_writes():
    assert COMMITTED.read_text(encoding="utf-8") == textmate.dumps(), \
        "run: python -m interpreter.editors.textmate"


def test_every_regular_expression_compiles(grammar):
    found = []

    def walk(node):
        if isinstance(node, dict):
            for key in ("match", "begin", "end"):
                if key in node:
                    found.append(re.compile(node[key]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(grammar)
    assert len(found) >= 12


def _grammar_words() -> set[str]:
    """Every keyword the parser knows, read from its terminals here rather than from vocabulary.py."""
    words = set()
    for term in parser().terminals:
        if isinstance(term.pattern, PatternStr) and re.fullmatch(r"[A-Za-z ]+", term.pattern.value):
            words.update(term.pattern.value.split())
    return words


def test_every_keyword_of_the_grammar_gets_a_keyword_scope(grammar):
    words = _grammar_words()
    assert {"procedure", "let", "scenario", "amend", "matching", "true", "side"} <= words
    kinds = ("keyword.", "storage.type.", "constant.language.")
    missing = [w for w in sorted(words) if not any(s.startswith(kinds) for s in scope_of(grammar, f"{w} ", w))]
    assert missing == []


@pytest.mark.parametrize(("line", "fragment", "scope"), [
    ("# a comment with \"quotes\" and [5.0]", "[5.0]", "comment.line.number-sign.umpire"),
    ('say "hit {u.name} now" [5.0]', "hit", "string.quoted.double.umpire"),
    ('say "hit {u.name} now" [5.0]', "u.name", "meta.interpolation.umpire"),
    ('say "hit {u.name} now" [5.0]', "[5.0]", "constant.other.citation.umpire"),
    ("roll d = 2 d6 [16.3(1)]", "[16.3(1)]", "constant.other.citation.umpire"),
    ("if x > 1 [E13] {", "[E13]", "constant.other.citation.umpire"),
    ("let x = 10", "10", "constant.numeric.umpire"),
    ("let x = 10", "let", "keyword.control.umpire"),
    ("if a and not b", "and", "keyword.operator.word.umpire"),
    ("set ok = true", "true", "constant.language.umpire"),
    ("procedure volley() [4.0] {", "procedure", "storage.type.umpire"),
    ("procedure volley() [4.0] {", "volley", "entity.name.function.umpire"),
    ("unit state condition: {fresh, damaged} [5.6]", "condition", "entity.name.type.umpire"),
    ("  track morale 0..10 [7.1]", "morale", "entity.name.type.umpire"),
    ("move u to @1204", "to", "keyword.control.umpire"),
])
def test_a_sample_line_gets_its_scopes(grammar, line, fragment, scope):
    assert scope in scope_of(grammar, line, fragment)


def test_an_index_is_not_a_citation_and_a_comment_ends_nothing(grammar):
    assert not any("citation" in s for s in scope_of(grammar, "let d = pool[E13]", "[E13]"))
    assert scope_of(grammar, 'say "a # b"', "# b") == {"string.quoted.double.umpire"}


def test_the_vscode_extension_names_the_grammar_the_files_and_the_comments():
    folder = COMMITTED.parents[1]
    package = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    (language,) = package["contributes"]["languages"]
    assert tuple(language["extensions"]) == textmate.EXTENSIONS
    (tm,) = package["contributes"]["grammars"]
    assert (folder / tm["path"]).resolve() == COMMITTED and tm["scopeName"] == textmate.SCOPE
    assert tm["language"] == language["id"]
    config = json.loads((folder / language["configuration"]).read_text(encoding="utf-8"))
    assert config["comments"]["lineComment"] == "#"
    assert ["{", "}"] in config["brackets"] and ["[", "]"] in config["brackets"]
    assert package["contributes"]["configuration"]["properties"]["umpire.command"]["default"] == ["umpire", "lsp"]
