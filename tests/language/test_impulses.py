"""Impulses over seats (language 10.1), time units with hook points (10.2) and the initiative as
data (10.3). The toy game is tests/lang/impulses.rules; its scenarios' traces are snapshots in
test_language.py. Here: exact odds through a roll-off whose ties are rerolled and through the
impulses, a position taken in the middle of an impulse going on as the game, and the checks."""

from __future__ import annotations

import copy
import random
import tomllib
from pathlib import Path

import tomli_w
from positions import loaded, play_on

from interpreter.cli import main
from interpreter.runtime.common.requests import RollRequest
from interpreter.runtime.execution.engine import Engine
from interpreter.runtime.execution.vm import Process
from interpreter.runtime.games.scenario import target_parts
from interpreter.runtime.games.setup import Setup
from interpreter.runtime.position.position import Position
from interpreter.runtime.position.position_data import from_data, to_data

ROOT = Path(__file__).resolve().parent.parent.parent
HEAD = '''game g "G" [1.0] {
  sides red "Red", blue "Blue", green "Green" [1.1]
  die d6 1..6 [2.0]
}
'''


def test_odds_through_a_roll_off_with_ties_rerolled_and_the_impulses(capsys, monkeypatch):
    # Three players tied for the initiative: a tie rolls again without end, solved exactly, so
    # each takes it with 1/3. Each then raids once, a landing on 5 or 6: a port with 1/3.
    monkeypatch.chdir(ROOT)
    assert main(["odds", "tests/lang/impulses_odds.scenario", "--fact", "initiative", "--fact", "ports red"]) == 0
    out = capsys.readouterr().out
    initiative = out.split("initiative:\n")[1].split("ports red:")[0]
    assert [line.split()[:2] for line in initiative.splitlines()] == [["blue", "1/3"], ["green", "1/3"], ["red", "1/3"]]
    ports = out.split("ports red:\n")[1].split("jointly")[0]
    assert [line.split()[:2] for line in ports.splitlines()] == [["1", "2/3"], ["2", "1/3"]]
    assert "infinitely many dice paths" in out and "total probability: 1 (exactly)" in out


def _start(sc, sources, sym, seed: int):
    """The scenario's steps run up to its last one (the impulses), whose process is returned."""
    engine = Engine(sym, sources)
    Setup(engine, sc).run()
    parts = target_parts(engine, sc)
    for part in parts[:-1]:
        play_on(engine, part(), random.Random(seed))
    return engine, parts[-1]()


def test_a_position_taken_mid_impulse_goes_on_as_the_game(monkeypatch):
    # Whose impulse it is and the run of passes live in the loop: a saved position keeps them.
    monkeypatch.chdir(ROOT)
    sym, sources, sc = loaded("tests/lang/impulses_all_pass.scenario")
    compared = 0
    for seed in range(10):
        for stop_at in (1, 2, 3):
            engine, proc = _start(sc, sources, sym, seed)
            req = play_on(engine, proc, random.Random(seed), stop_at=stop_at)
            if not isinstance(req, RollRequest):
                continue
            assert any(loop[0] == "impulses" for f in proc.stack for loop in getattr(f, "loops", []))
            taken = Position.of(engine, proc)
            text = tomli_w.dumps(to_data(taken))
            rng = random.Random(seed + 100)
            uninterrupted = play_on(engine, proc, copy.deepcopy(rng), req)
            other, _ = _start(sc, sources, sym, seed)
            shell = Process(other, None)
            from_data(tomllib.loads(text), other).restore(other, shell)
            assert Position.of(other, shell).key() == taken.key()
            assert play_on(other, shell, copy.deepcopy(rng), req) == uninterrupted
            compared += 1
    assert compared >= 10


def run(tmp_path, body: str, capsys) -> tuple[int, str]:
    (tmp_path / "t.rules").write_text(HEAD + body, encoding="utf-8")
    (tmp_path / "t.scenario").write_text('scenario "s" uses "t.rules" [3.0] {\n  run p()\n  expect { true }\n}\n',
                                         encoding="utf-8")
    code = main(["run", str(tmp_path / "t.scenario"), "--detail"])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_the_impulse_limit_ends_the_loop_and_hooks_name_the_seat(tmp_path, capsys):
    code, out = run(tmp_path, '''procedure p() [3.0] {
  impulses turn_of for s in rotated(sides(), blue) up to 4 [3.0] {
    say "{s} acts" [3.1]
  }
}
on turn_of_end(s) [3.2] {
  say "end of {s}'s impulse" [3.2]
}
''', capsys)
    assert code == 0
    lines = [line.strip() for line in out.splitlines() if line.strip().startswith("[3.")]
    assert lines == ["[3.0] turn_of 1: blue", "[3.1] blue acts", "[3.2] end of blue's impulse",
                     "[3.0] turn_of 2: green", "[3.1] green acts", "[3.2] end of green's impulse",
                     "[3.0] turn_of 3: red", "[3.1] red acts", "[3.2] end of red's impulse",
                     "[3.0] turn_of 4: blue", "[3.1] blue acts", "[3.2] end of blue's impulse",
                     "[3.0] the last of 4 turn_of(s) is over: the 'turn_of' loop ends"]


def test_rotated_from_a_seat_not_in_the_list_stops_the_run(tmp_path, capsys):
    code, out = run(tmp_path, '''procedure p() [3.0] {
  impulses impulse for s in rotated([red, blue], green) [3.0] { pass }
}
''', capsys)
    assert code == 1
    assert "rotated: green is not in the list [red, blue]" in out
    assert "Traceback" not in out


def test_a_time_unit_named_after_the_game_s_own_is_refused(tmp_path, capsys):
    (tmp_path / "t.rules").write_text(HEAD + '''procedure p() [3.0] {
  repeat turn as r up to 2 [3.0] { say "{r}" [3.0] }
}
''', encoding="utf-8")
    assert main(["check", str(tmp_path / "t.rules")]) == 1
    err = capsys.readouterr().err
    assert "'turn' is the game's own time unit; name the loop's unit otherwise" in err


def _play_cli(capsys, *args: str) -> list[str]:
    assert main(["play", *args]) == 0
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return [line for line in out.out.splitlines() if not line.startswith(("game: ", "(suspended", "saved to"))]


def test_a_game_saved_in_the_middle_of_the_impulses_goes_on_as_the_whole_game(capsys, monkeypatch, tmp_path):
    # `umpire play` over two turns: turn start, the initiative step, the impulses, with hooks.
    monkeypatch.chdir(ROOT)
    agents = ("--agents", "random,random,random")
    whole = _play_cli(capsys, "tests/lang/impulses.rules", "--seed", "3", *agents)
    assert "[1.3] the game ends after turn 2" in whole
    assert any(line.endswith("passed in a row: the 'impulse' loop ends") for line in whole)
    for stop in (2, 5, 9):
        save = tmp_path / f"game{stop}.toml"
        first = _play_cli(capsys, "tests/lang/impulses.rules", "--seed", "3", *agents, "--save", str(save),
                          "--stop-after", str(stop))
        rest = _play_cli(capsys, "--load", str(save))
        assert first + rest == whole, stop


def test_a_named_repeat_is_a_time_unit_whose_hooks_get_the_round_number(tmp_path, capsys):
    code, out = run(tmp_path, '''procedure p() [3.0] {
  impulses impulse for s in [red] up to 1 [3.0] {
    repeat mpi up to 2 [3.1] { say "{s} moves" [3.1] }
  }
}
on mpi_start(k) [3.2] { say "the storm moves before mpi {k}" [3.2] }
on mpi_end() [3.3] { say "attrition" [3.3] }
on impulse_end(s) [3.4] { say "escalades after {s}'s impulse" [3.4] }
''', capsys)
    assert code == 0
    lines = [line.strip() for line in out.splitlines() if line.strip().startswith("[3.")]
    assert lines == ["[3.0] impulse 1: red", "[3.1] mpi 1", "[3.2] the storm moves before mpi 1", "[3.1] red moves",
                     "[3.3] attrition", "[3.1] mpi 2", "[3.2] the storm moves before mpi 2", "[3.1] red moves",
                     "[3.3] attrition", "[3.1] the last of 2 mpi(s) is over", "[3.4] escalades after red's impulse",
                     "[3.0] the last of 1 impulse(s) is over: the 'impulse' loop ends"]


def test_the_toy_impulse_game_checks_clean(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", "tests/lang/impulses.rules"]) == 0
    out = capsys.readouterr()
    assert "tests/lang/impulses.rules: 0 error(s), 0 warning(s)" in out.out + out.err
