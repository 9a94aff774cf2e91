"""A named strategy's exact win count: every layout played, as :func:`~minesat.player.play_game` plays it.

The automatic player is deterministic: what it does next depends only on the
position it sees. So instead of playing each layout on its own, the layouts
are played all together, split whenever a move shows different numbers in
different layouts: one game tree, each position of it analysed once. At each
position the player's own loop runs: the analysis engine's proven cells (all
uncovered, cascades included, then the proven mines flagged), and when
nothing is proven the strategy's guess; layouts with a mine there are lost.
The count is exactly the number of layouts ``play_game`` wins
(``tests/test_perfect.py`` plays every layout of small boards to check).

>>> strategy_wins(2, 2, 1, rule="safe", start="A1", strategy="safest").wins  # the 1 proves nothing: a guess
1
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from math import comb

import numpy as np

from minesat.analysis import Analysis, Analyzer
from minesat.board import COVERED, FLAG, Cell, Position, as_cell
from minesat.budget import (
    MAX_LAYOUTS,
    NO_LIMIT,
    STOPS,
    Budget,
    PastBudget,
    budget_with,
    checkpoint,
    listing_bytes,
    too_many_layouts,
    watching,
    which_budget,
)
from minesat.exact.geometry import MINE, Board, bit_set, layouts_matrix
from minesat.exact.search import drive
from minesat.generate import FirstClick, check_mine_count, kept_clear
from minesat.stats import WinShare, approximate

__all__ = ["StrategyCount", "StrategyTree", "strategy_wins"]


@dataclass(frozen=True)
class StrategyCount(WinShare):
    """How many of the ``layouts`` the rule allows the strategy wins, and how many positions it saw."""

    strategy: str
    wins: int
    layouts: int
    positions: int
    seconds: float


class StrategyTree:
    """The layouts as bit sets per cell and number, and the player's game tree over them."""

    def __init__(
        self,
        board: Board,
        mines: int,
        matrix: np.ndarray,
        strategy_name: str,
        progress: Callable[[int, int, int], None] | None,
    ) -> None:
        from minesat.player import get_strategy

        self.board = board
        self.mines = mines
        self.to_uncover = board.cells - mines
        self.mined = [bit_set(matrix[:, c] == MINE) for c in range(board.cells)]
        self.shows: list[list[tuple[int, int]]] = []
        for c in range(board.cells):
            column = matrix[:, c]
            self.shows.append([(int(v), bit_set(column == v)) for v in np.unique(column) if v != MINE])
        self.strategy = get_strategy(strategy_name)
        self.analyzer = Analyzer()
        self.positions = 0
        self.memo: dict[tuple[int, ...], int] = {}
        self.progress = progress
        self.settled = 0
        self.total = len(matrix)

    def uncover(self, state: list[int], subset: int, pending: list[int]) -> Iterator[tuple[list[int], int]]:
        """Uncover the cells ``pending`` (safe in every layout of ``subset``) with their cascades.

        Yields each resulting state with the layouts that lead to it: the game's
        flood fill, one number at a time, splitting the layouts wherever they
        disagree on a number. The branches wait on a list, not in nested calls:
        a cascade down a row of a thousand cells splits a thousand times.
        """
        neighbours = self.board.neighbours
        branches = [(state, subset, pending)]
        while branches:
            state, subset, pending = branches.pop()
            while pending:
                c = pending.pop()
                if state[c] != COVERED:
                    continue  # opened by a cascade already, or flagged: the game leaves it
                parts = [(v, q) for v, mask in self.shows[c] if (q := subset & mask)]
                if len(parts) == 1:
                    v = parts[0][0]
                    state[c] = v
                    if v == 0:
                        pending.extend(j for j in neighbours[c] if state[j] == COVERED)
                    continue
                for v, q in reversed(parts):  # the first number's branch is taken first
                    branch = list(state)
                    branch[c] = v
                    more = list(pending)
                    if v == 0:
                        more.extend(j for j in neighbours[c] if branch[j] == COVERED)
                    branches.append((branch, q, more))
                break  # this branch is split: its parts are on the list
            else:  # every pending cell uncovered with no split: one resulting state
                yield state, subset

    def won(self, state: list[int]) -> bool:
        return sum(1 for s in state if s >= 0) == self.to_uncover

    def play(self, state: list[int], subset: int) -> int:
        """Layouts of ``subset`` the player wins from ``state`` (the layouts consistent with it)."""
        return drive(self._play(state, subset), self._play)

    def click(self, state: list[int], subset: int, cell: int) -> int:
        """Uncover ``cell`` as a guess: the layouts with a mine there are lost."""
        return drive(self._click(state, subset, cell), self._play)

    def guess(self, state: list[int], subset: int, position: Position, analysis: Analysis) -> int:
        """Nothing is proven: the cell the strategy guesses (a subclass may look at it first)."""
        return self.board.index(self.strategy.choose(position, analysis))

    # The game tree is walked by :func:`~minesat.exact.search.drive`: each position's walk
    # yields the positions after its move, ``(state, layouts)``, and is sent back their wins.

    def _play(self, state: list[int], subset: int) -> Generator[tuple[list[int], int], int, int]:
        if self.won(state):
            self.settled += subset.bit_count()
            return subset.bit_count()
        key = tuple(state)
        if key in self.memo:
            self.settled += subset.bit_count()
            return self.memo[key]
        self.positions += 1
        checkpoint()  # the time, and every few milliseconds the memory held, when watched
        if self.progress is not None and not self.positions % 256:
            self.progress(self.positions, self.settled, self.total)
        board = self.board
        position = Position(board.rows, board.cols, key, self.mines)
        safe, mine = self.analyzer.proven(position)
        if not (safe or mine):
            analysis = self.analyzer.analyze(position)
            safe, mine = analysis.safe, analysis.mine
        if safe or mine:
            # Every proven safe cell uncovered, then (unless that won) every proven mine flagged.
            flags = [board.index(c) for c in mine]
            wins = 0
            for after, part in self.uncover(list(state), subset, [board.index(c) for c in safe][::-1]):
                if not self.won(after):
                    for c in flags:
                        if after[c] == COVERED:
                            after[c] = FLAG
                wins += yield after, part
        else:
            wins = yield from self._click(state, subset, self.guess(state, subset, position, analysis))
        self.memo[key] = wins
        return wins

    def _click(self, state: list[int], subset: int, cell: int) -> Generator[tuple[list[int], int], int, int]:
        survivors = subset & ~self.mined[cell]
        self.settled += (subset & self.mined[cell]).bit_count()
        wins = 0
        if survivors:
            for after, part in self.uncover(list(state), survivors, [cell]):
                wins += yield after, part
        return wins


def strategy_wins(
    rows: int,
    cols: int,
    mines: int,
    *,
    rule: FirstClick | str,
    start: Cell | str,
    strategy: str,
    progress: Callable[[int, int, int], None] | None = None,
    budget: Budget = NO_LIMIT,
    began: float | None = None,
    **deprecated: float | None,
) -> StrategyCount:
    """How many of the layouts ``rule`` allows the named strategy wins from ``start``, exactly.

    The same layouts as :func:`~minesat.perfect.perfect_play`: uniform among
    those the rule allows; under ``any`` a mine at the start loses at once.
    Raises :class:`ValueError` for an unknown strategy or mines that do not fit,
    :class:`~minesat.errors.ListingRefused` for a board too large to list,
    and :class:`~minesat.budget.PastBudget` past the ``budget``'s ``time_limit``
    seconds (counted from ``began``, a ``time.perf_counter()``, by default the call) or
    ``max_memory`` bytes held; by default it runs to its end. Its ``max_states`` does not
    bound the count, which follows one strategy through the layouts, not every move.
    (``time_limit=`` and ``max_memory=`` given apart still set the budget's fields,
    with a :class:`DeprecationWarning`.)
    """
    from minesat.player import get_strategy

    budget = budget_with(budget, deprecated, "strategy_wins")
    began = time.perf_counter() if began is None else began
    rule = FirstClick(rule)
    start = as_cell(start, "start")
    get_strategy(strategy)  # fails early on a bad name
    check_mine_count(rows, cols, mines, start=start, rule=rule)
    board = Board(rows, cols)
    clear = kept_clear(rows, cols, start=start, rule=rule)
    pool = [i for i in range(board.cells) if board.cell(i) not in clear]
    layouts = comb(len(pool), mines)
    if layouts > MAX_LAYOUTS:
        raise too_many_layouts(approximate(layouts), board.cells, layouts)
    clock = budget.clock(began=began)  # the limit of the whole run, not of this count alone
    tree: StrategyTree | None = None
    try:
        with watching(clock):
            checkpoint(more=listing_bytes(board.cells, layouts))
            matrix = layouts_matrix(board, pool, mines)
            tree = StrategyTree(board, mines, matrix, strategy, progress)
            wins = tree.click([COVERED] * board.cells, (1 << len(matrix)) - 1, board.index(start))
    except STOPS as err:
        past, advice = which_budget(err, budget)
        settled = tree.settled if tree is not None else 0
        raise PastBudget(
            f"{past} while counting {strategy}'s wins: {settled / layouts:.1%} of the layouts settled "
            f"after {tree.positions if tree is not None else 0} positions",
            0, settled, layouts, advice=f"{advice} or leave out {{strategy}}", cause=err,
        ) from None
    return StrategyCount(strategy, wins, layouts, tree.positions, time.perf_counter() - began)
