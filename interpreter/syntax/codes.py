"""The code of a diagnostic: one stable name for each kind of problem, for programs reading `--json`.

A kind is told by the shape of its message, here in one table, so that the many places that make
diagnostics need not name a code each and a message keeps its code when its names change. The
codes and their meanings are listed in docs/output.md; a code, once published, keeps its meaning.
The first pattern that matches wins; a message no pattern knows gets ``other-SEVERITY``.
"""

from __future__ import annotations

import re

from .diagnostics import Diagnostic

_KINDS: tuple[tuple[str, str], ...] = (
    # Reading the files.
    ("file", r"does not exist|^cannot read|not valid UTF-8|absolute path is not allowed|leads outside the folders"
             r"|is not (a rules file|a scenario|an overlay)|^include cycle|^cannot include|which is not part of this ruleset"),
    ("syntax", r"^unexpected |^unterminated string|^syntax error|numbers are written with the ASCII digits"),
    ("citation", r"has no rule citation$|is not a rule citation$|^this rule citation is not closed|names no rule number"
                 r"|says nothing of what is left out|needs the citation of the game's rule it encodes"),
    ("too-large", r"has \d+ (digits|characters)|nest\w* more than|at most \d+"),
    # The static analysis (warnings and notes).
    ("table-range", r"^table \S+ \[[^]]*\]: the (modified )?(roll|value) ranges over"),
    ("row-never-read", r"can never be read"),
    ("printed-twice", r"is written again here; it is first written at"),
    ("unused", r"by no rule\b|neither read nor set|is set but no rule reads it|is read but no rule sets it"
               r"|is in no row"),
    ("scenario-only", r"reachable only from scenarios|no sequence of play and no hooks"),
    ("dead-code", r"this statement never runs|it ends only when the run stops it|shows nothing: without a 'view'"),
    ("no-option", r"has no option|leaves none of its|starts empty and no"),
    # Checking the rules.
    ("duplicate", r"declared twice|already exists|given twice|defined twice|has two steps named"),
    ("arity", r"takes .*(argument|parameter)|needs a value for|positional arguments only|its leading arguments by position"),
    ("printed-value", r"is a printed value|is printed as .*a scenario may only supply"),
    ("table-rows", r"overlaps row|has no row for|has no row at all|but no out-of-range policy|cell\(s\) for \d+ columns"
                   r"|which the table does not declare|gives a number: a table gives|^row .* names the result"
                   r"|does not come after column|no odds fall in it|already says it for both ends"
                   r"|but not what lies (above|below) them|but the table gives numbers"),
    ("not-printed", r"does not print the result|is not printed in the rulebook|needs the missing table"
                    r"|waits for the missing|is declared missing: the rulebook does not print it"),
    ("unknown-name", r"^unknown |^there is no place|^no rule records a fact|has no (value|field|entry|row|result|clause|phase"
                     r"|step|sequence)\b|is not a (chit|point|coast|count)|is not declared missing|names no scenario"
                     r"|is neither a game state|^no turn is named|is one of .*, not|is not an agent|no such parameter"
                     r"|^no path from|has no step '|declares no 'missing |is not a key of|which is no enumeration"
                     r"|^there is no library mechanic|has no setting '|has no paragraph \[|is not a value of '"),
    ("type", r"is of type|cannot hold|not in an expression|, but this argument is|needs the bare name|is a procedure:"
             r"|its face is shown|^the setting .\w+. gives"
             r"|needs a function giving a move's cost"
             r"|is a built-in:|returns no value|needs a square grid|only a square grid|is a value of \d+ enumerations"
             r"|read it with '|^a cup is drawn|changes a track or a local number|has the name of the|event names"
             r"|must take one side|moves a column, but|so it is not rounded|picks two paths|^only decisions are made secretly"
             r"|whose answer is not revealed|is said to mean a win|ends a \w+; it stands outside|ends a seat"
             r"|the seat to start from|is not on coast|square .* id format|has a value for each \w+: |not one per key"
             r"|is a colour written|takes a quoted text|^'\w+' is one of |names stats: |names a unit state, and"
             r"|names a function of a unit that|^'look \w+': a look is of|does not name what it draws"),
    ("turn-names", r"turn name|turns' names|names \d+ turn|this game's turns"),
    ("sequence", r"runs a step of the phase|^the scenario has no 'run' line|holds places alone"),
    # The standard library's mechanics, as a ruleset uses them.
    ("library-use", r"does not give the setting|is written in a library mechanic|a library mechanic is one file"
                    r"|needs .use \w+. too|^.use \w+. is written twice|^the paragraph \[[^]]*\] of .\w+. is cited twice"),
    # Overlays.
    ("overlay-conflict", r"both amend|which applies last is not stated"),
    ("overlay-noop", r"changes nothing"),
    ("ambiguous", r"is ambiguous"),
    # A scenario's script against the rules.
    ("script", r"^script |was never asked|is not legal|^the rules ask |no die left|so its decisions are not scripted"
               r"|is not in the script"),
    ("rule-check", r"^rule check failed|^nothing was recorded as"),
)

_COMPILED = tuple((code, re.compile(pattern)) for code, pattern in _KINDS)

CODES: tuple[str, ...] = tuple(code for code, _ in _KINDS)


def code_of(d: Diagnostic) -> str:
    """The kind of a diagnostic, as a stable code: 'unknown-name', 'syntax', 'row-never-read', …"""
    for code, pattern in _COMPILED:
        if pattern.search(d.message):
            return code
    return f"other-{d.severity}"
