"""The odds panel: `umpire odds` on the scenario in front of the person, or on the position of the game
they play (the decision in front of them, optionally with one of its options chosen), worked out in a
thread of its own while the browser reads its progress.

A scenario's question is the command's default one (the facts the scenario's expectations name, decisions as
its script takes them); a game's is `umpire odds SAVE.toml`'s on the position a save would hold there
(every fact recorded to the horizon, decisions by the first legal option; the option chosen answers
the decision in front of the person, as `--decide SIDE:NAME=OPTION`). It is answered exactly when the estimate of the enumeration is within
limits.SERVE_ODDS_PATHS outcomes, else by limits.SERVE_ODDS_RUNS seeded runs with their 95%
intervals; the answer is the command's own report, line for line.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field

from ..limits import SERVE_KEPT_RUNS, SERVE_ODDS_PATHS, SERVE_ODDS_RUNS
from ..progress import Silent
from ..syntax.diagnostics import Diagnostic, Sources, UmpireError
from .workbench import Library, WorkbenchError


@dataclass
class Job:
    """One odds question: how far it has got, and its answer or the error that stopped it."""

    id: str
    path: str
    how: str = "estimating the size of the enumeration"
    done: int = 0
    total: int | None = None
    lines: list[str] = field(default_factory=list)
    error: dict | None = None
    over: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def state(self) -> dict:
        with self.lock:
            return {"id": self.id, "path": self.path, "how": self.how, "done": self.done, "total": self.total,
                    "lines": list(self.lines), "error": self.error, "over": self.over}

    def progress(self, how: str, done: int, total: int | None) -> None:
        with self.lock:
            self.how, self.done, self.total = how, done, total


class _Bar(Silent):
    """What the enumeration draws its progress on (progress.bar's shape), told to the job instead."""

    def __init__(self, job: Job, roll: int, total: int):
        super().__init__(total)
        self.job, self.roll = job, roll
        job.progress(f"exact: roll {roll}", 0, total)

    def update(self, steps: int = 1) -> None:
        super().update(steps)
        self.job.progress(f"exact: roll {self.roll}", self.n, self.total)


class Odds:
    """The odds questions asked (each answered once)."""

    def __init__(self, library: Library):
        self.library = library
        self.jobs: dict[str, Job] = {}
        self.ids = itertools.count(1)

    def get(self, job_id: str) -> Job:
        job = self.jobs.get(job_id)
        if job is None:
            raise WorkbenchError.saying(f"no odds question '{job_id}'", 404)
        return job

    def ask(self, path: str) -> Job:
        if not path.endswith(".scenario"):
            raise WorkbenchError.saying("the odds are those of a scenario's run, or of a game's position: open a "
                                        "scenario, or ask during a game")
        return self._started(Job(f"o{next(self.ids)}", path), lambda job, sources: self._worked_out(job, sources))

    def ask_game(self, table, choose: str | None, until: str) -> Job:
        """The odds of the position in front of the person playing ``table``, to the horizon ``until``;
        with ``choose`` (an option's name), the decision in front of them answered with it."""
        from ..runtime.odds.from_position import HORIZONS

        if until not in HORIZONS:
            raise WorkbenchError.saying(f"'until' is one of {', '.join(HORIZONS)}, not '{until}'")
        at = table.position()
        decision = at["decision"]
        if choose is not None and choose not in [o.get("name") for o in decision["options"]]:
            raise WorkbenchError.saying(f"'{choose}' is not an option of {decision['chooser']}'s '{decision['name']}'")
        question = _GameQuestion(table, at["standing"], decision, choose, until)
        return self._started(Job(f"o{next(self.ids)}", table.game[3]), question.worked_out)

    def _started(self, job: Job, work) -> Job:
        answered = [k for k, v in self.jobs.items() if v.over]
        for k in answered[:max(0, len(answered) - SERVE_KEPT_RUNS)]:  # the oldest answers are let go
            del self.jobs[k]
        self.jobs[job.id] = job
        threading.Thread(target=self._answer, args=(job, work), daemon=True, name=f"umpire-serve-{job.id}").start()
        return job

    def _answer(self, job: Job, work) -> None:
        from ..runtime.odds.from_position import PositionProblem
        from ..runtime.odds.odds import OddsError

        sources = Sources()
        try:
            with self.library.reading(job.path):
                lines = work(job, sources)
        except UmpireError as err:
            job.error = WorkbenchError(err.diagnostics, sources).as_json()
            lines = []
        except PositionProblem as err:
            job.error = WorkbenchError.saying(err.message).as_json()
            lines = []
        except OddsError as err:
            job.error = WorkbenchError([Diagnostic("error", err.message, err.span or _nowhere(), err.hint)], sources).as_json()
            lines = []
        except Exception as err:  # a bug in Umpire ends this question, never the workbench
            job.error = WorkbenchError.saying(f"internal error ({type(err).__name__}: {err}); this is a bug in Umpire, "
                                              "please report it", 500).as_json()
            lines = []
        with job.lock:
            job.lines, job.over = lines, True

    def _worked_out(self, job: Job, sources: Sources) -> list[str]:
        from ..load import prepared_scenario
        from ..runtime.odds.odds import TooLargeError, default_policy, estimate, exact_odds, expected_facts, sample
        from ..runtime.odds.odds_report import report, report_sampled

        scenario, loaded, _ = prepared_scenario(job.path, sources, [])
        sym = loaded.symbols
        facts = expected_facts(scenario) or None
        policy = default_policy(scenario)
        head = [f"odds: {scenario.title}" + (f" [{scenario.cite}]" if scenario.cite else "")]
        guess = estimate(scenario, sym, sources, facts, policy)
        head.append(f"estimate: about {guess.outcomes:.3g} outcomes to send on, {guess.paths:.3g} dice paths")
        if guess.outcomes <= SERVE_ODDS_PATHS:
            try:
                return head + report(exact_odds(scenario, sym, sources, facts, policy, SERVE_ODDS_PATHS,
                                                lambda roll, total: _Bar(job, roll, total)))
            except TooLargeError as err:  # positions merged less than the estimate hoped
                head.append(f"exact: {err.message}")
        head.append(f"more than {SERVE_ODDS_PATHS} outcomes to enumerate: {SERVE_ODDS_RUNS} seeded runs answer instead")
        job.progress("monte carlo", 0, SERVE_ODDS_RUNS)
        sampled = sample(scenario, sym, sources, facts, SERVE_ODDS_RUNS, 1, policy,
                         tick=lambda done: job.progress("monte carlo", done, SERVE_ODDS_RUNS))
        return head + report_sampled(sampled, policy)


def _nowhere():
    from ..syntax.diagnostics import NO_SPAN

    return NO_SPAN


class _GameQuestion:
    """The odds of a game's position, as `umpire odds SAVE.toml --until UNTIL [--decide SIDE:NAME=OPTION]`
    asks them of a save made at the decision in front of the person."""

    def __init__(self, table, standing: dict, decision: dict, choose: str | None, until: str):
        from ..runtime.odds.from_position import FromPosition

        self.table, self.decision, self.choose = table, decision, choose
        self.start = FromPosition(standing["position"], tuple(standing["goes_on"]["segment"]), until)
        self.decisions = standing.get("decisions", 0)

    def worked_out(self, job: Job, _sources: Sources) -> list[str]:
        from ..cli.odds import estimate_line
        from ..cli.odds_position import SavedGame, header, measured
        from ..runtime.execution.engine import Engine
        from ..runtime.odds.odds import TooLargeError, estimate, exact_odds, sample
        from ..runtime.odds.odds_report import report, report_sampled
        from ..runtime.odds.policies import decide_key

        setup, sym, sources, path = self.table.game
        decide = {decide_key(self.decision["chooser"], self.decision["name"]): self.choose} if self.choose else {}
        game = SavedGame(f"the game in play ({self.table.id})", self.table.title, self.table.ruleset, setup, sym,
                         self.decisions, self.start)
        req = self.start.pending(Engine(sym, sources), setup)
        head = header(game, req, measured(None))
        guess = estimate(setup, sym, sources, None, "first", decide, start=self.start)
        head.append(estimate_line(guess, SERVE_ODDS_PATHS))
        if guess.outcomes <= SERVE_ODDS_PATHS:
            try:
                return head + report(exact_odds(setup, sym, sources, None, "first", SERVE_ODDS_PATHS,
                                                lambda roll, total: _Bar(job, roll, total), decide, start=self.start),
                                     decide=decide)
            except TooLargeError as err:  # positions merged less than the estimate hoped
                head.append(f"exact: {err.message}")
        head.append(f"more than {SERVE_ODDS_PATHS} outcomes to enumerate: {SERVE_ODDS_RUNS} seeded runs answer instead")
        job.progress("monte carlo", 0, SERVE_ODDS_RUNS)
        sampled = sample(setup, sym, sources, None, SERVE_ODDS_RUNS, 1, "first", decide, start=self.start,
                         tick=lambda done: job.progress("monte carlo", done, SERVE_ODDS_RUNS))
        return head + report_sampled(sampled, "first", decide)
