"""The standard library: mechanics most wargames share, written in the rules language itself.

Each mechanic is a rules file of this folder (``zones_of_control.rules``); a ruleset pulls one in with
``use NAME [cite] { SETTING = expr … }`` (language §9.0a, docs/library/). Its files are part of Umpire,
not of any game: their spans name them ``umpire/library/NAME.rules`` on every machine, and their text is
read from the package, never from the file system a ruleset may read.
"""

from __future__ import annotations

import re
from pathlib import Path

PREFIX = "umpire/library/"  # how the spans and messages name a library file
_FOLDER = Path(__file__).resolve().parent


def names() -> list[str]:
    """The mechanics the library ships, by the name a `use` gives."""
    return sorted(p.stem for p in _FOLDER.glob("*.rules"))


def path_of(name: str) -> str:
    """The name a library file's spans carry."""
    return f"{PREFIX}{name}.rules"


def is_library(path: str) -> bool:
    """Whether a span's file is a library file."""
    return path.startswith(PREFIX)


def text(path: str) -> str | None:
    """The text of a library file named as its spans name it; None for another path or an unknown name."""
    if not is_library(path):
        return None
    name = path[len(PREFIX):].removesuffix(".rules")
    if name not in names():
        return None
    return (_FOLDER / f"{name}.rules").read_text(encoding="utf-8")


def declaring(name: str) -> str | None:
    """The mechanic whose file declares ``name`` (a setting, function, procedure, state or box), or None:
    the hint for a name a game reads without the `use` that would give it."""
    pattern = re.compile(rf"^(?:setting|function|procedure|unit state|place state|state|box)\s+{re.escape(name)}\b", re.M)
    return next((m for m in names() if pattern.search((_FOLDER / f"{m}.rules").read_text(encoding="utf-8"))), None)
