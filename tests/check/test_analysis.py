"""The static analysis of `umpire check`: table ranges, reachability, unused names, empty decisions.

Each test writes a small ruleset to a temporary folder and checks what `umpire check`
reports about it; the last ones run it on the real Jenkins' Ear ruleset.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.check.bounds import ANY, Values, describe
from interpreter.cli import main
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent

HEADER = """
game g "G" [1.0] {
  sides red "Red", blue "Blue" [1.1]
  die d6 1..6 [1.2]
}
stat gun "gun value" [2.1]
class ship "ship" [2.0]
type frigate "Frigate": ship [2.2] { gun: 2 }
counter BIG "Big": frigate of red [2.3] { gun: 5 }
counter ODD "Odd": frigate of blue [2.3] { gun: ? }
"""


def check(tmp_path: Path, body: str, capsys) -> tuple[int, str, str]:
    """`umpire check` on HEADER + body; its exit code, all it prints (the diagnostics, on standard error,
    then the summary, on standard output) and standard error."""
    path = tmp_path / "t.rules"
    path.write_text(HEADER + body, encoding="utf-8")
    capsys.readouterr()
    code = main(["check", str(path)])
    out, err = capsys.readouterr()
    return code, err + out, err


def heads(text: str, severity: str) -> list[str]:
    """The messages of the diagnostics of one severity (the head lines, without file:line:col)."""
    marker = f": {severity}: "
    return [line.split(marker, 1)[1] for line in text.splitlines() if marker in line and not line.startswith(" ")]


def one(messages: list[str], fragment: str) -> str:
    found = [m for m in messages if fragment in m]
    assert len(found) == 1, (fragment, messages)
    return found[0]


# ───────────────────────────── value sets ─────────────────────────────


def test_value_sets_add_subtract_and_read_aloud():
    die = Values.range(1, 6)
    storm = Values.of(-1, 0)
    assert describe(die + storm) == "0..6"
    assert describe(Values.range(0, 9) - Values.range(1, 6)) == "0 and 7..9"
    assert describe(Values.of(0) | Values.range(3, 4) | Values.of(9)) == "0, 3..4 and 9"
    assert describe(Values.range(1, 6) + Values.range(1, float("inf"))) == "2 or more"
    assert describe(ANY) == "any number" and describe(Values()) == "no value"
    assert Values.of(0, 1).truth() == "maybe" and Values.of(0).truth() == "never" and Values.range(1, 3).truth() == "always"


# ───────────────────────────── tables ─────────────────────────────


TABLE_CALLED = """
procedure go(x: bool) [5.0] {{
  lookup r = t({args}) [5.0]
}}
sequence [6.0] {{
  phase p [6.0] {{
    step s [6.1] {{
      call go(true) [6.1]
      call go(false) [6.1]
    }}
  }}
}}
"""


def test_a_gap_between_rows_reachable_only_with_modifiers_is_a_warning(tmp_path, capsys):
    code, out, _ = check(tmp_path, """
table t(rough: bool) "T" [5.1] {
  roll 1 d6
  modifier rough: +3 when rough [5.2]
  1..6 -> calm "Calm" [5.3]
  8..9 -> gale "Gale" [5.4]
  beyond: clamp [5.5]
}
""" + TABLE_CALLED.format(args="x"), capsys)
    assert code == 0  # the unmodified roll has a row for every face: the checker accepts it
    message = one(heads(out, "warning"), "table t [5.1]")
    assert "the modified roll ranges over 1..9 (1d6 1..6; rough +3 when rough)" in message
    assert "rows cover 1..6 and 8..9" in message
    assert "7 is between rows and no row covers it: the run stops there whatever the 'beyond' policy" in message


def test_overlapping_rows_are_an_error_and_no_analysis_runs(tmp_path, capsys):
    code, out, err = check(tmp_path, """
table t "T" [5.1] {
  roll 1 d6
  1..4 -> calm "Calm" [5.3]
  4..6 -> gale "Gale" [5.4]
}
""", capsys)
    assert code == 1
    assert "error: row 4..6 overlaps row 1..4" in err
    assert "note:" not in out and "analysis:" not in out  # the analysis runs only on a ruleset that checks clean


def test_a_row_no_roll_can_reach_is_a_warning(tmp_path, capsys):
    code, out, _ = check(tmp_path, """
table t(x: bool) "T" [5.1] {
  roll 1 d6
  modifier x: -1 when x [5.2]
  1..6 -> calm "Calm" [5.3]
  7 -> gale "Gale" [5.4]
  beyond: clamp [5.5]
}
""" + TABLE_CALLED.format(args="x"), capsys)
    assert code == 0
    assert one(heads(out, "warning"), "row 7") == "row 7 -> gale [5.4] of table t can never be read: the modified roll ranges over 0..6"
    # Row 1 is read by the 0 that 'beyond: clamp' reads as the nearest row: it is reachable.
    assert not [m for m in heads(out, "warning") if "row 1..6" in m]


@pytest.mark.parametrize("policy, severity, verdict", [
    ("clamp", "note", "0 and 7..8 are read as the nearest row by 'beyond: clamp' [5.5]"),
    ("no_effect", "note", "0 and 7..8 have no effect by 'beyond: no_effect' [5.5]"),
    ("unresolved", "warning", "0 and 7..8 are beyond the rows and 'beyond: unresolved' [5.5] stops the run there"),
])
def test_the_beyond_policy_covers_the_values_past_the_rows_or_not(tmp_path, capsys, policy, severity, verdict):
    _, out, _ = check(tmp_path, f"""
table t(n: int) "T" [5.1] {{
  roll 1 d6
  modifier n: n [5.2]
  1..6 -> calm "Calm" [5.3]
  beyond: {policy} [5.5]
}}
procedure go(x: bool) [5.0] {{
  lookup r = t(-1) [5.0]
  lookup r2 = t(if x then 2 else 0) [5.0]
}}
""", capsys)
    message = one(heads(out, severity), "table t [5.1]")
    assert "the modified roll ranges over 0..8 (1d6 1..6; n -1..0 and 2)" in message
    assert message.endswith(verdict)
    assert "n: -1..0 and 2, from -1 in procedure go [5.0]; if x then 2 else 0 in procedure go [5.0]" in out


def test_a_policy_never_needed_is_said_so(tmp_path, capsys):
    _, out, _ = check(tmp_path, """
table t(n: int) "T" [5.1] {
  roll 1 d6
  modifier n: n when n > 0 [5.2]
  1..9 -> calm "Calm" [5.3]
  beyond: unresolved [5.5]
}
procedure go() [5.0] {
  lookup r = t(3) [5.0]
}
""", capsys)
    message = one(heads(out, "note"), "table t [5.1]")
    assert message.endswith("every value it can take has a row ('beyond: unresolved' [5.5] is never needed)")


def test_a_stat_read_is_bounded_by_its_printed_values(tmp_path, capsys):
    _, out, _ = check(tmp_path, """
function best(l: list) [5.0] = max([0] + [u.gun for u in l])
table t(n: int) "T" [5.1] {
  roll 1 d6
  modifier n: n when n > 0 [5.2]
  1..6 -> calm "Calm" [5.3]
  beyond: clamp [5.5]
}
procedure go(l: list) [5.0] {
  lookup r = t(best(l)) [5.0]
}
""", capsys)
    assert "the modified roll ranges over 1..11 (1d6 1..6; n 2..5 when n > 0)" in one(heads(out, "note"), "table t [5.1]")
    assert "'gun' is printed 2..5 (frigate 2, BIG 5); not printed ('?') for ODD, taken to lie within that range" in out


def test_a_bound_that_cannot_be_known_is_a_note_not_a_warning(tmp_path, capsys):
    _, out, _ = check(tmp_path, """
table t(n: int) "T" [5.1] {
  roll 1 d6
  modifier n: n when n > 0 [5.2]
  1..6 -> calm "Calm" [5.3]
  beyond: unresolved [5.5]
}
procedure go(n: int) [5.0] {
  lookup r = t(n) [5.0]
}
""", capsys)
    message = one(heads(out, "note"), "table t [5.1]")
    assert "ranges over 1 or more (1d6 1..6; n 1 or more when n > 0)" in message and "its bound is not known" in message
    assert "no rule calls procedure 'go', so its 'n' can be any value a scenario gives" in out
    assert not [m for m in heads(out, "warning") if "table t" in m]


# ───────────────────────────── reachability and unused names ─────────────────────────────


def test_unused_function_is_a_warning_and_unreachable_procedure_a_note(tmp_path, capsys):
    code, out, _ = check(tmp_path, """
function spare(x: int) [7.0] = x + 1
function used(x: int) [7.1] = x * 2
procedure helper() [7.2] {
  say "helper"
}
procedure entry_point() [7.3] {
  call helper() [7.3]
}
procedure turn_work() [7.4] {
  say "{used(2)}"
}
sequence [6.0] {
  phase p [6.0] {
    step s [6.1] { call turn_work() [6.1] }
  }
}
""", capsys)
    assert code == 0  # neither is an error
    warnings, notes = heads(out, "warning"), heads(out, "note")
    assert one(warnings, "spare") == "function 'spare' [7.0] is used by no rule"
    assert not [m for m in warnings + notes if "'used'" in m or "turn_work" in m]
    assert one(notes, "'entry_point'") == ("procedure 'entry_point' [7.3] is reachable only from scenarios: no step of the "
                                           "sequence of play and no hook leads to it (no rule calls it)")
    assert "only procedure entry_point [7.3] leads to it, and nothing reaches that" in one(notes, "'helper'")
    assert "analysis: 0 table(s), 0 with modifiers; 1 of 3 procedure(s) reachable" in out


def test_hooks_and_table_rows_make_procedures_reachable(tmp_path, capsys):
    _, out, _ = check(tmp_path, """
procedure on_loss(u: unit) [8.0] { say "{u} lost" }
procedure storm_effect() [8.1] { say "storm" }
on eliminated(u) [8.0] { call on_loss(u) [8.0] }
table weather "Weather" [8.2] {
  roll 1 d6
  1 -> storm "Storm" [8.2] { call storm_effect() [8.2] }
  2..6 -> fair "Fair" [8.2]
}
on turn_start() [8.3] { lookup w = weather() [8.3] }
""", capsys)
    assert "reachable only from scenarios" not in out
    assert "2 of 2 procedure(s) reachable" in out


def test_states_stats_boxes_that_no_rule_uses(tmp_path, capsys):
    _, out, _ = check(tmp_path, """
state forgotten: bool [9.0]
state result_only: int [9.1]
unit state never_set: bool [9.2]
box limbo "limbo" [9.3]
procedure go() [9.4] {
  set result_only = 3
  if BIG.never_set { say "never" }
}
""", capsys)
    warnings, notes = heads(out, "warning"), heads(out, "note")
    assert one(warnings, "forgotten") == "game state 'forgotten' [9.0] is neither read nor set by any rule"
    assert one(notes, "result_only") == "game state 'result_only' [9.1] is set but no rule reads it"
    assert one(notes, "never_set").startswith("unit state 'never_set' [9.2] is read but no rule sets it: it stays false")
    assert one(notes, "limbo") == "box 'limbo' [9.3] is used by no rule"
    assert one(notes, "stat 'gun'") == "stat 'gun' [2.1] is read by no rule"


# ───────────────────────────── decisions ─────────────────────────────


def test_a_decision_with_a_constant_empty_list_of_options_is_a_warning(tmp_path, capsys):
    _, out, _ = check(tmp_path, """
procedure go(s: side) [10.0] {
  let nothing = []
  choose pick by s from nothing "pick one" [10.1]
  choose maybe_pick by s from [] may "pick one or none" [10.2]
  choose pair by s from [1, 2] exactly 3 "pick three" [10.3]
  choose fine by s from [1, 2] exactly 2 "pick two" [10.4]
  choose also_fine by s from [u for u in all_units() where u.side == s] "pick a unit" [10.5]
}
""", capsys)
    warnings = heads(out, "warning")
    assert one(warnings, "'pick'") == "decision 'pick' [10.1] in procedure go [10.0] has no option: the run stops whenever it is reached"
    assert one(warnings, "'maybe_pick'") == "decision 'maybe_pick' [10.2] in procedure go [10.0] has no option: it is always declined"
    assert one(warnings, "'pair'").endswith("asks for exactly 3 of its 2 option(s): it never has a legal answer, so the run stops whenever it is reached")
    assert not [m for m in warnings if "fine" in m]


# ───────────────────────────── the real ruleset ─────────────────────────────


@pytest.fixture(scope="module")
def jenkins_ear():
    """What `umpire check rulesets/jenkins_ear.rules` finds, as diagnostics (with its demo data, as check reads it)."""
    from interpreter.cli.check import check_rules

    diags, summary = check_rules(str(ROOT / "rulesets" / "jenkins_ear.rules"), Sources())
    assert not [d for d in diags if d.severity == "error"]
    analysis = [line for line in summary if line.startswith("analysis: ")]
    assert len(analysis) == 1, summary
    return diags, analysis


def test_jenkins_ear_perilous_sea_range_is_read_by_its_clamp_ruling(jenkins_ear):
    diags, _ = jenkins_ear
    note = next(d for d in diags if d.message.startswith("table perilous_sea [6.3]"))
    assert note.severity == "note"
    assert "the modified roll ranges over 0..9 (1d6 1..6; storm -1 when storm; admiral 1..3 when admiral > 0)" in note.message
    assert note.message.endswith("rows cover 1..6; 0 and 7..9 are read as the nearest row by 'beyond: clamp' [A-05]")
    assert any(line.startswith("admiral: 0..3, from admiral_bonus(stack) in procedure move_stack") for line in note.notes)
    assert any("'naval_tactics' is printed 1..3 (OGLE 3, PIZARRO 1, REGGIO 1)" in line for line in note.notes)


def test_jenkins_ear_has_no_analysis_warning(jenkins_ear):
    """Every procedure is reachable, every table read past its rows has a ruling, no name is unused."""
    diags, summary = jenkins_ear
    checker = ("needs the missing table", "is declared but not encoded yet")  # the checker's own warnings, not the analysis's
    assert [d.message for d in diags if d.severity == "warning" and not any(c in d.message for c in checker)] == []
    assert not [d.message for d in diags if "reachable only from scenarios" in d.message]
    procedures = summary[0].split("; ")[1].split()
    assert procedures[0] == procedures[2], summary  # "N of N procedure(s) reachable ..."
    # The one state no rule sets: true of the ruleset (4.0 Important, documented in economy.rules).
    assert [d.message for d in diags if "is read but no rule sets it" in d.message] == [
        "unit state 'outside_seaport' [4.0] is read but no rule sets it: it stays false unless a scenario gives it a value"
    ]


def test_check_prints_the_analysis_of_jenkins_ear(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", "rulesets/jenkins_ear.rules"]) == 0
    out, err = capsys.readouterr()
    assert re.search(r"^rulesets/jenkins_ear\.rules:\d+:1: note: table perilous_sea \[6\.3\]: the modified roll ranges over 0\.\.9 ", err, re.M)
    # The declared-missing data is still listed, with the demo data that supplies it; the steps
    # that read it are checked with the demo data, as 'play' reads the rules: they wait for nothing.
    assert ("missing table 'storm_location': the Storm Location Table, printed on the map [6.2; 8.0]; supplied by "
            "rulesets/jenkins_ear/demo.rules:35, not the published data") in out
    assert "until a data file supplies them" not in err
    assert "analysis: 4 table(s), 2 with modifiers" in out
    assert out.rstrip().splitlines()[-1] == "rulesets/jenkins_ear.rules: 0 error(s), 0 warning(s), 5 note(s)"


# ───────────────────────────── soundness of the bounds ─────────────────────────────

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def arithmetic():
    """Expressions over the parameter n, as rules text and as a Python function of n (None: a rule error)."""
    def lift(f):
        return lambda *xs: None if any(x is None for x in xs) else f(*xs)

    leaves = st.one_of(st.integers(-5, 9).map(lambda c: (str(c), lambda n, c=c: c)), st.just(("n", lambda n: n)))

    def extend(inner):
        binary = st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%"]), inner).map(lambda t: (
            f"({t[0][0]} {t[1]} {t[2][0]})",
            lambda n, a=t[0][1], op=t[1], b=t[2][1]: lift(lambda x, y: {
                "+": lambda: x + y, "-": lambda: x - y, "*": lambda: x * y,
                "/": lambda: x // y if y else None, "%": lambda: x % y if y else None}[op]())(a(n), b(n))))
        pick = st.tuples(st.sampled_from(["min", "max"]), inner, inner).map(lambda t: (
            f"{t[0]}({t[1][0]}, {t[2][0]})", lambda n, f=t[0], a=t[1][1], b=t[2][1]: lift(min if f == "min" else max)(a(n), b(n))))
        listed = st.tuples(st.sampled_from(["min", "max"]), st.lists(inner, min_size=1, max_size=3)).map(lambda t: (
            f"{t[0]}([{', '.join(x[0] for x in t[1])}])",
            lambda n, f=t[0], xs=t[1]: lift(lambda *v: (min if f == "min" else max)(v))(*(x[1](n) for x in xs))))
        cond = st.tuples(inner, st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), inner, inner, inner).map(lambda t: (
            f"(if {t[0][0]} {t[1]} {t[2][0]} then {t[3][0]} else {t[4][0]})",
            lambda n, a=t[0][1], op=t[1], b=t[2][1], x=t[3][1], y=t[4][1]: (
                None if a(n) is None or b(n) is None else
                (x(n) if {"<": a(n) < b(n), "<=": a(n) <= b(n), ">": a(n) > b(n), ">=": a(n) >= b(n),
                          "==": a(n) == b(n), "!=": a(n) != b(n)}[op] else y(n)))))
        negated = inner.map(lambda t: (f"(-{t[0]})", lambda n, a=t[1]: lift(lambda x: -x)(a(n))))
        return st.one_of(binary, pick, listed, cond, negated)

    return st.recursive(leaves, extend, max_leaves=6)


@settings(max_examples=60, deadline=None)
@given(expr=arithmetic(), passed=st.lists(st.integers(-4, 7), min_size=1, max_size=3))
def test_the_bounds_contain_every_value_the_rules_can_produce(tmp_path_factory, expr, passed):
    """Every value an expression takes for the arguments the callers pass lies in its computed bounds."""
    from interpreter.check.analysis import Analysis
    from interpreter.check.bounds import Ctx
    from interpreter.load import load_rules

    text, fn = expr
    path = tmp_path_factory.mktemp("bounds") / "b.rules"
    calls = "\n".join(f"  lookup r{i} = t({v}) [5.0]" for i, v in enumerate(passed))
    path.write_text(HEADER + f"""
table t(n: int) "T" [5.1] {{
  roll 1 d6
  modifier m: {text} [5.2]
  -100000..100000 -> any "Any" [5.3]
  beyond: clamp [5.4]
}}
procedure go() [5.0] {{
{calls}
}}
""", encoding="utf-8")
    loaded = load_rules(str(path), Sources())
    assert not loaded.errors, [d.message for d in loaded.errors]
    analysis = Analysis(loaded.symbols)
    table = loaded.symbols.tables["t"]
    computed = analysis.bounds.expr(table.modifiers[0].value, Ctx(analysis.by_key[("table", "t")], {}, []))
    for v in passed:
        actual = fn(v)
        if actual is not None:
            assert actual in computed, (text, v, actual, str(computed))
    analysis.run()  # and the whole analysis goes through without an exception
