"""Fuzzing loaded saves: whatever a hand (or a hostile opponent) does to a save's fields, loading it
ends in the game resumed or a refusal, never an internal error or a traceback.

Each example replaces, deletes or retypes one or two fields of a real save (a game of the Example
of Play's combat step suspended after 3 decisions) with values of every TOML type. The example
count keeps this file to a few seconds; UMPIRE_FUZZ_SCALE=10 (or more) hunts longer.
"""

from __future__ import annotations

import contextlib
import io
import os
import tomllib
from pathlib import Path

import pytest
import tomli_w
from fuzzing import SCALE, cli, leaves
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
SETUP = "scenarios/jenkins_ear/eop_combat_step.scenario"
FIELDS = ["format", "seed", "agents", "decisions", "events", "narration", "typed", "file", "root", "overlays",
          "errata", "scenario", "applied", "links"]

toml_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.text(max_size=30)
    | st.sampled_from(["../../../etc/passwd", "/dev/zero", "rulesets/jenkins_ear.rules", "x.rules", "", "."]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@pytest.fixture(scope="module")
def base_save(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz_saves")
    save = folder / "base.toml"
    before = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert main(["play", SETUP, "--seed", "2", "--save", str(save), "--stop-after", "3"]) == 0
    finally:
        os.chdir(before)
    return save


def _drop_none(value):
    if isinstance(value, list):
        return [_drop_none(v) for v in value if v is not None]
    if isinstance(value, dict):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    return value


@settings(max_examples=25 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.sampled_from(FIELDS + ["state.turn", "state.units"]), toml_values),
                      min_size=1, max_size=2))
def test_a_tampered_save_is_resumed_or_refused_never_a_crash(base_save, tmp_path, edits):
    data = tomllib.loads(base_save.read_text())
    for field, value in edits:
        table = data["state"] if field.startswith("state.") else data["umpire_save"]
        key = field.removeprefix("state.")
        if value is None:
            table.pop(key, None)
        else:
            table[key] = _drop_none(value)
    code, text = _load(tmp_path, data)
    assert "Traceback" not in text and "internal error" not in text, (edits, text[-2000:])
    assert code in (0, 1), (edits, code, text[-2000:])
    assert "root:x:0:0" not in text, "no other file's content is ever shown"


POSITION_FIELDS = ["clock", "units", "places", "tracks", "globals", "facts", "stack", "waiting", "deferred", "depth",
                   "steps", "format"]
GOES_ON_FIELDS = ["segment", "dice", "agents"]


@settings(max_examples=25 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.sampled_from([f"position.{f}" for f in POSITION_FIELDS]
                                                 + [f"goes_on.{f}" for f in GOES_ON_FIELDS]), toml_values),
                      min_size=1, max_size=2),
       deep=st.lists(st.tuples(st.integers(0, 10**6), toml_values), max_size=2))
def test_a_tampered_position_is_resumed_or_refused_never_a_crash(base_save, tmp_path, edits, deep):
    """The position a save stores, and what it goes on from: whole fields retyped, and values deep in
    the position (a frame's locals, a unit's record) replaced."""
    data = tomllib.loads(base_save.read_text())
    for field, value in edits:
        table, key = field.split(".")
        if value is None:
            data[table].pop(key, None)
        else:
            data[table][key] = _drop_none(value)
    paths = list(leaves(data.get("position", {}), ("position",)))
    for index, value in deep:
        if paths and value is not None:
            path = paths[index % len(paths)]
            holder = data
            for k in path[:-1]:
                holder = holder[k]
            holder[path[-1]] = _drop_none(value)
    code, text = _load(tmp_path, data)
    assert "Traceback" not in text and "internal error" not in text, (edits, deep, text[-2000:])
    assert code in (0, 1), (edits, code, text[-2000:])


def _load(tmp_path: Path, data: dict) -> tuple[int, str]:
    """Write the save and load it from the repository's root: the exit code and everything printed."""
    save = tmp_path / "tampered.toml"
    save.write_text(tomli_w.dumps(data))
    before = os.getcwd()
    os.chdir(ROOT)
    try:
        return cli("play", "--load", str(save))
    finally:
        os.chdir(before)
