"""Shared test fixtures: syrupy extensions that store traces as readable .trace files.

A game's scenario has its reviewed trace beside it, ``scenarios/<game>/traces/<stem>.trace``
(``ScenarioTrace``); the toy game's traces stay in ``tests/__snapshots__/test_language/``
(``TraceSnapshot``).

The suite has a cache of loads of its own (interpreter/cache.py): a fresh folder for the session,
removed at its end, so that it neither reads nor fills the user's cache (``UMPIRE_CACHE=off``
in the environment runs the suite with the cache off).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from syrupy.data import Snapshot, SnapshotCollection, SnapshotCollections
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from syrupy.location import PyTestLocation

ROOT = Path(__file__).resolve().parent.parent
_CACHE: list[str] = []  # the session's cache folder, once made


def pytest_configure(config) -> None:
    """The session's own cache of loads, set before any test module is imported; no colour forced
    on from the environment (a CI's FORCE_COLOR would colour the outputs the goldens hold)."""
    os.environ.pop("FORCE_COLOR", None)
    if os.environ.get("UMPIRE_CACHE", "").strip().lower() != "off":
        _CACHE.append(tempfile.mkdtemp(prefix="umpire-cache-"))  # mode 0700, as the cache asks
        os.environ["UMPIRE_CACHE"] = _CACHE[-1]


def pytest_unconfigure(config) -> None:
    for folder in _CACHE:
        shutil.rmtree(folder, ignore_errors=True)
SCENARIOS = ROOT / "scenarios"
TRACE_TEST = "test_scenario"  # the test that asserts every scenario's trace (tests/test_scenarios.py)


def trace_of(scenario: Path) -> Path:
    """Where a scenario's reviewed trace lives: the ``traces/`` folder beside it, under its stem."""
    return scenario.parent / "traces" / f"{scenario.stem}.trace"


class TraceSnapshot(SingleFileSnapshotExtension):
    """One plain-text file per scenario, reviewed as a diff like Catala's expected outputs."""

    _write_mode = WriteMode.TEXT
    file_extension = "trace"


class ScenarioTrace(TraceSnapshot):
    """A game scenario's trace, stored beside the scenario (``trace_of``), not under tests/.

    The file is found from the test's ``path`` parameter (the scenario). The snapshot keeps
    syrupy's usual name, ``test_scenario[<stem>]``, so ``-k`` selection still relates traces to
    tests. Discovery (what ``--snapshot-update`` may delete as unused) reports only orphans, traces
    whose scenario is gone: syrupy relates other snapshots to skipped or deselected tests by the
    test file's name, which a trace beside its scenario does not carry, so a trace whose scenario
    exists is never offered for deletion (its test, collected from the same folder, owns it).
    """

    @staticmethod
    def scenario_or_none(test_location: PyTestLocation) -> Path | None:
        params = getattr(getattr(test_location.item, "callspec", None), "params", {})
        return Path(params["path"]).resolve() if "path" in params else None

    @classmethod
    def scenario(cls, test_location: PyTestLocation) -> Path:
        path = cls.scenario_or_none(test_location)
        if path is None:
            raise TypeError(f"{test_location.nodeid}: a scenario trace needs the test's 'path' parameter")
        return path

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(trace_of(cls.scenario(test_location)).parent)

    @classmethod
    def get_file_basename(cls, *, test_location: PyTestLocation, index) -> str:
        if index:
            raise ValueError(f"{test_location.nodeid}: a scenario has one trace; assert it once")
        return cls.scenario(test_location).stem

    @classmethod
    def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(SCENARIOS)  # one scan for the whole session, whichever test asks

    @classmethod
    def matches_test_location(cls, *, test_location: PyTestLocation, snapshot_location: str) -> bool:
        scenario = cls.scenario_or_none(test_location)
        return scenario is not None and str(trace_of(scenario)) == snapshot_location

    def read_snapshot_collection(self, *, snapshot_location: str) -> SnapshotCollection:
        collection = SnapshotCollection(location=snapshot_location)
        collection.add(Snapshot(name=f"{TRACE_TEST}[{Path(snapshot_location).stem}]"))
        return collection

    def discover_snapshots(self, *, test_location: PyTestLocation, ignore_extensions=None) -> SnapshotCollections:
        discovered = SnapshotCollections()
        if self.file_extension in (ignore_extensions or ()):
            return discovered
        for trace in sorted(SCENARIOS.rglob(f"traces/*.{self.file_extension}")):
            if not (trace.parent.parent / f"{trace.stem}.scenario").is_file():
                discovered.add(self.read_snapshot_collection(snapshot_location=str(trace)))
        return discovered


@pytest.fixture
def trace_snapshot(snapshot):
    return snapshot.use_extension(TraceSnapshot)


@pytest.fixture
def scenario_trace(snapshot):
    return snapshot.use_extension(ScenarioTrace)
