"""Every limit Umpire puts on its input and on a run, in one place (docs/limits.md lists them).

No board game needs anything near these: they stand between a slip or a hostile file and
a hang, a memory blow-up or a Python traceback, and each is reported as a diagnostic at
the place that passes it. The step budget alone can be changed from outside, with the
environment variable UMPIRE_MAX_STEPS, because a very long game might one day need more.
Limits a test lowers (MAX_NARRATION) are read from this module when a run begins.
"""

from __future__ import annotations

import os

from .digits import is_number

# ── the text of a file ──
MAX_BLOCK_DEPTH = 64  # blocks ({ … } of statements, and 'else if') nested in one another
MAX_EXPR_DEPTH = 100  # operators, calls and brackets nested in one expression (a chain 'a + b + …' nests too)
MAX_DIGITS = 18  # digits of a number written in the rules (and of any number computed)
MAX_STRING_LITERAL = 10_000  # characters of one quoted string in a file
MAX_TURNS = 1_000  # the turns a game header (or an overlay, or a scenario's 'until turn') may name
MAX_CHITS = 1_000_000  # chits the cups of a ruleset declare in all, and chits one cup may hold during a run

MAX_FILE_BYTES = 8 * 1024 * 1024  # bytes of one file read (rules, scenario, overlay, save); the largest real ruleset is under 200 KB
MAX_QUOTED_LINE = 1_000  # characters of a source line a diagnostic quotes whole; a longer one is quoted around the caret

# ── the language server ──
# Bytes (UTF-8) of an open file's text that the language server checks; a larger one gets one
# diagnostic and is not parsed. A check's time and memory grow with the text (a 1 MB ruleset
# takes about 9 s and 320 MB); the largest real ruleset is some 31 KB.
MAX_EDITOR_BYTES = 1_000_000
# Bytes of one message from the editor (its Content-Length): room for a file at the cap of files.py
# (8 MB) even with every character JSON-escaped (6 bytes each), far below a length that would
# exhaust the memory when the body is read.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024

# ── a run ──
MAX_INT = 10**MAX_DIGITS - 1  # the largest number arithmetic may give (18 digits)
MAX_STRING = 100_000  # characters of a string built by interpolation
MAX_LIST = 1_000_000  # items of a list built by a comprehension or by joining lists ('+')
MAX_FUNCTION_DEPTH = 200  # ruleset functions calling functions, nested
KEPT_RING_LISTS = 4  # lists of places a game keeps the rings of moves over (`distance`, `within`); the oldest is let go
MAX_PROCEDURE_DEPTH = 100  # procedures calling procedures, nested (each level costs more Python stack)
MAX_RANGE = 100_000  # numbers of one range(): a rules author's list, never a loop counter gone astray
MAX_REPEAT = 10_000  # rounds of one 'repeat' (or of one impulse loop) before it is taken for a runaway loop
MAX_POOL = 10_000  # dice in one roll
MAX_DRAW = 10_000  # chits drawn, or elements picked, by one 'draw' or 'pick'
MAX_NARRATION = 50_000_000  # characters of narration one run writes (the longest game measured: 2,461,633 bytes)
DEFAULT_MAX_STEPS = 30_000_000  # statements run plus items gone through, per run (six times the longest game measured: 5,069,949)
STEPS_VARIABLE = "UMPIRE_MAX_STEPS"

# ── odds and agents ──
DEFAULT_ODDS_PATHS = 2_000_000  # dice paths `umpire odds` enumerates before it declines (--limit changes it)
MAX_AGENT_BUDGET = 10_000  # the N of an agent written search:N, mcts:N or greedy:N

# ── the workbench (umpire serve) ──
SERVE_KEPT_RUNS = 16  # scenario runs (their pictures at every line), and odds answers, the workbench keeps; the oldest is let go
SERVE_KEPT_GAMES = 4  # games in play the workbench keeps; the oldest is ended
SERVE_ODDS_RUNS = 1000  # seeded runs of the odds panel when the exact enumeration passes its limit
SERVE_ODDS_PATHS = 200_000  # outcomes the odds panel enumerates exactly before it samples instead
SERVE_ANSWER_SECONDS = 120  # how long an answer's request waits for the game to reach its next decision

# ── formatting ──
DEFAULT_FORMAT_WIDTH = 120  # characters of a line `umpire format` leaves as written (--width changes it)

# ── a saved game ──
MAX_SAVE_BYTES = 16 * 1024 * 1024  # bytes of a save file read by --load
MAX_DIFFERENCES_SHOWN = 50  # fields `play --load --verify` lists that differ from the replay (the rest are counted)


def max_steps() -> int:
    """The step budget of one run: UMPIRE_MAX_STEPS when it is a positive whole number, else the default."""
    raw = os.environ.get(STEPS_VARIABLE, "").strip().replace("_", "")
    return int(raw) if is_number(raw) and int(raw) > 0 else DEFAULT_MAX_STEPS
