"""The code compiled from a kept ruleset's generated texts (runtime/execution/kept_code.py, cache.CodeEntry):
a new process compiles no text an earlier one compiled for the same program, and plays the same game; an
entry that is damaged, not the user's own, made by other code or for another program holds nothing, and is
never an error.

A process is played in a subprocess, or in this one with the per-process state of the generated code made
afresh (``fresh``) and its end brought about by hand (``kept_code.write_all``, which the process's end runs).
"""

from __future__ import annotations

import gc
import json
import marshal
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import trace_of

from interpreter import cache
from interpreter.load import load_scenario, load_scenario_rules
from interpreter.runtime.execution import generated_code, kept_code
from interpreter.runtime.games.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIO = "scenarios/jenkins_ear/eop_land_3018.scenario"
NAVAL = "scenarios/jenkins_ear/eop_naval_3018.scenario"  # the same ruleset, other rules run
PLAY = ["play", "rulesets/jenkins_ear.rules", "--seed", "1", "--agents", "random,random"]


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("UMPIRE_CACHE", str(where))
    monkeypatch.chdir(ROOT)
    return where


def played_in_a_process(where: Path) -> tuple[str, int]:
    """A seeded game of Jenkins' Ear played by a new process with the cache at ``where``: what it printed,
    and how many generated texts it compiled."""
    probe = ("import sys\nfrom interpreter.cli import main\nfrom interpreter.runtime.execution import kept_code\n"
             f"code = main({PLAY!r})\n"
             "print('compiled', kept_code.compiles, file=sys.stderr)\nsys.exit(code)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "UMPIRE_CACHE": str(where)}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    return out.stdout, int(out.stderr.splitlines()[-1].split()[-1])


def test_a_new_process_compiles_no_text_an_earlier_one_compiled_and_plays_the_same_game(tmp_path):
    where = tmp_path / "cache"
    first, compiled = played_in_a_process(where)
    assert compiled > 100 and list(where.glob("*.code"))
    again, compiled_again = played_in_a_process(where)
    assert compiled_again == 0
    assert again == first
    unkept, compiled_unkept = played_in_a_process(Path("off"))
    assert compiled_unkept == compiled and unkept == first, "the cache off: every text compiled, the same game"


def fresh(monkeypatch) -> None:
    """The generated code's state as a new process has it: no code compiled, no program kept."""
    monkeypatch.setattr(generated_code, "_CODE", {})
    monkeypatch.setattr(kept_code, "_KEPT", {})
    monkeypatch.setattr(kept_code, "_PROGRAMS", {})
    monkeypatch.setattr(kept_code, "compiles", 0)


def ran(path: str, alive: list | None = None) -> str:
    """A scenario's trace; its checked program added to ``alive``, if given, to keep it alive."""
    sources = Sources()
    scenario = load_scenario(path, sources)
    loaded = load_scenario_rules(scenario, sources)
    if alive is not None:
        alive.append(loaded)
    return "\n".join(run_scenario(scenario, loaded.symbols, sources).lines) + "\n"


def process(monkeypatch) -> tuple[str, int]:
    """A process that runs a Jenkins' Ear combat and ends: its trace, and the texts it compiled."""
    fresh(monkeypatch)
    trace = ran(SCENARIO)
    kept_code.write_all()
    return trace, kept_code.compiles


def code_entry(where: Path) -> Path:
    (entry,) = where.glob("*.code")
    return entry


def test_a_second_process_compiles_nothing(folder, monkeypatch):
    trace, compiled = process(monkeypatch)
    assert trace == trace_of(ROOT / SCENARIO).read_text(encoding="utf-8")
    assert compiled > 10
    assert stat.S_IMODE(code_entry(folder).stat().st_mode) == 0o600
    assert process(monkeypatch) == (trace, 0)


def test_what_a_process_adds_is_kept_with_what_was(folder, monkeypatch):
    """A land combat, then a naval one (other texts of the same program, kept by the same keeper while the
    land's program lives), the codes written after each; a new process runs both and compiles nothing."""
    fresh(monkeypatch)
    alive: list = []
    land = ran(SCENARIO, alive)
    kept_code.write_all()
    after_land = kept_code.compiles
    naval = ran(NAVAL, alive)
    kept_code.write_all()
    assert kept_code.compiles > after_land > 10
    fresh(monkeypatch)
    assert (ran(SCENARIO), ran(NAVAL), kept_code.compiles) == (land, naval, 0)


def test_a_program_let_go_writes_its_codes_and_is_forgotten(folder, monkeypatch):
    """In a process that goes on, a program's codes are written once no program alive uses them."""
    fresh(monkeypatch)
    sources = Sources()
    scenario = load_scenario(SCENARIO, sources)
    loaded = load_scenario_rules(scenario, sources)
    run_scenario(scenario, loaded.symbols, sources)
    assert kept_code._KEPT and not list(folder.glob("*.code"))
    del loaded
    gc.collect()
    assert not kept_code._KEPT and not kept_code._PROGRAMS
    assert code_entry(folder).stat().st_size > 1000


def damaged(good: bytes) -> list[bytes]:
    return [good[: len(good) // 2], good[:20], b"", b"junk", good.replace(b"umpire-code", b"umpire-codX", 1),
            good[:-10] + b"\x00" * 10, good[:-1000] + bytes(b ^ 1 for b in good[-1000:])]


def test_a_damaged_entry_is_compiled_again_and_written_anew(folder, monkeypatch):
    trace, compiled = process(monkeypatch)
    entry = code_entry(folder)
    good = entry.read_bytes()
    for data in damaged(good):
        entry.write_bytes(data)
        assert process(monkeypatch) == (trace, compiled), "nothing read: every text compiled, the same trace"
        assert process(monkeypatch) == (trace, 0), "and kept again"


def test_an_entry_whose_codes_were_swapped_is_not_read(folder, monkeypatch):
    """Codes moved to other texts' digests, the header left as it was: its checksum no longer holds."""
    trace, compiled = process(monkeypatch)
    entry = code_entry(folder)
    first, header, payload = entry.read_bytes().split(b"\n", 2)
    codes = marshal.loads(payload)
    digests, values = list(codes), list(codes.values())
    swapped = marshal.dumps(dict(zip(digests, values[1:] + values[:1])))
    entry.write_bytes(first + b"\n" + header + b"\n" + swapped)
    assert process(monkeypatch) == (trace, compiled)


def test_an_entry_others_may_write_or_of_another_user_is_not_read(folder, monkeypatch):
    trace, compiled = process(monkeypatch)
    entry = code_entry(folder)
    entry.chmod(0o620)
    assert process(monkeypatch) == (trace, compiled)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600, "written again, for this user only"
    if os.getuid() != 0:
        pytest.skip("only root may give a file to another user")
    os.chown(entry, 4242, -1)
    assert process(monkeypatch) == (trace, compiled)
    assert entry.stat().st_uid == 0


def test_a_change_to_umpire_s_code_is_nothing_kept(folder, monkeypatch):
    trace, compiled = process(monkeypatch)
    monkeypatch.setattr(cache, "code_version", lambda: "another version of umpire")
    assert process(monkeypatch) == (trace, compiled), "the program's entry and its code both made again"
    assert process(monkeypatch) == (trace, 0), "and kept for that code"


def program_of(entry: Path) -> str:
    """The program a code entry was written for (its header, the line after the first)."""
    return json.loads(entry.read_bytes().split(b"\n")[1])["program"]


def test_an_entry_for_another_program_or_another_code_holds_nothing(folder, monkeypatch):
    process(monkeypatch)
    where = str(code_entry(folder))
    program = program_of(code_entry(folder))
    assert cache.CodeEntry(where, program).read()
    assert cache.CodeEntry(where, "another program").read() == {}
    monkeypatch.setattr(cache, "code_version", lambda: "another version of umpire")
    assert cache.CodeEntry(where, program).read() == {}


def test_what_is_kept_for_a_text_must_be_code(folder, monkeypatch):
    """An entry whose content reads back (its checksum holds) but whose values are not code is compiled again."""
    trace, compiled = process(monkeypatch)
    entry = cache.CodeEntry(str(code_entry(folder)), program_of(code_entry(folder)))
    codes = entry.read()
    entry.write({digest: b"junk" if i % 2 else marshal.dumps(i) for i, digest in enumerate(codes)})
    assert process(monkeypatch) == (trace, compiled)
    assert process(monkeypatch) == (trace, 0)


def test_the_cache_off_keeps_no_code(tmp_path, monkeypatch):
    monkeypatch.setenv("UMPIRE_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(ROOT)
    trace, compiled = process(monkeypatch)
    assert compiled > 10 and process(monkeypatch) == (trace, compiled)
    assert not list(tmp_path.iterdir())
