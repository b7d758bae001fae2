"""Fuzzing file references: no path a file names may crash Umpire or show an outside file.

Generated path strings (absolute, '..' chains, odd characters, NUL bytes, very long names,
unicode, each with one of the extensions or none) are placed in every construct that names
a file (include, the game header's files, uses, with, places from, amends) and on the
command line. Whatever the path, ``main()`` must return 0 or 1, print neither "Traceback"
nor "internal error", and never print the marker planted in every file outside the project.

The example counts keep the file to a few seconds; set UMPIRE_FUZZ_SCALE=10 (or more) for a
longer hunt.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
SKIRMISH = (ROOT / "tests" / "bad" / "support" / "skirmish.rules").read_text(encoding="utf-8")
MARKER = "OUTSIDE-MARKER-9c4b"
EXTENSIONS = [".rules", ".scenario", ".house", ".errata", ".overlay", ".sections", ".txt", ""]





@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """base/project/deep (the current folder of each run) and base/outside, whose every file holds the marker."""
    base = tmp_path_factory.mktemp("paths")
    proj = base / "project" / "deep"
    outside = base / "outside"
    proj.mkdir(parents=True)
    outside.mkdir()
    for ext in EXTENSIONS:
        (outside / f"secret{ext}").write_text(f"{MARKER}\n", encoding="utf-8")
        (base / f"secret{ext}").write_text(f"{MARKER}\n", encoding="utf-8")
        (proj / f"link{ext}").symlink_to(outside / f"secret{ext}")
    (proj / "skirmish.rules").write_text(SKIRMISH, encoding="utf-8")
    os.mkfifo(proj / "pipe.rules")
    return proj


@contextlib.contextmanager
def inside(folder: Path):
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def cli(folder: Path, *argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    debug = os.environ.pop("UMPIRE_DEBUG", None)
    try:
        with inside(folder), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
    finally:
        if debug is not None:
            os.environ["UMPIRE_DEBUG"] = debug
    return code, out.getvalue() + err.getvalue()


def assert_clean(code: int, text: str, shown: str, outside_named: bool = False) -> None:
    report = f"--- input ---\n{shown[:2000]!r}\n--- output ---\n{text[-3000:]}"
    assert "Traceback" not in text, report
    assert "internal error" not in text, report
    assert code in (0, 1), f"exit code {code}\n{report}"
    if not outside_named:
        assert MARKER not in text, report


# ───────────────────────────── paths ─────────────────────────────

ODD = ["\x00", " ", "\t", "é", "\u2019", "中", "\U0001f3b2", "%", "*", "?", "~", "$HOME", ".", "..", "//", "\\", ":"]


def names():
    return st.one_of(
        st.sampled_from(["secret", "link", "skirmish", "pipe", "outside/secret", "nowhere", "", "."]),
        st.lists(st.sampled_from(ODD + list("abcXYZ019-_")), max_size=12).map("".join),
        st.text(max_size=8),
        st.integers(200, 5000).map(lambda k: "a" * k),
        st.lists(st.sampled_from(["a", "b", "é"]), min_size=1, max_size=60).map("/".join),
    )


def paths():
    prefix = st.one_of(
        st.just(""),
        st.integers(1, 12).map(lambda k: "../" * k),
        st.integers(1, 4).map(lambda k: "../" * k + "outside/"),
        st.sampled_from(["/", "/etc/", "/dev/", "/tmp/", "//", "/proc/self/", "./", "~/", "C:\\", "\\\\server\\"]),
    )
    return st.tuples(prefix, names(), st.sampled_from(EXTENSIONS)).map("".join)


def quoted(path: str) -> str:
    """The path as a string literal of the language; a newline is left raw now and then (a syntax error)."""
    return path.replace("\\", "\\\\").replace('"', '\\"')


# ───────────────────────────── the constructs ─────────────────────────────

SCENARIO = """scenario "t" uses "{uses}" [1.0] {{
{extra}  run battle(@0101, red)
}}
"""


def with_header_line(line: str) -> str:
    head, rest = SKIRMISH.split("  die d6 1..6", 1)
    first, tail = rest.split("\n", 1)
    return f"{head}  die d6 1..6{first}\n  {line}\n{tail}"


def plant(proj: Path, construct: str, ref: str) -> list[str]:
    """Write a file naming ``ref`` in ``construct``; the command that reads it."""
    if construct == "include":
        (proj / "main.rules").write_text(f'include "{ref}" [1.3]\n', encoding="utf-8")
        return ["check", "main.rules"]
    if construct in ("demo data", "errata", "scenario opening"):
        (proj / "main.rules").write_text(with_header_line(f'{construct} "{ref}" [1.0]'), encoding="utf-8")
        return ["check", "main.rules"]
    if construct == "demo setup":
        (proj / "main.rules").write_text(with_header_line(f'demo setup "{ref}" [1.0]'), encoding="utf-8")
        return ["play", "main.rules", "--agents", "first,first"]
    if construct == "amends":
        (proj / "main.house").write_text(f'overlay house "House" amends "{ref}" [H-1] {{\n}}\n', encoding="utf-8")
        return ["check", "main.house"]
    extra = "" if construct == "uses" else f'  {construct} "{ref}"\n'
    (proj / "main.scenario").write_text(SCENARIO.format(uses=ref if construct == "uses" else "skirmish.rules",
                                                        extra=extra), encoding="utf-8")
    return ["run", "main.scenario"]


CONSTRUCTS = ["include", "demo data", "errata", "scenario opening", "demo setup", "amends", "uses", "with", "places from"]


@fuzz_settings(120)
@given(construct=st.sampled_from(CONSTRUCTS), path=paths())
def test_a_path_in_any_construct(project, construct, path):
    argv = plant(project, construct, quoted(path))
    code, text = cli(project, *argv)
    assert_clean(code, text, f"{construct} {path!r}")


@fuzz_settings(60)
@given(construct=st.sampled_from(CONSTRUCTS), path=paths())
def test_a_raw_path_that_may_break_the_syntax(project, construct, path):
    """Quotes, backslashes and newlines left as they are: the file may not parse, and must still be reported."""
    argv = plant(project, construct, path)
    code, text = cli(project, *argv)
    assert_clean(code, text, f"{construct} {path!r}")


@fuzz_settings(60)
@given(command=st.sampled_from(["check", "run", "play", "explain", "odds", "coverage", "--with", "--sections",
                                "--allow-path"]), path=paths())
def test_a_path_on_the_command_line(project, command, path):
    """A file named on the command line is the user's choice (its content may show), but never a crash or a hang."""
    # A path may begin with '-': it is given as '--with=PATH', or after '--', as a person must give it.
    if command.startswith("--"):
        argv = ["coverage" if command == "--sections" else "check", "skirmish.rules", f"{command}={path}"]
    else:
        argv = [command] + (["--agents", "first,first"] if command == "play" else []) + ["--", path]
    code, text = cli(project, *argv)
    assert_clean(code, text, " ".join(argv), outside_named=True)
