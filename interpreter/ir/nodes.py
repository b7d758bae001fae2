"""IR node shapes: the one declarative place that says what a rules file can contain.

Every node is a frozen pydantic model with a ``span`` (where it was written) and,
where the language allows one, a ``cite`` (the rule number it encodes). Unions are
discriminated on ``kind`` so ``umpire schema`` can print a precise JSON schema.
"""

from __future__ import annotations

import typing
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field  # noqa: F401  (BaseModel: others test isinstance(x, n.BaseModel))

from ..syntax.diagnostics import Span
from .trust import IRModel


class Node(IRModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    span: Span


class Citation(Node):
    """A rule citation as written, ``[9.1 step 2a]``: its text, where it stands, and what it names.

    ``section`` is its first word (a rule number such as ``9.1``, a ruling such as ``A-05``,
    or an example such as ``EoP``) and ``qualifier`` the rest (``step 2a``, ``errata``; empty
    when there is none). It prints as its text, so a trace line reads ``[9.1 step 2a]``.
    """

    kind: Literal["citation"] = "citation"
    text: str
    section: str
    qualifier: str = ""

    def __str__(self) -> str:
        return self.text


class Cited(Node):
    cite: Citation | None = None


# ─────────────────────────────── expressions ───────────────────────────────


class IntLit(Node):
    kind: Literal["int"] = "int"
    value: int


class StrPart(IRModel):
    model_config = ConfigDict(frozen=True, defer_build=True)
    text: str | None = None
    expr: Expr | None = None


class StrLit(Node):
    """A string; ``{expr}`` inside it interpolates an expression."""

    kind: Literal["str"] = "str"
    value: str
    parts: tuple[StrPart, ...] = ()


class BoolLit(Node):
    kind: Literal["bool"] = "bool"
    value: bool


class NoneLit(Node):
    kind: Literal["none"] = "none"


class XLit(Node):
    """The printed 'X': a value that exists but has no combat or tactical value."""

    kind: Literal["x"] = "x"


class PlaceLit(Node):
    kind: Literal["place"] = "place"
    id: str


class Var(Node):
    kind: Literal["var"] = "var"
    name: str


class Attr(Node):
    kind: Literal["attr"] = "attr"
    obj: Expr
    name: str
    name_span: Span


class Index(Node):
    kind: Literal["index"] = "index"
    obj: Expr
    key: Expr


class Arg(IRModel):
    model_config = ConfigDict(frozen=True, defer_build=True)
    name: str | None = None
    value: Expr
    span: Span


class CallExpr(Node):
    kind: Literal["call"] = "call"
    func: str
    args: tuple[Arg, ...]


class BinOp(Node):
    kind: Literal["binop"] = "binop"
    op: str
    left: Expr
    right: Expr


class Rounded(Node):
    """``a / b rounded up|down|nearest [at least N]``: a division that says how it rounds (F3), and its floor."""

    kind: Literal["rounded"] = "rounded"
    op: str  # '/': only a division is rounded (the builder refuses the others)
    left: Expr
    right: Expr
    mode: str  # up | down | nearest (a half rounded up); anything else is reported by the checker
    mode_span: Span
    least: Expr | None = None  # 'at least 1': never below it


class Compare(Node):
    kind: Literal["compare"] = "compare"
    op: str
    left: Expr
    right: Expr


class BoolOp(Node):
    kind: Literal["boolop"] = "boolop"
    op: Literal["and", "or"]
    items: tuple[Expr, ...]


class Not(Node):
    kind: Literal["not"] = "not"
    operand: Expr


class Neg(Node):
    kind: Literal["neg"] = "neg"
    operand: Expr


class IsTest(Node):
    """``u is naval``: class, type or flag membership of a unit."""

    kind: Literal["is"] = "is"
    operand: Expr
    name: str
    name_span: Span
    negate: bool = False


class InTest(Node):
    kind: Literal["in"] = "in"
    item: Expr
    collection: Expr


class Has(Node):
    """``has u.gun``: the stat holds a number (not 'X', not absent); reading a missing '?' value is an error."""

    kind: Literal["has"] = "has"
    operand: Expr


class CondExpr(Node):
    kind: Literal["cond"] = "cond"
    test: Expr
    then: Expr
    orelse: Expr


class ListLit(Node):
    kind: Literal["list"] = "list"
    items: tuple[Expr, ...]


class MapEntry(IRModel):
    model_config = ConfigDict(frozen=True, defer_build=True)
    key: Expr
    value: Expr


class MapLit(Node):
    kind: Literal["map"] = "map"
    entries: tuple[MapEntry, ...]


class Comprehension(Node):
    """``[expr for v in iterable where test]``. ``[e for a in A for b in B where t]`` is built as
    ``[[e for b in B where t] for a in A]`` with ``flat``: the inner lists are joined."""

    kind: Literal["comprehension"] = "comprehension"
    expr: Expr
    var: str
    iterable: Expr
    where: Expr | None = None
    flat: bool = False


class Matching(Node):
    """Size of a maximum one-to-one matching of dice to units where a test holds."""

    kind: Literal["matching"] = "matching"
    die_var: str
    dice: Expr
    unit_var: str
    units: Expr
    where: Expr


Expr = Annotated[
    IntLit | StrLit | BoolLit | NoneLit | XLit | PlaceLit | Var | Attr | Index | CallExpr | BinOp | Rounded | Compare | BoolOp | Not | Neg | IsTest | InTest | Has | CondExpr | ListLit | MapLit | Comprehension | Matching,
    Field(discriminator="kind"),
]


# ─────────────────────────────── statements ───────────────────────────────


class Let(Cited):
    kind: Literal["let"] = "let"
    name: str
    value: Expr


class SetStmt(Cited):
    kind: Literal["set"] = "set"
    target: Expr
    value: Expr


class Adjust(Cited):
    kind: Literal["adjust"] = "adjust"
    target: Expr
    by: Expr


class If(Cited):
    kind: Literal["if"] = "if"
    test: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...] = ()


class ForEach(Cited):
    kind: Literal["for"] = "for"
    var: str
    iterable: Expr
    body: tuple[Stmt, ...]


class Repeat(Cited):
    """Run the body again and again until a ``stop`` inside it (not inside a nested repeat).

    ``repeat as VAR up to LIMIT``: a loop of rounds; VAR is the round's number (1, 2, …) and the
    loop ends after LIMIT rounds (evaluated once, when the loop begins)."""

    kind: Literal["repeat"] = "repeat"
    body: tuple[Stmt, ...]
    var: str | None = None
    limit: Expr | None = None
    unit: str | None = None  # a named time unit: each round runs the hooks UNIT_start and UNIT_end


class RepeatTimes(Cited):
    """``repeat COUNT times``: the body COUNT times (read once, when the loop begins), with no
    line of its own in the narration; a ``stop`` inside it ends the enclosing ``repeat``."""

    kind: Literal["repeat_times"] = "repeat_times"
    count: Expr
    body: tuple[Stmt, ...]


class Impulses(Cited):
    """``impulses UNIT for VAR in ORDER [up to LIMIT] { … }``: each seat of ORDER in turn (VAR),
    round and round, has an impulse (the body), until every seat has passed in a row, a ``stop``,
    or LIMIT impulses. Each impulse is a time unit: hooks UNIT_start(VAR) and UNIT_end(VAR)."""

    kind: Literal["impulses"] = "impulses"
    unit: str
    var: str
    order: Expr
    limit: Expr | None = None
    body: tuple[Stmt, ...]


class Pass(Cited):
    """``pass``: the seat whose impulse it is passes; its impulse ends at once."""

    kind: Literal["pass"] = "pass"


class Stop(Cited):
    """``stop``, or ``stop when COND "WHY"``: one of a loop's end conditions, traced with its reason."""

    kind: Literal["stop"] = "stop"
    when: Expr | None = None
    why: StrLit | None = None


class Return(Cited):
    """``return [EXPR]``: ends the procedure at once, giving EXPR's value to a ``let … = call``."""

    kind: Literal["return"] = "return"
    value: Expr | None = None


class EndGame(Cited):
    """``end game "WHY"``: the game is over at once; only its game_end hooks still run."""

    kind: Literal["end_game"] = "end_game"
    why: StrLit


class Roll(Cited):
    """``roll target = count die``: a pool of dice through the dice interface."""

    kind: Literal["roll"] = "roll"
    target: Expr
    count: Expr
    die: str
    die_span: Span


class Choose(Cited):
    """A player decision with its legal options; its ``name`` keys scripted answers."""

    kind: Literal["choose"] = "choose"
    name: str
    chooser: Expr
    mode: Literal["one", "exactly", "up_to", "split"]
    options: Expr
    amount: Expr | None = None  # exactly/up_to: how many; split: the points to split
    limit: Expr | None = None  # split: at most this many recipients
    optional: bool = False
    prompt: StrLit | None = None
    showing: Expr | None = None  # 'showing EXPR': read beside each option by the person choosing (name bound to it)


class Lookup(Cited):
    kind: Literal["lookup"] = "lookup"
    name: str
    table: str
    table_span: Span
    args: tuple[Arg, ...]


class Eliminate(Cited):
    kind: Literal["eliminate"] = "eliminate"
    units: Expr
    because: StrLit | None = None


class Move(Cited):
    kind: Literal["move"] = "move"
    units: Expr
    to: Expr


class Embark(Cited):
    """Put units aboard a carrier in the same place; they move with it from then on."""

    kind: Literal["embark"] = "embark"
    units: Expr
    carrier: Expr


class ChangeSide(Cited):
    """Units go over to another side; they stay where they are, with their values and states."""

    kind: Literal["change_side"] = "change_side"
    units: Expr
    side: Expr


class KnownBy(Node):
    """``known to WHO`` after a draw, a pick, a put or a say: its line is face down, shown only to the
    side(s) WHO names when it is written (a side, a list of sides, or none: nobody)."""

    who: Expr


class Draw(Cited):
    """``draw VAR from CUP`` (one chit, or none from an empty cup) or ``draw VAR = N from CUP`` (a list of
    chits): through the dice interface; the chits leave the cup unless it is drawn with replacement."""

    kind: Literal["draw"] = "draw"
    name: str
    count: Expr | None = None  # None: one chit, the chit itself; else a list of this many
    cup: str
    cup_span: Span
    known_by: KnownBy | None = None  # face down: only these sides see what is drawn


class Pick(Cited):
    """``pick VAR from LIST at random``: one element (none from an empty list), or ``pick VAR = N …``,
    N distinct elements; uniform, through the dice interface."""

    kind: Literal["pick"] = "pick"
    name: str
    count: Expr | None = None
    options: Expr
    known_by: KnownBy | None = None


class Put(Cited):
    """``put CHITS into CUP``: a chit (or a list of chits) of the cup goes (back) into it."""

    kind: Literal["put"] = "put"
    chits: Expr
    cup: str
    cup_span: Span
    known_by: KnownBy | None = None  # face down: only these sides see which chits go back


class Remove(Cited):
    """``remove CHITS from CUP``: chits taken out of the cup without a draw (out of play)."""

    kind: Literal["remove"] = "remove"
    chits: Expr
    cup: str
    cup_span: Span


class Refill(Cited):
    """``refill CUP``: the cup holds again what it was declared with."""

    kind: Literal["refill"] = "refill"
    cup: str
    cup_span: Span


class Say(Cited):
    kind: Literal["say"] = "say"
    text: StrLit
    known_by: KnownBy | None = None  # a line only these sides read (what a spy is shown)
    face_down: StrLit | None = None  # 'else TEXT': what a side reads when the line is hidden from it


class CallStmt(Cited):
    """``call P(args)``, or ``let result = call P(args)``: the procedure's returned value in a new local."""

    kind: Literal["call"] = "call"
    proc: str
    proc_span: Span
    args: tuple[Arg, ...]
    result: str | None = None


class Reroll(Cited):
    """A reroll window: sides in order may spend a unit to void and reroll one die."""

    kind: Literal["reroll"] = "reroll"
    pools: Expr
    order: Expr
    side_var: str
    spend: Expr


class Simultaneously(Cited):
    """Eliminations inside the block take effect together when the block ends."""

    kind: Literal["simultaneously"] = "simultaneously"
    body: tuple[Stmt, ...]


class Secretly(Cited):
    """Decisions made secretly: each side answers without seeing the others' answers, which are
    revealed together when the block ends (the block holds only ``choose`` statements)."""

    kind: Literal["secretly"] = "secretly"
    body: tuple[Stmt, ...]


class Record(Cited):
    """Record a named result of the run (scenarios' expectations can read it)."""

    kind: Literal["record"] = "record"
    key: StrLit
    value: Expr


class Ensure(Cited):
    """Inside an invariant: a condition whose failure is reported with the message."""

    kind: Literal["ensure"] = "ensure"
    test: Expr
    message: StrLit


Stmt = Annotated[
    Let | SetStmt | Adjust | If | ForEach | Repeat | RepeatTimes | Impulses | Pass | Stop | Return | Roll | Choose | Lookup | Eliminate | Move | Embark | ChangeSide | Say | CallStmt | Reroll | Simultaneously | Secretly | Record | Ensure
    | Draw | Pick | Put | Remove | Refill | EndGame,
    Field(discriminator="kind"),
]


def kinds_of(union) -> tuple[str, ...]:
    """The `kind` names of a discriminated union of nodes, in declaration order: the one list of
    statement (or expression) kinds, from which every other list is derived."""
    members = typing.get_args(typing.get_args(union)[0])
    return tuple(typing.get_args(m.model_fields["kind"].annotation)[0] for m in members)


STATEMENT_KINDS = kinds_of(Stmt)
EXPRESSION_KINDS = kinds_of(Expr)


# ─────────────────────────────── declarations ───────────────────────────────


class IncludeDecl(Cited):
    """``include "part.rules"``: the loader replaces it with that file's declarations."""

    kind: Literal["include"] = "include"
    path: str
    path_span: Span | None = None  # the quoted path, where a refused reference is reported


class UseBinding(Cited):
    """``SETTING = expr`` in a `use` block: the body the game gives one of the library's settings."""

    name: str
    value: Expr


class UseRecite(Node):
    """``[RNF-4] as [5.0]`` in a `use` block: what the mechanic cites as its paragraph RNF-4 is cited as
    the game's rule 5.0, not as the `use` line's."""

    paragraph: Citation
    cite: Citation


class UseDecl(Cited):
    """``use NAME [cite] { … }``: the loader replaces it with the library mechanic's declarations."""

    kind: Literal["use"] = "use"
    name: str
    name_span: Span
    bindings: tuple[UseBinding, ...] = ()
    recites: tuple[UseRecite, ...] = ()


class SettingDecl(Cited):
    """``setting NAME(params) = default``: a library's function whose body the game may (or, without a
    default, must) give in its `use`; the loader turns it into a function."""

    kind: Literal["setting"] = "setting"
    name: str
    params: tuple[Param, ...] = ()
    returns: str | None = None  # the kind of value it gives ('int', 'bool', …), when the library says
    default: Expr | None = None


class NameLabel(Node):
    name: str
    label: str | None = None


class FileRef(Node):
    """A file a header or scenario names: its path as written; its span is the quoted string."""

    path: str


class Die(Cited):
    name: str
    low: int
    high: int


class ScenarioChoice(Cited):
    """``scenario NAME "FILE"`` in the game header: a set-up ``play --scenario NAME`` starts from."""

    name: str
    file: str  # relative to the ruleset
    file_span: Span


class HeaderRef(Cited):
    """A name the game header points to (``outcome winner``, ``worth standing``), where it is written."""

    kind: Literal["header_ref"] = "header_ref"
    name: str
    # outcome only: values that mean a side won, when they are not the side's name ("a red win")
    sides: tuple[tuple[str, str], ...] = ()
    sides_span: tuple[Span, ...] = ()


class TurnNames(Cited):
    """``turn names "Jan I", "Jan II", …``: each turn's printed name, in order (a calendar)."""

    kind: Literal["turn_names"] = "turn_names"
    names: tuple[str, ...]
    name_spans: tuple[Span, ...] = ()  # where each name is written (a repeated one is reported there)


class Game(Cited):
    kind: Literal["game"] = "game"
    name: str
    title: str | None = None
    sides: tuple[NameLabel, ...] = ()
    sides_cite: Citation | None = None
    nations: tuple[NameLabel, ...] = ()
    nations_cite: Citation | None = None
    dice: tuple[Die, ...] = ()
    turns: int | None = None
    turns_cite: Citation | None = None
    turn_names: TurnNames | None = None  # the turns' printed names, when the rulebook gives them
    demo_data: str | None = None  # a rules file supplying unprinted data (a path relative to the ruleset)
    demo_setup: str | None = None  # a scenario whose set-up 'play' starts from
    errata: str | None = None  # the official errata overlay (a path relative to the ruleset), applied by 'play'
    scenarios: tuple[ScenarioChoice, ...] = ()
    files_named: tuple[FileRef, ...] = ()  # each file the header names, reported at its own string
    outcome: HeaderRef | None = None  # the game state or fact that names the winner
    worth: HeaderRef | None = None  # the function (of a side) a search agent maximises

    def span_of(self, path: str) -> Span:
        """Where the header names ``path`` (the whole header when it is not found)."""
        return next((f.span for f in self.files_named if f.path == path), self.span)


class StatDecl(Cited):
    kind: Literal["stat"] = "stat"
    name: str
    label: str | None = None


class FlagDecl(Cited):
    kind: Literal["flag"] = "flag"
    name: str
    label: str | None = None


class TypeName(Node):
    name: str | None = None  # int, bool, side, place, unit ...
    enum: tuple[str, ...] = ()


class UnitStateDecl(Cited):
    kind: Literal["unit_state"] = "unit_state"
    name: str
    type: TypeName


class FaceDecl(Cited):
    """``face of TYPE when STATE is VALUE { values }``: the printed values a unit of the type (or the counter)
    shows instead of its own while its enumerated unit state STATE is VALUE (a damaged face, a reduced step)."""

    kind: Literal["face"] = "face"
    holder: str  # a type or a counter
    holder_span: Span
    state: str
    state_span: Span
    value: str | int  # a value of an enumerated state, or a number of a numbered one (steps lost)
    value_span: Span
    values: tuple[StatValue, ...] = ()


class KnownTo(Node):
    """``known to SIDE`` after a state's type: only that side knows its value (hidden information)."""

    side: str


class PlaceStateDecl(Cited):
    """``place state storm: bool``: a state of every place, declared outside the map block."""

    kind: Literal["place_state"] = "place_state"
    name: str
    type: TypeName
    known_to: KnownTo | None = None


class ViewDecl(Cited):
    """``view visible``: names a function (unit, side) -> bool that decides what a side sees."""

    kind: Literal["view"] = "view"
    function: str


class HiddenDecl(Cited):
    """``hidden block seen as "a block"``: what a side the view hides a unit of this class or type from
    is shown of it where the engine names it (a move), instead of nothing."""

    kind: Literal["hidden"] = "hidden"
    name: str  # a class or a type
    name_span: Span
    seen_as: str


class LookSetting(Node):
    """``fill: "#a9c8e4"`` or ``factors: gun cannonade`` in a ``look`` block: a setting's name and its
    words (a quoted text is one word, ``quoted``)."""

    name: str
    words: tuple[str, ...]
    quoted: bool = False


class LookDecl(Cited):
    """``look SUBJECT [NAME [VALUE]] { setting: value, … }``: how a picture draws what the ruleset
    declares (language 6.3c). The subject says what NAME is: ``side`` (a side), ``place`` (a place
    property, with one of its values or alone for a place where it is set), ``edge`` (an edge kind, or a
    border property with one of its values), ``counter`` (a class or a type), ``unit`` (every unit)."""

    kind: Literal["look"] = "look"
    subject: str
    subject_span: Span
    name: str | None = None
    name_span: Span | None = None
    value: str | None = None
    value_span: Span | None = None
    settings: tuple[LookSetting, ...] = ()

    def setting(self, name: str) -> LookSetting | None:
        return next((s for s in self.settings if s.name == name), None)


class ChitCount(Node):
    """``red x3`` in a cup's ``chits`` line (a name alone is one chit)."""

    name: str
    count: int = 1
    cite: Citation | None = None


class CupDecl(Cited):
    """``cup NAME "label" [with replacement] [cite] { chits a x2, b }``: chits drawn blind (language 6.5)."""

    kind: Literal["cup"] = "cup"
    name: str
    label: str | None = None
    replaced: bool = False  # with replacement: a drawn chit goes straight back
    chits: tuple[ChitCount, ...] = ()

    def start(self) -> dict[str, int]:
        """What the cup holds at the start: every chit's count, in the order declared (a chit named on
        two lines counts both)."""
        out: dict[str, int] = {}
        for c in self.chits:
            out[c.name] = out.get(c.name, 0) + c.count
        return out


class GameStateDecl(Cited):
    """A game-wide state variable, such as a flag set by an event table; with ``per KEYS`` (language 6.4a)
    one value for each side, each nation or each value of the enumeration named KEYS, read ``NAME[key]``."""

    kind: Literal["game_state"] = "game_state"
    name: str
    type: TypeName
    per: str | None = None  # "side", "nation" or an enumeration's name: the keys of a per-key state
    per_span: Span | None = None
    known_to: KnownTo | None = None


class EnumerationDecl(Cited):
    """``enumeration NAME "label" {a, b, c} [cite]``: values that are names, qualified ``NAME.a``, and the keys
    of a state declared ``per NAME`` (language 6.4a)."""

    kind: Literal["enumeration"] = "enumeration"
    name: str
    label: str | None = None
    values: tuple[str, ...] = ()


class ClassDecl(Cited):
    kind: Literal["class"] = "class"
    name: str
    label: str | None = None


class StatValue(Cited):
    """One printed value: a number, 'X', missing ('?'), a name, or a flag that is set."""

    name: str
    value: int | str | None = None  # int, "X", "?", a name; None for a flag
    is_flag: bool = False
    key: str | None = None  # a scenario's 'state NAME[KEY]: VALUE': the key of a per-key game state


class TypeDecl(Cited):
    kind: Literal["type"] = "type"
    name: str
    label: str | None = None
    parent: str
    parent_span: Span
    values: tuple[StatValue, ...] = ()


class CounterDecl(Cited):
    kind: Literal["counter"] = "counter"
    name: str
    label: str | None = None
    type: str
    type_span: Span
    side: str
    side_span: Span
    values: tuple[StatValue, ...] = ()


class Grid(Cited):
    shape: str
    id_format: str | None = None
    columns: str | None = None


class PlaceProp(Cited):
    name: str
    type: TypeName
    mutable: bool = False
    known_to: KnownTo | None = None  # a place state only one side knows


class EdgeDecl(Cited):
    """A named kind of link between places besides adjacency, such as a trade route."""

    name: str
    label: str | None = None


class Wrap(Cited):
    """``wrap columns 1..30 on rows A..O``: on a square grid, the two ends of an axis meet (on some rows
    or columns of the other axis only, when ``on`` is given). Ends are written as place ids write them."""

    axis: str  # columns or rows
    low: str
    high: str
    on_axis: str | None = None
    on_low: str | None = None
    on_high: str | None = None


class BorderProp(Cited):
    """``border terrain: {open, all_land}``: a fixed fact of the side between two neighbouring places."""

    name: str
    type: TypeName


class CoastDecl(Cited):
    """``coast mainland "the mainland coast"``: an ordered list of places, listed by scenarios."""

    name: str
    label: str | None = None


class MapDecl(Cited):
    kind: Literal["map"] = "map"
    name: str
    grid: Grid | None = None
    props: tuple[PlaceProp, ...] = ()
    edges: tuple[EdgeDecl, ...] = ()
    wraps: tuple[Wrap, ...] = ()
    borders: tuple[BorderProp, ...] = ()
    coasts: tuple[CoastDecl, ...] = ()


class MapPath(Node):
    """``4..6 -> delta``: the path a number from low to high picks."""

    low: int
    high: int
    to: str


class MapPoint(Cited):
    """A point of a secondary map and its paths (none: the walk ends there)."""

    name: str
    paths: tuple[MapPath, ...] = ()


class SecondaryMap(Cited):
    """``secondary map storms "…" by d10 { west_dot: 0..3 -> north_dot, … }``: a small map walked by a
    marker (a game state whose type is the map), one die number picking each step's path."""

    kind: Literal["secondary_map"] = "secondary_map"
    name: str
    label: str | None = None
    die: str
    die_span: Span
    points: tuple[MapPoint, ...] = ()


class BoxDecl(Cited):
    kind: Literal["box"] = "box"
    name: str
    label: str | None = None
    per_side: bool = False
    per_turn: bool = False  # one box per game turn: a turn record track


class TrackStart(Node):
    """Where a track's marker starts: ``start 3`` (side None), or one value per side."""

    side: str | None = None
    value: int


class TrackDecl(Cited):
    kind: Literal["track"] = "track"
    name: str
    label: str | None = None
    per_side: bool = False
    per_nation: bool = False  # one value per nation of the game header (resource pools of contingents)
    low: int
    high: int
    excess: str | None = None  # "discarded" (clamp) or "forbidden"
    start: tuple[TrackStart, ...] = ()

    @property
    def keyed(self) -> bool:
        """One value per side or per nation, read as `track[key]`."""
        return self.per_side or self.per_nation


class MissingDecl(Cited):
    kind: Literal["missing"] = "missing"
    what: str  # map, table, counters, ...
    name: str
    description: str


class Unencoded(Cited):
    """``not encoded "why" [4.10]`` or ``partly encoded "why" [7.8]``: a rule, or a part of one, the
    ruleset does not encode, declared so that check and coverage list it (docs/coverage.md)."""

    kind: Literal["unencoded"] = "unencoded"
    extent: Literal["not", "partly"]
    reason: str


class Param(Node):
    name: str
    type: str


class Modifier(Cited):
    name: str
    value: Expr
    when: Expr | None = None


class Row(Cited):
    # An open end is None: '3..' is low 3, high None ("3 or more"); '..2' is low None ("2 or less").
    low: int | None
    high: int | None
    result: str  # the first (or only) cell; a number's text for a row that gives a number
    value: int | None = None  # '1..2 -> 3': the number the row gives (8.5); its cells are then ()
    label: str | None = None
    effect: tuple[Stmt, ...] = ()
    does: bool = False  # its effect written as one procedure given its arguments ('= lose(2)'): data (shape.py)
    # One result per column in a table with columns; (result,) otherwise. '?' is a result the
    # rulebook does not print (8.7); a number is written as its text, its value in cell_values.
    cells: tuple[str, ...] = ()
    cell_spans: tuple[Span, ...] = ()
    cell_values: tuple[int | None, ...] = ()  # a row of several cells that are numbers (8.3, 8.5): each one's value
    # The arguments each cell gives the declared result it names ('lose(2)', 8.3a); None for a
    # cell written without parentheses. Empty when no cell of the row has any.
    cell_args: tuple[tuple[Arg, ...] | None, ...] = ()
    # The ranges of the further keys of a table read at two values ('3..4, 2 -> …', 8.6): (low, high) each.
    more: tuple[tuple[int | None, int | None], ...] = ()

    def cell(self, column: int) -> int | str:
        """What the row gives in a column (0 for a table without columns): a number, a result name or '?'."""
        if self.value is not None:
            return self.value
        if not self.cells:
            return self.result
        value = self.cell_values[column] if self.cell_values else None
        return self.cells[column] if value is None else value

    def keys(self) -> tuple[tuple[float, float], ...]:
        """Every key's range, open ends as infinities: the first key's, then the further keys'."""
        return ((self.first, self.last),) + tuple((-_INF if lo is None else lo, _INF if hi is None else hi) for lo, hi in self.more)

    @property
    def first(self) -> float:
        """The lowest value the row reads (-inf for '..2'): what comparisons and range analyses use."""
        return -_INF if self.low is None else self.low

    @property
    def last(self) -> float:
        return _INF if self.high is None else self.high

    def shown(self) -> str:
        """The row's keys as written: '4', '3..4', '16..', '..2', or '3..4, 2' for two keys."""
        return ", ".join(show_range(lo, hi) for lo, hi in ((self.low, self.high), *self.more))


_INF = float("inf")


def show_range(low: int | None, high: int | None) -> str:
    """A range as written in the rules: '4', '3..4', '16..' (16 or more) or '..2' (2 or less)."""
    if low is not None and low == high:
        return str(low)
    return f"{'' if low is None else low}..{'' if high is None else high}"


class ColumnHeader(Node):
    """A column of a column table: an odds ratio (3:2, or as printed, 3-2) or a range of values (-1..1, 16..20)."""

    label: str  # as the trace prints it, as written: "3:2", "3-2", "16..20" or the header's own label
    ratio: tuple[int, int] | None = None
    low: int | None = None
    high: int | None = None


class Columns(Cited):
    """How a column table finds its column: odds(a, b), difference(a, b) or value(x)."""

    by: str  # odds | difference | value
    by_span: Span
    args: tuple[Expr, ...]
    headers: tuple[ColumnHeader, ...]
    # How odds between two columns are read: down (the defender's favour), up (the attacker's) or nearest.
    rounding: str = "down"
    rounding_span: Span | None = None  # None: the table says nothing, and odds are rounded down


class ColumnShift(Cited):
    """A cited shift of the column, right for positive values (siege works: 2 columns)."""

    name: str
    value: Expr
    when: Expr | None = None


class TableResult(Cited):
    """A result of a table, declared once: its label and effect serve every cell that names it. A result
    with parameters is named with arguments ('lose(2)'); its effect reads them."""

    name: str
    params: tuple[Param, ...] = ()
    label: str | None = None
    effect: tuple[Stmt, ...] = ()
    # Written as one standard effect, '= retreat(defenders, 2)': its effect is that one call, and the
    # result reads as data (shape.py), as a row naming a result does.
    does: bool = False


class TableDecl(Cited):
    kind: Literal["table"] = "table"
    name: str
    label: str | None = None
    params: tuple[Param, ...] = ()
    count: int
    die: str
    die_span: Span
    count_param: str | None = None  # 'roll dice d6': the number of dice is this parameter's value
    # 'read at points': no roll (count 0, die ""); the row is this parameter's value, and die_span its name.
    read_at: str | None = None
    read_also: tuple[str, ...] = ()  # 'read at severity, zone': the further keys (zone), each row a range for each (8.6)
    roll_cite: Citation | None = None
    modifiers: tuple[Modifier, ...] = ()
    rows: tuple[Row, ...] = ()
    beyond: str | None = None  # clamp | no_effect | unresolved
    beyond_span: Span | None = None
    beyond_cite: Citation | None = None
    columns: Columns | None = None
    shifts: tuple[ColumnShift, ...] = ()
    columns_beyond: str | None = None  # clamp | no_effect | unresolved, or a result read with no roll
    columns_beyond_span: Span | None = None
    columns_beyond_cite: Citation | None = None
    columns_below: str | None = None  # below the first column alone, as columns_beyond
    columns_below_span: Span | None = None
    columns_below_cite: Citation | None = None
    columns_above: str | None = None  # above the last column alone, as columns_beyond
    columns_above_span: Span | None = None
    columns_above_cite: Citation | None = None
    results: tuple[TableResult, ...] = ()

    def column_end(self, end: str) -> tuple[str | None, Span | None, Citation | None]:
        """What a column below the first ("below") or above the last ("above") means, with where it is
        written and its citation: the end's own line, else 'beyond columns'."""
        own = getattr(self, f"columns_{end}")
        if own is not None:
            return own, getattr(self, f"columns_{end}_span"), getattr(self, f"columns_{end}_cite")
        return self.columns_beyond, self.columns_beyond_span, self.columns_beyond_cite


class FunctionDecl(Cited):
    kind: Literal["function"] = "function"
    name: str
    params: tuple[Param, ...]
    body: Expr
    needs: tuple[str, ...] = ()  # missing tables its body reads (language 8.4: a table read in an expression)
    returns: str | None = None  # a library setting's kind of value, which the game's body must give (language 9.0a)


class ProcedureDecl(Cited):
    kind: Literal["procedure"] = "procedure"
    name: str
    params: tuple[Param, ...]
    body: tuple[Stmt, ...]
    needs: tuple[str, ...] = ()  # tables it reads that may be missing: it runs only once they are supplied


class HookDecl(Cited):
    kind: Literal["hook"] = "hook"
    event: str
    var: str | None  # the unit (or other subject) the event is about; game events have none
    body: tuple[Stmt, ...]
    does: bool = False  # written as the one procedure it runs ('= to_force_pool(u)'): data (shape.py)


class InvariantDecl(Cited):
    kind: Literal["invariant"] = "invariant"
    name: str
    body: tuple[Stmt, ...]


class RecordField(Cited):
    """A field of a record type: its name, its type, and the value it takes when a construction leaves it out
    (a field without a default must be given)."""

    name: str
    type: TypeName
    default: Expr | None = None


class RecordDecl(Cited):
    """``record NAME "label" [cite] { field: type = default, … }``: a record type, built as ``NAME(field: value, …)``,
    its fields read ``r.field`` and set ``set r.field = …`` (language 3.1)."""

    kind: Literal["record_type"] = "record_type"
    name: str
    label: str | None = None
    fields: tuple[RecordField, ...] = ()

    def field(self, name: str) -> RecordField | None:
        return next((f for f in self.fields if f.name == name), None)


class Restriction(Cited):
    """A decision's options narrowed by an overlay (``restrict decision NAME to VAR where TEST``): an
    option of every ``choose NAME`` stays legal only where TEST holds with VAR bound to it. Written by
    overlays only (no rules-file syntax); ``by`` is the amendment that wrote it, ``reason`` what it says."""

    kind: Literal["restriction"] = "restriction"
    decision: str
    decision_span: Span
    var: str
    where: Expr
    reason: str
    by: str


class StepDecl(Cited):
    name: str
    body: tuple[Stmt, ...] = ()
    pending: bool = False
    does: bool = False  # its body written as the one procedure it runs ('= movement_phase(north)'): data (shape.py)
    needs: tuple[str, ...] = ()  # tables the step reads that may be missing


class PhaseDecl(Cited):
    name: str
    active: str | None = None
    steps: tuple[StepDecl, ...] = ()


class SequenceDecl(Cited):
    kind: Literal["sequence"] = "sequence"
    phases: tuple[PhaseDecl, ...] = ()


Decl = Annotated[
    Game | IncludeDecl | UseDecl | SettingDecl | StatDecl | FlagDecl | UnitStateDecl | FaceDecl | GameStateDecl | PlaceStateDecl | ViewDecl | HiddenDecl | LookDecl | ClassDecl | TypeDecl | CounterDecl | MapDecl | SecondaryMap | BoxDecl | TrackDecl | MissingDecl | Unencoded | TableDecl | FunctionDecl | ProcedureDecl | HookDecl | InvariantDecl | SequenceDecl
    | Restriction | CupDecl | RecordDecl | EnumerationDecl,
    Field(discriminator="kind"),
]


class Ruleset(IRModel):
    """A whole rules file, in source order."""

    model_config = ConfigDict(frozen=True, defer_build=True)
    file: str
    decls: tuple[Decl, ...]


# ─────────────────────────────── scenarios ───────────────────────────────


class PlaceDef(Node):
    shape: str
    id: str
    name: str | None = None  # 'named "…"': the rulebook's name of the place, for a person to read
    values: tuple[StatValue, ...] = ()
    note: str | None = None
    at: tuple[int, int] | None = None  # 'at X, Y': where a picture draws it (areas and points; grids compute it)


class Adjacency(Node):
    """``adjacent A B C`` (kind None) or ``edge trade_route A B``: A is linked to each of the others."""

    place: str
    neighbours: tuple[str, ...]
    kind: str | None = None


class BorderDef(Node):
    """``border C12 C13 { terrain: all_land }``: the values of the side between two neighbouring places."""

    a: str
    b: str
    values: tuple[StatValue, ...] = ()


class ExitDef(Node):
    """``exit 3 of gulf leads to s9 s10``: a numbered exit of a place (a sea zone's exit a die picks)."""

    place: str
    number: int
    to: tuple[str, ...]


class CoastDef(Node):
    """``coast mainland fort_a fort_b bay``: the places of a declared coast, in its order."""

    name: str
    places: tuple[str, ...]


MapData = BorderDef | ExitDef | CoastDef


class UnitDef(Node):
    id: str
    type: str
    type_span: Span
    side: str
    side_span: Span
    where: Literal["at", "aboard", "in"]
    location: str
    location_span: Span
    values: tuple[StatValue, ...] = ()
    note: str | None = None
    box_index: int | None = None  # `in BOX[N]`: a box of a per-turn box (a turn record track)


class TrackSet(Node):
    track: str
    side: str | None = None  # None on a track that is not per side
    value: int


class RunTarget(Node):
    step: str | None = None
    more_steps: tuple[str, ...] = ()  # 'run step a, b': the steps that follow, in order
    proc: str | None = None
    args: tuple[Arg, ...] = ()


class ScriptedDie(Node):
    value: int
    label: str | None = None


class ScriptedDraw(Node):
    """``draw NAME "label"?`` in a scenario's dice block: the chit drawn, or what a pick picks, by name."""

    chit: str
    label: str | None = None


class AnswerItem(IRModel):
    model_config = ConfigDict(frozen=True, defer_build=True)
    name: str
    die: int | None = None


class SplitItem(Node):
    """``NAME: POINTS`` of an answer that splits points among options."""

    name: str
    points: int


class Answer(Node):
    passes: bool = False
    items: tuple[AnswerItem, ...] = ()
    split: tuple[SplitItem, ...] = ()

    def text(self) -> str:
        if self.passes:
            return "pass"
        if self.split:
            return "{" + ", ".join(f"{s.name}: {s.points}" for s in self.split) + "}"
        return ", ".join(i.name + (f" die {i.die}" if i.die is not None else "") for i in self.items)


class Departure(Cited):
    """A scripted decision of a printed example that the rules refuse; ``cite`` names the rule."""

    tag: str
    reason: str
    instead: Answer | None = None


class Refusal(Cited):
    """``refused "TEXT" [cite]`` on a scripted decision: the rules must refuse the answer with a
    message holding TEXT (case ignored); the answer is never applied."""

    text: str


class Decision(Node):
    side: str
    name: str
    answer: Answer
    departure: Departure | None = None
    refusal: Refusal | None = None


class PrintedDeparture(Cited):
    """``departs TAG [cite] "REASON" printed EXPR`` on an expectation: the printed example claims
    EXPR, which the rules (the expectation) contradict; ``cite`` names the rule."""

    tag: str
    reason: str
    printed: Expr


class Expectation(Node):
    expr: Expr
    label: str | None = None
    departure: PrintedDeparture | None = None


class StepAt(Node):
    """``at turn T phase PHASE step STEP``: where in the sequence of play a scenario's position
    stands; ``at turn T`` alone leaves the phase and step unset (a game whose sequence of play
    is not written, or a scenario that runs a procedure or a table)."""

    turn: int  # 0 when the turn is given by its name (Setup reads it against the game's names)
    phase: str | None = None
    step: str | None = None
    turn_name: str | None = None  # 'at turn "Feb II"'


class Fixture(Cited):
    """``fixture "TEXT" [cite]``: a value the scenario supplies that the rulebook does not print."""

    text: str


class StandsIn(Cited):
    """``demo KIND NAME "TEXT" [cite]``: the scenario file's places or counters are invented demo data
    standing in for what the ruleset declares ``missing KIND NAME``; TEXT says what is invented."""

    what: str
    name: str
    text: str


class SidePlays(Node):
    """``SIDE plays AGENT`` in a scenario's decisions: the side's decisions are taken by that agent."""

    side: str
    agent: str
    agent_span: Span


class Scenario(Cited):
    file: str
    title: str
    uses: str
    uses_span: Span
    notes: tuple[str, ...] = ()
    fixtures: tuple[Fixture, ...] = ()
    places: tuple[PlaceDef, ...] = ()
    adjacency: tuple[Adjacency, ...] = ()
    map_data: tuple[MapData, ...] = ()  # borders, numbered exits and coasts the scenario's places blocks state
    units: tuple[UnitDef, ...] = ()
    at: StepAt | None = None
    until: int | None = None  # the last turn a game played from this set-up lasts
    tracks: tuple[TrackSet, ...] = ()
    states: tuple[StatValue, ...] = ()  # 'state NAME: VALUE': game states of the position
    run: RunTarget | None = None
    dice: tuple[ScriptedDie | ScriptedDraw, ...] = ()
    decisions: tuple[Decision, ...] = ()
    agents: tuple[SidePlays, ...] = ()  # sides whose decisions an agent takes (`red plays search`)
    expects: tuple[Expectation, ...] = ()
    overlays: tuple[FileRef, ...] = ()  # 'with "FILE"': overlays applied to the ruleset, relative to the scenario
    places_from: tuple[FileRef, ...] = ()  # 'places from "FILE"': a shared map, merged by load.py
    stands_in: tuple[StandsIn, ...] = ()  # 'demo map NAME "…"': invented data standing in (with a shared map's)
    stops: str | None = None  # 'stops "TEXT"': the run must stop with a message holding TEXT
    stops_cite: Citation | None = None


# Every model is built lazily (``defer_build``): pydantic makes a model's validator the first
# time one is constructed, not at import. Importing the IR is then cheap, which is what a command
# that never builds a node pays for (a ruleset served from the cache: unpickling does not
# validate); forward references (Expr, Stmt) are resolved at that first construction.
