"""Draws from a cup and picks at random (language 6.5, 11.6a) on the toy game tests/lang/draws.rules:
exact odds against hand-computed fractions and the replay, seeded games reproduced byte for byte,
a game saved in the middle of a cup going on as the uninterrupted one, and damaged cup data refused."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
import tomli_w
from positions import loaded

from interpreter.cli import main
from interpreter.ir import nodes as n
from interpreter.load import load_rules, load_scenario
from interpreter.runtime.common.requests import DrawRequest
from interpreter.runtime.execution import cups
from interpreter.runtime.games.play import play
from interpreter.runtime.odds.odds import exact_odds, replay_odds
from interpreter.runtime.position.position_data import PositionError, from_data
from interpreter.syntax.diagnostics import NO_SPAN, Sources

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = "tests/lang/draws.rules"


def _odds(stem: str, fact: str, replay: bool = False) -> dict:
    sources = Sources()
    sc = load_scenario(f"tests/lang/{stem}.scenario", sources)
    sym = load_rules(RULES, sources).symbols
    how = replay_odds if replay else exact_odds
    return how(sc, sym, sources, [fact]).marginal(0)


def test_a_draw_of_two_without_replacement_is_hypergeometric(monkeypatch):
    # Red x2, blue x2, storm among five: two reds C(2,2)/C(5,2), one red 2*3/10, none C(3,2)/10.
    monkeypatch.chdir(ROOT)
    expected = {0: Fraction(3, 10), 1: Fraction(6, 10), 2: Fraction(1, 10)}
    assert _odds("draws_two", "reds drawn") == expected
    assert _odds("draws_two", "reds drawn", replay=True) == expected


def test_a_draw_with_replacement_is_multinomial(monkeypatch):
    # Fair x2, foul: each draw is fair with 2/3, whatever came before.
    monkeypatch.chdir(ROOT)
    assert _odds("draws_omens", "fair omens") == {0: Fraction(1, 9), 1: Fraction(4, 9), 2: Fraction(4, 9)}


def test_a_chit_pull_draws_the_storm_at_each_place_equally(monkeypatch):
    # Drawn one at a time without replacement, the storm is equally likely to come 1st..5th.
    monkeypatch.chdir(ROOT)
    assert _odds("draws_chit_pull", "storm drawn as") == {k: Fraction(1, 5) for k in range(1, 6)}
    assert _odds("draws_chit_pull", "storm drawn as", replay=True) == {k: Fraction(1, 5) for k in range(1, 6)}


def test_a_pick_at_random_is_uniform(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert _odds("draws_founder", "lost") == {"R1": Fraction(1, 2), "R3": Fraction(1, 2)}
    assert _odds("draws_random_side", "pair total") == {3: Fraction(1, 3), 4: Fraction(1, 3), 5: Fraction(1, 3)}


def test_the_outcomes_of_a_draw_add_up_to_one():
    for weights, count, replace in (((3, 1, 2), 3, False), ((3, 1, 2), 4, True), ((1, 1, 1, 1), 2, False)):
        req = DrawRequest(count, list("abcd"[: len(weights)]), list(weights), replace, "x", "1.0", NO_SPAN)
        assert sum(p for _, p in cups.outcomes(req)) == 1


def _game(seed: int, **kw):
    sources = Sources()
    sym = load_rules(RULES, sources).symbols
    setup = load_scenario("tests/lang/draws_turn.scenario", sources)
    return play(sym, sources, setup, seed, ["random", "random"], **kw)


def test_a_seeded_game_with_draws_is_the_same_twice(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    first, again = _game(7), _game(7)
    assert first.error is None and first.lines == again.lines
    assert any("draw chit from activation" in line for line in first.lines)
    assert any(_game(seed).lines != first.lines for seed in (1, 2, 3)), "the seed decides the draws"
    outs = []
    for _ in range(2):
        assert main(["play", "tests/lang/draws_turn.scenario", "--seed", "5", "--detail"]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] and "refill activation" in outs[0]


def _resume(save: dict) -> dict:
    data = tomllib.loads(tomli_w.dumps(save))
    return {**data["umpire_save"], "state": data["state"], "position": data["position"], "goes_on": data["goes_on"]}


@pytest.mark.parametrize("seed", range(1, 7))
def test_a_game_saved_in_the_middle_of_a_cup_goes_on_the_same(seed, monkeypatch):
    monkeypatch.chdir(ROOT)
    whole = _game(seed)
    part = _game(seed, stop_after=2)
    assert part.save is not None, "the game has a second decision"
    held = {c["name"]: dict(c["chits"]) for c in part.save["position"]["cups"]}
    assert 0 < sum(held["activation"].values()) < 5, "saved with some chits drawn and some in the cup"
    rest = _game(seed, resume=_resume(part.save))
    assert part.lines[:-1] + rest.lines[2:] == whole.lines
    assert rest.error == whole.error


def _saved_position() -> dict:
    part = _game(3, stop_after=2)
    return _resume(part.save)["position"]


@pytest.mark.parametrize("damage,why", [
    (lambda p: p["cups"].pop(), "not every cup of this game has its contents"),
    (lambda p: p["cups"][0].update(name="bag"), "no cup 'bag' in this game"),
    (lambda p: p["cups"][0]["chits"].pop(), "does not give every chit its count"),
    (lambda p: p["cups"][0]["chits"][0].__setitem__(1, -1), "a count of chits is a whole number from 0"),
    (lambda p: p["cups"][0]["chits"][0].__setitem__(0, "admiral"), "expected [chit of cup activation, count]"),
    (lambda p: p["cups"][0]["chits"][0].__setitem__(1, "two"), "expected a number"),
    (lambda p: p["cups"][0].__setitem__("chits", {}), "expected a list"),
    (lambda p: p["cups"][0]["chits"][0].__setitem__(1, 10**7), "a cup holds at most 1,000,000 chits"),
])
def test_damaged_cup_contents_are_refused_with_the_field(damage, why, monkeypatch):
    monkeypatch.chdir(ROOT)
    position = _saved_position()
    damage(position)
    sources = Sources()
    from interpreter.runtime.execution.engine import Engine
    from interpreter.runtime.games.setup import Setup

    sym = load_rules(RULES, sources).symbols
    engine = Engine(sym, sources)
    Setup(engine, load_scenario("tests/lang/draws_turn.scenario", sources)).run()
    with pytest.raises(PositionError) as err:
        from_data(position, engine)
    assert why in err.value.message and "cups" in err.value.message


def test_explain_reads_a_draw(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(["explain", "tests/lang/draws_chit_pull.scenario", "--at", "storm"]) == 0
    out = capsys.readouterr().out
    assert "draw chit from activation -> storm" in out and "draws.rules:" in out


def _answer(req, rng):
    if isinstance(req, DrawRequest):
        return cups.seeded(rng, req)
    return rng.choice(req.options) if req.options else None


def _go_on(engine, proc, rng, req=None, stop_at: int | None = None):
    """Answer from rng to the end (the trace and facts), or until the stop_at-th draw is asked (returned)."""
    from interpreter.runtime.common.requests import RollRequest

    draws, start = 0, len(engine.events)
    try:
        req = proc.send(None) if req is None else req
        while True:
            assert not isinstance(req, RollRequest)
            if isinstance(req, DrawRequest):
                draws += 1
                if draws == stop_at:
                    return req
            req = proc.send(_answer(req, rng))
    except StopIteration:
        return [e.line() for e in engine.events[start:]], dict(engine.state.facts)


@pytest.mark.parametrize("stem,nth", [("draws_chit_pull", 2), ("draws_chit_pull", 4), ("draws_founder", 1), ("draws_random_side", 2)])
def test_a_position_waiting_for_a_draw_is_written_and_read_back(stem, nth, monkeypatch):
    import random

    from interpreter.runtime.execution.engine import Engine
    from interpreter.runtime.execution.vm import Process
    from interpreter.runtime.games.scenario import run_target
    from interpreter.runtime.games.setup import Setup
    from interpreter.runtime.position.position import Position, canon
    from interpreter.runtime.position.position_data import to_data

    monkeypatch.chdir(ROOT)
    sym, sources, sc = loaded(f"tests/lang/{stem}.scenario")

    def start():
        engine = Engine(sym, sources)
        Setup(engine, sc).run()
        return engine, run_target(engine, sc)

    engine, proc = start()
    req = _go_on(engine, proc, random.Random(1), stop_at=nth)
    assert isinstance(req, DrawRequest)
    taken = Position.of(engine, proc)
    text = tomli_w.dumps(to_data(taken))
    uninterrupted = _go_on(engine, proc, random.Random(2), req)

    other, _ = start()
    shell = Process(other, None)
    from_data(tomllib.loads(text), other).restore(other, shell)
    assert Position.of(other, shell).key() == taken.key()
    again = shell.pending()
    assert canon(again) == canon(req)
    assert _go_on(other, shell, random.Random(2), again) == uninterrupted


@pytest.mark.parametrize("damage,why", [
    (lambda d: d.update(weights=[1]), "the draw's counts do not fit"),
    (lambda d: d.update(count=0), "the draw's counts do not fit"),
    (lambda d: d["values"].__setitem__(0, {"t": "unit", "id": "Z9"}), "no unit 'Z9' in this game"),
    (lambda d: d.update(cup="bag"), "these rules have no cup 'bag'"),
    (lambda d: d.update(replace="no"), "expected true or false"),
    (lambda d: d["weights"].__setitem__(0, 10**7), "a draw is made from at most 1,000,000"),
    (lambda d: d.update(count=20_000, weights=[30_000] * len(d["weights"])), "takes at most 10,000"),
])
def test_a_damaged_waiting_draw_is_refused(damage, why, monkeypatch):
    import random

    from interpreter.runtime.execution.engine import Engine
    from interpreter.runtime.games.scenario import run_target
    from interpreter.runtime.games.setup import Setup
    from interpreter.runtime.position.position import Position
    from interpreter.runtime.position.position_data import to_data

    monkeypatch.chdir(ROOT)
    sym, sources, sc = loaded("tests/lang/draws_founder.scenario")
    engine = Engine(sym, sources)
    Setup(engine, sc).run()
    proc = run_target(engine, sc)
    assert isinstance(_go_on(engine, proc, random.Random(1), stop_at=1), DrawRequest)
    data = tomllib.loads(tomli_w.dumps(to_data(Position.of(engine, proc))))
    asked = next(f["fields"]["asked"] for f in data["stack"] if f["fields"].get("asked", {}).get("t") == "draw")
    damage(asked)
    other = Engine(sym, sources)
    Setup(other, sc).run()
    with pytest.raises(PositionError) as err:
        from_data(data, other)
    assert why in err.value.message and "asked" in err.value.message


def test_a_scripted_chit_misspelt_is_refused_with_a_did_you_mean():
    from interpreter.ir import nodes as n
    from interpreter.runtime.common.requests import ScriptError
    from interpreter.runtime.execution.dice import ScriptedDice

    req = DrawRequest(1, ["red", "blue", "storm"], [2, 2, 1], False, "chit from activation", "2.1", NO_SPAN, "activation")
    dice = ScriptedDice((n.ScriptedDraw(span=NO_SPAN, chit="stom"),))
    with pytest.raises(ScriptError) as err:
        dice.draw(req)
    assert "cup activation holds red x2, blue x2, storm" in err.value.message
    assert err.value.hint == "did you mean 'storm'?"
    two = DrawRequest(2, ["red", "storm"], [2, 1], False, "hand from activation", "2.5", NO_SPAN, "activation")
    script = ScriptedDice(tuple(n.ScriptedDraw(span=NO_SPAN, chit=c) for c in ("storm", "red")))
    assert script.draw(two) == [0, 1], "a draw of two is scripted in any order and answered sorted"
    twice = ScriptedDice(tuple(n.ScriptedDraw(span=NO_SPAN, chit="storm") for _ in range(2)))
    with pytest.raises(ScriptError, match="holds red x2"):
        twice.draw(two)  # the one storm chit cannot come out twice


def test_a_saved_game_with_cups_verifies_and_shows_its_cups(monkeypatch, capsys, tmp_path):
    from interpreter.runtime.execution.engine import Engine
    from interpreter.runtime.games.play import position
    from interpreter.runtime.games.setup import Setup

    monkeypatch.chdir(ROOT)
    save = tmp_path / "game.toml"
    assert main(["play", "tests/lang/draws_turn.scenario", "--seed", "3", "--stop-after", "2", "--save", str(save)]) == 0
    saved = tomllib.loads(save.read_text(encoding="utf-8"))
    assert saved["state"]["cups"]["omens"] == {"fair": 2, "foul": 1}
    assert main(["play", "--load", str(save), "--verify"]) == 0  # replayed from the seed: the same cups at the save
    capsys.readouterr()
    sources = Sources()
    engine = Engine(load_rules(RULES, sources).symbols, sources)
    Setup(engine, load_scenario("tests/lang/draws_turn.scenario", sources)).run()
    assert "  cup activation: red x2, blue x2, storm" in position(engine).splitlines()


def test_an_overlay_adds_a_cup_and_amends_a_draw(tmp_path):
    from test_overlay import BASE, amend, clean, overlay

    base = BASE + 'cup activation "Activation" [7.0] {\n  chits red x2, blue\n}\n' + \
        'procedure pull() [7.1] {\n  draw chit from activation [7.1]\n  say "{chit}" [7.1]\n}\n'
    loaded = amend(tmp_path, overlay("more", """\
        amend HR-1 "an omen pool" [7.2 house rule] {
          add cup omens "Omens" with replacement [7.2] {
            chits fair x2, foul
          }
          replace clause draw [7.1] of procedure pull with {
            draw chit from omens
          }
        }
        """), base=base)
    clean(loaded)
    sym = loaded.symbols
    assert sym.cups["omens"].replaced and sym.cups["omens"].start() == {"fair": 2, "foul": 1}
    assert [s.cup for s in sym.procedures["pull"].body if isinstance(s, n.Draw)] == ["omens"]


def test_a_local_rebound_after_a_draw_is_no_longer_checked_as_a_chit(tmp_path):
    rules = tmp_path / "c.rules"
    rules.write_text('game chits "Chits" [1.0] {\n  sides red "Red", blue "Blue" [1.1]\n  die d6 1..6 [1.2]\n}\n'
                     'cup activation "Activation cup" [6.1] {\n  chits red x2, blue x2, storm\n}\n'
                     'procedure p() [6.1] {\n  draw chit from activation [6.1]\n  if chit == blue [6.1] {\n    say "b" [6.1]\n  }\n'
                     '  let chit = "other" [6.2]\n  if chit == "other" [6.2] {\n    say "x" [6.2]\n  }\n}\n')
    loaded = load_rules(str(rules), Sources())
    assert not [d.message for d in loaded.diagnostics if d.severity == "error"]
    rules.write_text(rules.read_text().replace('chit == "other"', 'chit == "other" or chit == storm').replace('let chit', 'draw chit from activation [6.2]\n  let c'))
    errors = [d.message for d in load_rules(str(rules), Sources()).diagnostics if d.severity == "error"]
    assert errors == ["'other' is not a chit of cup 'activation', from which 'chit' is drawn"]


def test_odds_through_a_chit_pull_turn_branch_as_they_replay(monkeypatch):
    # Draws and decisions in a step's repeat: branching on positions (the cups in their keys)
    # gives what replaying every path gives.
    monkeypatch.chdir(ROOT)
    sources = Sources()
    sc = load_scenario("tests/lang/draws_turn.scenario", sources)
    sym = load_rules(RULES, sources).symbols
    exact, replayed = exact_odds(sc, sym, sources, ["lost"]), replay_odds(sc, sym, sources, ["lost"])
    assert exact.outcomes == replayed.outcomes and exact.total == 1
