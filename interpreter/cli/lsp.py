"""`umpire lsp`: the language server (editors/lsp.py), speaking on stdin and stdout until the editor ends it."""

from __future__ import annotations

import sys


def cmd_lsp(allowed: list[str]) -> int:
    """The server, or a one-line error naming the package to install when pygls is missing."""
    try:
        from ..editors.lsp import serve
    except ImportError as err:
        print(f"umpire: error: umpire lsp needs the package pygls ({err}); install it with: pip install pygls",
              file=sys.stderr)
        return 1
    return serve(allowed)
