"""What each API request computes: a request's JSON in, a status and a JSON object out.

Plain functions of plain data, so that a worker process can run them (see
:mod:`minesat.web.jobs`) and a test can call them directly. Each answers
``(status, object)``: 200 with the result, or an HTTP error status with
``{"error": "..."}``, the one-line message the CLI would print.

>>> status, body = answer(analyze_request, {"board": "1?\\n??\\n", "mines": 1})
>>> status, body["moves"], body["probability"][1]
(200, [], [0.3333333333333333, 0.3333333333333333])
>>> answer(analyze_request, {"board": "1x\\n"})
(400, {'error': "board:1:2: unknown character 'x' (a position uses ? * F . 0-8)", 'cell': 'A2'})
>>> answer(analyze_request, {"board": "3?\\n??\\n", "mines": 1})[0]
422
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from importlib import resources
from typing import TYPE_CHECKING, Any

from minesat import usecases
from minesat.board import Cell, Layout, Move, Position, cell_name, parse_cell
from minesat.errors import InputError, InvalidValue, ListingRefused, OverBudget, PastBudget, StoreError
from minesat.stats import approximate, percent
from minesat.usecases import Budget, games, positions
from minesat.usecases.positions import Analysis, InconsistentPositionError
from minesat.words import plural

if TYPE_CHECKING:
    from minesat.usecases import GameReview


__all__ = [
    "BOARD_FORMATS",
    "JUDGED_ROWS",
    "LISTED_GAMES",
    "STORE_SECONDS",
    "Answer",
    "RequestError",
    "analyze_request",
    "answer",
    "auto_guess_request",
    "best_move",
    "best_request",
    "explain_request",
    "fork_request",
    "framed",
    "game_review_request",
    "grouped",
    "hint_request",
    "no_guess_request",
    "perfect_request",
    "position_request",
    "read_position",
    "replay_events_request",
    "replay_request",
    "review_summary",
    "store_request",
    "too_many_layouts",
    "viewer_sample",
]

#: Board formats a request may name (``format``), as ``analyze --format`` takes them.
BOARD_FORMATS = usecases.BOARD_FORMATS

#: Most games of an uploaded store listed for the page to pick from.
LISTED_GAMES = 2000

#: What a request function answers: an HTTP status and a JSON object.
Answer = tuple[int, dict[str, Any]]


class RequestError(Exception):
    """A request that cannot be answered with a result: its HTTP status and one-line message, and
    keys to add to the error's object (``cell``: the cell the message is about)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(status, message)
        self.status, self.message, self.extra = status, message, extra


def answer(function: Callable[..., dict[str, Any]], *args: Any) -> Answer:
    """``function(*args)`` as an :data:`Answer`: 200 with its object, or its :class:`RequestError`.

    >>> answer(lambda: {"ok": True})
    (200, {'ok': True})
    >>> answer(analyze_request, [])
    (400, {'error': 'the body must be a JSON object, not a list'})
    """
    try:
        return 200, function(*args)
    except RequestError as err:
        return err.status, {"error": err.message, **err.extra}


# --- positions ------------------------------------------------------------------------


def read_position(body: object, command: str = "analyze") -> tuple[Position, int | None]:
    """The position in ``{"board": TEXT, "mines": N, "format": F}`` and the total given, if any.

    A board that cannot be read is a 400 naming line and column (``board:LINE:COL: ...``), and,
    when that is a cell of a text board, the cell (``"cell": "I9"``: the page marks it).

    >>> read_position({"board": "# mines: 1\\n1?\\n1x\\n"})
    Traceback (most recent call last):
    ...
    minesat.web.api.RequestError: (400, "board:3:2: unknown character 'x' (a position uses ? * F . 0-8)")
    >>> answer(read_position, {"board": "# mines: 1\\n1?\\n1x\\n"})[1]["cell"]
    'B2'
    """
    if not isinstance(body, dict):
        raise RequestError(400, f"the body must be a JSON object, not {_json_kind(body)}")
    text = body.get("board")
    if not isinstance(text, str):
        raise RequestError(400, '"board" is required: the content of a board file, as a string')
    fmt = body.get("format") or "text"
    if fmt not in BOARD_FORMATS:
        raise RequestError(400, f'"format" must be one of {", ".join(BOARD_FORMATS)}, not {fmt!r}')
    mines = _count(body, "mines")
    try:
        position = usecases.board_from_content(text, "board", fmt, "position", command)
    except InputError as err:
        cell = _cell_at(text, err.line, err.column) if fmt == "text" else None
        raise RequestError(400, str(err), **({"cell": cell} if cell else {})) from None
    assert isinstance(position, Position)
    return position, mines


def _cell_at(text: str, line: int | None, column: int | None) -> str | None:
    """The cell of a text board at ``line`` and ``column`` (1-based; rows are the lines not
    starting with ``#``), or ``None`` when they point elsewhere (a header, past the rows).

    >>> _cell_at("# mines: 1\\n1?\\n1x\\n", 3, 2), _cell_at("# mines: x\\n1?\\n", 1, 10)
    ('B2', None)
    """
    if line is None or column is None:
        return None
    lines = text.split("\n")
    if not 1 <= line <= len(lines) or lines[line - 1].startswith("#") or column < 1:
        return None
    row = sum(1 for earlier in lines[: line - 1] if not earlier.startswith("#"))
    return cell_name((row, column - 1))


def _count(body: dict[str, Any], key: str, least: int = 0) -> int | None:
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise RequestError(400, f'"{key}" must be a whole number >= {least}, not {value!r}')
    return value


def _json_kind(value: object) -> str:
    return {list: "a list", str: "a string", type(None): "null"}.get(type(value), type(value).__name__)


@contextlib.contextmanager
def _refused() -> Iterator[None]:
    """A use case's refusal as the request's error: 422 for a position no layout fits (naming its
    cell) and for a guess not chosen on too large a board, 400 for any other value refused."""
    try:
        yield
    except InconsistentPositionError as err:
        raise RequestError(422, f"inconsistent position: {err}", cell=cell_name(err.cell)) from None
    except positions.GuessRefused as err:
        raise RequestError(422, str(err)) from None
    except InvalidValue as err:
        raise RequestError(400, str(err)) from None


def _analysis(position: Position, mines: int | None) -> Analysis:
    with _refused():
        return positions.analyse(position, mines)


def analyze_request(body: object, seconds: float | None = None) -> dict[str, Any]:
    """``POST /api/analyze``: the object ``minesat analyze --json`` prints for the board, without
    ``file``; with ``"marks": true``, also ``marks`` (:func:`~minesat.usecases.positions.marks`). Within
    ``seconds`` (the server's share of its time limit) as ``minesat analyze --time-limit``
    (docs/commands/analyze.md, Past a budget): past it, what propagation proves and estimates,
    ``"exact": false``, still 200."""
    position, mines = read_position(body)
    assert isinstance(body, dict)
    marks = _flag(body, "marks")
    analyzer = positions.budget_analyzer()  # as ``minesat analyze``'s
    began = time.monotonic()
    with _refused():
        analysis = positions.analyse_within(position, mines, Budget(time_limit=seconds), analyzer=analyzer)
    cost = time.monotonic() - began
    if isinstance(analysis.stop, OverBudget):
        marks = False  # out of time already: no marks to look for
    answer = analysis.to_json()
    if marks:
        answer["marks"] = positions.marks(position.with_mines(analysis.mines), analysis, analyzer, cost=cost)
    return answer


def _flag(body: dict[str, Any], key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise RequestError(400, f'"{key}" must be true or false, not {value!r}')
    return value


def position_request(body: object) -> dict[str, Any]:
    """``POST /api/position``: the board read, for the page's editor: size, total and cell states.

    ``cells`` row by row: -1 covered, -2 flag, 0-8 a number.
    """
    position, mines = read_position(body)
    total = position.mines if mines is None else mines
    return {"rows": position.rows, "cols": position.cols, "mines": total, "cells": list(position.cells)}


def explain_request(body: object) -> dict[str, Any]:
    """``POST /api/explain`` (with ``cell``): ``analyze --explain CELL --json``'s object, without ``file``."""
    position, mines = read_position(body)
    assert isinstance(body, dict)
    cell = _cell(body, position)
    analysis = _analysis(position, mines)
    with _refused():  # an uncovered cell: nothing to explain
        return positions.explanation_json(position, analysis, cell)


def _cell(body: dict[str, Any], position: Position) -> Cell:
    given = body.get("cell")
    if not isinstance(given, str):
        raise RequestError(400, '"cell" is required: a cell name such as A5')
    try:
        cell = parse_cell(given)
    except InvalidValue as err:
        raise RequestError(400, f'"cell": {err}') from None
    if not (0 <= cell[0] < position.rows and 0 <= cell[1] < position.cols):
        raise RequestError(400, f'"cell": {given} is off the {position.rows}x{position.cols} board')
    return cell


def best_request(body: object) -> dict[str, Any]:
    """``POST /api/best``: the move the automatic player (strategy ``best``) makes from the position.

    The page waits for it beside the analysis, so its exact play is held to what the
    player searches on large boards (2 000 layouts) on small boards too.

    ``{"move": "A5", "reason": "proven safe" | "proven mine" | "guess", "probability": P}``;
    ``move`` is null when nothing is covered, or when a guess is needed and the total is unknown.
    """
    position, mines = read_position(body)
    analysis = _analysis(position, mines)
    return best_move(position.with_mines(analysis.mines), analysis)


def best_move(position: Position, analysis: Analysis) -> dict[str, Any]:
    """The player's next move (:func:`~minesat.usecases.positions.best_step`) as the API's object; 422 for a
    guess on a board past :data:`~minesat.usecases.positions.BEST_GUESS_CELLS` cells.

    >>> big = Position.from_rows(["?" * 320] * 320, mines=1)
    >>> best_move(big, positions.analyse(big))
    Traceback (most recent call last):
    ...
    minesat.web.api.RequestError: (422, 'a guess on a board of 102 400 cells is not chosen here ...')
    """
    with _refused():
        return positions.move_answer(positions.best_step(position, analysis), analysis)


def perfect_request(body: object, max_states: int = usecases.DEFAULT_MAX_STATES) -> dict[str, Any]:
    """``POST /api/perfect``: the object ``minesat perfect FILE --json`` prints, without ``file``.

    ``max_states`` in the body caps the search (at most the server's ``max_states``);
    past it, or with too many layouts to list, 422.
    """
    position, mines = read_position(body, "perfect")
    assert isinstance(body, dict)
    asked = _count(body, "max_states", least=1)
    states = max_states if asked is None else min(asked, max_states)
    if mines is not None:
        position = position.with_mines(mines)
    if position.mines is None:
        raise RequestError(
            400, 'perfect play needs the total number of mines: a "# mines: N" header or "mines"'
        )
    try:
        budget = replace(usecases.SEARCH_BUDGET, max_states=states)
        result = positions.perfect_from_position(position, budget=budget)
    except InconsistentPositionError as err:
        raise RequestError(422, f"inconsistent position: {err}", cell=cell_name(err.cell)) from None
    except ListingRefused as err:  # too many layouts to list
        raise RequestError(422, too_many_layouts(err)) from None
    except PastBudget as err:
        # What was done before the budget ran out is kept, as ``minesat perfect --json`` keeps it:
        # the exact chance when known and the moves ranked so far, beside the error, "partial".
        done = cut.to_json() if (cut := positions.ranking_cut(err)) is not None else {}
        got = ("before the chance to win was known" if "wins" not in done else
               f"with the chance to win known and {plural(len(done['moves']), 'move')} ranked")
        more = " or a larger max_states" if body.get("max_states") is not None else ""
        past = (f"needs more than the {grouped(states)} states it may search here" if err.what == "states"
                else f"ran past its {'memory budget' if err.what == 'memory' else 'time limit'}")
        raise RequestError(
            422, f"perfect play {past} (it stopped after {grouped(err.states)}, {got}): try a position with "
            f"fewer covered cells{more if err.what == 'states' else ''}", **done
        ) from None
    except InvalidValue as err:
        raise RequestError(422, str(err)) from None
    return result.to_json()


def grouped(n: int) -> str:
    """A count with its thousands apart, as the page shows it: ``2 000 000``.

    >>> grouped(2000000), grouped(51)
    ('2 000 000', '51')
    """
    return f"{n:,}".replace(",", " ")


def too_many_layouts(err: ListingRefused) -> str:
    """The search's refusal of a position with too many layouts to list, in the page's words.

    >>> from minesat.budget import listing_refusal, too_many_layouts as refusal
    >>> too_many_layouts(refusal("7.4e20701", 10**6, at_least=True))
    'perfect play lists at most 4 000 000 layouts, and this position has at least 7.4e20701: try ...'
    >>> too_many_layouts(listing_refusal(1_000_000, 999_991))
    "perfect play would need 1.4e12 bytes to list this position's 999991 layouts of 1 000 000 cells, ..."
    """
    if err.what == "layouts":
        count = f"at least {err.count}" if err.at_least else err.count
        return (f"perfect play lists at most {grouped(err.layout_limit)} layouts, and this position has "
                f"{count}: try it with fewer cells covered")
    if not err.memory_given:
        listing = approximate(err.listing_bytes or 0)
        return (f"perfect play would need {listing} bytes to list this position's {err.count} layouts "
                f"of {grouped(err.cells)} cells, more than the {(err.max_memory or 0) // 10**6} MB it holds: "
                "try it with fewer cells covered")
    return err.message


# --- games ------------------------------------------------------------------------------


def no_guess_request(
    rows: int, cols: int, mines: int, start: Cell, rule: str, seed: int, seconds: float
) -> dict[str, Any]:
    """A no-guess board for a game's first uncover at ``start``: ``{"mines": [[r, c], ...], "made":
    {"method", "tries", "seconds"}}``; 422 when none is found within the tries, 503 past ``seconds``.

    Progress (layouts tried so far) goes to whoever waits (:func:`minesat.web.jobs.report`).

    >>> made = no_guess_request(9, 9, 10, (4, 4), "opening", 1, 10.0)
    >>> len(made["mines"]), made["made"]["method"]
    (10, 'rejection')
    """
    from minesat.web.jobs import report

    began = time.monotonic()

    def progress(tries: int) -> None:
        report({"tries": tries, "seconds": round(time.monotonic() - began, 1)})

    try:
        board = games.no_guess_board(rows, cols, mines, start=start, rule=rule, seed=seed, seconds=seconds,
                                        progress=progress)
    except games.NoGuessTimeout as err:
        raise RequestError(503, f"{err}: try fewer mines or a smaller board") from None
    except games.NoGuessError:
        what = f"{rows}x{cols} board with {plural(mines, 'mine')}"
        raise RequestError(422, f"no no-guess {what} won from {cell_name(start)} ({rule} first click) found "
                           f"in {games.MAX_TRIES} tries: try fewer mines") from None
    seconds = round(time.monotonic() - began, 3)
    made = {"method": board.method.value, "tries": board.tries, "seconds": seconds}
    return {"mines": sorted(board.layout.mines), "made": made}


def fork_request(
    position: Position, mines: int, seed: int, safe: Sequence[Cell], seconds: float | None = None
) -> dict[str, Any]:
    """The hidden layout of a copy of a game in progress (``POST /api/game/ID/fork``): drawn
    uniformly from every layout of ``mines`` mines that shows ``position``'s numbers and leaves
    the ``safe`` cells (what the first-click rule kept clear) unmined, the player's flags read as
    nothing, from ``seed`` (:func:`~minesat.usecases.positions.fork_layout`): ``{"mines": [[r, c],
    ...]}``. Nothing of the game's own layout goes in: the copy tells nothing of it. 503 past
    ``seconds``, or when a part of the position is too large to count.

    >>> position = Position.from_rows(["1?", "??"])
    >>> fork_request(position, 1, 3, [])["mines"] in ([[0, 1]], [[1, 0]], [[1, 1]])
    True
    """
    try:
        layout = positions.fork_layout(position, mines, seed, safe, seconds)
    except InconsistentPositionError as err:  # a game the server keeps is always consistent
        raise RequestError(500, f"internal error: the game's position has no layout ({err})") from None
    except OverBudget as err:
        raise RequestError(503, f"the copy's hidden cells could not be drawn here ({err}): play on in the "
                           "game itself, or copy it later in the game") from None
    return {"mines": [list(cell) for cell in sorted(layout.mines)]}


def auto_guess_request(position: Position, strategy: str, limited: bool = False) -> dict[str, Any]:
    """The guess the automatic player makes on ``position`` (nothing proven there): ``{"cell": [r, c],
    "probability": p}``, chosen as :func:`~minesat.player.play_game` chooses it. ``limited``: with
    its exact play held to :func:`~minesat.guess.best.best_within`'s limits.

    >>> auto_guess_request(Position.from_rows(["1?", "??"], mines=1), "best")
    {'cell': [0, 1], 'probability': 0.3333333333333333}
    """
    with _refused():
        cell, probability = positions.auto_guess(position, strategy, limited)
    return {"cell": list(cell), "probability": probability}



def hint_request(
    position: Position, marks: bool = False, marks_seconds: float = positions.MARKS_SECONDS
) -> dict[str, Any]:
    """A game's hint: the analysis of what the player sees, flags read as notes, and the best move;
    with ``marks``, the marks too (:func:`~minesat.usecases.positions.marks`, its search for dead
    cells held to ``marks_seconds``).

    The move is the player's from there, minus what the player's flags have done
    already: a proven mine flagged is not flagged again, a proven-safe cell under a
    flag is unflagged first, and a guess never goes to a flagged cell
    (:func:`~minesat.usecases.positions.unflagged_guess`).

    >>> hint = hint_request(Position.from_rows(["*1?", "11*"], mines=1))
    >>> hint["analysis"]["mine"], hint["analysis"]["safe"], hint["best"]["move"]
    ([[0, 0]], [[0, 2], [1, 2]], 'A3')
    >>> hint_request(Position.from_rows(["*1.", "11*"], mines=1))["best"]["move"]
    'B3-'
    """
    with _refused():
        analysis, best, marked = positions.hint(position, marks_seconds if marks else None)
    shown = analysis.to_json()
    if marked is not None:
        shown["marks"] = marked
    return {"analysis": shown, "best": best}


def game_review_request(
    layout: Layout,
    moves: list[Move],
    rule: str,
    title: str,
    about: list[tuple[str, str]],
    figures: Sequence[tuple[str, str]] = (),
) -> dict[str, Any]:
    """A finished game reviewed as ``minesat replay`` judges it, with its viewer page: ``about``
    heads its summary (the board, the rule, the seed), ``figures`` follow the result (time, 3BV)."""
    def summary(review: GameReview) -> list[tuple[str, str]]:
        result, *rest = review_summary(review)
        return [*about, result, *figures, *rest]

    review, said, page = games.review_game(layout, moves, rule, title, summary)
    return {"summary": said, "moves": [_reviewed(m) for m in review.moves], "page": framed(page)}


def review_summary(review: GameReview) -> list[tuple[str, str]]:
    """The result, the guesses and the chance they all survive, in words."""
    pairs = [("Result", ("won" if review.won else "lost" if review.exploded else "stopped")
              + f" after {plural(len(review.moves), 'move')}")]
    pairs.append(("Guesses", f"{review.guesses} ({review.needless_guesses} needless)"))
    if review.guesses and review.survival is not None:
        chance = percent(review.survival)
        if review.safest_survival is not None:
            chance += f" (with the safest choices {percent(review.safest_survival)})"
        pairs.append(("Chance the guesses all survive", chance))
    return pairs


def _reviewed(move: Any) -> dict[str, Any]:
    return {"move": str(move.move), "verdict": move.verdict.value, "probability": move.probability,
            "text": usecases.describe_move(move)}


# --- replays and stored games -------------------------------------------------------------


def replay_request(data: bytes, name: str) -> dict[str, Any]:
    """``POST /api/replay``'s full answer: a replay file's game reviewed, as ``minesat replay --json``
    and ``--html``. Progress (moves judged so far) goes to whoever waits (:func:`minesat.web.jobs.report`)."""
    from minesat.web.jobs import report

    def progress(done: int, total: int) -> None:
        report({"stage": "moves", "judged": done, "moves": total})

    try:
        replay = usecases.parse_replay(data, usecases.replay_format_for(name), name)
        result = usecases.review_replay(replay, keep_analyses=True, progress=progress)
    except (InputError, InvalidValue) as err:
        raise RequestError(400, str(err)) from None
    judged = len(result.review.moves)
    report({"stage": "page", "judged": judged, "moves": judged})
    return {"title": result.title(), "summary": result.summary(), "review": result.to_json(),
            "page": framed(usecases.replay_page(result, link_tip=False))}


#: The summary rows that need every move judged: left out of the answer given at once.
JUDGED_ROWS = ("Guesses", "Chance the guesses all survive")


def replay_events_request(data: bytes, name: str) -> dict[str, Any]:
    """A replay file's game at once, before any move is judged: the title, the summary without the
    guesses, the number of moves, and the viewer page stepping through its moves (and its pointer)
    without their analysis (:func:`replay_request` judges them, in the background).
    """
    try:
        replay = usecases.parse_replay(data, usecases.replay_format_for(name), name)
        title, summary, moves, page = usecases.replay_at_once(replay, JUDGED_ROWS)
    except (InputError, InvalidValue) as err:
        raise RequestError(400, str(err)) from None
    return {"title": title, "summary": summary, "moves": moves, "page": framed(page)}


#: Seconds the queries of an uploaded database may take in all (its worker's limit is longer).
STORE_SECONDS = 10.0


def store_request(data: bytes, name: str, game: int | None, seconds: float = STORE_SECONDS) -> dict[str, Any]:
    """``POST /api/store``: a simulation database's games (``game`` absent), or one game's viewer page.

    The file is read from a private copy in memory, read-only, its queries cut after ``seconds``.
    """
    import sqlite3

    began = time.monotonic()
    try:
        return _stored(data, name, game, seconds)
    except (sqlite3.OperationalError, RequestError) as err:
        if time.monotonic() - began > seconds:  # interrupted, wherever it was
            raise RequestError(422, f"{name}: reading it took more than {seconds:.0f} s: look at it with "
                               "minesat report on your own machine") from None
        if isinstance(err, RequestError):
            raise
        raise RequestError(400, f"{name}: not usable as a game database ({err})") from None


def _stored(data: bytes, name: str, game: int | None, seconds: float) -> dict[str, Any]:
    try:
        with usecases.uploaded_store(data, name, seconds) as store:
            config = store.config
            if game is None:
                listed = []
                for stored in store.games():
                    listed.append({"game": stored.index, "won": stored.won, "guesses": len(stored.guesses),
                                   "moves": stored.moves})
                    if len(listed) == LISTED_GAMES:
                        break
                return {"run": config.label(), "games": listed, "stored": len(store),
                        "replayable": not config.boards}
            chosen = next((g for g in store.games(game + 1) if g.index == game), None)
    except StoreError as err:  # its advice (another path, move it aside) is no use here
        raise RequestError(400, f"{err.message}: drop a database that minesat simulate --db wrote") from None
    if chosen is None:
        raise RequestError(404, f"{name}: no game {game} in this database")
    try:
        replayed = usecases.replay_stored_game(config, chosen)
    except InvalidValue as err:
        raise RequestError(400, f"{name}: {err}") from None
    label = config.label()
    page = usecases.stored_game_page(replayed, label)
    return {"title": f"game {game} of {label}", "won": replayed.record.won, "page": framed(page)}


# --- the viewer inside the page ------------------------------------------------------------------


@functools.cache
def _bridge() -> str:
    return resources.files("minesat.web").joinpath("static", "bridge.js").read_text(encoding="utf-8")


def framed(page: str) -> str:
    """A viewer page as the app's page shows it, in a sandboxed frame: with the script that tells
    the page its height and step, and takes the step to show (``static/bridge.js``).

    >>> framed("<body><p>hi</p></body>").count("<script>")
    1
    """
    head, tail = page.rsplit("</body>", 1)
    return f"{head}<script>{_bridge()}</script>\n</body>{tail}"


def viewer_sample() -> str:
    """A small viewer page, as every page the API answers is made: the app allows the inline
    script and style they all share by their hashes (:func:`minesat.web.app.create_app`)."""
    return usecases.sample_page()
