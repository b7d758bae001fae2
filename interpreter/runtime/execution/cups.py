"""Chance beyond dice: chits drawn from a cup and elements picked at random (language 6.5, 11.6a).

A draw is asked like a roll, through the one dice interface (`DrawRequest` beside `RollRequest`):
what can be drawn (a cup's distinct chits, or a list's elements), how many of each, and how many
are drawn. The answer is the indexes drawn, sorted: a multiset, as a roll's faces are. So the
scripted provider names chits, the seeded one draws from the same random stream as the dice, and
exact odds branch on each multiset with its exact probability (`outcomes`: the multivariate
hypergeometric without replacement, the multinomial with it).

A cup's contents are state (`GameState.cups`: every chit the cup declares -> how many are in it,
in the order declared), so positions, keys and saves hold them.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from ...limits import MAX_CHITS, MAX_DRAW
from ..common.requests import DrawRequest, RuleError
from ..common.values import show
from .guards import too_many_chits


def contents(cup: dict[str, int]) -> list[str]:
    """A cup read as a value: the chits in it, each as many times as it is there, in the order declared."""
    return [chit for chit, k in cup.items() for _ in range(k)]


def listing(values: list, weights: list[int]) -> str:
    """What a draw could give, for messages: ``red x2, blue``."""
    shown = [show(v) + (f" x{w}" if w > 1 else "") for v, w in zip(values, weights) if w > 0]
    return ", ".join(shown) or "nothing"


def request(values: list, weights: list[int], count: int, replace: bool, label: str, cite, span,
            cup: str | None) -> DrawRequest:
    """The request for a draw of ``count``, with its answer in it when chance has no part (nothing to
    draw, one kind of item only, or every item taken): such a draw asks nothing of the dice."""
    kept = [(v, w) for v, w in zip(values, weights) if w > 0]
    req = DrawRequest(count, [v for v, _ in kept], [w for _, w in kept], replace, label, cite, span, cup)
    total = sum(req.weights)
    if total == 0 or count == 0:
        req.forced = []
    elif not replace and count >= total:
        req.forced = [i for i, w in enumerate(req.weights) for _ in range(w)]
    elif len(req.weights) == 1:
        req.forced = [0] * count
    return req


def outcomes(req: DrawRequest) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every multiset of indexes a draw can give, sorted, with its exact probability."""
    return _outcomes(req.count, tuple(req.weights), req.replace)


@lru_cache(maxsize=256)
def _outcomes(count: int, weights: tuple[int, ...], replace: bool) -> list[tuple[tuple[int, ...], Fraction]]:
    total = sum(weights)
    out = []
    for drawn in combinations_with_replacement(range(len(weights)), count):
        k = Counter(drawn)
        if replace:  # the multinomial: orderings times each chit's chance per draw
            orderings = math.factorial(count)
            for m in k.values():
                orderings //= math.factorial(m)
            p = Fraction(orderings * math.prod(weights[i] ** m for i, m in k.items()), total ** count)
        else:  # the multivariate hypergeometric
            if any(m > weights[i] for i, m in k.items()):
                continue
            p = Fraction(math.prod(math.comb(weights[i], m) for i, m in k.items()), math.comb(total, count))
        out.append((drawn, p))
    return out


def seeded(rng, req: DrawRequest) -> list[int]:
    """A draw from a random stream: the items laid out in their order (a cup's as declared, a list's as
    the rules built it), so one seed gives one game."""
    population = [i for i, w in enumerate(req.weights) for _ in range(w)]
    if req.replace:
        return sorted(rng.choice(population) for _ in range(req.count))
    return sorted(rng.sample(population, req.count))


def size_check(count: Any, what: str, span) -> int:
    """How many a draw or pick takes: a whole number from 0."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise RuleError(f"cannot {what} {show(count)}: the number must be a whole number from 0", span)
    if count > MAX_DRAW:
        raise RuleError(f"cannot {what} {count} at once: more than {MAX_DRAW}", span)
    return count


def gone_through(engine, weights: list[int], count: int, cite, span) -> None:
    """A draw or a pick goes through everything it is made from, and takes ``count``: each of them is a
    step of the run's budget (Engine.count_steps), so a loop of draws from a big cup meets it."""
    engine.count_steps(sum(weights) + count, span, cite)


def chit_names(value: Any, cup: str, chits: dict[str, int], span) -> list[str]:
    """The chits a 'put' or 'remove' names: one chit or a list of them, each a chit of the cup."""
    items = value if isinstance(value, list) else [value]
    for item in items:
        if not isinstance(item, str) or item not in chits:
            raise RuleError(f"{show(item)} is not a chit of cup '{cup}'", span,
                            hint=f"its chits are {', '.join(chits) or 'none'}")
    return items


# ── the statements that change a cup (compiled by runtime/execution/compile.py) ──

def drawn_text(req: DrawRequest, drawn: list) -> str:
    """What a draw or a pick gave, for its trace line."""
    if req.cup is None:
        among = ", ".join(show(v) for v in req.values[:12]) + (" …" if len(req.values) > 12 else "")
        head = f"pick {req.label} at random" + (f" from {among}" if among else "")
    else:
        head = f"draw {req.label}"
    if not req.weights:
        got = "none" if req.count == 1 else "nothing"
        return f"{head} -> {got}: " + ("the cup is empty" if req.cup is not None else "nothing to pick from")
    got = ", ".join(show(v) for v in drawn) if drawn else "none"
    if req.forced is not None and drawn:
        got += ": all there was" if not req.replace and len(req.forced) == sum(req.weights) else ": no other could be drawn"
    return f"{head} -> {got}"


def put(engine, cup: str, value: Any, cite, span, secret: bool = False) -> None:
    chits = engine.state.cups[cup]
    names = chit_names(value, cup, chits, span)
    engine.count_steps(len(names), span, cite)
    held = sum(chits.values()) + len(names)
    if held > MAX_CHITS:  # checked before any is put: the cup is left as it was
        raise too_many_chits(cup, held, span, cite)
    for chit in names:
        chits[chit] += 1
    engine.trace(cite, f"put {show(value)} into {cup} ({sum(chits.values())} in it)", secret=secret)


def remove(engine, cup: str, value: Any, cite, span) -> None:
    chits = engine.state.cups[cup]
    names = chit_names(value, cup, chits, span)
    engine.count_steps(len(names), span, cite)
    for chit in names:
        if chits[chit] == 0:
            raise RuleError(f"cup '{cup}' holds no {chit} to remove", span,
                            hint=f"it holds {listing(list(chits), list(chits.values()))}")
        chits[chit] -= 1
    engine.trace(cite, f"remove {show(value)} from {cup} ({sum(chits.values())} in it)")


def refill(engine, cup: str, cite) -> None:
    chits = engine.state.cups[cup] = engine.sym.cups[cup].start()
    engine.trace(cite, f"refill {cup}: {listing(list(chits), list(chits.values()))}")
