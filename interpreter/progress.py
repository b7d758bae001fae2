"""Progress on long work (odds, replays, studies, checks of many files): one helper for every command.

A bar is drawn on standard error, and only when standard error is a terminal, so a pipe, a log or
the test suite reads exactly what it would without it; it is cleared when the work ends (it is not
part of the result). tqdm draws it. A command whose work can last minutes (odds) also passes a
`Piped`: where standard error is not a terminal it gets a plain line there every few seconds
instead, and nothing when the work is quicker than that; standard output is never written.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def on_terminal() -> bool:
    """Whether standard error is a terminal a bar can be drawn on."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced by an object without it, or closed
        return False


def bar(total: int | None, label: str, unit: str, piped: Piped | None = None):
    """A bar of ``total`` steps (None: a count without an end); on no terminal a bar that draws nothing,
    or the lines of ``piped``."""
    if not on_terminal():
        return Silent(total) if piped is None else _Lines(piped, total, label, unit)
    from tqdm import tqdm  # imported only to draw: a command in a pipe does not pay for it

    return tqdm(total=total, desc=label, unit=unit, leave=False, file=sys.stderr, mininterval=0.25)


class Silent:
    """A bar where there is no terminal: it counts, and draws nothing."""

    def __init__(self, total: int | None) -> None:
        self.n, self.total = 0, total

    def update(self, steps: int = 1) -> None:
        self.n += steps

    def set_postfix(self, *args, **kwargs) -> None:
        pass

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass


def say(lines: list[str]) -> None:
    """Lines of a command's result on standard output as they come, flushed (a pipe reads them at
    once). A bar being drawn on the terminal (tqdm is imported only to draw one) is cleared first
    and drawn again below them, so no line is written onto it."""
    text = "\n".join(lines)
    drawing = sys.modules.get("tqdm")
    if drawing is not None and on_terminal():
        drawing.tqdm.write(text, file=sys.stdout)
    else:
        print(text)
    sys.stdout.flush()


class Piped:
    """Progress as lines on standard error where it is not a terminal: ``COMMAND: LABEL: N of TOTAL
    UNIT, S s``, at most one every ``interval`` seconds over all the bars of one command's work."""

    interval = 5.0

    def __init__(self, command: str) -> None:
        self.command = command
        self.started = self.last = time.monotonic()

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last < self.interval:
            return False
        self.last = now
        return True

    def say(self, text: str) -> None:
        print(f"{self.command}: {text}, {time.monotonic() - self.started:.0f} s", file=sys.stderr, flush=True)


class _Lines(Silent):
    """A bar of a `Piped`: it counts, and writes a line when one is due."""

    def __init__(self, piped: Piped, total: int | None, label: str, unit: str) -> None:
        super().__init__(total)
        self.piped, self.label, self.unit = piped, label, unit

    def update(self, steps: int = 1) -> None:
        self.n += steps
        if self.piped.due():
            self.piped.say(f"{self.label}: {self.n}" + (f" of {self.total}" if self.total else "") + self.unit)


@contextmanager
def counting(total: int | None, label: str, unit: str, piped: Piped | None = None) -> Iterator[Callable[..., None]]:
    """``update(done, total=None, **about)``: the bar at ``done`` steps (of ``total``, once the work knows
    it), with ``about`` shown beside it; closed on leaving."""
    shown = bar(total, label, unit, piped)

    def update(done: int, total: int | None = None, **about) -> None:
        shown.update(done - shown.n)
        if about:
            shown.set_postfix(about, refresh=False)
        if total is not None and total != shown.total:  # the work has learnt its size: draw it now
            shown.total = total
            shown.refresh()

    try:
        yield update
    finally:
        shown.close()
