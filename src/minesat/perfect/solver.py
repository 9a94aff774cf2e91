"""One board's perfect play: its layouts from each first click, one memo for every start and rule.

:class:`PerfectPlay` lists the layouts a first click leaves (:func:`root_layouts`)
and counts, with the exact search (:mod:`minesat.exact.search`), how many of
them a perfect player wins: :meth:`~PerfectPlay.start_value` for a whole start,
:meth:`~PerfectPlay.shown_value` for one number the start can show (the parts
:mod:`minesat.perfect.parallel` hands to workers).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from minesat.board import Cell
from minesat.budget import DEFAULT_MAX_STATES, Budget, Progress, listing_refusal
from minesat.exact.geometry import COVERED, Board, bit_set, layouts_matrix
from minesat.exact.search import PerfectSearch, Universe, root_alike
from minesat.generate import FirstClick, check_mine_count, kept_clear
from minesat.stats import WinShare

__all__ = ["SOLVER_BUDGET", "PerfectPlay", "StartValue", "listed_rule", "root_layouts"]

#: A solver's budget unless given one: :data:`~minesat.budget.DEFAULT_MAX_STATES` states,
#: with no time limit and a listing held to :data:`~minesat.budget.MAX_LISTING` bytes.
SOLVER_BUDGET = Budget(max_states=DEFAULT_MAX_STATES)


@dataclass(frozen=True)
class StartValue(WinShare):
    """Perfect play from one first click: ``wins`` of ``layouts``."""

    start: Cell
    wins: int
    layouts: int


def listed_rule(rule: FirstClick) -> FirstClick:
    """The rule whose layouts are listed: under ``any`` a game goes on only when the start was safe."""
    return FirstClick.SAFE if rule is FirstClick.ANY else rule


def _pool(board: Board, start: Cell, rule: FirstClick) -> list[int]:
    """The cells that may hold a mine in a game that goes on after the first click."""
    clear = kept_clear(board.rows, board.cols, start=start, rule=listed_rule(rule))
    return [i for i in range(board.cells) if board.cell(i) not in clear]


def _pool_size(board: Board, start: Cell, rule: FirstClick) -> int:
    """``len(_pool(...))``, counted without going over the board."""
    return board.cells - len(kept_clear(board.rows, board.cols, start=start, rule=listed_rule(rule)))


def _allowed(board: Board, mines: int, start: Cell, rule: FirstClick) -> int:
    """How many layouts the rule allows at ``start`` (under ``any``, those with a mine there too)."""
    return comb(board.cells if rule is FirstClick.ANY else _pool_size(board, start, rule), mines)


def root_layouts(board: Board, mines: int, start: Cell, rule: FirstClick) -> tuple[np.ndarray, int]:
    """The layouts whose games can still be won after the first click, and how many the rule allows.

    Under ``any`` a layout with a mine at the start is allowed but lost at
    once: the matrix holds the others (those ``safe`` allows), the count all.
    """
    pool = _pool(board, start, rule)
    allowed = _allowed(board, mines, start, rule)
    if mines > len(pool):  # under ``any``, every cell a mine: nothing to win
        return np.zeros((0, board.cells), np.uint8), allowed
    return layouts_matrix(board, pool, mines), allowed


class PerfectPlay:
    """Perfect play on one board and mine count; its memo serves every start and rule.

    The search stops past ``budget.max_states`` states (:class:`~minesat.exact.search.OutOfBudget`)
    and a start whose listing would pass ``budget.max_memory`` bytes is refused before it is
    listed. Its :attr:`clock` (begun as the solver is made) passes each progress report on to
    ``progress`` and raises :class:`~minesat.budget.OutOfTime` past ``budget.time_limit``;
    within ``watching(solver.clock)`` (:func:`~minesat.budget.watching`, as
    :func:`~minesat.perfect.perfect_play` does) the time and memory are watched at every step.

    >>> solver = PerfectPlay(3, 3, 1)
    >>> [(v.wins, v.layouts) for v in (solver.start_value((0, 0), r) for r in ("opening", "safe", "any"))]
    [(5, 5), (8, 8), (8, 9)]
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        mines: int,
        *,
        budget: Budget = SOLVER_BUDGET,
        progress: Progress | None = None,
    ) -> None:
        self.clock = budget.clock(progress)
        check_mine_count(rows, cols, mines)
        self.board = Board(rows, cols)
        self.mines = mines
        #: Its ``max_memory`` holds a start's listing before it is made (``None``:
        #: :data:`~minesat.budget.MAX_LISTING`); what the search holds as it goes is
        #: watched within :func:`~minesat.budget.watching`.
        self.budget = budget
        #: Layouts whose value is known, and of how many (each start's count is added when
        #: it begins, unless the caller announced them all first with :meth:`plan`).
        self.settled = 0
        self.total = 0
        self._planned = False
        # The last start's layouts, the count the rule allows and, once asked for, the
        # search's view of them (a start's first-click numbers come one after another).
        self._root_key: tuple[Cell, FirstClick] | None = None
        self._root: tuple[np.ndarray, int, Universe | None]
        self.search = PerfectSearch(self.board, max_states=budget.max_states, progress=self._report)

    def plan(self, starts: list[tuple[Cell, FirstClick]]) -> None:
        """Announce the starts to come, so that progress counts all their layouts from the first."""
        self.total = sum(comb(_pool_size(self.board, start, rule), self.mines) for start, rule in starts)
        self._planned = True

    @property
    def states(self) -> int:
        return self.search.states

    def _report(self, states: int) -> None:
        self.clock(states, self.settled, self.total)

    def start_value(self, start: Cell, rule: FirstClick | str) -> StartValue:
        """Perfect play from ``start`` under ``rule``: layouts won and layouts allowed.

        Raises :class:`ValueError` when the mines do not fit around the start, and
        :class:`~minesat.exact.search.OutOfBudget` past the state budget. A start
        with one layout to play (no mine, or a mine on every cell the rule leaves)
        is won without listing it, however large the board: every safe cell is known.
        """
        rule = FirstClick(rule)
        board = self.board
        pool = _pool_size(board, start, rule)
        listed = comb(pool, self.mines)
        if listed <= 1:  # one layout; or none, under ``any`` with a mine on every cell
            if not listed:
                # raises unless ``any``
                check_mine_count(board.rows, board.cols, self.mines, start=start, rule=rule)
            if not self._planned:
                self.total += listed
            self.settled += listed
            return StartValue(start, listed, _allowed(board, self.mines, start, rule))
        shown, allowed = self.first_click(start, rule)
        wins = 0
        for value, layouts in shown:
            wins += self.shown_value(start, rule, value)
            self.settled += layouts
        return StartValue(start, wins, allowed)

    def first_click(self, start: Cell, rule: FirstClick | str) -> tuple[list[tuple[int, int]], int]:
        """What the first click can show: ``(number, layouts)`` pairs, and the layouts the rule allows.

        Each number is a game of its own (:meth:`shown_value`): the pieces a
        parallel search hands to its workers.

        >>> PerfectPlay(3, 3, 1).first_click((0, 0), "safe")
        ([(0, 5), (1, 3)], 8)
        """
        rule = FirstClick(rule)
        matrix, allowed = self._layouts(start, rule)
        column = matrix[:, self.board.index(start)]
        values, counts = np.unique(column, return_counts=True)
        return [(int(v), int(n)) for v, n in zip(values, counts, strict=True)], allowed

    def shown_value(self, start: Cell, rule: FirstClick | str, value: int) -> int:
        """How many layouts a perfect player wins of those where ``start`` shows ``value``."""
        rule = FirstClick(rule)
        matrix, _ = self._layouts(start, rule)
        universe = self._universe()
        s = self.board.index(start)
        subset = bit_set(matrix[:, s] == value)
        if not subset:
            return 0
        position = bytes(value if i == s else COVERED for i in range(self.board.cells))
        return self.search.win_count(position, universe, subset)

    def _layouts(self, start: Cell, rule: FirstClick) -> tuple[np.ndarray, int]:
        """The layouts of a start, listed once and kept for the next call with the same start and rule."""
        key = (start, rule)
        if self._root_key != key:
            board = self.board
            check_mine_count(board.rows, board.cols, self.mines, start=start, rule=rule)
            listed = comb(_pool_size(board, start, rule), self.mines)
            if (refusal := listing_refusal(board.cells, listed, self.budget.max_memory)) is not None:
                raise refusal
            matrix, allowed = root_layouts(board, self.mines, start, rule)
            if not self._planned:
                self.total += len(matrix)
            self._root_key, self._root = key, (matrix, allowed, None)
        matrix, allowed, _ = self._root
        return matrix, allowed

    def _universe(self) -> Universe:
        """The search's view of the last start's layouts (its look-alike table is the costly part),
        built once for all the numbers that start can show."""
        matrix, allowed, universe = self._root
        if universe is None:
            universe = Universe(matrix, range(self.board.cells), tabulate=len(matrix) <= root_alike())
            self._root = (matrix, allowed, universe)
        return universe
