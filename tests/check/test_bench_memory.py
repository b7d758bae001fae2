"""The memory benchmark (`python bench/memory.py`, docs/performance.md) measures: its generated
ruleset of renamed copies of the Jenkins' Ear rules checks without errors, and its load of that
ruleset builds the IR under tracemalloc rather than finding it already built, so the figure it
prints is the memory a load keeps. Run small here (two copies and one ruleset); no time is asserted."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_memory_benchmark_prints_a_figure_of_kilobytes_per_line():
    run = subprocess.run([sys.executable, "bench/memory.py", "--lines", "2000", "--rulesets", "jenkins_ear"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    figures = dict(re.findall(r"^\s*(\w+): +\d+ lines, kept +([\d.]+) KB per line", run.stdout, re.M))
    assert set(figures) == {"generated", "jenkins_ear"}, run.stdout
    # A load that built nothing (its file's IR kept from an earlier load) keeps a few bytes a line;
    # a real load keeps kilobytes: each node of the IR and each span is a model of its own.
    assert all(float(kb) > 1.0 for kb in figures.values()), run.stdout
