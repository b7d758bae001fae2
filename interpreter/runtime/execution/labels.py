"""How `umpire explain` names the calls a trace line runs in: one place for both executors."""

from __future__ import annotations

from typing import Any

from ..common.values import show


def brief(value: Any, width: int = 40) -> str:
    """A value as a label shows it: cut to ``width`` characters."""
    text = show(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def call_label(decl, env: dict, params: list[str]) -> str:
    """How `umpire explain` names a procedure's call: ``fire(ES1, 3018) [9.1]``."""
    return f"{decl.name}({', '.join(brief(env.get(p)) for p in params)}) [{decl.cite or decl.name}]"


def table_label(decl, env: dict, params: list[str]) -> str:
    return f"table {decl.name}({', '.join(brief(env.get(p)) for p in params)}) [{decl.cite}]"


def hook_label(event: str, var: str | None, subject: Any, cite) -> str:
    return f"on {event}({show(subject) if var else ''}) [{cite}]"
