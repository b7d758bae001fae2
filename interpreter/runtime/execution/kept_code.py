"""The code compiled from generated texts (generated_code.py), kept with the checked program across processes.

Lowering a ruleset writes its expressions and runs of statements as Python texts, and compiling them is
most of what lowering costs a new process (docs/performance.md). Within a process, generated_code keeps
each text's code. Across processes, the loads that keep a checked program (load.py, cache.py) give it a
*keeper*: the code of every text lowering it has compiled, stored beside the program's entry by the
SHA-256 of the text (and the file name it is compiled under). A text found there is not compiled again:
its code is read back with `marshal`, as Python reads a module's bytecode.

The text is the key, so a code read back is the code compiling that text gives, for any program: what
ties an entry to its program, to the code of Umpire and to the version of Python is the keeper's business
(cache.py: an entry made by other code, for another program, damaged or not the user's own is empty).
Codes this process compiled, or used for the first time for a program, are written to its keeper when no
program alive uses that keeper any more, or when the process ends: a process that goes on (the workbench's
server, the tests) holds the codes of the programs it still has, not of every program it ever read.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import marshal
import weakref
from types import CodeType
from typing import NamedTuple, Protocol

# The codes an entry keeps at most: past it, an entry keeps only what its last process compiled or used.
MAX_KEPT = 20_000


class Keeper(Protocol):
    """Where a program's codes are kept (cache.CodeEntry): each text's digest -> its code, marshalled."""

    def read(self) -> dict[bytes, bytes]: ...

    def write(self, codes: dict[bytes, bytes]) -> None: ...


class Compiled(NamedTuple):
    """A text's code, and the digest it is kept under."""

    code: CodeType
    digest: bytes


# Texts compiled in this process (the tests count them: a process whose program's codes are kept compiles none).
compiles = 0


class _Kept:
    """A keeper's codes: those it held (read when the first text is looked up) and those added since."""

    def __init__(self, keeper: Keeper):
        self.keeper = keeper
        self.stored: dict[bytes, bytes] | None = None
        self.added: dict[bytes, CodeType] = {}
        self.programs = 0  # the programs alive that it keeps the codes of

    def held(self) -> dict[bytes, bytes]:
        if self.stored is None:
            self.stored = {}
            with contextlib.suppress(Exception):  # an entry that cannot be read holds nothing
                self.stored = self.keeper.read()
        return self.stored

    def found(self, digest: bytes) -> CodeType | None:
        """The code kept for a text, or None (none kept, or what is kept is not a code)."""
        data = self.held().get(digest)
        if data is None:
            return None
        try:
            code = marshal.loads(data)
        except Exception:  # damaged: compiled again, and kept anew
            return None
        return code if isinstance(code, CodeType) else None

    def note(self, compiled: Compiled) -> None:
        """A code this program uses, kept for it unless it is already."""
        if compiled.digest not in self.held() and compiled.digest not in self.added:
            self.added[compiled.digest] = compiled.code

    def write(self) -> None:
        """The codes held and those added, written to the keeper (only those added, past MAX_KEPT)."""
        if not self.added:
            return
        added = {digest: marshal.dumps(code) for digest, code in self.added.items()}
        held = self.held() if len(self.held()) + len(added) <= MAX_KEPT else {}
        self.stored, self.added = {**held, **added}, {}
        self.keeper.write(self.stored)


_KEPT: dict[Keeper, _Kept] = {}  # one for each keeper of the process that a program alive uses
_PROGRAMS: dict[int, tuple[weakref.ref, _Kept]] = {}  # id(program) -> the program, and its keeper's codes


def keep(program: object, keeper: Keeper) -> None:
    """The codes of `program` (the checked program's symbols, which the engine lowers) are kept by `keeper`."""
    if _kept(program) is not None:
        return
    kept = _KEPT.get(keeper)
    if kept is None:
        _written_at_exit()
        kept = _KEPT[keeper] = _Kept(keeper)
    kept.programs += 1
    _PROGRAMS[id(program)] = (weakref.ref(program), kept)
    weakref.finalize(program, _let_go, id(program), kept).atexit = False


def _kept(program: object) -> _Kept | None:
    found = _PROGRAMS.get(id(program))
    return found[1] if found is not None and found[0]() is program else None


def _let_go(key: int, kept: _Kept) -> None:
    """A program gone: once no program alive uses its keeper, the codes it lacked are written, and let go
    (a process that goes on, as the workbench's server, holds the codes of the programs it still has)."""
    found = _PROGRAMS.get(key)
    if found is not None and found[1] is kept:
        del _PROGRAMS[key]
    kept.programs -= 1
    if kept.programs <= 0:
        if _KEPT.get(kept.keeper) is kept:
            del _KEPT[kept.keeper]
        with contextlib.suppress(Exception):
            kept.write()


def compiled(text: str, filename: str, program: object) -> Compiled:
    """The code of `text`, read from the keeper of `program` when it holds it, else compiled (and kept)."""
    global compiles
    digest = hashlib.sha256(filename.encode() + b"\0" + text.encode()).digest()
    kept = _kept(program)
    code = kept.found(digest) if kept is not None else None
    if code is None:
        compiles += 1
        code = compile(text, filename, "exec")  # the text holds only generated_code's templates and reprs
        if kept is not None:
            kept.added[digest] = code
    return Compiled(code, digest)


def used(compiled: Compiled, program: object) -> None:
    """A code made earlier in the process (for another program, or before its keeper was given) that
    `program` uses too: its keeper keeps it."""
    kept = _kept(program)
    if kept is not None:
        kept.note(compiled)


@functools.cache
def _written_at_exit() -> None:
    atexit.register(write_all)


def write_all() -> None:
    """At the process's end, each keeper given codes it lacked writes them (a keeper that cannot is left as it was)."""
    for kept in list(_KEPT.values()):  # a program let go meanwhile takes its keeper out
        with contextlib.suppress(Exception):
            kept.write()
