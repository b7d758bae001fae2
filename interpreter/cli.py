"""The ``umpire`` command line: check, run, schema.

Every failure reaches the user as a diagnostic (file:line:col, the source line, a
caret, a hint) and an exit code, never as a Python traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .ir import nodes as n
from .load import demo_path, load_rules, load_scenario, rules_path_for
from .runtime.scenario import check_scenario, run_scenario
from .syntax.diagnostics import Diagnostic, Sources, UmpireError, render, render_all


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="umpire", description="A rules interpreter for historical board wargames.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_check = sub.add_parser("check", help="check rules and scenario files; exit 1 on any error")
    p_check.add_argument("files", nargs="+")
    p_check.add_argument("--quiet", action="store_true", help="print errors only, no warnings or summary of missing data")
    p_run = sub.add_parser("run", help="run a scenario: narrate it with rule citations and check its expectations")
    p_run.add_argument("scenario")
    p_play = sub.add_parser("play", help="play a whole game with seeded dice and agents")
    p_play.add_argument("file", nargs="?", help="a rules file (empty position) or a scenario (its set-up)")
    p_play.add_argument("--seed", type=int, default=1)
    p_play.add_argument("--agents", default="random,random",
                        help="one per side: random, first (the first legal option) or human (you, at the terminal)")
    p_play.add_argument("--save", metavar="FILE", help="with --stop-after N: save the game (TOML) before decision N + 1")
    p_play.add_argument("--stop-after", type=int, metavar="N", help="suspend the game after N decisions")
    p_play.add_argument("--load", metavar="FILE", help="resume a saved game")
    sub.add_parser("schema", help="print the JSON schema of the IR")
    args = parser.parse_args(argv)
    try:
        if args.command == "check":
            return cmd_check(args.files, args.quiet)
        if args.command == "run":
            return cmd_run(args.scenario)
        if args.command == "play":
            return cmd_play(args.file, args.seed, args.agents, args.save, args.stop_after, args.load)
        print(json.dumps(n.Ruleset.model_json_schema(), indent=1))
        return 0
    except UmpireError as err:  # pragma: no cover - each command renders its own
        print(render_all(err.diagnostics, Sources()), file=sys.stderr)
        return 1
    except RecursionError:
        print("umpire: error: the input nests too deeply to process", file=sys.stderr)
        return 1
    except Exception as err:  # the last line of defence: a bug in Umpire, reported without a traceback
        if os.environ.get("UMPIRE_DEBUG"):
            raise
        print(f"umpire: internal error ({type(err).__name__}: {err}); this is a bug in Umpire, please report it "
              "with the input that caused it (set UMPIRE_DEBUG=1 for details)", file=sys.stderr)
        return 70


def cmd_check(files: list[str], quiet: bool = False) -> int:
    failed = False
    for path in files:
        sources = Sources()
        try:
            diags, summary = (_check_scenario if path.endswith(".scenario") else _check_rules)(path, sources)
        except UmpireError as err:
            diags, summary = err.diagnostics, []
        shown = [d for d in diags if d.severity == "error" or not quiet]
        for d in shown:
            print(render(d, sources), file=sys.stderr if d.severity == "error" else sys.stdout)
        errors = sum(1 for d in diags if d.severity == "error")
        warnings = len(diags) - errors
        failed |= errors > 0
        if not quiet:
            for line in summary:
                print(line)
            print(f"{path}: {errors} error(s), {warnings} warning(s)")
    return 1 if failed else 0


def _check_rules(path: str, sources: Sources) -> tuple[list[Diagnostic], list[str]]:
    loaded = load_rules(path, sources)
    game = loaded.symbols.game
    if loaded.errors or game is None or not game.demo_data:
        return loaded.diagnostics, _missing_summary(loaded)
    # The ruleset names demo data: check the two together as well, and its demo set-up.
    with_demo = load_rules(path, sources, with_demo=True)
    seen = {(d.span.file, d.span.line, d.span.col, d.message) for d in loaded.diagnostics}
    diags = loaded.diagnostics + [d for d in with_demo.diagnostics if (d.span.file, d.span.line, d.span.col, d.message) not in seen]
    summary = _missing_summary(with_demo)
    summary.append(f"demo data: {demo_path(game.span.file, game.demo_data)} (stands in for what the rulebook does not print)")
    if game.demo_setup and not with_demo.errors:
        setup_path = demo_path(game.span.file, game.demo_setup)
        scenario = load_scenario(setup_path, sources)
        diags += check_scenario(scenario, with_demo.symbols)
        summary.append(f"demo set-up: {setup_path}")
    return diags, summary


def _missing_summary(loaded) -> list[str]:
    sym = loaded.symbols
    lines = []
    for m in sym.missing.values():
        line = f"missing {m.what} '{m.name}': {m.description}" + (f" [{m.cite}]" if m.cite else "")
        supplied = sym.tables.get(m.name) if m.what == "table" else None
        if supplied is not None:
            line += f"; supplied by {supplied.span.file}:{supplied.span.line}, not the published data"
        lines.append(line)
    unknown = [
        f"{c.name}.{v.name}" for c in sym.counters.values() for v in c.values if v.value == "?"
    ]
    if unknown:
        lines.append(f"missing printed values ({len(unknown)}): {', '.join(unknown)}")
    return lines


def _load_scenario_and_rules(path: str, sources: Sources):
    """The scenario, its ruleset, and every diagnostic of both."""
    scenario = load_scenario(path, sources)
    rules = rules_path_for(scenario)
    if not Path(rules).is_file():
        missing = Diagnostic("error", f"the ruleset '{scenario.uses}' does not exist (looked for {rules})", scenario.uses_span)
        return scenario, None, [missing]
    loaded = load_rules(rules, sources)
    if loaded.errors:
        return scenario, loaded, loaded.errors
    return scenario, loaded, check_scenario(scenario, loaded.symbols)


def _check_scenario(path: str, sources: Sources) -> tuple[list[Diagnostic], list[str]]:
    return _load_scenario_and_rules(path, sources)[2], []


def _stop_on_errors(diags: list[Diagnostic]) -> None:
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise UmpireError(errors)


def cmd_run(path: str) -> int:
    sources = Sources()
    try:
        scenario, loaded, diags = _load_scenario_and_rules(path, sources)
        _stop_on_errors(diags)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources), file=sys.stderr)
        return 1
    outcome = run_scenario(scenario, loaded.symbols, sources)
    print("\n".join(outcome.lines))
    if outcome.error is not None:
        print(render(outcome.error, sources), file=sys.stderr)
        return 1
    return 0 if outcome.ok else 1


def cmd_play(path: str | None, seed: int, agents: str, save: str | None = None, stop_after: int | None = None,
             load: str | None = None) -> int:
    from .runtime.play import AGENT_KINDS, Terminal, play

    resume = None
    if load:
        resume = _read_save(load)
        if resume is None:
            return 1
        path, seed, kinds = resume["file"], resume["seed"], list(resume["agents"])
    else:
        kinds = [k.strip() for k in agents.split(",") if k.strip()]
    bad = [k for k in kinds if k not in AGENT_KINDS]
    if not kinds or bad:
        print(f"umpire: error: unknown agent '{bad[0] if bad else agents}'; use {', '.join(AGENT_KINDS)}", file=sys.stderr)
        return 1
    if not path:
        print("umpire: error: name a rules or scenario file to play, or --load a saved game", file=sys.stderr)
        return 1
    if (save is None) != (stop_after is None):
        print("umpire: error: --save and --stop-after go together", file=sys.stderr)
        return 1
    sources = Sources()
    try:
        if path.endswith(".scenario"):
            scenario, loaded, diags = _load_scenario_and_rules(path, sources)
        else:
            scenario, loaded = None, load_rules(path, sources, with_demo=True)
            diags = loaded.diagnostics
            game_decl = loaded.symbols.game
            if game_decl and game_decl.demo_setup and not loaded.errors:
                scenario = load_scenario(demo_path(game_decl.span.file, game_decl.demo_setup), sources)
                diags = diags + check_scenario(scenario, loaded.symbols)
        _stop_on_errors(diags)
    except UmpireError as err:
        print(render_all(err.diagnostics, sources), file=sys.stderr)
        return 1
    terminal = Terminal(read=_read_line, write=lambda text: print(text, file=sys.stderr))
    game = play(loaded.symbols, sources, scenario, seed, kinds, terminal=terminal, stop_after=stop_after,
                resume=resume and {**resume["umpire_save"], "state": resume["state"]})
    print("\n".join(game.lines))
    if game.error is not None:
        print(render(game.error, sources), file=sys.stderr)
        return 1
    if game.save is not None:
        import tomli_w

        game.save["umpire_save"]["file"] = path
        Path(save).write_text(tomli_w.dumps(game.save), encoding="utf-8")
        print(f"saved to {save}")
    return 0


def _read_line() -> str | None:
    try:
        return input("> ")
    except EOFError:
        return None


def _read_save(path: str) -> dict | None:
    import tomllib

    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        head = data["umpire_save"]
        return {"file": head["file"], "seed": head["seed"], "agents": head["agents"], "umpire_save": head,
                "state": data["state"]}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError) as err:
        print(f"umpire: error: {path} is not a saved game ({err})", file=sys.stderr)
        return None


def entry() -> None:  # console script
    sys.exit(main())


if __name__ == "__main__":
    entry()
