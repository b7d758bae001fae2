"""Every file Umpire writes (interpreter/writing.py): never through a symbolic link that leads out
of its folder or to another kind of file, never half written, a new file created by one run only."""

from __future__ import annotations

import builtins
import errno
import os
from pathlib import Path

import pytest

from interpreter import saves
from interpreter.cli import draw as draw_command
from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
EOP = "scenarios/jenkins_ear/eop_combat_step.scenario"
TOY = "tests/lang/chitpull.rules"
JE = "rulesets/jenkins_ear.rules"
VICTIM = "rule Victim is kept\n"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("UMPIRE_DEBUG", raising=False)


def victim_behind(link: Path) -> Path:
    """``link`` -> victim.rules beside it."""
    victim = link.parent / "victim.rules"
    victim.write_text(VICTIM)
    link.symlink_to(victim.name)
    return victim


def left_behind(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".umpire-"))


def test_draw_force_refuses_a_link_to_a_ruleset(tmp_path, capsys):
    link = tmp_path / "pic.svg"
    victim = victim_behind(link)
    assert main(["draw", EOP, "-o", str(link), "--force"]) == 1
    assert capsys.readouterr().err == (f"umpire: error: {link} is a symbolic link to a file of another kind: "
                                       "Umpire does not write through it\n")
    assert victim.read_text() == VICTIM and link.is_symlink()


def test_draw_force_refuses_a_dangling_link_leading_out_of_its_folder(tmp_path, capsys):
    (tmp_path / "out").mkdir()
    link = tmp_path / "out" / "pic.svg"
    link.symlink_to("../elsewhere.svg")
    assert main(["draw", EOP, "-o", str(link), "--force"]) == 1
    assert "is a symbolic link leading out of its folder: Umpire does not write through it" in capsys.readouterr().err
    assert not (tmp_path / "elsewhere.svg").exists()


def test_a_link_to_a_picture_inside_its_folder_is_written_through(tmp_path):
    (tmp_path / "kept").mkdir()
    link = tmp_path / "pic.svg"
    link.symlink_to("kept/real.svg")
    assert main(["draw", EOP, "-o", str(link), "--force"]) == 0
    assert link.is_symlink() and (tmp_path / "kept" / "real.svg").read_text().startswith("<?xml")
    assert left_behind(tmp_path / "kept") == []


@pytest.mark.parametrize("option, name", [("--csv", "out.csv"), ("--json", "out.json")])
def test_study_force_refuses_a_link_to_a_ruleset(tmp_path, capsys, option, name):
    link = tmp_path / name
    victim = victim_behind(link)
    assert main(["study", TOY, "--games", "1", option, str(link), "--force"]) == 1
    assert "is a symbolic link to a file of another kind: Umpire does not write through it" in capsys.readouterr().err
    assert victim.read_text() == VICTIM


def test_save_force_refuses_a_link_to_a_ruleset(tmp_path, capsys):
    link = tmp_path / "game.toml"
    victim = victim_behind(link)
    assert main(["play", JE, "--seed", "2", "--stop-after", "0", "--save", str(link), "--force"]) == 1
    assert "is a symbolic link to a file of another kind" in capsys.readouterr().err
    assert victim.read_text() == VICTIM and link.is_symlink()


def test_of_two_runs_saving_to_one_new_file_the_second_is_refused(tmp_path, capsys, monkeypatch):
    save = tmp_path / "game.toml"
    checked = saves.check_target

    def other_run_saves_meanwhile(path, force):
        checked(path, force)
        Path(path).write_text("the other run's save\n")

    monkeypatch.setattr(saves, "check_target", other_run_saves_meanwhile)
    assert main(["play", JE, "--seed", "2", "--stop-after", "0", "--save", str(save)]) == 1
    assert capsys.readouterr().err.endswith(f"umpire: error: {save} already exists: use --force to replace it\n")
    assert save.read_text() == "the other run's save\n" and left_behind(tmp_path) == []


class FullDisk:
    """A file whose writes stop half way with 'No space left on device'."""

    def __init__(self, real):
        self.real = real

    def write(self, data):
        self.real.write(data[: len(data) // 2])
        self.real.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name):
        return getattr(self.real, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()


@pytest.fixture
def full_disk(monkeypatch, tmp_path):
    """Every file opened for writing under tmp_path (by name or by descriptor) fills the disk."""
    opened, fdopened = builtins.open, os.fdopen

    def opening(file, mode="r", *args, **kwargs):
        f = opened(file, mode, *args, **kwargs)
        return FullDisk(f) if "w" in mode and str(file).startswith(str(tmp_path)) else f

    def fdopening(fd, mode="r", *args, **kwargs):
        f = fdopened(fd, mode, *args, **kwargs)
        return FullDisk(f) if "w" in mode else f

    monkeypatch.setattr(builtins, "open", opening)
    monkeypatch.setattr(os, "fdopen", fdopening)


def test_draw_on_a_full_disk_leaves_the_old_picture_whole(tmp_path, capsys, full_disk):
    picture = tmp_path / "pic.svg"
    picture.write_text("<svg>the old picture</svg>\n")
    assert main(["draw", EOP, "-o", str(picture), "--force"]) == 1
    assert capsys.readouterr().err == f"umpire: error: cannot write {picture}: No space left on device\n"
    assert picture.read_text() == "<svg>the old picture</svg>\n" and left_behind(tmp_path) == []


def test_play_draw_on_a_full_disk_is_an_error_leaving_no_half_picture(tmp_path, capsys, full_disk):
    folder = tmp_path / "game"
    assert main(["play", TOY, "--seed", "1", "--draw", str(folder)]) == 1
    assert (f"umpire: error: --draw: cannot write {folder / 'turn-01.svg'}: No space left on device"
            in capsys.readouterr().err)
    assert list(folder.iterdir()) == []


def test_study_on_a_full_disk_leaves_no_half_table(tmp_path, capsys, full_disk):
    table = tmp_path / "out.csv"
    assert main(["study", TOY, "--games", "1", "--csv", str(table)]) == 1
    assert capsys.readouterr().err.endswith(f"umpire: error: cannot write {table}: No space left on device\n")
    assert not table.exists() and left_behind(tmp_path) == []


@pytest.mark.parametrize("make", [False, True])
def test_play_draw_into_a_read_only_folder_says_so(tmp_path, capsys, monkeypatch, make):
    """Run as root, a folder's mode does not stop a write: the folder is made read-only by os.access."""
    shut = tmp_path / "shut"
    shut.mkdir()
    folder = shut / "game" if not make else shut
    real_access = os.access
    monkeypatch.setattr(draw_command.os, "access",
                        lambda p, mode: False if Path(p) == shut else real_access(p, mode))
    assert main(["play", TOY, "--seed", "1", "--draw", str(folder)]) == 1
    assert capsys.readouterr().err == f"umpire: error: --draw: the folder {shut} cannot be written to\n"


def test_explain_draw_refuses_a_link_to_a_ruleset(tmp_path, capsys):
    link = tmp_path / "line.svg"
    victim = victim_behind(link)
    assert main(["explain", EOP, "--at", "137", "--draw", str(link), "--force"]) == 1
    assert "is a symbolic link to a file of another kind" in capsys.readouterr().err
    assert victim.read_text() == VICTIM
