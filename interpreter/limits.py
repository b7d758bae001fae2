"""Every limit Umpire puts on its input and on a run, in one place (docs/limits.md lists them).

No board game needs anything near these: they stand between a slip or a hostile file and
a hang, a memory blow-up or a Python traceback, and each is reported as a diagnostic at
the place that passes it. The step budget alone can be changed from outside, with the
environment variable UMPIRE_MAX_STEPS, because a very long game might one day need more.
"""

from __future__ import annotations

import os

# ── the text of a file ──
MAX_BLOCK_DEPTH = 64  # blocks ({ … } of statements, and 'else if') nested in one another
MAX_EXPR_DEPTH = 100  # operators, calls and brackets nested in one expression (a chain 'a + b + …' nests too)
MAX_DIGITS = 18  # digits of a number written in the rules (and of any number computed)
MAX_STRING_LITERAL = 10_000  # characters of one quoted string in a file
MAX_TURNS = 1_000  # the turns a game header (or an overlay, or a scenario's 'until turn') may name

# ── a run ──
MAX_INT = 10**MAX_DIGITS - 1  # the largest number arithmetic may give (18 digits)
MAX_STRING = 100_000  # characters of a string built by interpolation
MAX_LIST = 1_000_000  # items of a list built by a comprehension or by joining lists ('+')
MAX_FUNCTION_DEPTH = 200  # ruleset functions calling functions, nested
MAX_PROCEDURE_DEPTH = 100  # procedures calling procedures, nested (each level costs more Python stack)
DEFAULT_MAX_STEPS = 10_000_000  # statements run plus items gone through, per run (the longest game measured: 486,092)
STEPS_VARIABLE = "UMPIRE_MAX_STEPS"

# ── a saved game ──
MAX_DIFFERENCES_SHOWN = 50  # fields `play --load --verify` lists that differ from the replay (the rest are counted)


def max_steps() -> int:
    """The step budget of one run: UMPIRE_MAX_STEPS when it is a positive whole number, else the default."""
    raw = os.environ.get(STEPS_VARIABLE, "").strip().replace("_", "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else DEFAULT_MAX_STEPS
