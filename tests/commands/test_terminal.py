"""A person at the terminal: the narration shows as the game goes, Ctrl-C and Ctrl-D end the game
cleanly and offer a save, every refusal says what is expected and cites the rule that asks."""

from __future__ import annotations

import os
import pty
import select
import sys
import termios
import time
import tomllib
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
SETUP = "scenarios/jenkins_ear/eop_combat_step.scenario"


class Screen:
    """What a person types (EOFError, Ctrl-D, where the list says so; then the end of input), and
    what the terminal showed: the narration printed before each prompt, and everything after."""

    def __init__(self, monkeypatch, capsys, typed):
        self.capsys, self.script = capsys, iter(typed)
        self.before: list[str] = []  # standard output printed before each prompt
        self.out, self.err = "", ""
        monkeypatch.setattr("builtins.input", self.input)

    def input(self, prompt=""):
        got = self.capsys.readouterr()
        self.before.append(got.out)
        self.out, self.err = self.out + got.out, self.err + got.err
        item = next(self.script, EOFError)
        if item is EOFError:
            raise item
        return item

    def done(self) -> Screen:
        got = self.capsys.readouterr()
        self.out, self.err = self.out + got.out, self.err + got.err
        return self


def answers(monkeypatch, capsys, *typed) -> Screen:
    return Screen(monkeypatch, capsys, typed)


def test_the_narration_is_shown_before_the_person_decides(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    screen = answers(monkeypatch, capsys, "1", "0")
    assert main(["play", SETUP, "--agents", "human,first", "--seed", "3"]) == 0  # ended by the person: no failure
    seen = [text.splitlines() for text in screen.before]
    assert seen[0][0].startswith("game: The War of Jenkins' Ear, seed 3")
    assert "[6.4] turn 1, english_phase, combat_resolution" in seen[0], "the step was told before the first question"
    assert seen[1] == ["[9.1] naval combat in 3119: spanish made the interception and attacks; english defends"]
    # The dice of the naval combat were shown before the person was asked to spend a deception counter.
    assert any(line.startswith("[9.1 step 2] roll dice[") for line in seen[2])
    told = screen.done().out.splitlines()
    assert told.count("[6.4] turn 1, english_phase, combat_resolution") == 1, "nothing is told twice"
    assert told[-1].startswith("(suspended before decision ")


def test_ctrl_d_ends_the_game_and_the_offered_save_resumes_it(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    save = tmp_path / "mine.toml"
    screen = answers(monkeypatch, capsys, "1", EOFError, str(save))
    assert main(["play", SETUP, "--agents", "human,first", "--seed", "3"]) == 0
    out = screen.done()
    assert "umpire: the game was ended: no more input: english must decide 'bonus' [9.1 step 2a]" in out.err
    assert "save the game? type a file name" in out.err and f"saved to {save}" in out.out
    head = tomllib.loads(save.read_text())["umpire_save"]
    assert head["decisions"] == 2 and head["typed"] == ["1"]  # the person's 'next' and the Spanish 'bonus' (declined)
    # Loaded, the game asks the person the same decision again.
    screen = answers(monkeypatch, capsys)
    assert main(["play", "--load", str(save)]) == 0
    assert "english must decide 'bonus' [9.1 step 2a]" in screen.done().err


@pytest.mark.parametrize("typed,message", [
    ("²", "not understood [A-17]: '²' is not an option number from 1 to 2"),
    ("٣", "not understood [A-17]: '٣' is not an option number from 1 to 2"),
    ("", "an empty line is not an answer [A-17]: answer: one number from 1 to 2; ? shows the position"),
    ("1:x", "not understood [A-17]"),
])
def test_odd_answers_are_refused_with_what_is_expected(capsys, monkeypatch, typed, message):
    monkeypatch.chdir(ROOT)
    screen = answers(monkeypatch, capsys, typed, "1")
    main(["play", SETUP, "--agents", "human,first", "--seed", "3", "--detail"])
    out = screen.done()
    assert message in out.err
    assert "Traceback" not in out.err and "invalid literal" not in out.err
    assert "[A-17] english next: 3119" in out.out, "the next, well-formed answer is taken"


def _read_until(fd: int, marker: bytes, timeout: float = 60) -> bytes:
    data = b""
    end = time.monotonic() + timeout
    while marker not in data:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {marker!r} in {data[-2000:]!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    return data


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_ctrl_c_at_a_real_terminal_ends_cleanly_and_saves(tmp_path):
    save = tmp_path / "interrupted.toml"
    pid, fd = pty.fork()
    if pid == 0:  # the child: umpire at a terminal
        # NOFLSH: the terminal must not discard what umpire writes just after the Ctrl-C (a race on a
        # two-core machine, where the child may answer the signal before the flush that ISIG does).
        attrs = termios.tcgetattr(0)
        attrs[3] |= termios.NOFLSH
        termios.tcsetattr(0, termios.TCSANOW, attrs)
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "interpreter", "play", SETUP, "--agents", "human,first", "--seed", "3"])
    try:
        seen = _read_until(fd, b"? shows the position\r\n> ")  # the prompt: input() is waiting
        assert b"[6.4] turn 1, english_phase, combat_resolution" in seen, "the narration streams before the prompt"
        # The prompt is written just before input() blocks in read(): a SIGINT in between is only seen
        # at the next read, so give the child a moment to get there, as a person always does.
        time.sleep(0.5)
        os.write(fd, b"\x03")  # Ctrl-C: the terminal sends SIGINT
        seen += _read_until(fd, b"save the game?")
        os.write(fd, str(save).encode() + b"\r")
        seen += _read_until(fd, b"saved to")
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    text = seen.decode(errors="replace")
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert "the game was ended: interrupted (Ctrl-C) when english was to decide 'next' [A-17]" in text
    assert os.waitstatus_to_exitcode(status) == 0
    assert tomllib.loads(save.read_text())["umpire_save"]["decisions"] == 0
