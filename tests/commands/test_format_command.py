"""`umpire format` as a person or CI uses it: files rewritten in place, `--check` (exit 1 and the files
that would change, nothing written), `--diff`, `--width`, a file that does not parse refused with its
place and left untouched, and the lines still too long named on stderr with exit status 0."""

from __future__ import annotations

from interpreter.cli import main

LONG = "function reach(a: int, b: int) [4.2] = if a > b and a > 10 then a + b + 100 else a * b - 100\n"
BROKEN = ("function reach(a: int, b: int) [4.2] =\n"
          "    if a > b and a > 10 then a + b + 100 else a * b - 100\n")


def _file(tmp_path, monkeypatch, text: str, name: str = "game.rules"):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def test_format_rewrites_the_file_in_place_and_a_second_run_changes_nothing(tmp_path, monkeypatch, capsys):
    path = _file(tmp_path, monkeypatch, "stat speed\n" + LONG)
    assert main(["format", "--width", "80", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == "stat speed\n" + BROKEN
    assert capsys.readouterr().out == f"{path} reformatted\n"
    assert main(["format", "--width", "80", "--check", str(path)]) == 0
    assert capsys.readouterr().out == ""


def test_check_lists_the_files_that_would_change_and_writes_nothing(tmp_path, monkeypatch, capsys):
    path = _file(tmp_path, monkeypatch, LONG)
    tidy = _file(tmp_path, monkeypatch, "stat speed\n", "tidy.rules")
    assert main(["format", "--width", "80", "--check", str(path), str(tidy)]) == 1
    assert capsys.readouterr().out == f"{path} would be reformatted\n"
    assert path.read_text(encoding="utf-8") == LONG


def test_diff_prints_a_unified_diff_and_writes_nothing(tmp_path, monkeypatch, capsys):
    path = _file(tmp_path, monkeypatch, LONG)
    assert main(["format", "--width", "80", "--diff", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"--- {path}\n+++ {path}\n@@ -1 +1,2 @@\n")
    assert "-" + LONG in out and "+    if a > b and a > 10" in out
    assert path.read_text(encoding="utf-8") == LONG


def test_the_default_width_leaves_a_line_of_120_characters(tmp_path, monkeypatch):
    line = "function f(a: int) = " + " + ".join(["a"] * 24) + " + aaa\n"
    assert len(line) == 121  # with its newline
    path = _file(tmp_path, monkeypatch, line)
    assert main(["format", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == line
    assert main(["format", "--width", "119", str(path)]) == 0
    assert path.read_text(encoding="utf-8") != line


def test_a_scenario_and_an_overlay_are_formatted_too(tmp_path, monkeypatch):
    scenario = _file(tmp_path, monkeypatch, 'scenario "s" uses "game.rules" {\n  expect { count([1, 2, 3, 4, 5]) == 5 "five" }\n}\n',
                     "s.scenario")
    assert main(["format", "--width", "40", str(scenario)]) == 0
    assert scenario.read_text(encoding="utf-8") == ('scenario "s" uses "game.rules" {\n'
                                                    '  expect {\n'
                                                    '    count([1, 2, 3, 4, 5]) == 5 "five"\n'
                                                    '  }\n'
                                                    '}\n')


def test_a_file_that_does_not_parse_is_named_with_its_place_and_left_untouched(tmp_path, monkeypatch, capsys):
    bad = _file(tmp_path, monkeypatch, "game g {\n  turns 3 ]\n}\n" + LONG, "bad.rules")
    good = _file(tmp_path, monkeypatch, LONG)
    assert main(["format", "--width", "80", str(bad), str(good)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:2:11: error: unexpected ']'" in err and "  turns 3 ]\n" in err and "^" in err
    assert "Traceback" not in err
    assert bad.read_text(encoding="utf-8") == "game g {\n  turns 3 ]\n}\n" + LONG
    assert good.read_text(encoding="utf-8") == BROKEN  # the other files are formatted all the same


def test_a_line_that_stays_too_long_is_a_note_not_an_error(tmp_path, monkeypatch, capsys):
    text = 'not encoded "' + "x" * 70 + '" [2.1]\n'
    path = _file(tmp_path, monkeypatch, text)
    assert main(["format", "--width", "60", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == 'not encoded\n    "' + "x" * 70 + '"\n    [2.1]\n'
    assert capsys.readouterr().err == (f"{path}:2: note: 76 characters, more than the width of 60, and no place "
                                       "left to break it\n")


def test_a_file_of_another_kind_and_a_width_below_one_are_refused(tmp_path, monkeypatch, capsys):
    notes = _file(tmp_path, monkeypatch, "text\n", "notes.txt")
    assert main(["format", str(notes)]) == 1
    assert "umpire format reads a rules file (.rules)" in capsys.readouterr().err
    path = _file(tmp_path, monkeypatch, LONG)
    assert main(["format", "--width", "0", str(path)]) == 1
    assert "the width must be at least 1 character" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == LONG
