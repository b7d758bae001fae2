"""The files a run may touch: which paths a file may name, and how a file is read.

A rules file, a scenario or an overlay may come from anywhere (a download, an archive),
so the paths it names are not followed blindly. A run has *roots*: the current working
directory, the folder of each file named on the command line and each ``--allow-path
DIR``. A path a file names must be relative (to the naming file's folder), must name a
file of the kind its construct expects (by extension, before anything is read) and its
real location (symlinks followed) must lie inside a root. Whatever is read must be a
regular file with one name (a hard link's other names may lie outside the roots) no larger
than ``MAX_BYTES``: a FIFO would hang the run, ``/dev/zero`` would fill the memory. docs/safety.md says the same for users.

The sandbox of a run is set by the command line (``sandbox``); a program that calls the
loader itself gets, for each file it hands over, the working directory and that file's
folder (``entry``).

An editor checks the text in its buffers, not the files on disk (``buffers``): a buffer
stands in for the *content* of a file only. The file itself must still be there, a regular
file inside the roots with the right extension, so a buffer never makes readable a path the
sandbox refuses.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .limits import MAX_EDITOR_BYTES, MAX_FILE_BYTES
from .syntax.diagnostics import Diagnostic, Sources, UmpireError

if TYPE_CHECKING:
    from .syntax.spans import Span

MAX_BYTES = MAX_FILE_BYTES


@dataclass(frozen=True)
class Kind:
    """What a construct names: a short description and the extensions such a file has."""

    what: str
    extensions: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.what} ({', '.join(self.extensions)})"

    def fits(self, path: str) -> bool:
        return os.path.splitext(path)[1] in self.extensions


RULES = Kind("a rules file", (".rules",))
SCENARIO = Kind("a scenario", (".scenario",))
OVERLAY = Kind("an overlay", (".errata", ".house", ".overlay"))
SECTIONS = Kind("a list of sections", (".sections",))
SAVE = Kind("a saved game", (".toml",))  # read by saves.py, which checks every field; named here for the workbench


def whole_file(path: str) -> Span:
    """The span of a diagnostic about a whole file (it prints as ``path: error: ...``)."""
    from .syntax.spans import Span  # pydantic, for a diagnostic alone (diagnostics.py)

    return Span(file=path, line=0, col=0, end_line=0, end_col=0)


def _no_span() -> Span:
    from .syntax.spans import NO_SPAN

    return NO_SPAN


def _fail(message: str, span: Span | str, hint: str | None = None) -> UmpireError:
    """An error at the span, or (a path) at the whole of that file."""
    return UmpireError([Diagnostic("error", message, whole_file(span) if isinstance(span, str) else span, hint)])


# ─────────────────────────────── the roots of a run ───────────────────────────────


@dataclass(frozen=True)
class Sandbox:
    roots: tuple[str, ...]  # real paths of folders; a file inside any of them may be read

    @classmethod
    def for_run(cls, files: Iterable[str] = (), allowed: Iterable[str] = ()) -> Sandbox:
        """The working directory, the folder of each file named on the command line, each allowed folder."""
        folders = [*_cwd(), *(os.path.dirname(f) or "." for f in files), *allowed]
        real = [_real(f) for f in folders]
        # A root inside another adds nothing: keep the outermost ones, in order, for a short message.
        return cls(tuple(r for i, r in enumerate(real)
                         if r not in real[:i] and not any(o != r and _inside(r, o) for o in real)))

    def with_files(self, files: Iterable[str], folders: Iterable[str] = ()) -> Sandbox:
        """This sandbox, the folders of ``files`` and ``folders`` (what a loaded save names)."""
        return Sandbox.for_run([*files, *(os.path.join(r, "x") for r in self.roots)], folders)

    def admits(self, real: str) -> bool:
        return any(_inside(real, root) for root in self.roots)

    def shown(self) -> str:
        """The roots as a message names them: the working directory as 'the current folder'."""
        cwd = [_real(c) for c in _cwd()]
        return ", ".join("the current folder" if r in cwd else r for r in self.roots)


def _cwd() -> list[str]:
    """The working directory, when there is one (it may have been deleted under the run)."""
    try:
        return [os.getcwd()]
    except OSError:
        return []


def _real(path: str) -> str:
    """The real location of a path (symlinks followed); a name the system refuses stays as written."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _folder_to_allow(real: str) -> str:
    """The folder whose --allow-path admits a file refused for its place: relative to the working
    folder when that is the shorter way to write it, so a message reads the same on every machine."""
    folder = os.path.dirname(real)
    cwd = _cwd()
    relative = os.path.relpath(folder, _real(cwd[0])) if cwd else folder
    return relative if len(relative) < len(folder) else folder


_active: ContextVar[Sandbox | None] = ContextVar("umpire_sandbox", default=None)


@contextmanager
def sandbox(box: Sandbox) -> Iterator[Sandbox]:
    """Read every file of the ``with`` block inside ``box``."""
    token = _active.set(box)
    try:
        yield box
    finally:
        _active.reset(token)


@contextmanager
def entry(path: str) -> Iterator[None]:
    """A file handed to the loader directly: without a run's sandbox, its folder is a root."""
    if _active.get() is not None:
        yield
        return
    with sandbox(Sandbox.for_run([path])):
        yield


def current() -> Sandbox:
    return _active.get() or Sandbox.for_run()


_buffers: ContextVar[Mapping[str, str] | None] = ContextVar("umpire_buffers", default=None)


@contextmanager
def buffers(texts: Mapping[str, str]) -> Iterator[None]:
    """Inside the ``with`` block, a file whose real path is a key of ``texts`` reads as that text
    (an editor's unsaved buffer) once it has passed every check a file on disk passes."""
    token = _buffers.set({_real(path): text for path, text in texts.items()})
    try:
        yield
    finally:
        _buffers.reset(token)


def allowed_folders(paths: Iterable[str]) -> list[str]:
    """The ``--allow-path`` folders, each checked to be one."""
    out = []
    for path in paths:
        if "\0" in path or not os.path.isdir(path):
            raise _fail(f"--allow-path {path!r} is not a folder", _no_span())
        out.append(path)
    return out


# ─────────────────────────────── references ───────────────────────────────


def resolve_reference(relative: str, naming_file: str, kind: Kind, span: Span, construct: str) -> str:
    """The path a file names (``include "x.rules"``), resolved against the naming file's folder.

    Refused with a diagnostic at ``span``: an absolute path, a name without the extension of
    ``kind`` (checked before anything is read, so no other file's content is ever quoted), a
    real location outside the run's roots, and an existing file that is not a regular file or
    is too large. A file that does not exist is left to the caller, whose message names the
    construct ("cannot include ...").
    """
    folder = os.path.dirname(naming_file) or "."
    if not relative or "\0" in relative:
        raise _fail(f"{construct} names no usable file: {relative!r}", span,
                    "a file name is not empty and holds no NUL character")
    if os.path.isabs(relative):
        raise _fail(f"an absolute path is not allowed here; name the file relative to {folder}", span)
    if not kind.fits(relative):
        raise _fail(f"'{relative}' is not {kind.describe()}: {construct} names {kind.what}", span,
                    "only a file with the right extension is read")
    target = os.path.normpath(os.path.join(folder, relative))
    try:
        real = os.path.realpath(target)
    except (OSError, ValueError):
        raise _fail(f"cannot follow '{relative}'", span) from None
    box = current()
    if not box.admits(real):
        raise _fail(f"'{relative}' leads outside the folders this run may read ({box.shown()})", span,
                    f"allow it with --allow-path {_folder_to_allow(real)}")
    if not kind.fits(real):  # a symlink with the right name may lead to any file
        raise _fail(f"'{relative}' leads to {real}, which is not {kind.describe()}", span)
    if os.path.exists(target):  # a missing file (or a broken link) is the caller's message
        _check_stat(target, relative, span)
    return target


# ─────────────────────────────── reading ───────────────────────────────


def command_line_file(path: str, reader: str, kinds: tuple[Kind, ...]) -> Kind:
    """The kind of a file named on the command line, by its extension; any other is refused.

    The extension decides how the file is read (``check`` reads a scenario, a ruleset or an
    overlay), and a file that is none of these is not read at all.
    """
    if not path or "\0" in path:
        raise _fail(f"{reader} a file; {path!r} is no usable file name", _no_span())
    for kind in kinds:
        if kind.fits(path):
            return kind
    wanted = ", ".join(k.describe() for k in kinds[:-1]) + " or " * (len(kinds) > 1) + kinds[-1].describe()
    raise _fail(f"{reader} {wanted}; '{path}' is not one", whole_file(path))


def read_checked(path: str, sources: Sources | None = None, span: Span | None = None) -> str:
    """The text of a regular file of at most ``MAX_BYTES``, decoded as UTF-8.

    The file is stat-ed before it is opened (a FIFO or a device is never opened) and again
    once open; at most ``MAX_BYTES`` + 1 bytes are read. Invalid UTF-8 is reported at the
    line and column of its first bad byte. ``sources``, when given, receives the text.
    """
    span = span or path  # the whole file, made into a span only for an error (_fail)
    _check_stat(path, path, span)
    texts = _buffers.get()
    buffered = texts.get(_real(path)) if texts else None
    if buffered is not None:
        return _buffered(path, buffered, sources, span)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            _check_mode(os.fstat(handle.fileno()), path, span)
            data = handle.read(MAX_BYTES + 1)
    except OSError as err:
        raise _fail(f"cannot read {path}: {err.strerror or err}", span) from None
    if len(data) > MAX_BYTES:
        raise _fail(f"{path} is too large to read (over {MAX_BYTES:,} bytes)", span)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise _bad_utf8(path, data, err.start, sources) from None
    if sources is not None:
        sources.add(path, text)
    return text


def _buffered(path: str, text: str, sources: Sources | None, span: Span | str) -> str:
    """An editor's buffer read in place of the file's content, under the language server's size cap
    (limits.MAX_EDITOR_BYTES, below MAX_BYTES: a check after every edit must be quick)."""
    size = len(text.encode("utf-8", errors="replace"))
    if size > MAX_EDITOR_BYTES:
        raise _fail(f"'{path}' is too large to check in the editor ({size:,} bytes; the limit is {MAX_EDITOR_BYTES:,})",
                    span, f"`umpire check` checks files of up to {MAX_BYTES:,} bytes")
    if sources is not None:
        sources.add(path, text)
    return text


def _check_stat(path: str, named: str, span: Span | str) -> None:
    try:
        info = os.stat(path)
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise _fail(f"cannot read {path}: {reason}", span) from None
    _check_mode(info, named, span)


def _check_mode(info: os.stat_result, named: str, span: Span | str) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise _fail(f"'{named}' is {_what_it_is(info.st_mode)}, not a regular file", span)
    if info.st_nlink > 1:
        # A hard link is the file itself under another name: nothing in the path says where its
        # other names are, so a link inside the roots to a file outside them cannot be told from a
        # file of the project. A file read has one name (a git checkout or a copy gives it one).
        raise _fail(f"'{named}' has {info.st_nlink} hard links; Umpire reads only files with one name", span,
                    "copy it, or link it symbolically")
    if info.st_size > MAX_BYTES:
        raise _fail(f"'{named}' is too large to read ({info.st_size:,} bytes; the limit is {MAX_BYTES:,})", span)


def _what_it_is(mode: int) -> str:
    for test, what in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "a special file"


def _bad_utf8(path: str, data: bytes, start: int, sources: Sources | None) -> UmpireError:
    """Invalid UTF-8 at its line and column (in characters), the line quoted with the bad byte replaced."""
    line_start = data.rfind(b"\n", 0, start) + 1
    line = data.count(b"\n", 0, start) + 1
    col = len(data[line_start:start].decode("utf-8", errors="replace")) + 1
    if sources is not None:
        sources.add(path, data.decode("utf-8", errors="replace"))
    from .syntax.spans import Span

    span = Span(file=path, line=line, col=col, end_line=line, end_col=col + 1)
    return _fail(f"the file is not valid UTF-8: byte 0x{data[start]:02x} cannot be decoded", span,
                 "save the file as UTF-8")


def demo_path(rules_path: str, relative: str) -> str:
    """Demo files are named relative to the file whose game header names them (the name only:
    ``resolve_reference`` is what checks it before it is read)."""
    return os.path.normpath(os.path.join(os.path.dirname(rules_path), relative))
