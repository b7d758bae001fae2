"""Paths over the map: moves counted, `within(start, n, through)` and `distance(a, b, through)`, and
weighted (language 13), `cheapest(a, b, through, STEP)` and `reach(start, budget, through, STEP)`.

A weighted move goes from a place to an adjacent one, enters only places of `through`, and costs what the
ruleset's STEP function gives for it (a whole number 0 or more), or is not allowed where it gives
none. Least costs are found by Dijkstra's algorithm. Ties are broken by the order places were
found, which follows the start list and then adjacency order, so a run is the same every time.

The STEP function is called through the engine as any ruleset function is (pure, so its values
are cached for the position); the compiler passes it here as a callable of two places. One whose
values last the game (execution/lasting.py) is called, for one path, through `LastingMemo.frequent`:
its kept costs replayed from trees made once for the values of the game states it reads, with the
caller's effects (design decision 22b).

Moves counted over one list of places the rules pass again and again (a naval game's sea, a kept
value) are counted once from each start (`Rings`): a list is never changed in place and adjacency is
fixed for a game, so the same list object gives the same rings.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator

from ...limits import KEPT_RING_LISTS
from ..common.builtin_table import Implementation, registrar
from ..common.requests import RuleError
from ..common.values import Place, show

# The built-ins of paths over the map, by their names in the language (execution/builtins.py binds them).
IMPLEMENTED: dict[str, Implementation] = {}
builtin = registrar(IMPLEMENTED)


def _places(span, v, fn, what):
    items = v if isinstance(v, list) else [v]
    # The kinds of value in the list, not each value: a list to move through is often the whole map
    # (a naval game's hundreds of sea hexes), read at every path found.
    if not all(issubclass(kind, Place) for kind in set(map(type, items))):
        raise RuleError(f"{fn} needs {what}, not {show(v)}", span)
    return items


# ── moving over the map ──

def _rings(span, start, through, fn):
    """Breadth first from the start over adjacency, entering only places of `through`:
    yields (moves, place) in the order a rulebook would count them out."""
    seen = dict.fromkeys(_places(span, start, fn, "a place or a list of places to start from"))
    allowed = set(_places(span, through, fn, "a list of places to move through"))
    frontier, moves = list(seen), 0
    while frontier:
        for p in frontier:
            yield moves, p
        moves += 1
        nxt = []
        for p in frontier:
            for q in p.neighbours:
                if q in allowed and q not in seen:
                    seen[q] = None
                    nxt.append(q)
        frontier = nxt


class Rings:
    """The rings of moves over lists of places the rules pass again and again, from each start: a list
    is never changed in place and adjacency is fixed for a game, so the same list object gives the
    rings `_rings` would count. A list is kept from its second use on (a list made by a comprehension
    at each call is never counted out in full), and at most KEPT_RING_LISTS lists at once, the oldest
    let go."""

    __slots__ = ("lists", "once")

    def __init__(self) -> None:
        # id -> (the list, held so that no other list takes its identity; a start (a place, or a tuple
        # of them) -> ([place] in `_rings`' order, {place: moves})), oldest first: a few objects a start,
        # as what a game keeps is walked by each full sweep of Python's collector
        self.lists: dict[int, tuple[list, dict]] = {}
        self.once: list | None = None  # the last list passed that is not kept

    def of(self, span, start, through, fn: str):
        """The full rings from `start` as ([place] in order, {place: moves}), or None where they are not
        kept (a list seen for the first time, or not a list)."""
        if through.__class__ is not list:
            return None
        kept = self.lists.get(id(through))
        if kept is None or kept[0] is not through:
            if through is not self.once:
                self.once = through
                return None
            self.once = None
            if len(self.lists) >= KEPT_RING_LISTS:
                del self.lists[next(iter(self.lists))]
            kept = self.lists[id(through)] = (through, {})
        key = start if start.__class__ is Place else tuple(_places(span, start, fn, "a place or a list of places to start from"))
        found = kept[1].get(key)
        if found is None:
            moves = {p: m for m, p in _rings(span, start, through, fn)}  # checks the start and the list as it always did
            found = kept[1][key] = (list(moves), moves)
        return found


def _kept_rings(engine, span, start, through, fn: str):
    rings = engine.lasting.paths.get("rings")
    if rings is None:
        rings = engine.lasting.paths["rings"] = Rings()
    return rings.of(span, start, through, fn)


@builtin("within")
def within(engine, span, start, n, through):
    if not isinstance(n, int) or isinstance(n, bool):
        raise RuleError(f"within needs a number of moves, not {show(n)}", span)
    kept = _kept_rings(engine, span, start, through, "within")
    out = []
    if kept is not None:
        order, moves = kept
        for p in order:
            if moves[p] > n:
                break
            out.append(p)
        return out
    for moves, p in _rings(span, start, through, "within"):
        if moves > n:
            break
        out.append(p)
    return out


@builtin("distance")
def distance(engine, span, a, b, through):
    goal = _places(span, b, "distance", "a place to reach")[0]
    kept = _kept_rings(engine, span, a, through, "distance")
    if kept is not None:
        return kept[1].get(goal)
    return next((moves for moves, p in _rings(span, a, through, "distance") if p == goal), None)


# ── weighted paths ──

def _cost(step: Callable, name: str, a: Place, b: Place, span) -> int | None:
    """The STEP function's cost of the move a -> b: a whole number 0 or more, or none (not allowed)."""
    cost = step(a, b)
    if cost is None:
        return None
    if not isinstance(cost, int) or isinstance(cost, bool) or cost < 0:
        raise RuleError(f"{name}'s step function gave {show(cost)} for the move {a.id} -> {b.id}: "
                        "a move costs a whole number 0 or more, or none where it is not allowed", span)
    return cost


def _settled(engine, span, start, through, step: Callable, fn: str) -> Iterator[tuple[int, Place]]:
    """(least cost, place) in order of cost, ties in the order the places were found: each place once."""
    starts = _places(span, start, fn, "a place or a list of places to start from")
    allowed = set(_places(span, through, fn, "a list of places to move through"))
    step = _frequent(engine, step)
    best: dict[Place, int] = {}
    found = 0  # the order a place was (last) reached in: the tie-break
    heap: list[tuple[int, int, Place]] = []
    for p in dict.fromkeys(starts):
        best[p] = 0
        heap.append((0, found, p))
        found += 1
    done: set[Place] = set()
    while heap:
        cost, _, p = heapq.heappop(heap)
        if p in done:
            continue  # reached again, cheaper, after it was queued
        done.add(p)
        yield cost, p
        for q in p.neighbours:
            if q not in allowed or q in done:
                continue
            move = _cost(step, fn, p, q, span)
            if move is not None and (q not in best or cost + move < best[q]):
                best[q] = cost + move
                heapq.heappush(heap, (cost + move, found, q))
                found += 1


def _frequent(engine, step: Callable) -> Callable:
    """The STEP function as called at every move of one path: a function whose values last the game
    (execution/lasting.py) replays its kept costs from trees made once for the values of the game-wide
    states it reads, with the same values and effects as its caller."""
    name = getattr(step, "lasting", None)
    return step if name is None else engine.lasting.frequent(name, step)


def _step_function(span, step, fn: str) -> Callable:
    if not callable(step):  # the checker requires a function's bare name; a run without the check can still come here
        raise RuleError(f"{fn} needs the name of a function of two places (from, to) giving a move's cost, not {show(step)}", span)
    return step


@builtin("cheapest")
def cheapest(engine, span, a, b, through, step):
    """The least total cost from a (a place or list) to b, or none when b cannot be reached."""
    step = _step_function(span, step, "cheapest")
    goal = _places(span, b, "cheapest", "a place to reach")[0]
    return next((cost for cost, p in _settled(engine, span, a, through, step, "cheapest") if p == goal), None)


@builtin("reach")
def reach(engine, span, start, budget, through, step):
    """The places whose least cost from start is at most budget, cheapest first (start included, at 0)."""
    step = _step_function(span, step, "reach")
    if not isinstance(budget, int) or isinstance(budget, bool):
        raise RuleError(f"reach needs a whole number to spend, not {show(budget)}", span)
    out = []
    for cost, p in _settled(engine, span, start, through, step, "reach"):
        if cost > budget:
            break
        out.append(p)
    return out
