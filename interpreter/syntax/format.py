"""Long lines of a rules, scenario or overlay file broken the same way every time (``umpire format``).

Newlines are not significant in the language (grammar/umpire.lark: white space between tokens is
ignored), so a line may be broken between any two tokens without changing what it means. The
formatter is not a pretty-printer: a line within the width is left exactly as written (authors
align the columns of tables and citations), and a longer line is cut only at the whitespace
between tokens, every piece keeping the author's own spacing.

Where a line breaks: the places the parse tree offers on that line, outermost first. Each node of
the tree offers its own places:

- a block's statements (``{ … }``): after the ``{``, between statements, before the ``}``; the
  statements one a line, indented beyond the line that opens the block as the file indents its blocks
  (the step it most often takes after a '{'; two spaces in a file that has none);
- a list of any kind (arguments, parameters, list and map literals, a row's cells, a declaration's
  names): after each comma;
- ``and`` / ``or`` chains, ``+`` / ``-`` chains: before the operator; a conditional expression
  (an ``else if`` chain is one): before each ``else``, its branches one a line, and, a level further
  in, before ``then``;
- a comprehension: before its ``for`` and ``where``;
- a function's body: after its ``=``;
- a statement's clauses (``from``, ``showing``, ``may "…"``, ``because "…"``, ``else "…"``, ``known
  to``) and a statement's or declaration's own text (``say "…"``, a row's ``"…"``): before them;
- a citation: before it.

A line over the width is cut at the places of its outermost node (the node nearest the root of the
tree; of two at the same depth, the first): a block's statements and a conditional's branches each
on a line of their own, any other list filled, as many of its items on a line as fit, the
continuation lines one indent (four spaces) deeper than the line they continue. A piece still over the width is cut again at the next
places in. A line still over the width whose text (where the grammar takes a ``text``: adjacent
strings are one) has a space in it is then written with that text in pieces, cut after spaces and
never inside a '{…}'; breaking and cutting take turns until neither changes anything. A piece with
no place left in it stays as it is: :func:`format_text` reports it. Since every line it leaves is
within the width or has no place to break, formatting twice changes nothing the second time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lark import Token, Tree

from .parse import parse

# The start symbol of each kind of file, by its extension.
STARTS = {".rules": "rules_file", ".scenario": "scenario_file", ".overlay": "overlay_file",
          ".errata": "overlay_file", ".house": "overlay_file"}

# Chains read as one list: 'a and b and c' is and_(and_(a, b), c), and both 'and's are one level.
_CHAINS = {"and_": "and", "or_": "or"}
# A conditional's branches one a line ('if a then b' / 'else if c then d' / 'else e'), and 'then' only
# where a branch is still too long: a level further in.
_KIND = {"else": "each"}
_OPERATOR_WORDS = {"and_": ("and",), "or_": ("or",), "cond_expr": ("then", "else"), "comprehension": ("for", "where")}
# The nodes whose items stand between braces, one a line when the line is broken: statements, a stat block, and the
# declarations and scenario sections written with braces (not a map literal or an enumeration: those are lists).
_BLOCKS = frozenset({"block", "stat_block", "game", "map_decl", "secondary_map", "table_decl", "cup", "record_decl",
                     "sequence_decl", "phase", "scenario_file", "places", "units", "dice", "decisions", "expect",
                     "overlay_file", "amendment"})
# The clauses of a statement a line may break before: 'choose … from …', '… showing …', 'say … else …', '… known to …'.
_CLAUSES = frozenset({"choose_from", "choose_split", "showing", "say_else", "known_by"})
FORMAT_INDENT = "    "  # what a continuation line is indented by, beyond the line it continues


@dataclass(frozen=True)
class Place:
    """A place a line may break: before the character at ``pos``."""

    pos: int
    rank: tuple[int, int, int]  # (the depth of the node offering it, 1 for a 'then' or a block's item, its order
    # in the text): smallest first
    kind: str  # "open" (a block's first statement), "next" (its others), "close" (its '}'), "fill" (a list's item),
    # "each" (a conditional's 'else', one a line)


@dataclass
class Formatted:
    """A file's formatted text, and the lines of it still over the width (1-based, their lengths)."""

    text: str
    too_long: list[tuple[int, int]] = field(default_factory=list)


def start_symbol(path: str) -> str | None:
    """The grammar's start symbol for a file of this name, or None for a kind the formatter does not read."""
    for extension, start in STARTS.items():
        if path.endswith(extension):
            return start
    return None


# Breaking lines at the tree's places and cutting texts into pieces each open new chances for the other;
# they take turns until neither changes anything (each only ever adds line breaks), a few rounds at most.
_ROUNDS = 8


def format_text(text: str, filename: str, start: str, width: int) -> Formatted:
    """``text`` with every line over ``width`` characters broken; raises UmpireError if it does not parse."""
    for _ in range(_ROUNDS):
        broken = _break_lines(text, filename, start, width)
        cut = _cut_texts(broken, filename, start, width)
        if cut == text:
            break
        text = cut
    too_long = [(number, len(body)) for number, line in enumerate(_lines(text), 1)
                if len(body := line.removesuffix("\n").removesuffix("\r")) > width]
    return Formatted(text, too_long)


def _break_lines(text: str, filename: str, start: str, width: int) -> str:
    """``text`` with every line over the width broken at the places of its tree."""
    places = sorted(_places(parse(text, filename, start), text), key=lambda p: p.pos)
    out: list[str] = []
    offset = 0
    newline = "\r\n" if "\r\n" in text else "\n"  # the file's own, for a last line that has none
    unit = block_indent(text)
    for line in _lines(text):
        body = line.removesuffix("\n").removesuffix("\r")
        ending = line[len(body):]
        if len(body) <= width:
            out.append(line)
        else:
            pieces = _Breaker(text, places, width, unit).line(offset, offset + len(body))
            out.extend(piece + (ending or newline) for piece in pieces)
            if not ending:  # the file's last line had no newline: neither has its last piece
                out[-1] = out[-1][:-len(newline)]
        offset += len(line)
    return "".join(out)


def block_indent(text: str) -> str:
    """What the file indents a block's contents by: the step most often taken after a line that opens a
    brace (two spaces in a file that says nothing)."""
    steps: dict[str, int] = {}
    lines = [line.rstrip() for line in text.split("\n")]
    for line, after in zip(lines, lines[1:]):
        indent, inner = _indent(line), _indent(after)
        if line.endswith("{") and inner.startswith(indent) and len(inner) > len(indent):
            step = inner[len(indent):]
            steps[step] = steps.get(step, 0) + 1
    return max(sorted(steps), key=lambda step: steps[step], default="  ")


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip(" \t"))]


def _lines(text: str) -> list[str]:
    """The lines of ``text`` with their endings, split at '\\n' alone as the parser counts lines (a string may
    hold other control characters that str.splitlines would take for line ends)."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


# ───────────────────────────── the places of the tree ─────────────────────────────


def _places(tree: Tree, text: str) -> list[Place]:
    places: list[Place] = []
    order = 0
    stack: list[tuple[Tree, int, int]] = [(tree, 0, 0)]  # node, its depth, its group's order
    while stack:
        node, depth, group = stack.pop()
        order += 1
        own = group or order
        places.extend(_own_places(node, text, depth, own))
        for child in reversed(node.children):
            if isinstance(child, Tree):
                if _same_chain(node, child):
                    stack.append((child, depth, own))
                else:
                    stack.append((child, depth + 1, 0))
    return places


def _same_chain(node: Tree, child: Tree) -> bool:
    """A child that continues its parent's list: the inner 'and' of 'a and b and c', the 'a + b' of 'a + b + c',
    the 'else if' of a conditional."""
    if node.data != child.data:
        return False
    if node.data == "binop":
        return _additive(node) and _additive(child)
    if node.data == "cond_expr":
        return child is _present(node.children)[-1]
    return node.data in _CHAINS


def _additive(node: Tree) -> bool:
    return any(isinstance(c, Token) and c.type in ("PLUS", "MINUS") for c in node.children)


def _present(children: list) -> list:
    return [c for c in children if c is not None and _extent(c) is not None]


def _extent(child: Tree | Token) -> tuple[int, int] | None:
    if isinstance(child, Token):
        return (child.start_pos, child.end_pos) if child.start_pos is not None else None
    meta = child.meta
    if getattr(meta, "empty", True):
        return None
    return meta.start_pos, meta.end_pos


def _own_places(node: Tree, text: str, depth: int, order: int) -> list[Place]:
    children = _present(node.children)
    if node.data in _BLOCKS:
        places, items = _block_places(node, children, text, depth, order)
        children = children[:len(children) - items]  # the header's own places, before the block's
    else:
        places = []
    for before, after in zip(children, children[1:]):
        place = _place_between(node, before, after, text, depth, order)
        if place is not None:
            places.append(place)
    return places


def _block_places(node: Tree, children: list, text: str, depth: int, order: int) -> tuple[list[Place], int]:
    """Before each item of the braces (a statement, a declaration's row, a scenario's expectation), and
    before the '}'; and how many items there are. The items are the children after the '{': a '{' between
    two children is the block's, since strings and stat blocks, where a '{' may also stand, are children
    themselves. A declaration's header ('table t(…) "…" [8.1] {') breaks first, at its own places."""
    starts = [node.meta.start_pos] + [_extent(c)[1] for c in children]
    opened = next((i for i, c in enumerate(children) if "{" in text[starts[i]:_extent(c)[0]]), None)
    if opened is None or not text[:node.meta.end_pos].endswith("}"):
        return [], 0
    rank = (depth, 1, order)
    items = children[opened:]
    places = [Place(_extent(items[0])[0], rank, "open")]
    places.extend(Place(_extent(c)[0], rank, "next") for c in items[1:])
    places.append(Place(node.meta.end_pos - 1, rank, "close"))
    return places, len(items)


def _place_between(node: Tree, before, after, text: str, depth: int, order: int) -> Place | None:
    """The place between two children of ``node``, if the language's layout offers one there."""
    end, start = _extent(before)[1], _extent(after)[0]
    gap = text[end:start]
    if isinstance(after, Tree) and after.data == "cite":
        return Place(start, (depth, 0, order), "fill")
    if _clause(before, after):  # the clause starts at its keyword ('may "…"', 'because "…"', 'from …', 'else "…"')
        return Place(_past_closers(text, end, start), (depth, 0, order), "fill")
    if gap.lstrip().startswith(","):
        comma = end + gap.index(",") + 1
        return Place(_next_token(text, comma, start), (depth, 0, order), "fill")
    if isinstance(after, Token) and after.type in ("PLUS", "MINUS") and node.data == "binop":
        return Place(start, (depth, 0, order), "fill")
    if node.data == "function_decl" and "=" in gap and after is node.children[-1]:
        return Place(start, (depth, 0, order), "fill")  # after the '=': the body on the lines below
    for word in _OPERATOR_WORDS.get(node.data, ()):
        found = re.search(rf"\b{word}\b", gap)
        if found:
            return Place(end + found.start(), (depth, int(word == "then"), order), _KIND.get(word, "fill"))
    return None


def _clause(before, after) -> bool:
    """A statement's or declaration's own text ('say "…"', a row's "…"), or one of a statement's clauses."""
    if isinstance(after, Tree) and after.data != "text":
        return after.data in _CLAUSES
    if isinstance(after, Tree) or after.type == "STRING":  # after 'may', the place is before the 'may'
        return not (isinstance(before, Token) and before.type == "MAY")
    return after.type == "MAY"


def _past_closers(text: str, pos: int, limit: int) -> int:
    """The first character after ``pos`` that neither is white space nor closes a bracket (at most ``limit``)."""
    while pos < limit and text[pos] in " \t)]}":
        pos += 1
    return pos


def _next_token(text: str, pos: int, limit: int) -> int:
    """The first character after ``pos`` that is not white space (at most ``limit``)."""
    while pos < limit and text[pos] in " \t":
        pos += 1
    return pos


# ───────────────────────────── breaking a line ─────────────────────────────


class _Breaker:
    """Cuts the line text[start:end] into pieces, each within the width where the places allow."""

    def __init__(self, text: str, places: list[Place], width: int, unit: str):
        self.text = text
        self.unit = unit  # a block's statements' indent, beyond the line that opens it
        self.places = places
        self.width = width

    def line(self, start: int, end: int) -> list[str]:
        first = _next_token(self.text, start, end)
        return self._piece(self.text[start:first], first, end)

    def _piece(self, indent: str, start: int, end: int) -> list[str]:
        """The piece text[start:end] at ``indent``, broken further if it is too long and can be."""
        shown = indent + self.text[start:end].rstrip()
        if len(shown) <= self.width:
            return [shown]
        inside = [p for p in self.places if start < p.pos < end]
        if not inside:
            return [shown]
        outermost = min(p.rank for p in inside)
        chosen = [p for p in inside if p.rank == outermost]
        if chosen[0].kind == "fill":
            return self._fill(indent, start, end, [p.pos for p in chosen])
        if chosen[0].kind == "each":
            bounds = [start] + [p.pos for p in chosen] + [end]
            return [piece for i, (left, right) in enumerate(zip(bounds, bounds[1:]))
                    for piece in self._piece(indent + FORMAT_INDENT * (i > 0), left, right)]
        return self._block(indent, start, end, chosen)

    def _block(self, indent: str, start: int, end: int, chosen: list[Place]) -> list[str]:
        """One statement a line, indented as the file indents a block beyond the line that opens it; its '}' back out."""
        pieces: list[str] = []
        level = indent
        bounds = [start] + [p.pos for p in chosen] + [end]
        kinds = ["first"] + [p.kind for p in chosen]
        for (left, right), kind in zip(zip(bounds, bounds[1:]), kinds):
            if kind == "open":
                level = level + self.unit
            elif kind == "close":
                level = level.removesuffix(self.unit) if level.endswith(self.unit) else ""
            pieces.extend(self._piece(level, left, right))
        return pieces

    def _fill(self, indent: str, start: int, end: int, cuts: list[int]) -> list[str]:
        """As many of the list's items on a line as fit, the lines after the first one indent deeper."""
        pieces: list[str] = []
        bounds = cuts + [end]
        left, level = start, indent
        while True:
            right = bounds[0]
            # The longest run of items from 'left' that fits; at least one item.
            for candidate in bounds[1:]:
                if len(level + self.text[left:candidate].rstrip()) > self.width:
                    break
                right = candidate
            pieces.extend(self._piece(level, left, right))
            bounds = [b for b in bounds if b > right]
            if not bounds:
                return pieces
            left, level = right, indent + FORMAT_INDENT


# ───────────────────────────── cutting a text into pieces ─────────────────────────────


def _cut_texts(text: str, filename: str, start: str, width: int) -> str:
    """``text`` with the first text on each line over the width that has a space to cut at written in pieces
    ('"the first half "' and '"the second half"' on the line below): only where the grammar takes a
    text (a rule ``text``), where adjacent strings are one."""
    tree = parse(text, filename, start)
    strings = sorted((tok for node in tree.iter_subtrees() if node.data == "text" for tok in node.children),
                     key=lambda tok: tok.start_pos)
    out: list[str] = []
    offset = 0
    for line in _lines(text):
        body = line.removesuffix("\n").removesuffix("\r")
        end = offset + len(body)
        on_line = [tok for tok in strings if offset <= tok.start_pos and tok.end_pos <= end and len(_cuts(tok)) > 0]
        if len(body) > width and on_line:
            tok = on_line[0]
            pieces = _text_pieces(body[:tok.start_pos - offset], tok, body[tok.end_pos - offset:], body, width)
            ending = line[len(body):] or ("\r\n" if "\r\n" in text else "\n")
            out.append(ending.join(pieces) + line[len(body):])
        else:
            out.append(line)
        offset += len(line)
    return "".join(out)


def _cuts(tok: Token) -> list[int]:
    """Where a string's body may be cut: after a run of spaces that follows other text, never inside a '{…}'
    (each piece keeps its expressions whole)."""
    body = tok[1:-1]
    cuts: list[int] = []
    depth = 0
    for i, char in enumerate(body):
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        elif char == " " and depth == 0 and body[:i].strip() and i + 1 < len(body) and body[i + 1] != " ":
            cuts.append(i + 1)
    return cuts


def _text_pieces(before: str, tok: Token, after: str, line: str, width: int) -> list[str]:
    """The lines a string makes in pieces, each as full as fits: the first after what stands before it, the
    others at its own column when it starts its line, else one indent deeper than the line; what follows it
    on the line stays after the last piece."""
    body = tok[1:-1]
    bounds = [0, *_cuts(tok), len(body)]
    words = [body[left:right] for left, right in zip(bounds, bounds[1:])]
    indent = before if not before.strip() else _indent(line) + FORMAT_INDENT
    lines: list[str] = []
    lead, current = before, words[0]
    for i, word in enumerate(words[1:], 2):
        tail = after if i == len(words) else ""
        if len(lead) + len(current) + len(word) + 2 + len(tail) > width:
            lines.append(f'{lead}"{current}"')
            lead, current = indent, word
        else:
            current += word
    lines.append(f'{lead}"{current}"{after}')
    return lines
