"""How a module of built-ins lists its implementations: each keeps a table of its own, filled by the
decorator this makes, and execution/builtins.py binds every table to an engine (`implementations`).

The map's built-ins (world/map_builtins.py, world/paths.py) sit below the engine's room, so they
cannot import execution/builtins.py; this decorator is what they share with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# A built-in's implementation: a function of the engine, the call's span, then its arguments.
Implementation = Callable[..., Any]


def registrar(table: dict[str, Implementation]) -> Callable[[str], Callable[[Implementation], Implementation]]:
    """A decorator `builtin(name)` that enters the decorated function in `table` as the built-in `name`."""

    def builtin(name: str):
        def register(fn: Implementation) -> Implementation:
            table[name] = fn
            return fn

        return register

    return builtin
