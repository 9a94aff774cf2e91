"""Perfect play on many cores: each number a first click can show is a game of its own.

After the first click the layouts split by the number it shows, and no move
of one part ever meets a layout of another: the value of the start is the sum
of the parts' values. So the parts of every start tried are handed to worker
processes (or a Dask cluster), the largest first; each worker keeps one
:class:`~minesat.perfect.solver.PerfectPlay` per board and mine count, whose memo is
good for every start and rule (a position's value depends on the position
alone), so the parts it gets one after another share what it learnt. The
answer is the same exact integer whatever the number of workers; only the
states searched differ (a memo is not shared across processes).

>>> starts, states = parallel_start_values(3, 3, 1, rule="safe", starts=[(0, 0), (1, 1)], workers=1)
>>> [(cell_name(v.start), v.wins, v.layouts) for v in starts]
[('A1', 8, 8), ('B2', 7, 8)]
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from minesat.board import Cell, cell_name
from minesat.budget import NO_LIMIT, Budget, OutOfMemory, watching
from minesat.errors import OverBudget
from minesat.exact.geometry import TooManyLayouts
from minesat.exact.search import OutOfBudget
from minesat.executors import InProcess, dask_executor, process_pool, stop_workers
from minesat.generate import FirstClick
from minesat.perfect.solver import PerfectPlay, StartValue

__all__ = ["PartPastBudget", "Progress", "describe_part", "parallel_start_values", "part_value"]

#: Called with (states so far, layouts settled, layouts in all).
Progress = Callable[[int, int, int], None]

#: Each worker's solvers, by board, mine count and memory budget (one at a time: a worker serves one run).
_SOLVERS: dict[tuple[int, int, int, int | None], object] = {}


@dataclass(frozen=True)
class _Part:
    """The layouts where ``start`` shows ``value``: one task."""

    start: Cell
    value: int
    layouts: int


class PartPastBudget(OverBudget):
    """A worker's part needed more than its budget of states, or of memory when ``memory`` (the
    budget, bytes) is given (picklable, unlike a bare search error)."""

    def __init__(self, start: Cell, value: int, states: int, memory: int | None = None) -> None:
        # Of states: the states it searched; of memory: the budget it would pass (bytes held unread).
        super().__init__(f"the part of {start} showing {value} passed its budget",
                         states if memory is None else None, memory)
        self.what = "states" if memory is None else "memory"
        self.parameter = "max_states" if memory is None else "max_memory"
        self.start = start
        self.value = value
        self.states = states
        self.memory = memory
        # Filled in by the parent: the whole run's states and settled layouts when it stopped.
        self.run_states = states
        self.settled = 0


def part_value(
    rows: int,
    cols: int,
    mines: int,
    rule: str,
    start: Cell,
    value: int,
    budget: Budget = NO_LIMIT,
) -> tuple[int, int]:
    """In a worker: the wins of the layouts where ``start`` shows ``value``, and the states it took.

    ``budget.max_states`` bounds the part's search, ``budget.max_memory`` what the worker
    process holds; its time limit is the parent's to watch. A top-level function, so a
    process pool or a Dask worker can unpickle it by name.
    """
    max_states, max_memory = budget.max_states, budget.max_memory
    key = (rows, cols, mines, max_memory)  # the budget decides which listings are refused
    solver = _SOLVERS.get(key)
    if solver is None:
        _SOLVERS.clear()
        solver = _SOLVERS[key] = PerfectPlay(rows, cols, mines, budget=Budget(max_memory=max_memory))
    assert isinstance(solver, PerfectPlay)
    before = solver.states
    solver.search.max_states = None if max_states is None else before + max_states
    try:
        with watching(solver.clock):
            wins = solver.shown_value(start, rule, value)
    except OutOfBudget:
        raise PartPastBudget(start, value, solver.states - before) from None
    except TooManyLayouts:
        if max_memory is None:
            raise
        raise PartPastBudget(start, value, 0, max_memory) from None  # its listing alone would pass the budget
    except OutOfMemory as err:
        _SOLVERS.clear()  # its memo is what filled the memory
        raise PartPastBudget(start, value, solver.states - before, err.limit) from None
    return wins, solver.states - before


def parallel_start_values(
    rows: int,
    cols: int,
    mines: int,
    *,
    rule: FirstClick | str,
    starts: Sequence[Cell],
    workers: int,
    scheduler: str | None = None,
    budget: Budget = NO_LIMIT,
    progress: Progress | None = None,
) -> tuple[list[StartValue], int]:
    """:meth:`PerfectPlay.start_value <minesat.perfect.PerfectPlay.start_value>` of each start, in parallel.

    Returns the values, in the order of ``starts``, and the states the workers searched.

    ``workers`` local processes (1: this process), or the Dask cluster at
    ``scheduler``. ``budget.max_states`` bounds each part's search, ``budget.max_memory``
    what each worker holds; past either, :class:`PartPastBudget` says which part.
    ``budget.time_limit`` is checked as each part comes back
    (:class:`~minesat.budget.OutOfTime`). By default no budget at all. Raises
    :class:`~minesat.executors.SchedulerError` when the cluster cannot be used.
    """
    rule = FirstClick(rule)
    clock = budget.clock(progress)
    planner = PerfectPlay(rows, cols, mines, budget=Budget(max_memory=budget.max_memory))
    parts: list[_Part] = []
    allowed: dict[Cell, int] = {}
    for start in starts:
        shown, allowed[start] = planner.first_click(start, rule)
        parts += [_Part(start, value, layouts) for value, layouts in shown]
    del planner  # its listed layouts are not needed here any more
    parts.sort(key=lambda p: -p.layouts)
    total = sum(p.layouts for p in parts)
    if scheduler is not None:
        executor, close, _ = dask_executor(scheduler)
    else:
        executor = InProcess() if workers <= 1 else process_pool(workers)
        close = executor.shutdown
    wins = dict.fromkeys(starts, 0)
    states = settled = 0
    try:
        futures = {
            executor.submit(
                part_value, rows, cols, mines, rule.value, p.start, p.value, budget
            ): p
            for p in parts
        }
        for future in cf.as_completed(futures):
            part = futures[future]
            won, used = future.result()
            wins[part.start] += won
            states += used
            settled += part.layouts
            clock(states, settled, total)
    except BaseException as err:
        stop_workers(executor)
        if isinstance(err, PartPastBudget):  # say how far the whole run got
            err.run_states, err.settled = states + err.states, settled
        raise
    finally:
        close()
        if isinstance(executor, InProcess):
            _SOLVERS.clear()  # this process's memo must not carry over into the next run's budget
    return [StartValue(start, wins[start], allowed[start]) for start in starts], states


def describe_part(start: Cell, value: int) -> str:
    """How a message names a part: ``the layouts where B2 shows 3``."""
    return f"the layouts where {cell_name(start)} shows {value}"
