"""The machine whose progress is data (issue 13): a stack of frames instead of nested generators.

A running body (a step, a procedure, a table's row, a hook) is a `CodeFrame`: the body's
instructions, where it stands (`pc`), its local values and its open loops. Work that waits
in the middle of Python (a table's roll, an elimination whose hooks run, a reroll window) is
a frame too, whose stage is a field. A `Process` is the stack; `send(answer)` runs it to its
next request (a roll or a decision) exactly as a generator would, so the driver drives both
alike, and the trace is the same line for line.

Bodies are lowered to flat instructions (`Lowering`, one `l_` method per statement kind that
waits or steers): statements that never wait run as the compiler's closures (`Do`), and a run of
them (with the `if`s and loops around only such) is also written as one Python function that the
run's first instruction calls (`Op.block`, generated_code.block), pc and steps kept as the
instructions keep them. A whole body is also one generated function that runs it from the frame's pc
(`Code.body`, generated_code.body), which `CodeFrame.advance` calls in place of stepping through the
instructions (`CodeFrame.instructions`, the reference; `Engine.BODIES = False`); `if`,
`for`, `repeat` and `stop` are jumps and cursors, `end game` raises `GameEnded` out of the process; `roll`, `draw`, `pick` and `choose`
suspend; `call` and `lookup` push frames. `umpire explain` reads its statement and calls from the frames
(`Process.where`). A position (the game state and this stack) is read out and put back by
runtime/position/position.py; `Code.live` tells its key which locals an instruction still to run reads.
"""

from __future__ import annotations

from typing import Any

from ...ir import citations
from ...ir import nodes as n
from ...ir.visit import descendants
from ...limits import MAX_PROCEDURE_DEPTH, MAX_REPEAT
from ..common.requests import ChoiceRequest, GameEnded, RollRequest, RuleError
from ..common.spread import Spread, spread_total
from ..common.values import Die, Pool, Unit, show
from . import generated_code
from .guards import over_budget, procedure_too_deep
from .labels import call_label, hook_label, table_label
from .operations import loop_items, times

_NAME_LENGTHS = {"procedure": 2, "step": 3, "invariant": 2, "hook": 3, "row": 4, "result": 3}  # a code key's parts
_DONE = object()  # a frame has finished
_PUSHED = object()  # an instruction pushed a frame: the process runs it next


class _Stop(Exception):
    """'stop' with no 'repeat' open in any frame (the checker prevents it)."""


# ───────────────────────────── frames ─────────────────────────────


class Frame:
    """What the process stack holds; `advance` runs it until it waits, pushes, or ends.

    `label` names the call a frame is, for `umpire explain` (``fire(ES1) [9.1]``; None for a
    frame that is not a call of its own, such as a table row's effect)."""

    label: str | None = None

    def advance(self, proc: Process) -> Any:
        raise NotImplementedError

    def resume(self, proc: Process, answer: Any) -> Any:
        return None

    def asked_again(self, proc: Process) -> Any:
        """The request this frame waits for, made again from what it holds (a loaded position)."""
        raise RuleError(f"a {type(self).__name__} does not wait for an answer", None)

    def finish(self, proc: Process) -> None:
        """The frame has ended: hand its result to whoever waits for it."""

    def abandon(self, proc: Process) -> None:
        """A 'stop' unwinds through the frame: undo what it holds open."""
        self.finish(proc)


class CodeFrame(Frame):
    __slots__ = ("code", "pc", "env", "loops", "done", "asked", "label")

    def __init__(self, code: Code, env: dict, done=None, label: str | None = None):
        self.code, self.pc, self.env, self.loops, self.done, self.asked, self.label = code, 0, env, [], done, None, label

    def advance(self, proc: Process) -> Any:
        body = self.code.body
        if body is not None:  # the body written as one function, run from pc (generated_code.body)
            return body(proc, self)
        return self.instructions(proc)

    def instructions(self, proc: Process) -> Any:
        """The body's instructions one by one from pc, until one waits or pushes a frame, or the body ends."""
        ops, engine, env = self.code.ops, proc.engine, self.env
        while self.pc < len(ops):
            op = ops[self.pc]
            if op.block is not None:  # statements that never wait, from here to the block's end: one function
                op.block(env, self)
                continue
            self.pc += 1
            engine.epoch += 1
            if op.counts:
                engine.steps += 1  # the run's step budget: a rule that never ends stops here
                if engine.steps > engine.max_steps:
                    raise over_budget(engine.max_steps, op.span, op.cite)
            fn = op.fn
            if fn is not None:  # a statement that never waits (Do): its closure, called here
                fn(env)
                continue
            r = op.run(proc, self)
            if r is not None:
                return r
        return _DONE

    def resume(self, proc: Process, answer: Any) -> Any:
        return self.code.ops[self.pc - 1].resume(proc, self, answer)

    def asked_again(self, proc: Process) -> Any:
        if self.asked is not None:  # a roll or a draw keeps its request
            return self.asked
        op = self.code.ops[self.pc - 1] if self.pc else None
        if not isinstance(op, Choose):
            raise RuleError("the position waits for an answer at no roll or decision", op.span if op else None)
        return op.request(self)  # the options are read again from the same position: the same request

    def finish(self, proc: Process) -> None:
        if self.done is not None:
            self.done(proc)

    def abandon(self, proc: Process) -> None:
        for loop in reversed(self.loops):
            if loop[0] == "together":
                proc.engine.deferred.pop()
        self.finish(proc)


def driven_on(proc: Process, answer: Any):
    """A waiting process driven on from `answer`, as a runner drives one (a loaded save, a rollout)."""
    while True:
        try:
            req = proc.send(answer)
        except StopIteration as stop:
            return stop.value
        answer = yield req


class Process:
    """A running body and everything it called, as a stack of frames; driven like a generator."""

    def __init__(self, engine, frame: Frame):
        self.engine = engine
        self.stack: list[Frame] = [frame]
        self.waiting = False
        self.result: Any = None

    def __iter__(self):
        return self

    def __next__(self):
        return self.send(None)

    def send(self, answer: Any) -> Any:
        self.engine.process = self  # the process a trace line is written by (`where` for explain)
        try:
            return self._send(answer)
        except BaseException:
            self.engine.process = None
            raise

    def pending(self) -> Any:
        """What a waiting process waits for, asked again from its top frame (a loaded position)."""
        if not self.waiting or not self.stack:
            raise RuleError("the position waits for no answer", None)
        return self.stack[-1].asked_again(self)

    def trigger(self) -> int | None:
        """For `umpire explain --why`: the line that made the innermost triggered frame run."""
        triggers = self.engine.triggers
        for f in reversed(self.stack):
            found = triggers.get(id(f))
            if found is not None and found[0] is f:
                return found[1]
        return None

    def where(self) -> tuple[Any, tuple[str, ...]]:
        """For `umpire explain`: the statement running (the innermost instruction begun) and the
        calls it runs in, outermost first."""
        span = next((f.code.ops[f.pc - 1].span for f in reversed(self.stack) if isinstance(f, CodeFrame) and f.pc), None)
        return span, tuple(f.label for f in self.stack if f.label is not None)

    def _send(self, answer: Any) -> Any:
        if self.waiting:
            self.waiting = False
            r = self.stack[-1].resume(self, answer)
            if r is not None and r is not _PUSHED:
                self.waiting = True
                return r
        while self.stack:
            top = self.stack[-1]
            r = top.advance(self)
            if r is _DONE:
                self.stack.pop()
                top.finish(self)
            elif r is not _PUSHED and r is not None:
                self.waiting = True
                return r
        raise StopIteration(self.result)

    def push(self, frame: Frame) -> Any:
        self.stack.append(frame)
        return _PUSHED

    def stop(self) -> None:
        """'stop': leave the innermost open 'repeat' or 'impulses' loop, whichever frame it is in."""
        top = self.unwind(("repeat", "impulses"))
        loop = top.loops.pop()
        top.pc = loop[2] if loop[0] == "repeat" else loop[5]

    def pass_impulse(self) -> list:
        """'pass': end the innermost impulse at once (the loops and frames inside it are left), marked
        as a pass; the frame goes on at the impulse's end. The loop is returned."""
        top = self.unwind(("impulses",))
        loop = top.loops[-1]
        loop[4] = True
        top.pc = loop[6]
        return loop

    def unwind(self, kinds: tuple[str, ...]) -> CodeFrame:
        """Leave frames and loops until the innermost loop of one of `kinds` is on top of its frame's loops."""
        while self.stack:
            top = self.stack[-1]
            if isinstance(top, CodeFrame) and any(loop[0] in kinds for loop in top.loops):
                while top.loops[-1][0] not in kinds:
                    if top.loops.pop()[0] == "together":
                        self.engine.deferred.pop()
                return top
            self.stack.pop()
            top.abandon(self)
        raise _Stop()


# ───────────────────────────── instructions ─────────────────────────────


class Op:
    """One instruction; `counts` when it begins a statement (the step budget, as the generators count)."""

    counts = True
    fn = None  # the closure of a statement that never waits (Do), which CodeFrame.advance calls itself
    block = None  # the run of statements beginning here written as one function (generated_code.block)

    def __init__(self, s=None):
        self.node = s  # the statement (liveness reads its names)
        self.span = s.span if s is not None else None
        self.cite = s.cite if s is not None else None

    def run(self, proc: Process, frame: CodeFrame) -> Any:
        raise NotImplementedError

    def resume(self, proc: Process, frame: CodeFrame, answer: Any) -> Any:
        return None


class Do(Op):
    """A statement that never waits, run by the compiler's closure of it; given `later` instead, the closure
    is made the first time it is needed (a statement inside a block, which runs it itself)."""

    def __init__(self, s, fn=None, later=None):
        super().__init__(s)
        self.fn, self.later = (fn, None) if later is None else (self.first, later)

    def closure(self):
        if self.later is not None:
            self.fn, self.later = self.later(), None
        return self.fn

    def first(self, env):
        self.closure()(env)

    def run(self, proc, frame):
        self.fn(frame.env)


class Test(Op):
    def __init__(self, s, test, orelse: int = -1):
        super().__init__(s)
        self.test, self.orelse = test, orelse

    def run(self, proc, frame):
        if not self.test(frame.env):
            frame.pc = self.orelse


class Jump(Op):
    counts = False

    def __init__(self, to: int = -1):
        super().__init__()
        self.to = to

    def run(self, proc, frame):
        frame.pc = self.to


class ForStart(Op):
    def __init__(self, s, iterable):
        super().__init__(s)
        self.iterable = iterable

    def run(self, proc, frame):
        frame.loops.append(["for", loop_items(self.iterable(frame.env), self.span), 0])


class TimesStart(Op):
    """``repeat N times`` opens as a 'for each' over 1…N, so a position holds it as it holds any loop."""

    def __init__(self, s, count):
        super().__init__(s)
        self.count = count

    def run(self, proc, frame):
        frame.loops.append(["for", list(range(1, times(self.count(frame.env), self.span) + 1)), 0])


class ForNext(Op):
    counts = False

    def __init__(self, var: str | None, end: int = -1):
        super().__init__()
        self.var, self.end = var, end

    def run(self, proc, frame):
        loop = frame.loops[-1]
        if loop[2] < len(loop[1]):
            if self.var is not None:  # a counted loop names no variable
                frame.env[self.var] = loop[1][loop[2]]
            loop[2] += 1
        else:
            frame.loops.pop()
            frame.pc = self.end


class RepeatStart(Op):
    """A loop opens: ``["repeat", rounds run, end]``; a loop of rounds (``as``, ``up to`` or a time
    unit's name) also holds its limit (None for none), and its count is then part of the game
    (position keys: the round's number is read by the rules and the unit's hooks)."""

    def __init__(self, s, limit=None, end: int = -1):
        super().__init__(s)
        self.limit, self.end = limit, end

    def run(self, proc, frame):
        s = self.node
        if s.var is None and s.limit is None and s.unit is None:
            frame.loops.append(["repeat", 0, self.end])
            return
        frame.loops.append(["repeat", 0, self.end, _limit(self.limit, frame.env, "repeat", "rounds", self.span)])


def _limit(limit, env: dict, loop: str, what: str, span) -> int | None:
    """A loop's 'up to' value, read once when the loop begins: a whole number, 0 or more (or no limit)."""
    value = limit(env) if limit is not None else None
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
        raise RuleError(f"'{loop} … up to' needs a whole number of {what}, 0 or more; it is {show(value)}", span)
    return value


class RepeatNext(Op):
    counts = False

    def __init__(self, s):
        super().__init__(s)

    def run(self, proc, frame):
        loop = frame.loops[-1]
        if loop[1] >= MAX_REPEAT:
            raise RuleError(f"this 'repeat' ran {MAX_REPEAT} times without reaching a 'stop'", self.span)
        if len(loop) > 3 and loop[3] is not None and loop[1] >= loop[3]:
            proc.engine.trace(self.cite, f"the last of {loop[3]} {self.node.unit or 'round'}(s) is over")
            frame.loops.pop()
            frame.pc = loop[2]
            return
        loop[1] += 1
        unit = self.node.unit
        if self.node.var is not None:
            frame.env[self.node.var] = loop[1]
        if self.node.var is not None or unit is not None:
            proc.engine.trace(self.cite, f"{unit or 'round'} {loop[1]}")
        if unit is not None:
            return _hooks(proc, f"{unit}_start", loop[1])
        return None


class UnitEnd(Op):
    """The end of one round of a named time unit (a 'repeat' or an impulse): its UNIT_end hooks."""

    counts = False

    def run(self, proc, frame):
        loop = frame.loops[-1]
        if loop[0] == "repeat":
            return _hooks(proc, f"{self.node.unit}_end", loop[1])
        loop[3] = loop[3] + 1 if loop[4] else 0  # the run of passes in a row
        return _hooks(proc, f"{self.node.unit}_end", loop[1][(loop[2] - 1) % len(loop[1])])


def _hooks(proc: Process, event: str, subject: Any) -> Any:
    """Run the hooks of a time unit's event next (their frames pushed above the loop's)."""
    frames = proc.engine.vm.hook_frames(event, subject)
    for f in reversed(frames):
        proc.push(f)
    return _PUSHED if frames else None


class ImpulsesStart(Op):
    """An 'impulses' loop opens: ``["impulses", seats, impulses run, passes in a row, this impulse
    passed, exit, end of an impulse, limit]``. The seats and the limit are read once, here."""

    def __init__(self, s, order, limit):
        super().__init__(s)
        self.order, self.limit, self.end, self.impulse_end = order, limit, -1, -1

    def run(self, proc, frame):
        seats = self.order(frame.env)
        if not isinstance(seats, list):
            raise RuleError(f"'impulses' goes round a list of seats, not {show(seats)}", self.span)
        limit = _limit(self.limit, frame.env, "impulses", "impulses", self.span)
        frame.loops.append(["impulses", list(seats), 0, 0, False, self.end, self.impulse_end, limit])


class ImpulseNext(Op):
    """The next seat's impulse, unless every seat has passed in a row or the limit is reached."""

    counts = False

    def run(self, proc, frame):
        loop = frame.loops[-1]
        seats, unit = loop[1], self.node.unit
        ended = None
        if not seats:
            ended = "no seat takes part"
        elif loop[3] >= len(seats):
            ended = f"all {len(seats)} seat(s) passed in a row"
        elif loop[7] is not None and loop[2] >= loop[7]:
            ended = f"the last of {loop[7]} {unit}(s) is over"
        elif loop[2] >= MAX_REPEAT:
            raise RuleError(f"these impulses ran {MAX_REPEAT} times without every seat passing in a row", self.span)
        if ended is not None:
            proc.engine.trace(self.cite, f"{ended}: the '{unit}' loop ends")
            frame.loops.pop()
            frame.pc = loop[5]
            return None
        seat = seats[loop[2] % len(seats)]
        loop[2] += 1
        loop[4] = False
        frame.env[self.node.var] = seat
        proc.engine.trace(self.cite, f"{unit} {loop[2]}: {show(seat)}")
        return _hooks(proc, f"{unit}_start", seat)


class Pass(Op):
    def run(self, proc, frame):
        loop = proc.pass_impulse()
        proc.engine.trace(self.cite, f"{show(loop[1][(loop[2] - 1) % len(loop[1])])} passes")


class StopWhen(Op):
    """``stop when COND "WHY"``: when COND holds, the reason is traced and the innermost repeat ends."""

    def __init__(self, s, test, why):
        super().__init__(s)
        self.test, self.why = test, why

    def run(self, proc, frame):
        if self.test(frame.env):
            proc.engine.trace(self.cite, f"the loop ends: {self.why(frame.env)}" if self.why is not None else "the loop ends")
            proc.stop()


class Stop(Op):
    def run(self, proc, frame):
        proc.stop()


class EndGame(Op):
    """``end game "WHY"``: the reason traced, then the game is over: whoever runs it goes on to its end."""

    def __init__(self, s, why):
        super().__init__(s)
        self.why = why

    def run(self, proc, frame):
        why = self.why(frame.env)
        proc.engine.trace(self.cite, f"the game ends: {why}")
        raise GameEnded(why, any(isinstance(f, CodeFrame) and f.code.name[:2] == ("hook", "game_end") for f in proc.stack))


class Return(Op):
    """'return': the value goes where the call that pushed this frame receives it (its 'let'
    variable in the caller's locals, or the process's result), then the frame ends at once:
    its open loops are closed, and what a 'simultaneously' held back is eliminated first."""

    def __init__(self, s, value):
        super().__init__(s)
        self.value = value

    def run(self, proc, frame):
        if self.value is not None:
            _give(proc, frame, self.value(frame.env))
        queued = []
        for loop in reversed(frame.loops):
            if loop[0] == "together":
                queued.extend(proc.engine.deferred.pop())
        frame.loops.clear()
        frame.pc = len(frame.code.ops)
        if queued:
            return proc.push(QueuedEliminations(queued))
        return None


def _give(proc: Process, frame: CodeFrame, value: Any) -> None:
    """A procedure's returned value to its caller: the frame under it, if it waits at a 'let … = call'."""
    stack = proc.stack
    below = stack[stack.index(frame) - 1] if stack.index(frame) > 0 else None
    op = below.code.ops[below.pc - 1] if isinstance(below, CodeFrame) and below.pc else None
    if isinstance(op, Call):
        if op.result is not None:
            below.env[op.result] = value
    elif below is None:
        proc.result = value


class Roll(Op):
    def __init__(self, s, ask, receive):
        super().__init__(s)
        self.ask, self.receive = ask, receive

    def run(self, proc, frame):
        req = self.ask(frame.env)
        if not req.count:
            self.receive(frame.env, req, [])
            return None
        frame.asked = req
        return req

    def resume(self, proc, frame, answer):
        req, frame.asked = frame.asked, None
        self.receive(frame.env, req, answer)


class Draw(Roll):
    """A draw from a cup or a pick at random: asked as a roll is, unless chance has no part in it."""

    def run(self, proc, frame):
        req = self.ask(frame.env)
        if req.forced is not None:
            self.receive(frame.env, req, req.forced)
            return None
        frame.asked = req
        return req


class Choose(Op):
    def __init__(self, s, ask, secret: bool = False):
        super().__init__(s)
        self.ask, self.name, self.secret = ask, s.name, secret

    def run(self, proc, frame):
        return self.request(frame)

    def request(self, frame):
        req = self.ask(frame.env)
        req.secret = self.secret  # the answer's line waits in the open 'secretly' block (SecretOpen) until revealed
        return req

    def resume(self, proc, frame, answer):
        frame.env[self.name] = answer


class Call(Op):
    def __init__(self, s, args):
        super().__init__(s)
        self.proc, self.args, self.result = s.proc, args, s.result

    def run(self, proc, frame):
        engine = proc.engine
        procedure = engine.procedure(self.proc)
        if engine.depth >= MAX_PROCEDURE_DEPTH:
            raise procedure_too_deep(self.proc, procedure.decl.cite, self.span)
        values = [(k, fn(frame.env)) for k, fn in self.args]
        procedure.check_supplied()
        if self.result is not None:  # 'let … = call': none until the procedure returns a value
            frame.env[self.result] = None
        engine.depth += 1
        return proc.push(engine.vm.procedure_frame(procedure, values, leave_call))


def leave_call(proc: Process) -> None:
    proc.engine.depth -= 1


class Lookup(Op):
    def __init__(self, s, args):
        super().__init__(s)
        self.table, self.args, self.name = s.table, args, s.name

    def run(self, proc, frame):
        table = proc.engine.table(self.table)
        values = table.bind([(k, fn(frame.env)) for k, fn in self.args])
        return proc.push(proc.engine.vm.table_frame(table, values, self.cite, (frame.env, self.name)))


class Eliminate(Op):
    def __init__(self, s, units, because):
        super().__init__(s)
        self.units, self.because = units, because

    def run(self, proc, frame):
        engine = proc.engine
        units = engine.as_units(self.units(frame.env), self.span)
        return proc.push(EliminateFrame(units, self.because(frame.env), self.cite))


class Reroll(Op):
    def __init__(self, s, pools, order, spend):
        super().__init__(s)
        self.pools, self.order, self.spend, self.side_var = pools, order, spend, s.side_var

    def run(self, proc, frame):
        engine, span = proc.engine, self.span
        sides = _as_list(self.order(frame.env), "the order of a reroll window", span)
        for side in sides:
            engine.require_side(side, span)
        pool_list = _as_list(self.pools(frame.env), "the dice of a reroll window", span)
        return proc.push(RerollFrame(pool_list, sides, (self.spend, dict(frame.env), self.side_var), self.cite, span))


class Together(Op):
    """'simultaneously': eliminations inside wait until the block ends (`TogetherEnd`)."""

    def run(self, proc, frame):
        proc.engine.deferred.append([])
        frame.loops.append(["together"])


class TogetherEnd(Op):
    """The end of 'simultaneously': what it held back is eliminated (still within its statement)."""

    counts = False

    def run(self, proc, frame):
        frame.loops.pop()
        queued = proc.engine.deferred.pop()
        if queued:
            return proc.push(QueuedEliminations(queued))


class SecretOpen(Op):
    """'secretly': the block's answers are held, unannounced, in its loop entry until `SecretReveal`."""

    def run(self, proc, frame):
        frame.loops.append(["secret", []])


class SecretReveal(Op):
    """The end of 'secretly': every answer of the block is announced, together."""

    counts = False

    def run(self, proc, frame):
        proc.engine.reveal(self.cite, frame.loops.pop()[1])


def _as_list(v, what, span) -> list:
    if not isinstance(v, (list, tuple)):
        raise RuleError(f"{what} must be a list, not {show(v)}", span)
    return list(v)


# ───────────────────────────── frames of engine work that waits ─────────────────────────────


class TableFrame(Frame):
    """A table read: roll (suspends), modifiers, the row, then the row's effect and its result's."""

    def __init__(self, table, env: dict, cite, result_to: tuple[dict, str] | None = None):
        self.table, self.env, self.cite, self.result_to = table, env, cite, result_to
        self.stage, self.result = "roll", None

    def advance(self, proc):
        t = self.table
        if self.stage == "roll":
            self.column, self.heading, automatic = t.column(self.env)
            if automatic is not None:  # beyond the columns, a result of the table read with no roll (8.3)
                self.give(proc, automatic)
                return self.advance(proc)
            if self.column is None:
                return _DONE
            d = t.decl
            self.stage = "rolled"
            if d.read_at is not None:  # read at a value the rules have: no roll, the row is found now
                self.read(proc, t.key(self.env), "read at")
                return self.advance(proc)
            count, cite = t.count(self.env), d.roll_cite or self.cite
            proc.engine.count_steps(count, d.span, cite)  # each die rolled is a step, as a roll statement's
            return RollRequest(count, t.die.low, t.die.high, t.die.name, d.name, cite, d.span)
        if self.stage == "row":
            self.stage = "declared"
            return proc.push(_triggered(proc.engine, CodeFrame(self.effect, dict(self.env))))
        if self.stage == "declared" and self.declared is not None:
            self.stage = "end"
            env = {**self.env, **getattr(self, "given", {})}  # a declared result's parameters, named by the cell
            return proc.push(_triggered(proc.engine, CodeFrame(self.declared, env)))
        return _DONE

    def resume(self, proc, faces):
        if faces.__class__ is Spread:  # exact odds keep the roll as a distribution: its total read (common/spread.py)
            return self.read(proc, spread_total(faces, self.table.decl.name), "roll")
        return self.read(proc, sum(faces), "roll")

    def read(self, proc, raw: int, how: str):
        """The row the roll (or the value a 'read at' table is read at) finds, traced; its effects run next."""
        t, d, eng = self.table, self.table.decl, proc.engine
        total, mods = t.modified(raw, self.env)
        index = t.index(total)
        more = t.more_keys(self.env)  # the further keys of a table read at two values (8.6)
        if index is None or None in more:
            eng.trace(d.beyond_cite, f"{d.name}: {self.heading}{how} {raw}{mods} = {total}{_also(more)}, beyond the table: no effect")
            self.stage = "end"
            return None
        row = t.row(index, more)
        shown = f"{total}" + (f" (read as {index} [{d.beyond_cite}])" if index != total else "")
        result = row.cell(self.column)
        if result == "?":
            t.unprinted(row, [index, *more], self.column)
        declared = next((r for r in d.results if r.name == result), None)
        named = row.label or (declared.label if declared else None) or f"{result}"
        read = f"{how} {raw}{mods}" + ("" if how == "read at" and shown == f"{raw}" else f" = {shown}") + _also(more)
        eng.trace(row.cite, f"{d.name}: {self.heading}{read} -> {named}")
        eng.state.facts[f"{d.name} result"] = result
        vm = eng.vm
        self.effect = vm.block(("row", d.name, row.low, row.high, *(k for pair in row.more for k in pair)), row.effect)
        self.declared = vm.block(("result", d.name, result), declared.effect) if declared is not None else None
        self.given = t.given(row, self.column, declared, self.env)
        self.result, self.stage = result, "row"
        return None

    def give(self, proc, result: str):
        """A result given beyond the columns with no roll (traced by the table): its fact, then its
        declared effect, as a cell's."""
        d, eng = self.table.decl, proc.engine
        eng.state.facts[f"{d.name} result"] = result
        declared = next((r for r in d.results if r.name == result), None)
        self.declared = eng.vm.block(("result", d.name, result), declared.effect) if declared is not None else None
        self.result, self.stage = result, "declared"

    def finish(self, proc):
        if self.result_to is not None:  # the lookup's variable, in the frame that looked up
            env, name = self.result_to
            env[name] = self.result
        else:
            proc.result = self.result


def _also(keys: list) -> str:
    """The further keys of a table read at two values, as the trace shows them after the first (', 3')."""
    return "".join(f", {k}" for k in keys)


def _triggered(engine, frame: Frame) -> Frame:
    """A row's effect runs because of the row's line (explain --why)."""
    engine.note_trigger(frame)
    return frame


class EliminateFrame(Frame):
    """Units eliminated one after another, each one's `on eliminated` hooks run before the next."""

    def __init__(self, units: list, because, cite):
        self.units, self.because, self.cite, self.i, self.hooked = list(units), because, cite, 0, None

    def advance(self, proc):
        eng = proc.engine
        if self.hooked is not None:  # its hooks have run: what it carried stays where it was
            u, self.hooked = self.hooked, None
            for c in list(u.cargo):
                eng._detach(c)
                eng.mark(c)
                eng.trace(self.cite, f"{c} was aboard {u}; no rule removes it, so it stays in {c.location}", "move")
        if self.i == 0 and eng.deferred:
            eng.deferred[-1].append((self.units, self.because, self.cite))
            return _DONE
        while self.i < len(self.units):
            u = self.units[self.i]
            self.i += 1
            if u.location is None or u.location.is_box:
                continue  # already gone (for instance as cargo of a unit eliminated first)
            why = f" ({self.because})" if self.because else ""
            eng.mark(u)
            eng.trace(self.cite, f"{u} is eliminated{why}", "eliminate")
            eng._detach(u)
            u.location = None
            self.hooked = u
            hooks = eng.vm.hook_frames("eliminated", u)
            if hooks:
                proc.stack.extend(reversed(hooks))
                return _PUSHED
            return self.advance(proc)
        return _DONE


class QueuedEliminations(Frame):
    """The eliminations a 'simultaneously' block held back, carried out in order at its end."""

    def __init__(self, queued: list):
        self.queued, self.i = queued, 0

    def advance(self, proc):
        if self.i >= len(self.queued):
            return _DONE
        units, because, when = self.queued[self.i]
        self.i += 1
        return proc.push(EliminateFrame(units, because, when))


class RerollFrame(Frame):
    """Sides in order may each spend a unit to void one die and reroll it, until all pass."""

    def __init__(self, pools: list, sides: list, spend: tuple, cite, span):
        self.pools, self.sides, self.spend, self.cite, self.span = pools, sides, spend, cite, span
        self.passes, self.i, self.spent, self.stage, self.voided = 0, 0, [], "ask", None

    def spendable(self, side) -> list:
        """What a side may spend: the window's expression with the side bound (its env is a copy)."""
        spend, local, side_var = self.spend
        local[side_var] = side
        return [u for u in _as_list(spend(local), "what a side may spend", self.span) if isinstance(u, Unit)]

    def advance(self, proc):
        if self.stage == "reroll":  # the spent unit is eliminated: roll the voided die again
            self.stage = "rerolled"
            return self._roll()
        while self.passes < len(self.sides):
            side = self.sides[self.i % len(self.sides)]
            self.i += 1
            can_spend = [u for u in self.spendable(side) if u.location is not None and not u.location.is_box and u.id not in self.spent]
            if not can_spend or not any(isinstance(p, Pool) and p for p in self.pools):  # nothing to spend, or no die
                self.passes += 1
                continue
            self.side, self.can_spend, self.stage = side, can_spend, "asked"
            return self._choice()
        return _DONE

    def _roll(self) -> RollRequest:
        pool, k, _old = self.voided
        die_name, low, high = pool.die
        return RollRequest(1, low, high, die_name, f"reroll of {pool.label} die {k + 1}", self.cite, self.span)

    def _choice(self) -> ChoiceRequest:
        options = [(p, k) for p in self.pools if isinstance(p, Pool) for k in range(len(p))]
        return ChoiceRequest(chooser=self.side, name="reroll", mode="reroll", options=options, cite=self.cite, span=self.span,
                             optional=True, prompt="spend a unit to void one die and reroll it", spend={self.side: self.can_spend})

    def asked_again(self, proc):
        if self.stage == "asked":
            return self._choice()
        if self.stage == "rerolled":
            return self._roll()
        return super().asked_again(proc)

    def resume(self, proc, answer):
        eng = proc.engine
        if self.stage == "rerolled":
            pool, k, old = self.voided
            face = answer[0]
            pool[k] = Die(face, pool.label, old.history + (int(old),))
            eng.trace(self.cite, f"reroll of {pool.label} die {k + 1}: {int(old)} -> {face}; {pool.label} is now {show(pool)}", "reroll")
            self.stage = "ask"
            return None
        if answer is None:
            self.passes += 1
            eng.trace(self.cite, f"{self.side} passes (may spend {', '.join(map(str, self.can_spend))})", "reroll")
            self.stage = "ask"
            return None
        self.passes = 0
        (pool, k), unit = answer
        self.spent.append(unit.id)
        old = pool[k]
        eng.trace(self.cite, f"{self.side} spends {unit} to void {pool.label} die {k + 1} ({int(old)})", "reroll")
        self.voided, self.stage = (pool, k, old), "reroll"
        return proc.push(EliminateFrame([unit], "expended", self.cite))


def _liveness(ops: list[Op]) -> list[frozenset[str]]:
    """For each instruction, the names any instruction that can run from it on reads.

    Every jump goes forward, or back to the top of the loop it closes, so what can run from an
    instruction is everything after the top of the outermost loop around it: the names read
    there are a safe (larger) answer, with no flow analysis. A statement reads every name
    written in it (a target's included, as `set` looks it up first)."""
    reads = [frozenset(x.name for x in descendants([op.node]) if isinstance(x, n.Var)) if op.node is not None
             else frozenset() for op in ops]
    first = list(range(len(ops)))
    for i, op in enumerate(ops):
        if isinstance(op, Jump) and op.to < i:  # a loop: [op.to, i]
            for k in range(op.to, i + 1):
                first[k] = min(first[k], op.to)
    suffix = [frozenset()] * (len(ops) + 1)
    for i in range(len(ops) - 1, -1, -1):
        suffix[i] = suffix[i + 1] | reads[i]
    return [suffix[first[i]] for i in range(len(ops))]


# ───────────────────────────── lowering ─────────────────────────────


class Code:
    """A body as flat instructions, and as one generated function that runs them from a frame's pc
    (`body`, generated_code.body; None: the machine runs the instructions)."""

    __slots__ = ("name", "ops", "_live", "body")

    def __init__(self, name, ops: list[Op], body=None):
        self.name, self.ops, self._live, self.body = name, ops, None, body

    def live(self, pc: int) -> frozenset[str]:
        """The locals an instruction still to run may read, for a frame at `pc` (the instruction
        begun included: a roll's or a call's, which reads its locals when answered). What the
        key of a position keeps of a frame's locals."""
        if self._live is None:
            self._live = _liveness(self.ops)
        return self._live[pc - 1] if 0 < pc <= len(self.ops) else self._live[0] if pc == 0 and self.ops else frozenset()


_TAILS = ("if", "for")  # statements that wait whose first instruction a block may run (generated_code.block)


def straight(s) -> bool:
    """A statement that never waits and never leaves its own lines: one the compiler's closure runs
    (`Do`), or an `if`, a `for each` or a `repeat … times` holding only such statements."""
    if s.kind == "if":
        return all(map(straight, s.body)) and all(map(straight, s.orelse))
    if s.kind in ("for", "repeat_times"):
        return all(map(straight, s.body))
    return not hasattr(Lowering, "l_" + s.kind)


def rule_name(key: tuple) -> str:
    """What a body's generated code is named after: a procedure's name, else the kind of body and what
    names it (`step_movement_march`, `hook_battle_0`, `row_crt_3_4`)."""
    words = key[1:] if key[0] == "procedure" else key
    return "_".join(str(w) for w in words)


class Lowering:
    """Bodies to instructions, one method per statement kind that waits or steers (`l_` + kind);
    every other statement runs as the compiler's closure."""

    def __init__(self, engine):
        self.engine = engine
        self.comp = engine.compiler
        self.codes: dict[Any, Code] = {}
        # Runs of statements that never wait are also written as one Python function each (generated_code.block).
        self._first: dict[int, tuple[Any, int]] = {}  # id of a statement lowered -> (it, its first instruction)
        self._fusing = True  # off while a statement already inside a run is lowered
        self._tail = None  # the statement that waits being lowered right after a run (its tail)
        self._runs: list[tuple] = []  # runs whose blocks wait for the body: written only where the machine runs them

    # ── entry points: a Process the driver runs like a generator ──
    def call(self, procedure, args) -> Process:
        procedure.check_supplied()
        return Process(self.engine, self.procedure_frame(procedure, args))

    def table_run(self, table, env: dict, cite) -> Process:
        return Process(self.engine, self.table_frame(table, env, cite))

    def procedure_frame(self, procedure, args, done=None) -> CodeFrame:
        env = procedure.bind(args)
        label = call_label(procedure.decl, env, procedure.params) if self.engine.explain else None
        return CodeFrame(self.code_of(procedure), env, done, label)

    def table_frame(self, table, env: dict, cite, result_to=None) -> TableFrame:
        frame = TableFrame(table, env, cite, result_to)
        if self.engine.explain:
            frame.label = table_label(table.decl, env, table.params)
        return frame

    def step(self, phase: str, step: n.StepDecl) -> Process:
        return Process(self.engine, CodeFrame(self.block(("step", phase, step.name), step.body, step.cite), {}))

    def invariant(self, inv: n.InvariantDecl) -> Process:
        return Process(self.engine, CodeFrame(self.block(("invariant", inv.name), inv.body, inv.cite), {}))

    def event(self, event: str) -> Process:
        proc = Process(self.engine, None)
        proc.stack = list(reversed(self.hook_frames(event)))
        return proc

    # ── code ──
    def block(self, key, stmts, cite=None) -> Code:
        """The code of a body, lowered once; its statements run under their effective citations."""
        code = self.codes.get(key)
        if code is None:
            ops: list[Op] = []
            outer, self.comp.rule = self.comp.rule, rule_name(key)
            lowering = (self._first, self._fusing, self._tail, self._runs)
            self._first, self._fusing, self._tail, self._runs = {}, True, None, []
            try:
                stmts = citations.effective(stmts, cite) if cite is not None else stmts
                self.emit(stmts, ops)
                body = self.body(stmts, ops)
            finally:  # a body lowered while another is lowered leaves the other's runs as they were
                self.comp.rule = outer
                self._first, self._fusing, self._tail, self._runs = lowering
            code = self.codes[key] = Code(key, ops, body)
        return code

    def body(self, stmts, ops: list[Op]):
        """The body written as one function that runs it from a frame's pc (generated_code.body), where runs
        are written as blocks and bodies are not turned off (`Engine.BODIES = False`). The runs the body
        leaves to the machine (generated_code.body's `left`) are written as blocks for it, the others not."""
        if not self.bodies():
            return None
        fn, left = generated_code.body(self.comp, ops, stmts, self._first, straight, CodeFrame.instructions, _DONE)
        for run, end, tail in self._runs:
            if fn is None or run[0][1] in left:
                self.write_block(run, end, ops, tail)
        return fn

    def bodies(self) -> bool:
        return self.engine.bodies and self.blocks()

    def code_named(self, name: tuple) -> Code | None:
        """The code a frame names (a saved position names code by its key): lowered now if it has
        not been yet; None for a name this ruleset has no body for."""
        found = self.codes.get(name)
        if found is not None:
            return found
        find = getattr(self, f"_named_{name[0]}", None) if name and isinstance(name[0], str) else None
        body = find(*name[1:]) if find is not None and len(name) == _NAME_LENGTHS.get(name[0]) else None
        return self.block(name, *body) if body is not None else None

    def _named_procedure(self, proc):
        decl = self.engine.sym.procedures.get(proc)
        return (decl.body, decl.cite) if decl is not None else None

    def _named_step(self, phase, step):
        decl = self.engine.sym.steps().get((phase, step))
        return (decl.body, decl.cite) if decl is not None else None

    def _named_invariant(self, inv_name):
        inv = next((i for i in self.engine.sym.invariants if i.name == inv_name), None)
        return (inv.body, inv.cite) if inv is not None else None

    def _named_hook(self, event, i):
        hooks = [h for h in self.engine.sym.hooks if h.event == event]
        ok = isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(hooks)
        return (hooks[i].body, hooks[i].cite) if ok else None

    def _named_row(self, table, low, high, *more):
        d = self.engine.table(table).decl if table in self.engine.sym.tables else None
        want = (low, high, *more)
        row = next((r for r in d.rows if (r.low, r.high, *(k for pair in r.more for k in pair)) == want), None) if d is not None else None
        return (row.effect,) if row is not None else None

    def _named_result(self, table, result):
        d = self.engine.table(table).decl if table in self.engine.sym.tables else None
        declared = next((r for r in d.results if r.name == result), None) if d is not None else None
        return (declared.effect,) if declared is not None else None

    def code_of(self, procedure) -> Code:
        return self.block(("procedure", procedure.decl.name), procedure.decl.body, procedure.decl.cite)

    def hook_frames(self, event: str, subject: Any = None) -> list[CodeFrame]:
        frames = []
        for i, h in enumerate(h for h in self.engine.sym.hooks if h.event == event):
            code = self.block(("hook", event, i), h.body, h.cite)
            label = hook_label(event, h.var, subject, h.cite or "hook") if self.engine.explain else None
            frames.append(CodeFrame(code, {h.var: subject} if h.var else {}, None, label))
            self.engine.note_trigger(frames[-1])
        return frames

    # ── statements ──
    def emit(self, stmts, ops: list[Op]) -> None:
        """The statements' instructions; each run of statements that never wait is also one function,
        called by the run's first instruction (`Op.block`)."""
        run: list[tuple[Any, int]] = []  # the run of straight statements so far, each with its first instruction
        for s in stmts:
            at = len(ops)
            inside = self._fusing and self.blocks() and straight(s)
            self._fusing, fusing = not inside and self._fusing, self._fusing
            self._tail = s if run and not inside and s.kind in _TAILS else None
            try:
                self.emit_one(s, ops, at)
            finally:
                self._fusing = fusing
            if inside:
                run.append((s, at))
            else:  # the run ends here; an `if` or a `for each` that waits has its test or its list read by it
                self.fuse(run, at, ops, s if s.kind in _TAILS else None)
                run = []
        self.fuse(run, len(ops), ops)

    def emit_one(self, s, ops: list[Op], at: int) -> None:
        comp = self.comp
        self._first[id(s)] = (s, at)
        lower = getattr(self, "l_" + s.kind, None)
        if lower is None:  # inside a run written as a block, its closure is made only if it is needed
            ops.append(Do(s, later=comp.stmt_later(s)) if not self._fusing else Do(s, comp.stmt(s)))
            return
        outer, comp.cite = comp.cite, s.cite  # its expressions carry its citation into their limit errors
        try:
            lower(s, ops)
        finally:
            comp.cite = outer

    def blocks(self) -> bool:
        """Whether runs of straight statements are written as blocks: not when every expression is a
        closure (Engine.generate off), nor when the engine explains (its closures note every call)."""
        engine = self.engine
        return engine.blocks and engine.generate and not engine.explain

    def fuse(self, run: list[tuple[Any, int]], end: int, ops: list[Op], tail=None) -> None:
        """A run of straight statements ending at instruction `end`, written as one function; with `tail`
        (the `if` or `for each` at `end`, which waits), the function also begins it: the test read and
        the branch taken, or the list read and the loop opened."""
        if not run or not self.blocks():
            return
        if self.bodies():  # the body runs it, unless it leaves it to the machine: written, if ever, with the body
            self._runs.append((run, end, tail))
            return
        self.write_block(run, end, ops, tail)

    def write_block(self, run: list[tuple[Any, int]], end: int, ops: list[Op], tail) -> None:
        fn = generated_code.block(self.comp, run, ops, end, self._first, tail)
        if fn is not None:
            ops[run[0][1]].block = fn

    def expr(self, e, s):
        """An expression of `s`, an `if`, `for each` or `repeat … times`; inside a run written as a block, read
        by the block before it (its tail), or written in the body, made only if the machine ever needs it."""
        if self._fusing and self._tail is not s and not self.bodies():
            return self.comp.expr(e)
        return self.comp.expr_later(e)

    def l_if(self, s: n.If, ops):
        test = Test(s, self.expr(s.test, s))
        ops.append(test)
        self.emit(s.body, ops)
        if s.orelse:
            jump = Jump()
            ops.append(jump)
            test.orelse = len(ops)
            self.emit(s.orelse, ops)
            jump.to = len(ops)
        else:
            test.orelse = len(ops)

    def l_for(self, s: n.ForEach, ops):
        ops.append(ForStart(s, self.expr(s.iterable, s)))
        step = ForNext(s.var)
        top = len(ops)
        ops.append(step)
        self.emit(s.body, ops)
        ops.append(Jump(top))
        step.end = len(ops)

    def l_repeat(self, s: n.Repeat, ops):
        start = RepeatStart(s, self.comp.expr(s.limit) if s.limit is not None else None)
        ops.append(start)
        top = len(ops)
        ops.append(RepeatNext(s))
        self.emit(s.body, ops)
        if s.unit is not None:
            ops.append(UnitEnd(s))
        ops.append(Jump(top))
        start.end = len(ops)

    def l_repeat_times(self, s: n.RepeatTimes, ops):
        ops.append(TimesStart(s, self.expr(s.count, s)))
        step = ForNext(None)
        top = len(ops)
        ops.append(step)
        self.emit(s.body, ops)
        ops.append(Jump(top))
        step.end = len(ops)

    def l_impulses(self, s: n.Impulses, ops):
        start = ImpulsesStart(s, self.comp.expr(s.order), self.comp.expr(s.limit) if s.limit is not None else None)
        ops.append(start)
        top = len(ops)
        ops.append(ImpulseNext(s))
        self.emit(s.body, ops)
        start.impulse_end = len(ops)
        ops.append(UnitEnd(s))
        ops.append(Jump(top))
        start.end = len(ops)

    def l_pass(self, s: n.Pass, ops):
        ops.append(Pass(s))

    def l_stop(self, s: n.Stop, ops):
        if s.when is None:
            ops.append(Stop(s))
            return
        why = self.comp.expr(s.why) if s.why is not None else None
        ops.append(StopWhen(s, self.comp.expr(s.when), why))

    def l_return(self, s: n.Return, ops):
        ops.append(Return(s, self.comp.expr(s.value) if s.value is not None else None))

    def l_end_game(self, s: n.EndGame, ops):
        ops.append(EndGame(s, self.comp.expr(s.why)))

    def l_roll(self, s: n.Roll, ops):
        ops.append(Roll(s, *self.comp.roll_parts(s, s.cite)))

    def l_draw(self, s: n.Draw, ops):
        ops.append(Draw(s, *self.comp.draw_parts(s, s.cite)))

    def l_pick(self, s: n.Pick, ops):
        ops.append(Draw(s, *self.comp.pick_parts(s, s.cite)))

    def l_choose(self, s: n.Choose, ops):
        ops.append(Choose(s, self.comp.choice(s, s.cite)))

    def l_call(self, s: n.CallStmt, ops):
        ops.append(Call(s, [(a.name, self.comp.expr(a.value)) for a in s.args]))

    def l_lookup(self, s: n.Lookup, ops):
        self.engine.table(s.table)  # an unknown table is an error at lowering, as the generators have it
        ops.append(Lookup(s, [(a.name, self.comp.expr(a.value)) for a in s.args]))

    def l_eliminate(self, s: n.Eliminate, ops):
        because = self.comp.expr(s.because) if s.because is not None else (lambda env: None)
        ops.append(Eliminate(s, self.comp.expr(s.units), because))

    def l_reroll(self, s: n.Reroll, ops):
        ops.append(Reroll(s, self.comp.expr(s.pools), self.comp.expr(s.order), self.comp.expr(s.spend)))

    def l_secretly(self, s: n.Secretly, ops):
        ops.append(SecretOpen(s))
        for c in s.body:  # only decisions (the checker refuses anything else)
            ops.append(Choose(c, self.comp.choice(c, c.cite), secret=True))
        ops.append(SecretReveal(s))

    def l_simultaneously(self, s: n.Simultaneously, ops):
        ops.append(Together(s))
        self.emit(s.body, ops)
        ops.append(TogetherEnd(s))
