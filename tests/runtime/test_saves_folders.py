"""A save loads from any folder the saving command could have run in: the checkout's root, a folder
outside the checkout, a folder inside rulesets/, for every game; and where it cannot, the error
names what to pass."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import tomli_w

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
GAMES = ["jenkins_ear", "guerra_a_muerte", "sea_of_glory_1805", "when_lions_sailed", "yellow_jack"]
FOLDERS = ["root", "outside", "inside rulesets"]


def folder(where: str, game: str, tmp_path: Path) -> Path:
    """A working folder: the checkout's root, one outside the checkout, the game's folder inside rulesets/."""
    if where == "outside":
        (tmp_path / "outside").mkdir(exist_ok=True)
        return tmp_path / "outside"
    return ROOT if where == "root" else ROOT / "rulesets" / game


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "internal error" not in out.err
    return code, out.out, out.err


def save_a_game(capsys, monkeypatch, tmp_path: Path, game: str, where: str) -> Path:
    """A few decisions of the game between random agents, saved from `where`: the save beside the
    working folder outside the checkout (as `--save a.toml`), else in a folder outside it."""
    cwd = folder(where, game, tmp_path)
    monkeypatch.chdir(cwd)
    rules = {"root": f"rulesets/{game}.rules", "inside rulesets": f"../{game}.rules"}.get(
        where, str(ROOT / "rulesets" / f"{game}.rules"))
    save = "a.toml" if where == "outside" else str(tmp_path / "a.toml")
    code, out, err = run(capsys, "play", rules, "--agents", "random", "--seed", "5", "--stop-after", "3", "--save", save)
    assert code == 0 and f"saved to {save}" in out, err
    return cwd / save


def load(capsys, monkeypatch, tmp_path: Path, save: Path, cwd: Path, *more: str) -> tuple[int, str, str]:
    """The save loaded from `cwd` and played one decision on (saved again, so the game stays short)."""
    monkeypatch.chdir(cwd)
    return run(capsys, "play", "--load", str(save), "--stop-after", "4", "--save", str(tmp_path / "b.toml"),
               "--force", *more)


@pytest.mark.parametrize("saved_in", FOLDERS)
@pytest.mark.parametrize("game", GAMES)
def test_a_save_loads_from_every_folder(capsys, monkeypatch, tmp_path, game, saved_in):
    save = save_a_game(capsys, monkeypatch, tmp_path, game, saved_in)
    for where in FOLDERS:
        code, out, err = load(capsys, monkeypatch, tmp_path, save, folder(where, game, tmp_path))
        assert code == 0 and "saved to" in out, f"saved in {saved_in}, loaded in {where}: {err}"


def test_a_save_whose_root_does_not_hold_its_game_file_still_loads(capsys, monkeypatch, tmp_path):
    """Such a root (the working folder, when the game was played from outside its tree) is not
    granted: the game's own folder holds what it reads."""
    save = save_a_game(capsys, monkeypatch, tmp_path, "yellow_jack", "outside")
    data = tomllib.loads(save.read_text())
    data["umpire_save"]["root"] = "."
    save.write_text(tomli_w.dumps(data))
    for where in FOLDERS:
        code, out, err = load(capsys, monkeypatch, tmp_path, save, folder(where, "yellow_jack", tmp_path))
        assert code == 0 and "saved to" in out, f"loaded in {where}: {err}"


def test_a_scenario_played_from_outside_with_allow_path_loads_without_it(capsys, monkeypatch, tmp_path):
    scenario = ROOT / "scenarios" / "jenkins_ear" / "eop_combat_step.scenario"
    outside = folder("outside", "jenkins_ear", tmp_path)
    monkeypatch.chdir(outside)
    code, out, err = run(capsys, "play", str(scenario), "--allow-path", str(ROOT), "--agents", "random",
                         "--stop-after", "3", "--save", "a.toml")
    assert code == 0 and "saved to a.toml" in out, err
    for where in FOLDERS:
        code, out, err = load(capsys, monkeypatch, tmp_path, outside / "a.toml", folder(where, "jenkins_ear", tmp_path))
        assert code == 0 and "saved to" in out, f"loaded in {where}: {err}"


def test_a_save_whose_files_lie_in_two_roots_names_the_folder_to_allow(capsys, monkeypatch, tmp_path):
    """Played from the scenario's folder with --allow-path for the ruleset's: no folder the run could
    read holds both, so none is recorded, and a load from elsewhere says which folder to pass."""
    monkeypatch.chdir(ROOT / "scenarios" / "jenkins_ear")
    code, out, err = run(capsys, "play", "eop_combat_step.scenario", "--allow-path", "../../rulesets", "--agents",
                         "random", "--stop-after", "3", "--save", str(tmp_path / "a.toml"))
    assert code == 0, err
    assert "root" not in tomllib.loads((tmp_path / "a.toml").read_text())["umpire_save"]
    outside = folder("outside", "jenkins_ear", tmp_path)
    code, out, err = load(capsys, monkeypatch, tmp_path, tmp_path / "a.toml", outside)
    assert code == 1 and f"allow it with --allow-path {ROOT / 'rulesets'}" in err
    code, out, err = load(capsys, monkeypatch, tmp_path, tmp_path / "a.toml", outside, "--allow-path", str(ROOT / "rulesets"))
    assert code == 0 and "saved to" in out, err
