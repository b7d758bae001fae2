"""The game's calendar: the printed name of each turn (`turn names "Jan I", "Jan II", …`, language 4).

A game without names numbers its turns and nothing here changes what it prints; a game with names
prints each turn's name beside its number (`turn 5 (Feb II)`), and a scenario may start at a turn
named so (`at turn "Feb II"`).
"""

from __future__ import annotations

from ...ir import nodes as n
from ...syntax.diagnostics import did_you_mean
from ..common.requests import ScriptError


def names_of(game: n.Game | None) -> tuple[str, ...]:
    """The turns' names, in order (none for a game that does not name its turns)."""
    return game.turn_names.names if game is not None and game.turn_names is not None else ()


def turn_label(game: n.Game | None, turn: int | None) -> str:
    """A turn as the trace prints it: its number, and its name beside it when the game names it."""
    names = names_of(game)
    if isinstance(turn, int) and 1 <= turn <= len(names):
        return f"{turn} ({names[turn - 1]})"
    return str(turn)


def start_turn(game: n.Game | None, at: n.StepAt) -> int:
    """The turn a scenario's `at turn` names: its number, or the number of the turn of that name."""
    if at.turn_name is None:
        return at.turn
    names = names_of(game)
    if not names:
        raise ScriptError(f"this game's turns have no names, so 'at turn \"{at.turn_name}\"' names none", at.span,
                          "give the turn's number, or name the turns in the game header: turn names \"…\", \"…\"")
    if at.turn_name not in names:
        raise ScriptError(f"no turn is named \"{at.turn_name}\"", at.span,
                          did_you_mean(at.turn_name, names) or f"the turns are named {names[0]} … {names[-1]}")
    return names.index(at.turn_name) + 1
