"""The cache of ruleset function values (engine.py, `Engine.MEMO`) changes nothing but speed:
whole games give the same narration, line for line, with and without it."""

from __future__ import annotations

import contextlib
import io

import pytest

from interpreter.cli import main
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.execution.memo_keys import memo_key


def narrate(args: list[str], memo: bool, monkeypatch) -> str:
    monkeypatch.setattr(Engine, "MEMO", memo)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(args) == 0
    return out.getvalue()


@pytest.mark.parametrize("args", [
    ["play", "rulesets/guerra_a_muerte.rules", "--scenario", "opening_guns", "--seed", "3", "--agents", "random,random"],
    ["play", "rulesets/jenkins_ear.rules", "--seed", "2", "--agents", "eager,eager"],
], ids=["guerra_a_muerte", "jenkins_ear"])
def test_a_game_is_the_same_with_and_without_the_cache(args, monkeypatch):
    cached = narrate(args, True, monkeypatch)
    plain = narrate(args, False, monkeypatch)
    assert cached.splitlines()[-1].startswith("[")  # a real game, to its end
    assert cached == plain


def test_cache_keys_compare_lists_by_items_and_keep_true_apart_from_1():
    assert memo_key("f", [None], [[1, 2]]) == memo_key("f", [None], [[1, 2]])
    assert memo_key("f", [None], [[1, 2]]) != memo_key("f", [None], [[2, 1]])
    assert memo_key("f", [None], [True]) != memo_key("f", [None], [1])
    assert memo_key("f", [None], [{"a": 1}]) is None  # a map is not cached
