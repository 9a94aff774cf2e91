"""The budgets of an exact search: states, time and listing size, and what is said past them.

Every search of :mod:`minesat.exact` (the player's endgame, ``minesat perfect``
from a position or a whole board) is bounded by ``max_states`` (states searched)
and ``time_limit`` (seconds); past either it stops with :class:`PastBudget`,
saying how far it got. A board or position with too many layouts to list is
refused before anything is listed (:func:`listing_refusal`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from minesat.exact.geometry import MAX_LAYOUTS
from minesat.stats import approximate

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

    The search reports every :data:`~minesat.exact.search.PROGRESS_EVERY`
    states, so the limit is kept to within that many states (a few seconds
    on the slowest positions) without the search reading a clock itself.

    >>> clock = Clock(0.0, None)
    >>> clock(4096, 0, 10)
    Traceback (most recent call last):
    minesat.exact.budget.OutOfTime
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
    Past :data:`~minesat.exact.geometry.MAX_LAYOUTS` layouts, or past
    :data:`MAX_LISTING` bytes of listing (a huge board with few mines), the
    search would exhaust memory before it began.

    >>> listing_refusal(49, 3_838_380) is None
    True
    >>> from math import comb
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


def which_budget(err: Exception, max_states: int | None, time_limit: float | None) -> tuple[str, str]:
    """Which budget ran out, as the message names it, and the option that raises it."""
    if isinstance(err, OutOfTime):
        return f"past --time-limit {time_limit:g} s", "--time-limit"
    return f"past --max-states {max_states}", "--max-states"
