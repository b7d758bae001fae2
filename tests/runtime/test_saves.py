"""Saves are safe to write and to load: nothing is overwritten by accident, a tampered save is
refused with the field that is wrong (never an internal error, never a silent replay), named
scenarios save and load, and a save loads from any working folder."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
import tomli_w

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
SETUP = "scenarios/jenkins_ear/eop_combat_step.scenario"


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "internal error" not in out.err
    assert code in (0, 1)
    return code, out.out, out.err


def body(text: str) -> list[str]:
    """The narration after the two header lines, without the save's own messages."""
    return [line for line in text.splitlines()[2:] if not line.startswith(("(suspended", "saved to"))]


# ── writing ──

def test_an_existing_file_is_not_replaced_without_force(at_root, capsys, tmp_path):
    save = tmp_path / "game.toml"
    save.write_text("my notes")
    code, out, err = run(capsys, "play", SETUP, "--seed", "2", "--save", str(save), "--stop-after", "3")
    assert code == 1 and "already exists: use --force to replace it" in err
    assert out == "", "refused before the game is played"
    assert save.read_text() == "my notes"
    code, out, err = run(capsys, "play", SETUP, "--seed", "2", "--save", str(save), "--stop-after", "3", "--force")
    assert code == 0 and f"saved to {save}" in out
    assert "umpire_save" in tomllib.loads(save.read_text())


@pytest.mark.parametrize("name", ["rulesets/jenkins_ear.rules", SETUP, "rulesets/jenkins_ear.errata"])
def test_a_save_never_replaces_the_game_s_own_files_even_with_force(at_root, capsys, name):
    before = (ROOT / name).read_bytes()
    code, out, err = run(capsys, "play", SETUP, "--save", name, "--stop-after", "3", "--force")
    assert code == 1 and "a save never replaces the game's own files" in err
    assert (ROOT / name).read_bytes() == before


@pytest.mark.parametrize("where,message", [
    ("", "--save needs a file name"),
    ("missing/folder/game.toml", "does not exist"),
    (".", "is a folder"),
])
def test_an_unusable_save_target_is_refused_before_playing(at_root, capsys, tmp_path, where, message):
    target = str(tmp_path / where) if where else ""
    code, out, err = run(capsys, "play", SETUP, "--save", target, "--stop-after", "3")
    assert code == 1 and message in err and out == ""


def test_a_save_is_written_whole_and_leaves_no_temporary_file(at_root, capsys, tmp_path):
    save = tmp_path / "game.toml"
    assert run(capsys, "play", SETUP, "--seed", "2", "--save", str(save), "--stop-after", "4")[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.toml"]


def test_stopping_after_the_end_of_the_game_says_that_nothing_was_saved(at_root, capsys, tmp_path):
    save = tmp_path / "game.toml"
    code, out, err = run(capsys, "play", SETUP, "--seed", "2", "--save", str(save), "--stop-after", "100000")
    assert code == 1 and "the game ended before decision 100001: there was nothing to save" in err
    assert not save.exists()


# ── loading ──

@pytest.fixture
def saved(at_root, capsys, tmp_path):
    """A game of the combat step saved after 4 decisions, and the uninterrupted game."""
    whole = run(capsys, "play", SETUP, "--seed", "2")[1]
    save = tmp_path / "game.toml"
    first = run(capsys, "play", SETUP, "--seed", "2", "--save", str(save), "--stop-after", "4")[1]
    return save, whole, first


def test_a_save_loads_from_another_working_folder(saved, capsys, monkeypatch, tmp_path):
    save, whole, first = saved
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, rest, err = run(capsys, "play", "--load", str(save))
    assert code == 0, err
    assert body(first) + rest.splitlines()[2:] == body(whole)


def tampered(save: Path, **changes) -> None:
    data = tomllib.loads(save.read_text())
    for key, value in changes.items():
        table, _, field = key.rpartition(".")
        target = data[table or "umpire_save"] if table != "state" else data["state"]
        if value is None:
            del target[field]
        else:
            target[field] = value
    save.write_text(tomli_w.dumps(data))


@pytest.mark.parametrize("changes,field", [
    ({"seed": "4"}, "seed"),
    ({"seed": True}, "seed"),
    ({"events": "x"}, "events"),
    ({"file": 5}, "file"),
    ({"file": ""}, "file"),
    ({"decisions": -1}, "decisions"),
    ({"decisions": "3"}, "decisions"),
    ({"errata": False}, "errata"),
    ({"errata": "yes"}, "errata"),
    ({"overlays": ["rulesets/jenkins_ear/house/bold_interception.house"]}, "overlays"),
    ({"agents": ["clever", "first"]}, "agents"),
    ({"agents": "random"}, "agents"),
    ({"typed": [1, 2]}, "typed"),
    ({"format": 99}, "format"),
    ({"seed": None}, "seed"),
    ({"state.units": None}, "state.units"),
])
def test_a_tampered_save_is_refused_naming_the_field(saved, capsys, changes, field):
    save = saved[0]
    if field == "overlays":  # stored relative to the save's folder
        changes = {"overlays": [os.path.relpath(ROOT / changes["overlays"][0], save.parent)]}
    tampered(save, **changes)
    code, out, err = run(capsys, "play", "--load", str(save))
    assert code == 1, out
    assert f"field '{field}'" in err or (field in ("errata", "overlays") and "field 'errata' or 'overlays'" in err), err
    assert "[5.0]" not in out, "no game was played from a tampered save"


@pytest.mark.parametrize("changes,field", [({"decisions": 10**9}, "decisions"), ({"events": 3}, "events")])
def test_verifying_a_save_replays_it_and_refuses_a_header_the_game_does_not_reach(saved, capsys, changes, field):
    save = saved[0]
    tampered(save, **changes)
    code, out, err = run(capsys, "play", "--load", str(save), "--verify")
    assert code == 1 and f"field '{field}'" in err, err
    assert "[5.0]" not in out


def test_a_changed_narration_or_position_does_not_replay(saved, capsys):
    save = saved[0]
    tampered(save, narration="0" * 16)
    code, out, err = run(capsys, "play", "--load", str(save), "--verify")
    assert code == 1 and "does not replay to the saved position" in err


def test_a_save_goes_on_from_its_position_and_verifies_by_replay(saved, capsys):
    """Loaded from its position (no replay) or verified by replaying from the seed, the game goes on
    as the uninterrupted one, line for line."""
    save, whole, first = saved
    data = tomllib.loads(save.read_text())
    assert data["umpire_save"]["format"] == 3 and data["position"]["stack"] and data["goes_on"]["segment"][0] == "step"
    for extra in ((), ("--verify",)):
        code, rest, err = run(capsys, "play", "--load", str(save), *extra)
        assert code == 0, err
        assert body(first) + rest.splitlines()[2:] == body(whole)


def damaged(save: Path, where: tuple, value) -> None:
    data = tomllib.loads(save.read_text())
    target = data
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    save.write_text(tomli_w.dumps(data))


@pytest.mark.parametrize("where,value,field", [
    (("position", "units", 0, "id"), "NOBODY", "position.units[0].id"),
    (("position", "stack", 0, "fields", "pc"), 10**6, "position.stack[0].fields.pc"),
    (("position", "stack", 0, "fields", "code", "name"), ["procedure", "no_such"], "position.stack[0].fields.code.name"),
    (("position", "waiting"), "yes", "position.waiting"),
    (("goes_on", "segment"), ["lunch", 3], "goes_on.segment"),
    (("goes_on", "segment"), ["step", 99, "english_phase", "movement"], "goes_on.segment"),
    (("goes_on", "dice"), [3, [1, 2, 3]], "goes_on.dice"),
    # what the game's rules tell apart: a side, a phase or step, a track's bounds, a generator's state
    (("position", "units", 0, "side"), "martians", "position.units[0].side"),
    (("position", "clock", 1), "nope", "position.clock[1]"),
    (("position", "clock", 2), "nope", "position.clock[2]"),
    (("position", "clock", 0), 0, "position.clock[0]"),
    (("position", "tracks", 0, "values", 0, 1), 10**18, "position.tracks[0].values[0][1]"),
    (("position", "tracks", 0, "values", 0, 1), 101, "position.tracks[0].values[0][1]"),
    (("position", "tracks", 0, "values", 0, 0), "martians", "position.tracks[0].values[0][0]"),
    (("goes_on", "dice", 1), [0] * 625, "goes_on.dice"),
    (("goes_on", "agents", "english", 1), [0] * 624 + [624], "goes_on.agents.english"),
    (("goes_on", "agents", "martians"), [3, [1] * 624 + [0]], "goes_on.agents.martians"),
    # fields no save has, wherever they are added
    (("shadow",), {"x": 1}, "shadow"),
    (("umpire_save", "shadow"), 1, "shadow"),
    (("state", "shadow"), 1, "state.shadow"),
    (("goes_on", "shadow"), 1, "goes_on.shadow"),
    (("position", "shadow"), 1, "position.shadow"),
    (("position", "units", 0, "shadow"), 1, "position.units[0].shadow"),
    (("position", "units", 0, "location", "shadow"), 1, "position.units[0].location.shadow"),
    (("state", "turn"), "one", "state.turn"),
])
def test_a_damaged_position_is_refused_naming_the_field(saved, capsys, where, value, field):
    save = saved[0]
    damaged(save, where, value)
    code, out, err = run(capsys, "play", "--load", str(save))
    assert code == 1 and f"field '{field}'" in err, err
    assert "[5.0]" not in out


def test_a_file_that_is_not_a_save_is_refused(at_root, capsys, tmp_path):
    for text in ("not toml at all [", "x = 1\n", "\xff"):
        path = tmp_path / "bad.toml"
        path.write_text(text, encoding="latin-1")
        code, _, err = run(capsys, "play", "--load", str(path))
        assert code == 1 and "umpire: error:" in err


def test_a_named_scenario_saves_and_loads(at_root, capsys, tmp_path):
    args = ["play", "rulesets/guerra_a_muerte.rules", "--scenario", "opening_guns", "--seed", "3"]
    whole = run(capsys, *args)[1]
    save = tmp_path / "gam.toml"
    first = run(capsys, *args, "--save", str(save), "--stop-after", "12")[1]
    assert tomllib.loads(save.read_text())["umpire_save"]["scenario"] == "opening_guns"
    code, rest, err = run(capsys, "play", "--load", str(save))
    assert code == 0, err
    assert body(first) + rest.splitlines()[2:] == body(whole)


def test_a_save_never_makes_umpire_read_a_file_that_is_not_the_game_s(saved, capsys, tmp_path):
    save = saved[0]
    secret = tmp_path / "secret.txt"
    secret.write_text("MARKER-7f3a: not for the opponent\n")
    for field, value in (("file", "secret.txt"), ("file", "/etc/passwd"), ("overlays", ["secret.txt"])):
        text = save.read_text()
        tampered(save, **{field: value}, **({"root": "/"} if value == "/etc/passwd" else {"root": "."} if field == "file" else {}))
        code, out, err = run(capsys, "play", "--load", str(save))
        assert code == 1 and "MARKER-7f3a" not in out + err and "root:" not in out + err
        assert f"a save's '{field}' name" in err, err
        save.write_text(text)


def test_a_save_s_root_is_granted_only_when_it_holds_its_game_file(saved, capsys, monkeypatch, tmp_path):
    save = saved[0]
    tampered(save, root="../../../../../../../../..")
    code, out, err = run(capsys, "play", "--load", str(save))
    assert code == 0 or "field 'root'" in err
    tampered(save, root=".")  # the save's own folder does not hold the game's scenario: not granted
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, out, err = run(capsys, "play", "--load", str(save))
    assert code == 1 and "'../../rulesets/jenkins_ear.rules' leads outside the folders this run may read" in err
    assert f"allow it with --allow-path {ROOT / 'rulesets'}" in err
    code, out, err = run(capsys, "play", "--load", str(save), "--allow-path", str(ROOT / "rulesets"))
    assert code == 0, err


@pytest.mark.parametrize("args", [["play", "--load", "\0.toml"], ["play", SETUP, "--save", "\0.toml", "--stop-after", "1"]])
def test_a_nul_byte_in_a_save_name_is_refused(at_root, capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 1 and "umpire: error:" in err and out == ""


def test_a_game_loaded_from_its_position_saves_again_and_still_verifies(saved, capsys, tmp_path):
    """Saved, loaded from the position, saved again later, loaded again: the three parts tell the whole
    game; the second save's narration digest is chained at the load (`links`), so --verify replaying
    from the seed accepts it, and refuses it once a line of the chain is changed."""
    save, whole, first = saved
    again = tmp_path / "again.toml"
    code, second, err = run(capsys, "play", "--load", str(save), "--save", str(again), "--stop-after", "9")
    assert code == 0, err
    head = tomllib.loads(again.read_text())["umpire_save"]
    assert head["decisions"] == 9 and head["links"] == [tomllib.loads(save.read_text())["umpire_save"]["events"]]
    code, third, err = run(capsys, "play", "--load", str(again))
    assert code == 0, err
    assert body(first) + body(second) + third.splitlines()[2:] == body(whole)
    code, verified, err = run(capsys, "play", "--load", str(again), "--verify")
    assert code == 0, err
    assert verified.splitlines()[2:] == third.splitlines()[2:]
    tampered(again, links=[1])
    code, _, err = run(capsys, "play", "--load", str(again), "--verify")
    assert code == 1 and "does not replay to the saved position" in err
    tampered(again, links=[5, 2])
    code, _, err = run(capsys, "play", "--load", str(again))
    assert code == 1 and "field 'links'" in err


@pytest.mark.parametrize("where", [("goes_on", "dice"), ("goes_on", "agents", "british")])
def test_a_generator_state_of_another_version_is_refused_naming_the_field(tmp_path, where):
    """Python's generator takes back only its own layout of a state (version 3): any other version
    is refused like any other bad field, exit 1, never a traceback (exit 70)."""
    import subprocess
    import sys

    def umpire(*args):
        return subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=600)

    save = tmp_path / "yj.toml"
    made = umpire("play", "rulesets/yellow_jack.rules", "--agents", "random,random", "--stop-after", "5",
                  "--save", str(save))
    assert made.returncode == 0, made.stderr
    data = tomllib.loads(save.read_text())
    target = data
    for key in where:
        target = target[key]
    target[0] = 99
    save.write_text(tomli_w.dumps(data))
    loaded = umpire("play", "--load", str(save))
    field = ".".join(where)
    assert (loaded.returncode, loaded.stderr) == (
        1, f"umpire: error: {save}: field '{field}': version 99 is not the random generator's version (3)\n")


def test_a_position_that_is_not_its_summary_is_refused(saved, capsys):
    """A track edited in the position alone: the save's summary of it (`state`) still says the old value."""
    save = saved[0]
    damaged(save, ("position", "tracks", 0, "values", 0, 1), 43)
    code, out, err = run(capsys, "play", "--load", str(save))
    assert (code, err) == (1, "umpire: error: field 'state.tracks.war_funds.english': the summary of the position says "
                              "40; the position holds 43\n")


def test_verifying_names_each_field_the_replay_does_not_have(saved, capsys):
    """A track moved within its bounds in the position and its summary alike is a position the rules
    allow, so it loads; --verify replays the game and names every field that is not the replay's."""
    save = saved[0]
    damaged(save, ("position", "tracks", 0, "values", 0, 1), 43)
    damaged(save, ("state", "tracks", "war_funds", "english"), 43)
    damaged(save, ("position", "units", 0, "location"), {"t": "place", "id": "2719"})
    assert run(capsys, "play", "--load", str(save))[0] in (0, 1)
    code, out, err = run(capsys, "play", "--load", str(save), "--verify")
    lines = err.splitlines()
    unit = tomllib.loads(save.read_text())["position"]["units"][0]["id"]
    assert code == 1 and "[5.0]" not in out
    assert "umpire: error: position differs from the replay at tracks.war_funds[english]: saved 43, replayed 40" in lines
    assert "umpire: error: state differs from the replay at tracks.war_funds.english: saved 43, replayed 40" in lines
    assert any(line.startswith(f"umpire: error: position differs from the replay at units.{unit}.location: saved place 2719")
               for line in lines), err
    assert lines[-1].startswith("umpire: error: this saved game does not replay to the saved position: 3 difference(s)")
