"""A roll kept as a distribution while exact odds branch (runtime/odds/branching.py).

Exact odds need not send on every multiset of a pool's faces: the rules read a pool through a few reads
(a matching of its dice against values, its total, its size), and two multisets that every read sees
alike lead to the same play. So under `umpire odds` a roll of two dice or more gives a `Pool` with a
`Spread` instead of faces: the distribution of its multisets, held as counts of dice per class of faces
(faces no read has told apart share a class: a die's face within its class is uniform, as the dice are
fair and independent). A read (`read_matching`, `read_total`) tells the classes apart only as far as it
needs, groups the multisets by what it reads and, when there is more than one value, takes the one the
branch's path (`Splits`) names, with its probability, leaving the pool restricted to that group for the
reads after it; a read with no choice left on the path stops the run (`Split`) so that the brancher runs
it again once per value. The count of dice is known without a read (`len` of the pool).

Every other read of a die (a face shown, compared, indexed, gone through) meets an `Unsettled` die and
stops the enumeration (`Unread`): it starts again with that roll's dice enumerated as multisets, as every
roll is outside odds. So no read of an unsettled die can give a wrong answer, only a slower one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from fractions import Fraction
from itertools import product
from typing import Any

from .values import Pool


class Unread(BaseException):  # noqa: N818 - a signal to the odds enumeration, not an error
    """A die of a roll kept as a distribution read face by face (a read `Spread` does not compute): the
    enumeration starts again with that roll's dice as multisets. A BaseException, so that no handler of
    the rules' errors takes it for one."""

    def __init__(self, label: str):
        super().__init__(label)
        self.label = label


class Split(BaseException):  # noqa: N818 - a signal to the brancher, not an error
    """A read of a pool kept as a distribution has ``ways`` values and the branch's path names none:
    the brancher runs the branch again once per value (runtime/odds/branching.py)."""

    def __init__(self, ways: int):
        super().__init__(ways)
        self.ways = ways


class Splits:
    """The values a branch takes at the reads that split, in order (an index into each read's values,
    sorted), and the probability of those values."""

    __slots__ = ("path", "taken", "probability", "paths")

    def __init__(self, path: tuple[int, ...] = ()):
        self.path, self.taken, self.probability = path, 0, Fraction(1)
        self.paths = Fraction(1)  # the share of the split pools' multisets the values taken keep (dice paths)

    def choose(self, ways: int) -> int:
        if self.taken == len(self.path):
            raise Split(ways)
        self.taken += 1
        return self.path[self.taken - 1]


SPLITS: ContextVar[Splits | None] = ContextVar("splits", default=None)


class Unsettled:
    """A die of a pool kept as a distribution: its face is not known, and any use of it says so (`Unread`)."""

    __slots__ = ("label",)

    def __init__(self, label: str):
        object.__setattr__(self, "label", label)

    def __getattribute__(self, name: str) -> Any:
        raise Unread(object.__getattribute__(self, "label"))


def _unread(self, *args: Any) -> Any:
    raise Unread(object.__getattribute__(self, "label"))


for _name in ("int index float bool hash str repr format eq ne lt le gt ge add radd sub rsub mul rmul floordiv "
              "rfloordiv truediv rtruediv mod rmod pow neg pos abs len iter getitem contains setattr reduce_ex "
              "reduce deepcopy copy").split():
    setattr(Unsettled, f"__{_name}__", _unread)


class Spread:
    """The multisets a pool of ``count`` dice (faces ``low``..``high``) can still show, held as counts of
    dice per class of faces (``classes``, a partition of the faces, each sorted, in order of their first
    face): ``weights`` maps each count vector still possible to its number of sequences of faces, its
    probability's numerator (every vector's weight is fixed by the vector and the classes, so two spreads
    with the same classes and vectors are equal). Never changed: a read makes new ones."""

    __slots__ = ("count", "low", "high", "classes", "weights", "total", "_key", "_multisets")

    def __init__(self, count: int, low: int, high: int, classes: tuple[tuple[int, ...], ...], weights: dict):
        self.count, self.low, self.high, self.classes, self.weights = count, low, high, classes, weights
        self.total = sum(weights.values())
        self._key = self._multisets = None

    @staticmethod
    def whole(count: int, low: int, high: int) -> Spread:
        faces = tuple(range(low, high + 1))
        return Spread(count, low, high, (faces,), {(count,): len(faces) ** count})

    def key(self) -> Hashable:
        """What a position's key holds of it (position.canon)."""
        if self._key is None:
            self._key = (self.count, self.low, self.high, self.classes, tuple(sorted(self.weights)))
        return self._key

    def multisets(self) -> int:
        """How many multisets of faces it holds (the dice paths an enumeration of multisets would take)."""
        if self._multisets is None:
            sizes = [len(c) for c in self.classes]
            self._multisets = sum(math.prod(math.comb(k + s - 1, s - 1) for k, s in zip(vector, sizes))
                                  for vector in self.weights)
        return self._multisets

    def pool(self, label: str, key: Any, die: tuple[str, int, int]) -> Pool:
        """The pool a roll gives under exact odds: ``count`` unsettled dice, read through this spread."""
        pool = Pool([Unsettled(label)] * self.count, label, key, die)
        pool.spread = self
        return pool

    def refined(self, key_of: Callable[[int], Hashable]) -> Spread:
        """The same distribution with its classes split wherever ``key_of(face)`` tells two faces apart."""
        parts: list[list[tuple[int, ...]]] = []
        for faces in self.classes:
            by_key: dict[Hashable, list[int]] = {}
            for f in faces:
                by_key.setdefault(key_of(f), []).append(f)
            parts.append([tuple(p) for p in by_key.values()])
        if all(len(p) == 1 for p in parts):
            return self
        return self._split(parts)

    def _split(self, parts: list[list[tuple[int, ...]]]) -> Spread:
        """Each class's dice shared among its parts: for k dice in a class of c faces, k_i in a part of s_i
        faces has k!/prod(k_i!) * prod(s_i^k_i) of the class's c^k sequences."""
        classes = tuple(sorted((p for ps in parts for p in ps), key=lambda faces: faces[0]))
        where = {p: classes.index(p) for ps in parts for p in ps}
        shares = [_shares(len(ps), [len(p) for p in ps]) for ps in parts]
        weights: dict[tuple[int, ...], int] = {}
        for vector, weight in self.weights.items():
            choices = [[(ks, w) for ks, w in shares[i](vector[i])] for i in range(len(parts))]
            for picked in product(*choices):
                out = [0] * len(classes)
                w = weight
                for i, (ks, share) in enumerate(picked):
                    w = w * share // len(self.classes[i]) ** vector[i]
                    for p, k in zip(parts[i], ks):
                        out[where[p]] = k
                weights[tuple(out)] = w
        return Spread(self.count, self.low, self.high, classes, weights)

    def grouped(self, value_of: Callable[[tuple[int, ...]], Any]) -> list[tuple[Any, Spread]]:
        """The vectors grouped by ``value_of(vector)``, each group a spread, in order of value."""
        groups: dict[Any, dict] = {}
        for vector, weight in self.weights.items():
            groups.setdefault(value_of(vector), {})[vector] = weight
        if len(groups) == 1:
            return [(next(iter(groups)), self)]
        return [(v, Spread(self.count, self.low, self.high, self.classes, groups[v]))
                for v in sorted(groups, key=_order)]


def _order(value: Any) -> tuple:
    return (0, value) if isinstance(value, int) else (1, repr(value))


def _shares(parts: int, sizes: list[int]) -> Callable[[int], list[tuple[tuple[int, ...], int]]]:
    """k dice of a class shared among parts of the given sizes: each way, with its number of sequences."""

    def ways(k: int) -> list[tuple[tuple[int, ...], int]]:
        out = []
        for ks in _compositions(k, parts):
            w = math.factorial(k)
            for s, ki in zip(sizes, ks):
                w = w // math.factorial(ki) * s ** ki
            out.append((ks, w))
        return out

    return ways


def _compositions(k: int, parts: int):
    if parts == 1:
        yield (k,)
        return
    for first in range(k, -1, -1):
        for rest in _compositions(k - first, parts - 1):
            yield (first,) + rest


def is_spread(pool: Any) -> bool:
    """A pool kept as a distribution (its dice unsettled)."""
    return pool.__class__ is Pool and pool.spread is not None


# A read's groups, by the spread read and what reads it: the branches after a split run the same read again.
_GROUPS: dict[tuple, tuple[Spread, list[tuple[Any, Spread]]]] = {}


def read(pool: Pool, key_of: Callable[[int], Hashable], value_of: Callable[[Spread, tuple[int, ...]], Any],
         what: Hashable) -> Any:
    """What a read of a pool kept as a distribution gives on this branch: its classes told apart by
    ``key_of(face)``, its multisets grouped by ``value_of(spread, vector)`` (``what`` names the read, as
    the key of its groups); when they give more than one value, the one the branch's path names, its
    probability taken, the pool restricted to that group."""
    known = (pool.spread.key(), what)
    found = _GROUPS.get(known)
    if found is None:
        spread = pool.spread.refined(key_of)
        if len(_GROUPS) >= 4096:
            _GROUPS.clear()
        found = _GROUPS[known] = spread, spread.grouped(lambda vector: value_of(spread, vector))
    spread, groups = found
    if len(groups) == 1:
        pool.spread = spread
        return groups[0][0]
    splits = SPLITS.get()
    if splits is None:  # not under the brancher: read it as its faces would be read, from the start
        raise Unread(pool.label)
    value, group = groups[splits.choose(len(groups))]
    splits.probability *= Fraction(group.total, spread.total)
    splits.paths *= Fraction(group.multisets(), spread.multisets())
    pool.spread = group
    return value


def spread_total(spread: Spread, label: str) -> int:
    """The total of a roll kept as a distribution that is read at once as a number (a table's roll)."""
    return read_total(spread.pool(label, None, ("d", spread.low, spread.high)))


def read_total(pool: Pool) -> int:
    """The total of a pool's dice (a roll used as a number)."""
    return read(pool, lambda face: face, lambda s, vector: sum(c[0] * k for c, k in zip(s.classes, vector)), "total")


def read_extreme(pool: Pool, pick: Callable) -> int:
    """A pool's highest (``pick`` max) or lowest (min) die."""
    return read(pool, lambda face: face, lambda s, vector: pick(c[0] for c, k in zip(s.classes, vector) if k),
                pick.__name__)


def read_matching(pool: Pool, face_edges: list[list[int]], units: int,
                  max_matching: Callable[[list[list[int]], int], int]) -> int:
    """A maximum matching of a pool's dice to ``units`` values, ``face_edges[face - low]`` the values a die
    of that face may take: faces that may take the same values are one class."""
    low = pool.spread.low
    key_of = lambda face: tuple(face_edges[face - low])  # noqa: E731
    memo: dict[tuple, int] = {}

    def value_of(spread: Spread, vector: tuple[int, ...]) -> int:
        # More dice of a class than there are values never count: at most `units` of each.
        kinds = tuple((key_of(c[0]), min(k, units)) for c, k in zip(spread.classes, vector) if k and face_edges[c[0] - low])
        found = memo.get(kinds)
        if found is None:
            found = memo[kinds] = max_matching([list(edge) for edge, k in kinds for _ in range(k)], units)
        return found

    return read(pool, key_of, value_of, ("matching", tuple(map(tuple, face_edges)), units))
