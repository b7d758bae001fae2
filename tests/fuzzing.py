"""What every fuzzing test file shares: the example budget, running main() in-process, and the
one property all of them check (no traceback, no internal error, exit 0 or 1).

UMPIRE_FUZZ_SCALE=N multiplies every file's example counts for a longer hunt.
"""

from __future__ import annotations

import contextlib
import io
import os

from hypothesis import HealthCheck, settings

from interpreter.cli import main

SCALE = max(1, int(os.environ.get("UMPIRE_FUZZ_SCALE", "1")))


def fuzz_settings(examples: int):
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                               HealthCheck.function_scoped_fixture],
    )


def cli(*argv: str) -> tuple[int, str]:
    """Run main() in-process; return its exit code and everything it printed."""
    out, err = io.StringIO(), io.StringIO()
    env_debug = os.environ.pop("UMPIRE_DEBUG", None)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
    finally:
        if env_debug is not None:
            os.environ["UMPIRE_DEBUG"] = env_debug
    return code, out.getvalue() + err.getvalue()


def assert_clean(code: int, text: str, source: str) -> None:
    shown = f"--- input ---\n{source[:3000]}\n--- output ---\n{text[-3000:]}"
    assert "Traceback" not in text, shown
    assert "internal error" not in text, shown
    assert code in (0, 1), f"exit code {code}\n{shown}"


def leaves(v, path=()):
    """The path (keys and indexes) of every leaf of nested tables and lists: where a fuzz test damages."""
    if isinstance(v, dict):
        for k, x in v.items():
            yield from leaves(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from leaves(x, path + (i,))
    else:
        yield path


# A scenario on tests/bad/support/skirmish.rules whose expectations are the expressions put in
# {expects}: the runtime fuzzing of tests/fuzz/test_fuzz.py and the matchings of
# tests/runtime/test_runtime.py evaluate theirs after one battle.
SKIRMISH_SCENARIO = """scenario "fuzz" uses "{rules}" [1.0] {{
  places {{
    hex 0101 {{ terrain: open }}
    hex 0102 {{ terrain: shoal }}
  }}
  units {{
    R1: frigate of red at 0101 {{ gun: 3, cost: 3 }}
    B1: frigate of blue at 0101 {{ gun: 4, cost: 2 }}
  }}
  run battle(@0101, blue)
  dice {{ 6 "B1"  5 "R1" }}
  expect {{
{expects}
  }}
}}
"""
