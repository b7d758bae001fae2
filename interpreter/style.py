"""Colour on a terminal, and nowhere else: the one place that decides, and wraps text in ANSI codes.

Output read by a program (a pipe, a file, the test suite's goldens) must be byte for byte what it
would be without colour, so colour is off unless the stream is a terminal. Beyond that the usual
conventions decide: ``--color always|never`` wins; otherwise a non-empty ``NO_COLOR`` turns it off
(https://no-color.org) and a non-empty ``FORCE_COLOR`` (other than ``0``) turns it on, for a CI log
that renders colour although it is not a terminal.
"""

from __future__ import annotations

import os
import re
from typing import TextIO

MODES = ("auto", "always", "never")

# Select Graphic Rendition codes by role, so callers say what a text is, not how it looks.
_CODES = {
    "error": "1;31",    # bold red
    "warning": "1;33",  # bold amber (ANSI 33)
    "note": "1;36",     # bold cyan
    "caret": "1;32",    # bold green: the span under the quoted line
    "hint": "36",       # cyan
    "ok": "32",         # green
    "fail": "1;31",
    "heading": "1",     # bold
    "dim": "2",
}

_mode = "auto"


def configure(mode: str = "auto") -> None:
    """Set the --color choice for this run (cli.main sets it from the command line, and back to auto)."""
    global _mode
    if mode not in MODES:
        raise ValueError(f"--color takes one of {', '.join(MODES)}, not {mode!r}")
    _mode = mode


def enabled(stream: TextIO | None) -> bool:
    """Whether text written to ``stream`` is coloured."""
    if _mode != "auto":
        return _mode == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR", "0") not in ("", "0"):
        return True
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def paint(text: str, role: str, on: bool = True) -> str:
    """``text`` in the colour of ``role`` when ``on``; unchanged otherwise (and when it is empty)."""
    if not on or not text:
        return text
    return f"\x1b[{_CODES[role]}m{text}\x1b[0m"


def for_stream(stream: TextIO | None):
    """A painter bound to one stream's decision: ``for_stream(sys.stderr)(text, "error")``."""
    on = enabled(stream)
    return lambda text, role: paint(text, role, on)


def report_lines(lines: list[str], stream: TextIO | None) -> str:
    """A report's lines joined for ``stream``, coloured when it is a terminal: headings (a line of
    its own ending in ':') bold, an expectation's 'ok' green and 'FAIL' red, a 'warning:' amber.
    Without colour the text is exactly the lines joined."""
    if not enabled(stream):
        return "\n".join(lines)
    return "\n".join(_painted(line) for line in lines)


_MARKS = (("  ok   ", "ok", 4), ("  FAIL ", "fail", 6))


def _painted(line: str) -> str:
    for prefix, role, width in _MARKS:
        if line.startswith(prefix):
            return "  " + paint(prefix[2:width], role) + line[width:]
    if line.startswith(("warning:", "error:")):
        word, rest = line.split(":", 1)
        return paint(word, word) + ":" + rest
    if line.endswith(" -- FAILED"):
        return line[: -len(" -- FAILED")] + " -- " + paint("FAILED", "fail")
    if not line.startswith(" ") and line.endswith(":"):
        return paint(line, "heading")
    return line


def counted(number: int, what: str, role: str, on: bool) -> str:
    """'2 warning(s)', in the role's colour when there are any and colour is on."""
    text = f"{number} {what}(s)"
    return paint(text, role, on and number > 0)


# Control characters (C0, DEL, C1) in rules and scenario text would act on the terminal: an ESC
# sequence can retitle the window or clear the screen, a CR overwrite the line. They are shown as
# Python writes them in a string: '\r', '\t', '\n', '\x1b', '\x9b'.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def printable(text: str, keep: str = "") -> str:
    """``text`` with every control character shown escaped, but those in ``keep`` (a quoted source
    line keeps its tabs, a multi-line prompt its newlines); unchanged when it has none."""
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: m[0] if m[0] in keep else _NAMED.get(m[0], f"\\x{ord(m[0]):02x}"), text)
