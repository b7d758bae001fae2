"""`end game "WHY"` (language §11.16): a rule ends the game at once, whoever runs it.

The toy is tests/lang/sudden.rules: a race to ten points over five turns, each side rolling a
die (two if it pushes) in its step; a side that reaches ten ends the game. Its scenarios'
traces are snapshots (tests/language/test_language.py); here: a whole game, saves around the end,
exact odds, a search agent's rollouts and an invariant that may not end the game.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from interpreter.cli import main
from interpreter.runtime.odds.odds import exact_odds, replay_odds
from tests.played import load_for_odds, play_cli

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = ROOT / "tests" / "lang" / "sudden.rules"
GAME = "tests/lang/sudden.rules"


play = play_cli


def narration(text: str) -> list[str]:
    return [line for line in text.splitlines()[1:] if not line.startswith(("(suspended", "saved to"))]


def test_play_stops_at_the_turn_the_game_ends_and_runs_only_its_end(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    # Seed 3: blue pushes in turn 2 and rolls 3 and 5, from 5 points to 13.
    lines = play(capsys, GAME, "--seed", "3", "--agents", "random,random", "--detail").splitlines()
    end = lines.index("[2.1] the game ends: blue reached 13 points")
    assert lines[end - 2:end] == ["[2.1] winner is now blue", "[2.1] record sudden death = blue"]
    assert lines[end + 1:] == ["[4.0] turn 2: game end", "[4.0] record final turn = 2", "[4.0] blue wins"]
    assert not any("turn 3" in line or "turn 2, upkeep" in line for line in lines), "nothing after the end ran"
    assert not any("the game ends after turn" in line for line in lines)


def test_a_game_that_ended_has_no_position_to_save(capsys, monkeypatch, tmp_path):
    # Four decisions (two pushes a turn) before the end in turn 2: a fifth is never asked.
    monkeypatch.chdir(ROOT)
    save = tmp_path / "game.toml"
    assert main(["play", GAME, "--seed", "3", "--agents", "random,random", "--save", str(save), "--stop-after", "4"]) == 1
    assert "the game ended before decision 5: there was nothing to save" in capsys.readouterr().err
    assert not save.exists()


def test_a_game_saved_before_the_end_loads_and_ends_as_the_uninterrupted_game(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    whole = play(capsys, GAME, "--seed", "3", "--agents", "random,random")
    save = tmp_path / "game.toml"
    first = play(capsys, GAME, "--seed", "3", "--agents", "random,random", "--save", str(save), "--stop-after", "3")
    for how in ([], ["--verify"]):  # from the saved position, and replayed from the seed
        rest = play(capsys, "--load", str(save), *how)
        assert narration(first) + narration(rest) == narration(whole)
        assert rest.splitlines()[-3:] == ["[2.1] the game ends: blue reached 13 points", "[4.0] turn 2: game end",
                                          "[4.0] blue wins"]


def test_a_save_in_the_game_end_hooks_after_an_end_goes_on_there(capsys, monkeypatch, tmp_path):
    # A decision in the game_end hook: the fifth, asked after the game ended in turn 2. The save
    # holds the game's end segment; loaded, the game goes on in the hook and nowhere else.
    rules = RULES.read_text(encoding="utf-8").replace(
        'record "final turn" = turn() [4.0]',
        'record "final turn" = turn() [4.0]\n  choose cheer by red from ["cheer"] may "cheer" [4.0]')
    (tmp_path / "sudden.rules").write_text(rules, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    game, save = "sudden.rules", tmp_path / "game.toml"
    whole = play(capsys, game, "--seed", "3", "--agents", "random,random", "--detail")
    assert "[2.1] the game ends: blue reached 13 points" in whole and "[4.0] red cheer: " in whole
    first = play(capsys, game, "--seed", "3", "--agents", "random,random", "--save", str(save), "--stop-after", "4",
                 "--detail")
    assert 'segment = [\n    "game_end",\n    5,\n]' in save.read_text(encoding="utf-8")
    rest = play(capsys, "--load", str(save), "--detail")
    assert narration(first) + narration(rest) == narration(whole)
    assert rest.splitlines()[1].startswith("[4.0] red cheer: ")


load = load_for_odds


def test_exact_odds_of_the_game_ending_in_the_turn(monkeypatch):
    # Red has 6 and needs 4+ (1/2); if not, blue has 4 and needs a 6 (1/6): the game ends in this
    # turn with probability 1/2 + 1/2 * 1/6 = 7/12, red's 1/2, blue's 1/12. A path that ends
    # runs no later step (blue never rolls after red's end).
    monkeypatch.chdir(ROOT)
    loaded = load("tests/lang/sudden_odds.scenario")
    expected = {("red",): Fraction(1, 2), ("blue",): Fraction(1, 12), (None,): Fraction(5, 12)}
    for enumerate_ in (exact_odds, replay_odds):
        odds = enumerate_(*loaded, facts=["sudden death"])
        assert odds.outcomes == expected
        assert odds.runs == 3 + 3 * 6  # red's 4, 5 and 6 end the run; blue rolls after red's 1, 2 and 3
    # What the game_end hook records is measured too: it runs on the paths that end.
    odds = exact_odds(*loaded, facts=["final turn"])
    assert odds.outcomes == {(2,): Fraction(7, 12), (None,): Fraction(5, 12)}


def test_a_search_agent_s_rollouts_stop_at_the_end(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = play(capsys, GAME, "--seed", "3", "--agents", "search:8,random")
    assert out.count("the game ends: ") == 1 and out.splitlines()[-1].endswith(" wins")


def test_an_invariant_may_not_end_the_game(capsys, monkeypatch, tmp_path):
    rules = RULES.read_text(encoding="utf-8") + (
        '\ninvariant capped [5.0] {\n  if points[red] > 20 [5.0] {\n    end game "too many points" [5.0]\n  }\n}\n')
    (tmp_path / "sudden.rules").write_text(rules, encoding="utf-8")
    (tmp_path / "capped.scenario").write_text(
        'scenario "capped" uses "sudden.rules" [5.0] {\n  at turn 1 phase scoring step red_scores\n'
        '  track points red 21\n  run step red_scores\n}\n', encoding="utf-8")
    assert main(["run", str(tmp_path / "capped.scenario")]) == 1
    err = capsys.readouterr().err
    assert "invariant 'capped' may not end the game" in err and "Traceback" not in err


def test_the_end_of_a_game_is_caught_in_one_place():
    """Every driver (a scenario's run, odds, play, a search agent's rollouts) runs its parts of play
    through `Engine.run_to_end`, so a new way to end the game edits none of them: no other function
    catches `GameEnded`, but the invariants', which refuse it."""
    import ast

    catchers = set()
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                for handler in ast.walk(fn):
                    if isinstance(handler, ast.ExceptHandler) and "GameEnded" in ast.unparse(handler.type or ast.Pass()):
                        catchers.add(fn.name)
    assert catchers == {"run_to_end", "run_invariants"}
