"""The web app's routes: the page, its two assets and the JSON API (SPEC section 15).

Routes only: each reads its request, hands the work to :mod:`.api` (in a
worker process, :mod:`.jobs`, for anything that may take long) or to a
game of :mod:`.games`, and turns the answer into a response. The API is
described in docs/commands/serve.md.

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app()) as client:
...     client.post("/api/analyze", json={"board": "1?\\n", "mines": 1}).json()["mine"]
[[0, 1]]
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import cache
from importlib import resources
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from minesat.board import PRESETS, Layout
from minesat.formats.wanted import InputError, board_from_content
from minesat.generate import FirstClick
from minesat.perfect import DEFAULT_MAX_STATES
from minesat.web import api
from minesat.web.games import MAX_GAMES, GameError, GameSession, GameSessions
from minesat.web.jobs import JobFailed, JobTimeout, PoolBusy, WorkerPool
from minesat.words import plural

#: Largest request body read (bytes); a larger one is answered 413 unread.
MAX_BODY = 1 << 20

#: Every request is answered within this many seconds (SPEC: within 30 s), waiting included.
WORK_SECONDS = 25.0

#: The page's files, served from the package (nothing is fetched from elsewhere): the package
#: each comes from, and its type. The board is drawn with the game viewer's stylesheet.
ASSETS = {
    "app.js": ("minesat.web", "static", "text/javascript"),
    "app.css": ("minesat.web", "static", "text/css"),
    "viewer.css": ("minesat.viewer", "assets", "text/css"),
}


class HTTPError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def create_app(
    *,
    work_seconds: float = WORK_SECONDS,
    workers: int | None = None,
    perfect_workers: int | None = None,
    max_states: int = DEFAULT_MAX_STATES,
    max_games: int = MAX_GAMES,
) -> Starlette:
    """The app: ``workers`` processes for analyses and reviews (default: one per core, at least
    two), ``perfect_workers`` for perfect play (default half the cores, at least one), so a long
    search never holds up an analysis. ``work_seconds`` bounds every request.
    """
    cores = os.cpu_count() or 1
    pools = {
        "work": WorkerPool(workers or max(2, cores)),
        "perfect": WorkerPool(perfect_workers or max(1, cores // 2)),
    }
    games = GameSessions(max_games)

    async def in_worker(
        pool: str, function: Callable[..., Any], *args: Any, perfect: bool = False
    ) -> Response:
        try:
            status, payload = await pools[pool].run(work_seconds, api.answer, function, *args)
        except PoolBusy:
            return _error(503, f"busy: every worker stayed busy for {work_seconds:.0f} s; try again")
        except JobTimeout:
            if perfect:
                return _error(422, f"perfect play past the time limit of {work_seconds:.0f} s: give a "
                              "position with fewer covered cells or a smaller max_states")
            return _error(503, f"not done within the time limit of {work_seconds:.0f} s")
        except JobFailed as err:
            return _error(500, f"internal error: {err}")
        return JSONResponse(payload, status)

    async def page(request: Request) -> Response:
        return Response(_page(), media_type="text/html; charset=utf-8")

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return _error(404, f"no asset {name}")
        return Response(_asset(name), media_type=f"{ASSETS[name][2]}; charset=utf-8")

    async def analyze(request: Request) -> Response:
        return await in_worker("work", api.analyze_request, await _json(request))

    async def position(request: Request) -> Response:
        return await in_worker("work", api.position_request, await _json(request))

    async def explain(request: Request) -> Response:
        return await in_worker("work", api.explain_request, await _json(request))

    async def best(request: Request) -> Response:
        return await in_worker("work", api.best_request, await _json(request))

    async def perfect(request: Request) -> Response:
        return await in_worker("perfect", api.perfect_request, await _json(request), max_states, perfect=True)

    async def replay(request: Request) -> Response:
        name = request.query_params.get("name", "upload.avf")
        return await in_worker("work", api.replay_request, await _body(request), name)

    async def store(request: Request) -> Response:
        name = request.query_params.get("name", "upload.sqlite")
        given = request.query_params.get("game")
        if given is not None and not given.isdigit():
            return _error(400, f"game must be a game's index (a whole number), not {given!r}")
        data = await _body(request)
        return await in_worker("work", api.store_request, data, name, None if given is None else int(given))

    async def new_game(request: Request) -> Response:
        body = await _json(request)
        try:
            rows, cols, mines, options = _game_options(body)
            game = games.new(rows, cols, mines, **options)
        except (GameError, ValueError) as err:
            return _error(400, str(err))
        return JSONResponse(game.state())

    def session(request: Request) -> GameSession:
        try:
            return games.get(request.path_params["game"])
        except KeyError:
            raise HTTPError(404, "no such game (it may have been dropped: start a new one)") from None

    async def game_state(request: Request) -> Response:
        return JSONResponse(session(request).state())

    async def move(request: Request) -> Response:
        game = session(request)
        body = await _json(request)
        text = body.get("move") if isinstance(body, dict) else None
        if not isinstance(text, str):
            return _error(400, '"move" is required: A5 uncovers, A5* flags, A5- unflags, A5+ chords')
        try:
            last = await anyio.to_thread.run_sync(game.play, text)
        except GameError as err:
            return _error(409, str(err))
        return JSONResponse(game.state(last))

    async def hint(request: Request) -> Response:
        game = session(request)
        with game.lock:  # not half-way through a move
            position = None if game.reviewer is None else game.reviewer.game.position()
        if position is None:
            return _error(409, "nothing to analyse before the first click: every cell is alike")
        return await in_worker("work", api.hint_request, position)

    async def review(request: Request) -> Response:
        game = session(request)
        if not game.over:
            return _error(409, "the game is not over: its review would show the mines")
        reviewer = game.reviewer
        assert reviewer is not None and reviewer.game.layout is not None
        moves = [m.move for m in reviewer.moves]
        title = f"Your game: {game.rows}x{game.cols}, {plural(game.mines, 'mine')}"
        return await in_worker(
            "work", api.game_review_request, reviewer.game.layout, moves, game.rule.value, title, game.about()
        )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            for pool in pools.values():
                pool.close()

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPError)
        return _error(exc.status, exc.message)

    routes = [
        Route("/", page),
        Route("/assets/{name}", asset),
        Route("/api/analyze", analyze, methods=["POST"]),
        Route("/api/position", position, methods=["POST"]),
        Route("/api/explain", explain, methods=["POST"]),
        Route("/api/best", best, methods=["POST"]),
        Route("/api/perfect", perfect, methods=["POST"]),
        Route("/api/replay", replay, methods=["POST"]),
        Route("/api/store", store, methods=["POST"]),
        Route("/api/game", new_game, methods=["POST"]),
        Route("/api/game/{game}", game_state),
        Route("/api/game/{game}/move", move, methods=["POST"]),
        Route("/api/game/{game}/hint", hint, methods=["POST"]),
        Route("/api/game/{game}/review", review, methods=["POST"]),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPError: http_error})


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status)


async def _body(request: Request) -> bytes:
    """The request's body, refused (413) past :data:`MAX_BODY` bytes without reading it all."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise HTTPError(413, f"the body is over {MAX_BODY} bytes (1 MB)")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise HTTPError(413, f"the body is over {MAX_BODY} bytes (1 MB)")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json(request: Request) -> Any:
    data = await _body(request)
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as err:
        raise HTTPError(400, f"the body is not JSON: {' '.join(str(err).split())}") from None


def _game_options(body: object) -> tuple[int, int, int, dict[str, Any]]:
    """``{"preset"}`` or ``{"rows", "cols", "mines"}``, ``first_click``, ``seed``; or ``{"layout"}``."""
    if not isinstance(body, dict):
        raise GameError("the body must be a JSON object")
    if body.get("layout") is not None:
        layout = _layout(body)
        return layout.rows, layout.cols, layout.mine_count, {"layout": layout}
    preset = body.get("preset")
    if preset is not None:
        if preset not in PRESETS:
            raise GameError(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
        rows, cols, mines = PRESETS[preset]
    else:
        size = [body.get(key) for key in ("rows", "cols", "mines")]
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in size):
            raise GameError('give "preset" or whole numbers "rows", "cols" and "mines"')
        rows, cols, mines = size
        if rows < 1 or cols < 1:
            raise GameError(f"a board has at least one row and one column, not {rows}x{cols}")
    rule = body.get("first_click", FirstClick.OPENING.value)
    if rule not in [r.value for r in FirstClick]:
        raise GameError(f"first_click must be one of {', '.join(r.value for r in FirstClick)}, not {rule!r}")
    seed = body.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise GameError(f"seed must be a whole number >= 0, not {seed!r}")
    return rows, cols, mines, {"rule": rule, "seed": seed}


def _layout(body: dict[str, Any]) -> Layout:
    """A given layout: ``layout`` is a layout file's content (``.mbf`` base64-encoded)."""
    fmt = body.get("layout_format") or "text"
    if fmt not in ("text", "mine", "json", "mbf"):
        raise GameError(f"layout_format must be one of text, mine, json, mbf, not {fmt!r}")
    text = body["layout"]
    if not isinstance(text, str):
        raise GameError('"layout" must be a layout file\'s content, as a string')
    data: str | bytes = text
    if fmt == "mbf":
        try:
            data = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise GameError('an MBF "layout" is sent base64-encoded') from None
    try:
        layout = board_from_content(data, "layout", fmt, "layout", "play")
    except InputError as err:
        raise GameError(str(err)) from None
    assert isinstance(layout, Layout)
    return layout


@cache
def _asset(name: str) -> bytes:
    package, folder, _ = ASSETS[name]
    return resources.files(package).joinpath(folder, name).read_bytes()


@cache
def _page() -> bytes:
    return resources.files("minesat.web").joinpath("static", "index.html").read_bytes()
