"""SIGTERM and SIGHUP during `play` stop the game as Ctrl-C does (runtime/stopping.py, docs/safety.md §3):
the narration so far is told, with the signal named."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"]


def umpire(*args: str, **options) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "interpreter", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **options)


def read_until(stream, end: bytes) -> bytes:
    """What the game wrote to ``stream`` up to ``end``, read byte by byte from its pipe (a buffered read
    would take more, which `communicate` would then not see; and a prompt ends no line)."""
    seen = b""
    while not seen.endswith(end):
        byte = os.read(stream.fileno(), 1)
        assert byte, seen.decode()
        seen += byte
    return seen


@pytest.mark.parametrize("name", SIGNALS)
def test_a_signal_while_the_rules_run_tells_the_narration_so_far(name, tmp_path):
    args = ["play", "rulesets/sea_of_glory_1805.rules", "--agents", "random,random"]
    whole = subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=600).stdout.splitlines()
    save = tmp_path / "sog.toml"
    game = umpire(*args, "--save", str(save), stdin=subprocess.DEVNULL)
    first = read_until(game.stdout, b"\n")
    game.send_signal(getattr(signal, name))
    rest, err = game.communicate(timeout=600)
    told = (first + rest).decode().splitlines()
    assert game.returncode == 130, err.decode()
    assert len(told) >= 2 and told == whole[:len(told)], "the narration up to the signal, as the whole game tells it"
    shown = "Ctrl-C" if name == "SIGINT" else name
    assert err.decode().endswith(f"umpire: the game was ended: interrupted ({shown}) while the rules were running; "
                                 "a position can be saved only at a decision\n")
    assert not save.exists()

