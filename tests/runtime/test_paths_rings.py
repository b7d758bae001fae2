"""Moves counted over a list of places passed again and again (world/paths.py `Rings`): `distance` and
`within` over the same list object read the rings counted once from each start, and answer as counting
them out at every call does. Each test compares a run with the kept rings against the same run counting
every call's rings, and counts the rings counted out."""

from __future__ import annotations

from pathlib import Path

from interpreter.runtime.world import paths
from tests.played import cli_output as cli
from tests.played import toy_scenario

HEADER = """game g "G" [1.0] {
  sides a "A", b "B" [1.1]
  die d6 1..6 [1.2]
  turns 1 [1.3]
}
map m [2.0] {
  grid hex "CCRR" columns even_q [2.0]
  property land: bool [2.0]
}
# The sea: a list kept all game (the same list object at every call), as Sea of Glory's sea hexes.
function sea() [3.0] = [p for p in places() where not p.land]
function far(a: place, b: place) [3.0] = distance(a, b, sea())
"""

CELLS = ("hex 0101 { land: false }  hex 0102 { land: false }  hex 0103 { land: false }  "
         "hex 0201 { land: false }  hex 0202 { land: true }  hex 0203 { land: false }  "
         "hex 0301 { land: false }  hex 0302 { land: false }  hex 0303 { land: false }  hex 0304 { land: true }")

# Every pair asked twice in a statement of its own (so the memo of the epoch does not answer the second),
# `within` from a place and from a list, a place the sea does not reach, and a list made at each call.
ASKED = """procedure main() [4.0] {
  for each a in sea() [4.1] {
    for each b in places() [4.2] {
      say "{a} to {b}: {distance(a, b, sea())}" [4.3]
      say "again {far(a, b)} {within(a, 1, sea())} {within([a, b], 1, sea())}" [4.4]
      say "made {distance(a, b, [p for p in places() where not p.land])}" [4.5]
    }
  }
}
"""


def scenario(tmp_path: Path, body: str) -> Path:
    return toy_scenario(tmp_path, HEADER + body, CELLS)


def both(tmp_path: Path, monkeypatch, body: str, *argv: str) -> tuple[tuple[int, str], int, int]:
    """The run with the kept rings and the run counting every call's, checked equal; with the times each
    counted rings out."""
    rules = scenario(tmp_path, body)
    counted = [0]
    rings = paths._rings

    def counting(*args):
        counted[0] += 1
        return rings(*args)

    with monkeypatch.context() as m:
        m.setattr(paths, "_rings", counting)
        kept = cli(*argv, str(rules))
        kept_count, counted[0] = counted[0], 0
        m.setattr(paths.Rings, "of", lambda self, span, start, through, fn: None)
        plain = cli(*argv, str(rules))
    assert kept == plain
    return kept, kept_count, counted[0]


def test_distances_over_the_same_list_are_counted_once_from_each_start(tmp_path: Path, monkeypatch):
    (code, out), kept, plain = both(tmp_path, monkeypatch, ASKED, "run")
    assert code == 0, out
    assert "[4.3] 0101 to 0303: 3\n" in out and "[4.3] 0101 to 0202: none\n" in out, out
    assert "[4.4] again 3 [0101, 0102, 0201] [0101, 0303, 0102, 0201, 0203, 0302]\n" in out, out
    assert "[4.5] made 3\n" in out, out
    # Every call counting: 8 sea hexes x 10 places x 4 calls over the sea, and 80 over a list made each
    # time. Kept: the sea's first use, then each start's rings once (8 places, 80 pairs), and the 80 lists made.
    assert plain == 400, plain
    assert kept == 1 + 8 + 80 + 80, kept


def test_a_start_outside_the_list_and_bad_values_answer_as_always(tmp_path: Path, monkeypatch):
    body = """procedure main() [4.0] {
  say "from land {distance(@0202, @0101, sea())} {within(@0202, 1, sea())}" [4.1]
  say "again {distance(@0202, @0101, sea())} {within(@0202, 1, sea())}" [4.2]
  say "bad {distance(@0101, @0102, sea() + [3])}" [4.3]
}
"""
    (code, out), _, _ = both(tmp_path, monkeypatch, body, "run")
    assert "[4.1] from land 2 [0202, 0102, 0103, 0201, 0203, 0302, 0303]\n" in out, out
    assert "[4.2] again 2 [0202, 0102, 0103, 0201, 0203, 0302, 0303]\n" in out, out
    assert code == 1 and "distance needs a list of places to move through, not [" in out and "Traceback" not in out, out
