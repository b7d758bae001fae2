"""Declared results with parameters (language 8.3a): one result, declared once, named by each row with
its own arguments; exact odds over such a table, an overlay amending the result's effect or a row's
arguments, and a position saved between a row's effect and the result it names."""

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


def shares(out: str) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in re.findall(r"^ +(\S+) +(\d+(?:/\d+)?) ", out, re.M)}


def test_exact_odds_follow_each_rows_arguments(capsys):
    # North has one pike company, South one bow company: row 2 (North, pikes) recalls N1, row 4
    # (South, bows) recalls S1, rows 3 and 5 name the same result with arguments that find nothing.
    assert main(["odds", str(LANG / "levy_odds.scenario"), "--fact", "recalled"]) == 0
    out = capsys.readouterr().out
    assert shares(out) == {"N1": Fraction(1, 6), "S1": Fraction(1, 6), "none": Fraction(2, 3)}
    assert "total probability: 1 (exactly)" in out


def test_the_fact_records_the_declared_results_name(capsys):
    assert main(["odds", str(LANG / "levy_odds.scenario"), "--fact", "levy result"]) == 0
    assert shares(capsys.readouterr().out) == {"calm": Fraction(1, 3), "recall": Fraction(2, 3)}


def test_the_arguments_reach_the_effect_and_the_label_is_the_rows(capsys):
    assert main(["run", str(LANG / "levy_choice.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert "[4.2] levy: roll 4 = 4 -> the South recalls bows" in out
    assert "[4.2] record levy side = south" in out
    assert "[4.3] S2 is eliminated (recalled home)" in out


def test_an_overlay_amends_the_effect_every_row_names(capsys):
    assert main(["run", str(LANG / "levy_leave.scenario"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert "[4.3 house rule] S1 goes home on leave" in out
    assert "is eliminated" not in out


def test_an_overlay_replaces_a_row_with_other_arguments(tmp_path, capsys):
    shutil.copy(LANG / "levy.rules", tmp_path)
    (tmp_path / "swap.house").write_text("""
overlay swap "House rule: row 2 recalls Southern bows" amends "levy.rules" {
  amend H-2 "Row 2 falls on the South" [4.2 house rule] {
    replace row 2 of table levy with 2 -> recall(south, "bows", "Southern bow") "the South recalls bows" [4.2 house rule]
  }
}
""")
    (tmp_path / "swap.scenario").write_text("""
scenario "swap" uses "levy.rules" [4.2] {
  with "swap.house"
  places { hex 0101 {} hex 0102 {} }
  units {
    N1: pikes of north at 0101
    S1: bows of south at 0102
  }
  run levy()
  dice { 2 "levy" }
  expect {
    fact("recalled") == "S1"
    N1.location == @0101
  }
}
""")
    assert main(["check", str(tmp_path / "swap.house")]) == 0, capsys.readouterr()
    assert main(["run", str(tmp_path / "swap.scenario")]) == 0, capsys.readouterr().out
    assert "[4.2 house rule] levy: roll 2 = 2 -> the South recalls bows\n" in capsys.readouterr().out


def test_an_overlay_naming_an_unknown_result_is_refused(tmp_path, capsys):
    shutil.copy(LANG / "levy.rules", tmp_path)
    (tmp_path / "bad.house").write_text("""
overlay bad "House rule" amends "levy.rules" {
  amend H-3 "A misspelt result" [4.3 house rule] {
    replace clause eliminate [4.3] of result recal of table levy with { say "leave" [4.3 house rule] }
  }
}
""")
    assert main(["check", str(tmp_path / "bad.house")]) == 1
    err = capsys.readouterr().err
    assert "table 'levy' has no result 'recal'" in err and "did you mean 'recall'?" in err


def test_a_position_saved_in_a_rows_effect_keeps_the_arguments_for_the_result(tmp_path, monkeypatch):
    # Row 4 rolls before the result it names runs: a position saved at that roll holds the arguments
    # the row gives the result, and goes on as the uninterrupted run.
    rules = (LANG / "levy.rules").read_text().replace(
        '"the South recalls bows" [4.2]', '"the South recalls bows" [4.2] {\n    roll delay = 1 d6 [4.2]\n  }')
    (tmp_path / "levy.rules").write_text(rules)
    (tmp_path / "save.scenario").write_text("""
scenario "save" uses "levy.rules" [4.2] {
  places { hex 0101 {} }
  units { S1: bows of south at 0101 }
  run levy()
  expect { true }
}
""")
    monkeypatch.chdir(tmp_path)
    sym, sources, sc = loaded("save.scenario")
    engine, proc = started(sym, sources, sc)
    assert isinstance(proc.send(None), RollRequest)
    req = proc.send([4])
    assert isinstance(req, RollRequest) and req.label == "delay"
    other, shell = resumed(as_data(engine, proc), sym, sources, sc)
    for process in (proc, shell):  # the result's effect asks with the row's arguments in both
        ask = process.send([3])
        assert isinstance(ask, ChoiceRequest) and ask.chooser == "south" and ask.prompt == "remove one Southern bow company"
        with pytest.raises(StopIteration):
            process.send(ask.options[0])
    assert other.state.facts == engine.state.facts
    assert engine.state.facts["levy side"] == "south" and engine.state.facts["recalled"] == "S1"


def test_a_column_tables_cells_give_arguments_to_a_result(tmp_path, capsys):
    # The 1-1 column reads 'lose(1)' on a 2: the same result as 'lose(2)' in the 1-2 column, with its own
    # number of steps.
    (tmp_path / "assault.rules").write_text((Path(__file__).resolve().parent.parent / "bad" / "result_args_beyond.rules")
                                            .read_text().replace("below columns: lose", "below columns: de"))
    for args, face, steps in (("1, 1", 2, 1), ("1, 2", 1, 2)):
        (tmp_path / "c.scenario").write_text(f"""
scenario "c" uses "assault.rules" [6.1] {{
  run assault({args})
  dice {{ {face} "assault" }}
  expect {{ fact("assault result") == lose }}
}}
""")
        assert main(["run", str(tmp_path / "c.scenario")]) == 0
        out = capsys.readouterr().out
        assert f"roll {face} = {face} -> steps lost\n  [6.3] the attackers lose {steps} step(s)\n" in out


def test_may_to_must_in_a_table_reaches_its_declared_results(tmp_path, capsys):
    # The recall is optional in this copy; 'change may to must in table levy' makes it compulsory in the
    # result every row names, so the South's company goes (declined, it would stay).
    (tmp_path / "levy.rules").write_text((LANG / "levy.rules").read_text().replace(
        'from eligible "remove one {company} company"', 'from eligible may "you may remove one {company} company"')
        .replace('record "recalled" = recalled.id [4.3]', ""))
    (tmp_path / "must.house").write_text("""
overlay must "House rule" amends "levy.rules" {
  amend H-4 "The levy is compulsory" [4.2 house rule] {
    change may to must in table levy
  }
}
""")
    scenario = """
scenario "m" uses "levy.rules" [4.2] {
  WITH
  places { hex 0101 {} }
  units { S1: bows of south at 0101 }
  run levy()
  dice { 4 "levy" }
  expect { S1.location == WHERE }
}
"""
    (tmp_path / "m.scenario").write_text(scenario.replace("WITH", 'with "must.house"').replace("WHERE", "none"))
    assert main(["run", str(tmp_path / "m.scenario"), "--detail"]) == 0, capsys.readouterr().out
    assert "[4.2 house rule] south recalled: S1" in capsys.readouterr().out
    (tmp_path / "m.scenario").write_text(scenario.replace("WITH", "").replace("WHERE", "@0101"))
    assert main(["run", str(tmp_path / "m.scenario")]) == 0, capsys.readouterr().out
