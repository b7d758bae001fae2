"""A lasting function that may read game states keeps each value under the states its evaluation read
(execution/lasting.py, noted as it runs): a value is used again wherever those states hold the same
values, whatever the others hold, and never where one of them changed. Each run is compared with the
same run keeping no values."""

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
  property north: bool [2.0]
}
state north_wind: int [2.0]
state south_wind: int [2.0]
# Each hex reads the wind of its own half of the map; `cost` reads it through `wind_of`, and counts
# items (steps of the budget) itself.
function wind_of(p: place) [3.0] = if p.north then north_wind else south_wind
function cost(a: place, b: place) [3.0] = wind_of(b) + count([i for i in range(1, 4) where i > 1])
# Reads the south wind only while the north wind is 1.
function gusts() [3.0] = if north_wind == 1 then south_wind * 10 else count([i for i in range(1, 3)])
"""

CELLS = "hex 0101 { north: true }  hex 0102 { north: true }  hex 0201 { north: false }  hex 0202 { north: false }"

WINDS = """procedure main() [4.0] {
  set north_wind = 1 [4.1]
  set south_wind = 1 [4.2]
  say "first {[cost(a, b) for a in places() for b in places()]} {gusts()}" [4.3]
  set south_wind = 3 [4.4]
  say "south 3 {[cost(a, b) for a in places() for b in places()]} {gusts()}" [4.5]
  set north_wind = 2 [4.6]
  say "north 2 {[cost(a, b) for a in places() for b in places()]} {gusts()}" [4.7]
  set south_wind = 4 [4.8]
  say "south 4 {gusts()}" [4.9]
  set north_wind = 1 [4.10]
  say "north 1 {gusts()}" [4.11]
  set south_wind = 1 [4.12]
  say "south 1 {[cost(a, b) for a in places() for b in places()]} {gusts()}" [4.13]
}
"""


def scenario(tmp_path: Path, body: str) -> Path:
    return toy_scenario(tmp_path, HEADER + body, CELLS)


def both(tmp_path: Path, monkeypatch, body: str, *argv: str) -> tuple[tuple[int, str], dict[str, int]]:
    """The run keeping values (and how many bodies of each function ran in it), checked equal to the
    same run keeping none."""
    rules = scenario(tmp_path, body)
    ran: dict[str, int] = {}
    end = lasting.LastingMemo.end

    def counted(self, key, value, frame):
        ran[key[0]] = ran.get(key[0], 0) + 1
        return end(self, key, value, frame)

    with monkeypatch.context() as m:
        m.setattr(lasting.LastingMemo, "end", counted)
        kept = cli(*argv, str(rules))
    with monkeypatch.context() as m:
        m.setattr(lasting, "lasting_functions", lambda sym: {})
        plain = cli(*argv, str(rules))
    assert kept == plain
    return kept, ran


def test_a_value_is_kept_under_the_states_its_evaluation_read(tmp_path: Path, monkeypatch):
    (code, out), ran = both(tmp_path, monkeypatch, WINDS, "run")
    assert code == 0, out
    assert "[4.3] first [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4] 10\n" in out, out
    assert "[4.5] south 3 [4, 4, 6, 6, 4, 4, 6, 6, 4, 4, 6, 6, 4, 4, 6, 6] 30\n" in out, out
    assert "[4.7] north 2 [5, 5, 6, 6, 5, 5, 6, 6, 5, 5, 6, 6, 5, 5, 6, 6] 3\n" in out, out
    assert "[4.9] south 4 3\n" in out and "[4.11] north 1 40\n" in out, out
    assert "[4.13] south 1 [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4] 10\n" in out, out
    # 16 moves at the first statement; then only the 8 into the hexes whose wind changed, each time; the
    # last statement finds the first one's values again (every wind as it was).
    assert ran["cost"] == 16 + 8 + 8, ran
    # gusts: read north_wind alone while it is 2, so the change of the south wind at 4.8 runs nothing;
    # at 4.11 it reads both again (south 4: a value not seen), at 4.13 both as at 4.3.
    assert ran["gusts"] == 4, ran


# Each round changes one wind: the moves into the other half of the map replay kept values, which count
# the items their bodies went through, so the budget runs out at the same round either way.
BUDGET = """procedure main() [4.0] {
  set south_wind = 0 [4.0]
  for each r in range(1, 500) [4.1] {
    set north_wind = r % 3 [4.2]
    say "round {r}: {[cost(a, b) for a in places() for b in places()]}" [4.3]
    set south_wind = r % 5 [4.4]
    say "again {[cost(a, b) for a in places() for b in places()]} {gusts()}" [4.5]
  }
}
"""


def test_the_step_budget_is_met_where_it_always_was(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("UMPIRE_MAX_STEPS", "7000")
    (code, out), ran = both(tmp_path, monkeypatch, BUDGET, "run")
    assert code == 1 and "the run has taken 7,000 steps" in out and "Traceback" not in out, out[-2000:]
    assert 10 < out.count("round ") < 499, out[-2000:]
    assert ran["cost"] < 16 * out.count("round "), ran  # kept values were used in the loop


def test_explain_is_the_same_with_kept_values(tmp_path: Path, monkeypatch):
    (code, out), _ = both(tmp_path, monkeypatch, WINDS, "explain")
    assert code == 0 and "wind_of" in out, out
