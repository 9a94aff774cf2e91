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

from collections.abc import Iterator
from dataclasses import dataclass

from minesat.analysis import Analysis, Analyzer, InconsistentPositionError
from minesat.analysis.engine import Glance
from minesat.board import COVERED, FLAG, Cell, Position, neighbour_table


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
