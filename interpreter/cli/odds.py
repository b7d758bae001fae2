"""`umpire odds`: what was asked, how big it is, the answer, and what the answer rests on.

The header names the scenario, the ruleset and the overlays applied, what is measured (the
facts given with --fact, else those the scenario's expectations name, else every fact a path
records) and how decisions are taken. An estimate of the enumeration's size comes first, and a
question whose estimate passes --limit is refused at once, before any enumeration, naming the
Monte Carlo command that answers it; a roll that would take the enumeration past --limit is
refused before it is run. With --monte-carlo N the seeded runs then answer alone, with
confidence intervals. Where standard error is not a terminal, progress is written there as
lines (progress.Piped), so a piped answer is not silent for minutes.
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass, field

from .. import progress
from ..load import prepared_scenario, ready_scenario
from ..style import enabled, report_lines
from ..syntax.diagnostics import NO_SPAN, Diagnostic, Sources, UmpireError, did_you_mean, render


@dataclass
class OddsArgs:
    path: str
    facts: list[str] | None
    policy: str | None
    mc_runs: int | None
    seed: int
    limit: int
    overlays: list[str]
    replay: bool = False
    decide: list[str] | None = None
    no_exact: bool = False
    list_facts: bool = False
    all_facts: bool = False
    demo: bool = False
    allow: list[str] = field(default_factory=list)
    until: str | None = None  # a save's horizon (runtime/odds/from_position.py)
    start: object = None      # a save's position (FromPosition), once read: every run starts from it


# The runs the refusal's Monte Carlo command asks for: each share then within about 3 points (95%).
SUGGESTED_RUNS = 1000


def cmd_odds(a: OddsArgs) -> int:
    from ..runtime.odds.odds import OddsError, default_policy

    if a.until is not None:
        print("umpire: error: --until measures from a saved game's position (.toml); a scenario is measured from its "
              "set-up to the end of its run", file=sys.stderr)
        return 1
    sources = Sources()
    ready = ready_scenario(a.path, sources, a.overlays, a.demo)
    if ready is None:
        return 1
    scenario, loaded, _ = ready  # each run of the odds sets the scenario up on the engine it resets
    if a.list_facts:
        print("\n".join(list_facts(scenario, loaded.symbols, sources)))
        return 0
    try:
        decide = decide_answers(a.decide, loaded.symbols.sides)
        if a.mc_runs is not None and a.mc_runs < 1:
            raise OddsError(f"--monte-carlo takes a number of runs of at least 1, not {a.mc_runs}")
    except OddsError as err:
        print(f"umpire: error: {err.message}", file=sys.stderr)
        return 1
    policy = a.policy or default_policy(scenario)
    facts, measured = _measured(scenario, a.facts, a.all_facts)
    print("\n".join(_header(scenario, loaded.symbols, measured)), flush=True)
    try:
        return answer(a, scenario, loaded.symbols, sources, facts, policy, decide)
    except OddsError as err:
        print(render(Diagnostic("error", err.message, err.span or scenario.span, err.hint), sources, colour=enabled(sys.stderr)), file=sys.stderr)
        return 1


def answer(a: OddsArgs, scenario, sym, sources, facts, policy, decide) -> int:
    from ..runtime.odds.odds import TooLargeError, estimate, monte_carlo
    from ..runtime.odds.odds_report import report, report_sampled

    if policy not in _policies():
        from ..runtime.odds.odds import OddsError

        raise OddsError(f"unknown decision policy '{policy}'", f"the policies are {', '.join(_policies())}")
    piped = progress.Piped("odds")
    if not a.no_exact:
        guess = estimate(scenario, sym, sources, facts, policy, decide, start=a.start)
        print(estimate_line(guess, a.limit, a.replay), flush=True)
        try:
            refused = refusal(a, guess)
            if refused is not None:
                raise refused
            odds = enumerated(a, scenario, sym, sources, facts, policy, decide, piped)
        except TooLargeError as err:
            if not a.mc_runs:
                raise
            said = err.message if err.message.startswith("refused") else f"refused: {err.message}"
            print(f"exact: {said}", flush=True)
        else:
            mc = monte_carlo(scenario, sym, sources, odds.names, a.mc_runs, a.seed, policy, decide,
                             start=a.start) if a.mc_runs else None
            print(report_lines(report(odds, mc, decide), sys.stdout))
            return 0
    if not a.mc_runs:
        print("umpire: error: --no-exact needs --monte-carlo N", file=sys.stderr)
        return 1
    sampled = sampled_runs(a, scenario, sym, sources, facts, policy, decide, piped)
    print(report_lines(report_sampled(sampled, policy, decide), sys.stdout))
    return 0


def refusal(a: OddsArgs, guess):
    """The refusal of a question whose estimate passes --limit (outcomes to send on; dice paths with
    --replay), given before any enumeration: it names the Monte Carlo command that answers it."""
    from ..runtime.odds.odds import TooLargeError

    size, what = (guess.paths, "dice paths to replay") if a.replay else (guess.outcomes, "outcomes to send on")
    if size <= a.limit:
        return None
    return TooLargeError(
        f"refused before any enumeration: the estimate is about {_round(size)} {what}, more than --limit {a.limit}",
        f"seeded runs answer it, each share within about 3 points (95%): {monte_carlo_command(a)}; or measure fewer "
        f"facts (--fact), or start the scenario closer to the roll; positions that merge may make the enumeration "
        f"smaller than the estimate: a --limit above it tries it")


def monte_carlo_command(a: OddsArgs) -> str:
    """The command line that asks the same question of seeded runs instead."""
    words = ["umpire", "odds", a.path]
    words += ["--until", a.until] if a.until else []
    words += [w for fact in a.facts or () for w in ("--fact", fact)]
    words += ["--all-facts"] if a.all_facts else []
    words += ["--policy", a.policy] if a.policy else []
    words += [w for given in a.decide or () for w in ("--decide", given)]
    words += ["--demo"] if a.demo else []
    words += [w for overlay in a.overlays for w in ("--with", overlay)]
    words += [w for folder in a.allow for w in ("--allow-path", folder)]
    words += ["--seed", str(a.seed)] if a.seed != 1 else []
    return shlex.join(words + ["--monte-carlo", str(a.mc_runs or SUGGESTED_RUNS)])


def sampled_runs(a: OddsArgs, scenario, sym, sources, facts, policy: str, decide, piped: progress.Piped):
    """The Monte Carlo runs, their progress shown (a bar on a terminal, lines in a pipe)."""
    from ..runtime.odds.odds import sample

    with progress.counting(a.mc_runs, "monte carlo", " runs", piped) as update:
        return sample(scenario, sym, sources, facts, a.mc_runs, a.seed, policy, decide, tick=update, start=a.start)


def _policies():
    from ..runtime.odds.policies import POLICIES

    return POLICIES


def _measured(scenario, facts: list[str] | None, every: bool) -> tuple[list[str] | None, str]:
    from ..runtime.odds.odds import expected_facts

    if facts:
        return facts, "the facts named by --fact"
    named = [] if every else expected_facts(scenario)
    if every:
        return None, "every fact any path records (--all-facts)"
    if named:
        return named, "the facts the scenario's expectations name (--fact NAME to choose others)"
    return None, "every fact any path records (the scenario's expectations name none)"


def _header(scenario, sym, measured: str) -> list[str]:
    from ..overlay.apply import header_line

    lines = [f"odds: {scenario.title}" + (f" [{scenario.cite}]" if scenario.cite else ""), f"ruleset: {scenario.uses}"]
    lines += [header_line(sym.overlays)] if sym.overlays else []
    return lines + [f"measured: {measured}"]


def estimate_line(guess, limit: int, replay: bool = False) -> str:
    line = (f"estimate: about {_round(guess.paths)} dice paths; at most about {_round(guess.outcomes)} outcomes to send on "
            f"if no positions merge (Knuth's estimator, {guess.probes} sampled runs, {guess.seconds:.2f} s)")
    if (guess.paths if replay else guess.outcomes) > limit:
        line += f"; more than --limit {limit}"
    return line


def _round(x: float) -> str:
    if x >= 1e15:
        mantissa, exponent = f"{x:.1e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    if x < 1000:
        return f"{x:.0f}"
    for size, word in ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"), (1e3, "thousand")):
        if x >= size:
            return f"{x / size:.1f} {word}"
    return f"{x:.0f}"


def decide_answers(given: list[str] | None, sides=()) -> dict[str, str]:
    """The --decide answers by the decision they answer: 'NAME', or 'SIDE:NAME' for one side's."""
    from ..runtime.odds.odds import OddsError
    from ..runtime.odds.policies import decide_key

    out = {}
    for item in given or []:
        name, sep, answer = item.partition("=")
        side, colon, name = name.rpartition(":")
        if not sep or not name.strip() or not answer.strip() or (colon and not side.strip()):
            raise OddsError(f"--decide takes NAME=ANSWER or SIDE:NAME=ANSWER (as 'losses=ES1' or "
                            f"'red:activate=pass'), not '{item}'")
        if colon and side.strip().lower() not in {s.lower() for s in sides}:
            hint = did_you_mean(side.strip(), sides)
            raise OddsError(f"--decide {item}: '{side.strip()}' is not a side of this game (its sides: "
                            f"{', '.join(sides)})" + (f"; {hint}" if hint else ""))
        out[decide_key(side.strip() or None, name.strip())] = answer.strip()
    return out


def list_facts(scenario, sym, sources) -> list[str]:
    """Every fact the rules may record (their templates, with the rule), and those this scenario's
    runs record (twenty seeded runs), the ones its expectations name marked."""
    from ..ir import nodes as n
    from ..ir.visit import descendants
    from ..runtime.odds.odds import expected_facts, sample

    lines = ["recorded by the rules ({...} is filled in as the game is played):"]
    bodies = [d for kind in (sym.procedures, sym.functions, sym.tables) for d in kind.values()] + list(sym.hooks)
    records = [r for r in descendants(bodies) if isinstance(r, n.Record)]
    for r in sorted(records, key=lambda r: (r.key.value, r.span.file, r.span.line)):
        lines.append(f"  \"{r.key.value}\" [{r.cite}]  {r.span.file}:{r.span.line}")
    lines.append("  \"TABLE result\": every table read records the result its row gives")
    errors: list[str] = []
    sampled = sample(scenario, sym, sources, None, 20, 1, "script" if scenario.decisions else "first", errors=errors)
    named = expected_facts(scenario)
    lines.append("recorded by this scenario's run (20 seeded runs; * named by its expectations):")
    for name in sampled.names:
        lines.append(f"  {'*' if name in named else ' '} {name}")
    if errors:
        lines.append(f"  ({len(errors)} of the 20 runs stopped where a rule could not be applied; the facts they "
                     f"recorded before it are listed; the first: {errors[0]})")
    return lines


def enumerated(a: OddsArgs, scenario, sym, sources, facts, policy: str, decide, piped: progress.Piped | None = None):
    """The exact odds, by branching and merging positions or (--replay) by replaying every dice path;
    the work is shown (progress.py) per roll, or as the dice paths replayed: a bar on a terminal,
    lines on standard error in a pipe."""
    from ..runtime.odds.odds import exact_odds, replay_odds

    shown = progress.on_terminal() or piped is not None
    if not a.replay:
        bar = (lambda roll, total: progress.bar(total, f"roll {roll}", " outcomes", piped)) if shown else None
        return exact_odds(scenario, sym, sources, facts, policy, a.limit, bar, decide, start=a.start)
    with progress.counting(None, "replay", " dice paths", piped) as update:
        tick = (lambda runs, waiting: update(runs, waiting=waiting)) if shown else None
        return replay_odds(scenario, sym, sources, facts, policy, a.limit, tick, decide, start=a.start)


def json_odds(a) -> int:
    """`umpire odds --json`: what is measured and how, the estimate, the exact distribution (fractions
    and floats) or the Monte Carlo estimate, what the answer rests on, and the warnings."""
    from .. import report_json as rj
    from ..runtime.odds.odds import OddsError, default_policy

    if a.path.endswith(".toml"):
        return rj.stopped("odds", [Diagnostic("error", "--json answers a scenario's odds; a saved game's are printed "
                                              "(umpire odds SAVE.toml without --json)", NO_SPAN)], scenario=a.path)
    sources = Sources()
    try:
        scenario, loaded, _ = prepared_scenario(a.path, sources, a.overlays, a.demo)
    except UmpireError as err:
        return rj.stopped("odds", err.diagnostics, scenario=a.path)
    try:
        decide = decide_answers(a.decide, loaded.symbols.sides)
        if a.mc_runs is not None and a.mc_runs < 1:
            raise OddsError(f"--monte-carlo takes a number of runs of at least 1, not {a.mc_runs}")
    except OddsError as err:
        return rj.stopped("odds", [Diagnostic("error", err.message, NO_SPAN)], scenario=a.path)
    sym = loaded.symbols
    head = {"scenario": a.path, "title": scenario.title, "cite": str(scenario.cite) if scenario.cite else None,
            "ruleset": scenario.uses, "overlays": rj.overlays(sym.overlays)}
    if a.list_facts:
        rj.emit(rj.document("odds", **head, listed_facts=list_facts(scenario, sym, sources), exit=0))
        return 0
    facts, measured = _measured(scenario, a.facts, a.all_facts)
    policy = a.policy or default_policy(scenario)
    try:
        body, code = _odds_answer(a, scenario, sym, sources, facts, policy, decide)
    except OddsError as err:
        diag = Diagnostic("error", err.message, err.span or scenario.span, err.hint)
        return rj.stopped("odds", [diag], **head, measured=measured, policy=policy)
    rj.emit(rj.document("odds", **head, measured=measured, policy=policy, **body, exit=code))
    return code


def _odds_answer(a, scenario, sym, sources, facts, policy, decide) -> tuple[dict, int]:
    """The fields of the answer, as `_answer` prints them, and the exit code."""
    from .. import report_json as rj
    from ..runtime.odds.odds import OddsError, TooLargeError, estimate, monte_carlo, sample
    from ..runtime.odds.odds_report import largest_deviation, warnings

    if policy not in _policies():
        raise OddsError(f"unknown decision policy '{policy}'", f"the policies are {', '.join(_policies())}")
    body: dict = {}
    if not a.no_exact:
        guess = estimate(scenario, sym, sources, facts, policy, decide)
        body["estimate"] = {"paths": guess.paths, "outcomes": guess.outcomes, "probes": guess.probes,
                            "seconds": round(guess.seconds, 3), "limit": a.limit, "over_limit": refusal(a, guess) is not None}
        try:
            refused = refusal(a, guess)
            if refused is not None:
                raise refused
            odds = enumerated(a, scenario, sym, sources, facts, policy, decide)
        except TooLargeError as err:
            if not a.mc_runs:
                raise
            body["refused"] = err.message
        else:
            mc = monte_carlo(scenario, sym, sources, odds.names, a.mc_runs, a.seed, policy, decide) if a.mc_runs else None
            body |= {"decisions": _decisions(odds.policy, odds.seen, decide), "rests_on": odds.rests_on,
                     "unprinted": odds.unprinted, "exact": rj.exact(odds),
                     "warnings": warnings(odds.names, list(odds.outcomes), odds.seen)}
            if mc:
                body["monte_carlo"] = {"runs": sum(mc[0].values()), "seed": a.seed, "seconds": round(mc[1], 3),
                                       "largest_deviation": largest_deviation(odds, mc[0]),
                                       "facts": rj.sampled_counts(odds.names, mc[0], sum(mc[0].values()))}
            return body, 0
    if not a.mc_runs:
        return body | {"errors": [rj.diagnostic(Diagnostic("error", "--no-exact needs --monte-carlo N", NO_SPAN))]}, 1
    s = sample(scenario, sym, sources, facts, a.mc_runs, a.seed, policy, decide)
    runs = sum(s.counts.values())
    body |= {"decisions": _decisions(policy, s.seen, decide), "rests_on": s.rests_on,
             "monte_carlo": {"runs": runs, "seed": a.seed, "seconds": round(s.seconds, 3),
                             "facts": rj.sampled_counts(s.names, s.counts, runs)},
             "warnings": warnings(s.names, list(s.counts), s.seen)}
    return body, 0


def _decisions(policy: str, seen, decide) -> list[str]:
    """How the decisions were taken: the report's 'decisions:' lines, without the label."""
    from ..runtime.odds.odds_report import decisions

    return [line.removeprefix("decisions: ") for line in decisions(policy, seen, decide)]
