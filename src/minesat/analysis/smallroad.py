"""The small-board road: a position read whole as bit masks, its parts counted and combined.

:class:`~minesat.analysis.constraints.FrontierModel` updates constraint objects
move by move, which pays on big boards; on a board of at most
:data:`SMALL_CELLS` cells a move touches most of the frontier, and reading the
whole position again as masks (:mod:`.small`) costs less. :class:`SmallRoad`
does that for an :class:`~minesat.analysis.engine.Analyzer` (which holds one
and asks it first): the local rules, the split into independent parts, each
part enumerated or counted (and cached by its constraints and the board's
shape), and the parts combined with the interior by the same exact arithmetic
as the general road (:mod:`.combine`). Where it cannot answer exactly (a board
too large, a budget, a number that cannot be met) it says so (:class:`Off`)
and the general road takes the position, naming what is wrong.

>>> from minesat.analysis import Analyzer
>>> from minesat.board import Position
>>> road = Analyzer().small_road
>>> found = road.position(Position.from_rows(["1?", "??"]), 1)
>>> [part.ways for part in found.parts]
[(0, 3, 0, 0)]
>>> road.analysis(Position.from_rows(["1?", "??"]), 1).layouts
3
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import reduce
from operator import and_, itemgetter, mul, or_
from typing import Any, NamedTuple, Protocol

from minesat.analysis import small
from minesat.analysis.combine import (
    TooMuchWork,
    binomial_row,
    completions,
    correlated,
    exact_weights,
    read_weights,
    times,
    total_adds_nothing,
)
from minesat.analysis.counting import (
    SEARCH_NODES,
    BoxLayouts,
    ComponentCount,
    box_numbers,
    count_boxes,
    count_listed,
    list_layouts,
)
from minesat.analysis.memo import remember
from minesat.analysis.result import Analysis, Glance, build_analysis
from minesat.analysis.roads import RoadSettings
from minesat.board import Cell, Position

__all__ = [
    "ENUMERATED_CELLS",
    "ENUMERATION_STEPS",
    "SMALL_CELLS",
    "Counted",
    "Off",
    "Part",
    "PositionKey",
    "Rows",
    "Shape",
    "SmallPosition",
    "SmallRoad",
    "bits",
    "boxes",
]

#: Boards of up to this many cells take the small-board road (:mod:`.small`):
#: read whole as bit masks on every call instead of updated move by move.
#: Whole games of the ``safest`` player were faster on it by 2.1x on 9x9,
#: 1.9x on 16x16, 1.25x on 16x30 and 1.17x on 30x30; at 32x40 and 40x40 the
#: two roads were even, and on bigger boards updating only what a move
#: changed wins. (The limit also keeps 2n(n + 1), the most work combining the
#: counts of n cells can take, well inside the default work budget.)
SMALL_CELLS = 1000

#: Parts of up to this many cells the small road enumerates layout by layout
#: (:func:`~minesat.analysis.small.solutions`) rather than counting them with
#: :func:`~minesat.analysis.counting.count_component`. The count's dynamic
#: programme never holds more than ``2 ** (cells + 1)`` states (each state is
#: reached by some filling of the boxes placed so far), so with a state budget
#: of at least ``2 ** (ENUMERATED_CELLS + 1)`` it never gives up on such a part,
#: and both give the same exact answer.
ENUMERATED_CELLS = 16

#: Search steps an enumeration may take before the part is counted instead:
#: real parts have a handful of layouts; a part with many is counted faster.
ENUMERATION_STEPS = 400


#: The listings made (:func:`_shape`), by their constraints moved down to bit 0, as listed there:
#: every game of a process adds its shapes, and the next meets them again.
_LISTINGS: dict[object, Shape | None] = {}


class Shape(NamedTuple):
    """A part's layouts listed moved down to bit 0, with what they decide (kept with them: a
    shape met again is decided without a look at its layouts).

    ``anywhere``: the cells some layout mines; ``everywhere``: those every layout mines (both
    moved, as the layouts are); ``low`` and ``high``: the fewest and most mines of a layout.
    A shape without a layout has ``low`` above ``high``.
    """

    layouts: list[int]
    anywhere: int
    everywhere: int
    low: int
    high: int

    @classmethod
    def of(cls, layouts: list[int], mask: int) -> Shape:
        """The shape of ``layouts``, the layouts of the (moved) part ``mask``.

        >>> Shape.of([0b01, 0b10], 0b11)
        Shape(layouts=[1, 2], anywhere=3, everywhere=0, low=1, high=1)
        >>> Shape.of([], 0b11).low > Shape.of([], 0b11).high
        True
        """
        if not layouts:
            return cls(layouts, 0, mask, 1, 0)
        sizes = list(map(int.bit_count, layouts))
        return cls(layouts, reduce(or_, layouts, 0), reduce(and_, layouts, mask), min(sizes), max(sizes))


def _shape(constraints: list[small.MaskConstraint], mask: int) -> tuple[Shape, int] | None:
    """:func:`~minesat.analysis.small.solutions` of a part (``mask``: its cells) with the step
    limit :data:`ENUMERATION_STEPS`, remembered for every part of the same shape (and limit):
    the :class:`Shape`, and the bits it was moved down by (its lowest cell's index).

    The listing reads its constraints' bits as labels alone: in the order of their numbers,
    each placing mines among its cells. Moved by ``d`` bits (masks and numbers alike), the
    same constraints list the same layouts moved by ``d``, in the same order, in as many
    steps: a shape is listed once, wherever on whichever board it is met, and it is listed
    moved down to bit 0, where its masks are small integers (a part at the foot of a board
    would be listed with masks of hundreds of bits).

    >>> _shape([(0b0110, 1, 8)], 0b0110)[0] is _shape([(0b011, 1, 7)], 0b011)[0]  # one shape, moved
    True
    """
    low = (mask ^ (mask - 1)).bit_length() - 1  # its lowest bit
    moved = [(m >> low, mines, number - low) for m, mines, number in constraints]
    key = ENUMERATION_STEPS, frozenset(moved)
    if key in _LISTINGS:
        shape = _LISTINGS[key]
    else:
        layouts = small.solutions(moved, ENUMERATION_STEPS)
        shape = remember(_LISTINGS, key, None if layouts is None else Shape.of(layouts, mask >> low))
    return None if shape is None else (shape, low)


def _listing(constraints: list[small.MaskConstraint], mask: int) -> list[int] | None:
    """The layouts of :func:`_shape`, moved back to the part's cells; ``None`` past the limit.

    >>> _listing([(0b0110, 1, 0)], 0b0110) == [l << 1 for l in _listing([(0b011, 1, 7)], 0b011)]
    True
    """
    found = _shape(constraints, mask)
    if found is None:
        return None
    shape, low = found
    return [layout << low for layout in shape.layouts]


def boxes(constraints: Sequence[small.MaskConstraint]) -> tuple[list[int], list[tuple[int, ...]], list[int]]:
    """A part's boxes as :func:`~minesat.analysis.counting.count_with_layouts` groups a component
    of the same constraints (its ``_boxes``), from the masks: each box's cells (a mask), each
    box's numbers (by index, as that order holds them) and each number's mines, a number that
    repeats another's cells and mines counted once. The boxes come in the order of their first
    cell, row-major, as there.

    >>> boxes([(0b011, 1, 5), (0b110, 1, 6), (0b011, 1, 9)])
    ([1, 2, 4], [(0,), (0, 1), (1,)], [1, 1])
    """
    groups, counts = _grouped(constraints)
    return [mask for mask, _ in groups.values()], list(map(box_numbers, groups)), counts


def _grouped(
    constraints: Sequence[small.MaskConstraint],
) -> tuple[dict[tuple[int, ...], tuple[int, list[int]]], list[int]]:
    """:func:`boxes` as found: by the numbers that see them, each box's cells as a mask and as
    flat indices (ascending); and each number's mines.

    Each cell is given the numbers that see it, then the cells are grouped by their numbers,
    taken in row-major order: a box comes where its first cell does, its numbers ascending (as
    they were met). A number touches at most 8 cells, so this is a few steps a number, where
    splitting every box by every number would be a step a box and number.

    >>> _grouped([(0b011, 1, 5), (0b110, 1, 6)])
    ({(0,): (1, [0]), (0, 1): (2, [1]), (1,): (4, [2])}, [1, 1])
    """
    index: dict[tuple[int, int], int] = {}
    counts: list[int] = []
    seen: dict[int, list[int]] = {}  # a cell's flat index -> the numbers that see it
    for cells, mines, _ in constraints:
        if (cells, mines) in index:
            continue
        i = index[cells, mines] = len(counts)
        counts.append(mines)
        # From the highest bit down: the lowest, cells & -cells, would cost a negative number
        # as long as the board.
        while cells:
            at = cells.bit_length() - 1
            cells ^= 1 << at
            numbers = seen.get(at)
            if numbers is None:
                seen[at] = [i]
            else:
                numbers.append(i)
    groups: dict[tuple[int, ...], tuple[int, list[int]]] = {}
    for at in sorted(seen):
        key = tuple(seen[at])
        found = groups.get(key)
        if found is None:
            groups[key] = (1 << at, [at])
        else:
            found[1].append(at)
            groups[key] = (found[0] | 1 << at, found[1])
    return groups, counts


class Off(enum.Enum):
    """Why a position is not on the small road."""

    OFF_ROAD = "off the road"  # a board too large, a budget, a number the general road names
    NO_LAYOUT = "no layout"  # the road proves that no layout fits


OFF_ROAD, NO_LAYOUT = Off.OFF_ROAD, Off.NO_LAYOUT

#: A constraint's cells and mines, what a part's cache key holds of it (its number is left out).
_mask_and_mines = itemgetter(0, 1)

#: What a cached answer about a whole position keys on: its size, cells, total and the work budget.
PositionKey = tuple[int, int, tuple[int, ...], int, int]


class SmallRoad:
    """The small-board road of one :class:`~minesat.analysis.engine.Analyzer`, with its caches.

    It reads the Analyzer's settings (its state and work budgets, whether the
    local rules run) at every call: the answers it keeps key on what they depend on.
    """

    def __init__(self, analyzer: RoadSettings) -> None:
        self._analyzer = analyzer
        self._parts: dict[object, Part | None] = {}
        self._no_layout: dict[object, bool] = {}  # keys of parts (in _parts as None) without a layout
        # The last analysis: the game loop asks proven() and then analyze() of the same
        # position when nothing is proven.
        self._last: tuple[PositionKey, Analysis] | None = None
        # The last position read (or why not).
        self._small_last: tuple[PositionKey, SmallPosition | Off] | None = None
        # The last position read as masks, whatever its size and total.
        self._read_last: small.Read | None = None

    def position(self, position: Position, total: int) -> SmallPosition | None:
        """The position read as masks, its local rules applied and its open parts counted.

        ``None`` sends it down the general road: a board too large, settings
        the small road cannot honour exactly, a number that cannot be met,
        a total that cannot fit, a part with no layout or past the budget.
        Everywhere else both roads give the same analysis: the conditions
        below make sure no budget of the general road could have cut it short.
        """
        found = self.position_or_why(position, total)
        return found if isinstance(found, SmallPosition) else None

    def position_or_why(self, position: Position, total: int) -> SmallPosition | Off:
        """:meth:`position`, saying why the position is not on the small road: :data:`NO_LAYOUT`
        when the road proves that no layout fits, :data:`OFF_ROAD` for every other reason.

        The last answer is kept: a guess asks about its position several times (the game
        loop's proof, the long-term risk's counts, the look-ahead's reveals).
        """
        key = (position.rows, position.cols, position.cells, total, self._analyzer.work_budget)
        if self._small_last is None or self._small_last[0] != key:
            self._small_last = (key, self._read(position, total))
        return self._small_last[1]

    def _read(self, position: Position, total: int) -> SmallPosition | Off:
        """:meth:`position_or_why`, read afresh."""
        cells = position.rows * position.cols
        if not (
            self._analyzer.small_boards
            and cells <= SMALL_CELLS
            # The general road's rules, which the small road always applies.
            and self._analyzer.use_local_rules
            and self._analyzer.state_budget > 0
            # The combination's work on n cells is at most 2n(n + 1) (see
            # _tables): with this budget neither road ever stops short.
            and self._analyzer.work_budget >= 2 * cells * (cells + 1)
        ):
            return OFF_ROAD
        found = small.read_since(position, self._read_last)
        if found is None:
            return OFF_ROAD  # the general road names the number (or the state) that is wrong
        # Kept to read the next position from (it differs in a few cells, if it is the game's next).
        self._read_last = found
        reading = found[1]
        remaining = total - reading.flags.bit_count()
        if not 0 <= remaining <= reading.covered.bit_count():
            return NO_LAYOUT
        settled = small.settle(reading.constraints, reading.frontier)
        if settled is None:
            return NO_LAYOUT  # the rules break a number
        safe, mine, rest = settled
        parts = []
        groups = []
        for _, constraints in small.split(rest):
            part = self.part(constraints, position.rows, position.cols)
            if part is None:
                return self.why_no_part(constraints, position.rows, position.cols)
            parts.append(part)
            groups.append(constraints)
        return SmallPosition(reading, safe, mine, parts, remaining, groups)

    def why_no_part(self, constraints: list[small.MaskConstraint], rows: int, cols: int) -> Off:
        """Why :meth:`part` found no part: :data:`NO_LAYOUT` when the part has no layout,
        :data:`OFF_ROAD` when its count is past the state budget."""
        key = (rows, cols, frozenset(map(_mask_and_mines, constraints)))
        return NO_LAYOUT if key in self._no_layout else OFF_ROAD

    def part(self, constraints: list[small.MaskConstraint], rows: int, cols: int) -> Part | None:
        """A part's layouts, cached by its constraints; ``None`` with no layout or past the budget.

        A mask means nothing without the board's width: bit ``r * cols + c`` is
        another cell on a board of another width (issue 18: a part of an 8x3
        board answered for a part of a 6x5 board). The key holds the board's
        shape beside the masks, so one Analyzer serves boards of any size.
        """
        key = (rows, cols, frozenset(map(_mask_and_mines, constraints)))
        if key in self._parts:
            return self._parts[key]
        mask = 0
        for c in constraints:
            mask |= c[0]
        listed = None
        part = None
        enumerable = self._analyzer.state_budget >= 1 << (ENUMERATED_CELLS + 1)
        if mask.bit_count() <= ENUMERATED_CELLS and enumerable:
            listed = _shape(constraints, mask)
        if listed is not None:
            part = Part.of_shape(mask, cols, *listed)
            if part is None:
                remember(self._no_layout, key, True)
        else:
            part = self._counted(constraints, mask, cols, key)
        if part is not None:
            part.constraints = tuple(constraints)
        return remember(self._parts, key, part)

    def _counted(
        self, constraints: list[small.MaskConstraint], mask: int, cols: int, key: object
    ) -> Part | None:
        """:meth:`part` of a part past the enumeration, counted (:mod:`.counting`) from its masks:
        its boxes found by splitting masks (as :func:`~minesat.analysis.counting.count_component`
        groups cells); where the search lists its layouts, what they decide is read from the
        fills and the count is made only when asked (the proof needs none)."""
        budget = self._analyzer.state_budget
        groups, counts = _grouped(constraints)
        box_masks = [box for box, _ in groups.values()]
        box_cons = list(map(box_numbers, groups))
        box_cells = [tuple([divmod(at, cols) for at in ats]) for _, ats in groups.values()]
        if len(box_cells) > 1:
            listed = list_layouts(box_cells, box_cons, counts, budget)
            if listed is not None:
                if not listed.fills:
                    remember(self._no_layout, key, True)
                    return None
                mask_of = dict(zip(box_cells, box_masks, strict=True))
                return Part.of_listing(mask, cols, listed, tuple(map(mask_of.__getitem__, listed.boxes)))
        # One box, or the search gave up: count_boxes counts it (the programme, not searching again).
        cells = tuple(small.cells(mask, cols))
        found = count_boxes(cells, box_cells, box_cons, counts, budget,
                            search_nodes=0 if len(box_cells) > 1 else SEARCH_NODES)
        if found is not None and any(found[0].ways):
            return Part.of_count(mask, cols, cells, *found)
        if found is not None:
            remember(self._no_layout, key, True)
        return None

    def analysis(
        self, position: Position, total: int, found: SmallPosition | None = None
    ) -> Analysis | None:
        """The analysis on the small road, or ``None`` for the general road (see :meth:`position`).

        The cells the local rules decide are certain; the parts they leave
        open combine as components do (a part is a component of what is left
        open). ``found`` is the position already read, when the caller has it.
        """
        key = (position.rows, position.cols, position.cells, total, self._analyzer.work_budget)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        if found is None and (found := self.position(position, total)) is None:
            return None
        reading, parts = found.reading, found.parts
        cols = position.cols
        interior = reading.interior.bit_count()
        try:
            weights = exact_weights(
                [part.count for part in parts],
                parts,
                interior,
                found.remaining - found.mine.bit_count(),
                self._analyzer.work_budget,
            )
        except TooMuchWork:  # pragma: no cover - _small's work budget condition rules it out
            return None
        if weights is None:
            return None  # no layout places the total: the general road names a number
        safe = set(small.cells(found.safe, cols))
        mine = set(small.cells(found.mine, cols))
        probability: dict[Cell, float | None] = dict.fromkeys(safe, 0.0)
        probability.update(dict.fromkeys(mine, 1.0))
        p_interior, interior_fate, layouts = read_weights(weights, interior, safe, mine, probability)
        if interior_fate is not None:
            (mine if interior_fate else safe).update(small.cells(reading.interior, cols))
        analysis = build_analysis(
            position, total, safe, mine, probability, small.components(reading.constraints), exact=True,
            layouts=layouts, otherwise=p_interior,
        )
        self._last = (key, analysis)
        return analysis

    def revealed(
        self, base: SmallPosition, i: int, value: int, rows: int, cols: int
    ) -> tuple[list[Part], int, int, int] | Off:
        """``base`` with cell ``i`` uncovered showing ``value``: its parts, interior cells and the
        rules' safe cells and mines (masks), as :meth:`position` would find them; or why not."""
        reading = base.reading
        bit = 1 << i
        covered = reading.covered & ~bit
        if base.remaining > covered.bit_count():
            return NO_LAYOUT  # every covered cell a mine: the cell cannot be safe
        around = reading.geometry.around[i]
        sees = around & covered
        need = value - (around & reading.flags).bit_count()
        if not 0 <= need <= sees.bit_count():
            return OFF_ROAD  # a number no layout can meet: the general road names it
        touched = bit | sees
        local: list[small.MaskConstraint] = []
        parts: list[Part] = []
        for part, group in zip(base.parts, base.groups, strict=True):
            if not part.mask & touched:
                parts.append(part)  # nothing links it to the cell: the same part
                continue
            for cells, mines, number in group:
                if cells & bit:
                    cells ^= bit  # the cell is safe: the number's mines are among its other cells
                    if not cells:
                        if mines:
                            return NO_LAYOUT  # the cell was the number's last place for a mine
                        continue
                local.append((cells, mines, number))
        if sees:
            local.append((sees, need, i))
        settled = small.settle(local)
        if settled is None:
            return NO_LAYOUT
        safe, mine, rest = settled
        for _, constraints in small.split(rest):
            counted = self.part(constraints, rows, cols)
            if counted is None:
                return self.why_no_part(constraints, rows, cols)
            parts.append(counted)
        interior = (reading.interior & ~touched).bit_count()
        return parts, interior, safe, mine

    def glance(
        self, parts: Sequence[Counted], interior: int, remaining: int, safe: int, few: int
    ) -> Glance | None:
        """:meth:`glance` on the small road: :meth:`analysis`'s numbers, read without a grid.

        ``remaining`` mines for the parts and the ``interior`` cells; ``safe`` cells the rules proved.
        The combination is :func:`~minesat.analysis.combine.exact_weights`' (the same integers,
        so the same floats), each part's cells alike counted once (:meth:`Part.weighed`).
        """
        tables = []
        rows = []
        for part in parts:
            low, ways, alike = part.weighed()
            tables.append((low, ways))
            rows.append(alike)
        # The combination's work is within the work budget on this road (see _read): no check.
        low = sum(lo for lo, _ in tables)
        width = 1 + sum(len(t) - 1 for _, t in tables)
        inside = binomial_row(interior, remaining - (low + width - 1), remaining - low)[::-1]
        after = completions(tables, inside)
        layouts = after[0][0]
        if layouts == 0:
            return None  # no layout places the total
        scale = interior or 1  # keeps every weight an integer, as exact_weights scales them
        denominator = layouts * scale
        undecided: list[tuple[int, int]] = []
        before = [1]
        for i, (_, t) in enumerate(tables):
            weight = correlated(after[i + 1], before, len(t))
            for row, cells in rows[i]:
                num = scale * sum(map(mul, row, weight))  # a row is as long as the part's table
                # As read_weights: a weight of 0 is a safe cell, one of all the layouts a mine.
                if num == 0:
                    safe += cells
                elif num != denominator:
                    undecided.append((num, cells))
            before = times(before, t)
        interior_mined = sum(w * inside[u] * (remaining - low - u) for u, w in enumerate(before))
        return glance_of(layouts, denominator, safe, undecided, interior, interior_mined, few)


def glance_of(
    layouts: int, denominator: int, safe: int, undecided: list[tuple[int, int]],
    interior: int, interior_mined: int, few: int,
) -> Glance:
    """The :class:`~minesat.analysis.result.Glance` of a position from its exact weights:
    ``safe`` cells proven, the ``undecided`` others as ``(weight, cells)`` (a cell's mine
    probability is its weight over ``denominator``), and the ``interior`` cells' weight
    ``interior_mined`` (one of them; 0 cells: none). Shared by :meth:`SmallRoad.glance` and
    the look-ahead's reveals (:mod:`~minesat.analysis.reveal`).

    >>> glance_of(6, 12, 0, [(8, 1), (4, 2)], 0, 0, 2)
    Glance(layouts=6, safe=0, lowest=(0.3333333333333333, 0.3333333333333333))
    """
    undecided.sort()
    lowest: list[float] = []
    for num, cells in undecided:
        if len(lowest) >= few:
            break
        lowest += [num / denominator] * min(cells, few - len(lowest))
    if interior:
        if interior_mined == 0:
            safe += interior
        elif interior_mined != denominator:
            lowest += [interior_mined / denominator] * min(interior, few)
            lowest.sort()
    return Glance(layouts, safe, tuple(lowest[:few]))


#: A part's count as :meth:`SmallRoad.glance` combines it: its fewest mines ``low``, its layouts by
#: mine count from ``low`` on (to its most), and each distinct per-cell count of mined layouts (read
#: from ``low``, as long) with how many of its cells have it.
Rows = tuple[int, tuple[int, ...], list[tuple[Sequence[int], int]]]


class Counted(Protocol):
    """Cells no open number links to others, counted: what :meth:`SmallRoad.glance` combines."""

    def weighed(self) -> Rows:
        """The count, cells alike once (:data:`Rows`)."""
        ...


class Part:
    """One part of the small road, counted: what its layouts decide, and the count itself.

    ``safe`` and ``mine`` are masks of the cells no layout mines and every
    layout mines; ``low`` and ``high`` its fewest and most mines. ``count``
    (by mine count, per cell) is built only when probabilities are wanted.
    """

    # What a part has not made yet (or has not got), read from the class until the part sets its
    # own: a part is made at every miss of the cache, and most are asked for a proof alone.
    _layouts: list[int] | None = None
    _moved: tuple[list[int], int] | None = None  # the layouts moved down, and by how much
    _count: ComponentCount | None = None
    _listed: BoxLayouts | None = None  # the layouts box by box, counted when first asked
    _cells: tuple[Cell, ...] | None = None
    #: The layouts box by box, when the count listed them: each box's mask, and the fills.
    boxes: tuple[int, ...] | None = None
    fills: tuple[tuple[int, ...], ...] = ()
    fill_ways: tuple[int, ...] = ()  # each fill's layouts of cells
    _weighed: Rows | None = None
    #: The part's constraints (as the small road read them when it was first counted).
    constraints: tuple[small.MaskConstraint, ...] = ()

    def __init__(self, mask: int, cols: int, safe: int, mine: int, low: int, high: int) -> None:
        self.mask, self.cols = mask, cols
        self.safe, self.mine, self.low, self.high = safe, mine, low, high

    @classmethod
    def of_layouts(cls, mask: int, cols: int, layouts: list[int]) -> Part:
        """From every layout of the part, each as a mask of its mines (at least one): the plain
        reading of a listing, unmoved, which the tests hold :meth:`of_shape` to."""
        part = cls.of_shape(mask, cols, Shape.of(layouts, mask), 0)
        assert part is not None  # a layout or more
        return part

    @classmethod
    def of_shape(cls, mask: int, cols: int, shape: Shape, low: int) -> Part | None:
        """From the part's :class:`Shape`, moved down by ``low`` bits (``None`` with no layout):
        what the layouts decide is moved back at once, the layouts only when asked."""
        if shape.low > shape.high:
            return None
        part = cls(mask, cols, mask ^ (shape.anywhere << low), shape.everywhere << low, shape.low, shape.high)
        part._moved = shape.layouts, low
        return part

    @classmethod
    def of_count(
        cls, mask: int, cols: int, cells: tuple[Cell, ...], count: ComponentCount,
        boxes: BoxLayouts | None = None,
    ) -> Part:
        """From the part's exact count (with at least one layout); ``cells`` are the mask's, row-major;
        ``boxes``, its layouts box by box, when the count listed them."""
        safe = mine = 0
        ways = count.ways
        for cell, bit in zip(cells, bits(mask), strict=True):
            mined = count.mine_ways[cell]
            if not any(mined):
                safe |= bit
            elif mined == ways:
                mine |= bit
        support = [k for k, w in enumerate(ways) if w]
        part = cls(mask, cols, safe, mine, support[0], support[-1])
        part._count, part._cells = count, cells
        if boxes is not None:
            part.boxes = tuple(sum(1 << (r * cols + c) for r, c in box) for box in boxes.boxes)
            part.fills, part.fill_ways = boxes.fills, boxes.ways
        return part

    @classmethod
    def of_listing(cls, mask: int, cols: int, listed: BoxLayouts, box_masks: tuple[int, ...]) -> Part:
        """From the part's layouts box by box (at least one; ``box_masks``, its boxes' cells as
        masks): what they decide is read from the fills (a box no fill mines is safe, one every
        fill fills is mined), the count made (:func:`~minesat.analysis.counting.count_listed`)
        only when asked."""
        safe = mine = 0
        for box, size, column in zip(box_masks, map(len, listed.boxes), zip(*listed.fills, strict=True),
                                     strict=True):
            if not any(column):
                safe |= box
            elif min(column) == size:
                mine |= box
        sizes = list(map(sum, listed.fills))
        part = cls(mask, cols, safe, mine, min(sizes), max(sizes))
        part._listed = listed
        part.boxes, part.fills, part.fill_ways = box_masks, listed.fills, listed.ways
        return part

    def weighed(self) -> Rows:
        """The count as :meth:`SmallRoad.glance` combines it (:data:`Rows`), made once a part:
        the part comes back from the cache position after position."""
        if self._weighed is None:
            count = self.count
            ways = count.ways
            low, high = self.low, self.high
            span = high - low + 1
            alike: dict[tuple[int, ...], int] = {}
            seen: dict[int, tuple[int, ...]] = {}  # cells of a counted box share one table
            for cell in self.cells:
                mined = count.mine_ways[cell]
                row = seen.get(id(mined))
                if row is None:
                    row = seen[id(mined)] = tuple(mined[low : low + span])
                alike[row] = alike.get(row, 0) + 1
            self._weighed = (low, tuple(ways[low : high + 1]), list(alike.items()))
        return self._weighed

    @property
    def cells(self) -> tuple[Cell, ...]:
        if self._cells is None:
            self._cells = tuple(small.cells(self.mask, self.cols))
        return self._cells

    @property
    def layouts(self) -> list[int] | None:
        """Every layout of the part as a mask of its mines, when it was enumerated; else ``None``."""
        if self._layouts is None and self._moved is not None:
            moved, low = self._moved
            self._layouts = [layout << low for layout in moved]
        return self._layouts

    @property
    def ways(self) -> tuple[int, ...]:
        """``ways[k]``: the part's layouts with ``k`` mines."""
        layouts = self.layouts
        if self._count is not None or layouts is None:
            return self.count.ways
        ways = [0] * (self.mask.bit_count() + 1)
        for layout in layouts:
            ways[layout.bit_count()] += 1
        return tuple(ways)

    @property
    def count(self) -> ComponentCount:
        """The count :func:`_exact_probabilities` combines: ``ways[k]``, and per cell how many mine it."""
        if self._count is None and self._listed is not None:
            self._count = count_listed(self._listed, self.mask.bit_count() + 1)
        if self._count is None:
            layouts = self.layouts
            assert layouts is not None
            size = self.mask.bit_count() + 1
            ways = [0] * size
            mined: dict[int, list[int]] = {bit: [0] * size for bit in bits(self.mask)}
            for layout in layouts:
                k = layout.bit_count()
                ways[k] += 1
                for bit in bits(layout):
                    mined[bit][k] += 1
            # Cells with the same counts share one tuple, as the cells of a counted box do:
            # exact_weights and weighed() then sum each distinct row once.
            rows: dict[tuple[int, ...], tuple[int, ...]] = {}
            self._count = ComponentCount(
                tuple(ways),
                {cell: rows.setdefault(row, row)
                 for cell, row in zip(self.cells, map(tuple, mined.values()), strict=True)},
            )
        return self._count


def bits(mask: int) -> list[int]:
    """The single-bit masks of ``mask``, lowest first (found from the highest down, as
    :func:`~minesat.analysis.small.cells` finds them).

    >>> bits(0b1010)
    [2, 8]
    """
    out = []
    while mask:
        top = 1 << (mask.bit_length() - 1)
        out.append(top)
        mask ^= top
    out.reverse()
    return out


@dataclass(frozen=True)
class SmallPosition:
    """A position on the small road: its reading, the local rules' cells (masks), its counted parts."""

    reading: small.Reading
    safe: int
    mine: int
    parts: list[Part]
    remaining: int  # mines not flagged
    groups: list[list[small.MaskConstraint]]  # each part's constraints
    #: The look-ahead's reveals of its cells, by flat index (:class:`~minesat.analysis.reveal.Reveal`
    #: or ``None``; typed loosely, since that module reads this one): they hold for this position
    #: alone, and go with it.
    reveals: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)

    def proven(self) -> tuple[tuple[Cell, ...], tuple[Cell, ...]] | None:
        """``(safe, mine)`` when the total adds nothing to what the parts decide, else ``None``."""
        low = high = self.mine.bit_count()
        safe, mine = self.safe, self.mine
        for part in self.parts:
            low += part.low
            high += part.high
            safe |= part.safe
            mine |= part.mine
        if not total_adds_nothing(self.remaining, self.reading.interior.bit_count(), low, high):
            return None
        cols = self.reading.geometry.cols
        return tuple(small.cells(safe, cols)), tuple(small.cells(mine, cols))


