"""The language server's work, without the protocol: which files to check when one changes, what
each check found, file by file, and the names the files read declare.

An open file is checked as `umpire check` checks it (cli/check.py, check_file), with the text of every
open buffer in place of its file's (files.buffers), inside a sandbox whose roots are those of a
run of `umpire check FILE` (the working folder, the file's folder, ``--allow-path``). A file that
another open file reads (an included part, a shared map, the ruleset a scenario uses) is checked
through the files that read it, so its diagnostics are those of the whole it belongs to.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .. import files
from ..limits import MAX_EDITOR_BYTES
from ..syntax.diagnostics import NO_SPAN, Diagnostic, Sources
from .index import Declaration, Parsed, declarations, moved, parse
from .members import Member, members


def normal(path: str) -> str:
    return os.path.normpath(os.path.abspath(path))


@dataclass
class Result:
    """What the check of one open file found: the files it read and the diagnostics of each."""

    read: set[str] = field(default_factory=set)
    diagnostics: dict[str, list[Diagnostic]] = field(default_factory=dict)


class Workbench:
    """The open files' checks and the declarations of every file they read, kept between edits."""

    def __init__(self, allowed: list[str]) -> None:
        self.allowed = allowed
        self.results: dict[str, Result] = {}  # by the open file checked
        self.declared: dict[str, list[Declaration]] = {}  # by file: its names, on the lines of its text now
        self.parsed: dict[str, Parsed] = {}  # by file: its last text that parsed

    def changed(self, path: str, buffers: dict[str, str]) -> set[str]:
        """Check again what an edit of ``path`` may change; the files whose diagnostics are now different.

        The open files that read ``path`` are checked, and ``path`` itself unless it is a part of a
        ruleset (a rules file with no game header) that an open file reads: it is checked in its whole."""
        path = normal(path)
        readers = [r for r, found in self.results.items() if r != path and path in found.read and r in buffers]
        alone = not readers or too_large(buffers.get(path)) or self._whole(path, buffers.get(path))
        touched = {path} | (set() if alone else self._drop(path))
        for root in readers + [path] * alone:
            touched |= self._check(root, buffers)
        return touched

    def closed(self, path: str, buffers: dict[str, str]) -> set[str]:
        """A file no longer open: its own check goes, and the files that read it read it from disk."""
        path = normal(path)
        touched = self._drop(path)
        for root in [r for r, found in self.results.items() if path in found.read]:
            touched |= self._check(root, buffers)
        return touched

    def diagnostics(self, path: str) -> list[Diagnostic]:
        """Every diagnostic of a file, from every check that read it, each once."""
        out: list[Diagnostic] = []
        seen = set()
        for found in list(self.results.values()):  # a check in progress may add one
            for d in found.diagnostics.get(normal(path), []):
                key = (d.severity, d.message, d.span.line, d.span.col)
                if key not in seen:
                    seen.add(key)
                    out.append(d)
        return out

    def names(self, path: str) -> list[Declaration]:
        """The declarations of every file read with ``path`` (by the checks that read it)."""
        return [d for f in self._read_with(path) for d in self.declared.get(f, [])]

    def members(self, path: str, text: str, line: int, name: str, at_place: bool) -> list[Member]:
        """What may follow `NAME.` on a line (1-based) of a file whose text is now ``text`` (members.py)."""
        read = self._read_with(path)
        parsed = [self.parsed[f] for f in read if f in self.parsed]
        return members(name, at_place, self.names(path), parsed, self.parsed.get(normal(path)), text, line)

    def _read_with(self, path: str) -> list[str]:
        """The files read with ``path`` by the checks that read it (itself alone when none has)."""
        path = normal(path)
        return sorted(set().union(*(found.read for found in list(self.results.values()) if path in found.read)) or {path})

    def _index(self, path: str, text: str) -> bool:
        """Index a file's names; whether its text parsed. One that does not keeps the names of its last
        text that parsed, on the lines the edit left unchanged."""
        parsed = parse(path, text)
        if parsed is not None:
            self.parsed[path] = parsed
        last = self.parsed.get(path)
        self.declared[path] = [] if last is None else last.declarations if parsed is not None else moved(last, text)
        return parsed is not None

    def _whole(self, path: str, text: str | None) -> bool:
        """A file that `umpire check` reads as a whole: a scenario, an overlay, a ruleset with its game."""
        if not path.endswith(".rules"):
            return True
        names = declarations(path, text) if text is not None else None
        return any(d.what == "game" for d in (names if names is not None else self.declared.get(path, [])))

    def _drop(self, root: str) -> set[str]:
        gone = self.results.pop(root, None)
        return set(gone.diagnostics) if gone else set()

    def _check(self, root: str, buffers: dict[str, str]) -> set[str]:
        before = set(self.results[root].diagnostics) if root in self.results else set()
        sources = Sources()
        diags = _checked(root, buffers, self.allowed, sources)
        found = Result(read={normal(f) for f in sources.names()} | {root})
        for d in diags:
            where = root if d.span.file == NO_SPAN.file else normal(d.span.file)
            found.diagnostics.setdefault(where, []).append(d)
        parsed = [self._index(normal(name), sources.text(name) or "") for name in sources.names()]
        if not all(parsed) and root in self.results:
            # A syntax error stops the check before it reads what the file includes or uses: the
            # names of the files the last check read still answer until the file parses again.
            found.read |= self.results[root].read
        self.results[root] = found
        return before | set(found.diagnostics) | {root}


def too_large(text: str | None) -> bool:
    """A buffer the checks refuse unread (files.read_checked says so): it is not parsed here either,
    nor compared line by line with its last text that parsed (completion), which takes as long."""
    return text is not None and len(text.encode("utf-8", errors="replace")) > MAX_EDITOR_BYTES


def _checked(path: str, buffers: dict[str, str], allowed: list[str], sources: Sources) -> list[Diagnostic]:
    """The diagnostics `umpire check` gives a file, read from the buffers; a bug in Umpire is one
    more diagnostic, never the end of the server."""
    from ..cli.check import check_file

    try:
        with files.sandbox(files.Sandbox.for_run([path], allowed)), files.buffers(buffers):
            return check_file(path, sources)[0]
    except RecursionError:
        return [Diagnostic("error", "the input nests too deeply to process", files.whole_file(path))]
    except Exception as err:  # the server goes on; the editor shows what went wrong
        return [Diagnostic("error", f"internal error ({type(err).__name__}: {err}); this is a bug in Umpire",
                           files.whole_file(path))]
