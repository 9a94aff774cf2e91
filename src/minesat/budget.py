"""The budgets of a piece of work: states, time and memory, and what is said past them.

One floor below everything that is bounded: the analysis (``minesat analyze``'s time and
memory limits), the exact search of :mod:`minesat.exact` (the player's endgame, ``minesat
perfect`` from a position or a whole board) and what is built over them. Each is bounded by
one :class:`Budget`: its ``max_states`` (states searched), ``time_limit`` (seconds) and
``max_memory`` (bytes the process holds); past any of them a search stops with
:class:`PastBudget`, saying how far it got. A board or position whose listing would not fit
is refused before anything is listed (:func:`listing_refusal`).

Time and memory are watched by a :class:`Clock`. While one is *watching*
(:func:`watching`), every long step of the work (listing layouts, building
tables, each state of the search) calls :func:`checkpoint`, which reads the
clock and, every few milliseconds or before a large allocation, the memory
the process holds: so a stop comes within moments of the limit, whether the
time goes into the search or into setting it up.

>>> with watching(Clock(None, None, max_memory=10**12)):
...     checkpoint(more=10**6)                  # a megabyte more is within a terabyte
>>> with watching(Clock(None, None, max_memory=10**6)):
...     checkpoint()                            # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
minesat.budget.OutOfMemory: the interpreter alone holds more than a megabyte
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from minesat.errors import ListingRefused, OverBudget, PastBudget
from minesat.stats import approximate

__all__ = [
    "NO_LIMIT", "SEARCH_BUDGET", "Budget", "Clock", "ListingRefused", "OutOfMemory", "OutOfTime",
    "OverBudget", "PastBudget", "budget_with", "checkpoint", "listing_refusal", "watching", "which_budget",
]

#: States searched before giving up, by default. How long that takes depends on the
#: board: 5 to 11 minutes on small boards, a quarter of an hour to an hour on a late expert position
#: (docs/perfect.md has the figures); :data:`DEFAULT_TIME_LIMIT` usually stops first.
DEFAULT_MAX_STATES = 2_000_000

#: Seconds searched before giving up, by default: the budget people can read.
DEFAULT_TIME_LIMIT = 180.0

#: Bytes the process may hold (resident) while it searches, by default: 1 000 MB. A search
#: with no memory budget is still refused a listing past :data:`MAX_LISTING`.
DEFAULT_MAX_MEMORY = 1_000_000_000

#: Most bytes a search's listing may take when no memory budget is given (the player's
#: endgame, a review): a byte for each cell of each layout and their bit sets. 7x7 with 6 mines
#: under ``opening`` (the largest board within reach) takes 260 MB; a 1000x1000 board with
#: one mine would take more than a terabyte.
MAX_LISTING = 512_000_000

#: Most layouts a search lists (a byte per cell each, and bit sets over them): past
#: this a board is refused as too large, rather than exhausting memory.
MAX_LAYOUTS = 4_000_000

#: Most layouts a position may have for :func:`perfect_from_position` to list them.
POSITION_LAYOUTS = MAX_LAYOUTS

#: Progress reports: (states searched, layouts settled, layouts in all).
Progress = Callable[[int, int, int], None]

#: How often (seconds) :func:`checkpoint` reads the memory held while well within the budget;
#: past :data:`CLOSE_TO_LIMIT` of it, at every call.
MEMORY_EVERY = 0.01
CLOSE_TO_LIMIT = 0.9

#: The share of the memory budget kept free for what is allocated between two readings (a step of
#: the search, the memo's table growing): the search stops once it holds the rest.
HEADROOM = 0.03

#: Freed memory is given back to the system (:func:`give_back`) at most this often (seconds).
TRIM_EVERY = 0.05


class OutOfTime(OverBudget):
    """The work ran past its time limit (raised by :class:`Clock`; a search turns it into
    :class:`PastBudget`): ``spent`` seconds against a ``limit``."""

    what = "time"
    parameter = "time_limit"

    def __init__(self, spent: float | None = None, limit: float | None = None) -> None:
        told = "" if spent is None or limit is None else f"{spent:.3g} s: past the time limit of {limit:g} s"
        super().__init__(told, spent, limit)


class OutOfMemory(OverBudget):
    """The process would hold more than the memory budget (raised by :class:`Clock`; a search
    turns it into :class:`PastBudget`): ``held`` bytes, ``more`` about to be allocated, ``limit``
    the budget."""

    what = "memory"
    parameter = "max_memory"
    limit: int  # bytes, always given

    def __init__(self, held: int, more: int, limit: int) -> None:
        told = f"{held} bytes held and {more} more asked for: past the budget of {limit} bytes"
        super().__init__(told, held + more, limit)
        self.held, self.more = held, more


@dataclass(frozen=True)
class Budget:
    """The budgets of one piece of work: states searched, seconds and bytes held (``None``: no limit).

    One type for the exact search (``minesat perfect``) and the analysis (``minesat analyze``):
    :meth:`clock` watches the time and memory of one run (:func:`watching`, :func:`checkpoint`).

    >>> Budget(time_limit=2.5).clock().time_limit
    2.5
    >>> Budget(max_memory=10**9).megabytes
    1000.0
    """

    max_states: int | None = None
    time_limit: float | None = None
    max_memory: int | None = None

    def clock(self, progress: Progress | None = None, began: float | None = None) -> Clock:
        """A :class:`Clock` for one run, counting from ``began`` (``time.perf_counter()``; now by default)."""
        clock = Clock(self.time_limit, progress, self.max_memory)
        if began is not None:
            clock.began = began
            clock.deadline = None if self.time_limit is None else began + self.time_limit
        return clock

    @property
    def megabytes(self) -> float | None:
        return None if self.max_memory is None else self.max_memory / 10**6


#: The budget of a search a person asks for (:func:`~minesat.perfect.perfect_play`,
#: :func:`~minesat.perfect.perfect_from_position`, :func:`~minesat.exact.position.rank_moves`,
#: ``minesat perfect``): :data:`DEFAULT_MAX_STATES` states, :data:`DEFAULT_TIME_LIMIT` seconds
#: and :data:`DEFAULT_MAX_MEMORY` bytes.
SEARCH_BUDGET = Budget(DEFAULT_MAX_STATES, DEFAULT_TIME_LIMIT, DEFAULT_MAX_MEMORY)

#: No budget at all: the work runs to its end (a search still lists no more than
#: :data:`MAX_LAYOUTS` layouts in :data:`MAX_LISTING` bytes).
NO_LIMIT = Budget()

#: The keywords the searches took before they took one :class:`Budget`.
OLD_KEYWORDS = ("max_states", "time_limit", "max_memory")


def budget_with(budget: Budget, old: dict[str, Any], caller: str) -> Budget:
    """``budget``, with the budgets a caller still gives as keywords of their own (deprecated:
    ``max_states=``, ``time_limit=``, ``max_memory=``) in place of its fields, and a
    :class:`DeprecationWarning` saying so; any other keyword is a :class:`TypeError`, as Python's own.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     budget_with(SEARCH_BUDGET, {"max_states": 20}, "perfect_play")
    Budget(max_states=20, time_limit=180.0, max_memory=1000000000)
    >>> budget_with(SEARCH_BUDGET, {"states": 20}, "perfect_play")
    Traceback (most recent call last):
    TypeError: perfect_play() got an unexpected keyword argument 'states'
    """
    for name in old:
        if name not in OLD_KEYWORDS:
            raise TypeError(f"{caller}() got an unexpected keyword argument {name!r}")
    if not old:
        return budget
    given = ", ".join(f"{name}=..." for name in old)
    warnings.warn(
        f"{caller}({given}) is deprecated: pass budget=Budget({given}) (minesat.budget.Budget)",
        DeprecationWarning,
        stacklevel=3,
    )
    return replace(budget, **old)


class Clock:
    """The time and memory budgets of one run, and its progress callback.

    Called as a progress callback (``clock(states, settled, total)``) it
    passes the report on and raises :class:`OutOfTime` past the time limit.
    :meth:`check` (what :func:`checkpoint` calls while the clock is
    :func:`watching`) raises :class:`OutOfTime` past the time limit and
    :class:`OutOfMemory` when the memory the process holds, with ``more``
    bytes about to be allocated, would pass ``max_memory``.

    >>> clock = Clock(0.0, None)
    >>> clock(4096, 0, 10)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    minesat.budget.OutOfTime: 1e-05 s: past the time limit of 0 s
    """

    def __init__(
        self, time_limit: float | None, progress: Progress | None, max_memory: int | None = None
    ) -> None:
        self.time_limit = time_limit
        self.progress = progress
        self.max_memory = max_memory
        self.began = time.perf_counter()
        self.deadline = None if time_limit is None else self.began + time_limit
        self.states = self.settled = 0  # as last reported: how far the search got
        self._memory_due = 0.0  # when the memory held is read next
        self._trimmed = -TRIM_EVERY  # when freed memory was last given back to the system

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.began

    def __call__(self, states: int, settled: int, total: int) -> None:
        self.states, self.settled = states, settled
        if self.progress is not None:
            self.progress(states, settled, total)
        if self.deadline is not None and (now := time.perf_counter()) > self.deadline:
            raise OutOfTime(now - self.began, self.time_limit)

    def check(self, more: int = 0) -> None:
        """Raise :class:`OutOfTime` or :class:`OutOfMemory` when past a budget (``more``: bytes about
        to be allocated; the memory held is read at once when some are, else every few milliseconds)."""
        now = time.perf_counter()
        if self.deadline is not None and now > self.deadline:
            raise OutOfTime(now - self.began, self.time_limit)
        budget = self.max_memory
        if budget is not None and (more or now >= self._memory_due):
            held = resident_bytes()
            usable = budget - int(HEADROOM * budget)  # the rest: what is allocated before the next reading
            if held + more > usable and now >= self._trimmed + TRIM_EVERY and give_back():
                # The allocator kept freed memory (large blocks freed among small ones live): it
                # is given back, and the memory held read again, before the search gives up.
                self._trimmed = time.perf_counter()
                held = resident_bytes()
            if held + more > usable:
                raise OutOfMemory(held, more, budget)
            self._memory_due = now if held > CLOSE_TO_LIMIT * usable else now + MEMORY_EVERY


_WATCHING: ContextVar[Clock | None] = ContextVar("minesat_exact_watching", default=None)


@contextmanager
def watching(clock: Clock | None) -> Iterator[Clock | None]:
    """Within the block, :func:`checkpoint` checks ``clock``'s budgets (``None``: none are checked)."""
    token = _WATCHING.set(clock)
    try:
        yield clock
    finally:
        _WATCHING.reset(token)


def checkpoint(more: int = 0) -> None:
    """Check the budgets of the clock :func:`watching` (if any): a long step of the work calls this
    often, and before it allocates ``more`` bytes at once."""
    clock = _WATCHING.get()
    if clock is not None:
        clock.check(more)


class _Resident:
    """The process's resident memory, read from ``/proc/self/statm`` (one ``pread``, about a
    microsecond) where there is one, else the peak so far (``getrusage``), which never says less."""

    def __init__(self) -> None:
        self.pid = -1
        self.fd: int | None = None
        self.page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

    def __call__(self) -> int:
        if self.pid != os.getpid():  # a forked process reads its own file, not its parent's
            self.pid = os.getpid()
            try:
                self.fd = os.open("/proc/self/statm", os.O_RDONLY)
            except OSError:
                self.fd = None
        if self.fd is not None:
            return int(os.pread(self.fd, 128, 0).split()[1]) * self.page
        try:
            import resource
        except ImportError:  # Windows: nothing to read, nothing is stopped for memory
            return 0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KB elsewhere


#: The bytes this process holds in memory (resident) now.
resident_bytes = _Resident()


def give_back() -> bool:
    """Ask the C allocator to give the memory it keeps free back to the system (glibc's
    ``malloc_trim``); ``False`` where there is none to ask.

    Large arrays freed among small objects still alive stay with the process:
    the memory held (resident) then says more than the search holds. This is
    asked only when the budget would be passed, at most every :data:`TRIM_EVERY` seconds.
    """
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


@lru_cache(maxsize=1)
def _malloc_trim() -> Callable[[int], int] | None:
    import ctypes

    try:
        trim: Callable[[int], int] = ctypes.CDLL("libc.so.6").malloc_trim  # glibc's own name
        return trim
    except (OSError, AttributeError):  # not glibc (macOS, Windows, musl)
        return None


#: About how many bytes a board's tables take per cell once the search uses them (its
#: neighbours, and the position read through each mirror and turn), measured on 100x100.
BOARD_CELL_BYTES = 400


def listing_bytes(cells: int, layouts: int) -> int:
    """About how many bytes a search holds once ``layouts`` layouts of a ``cells``-cell board are listed.

    A byte for each cell of each layout; for each cell, a bit set over the
    layouts for each number it shows (three, as on most boards: a mine, 0
    and 1); and the board's tables. What the search adds as it goes (its memo,
    shorter lists) is watched as it grows (:func:`checkpoint`).

    >>> listing_bytes(1_000_000, 1)
    524000000
    """
    return cells * layouts + 3 * cells * ((layouts + 7) // 8 + 40) + BOARD_CELL_BYTES * cells


def too_many(layouts: str, limit: int = MAX_LAYOUTS) -> str:
    """How a refusal says that ``layouts`` (a count as said) are more than the search lists.

    >>> too_many("1.1e13")
    '1.1e13 layouts: more than the 4000000 the search lists'
    """
    return f"{layouts} layouts: more than the {limit} the search lists"


def too_many_layouts(said: str, cells: int, layouts: int | None = None, at_least: bool = False,
                     limit: int = MAX_LAYOUTS) -> ListingRefused:
    """The refusal of ``said`` layouts (a count as said; ``layouts`` the count itself, when one
    was made) of a ``cells``-cell board: more than ``limit``.

    >>> too_many_layouts("7.4e20701", 10**6, at_least=True).render()
    'at least 7.4e20701 layouts: more than the 4000000 the search lists'
    """
    told = too_many(f"at least {said}" if at_least else said, limit)
    return ListingRefused(told, count=said, layouts=layouts, cells=cells, limit=limit, at_least=at_least)


def listing_refusal(cells: int, layouts: int, max_memory: int | None = None) -> ListingRefused | None:
    """Why a search cannot list ``layouts`` layouts of a ``cells``-cell board; ``None`` when it can.

    Counted, never listed: the answer comes at once however large the board.
    Past :data:`MAX_LAYOUTS` layouts, or when the listing (:func:`listing_bytes`)
    alone would pass ``max_memory`` bytes (with none given, :data:`MAX_LISTING`),
    the search would exhaust memory before it began. One layout is never
    refused: its game needs no listing (every safe cell is known).

    >>> listing_refusal(49, 3_838_380) is None
    True
    >>> from math import comb
    >>> refusal = listing_refusal(40_000, comb(39_999, 3))
    >>> str(refusal), refusal.what, refusal.limit
    ('1.1e13 layouts: more than the 4000000 the search lists', 'layouts', 4000000)
    >>> refusal = listing_refusal(1_000_000, 999_991, max_memory=10**9)
    >>> str(refusal)
    '999991 layouts of 1000000 cells: a listing of 1.4e12 bytes, past the memory budget of 1000 MB'
    >>> refusal.what, refusal.spent, refusal.limit
    ('memory', 1375508000000, 1000000000)
    >>> listing_refusal(1_000_000, 1) is None
    True
    """
    if layouts > MAX_LAYOUTS:
        return too_many_layouts(approximate(layouts), cells, layouts)
    size = listing_bytes(cells, layouts)
    if layouts > 1 and size > (MAX_LISTING if max_memory is None else max_memory):
        noun = "layout" if layouts == 1 else "layouts"
        budget = (
            f"more than the {MAX_LISTING // 10**6} MB the search holds" if max_memory is None
            else f"past {memory_budget(max_memory)}"
        )
        listing = f"a listing of {approximate(size)} bytes"
        return ListingRefused(
            f"{approximate(layouts)} {noun} of {cells} cells: {listing}, {budget}",
            count=approximate(layouts),
            layouts=layouts, cells=cells, limit=MAX_LAYOUTS, listing_bytes=size,
            max_memory=MAX_LISTING if max_memory is None else max_memory, memory_given=max_memory is not None,
        )
    return None


def memory_budget(max_memory: int) -> str:
    """How a message names the memory budget.

    >>> memory_budget(1_000_000_000)
    'the memory budget of 1000 MB'
    """
    return f"the memory budget of {max_memory / 10**6:g} MB"


#: What stops a search: past a budget, or the system giving no more memory (below the budget).
STOPS = (OutOfTime, OutOfMemory, MemoryError)


def which_budget(err: BaseException, budget: Budget) -> tuple[str, str]:
    """Which of ``budget``'s budgets ran out, and what to do: raise the field that sets it. Both
    name it as a template (``{time_limit}``: :class:`~minesat.errors.MinesatError` says it in each
    face's words: ``time_limit=`` in the library, a field of the :class:`Budget` it takes).

    A :class:`MemoryError` is the system's own limit (a cap on the process below its budget).

    >>> which_budget(OutOfMemory(0, 0, 10**9), NO_LIMIT)
    ('past the memory budget of 1000 MB', 'raise {max_memory}')
    >>> which_budget(OutOfTime(), Budget(time_limit=2.0))
    ('past {time_limit:2 s}', 'raise {time_limit}')
    >>> which_budget(MemoryError(), NO_LIMIT)
    ('out of memory (the system gave no more, below the budget)', 'give it more memory')
    """
    if isinstance(err, OutOfTime):
        return f"past {{time_limit:{budget.time_limit:g} s}}", "raise {time_limit}"
    if isinstance(err, OutOfMemory):
        return f"past {memory_budget(int(err.limit or 0))}", "raise {max_memory}"
    if isinstance(err, MemoryError):
        return "out of memory (the system gave no more, below the budget)", "give it more memory"
    return f"past {{max_states:{budget.max_states}}}", "raise {max_states}"
