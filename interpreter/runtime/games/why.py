"""`umpire explain --why TEXT`: the story of one line of the trace told in rules, not in code.

A refusal reads "ES1 is not one of the legal options"; the rules-lawyer's question is *why* ES1
was not there. The engine, when it explains, notes on each trace line the units and places it
changed (`Event.touched`) and, for a line written by a rule that ran because of an earlier line,
that line (`Event.trigger`: an `on eliminated` hook runs because of the elimination, a table
row's effect because of the roll that chose the row). From these the story is told:

- the line asked about, with its rule; for a refusal, the rule that removed the option
  (`Event.removed`, worked out by removal.py when the answer was refused);
- the line's own causes: the line that triggered its rule (a knock-on loss: its carrier's), or
  else the decision or pick at random it carries out or the change of a unit one of its calls is
  about; failing these, for a roll, pick or table read the one before it in its procedure call,
  and for a change of a unit the latest unit changed in the run that called its procedure before
  the call began (the losses whose sum a condition of the call reads);
- for each unit named in it, every earlier line that changed it, oldest first, each with its
  causes found the same way, a few levels deep;
- for a line that names no unit (a recorded value, say), the rolls, decisions, table reads and
  recorded values of the same procedure call before it.

`--why-not OPTION` tells, at the first decision that left OPTION out, the rule that removed it.

Nothing here knows a game: units are recognised by their ids, causes by the engine's own notes.
"""

from __future__ import annotations

import re

from ...digits import is_number
from ..execution.engine import Event

DEPTH = 5          # causes of causes followed
HISTORY = 8        # lines of one unit's history shown (the latest)
_EVIDENCE = ("decision", "reroll", "record")


def why_lines(events: list[Event], ids: set[str], text: str, error: str | None = None) -> list[str]:
    """The story of the first line containing ``text`` (or of the run's error, when it holds the text)."""
    wanted = text.lower()
    found = next((i for i, e in enumerate(events) if wanted in e.line().lower()), None)
    if found is None and error is not None and wanted in error.lower():
        return _story(events, ids, f"the run stopped: {error}", error, len(events))
    if found is None:
        return []
    event = events[found]
    return _story(events, ids, f"#{found + 1} {event.line()}", event.text, found)


def _story(events: list[Event], ids: set[str], head: str, text: str, before: int) -> list[str]:
    lines = [f"why {head}"]
    if before < len(events):
        lines += _removal(events[before])  # a refusal: the rule that removed the option
        lines += _chain(events, ids, before, 2, DEPTH)[1:]  # the line's own causes (a knock-on loss: its carrier's)
    named = _named(text, ids)
    for uid in named:
        history = [j for j in range(before) if uid in events[j].touched]
        if not history:
            lines.append(f"  {uid}: no line before this one changed it (it stands as the scenario set it up)")
            continue
        lines.append(f"  {uid}, as the rules moved it:")
        for j in history[-HISTORY:]:
            lines += _chain(events, ids, j, 4, DEPTH)
    if not named and before < len(events) and not events[before].removed:
        lines += _evidence(events, before)
    return lines


def why_not_lines(events: list[Event], name: str, at: str | None = None) -> list[str]:
    """The rule that removed the option ``name`` at the first decision that left it out (after the
    line ``at`` selects: its number, or the first line holding a text), or [] when none did."""
    start = 0
    if at is not None:
        start = int(at) - 1 if is_number(at) else next(
            (i for i, e in enumerate(events) if at.lower() in e.line().lower()), len(events))
    wanted = f"{name.lower()} is "
    found = next((i for i in range(max(start, 0), len(events)) if events[i].removed
                  and events[i].removed[0].lower().startswith(wanted)), None)
    if found is None:
        return []
    return [f"why not {name} at #{found + 1} {events[found].line()}"] + _removal(events[found])


def _removal(event: Event) -> list[str]:
    """The rule that removed an option (its verdict), and the conditions followed to it."""
    if not event.removed:
        return []
    verdict, *steps = event.removed
    return [f"  {verdict}"] + [f"    {step}" for step in steps]


def _named(text: str, ids: set[str]) -> list[str]:
    """The unit ids a line names, in the order it names them."""
    out: list[str] = []
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text):
        if word in ids and word not in out:
            out.append(word)
    return out


def _chain(events: list[Event], ids: set[str], j: int, indent: int, depth: int) -> list[str]:
    pad = " " * indent
    lines = [f"{pad}#{j + 1} {events[j].line()}"]
    seen = {j}
    while depth > 0:
        cause, how = _cause(events, ids, j)
        if cause is None or cause in seen:
            break
        indent += 2
        lines.append(f"{' ' * indent}because #{cause + 1} {events[cause].line()}  ({how})")
        seen.add(cause)
        j, depth = cause, depth - 1
    return lines


def _cause(events: list[Event], ids: set[str], j: int) -> tuple[int | None, str]:
    """The line that made line j happen, and how: the line whose rule made j's rule run (a hook, a
    row's effect); else the latest of the decision j carries out (in its procedure call or one that
    called it, naming a unit j changed) and the line that changed a unit a call j runs in is about
    (the carrier whose loss makes the rules dispose of its cargo, the damage that makes them choose
    the dead)."""
    event = events[j]
    if event.trigger is not None and event.trigger < j:
        return event.trigger, _runs_on(event, events[event.trigger])
    found = max([_decision(events, j), _about(events, ids, j)], key=lambda c: -1 if c[0] is None else c[0])
    if found[0] is not None:
        return found
    if _is_chance(event):
        return _chance_before(events, j)
    return _change_before_call(events, j) if event.touched else (None, "")


def _runs_on(event: Event, trigger: Event) -> str:
    """How a triggered line follows from its trigger: the rule (hook, row) that runs on it, by name."""
    calls = event.within[len(_common(event.within, trigger.within)):]
    return f"the rule {calls[0]} runs on it" if calls else "a rule that runs on it"


def _decision(events: list[Event], j: int) -> tuple[int | None, str]:
    event = events[j]
    touched = set(event.touched)
    for k in range(j - 1, -1, -1):
        other = events[k]
        if (other.kind == "decision" or _is_pick(other)) and _inside(event, other) and touched & set(_named(other.text, touched)):
            return k, "the decision it carries out" if other.kind == "decision" else "the pick at random it carries out"
    return None, ""


def _chance_before(events: list[Event], j: int) -> tuple[int | None, str]:
    """For a roll, a table read or a pick: the latest of these before it in the same procedure call
    (the number of dice a table gave, the roll a table read, the table's result a pick draws on)."""
    call = _procedure(events[j].within)
    if not call:
        return None, ""  # a line of no procedure call: the lines before it are another rule's
    for k in range(j - 1, -1, -1):
        if events[k].within[:len(call)] != call:
            break
        if _is_chance(events[k]):
            return k, f"the roll, pick or table read before it in {call[-1]}"
    return None, ""


def _change_before_call(events: list[Event], j: int) -> tuple[int | None, str]:
    """For a change of a unit whose calls name no unit the rules changed: the latest unit changed
    in the run that called its procedure, before that call began (the losses an earlier step of
    the run left, on which the call's conditions were read)."""
    call = _procedure(events[j].within)
    if len(call) < 2:
        return None, ""
    k = j
    while k > 0 and events[k - 1].within[:len(call)] == call:
        k -= 1
    caller = call[:-1]
    for m in range(k - 1, -1, -1):
        if events[m].within[:len(caller)] != caller:
            break
        if events[m].touched:
            return m, f"the latest change before {call[-1]} began, in {caller[-1]}"
    return None, ""


def _about(events: list[Event], ids: set[str], j: int) -> tuple[int | None, str]:
    """The latest line that changed a unit named in one of the calls line j runs in: before the
    call, it led the rules to make it; in the same call as j (not one nested in it), it came
    earlier in it (a unit j did not change)."""
    event = events[j]
    best: tuple[int | None, str] = (None, "")
    for depth in range(len(event.within) - 1, -1, -1):
        call, about = event.within[depth], set(_named(event.within[depth], ids))
        for k in range(j - 1, (best[0] if best[0] is not None else -1), -1):
            other = events[k]
            inside = other.within[:depth + 1] == event.within[:depth + 1]
            changed = set(other.touched) & about
            if changed and inside and (other.within != event.within or not changed - set(event.touched)):
                continue
            if changed:
                best = (k, f"earlier in {call}" if inside else f"which led the rules to {call}")
                break
    return best


def _inside(event: Event, other: Event) -> bool:
    """Whether another line ran in the same procedure call as the event or in one that called it."""
    return event.within[:len(other.within)] == other.within


def _common(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def _evidence(events: list[Event], at: int) -> list[str]:
    """The rolls, decisions, table reads and recorded values of the same procedure call before the line."""
    event = events[at]
    found = [k for k in range(at) if events[k].within == event.within and _is_evidence(events[k])]
    if not found:
        return ["  no roll, decision, table read or recorded value in the same procedure call comes before it"]
    return ["  in the same procedure call, before it:"] + [f"    #{k + 1} {events[k].line()}" for k in found]


def _procedure(within: tuple[str, ...]) -> tuple[str, ...]:
    """The procedure calls a line runs in, without the table reads it is part of."""
    n = len(within)
    while n > 0 and within[n - 1].startswith("table "):
        n -= 1
    return within[:n]


def _is_pick(event: Event) -> bool:
    return event.text.startswith("pick ") and " at random" in event.text


def _is_chance(event: Event) -> bool:
    """A line of chance: a roll, a pick at random, or a table read (a line written inside the table)."""
    return event.text.startswith("roll ") or _is_pick(event) or (bool(event.within) and event.within[-1].startswith("table "))


def _is_evidence(event: Event) -> bool:
    return event.kind in _EVIDENCE or event.text.startswith("roll ") or " roll " in event.text
