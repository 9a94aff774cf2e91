"""The web app's routes: the page, its two assets and the JSON API (docs/commands/serve.md).

Routes only: each reads its request, hands the work to :mod:`.api` (in a
worker process, :mod:`.jobs`, for anything that may take long) or to a
game of :mod:`.games` (kept by :mod:`.keeper`), and turns the answer into a
response. Every request passes :mod:`.guard` first (its host, its origin, its
client, its rate).

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app(allowed_hosts=["testserver"])) as client:
...     client.post("/api/analyze", json={"board": "1?\\n", "mines": 1}).json()["mine"]
[[0, 1]]
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
import os
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from minesat import usecases
from minesat.board import Cell, Layout, Move
from minesat.errors import InputError
from minesat.usecases import DEFAULT_MAX_STATES, FirstClick, games
from minesat.verdict import Verdict
from minesat.web import api
from minesat.web.games import (
    AUTO_STRATEGY,
    AutoStep,
    GameChanged,
    GameError,
    GameSession,
    preflag_json,
    read_seed,
    step_json,
)
from minesat.web.guard import CLIENT_RATE, Guard, content_policy, owner_of
from minesat.web.jobs import JobFailed, JobTimeout, PoolBusy, WorkerPool
from minesat.web.keeper import CLIENT_GAMES, LIVE_GAMES, GameKeeper, StoreInUse, StoreUnreadable, TooMany
from minesat.words import plural

__all__ = [
    "ANALYZE_SHARE",
    "ASSETS",
    "ASSET_NAME",
    "AUTO_GUESS_SHARE",
    "AUTO_SECONDS",
    "BODY_LIMIT",
    "FORK_SHARE",
    "FORK_TRIES",
    "HINT_MARKS_SECONDS",
    "MAX_AUTO_MOVES",
    "MAX_BODY",
    "MAX_REPLAY_JOBS",
    "NO_GUESS_SHARE",
    "REPLAY_SECONDS",
    "REPLAY_WAIT",
    "TYPES",
    "UPLOAD_LIMIT",
    "WORK_SECONDS",
    "HTTPError",
    "ReplayJob",
    "Server",
    "StoreInUse",
    "StoreUnreadable",
    "create_app",
]

#: Largest request body read (bytes); a larger one is answered 413 unread.
MAX_BODY = 1 << 20

#: Every request is answered within this many seconds, waiting included (docs/commands/serve.md
#: promises 30 s).
WORK_SECONDS = 25.0

#: The page's files, served from the package (nothing is fetched from elsewhere): every file of
#: ``static/`` of a type below (:data:`TYPES`) by its name, and these from other packages: the
#: board is drawn with the game viewer's stylesheet and its row names and colours (one file for both).
ASSETS = {
    "viewer.css": ("minesat.viewer", "assets"),
    "drawing.js": ("minesat.viewer", "assets"),
}

#: The types of the files served under ``/assets/``, by extension.
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}

#: A name under ``/assets/``: one file, no folder.
ASSET_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")

#: Share of the time limit a no-guess board may take to be made, so that its own
#: message (how many layouts were tried) comes back before the worker is stopped.
NO_GUESS_SHARE = 0.8

#: Share of the time limit the automatic player's own guess may take; past it the guess is chosen
#: again with exact play held to what a hint searches (on boards of up to 36 cells the player
#: searches up to 70 000 layouts, half a minute for some positions).
AUTO_GUESS_SHARE = 0.6

#: Seconds a hint that comes with a move may spend looking for dead cells (its marks); the rest
#: come from ``/hint`` (the page asks for them once the hint is shown). The whole search took a
#: median 0.2 s and up to 1.1 s a move of expert games, five times the analysis and move together.
HINT_MARKS_SECONDS = 0.03

#: Most moves of the automatic player one request may ask for.
MAX_AUTO_MOVES = 1000

#: A request for many moves of the automatic player stops after the move that passes this many
#: seconds (the page asks again), so that a long game never holds a request near the time limit.
AUTO_SECONDS = 8.0

#: A replay's full review runs in the background this long at most (seconds); past it the page
#: is told to run ``minesat replay FILE --html OUT`` instead.
REPLAY_SECONDS = 240.0

#: How long ``POST /api/replay`` waits for the full review before it answers with the moves alone.
REPLAY_WAIT = 3.0

#: Replay reviews kept (running or done) for the page to ask after; past it the oldest go.
MAX_REPLAY_JOBS = 16


#: The share of the time limit /api/analyze gives the analysis (the rest: the marks, the answer).
ANALYZE_SHARE = 0.5

#: The share of the time limit a copy's hidden cells may take to be drawn (its message comes back
#: before the worker is stopped), and how often a copy is drawn again when the game moved meanwhile.
FORK_SHARE = 0.8
FORK_TRIES = 3


class HTTPError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class ReplayJob:
    """A replay's full review running in the background: how far it has got, then its answer."""

    def __init__(self, name: str) -> None:
        self.id = secrets.token_urlsafe(12)
        self.name = name
        self.began = time.monotonic()
        self.progress: dict[str, Any] = {"stage": "moves", "judged": 0, "moves": None}
        self.answer: tuple[int, dict[str, Any]] | None = None
        self.task: asyncio.Task[None] | None = None

    def state(self) -> tuple[int, dict[str, Any]]:
        """The full answer once done (``done`` true); until then how far it has got."""
        if self.answer is not None:
            status, body = self.answer
            return status, {**body, "job": self.id, "done": True} if status == 200 else body
        seconds = round(time.monotonic() - self.began, 1)
        return 200, {"job": self.id, "done": False, **self.progress, "seconds": seconds}


#: What a worker's job reports its progress to.
Progress = Callable[[Any], None] | None


class Server:
    """What the routes share, kept on the app (``app.state.server``): the games, the worker pools,
    the replay reviews running in the background, and the limits the app was made with."""

    def __init__(
        self,
        *,
        work_seconds: float,
        workers: int | None,
        perfect_workers: int | None,
        max_states: int,
        replay_seconds: float,
        replay_wait: float,
        db: str | Path | None,
        live_games: int,
        client_games: int,
    ) -> None:
        self.games = GameKeeper(db, live=live_games, client_games=client_games)
        cores = os.cpu_count() or 1
        self.pools = {
            "work": WorkerPool(workers or max(2, cores)),
            "perfect": WorkerPool(perfect_workers or max(1, cores // 2)),
            "background": WorkerPool(1),
        }
        self.replays: OrderedDict[str, ReplayJob] = OrderedDict()
        self.work_seconds, self.max_states = work_seconds, max_states
        self.replay_seconds, self.replay_wait = replay_seconds, replay_wait
        self.busy = f"busy: every worker stayed busy for {work_seconds:.0f} s; try again"

    async def in_worker(
        self, pool: str, function: Callable[..., Any], *args: Any, perfect: bool = False
    ) -> Response:
        status, payload = await self.answer_in(pool, function, *args, perfect=perfect)
        return JSONResponse(payload, status)

    async def answer_in(
        self, pool: str, function: Callable[..., Any], *args: Any, perfect: bool = False
    ) -> tuple[int, dict[str, Any]]:
        """``function(*args)``'s answer, computed in a worker of ``pool``: ``(status, object)``."""
        limit = f"within the time limit of {self.work_seconds:.0f} s"
        try:
            answer: tuple[int, dict[str, Any]]
            answer = await self.pools[pool].run(self.work_seconds, api.answer, function, *args)
            return answer
        except PoolBusy:
            return 503, {"error": self.busy}
        except JobTimeout:
            if perfect:
                return 422, {"error": f"perfect play did not finish {limit}: too many cells are covered for "
                             "an exact search; try a position with fewer covered cells"}
            return 503, {"error": f"not done {limit}"}
        except JobFailed as err:
            return 500, {"error": f"internal error: {err}"}

    async def review_replay(self, job: ReplayJob, data: bytes) -> None:
        def progress(value: dict[str, Any]) -> None:
            job.progress = value

        command = f"minesat replay {job.name} --html {job.name}.html"
        try:
            job.answer = await self.pools["background"].run(
                self.replay_seconds, api.answer, api.replay_request, data, job.name, progress=progress
            )
        except (PoolBusy, JobTimeout):
            done = job.progress
            judged = done["moves"] is not None
            so_far = f" ({done['judged']} of its {done['moves']} moves judged)" if judged else ""
            limit = f"{self.replay_seconds:.0f} s here{so_far}"
            job.answer = (503, {"error": f"the review of this game did not finish within {limit}: run "
                                         f"`{command}` on your own machine"})
        except JobFailed as err:
            job.answer = (500, {"error": f"internal error: {err}"})

    def keep(self, game: GameSession) -> None:
        """A new game in the store, within its limits (429 past them)."""
        try:
            self.games.add(game)
        except TooMany as err:
            raise HTTPError(429, str(err)) from None

    async def play(self, game: GameSession, text: Move | str, step: AutoStep | None = None) -> Any:
        """Play one move, or the automatic player's ``step`` (the no-guess board made in a worker at
        the first uncover): the state's ``last``."""
        try:
            start = game.board_needed(text)
            layout = made = None
            if start is not None:
                layout, made = await self.no_guess_board(game, start)
            if step is not None:
                reviewed = await anyio.to_thread.run_sync(game.auto_play, step, layout, made)
            else:
                reviewed = await anyio.to_thread.run_sync(game.play, text, layout, made)
        except GameError as err:
            raise HTTPError(409, str(err)) from None
        if reviewed is None:  # a flag before the first uncover
            return preflag_json(game.parse(text))
        return reviewed

    async def no_guess_board(self, game: GameSession, start: Cell) -> tuple[Layout, dict[str, Any]]:
        """The no-guess board for the game's first uncover at ``start``, made in a worker."""
        if game.making is not None:
            raise HTTPError(409, "the no-guess board is being made: wait for it")
        began = time.monotonic()
        game.making = {"tries": 0, "seconds": 0.0}

        def progress(value: dict[str, Any]) -> None:
            game.making = value

        budget = self.work_seconds * NO_GUESS_SHARE
        try:
            payload = await self.job(
                self.work_seconds, api.no_guess_request, game.rows, game.cols, game.mines, start,
                game.rule.value, game.seed, budget, progress=progress,
            )
        except JobTimeout:
            limit = f"{self.work_seconds:.0f} s"
            raise HTTPError(503, f"no no-guess board made within the time limit of {limit}: "
                            "try fewer mines or a smaller board") from None
        finally:
            game.making = None
        made = {**payload["made"], "seconds": round(time.monotonic() - began, 3)}
        mines = frozenset((r, c) for r, c in payload["mines"])
        return Layout(game.rows, game.cols, mines), made

    async def with_hint(
        self, game: GameSession, state: dict[str, Any], asked: tuple[bool, bool]
    ) -> dict[str, Any]:
        """``state`` with the hint on the position it shows (``hint``), when ``asked`` for one
        (``(hint, marks)``) and the game is in progress: the move's answer brings the next hint
        (docs/commands/serve.md, "A move's hint"). Its marks' search for dead cells is held to
        :data:`HINT_MARKS_SECONDS` (``complete`` false past it: ``/hint`` has them all). A hint that
        cannot be given says why (``{"error": ...}``); the move was played all the same."""
        hint, marks = asked
        if not hint or state["status"] != "playing":
            return state
        if not game.hinted:
            game.hinted = True  # a game played with hints is counted apart
            self.games.save(game)
        position = game.position_at(state["moves"])
        if position is None:
            return state  # before the first uncover (nothing to analyse), or moved on meanwhile
        status, answer = await self.answer_in("work", api.hint_request, position, marks, HINT_MARKS_SECONDS)
        return {**state, "hint": answer if status == 200 else {"error": answer["error"]}}

    async def autoplay(
        self, game: GameSession, count: int, guesses: bool, strategy: str, asked: tuple[bool, bool]
    ) -> dict[str, Any]:
        steps: list[dict[str, Any]] = []
        last: Any = None
        stopped: str | None = None
        pending: dict[str, Any] | None = None
        began = time.monotonic()
        while len(steps) < count and (not steps or time.monotonic() - began < AUTO_SECONDS):
            try:
                step = await anyio.to_thread.run_sync(game.auto_step)
            except GameError:
                break  # over
            if isinstance(step, AutoStep):
                if step.verdict is Verdict.GUESS and not guesses:
                    stopped, pending = "guess", step_json(step, None)
                    break
                last = await self.play(game, step.move, step)
                steps.append(step_json(step, last))
                continue
            cell, probability, note = await self.auto_guess(step, strategy)
            chosen = AutoStep(Move(cell), Verdict.GUESS, probability=probability)
            if not guesses:
                stopped, pending = "guess", step_json(chosen, None)
                break
            try:
                last = await anyio.to_thread.run_sync(game.auto_guess, step, chosen)
            except GameChanged:
                continue
            except GameError as err:
                raise HTTPError(409, str(err)) from None
            steps.append(step_json(chosen, last) | ({"note": note} if note else {}))
        state = game.state(last)
        if game.over:
            stopped = state["status"]
        state = await self.with_hint(game, state, asked)
        return {**state, "auto": steps, "stopped": stopped, "next": pending}

    async def auto_guess(self, position: Any, strategy: str) -> tuple[Cell, float, str]:
        """The automatic player's guess on ``position``, chosen in a worker; past most of the time
        limit, with its exact play held to what a hint searches (said in the note)."""
        note = ""
        first = self.work_seconds * AUTO_GUESS_SHARE
        try:
            payload = await self.job(first, api.auto_guess_request, position, strategy)
        except JobTimeout:
            note = (f"the player's exact search did not finish within {first:.0f} s: this guess "
                    "searched at most 2 000 layouts")
            try:
                rest = self.work_seconds - first
                payload = await self.job(rest, api.auto_guess_request, position, strategy, True)
            except JobTimeout:
                raise HTTPError(503, f"the automatic player's guess was not chosen within the time limit of "
                                f"{self.work_seconds:.0f} s") from None
        return (payload["cell"][0], payload["cell"][1]), payload["probability"], note

    async def job(
        self, seconds: float, function: Callable[..., Any], *args: Any, progress: Progress = None
    ) -> Any:
        """``function(*args)``'s object, computed in a worker of the work pool within ``seconds``;
        :class:`HTTPError` for its own error, 503 when every worker stays busy, 500 when one dies.
        :class:`JobTimeout` is the caller's to turn into words."""
        try:
            pool = self.pools["work"]
            status, payload = await pool.run(seconds, api.answer, function, *args, progress=progress)
        except PoolBusy:
            raise HTTPError(503, self.busy) from None
        except JobFailed as err:
            raise HTTPError(500, f"internal error: {err}") from None
        if status != 200:
            raise HTTPError(status, payload["error"])
        return payload

    @asynccontextmanager

    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            for job in self.replays.values():
                if job.task is not None:
                    job.task.cancel()
            for pool in self.pools.values():
                pool.close()
            self.games.close()


def create_app(
    *,
    work_seconds: float = WORK_SECONDS,
    workers: int | None = None,
    perfect_workers: int | None = None,
    max_states: int = DEFAULT_MAX_STATES,
    replay_seconds: float = REPLAY_SECONDS,
    replay_wait: float = REPLAY_WAIT,
    db: str | Path | None = None,
    allowed_hosts: Iterable[str] = (),
    live_games: int = LIVE_GAMES,
    client_games: int = CLIENT_GAMES,
    client_rate: float = CLIENT_RATE,
) -> Starlette:
    """The app: ``workers`` processes for analyses and reviews (default: one per core, at least
    two), ``perfect_workers`` for perfect play (default half the cores, at least one), so a long
    search never holds up an analysis, and one for the full reviews of replays, which run in the
    background up to ``replay_seconds``. ``work_seconds`` bounds every request.

    The games are kept in the SQLite store ``db`` (``None``: in memory only, gone with the app),
    ``live_games`` of them in memory too; each client holds at most ``client_games`` and makes
    at most ``client_rate`` requests a second (:mod:`.keeper`, :mod:`.guard`). The app answers
    to the names of this machine and ``allowed_hosts`` (the server's ``--host`` and
    ``--allowed-host``; the tests' ``testserver``). Raises :class:`~minesat.web.keeper.StoreInUse`
    when another server holds ``db``.
    """
    server = Server(work_seconds=work_seconds, workers=workers, perfect_workers=perfect_workers,
                    max_states=max_states, replay_seconds=replay_seconds, replay_wait=replay_wait, db=db,
                    live_games=live_games, client_games=client_games)
    routes = [
        Route("/", page),
        Route("/assets/{name}", asset),
        Route("/api/meta", meta),
        Route("/api/analyze", analyze, methods=["POST"]),
        Route("/api/position", position, methods=["POST"]),
        Route("/api/explain", explain, methods=["POST"]),
        Route("/api/best", best, methods=["POST"]),
        Route("/api/perfect", perfect, methods=["POST"]),
        Route("/api/replay", replay, methods=["POST"]),
        Route("/api/replay/{job}", replay_state),
        Route("/api/store", store, methods=["POST"]),
        Route("/api/game", new_game, methods=["POST"]),
        Route("/api/game/{game}", game_state),
        Route("/api/game/{game}/move", move, methods=["POST"]),
        Route("/api/game/{game}/auto", auto, methods=["POST"]),
        Route("/api/game/{game}/hint", hint, methods=["POST"]),
        Route("/api/game/{game}/fork", fork, methods=["POST"]),
        Route("/api/game/{game}/review", review, methods=["POST"]),
    ]
    guard = Middleware(Guard, hosts=allowed_hosts, policy=_policy(), rate=client_rate)
    app = Starlette(routes=routes, lifespan=server.lifespan, exception_handlers={HTTPError: http_error},
                    middleware=[guard])
    app.state.server = server
    return app


# --- the routes, one function each ------------------------------------------------------------


def _server(request: Request) -> Server:
    """The app's :class:`Server`."""
    server: Server = request.app.state.server
    return server


def answer_state(request: Request, game: GameSession, state: dict[str, Any]) -> Response:
    """A game's state as answered: with ``own``, whether the client asking made it."""
    return JSONResponse({**state, "own": is_own(request, game)})


def session(request: Request) -> GameSession:
    server = _server(request)
    try:
        return server.games.get(request.path_params["game"])
    except KeyError:
        raise HTTPError(404, "no such game (it may have been dropped: start a new one)") from None


def is_own(request: Request, game: GameSession) -> bool:
    client = request.state.client
    return bool(client) and game.owner == owner_of(client)


def owned(request: Request) -> GameSession:
    """The game of the request, when the client asking made it; else 403: anyone with its id
    may watch it and play on in a copy, only its maker moves in it."""
    game = session(request)
    if not is_own(request, game):
        raise HTTPError(403, "this game belongs to another player: play on in a copy of it "
                             f"(POST /api/game/{game.id}/fork; the page makes one by itself)")
    return game


async def page(request: Request) -> Response:
    return Response(_page(), media_type="text/html; charset=utf-8")


async def meta(request: Request) -> Response:
    return JSONResponse(usecases.meta())


async def asset(request: Request) -> Response:
    name = request.path_params["name"]
    data = _asset(name)
    if data is None:
        return _error(404, f"no asset {name}")
    return Response(data, media_type=TYPES[os.path.splitext(name)[1]])


async def analyze(request: Request) -> Response:
    server = _server(request)
    # The analysis answers within its share of the limit, with estimates past it
    # (docs/commands/serve.md, POST /api/analyze).
    body = await _json(request)
    return await server.in_worker("work", api.analyze_request, body, server.work_seconds * ANALYZE_SHARE)


async def position(request: Request) -> Response:
    server = _server(request)
    return await server.in_worker("work", api.position_request, await _json(request))


async def explain(request: Request) -> Response:
    server = _server(request)
    return await server.in_worker("work", api.explain_request, await _json(request))


async def best(request: Request) -> Response:
    server = _server(request)
    return await server.in_worker("work", api.best_request, await _json(request))


async def perfect(request: Request) -> Response:
    server = _server(request)
    body = await _json(request)
    return await server.in_worker("perfect", api.perfect_request, body, server.max_states, perfect=True)


async def replay(request: Request) -> Response:
    """A replay's game at once; its full review within the app's ``replay_wait`` seconds, else in the
    background (``GET /api/replay/JOB``)."""
    server = _server(request)
    name = request.query_params.get("name", "upload.avf")
    data = await _body(request, UPLOAD_LIMIT)
    job = ReplayJob(name)
    job.task = asyncio.create_task(server.review_replay(job, data))
    server.replays[job.id] = job
    while len(server.replays) > MAX_REPLAY_JOBS:
        _, dropped = server.replays.popitem(last=False)
        if dropped.task is not None:
            dropped.task.cancel()
    events = await server.in_worker("work", api.replay_events_request, data, name)
    if events.status_code != 200:
        job.task.cancel()
        server.replays.pop(job.id, None)
        return events
    with contextlib.suppress(TimeoutError):
        left = server.replay_wait - (time.monotonic() - job.began)
        await asyncio.wait_for(asyncio.shield(job.task), max(0.0, left))
    if job.answer is not None and job.answer[0] == 200:
        return JSONResponse(job.state()[1])
    # The moves now; the review (or why there is none) from GET /api/replay/JOB.
    return JSONResponse({**json.loads(bytes(events.body)), "job": job.id, "done": False, **job.progress})


async def replay_state(request: Request) -> Response:
    server = _server(request)
    job = server.replays.get(request.path_params["job"])
    if job is None:
        return _error(404, "no such replay review (it may have been dropped: open the file again)")
    status, body = job.state()
    return JSONResponse(body, status)


async def store(request: Request) -> Response:
    server = _server(request)
    name = request.query_params.get("name", "upload.sqlite")
    given = request.query_params.get("game")
    if given is not None and not given.isdigit():
        return _error(400, f"game must be a game's index (a whole number), not {given!r}")
    data = await _body(request, UPLOAD_LIMIT)
    game = None if given is None else int(given)
    return await server.in_worker("work", api.store_request, data, name, game)


async def new_game(request: Request) -> Response:
    server = _server(request)
    body = await _json(request)
    try:
        rows, cols, mines, options = _game_options(body)
        game = GameSession(rows, cols, mines, **options)
        moves = _moves(body)
    except (GameError, ValueError) as err:
        return _error(400, str(err))
    game.owner = owner_of(request.state.client)
    server.keep(game)  # before its moves: a no-guess board's progress can be asked for meanwhile
    last: Any = None
    for number, text in enumerate(moves, 1):
        try:
            last = await server.play(game, text)
        except HTTPError as err:
            server.games.discard(game.id)
            return _error(err.status, f"move {number} ({text}): {err.message}")
    server.games.save(game)
    return answer_state(request, game, game.state(last, log=True))


async def game_state(request: Request) -> Response:
    game = session(request)
    return answer_state(request, game, game.state(log=True))


async def move(request: Request) -> Response:
    server = _server(request)
    game = owned(request)
    body = await _json(request)
    text = body.get("move") if isinstance(body, dict) else None
    if not isinstance(text, str):
        return _error(400, '"move" is required: A5 uncovers, A5* flags, A5- unflags, A5+ chords')
    asked = _hint_asked(body)
    try:
        state = game.state(await server.play(game, text))
    finally:
        server.games.save(game)
    return answer_state(request, game, await server.with_hint(game, state, asked))


async def auto(request: Request) -> Response:
    """The automatic player makes its next moves (``moves``, 1 by default) in the game."""
    server = _server(request)
    game = owned(request)
    body = await _json(request, empty={})
    if not isinstance(body, dict):
        return _error(400, "the body must be a JSON object")
    count = body.get("moves", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_AUTO_MOVES:
        return _error(400, f'"moves" must be a whole number from 1 to {MAX_AUTO_MOVES}, not {count!r}')
    guesses = body.get("guesses", True)
    if not isinstance(guesses, bool):
        return _error(400, f'"guesses" must be true or false, not {guesses!r}')
    strategy = body.get("strategy", AUTO_STRATEGY)
    if not isinstance(strategy, str) or not usecases.is_strategy(strategy):
        return _error(400, f'"strategy" must be a strategy of minesat solve, not {strategy!r}')
    asked = _hint_asked(body)
    if game.over:
        return _error(409, f"the game is over ({game.state()['status']})")
    try:
        return answer_state(request, game, await server.autoplay(game, count, guesses, strategy, asked))
    finally:
        server.games.save(game)  # once a batch: its moves are the answer's


async def hint(request: Request) -> Response:
    """The position analysed: what its player sees, nothing hidden; anyone may ask (the hint
    of a game in progress is what its page would show with hints on)."""
    server = _server(request)
    game = session(request)
    body = await _json(request, empty={})
    marks = body.get("marks", False) if isinstance(body, dict) else None
    if not isinstance(marks, bool):
        return _error(400, 'the body, when there is one, is {"marks": true} or {"marks": false}')
    position = game.position_at()
    if position is None:
        return _error(409, "nothing to analyse before the first click: every cell is alike")
    if is_own(request, game) and not game.hinted and not game.over:
        game.hinted = True
        server.games.save(game)
    return await server.in_worker("work", api.hint_request, position, marks)


async def fork(request: Request) -> Response:
    """``POST /api/game/ID/fork``: a copy of a game in progress under a new id, the asking
    client's, to play on apart (the page plays someone's shared game in one); the state, with
    its log, as ``GET`` gives it."""
    server = _server(request)
    game = session(request)
    for _ in range(FORK_TRIES):
        if game.over:
            return _error(409, f"the game is over ({game.state()['status']}): nothing to play on")
        position, played = game.position_at(), len(game.log)
        if position is None:  # before the first uncover: the copy draws its own board
            twin = game.fork()
            break
        # The copy's own secret, drawn from what the game shows, in a worker (it counts layouts).
        seed = secrets.randbelow(2**63)
        clear = [] if game.start is None else sorted(
            games.kept_clear(game.rows, game.cols, start=game.start, rule=game.judged))
        drawn = await server.job(server.work_seconds, api.fork_request, position, game.mines, seed, clear,
                          server.work_seconds * FORK_SHARE)
        layout = Layout(game.rows, game.cols, frozenset((r, c) for r, c in drawn["mines"]))
        copied = await anyio.to_thread.run_sync(_fork_unmoved, game, played, layout, seed)
        if copied is not None:
            twin = copied
            break
    else:
        return _error(409, "the game kept moving while it was copied: ask again")
    twin.owner = owner_of(request.state.client)
    server.keep(twin)
    return answer_state(request, twin, twin.state(log=True))


async def review(request: Request) -> Response:
    server = _server(request)
    game = session(request)
    if not game.over:
        return _error(409, "the game is not over: its review would show the mines")
    reviewer = game.reviewer
    assert reviewer is not None and reviewer.game.layout is not None
    moves = [m.move for m in reviewer.moves]
    title = f"Your game: {game.rows}x{game.cols}, {plural(game.mines, 'mine')}"
    return await server.in_worker(
        "work", api.game_review_request, reviewer.game.layout, moves, game.rule.value, title,
        game.about(), game.figures(),
    )


def _fork_unmoved(game: GameSession, played: int, layout: Layout, seed: int) -> GameSession | None:
    """The copy, when the game is still at ``played`` moves (the layout was drawn for that
    position); ``None`` when it has moved on since."""
    with game.lock:
        return game.fork(layout, seed) if len(game.log) == played else None


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPError)
    return _error(exc.status, exc.message)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status)


#: What a body over :data:`MAX_BODY` is told: a request's, or a file's sent from the page.
BODY_LIMIT = f"the body is over {MAX_BODY} bytes (1 MB)"
UPLOAD_LIMIT = (f"the file is over 1 MB ({MAX_BODY} bytes), the most the page takes, for replays and "
                "databases alike: review a larger replay with `minesat replay FILE --html OUT`")


async def _body(request: Request, too_big: str = BODY_LIMIT) -> bytes:
    """The request's body, refused (413, ``too_big``) past :data:`MAX_BODY` bytes without reading it all."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise HTTPError(413, too_big)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise HTTPError(413, too_big)
        chunks.append(chunk)
    return b"".join(chunks)


async def _json(request: Request, empty: Any = None) -> Any:
    """The body read as JSON; an empty body is ``empty`` when given (an optional body)."""
    data = await _body(request)
    if empty is not None and not data.strip():
        return empty
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as err:
        raise HTTPError(400, f"the body is not JSON: {' '.join(str(err).split())}") from None


def _game_options(body: object) -> tuple[int, int, int, dict[str, Any]]:
    """``{"preset"}`` or ``{"rows", "cols", "mines"}``, ``first_click``, ``seed``; or ``{"layout"}``."""
    if not isinstance(body, dict):
        raise GameError("the body must be a JSON object")
    if body.get("layout") is not None:
        if body.get("no_guess"):
            raise GameError("no_guess makes its own board: it does not go with a layout")
        layout = _layout(body)
        return layout.rows, layout.cols, layout.mine_count, {"layout": layout}
    preset = body.get("preset")
    if preset is not None:
        presets = usecases.presets()
        if preset not in presets:
            raise GameError(f"unknown preset {preset!r} (known: {', '.join(presets)})")
        rows, cols, mines = presets[preset]
    else:
        size = [body.get(key) for key in ("rows", "cols", "mines")]
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in size):
            raise GameError('give "preset" or whole numbers "rows", "cols" and "mines"')
        rows, cols, mines = (v for v in size if isinstance(v, int))  # all of them, checked above
        if rows < 1 or cols < 1:
            raise GameError(f"a board has at least one row and one column, not {rows}x{cols}")
    rule = body.get("first_click", FirstClick.OPENING.value)
    if rule not in [r.value for r in FirstClick]:
        raise GameError(f"first_click must be one of {', '.join(r.value for r in FirstClick)}, not {rule!r}")
    no_guess = body.get("no_guess", False)
    if not isinstance(no_guess, bool):
        raise GameError(f"no_guess must be true or false, not {no_guess!r}")
    return rows, cols, mines, {"rule": rule, "seed": read_seed(body.get("seed")), "no_guess": no_guess}


def _hint_asked(body: dict[str, Any]) -> tuple[bool, bool]:
    """A move's ``"hint"`` and ``"marks"`` (both false unless given): the hint to answer with."""
    asked = []
    for key in ("hint", "marks"):
        value = body.get(key, False)
        if not isinstance(value, bool):
            raise HTTPError(400, f'"{key}" must be true or false, not {value!r}')
        asked.append(value)
    return asked[0], asked[1]


def _moves(body: dict[str, Any]) -> list[str]:
    """The moves to play at once in a new game (``"moves"``, a list of moves as docs/cells-and-moves.md
    writes them; none by default)."""
    moves = body.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise GameError('"moves" must be a list of moves such as ["D4", "A1*", "C3+"]')
    return moves


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
        layout = usecases.board_from_content(data, "layout", fmt, "layout", "play")
    except InputError as err:
        raise GameError(str(err)) from None
    assert isinstance(layout, Layout)
    return layout


@lru_cache(maxsize=256)  # bounded: any name a client asks for passes through here
def _asset(name: str) -> bytes | None:
    """An asset's bytes: a file of ``static/`` or of :data:`ASSETS`; ``None`` for any other name."""
    if not ASSET_NAME.fullmatch(name) or os.path.splitext(name)[1] not in TYPES:
        return None
    package, folder = ASSETS.get(name, ("minesat.web", "static"))
    path = resources.files(package).joinpath(folder, name)
    return path.read_bytes() if path.is_file() else None


@cache
def _page() -> bytes:
    return resources.files("minesat.web").joinpath("static", "index.html").read_bytes()


@cache
def _policy() -> str:
    """The page's Content-Security-Policy: the inline script and style of the viewer pages the
    API answers (shown in the page's sandboxed frames, which keep the page's policy) allowed by
    their hashes, and nothing else inline."""
    page = api.framed(api.viewer_sample())
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    return content_policy(scripts, styles)
