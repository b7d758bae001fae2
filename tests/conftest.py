"""Shared test fixtures: a syrupy extension that stores traces as readable .trace files."""

from __future__ import annotations

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode


class TraceSnapshot(SingleFileSnapshotExtension):
    """One plain-text file per scenario, reviewed as a diff like Catala's expected outputs."""

    _write_mode = WriteMode.TEXT
    file_extension = "trace"


@pytest.fixture
def trace_snapshot(snapshot):
    return snapshot.use_extension(TraceSnapshot)
