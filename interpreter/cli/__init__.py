"""The ``umpire`` command line: the argument parser (main.py) and one module per command.

Each command's module prints its text output and, for the commands that have one, its ``--json``
document (report_json.py holds the shapes they share). What turns a path into a scenario or a
ruleset ready to run is load.py's, the one front end every command and the language server call.
"""

from .main import entry, main, parser

__all__ = ["entry", "main", "parser"]
