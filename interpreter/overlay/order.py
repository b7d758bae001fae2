"""The order overlays apply in, and the conflicts of those whose order is not stated.

Overlays apply in the order given, except that ``after OTHER`` in an overlay's header puts it
after OTHER. Two overlays that amend the same thing (or one thing and a part of it) conflict
unless one of them states that it comes after the other, directly or through a third: the
result would otherwise depend on the order they happened to be given in.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..syntax.diagnostics import Diagnostic, Span, did_you_mean
from . import ir as ov


@dataclass
class Touch:
    """One thing an overlay amends: its key (a part's key extends its whole's) and where it says so."""

    key: tuple
    overlay: int  # index in application order
    span: Span
    what: str


def application_order(overlays: list[ov.Overlay], diags: list[Diagnostic]) -> tuple[list[ov.Overlay], dict[int, set[int]]]:
    """The overlays in application order (as given, each moved after those it says it follows), and for
    each overlay's index the indices of all the overlays it is stated to follow."""
    by_name = _by_name(overlays, diags)
    kept = list(by_name.values())
    deps = _dependencies(kept, by_name, diags)
    ordered = _sorted(kept, deps, diags)
    index = {o.name: i for i, o in enumerate(ordered)}
    follows = {index[o.name]: {index[d] for d in deps[o.name] if d in index} for o in ordered}
    _close(follows)
    return ordered, follows


def _by_name(overlays: list[ov.Overlay], diags: list[Diagnostic]) -> dict[str, ov.Overlay]:
    """The overlays by name; a second overlay of the same name is an error, and left out."""
    by_name: dict[str, ov.Overlay] = {}
    for o in overlays:
        if o.name in by_name:
            diags.append(Diagnostic("error", f"two overlays are named '{o.name}' ({by_name[o.name].file} and {o.file})",
                                    o.name_span, "give each overlay its own name"))
            continue
        by_name[o.name] = o
    return by_name


def _dependencies(kept: list[ov.Overlay], by_name: dict[str, ov.Overlay], diags: list[Diagnostic]) -> dict[str, set[str]]:
    """Each overlay's name → the names it says it comes after; a misspelt one is warned about."""
    deps: dict[str, set[str]] = {}
    for o in kept:
        deps[o.name] = set()
        for name, span in o.after:
            if name in by_name:
                deps[o.name].add(name)
            elif did_you_mean(name, by_name):
                diags.append(Diagnostic("warning", f"no overlay named '{name}' is applied here, so 'after {name}' orders nothing",
                                        span, did_you_mean(name, by_name)))
    return deps


def _sorted(kept: list[ov.Overlay], deps: dict[str, set[str]], diags: list[Diagnostic]) -> list[ov.Overlay]:
    """The given order, each overlay placed once those it follows are: a cycle is an error, broken
    by placing the first of the overlays still waiting."""
    ordered: list[ov.Overlay] = []
    placed: set[str] = set()
    while len(ordered) < len(kept):
        ready = [o for o in kept if o.name not in placed and deps[o.name] <= placed]
        if not ready:
            stuck = [o for o in kept if o.name not in placed]
            names = ", ".join(f"'{o.name}'" for o in stuck)
            diags.append(Diagnostic("error", f"the overlays {names} each come 'after' another of them: no order satisfies them",
                                    stuck[0].name_span))
            ready = stuck[:1]
        ordered.append(ready[0])
        placed.add(ready[0].name)
    return ordered


def _close(follows: dict[int, set[int]]) -> None:
    """The transitive closure, in place: after B after A means after A."""
    changed = True
    while changed:
        changed = False
        for earlier in follows.values():
            more = set().union(*(follows.get(j, set()) for j in earlier)) - earlier if earlier else set()
            if more:
                earlier |= more
                changed = True


def _ordered(follows: dict[int, set[int]], a: int, b: int) -> bool:
    return a in follows.get(b, set()) or b in follows.get(a, set())


def conflicts(touched: list[Touch], follows: dict[int, set[int]], order: list[ov.Overlay], diags: list[Diagnostic]) -> None:
    """An error for each pair of overlays that amend the same thing with no order stated between them
    (reported once per pair, at the later overlay's change)."""
    reported: set[tuple[int, int]] = set()
    for later in touched:
        for earlier in touched:
            if earlier.overlay >= later.overlay or (earlier.overlay, later.overlay) in reported:
                continue
            short = min(len(earlier.key), len(later.key))
            if earlier.key[:short] != later.key[:short] or _ordered(follows, earlier.overlay, later.overlay):
                continue
            reported.add((earlier.overlay, later.overlay))
            first, second = order[earlier.overlay].name, order[later.overlay].name
            diags.append(Diagnostic(
                "error", f"overlays '{first}' and '{second}' both amend {later.what}; which applies last is not stated",
                later.span, f"write 'after {first}' in the header of '{second}' (or the reverse)",
                [f"'{first}' amends {earlier.what} at {earlier.span}"],
            ))
