"""The questions a look-ahead asks of a position, cheaper than a whole analysis.

A guessing strategy weighs each candidate cell by what it could show: for every
number, how many layouts show it (``layouts(position with that number) /
layouts(position)``), how many cells the new position proves safe, and its
lowest mine probabilities. These functions answer that without building a grid
of probabilities (:func:`glance`, :func:`glance_revealed`), or count layouts
alone (:func:`layouts`), or keep the count open for questions about given cells
(:class:`LayoutCounter`: :func:`interior_counter` here, and
:func:`~minesat.analysis.patterns.pattern_counter` on the small road). The
:class:`~minesat.analysis.engine.Analyzer` offers each of them as a method.

>>> from minesat.analysis import Analyzer
>>> from minesat.board import Position
>>> position = Position.from_rows(["1??", "???"], mines=2)
>>> glance(Analyzer(), position)   # 3 x 2 layouts; A3, B3 at 1/2
Glance(layouts=6, safe=0, lowest=(0.3333333333333333, 0.3333333333333333))
>>> layouts(Analyzer(), position)
6
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from minesat.analysis.combine import Split, TooMuchWork, binomial_row, cut_tables, times
from minesat.analysis.constraints import Component, FrontierModel
from minesat.analysis.result import Analysis, Glance, InconsistentPositionError, total_of
from minesat.analysis.reveal import Reveal, reveal
from minesat.analysis.smallroad import NO_LAYOUT, OFF_ROAD, Off, SmallPosition, SmallRoad
from minesat.board import COVERED, Cell, Position

__all__ = [
    "GlanceSource",
    "InteriorCounter",
    "LayoutCounter",
    "glance",
    "glance_revealed",
    "interior_counter",
    "layouts",
]


class GlanceSource(Protocol):
    """What the look-ahead's questions read of an :class:`~minesat.analysis.engine.Analyzer`
    (which satisfies it and offers each question as a method): its small road, its frontier
    model and counted parts, its work budget, and a whole analysis where no shorter way answers."""

    @property
    def small_road(self) -> SmallRoad:
        """The small road, with its caches."""
        ...

    @property
    def model(self) -> FrontierModel:
        """The constraints of the last position seen, updated to the next."""
        ...

    @property
    def work_budget(self) -> int:
        """The work one call may spend weighing parts exactly."""
        ...

    def parts_of(self, components: Sequence[Component], *, check: bool = False) -> Split | None:
        """Every component's rules and parts, each part counted; ``None`` when a part has no layout."""
        ...

    def analyze(self, position: Position, mines: int | None = None) -> Analysis:
        """The whole analysis of ``position``."""
        ...


class LayoutCounter(Protocol):
    """Layouts of one position in which given cells are mines and others safe.

    Cells are given as bit masks (bit ``row * cols + col``); ``None`` when the
    counter cannot answer for these cells (the caller counts otherwise, by
    flagging them). Made by :func:`interior_counter` and by
    :func:`~minesat.analysis.patterns.pattern_counter`.
    """

    def masks(self, mined: int = 0, safe: int = 0) -> int | None: ...

    @property
    def interior_mask(self) -> int | None:
        """The interior cells (interchangeable: next to no number) as a bit mask, when known."""
        ...


@dataclass
class InteriorCounter:
    """Layouts of a position by what some of its interior cells hold (:func:`interior_counter`).

    Interior cells (covered, next to no number) are interchangeable: the layouts
    in which given ones are mines and others safe depend only on how many there are.
    """

    ways: tuple[int, ...]  # ways[u]: the frontier's layouts with low + u mines
    low: int
    interior: int  # interior cells
    remaining: int  # mines not flagged
    #: The interior cells as a bit mask (for :meth:`masks`), when the counter knows them.
    interior_mask: int | None = None
    _counted: dict[tuple[int, int], int] = field(default_factory=dict, repr=False, compare=False)

    def layouts(self, mined: int = 0, safe: int = 0) -> int:
        """Layouts in which ``mined`` given interior cells are mines and ``safe`` others are safe."""
        key = (mined, safe)
        if key not in self._counted:
            free = self.interior - mined - safe
            # inside[u]: placements of the mines the other interior cells hold when the frontier has low + u.
            most = self.remaining - self.low - mined
            inside = binomial_row(free, most - (len(self.ways) - 1), most)[::-1]
            self._counted[key] = sum(w * ways for w, ways in zip(self.ways, inside, strict=True))
        return self._counted[key]

    def masks(self, mined: int = 0, safe: int = 0) -> int | None:
        """:meth:`layouts` for the cells of two masks; ``None`` unless they are all interior cells."""
        if self.interior_mask is None or (mined | safe) & ~self.interior_mask:
            return None
        if mined & safe:
            return 0
        return self.layouts(mined.bit_count(), safe.bit_count())


def glance(analyzer: GlanceSource, position: Position, few: int = 2) -> Glance | None:
    """What a look-ahead reads of a position, without the rest of the analysis's answer.

    The same layout count as ``analyze(position).layouts``, the number of cells it proves
    safe, and the ``few`` lowest mine probabilities of the cells it leaves undecided,
    ascending, the very floats it gives them; ``None`` when no layout fits (where
    the analysis raises). On the small road no grid of probabilities is built.
    Raises :class:`ValueError` when the total is unknown.

    >>> from minesat.analysis import Analyzer
    >>> glance(Analyzer(), Position.from_rows(["1?", "?3"], mines=1)) is None
    True
    """
    total = total_of(position, None)
    if total is None:
        raise ValueError("a glance needs the total number of mines")
    road = analyzer.small_road
    found = road.position_or_why(position, total)
    if found is NO_LAYOUT:
        return None
    if isinstance(found, SmallPosition):
        interior = found.reading.interior.bit_count()
        return road.glance(found.parts, interior, found.remaining - found.mine.bit_count(),
                           found.safe.bit_count(), few)
    try:
        analysis = analyzer.analyze(position)
    except InconsistentPositionError:
        return None
    grid = analysis.probability
    probabilities = sorted(p for r, c in analysis.unknown if (p := grid[r][c]) is not None)
    return Glance(analysis.layouts, len(analysis.safe), tuple(probabilities[:few]))


def glance_revealed(
    analyzer: GlanceSource, position: Position, cell: Cell, value: int, few: int = 2
) -> Glance | None:
    """:func:`glance` at ``position`` with ``cell`` uncovered showing ``value`` (nothing else opens).

    The look-ahead asks this of every number a candidate could show. On the small road
    the position is read once and each answer changes only what the one cell touches:
    the numbers beside it lose a covered cell, its own number joins them, and only the
    parts these numbers belong to change (the others cannot: no number links them to the
    cell). Their layouts, listed when they were counted, are sorted once by the mines
    they put beside the cell, for every number it could show (:mod:`.reveal`); a part
    counted without listing them is settled, split and counted again for each number.
    The answer is the one :func:`glance` gives for the revealed position.

    >>> from minesat.analysis import Analyzer
    >>> position = Position.from_rows(["1??", "???"], mines=2)
    >>> glance_revealed(Analyzer(), position, (0, 2), 2)    # A3 shows 2: B3 and A2 or B2 mined
    Glance(layouts=2, safe=1, lowest=(0.5, 0.5))
    """
    total = total_of(position, None)
    if total is None:
        raise ValueError("a glance needs the total number of mines")
    road = analyzer.small_road
    found = road.position_or_why(position, total)
    # Only a position the rules decide nothing in: each part's constraints are then its numbers'.
    base = found if isinstance(found, SmallPosition) and not (found.safe or found.mine) else None
    i = cell[0] * position.cols + cell[1]
    if base is not None and base.reading.covered >> i & 1:
        # Every number of the cell from the layouts its parts have (once a cell), when they have them.
        found_reveal: Reveal | None = (
            base.reveals[i] if i in base.reveals else base.reveals.setdefault(i, reveal(base, i))
        )
        if found_reveal is not None:
            return found_reveal.glance(value - found_reveal.flags, few)
    revealed = OFF_ROAD if base is None or not base.reading.covered >> i & 1 else (
        road.revealed(base, i, value, position.rows, position.cols)
    )
    if revealed is NO_LAYOUT:
        return None
    if revealed is OFF_ROAD:  # the revealed position glanced at as a whole
        cells = list(position.cells)
        cells[i] = value
        return glance(analyzer, Position(position.rows, position.cols, tuple(cells), position.mines), few)
    assert base is not None and not isinstance(revealed, Off)
    parts, interior, safe, mine = revealed
    return road.glance(parts, interior, base.remaining - mine.bit_count(), safe.bit_count(), few)


def layouts(analyzer: GlanceSource, position: Position, mines: int | None = None) -> int | None:
    """The number of layouts consistent with ``position`` and the total: ``analyze(...).layouts``.

    Nothing but the count: no probability, no certainty, no grid, which
    makes it the cheap question of a look-ahead (P(a cell is safe and shows
    n) is ``layouts(position with that n) / layouts(position)``). 0 when no
    layout exists (where the analysis raises); ``None`` when the total
    is unknown or a part is past a budget.

    >>> from minesat.analysis import Analyzer
    >>> layouts(Analyzer(), Position.from_rows(["1?", "?3"], mines=1))  # the 3 cannot be met
    0
    """
    counter = interior_counter(analyzer, position, mines)
    return counter if counter is None or isinstance(counter, int) else counter.layouts()


def interior_counter(
    analyzer: GlanceSource, position: Position, mines: int | None = None
) -> InteriorCounter | int | None:
    """What :func:`layouts` counts, kept open for questions about interior cells.

    Interior cells (covered, next to no number) are interchangeable, so the
    layouts in which some given ones are mines and others safe depend only on
    how many there are: :meth:`InteriorCounter.layouts` answers that at once,
    where flagging them and counting again would rebuild the frontier model.
    0 when no layout exists, ``None`` as :func:`layouts`.

    >>> from minesat.analysis import Analyzer
    >>> counter = interior_counter(Analyzer(), Position.from_rows(["1??", "???"], mines=2))
    >>> counter.layouts(), counter.layouts(mined=1), counter.layouts(mined=2)   # A3 and B3 share one mine
    (6, 3, 0)
    >>> counter.masks(mined=1 << 2), counter.masks(mined=1 << 1) is None   # A3 is interior, A2 is not
    (3, True)
    """
    total = total_of(position, mines)
    if total is None:
        return None
    model = analyzer.model
    try:
        model.update(position)
    except InconsistentPositionError:
        return 0
    remaining = total - model.flags
    if remaining < 0 or remaining > model.covered:
        return 0
    split = analyzer.parts_of(model.components())
    if split is None:
        return 0  # a component with no layout
    if any(c is None for c in split.counts):
        return None
    remaining -= len(split.mine)
    try:
        cut = cut_tables(split.counts, split.parts, model.interior_size, remaining, analyzer.work_budget)
    except TooMuchWork:
        return None
    if cut is None:
        return 0
    tables, low, _ = cut
    # The frontier's ways by mine count: the product of the parts' tables.
    product: list[int] = [1]
    for _, t in tables:
        product = times(product, t)
    frontier = model.frontier_cells()
    # One digit a cell, the last cell first (int() reads the most significant digit first).
    digits = bytes(49 if s == COVERED and i not in frontier else 48 for i, s in enumerate(position.cells))
    interior = int(digits[::-1], 2) if digits else 0
    return InteriorCounter(tuple(product), low, model.interior_size, remaining, interior)
