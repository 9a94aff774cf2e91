"""Every number one cell could show, read from the layouts its parts already have.

The look-ahead (:func:`~minesat.analysis.glance.glance_revealed`) asks, of a
candidate cell and each number it could show, what the position with that
number would be: its layouts, its safe cells, its lowest mine probabilities.
Every layout of that position is a layout of this one in which the cell is
safe and its covered neighbours hold the number's mines (less the flags beside
it). So the parts the cell touches need not be counted again for each number:
the layouts the small road listed for them are sorted once, by the mines they
put beside the cell with the cell itself safe, and each number takes its share:

- a part enumerated cell by cell (:attr:`~minesat.analysis.smallroad.Part.layouts`)
  is read layout by layout;
- a counted part, box by box (:attr:`~minesat.analysis.smallroad.Part.fills`): a
  box the cell's neighbourhood cuts in two holds its ``j`` mines as ``i`` beside
  the cell and ``j - i`` not, in ``C(a, i) * C(b, j - i)`` ways;
- the interior cells beside the cell join as one more box, of cells alike.

The parts the cell does not touch are the same in every answer. Counts by
mine number are packed in one int (``sum c_k 2^(k*bits)``, as
:mod:`~minesat.analysis.counting` packs them): adding tables is adding ints,
joining two groups of cells is one multiplication. Each answer is the one the
small road gives for the revealed position counted afresh: the same exact
counts, so the same floats.

>>> from minesat.analysis import Analyzer
>>> from minesat.board import Position
>>> position = Position.from_rows(["1??", "???"], mines=2)
>>> road = Analyzer().small_road
>>> base = road.position(position, 2)
>>> found = reveal(base, 2)        # A3: beside it A2, B2 and B3
>>> [found.glance(need, road.glance) for need in range(4)]   # 0..3 of them mined (no flag)
[None, Glance(layouts=1, safe=2, lowest=()), Glance(layouts=2, safe=1, lowest=(0.5, 0.5)), None]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product
from math import comb
from operator import mul

from minesat.analysis.counting import coefficients
from minesat.analysis.result import Glance
from minesat.analysis.smallroad import Counted, Part, Rows, SmallPosition

__all__ = ["Joined", "Reveal", "reveal"]

#: Layouts of a group of cells with the revealed cell safe, by the mines they put beside it:
#: ``{mines beside: (layouts packed by mine count, {cells: each such cell's mined layouts, packed})}``;
#: the cells of one mask share their counts, and a cell in no mask is never mined.
Table = dict[int, tuple[int, dict[int, int]]]

#: What a glance is read with: :meth:`~minesat.analysis.smallroad.SmallRoad.glance`'s arguments
#: (the parts, the interior cells, the mines for them, the cells proven safe, how many probabilities).
Glancer = Callable[[Sequence[Counted], int, int, int, int], Glance | None]


class Joined:
    """The cells the revealed cell's number joins (the parts it touches, the interior beside it),
    counted for one number: what :meth:`~minesat.analysis.smallroad.SmallRoad.glance` combines.

    ``ways`` and ``weights`` are packed ``bits`` a count; ``cells``, how many cells join.
    """

    def __init__(self, ways: int, weights: dict[int, int], cells: int, bits: int) -> None:
        self.ways, self.weights, self.cells, self.bits = ways, weights, cells, bits

    def weighed(self) -> Rows:
        """The count, cells alike once (:data:`~minesat.analysis.smallroad.Rows`)."""
        bits = self.bits
        ways = coefficients(self.ways, bits)
        low = next(k for k, w in enumerate(ways) if w)
        span = len(ways) - low
        rows: dict[tuple[int, ...], int] = {}
        never = self.cells  # cells no layout mines
        for mask, weight in self.weights.items():
            found = coefficients(weight >> (low * bits), bits)
            row = tuple(found) + (0,) * (span - len(found))
            cells = mask.bit_count()
            rows[row] = rows.get(row, 0) + cells
            never -= cells
        if never:
            zeros = (0,) * span
            rows[zeros] = rows.get(zeros, 0) + never
        return low, tuple(ways[low:]), list(rows.items())


class Reveal:
    """One cell of one position, uncovered, for every number it could show (:func:`reveal`).

    ``flags``: the flags beside the cell (the number shown less them is ``need``, the mines
    among its covered neighbours); ``beside``: how many covered neighbours it has.
    """

    def __init__(
        self, rest: list[Part], tables: list[Table], cells: int, bits: int, interior: int,
        remaining: int, room: int, flags: int, beside: int,
    ) -> None:
        self.rest, self.tables, self.cells, self.bits = rest, tables, cells, bits
        self.interior, self.remaining, self.room = interior, remaining, room
        self.flags, self.beside = flags, beside

    def glance(self, need: int, glancer: Glancer, few: int = 2) -> Glance | None:
        """The glance at the position with ``need`` mines among the cell's covered neighbours;
        ``None`` when no layout has them (or the cell cannot be safe)."""
        if not 0 <= need <= self.beside or self.remaining > self.room:
            return None
        joined = _joined(self.tables, need)
        if joined is None or not joined[0]:
            return None
        parts: list[Counted] = list(self.rest)
        if self.cells:
            parts.append(Joined(*joined, self.cells, self.bits))
        return glancer(parts, self.interior, self.remaining, 0, few)


def reveal(base: SmallPosition, i: int) -> Reveal | None:
    """Cell ``i`` (a flat index) of ``base`` uncovered, for every number it could show; ``None`` when a
    part it touches was counted without listing its layouts (the small road then counts each
    number's position as it comes).

    ``base`` must be a position the local rules decide nothing in (its parts' constraints are then
    its numbers'), and the cell covered.
    """
    reading = base.reading
    bit = 1 << i
    around = reading.geometry.around[i]
    sees = around & reading.covered
    touched = bit | sees
    rest: list[Part] = []
    pieces: list[Part] = []
    group = 0
    for part in base.parts:
        if not part.mask & touched:
            rest.append(part)  # nothing links it to the cell: the same part in every answer
            continue
        if part.layouts is None and part.boxes is None:
            return None
        pieces.append(part)
        group |= part.mask
    inside = sees & reading.interior  # interior cells beside it: the number joins them to the rest
    group = (group | inside) & ~bit
    cells = group.bit_count()
    # Every count of the joined cells is at most 2 ** cells: more bits than that a coefficient, 8, 16,
    # 32 or 64 (read back as an array of such numbers), else whole bytes.
    bits = next((b for b in (8, 16, 32, 64) if b > cells), 8 * -(-(cells + 1) // 8))
    tables = [_listed(p.layouts, bit, sees, bits) if p.layouts is not None else _boxed(p, bit, sees, bits)
              for p in pieces]
    if inside:
        tables.append(_alike(inside, bits))
    return Reveal(
        rest, tables, cells, bits,
        interior=(reading.interior & ~touched).bit_count(),
        remaining=base.remaining,
        room=(reading.covered & ~bit).bit_count(),
        flags=(around & reading.flags).bit_count(),
        beside=sees.bit_count(),
    )


def _listed(layouts: list[int], bit: int, sees: int, bits: int) -> Table:
    """A part's table from its layouts, cell by cell."""
    table: dict[int, tuple[int, dict[int, int]]] = {}
    for layout in layouts:
        if layout & bit:
            continue  # the cell is a mine here: no number shows
        s = (layout & sees).bit_count()
        one = 1 << (layout.bit_count() * bits)
        entry = table.get(s)
        if entry is None:
            entry = table[s] = (0, {})
        weights = entry[1]
        table[s] = (entry[0] + one, weights)
        rest = layout
        while rest:
            low = rest & -rest
            rest ^= low
            weights[low] = weights.get(low, 0) + one
    return table


def _boxed(part: Part, bit: int, sees: int, bits: int) -> Table:
    """A counted part's table from its layouts box by box.

    A box wholly beside the cell (or wholly away from it) adds its mines to the
    number's (or none) and keeps its ``C(size, j)`` ways; a box the cell's
    neighbourhood cuts (or that holds the cell itself, safe now) is two boxes, its
    ``j`` mines split every way they fit. A layout's mines in a box are spread
    evenly over its cells: each cell's count is the box's mines over its size.
    The fills are read column by column (a box's mines in every fill): the mines the
    whole boxes put beside the cell, and, once the layouts are sorted by the mines
    beside it, each box's mines over a number's layouts, as one sum of products.
    """
    assert part.boxes is not None
    columns = list(zip(*part.fills, strict=True))
    whole: list[tuple[int, int]] = []  # (index, box)
    near_whole = []  # the columns of the whole boxes beside the cell
    cut: list[tuple[int, int, int, int, int, list[int]]] = []  # (index, its parts, their sizes, C(size, j))
    for d, box in enumerate(part.boxes):
        near, away = box & sees, box & ~sees & ~bit
        if box & bit or (near and away):
            size = box.bit_count()
            binomial = [comb(size, j) for j in range(size + 1)]
            cut.append((d, near, away, near.bit_count(), away.bit_count(), binomial))
        else:
            whole.append((d, box))
            if near:
                near_whole.append(columns[d])
    beside = list(map(sum, zip(*near_whole, strict=True))) if near_whole else [0] * len(part.fills)
    # Per number of mines beside: each layout's ways (packed by its mines), its fill, its split.
    by_beside: dict[int, tuple[list[int], list[tuple[int, ...]], list[tuple[int, ...]]]] = {}
    for f, fill in enumerate(part.fills):
        ways = part.fill_ways[f]
        splits = []
        for d, _, _, n_near, n_away, binomial in cut:
            j = fill[d]
            if j > n_near + n_away:
                break  # the cell held a mine of the box in every way: not here
            ways //= binomial[j]  # the box's ways come from its split instead
            splits.append([(i, comb(n_near, i) * comb(n_away, j - i))
                           for i in range(max(0, j - n_away), min(j, n_near) + 1)])
        else:
            shift = sum(fill) * bits
            for split in product(*splits):
                w, s = ways, beside[f]
                for i, x in split:
                    w *= x
                    s += i
                group = by_beside.get(s)
                if group is None:
                    group = by_beside[s] = ([], [], [])
                group[0].append(w << shift)
                group[1].append(fill)
                group[2].append(tuple([i for i, _ in split]))
    table: Table = {}
    for s, (ones, fills, near_splits) in by_beside.items():
        mined: dict[int, int] = {}
        chosen = list(zip(*fills, strict=True))  # the columns of these layouts' fills
        for d, box in whole:
            m = sum(map(mul, chosen[d], ones))
            if m:
                mined[box] = m
        for (d, near, away, _, _, _), near_mines in zip(cut, zip(*near_splits, strict=True), strict=True):
            m_near = sum(map(mul, near_mines, ones))
            m_away = sum(map(mul, chosen[d], ones)) - m_near
            if m_near:
                mined[near] = m_near
            if m_away:
                mined[away] = m_away
        # Each cell of a box holds its share: the box's mines over its cells (exact: every layout's
        # C(size, j) * j is size * C(size - 1, j - 1), coefficient by coefficient).
        table[s] = (sum(ones), {mask: m // mask.bit_count() for mask, m in mined.items()})
    return table


def _alike(inside: int, bits: int) -> Table:
    """The interior cells beside the revealed cell: ``i`` mines in ``C(t, i)`` ways, each cell
    mined in ``C(t - 1, i - 1)`` of them."""
    t = inside.bit_count()
    return {
        i: (comb(t, i) << (i * bits), {inside: comb(t - 1, i - 1) << (i * bits)} if i else {})
        for i in range(t + 1)
    }


def _joined(tables: list[Table], need: int) -> tuple[int, dict[int, int]] | None:
    """The groups' tables joined, with ``need`` mines beside the cell in all: the layouts and each
    mask's counts, packed; ``None`` when none has them."""
    if not tables:  # no covered cell beside it (flags at most): one way, with no mine
        return (1, {}) if need == 0 else None
    if len(tables) == 1:
        return tables[0].get(need)
    # What the other groups can add: the groups before each one, joined with those after it.
    plain = [{s: w for s, (w, _) in table.items()} for table in tables]
    before: list[dict[int, int]] = [{0: 1}]
    for table in plain[:-1]:
        before.append(_times(before[-1], table))
    after: dict[int, int] = {0: 1}
    ways = 0
    weights: dict[int, int] = {}
    for p in range(len(tables) - 1, -1, -1):
        others = _times(before[p], after)
        for s, (w, masks) in tables[p].items():
            o = others.get(need - s)
            if not o:
                continue
            if p == len(tables) - 1:
                ways += w * o  # the layouts once, with the last group's share
            for mask, x in masks.items():
                weights[mask] = weights.get(mask, 0) + x * o
        after = _times(after, plain[p])
    return ways, weights


def _times(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    """Layouts of two groups together (packed by mine count), by the mines they put beside the cell."""
    out: dict[int, int] = {}
    for s, x in a.items():
        for t, y in b.items():
            out[s + t] = out.get(s + t, 0) + x * y
    return out
