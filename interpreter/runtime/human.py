"""A person at the terminal as an agent: numbered legal options, the rule that asks, the position.

Every answer is checked against the legal options before it is used; a wrong one is
explained, with the rule that asks and the form of answer expected, and asked again. Only
ASCII digits are numbers (a '²' or an Arabic-Indic '٣' is refused, not read as a number), and an
empty line is never taken for an answer. The end of input and Ctrl-C end the game at this
decision (Quit), which the caller may save. What the person typed is logged, so a saved game
can replay it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .agents import PASS, Agent
from .driver import Quit, illegal, normalize, refused_name
from .requests import ChoiceRequest
from .values import show


class HumanAgent(Agent):
    def __init__(self, read: Callable[[], str | None], write: Callable[[str], None], position: Callable[[], str],
                 before_asking: Callable[[], None] = lambda: None):
        self.read = read  # returns None at the end of input; Ctrl-C raises KeyboardInterrupt
        self.write = write
        self.position = position
        self.before_asking = before_asking  # shows the narration so far
        self.typed: list[str] = []  # every accepted answer, as typed

    def choose(self, req: ChoiceRequest):
        self.before_asking()
        self.write(self.describe(req))
        while True:
            try:
                line = self.read()
            except KeyboardInterrupt:
                raise Quit(f"interrupted (Ctrl-C) when {req.chooser} was to decide '{req.name}' [{req.cite}]") from None
            if line is None:
                raise Quit(f"no more input: {req.chooser} must decide '{req.name}' [{req.cite}]")
            line = line.strip()
            if line == "?":
                self.write(self.position())
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
        how = {
            "one": "one number" + (" (0 for none)" if req.optional else ""),
            "exactly": f"exactly {req.amount} numbers" + (" (0 for none)" if req.optional else ""),
            "up_to": f"up to {req.amount} numbers (0 for none)",
            "split": f"NUMBER:POINTS pairs adding up to {req.amount}" + (" (0 for none)" if req.optional else ""),
        }[req.mode]
        return f"answer: {how}; ? shows the position"

    def describe(self, req: ChoiceRequest) -> str:
        lines = [f"[{req.cite}] {req.chooser}, decide '{req.name}': {req.prompt}"]
        if req.mode == "reroll":
            lines += [f"  {i}. {pool.label} die {k + 1} ({int(pool[k])})" for i, (pool, k) in enumerate(req.options, 1)]
        else:
            lines += [f"  {i}. {show(o)}" for i, o in enumerate(req.options, 1)]
        lines.append(f"  {self.expected(req)}")
        return "\n".join(lines)

    def parse(self, req: ChoiceRequest, line: str):
        if line == "0":
            return PASS
        words = line.replace(",", " ").split()
        if req.mode == "reroll":
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
        if req.mode == "split":
            out = {}
            for word in words:
                num, _, points = word.partition(":")
                if points and not _DIGITS.fullmatch(points):
                    raise ValueError(f"'{points}' is not a number of points (digits 0-9)")
                out[req.options[_index(num, req.options)]] = int(points) if points else 0
            return out
        picked = [req.options[_index(w, req.options)] for w in words]
        return picked[0] if req.mode == "one" and len(picked) == 1 else picked


# Only ASCII digits: str.isdigit() also takes '²' (which int() then refuses) and int() reads '٣' as 3.
_DIGITS = re.compile(r"[0-9]{1,6}", re.ASCII)


def _index(word: str, options: list) -> int:
    if not _DIGITS.fullmatch(word) or not 1 <= int(word) <= len(options):
        raise ValueError(f"'{word}' is not an option number from 1 to {len(options)}")
    return int(word) - 1
