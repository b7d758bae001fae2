"""Scenarios run: script dice and decisions, run the target, check the expectations, write the report.

A scenario reproduces a rulebook's worked example (or a hand-made rule case). Its position is
built by setup.py, checked before it runs by check/scenario.py; the map's grid by grids/geometry.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...ir import nodes as n
from ...ir.symbols import Symbols
from ...ir.visit import descendants
from ...overlay.apply import header_line
from ...syntax.diagnostics import Diagnostic, Sources, Span
from ..common.requests import RuleError, ScriptError
from ..common.values import show
from ..execution.dice import ScriptedDice
from ..execution.engine import RULE_CHECKS_FAILED, Engine, Event
from ..execution.vm import Process
from ..world.fog import SideView
from .agents import ScriptedAgent
from .driver import Runner, Tried
from .setup import Setup


@dataclass
class Held:
    """One expectation and whether it held: a report's 'ok' or 'FAIL' line as data (umpire run --json)."""

    kind: str  # 'expect', 'stop' (the run stops as expected) or 'refusal' (the rules refuse an answer)
    text: str
    held: bool
    label: str | None = None
    why: str | None = None  # what the value was, or why it failed


@dataclass
class Outcome:
    """What ``umpire run`` prints and whether the scenario held."""

    lines: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)  # the trace, with the explanation when asked
    ok: bool = True
    failures: int = 0
    error: Diagnostic | None = None
    checks: list[Held] = field(default_factory=list)  # the expectations, as the lines under 'expectations:' print them
    departures: list[str] = field(default_factory=list)  # the lines under 'departures ...'
    notes: list[str] = field(default_factory=list)  # the notes printed before the trace
    fixtures: list[str] = field(default_factory=list)  # the values the scenario supplies (counted after the notes)
    stopped: str | None = None  # the rule error the scenario expects the run to stop on, when it did


def run_scenario(sc: n.Scenario, sym: Symbols, sources: Sources, explain: bool = False, detail: bool = True,
                 watch: Callable[[Engine, int], None] | None = None, side: str | None = None,
                 fixtures: bool = False, why_not: str | None = None, set_up: Setup | None = None) -> Outcome:
    """Run a scenario; its trace is the whole trace, or with ``detail=False`` the narration alone.
    ``set_up``: the scenario already set up on its engine (the front end's check did it, load.py): the
    run goes on from there, and the set-up is not run again.
    ``watch(engine, N)`` is called once the set-up is built (N = 0) and after each trace line N is
    written, while the engine's state is the position that line leaves (pictures, `umpire draw --at`).
    With ``side``, the trace is written as that side sees it (fog.py: hidden lines keep their rule).
    The values the set-up supplies are counted in one line before the trace, or with ``fixtures`` listed.
    With ``why_not`` (when explaining), each decision that leaves that option out notes the rule that
    removed it (removal.py)."""
    out = Outcome()
    engine = set_up.engine if set_up is not None else Engine(sym)
    engine.sources, engine.explain = sources, explain
    engine.check_departures = check_departures(sc)
    engine.why_not = why_not
    if side is not None:
        engine.viewer = SideView(engine, side)
    if watch is not None:
        engine.events = _Watched(engine, watch)
    out.events = engine.events
    setup = set_up if set_up is not None else Setup(engine, sc)
    out.lines.extend(_heading(sc, sym))
    runner = None
    try:
        if set_up is None:
            setup.run()
        if watch is not None:
            watch(engine, 0)
        out.lines.extend(_preamble(out, sc, setup, engine.viewer, fixtures))
        engine.state.facts.setdefault("departures", 0)
        engine.run_invariants()
        runner = Runner(engine, ScriptedDice(sc.dice), _scripted_agents(sc, sym, engine))
        runner.run(engine.run_to_end(target_parts(engine, sc)))
        runner.finish(sc.cite or "scenario")
        stopped = None
    except (RuleError, ScriptError) as err:
        message = _message(err)
        if not (isinstance(err, RuleError) and sc.stops is not None and sc.stops.lower() in message.lower()):
            _trace_into(out, engine.events, detail)
            out.ok = False
            out.error = Diagnostic("error", message, err.span or sc.span, err.hint)
            return out
        stopped = message  # the stop the scenario expects: the position at the stop is checked
    _trace_into(out, engine.events, detail)
    if stopped is not None:
        out.stopped = stopped
        out.lines.append(f"stopped: {stopped}")
    _departures(out, sc, engine.events, engine.compiler, sources)
    out.lines.append("expectations:")
    _expect_stop(out, sc, stopped)
    for exp in sc.expects:
        _expect(out, exp, engine.compiler, sources, engine.viewer)
    refusals = [d for d in sc.decisions if d.refusal is not None]
    _expect_refusals(out, refusals, runner.refusals if runner is not None else [], engine.viewer)
    total = len(sc.expects) + (sc.stops is not None) + len(refusals)
    met = total - out.failures
    out.lines.append(f"result: {met} of {total} expectations met" + ("" if out.ok else " -- FAILED"))
    return out


class _Watched(list):
    """The trace of an engine that tells a watcher of each line as it is written."""

    def __init__(self, engine: Engine, watch: Callable[[Engine, int], None]):
        super().__init__()
        self.engine, self.watch = engine, watch

    def append(self, event: Event) -> None:
        super().append(event)
        self.watch(self.engine, len(self))


def _heading(sc: n.Scenario, sym: Symbols) -> list[str]:
    """The scenario's title, the ruleset it uses and the overlays applied to it."""
    title = f"scenario: {sc.title}" + (f" [{sc.cite}]" if sc.cite else "")
    game = sym.game
    lines = [title, f"ruleset: {sc.uses}" + (f" ({game.title})" if game and game.title else "")]
    if sym.overlays:
        lines.append(header_line(sym.overlays))
    return lines


def _preamble(out: Outcome, sc: n.Scenario, setup: Setup, viewer: SideView | None = None,
              listed: bool = False) -> list[str]:
    """What the scenario notes of its position, the fixtures it writes out with their reasons, and the
    values its set-up supplies that the rulebook does not print: counted in one line, so the narration
    comes next (``listed``: one line each). For a side, without the lines that name a unit it does not see."""
    written = [fixture.text + (f" [{fixture.cite}]" if fixture.cite else "") for fixture in sc.fixtures]
    out.notes, out.fixtures = list(sc.notes) + setup.notes, list(setup.fixtures) + written
    values = list(setup.fixtures)
    if viewer is not None:
        out.notes = [x for x in out.notes if not viewer.hides(x, False)]
        out.fixtures = [x for x in out.fixtures if not viewer.hides(x, False)]
        values = [x for x in values if not viewer.hides(x, False)]
        written = [x for x in written if not viewer.hides(x, False)]
    lines = [f"note: {note}" for note in out.notes]
    if listed:
        return lines + [f"fixture: {f}" for f in values + written]
    return lines + [f"fixture: {f}" for f in written] + _fixture_count(values)


def _fixture_count(values: list[str]) -> list[str]:
    """The one line that stands for the set-up's fixtures (`umpire run --fixtures` lists them)."""
    if not values:
        return []
    return [f"fixtures: {len(values)} value{'s' if len(values) > 1 else ''} the rulebook does not print, supplied by the scenario's set-up "
            "(umpire run --fixtures lists them)"]


def _message(err: RuleError | ScriptError) -> str:
    """The error's message, with the rule it cites unless the message already names it."""
    cite = getattr(err, "cite", None)
    return err.message + (f" [{cite}]" if cite and f"[{cite}]" not in err.message else "")


def _expect_stop(out: Outcome, sc: n.Scenario, stopped: str | None) -> None:
    """The stop the scenario expects, if any: the run must have stopped."""
    if sc.stops is None:
        return
    why = f"  -- [{sc.stops_cite}]" if sc.stops_cite else ""
    if stopped is None:
        out.lines.append(f'  FAIL the run stops: "{sc.stops}"{why}  (it ran to its end)')
        out.ok = False
        out.failures += 1
    else:
        out.lines.append(f'  ok   the run stops: "{sc.stops}"{why}')
    out.checks.append(Held("stop", sc.stops, stopped is not None, None, None if stopped else "it ran to its end"))


def _expect_refusals(out: Outcome, entries: list[n.Decision], tried: list[Tried], viewer: SideView | None = None) -> None:
    """Each scripted answer marked ``refused "TEXT"``: the rules refused it with a message holding TEXT.
    In a side's view another side's answer is not shown (as in its trace), only whether it held."""
    found = {id(t.entry): t for t in tried}
    for entry in entries:
        t = found.get(id(entry))
        cite = f" [{entry.refusal.cite}]" if entry.refusal.cite else ""
        head = f'refused: {entry.side} {entry.name}: {entry.answer.text()} -- "{entry.refusal.text}"{cite}'
        if viewer is not None and (entry.side != viewer.side or viewer.hides(head, False)):
            _expect_hidden(out, "refusal", t is not None and t.held(), viewer)
            continue
        if t is not None and t.held():
            out.lines.append(f"  ok   {head}")
            out.checks.append(Held("refusal", head.removeprefix("refused: "), True))
            continue
        why = ("the rules never ask for this decision" if t is None else "the rules allow it" if t.reason is None
               else f"the rules refuse it otherwise: {t.reason}")
        out.lines.append(f"  FAIL {head}  ({why})")
        out.checks.append(Held("refusal", head.removeprefix("refused: "), False, None, why))
        out.ok = False
        out.failures += 1


def _expect(out: Outcome, exp: n.Expectation, comp, sources: Sources, viewer: SideView | None = None) -> None:
    """One expectation, evaluated in the final position: ok, or FAIL with what the value was (in a side's
    view, an expectation that reads what the side does not see shows only whether it held)."""
    text = _source_text(sources, exp.expr.span)
    try:
        held = comp.expr(exp.expr)({})
        status = "ok  " if held is True else "FAIL"
        detail = "" if held is True else f"  ({_what_was(comp, exp.expr, sources)})"
    except RuleError as err:
        status, detail = "FAIL", f"  ({err.message})"
        held = False
    if held is True and exp.departure is not None and _printed_holds(exp, comp):
        held, status = False, "FAIL"
        detail = (f"  (departure {exp.departure.tag}: the example's claim {_source_text(sources, exp.departure.printed.span)}"
                  f" holds too, so the rules do not depart from it)")
    if viewer is not None and viewer.hides_expectation(text, exp.expr):
        _expect_hidden(out, "expect", held is True, viewer)
        return
    label = f"  -- {exp.label}" if exp.label else ""
    out.lines.append(f"  {status} {text}{label}{detail}")
    out.checks.append(Held("expect", text, held is True, exp.label or None, detail.strip()[1:-1] or None))
    if held is not True:
        out.ok = False
        out.failures += 1


def _expect_hidden(out: Outcome, kind: str, held: bool, viewer: SideView) -> None:
    """An expectation the side may not read: whether it held, counted as any other."""
    out.lines.append(f"  {'ok  ' if held else 'FAIL'} {viewer.hidden_line()}")
    out.checks.append(Held(kind, viewer.hidden_line(), held))
    if not held:
        out.ok = False
        out.failures += 1


def _departures(out: Outcome, sc: n.Scenario, events: list[Event], comp, sources: Sources) -> None:
    """The departures of the example from the rules, each told once: those the trace told where they
    happened (the script's, the rule checks the example breaks) are named by their tag and rule; the
    printed results the rules contradict, found only now, are told in full."""
    traced = [e for e in events if e.kind == "departure"]
    tags = {e.text.split(":", 1)[0].removeprefix("departure ") for e in traced}
    printed = [_printed_line(exp, comp, sources) for exp in sc.expects
               if exp.departure is not None and not (exp.departure.tag in tags and reads_rule_checks(exp.departure.printed))]
    out.departures = [e.line() for e in traced] + printed
    if not out.departures:
        return
    head = "departures from the rules (the engine follows the rules):"
    named = list(dict.fromkeys(f"{e.text.split(':', 1)[0].removeprefix('departure ')} [{e.cite}]" for e in traced))
    out.lines.append(head + (f" {_and(named)}, told in the trace above" if named else ""))
    out.lines.extend(f"  {line}" for line in printed)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def check_departures(sc: n.Scenario) -> dict[str | None, tuple[str, str]]:
    """The rule checks the printed example is declared to break: an expectation's `departs TAG [rule]
    "why" printed EXPR` whose claim reads fact("rule checks failed") (the example shows the position as
    legal), by the departure's rule (None: any check). The engine traces such a failed check as the departure."""
    found = {}
    for exp in sc.expects:
        dep = exp.departure
        if dep is not None and reads_rule_checks(dep.printed):
            found[str(dep.cite) if dep.cite else None] = (dep.tag, dep.reason)
    return found


def reads_rule_checks(expr: n.Expr) -> bool:
    """Whether an expression reads fact("rule checks failed")."""
    return any(isinstance(x, n.CallExpr) and x.func == "fact" and x.args and isinstance(x.args[0].value, n.StrLit)
               and x.args[0].value.value == RULE_CHECKS_FAILED for x in descendants([expr]))


def _printed_line(exp: n.Expectation, comp, sources: Sources) -> str:
    """A printed example's claim the rules contradict, with what the rules give instead."""
    dep = exp.departure
    claim = dep.printed
    try:
        given = (f"by the rules {_source_text(sources, claim.left.span)} is {show(comp.expr(claim.left)({}))}"
                 if isinstance(claim, n.Compare) else "by the rules it does not hold")
    except RuleError as err:
        given = f"by the rules it cannot be read ({err.message})"
    cite = f"[{dep.cite}] " if dep.cite else ""
    return f"{cite}departure {dep.tag}: the example prints {_source_text(sources, claim.span)}; {given} ({dep.reason})"


def _printed_holds(exp: n.Expectation, comp) -> bool:
    """Whether the example's claim holds after all (then the rules agree with it: no departure)."""
    try:
        return comp.expr(exp.departure.printed)({}) is True
    except RuleError:
        return False


def _what_was(comp, expr, sources: Sources) -> str:
    """For a failed comparison, the value its left side had; otherwise the value itself."""
    if isinstance(expr, n.Compare):
        return f"{_source_text(sources, expr.left.span)} is {show(comp.expr(expr.left)({}))}"
    return f"got {show(comp.expr(expr)({}))}"


def _trace_into(out: Outcome, events: list[Event], detail: bool = True) -> None:
    told = events if detail else [e for e in events if not e.detail]
    hidden = len(events) - len(told)
    out.lines.append("trace:" + (f" (the narration; --detail adds {hidden} line(s): facts recorded, states set, decisions)"
                                 if hidden else ""))
    out.lines.extend(f"  {e.line()}" for e in told)


def _scripted_agents(sc: n.Scenario, sym: Symbols, engine: Engine | None = None) -> dict:
    """The script for every side, except a side the scenario says an agent plays (seeded with 1)."""
    agent = ScriptedAgent(sc.decisions)
    agents = {side: agent for side in sym.sides}
    for i, plays in enumerate(sc.agents):
        agents[plays.side] = _named_agent(plays, i + 1, engine)
    return agents


def _named_agent(plays: n.SidePlays, seed: int, engine: Engine | None):
    """`SIDE plays AGENT`: the search agent's rollouts play on to the end of the scenario's run."""
    from .agents import EagerAgent, FirstLegalAgent, RandomAgent
    from .search import GreedyAgent, Lookahead, SearchAgent, TreeSearchAgent

    searching = {"search": SearchAgent, "mcts": TreeSearchAgent, "greedy": GreedyAgent}
    if plays.agent in searching:
        return searching[plays.agent](seed, plays.side, Lookahead(engine, lambda horizon: iter(())))
    return {"random": RandomAgent, "eager": EagerAgent}.get(plays.agent, lambda s: FirstLegalAgent())(seed)


def run_target(engine: Engine, sc: n.Scenario):
    """The scenario's `run` target as one thing to drive by hand: one process, or steps in turn (a
    run drives its parts with `Engine.run_to_end`, where an `end game` goes on to the game's end)."""
    parts = target_parts(engine, sc)
    return parts[0]() if len(parts) == 1 else _in_turn(parts)


def _in_turn(parts: list[Callable[[], Process]]):
    for part in parts:
        yield from part()


def target_parts(engine: Engine, sc: n.Scenario) -> list[Callable[[], Process]]:
    """The `run` target as processes run one after another, each made when the one before has
    ended (exact odds branch inside each): a procedure or a table read is one; named steps are
    the turn's start (when the first is the turn's first step) and then each step."""
    run = sc.run
    if run.step is not None:
        return _step_parts(engine, sc, (run.step, *run.more_steps))
    args = [(a.name, engine.compiler.expr(a.value)({})) for a in run.args]
    if run.proc in engine.sym.tables:
        table = engine.table(run.proc)
        return [lambda: table.run(table.bind(args), table.decl.cite)]
    procedure = engine.procedure(run.proc)
    return [lambda: procedure.call(args)]


def _step_parts(engine: Engine, sc: n.Scenario, names: tuple[str, ...]) -> list[Callable[[], Process]]:
    """The named steps of the scenario's phase, one after the other."""
    phase, run = sc.at.phase if sc.at is not None else None, sc.run
    if phase is None:
        raise ScriptError("'run step' needs an 'at turn N phase P step S' line", run.span)
    steps = []
    for name in names:
        step = engine.sym.steps().get((phase, name))
        if step is None:
            raise ScriptError(f"phase '{phase}' has no step '{name}'", run.span)
        why = engine.not_playable(step)
        if why:
            raise ScriptError(f"step '{name}' [{step.cite}] is {why}" if step.pending else
                              f"step '{name}' [{step.cite}] {why}", run.span,
                              None if step.pending else "run it with a ruleset whose data file supplies the table")
        steps.append(step)
    # A turn begins with its first step: playing that step plays the turn's start as the game does.
    # (A scenario's position replaces the set-up, so `game_start` hooks never run here.)
    parts = [lambda: engine.game_event("turn_start")] if (phase, names[0]) == engine.first_step() else []
    return parts + [lambda step=step: engine.start_step(phase, step) for step in steps]


def _source_text(sources: Sources, span: Span) -> str:
    line = sources.line(span.file, span.line)
    if line is None:
        return "?"
    if span.end_line == span.line:
        return line[span.col - 1 : span.end_col - 1]
    return line[span.col - 1 :].rstrip()

