"""SIGTERM and SIGHUP during a game, handled as Ctrl-C is.

A game stopped by Ctrl-C tells its narration so far and, at a decision, saves the position
(docs/safety.md §3). A game told to stop another way (`kill`, a closed terminal or SSH link) is
stopped the same way: the signal raises ``Stopped``, a KeyboardInterrupt, where Ctrl-C would
raise one, and every place that handles Ctrl-C handles it, naming the signal.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

SIGNALS = ("SIGTERM", "SIGHUP")  # those a platform lacks (Windows has no SIGHUP) are left alone


class Stopped(KeyboardInterrupt):
    """The game was told to stop by a signal other than Ctrl-C's."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def what_stopped(interrupt: KeyboardInterrupt) -> str:
    """How a person or the system stopped the game, as the narration's last line says it."""
    return interrupt.name if isinstance(interrupt, Stopped) else "Ctrl-C"


@contextlib.contextmanager
def stopped_like_ctrl_c() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP raise ``Stopped``; the handlers before are put back after."""
    before = {}
    for name in SIGNALS:
        number = getattr(signal, name, None)
        if number is None:
            continue
        try:
            before[number] = signal.signal(number, _raise_stopped)
        except ValueError:  # not the main thread: signals are not this thread's to handle
            break
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP wait until the block is done (lines shown and counted as shown
    together: a stop between the two would tell them twice)."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None:  # no signal masks (Windows): not held
        yield
        return
    numbers = {getattr(signal, name) for name in ("SIGINT", *SIGNALS) if hasattr(signal, name)}
    before = block(signal.SIG_BLOCK, numbers)
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, before)


def _raise_stopped(number: int, _frame) -> None:
    raise Stopped(signal.Signals(number).name)
