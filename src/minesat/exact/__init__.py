"""The exact game-tree search: perfect play over listed layouts.

Below the player (whose endgame plays by it, :mod:`minesat.exact.endgame`) and
below ``minesat perfect`` (:mod:`minesat.perfect`, which adds whole boards and
the strategies' exact counts): one search serves both, so the player's exact
move and ``minesat perfect``'s value are the same number.

- :mod:`.geometry`: a board as cell indices, layouts as a byte matrix, sets of layouts as bit sets.
- :mod:`.listing`: every layout consistent with a position, listed.
- :mod:`.alike`: which layouts can still be told apart (the search's bound).
- :mod:`.search`: the search itself (:class:`~.search.PerfectSearch`).
- :mod:`.budget`: states, time and memory, and :class:`~.budget.PastBudget`.
- :mod:`.position`: perfect play from one position, every move ranked.
- :mod:`.endgame`: the player's move when few layouts are left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minesat.exact.budget import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_STATES,
    DEFAULT_TIME_LIMIT,
    SEARCH_BUDGET,
    Budget,
    PastBudget,
    listing_refusal,
)

if TYPE_CHECKING:
    from minesat.exact.position import PositionSearch, RankedMove, rank_moves


def __getattr__(name: str) -> Any:
    # The search from a position is imported when first asked for: the analysis, below it,
    # reads the budgets in .budget, and importing this package must not import the
    # analysis back (PEP 562).
    if name in ("PositionSearch", "RankedMove", "rank_moves"):
        from minesat.exact import position

        return getattr(position, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "DEFAULT_MAX_MEMORY",
    "DEFAULT_MAX_STATES",
    "DEFAULT_TIME_LIMIT",
    "SEARCH_BUDGET",
    "Budget",
    "PastBudget",
    "PositionSearch",
    "RankedMove",
    "listing_refusal",
    "rank_moves",
]
