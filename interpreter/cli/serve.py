"""`umpire serve [PATH]`: the workbench in a browser, served by uvicorn on this machine (serve/).

It listens on 127.0.0.1 unless told otherwise: the workbench reads the files of its folders and runs
their rules for whoever reaches it, so another address is a choice the person makes, and is warned
about. The page opens PATH (a ruleset, a scenario or a saved game) when one is given.
"""

from __future__ import annotations

import sys

LOCAL = ("127.0.0.1", "localhost", "::1")


def cmd_serve(path: str | None, host: str, port: int, allowed: list[str]) -> int:
    try:
        import uvicorn

        from ..serve.app import create_app
    except ImportError as err:  # pragma: no cover - the dependencies are the package's own
        print(f"umpire: error: the workbench needs {err.name}: pip install -e . installs it", file=sys.stderr)
        return 1
    if not 0 < port < 65536:
        print(f"umpire: error: --port takes a port number from 1 to 65535, not {port}", file=sys.stderr)
        return 1
    if host not in LOCAL:
        print(f"umpire: warning: serving on {host}, not 127.0.0.1: anyone who reaches this address can read the "
              "files of the workbench's folders and run their rules", file=sys.stderr)
    shown = f"[{host}]" if ":" in host else host
    page = f"http://{shown}:{port}/" + (f"?open={path}" if path else "")
    print(f"umpire serve: the workbench is at {page} (Ctrl-C stops it)", file=sys.stderr, flush=True)
    try:
        uvicorn.run(create_app(path, allowed), host=host, port=port, log_level="warning")
    except OSError as err:
        print(f"umpire: error: cannot listen on {host}:{port}: {err.strerror or err}", file=sys.stderr)
        return 1
    return 0
