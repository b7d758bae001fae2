"""SIGTERM and SIGHUP during `play` stop the game as Ctrl-C does (runtime/games/stopping.py, docs/safety.md §3):
the narration so far is told, with the signal named."""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
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



LOCK = ["play", "tests/lang/lock.rules", "--seed", "1", "--agents", "human,random"]  # Red's three digits: a person's


def plays_on_from(save: Path) -> subprocess.CompletedProcess:
    """The saved game loaded and played to its end, the person's three digits piped in."""
    return subprocess.run([sys.executable, "-m", "interpreter", "play", "--load", str(save), "--detail"], cwd=ROOT, input="4\n2\n6\n",
                          capture_output=True, text=True, timeout=600)


def test_sigterm_while_a_person_s_prompt_waits_writes_the_save(tmp_path):
    save = tmp_path / "lock.toml"
    game = umpire(*LOCK, "--save", str(save), stdin=subprocess.PIPE)  # kept open: the prompt waits
    read_until(game.stderr, b"shows the position\n")  # the question asked, the answer read: the signal lands in the read
    game.send_signal(signal.SIGTERM)
    out, err = game.communicate(timeout=600)
    assert game.returncode == 0, err.decode()
    assert "interrupted (SIGTERM) when red was to decide 'first' [2.1]" in err.decode()
    assert out.decode().endswith(f"saved to {save}\n") and save.exists()
    resumed = plays_on_from(save)
    assert resumed.returncode == 0, resumed.stderr
    assert "opened is now red" in resumed.stdout  # 4, 2, 6: the lock opens


@pytest.mark.skipif(not hasattr(os, "openpty") or sys.platform == "win32", reason="a terminal of its own (pty)")
def test_ctrl_c_typed_at_a_decision_on_a_terminal_saves_under_the_name_typed_next(tmp_path):
    """As a person at a terminal does it: ^C typed (the terminal sends SIGINT), then a file name and Enter
    at the save prompt. On a terminal, input() reads through the C library, not sys.stdin."""
    import fcntl
    import termios

    shutil.copy(ROOT / "tests" / "lang" / "lock.rules", tmp_path)  # played from there: the save is written there
    master, slave = os.openpty()

    def own_terminal() -> None:  # the pty as the game's controlling terminal, so that ^C is SIGINT
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    game = subprocess.Popen([sys.executable, "-m", "interpreter", "play", "lock.rules", *LOCK[2:]], cwd=tmp_path, stdin=slave, stdout=slave,
                            stderr=slave, start_new_session=True, preexec_fn=own_terminal,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(slave)
    seen = read_pty_until(master, b"shows the position\r\n> ")
    os.write(master, b"\x03")
    seen += read_pty_until(master, b"press Enter not to save\r\n> ")
    os.write(master, b"mine.toml\r")
    seen += read_pty_until(master, None)
    assert game.wait(timeout=600) == 0, seen.decode()
    assert b"saved to mine.toml" in seen and (tmp_path / "mine.toml").exists()
    resumed = plays_on_from(tmp_path / "mine.toml")
    assert resumed.returncode == 0 and "opened is now red" in resumed.stdout, resumed.stderr


def read_pty_until(master: int, end: bytes | None) -> bytes:
    """What the game wrote to its terminal up to ``end`` (None: until it closes it)."""
    seen, deadline = b"", time.monotonic() + 300  # a prompt that never comes fails, not hangs
    while end is None or not seen.endswith(end):
        ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"waited for {end!r}; the terminal shows: {seen.decode(errors='replace')}"
        try:
            chunk = os.read(master, 1)
        except OSError:  # EIO: the game has closed its terminal
            chunk = b""
        if not chunk:
            assert end is None, seen.decode(errors="replace")
            return seen
        seen += chunk
    return seen


def test_a_person_s_prompt_stays_out_of_piped_narration():
    """With the answers and the narration both piped, no '> ' prompt is written (no one reads it): the
    narration a file or pipe keeps holds none, and each question's lines stay whole on standard error."""
    game = subprocess.run([sys.executable, "-m", "interpreter", *LOCK, "--detail"], cwd=ROOT, input="4\n2\n6\n",
                          capture_output=True, text=True, timeout=600)
    assert game.returncode == 0, game.stderr
    assert "opened is now red" in game.stdout
    assert "> " not in game.stdout and "> " not in game.stderr
    assert game.stderr.count("\n[2.1] red, decide") == 2, "each question starts a line of its own"


@pytest.mark.skipif(not hasattr(os, "openpty") or sys.platform == "win32", reason="a terminal of its own (pty)")
def test_a_person_at_a_terminal_with_the_narration_in_a_file_gets_the_prompt_on_standard_error(tmp_path):
    """`umpire play … > game.txt` typed at a terminal: the person still sees '> ' (on standard error,
    the terminal), and the file holds the narration alone."""
    master, slave = os.openpty()
    narration = tmp_path / "game.txt"
    with narration.open("wb") as out:
        game = subprocess.Popen([sys.executable, "-m", "interpreter", *LOCK, "--detail"], cwd=ROOT, stdin=slave, stdout=out,
                                stderr=slave, env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(slave)
    seen = b""
    try:
        for digit in b"426":
            seen += read_pty_until(master, b"shows the position\r\n> ")
            os.write(master, bytes([digit]) + b"\r")
        seen += read_pty_until(master, None)
    except AssertionError:
        game.kill()  # it waits at a prompt that never showed
        raise
    assert game.wait(timeout=600) == 0, seen.decode()
    told = narration.read_text(encoding="utf-8")
    assert "opened is now red" in told and "> " not in told
