"""The big-board road: a position read whole as arrays, and only what stays open as Python objects.

On a big board most numbers are settled by the single-number rules, and a
Python object for each of them (a constraint, a component, a dictionary entry)
costs more than the analysis itself: a 1000x1000 position has half a million
numbers, and the general road's frontier model held 370 MB of them. Here the
position is read as arrays (:mod:`.arrays`); the components are counted, the
rules run to their fixpoint and the parts they leave open are found, each as
one pass over the arrays in numpy. Only the open parts (a few cells each) become
:class:`~minesat.analysis.constraints.Component` values, counted and weighed by
the same code as the general road (:meth:`~minesat.analysis.engine.Analyzer.part_count`,
:meth:`~minesat.analysis.engine.Analyzer.weigh`), in the same order, so the answer
is the general road's to the last bit. The grid of probabilities is built from
an array too.

What it cannot answer as the general road does (a number that cannot be met, a
total that does not fit, a part with no layout) it leaves to the general road,
which names the cell at fault.

>>> from minesat.analysis import Analyzer
>>> from minesat.board import Position
>>> position = Position.from_rows(["1?", "1?", "1?", "??"], mines=2)
>>> road = Analyzer(big_cells=0).big_road   # every board on this road
>>> a = road.analysis(position, 2)
>>> a.safe, a.mine, a.components
(((1, 1), (2, 1)), ((0, 1),), 1)
>>> a == Analyzer(big_cells=None).analyze(position)
True
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from minesat.analysis.arrays import Broken, analysis_of, linked, namer, open_numbers, read_numbers, settle
from minesat.analysis.combine import NoLayout, Split, Weighed
from minesat.analysis.constraints import Component, Constraint
from minesat.analysis.result import Analysis, InconsistentPositionError
from minesat.analysis.roads import PartWeigher
from minesat.board import COVERED, Position
from minesat.budget import checkpoint

__all__ = ["BigRoad"]


class BigRoad:
    """The big-board road of one :class:`~minesat.analysis.engine.Analyzer` (its part counts
    are the Analyzer's, cached). ``cells``: the fewest cells a board needs to take it (``None``:
    no board does)."""

    def __init__(self, analyzer: PartWeigher, cells: int | None) -> None:
        self._analyzer = analyzer
        self.cells = cells

    def takes(self, position: Position) -> bool:
        """Whether ``position`` is for this road: a board big enough, under the general road's rules."""
        analyzer = self._analyzer
        return (
            self.cells is not None
            and position.rows * position.cols >= self.cells
            and analyzer.use_local_rules
            and analyzer.state_budget > 0
        )

    def analysis(self, position: Position, total: int | None) -> Analysis | None:
        """The analysis, as the general road gives it; ``None``: a position for the general road
        (too small, or something at fault that the general road names).

        The cyclic garbage collector is paused meanwhile: the road makes hundreds of thousands
        of objects on a hostile board and no cycles, and each full collection walked them all
        for nothing (4.5 s of a 1000x1000 mesh's first 14, in pauses of up to 0.7 s between
        two budget checks).
        """
        if not self.takes(position):
            return None
        with _collector_paused():
            return self._analysis(position, total)

    def _analysis(self, position: Position, total: int | None) -> Analysis | None:
        numbers = read_numbers(position)
        if numbers.broken is not None:
            return None
        covered = numbers.covered
        remaining = None if total is None else total - numbers.flags
        if remaining is not None and not 0 <= remaining <= int(covered.sum()):
            return None
        checkpoint()
        frontier = numbers.frontier
        group = linked(numbers, frontier)
        components = int((group[frontier] == np.flatnonzero(frontier)).sum())

        # The single-number rules, then what they leave open: each number keeps its open
        # cells and the mines they still hold.
        value = numbers.undecided()
        try:
            settle(numbers, value)
        except Broken:
            return None
        left = open_numbers(numbers, value)
        decided = value[:-1]
        open_cells = frontier & (decided < 0)
        part = linked(numbers, open_cells, left.members)
        parts = self._parts(position.rows, position.cols, part, group, left.members, left.still, left.source)
        counts = [self._analyzer.part_count(p) for p in parts]
        if any(count is not None and not any(count.ways) for count in counts):
            return None  # a part with no layout: the general road names a number in it
        interior = int((covered & ~frontier).sum())
        rule_mines = int((decided == 1).sum())
        split = Split((), (), tuple(parts), tuple(counts))
        try:
            if remaining is None:
                weighed = self._analyzer.without_total(split)
            else:
                weighed = self._analyzer.weigh(split, interior, remaining - rule_mines)
        except (NoLayout, InconsistentPositionError):
            return None
        return _build(position, total, numbers.state, covered & ~frontier, decided, weighed, components)

    def _parts(
        self,
        rows: int,
        cols: int,
        part: np.ndarray,
        group: np.ndarray,
        members: np.ndarray,
        still: np.ndarray,
        source: np.ndarray,
    ) -> list[Component]:
        """The open parts as components, in the general road's order: by the component each
        lies in (its first cell), then by the part's first cell; a part's numbers by their
        first open cell, then where they stand (as :func:`~minesat.analysis.counting.split_decided`)."""
        cells = np.flatnonzero(part >= 0)
        labels = np.unique(part[cells])
        order = np.lexsort((labels, group[labels]))
        rank = np.empty(len(labels), dtype=np.int64)
        rank[order] = np.arange(len(labels))
        cell_rank = rank[np.searchsorted(labels, part[cells])]
        by_part = np.lexsort((cells, cell_rank))
        cells, cell_rank = cells[by_part], cell_rank[by_part]
        sizes = np.bincount(cell_rank, minlength=len(labels))

        first = np.where(members >= 0, members, np.iinfo(members.dtype).max).min(axis=1)
        number_rank = rank[np.searchsorted(labels, part[first])]
        by_number = np.lexsort((source, first, number_rank))
        members, still, source = members[by_number], still[by_number], source[by_number]
        per_part = np.bincount(number_rank[by_number], minlength=len(labels))

        name = namer(rows, cols)
        cell_names = name(cells)
        name_of = dict(zip(cells.tolist(), cell_names, strict=True))
        source_names = name(source)
        parts: list[Component] = []
        at_cell = at_number = 0
        seen = members.tolist()
        counts = still.tolist()
        for k in range(len(labels)):
            if not k & 1023:
                checkpoint()
            n_cells, n_numbers = int(sizes[k]), int(per_part[k])
            built = []
            for f in range(at_number, at_number + n_numbers):
                if not f & 4095:
                    checkpoint()  # a hostile part has hundreds of thousands of numbers
                sees = tuple([name_of[x] for x in seen[f] if x >= 0])
                built.append(Constraint(sees, counts[f], source_names[f]))
            constraints = tuple(built)
            parts.append(Component(tuple(cell_names[at_cell : at_cell + n_cells]), constraints))
            at_cell += n_cells
            at_number += n_numbers
        return parts


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off within the block (as it was after it)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _build(
    position: Position,
    total: int | None,
    state: np.ndarray,
    interior: np.ndarray,
    decided: np.ndarray,
    weighed: Weighed,
    components: int,
) -> Analysis:
    """The Analysis from arrays: as :func:`~minesat.analysis.result.build_analysis` builds it."""
    rows, cols = position.rows, position.cols
    size = rows * cols
    safe = decided == 0
    mine = decided == 1
    if weighed.fate is not None:
        (mine if weighed.fate else safe)[interior] = True
    probability = np.full(size, np.nan)
    if weighed.interior is not None:
        probability[state == COVERED] = weighed.interior
    probability[decided == 0] = 0.0
    probability[decided == 1] = 1.0
    if weighed.probability:
        where = np.fromiter((r * cols + c for r, c in weighed.probability), dtype=np.int64,
                            count=len(weighed.probability))
        probability[where] = np.fromiter(
            (np.nan if p is None else p for p in weighed.probability.values()), dtype=float,
            count=len(weighed.probability),
        )
    for cells, flag in ((weighed.safe, safe), (weighed.mine, mine)):
        if cells:
            flag[np.fromiter((r * cols + c for r, c in cells), dtype=np.int64, count=len(cells))] = True
    return analysis_of(
        position, total, safe, mine, probability, components=components, exact=weighed.exact,
        why=weighed.why, consistent=weighed.consistent, layouts=weighed.layouts,
    )
