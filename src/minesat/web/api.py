"""What each API request computes: a request's JSON in, a status and a JSON object out.

Plain functions of plain data, so that a worker process can run them (see
:mod:`minesat.web.jobs`) and a test can call them directly. Each answers
``(status, object)``: 200 with the result, or an HTTP error status with
``{"error": "..."}``, the one-line message the CLI would print.

>>> status, body = answer(analyze_request, {"board": "1?\\n??\\n", "mines": 1})
>>> status, body["moves"], body["probability"][1]
(200, [], [0.3333333333333333, 0.3333333333333333])
>>> answer(analyze_request, {"board": "1x\\n"})
(400, {'error': "board:1:2: unknown character 'x' (a position uses ? * F . 0-8)"})
>>> answer(analyze_request, {"board": "3?\\n??\\n", "mines": 1})[0]
422
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from minesat.analysis import Analysis, Analyzer, InconsistentPositionError
from minesat.analysis.explain import explain_json
from minesat.board import FLAG, Cell, Layout, Move, Position, parse_cell
from minesat.formats import ReplayFormatError, parse_replay
from minesat.formats.replay import replay_format_for
from minesat.formats.wanted import InputError, board_from_content
from minesat.guess.best import best_within
from minesat.perfect import DEFAULT_MAX_STATES, PastBudget, perfect_from_position
from minesat.player import Reason, next_step
from minesat.replay import review_replay
from minesat.review import GameReview, review_game, without_flags
from minesat.stats import percent
from minesat.store import GameStore, StoreError
from minesat.words import plural

#: Board formats a request may name (``format``), as ``analyze --format`` takes them.
BOARD_FORMATS = ("text", "mine", "json")

#: Most games of an uploaded store listed for the page to pick from.
LISTED_GAMES = 2000

#: What a request function answers: an HTTP status and a JSON object.
Answer = tuple[int, dict[str, Any]]


class RequestError(Exception):
    """A request that cannot be answered with a result: its HTTP status and one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(status, message)
        self.status, self.message = status, message


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
        return err.status, {"error": err.message}


# --- positions ------------------------------------------------------------------------


def read_position(body: object, command: str = "analyze") -> tuple[Position, int | None]:
    """The position in ``{"board": TEXT, "mines": N, "format": F}`` and the total given, if any.

    A board that cannot be read is a 400 naming line and column (``board:LINE:COL: ...``).
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
        position = board_from_content(text, "board", fmt, "position", command)
    except InputError as err:
        raise RequestError(400, str(err)) from None
    assert isinstance(position, Position)
    return position, mines


def _count(body: dict[str, Any], key: str, least: int = 0) -> int | None:
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise RequestError(400, f'"{key}" must be a whole number >= {least}, not {value!r}')
    return value


def _json_kind(value: object) -> str:
    return {list: "a list", str: "a string", type(None): "null"}.get(type(value), type(value).__name__)


def _analysis(position: Position, mines: int | None) -> Analysis:
    try:
        return Analyzer().analyze(position, mines)
    except InconsistentPositionError as err:
        raise RequestError(422, f"inconsistent position: {err}") from None
    except ValueError as err:
        raise RequestError(400, str(err)) from None


def analyze_request(body: object) -> dict[str, Any]:
    """``POST /api/analyze``: the object ``minesat analyze --json`` prints for the board, without ``file``."""
    position, mines = read_position(body)
    return _analysis(position, mines).to_json()


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
    try:
        return explain_json(position, analysis, cell)
    except ValueError as err:  # an uncovered cell: nothing to explain
        raise RequestError(400, str(err)) from None


def _cell(body: dict[str, Any], position: Position) -> Cell:
    given = body.get("cell")
    if not isinstance(given, str):
        raise RequestError(400, '"cell" is required: a cell name such as A5')
    try:
        cell = parse_cell(given)
    except ValueError as err:
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
    """What :func:`~minesat.player.next_step` says, as the API's object."""
    if not (analysis.safe or analysis.mine) and analysis.unknown and analysis.mines is None:
        return {"move": None, "reason": "a guess is needed: give the total number of mines to choose one",
                "probability": None}
    step = next_step(position, analysis, best_within())
    if step is None:
        return {"move": None, "reason": "nothing is covered", "probability": None}
    return {"move": step.move, "reason": step.reason.value, "probability": step.probability,
            "text": f"{step.move}: {step.describe()}" if step.reason is Reason.GUESS else
            f"{step.move}: {step.reason.value}"}


def perfect_request(body: object, max_states: int = DEFAULT_MAX_STATES) -> dict[str, Any]:
    """``POST /api/perfect``: the object ``minesat perfect FILE --json`` prints, without ``file``.

    ``max_states`` in the body caps the search (at most the server's ``max_states``);
    past it, or with too many layouts to list, 422.
    """
    position, mines = read_position(body, "perfect")
    assert isinstance(body, dict)
    budget = _count(body, "max_states", least=1)
    budget = max_states if budget is None else min(budget, max_states)
    if mines is not None:
        position = position.with_mines(mines)
    if position.mines is None:
        raise RequestError(
            400, 'perfect play needs the total number of mines: a "# mines: N" header or "mines"'
        )
    try:
        result = perfect_from_position(position, max_states=budget)
    except InconsistentPositionError as err:
        raise RequestError(422, f"inconsistent position: {err}") from None
    except PastBudget as err:
        raise RequestError(422, str(err).replace("--max-states", "max_states")) from None
    except ValueError as err:  # too many layouts to list
        raise RequestError(422, str(err)) from None
    return result.to_json()


# --- games ------------------------------------------------------------------------------


def hint_request(position: Position) -> dict[str, Any]:
    """A game's hint: the analysis of what the player sees, flags read as notes, and the best move.

    The move is the player's from there, minus what the player's flags have done
    already: a proven mine flagged is not flagged again, and a proven-safe cell
    under a flag is unflagged first.

    >>> hint = hint_request(Position.from_rows(["*1?", "11*"], mines=1))
    >>> hint["analysis"]["mine"], hint["analysis"]["safe"], hint["best"]["move"]
    ([[0, 0]], [[0, 2], [1, 2]], 'A3')
    >>> hint_request(Position.from_rows(["*1.", "11*"], mines=1))["best"]["move"]
    'B3-'
    """
    blank = without_flags(position)
    analysis = _analysis(blank, None)
    flagged = set(position.cells_in(FLAG))
    todo = replace(analysis, mine=tuple(c for c in analysis.mine if c not in flagged))
    best = best_move(blank, todo)
    if best["move"] is not None and best["reason"] == Reason.SAFE.value:
        cell = Move.parse(best["move"]).cell
        if cell in flagged:
            unflag = f"{best['move']}-"
            best = {**best, "move": unflag, "text": f"{unflag}: proven safe, take the flag off"}
    return {"analysis": analysis.to_json(), "best": best}


def game_review_request(
    layout: Layout, moves: list[str], rule: str, title: str, about: list[tuple[str, str]]
) -> dict[str, Any]:
    """A finished game reviewed as ``minesat replay`` judges it, with its viewer page."""
    from minesat.viewer import render_viewer, review_frames

    review = review_game(layout, [Move.parse(m) for m in moves], rule=rule, keep_analyses=True)
    summary = [*about, *review_summary(review)]
    page = render_viewer(title, summary, review_frames(review), layout)
    return {"summary": summary, "moves": [_reviewed(m) for m in review.moves], "page": page}


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
    from minesat.review import describe

    return {"move": move.move, "verdict": move.verdict.value, "probability": move.probability,
            "text": describe(move)}


# --- replays and stored games -------------------------------------------------------------


def replay_request(data: bytes, name: str) -> dict[str, Any]:
    """``POST /api/replay``: a replay file's game reviewed, as ``minesat replay --json`` and ``--html``."""
    try:
        replay = parse_replay(data, replay_format_for(name), name)
        result = review_replay(replay, keep_analyses=True)
    except (ReplayFormatError, ValueError) as err:
        raise RequestError(400, " ".join(str(err).split())) from None
    return {"title": result.title(), "summary": result.summary(), "review": result.to_json(),
            "page": result.viewer_page()}


def store_request(data: bytes, name: str, game: int | None) -> dict[str, Any]:
    """``POST /api/store``: a simulation database's games (``game`` absent), or one game's viewer page."""
    from minesat.report.fatal import game_page, replay_stored_game

    try:
        with GameStore.from_bytes(data, name) as store:
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
    except StoreError as err:
        raise RequestError(400, str(err)) from None
    if chosen is None:
        raise RequestError(404, f"{name}: no game {game} in this database")
    try:
        replayed = replay_stored_game(config, chosen)
    except ValueError as err:
        raise RequestError(400, f"{name}: {err}") from None
    label = config.label()
    page = game_page(replayed, label)
    return {"title": f"game {game} of {label}", "won": replayed.record.won, "page": page}
