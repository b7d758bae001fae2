"""Tampered saves of every game: a field changed to a value the game's rules can tell is wrong (a side,
place, unit, phase, step or game state the rules do not have, a track past its bounds, a value of the
wrong type, a field no save has, a random generator's state of zeros) is refused with exit 1 and a
message naming the field; a change the rules cannot tell (a track moved within its bounds, in the
position and in its summary alike) may be loaded, and `--verify` then names the field that is not the
replay's. Nothing ends in exit 70 or a traceback.

A save of each game in rulesets/ (seed 1, eager agents, suspended after 5 decisions) is tampered with
once per example; a load that is accepted plays on to two decisions more and is saved again, so an
example takes a fraction of a second. UMPIRE_FUZZ_SCALE=N runs N times the examples.
"""

from __future__ import annotations

import copy
import os
import tomllib
from pathlib import Path

import pytest
import tomli_w
from fuzzing import cli, fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent.parent
GAMES = sorted(p.stem for p in (ROOT / "rulesets").glob("*.rules"))
STOP = 5
NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=3, max_size=12).map(lambda s: "zz_" + s)


@pytest.fixture(scope="module")
def saves(tmp_path_factory) -> dict[str, dict]:
    folder = tmp_path_factory.mktemp("tampered")
    out = {}
    before = os.getcwd()
    os.chdir(ROOT)
    try:
        for game in GAMES:
            save = folder / f"{game}.toml"
            code, text = cli("play", f"rulesets/{game}.rules", "--seed", "1", "--agents", "eager,eager",
                             "--stop-after", str(STOP), "--save", str(save))
            assert code == 0 and save.exists(), text[-2000:]
            out[game] = tomllib.loads(save.read_text())
    finally:
        os.chdir(before)
    return out


def _load(folder: Path, data: dict, *extra: str) -> tuple[int, str]:
    """Load the tampered save (written beside the game's saves, so its paths hold) and play two decisions on."""
    save = folder / "tampered.toml"
    save.write_text(tomli_w.dumps(data))
    return cli("play", "--load", str(save), *extra, "--stop-after", str(STOP + 2), "--save", str(folder / "again.toml"),
               "--force")


# ── tampering the rules can tell ──
# Each takes the save's data and hypothesis's draw, changes one field, and gives the field's path as the
# refusal names it.

def _any(draw, items: list):
    return draw(st.integers(0, len(items) - 1)) if items else None


def unknown_side(d, draw):
    i = _any(draw, d["position"]["units"])
    d["position"]["units"][i]["side"] = draw(NAMES)
    return f"position.units[{i}].side"


def unknown_unit(d, draw):
    i = _any(draw, d["position"]["units"])
    d["position"]["units"][i]["id"] = draw(NAMES)
    return f"position.units[{i}].id"


def unknown_place(d, draw):
    i = _any(draw, d["position"]["units"])
    d["position"]["units"][i]["location"] = {"t": "place", "id": draw(NAMES)}
    return f"position.units[{i}].location.id"


def unknown_phase(d, draw):
    d["position"]["clock"][1] = draw(NAMES)
    return "position.clock[1]"


def unknown_step(d, draw):
    d["position"]["clock"][2] = draw(NAMES)
    return "position.clock[2]"


def turn_out_of_the_game(d, draw):
    d["position"]["clock"][0] = draw(st.sampled_from([0, -1, 10_000]))
    return "position.clock[0]"


def track_past_its_bounds(d, draw):
    i = _any(draw, d["position"]["tracks"])
    values = d["position"]["tracks"][i]["values"]
    k = _any(draw, values)
    values[k][1] = draw(st.sampled_from([-1_000_000, 10**6, 10**18, 2**63 - 1]))
    return f"position.tracks[{i}].values[{k}][1]"


def unknown_track_entry(d, draw):
    i = _any(draw, d["position"]["tracks"])
    d["position"]["tracks"][i]["values"][0][0] = draw(NAMES)
    return f"position.tracks[{i}].values[0][0]"


def unknown_game_state(d, draw):
    d["position"]["globals"]["items"].append([draw(NAMES), 1])
    return "position.globals.zz_"


def unknown_code(d, draw):
    i = _any(draw, d["position"]["stack"])
    d["position"]["stack"][i]["fields"]["code"] = {"t": "code", "name": ["procedure", draw(NAMES)]}
    return f"position.stack[{i}].fields.code.name"


def wrong_type(d, draw):
    table, key = draw(st.sampled_from([("position", "waiting"), ("position", "depth"), ("position", "steps"),
                                       ("state", "turn"), ("state", "tracks"), ("goes_on", "segment"),
                                       ("umpire_save", "seed"), ("umpire_save", "decisions")]))
    d[table][key] = draw(st.sampled_from(["yes", 2.5, [1, "x"], {"a": 1}])) if key != "waiting" else 3
    return key if table == "umpire_save" else f"{table}.{key}"


def extra_field(d, draw):
    name = draw(NAMES)
    where = draw(st.sampled_from(["", "umpire_save", "state", "goes_on", "position", "unit", "track", "value"]))
    if where == "":
        d[name] = {"x": 1}
        return name
    if where == "umpire_save":
        d["umpire_save"][name] = 1
        return name
    if where in ("state", "goes_on", "position"):
        d[where][name] = 1
        return f"{where}.{name}"
    if where == "unit":
        d["position"]["units"][0][name] = 1
        return f"position.units[0].{name}"
    if where == "track":
        d["position"]["tracks"][0][name] = 1
        return f"position.tracks[0].{name}"
    d["position"]["units"][0]["state"][name] = 1
    return f"position.units[0].state.{name}"


def generator_of_zeros(d, draw):
    sides = list(d["goes_on"]["agents"])
    which = draw(st.sampled_from(["dice", *sides]))
    state = d["goes_on"]["dice"] if which == "dice" else d["goes_on"]["agents"][which]
    state[1] = [0] * 624 + [draw(st.integers(0, 624))]
    return "goes_on.dice" if which == "dice" else f"goes_on.agents.{which}"


def unknown_agent_side(d, draw):
    d["goes_on"]["agents"][draw(NAMES)] = copy.deepcopy(d["goes_on"]["dice"])
    return "goes_on.agents.zz_"


def summary_not_the_position(d, draw):
    """The `state` summary says another value of a track than the position holds."""
    name = next(iter(d["state"]["tracks"]))
    key = next(iter(d["state"]["tracks"][name]))
    d["state"]["tracks"][name][key] += draw(st.integers(1, 5))
    return f"state.tracks.{name}"


TELLS = [unknown_side, unknown_unit, unknown_place, unknown_phase, unknown_step, turn_out_of_the_game,
         track_past_its_bounds, unknown_track_entry, unknown_game_state, unknown_code, wrong_type, extra_field,
         generator_of_zeros, unknown_agent_side, summary_not_the_position]


@pytest.mark.parametrize("tamper", TELLS, ids=[t.__name__ for t in TELLS])
@fuzz_settings(1)
@given(data=st.data())
def test_each_tampering_its_rules_can_tell_is_refused_naming_the_field(saves, tmp_path, tamper, data):
    """Every kind of tampering, on the game whose save loads quickest."""
    _refused(saves, tmp_path, "jenkins_ear", tamper, data)


@fuzz_settings(10)
@given(game=st.sampled_from(GAMES), tamper=st.sampled_from(TELLS), data=st.data())
def test_a_save_of_any_game_tampered_as_its_rules_can_tell_is_refused_naming_the_field(saves, tmp_path, game, tamper,
                                                                                          data):
    _refused(saves, tmp_path, game, tamper, data)


def _refused(saves, tmp_path, game, tamper, data) -> None:
    d = copy.deepcopy(saves[game])
    field = tamper(d, data.draw)
    code, text = _load(tmp_path, d)
    errors = [line for line in text.splitlines() if line.startswith("umpire: error:")]
    assert code == 1, (game, tamper.__name__, field, code, text[-1500:])
    assert "Traceback" not in text and "internal error" not in text
    assert len(errors) == 1 and f"field '{field}" in errors[0], (game, tamper.__name__, field, errors)


# ── tampering the rules cannot tell ──

def _move_a_track(d, draw) -> tuple[str, str]:
    """A track's value moved within its bounds, in the position and its summary alike: the path --verify names."""
    tracks = d["position"]["tracks"]
    i = _any(draw, tracks)
    name, values = tracks[i]["name"], tracks[i]["values"]
    k = _any(draw, values)
    key, value = values[k]
    by = draw(st.sampled_from([-3, -1, 1, 3]))
    values[k][1] = value + by
    summary = d["state"]["tracks"][name]
    summary[key if isinstance(key, str) else name] += by
    return name, f"tracks.{name}[{key}]" if isinstance(key, str) else f"tracks.{name}"


@fuzz_settings(4)
@given(game=st.sampled_from(GAMES), data=st.data())
def test_a_save_tampered_as_its_rules_cannot_tell_may_load_and_verify_names_the_field(saves, tmp_path, game, data):
    d = copy.deepcopy(saves[game])
    name, path = _move_a_track(d, data.draw)
    code, text = _load(tmp_path, d)
    assert code in (0, 1) and "Traceback" not in text and "internal error" not in text, text[-1500:]
    if code == 1:  # past the track's bounds, or a rule that reads it stops: refused, naming the field
        assert "position.tracks" in text or "umpire: error:" in text, text[-1500:]
        return
    code, text = _load(tmp_path, d, "--verify")
    assert code == 1, text[-1500:]
    assert f"umpire: error: position differs from the replay at {path}: saved" in text, text[-1500:]
    assert f"umpire: error: state differs from the replay at tracks.{name}." in text, text[-1500:]
    assert "Traceback" not in text and "internal error" not in text
