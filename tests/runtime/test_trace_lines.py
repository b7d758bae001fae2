"""A trace line (`Event`): a plain run's lines made by `Engine.trace` itself, every other line by `Event`,
the same fields either way, and neither keeps a control character of the rules' text raw, in its
text or in its citation (tests/commands/test_control_characters.py runs the commands)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from interpreter.load import load_rules, load_scenario, rules_path_for
from interpreter.runtime.common.values import MISSING, Die, Place, Pool, Record, Unit, X, show
from interpreter.runtime.execution.engine import Event
from interpreter.runtime.games.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
ESCAPES = ROOT / "tests" / "lang" / "escapes.rules"


def _bell_cited(tmp_path: Path) -> Path:
    """tests/lang/escapes: its `say` cited `[2.1 <BEL>bell]`, a citation that holds a control character."""
    with ESCAPES.open(newline="") as f:  # its CR is part of a string
        rules = f.read()
    start = rules.index("      say ")
    end = rules.index("[2.1]\n", start) + len("[2.1]\n")
    (tmp_path / "escapes.rules").write_text(rules[:start] + '      say "plain" [2.1 \x07bell]\n' + rules[end:], newline="")
    scenario = (ROOT / "tests" / "lang" / "escapes.scenario").read_text()
    (tmp_path / "escapes.scenario").write_text(scenario)
    return tmp_path / "escapes.scenario"


@pytest.mark.parametrize("explain", [False, True], ids=["plain", "explained"])
def test_a_citations_control_character_is_shown_escaped_in_its_line(tmp_path, explain):
    sources = Sources()
    sc = load_scenario(str(_bell_cited(tmp_path)), sources)
    sym = load_rules(rules_path_for(sc), sources).symbols
    out = run_scenario(sc, sym, sources, explain=explain)
    said = [e for e in out.events if e.text == "plain"]
    assert [e.cite for e in said] == ["2.1 \\x07bell"]
    assert said[0].line() == "[2.1 \\x07bell] plain"
    assert (said[0].where is not None) is explain


def test_a_line_made_by_hand_is_cleaned_and_reads_by_its_fields():
    event = Event("9.3\x1b", "red \x07 shouts", "departure", clock=(2, "combat", None), removed=("9.1",))
    assert (event.cite, event.text, event.kind) == ("9.3\\x1b", "red \\x07 shouts", "departure")
    assert (event.where, event.within, event.consulted, event.touched, event.trigger) == (None, (), (), (), None)
    assert (event.clock, event.removed, event.detail) == ((2, "combat", None), ("9.1",), False)
    assert Event("9.1", "x", "record").detail
    assert pickle.loads(pickle.dumps(event)) == event  # a study's workers send lines back as they are


def test_show_reads_every_kind_of_value_and_what_derives_from_it():
    """`show`, the text of a value in a line: its common kinds are read first, by their class; a value of
    a class derived from one reads as that kind does."""
    unit, place = Unit("ES1", "soldiers", "land", "english"), Place("3018", "hex")
    one, faces = Pool([Die(3, "land")], "land"), Pool([Die(3, "land"), Die(1, "land")], "land")
    record = Record("hit", {"by": unit, "at": [place, None], "sunk": True})

    class Text(str):
        pass

    class Number(int):
        pass

    class Faces(Pool):
        pass

    class Items(list):
        pass

    class Pairs(tuple):
        pass

    shown = [show(v) for v in ("english", 7, unit, place, one, faces, Pool([], "none"), True, False, None, X, MISSING,
                               Die(5, "x"), [Die(2, "x"), 3], [unit, "x", 2, None], (1, place), {"a": unit, 2: [True]},
                               {}, record, Text("t"), Number(4), Faces([Die(6, "y")], "y"), Faces([], "y"),
                               Items([Die(1, "z")]), Items([unit]), Pairs((unit,)), 1.5)]
    assert shown == ["english", "7", "ES1", "3018", "3", "[3, 1]", "[]", "yes", "no", "none", "X", "?",
                     "5", "[2, 3]", "[ES1, x, 2, none]", "[1, 3018]", "{a: ES1, 2: [yes]}",
                     "{}", "hit(by: ES1, at: [3018, none], sunk: yes)", "t", "4", "6", "[]",
                     "[1]", "[ES1]", "[ES1]", "1.5"]
    assert all(type(text) is str for text in shown)
