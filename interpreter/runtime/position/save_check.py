"""What a loaded save is checked for against the game it names, beyond its own fields (saves.py) and
its position's (position_data.py): that its parts agree with one another and with the game's agents,
and, with `--verify`, that they are the replay's, field by field.

A save's parts are plain data; `flat` reads each as its fields, by a path a person can find in the
file (`tracks.funds[red]`, `units.A1.location`, `stack[2].fields.pc`), so a difference is
named where it is, not as a list index.
"""

from __future__ import annotations

from typing import Any

from ... import limits

_ABSENT = "(absent)"
_CONTAINERS = ("map", "list", "set", "tuple", "record", "frame", "pool")


def flat(data: Any, path: str = "") -> dict[str, str]:
    """Every field of a part of a save, by path, as text."""
    out: dict[str, str] = {}
    _fields(data, path, out)
    return out


def position_fields(data: Any) -> dict[str, str]:
    """A saved position's fields (position_data.to_data), with its units, places, tracks and cups by name."""
    if not isinstance(data, dict):
        return flat(data)
    out: dict[str, str] = {}
    for key, value in data.items():
        named = _NAMED.get(key)
        if named is not None and isinstance(value, list):
            for i, rec in enumerate(value):
                named(rec, i, out)
        elif key == "clock" and isinstance(value, list) and len(value) == 3:
            for name, x in zip(("turn", "phase", "step"), value):
                _fields(x, f"clock.{name}", out)
        else:
            _fields(value, key, out)
    return out


def differences(saved: dict[str, str], replayed: dict[str, str]) -> list[tuple[str, str, str]]:
    """(path, saved, replayed) of every field that is not the same in both, in the save's order."""
    paths = list(saved) + [p for p in replayed if p not in saved]
    return [(p, saved.get(p, _ABSENT), replayed.get(p, _ABSENT)) for p in paths
            if saved.get(p, _ABSENT) != replayed.get(p, _ABSENT)]


def generator_differences(part: str, saved: Any, replayed: Any) -> list[tuple[str, str, str]]:
    """A random generator's state compared whole: 625 numbers are no field a person reads one by one."""
    if saved == replayed:
        return []
    return [(part, "a generator's state", "another state" if replayed is not None else _ABSENT)]


def shown(part: str, found: list[tuple[str, str, str]]) -> list[str]:
    """Each difference as a line; past limits.MAX_DIFFERENCES_SHOWN, how many more."""
    lines = [f"{part} differs from the replay at {path}: saved {a}, replayed {b}"
             for path, a, b in found[:limits.MAX_DIFFERENCES_SHOWN]]
    if len(found) > limits.MAX_DIFFERENCES_SHOWN:
        lines.append(f"{part} differs from the replay at {len(found) - limits.MAX_DIFFERENCES_SHOWN} more field(s)")
    return lines


def agents_problem(goes_on: dict, drawing: set[str], remembering: set[str]) -> tuple[str, str] | None:
    """(field, what is wrong) when the saved generators and memories are not those of the game's agents:
    a generator for each side whose agent draws at random, a memory only for a side whose agent keeps one."""
    for side in goes_on["agents"]:
        if side not in drawing:
            return f"goes_on.agents.{side}", f"no agent of this game that draws at random plays '{side}'"
    for side in sorted(drawing - set(goes_on["agents"])):
        return "goes_on.agents", f"the generator of the agent of '{side}' is missing"
    for side in goes_on.get("memory", {}):
        if side not in remembering:
            return f"goes_on.memory.{side}", f"no agent of this game that keeps a memory plays '{side}'"
    return None


# ── reading the parts as fields ──

def _fields(v: Any, path: str, out: dict[str, str]) -> None:
    if isinstance(v, dict) and v.get("t") in _CONTAINERS:
        _container(v, path, out)
    elif isinstance(v, dict) and "t" in v:
        out[path] = _text(v)
    elif isinstance(v, dict):
        if not v:
            out[path] = "{}"
        for k, x in v.items():
            _fields(x, _key(path, k), out)
    elif isinstance(v, list):
        if not v:
            out[path] = "[]"
        for i, x in enumerate(v):
            _fields(x, f"{path}[{i}]", out)
    else:
        out[path] = _text(v)


def _container(v: dict, path: str, out: dict[str, str]) -> None:
    """A map by its keys, a record by its fields, a frame by its fields, a list by its items (refs left out:
    they only number the containers)."""
    t = v["t"]
    if t == "map" and isinstance(v.get("items"), list):
        pairs = [p for p in v["items"] if isinstance(p, list) and len(p) == 2]
        if not pairs:
            out[path] = "{}"
        for key, x in pairs:
            _fields(x, _key(path, key if isinstance(key, str) else _text(key)), out)
    elif t == "record" and isinstance(v.get("fields"), list):
        for pair in v["fields"]:
            if isinstance(pair, list) and len(pair) == 2:
                _fields(pair[1], _key(path, str(pair[0])), out)
        out[path] = f"a {v.get('type')}"
    elif t == "frame":
        out[path] = f"a {v.get('frame')}"
        _fields(v.get("fields"), path, out)
    else:
        rest = {k: x for k, x in v.items() if k not in ("t", "ref")}
        out[path] = f"a {t}"
        _fields(rest.pop("items", []), path, out)
        for k, x in rest.items():
            _fields(x, _key(path, k), out)


def _key(path: str, key: Any) -> str:
    key = str(key)
    if key.isidentifier():
        return f"{path}.{key}" if path else key
    return f"{path}[{key}]"


def _text(v: Any) -> str:
    """A value as a difference shows it: a number or a truth value as TOML writes it, a unit or place by id."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, str)):
        return str(v) if isinstance(v, int) else repr(v)
    if isinstance(v, dict):
        t = v.get("t")
        if t in ("unit", "place"):
            return f"{t} {v.get('id')}"
        if t in ("none", "x", "missing"):
            return {"none": "none", "x": "X", "missing": "missing"}[t]
        if t == "ref":
            return f"the value numbered {v.get('ref')}"
        return "{" + ", ".join(f"{k} = {_text(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_text(x) for x in v) + "]"
    return repr(v)


def _unit(rec: Any, i: int, out: dict[str, str]) -> None:
    name = rec.get("id") if isinstance(rec, dict) else None
    where = f"units.{name}" if isinstance(name, str) else f"units[{i}]"
    _fields({k: x for k, x in rec.items() if k != "id"} if isinstance(rec, dict) else rec, where, out)


def _place(rec: Any, i: int, out: dict[str, str]) -> None:
    name = rec.get("id") if isinstance(rec, dict) else None
    where = f"places.{name}" if isinstance(name, str) else f"places[{i}]"
    _fields({k: x for k, x in rec.items() if k != "id"} if isinstance(rec, dict) else rec, where, out)


def _track(rec: Any, i: int, out: dict[str, str]) -> None:
    """A track's value by side: `tracks.funds[red]`, or `tracks.turn` for a track of one value."""
    name = rec.get("name") if isinstance(rec, dict) else None
    values = rec.get("values") if isinstance(rec, dict) else None
    if not isinstance(name, str) or not isinstance(values, list) or set(rec) != {"name", "values"}:
        _fields(rec, f"tracks[{i}]", out)
        return
    for pair in values:
        if isinstance(pair, list) and len(pair) == 2:
            key = pair[0] if isinstance(pair[0], str) else None
            _fields(pair[1], f"tracks.{name}[{key}]" if key is not None else f"tracks.{name}", out)
        else:
            _fields(pair, f"tracks.{name}", out)


def _cup(rec: Any, i: int, out: dict[str, str]) -> None:
    name = rec.get("name") if isinstance(rec, dict) else None
    chits = rec.get("chits") if isinstance(rec, dict) else None
    if not isinstance(name, str) or not isinstance(chits, list):
        _fields(rec, f"cups[{i}]", out)
        return
    for pair in chits:
        if isinstance(pair, list) and len(pair) == 2:
            _fields(pair[1], f"cups.{name}[{pair[0]}]", out)


_NAMED = {"units": _unit, "places": _place, "tracks": _track, "cups": _cup}
