"""`umpire check` on the real ruleset, and on the same file with one name misspelt."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = ROOT / "rulesets" / "jenkins_ear.rules"


def test_every_ruleset_checks_clean(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    rulesets = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").glob("*.rules"))
    assert rulesets
    assert main(["check", *rulesets]) == 0
    out = capsys.readouterr()
    assert "0 error(s)" in out.out
    assert "error:" not in out.err


def test_check_lists_the_data_the_rulebook_does_not_print(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    main(["check", "rulesets/jenkins_ear.rules"])
    out = capsys.readouterr().out
    assert "missing table 'storm_location'" in out
    assert "missing table 'fortunes_of_war'" in out
    assert "missing map 'caribbean'" in out
    assert re.search(r"missing printed values \(\d+\): .*BOYNE\.gun", out)


def test_misspelt_type_is_an_error_with_position_caret_and_suggestion(tmp_path, capsys):
    text = RULES.read_text(encoding="utf-8")
    bad = text.replace('counter CORNWALL "HMS Cornwall": named_ship of english', 'counter CORNWALL "HMS Cornwall": named_shp of english')
    assert bad != text
    shutil.copytree(ROOT / "rulesets", tmp_path / "rulesets")  # with the parts it includes
    path = tmp_path / "rulesets" / "jenkins_ear.rules"
    path.write_text(bad, encoding="utf-8")
    line_no = next(i for i, line in enumerate(bad.splitlines(), 1) if "named_shp" in line)
    col = bad.splitlines()[line_no - 1].index("named_shp") + 1
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:{line_no}:{col}: error: unknown unit type 'named_shp'" in err
    assert "^^^^^^^^^ did you mean 'named_ship'?" in err


def test_schema_is_json_with_the_ir_definitions(capsys):
    import json

    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == "Ruleset"
    for node in ("TableDecl", "ProcedureDecl", "Choose", "Roll", "Matching"):
        assert node in schema["$defs"]


def test_a_harness_that_includes_demo_data_made_only_of_includes_reads_it_once(tmp_path, capsys, monkeypatch):
    # The demo data file declares nothing itself, only includes the demo tables: a harness that
    # includes it (as the game's scenarios do) must not get its tables a second time.
    (tmp_path / "game.rules").write_text(
        'game g [1.0] {\n  sides red, blue [1.0]\n  die d6 1..6 [1.0]\n  demo data "demo.rules" [1.0]\n}\n'
        'missing table chart "a chart the text does not print" [2.0]\n'
        'procedure read_it() [2.0] needs chart {\n  lookup r = chart() [2.0]\n}\n', encoding="utf-8")
    (tmp_path / "demo.rules").write_text('include "demo_chart.rules" [1.0]\n', encoding="utf-8")
    (tmp_path / "demo_chart.rules").write_text(
        'table chart "DEMO chart" [2.0] {\n  roll 1 d6\n  1..6 -> calm "DEMO" [2.0]\n}\n', encoding="utf-8")
    (tmp_path / "harness.rules").write_text('include "game.rules" [1.0]\ninclude "demo.rules" [1.0]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "harness.rules"]) == 0, capsys.readouterr()
    assert "declared twice" not in capsys.readouterr().out
