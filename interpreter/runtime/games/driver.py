"""The driver: answers a suspended procedure's requests with dice (and draws) and agents.

It is the only place where a decision is checked against its legal options, so an
illegal decision — from a script, a person or a buggy agent — is refused with the rule
that asked for it, before any state changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...digits import is_number
from ...ir import nodes as n
from ..common.requests import ChoiceRequest, DrawRequest, RollRequest, RuleError, ScriptError
from ..common.values import Place, show
from ..execution.dice import DiceProvider
from ..execution.engine import Engine, Event
from .agents import PASS, Agent, ScriptedAgent, removed_option, resolve_answer

_NOT_FORCED = object()


class Suspend(Exception):
    """Raised before the decision at which a game is to be saved."""


class Quit(Exception):
    """A person ended the game at a prompt (end of input, Ctrl-C): the position before the
    decision being asked can be saved."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


@dataclass
class Tried:
    """A scripted answer the rules must refuse (``refused "TEXT"``), as the run found it."""

    entry: n.Decision
    reason: str | None  # why the rules refuse it; None when they allow it

    def held(self) -> bool:
        return self.reason is not None and self.entry.refusal.text.lower() in self.reason.lower()


class Runner:
    def __init__(self, engine: Engine, dice: DiceProvider, agents: dict[str, Agent]):
        self.engine = engine
        self.dice = dice
        self.agents = agents
        self.departures: list[Event] = []
        self.refusals: list[Tried] = []  # the script's answers the rules must refuse, as tried
        self.asked = 0  # decisions put to an agent (forced ones are not asked)
        self.stop_after: int | None = None  # suspend before asking the decision after this many
        self.on_asked = None  # called with the count before each decision is asked
        self.on_secret = None  # called before the first decision of a 'secretly' block (a save's point)
        self.why_not_found: list[str] = []  # explain --why-not: the removal noted at this decision, for its line

    def lookup(self, name: str) -> Any:
        """A unit, place, box, side, nation or other named value in a script, whether or not it is
        a legal option (a refused answer is then explained by the rules, not by the script reader)."""
        st, sym = self.engine.state, self.engine.sym
        found = st.units.get(name) or st.places.get(name)
        if found is None and isinstance(st.boxes.get(name), Place):
            found = st.boxes[name]
        if found is None and (name in sym.sides or name in sym.nations or name in sym.enum_values):
            found = name
        return found

    def run(self, gen: Iterator) -> Any:
        answer: Any = None
        while True:
            try:
                self.engine.epoch += 1
                req = gen.send(answer)
            except StopIteration as stop:
                return stop.value
            if isinstance(req, RollRequest):
                answer = self.dice.roll(req)
            elif isinstance(req, DrawRequest):
                answer = self.dice.draw(req)
            else:
                answer = self.decide(req)

    # ── decisions ──
    def decide(self, req: ChoiceRequest) -> Any:
        if req.secret and self.on_secret is not None and not self.sealed():
            self.on_secret()
        if self.engine.explain and req.mode != "reroll":
            options = ", ".join(show(o) for o in req.options[:12]) + (" …" if len(req.options) > 12 else "")
            self.engine.consulted.append(f"asked {req.chooser}: {req.prompt or req.name} — options: {options or 'none'}")
            if self.engine.why_not is not None:
                self.why_not(req, self.engine.why_not)
        forced = forced_answer(req)
        if forced is not _NOT_FORCED:
            agent = self.agents.get(req.chooser)
            if isinstance(agent, ScriptedAgent):
                self.try_refusals(agent, req, forced)
                self.confirm_forced(agent, req, forced)
            elif hasattr(agent, "forced"):
                agent.forced(req)  # an agent that reads a script in order passes the entry this answers
            if req.mode != "reroll":
                self.announce(req, f"{req.chooser} {req.name}: {show(forced)} (no other choice)")
            return forced
        agent = self.agents[req.chooser]
        if self.on_asked is not None:
            self.on_asked(self.asked)
        if self.stop_after is not None and self.asked >= self.stop_after:
            raise Suspend()
        self.asked += 1
        if isinstance(agent, ScriptedAgent):
            answer = self.scripted(agent, req)
        else:
            answer = normalize(req, agent.choose(req))
            reason = illegal(req, answer)
            if reason:
                raise ScriptError(f"{req.chooser}'s decision '{req.name}' is not legal: {reason} [{req.cite}]", req.span)
        if req.mode != "reroll":
            self.announce(req, f"{req.chooser} {req.name}: {show(answer)}")
        return answer

    def announce(self, req: ChoiceRequest, line: str) -> None:
        """The answer's line; a secret decision's waits in its block, and the trace says only that
        the side has decided (language §11.13a)."""
        if self.why_not_found:
            self.engine.removed[:], self.why_not_found = self.why_not_found, []
        if not req.secret:  # another side's answer is not read by a side's trace; what it does may be (fog.py)
            viewer = self.engine.viewer
            self.engine.trace(req.cite, line, "decision", viewer is not None and req.chooser != viewer.side)
        elif self.engine.narrate:
            self.sealed().append([str(req.cite), line])
            self.engine.trace(req.cite, f"{req.chooser} has decided '{req.name}' (secret until revealed)")

    def sealed(self) -> list:
        """The announcements the open 'secretly' block holds: its entry in the waiting frame's open
        loops, read from the process as it stands now (a search agent's rollouts restore positions,
        which replaces the frames)."""
        return self.engine.process.stack[-1].loops[-1][1]

    def confirm_forced(self, agent: ScriptedAgent, req: ChoiceRequest, forced: Any) -> None:
        """A script may spell out a decision the rules leave no choice in.

        The next entry for this side and decision is taken only if it is that forced answer
        (or a departure from it); otherwise it is left for a later decision of the same name.
        """
        entry = agent.next_entry(req, take=False)
        if entry is None:
            return
        try:
            answer = normalize(req, resolve_answer(entry.answer, req, self.lookup))
        except ScriptError:
            answer = _NOT_FORCED
        same = _agrees(answer, forced)
        if entry.departure is not None:
            agent.take(entry)
            if same:
                raise ScriptError(
                    f"the scenario marks '{entry.side} {entry.name}: {entry.answer.text()}' as departure "
                    f"{entry.departure.tag}, but the rules allow it",
                    entry.span,
                )
            self.report(entry.departure, entry, f"the rules refuse it: {_only(forced)}", req.cite)
        elif same:
            agent.take(entry)

    def try_refusals(self, agent: ScriptedAgent, req: ChoiceRequest, forced: Any = _NOT_FORCED) -> None:
        """The script's next answers to this decision that the rules must refuse: each is tried,
        traced and kept for the expectations, and never applied."""
        while True:
            entry = agent.next_entry(req, take=False, refusals=True)
            if entry is None or entry.refusal is None:
                return
            agent.take(entry)
            reason = self.why_refused(entry, req, forced)
            if reason:
                self.note_removal(req, entry.answer)
            self.refusals.append(Tried(entry, reason))
            said = f"refused: {reason}" if reason else "not refused: the rules allow it"
            self.engine.trace(entry.refusal.cite or req.cite,
                              f"{entry.side} {entry.name}: {entry.answer.text()} {said}", "decision")

    def why_refused(self, entry: n.Decision, req: ChoiceRequest, forced: Any) -> str | None:
        """Why the rules refuse a scripted answer, or None when they would take it."""
        try:
            answer = normalize(req, resolve_answer(entry.answer, req, self.lookup))
        except ScriptError as err:
            return err.message
        reason = illegal(req, answer)
        if reason is None and forced is not _NOT_FORCED and not _agrees(answer, forced):
            reason = _only(forced)
        return reason

    def note_removal(self, req: ChoiceRequest, given: n.Answer) -> None:
        """When explaining: which rule removed the first option a refused answer names that is not among
        the options, kept for the line that reports the refusal (explain --why)."""
        if not self.engine.explain:
            return
        try:
            answer = normalize(req, resolve_answer(given, req, self.lookup))
        except ScriptError:
            return
        items = answer if isinstance(answer, list) else list(answer) if isinstance(answer, dict) else [answer]
        item = next((x for x in items if x is not None and not _in(x, req.options)), None)
        if item is not None:
            self.engine.removed[:] = removal_of(req, item)

    def why_not(self, req: ChoiceRequest, name: str) -> None:
        """explain --why-not NAME: at a decision whose options are of NAME's kind but leave it out, which
        rule removed it, kept for the decision's line."""
        self.why_not_found = []
        if any(show(o).lower() == name.lower() for o in req.options):
            return
        item = next(iter(removed_option(name, req)), None)
        if item is None:
            item = self.lookup(name)
        if item is None:
            item = int(name) if is_number(name) else name
        if not any(type(o) is type(item) for o in req.options):
            return
        self.why_not_found = removal_of(req, item)

    def scripted(self, agent: ScriptedAgent, req: ChoiceRequest) -> Any:
        self.try_refusals(agent, req)
        entry = agent.next_entry(req)
        if entry is None:
            if req.optional or req.mode in ("reroll", "up_to"):
                return normalize(req, PASS)
            raise ScriptError(
                f"the rules ask {req.chooser} to decide '{req.name}' here ({req.prompt}) [{req.cite}], "
                "but the script's next decision is not that one",
                req.span,
                f"add '{req.chooser} {req.name}: ...' to the decisions block; options: {', '.join(map(show, req.options))}",
            )
        answer = normalize(req, resolve_answer(entry.answer, req, self.lookup))
        reason = illegal(req, answer)
        dep = entry.departure
        if dep is None:
            if reason:
                raise ScriptError(
                    f"decision '{entry.side} {entry.name}: {entry.answer.text()}' is not legal: {reason} [{req.cite}]", entry.span
                )
            return answer
        if reason is None:
            raise ScriptError(
                f"the scenario marks '{entry.side} {entry.name}: {entry.answer.text()}' as departure {dep.tag}, but the rules allow it",
                entry.span,
            )
        self.note_removal(req, entry.answer)
        self.report(dep, entry, f"the rules refuse it: {reason}", req.cite)
        if dep.instead is not None:
            answer = normalize(req, resolve_answer(dep.instead, req, self.lookup))
            reason = illegal(req, answer)
            if reason:
                raise ScriptError(f"the 'instead' answer of departure {dep.tag} is not legal either: {reason}", dep.span)
            return answer
        if req.optional:
            return normalize(req, PASS)
        raise ScriptError(f"departure {dep.tag} needs an 'instead' answer: this decision is not optional", dep.span)

    def report(self, dep: n.Departure, entry: n.Decision, engine_says: str, cite: str) -> None:
        text = (
            f"departure {dep.tag}: the script has {entry.side} decide '{entry.name}: {entry.answer.text()}' "
            f"({dep.reason}); {engine_says}"
        )
        event = Event(dep.cite or cite, text, "departure", clock=self.engine.clock(), removed=tuple(self.engine.removed))
        self.engine.removed.clear()
        self.departures.append(event)
        self.engine.state.facts["departures"] = len(self.departures)
        self.engine.events.append(event)

    def finish(self, cite: str = "scenario") -> None:
        """End of run: unused dice are an error; unasked decisions too, unless marked as departures."""
        self.dice.finish()
        for agent in {id(a): a for a in self.agents.values()}.values():
            if not isinstance(agent, ScriptedAgent):
                continue
            for entry in agent.unused():
                if entry.refusal is not None:
                    continue  # an expectation: the scenario reports it as never asked
                if entry.departure is None:
                    raise ScriptError(
                        f"decision '{entry.side} {entry.name}: {entry.answer.text()}' at line {entry.span.line} was never asked",
                        entry.span,
                    )
                self.report(entry.departure, entry, "the rules never ask for this decision", cite)


def _agrees(answer: Any, forced: Any) -> bool:
    """Whether a scripted answer is the answer the rules force (a list in any order)."""
    if not isinstance(forced, list):
        return answer == forced
    return isinstance(answer, list) and sorted(map(str, answer)) == sorted(map(str, forced))


def _only(forced: Any) -> str:
    if forced in ([], {}, None):
        return "the rules leave no choice: nothing is chosen"
    return f"the rules leave only {show(forced)}"


def forced_answer(req: ChoiceRequest) -> Any:
    opts, mode = req.options, req.mode
    if mode == "one":
        if len(opts) == 0:
            if req.optional:
                return None
            raise RuleError(f"{req.chooser} must decide '{req.name}', but there is no legal option", req.span, req.cite)
        if len(opts) == 1 and not req.optional:
            return opts[0]
    elif mode == "exactly":
        if req.amount > len(opts):
            if req.optional:
                return []  # 'may': the only legal answer is to choose none
            raise RuleError(f"{req.chooser} must choose {req.amount} for '{req.name}' among only {len(opts)}", req.span, req.cite)
        if req.amount == len(opts) and not req.optional:
            return list(opts)
        if req.amount == 0:
            return []
    elif mode in ("up_to", "split"):
        if not opts:
            return [] if mode == "up_to" else {}
        if mode == "split" and req.amount == 0:
            return {}
    return _NOT_FORCED


def normalize(req: ChoiceRequest, answer: Any) -> Any:
    if answer is PASS:
        return {"one": None, "exactly": [], "up_to": [], "split": {}, "reroll": None}[req.mode]
    return answer


def _in(x: Any, options: list) -> bool:
    return any(x is o or x == o for o in options)


def _not_an_option(req: ChoiceRequest, item: Any, listing: str) -> str:
    why = req.explain(item) if req.explain else None
    return f"{show(item)} is not one of the legal options ({listing})" + (f": {why}" if why else "")


def removal_of(req: ChoiceRequest, item: Any) -> list[str]:
    """When explaining: which rule removed item from the options, a restriction (its line) or the
    conditions the options are computed with (removal.py); [] when neither says."""
    if _in(item, req.ruled_out):
        return [req.explain(item)]
    return req.removal(item) if req.removal is not None else []


def refused_name(req: ChoiceRequest, words: list[str]) -> str | None:
    """Why the rules refuse an answer that names an option a restriction removed (the restriction,
    its citation and reason), or None when no word names one."""
    removed = [o for word in words for o in removed_option(word, req)]
    return _not_an_option(req, removed[0], _listing(req)) if removed else None


def illegal(req: ChoiceRequest, answer: Any) -> str | None:
    """Why an answer is not legal, or None when it is."""
    check = _ILLEGAL_BY_MODE.get(req.mode)
    return check(req, answer) if check else f"unknown decision mode {req.mode}"


def _listing(req: ChoiceRequest) -> str:
    return ", ".join(map(show, req.options)) or "none"


def _illegal_one(req: ChoiceRequest, answer: Any) -> str | None:
    if answer is None:
        return None if req.optional else "a choice is required"
    return None if _in(answer, req.options) else _not_an_option(req, answer, _listing(req))


def _illegal_several(req: ChoiceRequest, answer: Any) -> str | None:
    """`exactly` and `up_to`: a list of distinct options, as many as the rule asks."""
    if not isinstance(answer, list):
        return "a list of choices is expected"
    bad = [a for a in answer if not _in(a, req.options)]
    if bad:
        return _not_an_option(req, bad[0], _listing(req))
    if len({id(a) for a in answer}) != len(answer):
        return "the same option is chosen twice"
    if req.mode == "exactly" and len(answer) != req.amount and not (req.optional and not answer):
        return f"exactly {req.amount} must be chosen, not {len(answer)}"
    if req.mode == "up_to" and len(answer) > req.amount:
        return f"at most {req.amount} may be chosen, not {len(answer)}"
    return None


def _illegal_split(req: ChoiceRequest, answer: Any) -> str | None:
    """Points given out among recipients: whole parts of at least 1 adding up to the amount."""
    if not isinstance(answer, dict):
        return "this decision splits points: answer as {UNIT: points, ...}"
    if not answer:
        return None if req.optional else "the points must be given out"
    bad = [k for k in answer if not _in(k, req.options)]
    if bad:
        return f"{show(bad[0])} may not receive them; the legal recipients are {_listing(req)}"
    if req.limit is not None and len(answer) > req.limit:
        return f"at most {req.limit} recipients, not {len(answer)}"
    if any(not isinstance(v, int) or v < 1 for v in answer.values()):
        return "each recipient gets a whole number of at least 1"
    if sum(answer.values()) != req.amount:
        return f"the parts must add up to {req.amount}, not {sum(answer.values())}"
    return None


def _illegal_reroll(req: ChoiceRequest, answer: Any) -> str | None:
    """No reroll, or one die of the combat and a unit this side may spend for it."""
    if answer is None:
        return None
    if not (isinstance(answer, tuple) and len(answer) == 2):
        return "a reroll names one die and the unit spent, as in 'SFR2 die 1, EDEC1'"
    die, unit = answer
    if not _in(die, req.options):
        return "that die is not in this combat"
    if not _in(unit, req.spend.get(req.chooser, [])):
        return f"{show(unit)} cannot be spent here"
    return None


_ILLEGAL_BY_MODE = {
    "one": _illegal_one,
    "exactly": _illegal_several,
    "up_to": _illegal_several,
    "split": _illegal_split,
    "reroll": _illegal_reroll,
}
