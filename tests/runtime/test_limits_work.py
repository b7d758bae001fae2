"""Limits on the work a run does beyond its statements (docs/limits.md): dice rolled, chits
declared, held and drawn, the narration written, and the matching of a study's facts.

Each case is a toy ruleset (tests/runtime/test_limits.py writes them) whose runaway work would take
minutes, gigabytes or hours without its limit; under a small step budget (UMPIRE_MAX_STEPS) or
a small narration limit it ends at once, in a diagnostic at the statement that passes it.
"""

from __future__ import annotations

import re

import pytest
from test_limits import HEADER, at, cli, fails

from interpreter import limits
from interpreter.cli import study as study_command


def steps(monkeypatch, budget: int) -> None:
    monkeypatch.setenv("UMPIRE_MAX_STEPS", str(budget))


def played(tmp_path, body: str) -> str:
    """``umpire play`` of a ruleset whose game_start hook is the body's (seeded dice): it fails at a limit."""
    (tmp_path / "g.rules").write_text(HEADER + body, encoding="utf-8")
    code, out = cli("play", str(tmp_path / "g.rules"))
    assert code == 1 and "Traceback" not in out and "internal error" not in out, out[-2000:]
    return out


def cup(kinds: int, each: int = 9999, name: str = "big") -> str:
    """A cup declaring ``kinds`` kinds of chits, ``each`` of every one."""
    return f'cup {name} "Big" [4.0] {{\n  chits ' + ", ".join(f"k{i} x{each}" for i in range(kinds)) + " [4.1]\n}\n"


# ───────────────────────────── dice ─────────────────────────────


def test_each_die_rolled_is_a_step(tmp_path, monkeypatch):
    # 20 rolls of 5,000 dice are some 40 statements and 20 items but 100,000 dice: the 10th roll passes
    # 50,000 steps.
    steps(monkeypatch, 50_000)
    body = "on game_start() [2.0] {\n  for each i in range(1, 20) [2.1] {\n    roll p = 5000 d6 [2.2]\n  }\n}\n"
    out = played(tmp_path, body)
    assert at(3, 5) in out, out[-2000:]
    assert "the run has taken 50,000 steps (statements run and items gone through) without ending [2.2]" in out
    assert out.count("roll p: 5000d6") == 9  # the narration told before the budget ran out


def test_a_table_rolls_no_more_dice_than_a_roll(tmp_path):
    body = ('table hits(dice: int) "Hits" [5.0] {\n  roll dice d6\n  1..6 -> few [5.1]\n  7..999999 -> many [5.1]\n}\n'
            "on game_start() [2.0] {\n  lookup got = hits(20000) [2.1]\n}\n")
    out = played(tmp_path, body)
    assert "hits rolls dice = 20000 dice: more than the 10000 one roll may have" in out, out[-2000:]


# ───────────────────────────── chits ─────────────────────────────


def test_the_cups_declare_at_most_a_million_chits(tmp_path):
    # 101 kinds of 9,999 pass 1,000,000 at the 101st: reported once, at that chit, when the rules are read.
    body = 'procedure main() [2.0] { say "never" }\n' + cup(101)
    out = fails(tmp_path, body, "the cups declare 1,009,899 chits with these; the cups of a ruleset hold at most "
                "1,000,000 in all", command="check")
    assert at(3, 1 + len(", ".join(f"k{i} x9999" for i in range(100))) + len("  chits ") + 2) in out
    assert out.count("chits with these") == 1


def test_a_cup_holds_at_most_a_million_chits(tmp_path):
    body = (cup(100) + "on game_start() [2.0] {\n  put [k0 for i in range(1, 200)] into big [2.1]\n"
            '  say "{count(big)}"\n}\n')
    out = played(tmp_path, body)
    assert at(5, 3) in out, out[-2000:]
    assert "cup 'big' would hold 1,000,100 chits [2.1]; a cup holds at most 1,000,000" in out


def test_each_chit_a_draw_goes_through_is_a_step(tmp_path, monkeypatch):
    # A draw goes through the 49,995 chits of its cup: the 5th draw passes 200,000 steps.
    steps(monkeypatch, 200_000)
    body = cup(5) + "on game_start() [2.0] {\n  for each i in range(1, 20) [2.1] {\n    draw c from big [2.2]\n  }\n}\n"
    out = played(tmp_path, body)
    assert at(6, 5) in out, out[-2000:]
    assert "the run has taken 200,000 steps (statements run and items gone through) without ending [2.2]" in out
    assert out.count("draw c from big ->") == 4


# ───────────────────────────── narration ─────────────────────────────


def test_the_narration_of_a_run_is_limited(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_NARRATION", 10_000)
    body = ('on game_start() [2.0] {\n  let s = "{range(1, 200)}"\n  for each i in range(1, 100) [2.1] {\n'
            '    say "{i}: {s}" [2.2]\n  }\n}\n')
    out = played(tmp_path, body)
    assert at(4, 5) in out, out[-2000:]
    assert "the narration of this run would pass 10,000 characters with this line [2.2]; a rule that never ends?" in out
    assert "1: [1, 2, 3" in out  # what was told before it is kept


def test_rule_checks_failing_count_as_narration(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_NARRATION", 10_000)
    body = ('on game_start() [2.0] {\n  let s = "{range(1, 200)}"\n  for each i in range(1, 100) [2.1] {\n'
            '    ensure i < 0 "{i} is not below 0: {s}" [2.2]\n  }\n}\n')
    out = played(tmp_path, body)
    assert at(4, 5) in out, out[-2000:]
    assert "the narration of this run would pass 10,000 characters with this line [2.2]" in out


def test_the_narration_limit_is_far_above_a_game(tmp_path):
    assert limits.MAX_NARRATION >= 20 * 2_461_633  # the longest narration measured (docs/limits.md)


# ───────────────────────────── the facts of a study ─────────────────────────────


@pytest.mark.parametrize("key, name, fits", [
    ("{hex} land hits scored by {s}", "H12 land hits scored by spain", True),
    ("{hex} land hits scored by {s}", " land hits scored by spain", False),  # a field is one character or more
    ("{hex} land hits scored by {s}", "H12 land hits scored by ", False),
    ("{a}{b}", "xy", True),
    ("{a}{b}", "x", False),
    ("{a}-{b}-{c}", "1-2-3-4", True),
    ("{a}-{b}-{c}", "1--3", False),
    ("{a}-{b}-{c}", "1---3", True),
    ("total {", "total {", True),  # a '{' that opens no field is text
    ("{n}ab{n}ab", "xabab", False),
    ("{n}ab{n}ab", "xabyab", True),
])
def test_a_fact_fills_a_key_s_fields_as_a_regular_expression_would(key, name, fits):
    from interpreter.cli.study import fits_template, template_pieces

    assert fits_template(template_pieces(key), name) is fits
    pattern = re.sub(r"\\\{[^}]*\\\}", ".+", re.escape(key))
    assert (re.fullmatch(pattern, name) is not None) is fits


def test_a_study_s_fact_is_matched_without_backtracking(tmp_path, monkeypatch):
    # A key of 20 fields and a name of 33 characters that does not end as it does: a regular
    # expression with a '.+' per field tries every way of cutting the name (a minute and more,
    # hours for a longer name). Keys are matched by their text alone: no expression is compiled.
    class NoExpressions:
        def __getattr__(self, name):
            if name == "compile":
                raise AssertionError("a fact's key was read by a regular expression")
            return getattr(re, name)

    monkeypatch.setattr(study_command, "re", NoExpressions())
    body = ('procedure main() [2.0] { say "never" }\non game_start() [3.0] {\n'
            '  for each n in range(1, 2) [3.1] {\n    record "' + "{n}" * 20 + 'Z" = n [3.1]\n  }\n}\n')
    (tmp_path / "g.rules").write_text(HEADER + body, encoding="utf-8")
    name = "a" * 33
    code, out = cli("study", str(tmp_path / "g.rules"), "--games", "1", "--fact", name)
    assert code == 1 and "Traceback" not in out, out[-2000:]
    assert f"'{name}' is not a game state, a track or a fact the rules record" in out
