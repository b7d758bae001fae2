"""The sandbox of file references (docs/safety.md §1): no file a run reads may lead it out.

Every construct that names a file (include, uses, with, places from, amends, the game
header's demo data, demo setup, errata and scenarios, --with) is given the escapes a
hostile file might try: an absolute path, '..' above every root, a symlink in the project
pointing outside, a wrong extension, a FIFO, a folder, an oversized file. Each must end
with exit 1, a diagnostic saying why, no traceback, and nothing of the outside file's
content on the screen. The files named on the command line are checked the same way
(regular files, the size cap, an extension the command reads), and --allow-path lets a
legitimate outside folder in.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest

from interpreter import files
from interpreter.cli import main
from interpreter.syntax.diagnostics import NO_SPAN, UmpireError

ROOT = Path(__file__).resolve().parent.parent.parent
SKIRMISH = (ROOT / "tests" / "bad" / "support" / "skirmish.rules").read_text(encoding="utf-8")
MARKER = "OUTSIDE-MARKER-5e1d"  # the content of every outside file: it must never be printed
HEADER_LINE = "  die d6 1..6"  # the game header's last line in skirmish.rules; header files are named after it

SCENARIO = """scenario "t" uses "{uses}" [1.0] {{
{extra}  places {{
    hex 0101 {{ terrain: open }}
  }}
  run battle(@0101, red)
  dice {{ 6 "R1" }}
  units {{
    R1: frigate of red at 0101 {{ gun: 3, cost: 3 }}
  }}
}}
"""


def cli(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue() + err.getvalue()


def with_header_line(line: str) -> str:
    """skirmish.rules with one more line in its game header."""
    head, rest = SKIRMISH.split(HEADER_LINE, 1)
    first, tail = rest.split("\n", 1)
    return f"{head}{HEADER_LINE}{first}\n  {line}\n{tail}"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """tmp/project (the current folder) with the skirmish ruleset; tmp/outside holds secrets of every kind."""
    monkeypatch.delenv("UMPIRE_DEBUG", raising=False)
    proj, outside = tmp_path / "project", tmp_path / "outside"
    proj.mkdir()
    outside.mkdir()
    for ext in (".rules", ".scenario", ".house", ".errata", ".overlay", ".txt"):
        (outside / f"secret{ext}").write_text(f"{MARKER}\n", encoding="utf-8")
    (proj / "secret.txt").write_text(f"{MARKER}\n", encoding="utf-8")
    (proj / "skirmish.rules").write_text(SKIRMISH, encoding="utf-8")
    (proj / "map.scenario").write_text(SCENARIO.format(uses="skirmish.rules", extra=""), encoding="utf-8")
    monkeypatch.chdir(proj)
    return proj


# Each construct: the extension it expects, and how a reference is planted (the files written, the command run).
def _include(proj: Path, ref: str) -> list[str]:
    (proj / "main.rules").write_text(f'include "{ref}" [1.3]\n', encoding="utf-8")
    return ["check", "main.rules"]


def _header(field: str, command: str):
    def plant(proj: Path, ref: str) -> list[str]:
        (proj / "main.rules").write_text(with_header_line(f'{field} "{ref}" [1.0]'), encoding="utf-8")
        return [command, "main.rules"] if command == "check" else [command, "main.rules", "--agents", "first,first"]
    return plant


def _uses(proj: Path, ref: str) -> list[str]:
    (proj / "main.scenario").write_text(SCENARIO.format(uses=ref, extra=""), encoding="utf-8")
    return ["run", "main.scenario"]


def _scenario_line(line: str):
    def plant(proj: Path, ref: str) -> list[str]:
        text = SCENARIO.format(uses="skirmish.rules", extra=f'  {line.format(ref=ref)}\n')
        (proj / "main.scenario").write_text(text, encoding="utf-8")
        return ["run", "main.scenario"]
    return plant


def _amends(proj: Path, ref: str) -> list[str]:
    (proj / "main.house").write_text(f'overlay house "House" amends "{ref}" [H-1] {{\n}}\n', encoding="utf-8")
    return ["check", "main.house"]


CONSTRUCTS = {
    "include": (".rules", _include),
    "demo data": (".rules", _header("demo data", "check")),
    "demo setup": (".scenario", _header("demo setup", "play")),
    "errata": (".errata", _header("errata", "check")),
    "scenario": (".scenario", _header("scenario opening", "check")),
    "uses": (".rules", _uses),
    "with": (".house", _scenario_line('with "{ref}"')),
    "places from": (".scenario", _scenario_line('places from "{ref}"')),
    "amends": (".rules", _amends),
}


def assert_refused(code: int, text: str, *messages: str) -> None:
    assert code == 1, text
    assert "Traceback" not in text and "internal error" not in text, text
    assert MARKER not in text, text
    for message in messages:
        assert message in text, text


def big_file(path: Path) -> None:
    """A sparse file one byte over the cap, the marker at its head."""
    with path.open("wb") as handle:
        handle.write(MARKER.encode())
        handle.truncate(files.MAX_BYTES + 1)


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_every_construct_still_reads_a_good_reference(project, construct):
    """The baseline: each planted construct works with a legitimate file, so the refusals below are the sandbox's."""
    ext, plant = CONSTRUCTS[construct]
    good = {".rules": "skirmish.rules", ".scenario": "map.scenario"}.get(ext)
    if good is None:
        amended = "main.rules" if construct == "errata" else "skirmish.rules"  # the errata amends the ruleset naming it
        (project / f"good{ext}").write_text(f'overlay good "Good" amends "{amended}" [H-1] {{\n}}\n', encoding="utf-8")
        good = f"good{ext}"
    if construct == "demo data":  # demo data adds declarations: a file of its own
        (project / "extra.rules").write_text('stat speed "speed" [2.5]\n', encoding="utf-8")
        good = "extra.rules"
    code, text = cli(*plant(project, good))
    assert code == 0, text


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_an_absolute_path_is_refused(project, construct):
    ext, plant = CONSTRUCTS[construct]
    target = project.parent / "outside" / f"secret{ext}"
    code, text = cli(*plant(project, str(target)))
    assert_refused(code, text, "an absolute path is not allowed here; name the file relative to")


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_dot_dot_above_every_root_is_refused(project, construct):
    ext, plant = CONSTRUCTS[construct]
    code, text = cli(*plant(project, f"../outside/secret{ext}"))
    assert_refused(code, text, f"'../outside/secret{ext}' leads outside the folders this run may read (the current folder)",
                   "allow it with --allow-path ../outside")


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_a_symlink_in_the_project_pointing_outside_is_refused(project, construct):
    ext, plant = CONSTRUCTS[construct]
    (project / f"link{ext}").symlink_to(project.parent / "outside" / f"secret{ext}")
    code, text = cli(*plant(project, f"link{ext}"))
    assert_refused(code, text, f"'link{ext}' leads outside the folders this run may read")


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_a_wrong_extension_is_refused_before_the_file_is_read(project, construct):
    ext, plant = CONSTRUCTS[construct]
    code, text = cli(*plant(project, "secret.txt"))
    assert_refused(code, text, "'secret.txt' is not ", f"{construct} names")


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_a_symlink_with_the_right_name_to_a_wrong_file_is_refused(project, construct):
    ext, plant = CONSTRUCTS[construct]
    (project / f"disguised{ext}").symlink_to(project / "secret.txt")
    code, text = cli(*plant(project, f"disguised{ext}"))
    assert_refused(code, text, "secret.txt, which is not")


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_a_fifo_is_refused_without_hanging(project, construct):
    ext, plant = CONSTRUCTS[construct]
    os.mkfifo(project / f"pipe{ext}")
    code, text = cli(*plant(project, f"pipe{ext}"))
    assert_refused(code, text, f"'pipe{ext}' is a FIFO (named pipe), not a regular file")


@pytest.mark.parametrize("construct", ["include", "uses", "with"])
def test_a_folder_and_a_device_are_refused(project, construct):
    ext, plant = CONSTRUCTS[construct]
    (project / f"folder{ext}").mkdir()
    code, text = cli(*plant(project, f"folder{ext}"))
    assert_refused(code, text, f"'folder{ext}' is a folder, not a regular file")
    (project / f"zero{ext}").symlink_to("/dev/zero")
    code, text = cli(*plant(project, f"zero{ext}"))
    assert_refused(code, text, f"'zero{ext}' leads outside")  # /dev is no root of the run
    code, text = cli(*plant(project, f"zero{ext}"), "--allow-path", "/dev")
    assert_refused(code, text, f"'zero{ext}' leads to /dev/zero, which is not")


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_a_hard_link_to_a_file_outside_the_roots_is_refused(project, construct):
    """A hard link has no target to follow: its other name, outside the roots, cannot be seen from
    inside, so a file with more than one name is not read at all."""
    ext, plant = CONSTRUCTS[construct]
    os.link(project.parent / "outside" / f"secret{ext}", project / f"x{ext}")
    code, text = cli(*plant(project, f"x{ext}"))
    assert_refused(code, text, f"'x{ext}' has 2 hard links; Umpire reads only files with one name",
                   "copy it, or link it symbolically")


def test_a_hard_link_on_the_command_line_or_open_in_the_editor_is_refused(project):
    os.link(project / "skirmish.rules", project / "twin.rules")
    code, text = cli("check", "twin.rules")
    assert code == 1 and "'twin.rules' has 2 hard links" in text and "Traceback" not in text
    with pytest.raises(UmpireError, match="has 2 hard links"), files.buffers({"twin.rules": SKIRMISH}):
        files.read_checked("twin.rules")


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_an_oversized_file_is_refused_with_its_size(project, construct):
    ext, plant = CONSTRUCTS[construct]
    big_file(project / f"big{ext}")
    code, text = cli(*plant(project, f"big{ext}"))
    assert_refused(code, text, f"'big{ext}' is too large to read ({files.MAX_BYTES + 1:,} bytes; the limit is")


def test_allow_path_lets_a_legitimate_outside_folder_in(project):
    lib = project.parent / "library"
    lib.mkdir()
    (lib / "part.rules").write_text('stat speed "speed" [2.5]\n', encoding="utf-8")
    (project / "main.rules").write_text(SKIRMISH + '\ninclude "../library/part.rules" [1.3]\n', encoding="utf-8")
    code, text = cli("check", "main.rules")
    assert_refused(code, text, "'../library/part.rules' leads outside")
    code, text = cli("check", "main.rules", "--allow-path", str(lib))
    assert code == 0 and "main.rules: 0 error(s)" in text, text
    code, text = cli("check", "main.rules", "--allow-path", "no_such_folder")
    assert_refused(code, text, "umpire: error: --allow-path 'no_such_folder' is not a folder")


def test_the_folder_of_a_file_named_on_the_command_line_is_a_root(project, monkeypatch):
    """Run from elsewhere, a scenario still reads the ruleset beside it, but not one above its folder."""
    monkeypatch.chdir(project.parent / "outside")
    (project / "main.scenario").write_text(SCENARIO.format(uses="skirmish.rules", extra=""), encoding="utf-8")
    code, text = cli("run", str(project / "main.scenario"))
    assert code == 0, text
    sub = project / "sub"
    sub.mkdir()
    (sub / "main.scenario").write_text(SCENARIO.format(uses="../skirmish.rules", extra=""), encoding="utf-8")
    code, text = cli("run", str(sub / "main.scenario"))
    assert_refused(code, text, "'../skirmish.rules' leads outside")
    assert main(["run", str(sub / "main.scenario"), "--allow-path", str(project)]) == 0


def test_a_symlink_inside_the_roots_is_followed(project):
    (project / "parts").mkdir()
    (project / "parts" / "speed.rules").write_text('stat speed "speed" [2.5]\n', encoding="utf-8")
    (project / "alias.rules").symlink_to(project / "parts" / "speed.rules")
    (project / "main.rules").write_text(SKIRMISH + '\ninclude "alias.rules" [1.3]\n', encoding="utf-8")
    code, text = cli("check", "main.rules")
    assert code == 0, text


# ───────────────────────────── files named on the command line ─────────────────────────────


@pytest.mark.parametrize("argv", [["check", "/dev/zero"], ["run", "/dev/zero"], ["play", "/dev/zero"],
                                  ["explain", "/dev/null"], ["odds", "/etc/hostname"], ["coverage", "/dev/zero"],
                                  ["check", "skirmish.rules", "--with", "/dev/zero"],
                                  ["coverage", "skirmish.rules", "--sections", "/dev/zero"]])
def test_a_command_line_file_of_no_kind_the_command_reads_is_refused(project, argv):
    code, text = cli(*argv)
    assert_refused(code, text, f"'{argv[-1]}' is not one")
    assert text.count(": error: ") == 1, text


@pytest.mark.parametrize("command", ["check", "run", "play", "explain", "odds"])
def test_a_fifo_a_device_and_a_folder_on_the_command_line_are_refused(project, command):
    ext = ".rules" if command in ("check", "play") else ".scenario"
    os.mkfifo(project / f"pipe{ext}")
    (project / f"zero{ext}").symlink_to("/dev/zero")
    (project / f"folder{ext}").mkdir()
    for name, what in (("pipe", "a FIFO (named pipe)"), ("zero", "a character device"), ("folder", "a folder")):
        code, text = cli(command, f"{name}{ext}")
        assert_refused(code, text, f"'{name}{ext}' is {what}, not a regular file")


def test_an_oversized_file_on_the_command_line_is_refused(project):
    big_file(project / "big.rules")
    code, text = cli("check", "big.rules")
    assert_refused(code, text, "is too large to read")
    big_file(project / "big.house")
    code, text = cli("check", "skirmish.rules", "--with", "big.house")
    assert_refused(code, text, "is too large to read")


def test_check_keeps_going_after_a_refused_file(project):
    code, text = cli("check", "secret.txt", "skirmish.rules")
    assert_refused(code, text, "umpire check reads a rules file (.rules), a scenario (.scenario) or an overlay "
                               "(.errata, .house, .overlay); 'secret.txt' is not one", "skirmish.rules: 0 error(s)")


# ───────────────────────────── invalid UTF-8 ─────────────────────────────


def test_invalid_utf8_is_reported_at_its_line_and_column(project):
    (project / "bad.rules").write_bytes('stat gun "gun" [2.1]\nstat été "x\xff" [2.2]\n'.encode("latin-1"))
    code, text = cli("check", "bad.rules")
    assert code == 1 and "Traceback" not in text, text
    # Line 2, column 6: 'stat ' then the first byte of 'été' in Latin-1 (0xe9), which is no UTF-8.
    assert "bad.rules:2:6: error: the file is not valid UTF-8: byte 0xe9 cannot be decoded" in text, text
    assert "byte offset" not in text and "position" not in text, text


# ───────────────────────────── the helpers, for other readers (saved games) ─────────────────────────────


def test_resolve_reference_and_read_checked_serve_any_reader(project):
    naming = str(project / "game.toml")
    with files.sandbox(files.Sandbox.for_run([naming])):
        path = files.resolve_reference("skirmish.rules", naming, files.RULES, NO_SPAN, "file")
        assert path == str(project / "skirmish.rules")
        assert files.read_checked(path).startswith("# A small ruleset")
        with pytest.raises(UmpireError) as err:
            files.resolve_reference("../outside/secret.rules", naming, files.RULES, NO_SPAN, "file")
        assert "leads outside" in err.value.diagnostics[0].message


def test_a_sections_file_that_is_a_fifo_is_refused(project):
    os.mkfifo(project / "skirmish.sections")
    code, text = cli("coverage", "skirmish.rules")
    assert_refused(code, text, "'skirmish.sections' is a FIFO (named pipe), not a regular file")
