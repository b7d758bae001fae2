"""A cache of loads: the parsed, amended and checked IR of a ruleset (or a scenario), kept on disk.

A load reads files through the sandbox (files.py) and builds a value from nothing else: the
files' text, the load's options and Umpire's own code. The cache keeps that value, keyed so
that it is never stale:

* the *request*: what was loaded (the path as given, the options, the overlays), the working
  folder and the run's roots (a hit must find the same files a miss would be allowed to read)
  and the step budget (a scenario's set-up runs under it). It names the entry's file, so a
  request has one entry, replaced when its files or the code change: the cache does not grow
  with every edit;
* the *code version* (``code_version``): a hash of every ``.py`` file of the package and of
  the grammar, with the versions of Python, pydantic and lark, kept in the entry. A change to
  Umpire's code is a miss, never a stale entry;
* the *files read*: an entry records every file the load read (its path, real location and
  the SHA-256 of its text). A lookup reads each again through the sandbox and compares; one
  changed, moved or unreadable file is a miss. The texts read are what a miss would have put
  into ``Sources``, so diagnostics render the same from a hit. A value that says a file does
  not exist records that too (``note_absent``): the file's appearance is a miss.

Two kinds of value are kept: a load (``load.load_rules``, ``load.load_scenario``: the IR, the
symbols, the diagnostics, the overlays applied) and the verdict of ``umpire check`` on a file
(its diagnostics and summary lines), which is made from loads alone and lets a check that has
nothing new to say import neither the IR nor the checker nor the runtime. Beside a ruleset's
entry, a ``.code`` entry keeps the Python code compiled from the texts its lowering generated
(``CodeEntry``, runtime/execution/kept_code.py), read and written under the same rules.

Entries are pickles (the IR is pydantic models: pickle is the fast way back), and unpickling
runs code, so an entry is only ever read from a folder the user owns and no one else may
enter (mode 0700), and only if the entry itself is a regular file the user owns that no one
else may write; anything else is a miss (docs/safety.md). An entry is written whole to a
temporary file, then renamed over the old one. A corrupt, truncated or unreadable entry is a
miss, never an error: the cache can only make a load faster, never change what it gives.

Where: ``$UMPIRE_CACHE``, else ``$XDG_CACHE_HOME/umpire``, else ``~/.cache/umpire``;
``UMPIRE_CACHE=off`` turns the cache off.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import marshal
import os
import pickle
import stat
import sys
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from . import files, library
from .limits import max_steps
from .syntax.diagnostics import Sources, UmpireError
from .writing import WriteError, write_file

FORMAT = b"umpire-cache 1\n"  # the first line of every entry; a new layout changes it
CODE_FORMAT = b"umpire-code 1\n"  # the first line of an entry of generated code (CodeEntry)
VARIABLE = "UMPIRE_CACHE"
_MAX_ENTRY = 256 * 1024 * 1024  # an entry larger than this is not read (a real ruleset's is under 2 MB)

T = TypeVar("T")
_MISS = object()  # what a lookup that finds nothing usable gives

# The files read by the loads in progress: each (path, real path, sha256 of the text), in order;
# (path, "", None) for a file that was not there.
_reads: ContextVar[list[tuple[str, str, str | None]] | None] = ContextVar("umpire_cache_reads", default=None)


def note_read(path: str, text: str) -> None:
    """A file a load has read (load.read calls this for every file): recorded for the entry."""
    reads = _reads.get()
    if reads is not None:
        reads.append((path, _real(path), _digest(text)))


def note_absent(path: str) -> None:
    """A file whose absence the value depends on (a diagnostic says it does not exist): a lookup
    that finds it is a miss."""
    reads = _reads.get()
    if reads is not None:
        reads.append((path, "", None))


def through(request: tuple, sources: Sources, kind: type | tuple[type, ...], load: Callable[..., T], *args: Any,
            kept: Callable[[T, CodeEntry], None] | None = None) -> T:
    """The value of ``load(*args)``, from the cache when an entry for ``request`` still holds.

    ``request`` names the load (its kind, path and options, all plain data); the files the
    load reads are added to the key as it reads them. On a hit the texts of those files are
    added to ``sources``, as the load would have added them; a load that raises is not kept.
    ``kind`` is the type of what ``load`` gives: an entry holding anything else is a miss.
    ``kept`` is given the value and the entry of its generated code (``CodeEntry``) when the
    value comes from an entry or has just been written to one.
    """
    where = _entry_path(request)
    if where is None:
        return load(*args)
    found, program = _lookup(where, sources, kind)
    if found is not _MISS:
        if kept is not None:
            kept(found, CodeEntry(str(where.with_suffix(".code")), program))
        return found
    outer = _reads.get()
    reads: list[tuple[str, str, str | None]] = []
    token = _reads.set(reads)
    try:
        value = load(*args)
    finally:
        _reads.reset(token)
        if outer is not None:  # a load inside another: the outer one read these files too
            outer.extend(reads)
    program = _store(where, reads, value)
    if kept is not None and program is not None:
        kept(value, CodeEntry(str(where.with_suffix(".code")), program))
    return value


# ─────────────────────────────── where, and the key ───────────────────────────────


def folder() -> Path | None:
    """The cache folder, or None when the cache is off."""
    named = os.environ.get(VARIABLE, "")
    if named.strip().lower() == "off":
        return None
    if named:
        return Path(named)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "umpire"


def _entry_path(request: tuple) -> Path | None:
    """Where the entry of ``request`` lives, in a usable folder; None when there is none."""
    try:
        where = folder()
        if where is None or not _private_folder(where):
            return None
        key = json.dumps([_cwd(), files.current().roots, max_steps(), request], default=str)
        code_version()  # computed here, where a failure means no cache
    except (OSError, RuntimeError, ValueError, ImportError):  # no home folder, an unusable name: no cache
        return None
    return where / (hashlib.sha256(key.encode()).hexdigest() + ".pickle")


def _private_folder(where: Path) -> bool:
    """The folder, made if missing (mode 0700), when it is a folder this user owns and no one else
    may enter; any other folder is not used at all."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # no owners to check (Windows): no cache
        return False
    try:
        if not where.is_dir():
            where.parent.mkdir(parents=True, exist_ok=True)
            where.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(where)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == getuid() and stat.S_IMODE(info.st_mode) & 0o077 == 0


@functools.cache
def code_version() -> str:
    """A hash of the code that makes a load's value: every .py file of the package, the standard
    library's rules files, the grammar and its shipped tables (syntax/tables.py) (hashed by content, once per process: a few milliseconds), the Python version, and
    where pydantic and lark are installed and when (an upgrade rewrites them)."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256(sys.version.encode())
    sources = sorted(p for p in package.rglob("*") if p.suffix in (".py", ".lark", ".json", ".rules"))
    grammar = package.parent / "grammar" / "umpire.lark"  # in a checkout, beside the package
    for path in [*sources, *([grammar] if grammar.is_file() else [])]:
        digest.update(str(path.relative_to(package.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    for name in ("pydantic", "pydantic_core", "lark"):
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None and spec.origin else ""
        info = os.stat(origin) if origin else None
        digest.update(f"{name}:{origin}:{info and info.st_mtime_ns}:{info and info.st_size}\0".encode())
    return digest.hexdigest()


# ─────────────────────────────── reading and writing entries ───────────────────────────────


def _lookup(where: Path, sources: Sources, kind: type | tuple[type, ...]) -> tuple[Any, str]:
    """The value kept at ``where`` if it is a ``kind`` and every file it was made from still reads
    the same, and the SHA-256 of its pickle; else (_MISS, "")."""
    try:
        data = _read_entry(where)
        if data is None or not data.startswith(FORMAT):
            return _MISS, ""
        header_end = data.index(b"\n", len(FORMAT))
        header = json.loads(data[len(FORMAT):header_end])
        manifest, payload = header["files"], data[header_end + 1:]
        if header["code"] != code_version() or hashlib.sha256(payload).hexdigest() != header["sha256"]:
            return _MISS, ""  # made by other code, or damaged on disk
        texts = _still_the_same(manifest)
        if texts is None:
            return _MISS, ""
        value = pickle.loads(payload)
    except Exception:  # a corrupt or truncated entry, or one from other code: a miss
        return _MISS, ""
    if not isinstance(value, kind):  # an entry of another load's kind, or written by other code
        return _MISS, ""
    for path, text in texts:
        sources.add(path, text)
    note_reads = _reads.get()
    if note_reads is not None:
        note_reads.extend((path, real, digest) for path, real, digest in manifest)
    return value, header["sha256"]


def _read_entry(where: Path) -> bytes | None:
    """The bytes of an entry: a regular file this user owns that no one else may write, not a link."""
    try:
        fd = os.open(where, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if (not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or stat.S_IMODE(info.st_mode) & 0o022
                or info.st_size > _MAX_ENTRY):
            return None
        return handle.read(_MAX_ENTRY + 1)


def _still_the_same(manifest: list) -> list[tuple[str, str]] | None:
    """The texts of the files an entry was made from, read again through the sandbox; None as soon
    as one has changed, moved (its real location) or cannot be read."""
    texts = []
    for path, real, digest in manifest:
        if digest is None:
            if os.path.exists(path):
                return None
            continue
        if library.is_library(path):  # the package's own: the code version covers it
            text = library.text(path)
            if text is None or _digest(text) != digest:
                return None
            texts.append((path, text))
            continue
        try:
            text = files.read_checked(path)
        except UmpireError:
            return None
        if _real(path) != real or _digest(text) != digest or not files.current().admits(real):
            return None
        texts.append((path, text))
    return texts


def _store(where: Path, reads: list[tuple[str, str, str | None]], value: Any) -> str | None:
    """Keep ``value`` for the next load, written whole then renamed; the SHA-256 of its pickle. A value
    that cannot be pickled, a file that changed while the load read it, or a folder that cannot be
    written keeps nothing (None)."""
    manifest: dict[str, tuple[str, str | None]] = {}
    for path, real, digest in reads:
        if manifest.setdefault(path, (real, digest)) != (real, digest):
            return None
    try:
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        header = {"code": code_version(), "files": [[path, real, digest] for path, (real, digest) in manifest.items()],
                  "sha256": hashlib.sha256(payload).hexdigest()}
        data = FORMAT + json.dumps(header).encode() + b"\n" + payload
    except Exception:  # too deep to pickle (RecursionError), or not picklable: not kept
        return None
    try:
        write_file(str(where), data, force=True, private=True)
    except WriteError:
        return None
    return header["sha256"]


# ─────────────────────────────── the generated code of a kept program ───────────────────────────────


@dataclass(frozen=True)
class CodeEntry:
    """Where the code compiled from a kept program's generated texts is kept (runtime/execution/kept_code.py):
    beside the program's entry (``where``: its name, ending ``.code``), for the program that entry holds
    (``program``: the SHA-256 of its pickle). Its content is each text's digest -> the text's code,
    marshalled. Marshalled code is run, so the entry is read as a load's entry is (``_read_entry``: a
    regular file this user owns that no one else may write, in the folder the cache uses only when it is
    the user's alone), and it holds nothing when it was written by other code (the code version, which
    holds Python's), for another program (the files changed, the program's entry was replaced), or is
    damaged (the SHA-256 of its content)."""

    where: str
    program: str

    def read(self) -> dict[bytes, bytes]:
        try:
            data = _read_entry(Path(self.where))
            if data is None or not data.startswith(CODE_FORMAT):
                return {}
            header_end = data.index(b"\n", len(CODE_FORMAT))
            header = json.loads(data[len(CODE_FORMAT):header_end])
            payload = data[header_end + 1:]
            if (header["code"] != code_version() or header["program"] != self.program
                    or hashlib.sha256(payload).hexdigest() != header["sha256"]):
                return {}
            codes = marshal.loads(payload)
        except Exception:  # a corrupt or truncated entry, or one from other code: nothing kept
            return {}
        if not isinstance(codes, dict) or not all(type(k) is bytes and type(v) is bytes for k, v in codes.items()):
            return {}
        return codes

    def write(self, codes: dict[bytes, bytes]) -> None:
        """The entry replaced by ``codes``, written whole then renamed; a folder that cannot be written
        keeps nothing."""
        payload = marshal.dumps(codes)
        header = {"code": code_version(), "program": self.program, "sha256": hashlib.sha256(payload).hexdigest()}
        with contextlib.suppress(WriteError):
            write_file(self.where, CODE_FORMAT + json.dumps(header).encode() + b"\n" + payload, force=True, private=True)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _real(path: str) -> str:
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:
        return ""
