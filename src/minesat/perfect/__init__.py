"""Perfect play: the exact chance to win a whole game, and how close the strategies come.

The layouts are those :mod:`minesat.generate` draws from, every one equally
likely: on a ``rows`` x ``cols`` board with ``mines`` mines, all layouts the
first-click rule allows at the start. A perfect player knows this
distribution and nothing else; :func:`perfect_play` counts the layouts it wins
(a deterministic optimal strategy wins or loses each layout), with no
sampling: ``wins / layouts`` is the exact chance to win.

>>> result = perfect_play(3, 3, 1, "safe", start=(1, 1))
>>> result.wins, result.layouts, result.win_probability
(7, 8, 0.875)
>>> strategy_wins(3, 3, 1, "safe", (1, 1), "safest").wins
7

:func:`perfect_from_position` answers the same question from a position part
way through a game, with every move ranked by its exact chance (:func:`rank_moves`
gives the ranking alone), and :func:`strategy_wins` counts exactly the layouts
a named strategy of the automatic player wins (every layout played, none
sampled). How the search works and why its shortcuts keep the answer exact:
docs/perfect.md.

Two budgets bound a search: ``max_states`` (states searched) and
``time_limit`` (seconds); past either it stops with :class:`PastBudget`,
saying how far it got. A board or position with too many layouts to list is
refused before anything is listed (:func:`listing_refusal`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from math import comb
from typing import Any

import numpy as np

from minesat.analysis import Analysis, Analyzer
from minesat.board import FLAG, Cell, Position, cell_name
from minesat.generate import FirstClick, check_mine_count, kept_clear, mines_fit
from minesat.perfect.follow import StrategyCount, strategy_wins
from minesat.perfect.geometry import (
    COVERED,
    MAX_LAYOUTS,
    MINE,
    Board,
    TooManyLayouts,
    bit_set,
    layouts_matrix,
)
from minesat.perfect.listing import position_bytes, position_layouts
from minesat.perfect.search import OutOfBudget, PerfectSearch, Universe
from minesat.stats import WinShare, approximate

__all__ = [
    "DEFAULT_MAX_STATES",
    "DEFAULT_TIME_LIMIT",
    "PastBudget",
    "PerfectPlay",
    "PerfectResult",
    "PlayerMove",
    "PositionResult",
    "PositionSearch",
    "RankedMove",
    "StartValue",
    "StrategyCount",
    "TooManyLayouts",
    "listing_refusal",
    "perfect_from_position",
    "perfect_play",
    "rank_moves",
    "strategy_wins",
]

#: States searched before giving up, by default. How long that takes depends on the
#: board: 5 to 11 minutes on small boards, about 13 on a late expert position
#: (docs/perfect.md has the figures); :data:`DEFAULT_TIME_LIMIT` usually stops first.
DEFAULT_MAX_STATES = 2_000_000

#: Seconds searched before giving up, by default: the budget people can read.
DEFAULT_TIME_LIMIT = 180.0

#: Most bytes a search's listing may take: a byte for each cell of each layout, and the
#: board's neighbour table (a byte for each pair of cells). 7x7 with 6 mines under
#: ``opening`` (the largest board within reach) takes 188 MB; a 1000x1000 board with
#: one mine would take a terabyte.
MAX_LISTING = 512_000_000

#: Fewer layouts than this (over all the starts tried) are searched in this process
#: even when workers are asked for: the search ends before they would start.
PARALLEL_FROM = 20_000

#: Most layouts a position may have for :func:`perfect_from_position` to list them.
POSITION_LAYOUTS = MAX_LAYOUTS

#: Progress reports: (states searched, layouts settled, layouts in all).
Progress = Callable[[int, int, int], None]


class PastBudget(Exception):
    """The search needed more states, time or layouts than allowed; the message says how far it got."""

    def __init__(self, message: str, states: int, settled: int, layouts: int) -> None:
        super().__init__(message)
        self.states = states
        self.settled = settled
        self.layouts = layouts


class OutOfTime(Exception):
    """The search ran past its time limit (raised by :class:`Clock`, turned into :class:`PastBudget`)."""


class Clock:
    """A progress callback that also keeps the time limit: called past it, it raises :class:`OutOfTime`.

    The search reports every :data:`~minesat.perfect.search.PROGRESS_EVERY`
    states, so the limit is kept to within that many states (a few seconds
    on the slowest positions) without the search reading a clock itself.

    >>> clock = Clock(0.0, None)
    >>> clock(4096, 0, 10)
    Traceback (most recent call last):
    minesat.perfect.OutOfTime
    """

    def __init__(self, time_limit: float | None, progress: Progress | None) -> None:
        self.time_limit = time_limit
        self.progress = progress
        self.began = time.perf_counter()
        self.states = self.settled = 0  # as last reported: how far the search got

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.began

    def __call__(self, states: int, settled: int, total: int) -> None:
        self.states, self.settled = states, settled
        if self.progress is not None:
            self.progress(states, settled, total)
        if self.time_limit is not None and self.seconds > self.time_limit:
            raise OutOfTime


def listing_refusal(cells: int, layouts: int) -> str | None:
    """Why a search cannot list ``layouts`` layouts of a ``cells``-cell board; ``None`` when it can.

    Counted, never listed: the answer comes at once however large the board.
    Past :data:`~minesat.perfect.geometry.MAX_LAYOUTS` layouts, or past
    :data:`MAX_LISTING` bytes of listing (a huge board with few mines), the
    search would exhaust memory before it began.

    >>> listing_refusal(49, 3_838_380) is None
    True
    >>> listing_refusal(40_000, comb(39_999, 3))
    '1.1e13 layouts: more than the 4000000 the search lists'
    >>> listing_refusal(1_000_000, 999_991)
    '999991 layouts of 1000000 cells: a listing of 1.0e12 bytes, more than the 512 MB the search holds'
    """
    if layouts > MAX_LAYOUTS:
        return f"{approximate(layouts)} layouts: more than the {MAX_LAYOUTS} the search lists"
    size = cells * max(layouts, cells)
    if size > MAX_LISTING:
        noun = "layout" if layouts == 1 else "layouts"
        return (
            f"{approximate(layouts)} {noun} of {cells} cells: a listing of {approximate(size)} bytes, "
            f"more than the {MAX_LISTING // 10**6} MB the search holds"
        )
    return None


def _refuse_unlisted(rows: int, cols: int, mines: int, rule: FirstClick, start: Cell | None) -> None:
    """Refuse at once a game whose layouts the search could not list: counted before anything is built.

    With no ``start`` every start is tried, the corner among them: it keeps the
    fewest cells clear, so it has the most layouts.
    """
    hardest = start if start is not None else (0, 0)
    pool = rows * cols - len(kept_clear(hardest, rows, cols, _listed_rule(rule)))
    layouts = comb(pool, mines) if 0 <= mines <= pool else 0
    refusal = listing_refusal(rows * cols, layouts)
    if refusal is not None:
        raise PastBudget(
            f"start {cell_name(hardest)} has {refusal}; try a smaller board or fewer mines", 0, 0, layouts
        )


@dataclass(frozen=True)
class StartValue(WinShare):
    """Perfect play from one first click: ``wins`` of ``layouts``."""

    start: Cell
    wins: int
    layouts: int


@dataclass(frozen=True)
class PerfectResult(WinShare):
    """The exact value of a game under perfect play (SPEC section 13).

    ``start`` is the given first click, or the best one when none was given;
    ``starts`` then holds the value of one cell of every class of cells the
    board's symmetries map onto each other.
    """

    rows: int
    cols: int
    mines: int
    rule: FirstClick
    start: Cell
    wins: int
    layouts: int
    states: int
    seconds: float
    starts: tuple[StartValue, ...] = ()
    strategies: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "first_click": self.rule.value,
            "start": list(self.start),
            "wins": self.wins,
            "layouts": self.layouts,
            "win_probability": self.win_probability,
            "states": self.states,
            "seconds": round(self.seconds, 3),
        }
        if self.starts:
            out["starts"] = [
                {"start": list(s.start), "wins": s.wins, "layouts": s.layouts} for s in self.starts
            ]
        if self.strategies:
            out["strategies"] = dict(self.strategies)
        return out


def _listed_rule(rule: FirstClick) -> FirstClick:
    """The rule whose layouts are listed: under ``any`` a game goes on only when the start was safe."""
    return FirstClick.SAFE if rule is FirstClick.ANY else rule


def _pool(board: Board, start: Cell, rule: FirstClick) -> list[int]:
    """The cells that may hold a mine in a game that goes on after the first click."""
    clear = kept_clear(start, board.rows, board.cols, _listed_rule(rule))
    return [i for i in range(board.cells) if board.cell(i) not in clear]


def _pool_size(board: Board, start: Cell, rule: FirstClick) -> int:
    """``len(_pool(...))``, counted without going over the board."""
    return board.cells - len(kept_clear(start, board.rows, board.cols, _listed_rule(rule)))


def root_layouts(board: Board, mines: int, start: Cell, rule: FirstClick) -> tuple[np.ndarray, int]:
    """The layouts whose games can still be won after the first click, and how many the rule allows.

    Under ``any`` a layout with a mine at the start is allowed but lost at
    once: the matrix holds the others (those ``safe`` allows), the count all.
    """
    pool = _pool(board, start, rule)
    allowed = comb(board.cells if rule is FirstClick.ANY else len(pool), mines)
    if mines > len(pool):  # under ``any``, every cell a mine: nothing to win
        return np.zeros((0, board.cells), np.uint8), allowed
    return layouts_matrix(board, pool, mines), allowed


class PerfectPlay:
    """Perfect play on one board and mine count; its memo serves every start and rule.

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
        max_states: int | None = DEFAULT_MAX_STATES,
        progress: Progress | None = None,
    ) -> None:
        check_mine_count(rows, cols, mines, None, FirstClick.ANY)
        self.board = Board(rows, cols)
        self.mines = mines
        self.progress = progress
        #: Layouts whose value is known, and of how many (each start's count is added when
        #: it begins, unless the caller announced them all first with :meth:`plan`).
        self.settled = 0
        self.total = 0
        self._planned = False
        # The last start's layouts, the count the rule allows and, once asked for, the
        # search's view of them (a start's first-click numbers come one after another).
        self._root_key: tuple[Cell, FirstClick] | None = None
        self._root: tuple[np.ndarray, int, Universe | None]
        self.search = PerfectSearch(self.board, max_states=max_states, progress=self._report)

    def plan(self, starts: list[tuple[Cell, FirstClick]]) -> None:
        """Announce the starts to come, so that progress counts all their layouts from the first."""
        self.total = sum(comb(_pool_size(self.board, start, rule), self.mines) for start, rule in starts)
        self._planned = True

    @property
    def states(self) -> int:
        return self.search.states

    def _report(self, states: int) -> None:
        if self.progress is not None:
            self.progress(states, self.settled, self.total)

    def start_value(self, start: Cell, rule: FirstClick | str) -> StartValue:
        """Perfect play from ``start`` under ``rule``: layouts won and layouts allowed.

        Raises :class:`ValueError` when the mines do not fit around the start, and
        :class:`~minesat.perfect.search.OutOfBudget` past the state budget.
        """
        rule = FirstClick(rule)
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
            check_mine_count(board.rows, board.cols, self.mines, start, rule)
            listed = comb(_pool_size(board, start, rule), self.mines)
            if listing_refusal(board.cells, listed) is not None:
                raise TooManyLayouts(listed)
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
            universe = Universe(matrix, range(self.board.cells), tabulate=len(matrix) <= _root_alike())
            self._root = (matrix, allowed, universe)
        return universe


def _root_alike() -> int:
    from minesat.perfect import search

    return search.ROOT_ALIKE


def perfect_play(
    rows: int,
    cols: int,
    mines: int,
    rule: FirstClick | str = FirstClick.OPENING,
    start: Cell | None = None,
    *,
    max_states: int | None = DEFAULT_MAX_STATES,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    progress: Progress | None = None,
    workers: int = 1,
    scheduler: str | None = None,
) -> PerfectResult:
    """The exact value of the game under perfect play, from ``start`` or from the best first click.

    With no ``start`` every class of cells the board's symmetries map onto
    each other is tried (one cell of each) and the best chance wins; ties go
    to the first in row-major order. Raises :class:`ValueError` for a board
    the mines do not fit, and :class:`PastBudget` when more than
    ``max_states`` states or ``time_limit`` seconds would be needed (its
    message says how far it got), or at once, before anything is listed, when
    a start has more layouts than the search can list (:func:`listing_refusal`).

    With ``workers`` above 1, or a Dask ``scheduler`` address, the numbers the
    first clicks can show are searched in parallel
    (:mod:`minesat.perfect.parallel`) and ``max_states`` bounds each of them;
    without a scheduler, games of fewer than :data:`PARALLEL_FROM` layouts stay
    in this process, where they finish before workers would start. The answer
    is the same; the time limit is then checked as each part comes back.
    """
    rule = FirstClick(rule)
    began = time.perf_counter()
    check_mine_count(rows, cols, mines, None, FirstClick.ANY)
    _refuse_unlisted(rows, cols, mines, rule, start)
    clock = Clock(time_limit, progress)
    solver = PerfectPlay(rows, cols, mines, max_states=max_states, progress=clock)
    board = solver.board
    if start is not None:
        check_mine_count(rows, cols, mines, start, rule)
        candidates = [start]
    else:
        candidates = [board.cell(i) for i in board.orbit_representatives()]
        candidates = [c for c in candidates if mines_fit(rows, cols, mines, c, rule)]
        if not candidates:
            check_mine_count(rows, cols, mines, board.cell(0), rule)  # raises, saying why
    solver.plan([(cell, rule) for cell in candidates])
    if scheduler is not None or (workers > 1 and solver.total >= PARALLEL_FROM):
        values, states = _in_parallel(solver, rule, candidates, max_states, clock, workers, scheduler)
    else:
        values, states = _in_process(solver, rule, candidates, max_states, time_limit)
    best = _best_start(values)
    return PerfectResult(
        rows,
        cols,
        mines,
        rule,
        best.start,
        best.wins,
        best.layouts,
        states,
        time.perf_counter() - began,
        tuple(values) if start is None else (),
    )


def _in_process(
    solver: PerfectPlay,
    rule: FirstClick,
    candidates: list[Cell],
    max_states: int | None,
    time_limit: float | None,
) -> tuple[list[StartValue], int]:
    """Each start's value, one after another in this process (they share the solver's memo)."""
    values = []
    for done, cell in enumerate(candidates):
        try:
            values.append(solver.start_value(cell, rule))
        except TooManyLayouts as err:
            refusal = listing_refusal(solver.board.cells, err.layouts)
            raise PastBudget(
                f"start {cell_name(cell)} has {refusal or err}; try a smaller board or fewer mines",
                solver.states,
                solver.settled,
                solver.total,
            ) from None
        except (OutOfBudget, OutOfTime) as err:
            past = _past(err, max_states, time_limit)
            raise PastBudget(
                _budget_message(solver, past, done, len(candidates), cell),
                solver.states,
                solver.settled,
                solver.total,
            ) from None
    return values, solver.states


def _past(err: Exception, max_states: int | None, time_limit: float | None) -> tuple[str, str]:
    """Which budget ran out, as the message names it, and the option that raises it."""
    if isinstance(err, OutOfTime):
        return f"past --time-limit {time_limit:g} s", "--time-limit"
    return f"past --max-states {max_states}", "--max-states"


def _in_parallel(
    solver: PerfectPlay,
    rule: FirstClick,
    candidates: list[Cell],
    max_states: int | None,
    progress: Clock,
    workers: int,
    scheduler: str | None,
) -> tuple[list[StartValue], int]:
    from minesat.perfect.parallel import PartPastBudget, describe_part, parallel_start_values

    board = solver.board
    try:
        return parallel_start_values(board.rows, board.cols, solver.mines, rule, candidates, workers=workers,
                                     scheduler=scheduler, max_states=max_states, progress=progress)
    except TooManyLayouts as err:
        raise PastBudget(f"{err}; try a smaller board or fewer mines", 0, 0, solver.total) from None
    except OutOfTime:
        share = progress.settled / solver.total if solver.total else 0.0
        raise PastBudget(
            f"past --time-limit {progress.time_limit:g} s (checked as each part comes back, after "
            f"{progress.seconds:.0f} s): {share:.1%} of the layouts of all {len(candidates)} starts settled "
            f"after {progress.states} states; raise --time-limit or try a smaller board",
            progress.states, progress.settled, solver.total,
        ) from None
    except PartPastBudget as err:
        share = err.settled / solver.total if solver.total else 0.0
        raise PastBudget(
            f"past --max-states {max_states} on {describe_part(err.start, err.value)} (with several "
            f"workers the budget is for each number a first click can show): {share:.1%} of the layouts "
            f"of all {len(candidates)} starts settled after {err.run_states} states; raise --max-states "
            "or try a smaller board",
            err.run_states, err.settled, solver.total,
        ) from None


def _best_start(values: list[StartValue]) -> StartValue:
    """The start with the highest chance (compared exactly, as fractions); the first among equals."""
    best = values[0]
    for v in values[1:]:
        if v.wins * best.layouts > best.wins * v.layouts:
            best = v
    return best


def _budget_message(solver: PerfectPlay, past: tuple[str, str], done: int, starts: int, cell: Cell) -> str:
    share = solver.settled / solver.total if solver.total else 0.0
    where = f"start {cell_name(cell)}" if starts == 1 else f"start {done + 1} of {starts} ({cell_name(cell)})"
    of = "its layouts" if starts == 1 else f"the layouts of all {starts} starts"
    return (
        f"{past[0]}: stopped at {where} with {share:.1%} of {of} settled "
        f"after {solver.states} states; raise {past[1]} or try a smaller board"
    )


# --- from a position ---------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerMove:
    """What the automatic player would do from a position with a strategy, and what that wins.

    ``move`` is ``None`` when the player would uncover the proven safe cells
    (which always keeps the chance); else the cell the strategy guesses.
    """

    strategy: str
    move: Cell | None
    wins: int


@dataclass(frozen=True)
class RankedMove(WinShare):
    """One move from a position and its exact value: uncovering ``cell``, then playing perfectly,
    wins ``wins`` of the position's ``layouts``."""

    cell: Cell
    wins: int
    layouts: int

    def to_json(self) -> dict[str, Any]:
        return {"cell": cell_name(self.cell), "wins": self.wins, "win_probability": self.win_probability}


@dataclass(frozen=True)
class PositionResult(WinShare):
    """Perfect play from a position: ``wins`` of its ``layouts``, and every move's value.

    ``moves`` are the cells whose uncovering (then perfect play) wins all
    ``wins`` layouts, row-major; ``ranking`` every candidate move (every
    covered, unflagged cell not a mine in every layout) with its exact value,
    best first, equal values in row-major order; ``players`` what each
    strategy asked for would do instead.
    """

    wins: int
    layouts: int
    moves: tuple[Cell, ...]
    players: tuple[PlayerMove, ...]
    states: int
    seconds: float
    ranking: tuple[RankedMove, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "wins": self.wins,
            "layouts": self.layouts,
            "win_probability": self.win_probability,
            "moves": [cell_name(c) for c in self.moves],
            "ranking": [m.to_json() for m in self.ranking],
            "strategies": {
                p.strategy: {"move": cell_name(p.move) if p.move is not None else None, "wins": p.wins}
                for p in self.players
            },
            "states": self.states,
            "seconds": round(self.seconds, 3),
        }


class PositionSearch:
    """Perfect play from one position: its layouts listed once, and one search (one memo) that
    answers every question about it, so that ranking every move costs little more than the best.

    Every layout consistent with the position is equally likely; flags count
    as mines, as in the analysis. Raises
    :class:`~minesat.analysis.InconsistentPositionError` when no layout fits,
    :class:`ValueError` when the total is unknown or negative, or the layouts
    are too many to list (counted before anything is listed). The questions
    raise :class:`PastBudget` past ``max_states`` states or ``time_limit``
    seconds (counted from the making of the search), saying how far they got.
    ``memo`` is the position memo of an earlier search over the same board and
    mine count (:class:`~minesat.perfect.search.PerfectSearch`), to share its values.

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
        max_states: int | None = DEFAULT_MAX_STATES,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
        progress: Progress | None = None,
        analysis: Analysis | None = None,
        max_layouts: int = POSITION_LAYOUTS,
        memo: dict[bytes, int] | None = None,
    ) -> None:
        if position.mines is None:
            raise ValueError("perfect play needs the total number of mines (a '# mines: N' header)")
        self.clock = Clock(time_limit, progress)
        self.position = position
        self.max_states, self.time_limit = max_states, time_limit
        # The position's analysis (given, when the caller has it): it raises, naming a cell, when
        # no layout fits, and counts the layouts before any is listed.
        self.analysis = analysis if analysis is not None else Analyzer().analyze(position)
        counted = self.analysis.layouts
        # Unknown (a component past the analysis's budget), the count is left to the listing's limit.
        refusal = listing_refusal(position.rows * position.cols, counted if counted is not None else 0)
        if refusal is None and counted is not None and counted > max_layouts:
            refusal = f"{approximate(counted)} layouts: more than the {max_layouts} asked for"
        if refusal is not None:
            raise ValueError(f"{refusal} (consistent with the position)")
        matrix = position_layouts(position, max_layouts)
        board = self.board = Board.of(position.rows, position.cols)
        self.seen = position_bytes(position)
        self.covered = [i for i, s in enumerate(position.cells) if s < 0 and s != FLAG]
        # The look-alike table (the search's tight bound) takes time in proportion to the layouts,
        # before the first state: with a state budget below the layouts it would not pay for itself
        # (a request with a small budget is answered at once instead of after the table).
        tabulate = len(matrix) <= _root_alike() and (max_states is None or len(matrix) <= max_states)
        self.universe = Universe(matrix, self.covered, tabulate=tabulate)
        self.search = PerfectSearch(board, max_states=max_states, progress=self._report, memo=memo)
        self._wins: int | None = None
        self._ranked = 0  # moves ranked so far, for the progress and the budget's message
        self._candidates: list[int] | None = None

    @property
    def layouts(self) -> int:
        return self.universe.size

    @property
    def states(self) -> int:
        return self.search.states

    def wins(self) -> int:
        """How many of the layouts a perfect player wins from the position."""
        if self._wins is None:
            with self._budget():
                self._wins = self.search.win_count(self.seen, self.universe, self.universe.everything)
        return self._wins

    def move_wins(self, cell: Cell, at_least: int = 0) -> int:
        """How many layouts uncovering ``cell`` first, then playing perfectly, wins.

        Exact when the answer is at least ``at_least``; otherwise some number below it.
        """
        with self._budget():
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
        self.wins()  # the best value first: its memo makes the moves that keep it cheap
        ranked = []
        for cell in cells:
            ranked.append(RankedMove(cell, self.move_wins(cell), self.layouts))
            self._ranked += 1
        ranked.sort(key=lambda m: -m.wins)  # a stable sort: row-major among equals
        return tuple(ranked)

    def _report(self, states: int) -> None:
        # Progress counts the value and each move ranked as one pass over the layouts.
        passes = 1 + len(self._candidates or ())
        done = self._ranked + (self._wins is not None)
        self.clock(states, done * self.layouts, passes * self.layouts)

    @contextmanager
    def _budget(self) -> Iterator[None]:
        """Turn the search's running out of states or time into :class:`PastBudget`, saying how far it got."""
        try:
            yield
        except (OutOfBudget, OutOfTime) as err:
            past, option = _past(err, self.max_states, self.time_limit)
            if self._wins is None:
                got = "before the chance to win was known"
            else:
                chance = self._wins / self.layouts if self.layouts else 0.0
                got = (
                    f"the chance to win is {chance:.4f} ({self._wins} of {self.layouts} layouts); "
                    f"{self._ranked} of {len(self._candidates or ())} moves ranked"
                )
            raise PastBudget(
                f"{past} after {self.states} states, {got}; raise {option}",
                self.states,
                self.layouts if self._wins is not None else 0,
                self.layouts,
            ) from None


def rank_moves(
    position: Position,
    *,
    max_states: int | None = DEFAULT_MAX_STATES,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    progress: Progress | None = None,
) -> tuple[RankedMove, ...]:
    """Every move from ``position`` with its exact chance to win (then playing perfectly), best first.

    The moves are the covered, unflagged cells that are not a mine in every
    layout; equal values come in row-major order. Raises as
    :class:`PositionSearch` does.

    >>> ranking = rank_moves(Position.from_rows(["1???", "????"], mines=3))
    >>> [(cell_name(m.cell), m.wins, m.layouts) for m in ranking]
    [('A2', 5, 18), ('B2', 5, 18), ('A3', 4, 18), ('B3', 4, 18), ('A4', 3, 18), ('B1', 3, 18), ('B4', 3, 18)]
    >>> ranking[0].to_json()
    {'cell': 'A2', 'wins': 5, 'win_probability': 0.2777777777777778}
    """
    search = PositionSearch(position, max_states=max_states, time_limit=time_limit, progress=progress)
    return search.ranking()


def perfect_from_position(
    position: Position,
    *,
    strategies: Sequence[str] = ("best",),
    max_states: int | None = DEFAULT_MAX_STATES,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    progress: Progress | None = None,
) -> PositionResult:
    """The exact chance to win from ``position`` (with its total) under perfect play, and every move's.

    Every layout consistent with the position is equally likely; flags count
    as mines, as in the analysis. Raises as :class:`PositionSearch` does:
    :class:`~minesat.analysis.InconsistentPositionError` when no layout fits,
    :class:`ValueError` when the total is unknown or negative or the layouts
    are too many to list, and :class:`PastBudget` past ``max_states`` or
    ``time_limit``.

    >>> p = Position.from_rows(["1?", "??"], mines=1)
    >>> r = perfect_from_position(p, strategies=["safest"])
    >>> r.wins, r.layouts, [cell_name(c) for c in r.moves], r.players
    (1, 3, ['A2', 'B1', 'B2'], (PlayerMove(strategy='safest', move=(0, 1), wins=1),))
    """
    from minesat.player import get_strategy

    began = time.perf_counter()
    chosen = [(name, get_strategy(name)) for name in strategies]
    search = PositionSearch(position, max_states=max_states, time_limit=time_limit, progress=progress)
    ranking = search.ranking()
    wins = search.wins()
    moves = tuple(sorted(m.cell for m in ranking if m.wins == wins))
    value = {m.cell: m.wins for m in ranking}
    analysis = search.analysis
    players = []
    for name, player in chosen:
        if analysis.safe or analysis.mine or not analysis.unknown:
            players.append(PlayerMove(name, None, wins))  # proven moves (or none left): no guess
        else:
            cell = player.choose(position, analysis)
            players.append(PlayerMove(name, cell, value[cell] if cell in value else search.move_wins(cell)))
    seconds = time.perf_counter() - began
    return PositionResult(wins, search.layouts, moves, tuple(players), search.states, seconds, ranking)
