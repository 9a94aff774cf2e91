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
way through a game, with every move that keeps the chance, and
:func:`strategy_wins` counts exactly the layouts a named strategy of the
automatic player wins (every layout played, none sampled). How the search
works and why its shortcuts keep the answer exact: docs/perfect.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

import numpy as np

from minesat.analysis import Analyzer
from minesat.board import FLAG, Cell, Position, cell_name
from minesat.generate import FirstClick, check_mine_count, kept_clear, mines_fit
from minesat.perfect.follow import StrategyCount, strategy_wins
from minesat.perfect.geometry import (
    COVERED,
    MAX_LAYOUTS,
    Board,
    TooManyLayouts,
    bit_set,
    layouts_matrix,
)
from minesat.perfect.listing import position_bytes, position_layouts
from minesat.perfect.search import OutOfBudget, PerfectSearch, Universe, members

__all__ = [
    "DEFAULT_MAX_STATES",
    "PastBudget",
    "PerfectPlay",
    "PerfectResult",
    "PlayerMove",
    "PositionResult",
    "StartValue",
    "StrategyCount",
    "TooManyLayouts",
    "perfect_from_position",
    "perfect_play",
    "strategy_wins",
]

#: States searched before giving up, by default: a few minutes on one core.
DEFAULT_MAX_STATES = 2_000_000

#: Fewer layouts than this (over all the starts tried) are searched in this process
#: even when workers are asked for: the search ends before they would start.
PARALLEL_FROM = 20_000

#: Most layouts a position may have for :func:`perfect_from_position` to list them.
POSITION_LAYOUTS = MAX_LAYOUTS

#: Progress reports: (states searched, layouts settled, layouts in all).
Progress = Callable[[int, int, int], None]


class PastBudget(Exception):
    """The search needed more states (or layouts) than allowed; the message says how far it got."""

    def __init__(self, message: str, states: int, settled: int, layouts: int) -> None:
        super().__init__(message)
        self.states = states
        self.settled = settled
        self.layouts = layouts


@dataclass(frozen=True)
class StartValue:
    """Perfect play from one first click: ``wins`` of ``layouts``."""

    start: Cell
    wins: int
    layouts: int

    @property
    def win_probability(self) -> float:
        return self.wins / self.layouts if self.layouts else 0.0


@dataclass(frozen=True)
class PerfectResult:
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

    @property
    def win_probability(self) -> float:
        return self.wins / self.layouts if self.layouts else 0.0

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


def _pool(board: Board, start: Cell, rule: FirstClick) -> list[int]:
    """The cells that may hold a mine in a game that goes on after the first click."""
    clear = kept_clear(start, board.rows, board.cols, FirstClick.SAFE if rule is FirstClick.ANY else rule)
    return [i for i in range(board.cells) if board.cell(i) not in clear]


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
        self.total = sum(comb(len(_pool(self.board, start, rule)), self.mines) for start, rule in starts)
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
            listed = comb(len(_pool(board, start, rule)), self.mines)
            if listed > MAX_LAYOUTS:
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
    progress: Progress | None = None,
    workers: int = 1,
    scheduler: str | None = None,
) -> PerfectResult:
    """The exact value of the game under perfect play, from ``start`` or from the best first click.

    With no ``start`` every class of cells the board's symmetries map onto
    each other is tried (one cell of each) and the best chance wins; ties go
    to the first in row-major order. Raises :class:`ValueError` for a board
    the mines do not fit, and :class:`PastBudget` when more than
    ``max_states`` states would be needed (its message says how far it got).

    With ``workers`` above 1, or a Dask ``scheduler`` address, the numbers the
    first clicks can show are searched in parallel
    (:mod:`minesat.perfect.parallel`) and ``max_states`` bounds each of them;
    without a scheduler, games of fewer than :data:`PARALLEL_FROM` layouts stay
    in this process, where they finish before workers would start. The answer
    is the same.
    """
    rule = FirstClick(rule)
    began = time.perf_counter()
    solver = PerfectPlay(rows, cols, mines, max_states=max_states, progress=progress)
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
        values, states = _in_parallel(solver, rule, candidates, max_states, progress, workers, scheduler)
    else:
        values, states = _in_process(solver, rule, candidates, max_states)
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
    solver: PerfectPlay, rule: FirstClick, candidates: list[Cell], max_states: int | None
) -> tuple[list[StartValue], int]:
    """Each start's value, one after another in this process (they share the solver's memo)."""
    values = []
    for done, cell in enumerate(candidates):
        try:
            values.append(solver.start_value(cell, rule))
        except TooManyLayouts as err:
            raise PastBudget(
                f"start {cell_name(cell)} has {err}; try a smaller board or fewer mines",
                solver.states,
                solver.settled,
                solver.total,
            ) from None
        except OutOfBudget:
            raise PastBudget(
                _budget_message(solver, max_states, done, len(candidates), cell),
                solver.states,
                solver.settled,
                solver.total,
            ) from None
    return values, solver.states


def _in_parallel(
    solver: PerfectPlay,
    rule: FirstClick,
    candidates: list[Cell],
    max_states: int | None,
    progress: Progress | None,
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


def _budget_message(solver: PerfectPlay, max_states: int | None, done: int, starts: int, cell: Cell) -> str:
    share = solver.settled / solver.total if solver.total else 0.0
    where = f"start {cell_name(cell)}" if starts == 1 else f"start {done + 1} of {starts} ({cell_name(cell)})"
    of = "its layouts" if starts == 1 else f"the layouts of all {starts} starts"
    return (
        f"past --max-states {max_states}: stopped at {where} with {share:.1%} of {of} settled "
        f"after {solver.states} states; raise --max-states or try a smaller board"
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
class PositionResult:
    """Perfect play from a position: ``wins`` of its ``layouts``, and the moves that keep that.

    ``moves`` are the cells whose uncovering (then perfect play) wins all
    ``wins`` layouts, row-major; ``players`` what each strategy asked for
    would do instead.
    """

    wins: int
    layouts: int
    moves: tuple[Cell, ...]
    players: tuple[PlayerMove, ...]
    states: int
    seconds: float

    @property
    def win_probability(self) -> float:
        return self.wins / self.layouts if self.layouts else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "wins": self.wins,
            "layouts": self.layouts,
            "win_probability": self.win_probability,
            "moves": [cell_name(c) for c in self.moves],
            "strategies": {
                p.strategy: {"move": cell_name(p.move) if p.move is not None else None, "wins": p.wins}
                for p in self.players
            },
            "states": self.states,
            "seconds": round(self.seconds, 3),
        }


def perfect_from_position(
    position: Position,
    *,
    strategies: Sequence[str] = ("best",),
    max_states: int | None = DEFAULT_MAX_STATES,
    progress: Progress | None = None,
) -> PositionResult:
    """The exact chance to win from ``position`` (with its total) under perfect play.

    Every layout consistent with the position is equally likely; flags count
    as mines, as in the analysis. Raises
    :class:`~minesat.analysis.InconsistentPositionError` when no layout fits,
    :class:`ValueError` when the total is unknown or the layouts are too many
    to list, and :class:`PastBudget` past ``max_states``.

    >>> p = Position.from_rows(["1?", "??"], mines=1)
    >>> r = perfect_from_position(p, strategies=["safest"])
    >>> r.wins, r.layouts, [cell_name(c) for c in r.moves], r.players
    (1, 3, ['A2', 'B1', 'B2'], (PlayerMove(strategy='safest', move=(0, 1), wins=1),))
    """
    from minesat.player import get_strategy

    began = time.perf_counter()
    analysis = Analyzer().analyze(position)  # raises, naming a cell, when no layout fits
    chosen = [(name, get_strategy(name)) for name in strategies]
    matrix = position_layouts(position, POSITION_LAYOUTS)
    board = Board(position.rows, position.cols)
    seen = position_bytes(position)
    total = len(matrix)
    settled = [0]

    def report(states: int) -> None:
        if progress is not None:
            progress(states, settled[0], total)

    search = PerfectSearch(board, max_states=max_states, progress=report)
    covered = [i for i, s in enumerate(position.cells) if s < 0 and s != FLAG]
    universe = Universe(matrix, covered, tabulate=total <= _root_alike())
    everything = universe.everything
    try:
        wins = search.win_count(seen, universe, everything)
        settled[0] = total
        mined_everywhere = {c for c, mined, _ in universe.columns if mined == everything}
        always = {i for i in covered if all(i != c for c, _, _ in universe.columns)}
        moves = []
        for i in covered:
            if i in mined_everywhere or (i in always and _is_mine(universe, i)):
                continue
            if search.move_wins(seen, universe, everything, i, at_least=wins) == wins:
                moves.append(board.cell(i))
        players = []
        for name, player in chosen:
            if analysis.safe or analysis.mine:
                players.append(PlayerMove(name, None, wins))
            else:
                cell = player.choose(position, analysis)
                won = search.move_wins(seen, universe, everything, board.index(cell))
                players.append(PlayerMove(name, cell, won))
    except OutOfBudget:
        raise PastBudget(
            f"past --max-states {max_states} after {search.states} states; raise --max-states",
            search.states,
            settled[0],
            total,
        ) from None
    seconds = time.perf_counter() - began
    return PositionResult(wins, total, tuple(moves), tuple(players), search.states, seconds)


def _is_mine(universe: Universe, cell: int) -> bool:
    return bool(universe.matrix[members(universe.everything, universe.size)[0], cell] == 9)
