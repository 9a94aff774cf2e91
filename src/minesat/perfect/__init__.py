"""Perfect play: the exact chance to win a whole game, and how close the strategies come.

The layouts are those :mod:`minesat.generate` draws from, every one equally
likely: on a ``rows`` x ``cols`` board with ``mines`` mines, all layouts the
first-click rule allows at the start. A perfect player knows this
distribution and nothing else; :func:`perfect_play` counts the layouts it wins
(a deterministic optimal strategy wins or loses each layout), with no
sampling: ``wins / layouts`` is the exact chance to win.

>>> result = perfect_play(3, 3, 1, rule="safe", start=(1, 1))
>>> result.wins, result.layouts, result.win_probability
(7, 8, 0.875)
>>> strategy_wins(3, 3, 1, rule="safe", start=(1, 1), strategy="safest").wins
7

:func:`perfect_from_position` answers the same question from a position part
way through a game, with every move ranked by its exact chance (:func:`rank_moves`
gives the ranking alone), and :func:`strategy_wins` counts exactly the layouts
a named strategy of the automatic player wins (every layout played, none
sampled). How the search works and why its shortcuts keep the answer exact:
docs/perfect.md.

One :class:`~minesat.budget.Budget` bounds a search, given as ``budget=``: its
``max_states`` (states searched), ``time_limit`` (seconds) and ``max_memory`` (bytes
the process holds), :data:`SEARCH_BUDGET` unless given; past any of them it stops with
:class:`PastBudget`, saying how far it got. A board or position with too many layouts
to list is refused before anything is listed (:func:`listing_refusal`).

>>> try:
...     perfect_play(4, 4, 4, rule="safe", start=(1, 1), budget=Budget(max_states=10))
... except PastBudget as stop:
...     print(stop.states, "states:", str(stop).split(":")[0])
11 states: past max_states=10
"""

from __future__ import annotations

from minesat.budget import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_STATES,
    DEFAULT_TIME_LIMIT,
    MAX_LAYOUTS,
    MAX_LISTING,
    NO_LIMIT,
    POSITION_LAYOUTS,
    SEARCH_BUDGET,
    Budget,
    Clock,
    OutOfMemory,
    OutOfTime,
    PastBudget,
    Progress,
    listing_refusal,
)
from minesat.exact.geometry import TooManyLayouts
from minesat.exact.position import PositionSearch, RankedMove, RankingCut, rank_moves
from minesat.perfect.follow import StrategyCount, strategy_wins
from minesat.perfect.from_position import PlayerMove, PositionResult, perfect_from_position
from minesat.perfect.game import PARALLEL_FROM, PerfectResult, perfect_play
from minesat.perfect.solver import PerfectPlay, StartValue, root_layouts

__all__ = [
    "DEFAULT_MAX_MEMORY",
    "DEFAULT_MAX_STATES",
    "DEFAULT_TIME_LIMIT",
    "MAX_LAYOUTS",
    "MAX_LISTING",
    "NO_LIMIT",
    "PARALLEL_FROM",
    "POSITION_LAYOUTS",
    "SEARCH_BUDGET",
    "Budget",
    "Clock",
    "OutOfMemory",
    "OutOfTime",
    "PastBudget",
    "PerfectPlay",
    "PerfectResult",
    "PlayerMove",
    "PositionResult",
    "PositionSearch",
    "Progress",
    "RankedMove",
    "RankingCut",
    "StartValue",
    "StrategyCount",
    "TooManyLayouts",
    "listing_refusal",
    "perfect_from_position",
    "perfect_play",
    "rank_moves",
    "root_layouts",
    "strategy_wins",
]
