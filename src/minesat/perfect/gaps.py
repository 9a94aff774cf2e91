"""Where a strategy falls short of perfect play: every guess that wins fewer layouts than the best move.

The strategy's game tree is walked as :func:`~minesat.perfect.strategy_wins`
walks it (every layout played, split wherever the numbers differ). At every
position where it guesses, the perfect search values the position and the
strategy's move (perfect play after it): the difference, in layouts, is what
that one decision costs. These costs add up exactly to the strategy's whole
shortfall, ``perfect - wins`` (the performance difference lemma: the
shortfall from a position is the cost of the move made there plus the
shortfalls from the positions it leads to), so the list of :class:`Gap` says
where every lost layout went. Proven moves cost nothing (docs/perfect.md).

>>> report = strategy_gaps(4, 4, 5, rule="safe", start=(0, 1), strategy="best-no-endgame")
>>> report.perfect, report.wins, report.layouts
(1461, 1382, 3003)
>>> sum(g.lost for g in report.gaps) == report.perfect - report.wins
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb

import numpy as np

from minesat.analysis import Analysis
from minesat.board import COVERED, Cell, Position, as_cell
from minesat.budget import MAX_LAYOUTS, too_many_layouts
from minesat.errors import InvalidValue
from minesat.exact import geometry
from minesat.exact.geometry import Board, bit_set, layouts_matrix
from minesat.exact.search import ROOT_ALIKE, PerfectSearch, Universe
from minesat.generate import FirstClick, check_mine_count, kept_clear
from minesat.guess import mine_probability
from minesat.perfect.follow import StrategyTree
from minesat.stats import approximate

__all__ = ["Gap", "GapReport", "strategy_gaps"]


@dataclass(frozen=True)
class Gap:
    """One position where the strategy's guess wins fewer layouts than the best move.

    ``layouts`` is how many of the start's layouts reach the position when the
    strategy plays them (so ``layouts / report.layouts`` is how often it
    arises); ``perfect`` of them are won by a perfect player from here,
    ``chosen`` by the strategy's ``move`` followed by perfect play. ``optimal``
    holds every move that keeps ``perfect``; ``risk`` maps the move and the
    optimal moves to their exact mine probabilities.
    """

    position: Position
    layouts: int
    perfect: int
    chosen: int
    move: Cell
    optimal: tuple[Cell, ...]
    risk: dict[Cell, float] = field(default_factory=dict)

    @property
    def lost(self) -> int:
        """Layouts this decision alone gives away."""
        return self.perfect - self.chosen


@dataclass(frozen=True)
class GapReport:
    """A strategy against perfect play from one start: its wins, perfect's, and the gaps between."""

    rows: int
    cols: int
    mines: int
    rule: FirstClick
    start: Cell
    strategy: str
    layouts: int
    wins: int
    perfect: int
    guesses: int
    gaps: tuple[Gap, ...]
    seconds: float


class _GapTree(StrategyTree):
    """The strategy's game tree, with each guess valued by the perfect search first."""

    def __init__(
        self,
        board: Board,
        mines: int,
        matrix: np.ndarray,
        strategy: str,
        progress: Callable[[int, int, int], None] | None,
    ) -> None:
        super().__init__(board, mines, matrix, strategy, progress)
        self.universe = Universe(matrix, range(board.cells), tabulate=len(matrix) <= ROOT_ALIKE)
        self.search = PerfectSearch(board)
        self.gaps: list[Gap] = []
        self.guesses = 0

    def guess(self, state: list[int], subset: int, position: Position, analysis: Analysis) -> int:
        self.guesses += 1
        move = self.board.index(self.strategy.choose(position, analysis))
        # The search's picture of the position: proven mines are covered cells mined in every layout.
        seen = bytes(v if v >= 0 else geometry.COVERED for v in state)
        perfect = self.search.win_count(seen, self.universe, subset)
        chosen = self.search.move_wins(seen, self.universe, subset, move)
        if chosen < perfect:
            covered = [i for i, v in enumerate(state) if v == COVERED]
            optimal = tuple(
                self.board.cell(i) for i in covered
                if self.search.move_wins(seen, self.universe, subset, i, at_least=perfect) == perfect
            )
            cells = [self.board.cell(move), *optimal]
            risk = {c: mine_probability(analysis, c) for c in cells}
            self.gaps.append(Gap(position, subset.bit_count(), perfect, chosen, self.board.cell(move),
                                 optimal, risk))
        return move


def strategy_gaps(
    rows: int,
    cols: int,
    mines: int,
    *,
    rule: FirstClick | str,
    start: Cell | str,
    strategy: str = "best",
    progress: Callable[[int, int, int], None] | None = None,
) -> GapReport:
    """Every guess of ``strategy`` from ``start`` that wins fewer layouts than perfect play would.

    ``rule`` is ``opening`` or ``safe``: under ``any`` the layouts with a mine at
    the start are lost by every player and the rest are those of ``safe``, so
    its gaps are those of ``safe``. Gaps come largest first. Raises
    :class:`ValueError` for an unknown strategy, mines that do not fit or
    ``any``, and :class:`~minesat.errors.ListingRefused` for a board
    too large to list.
    """
    from minesat.player import get_strategy

    began = time.perf_counter()
    rule = FirstClick(rule)
    start = as_cell(start, "start")
    if rule is FirstClick.ANY:
        raise InvalidValue("gaps under 'any' are those under 'safe': a mine at the start loses for everyone")
    get_strategy(strategy)
    check_mine_count(rows, cols, mines, start=start, rule=rule)
    board = Board(rows, cols)
    clear = kept_clear(rows, cols, start=start, rule=rule)
    pool = [i for i in range(board.cells) if board.cell(i) not in clear]
    if comb(len(pool), mines) > MAX_LAYOUTS:
        raise too_many_layouts(approximate(comb(len(pool), mines)), board.cells, comb(len(pool), mines))
    matrix = layouts_matrix(board, pool, mines)
    tree = _GapTree(board, mines, matrix, strategy, progress)
    everything = (1 << len(matrix)) - 1
    s = board.index(start)
    wins = tree.click([COVERED] * board.cells, everything, s)
    # Perfect play from the same start: the sum over the numbers the start can show.
    perfect = 0
    column = matrix[:, s]
    for value in sorted(set(column.tolist())):
        seen = bytes(value if i == s else geometry.COVERED for i in range(board.cells))
        perfect += tree.search.win_count(seen, tree.universe, bit_set(column == value))
    gaps = tuple(sorted(tree.gaps, key=lambda g: (-g.lost, -g.layouts)))
    return GapReport(rows, cols, mines, rule, start, strategy, len(matrix), wins, perfect,
                     tree.guesses, gaps, time.perf_counter() - began)
