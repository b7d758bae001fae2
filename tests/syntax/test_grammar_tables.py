"""The grammar's LALR tables shipped with the package (interpreter/syntax/tables.py)."""

from lark import Lark

from interpreter.syntax import parse, tables


def _shipped() -> dict:
    return tables.decode(tables.TABLES.read_text(encoding="utf-8"))


def test_the_shipped_tables_are_for_the_current_grammar():
    assert _shipped()["key"] == tables.key(parse.grammar_text(), parse.OPTIONS), (
        "the grammar changed: run  python -m interpreter.syntax.tables  and commit interpreter/syntax/grammar_tables.json")


def test_the_parser_in_use_is_the_one_the_shipped_tables_describe():
    fresh = Lark(parse.grammar_text(), **parse.OPTIONS)
    assert tables.serialise(parse.parser()) == tables.serialise(tables.load(parse.grammar_text(), parse.OPTIONS))
    assert parse.parser().rules == fresh.rules
    assert [t.name for t in parse.parser().terminals] == [t.name for t in fresh.terminals]


def test_writing_and_reading_the_tables_gives_the_same_parser():
    options = {**parse.OPTIONS, "cache": False}
    fresh = Lark(parse.grammar_text(), **options)
    read = tables.decode(tables.dumps(parse.grammar_text(), options, fresh))
    assert read.pop("key") == tables.key(parse.grammar_text(), options)
    assert tables.serialise(tables._from(read, options)) == tables.serialise(fresh)


def test_tables_for_another_grammar_are_not_used(monkeypatch, tmp_path):
    other = tmp_path / "tables.json"
    other.write_text(tables.TABLES.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(tables, "TABLES", other)
    assert tables.load(parse.grammar_text() + "\n// an edit\n", parse.OPTIONS) is None
    assert tables.load(parse.grammar_text(), parse.OPTIONS) is not None
    other.write_text("{not json", encoding="utf-8")
    assert tables.load(parse.grammar_text(), parse.OPTIONS) is None
    other.write_text("[]", encoding="utf-8")
    assert tables.load(parse.grammar_text(), parse.OPTIONS) is None
    other.unlink()
    assert tables.load(parse.grammar_text(), parse.OPTIONS) is None
