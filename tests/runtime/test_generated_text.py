"""The generated code as a reader sees it: each function named after the rule it comes from, laid out one
part of a bracket a line (the same code as the one-line text), and written out by UMPIRE_SHOW_GENERATED;
and the one caller of ruleset functions builds the frame bind_args builds, for every shape of call."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.execution import generated_code
from interpreter.runtime.execution.calls import bind_args, frame_slots
from interpreter.runtime.execution.layout import WIDTH, laid_out
from interpreter.runtime.games.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources, UmpireError

ROOT = Path(__file__).resolve().parent.parent.parent
TOYS = sorted((ROOT / "tests" / "lang").glob("*.scenario"))


def run_toys(monkeypatch, bodies: list[str] | None = None) -> list[tuple[str, str]]:
    """Every (name, expression text) generated while the toy games' scenarios run; the names of the bodies
    written (generated_code.body) added to `bodies`."""
    monkeypatch.chdir(ROOT)
    made: list[tuple[str, str]] = []
    source, body_source = generated_code.source, generated_code.body_source
    monkeypatch.setattr(generated_code, "source", lambda name, written: made.append((name, written)) or source(name, written))
    if bodies is not None:
        monkeypatch.setattr(generated_code, "body_source", lambda name, written: bodies.append(name) or body_source(name, written))
    monkeypatch.setattr(generated_code, "_CODE", {})  # every text compiled again, so seen
    for path in TOYS:
        sources = Sources()
        try:
            scenario = load_scenario(str(path.relative_to(ROOT)), sources)
            loaded = load_scenario_rules(scenario, sources)
        except UmpireError:  # a toy whose files are refused: nothing is generated
            continue
        if not any(d.severity == "error" for d in loaded.errors):
            run_scenario(scenario, loaded.symbols, sources)
    return made


def test_laid_out_code_is_the_one_line_code(monkeypatch):
    source = generated_code.source
    made = run_toys(monkeypatch)
    long = [(name, w) for name, w in made if len(w) > WIDTH]
    assert len(made) > 50 and long
    for name, written in made:
        assert ast.dump(ast.parse(generated_code.readable(name, written))) == ast.dump(ast.parse(source(name, written)))
    for name, written in long:  # one bracket's part a line: long texts become many short lines
        lines = generated_code.readable(name, written).splitlines()
        assert len(lines) > 3
        assert sum(len(line) <= WIDTH for line in lines) >= 0.9 * len(lines)


def test_a_long_expression_breaks_at_its_brackets_parts():
    text = "(_t1 if (_t1 := env['strength_of_the_attacking_force']) > 3 else _c0(_t1, 'strength', _c1, _c2, _c3))"
    assert laid_out(text, 4) == (
        "(\n"
        "        _t1\n"
        "        if (_t1 := env['strength_of_the_attacking_force']) > 3\n"
        "        else _c0(_t1, 'strength', _c1, _c2, _c3)\n"
        "    )"
    )
    assert laid_out("_c0(env)", 4) == "_c0(env)"  # what fits stays on its line


def test_functions_are_named_after_their_rule(monkeypatch):
    bodies: list[str] = []
    names = {name for name, _ in run_toys(monkeypatch, bodies)}
    assert "reinforce__body" in bodies  # procedure reinforce's body, its statements in it (tests/lang/parts/unsequenced.rules)
    assert "supply_sources__5_1" in names  # function supply_sources, cited 5.1
    assert generated_code.function_name("green", "9.1") == "green__9_1"
    assert generated_code.function_name("row_crt_1_2", None) == "row_crt_1_2__"
    assert generated_code.function_name(None, "9.1 (a) é") == "expression__9_1_a_"
    assert generated_code.function_name("_x", "1") == "r_x__1"


def test_the_generated_source_is_written_where_the_variable_says(monkeypatch, tmp_path):
    shown = tmp_path / "generated.py"
    monkeypatch.setenv(generated_code.SHOW_VARIABLE, str(shown))
    run_toys(monkeypatch)
    text = shown.read_text(encoding="utf-8")
    ast.parse(text)  # the file is Python
    assert text.count("\ndef ") > 100
    assert "def reinforce__body(_p, _f):" in text and "def supply_sources__5_1(env):" in text
    assert "# tests/lang/parts/unsequenced.rules:" in text  # where in the rules each function comes from


@pytest.mark.parametrize("names", [(), (None,), (None, None), (None, None, None, None), ("b",), (None, "c"),
                                   (None, "a"), ("a", "a"), (None, "c", None), ("c", "b", "a")])
def test_the_callers_frame_is_the_frame_bind_args_builds(names):
    params = ["a", "b", "c"]
    values = [f"v{i}" for i in range(len(names))]
    keys, slots = frame_slots(list(params), names)
    frame = {}
    for key, slot in zip(keys, slots, strict=True):
        frame[key] = values[slot]
    expected = bind_args(params, list(zip(names, values, strict=True)))
    assert frame == expected and list(frame) == list(expected)
