"""The probability of reaching each position of a chance process, exactly, cycles included.

Exact odds (runtime/odds/branching.py) meet each distinct position once and record, for each outcome
of its roll, the position (or end) it leads to with the outcome's probability: a graph. With no
cycle, the probability of reaching a position is the sum over its incoming edges of the source's
probability times the edge's, in topological order. A rule such as "ties are rolled again" makes
a cycle (the position after a tie is the position before it); then within each strongly
connected component the probabilities solve ``v = inflow + A v`` (A: the component's own edges),
an absorbing Markov chain, solved exactly in fractions by Gaussian elimination. Components come
from Tarjan's algorithm, which yields them sinks first.

Dice paths are counted the same way (each edge one path per path into its source) while the
graph has no cycle; with one, there are infinitely many (`None`).
"""

from __future__ import annotations

from fractions import Fraction


def solve(count: int, edges: dict[int, list[tuple[int, Fraction, Fraction]]], root: int
          ) -> tuple[list[Fraction], list[int] | None]:
    """Per node: the probability the process reaches it from ``root``, and the dice paths into it
    (None for all when some node is on a cycle). An edge is (target, probability, the dice paths it stands
    for: one outcome's, or a share of a roll kept as a distribution). Edges to negative targets (ends) are ignored."""
    inflow = [Fraction(0)] * count
    paths_in = [0] * count
    if root >= 0:
        inflow[root], paths_in[root] = Fraction(1), 1
    reach = [Fraction(0)] * count
    cyclic = False
    for comp in reversed(_components(count, edges)):  # sources first
        members = set(comp)
        if len(comp) == 1 and not any(t == comp[0] for t, _, _ in edges.get(comp[0], ())):
            reach[comp[0]] = inflow[comp[0]]
        else:
            cyclic = True
            for i, v in zip(comp, _solve_component(comp, edges, inflow)):
                reach[i] = v
        for i in comp:
            for t, p, m in edges.get(i, ()):
                if t >= 0 and t not in members:
                    inflow[t] += reach[i] * p
                    paths_in[t] += paths_in[i] * m
    return reach, (None if cyclic else paths_in)


def _solve_component(comp: list[int], edges: dict, inflow: list[Fraction]) -> list[Fraction]:
    """v_j = inflow_j + sum_i v_i p(i -> j) over the component, as (I - A) v = inflow."""
    index = {node: k for k, node in enumerate(comp)}
    size = len(comp)
    rows = [[Fraction(int(r == c)) for c in range(size)] + [inflow[comp[r]]] for r in range(size)]
    for i in comp:
        for t, p, _ in edges.get(i, ()):
            if t in index:
                rows[index[t]][index[i]] -= p
    return _gauss(rows)


def _gauss(rows: list[list[Fraction]]) -> list[Fraction]:
    size = len(rows)
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col] != 0)  # I - A is invertible: the process ends
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [rows[r][size] for r in range(size)]


def _components(count: int, edges: dict) -> list[list[int]]:
    """Tarjan's strongly connected components, iteratively; sinks first."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    out: list[list[int]] = []
    for start in range(count):
        if start in index:
            continue
        work = [(start, iter(edges.get(start, ())))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for t, _, _ in it:
                if t < 0:
                    continue
                if t not in index:
                    index[t] = low[t] = len(index)
                    stack.append(t)
                    on_stack.add(t)
                    work.append((t, iter(edges.get(t, ()))))
                    advanced = True
                    break
                if t in on_stack:
                    low[node] = min(low[node], index[t])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.append(x)
                    if x == node:
                        break
                out.append(comp)
    return out
