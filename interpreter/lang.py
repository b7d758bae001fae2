"""The fixed vocabulary of the rules language: built-in functions and attributes.

Both the checker (names, arity) and the runtime (behaviour) read this table, so the
language has one definition. Nothing here names a game: these are the generic
queries every board wargame needs (units in a place, neighbours, counts, sums).
"""

from __future__ import annotations

from dataclasses import dataclass

from .digits import is_number
from .limits import MAX_AGENT_BUDGET


@dataclass(frozen=True)
class Builtin:
    name: str
    min_args: int
    max_args: int
    doc: str


# The agents a scenario's decisions may name for a side (`red plays search`, language 19.7).
SCENARIO_AGENTS = ("search", "mcts", "greedy", "random", "eager", "first")


def agent_known(kind: str, kinds: tuple[str, ...]) -> bool:
    """One of `kinds`, or a search agent with its budget of rollouts a decision (`search:64`, `mcts:200`)."""
    if kind in kinds:
        return True
    name, _, budget = kind.partition(":")
    return name in ("search", "mcts", "greedy") and name in kinds and is_number(budget) and 1 <= int(budget) <= MAX_AGENT_BUDGET

BUILTINS: dict[str, Builtin] = {
    b.name: b
    for b in [
        Builtin("units_at", 1, 1, "every unit located in a place, including units carried aboard others there"),
        Builtin("all_units", 0, 0, "every unit in the game, wherever it is"),
        Builtin("places", 0, 0, "every map place"),
        Builtin("adjacent", 1, 1, "the places adjacent to a place"),
        Builtin("linked", 2, 2, "linked(place, kind): the places joined to a place by edges of a declared kind"),
        Builtin("neighbour", 2, 2, "neighbour(place, dir): the square or hex one step away in a direction (a square's n, ne, e, se, "
                "s, sw, w, nw; a hex's n, ne, se, s, sw, nw), or none"),
        Builtin("direction", 2, 2, "direction(a, b): the direction from a square or hex to a neighbouring one, or none"),
        Builtin("diagonal", 2, 2, "diagonal(a, b): true if b is a diagonal neighbour of the square a"),
        Builtin("flanking", 2, 2, "flanking(a, b): the two squares beside a diagonal step from a to b ([] for an orthogonal step)"),
        Builtin("border", 3, 3, "border(a, b, \"name\"): a declared fact of the side between two neighbouring places, or none"),
        Builtin("exits", 1, 2, "exits(place, n): the places a place's exit number n leads to; exits(place): all of them"),
        Builtin("between", 3, 3, "between(coast, a, b): the places of a coast from a to b, both included"),
        Builtin("follow", 3, 3, "follow(map, point, n): the point the path that n picks leads to on a secondary map, or none at the end"),
        Builtin("sides", 0, 0, "the player sides, in declaration order"),
        Builtin("turn", 0, 0, "the number of the current game turn"),
        Builtin("turn_name", 1, 1, "turn_name(n): the printed name of turn n (turn names in the game header), or none"),
        Builtin("phase", 0, 0, "the name of the current phase of the sequence of play, or none"),
        Builtin("step", 0, 0, "the name of the current step of the sequence of play, or none"),
        Builtin("enemy", 1, 1, "the other side of a two-sided game"),
        Builtin("count", 1, 1, "the number of items in a list, pool or map"),
        Builtin("sum", 1, 1, "the sum of a list of numbers or of a pool of dice"),
        Builtin("min", 1, 2, "the least of a list, or of two numbers"),
        Builtin("max", 1, 2, "the greatest of a list, or of two numbers"),
        Builtin("any", 1, 1, "true if any item of a list is true"),
        Builtin("all", 1, 1, "true if every item of a list is true"),
        Builtin("distinct", 1, 1, "a list without repeats, in first-seen order"),
        Builtin("rotated", 2, 2, "rotated(list, first): the list from first on, wrapping round (clockwise from a seat)"),
        Builtin("range", 2, 2, "range(low, high): the whole numbers from low to high, both included"),
        Builtin("within", 3, 3, "within(start, n, through): the places n moves or fewer from a place (or list), moving through a list of places"),
        Builtin("distance", 3, 3, "distance(a, b, through): the fewest moves from a to b through a list of places, or none"),
        Builtin("cheapest", 4, 4, "cheapest(a, b, through, STEP): the least total cost from a to b through a list of places, "
                "each move costing what the function STEP(from, to) gives (none: not allowed), or none"),
        Builtin("reach", 4, 4, "reach(start, budget, through, STEP): the places whose least cost from start is at most budget, "
                "cheapest first"),
        Builtin("keys", 1, 1, "the keys of a map, in insertion order"),
        Builtin("values", 1, 1, "the values of a map, in insertion order"),
        Builtin("get", 3, 3, "get(map, key, default): the value at key, or default; of a record, the field named key"),
        Builtin("fact", 1, 1, "a result recorded during the run (scenario expectations)"),
    ]
}

# Built-ins given a ruleset function by its bare name, and at which argument (from 0): the function
# is passed, not called there (`cheapest(a, b, through, wind_cost)`).
FUNCTION_ARGUMENTS: dict[str, int] = {"cheapest": 3, "reach": 3}

# Attributes every unit has, besides its stats, flags and declared unit states.
UNIT_ATTRS: dict[str, str] = {
    "id": "the unit's identifier",
    "side": "the side that owns it",
    "type": "its type name",
    "location": "the place or box it is in (none once eliminated and not yet placed)",
    "carrier": "the unit carrying it, or none",
    "cargo": "the units it carries",
    "on_map": "true if it is in a map place (not a box)",
}

# Attributes every place has, besides its declared properties and states.
PLACE_ATTRS: dict[str, str] = {
    "id": "the place's identifier (a hex number, an area or box name)",
}

# Types a parameter or property may declare.
VALUE_TYPES = ("int", "bool", "side", "nation", "faction", "place", "unit", "list", "map", "str")

# Out-of-range policies of a table.
BEYOND_POLICIES = {
    "clamp": "a modified roll outside the rows reads as the nearest row",
    "no_effect": "a modified roll outside the rows has no effect",
    "unresolved": "a modified roll outside the rows stops the run with an error: the rulebook gives no ruling",
}

# How a division rounds when it says so: 'a / b rounded up' (language 12.3a).
ROUNDINGS = {
    "up": "the next whole number up (7 / 2 is 4)",
    "down": "the next whole number down (7 / 2 is 3), as a plain '/' does",
    "nearest": "the nearest whole number, a half rounded up (7 / 2 is 4, 5 / 4 is 1)",
}

# How odds between two columns are read: 'columns odds(attack, defence) rounded up' (language 8.3).
ODDS_ROUNDINGS = {
    "down": "to the column at or below the odds, in the defender's favour (7 to 3 reads 2:1); the default",
    "up": "to the column at or above the odds, in the attacker's favour (7 to 3 reads 3:1)",
    "nearest": "to the nearest column, a tie in the attacker's favour (7 to 3 reads 2:1, 5 to 2 reads 3:1)",
}

# How a column table finds its column (language 8.3), with the number of values each reads.
COLUMN_KINDS = {
    "odds": (2, "the ratio of two strengths, rounded down to a column: 7 to 3 reads the 2:1 column"),
    "difference": (2, "the first value less the second, in the column whose range holds it"),
    "value": (1, "a value, in the column whose range holds it"),
}

# Overflow policies of a track.
EXCESS_POLICIES = {
    "discarded": "a value above the track's maximum is lost (clamped)",
    "forbidden": "an adjustment past either end is an error",
}

# Events a ruleset may hook with `on EVENT(...)`, and the name each binds (None: none).
HOOK_EVENTS: dict[str, str | None] = {
    "eliminated": "unit",    # a unit has just been eliminated (it is off the map, nowhere yet)
    "game_start": None,      # once, before the first step of the first turn (set-up)
    "turn_start": None,      # before the first step of every turn
    "game_end": None,        # once, after the last step of the last turn
}

GRID_SHAPES = ("hex", "area", "square", "points")
# The eight directions of a square grid, north first and clockwise (language 6.1a).
DIRECTIONS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
DIAGONALS = ("ne", "se", "sw", "nw")
# The six directions of a hex grid in flat-topped columns, north first and clockwise (language 6.1d).
HEX_DIRECTIONS = ("n", "ne", "se", "s", "sw", "nw")
# The axes a square grid's edge may wrap on: `wrap columns …` joins the east and west edges.
WRAP_AXES = ("columns", "rows")
HEX_COLUMN_SCHEMES = ("even_q", "odd_q")
