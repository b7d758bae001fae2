"""The runtime's limits (interpreter/limits.py) as the errors a run stops with.

Each says what was passed, where (the span of the statement, call or arithmetic) and
under which rule (its citation, in the message itself, since every command prints the
message and not all of them print a citation apart).
"""

from __future__ import annotations

from ...limits import MAX_CHITS, MAX_FUNCTION_DEPTH, MAX_INT, MAX_LIST, MAX_PROCEDURE_DEPTH, MAX_STRING, STEPS_VARIABLE
from ...syntax.diagnostics import Span
from ..common.requests import RuleError


def _at(cite: str | None) -> str:
    return f" [{cite}]" if cite else ""


def check_int(value: int, span: Span, cite: str | None) -> int:
    """A number computed by the rules, refused beyond 18 digits (no count of a board game comes near)."""
    if -MAX_INT <= value <= MAX_INT:
        return value
    digits = len(str(abs(value))) if abs(value).bit_length() < 60_000 else "thousands of"
    raise RuleError(f"this arithmetic gives a number of {digits} digits{_at(cite)}; a number has at most "
                    f"{len(str(MAX_INT))} digits", span, cite, "a value that grows without end: a rule that never stops?")


def check_string(text: str, span: Span, cite: str | None) -> str:
    if len(text) <= MAX_STRING:
        return text
    raise RuleError(f"this string would be {len(text):,} characters long{_at(cite)}; a string has at most "
                    f"{MAX_STRING:,}", span, cite)


def check_list(items: list, span: Span, cite: str | None) -> list:
    if len(items) <= MAX_LIST:
        return items
    raise RuleError(f"this list would hold {len(items):,} items{_at(cite)}; a list has at most {MAX_LIST:,}",
                    span, cite)


def over_budget(steps: int, span: Span, cite: str | None) -> RuleError:
    return RuleError(f"the run has taken {steps:,} steps (statements run and items gone through) without ending"
                     f"{_at(cite)}; a rule that never ends?", span, cite,
                     f"a longer run may have a larger budget: set {STEPS_VARIABLE}")


def too_many_chits(cup: str, held: int, span: Span, cite: str | None) -> RuleError:
    return RuleError(f"cup '{cup}' would hold {held:,} chits{_at(cite)}; a cup holds at most {MAX_CHITS:,}", span, cite)


def too_much_narration(limit: int, span: Span | None, cite: str | None) -> RuleError:
    """The narration of one run would pass its limit (limits.MAX_NARRATION): a rule that tells without end."""
    return RuleError(f"the narration of this run would pass {limit:,} characters with this line{_at(cite)}; "
                     "a rule that never ends?", span, cite)


def function_too_deep(name: str, cite: str | None, span: Span) -> RuleError:
    return RuleError(f"'{name}'{_at(cite)} is called more than {MAX_FUNCTION_DEPTH} deep (functions calling "
                     "functions); a rule that never ends?", span, cite)


def procedure_too_deep(name: str, cite: str | None, span: Span) -> RuleError:
    return RuleError(f"'{name}'{_at(cite)} is called more than {MAX_PROCEDURE_DEPTH} deep (procedures calling "
                     "procedures); a rule that never ends?", span, cite)


def python_too_deep(name: str, cite: str | None, span: Span) -> RuleError:
    """Python's own stack ran out before a depth limit was reached (very deep expressions in each call)."""
    return RuleError(f"the calls of '{name}'{_at(cite)} nest too deeply for the interpreter; a rule that never ends?",
                     span, cite, "each call here nests deep expressions: fewer levels of calls are possible")
