"""The grammar's LALR tables, shipped with the package so that no run has to compute them.

Lark computes a parser's tables from the grammar in about 0.8 s; its own cache of them lives in
the temporary folder, which a fresh machine, a container or a cleaned /tmp does not have. So the
tables are also kept beside this module (``grammar_tables.json``), written by

    python -m interpreter.syntax.tables

after an edit of the grammar (tests/syntax/test_grammar_tables.py fails until then). The file is JSON,
not a pickle: reading it runs no code. It is used only if its key (a SHA-256 of the grammar's
text, Lark's version and the parser's options) is the current one; otherwise the parser is built
from the grammar as before, so a stale or missing file costs time, never a wrong parse. Loading
the tables is what Lark itself does on a hit of its cache (``Lark._load``), with the same options.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from lark import Lark
from lark import __version__ as lark_version

TABLES = Path(__file__).resolve().parent / "grammar_tables.json"

def key(grammar: str, options: dict[str, Any]) -> str:
    """What the tables depend on: the grammar, Lark's version and the options that shape them
    (not the lexer's callbacks, which are given again at load, as Lark's cache does)."""
    shaping = {k: v for k, v in options.items() if k not in _load_options()}
    text = "\n".join([grammar, lark_version, repr(sorted(shaping.items()))])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load(grammar: str, options: dict[str, Any]) -> Lark | None:
    """The parser from the shipped tables, or None when they are missing or not for this grammar."""
    try:
        shipped = decode(TABLES.read_text(encoding="utf-8"))
    except (OSError, ValueError, LookupError, TypeError):
        return None
    if shipped.get("key") != key(grammar, options):
        return None
    return _from(shipped, options)


def serialise(parser: Lark) -> dict[str, Any]:
    """Lark's own serialisation of a parser (what its cache pickles), without the options given at load."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _load_options()}
    return {"data": data, "memo": memo}


def dumps(grammar: str, options: dict[str, Any], parser: Lark) -> str:
    """The tables as JSON; refused (ValueError) if the parser read back from them is not this one."""
    tables = serialise(parser)
    text = json.dumps({"key": key(grammar, options), **tables}, separators=(",", ":"))
    read = decode(text)
    if serialise(_from(read, options)) != tables:
        raise ValueError("Lark's serialised tables no longer fit tables.py's JSON form")
    return text


def decode(text: str) -> dict[str, Any]:
    """The tables from their JSON form. JSON turned every key into a string and every tuple into a
    list: Lark reads the parse table's rows (token -> [action, argument]) and its token names
    as they are, but needs whole numbers for the states and the memo, and tuples of rules' indices."""
    tables = json.loads(text)
    if not isinstance(tables, dict):
        raise ValueError("not the grammar's tables")
    parse_table = tables["data"]["parser"]["parser"]
    parse_table["states"] = {int(state): row for state, row in parse_table["states"].items()}
    tables["memo"] = memo = {int(i): item for i, item in tables["memo"].items()}
    for item in memo.values():
        if "empty_indices" in item.get("options", ()):
            item["options"]["empty_indices"] = tuple(item["options"]["empty_indices"])
    return tables


def _from(tables: dict[str, Any], options: dict[str, Any]) -> Lark:
    given = {k: v for k, v in options.items() if k in _load_options()}
    return Lark._load_from_dict(tables["data"], tables["memo"], **given)


def _load_options() -> frozenset[str]:
    from lark.lark import _LOAD_ALLOWED_OPTIONS

    return frozenset(_LOAD_ALLOWED_OPTIONS)


def main() -> None:
    from . import parse

    grammar, options = parse.grammar_text(), parse.OPTIONS
    TABLES.write_text(dumps(grammar, options, Lark(grammar, **options)) + "\n", encoding="utf-8")
    print(f"wrote {TABLES}")


if __name__ == "__main__":
    main()
