"""How every file Umpire writes is written: a picture, a study's table or plot, a save, a cache entry.

The whole text is written to a temporary file in the target's folder and only then renamed over
the target, so a full disk, a kill or a Ctrl-C never leaves half a file, and the temporary file is
removed whatever stops the write. A rename replaces a symbolic link rather than the file it leads
to, so nothing is ever written through a link by accident; a target that is a link is followed
only when it leads to a file of the same extension inside the folder the link is in (a folder the
command was told to write), and refused otherwise. Without ``force`` the target is created only if
no file has that name when the write ends (a hard link of the finished temporary file), so of two
runs writing the same new file one is refused. docs/safety.md says the same for users.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile


class WriteError(Exception):
    """A file that cannot or must not be written, with what is wrong (the path named in it)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def link_problem(path: str) -> str | None:
    """Why the symbolic link ``path`` must not be written through, or None (not a link, or a safe one)."""
    if not os.path.islink(path):
        return None
    folder = os.path.realpath(os.path.dirname(path) or ".")
    real = os.path.realpath(path)
    if os.path.commonpath([real, folder]) != folder:
        return f"{path} is a symbolic link leading out of its folder: Umpire does not write through it"
    if os.path.splitext(real)[1].lower() != os.path.splitext(path)[1].lower():
        return f"{path} is a symbolic link to a file of another kind: Umpire does not write through it"
    return None


def write_file(path: str, content: str | bytes, force: bool = False, private: bool = False) -> None:
    """Write ``content`` (text as UTF-8) to ``path`` whole or not at all; ``force`` replaces an existing
    file; ``private`` makes the file readable by its owner alone. Raises WriteError naming ``path``."""
    problem = link_problem(path)
    if problem:
        raise WriteError(problem)
    target = os.path.realpath(path) if os.path.islink(path) else path
    data = content.encode("utf-8") if isinstance(content, str) else content
    temp = None
    try:
        fd, temp = tempfile.mkstemp(prefix=".umpire-", suffix=".tmp", dir=os.path.dirname(os.path.abspath(target)))
        if not private:
            os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if force:
            os.replace(temp, target)
        else:
            _create(temp, target, path)
    except OSError as err:
        raise WriteError(f"cannot write {path}: {err.strerror or err}") from err
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)  # already renamed, or what is left of a failed write


def _create(temp: str, target: str, path: str) -> None:
    """Give the finished ``temp`` the name ``target`` only if no file has it (the caller removes ``temp``)."""
    try:
        os.link(temp, target)
    except FileExistsError:
        raise WriteError(f"{path} already exists: use --force to replace it") from None
    except OSError as err:
        if err.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        # A file system without hard links: claim the name exclusively, then rename over the claim.
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            raise WriteError(f"{path} already exists: use --force to replace it") from None
        os.replace(temp, target)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
