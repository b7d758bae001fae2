"""Agents: whoever answers a player's decision — a script, a random player, first-legal.

An agent returns a proposed answer; the engine validates it against the legal options
and refuses an illegal one with the rule that forbids it.
"""

from __future__ import annotations

import random
from typing import Any

from ...ir import nodes as n
from ..common.requests import ChoiceRequest, ScriptError
from ..common.values import show

PASS = object()  # an agent declines an optional decision


class Agent:
    def choose(self, req: ChoiceRequest) -> Any:
        raise NotImplementedError


class FirstLegalAgent(Agent):
    """The first legal answer, declining whenever declining is legal: deterministic, and it
    always lets optional loops (move again? buy another?) come to an end."""

    def choose(self, req: ChoiceRequest) -> Any:
        if req.optional or req.mode in ("up_to", "reroll"):
            return PASS
        if req.mode == "one":
            return req.options[0] if req.options else PASS
        if req.mode == "exactly":
            return list(req.options[: req.amount])
        if req.mode == "split":
            return {req.options[0]: req.amount} if req.options else PASS
        return PASS


class RandomAgent(Agent):
    """A uniformly random legal answer, from its own seeded generator."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, req: ChoiceRequest) -> Any:
        rng = self.rng
        if req.mode == "one":
            # Declining an optional decision is one more legal answer, as likely as each option.
            if req.optional and rng.randrange(len(req.options) + 1) == 0:
                return PASS
            return rng.choice(req.options)
        if req.mode == "exactly":
            return rng.sample(req.options, req.amount)
        if req.mode == "up_to":
            return rng.sample(req.options, rng.randint(0, min(req.amount, len(req.options))))
        if req.mode == "split":
            if req.optional and rng.random() < 0.2:
                return PASS
            limit = min(req.limit or len(req.options), len(req.options), req.amount)
            k = rng.randint(1, limit)
            chosen = rng.sample(req.options, k)
            cuts = sorted(rng.sample(range(1, req.amount), k - 1)) if k > 1 else []
            parts = [b - a for a, b in zip([0] + cuts, cuts + [req.amount])]
            return dict(zip(chosen, parts))
        if req.mode == "reroll":
            if rng.random() < 0.7 or not req.options:
                return PASS
            die = rng.choice(req.options)
            return (die, rng.choice(req.spend[req.chooser]))
        return PASS


class EagerAgent(RandomAgent):
    """A random legal answer that seizes opportunities: it declines an optional decision only
    one time in ten (rules may let a stack move on without limit, so it must stop some time),
    and an `up to` choice takes at least one option. It knows no game; it only makes things
    happen (stacks move on, interceptions are tried, cargo lands), which exercises more of a
    ruleset in random play."""

    def choose(self, req: ChoiceRequest) -> Any:
        rng = self.rng
        if req.mode == "one" and req.options:
            if req.optional and rng.random() < 0.1:
                return PASS
            return rng.choice(req.options)
        if req.mode == "up_to" and req.options and req.amount > 0:
            return rng.sample(req.options, rng.randint(1, min(req.amount, len(req.options))))
        if req.mode == "split" and req.options:
            return super().choose(ChoiceRequest(**{**req.__dict__, "optional": False}))
        return super().choose(req)


class ScriptedAgent(Agent):
    """Answers from a scenario's ``decisions { ... }`` block, matched by side and decision name.

    An entry answers the first decision that asks its side for its name. An optional
    decision with no matching entry next is declined. Entries marked as a departure
    from the rules may stay unasked; the engine reports them.
    """

    def __init__(self, decisions: tuple[n.Decision, ...]):
        self.entries = list(decisions)
        self.used: set[int] = set()

    def next_entry(self, req: ChoiceRequest, take: bool = True, refusals: bool = False) -> n.Decision | None:
        """The next entry for this decision; one the rules must refuse (``refused``) only when asked
        for, since only the driver tries those: an agent that plays passes over them."""
        for i, entry in enumerate(self.entries):
            if i in self.used:
                continue
            if entry.side == req.chooser and entry.name == req.name:
                if entry.refusal is not None and not refusals:
                    continue
                if take:
                    self.used.add(i)
                return entry
            if entry.departure is None:
                return None  # the next real entry is for another decision
        return None

    def take(self, entry: n.Decision) -> None:
        self.used.add(self.entries.index(entry))

    def unused(self) -> list[n.Decision]:
        return [e for i, e in enumerate(self.entries) if i not in self.used]

    def choose(self, req: ChoiceRequest) -> Any:  # pragma: no cover - the engine calls answer_for
        raise NotImplementedError


def resolve_answer(answer: n.Answer, req: ChoiceRequest, lookup=None) -> Any:
    """Turn a scripted answer's names into the runtime values among the options."""
    if answer.passes:
        return PASS
    if answer.split:
        if req.mode != "split":
            raise ScriptError(f"'{answer.text()}' splits points, but this decision is not a split [{req.cite}]", answer.span)
        return {_find(s.name, req, answer, lookup): s.points for s in answer.split}
    if req.mode == "reroll":
        return _reroll_answer(answer, req)
    values = [_find(item.name, req, answer, lookup) for item in answer.items]
    if req.mode == "one":
        if len(values) != 1:
            raise ScriptError(f"this decision takes one answer, the script gives {len(values)} [{req.cite}]", answer.span)
        return values[0]
    return values


def _reroll_answer(answer: n.Answer, req: ChoiceRequest) -> Any:
    die_items = [i for i in answer.items if i.die is not None]
    spend_items = [i for i in answer.items if i.die is None]
    if len(die_items) != 1:
        raise ScriptError("a reroll answer names one die, as in 'SFR2 die 1' (and the unit spent)", answer.span)
    item = die_items[0]
    die = next((o for o in req.options if _name(o[0].key).lower() == item.name.lower() and o[1] == item.die - 1), None)
    if die is None:
        raise ScriptError(f"no die '{item.name} die {item.die}' is in this combat: {_options_text(req)}", answer.span)
    spendable = req.spend.get(req.chooser, [])
    if spend_items:
        unit = next((u for u in spendable if _name(u).lower() == spend_items[0].name.lower()), None)
        if unit is None:
            raise ScriptError(f"'{spend_items[0].name}' cannot be spent here; spendable: {', '.join(map(str, spendable)) or 'none'} [{req.cite}]", answer.span)
    elif len(spendable) == 1:
        unit = spendable[0]
    else:
        raise ScriptError(f"name the unit spent for this reroll, one of {', '.join(map(str, spendable))}", answer.span)
    return (die, unit)


def _find(name: str, req: ChoiceRequest, answer: n.Answer, lookup=None) -> Any:
    for o in req.options:
        if _name(o).lower() == name.lower():
            return o
    if name.lower() == "yes" and len(req.options) == 1:
        return req.options[0]
    removed = removed_option(name, req)
    if removed:
        return removed[0]  # an option a restriction removed, of whatever kind: validation names the restriction
    known = lookup(name) if lookup else None
    if known is not None:
        return known  # a real unit or place that is not an option: validation says why
    raise ScriptError(f"'{name}' is not among the options: {_options_text(req)} [{req.cite}]", answer.span)


def removed_option(name: str, req: ChoiceRequest) -> list[Any]:
    """The option a restriction removed that a name names (a list of one, as the option may be any
    value: a number, a text, a place, a side, a list), or none."""
    wanted = name.lower()
    return [o for o in req.ruled_out if _name(o).lower() == wanted][:1]


def _name(value: Any) -> str:
    """An option as a script names it: as the trace shows it (yes and no for the truth values)."""
    return show(value)


def _options_text(req: ChoiceRequest) -> str:
    if req.mode == "reroll":
        return ", ".join(f"{o[0].key} die {o[1] + 1} ({int(o[0][o[1]])})" for o in req.options) or "none"
    return ", ".join(_name(o) for o in req.options) or "none"
