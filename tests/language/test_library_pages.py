"""Every mechanic of the standard library has its page (docs/library/NAME.md), listed in the index, whose
settings table names each setting with its kind, and which explains every paragraph the mechanic's file
cites; and a toy game in tests/lang/ that uses it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter import library

ROOT = Path(__file__).resolve().parent.parent.parent
PAGES = ROOT / "docs" / "library"


@pytest.mark.parametrize("name", library.names())
def test_the_mechanic_has_its_page_its_settings_and_its_toy(name):
    text = library.text(library.path_of(name))
    page = (PAGES / f"{name}.md").read_text(encoding="utf-8")
    assert f"({name}.md)" in (PAGES / "README.md").read_text(encoding="utf-8")
    for setting, kind in re.findall(r"^setting (\w+)(?:\([^)]*\))?: (\w+)", text, re.M):
        assert re.search(rf"^\| `{setting}` \| [^|]* \| `{kind}` \|", page, re.M), (name, setting, kind)
    for paragraph in sorted(set(re.findall(r"\[([A-Z]+-\d+)\]", text))):
        assert paragraph in page, (name, paragraph)
    toys = [p for p in (ROOT / "tests" / "lang").glob("*.rules") if re.search(rf"^use {name}\b", p.read_text(), re.M)]
    assert toys, name


def test_every_setting_declares_its_kind():
    for name in library.names():
        text = library.text(library.path_of(name))
        untyped = re.findall(r"^setting (\w+)(?:\([^)]*\))? \[", text, re.M)
        assert not untyped, (name, untyped)
