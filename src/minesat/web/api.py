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

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from importlib import resources
from typing import Any

from minesat.analysis import Analysis, Analyzer, InconsistentPositionError
from minesat.analysis.combine import LINEAR_WORK_PER_CELL
from minesat.analysis.engine import analyze_within
from minesat.analysis.explain import explain_json
from minesat.board import FLAG, Action, Cell, Layout, Move, Position, cell_name, parse_cell
from minesat.budget import SEARCH_BUDGET, Budget
from minesat.errors import InputError, InvalidValue, ListingRefused, OverBudget, StoreError
from minesat.formats import parse_replay
from minesat.formats.replay import replay_format_for
from minesat.formats.wanted import board_from_content
from minesat.guess import mine_probability
from minesat.guess.best import best_within
from minesat.perfect import DEFAULT_MAX_STATES, PastBudget, RankingCut, perfect_from_position
from minesat.player import REASONS, Step, get_strategy, guess_step, next_step
from minesat.replay import review_replay, viewer_page
from minesat.review import GameReview, review_game, without_flags
from minesat.stats import approximate, percent
from minesat.store import GameStore
from minesat.verdict import Verdict
from minesat.words import plural

__all__ = [
    "BEST_GUESS_CELLS",
    "BOARD_FORMATS",
    "JUDGED_ROWS",
    "LISTED_GAMES",
    "MARKS_SECONDS",
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
    "marks_json",
    "no_guess_request",
    "perfect_request",
    "position_request",
    "read_position",
    "replay_events_request",
    "replay_request",
    "review_summary",
    "store_request",
    "too_many_layouts",
    "unflagged_guess",
    "viewer_sample",
]

#: Board formats a request may name (``format``), as ``analyze --format`` takes them.
BOARD_FORMATS = ("text", "mine", "json")

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
        position = board_from_content(text, "board", fmt, "position", command)
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


def _analysis(position: Position, mines: int | None, analyzer: Analyzer | None = None) -> Analysis:
    try:
        return (analyzer or Analyzer()).analyze(position, mines)
    except InconsistentPositionError as err:
        raise RequestError(422, f"inconsistent position: {err}", cell=cell_name(err.cell)) from None
    except InvalidValue as err:
        raise RequestError(400, str(err)) from None


def analyze_request(body: object, seconds: float | None = None) -> dict[str, Any]:
    """``POST /api/analyze``: the object ``minesat analyze --json`` prints for the board, without ``file``;
    with ``"marks": true``, also ``marks`` (:func:`marks_json`). Within ``seconds`` (the server's share
    of its time limit) as ``minesat analyze --time-limit`` (docs/commands/analyze.md, Past a budget):
    past it, what propagation proves and estimates, ``"exact": false``, still 200."""
    position, mines = read_position(body)
    assert isinstance(body, dict)
    marks = _flag(body, "marks")
    # As ``minesat analyze``: the largest boards weigh their parts by the close road (within 1e-9).
    analyzer = Analyzer(exact_work_per_cell=LINEAR_WORK_PER_CELL)
    began = time.monotonic()
    try:
        analysis = analyze_within(analyzer, position, mines, Budget(time_limit=seconds))
    except InconsistentPositionError as err:
        raise RequestError(422, f"inconsistent position: {err}", cell=cell_name(err.cell)) from None
    except InvalidValue as err:
        raise RequestError(400, str(err)) from None
    cost = time.monotonic() - began
    if isinstance(analysis.stop, OverBudget):
        marks = False  # out of time already: no marks to look for
    answer = analysis.to_json()
    if marks:
        answer["marks"] = marks_json(position.with_mines(analysis.mines), analysis, analyzer, cost=cost)
    return answer


def _flag(body: dict[str, Any], key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise RequestError(400, f'"{key}" must be true or false, not {value!r}')
    return value


#: Seconds the marks may spend looking for dead cells (beside the numbers first); past them the
#: answer says it is not complete.
MARKS_SECONDS = 2.0


def marks_json(
    position: Position,
    analysis: Analysis,
    analyzer: Analyzer,
    seconds: float = MARKS_SECONDS,
    cost: float = 0.0,
) -> dict[str, Any]:
    """The marks players use on a position: ``dead`` cells (undecided, and whatever they show
    teaches nothing: :func:`~minesat.guess.outcomes.dead_cells`), the ``fifty`` groups no play
    can avoid guessing (:func:`~minesat.guess.fifty.unavoidable_guesses`), and the ``safest``
    undecided cells (the lowest mine probability, ``safest_probability``; none without the total).
    ``complete`` is false when the search for dead cells stopped at its time limit (``cost``: the
    seconds the position's analysis took, what a first look at a cell may take).

    >>> position = Position.from_rows(["1??", "???"], mines=1)
    >>> analyzer = Analyzer()
    >>> marks = marks_json(position, analyzer.analyze(position), analyzer)
    >>> marks["dead"], marks["safest"], marks["safest_probability"], marks["complete"]
    ([[0, 1], [1, 0], [1, 1]], [[0, 1], [1, 0], [1, 1]], 0.3333333333333333, True)
    """
    from minesat.guess import TIE
    from minesat.guess.fifty import unavoidable_guesses
    from minesat.guess.outcomes import dead_cells

    deadline = time.monotonic() + seconds
    dead, complete = dead_cells(analyzer, position, analysis, deadline=deadline, cost=cost)
    grid = analysis.probability
    known = [(p, cell) for cell in analysis.unknown if (p := grid[cell[0]][cell[1]]) is not None]
    low = min((p for p, _ in known), default=None)
    safest = [] if low is None else [list(cell) for p, cell in known if p <= low + TIE]
    fifty = unavoidable_guesses(position, analysis) if analysis.unknown else []
    return {"dead": [list(c) for c in dead], "fifty": [[list(c) for c in group] for group in fifty],
            "safest": safest, "safest_probability": low, "complete": complete}


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
    except InvalidValue as err:  # an uncovered cell: nothing to explain
        raise RequestError(400, str(err)) from None


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


#: Largest board (cells) on which ``/api/best`` chooses a guess: the player's look-ahead and
#: long-term scan read every cell (7.5 s on a covered 300x300 board here, 104 s on 1000x1000).
BEST_GUESS_CELLS = 100_000


def best_move(position: Position, analysis: Analysis) -> dict[str, Any]:
    """What :func:`~minesat.player.next_step` says, as the API's object (:func:`move_json`); 422 for
    a guess on a board past :data:`BEST_GUESS_CELLS` cells.

    >>> big = Position.from_rows(["?" * 320] * 320, mines=1)
    >>> best_move(big, Analyzer().analyze(big))
    Traceback (most recent call last):
    ...
    minesat.web.api.RequestError: (422, 'a guess on a board of 102 400 cells is not chosen here ...')
    """
    return move_json(best_step(position, analysis), analysis)


def best_step(position: Position, analysis: Analysis) -> Step | None:
    """The player's next move (:func:`~minesat.player.next_step`, its exact play held to
    :func:`~minesat.guess.best.best_within`'s limits); ``None`` when nothing is covered, or when a
    guess is needed and the total is unknown. 422 for a guess past :data:`BEST_GUESS_CELLS` cells."""
    if not (analysis.safe or analysis.mine) and analysis.unknown:
        if analysis.mines is None:
            return None
        cells = position.rows * position.cols
        if cells > BEST_GUESS_CELLS:
            raise RequestError(422, f"a guess on a board of {grouped(cells)} cells is not chosen here (the "
                               f"player reads every cell, up to {grouped(BEST_GUESS_CELLS)}): the safest "
                               "cells are those of lowest mine probability")
    return next_step(position, analysis, best_within())


def move_json(step: Step | None, analysis: Analysis) -> dict[str, Any]:
    """A step of the player as the API's object (``move``, ``reason``, ``probability``, ``text``), or
    why there is none (``move`` null) on the position ``analysis`` is of."""
    if step is None:
        why = "a guess is needed: give the total number of mines to choose one" if analysis.unknown else \
            "nothing is covered"
        return {"move": None, "reason": why, "probability": None}
    return {"move": str(step.move), "reason": step.reason, "probability": step.probability,
            "text": f"{step.move}: {step.describe() if step.verdict is Verdict.GUESS else step.reason}"}


def perfect_request(body: object, max_states: int = DEFAULT_MAX_STATES) -> dict[str, Any]:
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
        result = perfect_from_position(position, budget=replace(SEARCH_BUDGET, max_states=states))
    except InconsistentPositionError as err:
        raise RequestError(422, f"inconsistent position: {err}", cell=cell_name(err.cell)) from None
    except ListingRefused as err:  # too many layouts to list
        raise RequestError(422, too_many_layouts(err)) from None
    except PastBudget as err:
        # What was done before the budget ran out is kept, as ``minesat perfect --json`` keeps it:
        # the exact chance when known and the moves ranked so far, beside the error, "partial".
        done = err.to_json() if isinstance(err, RankingCut) else {}
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
    from minesat.noguess import MAX_TRIES, NoGuessError, NoGuessTimeout, generate_no_guess
    from minesat.web.jobs import report

    began = time.monotonic()

    def progress(tries: int) -> None:
        report({"tries": tries, "seconds": round(time.monotonic() - began, 1)})

    try:
        board = generate_no_guess(rows, cols, mines, start=start, rule=rule, seed=seed, seconds=seconds,
                                  progress=progress)
    except NoGuessTimeout as err:
        raise RequestError(503, f"{err}: try fewer mines or a smaller board") from None
    except NoGuessError:
        what = f"{rows}x{cols} board with {plural(mines, 'mine')}"
        raise RequestError(422, f"no no-guess {what} won from {cell_name(start)} ({rule} first click) found "
                           f"in {MAX_TRIES} tries: try fewer mines") from None
    seconds = round(time.monotonic() - began, 3)
    made = {"method": board.method.value, "tries": board.tries, "seconds": seconds}
    return {"mines": sorted(board.layout.mines), "made": made}


def fork_request(
    position: Position, mines: int, seed: int, safe: Sequence[Cell], seconds: float | None = None
) -> dict[str, Any]:
    """The hidden layout of a copy of a game in progress (``POST /api/game/ID/fork``): drawn
    uniformly from every layout of ``mines`` mines that shows ``position``'s numbers and leaves
    the ``safe`` cells (what the first-click rule kept clear) unmined, the player's flags read as
    nothing, from ``seed`` (:func:`~minesat.analysis.sample.sample_layout`): ``{"mines": [[r, c],
    ...]}``. Nothing of the game's own layout goes in: the copy tells nothing of it. 503 past
    ``seconds``, or when a part of the position is too large to count.

    >>> position = Position.from_rows(["1?", "??"])
    >>> fork_request(position, 1, 3, [])["mines"] in ([[0, 1]], [[1, 0]], [[1, 1]])
    True
    """
    from minesat.analysis.sample import sample_layout

    try:
        layout = sample_layout(position, mines, seed=seed, safe=safe, budget=Budget(time_limit=seconds))
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
    analysis = _analysis(position, None)
    step = guess_step(position, analysis, best_within() if limited else get_strategy(strategy))
    return {"cell": list(step.move.cell), "probability": step.probability}



def hint_request(
    position: Position, marks: bool = False, marks_seconds: float = MARKS_SECONDS
) -> dict[str, Any]:
    """A game's hint: the analysis of what the player sees, flags read as notes, and the best move;
    with ``marks``, the marks too (:func:`marks_json`, its search for dead cells held to
    ``marks_seconds``).

    The move is the player's from there, minus what the player's flags have done
    already: a proven mine flagged is not flagged again, a proven-safe cell under a
    flag is unflagged first, and a guess never goes to a flagged cell
    (:func:`unflagged_guess`).

    >>> hint = hint_request(Position.from_rows(["*1?", "11*"], mines=1))
    >>> hint["analysis"]["mine"], hint["analysis"]["safe"], hint["best"]["move"]
    ([[0, 0]], [[0, 2], [1, 2]], 'A3')
    >>> hint_request(Position.from_rows(["*1.", "11*"], mines=1))["best"]["move"]
    'B3-'
    """
    blank = without_flags(position)
    analyzer = Analyzer()
    began = time.monotonic()
    analysis = _analysis(blank, None, analyzer)
    cost = time.monotonic() - began
    flagged = set(position.cells_in(FLAG))
    todo = replace(analysis, mine=tuple(c for c in analysis.mine if c not in flagged))
    step = best_step(blank, todo)
    best = move_json(step, todo)
    if step is not None and step.move.cell in flagged:
        if step.verdict is Verdict.SAFE:
            unflag = str(Move(step.move.cell, Action.UNFLAG))
            best = {**best, "move": unflag, "text": f"{unflag}: proven safe, take the flag off"}
        else:
            best = unflagged_guess(blank, todo, flagged)
    shown = analysis.to_json()
    if marks:
        shown["marks"] = marks_json(blank, analysis, analyzer, seconds=marks_seconds, cost=cost)
    return {"analysis": shown, "best": best}


def unflagged_guess(position: Position, analysis: Analysis, flagged: set[Cell]) -> dict[str, Any]:
    """The guess a hint names when the best one is on a cell the player flagged: the best of the
    cells not flagged (the player's choice among them, else the safest of them); none when every
    undecided cell is flagged.

    >>> position = Position.from_rows(["1?", "??"], mines=1)
    >>> analysis = Analyzer().analyze(position)
    >>> unflagged_guess(position, analysis, {(0, 1)})["move"]
    'B1'
    >>> unflagged_guess(position, analysis, {(0, 1), (1, 0), (1, 1)})["move"] is None
    True
    """
    left = tuple(c for c in analysis.unknown if c not in flagged)
    if not left:
        return {"move": None, "reason": "every undecided cell is flagged: take a flag off to go on",
                "probability": None}
    narrowed = replace(analysis, unknown=left)
    step = best_step(position, narrowed)
    if step is not None and step.move.cell not in flagged:
        return move_json(step, narrowed)
    p, cell = min((mine_probability(analysis, c), c) for c in left)
    move = cell_name(cell)
    return {"move": move, "reason": REASONS[Verdict.GUESS], "probability": p,
            "text": f"{move}: guess, mine probability {p:.4g} (the safest cell not flagged)"}


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
    from minesat.viewer import render_viewer, review_frames

    review = review_game(layout, moves, rule=rule, keep_analyses=True)
    result, *rest = review_summary(review)
    summary = [*about, result, *figures, *rest]
    page = render_viewer(title, summary, review_frames(review), layout, link_tip=False)
    return {"summary": summary, "moves": [_reviewed(m) for m in review.moves], "page": framed(page)}


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

    return {"move": str(move.move), "verdict": move.verdict.value, "probability": move.probability,
            "text": describe(move)}


# --- replays and stored games -------------------------------------------------------------


def replay_request(data: bytes, name: str) -> dict[str, Any]:
    """``POST /api/replay``'s full answer: a replay file's game reviewed, as ``minesat replay --json``
    and ``--html``. Progress (moves judged so far) goes to whoever waits (:func:`minesat.web.jobs.report`)."""
    from minesat.web.jobs import report

    def progress(done: int, total: int) -> None:
        report({"stage": "moves", "judged": done, "moves": total})

    try:
        replay = parse_replay(data, replay_format_for(name), name)
        result = review_replay(replay, keep_analyses=True, progress=progress)
    except (InputError, InvalidValue) as err:
        raise RequestError(400, str(err)) from None
    judged = len(result.review.moves)
    report({"stage": "page", "judged": judged, "moves": judged})
    return {"title": result.title(), "summary": result.summary(), "review": result.to_json(),
            "page": framed(viewer_page(result, link_tip=False))}


#: The summary rows that need every move judged: left out of the answer given at once.
JUDGED_ROWS = ("Guesses", "Chance the guesses all survive")


def replay_events_request(data: bytes, name: str) -> dict[str, Any]:
    """A replay file's game at once, before any move is judged: the title, the summary without the
    guesses, the number of moves, and the viewer page stepping through its moves (and its pointer)
    without their analysis (:func:`replay_request` judges them, in the background).
    """
    from minesat.replay import ReplayReview, mouse_track, play_replay, unjudged_frames
    from minesat.viewer import render_viewer

    try:
        replay = parse_replay(data, replay_format_for(name), name)
        played = play_replay(replay)
    except (InputError, InvalidValue) as err:
        raise RequestError(400, str(err)) from None
    frames, game = unjudged_frames(replay, played)
    unjudged = GameReview(replay.layout, (), game.status, game.position, game.exploded)
    result = ReplayReview(replay, played, unjudged)
    summary = [pair for pair in result.summary() if pair[0] not in JUDGED_ROWS]
    summary.append(("Guesses", "each move is being analysed"))
    page = render_viewer(result.title(), summary, frames, replay.layout, mouse_track(replay, played),
                         link_tip=False)
    return {"title": result.title(), "summary": summary, "moves": len(played.moves), "page": framed(page)}


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
    from minesat.report.fatal import game_page, replay_stored_game

    try:
        with GameStore.from_bytes(data, name, seconds) as store:
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
        replayed = replay_stored_game(config, chosen)
    except InvalidValue as err:
        raise RequestError(400, f"{name}: {err}") from None
    label = config.label()
    page = game_page(replayed, label, link_tip=False)
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
    from minesat.viewer import game_frames, render_viewer

    layout = Layout.from_rows(["* "])
    return render_viewer("sample", {}, game_frames(layout, [Move.parse("A2")]), layout, link_tip=False)
