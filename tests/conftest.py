"""Shared test fixtures: syrupy extensions that store traces as readable .trace files.

A game's scenario has its reviewed trace beside it, ``scenarios/<game>/traces/<stem>.trace``
(``ScenarioTrace``); the toy game's traces stay in ``tests/language/__snapshots__/test_language/``
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
TRACE_TEST = "test_scenario"  # the test that asserts every scenario's trace (tests/games/test_scenarios.py)
BAD = ROOT / "tests" / "bad"
BAD_SUFFIXES = (".rules", ".scenario", ".overlay")  # the malformed inputs whose diagnostics have goldens


def trace_of(scenario: Path) -> Path:
    """Where a scenario's reviewed trace lives: the ``traces/`` folder beside it, under its stem."""
    return scenario.parent / "traces" / f"{scenario.stem}.trace"


class TraceSnapshot(SingleFileSnapshotExtension):
    """One plain-text file per scenario, reviewed as a diff like Catala's expected outputs."""

    _write_mode = WriteMode.TEXT
    file_extension = "trace"


class BesideItsInput(SingleFileSnapshotExtension):
    """A reviewed output stored beside the input file it is the output of, not under tests/.

    The file is found from the test's ``path`` parameter (the input) by ``stored_at``. The snapshot
    keeps syrupy's usual name, ``TEST[<stem>]``, so ``-k`` selection still relates outputs to tests.
    Discovery (what ``--snapshot-update`` may delete as unused) reports only orphans, outputs whose
    input is gone: syrupy relates other snapshots to skipped or deselected tests by the test file's
    name, which a file beside its input does not carry, so an output whose input exists is never
    offered for deletion (its test, collected from the same folder, owns it).
    """

    _write_mode = WriteMode.TEXT
    test_name = ""  # the test that asserts each input's output
    inputs = ROOT  # the folder searched for orphans

    @classmethod
    def stored_at(cls, source: Path) -> Path:
        raise NotImplementedError

    @classmethod
    def input_of(cls, stored: Path) -> Path | None:
        """The input a stored output belongs to, if it still exists."""
        raise NotImplementedError

    @classmethod
    def orphan_candidates(cls) -> list[Path]:
        raise NotImplementedError

    @classmethod
    def test_id(cls, stored: Path) -> str:
        """The parameter id of the test asserting this output (the tests name their inputs by stem)."""
        return stored.stem

    @staticmethod
    def source_or_none(test_location: PyTestLocation) -> Path | None:
        params = getattr(getattr(test_location.item, "callspec", None), "params", {})
        return Path(params["path"]).resolve() if "path" in params else None

    @classmethod
    def source(cls, test_location: PyTestLocation) -> Path:
        path = cls.source_or_none(test_location)
        if path is None:
            raise TypeError(f"{test_location.nodeid}: an output stored beside its input needs the test's 'path' parameter")
        return path

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(cls.stored_at(cls.source(test_location)).parent)

    @classmethod
    def get_file_basename(cls, *, test_location: PyTestLocation, index) -> str:
        if index:
            raise ValueError(f"{test_location.nodeid}: an input has one output; assert it once")
        return cls.stored_at(cls.source(test_location)).stem

    @classmethod
    def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(cls.inputs)  # one scan for the whole session, whichever test asks

    @classmethod
    def matches_test_location(cls, *, test_location: PyTestLocation, snapshot_location: str) -> bool:
        source = cls.source_or_none(test_location)
        return source is not None and str(cls.stored_at(source)) == snapshot_location

    def read_snapshot_collection(self, *, snapshot_location: str) -> SnapshotCollection:
        collection = SnapshotCollection(location=snapshot_location)
        collection.add(Snapshot(name=f"{self.test_name}[{self.test_id(Path(snapshot_location))}]"))
        return collection

    def discover_snapshots(self, *, test_location: PyTestLocation, ignore_extensions=None) -> SnapshotCollections:
        discovered = SnapshotCollections()
        if self.file_extension in (ignore_extensions or ()):
            return discovered
        for stored in self.orphan_candidates():
            if self.input_of(stored) is None:
                discovered.add(self.read_snapshot_collection(snapshot_location=str(stored)))
        return discovered


class ScenarioTrace(BesideItsInput):
    """A game scenario's trace, ``scenarios/<game>/traces/<stem>.trace`` (``trace_of``)."""

    file_extension = "trace"
    test_name = TRACE_TEST
    inputs = SCENARIOS

    @classmethod
    def stored_at(cls, source: Path) -> Path:
        return trace_of(source)

    @classmethod
    def input_of(cls, stored: Path) -> Path | None:
        scenario = stored.parent.parent / f"{stored.stem}.scenario"
        return scenario if scenario.is_file() else None

    @classmethod
    def orphan_candidates(cls) -> list[Path]:
        return sorted(SCENARIOS.rglob(f"traces/*.{cls.file_extension}"))


class DiagnosticGolden(BesideItsInput):
    """A malformed input's reviewed diagnostics, ``tests/bad/<stem>.golden`` beside ``<stem>.rules``
    (or ``.scenario``, ``.overlay``): what the command printed and its exit code."""

    file_extension = "golden"
    test_name = "test_diagnostic"
    inputs = BAD

    @classmethod
    def stored_at(cls, source: Path) -> Path:
        return source.with_suffix(".golden")

    @classmethod
    def input_of(cls, stored: Path) -> Path | None:
        return next((p for p in (stored.with_suffix(s) for s in BAD_SUFFIXES) if p.is_file()), None)

    @classmethod
    def test_id(cls, stored: Path) -> str:
        source = cls.input_of(stored)  # test_diagnostics names its inputs with their suffix
        return source.name if source else stored.stem

    @classmethod
    def orphan_candidates(cls) -> list[Path]:
        return sorted(BAD.glob(f"*.{cls.file_extension}"))


@pytest.fixture
def trace_snapshot(snapshot):
    return snapshot.use_extension(TraceSnapshot)


@pytest.fixture
def scenario_trace(snapshot):
    return snapshot.use_extension(ScenarioTrace)


@pytest.fixture
def diagnostic_golden(snapshot):
    return snapshot.use_extension(DiagnosticGolden)
