"""The workbench's web application (Starlette): the page and its files, and the JSON endpoints under /api.

Every endpoint answers JSON, or an SVG picture; a request that cannot be answered is a JSON document
with the diagnostics the command line would print for it (`error`, and `diagnostics` each with its
file, line, column, message and the rendered `text`: file:line:col, the quoted line, the caret),
never a traceback. The endpoints are plain functions: Starlette runs them in its thread pool.
"""

from __future__ import annotations

import inspect
import os
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..digits import is_number
from .odds import Odds
from .table import Tables
from .workbench import Library, Rules, Runs, WorkbenchError

STATIC = Path(__file__).parent / "static"


class Workbench:
    """What the application holds: the folders it reads, the runs, games and odds opened."""

    def __init__(self, start: str | None = None, allowed: list[str] = ()):
        self.library = Library(start, list(allowed))
        self.runs, self.tables = Runs(self.library), Tables(self.library)
        self.rules, self.odds = Rules(self.library), Odds(self.library)


def create_app(start: str | None = None, allowed: list[str] = ()) -> Starlette:
    bench = Workbench(start, allowed)

    async def body(request: Request) -> dict:
        try:
            data = await request.json()
        except ValueError:
            raise WorkbenchError.saying("the request's body is not JSON") from None
        if not isinstance(data, dict):
            raise WorkbenchError.saying("the request's body is a JSON object")
        return data

    def index(request: Request):
        return FileResponse(STATIC / "index.html")

    def listing(request: Request):
        return JSONResponse(bench.library.listing())

    async def open_file(request: Request):
        data = await body(request)
        path = bench.library.admitted(_text(data, "path"))
        side = _optional(data, "side")
        if path.endswith(".scenario"):
            return JSONResponse((await _run_sync(bench.runs.open, path, side)).summary())
        if path.endswith(".toml"):  # a saved game, resumed
            return JSONResponse((await _run_sync(bench.tables.resume, path)).state())
        return JSONResponse(await _run_sync(_rules_summary, bench, path))

    def run_picture(request: Request):
        run = bench.runs.get(request.path_params["run"])
        return _svg(run.picture(_number(request.query_params.get("at", "0"), "at")))

    def rule(request: Request):
        query = request.query_params
        return JSONResponse(bench.rules.encoding(query.get("ruleset", ""), query.get("section", "")))

    async def start_game(request: Request):
        data = await body(request)
        path = bench.library.admitted(_text(data, "path"))
        seed = _number(str(data.get("seed", 1)), "seed")
        overlays = [bench.library.overlay(o) for o in _texts(data, "overlays")]
        table = await _run_sync(bench.tables.start, path, _optional(data, "scenario"), seed, _optional(data, "side"),
                                _optional(data, "agent") or "random", overlays)
        return JSONResponse(table.state())

    def game_state(request: Request):
        since = _number(request.query_params.get("since", "0"), "since")
        return JSONResponse(bench.tables.get(request.path_params["game"]).state(since))

    async def answer(request: Request):
        data = await body(request)
        table = bench.tables.get(request.path_params["game"])
        return JSONResponse(await _run_sync(table.answer, _text(data, "answer")))

    def game_picture(request: Request):
        table = bench.tables.get(request.path_params["game"])
        return _svg(table.picture(_number(request.query_params.get("at", "0"), "at")))

    async def ask_odds(request: Request):
        data = await body(request)
        if data.get("game") is not None:  # the position in front of the person playing it
            table = bench.tables.get(_text(data, "game"))
            job = bench.odds.ask_game(table, _optional(data, "choose"), _optional(data, "until") or "step")
            return JSONResponse(job.state())
        path = bench.library.admitted(_text(data, "path"))
        return JSONResponse(bench.odds.ask(path).state())

    def odds_state(request: Request):
        return JSONResponse(bench.odds.get(request.path_params["job"]).state())

    routes = [
        Route("/", index),
        Route("/api/files", listing),
        Route("/api/open", open_file, methods=["POST"]),
        Route("/api/runs/{run}/picture", run_picture),
        Route("/api/rule", rule),
        Route("/api/games", start_game, methods=["POST"]),
        Route("/api/games/{game}", game_state),
        Route("/api/games/{game}/answer", answer, methods=["POST"]),
        Route("/api/games/{game}/picture", game_picture),
        Route("/api/odds", ask_odds, methods=["POST"]),
        Route("/api/odds/{job}", odds_state),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    for route in routes[:-1]:
        route.app = _guarded(route.endpoint)  # the endpoint as Starlette calls it, its failures answered as JSON
    return Starlette(routes=routes, exception_handlers={404: _not_found, 405: _not_allowed})


async def _run_sync(fn, *args):
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(fn, *args)


def _rules_summary(bench: Workbench, path: str) -> dict:
    """A rules file opened: what the page offers for it (a game to play from one of its set-ups)."""
    from ..syntax.diagnostics import Sources, UmpireError

    sources = Sources()
    with bench.library.reading(path):
        try:
            from ..load import load_rules

            loaded = load_rules(path, sources, with_demo=True, with_errata=True)
        except UmpireError as err:
            raise WorkbenchError(err.diagnostics, sources) from None
    if loaded.errors:
        raise WorkbenchError(loaded.errors, sources)
    game = loaded.symbols.game
    return {"kind": "rules", "path": path, "ruleset": path, "title": (game.title or game.name) if game else path,
            "sides": list(loaded.symbols.sides), "scenarios": [s.name for s in game.scenarios] if game else []}


def _text(data: dict, name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value.strip():
        raise WorkbenchError.saying(f"'{name}' is missing: a text is expected")
    return value.strip()


def _texts(data: dict, name: str) -> list[str]:
    value = data.get(name) or []
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise WorkbenchError.saying(f"'{name}' is a list of texts")
    return [v.strip() for v in value]


def _optional(data: dict, name: str) -> str | None:
    value = data.get(name)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise WorkbenchError.saying(f"'{name}' is a text")
    return value.strip()


def _number(text: str, name: str) -> int:
    if not is_number(text):
        raise WorkbenchError.saying(f"'{name}' is a whole number, not '{text}'")
    return int(text)


def _svg(text: str) -> Response:
    return Response(text, media_type="image/svg+xml")


async def _not_found(request: Request, err):
    return JSONResponse(WorkbenchError.saying(f"no such page: {request.url.path}", 404).as_json(), status_code=404)


async def _not_allowed(request: Request, err):
    return JSONResponse(WorkbenchError.saying(f"{request.method} is not how {request.url.path} is asked", 405).as_json(),
                        status_code=405)


def _guarded(endpoint):
    """An endpoint whose refusals are JSON diagnostics, and whose bugs are a JSON internal error
    (exit code 70's message at the command line), never a traceback."""
    from starlette.routing import request_response

    async def guarded(request: Request):
        try:
            if inspect.iscoroutinefunction(endpoint):
                return await endpoint(request)
            return await _run_sync(endpoint, request)  # a picture or a load: work for the thread pool
        except WorkbenchError as err:
            return JSONResponse(err.as_json(), status_code=err.status)
        except Exception as err:  # the last line of defence, as cli/main.py's
            if os.environ.get("UMPIRE_DEBUG"):
                raise
            message = (f"internal error ({type(err).__name__}: {err}); this is a bug in Umpire, please report it "
                       "with the input that caused it (set UMPIRE_DEBUG=1 for details)")
            return JSONResponse(WorkbenchError.saying(message, 500).as_json(), status_code=500)

    return request_response(guarded)
