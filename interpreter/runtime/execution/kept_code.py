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
Codes this process compiled, or used for the first time for a program, are written to its keeper once,
when the process ends.
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
        if not self.added:
            return
        added = {digest: marshal.dumps(code) for digest, code in self.added.items()}
        held = self.held() if len(self.held()) + len(added) <= MAX_KEPT else {}
        self.added = {}
        self.keeper.write({**held, **added})


_KEPT: dict[Keeper, _Kept] = {}  # one for each keeper of the process
_PROGRAMS: dict[int, _Kept] = {}  # id(program) -> its keeper's codes, while the program lives


def keep(program: object, keeper: Keeper) -> None:
    """The codes of `program` (the checked program's symbols, which the engine lowers) are kept by `keeper`."""
    kept = _KEPT.get(keeper)
    if kept is None:
        _written_at_exit()
        kept = _KEPT[keeper] = _Kept(keeper)
    _PROGRAMS[id(program)] = kept
    weakref.finalize(program, _PROGRAMS.pop, id(program), None).atexit = False


def compiled(text: str, filename: str, program: object) -> Compiled:
    """The code of `text`, read from the keeper of `program` when it holds it, else compiled (and kept)."""
    global compiles
    digest = hashlib.sha256(filename.encode() + b"\0" + text.encode()).digest()
    kept = _PROGRAMS.get(id(program))
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
    kept = _PROGRAMS.get(id(program))
    if kept is not None:
        kept.note(compiled)


@functools.cache
def _written_at_exit() -> None:
    atexit.register(write_all)


def write_all() -> None:
    """At the process's end, each keeper given codes it lacked writes them (a keeper that cannot is left as it was)."""
    for kept in _KEPT.values():
        with contextlib.suppress(Exception):
            kept.write()
