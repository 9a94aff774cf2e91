"""Games on a layout: the automatic player's game and the oracle's risky moves, a game recorded
as a replay or drawn as a viewer page, seeded board sets (no-guess ones too), a layout's figures.

>>> from minesat.board import Layout
>>> layout = Layout.from_rows(["*  ", "   ", "   "])
>>> record = solve(layout, (2, 2), "safe", "best", Budget())
>>> record.won, [str(m) for m in record.moves][:1]
(True, ['C3'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from minesat.board import Cell, Layout, Move
from minesat.formats.replay import written_format_for
from minesat.game import Game, MoveResult
from minesat.generate import BoardSpec, FirstClick, check_mine_count, kept_clear
from minesat.metrics import Metrics, metrics
from minesat.noguess import (
    MAX_TRIES,
    REJECTION_TRIES,
    GeneratedBoard,
    Method,
    NoGuessBoard,
    NoGuessError,
    NoGuessTimeout,
    generate_boards,
    generate_no_guess,
)
from minesat.recording import record_game
from minesat.usecases.limits import Budget, within

if TYPE_CHECKING:
    from minesat.player import GameRecord, RiskyMove, Step
    from minesat.review import GameReview

__all__ = [
    "MAX_TRIES",
    "REJECTION_TRIES",
    "BoardSpec",
    "Game",
    "GeneratedBoard",
    "Method",
    "Metrics",
    "MoveResult",
    "NoGuessError",
    "NoGuessTimeout",
    "board_line",
    "board_sets",
    "check_mine_count",
    "final_board",
    "game_page",
    "kept_clear",
    "layout_metrics",
    "no_guess_board",
    "oracle",
    "recorded_replay",
    "review_game",
    "solve",
]


def solve(
    layout: Layout,
    start: Cell,
    rule: FirstClick | str,
    strategy: str,
    budget: Budget,
    trace: list[Step] | None = None,
) -> GameRecord:
    """The automatic player's game on ``layout`` from ``start`` with ``strategy``, within
    ``budget``'s memory (:func:`~minesat.usecases.limits.within`: an
    :class:`~minesat.budget.OutOfMemory` past it); each step played is appended to
    ``trace`` (a list that may check the budget between moves)."""
    from minesat.player import get_strategy, play_game  # start-up: the player loads numpy

    with within(budget):
        return play_game(layout, start, strategy=get_strategy(strategy), rule=rule, trace=trace)


def oracle(layout: Layout, start: Cell, rule: FirstClick | str, budget: Budget) -> list[RiskyMove]:
    """The risky moves a player who knows ``layout`` must take from ``start``, within ``budget``'s memory."""
    from minesat.player import solve_oracle  # start-up: the player loads numpy

    with within(budget):
        return solve_oracle(layout, start, rule)


def final_board(layout: Layout, moves: Sequence[Move]) -> Game:
    """The game after ``moves`` on ``layout`` (its board drawn with the mines after a loss)."""
    game = Game(layout)
    for move in moves:
        game.play(move)
    return game


def recorded_replay(layout: Layout, moves: Sequence[Move], path: str, player: str) -> bytes:
    """The game as the replay file ``path`` names by its extension: the mouse moves and times a
    steady hand would make, schedule seed 0, dated now (:func:`~minesat.recording.record_game`).
    :class:`~minesat.errors.InvalidValue` for a board or game the format cannot hold."""
    from minesat.formats.replay import format_replay

    fmt = written_format_for(path)
    return format_replay(record_game(layout, moves, format=fmt, path=path, player=player), fmt)


def game_page(
    title: str,
    layout: Layout,
    record: GameRecord,
    start: Cell,
    rule: FirstClick,
    strategy: str,
    about: Sequence[tuple[str, str]] = (),
) -> str:
    """The automatic player's game as a viewer page: every move judged on the position before it,
    ``about`` heading its summary (docs/viewer.md)."""
    from minesat.viewer import game_frames, record_summary, render_viewer  # start-up: Jinja2

    frames = game_frames(layout, record.moves, rule=rule)
    summary = [*about, *record_summary(record, layout, start, rule, strategy)]
    return render_viewer(title, summary, frames, layout)


def review_game(
    layout: Layout, moves: Sequence[Move], rule: str, title: str, summary: Callable[[GameReview], list[Any]],
) -> tuple[GameReview, list[Any], str]:
    """A finished game reviewed as ``minesat replay`` judges it, its summary (``summary`` of the
    review) and its viewer page (no "open ?step=N" tip: a page inside a page has no address)."""
    from minesat.review import review_game as judge  # start-up: the judge loads numpy
    from minesat.viewer import render_viewer, review_frames

    review = judge(layout, list(moves), rule=rule, keep_analyses=True)
    said = summary(review)
    return review, said, render_viewer(title, said, review_frames(review), layout, link_tip=False)


#: Boards ``0 .. count-1`` of a seeded set, no-guess ones too
#: (:func:`~minesat.noguess.generate_boards`), each written as its line by :func:`board_line`.
board_sets = generate_boards


def board_line(board: GeneratedBoard) -> str:
    """A board of a set as its line of JSON (docs/boardsets.md)."""
    from minesat.formats.boardset import format_board

    return format_board(board.layout, **board.record())


def no_guess_board(
    rows: int, cols: int, mines: int, *, start: Cell, rule: str, seed: int, seconds: float,
    progress: Callable[[int], None] | None = None,
) -> NoGuessBoard:
    """A board won from ``start`` by proof alone (:func:`~minesat.noguess.generate_no_guess`)."""
    return generate_no_guess(rows, cols, mines, start=start, rule=rule, seed=seed, seconds=seconds,
                             progress=progress)


def layout_metrics(layout: Layout, budget: Budget) -> Metrics:
    """How hard ``layout`` is to clear (3BV, openings, islands, greedy ZiNi), within ``budget``'s
    memory: an :class:`~minesat.budget.OutOfMemory` past it."""
    with within(budget):
        return metrics(layout)

