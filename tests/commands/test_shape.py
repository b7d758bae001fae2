"""`umpire coverage --shape`: a ruleset's code lines as data and declarations vs statements, file by
file, with the lines over 160 characters (interpreter/shape.py, docs/coverage.md)."""

from __future__ import annotations

import json

from interpreter.cli import main

SAY = "  say \"" + "the garrison surrenders " * 7 + "\" [4.1]"  # a statement line over 160 characters
RULES = f'''game g "G" [1.0] {{
  sides a "A", b "B" [1.1]
  die d6 1..6 [1.2]
}}
# A comment is not code; nor is a line of braces.
table fire(x: int) [2.0] {{
  read at x [2.0]
  1..3 -> miss [2.0]
  4..6 -> hit [2.0]
}}
function bonus(x: int) [3.0] =
  x + 1
procedure siege() [4.0] {{
  let y = bonus(1)
  if y > 1 [4.1] {{
{SAY}
  }}
}}
'''


def _write(tmp_path):
    path = tmp_path / "g.rules"
    path.write_text(RULES, encoding="utf-8")
    return str(path)


def test_each_code_line_is_data_or_a_statement(tmp_path, capsys):
    assert len(SAY) > 160
    path = _write(tmp_path)
    assert main(["coverage", "--shape", path]) == 0
    out = capsys.readouterr().out.splitlines()
    # Code: game, sides, die, table, its read, two rows, function, its body, procedure, let, if, say (13).
    # Statements: the function's body, let, if, say (4); the function's and procedure's headers are declarations.
    row = next(line for line in out if line.startswith(path))
    assert row.split()[1:] == ["13", "9", "4", "30.8%", "1"]
    assert out[-1] == f"statements are 30.8% of the code lines; 1 line(s) over 160 characters: the longest {path}:16 ({len(SAY)})"


def test_the_shape_as_json(tmp_path, capsys):
    path = _write(tmp_path)
    assert main(["coverage", "--shape", "--json", path]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"].startswith("umpire-shape/")
    assert (doc["code"], doc["data"], doc["statements"], doc["statement_share"]) == (13, 9, 4, "30.8%")
    assert doc["files"] == [{"file": path, "code": 13, "data": 9, "statements": 4,
                             "long_lines": [{"line": 16, "length": len(SAY)}]}]


def test_a_ruleset_that_does_not_parse_is_a_diagnostic(tmp_path, capsys):
    path = tmp_path / "g.rules"
    path.write_text(RULES.replace("let y = ", "let y = = "), encoding="utf-8")
    assert main(["coverage", "--shape", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:14:11: error" in err and "Traceback" not in err


def test_a_games_parts_are_each_measured(capsys):
    assert main(["coverage", "--shape", "rulesets/jenkins_ear.rules"]) == 0
    out = capsys.readouterr().out
    for part in ("rulesets/jenkins_ear.rules ", "rulesets/jenkins_ear/movement.rules ", "rulesets/jenkins_ear/economy.rules "):
        assert part in out
    total = next(line for line in out.splitlines() if line.startswith("total")).split()
    assert int(total[1]) == int(total[2]) + int(total[3]) > 500
