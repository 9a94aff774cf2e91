"""Perfect play from a position, with what each strategy of the automatic player would do there.

:func:`perfect_from_position` is ``minesat perfect POSITION_FILE``: the exact
chance to win, every move ranked (:class:`~minesat.exact.position.PositionSearch`
does the search), and each named strategy's move with what it keeps.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from minesat.board import Cell, Position, cell_name
from minesat.budget import SEARCH_BUDGET, Budget, Progress, budget_with
from minesat.exact.position import PositionSearch, RankedMove
from minesat.player import get_strategy
from minesat.stats import WinShare

__all__ = ["PlayerMove", "PositionResult", "perfect_from_position"]


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


def perfect_from_position(
    position: Position,
    *,
    strategies: Sequence[str] = ("best",),
    budget: Budget = SEARCH_BUDGET,
    progress: Progress | None = None,
    **deprecated: float | None,
) -> PositionResult:
    """The exact chance to win from ``position`` (with its total) under perfect play, and every move's.

    Every layout consistent with the position is equally likely; flags count
    as mines, as in the analysis. Raises as :class:`PositionSearch` does:
    :class:`~minesat.analysis.InconsistentPositionError` when no layout fits,
    :class:`ValueError` when the total is unknown or negative or the layouts
    are too many to list, and :class:`PastBudget` past the ``budget``'s ``max_states``,
    ``time_limit`` or ``max_memory`` (bytes the process holds): by default
    :data:`~minesat.budget.SEARCH_BUDGET` (2 000 000 states, 180 s, 1 000 MB).
    (``max_states=``, ``time_limit=`` and ``max_memory=`` given apart still set its
    fields, with a :class:`DeprecationWarning`.)

    >>> p = Position.from_rows(["1?", "??"], mines=1)
    >>> r = perfect_from_position(p, strategies=["safest"])
    >>> r.wins, r.layouts, [cell_name(c) for c in r.moves], r.players
    (1, 3, ['A2', 'B1', 'B2'], (PlayerMove(strategy='safest', move=(0, 1), wins=1),))
    """
    budget = budget_with(budget, deprecated, "perfect_from_position")
    began = time.perf_counter()
    chosen = [(name, get_strategy(name)) for name in strategies]
    search = PositionSearch(position, budget=budget, progress=progress)
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
