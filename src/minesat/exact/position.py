"""Perfect play from one position: its layouts listed once, one search for every question.

:class:`PositionSearch` answers how many of a position's layouts a perfect
player wins, and what each move keeps of that; :func:`rank_moves` ranks every
move. The player's endgame (:mod:`minesat.exact.endgame`) and ``minesat
perfect POSITION`` (:func:`minesat.perfect.perfect_from_position`) both ask it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from minesat.analysis import Analysis, Analyzer
from minesat.board import COVERED, FLAG, Cell, Position, cell_name
from minesat.budget import (
    POSITION_LAYOUTS,
    SEARCH_BUDGET,
    STOPS,
    Budget,
    ListingRefused,
    PastBudget,
    Progress,
    budget_with,
    checkpoint,
    listing_refusal,
    watching,
    which_budget,
)
from minesat.errors import InvalidValue
from minesat.exact.geometry import MINE, Board
from minesat.exact.listing import position_bytes, position_layouts
from minesat.exact.search import OutOfBudget, PerfectSearch, Universe, root_alike
from minesat.stats import EXACT_BINOMIAL_BITS, WinShare, approximate, approximate_binomial, binomial_bits

__all__ = ["PositionSearch", "RankedMove", "RankingCut", "interior_bound", "rank_moves"]


@dataclass(frozen=True)
class RankedMove(WinShare):
    """One move from a position and its exact value: uncovering ``cell``, then playing perfectly,
    wins ``wins`` of the position's ``layouts``."""

    cell: Cell
    wins: int
    layouts: int

    def to_json(self) -> dict[str, Any]:
        return {"cell": cell_name(self.cell), "wins": self.wins, "win_probability": self.win_probability}


class RankingCut(PastBudget):
    """:class:`PastBudget` from a :class:`PositionSearch`, with what it had done: ``wins`` of
    ``total`` layouts, the exact chance to win (``None`` when the budget ran out before it was
    known), and ``ranked``, the moves it valued before the budget ran out, best first (equal
    values in row-major order, as a whole ranking gives them).

    >>> cut = RankingCut("past {max_states:9}", 10, 3, 3, wins=1, total=3,
    ...                  ranked=(RankedMove((0, 1), 1, 3),))
    >>> cut.chance, [m.to_json()["cell"] for m in cut.ranked], cut.what
    (0.3333333333333333, ['A2'], 'states')
    """

    def __init__(self, message: str, states: int, settled: int, layouts: int, *,
                 wins: int | None = None, total: int = 0, ranked: tuple[RankedMove, ...] = (),
                 cause: BaseException | None = None) -> None:
        super().__init__(message, states, settled, layouts, cause=cause)
        self.wins, self.total, self.ranked = wins, total, ranked

    @property
    def chance(self) -> float | None:
        """The exact chance to win from the position, when it was known before the stop."""
        return None if self.wins is None or not self.total else self.wins / self.total

    def to_json(self) -> dict[str, Any]:
        """What was done, as ``minesat perfect --json`` and ``POST /api/perfect`` give it beside their
        ``"error"``: marked ``"partial"``, the states searched, the exact chance when it was known,
        and the moves ranked, best first, each as a whole ranking gives it.

        >>> RankingCut("past", 10, 3, 3, wins=1, total=3, ranked=(RankedMove((0, 1), 1, 3),)).to_json()
        ... # doctest: +NORMALIZE_WHITESPACE
        {'states': 10, 'partial': True, 'wins': 1, 'layouts': 3, 'win_probability': 0.3333333333333333,
         'moves': [{'cell': 'A2', 'wins': 1, 'win_probability': 0.3333333333333333}]}
        """
        done: dict[str, Any] = {"states": self.states, "partial": True}
        if self.wins is not None:
            done.update(wins=self.wins, layouts=self.total, win_probability=self.chance)
        done["moves"] = [move.to_json() for move in self.ranked]
        return done


def interior_bound(position: Position) -> tuple[int, int] | None:
    """``(n, j)``: if any layout fits ``position``, at least ``comb(n, j)`` do; ``None`` when the
    mines do not fit at all (the analysis says why) or the total is unknown.

    The covered cells next to no number (the interior, ``n`` of them) take any
    ``j`` of the mines in every layout that puts the other ``mines - j`` next to
    the numbers: so a layout that fits brings ``comb(n, j)`` with it, for some
    ``j`` the cells allow. The binomial is least at an end of that range.
    Found at once however large the board, where the exact count takes seconds.

    >>> interior_bound(Position.from_rows(["1??", "???", "???"], mines=3))   # 5 cells beside no number
    (5, 0)
    >>> interior_bound(Position.from_rows(["1??", "???", "???"], mines=7))   # 4 or 5 of them: C(5, 5)
    (5, 5)
    """
    if position.mines is None:
        return None
    rows, cols = position.rows, position.cols
    seen = np.array(position.cells, dtype=np.int8).reshape(rows, cols)
    covered = seen == COVERED
    mines = position.mines - int(np.count_nonzero(seen == FLAG))
    near = np.zeros((rows + 2, cols + 2), dtype=bool)  # a number at (r, c) marks its 3x3 block
    for dr in range(3):
        for dc in range(3):
            near[dr:dr + rows, dc:dc + cols] |= seen >= 0
    inside = covered & ~near[1:-1, 1:-1]
    interior, frontier = int(np.count_nonzero(inside)), int(np.count_nonzero(covered & ~inside))
    lowest, highest = max(0, mines - frontier), min(mines, interior)
    if mines < 0 or lowest > highest:
        return None
    return interior, min((lowest, highest), key=lambda j: binomial_bits(interior, j))


def _far_past_any_listing(position: Position, max_layouts: int) -> ListingRefused | None:
    """Why a huge position is refused before it is analysed (:func:`interior_bound` past
    :data:`~minesat.stats.EXACT_BINOMIAL_BITS` bits), or ``None``. It says "if any fits": a
    position no layout fits is refused as well, only for another reason than the one given."""
    bound = interior_bound(position)
    if bound is None or binomial_bits(*bound) <= EXACT_BINOMIAL_BITS:
        return None
    said = approximate_binomial(*bound)
    return ListingRefused(
        f"at least {said} layouts, if any fits the position: more than the {max_layouts} the search lists",
        count=said, cells=position.rows * position.cols, limit=max_layouts, at_least=True,
    )


class PositionSearch:
    """Perfect play from one position: its layouts listed once, and one search (one memo) that
    answers every question about it, so that ranking every move costs little more than the best.

    Every layout consistent with the position is equally likely; flags count
    as mines, as in the analysis. Raises
    :class:`~minesat.analysis.InconsistentPositionError` when no layout fits,
    :class:`ValueError` when the total is unknown or negative, and
    :class:`~minesat.budget.ListingRefused` (a :class:`ValueError`) when the
    layouts are too many to list (counted before anything is listed). The search, and
    its making, raise :class:`PastBudget` past the ``budget``'s ``max_states`` states,
    ``time_limit`` seconds (counted from the making of the search) or
    ``max_memory`` bytes held by the process (``None``: not watched, and the
    listing held to :data:`~minesat.budget.MAX_LISTING`), saying how far they got;
    by default :data:`~minesat.budget.SEARCH_BUDGET` (2 000 000 states, 180 s, 1 000 MB).
    (``max_states=``, ``time_limit=`` and ``max_memory=`` given apart still set the
    budget's fields, with a :class:`DeprecationWarning`.)
    ``memo`` is the position memo of an earlier search over the same board and
    mine count (:class:`~minesat.exact.search.PerfectSearch`), to share its values.

    >>> search = PositionSearch(Position.from_rows(["1?", "??"], mines=1))
    >>> search.layouts, search.wins(), search.move_wins((1, 1))
    (3, 1, 1)
    >>> [(cell_name(m.cell), m.wins) for m in search.ranking()]
    [('A2', 1), ('B1', 1), ('B2', 1)]
    """

    def __init__(
        self,
        position: Position,
        *,
        budget: Budget = SEARCH_BUDGET,
        progress: Progress | None = None,
        analysis: Analysis | None = None,
        max_layouts: int = POSITION_LAYOUTS,
        memo: dict[bytes, int] | None = None,
        **deprecated: float | None,
    ) -> None:
        budget = budget_with(budget, deprecated, "PositionSearch")
        if position.mines is None:
            raise InvalidValue("perfect play needs the total number of mines (a '# mines: N' header)")
        self.clock = budget.clock(progress)
        self.position = position
        self.budget = budget
        self._wins: int | None = None
        self._ranked: list[RankedMove] = []  # moves ranked so far: the progress, and kept past a budget
        self._candidates: list[int] | None = None
        self.search: PerfectSearch | None = None
        with self._budget():
            self._make(position, analysis, max_layouts, memo)

    def _make(
        self,
        position: Position,
        analysis: Analysis | None,
        max_layouts: int,
        memo: dict[bytes, int] | None,
    ) -> None:
        """List the layouts and set up the search (watched by the clock, as the search is)."""
        max_states = self.budget.max_states
        if analysis is None and (hopeless := _far_past_any_listing(position, max_layouts)) is not None:
            raise hopeless
        # The position's analysis (given, when the caller has it): it raises, naming a cell, when
        # no layout fits, and counts the layouts before any is listed.
        self.analysis = analysis if analysis is not None else Analyzer().analyze(position)
        counted = self.analysis.layouts
        # Unknown (a component past the analysis's budget), the count is left to the listing's limit.
        cells = position.rows * position.cols
        refusal = listing_refusal(cells, counted if counted is not None else 0, self.budget.max_memory)
        if refusal is None and counted is not None and counted > max_layouts:
            said = approximate(counted)
            refusal = ListingRefused(f"{said} layouts: more than the {max_layouts} asked for",
                                     count=said, layouts=counted, cells=cells, limit=max_layouts)
        if refusal is not None:
            raise refusal.reworded(f"{refusal} (consistent with the position)")
        matrix = position_layouts(position, max_layouts, consistent=self.analysis.consistent is True)
        board = self.board = Board.of(position.rows, position.cols)
        self.seen = position_bytes(position)
        self.covered = [i for i, s in enumerate(position.cells) if s < 0 and s != FLAG]
        # The look-alike table (the search's tight bound) takes time in proportion to the layouts,
        # before the first state: with a state budget below the layouts it would not pay for itself
        # (a request with a small budget is answered at once instead of after the table).
        tabulate = len(matrix) <= root_alike() and (max_states is None or len(matrix) <= max_states)
        self.universe = Universe(matrix, self.covered, tabulate=tabulate)
        self.search = PerfectSearch(board, max_states=max_states, progress=self._report, memo=memo)

    @property
    def layouts(self) -> int:
        return self.universe.size

    @property
    def states(self) -> int:
        return 0 if self.search is None else self.search.states

    def wins(self) -> int:
        """How many of the layouts a perfect player wins from the position."""
        if self._wins is None:
            with self._budget():
                assert self.search is not None
                self._wins = self.search.win_count(self.seen, self.universe, self.universe.everything)
        return self._wins

    def move_wins(self, cell: Cell, at_least: int = 0) -> int:
        """How many layouts uncovering ``cell`` first, then playing perfectly, wins.

        Exact when the answer is at least ``at_least``; otherwise some number below it.
        """
        with self._budget():
            assert self.search is not None
            return self.search.move_wins(
                self.seen, self.universe, self.universe.everything, self.board.index(cell), at_least=at_least
            )

    def best_move(self, prefer: Callable[[Cell], Any] | None = None) -> Cell | None:
        """A move that keeps the chance to win: a proven-safe cell when there is one (it always
        keeps it), else the first candidate that does, in row-major order or, with ``prefer``,
        in order of ``prefer(cell)``; ``None`` with no move."""
        if self.analysis.safe:
            return min(self.analysis.safe)
        wins = self.wins()
        cells = self.candidates() if prefer is None else sorted(self.candidates(), key=prefer)
        return next((c for c in cells if self.move_wins(c, at_least=wins) == wins), None)

    def candidates(self) -> list[Cell]:
        """The moves worth ranking: every covered, unflagged cell that is not a mine in every layout."""
        if self._candidates is None:
            universe = self.universe
            mined = {c: layouts for c, layouts, _ in universe.columns}
            # A cell every layout agrees on is not in ``columns``: one layout says what it is.
            first = universe.matrix[0]
            self._candidates = [
                i for i in self.covered
                if (mined[i] != universe.everything if i in mined else first[i] != MINE)
            ]
        return [self.board.cell(i) for i in self._candidates]

    def ranking(self) -> tuple[RankedMove, ...]:
        """Every candidate move with its exact value, best first; equal values in row-major order."""
        cells = self.candidates()
        wins = self.wins()  # the best value first: its memo makes the moves that keep it cheap
        safe = set(self.analysis.safe)
        ranked = self._ranked
        ranked.clear()
        with self._budget():
            for cell in cells:
                checkpoint()  # a move settled without a state (a safe cell, one layout) counts no state
                # A proven-safe cell keeps the chance to win (docs/perfect.md): no search needed.
                ranked.append(RankedMove(cell, wins if cell in safe else self.move_wins(cell), self.layouts))
        return _best_first(ranked)

    def _report(self, states: int) -> None:
        # Progress counts the value and each move ranked as one pass over the layouts.
        passes = 1 + len(self._candidates or ())
        done = len(self._ranked) + (self._wins is not None)
        self.clock(states, done * self.layouts, passes * self.layouts)

    @contextmanager
    def _budget(self) -> Iterator[None]:
        """Watch the clock, and turn the search's running out of states, time or memory into
        :class:`PastBudget`, saying how far it got."""
        try:
            with watching(self.clock):
                yield
        except (OutOfBudget, *STOPS) as err:
            past, advice = which_budget(err, self.budget)
            if self.search is None:
                got = "while listing the layouts, before the search began"
            elif self._wins is None:
                got = "before the chance to win was known"
            else:
                chance = self._wins / self.layouts if self.layouts else 0.0
                got = (
                    f"the chance to win is {chance:.4f} ({self._wins} of {self.layouts} layouts); "
                    f"{len(self._ranked)} of {len(self._candidates or ())} moves ranked"
                )
            layouts = self.layouts if self.search is not None else 0
            raise RankingCut(
                f"{past} after {self.states} states, {got}; {advice}",
                self.states,
                layouts if self._wins is not None else 0,
                layouts,
                wins=self._wins,
                total=layouts,
                ranked=_best_first(self._ranked),
                cause=err,
            ) from None


def _best_first(ranked: list[RankedMove]) -> tuple[RankedMove, ...]:
    """Moves ranked in row-major order, best first (a stable sort: row-major among equals)."""
    return tuple(sorted(ranked, key=lambda m: -m.wins))


def rank_moves(
    position: Position,
    *,
    budget: Budget = SEARCH_BUDGET,
    progress: Progress | None = None,
    **deprecated: float | None,
) -> tuple[RankedMove, ...]:
    """Every move from ``position`` with its exact chance to win (then playing perfectly), best first.

    The moves are the covered, unflagged cells that are not a mine in every
    layout; equal values come in row-major order. The search keeps to ``budget``
    (by default :data:`~minesat.budget.SEARCH_BUDGET`) and raises as
    :class:`PositionSearch` does.

    >>> ranking = rank_moves(Position.from_rows(["1???", "????"], mines=3))
    >>> [(cell_name(m.cell), m.wins, m.layouts) for m in ranking]
    [('A2', 5, 18), ('B2', 5, 18), ('A3', 4, 18), ('B3', 4, 18), ('A4', 3, 18), ('B1', 3, 18), ('B4', 3, 18)]
    >>> ranking[0].to_json()
    {'cell': 'A2', 'wins': 5, 'win_probability': 0.2777777777777778}
    """
    budget = budget_with(budget, deprecated, "rank_moves")
    return PositionSearch(position, budget=budget, progress=progress).ranking()
