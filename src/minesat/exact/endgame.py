"""The player's endgame: when few layouts are left, the move a perfect player makes.

Near the end of a game the layouts consistent with the position can be few
(:attr:`~minesat.analysis.Analysis.layouts` counts them exactly). Then every
one of them is listed (:mod:`minesat.exact.listing`) and the perfect-play
search (:mod:`minesat.exact.search`, the one behind ``minesat perfect``)
counts how many of them a perfect player wins, and finds a move that wins
them all: the move with the highest chance to *win*, not merely to survive.
One search serves both: the exact value of a position in ``minesat perfect``
and the player's move are the same number.

A state budget keeps every game short: past it :func:`endgame_move` gives up
(``None``) and the player's guess comes from its heuristics. The answers of the
last :data:`REMEMBERED` searches are kept (per process): on a small board the
same early positions come back game after game, and their searches are the
longest.

>>> from minesat.analysis import analyze
>>> position = Position.from_rows(["???", "?2?", "???"], mines=2)   # 28 layouts
>>> move = endgame_move(position, analyze(position))
>>> move.cell, move.wins, move.layouts
((0, 0), 17, 28)
"""

from __future__ import annotations

from collections import OrderedDict

from minesat.analysis import Analysis
from minesat.board import Position
from minesat.budget import Budget, ListingRefused, PastBudget
from minesat.exact.position import PositionSearch, RankedMove

__all__ = [
    "ENDGAME_BUDGET",
    "ENDGAME_LAYOUTS",
    "ENDGAME_STATES",
    "REMEMBERED",
    "SMALL_BOARD_CELLS",
    "SMALL_BOARD_LAYOUTS",
    "SMALL_BOARD_STATES",
    "endgame_limits",
    "endgame_move",
]

#: The player searches exactly when at most this many layouts are consistent with the position.
#: 2 000 rather than 500: on 40 000 paired expert boards 108 games won only so against 73
#: (McNemar p = 0.011), at 1.14 times the time per game (docs/strategies.md).
ENDGAME_LAYOUTS = 2_000

#: Most states one endgame search visits before it gives up.
ENDGAME_STATES = 100_000

#: The budget of one endgame search: :data:`ENDGAME_STATES` states, and no time or memory
#: watched: the player's move must not depend on how busy or full the machine is (the
#: listing is still held to :data:`~minesat.budget.MAX_LISTING`).
ENDGAME_BUDGET = Budget(max_states=ENDGAME_STATES)

#: On a board of at most this many cells (6x6 and smaller) a whole game is within exact
#: reach: exact play takes over at :data:`SMALL_BOARD_LAYOUTS` layouts, within
#: :data:`SMALL_BOARD_STATES` states, usually from the first guess. Measured
#: (docs/strategies.md): this closes nearly all of `best`'s shortfall against perfect play
#: on the perfect-play table, while on 8x8 the same rule made games 3.4 times slower for
#: no win in 1 000, and on expert, applied to the last 36 undecided cells, 4 times slower.
#: 70 000 layouts rather than 20 000 reach the early guesses of 5x5 and 5x6 with 6 mines
#: (a 1 in two corners of 5x6 leaves 65 835 layouts), where the look-ahead lost 1 381
#: layouts to perfect play: with it `best` wins what perfect play wins on every row of
#: reports/perfect.md. Such a search takes up to half a minute; these positions come
#: back game after game, and the answer is remembered (:data:`REMEMBERED`).
SMALL_BOARD_CELLS = 36
SMALL_BOARD_LAYOUTS = 70_000
SMALL_BOARD_STATES = 200_000


#: How many endgame searches' answers are kept (the latest).
REMEMBERED = 512

#: Answers of past searches, keyed on everything an answer depends on: the position
#: (board size, every cell, mine count), the layouts it may have and its budget of states.
#: A search with a time or memory budget is not remembered: its answer depends on the machine.
_answers: OrderedDict[tuple[Position, int, Budget], RankedMove | None] = OrderedDict()


def endgame_limits(rows: int, cols: int) -> tuple[int, int]:
    """The layouts at which exact play takes over on a ``rows`` x ``cols`` board, and its state budget.

    >>> endgame_limits(16, 30), endgame_limits(5, 6)
    ((2000, 100000), (70000, 200000))
    """
    if rows * cols <= SMALL_BOARD_CELLS:
        return SMALL_BOARD_LAYOUTS, SMALL_BOARD_STATES
    return ENDGAME_LAYOUTS, ENDGAME_STATES


def endgame_move(
    position: Position,
    analysis: Analysis,
    *,
    limit: int = ENDGAME_LAYOUTS,
    budget: Budget = ENDGAME_BUDGET,
    memo: dict[bytes, int] | None = None,
) -> RankedMove | None:
    """The move that wins the most layouts of ``position``, playing perfectly after it.

    ``None`` when the total is unknown, more than ``limit`` layouts fit, no
    covered cell is left to uncover, or the search runs past its ``budget``
    (:data:`ENDGAME_BUDGET`: its states alone). Among moves that win equally
    many, the safest is played (then the first in row-major order): each keeps
    the same exact chance, and a safer one ends fewer games at once. ``memo``,
    the memo of earlier searches over the same board and mine count (a game's),
    shares their values: the position after a guess was searched when the guess
    was chosen. The answer is the same; only the states searched are fewer.
    """
    if analysis.layouts is None or analysis.layouts > limit or position.mines is None or not analysis.unknown:
        return None
    key = (position, limit, budget)
    try:
        return _answers[key]
    except KeyError:
        pass  # not searched yet (or no longer remembered)
    move = _search(position, analysis, limit, budget, memo)
    if budget.time_limit is not None or budget.max_memory is not None:
        return move
    _answers[key] = move
    while len(_answers) > REMEMBERED:
        _answers.popitem(last=False)  # the oldest
    return move


def _search(
    position: Position,
    analysis: Analysis,
    limit: int,
    budget: Budget,
    memo: dict[bytes, int] | None = None,
) -> RankedMove | None:
    try:
        search = PositionSearch(position, budget=budget, analysis=analysis, max_layouts=limit, memo=memo)
        probability = analysis.probability
        cell = search.best_move(prefer=lambda c: (probability[c[0]][c[1]] or 0.0, c))
        if cell is None:
            return None
        return RankedMove(cell, search.wins(), search.layouts)
    except (PastBudget, ListingRefused):
        # Past the states, or a listing too large to hold (8 layouts of a 1000x1000 board take
        # half a gigabyte of bit sets): the guess comes from the heuristics.
        return None
