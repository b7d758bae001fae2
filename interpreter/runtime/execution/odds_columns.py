"""The odds column a ratio of strengths reads (language 8.3): rounded down (the defender's favour),
up (the attacker's) or to the nearest column, and whether it lies below the first column or above
the last.

Odds are compared on the scale a rulebook prints them on, where the whole ratios lie one step
apart: ... 1:3, 1:2, 1:1, 2:1, 3:1 ... are -1, 0, 1, 2, 3, and 3:2 is 1.5 (a ratio a:b of at least
one is a/b; below one, 2 - b/a). Only the nearest rounding needs the scale; down and up need only
the order, which it keeps. One whole ratio beyond each end of the columns lies off the table:
odds rounded down that reach 7:1 are above a last column of 6:1, odds rounded up to 1:3 or less are
below a first column of 1:2, and odds nearer those than the end column are beyond it for the
nearest rounding.
"""

from __future__ import annotations

import math
from fractions import Fraction


def on_scale(a: int, b: int) -> Fraction | float:
    """The odds a:b on the printed scale (1:1 is 1, 2:1 is 2, 1:2 is 0); no defence is infinite odds,
    no attack (against some defence) none at all."""
    if b == 0:
        return math.inf
    if a == 0:
        return -math.inf
    return Fraction(a, b) if a >= b else 2 - Fraction(b, a)


def odds_column(a: int, b: int, ratios: list[tuple[int, int]], rounding: str) -> int:
    """The index of the column odds a:b read among the columns' ratios (ascending): -1 below the
    first, len(ratios) above the last."""
    x = on_scale(a, b)
    marks = [on_scale(p, q) for p, q in ratios]
    below, above = math.ceil(marks[0]) - 1, math.floor(marks[-1]) + 1  # one whole ratio off each end
    if rounding == "up":
        if x <= below:
            return -1
        return next((i for i, m in enumerate(marks) if m >= x), len(marks))
    if rounding == "nearest":
        if x <= below:
            return -1
        if x >= above:
            return len(marks)
        places = [(below, -1), *((m, i) for i, m in enumerate(marks)), (above, len(marks))]
        # The nearest mark; of two as near, the higher (a half rounded up, as a division's 'rounded nearest').
        return min(places, key=lambda p: (abs(x - p[0]), -p[1]))[1]
    if x >= above:
        return len(marks)
    return max((i for i, m in enumerate(marks) if m <= x), default=-1)
