"""A small TextMate tokenizer for the tests: the scopes a grammar gives each character of a line.

Python's ``re`` stands in for Oniguruma (the grammar's regular expressions use only what both
read alike). It follows TextMate's rules as far as the Umpire grammar needs them: at each point
the earliest match of the patterns in force wins (the first listed on a tie); a begin/end rule's
end wins over its patterns at the same point; ``include`` names the repository.
"""

from __future__ import annotations

import re


def _flatten(grammar: dict, patterns: list[dict]) -> list[dict]:
    out = []
    for p in patterns:
        if "include" in p:
            out.extend(_flatten(grammar, [grammar["repository"][p["include"].lstrip("#")]]))
        elif "patterns" in p and "match" not in p and "begin" not in p:
            out.extend(_flatten(grammar, p["patterns"]))
        else:
            out.append(p)
    return out


def _earliest(grammar: dict, patterns: list[dict], line: str, pos: int):
    best = None
    for p in _flatten(grammar, patterns):
        m = re.compile(p.get("match") or p["begin"]).search(line, pos)
        if m and (best is None or m.start() < best[1].start()):
            best = (p, m)
    return best


def scopes(grammar: dict, line: str) -> list[tuple[str, ...]]:
    """The scopes of each character of ``line``, outermost first."""
    out: list[tuple[str, ...]] = [()] * len(line)
    stack: list[tuple[dict, tuple[str, ...]]] = []  # open begin/end rules, with the scopes they give
    pos = 0
    while pos <= len(line):
        rule, outer = stack[-1] if stack else (grammar, ())
        here = outer + ((rule["name"],) if stack and "name" in rule else ())
        found = _earliest(grammar, rule.get("patterns", []), line, pos)
        end = re.compile(rule["end"]).search(line, pos) if stack else None
        if end and (found is None or end.start() <= found[1].start()):
            _paint(out, pos, end.end(), here)
            stack.pop()
            pos = end.end()  # an empty end still ends its rule: the stack is shorter
            continue
        if found is None:
            _paint(out, pos, len(line), here)
            break
        p, m = found
        _paint(out, pos, m.start(), here)
        inner = here + ((p["name"],) if "name" in p else ())
        _paint(out, m.start(), m.end(), inner)
        for group, capture in p.get("captures", {}).items():
            if m.group(int(group)) is not None:
                _paint(out, m.start(int(group)), m.end(int(group)), inner + (capture["name"],))
        if "begin" in p:
            stack.append((p, here))
        pos = m.end() if m.end() > m.start() else m.start() + 1
    return out


def _paint(out: list, start: int, end: int, scope: tuple[str, ...]) -> None:
    for i in range(start, min(end, len(out))):
        out[i] = scope


def scope_of(grammar: dict, line: str, fragment: str) -> set[str]:
    """The scopes every character of the first ``fragment`` in ``line`` has (their intersection)."""
    start = line.index(fragment)
    per_char = scopes(grammar, line)[start:start + len(fragment)]
    return set.intersection(*(set(s) for s in per_char))
