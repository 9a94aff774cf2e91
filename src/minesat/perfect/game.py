"""Perfect play of a whole game: every layout of a board listed from its first click.

:func:`perfect_play` gives the exact chance to win a ``rows`` x ``cols`` game
with ``mines`` mines under perfect play, from a given first click or the best
one (:class:`PerfectPlay` keeps one memo for every start and rule); with
workers, the numbers a first click can show are searched in parallel
(:mod:`minesat.perfect.parallel`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import comb
from typing import Any

from minesat.board import Cell, as_cell, cell_name
from minesat.budget import (
    SEARCH_BUDGET,
    STOPS,
    Budget,
    ListingRefused,
    OutOfMemory,
    OutOfTime,
    PastBudget,
    Progress,
    budget_with,
    listing_refusal,
    memory_budget,
    too_many_layouts,
    watching,
    which_budget,
)
from minesat.exact.geometry import Board
from minesat.exact.search import OutOfBudget
from minesat.generate import FirstClick, check_mine_count, kept_clear, mines_fit
from minesat.perfect.parallel import PartPastBudget, describe_part, parallel_start_values
from minesat.perfect.solver import PerfectPlay, StartValue, listed_rule
from minesat.stats import EXACT_BINOMIAL_BITS, WinShare, approximate_binomial, binomial_bits

__all__ = ["PARALLEL_FROM", "PerfectResult", "perfect_play"]

#: Fewer layouts than this (over all the starts tried) are searched in this process
#: even when workers are asked for: the search ends before they would start.
PARALLEL_FROM = 20_000


def _refuse_unlisted(
    rows: int, cols: int, mines: int, rule: FirstClick, start: Cell | None, max_memory: int | None
) -> None:
    """Refuse at once a game whose layouts the search could not list: counted before anything is built.

    With no ``start`` every start is tried, the corner among them: it keeps the
    fewest cells clear, so it has the most layouts.
    """
    hardest = start if start is not None else (0, 0)
    pool = rows * cols - len(kept_clear(rows, cols, start=hardest, rule=listed_rule(rule)))
    if 0 <= mines <= pool and binomial_bits(pool, mines) > EXACT_BINOMIAL_BITS:
        # Far past any listing, and too large to count within a time limit (math.comb of half a
        # million cells takes seconds, in one call no clock stops): said from logarithms, with
        # the least count it could be.
        refusal = too_many_layouts(approximate_binomial(pool, mines), rows * cols)
        said = f"start {cell_name(hardest)} has {refusal}; try a smaller board or fewer mines"
        raise refusal.reworded(said)
    layouts = comb(pool, mines) if 0 <= mines <= pool else 0
    if (refused := listing_refusal(rows * cols, layouts, max_memory)) is not None:
        said = f"start {cell_name(hardest)} has {refused}; try a smaller board or fewer mines"
        raise refused.reworded(said)


@dataclass(frozen=True)
class PerfectResult(WinShare):
    """The exact value of a game under perfect play (docs/perfect.md).

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


def perfect_play(
    rows: int,
    cols: int,
    mines: int,
    *,
    rule: FirstClick | str = FirstClick.OPENING,
    start: Cell | str | None = None,
    budget: Budget = SEARCH_BUDGET,
    progress: Progress | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    **deprecated: float | None,
) -> PerfectResult:
    """The exact value of the game under perfect play, from ``start`` or from the best first click.

    With no ``start`` every class of cells the board's symmetries map onto
    each other is tried (one cell of each) and the best chance wins; ties go
    to the first in row-major order. Raises :class:`ValueError` for a board
    the mines do not fit (around every start: ``(at most N)`` says how many
    would), and :class:`PastBudget` when more than the ``budget``'s ``max_states`` states,
    ``time_limit`` seconds or ``max_memory`` bytes held by the process would
    be needed (its message says how far it got; the time and the memory are
    watched from the start, listing and tables included), or at once, before
    anything is listed, when a start has more layouts than the search can list
    (:func:`listing_refusal`). A start with one layout (no mine, say) is won
    without listing it, on any board. The budget is by default
    :data:`~minesat.budget.SEARCH_BUDGET` (2 000 000 states, 180 s, 1 000 MB;
    ``Budget()`` for none); ``max_states=``, ``time_limit=`` and ``max_memory=`` given
    apart still set its fields, with a :class:`DeprecationWarning`.

    With ``workers`` above 1, or a Dask ``scheduler`` address, the numbers the
    first clicks can show are searched in parallel
    (:mod:`minesat.perfect.parallel`) and ``max_states`` bounds each of them;
    without a scheduler, games of fewer than :data:`PARALLEL_FROM` layouts stay
    in this process, where they finish before workers would start. The answer
    is the same; the time limit is then checked as each part comes back.
    """
    budget = budget_with(budget, deprecated, "perfect_play")
    rule = FirstClick(rule)
    start = None if start is None else as_cell(start, "start")
    began = time.perf_counter()
    check_mine_count(rows, cols, mines)
    # The mines must fit around the start; with every start tried, around the corner at least,
    # which keeps the fewest cells clear (if they do not fit there, they fit nowhere).
    check_mine_count(rows, cols, mines, start=start if start is not None else (0, 0), rule=rule)
    _refuse_unlisted(rows, cols, mines, rule, start, budget.max_memory)
    board = Board(rows, cols)  # its tables are made only if the search enters it
    if start is not None:
        candidates = [start]
    else:
        candidates = [board.cell(i) for i in board.orbit_representatives()]
        candidates = [c for c in candidates if mines_fit(rows, cols, mines, start=c, rule=rule)]
    solver = PerfectPlay(rows, cols, mines, budget=budget, progress=progress)
    solver.plan([(cell, rule) for cell in candidates])
    with watching(solver.clock):
        if scheduler is not None or (workers > 1 and solver.total >= PARALLEL_FROM):
            values, states = _in_parallel(solver, rule, candidates, workers, scheduler)
        else:
            values, states = _in_process(solver, rule, candidates)
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
) -> tuple[list[StartValue], int]:
    """Each start's value, one after another in this process (they share the solver's memo)."""
    values = []
    for done, cell in enumerate(candidates):
        try:
            values.append(solver.start_value(cell, rule))
        except ListingRefused as err:
            refused = err.reworded(f"start {cell_name(cell)} has {err}; try a smaller board or fewer mines")
            refused.states, refused.settled, refused.layouts = solver.states, solver.settled, solver.total
            raise refused from None
        except (OutOfBudget, *STOPS) as err:
            past = which_budget(err, solver.budget)
            raise PastBudget(
                _budget_message(solver, past, done, len(candidates), cell),
                solver.states,
                solver.settled,
                solver.total,
                cause=err,
            ) from None
    return values, solver.states


def _in_parallel(
    solver: PerfectPlay,
    rule: FirstClick,
    candidates: list[Cell],
    workers: int,
    scheduler: str | None,
) -> tuple[list[StartValue], int]:
    board, progress, max_states = solver.board, solver.clock, solver.budget.max_states
    try:
        # The run's clock takes the parts' progress: the time limit counts from the start of the run.
        return parallel_start_values(board.rows, board.cols, solver.mines, rule=rule, starts=candidates,
                                     workers=workers, scheduler=scheduler, budget=solver.budget,
                                     progress=progress)
    except ListingRefused as err:  # as in one process: too many, or a listing past the memory budget
        refused = err.reworded(f"{err}; try a smaller board or fewer mines")
        refused.layouts = solver.total
        raise refused from None
    except OutOfMemory as err:  # listing the parts, before any was handed out
        raise PastBudget(
            f"past {memory_budget(err.limit)} while listing the layouts of all {len(candidates)} starts for "
            "the workers; raise {max_memory} or try a smaller board",
            0, 0, solver.total, cause=err,
        ) from None
    except OutOfTime as err:
        share = progress.settled / solver.total if solver.total else 0.0
        raise PastBudget(
            f"past {{time_limit:{progress.time_limit:g} s}} (checked as each part comes back, after "
            f"{progress.seconds:.0f} s): {share:.1%} of the layouts of all {len(candidates)} starts settled "
            f"after {progress.states} states; raise {{time_limit}} or try a smaller board",
            progress.states, progress.settled, solver.total, cause=err,
        ) from None
    except PartPastBudget as err:
        share = err.settled / solver.total if solver.total else 0.0
        if err.memory is not None:
            past, each, option = f"past {memory_budget(err.memory)}", "worker", "{max_memory}"
        else:
            past, option = f"past {{max_states:{max_states}}}", "{max_states}"
            each = "number a first click can show"
        raise PastBudget(
            f"{past} on {describe_part(err.start, err.value)} (with several workers the budget is for "
            f"each {each}): {share:.1%} of the layouts of all {len(candidates)} starts settled after "
            f"{err.run_states} states; raise {option} or try a smaller board",
            err.run_states, err.settled, solver.total, cause=err,
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
        f"after {solver.states} states; {past[1]} or try a smaller board"
    )
