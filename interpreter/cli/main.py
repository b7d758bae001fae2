"""The ``umpire`` command line: check, run, play, explain, draw, odds, study, schema, coverage, find, rule, format, lsp,
serve.

Every failure reaches the user as a diagnostic (file:line:col, the source line, a
caret, a hint) and an exit code, never as a Python traceback.

This module reads the arguments; what each command does is in its own module (check.py, run.py…),
imported only once the arguments parse: ``umpire --help`` and a mistyped option import neither
the IR nor the parser nor the runtime (docs/performance.md, start-up).
"""

from __future__ import annotations

import argparse
import os
import sys

from ..digits import whole_number
from ..limits import DEFAULT_FORMAT_WIDTH, DEFAULT_ODDS_PATHS


def main(argv: list[str] | None = None, ends_process: bool = False) -> int:
    """``ends_process``: the process ends with the command (the console script's, not the tests')."""
    args = parser().parse_args(argv)
    args.ends_process = ends_process
    from .. import style

    style.configure(args.color)
    try:
        return _main(args)
    finally:
        style.configure()  # a later run in the same process (the test suite) decides afresh


def _main(args: argparse.Namespace) -> int:
    from .. import files
    from ..style import enabled
    from ..syntax.diagnostics import Sources, UmpireError, render_all

    try:
        _check_named_files(args)
        box = files.Sandbox.for_run(_named_files(args), files.allowed_folders(getattr(args, "allow_path", [])))
        with files.sandbox(box):
            return dispatch(args)
    except UmpireError as err:  # a file named on the command line refused (files.py); commands render their own
        if getattr(args, "as_json", False):
            from ..report_json import stopped

            return stopped(args.command, err.diagnostics)
        print(render_all(err.diagnostics, Sources(), colour=enabled(sys.stderr)), file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader went away (`umpire ... | head`): nothing left to say
        sys.stderr = open(os.devnull, "w")
        return 0
    except RecursionError:
        print("umpire: error: the input nests too deeply to process", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C outside a game's prompts: stop quietly (a game in play handles its own)
        print("\numpire: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # the last line of defence: a bug in Umpire, reported without a traceback
        if os.environ.get("UMPIRE_DEBUG"):
            raise
        print(f"umpire: internal error ({type(err).__name__}: {err}); this is a bug in Umpire, please report it "
              "with the input that caused it (set UMPIRE_DEBUG=1 for details)", file=sys.stderr)
        return 70


def dispatch(args: argparse.Namespace) -> int:
    """The command's module, imported once the arguments parse, does what the command line asks."""
    if getattr(args, "as_json", False):
        return _dispatch_json(args)
    if args.command == "check":
        from .check import cmd_check

        return cmd_check(args.files, args.quiet, args.overlays, args.all, args.ends_process)
    if args.command == "run":
        from .run import cmd_run

        return cmd_run(args.scenario, args.overlays, args.detail, args.side, args.fixtures)
    if args.command == "explain":
        from .explain import cmd_explain

        return cmd_explain(args.scenario, args.at, args.overlays, args.why, args.draw, args.force, args.why_not)
    if args.command == "draw":
        from .draw import DrawArgs, cmd_draw

        return cmd_draw(DrawArgs(args.file, args.at, args.side, args.output, args.force, args.step, tuple(args.overlays),
                                 args.scenario))
    if args.command == "odds":
        if args.scenario.endswith(".toml"):  # a saved game, measured from its position
            from .odds_position import cmd_odds_position

            return cmd_odds_position(_odds_args(args))
        from .odds import cmd_odds

        return cmd_odds(_odds_args(args))
    if args.command == "play":
        from .play import cmd_play

        return cmd_play(args.file, args.seed, args.agents, args.save, args.stop_after, args.load, args.overlays,
                        not args.no_errata, args.scenario, args.detail, args.force, args.verify, args.draw)
    return _dispatch_more(args)


def _dispatch_more(args: argparse.Namespace) -> int:
    if args.command == "study":
        from .study import StudyArgs, cmd_study

        outputs = {k: getattr(args, k) for k in ("csv", "json", "plot") if getattr(args, k)}
        return cmd_study(StudyArgs(args.file, args.games, args.seed, args.agents, args.outcome, args.fact, args.overlays,
                                   args.compare, not args.no_errata, args.scenario, args.workers, args.cluster, outputs,
                                   args.force, args.allow_path))
    if args.command == "serve":
        from .serve import cmd_serve

        return cmd_serve(args.file, args.host, args.port, args.allow_path)
    if args.command == "lsp":
        from .. import files
        from .lsp import cmd_lsp

        return cmd_lsp(files.allowed_folders(args.allow_path))
    if args.command == "coverage":
        from .coverage import cmd_coverage, cmd_shape

        return cmd_shape(args.ruleset) if args.shape else cmd_coverage(args.ruleset, args.sections, args.missing)
    if args.command == "rule":
        from .rule import cmd_rule

        return cmd_rule(args.ruleset, args.section, args.overlays)
    if args.command == "format":
        from .format import FormatArgs, cmd_format

        return cmd_format(FormatArgs(args.files, args.width, args.check, args.diff))
    if args.command == "find":
        from .find import cmd_find

        return cmd_find(args.ruleset, args.name, args.missing, args.overlays)
    from .schema import cmd_schema

    return cmd_schema()


def _dispatch_json(args: argparse.Namespace) -> int:
    """The commands that write their result as one JSON document, each by its own module."""
    if args.command == "check":
        from .check import json_check

        return json_check(args.files, args.quiet, args.overlays, args.all, args.ends_process)
    if args.command == "run":
        from .run import json_run

        return json_run(args.scenario, args.overlays, args.detail, args.side)
    if args.command == "coverage":
        from .coverage import json_coverage, json_shape

        return json_shape(args.ruleset) if args.shape else json_coverage(args.ruleset, args.sections, args.missing)
    from .odds import json_odds

    return json_odds(_odds_args(args))


def _odds_args(args: argparse.Namespace):
    from .odds import OddsArgs

    return OddsArgs(args.scenario, args.fact, args.policy, args.monte_carlo, args.seed, args.limit, args.overlays,
                    args.replay, args.decide, args.no_exact, args.list_facts, args.all_facts, args.demo,
                    args.allow_path, until=args.until)


def parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = argparse.ArgumentParser(prog="umpire", description="A rules interpreter for historical board wargames.")
    parser.add_argument("--version", action="version", version=f"umpire {__version__}",
                        help="print Umpire's version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                help="what to do (umpire COMMAND --help tells more)")
    for add in (_add_check, _add_run, _add_play, _add_explain, _add_draw, _add_odds, _add_study, _add_schema,
                _add_coverage, _add_find, _add_rule, _add_format, _add_lsp, _add_serve):
        add(sub)
    for name, command in sub.choices.items():
        _output_options(command, json=name in _JSON_COMMANDS)
    return parser


# The commands that can write their result as one JSON document (docs/output.md).
_JSON_COMMANDS = ("check", "run", "odds", "coverage")


def _output_options(parser: argparse.ArgumentParser, json: bool) -> None:
    """How the output looks: colour (on a terminal only, by default) and, for some commands, JSON."""
    parser.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto",
                        help="colour the output: auto (the default) on a terminal unless NO_COLOR is set, "
                             "always, or never")
    if json:
        parser.add_argument("--json", dest="as_json", action="store_true",
                            help="write the result as one JSON document on standard output (docs/output.md)")


# One function per sub-command adds its parser, options in the order --help lists them.

def _add_check(sub) -> None:
    p = sub.add_parser("check", help="check rules and scenario files; exit 1 on any error")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="a rules file, a scenario or an overlay (.errata, .house, .overlay: checked applied to the "
                        "ruleset it amends, as 'play' reads it)")
    p.add_argument("--quiet", action="store_true", help="print errors only, no warnings or summary of missing data")
    p.add_argument("--all", action="store_true",
                   help="with an overlay: list the base ruleset's warnings and notes too (by default counted in one line)")
    _with_option(p)
    _allow_option(p)


def _add_run(sub) -> None:
    p = sub.add_parser("run", help="run a scenario: narrate it with rule citations and check its expectations")
    p.add_argument("scenario", help="the scenario to run (.scenario)")
    p.add_argument("--side", metavar="SIDE", help="narrate the run as SIDE sees it: a line naming a unit SIDE does not see "
                                                "(the ruleset's view) or setting a state known to another side is hidden")
    p.add_argument("--fixtures", action="store_true", help="list each value the scenario's set-up supplies that the "
                   "rulebook does not print (by default one line counts them)")
    _detail_option(p)
    _with_option(p)
    _allow_option(p)


def _add_play(sub) -> None:
    p = sub.add_parser("play", help="play a whole game with seeded dice and agents")
    p.add_argument("file", nargs="?", help="a rules file (empty position) or a scenario (its set-up)")
    p.add_argument("--seed", type=whole_number, default=1,
                   help="the seed of the dice and of the agents' choices: the same seed plays the same game (default 1)")
    p.add_argument("--agents", default="random,random",
                   help="one per side: random, eager (random, seizing every opportunity), first (the first legal option), search[:N], mcts[:N], greedy[:N] (looking ahead through the rules, N rollouts a decision) or human (you, at the terminal)")
    p.add_argument("--save", metavar="FILE", help="where to save the game (TOML): before decision N + 1 with "
                   "--stop-after N, or where a person ends it (end of input, Ctrl-C); never over an existing file "
                   "without --force, never over a rules, scenario or overlay file")
    p.add_argument("--stop-after", type=whole_number, metavar="N", help="suspend the game after N decisions (needs --save)")
    p.add_argument("--force", action="store_true", help="let --save replace an earlier save")
    p.add_argument("--load", metavar="FILE", help="resume a saved game")
    p.add_argument("--verify", action="store_true",
                   help="with --load: replay the game from its seed to the save and compare, instead of loading its position")
    _with_option(p)
    p.add_argument("--draw", metavar="DIR", help="write a picture of the position as each turn begins, DIR/turn-01.svg "
                                                 "…, and DIR/end.svg once the game is over (--force replaces them); when one side "
                                                 "alone is played by a human, as that side sees it (draw --side)")
    p.add_argument("--no-errata", action="store_true", help="play the rules as printed, without the errata the game header names")
    p.add_argument("--scenario", metavar="NAME", help="start from one of the set-ups the game header names (its scenarios)")
    _detail_option(p)
    _allow_option(p)


def _add_explain(sub) -> None:
    p = sub.add_parser("explain", help="run a scenario and explain every line of its trace: rule, statement, calls, values")
    p.add_argument("scenario", help="the scenario to run and explain (.scenario)")
    p.add_argument("--at", metavar="N|TEXT", help="only event number N, or the events whose line contains TEXT")
    p.add_argument("--why", metavar="TEXT",
                   help="the story, in rules, of the first line containing TEXT (or of the run's error): what earlier "
                        "lines, with their rules, changed the units it names, and why; of a refusal, the rule "
                        "that removed the option")
    p.add_argument("--why-not", metavar="OPTION",
                   help="the rule (a condition, a function, a restriction, with its citation) that removed OPTION "
                        "from the first decision that left it out (with --at, the first after that line)")
    p.add_argument("--draw", metavar="FILE.svg", help="with --at N: write the picture of the position after line N")
    p.add_argument("--force", action="store_true", help="let --draw replace an existing file")
    _with_option(p)
    _allow_option(p)


def _add_draw(sub) -> None:
    p = sub.add_parser("draw", help="draw a position as a picture (SVG): the map, the stacks, boxes and tracks")
    p.add_argument("file", help="a scenario (its set-up, or a moment of its run) or a rules file (its demo set-up)")
    p.add_argument("--at", metavar="N|TEXT|end",
                   help="the position after trace line N (numbered as 'umpire explain' numbers them), after the first "
                        "line containing TEXT, or at the end of the run (default: the set-up)")
    p.add_argument("--step", metavar="NAME", help="two pictures, OUT_before.svg and OUT_after.svg: the position as the "
                                                  "step NAME of the sequence of play begins and as it ends")
    p.add_argument("--side", metavar="SIDE", help="draw only what SIDE sees (the ruleset's view, fog of war)")
    p.add_argument("--scenario", metavar="NAME", help="with a rules file: the set-up of one of the scenarios the game "
                                                      "header names (as 'play --scenario'; default: its demo set-up)")
    p.add_argument("-o", "--output", metavar="OUT.svg", help="the file to write (default: the file's name, .svg, here)")
    p.add_argument("--force", action="store_true", help="let the picture replace an existing file")
    _with_option(p)
    _allow_option(p)


def _add_odds(sub) -> None:
    p = sub.add_parser("odds", help="exact odds: every die of a scenario's run enumerated through the rules")
    p.add_argument("scenario", help="the scenario whose run is measured (.scenario), or a saved game (.toml, as "
                                    "`umpire play --save` writes it) measured from its position; its dice are enumerated")
    p.add_argument("--until", choices=("step", "phase", "turn"),
                   help="with a saved game: how far from its position the rules are played and measured: to the end "
                        "of its step (the default), of its phase or of its turn")
    p.add_argument("--fact", action="append", metavar="NAME",
                   help="a recorded fact to measure (repeatable; default: the facts the scenario's expectations name, "
                        "else every fact the run records)")
    p.add_argument("--all-facts", action="store_true", help="measure every fact any path records")
    p.add_argument("--list-facts", action="store_true", help="list the facts the rules record and this scenario's run records")
    p.add_argument("--policy",
                   help="how decisions are taken: script (the scenario's decisions while they fit; the default when "
                        "it scripts any) or first (the first legal option, optional decisions declined)")
    p.add_argument("--decide", action="append", metavar="[SIDE:]NAME=ANSWER",
                   help="answer every decision NAME (of SIDE alone, with SIDE:) with ANSWER where it is legal: option "
                        "names separated by commas, 'pass' (decline) or 'first' (the first legal option, taken even "
                        "where it may be declined); a side's answer comes before one for either side; repeatable")
    p.add_argument("--monte-carlo", type=whole_number, metavar="N",
                   help="also run the interpreter N times with seeded dice; alone, with 95%% confidence intervals, "
                        "when the enumeration is refused for its size")
    p.add_argument("--demo", action="store_true",
                   help="add the game's demo data (invented tables standing in for ones the rulebook does not print)")
    p.add_argument("--no-exact", action="store_true", help="skip the exact enumeration (with --monte-carlo N)")
    p.add_argument("--seed", type=whole_number, default=1, help="seed of the Monte Carlo runs")
    p.add_argument("--limit", type=whole_number, default=DEFAULT_ODDS_PATHS,
                   help="refuse enumerations that send on more outcomes than this (with --replay: run more dice paths); "
                        "a question whose estimate passes it is refused at once, naming the --monte-carlo command")
    p.add_argument("--replay", action="store_true",
                   help="replay the run from its set-up for every dice path instead of branching and merging positions "
                        "(slow; a cross-check)")
    _with_option(p)
    _allow_option(p)


def _add_study(sub) -> None:
    p = sub.add_parser("study", help="play many whole games and sum them up: outcomes with intervals, lengths, facts; "
                                     "compare a house rule on the same seeds")
    p.add_argument("file", help="a rules file (its demo set-up) or a scenario (its set-up)")
    p.add_argument("--games", type=whole_number, default=100, help="how many games (seeds --seed to --seed + N - 1)")
    p.add_argument("--seed", type=whole_number, default=1, help="the first game's seed")
    p.add_argument("--agents", default="random,random", help="one per side: random, eager, first, search[:N], mcts[:N] or greedy[:N]")
    p.add_argument("--outcome", metavar="NAME", help="the game state or recorded fact that says who won (e.g. winner)")
    p.add_argument("--fact", action="append", default=[], metavar="NAME",
                   help="another game state or recorded fact to report (repeatable)")
    p.add_argument("--compare", metavar="OVERLAY",
                   help="play the same seeds again with this overlay and test the difference (McNemar's exact test)")
    p.add_argument("--workers", type=whole_number, default=os.cpu_count() or 1,
                   help="processes to play on (default: one per core)")
    p.add_argument("--cluster", metavar="ADDRESS", help="play on a Dask cluster, e.g. tcp://127.0.0.1:8786")
    p.add_argument("--csv", metavar="FILE", help="write one row per game (.csv)")
    p.add_argument("--json", metavar="FILE", help="write every game's results (.json)")
    p.add_argument("--plot", metavar="FILE", help="draw the outcomes' shares with their intervals (.svg or .png)")
    p.add_argument("--force", action="store_true", help="let --csv, --json and --plot replace existing files")
    p.add_argument("--no-errata", action="store_true", help="play the rules as printed, without the errata")
    p.add_argument("--scenario", metavar="NAME", help="start from one of the set-ups the game header names")
    _with_option(p)
    _allow_option(p)


def _add_schema(sub) -> None:
    sub.add_parser("schema", help="print the JSON schema of the IR")


def _add_coverage(sub) -> None:
    p = sub.add_parser("coverage", help="which of the rulebook's sections a ruleset encodes, partly encodes or leaves out, with a percentage")
    p.add_argument("ruleset", help="the rules file whose citations are counted (.rules)")
    p.add_argument("--sections", metavar="FILE", help="the rulebook's list of sections (default: the ruleset's .sections file)")
    p.add_argument("--missing", action="store_true", help="list only the sections not fully encoded, each with what is left out and why")
    p.add_argument("--shape", action="store_true",
                   help="instead of the sections: how many of the ruleset's code lines are data and declarations, and "
                        "how many statements, file by file, with the lines over 160 characters")
    _allow_option(p)


def _add_find(sub) -> None:
    p = sub.add_parser("find", help="where a name (a table, a procedure, a step, a phase, a decision...) is declared "
                                    "among the files of a ruleset, with file:line; --missing: the unprinted data")
    p.add_argument("ruleset", help="the ruleset's main file (its parts and demo data are searched too)")
    p.add_argument("name", nargs="?", help="the name, as the rules write it")
    p.add_argument("--missing", action="store_true",
                   help="list the data the rulebook does not print (declared 'missing') and the demo table standing in")
    _with_option(p)
    _allow_option(p)


def _add_rule(sub) -> None:
    p = sub.add_parser("rule", help="every line of a ruleset that encodes a section of the rulebook (and its subsections), "
                                    "in the rulebook's order, with file:line")
    p.add_argument("ruleset", help="the ruleset's main file (its parts and demo data are read too)")
    p.add_argument("section", help="the section's number, as the rulebook prints it (9.1)")
    _with_option(p)
    _allow_option(p)


def _add_format(sub) -> None:
    p = sub.add_parser("format", help="break the lines of rules, scenario and overlay files longer than the width, "
                                      "the same way every time; other lines are left as written")
    p.add_argument("files", nargs="+", metavar="FILE", help="the files to format in place (.rules, .scenario, .errata, "
                                                           ".house, .overlay)")
    p.add_argument("--width", type=whole_number, default=DEFAULT_FORMAT_WIDTH, metavar="N",
                   help=f"the longest line left as written, in characters (default {DEFAULT_FORMAT_WIDTH})")
    p.add_argument("--check", action="store_true",
                   help="write nothing; list the files that would change, and exit 1 if any would (for CI)")
    p.add_argument("--diff", action="store_true", help="write nothing; print what would change as a unified diff")
    _allow_option(p)


def _add_lsp(sub) -> None:
    p = sub.add_parser("lsp", help="a language server for editors, on stdin and stdout: diagnostics as you type, "
                                   "go to definition, hover, completion (docs/editors.md)")
    _allow_option(p)


def _add_serve(sub) -> None:
    p = sub.add_parser("serve", help="the workbench in a browser: a scenario's map beside its narration, a timeline, "
                                     "citations, games against the agents, odds (docs/workbench.md)")
    p.add_argument("file", nargs="?", metavar="PATH", help="a ruleset, scenario or saved game the page opens (default: "
                                                           "the file picker over rulesets/ and scenarios/)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1, this machine alone; another is warned about)")
    p.add_argument("--port", type=whole_number, default=8036, help="the port to listen on (default 8036)")
    _allow_option(p)


def _named_files(args: argparse.Namespace) -> list[str]:
    """The files named on the command line: their folders are roots of the run's sandbox (files.py)."""
    named = [*getattr(args, "files", []), *getattr(args, "overlays", [])]
    for option in ("scenario", "file", "load", "ruleset", "sections", "compare"):
        value = getattr(args, option, None)
        if value:
            named.append(value)
    return named


# The kinds of file each command reads, by extension; `check` picks its reading per file (check.py).
_COMMAND_KINDS = {"run": ("scenario",), "explain": ("scenario",), "odds": ("scenario",), "coverage": ("ruleset",)}


def _check_named_files(args: argparse.Namespace) -> None:
    """A file named on the command line must have an extension its command reads; nothing else is read."""
    from .. import files

    for option in _COMMAND_KINDS.get(args.command, ()):
        kinds = (files.SCENARIO, files.SAVE) if args.command == "odds" else (files.SCENARIO,) if option == "scenario" \
            else (files.RULES,)
        files.command_line_file(getattr(args, option), f"umpire {args.command} reads", kinds)
    if args.command in ("play", "study", "draw") and args.file:
        files.command_line_file(args.file, f"umpire {args.command} reads", (files.RULES, files.SCENARIO))
    if args.command == "serve" and args.file:
        files.command_line_file(args.file, "umpire serve opens", (files.RULES, files.SCENARIO, files.SAVE))
    if getattr(args, "compare", None):
        files.command_line_file(args.compare, "--compare names", (files.OVERLAY,))
    if getattr(args, "sections", None):
        files.command_line_file(args.sections, "--sections names", (files.SECTIONS,))
    for overlay in getattr(args, "overlays", []):
        files.command_line_file(overlay, "--with names", (files.OVERLAY,))


def _allow_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--allow-path", dest="allow_path", action="append", default=[], metavar="DIR",
                        help="a folder the files may name besides the current one and those of the files named here "
                             "(repeatable; docs/safety.md)")


def _with_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--with", dest="overlays", action="append", default=[], metavar="OVERLAY",
                        help="apply an overlay file (errata, house rules) to the ruleset; repeatable, applied in order")


def _detail_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--detail", action="store_true",
                        help="print the whole trace: also the facts recorded, the states set and the decisions "
                             "(by default the narration shows the game's events, each with its rule)")


def entry() -> None:  # console script
    sys.exit(main(ends_process=True))

