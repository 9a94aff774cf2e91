"""What uncovering a cell could show, and what each answer would prove.

A covered cell that turns out safe shows a number: how many of its neighbours
hold mines. Each number has a probability, and each leaves a position that the
analysis engine can classify. Every layout consistent with "the cell is safe and
shows ``n``" is a layout of the current position, so

    P(the cell is safe and shows n) = layouts(position with n there) / layouts(position)

exactly, with :attr:`~minesat.analysis.Analysis.layouts` counting both sides.
These probabilities sum to the cell's chance of being safe.

>>> from minesat.analysis import Analyzer
>>> position = Position.from_rows(["1??", "???"], mines=2)   # C1 is safe half the time
>>> [(o.value, round(o.probability, 4)) for o in outcomes(Analyzer(), position, (0, 2))]
[(1, 0.1667), (2, 0.3333)]
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from minesat.analysis import Analysis, Analyzer, InconsistentPositionError
from minesat.analysis.result import Glance
from minesat.board import COVERED, FLAG, Cell, Position, neighbour_table

__all__ = [
    "Glanced",
    "Outcome",
    "dead_cells",
    "each_glance",
    "each_outcome",
    "is_dead",
    "outcomes",
    "revealed",
    "value_range",
]


@dataclass(frozen=True)
class Outcome:
    """One number a cell could show: its probability (joint with the cell being safe) and analysis."""

    value: int
    probability: float
    analysis: Analysis


def revealed(position: Position, cell: Cell, value: int) -> Position:
    """``position`` with ``cell`` uncovered showing ``value`` (nothing else opens)."""
    cells = list(position.cells)
    cells[cell[0] * position.cols + cell[1]] = value
    return Position(position.rows, position.cols, tuple(cells), position.mines)


def value_range(position: Position, cell: Cell) -> range:
    """The numbers ``cell`` could show: from its flagged neighbours to those plus its covered ones."""
    cells = position.cells
    flags = covered = 0
    for j in neighbour_table(position.rows, position.cols)[cell[0] * position.cols + cell[1]]:
        if cells[j] == FLAG:
            flags += 1
        elif cells[j] == COVERED:
            covered += 1
    return range(flags, flags + covered + 1)


def outcomes(
    analyzer: Analyzer, position: Position, cell: Cell, layouts: int | None = None
) -> list[Outcome]:
    """Every number ``cell`` can show, with its probability and the analysis it leads to.

    ``layouts`` is the current position's layout count (computed when not given).
    Numbers no layout allows are left out. Raises :class:`ValueError` when the
    position's layouts are not counted exactly (a component past the budget).
    """
    return list(each_outcome(analyzer, position, cell, layouts))


def each_outcome(
    analyzer: Analyzer, position: Position, cell: Cell, layouts: int | None = None
) -> Iterator[Outcome]:
    """:func:`outcomes` one at a time, smallest number first: a caller that has seen
    enough stops early and the remaining numbers are never analysed."""
    if layouts is None:
        layouts = analyzer.analyze(position).layouts
    if not layouts:
        raise ValueError("outcomes need the exact layout count of the position")
    for value in value_range(position, cell):
        try:
            after = analyzer.analyze(revealed(position, cell, value))
        except InconsistentPositionError:
            continue  # no layout puts exactly this many mines around the cell
        if after.layouts is None:
            raise ValueError("outcomes need exact layout counts")
        if after.layouts:
            yield Outcome(value, after.layouts / layouts, after)


def is_dead(analyzer: Analyzer, position: Position, cell: Cell, layouts: int | None = None) -> bool:
    """Whether ``cell`` can show only one number: uncovering it (when it is safe) teaches nothing.

    ``layouts`` as :func:`outcomes`. A cell none of whose covered neighbours is undecided
    shows a number fixed already; otherwise the numbers it can show are counted, up to two.

    >>> from minesat.analysis import Analyzer
    >>> position = Position.from_rows(["1??", "???"], mines=1)   # the mine is beside A1
    >>> [is_dead(Analyzer(), position, cell) for cell in [(1, 1), (1, 2)]]   # B2 sees all of A2, B1
    [True, False]
    """
    numbers = each_outcome(analyzer, position, cell, layouts)
    return next(numbers, None) is None or next(numbers, None) is None


def dead_cells(
    analyzer: Analyzer,
    position: Position,
    analysis: Analysis,
    *,
    deadline: float | None = None,
    cost: float = 0.0,
) -> tuple[list[Cell], bool]:
    """The undecided cells that can show only one number (:func:`is_dead`), row-major, and whether
    every one was looked at before ``deadline`` (:func:`time.monotonic` seconds; ``None``: no limit).
    A cell is looked at only when the time it is expected to take (the last cell's, at first
    ``cost``) fits before the deadline: on a huge board one look is an analysis of the board.

    Three kinds of cell, cheapest first:

    - a cell none of whose covered neighbours is undecided shows a number fixed already: dead;
    - an *interior* cell (beside no number) whose undecided neighbours are all interior too: the
      interior cells are interchangeable (no number sees them; only the total counts them), so
      whether such a cell is dead depends only on how many undecided neighbours it has, and one
      cell of each count is looked at for all;
    - the others (beside the frontier), the safest first, one by one.

    Without exact layout counts only the first kind is found (and the answer is not complete).

    >>> from minesat.analysis import Analyzer
    >>> position = Position.from_rows(["1??", "???"], mines=1)
    >>> a = Analyzer()
    >>> dead_cells(a, position, a.analyze(position))
    ([(0, 1), (1, 0), (1, 1)], True)
    """
    rows, cols = position.rows, position.cols
    table = neighbour_table(rows, cols)
    cells = position.cells
    undecided = {r * cols + c for r, c in analysis.unknown}
    interior = {i for i in undecided if not any(cells[j] >= 0 for j in table[i])}
    alike: dict[int, list[int]] = {}  # interior cells with only interior neighbours undecided, by their count
    others: list[int] = []
    dead: list[Cell] = []
    for i in sorted(undecided):
        around = [j for j in table[i] if j in undecided]
        if not around:
            dead.append(divmod(i, cols))  # its number is the known mines around it, already
        elif i in interior and all(j in interior for j in around):
            alike.setdefault(len(around), []).append(i)
        else:
            others.append(i)
    if analysis.layouts is None:
        return sorted(dead), False
    grid = analysis.probability
    others.sort(key=lambda i: (grid[i // cols][i % cols] or 0.0, i))
    layouts = analysis.layouts
    looks = [(group[0], group) for group in alike.values()] + [(i, [i]) for i in others]
    for i, cells_alike in looks:
        began = time.monotonic()
        if deadline is not None and began + cost > deadline:
            return sorted(dead), False
        if is_dead(analyzer, position, divmod(i, cols), layouts):
            dead.extend(divmod(j, cols) for j in cells_alike)
        cost = time.monotonic() - began
    return sorted(dead), True


@dataclass(frozen=True)
class Glanced:
    """One number a cell could show, as :func:`each_glance` reads it: what a look-ahead needs."""

    value: int
    probability: float
    glance: Glance


def each_glance(
    analyzer: Analyzer, position: Position, cell: Cell, layouts: int, few: int = 2
) -> Iterator[Glanced]:
    """:func:`each_outcome` with each position glanced at (:meth:`~minesat.analysis.Analyzer.glance`)
    rather than analysed: the same numbers and probabilities, and of each position its
    layouts, its safe cells and its ``few`` lowest mine probabilities.

    >>> position = Position.from_rows(["1??", "???"], mines=2)
    >>> glanced = each_glance(Analyzer(), position, (0, 2), 6)   # A3 shows 1 or 2 when safe
    >>> [(g.value, round(g.probability, 4), g.glance.safe, g.glance.lowest) for g in glanced]
    [(1, 0.1667, 2, ()), (2, 0.3333, 1, (0.5, 0.5))]
    """
    if not layouts:
        raise ValueError("outcomes need the exact layout count of the position")
    for value in value_range(position, cell):
        after = analyzer.glance_revealed(position, cell, value, few)
        if after is None:
            continue  # no layout puts exactly this many mines around the cell
        if after.layouts is None:
            raise ValueError("outcomes need exact layout counts")
        if after.layouts:
            yield Glanced(value, after.layouts / layouts, after)
