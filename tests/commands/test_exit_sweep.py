"""A process that loaded rules ends without Python's last collection walking them (load.py, ``unswept``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

# atexit runs its functions last registered first: the one registered before the load runs after the
# load's own, and prints how many objects were set aside from the collector by then.
_SCRIPT = """
import atexit, gc
atexit.register(lambda: print("frozen", gc.get_freeze_count()))
from interpreter.load import load_rules
from interpreter.syntax.diagnostics import Sources
assert not load_rules("rulesets/jenkins_ear.rules", Sources()).errors
assert gc.isenabled() and gc.get_freeze_count() == 0  # the process goes on sweeping as before
"""


def test_what_a_load_made_is_set_aside_from_the_collector_at_exit(tmp_path):
    env = {**os.environ, "UMPIRE_CACHE": "off"}
    done = subprocess.run([sys.executable, "-c", _SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    count = int(done.stdout.split()[-1])
    assert count > 10_000  # the ruleset's nodes, among what else is alive
