"""A printed chart (a function of no parameter whose body is a map or list of numbers, language 9.1a)
gives the analysis of `umpire check` the numbers it can give: a table read at one of them knows its
range, read directly (`chart()[k]`) or with a default (`get(chart(), k, 4)`)."""

from __future__ import annotations

from checking import check_text

RULES = '''game seasons "Seasons" [1.0] {
  sides red, blue [1.1]
  die d6 1..6 [1.2]
}
function season_numbers() [2.0] = {"spring": 1, "summer": 2, "autumn": 3}
table weather(season: int) "Weather" [3.0] {
  read at season
  1..2 -> fair "fair" [3.1]
  3..4 -> foul "foul" [3.2]
}
procedure forecast(s: str) [4.0] {
  lookup w = weather(READ) [4.0]
}
'''


def test_a_chart_read_directly_bounds_the_value(tmp_path, capsys):
    code, out = check_text(tmp_path, RULES.replace("READ", "season_numbers()[s]"), capsys)
    assert code == 0, out
    assert "the value ranges over 1..3 (read at season (= 1..3))" in out


def test_a_chart_read_with_a_default_adds_the_default(tmp_path, capsys):
    code, out = check_text(tmp_path, RULES.replace("READ", "get(season_numbers(), s, 4)"), capsys)
    assert code == 0, out
    assert "the value ranges over 1..4 (read at season (= 1..4))" in out
