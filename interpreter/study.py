"""``umpire study``: many whole games, on every core or on a cluster, summed up.

A study plays seeds ``first .. first + N - 1`` of one game (its rules or a scenario, its
overlays, one agent kind per side), each exactly as ``umpire play --seed S`` would, and
reports what the user asks of them: the outcome (who won), game lengths, and recorded facts.
Every game depends on its seed alone, so the per-seed results are the same whether the games
run in this process, in several, or on a cluster's workers (``tests/commands/test_study.py`` compares
them). The statistics and the pictures are in ``study_report.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

CLUSTER_TIMEOUT = 20  # seconds to reach a cluster's scheduler before giving up


@dataclass(frozen=True)
class Spec:
    """What every game of a study shares: plain strings, so a worker process or a cluster's
    worker can be sent it and load the game itself."""

    path: str
    kinds: tuple[str, ...]
    overlays: tuple[str, ...] = ()
    errata: bool = True
    choice: str | None = None
    outcome: str | None = None  # a game state or a recorded fact: who won
    facts: tuple[str, ...] = ()  # other game states, tracks (funds[red]) or facts to report
    allowed: tuple[str, ...] = ()  # folders the files may come from (--allow-path), as the command line gave


@dataclass
class Result:
    """One game of a study, as plain data (a CSV row, a JSON object)."""

    seed: int
    outcome: str | None = None
    turns: int = 0
    decisions: int = 0
    error: str | None = None
    facts: dict[str, str] = field(default_factory=dict)


@functools.lru_cache(maxsize=4)
def prepared(spec: Spec):
    """The checked ruleset and the set-up, loaded once per process (each worker loads its own)."""
    from . import files
    from .load import game_to_play
    from .syntax.diagnostics import Sources

    sources = Sources()
    box = files.Sandbox.for_run([spec.path, *spec.overlays], files.allowed_folders(spec.allowed))
    with files.sandbox(box):
        # Every game of the study is set up on an engine of its own: the check's set-up is not played.
        scenario, loaded, _ = game_to_play(spec.path, sources, list(spec.overlays), spec.errata, spec.choice)
    return loaded.symbols, sources, scenario


@functools.lru_cache(maxsize=4)
def kept_engine(spec: Spec):
    """The engine every game of the study plays on in this process, made ready again for each
    (`play.again`): the rules are lowered to Python once per process, not once per game."""
    from .runtime.execution.engine import Engine

    return Engine(prepared(spec)[0])


def one_game(spec: Spec, seed: int) -> Result:
    """Seed `seed` of the study, played without narration (what it measures does not need it), on
    the process's kept engine."""
    from .runtime.common.values import show
    from .runtime.games.play import play

    sym, sources, scenario = prepared(spec)
    game = play(sym, sources, scenario, seed, list(spec.kinds), narrate=False, engine=kept_engine(spec))
    final = game.final
    result = Result(seed=seed, turns=final.get("turn", 0), decisions=final.get("decisions", 0))
    if game.error is not None:
        result.error = game.error.message
    read = {**final.get("tracks", {}), **final.get("globals", {}), **final.get("facts", {})}
    if spec.outcome is not None:
        value = read.get(spec.outcome)
        result.outcome = "none" if value is None else show(value)
    result.facts = {name: ("none" if read.get(name) is None else show(read[name])) for name in spec.facts}
    return result


def run_games(spec: Spec, seeds: list[int], workers: int = 1, cluster: str | None = None,
              progress: Callable[[int], None] = lambda done: None) -> list[Result]:
    """Every seed's game, in seed order, on `workers` local processes or on the Dask cluster at
    `cluster`; `progress` is called with the number of games done after each one."""
    if cluster is not None:
        results = _on_cluster(spec, seeds, cluster, progress)
    elif workers > 1 and len(seeds) > 1:
        results = _on_processes(spec, seeds, workers, progress)
    else:
        results = []
        for seed in seeds:
            results.append(one_game(spec, seed))
            progress(len(results))
    return sorted(results, key=lambda r: r.seed)


def _on_processes(spec: Spec, seeds: list[int], workers: int, progress) -> list[Result]:
    import multiprocessing

    prepared(spec)  # loaded before the workers fork, so that none loads it again
    # Small chunks keep both cores busy to the end; a game is a few tenths of a second.
    chunk = max(1, min(8, len(seeds) // (workers * 8)))
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        results = []
        for result in pool.imap_unordered(functools.partial(one_game, spec), seeds, chunksize=chunk):
            results.append(result)
            progress(len(results))
    return results


def _on_cluster(spec: Spec, seeds: list[int], address: str, progress) -> list[Result]:
    """Dask's distributed scheduler: each worker loads the game once (``prepared`` is cached per
    worker process) and plays the seeds it is given; the files must be at the same paths there."""
    from dask.distributed import Client, as_completed

    with Client(address, timeout=CLUSTER_TIMEOUT) as client:
        futures = client.map(one_game, [spec] * len(seeds), seeds, pure=False)
        results = []
        for future in as_completed(futures):
            results.append(future.result())
            progress(len(results))
    return results


def seeds_of(first: int, games: int) -> list[int]:
    return list(range(first, first + games))

