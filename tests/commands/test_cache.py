"""The cache of loads (interpreter/cache.py): a hit gives exactly what a miss gives, and is never stale.

Each test has a cache folder of its own (UMPIRE_CACHE in a temporary folder). Whether a load was
served from the cache is told by the loader: a hit neither reads nor checks anything itself.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import trace_of

from interpreter import cache, load
from interpreter.cli import main
from interpreter.load import load_rules, load_scenario, load_scenario_rules
from interpreter.runtime.games.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources, render

ROOT = Path(__file__).resolve().parent.parent.parent
RULESETS = ["rulesets/jenkins_ear.rules", "rulesets/guerra_a_muerte.rules"]


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("UMPIRE_CACHE", str(where))
    return where


@pytest.fixture
def misses(monkeypatch) -> list[str]:
    """The loads that miss the cache from now on: the rules files and scenarios loaded by reading
    and checking them (none when every load is a hit)."""
    calls: list[str] = []
    rules, scenario = load._load_rules, load._load_scenario

    def load_rules_counted(path, *args):
        calls.append(path)
        return rules(path, *args)

    def load_scenario_counted(path, *args):
        calls.append(path)
        return scenario(path, *args)

    monkeypatch.setattr(load, "_load_rules", load_rules_counted)
    monkeypatch.setattr(load, "_load_scenario", load_scenario_counted)
    return calls


def entries(where: Path) -> list[Path]:
    return sorted(where.glob("*.pickle"))


def shown(loaded, sources: Sources) -> list[str]:
    return [render(d, sources) for d in loaded.diagnostics]


def twice(path: str, **options):
    """A load, then the same load again: (loaded, sources) of each."""
    first, second = Sources(), Sources()
    return (load_rules(path, first, **options), first), (load_rules(path, second, **options), second)


@pytest.mark.parametrize("path", RULESETS)
@pytest.mark.parametrize("options", [{}, {"with_demo": True, "with_errata": True}], ids=["plain", "as-played"])
def test_a_hit_gives_what_the_miss_gave(path, options, folder, misses, monkeypatch):
    monkeypatch.chdir(ROOT)
    (miss, miss_sources), (hit, hit_sources) = twice(path, **options)
    assert entries(folder) and misses, "the first load reads and checks, and is kept"
    assert misses.count(path) == 1, "the second load is served from the cache"
    assert shown(hit, hit_sources) == shown(miss, miss_sources)
    assert hit.symbols == miss.symbols
    assert hit.ruleset == miss.ruleset and hit.base == miss.base
    assert hit.overlays == miss.overlays
    assert (hit.base is hit.ruleset) == (miss.base is miss.ruleset)
    assert hit_sources._texts == miss_sources._texts, "the texts the diagnostics quote"


BROKEN = '\ntype broken_sloop "Sloop": navel [2.3] { gun: 1 }\n'  # an unknown unit class


def broken_copy(tmp_path: Path) -> Path:
    """A copy of the rulesets with an error in an included file."""
    shutil.copytree(ROOT / "rulesets", tmp_path / "rulesets")
    part = tmp_path / "rulesets" / "jenkins_ear" / "economy.rules"
    part.write_text(part.read_text(encoding="utf-8") + BROKEN, encoding="utf-8")
    return tmp_path / "rulesets" / "jenkins_ear.rules"


def test_a_file_with_errors_renders_the_same_from_the_cache(tmp_path, folder, misses, capsys):
    path = str(broken_copy(tmp_path))
    (miss, miss_sources), (hit, hit_sources) = twice(path)
    assert miss.errors, "the copy has an error"
    assert len(misses) == len(set(misses)), "the second load is served from the cache"
    assert shown(hit, hit_sources) == shown(miss, miss_sources)
    outputs = []
    for _ in range(2):  # umpire check keeps its verdict: the same output, the same exit code
        outputs.append((main(["check", path]), capsys.readouterr()))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 1 and "error: unknown unit class 'navel'" in outputs[0][1].err


def test_editing_an_included_file_is_a_miss(tmp_path, folder, misses, capsys):
    shutil.copytree(ROOT / "rulesets", tmp_path / "rulesets")
    path = str(tmp_path / "rulesets" / "jenkins_ear.rules")
    part = tmp_path / "rulesets" / "jenkins_ear" / "economy.rules"
    text = part.read_text(encoding="utf-8")
    assert main(["check", path]) == 0
    clean = capsys.readouterr()
    part.write_text(text + BROKEN, encoding="utf-8")
    misses.clear()
    assert main(["check", path]) == 1, "the edit is seen"
    assert path in misses
    assert f"{part}:" in capsys.readouterr().err
    part.write_text(text, encoding="utf-8")
    assert main(["check", path]) == 0
    assert capsys.readouterr() == clean, "the file as it was: the first verdict again"


def test_a_corrupt_truncated_or_foreign_entry_is_a_miss(folder, misses, monkeypatch):
    monkeypatch.chdir(ROOT)
    path = RULESETS[0]
    miss_sources = Sources()
    miss = load_rules(path, miss_sources)
    (entry,) = entries(folder)
    good = entry.read_bytes()
    damaged = [good[: len(good) // 2], good[:40], b"", b"junk", good.replace(b"umpire-cache", b"umpire-cachX", 1),
               good[:-10] + b"\x00" * 10, good[:-1000] + bytes(b ^ 1 for b in good[-1000:])]
    for data in damaged:
        entry.write_bytes(data)
        misses.clear()
        sources = Sources()
        loaded = load_rules(path, sources)
        assert path in misses, "a damaged entry is a miss"
        assert loaded.symbols == miss.symbols and shown(loaded, sources) == shown(miss, miss_sources)
    entry.chmod(0o666)  # another user could have written it: not read
    misses.clear()
    load_rules(path, Sources())
    assert path in misses
    assert stat.S_IMODE(entries(folder)[0].stat().st_mode) == 0o600, "written again, for this user only"


def test_a_change_to_umpire_s_code_is_a_miss_that_replaces_the_entry(folder, misses, monkeypatch):
    monkeypatch.chdir(ROOT)
    load_rules(RULESETS[0], Sources())
    monkeypatch.setattr(cache, "code_version", lambda: "another version of umpire")
    misses.clear()
    load_rules(RULESETS[0], Sources())
    assert RULESETS[0] in misses
    assert len(entries(folder)) == 1, "one entry per request: the old one is replaced"
    misses.clear()
    load_rules(RULESETS[0], Sources())
    assert not misses


def test_a_folder_others_may_enter_is_not_used(tmp_path, monkeypatch, misses):
    where = tmp_path / "shared"
    where.mkdir(mode=0o755)
    where.chmod(0o755)
    monkeypatch.setenv("UMPIRE_CACHE", str(where))
    monkeypatch.chdir(ROOT)
    twice(RULESETS[0])
    assert not list(where.iterdir())
    assert misses.count(RULESETS[0]) == 2


def test_off_writes_nothing(tmp_path, monkeypatch, misses):
    monkeypatch.setenv("UMPIRE_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(ROOT)
    twice(RULESETS[0])
    assert main(["check", RULESETS[0]]) == 0
    assert misses.count(RULESETS[0]) > 2
    assert not list(tmp_path.iterdir())


def test_the_default_folders(tmp_path, monkeypatch):
    monkeypatch.delenv("UMPIRE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.folder() == tmp_path / "xdg" / "umpire"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.folder() == tmp_path / "home" / ".cache" / "umpire"
    monkeypatch.chdir(ROOT)
    load_rules(RULESETS[0], Sources())
    made = tmp_path / "home" / ".cache" / "umpire"
    assert entries(made) and stat.S_IMODE(made.stat().st_mode) == 0o700


def test_a_file_that_appears_is_a_miss(tmp_path, folder, capsys):
    """A verdict that says a file does not exist holds only while it does not."""
    scenario = tmp_path / "x.scenario"
    scenario.write_text('scenario "x" uses "x.rules" [EoP] {\n  places {\n    hex 3119 { terrain: sea }\n  }\n}\n',
                        encoding="utf-8")
    for _ in range(2):
        assert main(["check", str(scenario)]) == 1
        assert "does not exist" in capsys.readouterr().err
    (tmp_path / "x.rules").write_text("", encoding="utf-8")
    main(["check", str(scenario)])
    assert "does not exist" not in capsys.readouterr().err


@pytest.mark.parametrize("scenario", ["scenarios/jenkins_ear/eop_land_3018.scenario",
                                      "scenarios/guerra_a_muerte/case_build_royalist.scenario"])
def test_a_scenario_run_through_the_cache_gives_its_trace(scenario, folder, misses, monkeypatch):
    monkeypatch.chdir(ROOT)
    for hit in (False, True):
        misses.clear()
        sources = Sources()
        loaded_scenario = load_scenario(scenario, sources)
        loaded = load_scenario_rules(loaded_scenario, sources)
        assert bool(misses) is not hit
        outcome = run_scenario(loaded_scenario, loaded.symbols, sources)
        assert "\n".join(outcome.lines) + "\n" == trace_of(ROOT / scenario).read_text(encoding="utf-8")


def imported_after(argvs: list[list[str]]) -> list[str]:
    """Which of the heavy modules a fresh process has imported once ``main`` has run on each argv."""
    probe = ("import json, sys\nfrom interpreter.cli import main\n"
             f"for argv in {argvs!r}:\n"
             "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
             "heavy = ('pydantic', 'lark', 'interpreter.ir.nodes', 'interpreter.load')\n"
             "print(json.dumps(sorted(m for m in heavy if m in sys.modules)))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    return json.loads(out.stdout.splitlines()[-1])  # after what --help prints


def test_help_and_argument_errors_import_neither_pydantic_nor_lark_nor_the_ir():
    assert imported_after([["--help"], ["check", "--help"], ["check"], ["play", "--seed", "x"]]) == []
    # A file name the command refuses is a diagnostic (a Span: pydantic), not the IR.
    assert imported_after([["run", "x.txt"]]) == ["pydantic"]


def test_a_check_the_cache_answers_imports_no_pydantic_and_prints_what_the_first_printed(tmp_path):
    """A kept verdict holds its spans as plain data: the second check of a ruleset renders them exactly as
    the first did, without importing pydantic, the parser or the IR; --json from the kept verdict is that
    of a check without the cache."""
    cached = {**os.environ, "UMPIRE_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    probe = ("import sys\nfrom interpreter.cli import main\ncode = main(sys.argv[1:])\n"
             "heavy = ('pydantic', 'lark', 'interpreter.ir.nodes')\n"
             "print('imported:', sorted(m for m in heavy if m in sys.modules))\nsys.exit(code)")

    def check(*options, env=cached):
        return subprocess.run([sys.executable, "-c", probe, "check", *options, "rulesets/sea_of_glory_1805.rules"],
                              cwd=ROOT, env=env, capture_output=True, text=True, check=True)

    first, again = check(), check()
    loaded = "imported: ['interpreter.ir.nodes', 'lark', 'pydantic']"
    assert loaded in first.stdout and "imported: []" in again.stdout
    assert (again.stdout.replace("imported: []", loaded), again.stderr) == (first.stdout, first.stderr)
    assert "warning: " in again.stderr
    kept, uncached = check("--json"), check("--json", env={**cached, "UMPIRE_CACHE": "off"})
    assert kept.stdout.split("imported:")[0] == uncached.stdout.split("imported:")[0]


def test_an_entry_of_the_wrong_type_is_a_miss(tmp_path):
    """An entry whose checks all pass but whose value is not what its load gives (another load's
    value, or one written by other code) is a miss: the command gives what it gives without a cache."""
    import hashlib
    import pickle

    env = {**os.environ, "UMPIRE_CACHE": str(tmp_path / "cache")}
    commands = [["check", "rulesets/yellow_jack.rules"], ["play", "rulesets/yellow_jack.rules", "--agents", "random,random"]]

    def run(args):
        return subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=ROOT, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)

    fresh = [run(args) for args in commands]
    assert [r.returncode for r in fresh] == [0, 0] and entries(tmp_path / "cache")
    for entry in entries(tmp_path / "cache"):
        data = entry.read_bytes()
        end = data.index(b"\n", len(cache.FORMAT))
        header = json.loads(data[len(cache.FORMAT):end])
        payload = pickle.dumps(42)
        header["sha256"] = hashlib.sha256(payload).hexdigest()
        entry.write_bytes(cache.FORMAT + json.dumps(header).encode() + b"\n" + payload)
    for args, before in zip(commands, fresh):
        again = run(args)
        assert (again.returncode, again.stdout, again.stderr) == (before.returncode, before.stdout, before.stderr)


def test_a_span_pickles_as_its_five_values_and_reads_back_as_validated():
    """A ruleset's IR holds about as many spans as nodes: each is kept as its values alone (syntax/spans.py),
    and read back with the state validation gives it."""
    import pickle

    from pydantic import BaseModel

    from interpreter.syntax.spans import Span

    span = Span(file="rulesets/jenkins_ear.rules", line=12, col=3, end_line=14, end_col=9)
    kept = pickle.dumps(span, protocol=pickle.HIGHEST_PROTOCOL)
    back = pickle.loads(kept)
    assert BaseModel.__getstate__(back) == BaseModel.__getstate__(span)
    assert list(back.__dict__) == ["file", "line", "col", "end_line", "end_col"]
    assert len(kept) < 120  # pydantic's own state (a dict of four, the set of names given) takes over 200 bytes


def test_the_collector_stays_paused_after_the_last_check_of_a_process_only():
    """`umpire check` run as a command leaves the collector paused once its last file is checked (what
    the loads made lives to the end: load.last_loads); called in a process that goes on, it resumes it."""
    probe = ("import gc, sys\nfrom interpreter.cli import main\n"
             "main(['check', 'tests/lang/barred.rules', 'tests/lang/calendar.rules'], ends_process=sys.argv[1] == 'ends')\n"
             "print(gc.isenabled())")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "UMPIRE_CACHE": "off"}
    enabled = {how: subprocess.run([sys.executable, "-c", probe, how], capture_output=True, text=True, cwd=ROOT, env=env,
                                   check=True).stdout.split()[-1] for how in ("ends", "goes-on")}
    assert enabled == {"ends": "False", "goes-on": "True"}
