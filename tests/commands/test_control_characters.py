"""Control characters in rules and scenario text reach no terminal raw: the narration, the prompts
and the diagnostics show them escaped ('\\x1b', '\\x07', '\\r'), so a rules file cannot retitle the
window or clear the screen. The toy is tests/lang/escapes.rules; the diagnostic's golden is
tests/bad/control_characters.golden."""

from __future__ import annotations

from pathlib import Path

from test_play import type_at_the_terminal as typed

from interpreter.cli import main
from interpreter.style import printable

ROOT = Path(__file__).resolve().parent.parent.parent
RAW = ("\x1b", "\x07", "\r")


def _run(monkeypatch, capsys, *args: str) -> tuple[str, str]:
    monkeypatch.chdir(ROOT)
    main(list(args))
    out = capsys.readouterr()
    return out.out, out.err


def test_the_narration_shows_a_say_strings_control_characters_escaped(monkeypatch, capsys):
    out, err = _run(monkeypatch, capsys, "run", "tests/lang/escapes.scenario", "--detail")
    assert r"  [2.1] \x1b]0;owned\x07 red shouts\rover" in out.splitlines()
    assert not any(c in out + err for c in RAW)


def test_the_prompt_shows_a_decisions_control_characters_escaped(monkeypatch, capsys):
    typed(monkeypatch, "1")
    out, err = _run(monkeypatch, capsys, "play", "tests/lang/escapes.scenario", "--agents", "human,first", "--seed", "1")
    assert r"[2.2] red, decide 'loud': \x1b[2J how loud\x07" in err.splitlines()
    assert not any(c in out + err for c in RAW)


def test_a_diagnostic_quotes_the_line_escaped_with_the_caret_under_the_name(monkeypatch, capsys):
    _, err = _run(monkeypatch, capsys, "check", "tests/bad/control_characters.rules")
    quoted, caret = err.splitlines()[1:3]
    assert quoted.endswith(r'say "\x1b]0;owned\x07 {alrm}" [2.1]')
    assert quoted.index("alrm") == caret.index("^^^^")
    assert not any(c in err for c in RAW)


def test_printable_escapes_c0_del_and_c1_and_keeps_what_it_is_told():
    assert printable("a\x00\x1b\x7f\x9b\tb\nc") == r"a\x00\x1b\x7f\x9b\tb\nc"
    assert printable("a\tb\nc\x1b", keep="\t\n") == "a\tb\nc\\x1b"
    assert printable("plain — text") == "plain — text"
