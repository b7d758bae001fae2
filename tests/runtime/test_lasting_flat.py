"""A kept value's replay read from its calls flattened (execution/lasting.py `LastingMemo._flat`): the
calls not known in the epoch entered, their steps counted with its own, as the replay call by call
(`_replay`) does; near the depth limit the replay goes call by call, and gives way to the body. Each run
is compared with the same run keeping no values."""

from __future__ import annotations

from pathlib import Path

from interpreter.runtime.execution import lasting
from tests.played import cli_output as cli
from tests.played import toy_scenario

HEADER = """game g "G" [1.0] {
  sides a "A", b "B" [1.1]
  die d6 1..6 [1.2]
  turns 1 [1.3]
}
map m [2.0] {
  grid hex "CCRR" columns even_q [2.0]
}
# Each counts the items it goes through (steps of the budget); `wide` calls `evens` 19 times, some of
# them asked again on their own in the same statement, and `tall` calls it n calls deep.
function evens(n: int) [3.0] = [i for i in range(1, n) where i % 2 == 0]
function wide() [3.0] = [count(evens(k)) for k in range(1, 19)]
function tall(n: int) [3.0] = if n <= 0 then count(evens(6)) else tall(n - 1) + 0
function deep(n: int) [3.0] = if n <= 0 then sum(wide()) else deep(n - 1)
"""

ROUNDS = """procedure main() [4.0] {
  for each r in range(1, 300) [4.1] {
    say "round {r}: {count(evens(r % 9))} {wide()} {tall(r % 7)}" [4.2]
  }
}
"""

# `wide` kept at a shallow call, then asked ever deeper, each in a statement of its own: replayed until
# its calls would come within two of the depth limit, then its body runs, and the limit stops it.
DEEP = """procedure main() [4.0] {
  say "shallow {deep(0)}" [4.1]
  for each n in range(190, 202) [4.2] {
    say "{n} deep: {deep(n)}" [4.3]
  }
}
"""


def scenario(tmp_path: Path, body: str) -> Path:
    return toy_scenario(tmp_path, HEADER + body, "hex 0101  hex 0102")


def both(tmp_path: Path, monkeypatch, body: str) -> tuple[tuple[int, str], int]:
    """The run keeping values (and how many calls its replays went through one by one), checked equal
    to the same run keeping none."""
    rules = scenario(tmp_path, body)
    one_by_one = [0]
    replay = lasting.LastingMemo._replay

    def counted(self, *args):
        one_by_one[0] += 1
        return replay(self, *args)

    with monkeypatch.context() as m:
        m.setattr(lasting.LastingMemo, "_replay", counted)
        kept = cli("run", str(rules))
    with monkeypatch.context() as m:
        m.setattr(lasting, "lasting_functions", lambda sym: {})
        plain = cli("run", str(rules))
    assert kept == plain
    return kept, one_by_one[0]


def test_replays_read_the_flattened_calls_and_count_their_steps(tmp_path: Path, monkeypatch):
    (code, out), one_by_one = both(tmp_path, monkeypatch, ROUNDS)
    assert code == 0, out
    assert "[4.2] round 8: 4 [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9] 3\n" in out, out
    assert one_by_one == 0  # every replay read its calls flattened


def test_the_step_budget_is_met_where_it_always_was(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("UMPIRE_MAX_STEPS", "9000")
    (code, out), one_by_one = both(tmp_path, monkeypatch, ROUNDS)
    assert code == 1 and "the run has taken 9,000 steps" in out and "Traceback" not in out, out[-2000:]
    assert 10 < out.count("round ") < 299, out[-2000:]
    assert one_by_one == 0


def test_near_the_depth_limit_the_replay_goes_call_by_call_and_the_body_runs(tmp_path: Path, monkeypatch):
    (code, out), one_by_one = both(tmp_path, monkeypatch, DEEP)
    assert code == 1 and "Traceback" not in out, out[-2000:]
    assert "[4.3] 197 deep: 90\n" in out and "198 deep" not in out, out[-2000:]
    assert "'evens' [3.0] is called more than 200 deep" in out, out[-2000:]
    assert one_by_one > 0  # too near the limit to read them flattened
