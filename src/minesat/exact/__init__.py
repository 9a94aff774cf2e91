"""The exact game-tree search: perfect play over listed layouts.

Below the player (whose endgame plays by it, :mod:`minesat.exact.endgame`) and
below ``minesat perfect`` (:mod:`minesat.perfect`, which adds whole boards and
the strategies' exact counts): one search serves both, so the player's exact
move and ``minesat perfect``'s value are the same number. Its budgets (states, time and
memory, :class:`~minesat.budget.PastBudget`) are :mod:`minesat.budget`, below the analysis.

- :mod:`.geometry`: a board as cell indices, layouts as a byte matrix, sets of layouts as bit sets.
- :mod:`.listing`: every layout consistent with a position, listed.
- :mod:`.alike`: which layouts can still be told apart (the search's bound).
- :mod:`.search`: the search itself (:class:`~.search.PerfectSearch`).
- :mod:`.position`: perfect play from one position, every move ranked.
- :mod:`.endgame`: the player's move when few layouts are left.
"""

from __future__ import annotations

from minesat.budget import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_STATES,
    DEFAULT_TIME_LIMIT,
    SEARCH_BUDGET,
    Budget,
    PastBudget,
    listing_refusal,
)
from minesat.exact.position import PositionSearch, RankedMove, rank_moves

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
