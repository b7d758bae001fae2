"""The standard library's combat_results mechanic (docs/library/combat_results.md): the effects a
combat results table's codes name, each result declared in one line. The toy game is
tests/lang/combat_results.rules; its scenarios' traces are snapshots in test_language.py. Here: the
exact odds of an attack in the woods and in the open, a position taken between two steps of an
exchange's loss, an overlay replacing one of the effects, and the game's exchange_by deciding how many
steps an exchange costs the attacker."""

from __future__ import annotations

import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from positions import as_data, loaded, resumed, started

from interpreter.cli import main
from interpreter.runtime.common.requests import ChoiceRequest, RollRequest

LANG = Path(__file__).resolve().parent.parent / "lang"


def measured(out: str, fact: str) -> dict[str, Fraction]:
    """One fact's shares from `umpire odds`: the lines under its heading, up to the next heading."""
    block = out.split(f"\n{fact}:\n")[1]
    block = re.split(r"\n\S", block)[0]
    return {k: Fraction(v) for k, v in re.findall(r"^ +(\S+) +(\d+(?:/\d+)?) ", block, re.M)}


@pytest.mark.parametrize("scenario, column, shares", [
    # 13 to 4 in the woods: 2-1, rows 1..6 read dr, dr, ex, ne, ar, ar.
    ("combat_results_exchange.scenario", "2-1",
     {"eliminated": Fraction(1, 6), "retreated": Fraction(1, 3), "held": Fraction(1, 2)}),
    # The same in the open: 3-1, rows read d2, dr, dr, ex, ne, ar.
    ("combat_results_retreat.scenario", "3-1",
     {"eliminated": Fraction(1, 6), "retreated": Fraction(1, 2), "held": Fraction(1, 3)}),
])
def test_exact_odds_of_an_attack(capsys, scenario, column, shares):
    assert main(["odds", str(LANG / scenario), "--fact", "defenders", "--fact", "combat column"]) == 0
    out = capsys.readouterr().out
    assert measured(out, "defenders") == shares
    assert measured(out, "combat column") == {column: Fraction(1)}
    assert "total probability: 1 (exactly)" in out


def test_odds_of_an_exchange_count_the_attackers_steps(capsys):
    # In the woods an exchange (1/6) costs Red two steps of its four, whichever units it takes them from.
    assert main(["odds", str(LANG / "combat_results_exchange.scenario"), "--fact", "attackers' steps"]) == 0
    assert measured(capsys.readouterr().out, "attackers' steps") == {"2": Fraction(1, 6), "4": Fraction(5, 6)}


def test_a_position_between_two_steps_of_an_exchange_keeps_what_is_still_owed(monkeypatch):
    monkeypatch.chdir(LANG)
    sym, sources, sc = loaded("combat_results_exchange.scenario")
    engine, proc = started(sym, sources, sc)
    assert isinstance(proc.send(None), RollRequest)
    first = proc.send([3])  # EX: two steps owed
    assert isinstance(first, ChoiceRequest) and first.prompt == "the unit to lose a step (2 steps still to lose)"
    second = proc.send(engine.state.units["R2"])
    assert isinstance(second, ChoiceRequest) and second.prompt == "the unit to lose a step (1 step still to lose)"
    other, shell = resumed(as_data(engine, proc), sym, sources, sc)
    assert other.state.units["R2"].state["steps_lost"] == 1
    for process, eng in ((proc, engine), (shell, other)):
        advance = process.send(eng.state.units["R1"])  # the last step owed: then the advance
        assert isinstance(advance, ChoiceRequest) and advance.prompt == "advance into 0302"
        with pytest.raises(StopIteration):
            process.send([])
        assert eng.state.facts["attackers' steps"] == 2
    assert other.state.facts == engine.state.facts


def _copy(tmp_path: Path, scenario: str, rules: str | None = None) -> Path:
    (tmp_path / "combat_results.rules").write_text(rules or (LANG / "combat_results.rules").read_text())
    shutil.copy(LANG / scenario, tmp_path)
    return tmp_path / scenario


def test_an_overlay_replaces_an_effect_for_every_code_naming_it(tmp_path, capsys):
    # House rule: beaten attackers hold their ground and lose a step instead of retreating.
    path = _copy(tmp_path, "combat_results_repulse.scenario")
    (tmp_path / "hold.house").write_text("""
overlay hold "House rule: attackers hold and lose a step" amends "combat_results.rules" {
  amend H-1 "Attackers hold" [5.5 house rule] {
    replace procedure attackers_retreat(attackers: list, hexes: int) [5.5 house rule] {
      call attackers_lose_steps(attackers, 1) [5.5 house rule]
    }
  }
}
""")
    text = path.read_text().replace("  decisions {\n    red retreat_to: 0102\n  }\n", '  with "hold.house"\n')
    path.write_text(text.replace("R1.location == @0102", "R1.location == @0202 and is_reduced(R1)"))
    assert main(["run", str(path)]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert "AR: the attackers retreat one hex\n  [2.2] R1 loses a step\n" in out
    assert "R1 retreats" not in out


def test_the_games_exchange_by_decides_what_an_exchange_costs(tmp_path, capsys):
    # Counted in strength, Blue's brigade defends with 4: a step of Red's guards (9, reduced 5) pays it.
    # Counted in steps (the toy's default), Blue's two steps cost Red two.
    text = (LANG / "combat_results.rules").read_text()
    given = "  combat_strength = if attacking then u.attack else u.defence [5.1]\n"
    path = _copy(tmp_path, "combat_results_exchange.scenario",
                 text.replace(given, given + '  exchange_by = "strength" [5.6]\n'))
    path.write_text(path.read_text().replace("    red loses: R1\n    red loses: R1\n", "    red loses: R2\n")
                    .replace('B1.location == none and R1.location == none', 'B1.location == none and R1.location == @0202')
                    .replace("R2.location == @0302 and not is_reduced(R2)", "R2.location == @0302 and is_reduced(R2)")
                    .replace('fact("attackers\' steps") == 2', 'fact("attackers\' steps") == 3'))
    assert main(["run", str(path), "--detail"]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert "exchange: the attackers lose at least 4 strength points" in out and "R2 loses a step" in out
    (tmp_path / "combat_results.rules").write_text(text)
    assert main(["run", str(path)]) == 1
    err = capsys.readouterr().err
    assert "the rules ask red to decide 'loses' here (the unit to lose a step (1 step still to lose))" in err


def test_an_exchange_counted_in_neither_fails_a_rule_check(tmp_path, capsys):
    text = (LANG / "combat_results.rules").read_text()
    given = "  combat_strength = if attacking then u.attack else u.defence [5.1]\n"
    path = _copy(tmp_path, "combat_results_exchange.scenario",
                 text.replace(given, given + '  exchange_by = "points" [5.6]\n'))
    main(["run", str(path)])
    assert "rule check failed: exchange_by gives 'points': an exchange counts 'steps' or 'strength'" in capsys.readouterr().out


def test_step_losses_are_taken_by_the_owner_and_an_emptied_hex_is_open_to_the_advance(tmp_path, capsys):
    # 1/2: Red's force loses one step (Red picks its guards), Blue's brigade two (its both): the hex is
    # left empty, and only the units may_advance allows (here: not the guards) may move in.
    text = (LANG / "combat_results.rules").read_text()
    given = "  combat_strength = if attacking then u.attack else u.defence [5.1]\n"
    (tmp_path / "combat_results.rules").write_text(text.replace(given, given + "  may_advance = not (u is guards) [5.7]\n") + """
procedure one_two(attackers: list, defenders: list) [5.5] {
  call attackers_lose_steps(attackers, 1) [5.5]
  call defenders_lose_steps(defenders, 2) [5.5]
}
""")
    places = " ".join(f"hex 0{c}0{r} {{ terrain: clear }}" for c in range(1, 6) for r in range(1, 4))
    (tmp_path / "s.scenario").write_text(f"""
scenario "1/2" uses "combat_results.rules" [5.5] {{
  places {{ {places} }}
  units {{
    R1: rifles of red at 0202
    R2: guards of red at 0201
    B1: rifles of blue at 0302
  }}
  run one_two([R1, R2], [B1])
  decisions {{
    red loses: R2
    red advancing: R2 refused "not one of the legal options" [5.7]
    red advancing: R1
  }}
  expect {{ true }}
}}
""")
    assert main(["run", str(tmp_path / "s.scenario"), "--detail"]) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert "red loses: R2" in out and "R2 loses a step" in out
    assert "blue loses: B1 (no other choice)" in out and "B1 is eliminated (its last step lost)" in out
    assert "red advancing: [R1]" in out and "R1 moves to 0302" in out


def test_the_toy_game_checks_clean(capsys):
    assert main(["check", str(LANG / "combat_results.rules")]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out
