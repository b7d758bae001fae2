"""`umpire format FILE...`: the long lines of rules, scenario and overlay files broken the same way
every time (interpreter/syntax/format.py says where); every other line is left as written.

The files are rewritten in place (writing.py's ``write_file``: whole or not at all); ``--check``
writes nothing and lists the files that would change (exit 1 when any would, for CI); ``--diff``
writes nothing and prints what would change as a unified diff. A file that does not parse gets
its diagnostic and is left untouched. A line that stays over the width (a long string, a long
name) is named in a note on stderr, and is no error.
"""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass

from ..files import OVERLAY, RULES, SCENARIO, command_line_file, read_checked
from ..style import enabled
from ..syntax.diagnostics import Sources, UmpireError, render_all
from ..syntax.format import Formatted, format_text, start_symbol
from ..writing import WriteError, write_file


@dataclass(frozen=True)
class FormatArgs:
    files: list[str]
    width: int
    check: bool = False
    diff: bool = False


def cmd_format(args: FormatArgs) -> int:
    """Format each file; 1 when one could not be read, parsed or written, or (``--check``) would change."""
    if args.width < 1:
        print(f"umpire format: error: the width must be at least 1 character, not {args.width}", file=sys.stderr)
        return 1
    failed = changed = False
    for path in args.files:
        outcome = _format_file(path, args)
        failed = failed or outcome is None
        changed = changed or bool(outcome)
    return 1 if failed or (args.check and changed) else 0


def _format_file(path: str, args: FormatArgs) -> bool | None:
    """Whether the file changes (or would); None when it could not be read, parsed or written."""
    sources = Sources()
    try:
        command_line_file(path, "umpire format reads", (RULES, SCENARIO, OVERLAY))
        text = read_checked(path, sources)
        result = format_text(text, path, start_symbol(path), args.width)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return None
    _note_long_lines(path, result, args.width)
    if result.text == text:
        return False
    if args.diff:
        sys.stdout.writelines(difflib.unified_diff(text.splitlines(keepends=True), result.text.splitlines(keepends=True),
                                                   fromfile=path, tofile=path))
    if args.check:
        print(f"{path} would be reformatted")
    if args.check or args.diff:
        return True
    try:
        write_file(path, result.text, force=True)
    except WriteError as err:
        print(f"umpire format: error: {err.message}", file=sys.stderr)
        return None
    print(f"{path} reformatted")
    return True


def _note_long_lines(path: str, result: Formatted, width: int) -> None:
    """The lines of the formatted text still over the width: a string or a name longer than the line."""
    for line, length in result.too_long:
        print(f"{path}:{line}: note: {length} characters, more than the width of {width}, and no place left to "
              "break it", file=sys.stderr)
