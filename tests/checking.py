"""Checking a small rules file written by a test: the head it shares, then the body under test."""

from __future__ import annotations

from interpreter.cli import main


def check_text(tmp_path, text: str, capsys) -> tuple[int, str]:
    """`umpire check` of `text` written to a file: the exit code and everything printed."""
    path = tmp_path / "t.rules"
    path.write_text(text, encoding="utf-8")
    code = main(["check", str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err
