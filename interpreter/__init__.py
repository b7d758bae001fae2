"""Umpire: a rules interpreter for historical board wargames.

The pipeline runs one way; read the folders in this order:

    syntax/    text → parse tree; diagnostics (file:line:col, caret, hint); limits of a file
    ir/        parse tree → typed, cited nodes (nodes.py, build.py); citations.py; visit.py
               (dispatch on a node's kind, the generic walkers)
    check/     symbols (pass 1), the checker (names, types, citations, tables), the static
               analysis, the check of a scenario
    overlay/   errata and house rules: their IR, then their application to a copy of the IR
    runtime/   in rooms, each importing only those below it: execution/ (expressions and
               simple statements to closures, compile.py; the machine that runs bodies as
               frames whose progress is data, vm.py; the engine's effects, built-ins, dice),
               world/ (the map's built-ins, paths, fog), position/ (a game in progress as
               data), games/ (the driver, agents, scenarios, set-up, whole games), odds/;
               common/ (values, requests) under them all
    load.py    the front end in one call (read → parse → IR → overlays → check), its results
               kept by cache.py (keyed by the content of every file read), and a path
               made ready to run (a scenario or set-up and its checked ruleset), used by
    cli/       the command line: main.py (the arguments), one module per command (check.py,
               run.py, play.py, odds.py…, each with its text and --json output); coverage.py
               (the measure of umpire coverage), study.py (a study's games), saves.py (saved games)
    editors/   the TextMate grammar generated from the grammar, and the language server
               (umpire lsp) that checks an editor's buffers with the same front end

Beside it: lang.py (the built-ins and attributes the language declares), limits.py (every
limit of a file and a run), files.py (what a file may read: the sandbox).
"""

__version__ = "0.1.0"
