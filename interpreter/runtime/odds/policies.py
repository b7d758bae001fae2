"""How `umpire odds` takes the decisions inside a run it enumerates.

Every path of an enumeration meets decisions: which counter is lost, whether to activate,
which target to fire at. A policy answers them the same way on every path, so the odds are
those of the dice alone. Two policies:

- ``first``: the first legal option; an optional decision is declined;
- ``script``: the scenario's ``decisions`` block read in order, as `umpire run` reads it, while
  an entry fits the decision asked (same side and name, a legal answer); where it does not
  (another dice path asks other questions), the first legal option. The default when the
  scenario scripts decisions: the odds are then those of the position the example plays.

``--decide NAME=ANSWER`` answers every decision of that name, on every path and for either side,
before the script is read; ``--decide SIDE:NAME=ANSWER`` answers that side's alone, and comes before
the answer for either side. An ANSWER is option names separated by commas, ``pass`` (decline) or
``first`` (the first legal option, taken even where the decision may be declined). The script's cursor (which entries are used) is part of a position:
`memory` and `recall` let the branching keep it with the position and merge only equal ones.
What a policy did that changes the answer's meaning (optional decisions declined, scripted or
`--decide` answers that did not fit) is collected over all paths for the report.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...ir import nodes as n
from ..common.requests import ChoiceRequest, ScriptError
from ..common.values import show
from ..games.agents import PASS, Agent, FirstLegalAgent, ScriptedAgent, removed_option, resolve_answer
from ..games.driver import illegal, normalize, removal_of

POLICIES: dict[str, str] = {
    "first": "the first legal option of every decision; optional decisions declined",
    "script": "the scenario's scripted decisions while they fit the position; otherwise the first legal option",
}


@dataclass
class Seen:
    """What the policy did, over every path: what a report must say about the decisions."""

    declined: dict[tuple[str, str], str] = field(default_factory=dict)   # (side, decision) -> its rule
    unfit: dict[tuple[str, str], str] = field(default_factory=dict)      # scripted or --decide answers not taken
    ruled_out: dict[tuple[str, str], str] = field(default_factory=dict)  # why: the restriction that removed one
    decided: set[str] = field(default_factory=set)                       # --decide names used


class PolicyAgent(Agent):
    """One agent for both sides: --decide answers, then the script, then the first legal option."""

    def __init__(self, decisions: tuple[n.Decision, ...] = (), decide: dict[str, str] | None = None,
                 seen: Seen | None = None):
        self.script = ScriptedAgent(decisions) if decisions else None
        self.decide = {k.lower(): v for k, v in (decide or {}).items()}
        self.first = FirstLegalAgent()
        self.seen = seen if seen is not None else Seen()

    def memory(self) -> Any:
        return frozenset(self.script.used) if self.script else None

    def recall(self, memory: Any) -> None:
        if self.script is not None:
            self.script.used = set(memory)

    def choose(self, req: ChoiceRequest) -> Any:
        key = decide_key(req.chooser, req.name)
        key = key if key in self.decide else req.name.lower()
        text = self.decide.get(key)
        if text is not None:
            answer = self._fit(req, lambda: _named(text, req))
            if answer is not _UNFIT:
                self.seen.decided.add(key)
                return answer
            self._unfit(req, f"--decide {key}={text}", [t for t in text.split(",") if t.strip()])
        if self.script is not None:
            answer = self._scripted(req)
            if answer is not _UNFIT:
                return answer
        answer = self.first.choose(req)
        if answer is PASS and req.optional:
            self.seen.declined[(req.chooser, req.name)] = req.cite
        return answer

    def forced(self, req: ChoiceRequest) -> None:
        """A decision with one legal answer is not asked; the script's entry for it is passed over."""
        if self.script is not None:
            self.script.next_entry(req, take=True)

    def _scripted(self, req: ChoiceRequest) -> Any:
        entry = self.script.next_entry(req, take=True)
        if entry is None:
            return _UNFIT
        given = entry.departure.instead if entry.departure is not None else entry.answer
        if given is None:
            return _UNFIT
        answer = self._fit(req, lambda: resolve_answer(given, req))
        if answer is _UNFIT:
            self._unfit(req, f"'{req.chooser} {req.name}: {given.text()}' in the scenario", [given.text()])
        return answer

    def _unfit(self, req: ChoiceRequest, given: str, words: list[str]) -> None:
        """An answer not taken, kept for the report with the restriction that removed the option it
        names, if one did: the refusal a scripted answer gets (`… is ruled out by HR-1 [cite]: reason`)."""
        key = (req.chooser, req.name)
        self.seen.unfit[key] = given
        removed = [o for word in words for o in removed_option(word.strip(), req)]
        if removed and key not in self.seen.ruled_out:
            self.seen.ruled_out[key] = " ".join(removal_of(req, removed[0]))

    @staticmethod
    def _fit(req: ChoiceRequest, answer_of) -> Any:
        try:
            answer = answer_of()
        except ScriptError:
            return _UNFIT
        return _UNFIT if illegal(req, normalize(req, answer)) else answer


_UNFIT = object()


def decide_key(side: str | None, name: str) -> str:
    """How --decide names a decision: 'NAME' for either side, 'SIDE:NAME' for one."""
    return f"{side}:{name}".lower() if side else name.lower()


def _named(text: str, req: ChoiceRequest) -> Any:
    """A --decide answer: 'pass', 'first', or option names separated by commas."""
    if text.strip().lower() == "pass":
        return PASS
    if text.strip().lower() == "first":
        return _first_taken(req)
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    found = []
    for name in names:
        match = next((o for o in req.options if show(o).lower() == name or str(o).lower() == name), None)
        if match is None:
            raise ScriptError(f"'{name}' is not an option", req.span)
        found.append(match)
    if req.mode == "one":
        if len(found) != 1:
            raise ScriptError("one answer needed", req.span)
        return found[0]
    return found


def _first_taken(req: ChoiceRequest) -> Any:
    """The first legal option, as the `first` policy takes it where the decision cannot be declined;
    of a choice of up to N, the first option alone."""
    if req.mode == "up_to":
        return list(req.options[:1])
    return FirstLegalAgent().choose(replace(req, optional=False))


def agents_for(sides, policy: str, decisions: tuple[n.Decision, ...], decide: dict[str, str] | None,
               seen: Seen) -> dict[str, Agent]:
    """The agents of a policy: one object for every side (the script is read in one order)."""
    agent = PolicyAgent(decisions if policy == "script" else (), decide, seen)
    return {side: agent for side in sides}
