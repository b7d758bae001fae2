"""Umpire: a rules interpreter for historical board wargames.

The pipeline runs one way: ``syntax`` (text → parse tree) → ``ir`` (typed,
cited nodes) → ``check`` (diagnostics) → ``runtime`` (dice, agents, trace).
"""

__version__ = "0.1.0"
