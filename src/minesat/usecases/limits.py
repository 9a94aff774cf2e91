"""Budgets kept while a use case runs: its time, the states it searches and the memory it holds.

The work checks its own budgets at its long steps (:func:`~minesat.budget.checkpoint`);
:func:`within` sets the clock they check and, for the memory, also watches from a thread where
no checkpoint stands (the player's strategies), so that ``--max-memory`` holds for every
command the same way (docs/exit-status.md).
"""

from __future__ import annotations

import _thread
import gc
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from minesat.budget import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_STATES,
    DEFAULT_TIME_LIMIT,
    HEADROOM,
    SEARCH_BUDGET,
    Budget,
    OutOfMemory,
    checkpoint,
    give_back,
    resident_bytes,
    watching,
    which_budget,
)

__all__ = [
    "DEFAULT_MAX_MEMORY",
    "DEFAULT_MAX_STATES",
    "DEFAULT_TIME_LIMIT",
    "SEARCH_BUDGET",
    "WATCH_EVERY",
    "Budget",
    "OutOfMemory",
    "checkpoint",
    "memory_watch",
    "recover_memory",
    "resident_bytes",
    "which_budget",
    "within",
]

#: How often (seconds) :func:`memory_watch` reads the memory the process holds.
WATCH_EVERY = 0.02


@contextmanager
def memory_watch(max_memory: int | None, every: float = WATCH_EVERY) -> Iterator[None]:
    """Within the block, :class:`~minesat.budget.OutOfMemory` is raised in the main thread as
    soon as the process holds more than ``max_memory`` bytes (less the budget's headroom), whatever
    the work is doing: a thread reads the memory held every ``every`` seconds.

    The work's own checkpoints (:func:`~minesat.budget.checkpoint`) stop it where they
    stand; this stops it too where there are none, as in the player's strategies, so that a
    budget is kept within what the work allocates in ``every`` seconds. ``None``: no watch.
    It raises through a simulated SIGUSR1, the way a signal stops the main thread (Unix only).
    """
    if (max_memory is None or not hasattr(signal, "SIGUSR1")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return
    usable = max_memory - int(HEADROOM * max_memory)
    held = [0]
    stop, lock = threading.Event(), threading.Lock()

    def past(signum: int, frame: object) -> None:
        raise OutOfMemory(held[0], 0, max_memory)

    def watch() -> None:
        while not stop.wait(every):
            now = resident_bytes()
            if now > usable and give_back():  # what the allocator kept, given back first
                now = resident_bytes()
            if now > usable:
                with lock:
                    if not stop.is_set():
                        held[0] = now
                        _thread.interrupt_main(signal.SIGUSR1)
                return

    previous = signal.signal(signal.SIGUSR1, past)
    thread = threading.Thread(target=watch, name="minesat-memory", daemon=True)
    try:
        # Started inside: a stop raised as soon as the watch starts (a block already past its
        # budget, on a busy machine) still puts the handler back.
        thread.start()
        yield
    finally:
        try:
            with lock:
                stop.set()
            thread.join()  # a stop asked for just before is raised here, while ``past`` handles it
        finally:
            signal.signal(signal.SIGUSR1, previous)


@contextmanager
def within(budget: Budget) -> Iterator[None]:
    """Run the block within ``budget``'s time and memory: the work's checkpoints see its clock,
    and :func:`memory_watch` stops it where there are none (:class:`OutOfMemory`, or the
    :class:`~minesat.budget.OutOfTime` of a checkpoint)."""
    with watching(budget.clock()), memory_watch(budget.max_memory):
        yield


def recover_memory() -> None:
    """After work stopped past its memory budget (its objects let go by the caller): collect them
    and give the memory back to the system, so that the next piece of work starts below the budget."""
    gc.collect()
    give_back()
