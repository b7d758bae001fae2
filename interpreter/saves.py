"""Saved games: where a save may be written, how it is written, and how a loaded one is checked.

A save is plain TOML: a header (`umpire_save`: seed, agents, the number of decisions made, the
number of trace lines and a digest of them, what a person typed, the rules file, overlays, errata
and scenario played), a summary of the position (`state`), and since format 3 the position itself
(`position`: runtime/position/position_data.py) with what the game goes on from (`goes_on`: the segment of
the sequence of play, the dice's and the random agents' generators). Loading puts the position
back and goes on (play.py); `--verify`, and every save of format 1 or 2, replays the game from its
seed to the saved decision instead and compares the position and the narration with the saved
ones, field by field (runtime/position/save_check.py), so a save cannot describe a game that did not
happen. Everything here checks the file itself: every field's type and range, and no field a save
does not have, before any of it is used, each refusal naming the field; the position's fields are
checked against the game's rules when it is loaded (runtime/position/position_data.py), and its parts against
one another and the game's agents (runtime/position/save_check.py).

Paths are stored relative to the save's own folder, so a save loads from any working folder and
can be mailed with the rules beside it; `root` is the deepest folder holding every file the game
read (game_root), granted back on loading when it holds the game file. Saves written before that (format 1) hold paths relative
to the folder the game was played from, and are read so.
"""

from __future__ import annotations

import os
import random
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .lang import agent_known
from .limits import MAX_SAVE_BYTES
from .writing import link_problem, write_file

FORMAT = 3
# Files a save must never replace, whatever --force says: the game's own sources.
PROTECTED = (".rules", ".scenario", ".errata", ".house", ".overlay", ".sections", ".lark", ".py")


class SaveError(Exception):
    """A save that cannot be written or read, with what is wrong and where."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = f"field '{field}': {message}" if field else message


# ── writing ──

def output_refusal(path: str, force: bool, suffixes: tuple[str, ...], writer: str) -> str | None:
    """Why a file a command writes (a study's table or plot, a picture) must not be written to
    `path`, or None; `writer` names what writes it in the message ("a study")."""
    target = Path(path)
    if target.suffix.lower() in PROTECTED:
        return f"{path} is a {target.suffix} file, which {writer} never replaces"
    if target.suffix.lower() not in suffixes:
        return f"{path} must end in {' or '.join(suffixes)}"
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        return f"the folder {folder} does not exist or cannot be written to"
    if (target.exists() or target.is_symlink()) and not force:
        return f"{path} already exists: use --force to replace it"
    return link_problem(path)


def check_target(path: str, force: bool) -> None:
    """Refuse, before the game is played, a place a save cannot or must not be written to."""
    if not path.strip() or "\0" in path:
        raise SaveError("--save needs a file name" if not path.strip() else f"{path!r} is no usable file name")
    target = Path(path)
    if target.suffix.lower() in PROTECTED:
        raise SaveError(f"{path} is a {target.suffix} file: a save never replaces the game's own files (name it .toml)")
    if target.is_dir():
        raise SaveError(f"{path} is a folder: name a file inside it")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise SaveError(f"the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise SaveError(f"the folder {folder} cannot be written to")
    if target.exists() or target.is_symlink():
        if not force:
            raise SaveError(f"{path} already exists: use --force to replace it")
        if not target.is_file():
            raise SaveError(f"{path} is not a regular file: a save replaces only an earlier save")
    problem = link_problem(path)
    if problem:
        raise SaveError(problem)


def portable(save_path: str, game_file: str) -> str:
    """A game file's path as a save stores it: relative to the save's folder."""
    return os.path.relpath(os.path.abspath(game_file), os.path.dirname(os.path.abspath(save_path)))


def game_root(read: list[str], admits) -> str | None:
    """The folder a save records as its game's root: the deepest folder holding every file the game
    read, when the run could read that whole folder (`admits`); else None. It holds the game file, so
    a load grants it (docs/safety.md §2), and it is never wider than the folders the game was given."""
    real = [os.path.dirname(os.path.realpath(p)) for p in read]
    if not real:
        return None
    common = os.path.commonpath(real)
    return common if admits(common) else None


def write(path: str, data: dict, force: bool = False) -> None:
    """Write the save whole or not at all (writing.py); raises WriteError naming the file."""
    import tomli_w

    write_file(path, tomli_w.dumps(data), force, private=True)


# ── reading ──

@dataclass
class Resume:
    file: str              # the rules or scenario file played, as a path from the working folder
    root: str | None       # the folder holding every file the game read (a root of its sandbox), when it holds `file`
    seed: int
    agents: list[str]
    overlays: list[str]    # as paths from the working folder
    errata: bool
    scenario: str | None
    head: dict             # the checked header, as play() reads it (decisions, events, narration, typed)
    state: dict
    position: dict | None = None  # format 3: the position, checked when loaded against the rules
    goes_on: dict | None = None   # format 3: segment, dice and agents' generators, checked here
    compare: dict | None = None   # --verify: the saved position and goes_on, compared with the replay's


# Every field a save may have, by table: a field added by hand is refused, naming it.
HEADER = ("format", "seed", "agents", "decisions", "events", "narration", "typed", "file", "root", "overlays", "errata",
          "scenario", "applied", "links")
STATE = ("turn", "phase", "step", "units", "places", "tracks", "globals", "cups")
GOES_ON = ("segment", "dice", "agents", "memory")


def read(path: str, agent_kinds: tuple[str, ...]) -> Resume:
    """A save file, every field checked; SaveError names the first field that is wrong."""
    data = _load(path)
    head = _table(data, "umpire_save")
    state = _table(data, "state")
    version = _get(head, "format", int, 1, lo=1, hi=FORMAT)
    _only(data, ("umpire_save", "state", "position", "goes_on") if version >= 3 else ("umpire_save", "state"), "")
    _only(head, HEADER, "")
    _only(state, STATE, "state.")
    base = os.path.dirname(os.path.abspath(path)) if version >= 2 else None
    checked = _header(head, version, agent_kinds)
    _check_position(state)
    goes_on = _goes_on(data, checked["agents"]) if version >= 3 else None
    file, root = _game_files(head, base)
    return Resume(
        file=file,
        root=root,
        seed=checked["seed"],
        agents=checked["agents"],
        overlays=[_path(p, base, "overlays") for p in _get(head, "overlays", list, [], item=str)],
        errata=_get(head, "errata", bool, False),
        scenario=_get(head, "scenario", str, "") or None,
        head=checked,
        state=state,
        position=_table(data, "position") if version >= 3 else None,
        goes_on=goes_on,
    )


def _goes_on(data: dict, kinds: list[str]) -> dict:
    """What a game loaded from its position goes on from, every field checked."""
    table = _table(data, "goes_on")
    _only(table, GOES_ON, "goes_on.")
    segment = _get(table, "segment", list, where="goes_on.")
    if not segment or segment[0] not in ("game_start", "turn_start", "step", "game_end") or \
            not all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in segment):
        raise SaveError(f"{segment!r} is not a segment of a game (game_start, turn_start, step or game_end, "
                        f"with its turn, phase and step)", "goes_on.segment")
    agents = _get(table, "agents", dict, where="goes_on.")
    for side, state in agents.items():
        _rng_state(state, f"goes_on.agents.{side}")
    out = {"segment": segment, "dice": _rng_state(_get(table, "dice", list, where="goes_on."), "goes_on.dice"), "agents": agents}
    if "memory" in table:
        out["memory"] = _memory(_get(table, "memory", dict, where="goes_on."))
    return out


def _memory(memory: dict) -> dict:
    """The greedy agents' memory of the current step: per side, the clock and the positions met."""
    for side, held in memory.items():
        where = f"goes_on.memory.{side}"
        if not isinstance(held, dict) or set(held) != {"clock", "seen"}:
            raise SaveError("is not a greedy agent's memory (a table of 'clock' and 'seen')", where)
        for name in ("clock", "seen"):
            if not isinstance(held[name], list) or not all(isinstance(x, str) and len(x) <= 80 for x in held[name]):
                raise SaveError(f"'{name}' is not a list of short strings", where)
    return memory


def _rng_state(state, field: str) -> list:
    """A random generator's state as play.py writes it: [version, [624 words, then an index]]."""
    ok = (isinstance(state, list) and len(state) == 2 and isinstance(state[0], int) and isinstance(state[1], list)
          and len(state[1]) == 625 and all(isinstance(w, int) and not isinstance(w, bool) and 0 <= w < 2**32 for w in state[1])
          and state[1][-1] <= 624)
    if not ok:
        raise SaveError("is not the state of a random generator ([version, 625 whole numbers])", field)
    if state[0] != random.Random.VERSION:  # the one layout of the state this Python's generator takes back
        raise SaveError(f"version {state[0]} is not the random generator's version ({random.Random.VERSION})", field)
    if not state[1][0] & 0x80000000 and not any(state[1][1:624]):
        # The Mersenne Twister's state of all zeros (the first word's top bit aside) gives only zeros, ever:
        # no generator seeded by Umpire reaches it.
        raise SaveError("is all zeros: no random generator's state is, and one that was would give only zeros", field)
    return state


def _only(table: dict, fields: tuple[str, ...], within: str) -> None:
    """Refuse a field that no save of this format has (`within`: the table's name and a dot)."""
    extra = [k for k in table if k not in fields]
    if extra:
        raise SaveError("no save has this field", f"{within}{extra[0]}")


def _load(path: str) -> dict:
    """The save's TOML, from a regular file of a save's size."""
    try:
        size = os.stat(path).st_size
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise SaveError(f"cannot read {path!r}: {reason}") from None
    if not Path(path).is_file():
        raise SaveError(f"{path} is not a regular file")
    if size > MAX_SAVE_BYTES:
        raise SaveError(f"{path} is {size} bytes, more than a save can be ({MAX_SAVE_BYTES})")
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise SaveError(f"{path} is not a saved game: it is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as err:
        raise SaveError(f"{path} is not a saved game: {err}") from None


def _header(head: dict, version: int, agent_kinds: tuple[str, ...]) -> dict:
    """The header's fields as play() reads them: seed, agents, where the game stands, what was typed."""
    kinds = _get(head, "agents", list, item=str)
    if not kinds or any(not isinstance(k, str) or not agent_known(k, agent_kinds) for k in kinds):
        raise SaveError(f"{kinds} names an agent Umpire does not have ({', '.join(agent_kinds)})", "agents")
    checked = {
        "seed": _get(head, "seed", int),
        "agents": kinds,
        "decisions": _get(head, "decisions", int, lo=0),
        "events": _get(head, "events", int, lo=0),
        "narration": _get(head, "narration", str),
        "typed": _get(head, "typed", list, [], item=str),
    }
    # The overlays the game was played with, by name: a changed 'errata' or 'overlays' is caught against it.
    links = _get(head, "links", list, [], item=int)
    if any(isinstance(k, bool) for k in links) or links != sorted(links) or any(not 0 <= k <= checked["events"] for k in links):
        raise SaveError(f"{links!r} is not a rising list of line counts up to 'events'", "links")
    if links:
        checked["links"] = links
    applied = _get(head, "applied", list, item=str) if version >= 2 else _get(head, "applied", list, None, item=str)
    if applied is not None:
        checked["applied"] = applied
    return checked


def _check_position(state: dict) -> None:
    """The summary of the position (what a replay is compared with): each field of its kind; what it holds
    is compared with the position itself, or with the replay, when the game is loaded."""
    for key in ("turn", "units", "places", "tracks", "globals"):
        if key not in state:
            raise SaveError("the saved position is incomplete", f"state.{key}")
    for key, kind in (("turn", int), ("phase", str), ("step", str), ("units", dict), ("places", dict), ("tracks", dict),
                      ("globals", dict), ("cups", dict)):
        if key in state:
            _get(state, key, kind, where="state.")


def _game_files(head: dict, base: str | None) -> tuple[str, str | None]:
    """The game file played, and the root folder it was played from (when the save gives one)."""
    file = _path(_get(head, "file", str), base, "file")
    root = _path(_get(head, "root", str), base, "root") if "root" in head and base else None
    # `root` holds every file the game read; a save gives it back to the loaded game only as a folder
    # that holds the game file (docs/safety.md §2). One that does not (a save written when `root` was
    # the working folder, played from outside the game's tree) is not granted: the game's own folder
    # and the loading run's roots are then all it reads from.
    return file, root if root is not None and _holds(root, file) else None


def _table(data: dict, name: str) -> dict:
    value = data.get(name)
    if not isinstance(value, dict):
        raise SaveError("missing: this is not a game saved by umpire play", name)
    return value


_NO_DEFAULT = object()


def _get(table: dict, key: str, kind: type, default=_NO_DEFAULT, *, lo: int | None = None, hi: int | None = None,
         item: type | None = None, where: str = ""):
    if key not in table:
        if default is _NO_DEFAULT:
            raise SaveError("missing", where + key)
        return default
    key, value = where + key, table[key]
    # A TOML boolean is a Python bool, which is also an int: never take one for the other.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SaveError(f"{value!r} is not {_NAMES[kind]}", key)
    if item is not None and not all(isinstance(v, item) for v in value):
        raise SaveError(f"{value!r} is not a list of {_NAMES[item]}s", key)
    if lo is not None and value < lo:
        raise SaveError(f"{value} is less than {lo}", key)
    if hi is not None and value > hi:
        raise SaveError(f"{value} is more than {hi} (a save written by a newer Umpire?)", key)
    return value


_NAMES = {int: "a whole number", str: "text", bool: "true or false", list: "a list", dict: "a table"}


def _holds(folder: str, path: str) -> bool:
    real_folder, real_path = os.path.realpath(folder), os.path.realpath(path)
    return os.path.isdir(real_folder) and real_path.startswith(real_folder.rstrip(os.sep) + os.sep)


def _path(stored: str, base: str | None, field: str) -> str:
    if not stored.strip() or "\0" in stored:
        raise SaveError(f"{stored!r} is not a file name", field)
    if base is None:  # format 1: relative to the folder the game was played from
        return stored
    full = os.path.normpath(os.path.join(base, stored))
    return os.path.relpath(full) if not os.path.isabs(stored) else full
