"""A game runs with fewer full sweeps of Python's collector of reference cycles (runtime/games/play.py):
raised while the game plays, as it was once the game ends, even when it stops on an error."""

from __future__ import annotations

import gc
from pathlib import Path

from interpreter.runtime.games import play as played
from interpreter.study import Spec, prepared

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_collector_sweeps_everything_less_often_during_a_game_only(monkeypatch):
    monkeypatch.chdir(ROOT)
    sym, sources, setup = prepared(Spec("tests/lang/secret.rules", ("random", "random")))
    before = gc.get_threshold()
    seen = []

    def watch(engine, label):
        seen.append(gc.get_threshold())

    game = played.play(sym, sources, setup, 3, ["random", "random"], watch=watch)
    assert game.error is None
    assert seen and all(t == (*before[:2], max(before[2], played.FULL_SWEEP_AFTER)) for t in seen)
    assert gc.get_threshold() == before

    def stops(engine, label):
        raise played.RuleError("stopped by the test", None)

    game = played.play(sym, sources, setup, 3, ["random", "random"], watch=stops)
    assert game.error is not None and "stopped by the test" in game.error.message
    assert gc.get_threshold() == before
