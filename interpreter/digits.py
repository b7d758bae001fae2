"""Numbers are written with the ASCII digits 0 to 9, wherever Umpire reads one: in the rules, the
scenarios and overlays, on the command line, at a prompt, in the environment.

Python reads the digits of every script as numbers: int('৪') is 4, '৪'.isdigit() is true, and a
regular expression's \\d matches '৪'. A digit of another script in a rules file is far likelier a
slip of the keyboard or a look-alike pasted in than a number meant, so it is refused by name.
"""

from __future__ import annotations

import argparse
import re
import unicodedata

_DIGITS = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"[+-]?[0-9]+")


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number written in ASCII digits alone (no sign, no space)."""
    return _DIGITS.fullmatch(text) is not None


def foreign_digit(text: str) -> str | None:
    """The first digit of another script in ``text``, named: "'৪' (BENGALI DIGIT FOUR)"; else None."""
    for ch in text:
        if not ch.isascii() and unicodedata.decimal(ch, None) is not None:
            return f"'{ch}' ({unicodedata.name(ch, f'U+{ord(ch):04X}')})"
    return None


def whole_number(text: str) -> int:
    """A command-line option's number (argparse's ``type``): ASCII digits, an optional sign."""
    if _SIGNED.fullmatch(text.strip()) is None:
        other = foreign_digit(text)
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number" +
                                         (f": {other} is not one of the digits 0-9" if other else ""))
    return int(text)
