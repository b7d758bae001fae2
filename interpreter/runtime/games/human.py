"""A person at the terminal as an agent: numbered legal options, the rule that asks, the position.

When every option is a different whole number (a bid, a price), the answer is the number itself,
not its place in the list. Every answer is checked against the legal options before it is used; a wrong one is
explained, with the rule that asks and the form of answer expected, and asked again. Only
ASCII digits are numbers (a '²' or an Arabic-Indic '٣' is refused, not read as a number), and an
empty line is never taken for an answer. The end of input and Ctrl-C end the game at this
decision (Quit), which the caller may save. What the person typed is logged, so a saved game
can replay it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...style import printable
from ..common.requests import ChoiceRequest
from .agents import PASS, Agent
from .driver import Quit, illegal, normalize, refused_name
from .readout import Readout
from .stopping import what_stopped


class HumanAgent(Agent):
    def __init__(self, read: Callable[[], str | None], write: Callable[[str], None], readout: Readout,
                 before_asking: Callable[[], None] = lambda: None):
        self.read = read  # returns None at the end of input; Ctrl-C raises KeyboardInterrupt
        # What the rules name (options, units, places) reaches the terminal with its control
        # characters escaped; the prompts' own line breaks stay.
        self.write = lambda text: write(printable(text, "\n"))
        self.readout = readout  # the options and the position as this side reads them
        self.before_asking = before_asking  # shows the narration so far
        self.typed: list[str] = []  # every accepted answer, as typed
        # A screen that shows a decision's options itself (`umpire serve`) is told each decision as it is
        # asked, with this agent (its options read as `answers` and `readout.options`); the terminal's text follows.
        self.on_ask: Callable[[ChoiceRequest, HumanAgent], None] | None = None

    def choose(self, req: ChoiceRequest):
        # The game waits at this decision from the moment it is asked: a stop while the narration
        # or the question is still being written is a stop at the decision, as one during the read.
        try:
            return self._answer(req)
        except KeyboardInterrupt as interrupt:
            raise Quit(f"interrupted ({what_stopped(interrupt)}) when {req.chooser} was to decide '{req.name}' [{req.cite}]") from None

    def _answer(self, req: ChoiceRequest):
        self.before_asking()
        if self.on_ask is not None:
            self.on_ask(req, self)
        self.write(self.describe(req))
        while True:
            line = self.read()
            if line is None:
                raise Quit(f"no more input: {req.chooser} must decide '{req.name}' [{req.cite}]")
            line = line.strip()
            if line == "?":
                self.write(self.readout.position())
                continue
            if not line:
                self.write(f"  an empty line is not an answer [{req.cite}]: {self.expected(req)}")
                continue
            try:
                answer = normalize(req, self.parse(req, line))
            except ValueError as err:
                refused = refused_name(req, line.replace(",", " ").split())
                self.write(f"  not legal: {refused} [{req.cite}]" if refused else
                           f"  not understood [{req.cite}]: {err}; {self.expected(req)}")
                continue
            reason = illegal(req, answer)
            if reason:
                self.write(f"  not legal: {reason} [{req.cite}]")
                continue
            self.typed.append(line)
            return answer

    def expected(self, req: ChoiceRequest) -> str:
        """What a well-formed answer to this decision looks like."""
        if req.mode == "reroll":
            return f"answer: a die number, then the unit to spend ({', '.join(map(str, req.spend[req.chooser]))}); 0 to pass"
        if _by_value(req):
            return (f"answer: one of the numbers {_values(req.options)}, typed as it is"
                    + (" (0 for none)" if req.optional else "") + "; ? shows the position")
        numbers = f"from 1 to {len(req.options)}"
        amount = f"{req.amount} number" + ("s" if req.amount != 1 else "")
        how = {
            "one": f"one number {numbers}" + (" (0 for none)" if req.optional else ""),
            "exactly": f"exactly {amount} {numbers}" + (" (0 for none)" if req.optional else ""),
            "up_to": f"up to {amount} {numbers} (0 for none)",
            "split": f"NUMBER:POINTS pairs adding up to {req.amount}, numbers {numbers}" + (" (0 for none)" if req.optional else ""),
        }[req.mode]
        return f"answer: {how}; ? shows the position"

    def answers(self, req: ChoiceRequest) -> list[str]:
        """What is typed to choose each option alone: its number in the list, or the number itself
        when the options are different whole numbers (a bid)."""
        if _by_value(req):
            return [str(o) for o in req.options]
        return [str(i) for i in range(1, len(req.options) + 1)]

    def describe(self, req: ChoiceRequest) -> str:
        lines = [f"[{req.cite}] {req.chooser}, decide '{req.name}': {req.prompt}"]
        if req.mode == "reroll":
            lines += [f"  {i}. {pool.label} die {k + 1} ({int(pool[k])})" for i, (pool, k) in enumerate(req.options, 1)]
        elif _by_value(req):
            lines += [f"  {text}" for text in self.readout.options(req.options, req.showing)]
        else:
            lines += [f"  {i}. {text}" for i, text in enumerate(self.readout.options(req.options, req.showing), 1)]
        lines.append(f"  {self.expected(req)}")
        return "\n".join(lines)

    def parse(self, req: ChoiceRequest, line: str):
        """The answer typed, read as the decision's options; a ValueError says, as a player would, what is wrong
        with its form (not a number, out of range, too many or too few); whether it is legal is the rules' part."""
        if _by_value(req) and not (line == "0" and req.optional):  # 0 declines; it is no option then
            return _value(line, req.options)
        if line == "0":
            if req.optional or req.mode in ("up_to", "reroll"):
                return PASS
            raise ValueError("this question must be answered: 0 (none) is not an answer here")
        words = line.replace(",", " ").split()
        if req.mode == "reroll":
            return self.reroll(req, words)
        if req.mode == "split":
            return self.split(req, words)
        picked = _distinct([_index(w, req.options) for w in words])
        wanted = {"one": (1, 1), "exactly": (req.amount, req.amount), "up_to": (1, req.amount)}[req.mode]
        if not wanted[0] <= len(picked) <= wanted[1]:
            raise ValueError(f"this question takes {_answers(*wanted)}, not {len(picked)}")
        chosen = [req.options[i] for i in picked]
        return chosen[0] if req.mode == "one" else chosen

    def reroll(self, req: ChoiceRequest, words: list[str]):
        """``DIE UNIT``: the die to roll again and the unit spent for it (named only when there is a choice)."""
        if len(words) > 2:
            raise ValueError("this question takes a die number and the unit to spend, no more")
        die = req.options[_index(words[0], req.options)]
        spendable = req.spend[req.chooser]
        if len(words) > 1:
            unit = next((u for u in spendable if str(u).lower() == words[1].lower()), None)
            if unit is None:
                raise ValueError(f"'{words[1]}' is not one of {', '.join(map(str, spendable))}")
        elif len(spendable) == 1:
            unit = spendable[0]
        else:
            raise ValueError("name the unit to spend")
        return (die, unit)

    def split(self, req: ChoiceRequest, words: list[str]) -> dict:
        """``NUMBER:POINTS`` pairs, each option named once."""
        out = {}
        for word in words:
            num, _, points = word.partition(":")
            if points and not _DIGITS.fullmatch(points):
                raise ValueError(f"'{points}' is not a number of points (digits 0-9)")
            option = req.options[_index(num, req.options)]
            if option in out:
                raise ValueError(f"option {num} is given points twice")
            out[option] = int(points) if points else 0
        return out


# Only ASCII digits: str.isdigit() also takes '²' (which int() then refuses) and int() reads '٣' as 3.
_DIGITS = re.compile(r"[0-9]{1,6}", re.ASCII)


def _index(word: str, options: list) -> int:
    if not _DIGITS.fullmatch(word) or not 1 <= int(word) <= len(options):
        raise ValueError(f"'{word}' is not an option number from 1 to {len(options)}")
    return int(word) - 1


def _by_value(req: ChoiceRequest) -> bool:
    """One of several different whole numbers (a bid, a price) is answered by the number itself; not when
    0 is one of them and the question may be declined, for 0 is then 'none'."""
    opts = req.options
    if req.mode != "one" or not opts or any(type(o) is not int for o in opts) or len(set(opts)) != len(opts):
        return False
    return not (req.optional and 0 in opts)


def _value(word: str, options: list) -> int:
    if not _DIGITS.fullmatch(word) or int(word) not in options:
        raise ValueError(f"'{word}' is not one of {_values(options)}")
    return int(word)


def _values(options: list) -> str:
    """The numbers that may be typed: a run of consecutive numbers as 'FIRST to LAST'."""
    ordered = sorted(options)
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]} to {ordered[-1]}"
    return ", ".join(map(str, ordered))


def _distinct(picked: list[int]) -> list[int]:
    """The option numbers typed, refused when one is typed twice."""
    twice = next((i for k, i in enumerate(picked) if i in picked[:k]), None)
    if twice is not None:
        raise ValueError(f"option {twice + 1} is typed twice")
    return picked


def _answers(least: int, most: int) -> str:
    """How many answers a question takes, in words: 'one answer', 'exactly 2 answers', 'at most 3 answers'."""
    if most == 1:
        return "one answer"
    return f"exactly {most} answers" if least == most else f"at most {most} answers"
