"""Progress on long work (odds, replays, studies, checks of many files): one helper for every command.

A bar is drawn on standard error, and only when standard error is a terminal, so a pipe, a log or
the test suite reads exactly what it would without it; it is cleared when the work ends (it is not
part of the result). tqdm draws it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def on_terminal() -> bool:
    """Whether standard error is a terminal a bar can be drawn on."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced by an object without it, or closed
        return False


def bar(total: int | None, label: str, unit: str):
    """A bar of ``total`` steps (None: a count without an end); on no terminal a bar that draws nothing."""
    if not on_terminal():
        return _Silent(total)
    from tqdm import tqdm  # imported only to draw: a command in a pipe does not pay for it

    return tqdm(total=total, desc=label, unit=unit, leave=False, file=sys.stderr, mininterval=0.25)


class _Silent:
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


@contextmanager
def counting(total: int | None, label: str, unit: str) -> Iterator[Callable[..., None]]:
    """``update(done, total=None, **about)``: the bar at ``done`` steps (of ``total``, once the work knows
    it), with ``about`` shown beside it; closed on leaving."""
    shown = bar(total, label, unit)

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
