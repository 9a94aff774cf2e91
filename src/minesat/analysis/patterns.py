"""Layouts with some cells mined and others safe, counted from the position's own parts.

A question such as "in how many layouts are these three cells mines and that one
safe?" could be asked by flagging the cells and counting the new position again:
a whole analysis per question. The long-term risk of :mod:`minesat.guess.longterm`
asks hundreds of them per guess. On the small road (:mod:`.small`) the position
is already split into independent parts, each with its layouts counted by mine
count, plus the interior, whose cells are interchangeable. A question touches
one or two parts: only those are counted again under the pattern (their
constraints with the mined cells taken out of their numbers and the safe ones
dropped, through the same rules, split and cached counts), the others keep
their counts, and the interior cells of the pattern change only how many cells
and mines the interior has left. The answer is the same exact integer a new
analysis of the flagged position gives.

>>> from minesat.analysis import Analyzer
>>> from minesat.board import Position
>>> counter = pattern_counter(Analyzer(), Position.from_rows(["1??", "???"], mines=2))   # 3 x 2 layouts
>>> counter.layouts(), counter.layouts(mined=[(0, 1)]), counter.layouts(mined=[(0, 1), (1, 0)])
(6, 2, 0)
>>> counter.layouts(mined=[(1, 2)], safe=[(0, 2)])     # B3 mined, A3 safe: the other mine at A2, B1 or B2
3
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb

from minesat.analysis import small
from minesat.analysis.combine import binomial_row, times
from minesat.analysis.engine import Analyzer
from minesat.analysis.result import total_of
from minesat.analysis.smallroad import NO_LAYOUT, Part, SmallPosition, bits
from minesat.board import Cell, Position

__all__ = ["PatternCounter", "pattern_counter"]


class PatternCounter:
    """Layouts of one position with given cells mined and others safe (see the module docstring):
    a :class:`~minesat.analysis.glance.LayoutCounter`.

    Made by :func:`pattern_counter`; counts of part patterns go through the
    Analyzer's part cache, so a game's Analyzer shares them between questions.
    """

    def __init__(self, analyzer: Analyzer, position: Position, found: SmallPosition) -> None:
        self._analyzer = analyzer
        self._rows, self._cols = position.rows, position.cols
        reading, remaining = found.reading, found.remaining
        self._rule_safe, self._rule_mine, self._parts = found.safe, found.mine, found.parts
        self._covered = reading.covered
        #: The interior cells (covered, next to no number) as a bit mask: interchangeable, so a
        #: pattern of them alone counts by how many are mined and how many safe.
        self.interior_mask = self._interior_mask = reading.interior
        self._interior = reading.interior.bit_count()
        self._remaining = remaining - self._rule_mine.bit_count()  # mines for the parts and the interior
        self._ways = [_trimmed(part.ways) for part in self._parts]
        self._part_of: dict[int, int] = {}
        for k, part in enumerate(self._parts):
            for bit in bits(part.mask):
                self._part_of[bit] = k
        # The product of every part's ways but those in the key, by the parts left out.
        self._products: dict[frozenset[int], tuple[int, list[int]]] = {}
        # The interior's placements by the mines the parts leave it, by (free cells, most mines, span).
        self._inside: dict[tuple[int, int, int], list[int]] = {}
        # Patterns of interior cells alone, by how many are mined and how many safe.
        self._interior_only: dict[tuple[int, int], int] = {}

    def layouts(self, mined: Iterable[Cell] = (), safe: Iterable[Cell] = ()) -> int | None:
        """Layouts in which every cell of ``mined`` is a mine and every cell of ``safe`` is safe.

        ``None`` when a cell is not covered (a number or a flag), or a part's count under the
        pattern is past the state budget: the caller asks otherwise.
        """
        cols = self._cols
        mine_mask = sum(1 << (r * cols + c) for r, c in set(mined))
        safe_mask = sum(1 << (r * cols + c) for r, c in set(safe))
        return self.masks(mine_mask, safe_mask)

    def masks(self, mined: int = 0, safe: int = 0) -> int | None:
        """:meth:`layouts` with the cells as bit masks (bit ``row * cols + col``)."""
        if (mined | safe) & ~self._covered:
            return None
        if mined & safe or mined & self._rule_safe or safe & self._rule_mine:
            return 0
        mined &= ~self._rule_mine
        safe &= ~self._rule_safe
        a = (mined & self._interior_mask).bit_count()
        b = (safe & self._interior_mask).bit_count()
        if not (mined | safe) & ~self._interior_mask:
            # Interior cells alone: the count depends on how many are mined and how many safe.
            if (a, b) not in self._interior_only:
                self._interior_only[a, b] = self._counted(a, b, *self._product(frozenset()))
            return self._interior_only[a, b]
        touched: dict[int, tuple[int, int]] = {}
        part_of = self._part_of
        for bit in bits((mined | safe) & ~self._interior_mask):
            k = part_of[bit]
            m, s = touched.get(k, (0, 0))
            touched[k] = (m | bit, s) if mined & bit else (m, s | bit)
        low, product = self._product(frozenset(touched))
        for k, (m, s) in touched.items():
            found = self._restricted(self._parts[k], m, s)
            if found is None:
                return None
            shift, ways = found
            if not ways:
                return 0
            low += shift
            product = times(product, ways)
        return self._counted(a, b, low, product)

    def _counted(self, a: int, b: int, low: int, product: list[int]) -> int:
        """The layouts of the parts' ``product`` (``product[u]``: ``low + u`` mines) with the
        interior's ``a`` given cells mined, ``b`` safe and the rest free for the mines left."""
        free = self._interior - a - b
        most = self._remaining - a - low
        key = (free, most, len(product))
        if key not in self._inside:
            self._inside[key] = binomial_row(free, most - len(product) + 1, most)[::-1]
        return sum(w * n for w, n in zip(product, self._inside[key], strict=True))

    def _product(self, left_out: frozenset[int]) -> tuple[int, list[int]]:
        """``(low, ways)``: the product of the parts not in ``left_out`` (``ways[u]``: ``low + u`` mines)."""
        if left_out not in self._products:
            low, product = 0, [1]
            for k, (shift, ways) in enumerate(self._ways):
                if k not in left_out:
                    low += shift
                    product = times(product, ways)
            self._products[left_out] = (low, product)
        return self._products[left_out]

    def _restricted(self, part: Part, mined: int, safe: int) -> tuple[int, list[int]] | None:
        """The part's layouts with ``mined`` mines and ``safe`` safe, as ``(low, ways)`` (trimmed)."""
        layouts = part.layouts
        if layouts is not None:
            ways = [0] * (part.mask.bit_count() + 1)
            for layout in layouts:
                if layout & mined == mined and not layout & safe:
                    ways[layout.bit_count()] += 1
            return _trimmed(tuple(ways))
        if part.boxes is not None:
            return _restricted_boxes(part, mined, safe)
        # Counted parts without their layouts: the same rules, split and counts as the small road,
        # on what the pattern leaves.
        reduced: list[small.MaskConstraint] = []
        for cells, mines, number in part.constraints:
            need = mines - (cells & mined).bit_count()
            cells &= ~(mined | safe)
            if not 0 <= need <= cells.bit_count():
                return 0, []
            if cells:
                reduced.append((cells, need, number))
        settled = small.settle(reduced)
        if settled is None:
            return 0, []
        _, mine, rest = settled
        low, product = mined.bit_count() + mine.bit_count(), [1]
        for _, constraints in small.split(rest):
            sub = self._analyzer.small_road.part(constraints, self._rows, self._cols)
            if sub is None:
                if self._analyzer.small_road.why_no_part(constraints, self._rows, self._cols) is NO_LAYOUT:
                    return 0, []
                return None  # past the budget: the caller asks otherwise
            shift, ways = _trimmed(sub.ways)
            low += shift
            product = times(product, ways)
        return low, product


def pattern_counter(
    analyzer: Analyzer, position: Position, mines: int | None = None
) -> PatternCounter | None:
    """A :class:`PatternCounter` for ``position``, or ``None`` off the small road (a large board,
    no total, a number that cannot be met, a part past the budget): ask the analyzer then."""
    total = total_of(position, mines)
    if total is None:
        return None
    found = analyzer.small_road.position(position, total)
    if found is None:
        return None
    return PatternCounter(analyzer, position, found)


def _restricted_boxes(part: Part, mined: int, safe: int) -> tuple[int, list[int]]:
    """:meth:`PatternCounter._restricted` of a part whose count listed its layouts box by box
    (:attr:`~minesat.analysis.smallroad.Part.fills`): read from them, not counted again.

    A fill puts ``j`` mines in a box of ``n`` cells in ``C(n, j)`` ways; with ``m`` of its cells
    to be mines and ``s`` safe, in ``C(n - m - s, j - m)``. Only the boxes the pattern touches
    change their share of the fill's ways. The same exact counts as counting the part again
    under the pattern.
    """
    assert part.boxes is not None
    touched = []
    for d, box in enumerate(part.boxes):
        if box & (mined | safe):
            n, m, s = box.bit_count(), (box & mined).bit_count(), (box & safe).bit_count()
            touched.append((d, [comb(n, j) for j in range(n + 1)], m, n - m - s))
    ways = [0] * (part.mask.bit_count() + 1)
    for fill, w in zip(part.fills, part.fill_ways, strict=True):
        for d, binomial, m, free in touched:
            j = fill[d] - m  # the box's mines left for its free cells
            if not 0 <= j <= free:
                break
            w = w // binomial[fill[d]] * comb(free, j)
        else:
            ways[sum(fill)] += w
    return _trimmed(tuple(ways))


def _trimmed(ways: tuple[int, ...]) -> tuple[int, list[int]]:
    """``(low, ways[low:high])`` without the zero counts at either end; ``(0, [])`` if all are zero.

    >>> _trimmed((0, 0, 3, 1, 0))
    (2, [3, 1])
    """
    low = next((k for k, w in enumerate(ways) if w), None)
    if low is None:
        return 0, []
    high = max(k for k, w in enumerate(ways) if w)
    return low, list(ways[low : high + 1])
