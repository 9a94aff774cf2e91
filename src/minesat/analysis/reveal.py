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
>>> [found.glance(need) for need in range(4)]   # 0..3 of them mined (no flag)
[None, Glance(layouts=1, safe=2, lowest=()), Glance(layouts=2, safe=1, lowest=(0.5, 0.5)), None]
"""

from __future__ import annotations

from itertools import product
from math import comb
from operator import mul

from minesat.analysis.combine import binomial_row, correlated, times
from minesat.analysis.counting import coefficients
from minesat.analysis.result import Glance
from minesat.analysis.smallroad import Part, SmallPosition, glance_of

__all__ = ["Reveal", "reveal"]

#: Layouts of a group of cells with the revealed cell safe, by the mines they put beside it:
#: ``{mines beside: (layouts packed by mine count, {cells: each such cell's mined layouts, packed})}``;
#: the cells of one mask share their counts, and a cell in no mask is never mined.
Table = dict[int, tuple[int, dict[int, int]]]


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
        self._shared: _Shared | None = None

    def glance(self, need: int, few: int = 2) -> Glance | None:
        """The glance at the position with ``need`` mines among the cell's covered neighbours;
        ``None`` when no layout has them (or the cell cannot be safe).

        :meth:`~minesat.analysis.smallroad.SmallRoad.glance`'s numbers for the position counted
        afresh, combined here from what every number shares (:class:`_Shared`): each sum over
        the layouts is one over the joined cells' mine counts of their ways (or of a cell's
        mined ways) times what the rest gives each count, so every number costs a few dot
        products. The same exact integers, so the same floats.
        """
        if not 0 <= need <= self.beside or self.remaining > self.room:
            return None
        shared = self._shared
        if shared is None:
            shared = self._shared = _Shared(self)
        joined = shared.joined(need)
        if joined is None or not joined[0]:
            return None
        ways, weights = joined
        low, width, bits = shared.low, shared.width, self.bits

        def counts(packed: int) -> list[int]:
            """A packed count by the joined cells' mines, from their fewest, ``width`` long."""
            found = coefficients(packed >> (low * bits), bits)
            return found + [0] * (width - len(found))

        ways_by = counts(ways)
        layouts = sum(map(mul, ways_by, shared.rest))
        if layouts == 0:
            return None  # no layout places the total
        interior = self.interior
        scale = interior or 1  # keeps every weight an integer, as exact_weights scales them
        denominator = layouts * scale
        safe = 0
        undecided: list[tuple[int, int]] = []
        # As read_weights: a weight of 0 is a safe cell, one of all the layouts a mine.
        for row, cells in shared.rows:  # the parts the cell does not touch, cells alike once
            num = scale * sum(map(mul, ways_by, row))
            if num == 0:
                safe += cells
            elif num != denominator:
                undecided.append((num, cells))
        alike: dict[int, int] = {}  # the joined cells by their mined ways (cells alike once)
        for mask, weight in weights.items():
            alike[weight] = alike.get(weight, 0) + mask.bit_count()
        never = self.cells - sum(alike.values())  # the joined cells no layout mines
        for weight, cells in alike.items():
            num = scale * sum(map(mul, counts(weight), shared.rest))
            if num == 0:
                safe += cells
            elif num != denominator:
                undecided.append((num, cells))
        interior_mined = sum(map(mul, ways_by, shared.interior)) if interior else 0
        return glance_of(layouts, denominator, safe + never, undecided, interior, interior_mined, few)


class _Shared:
    """What every number of one :class:`Reveal` shares, made at its first glance.

    The joined cells hold from ``low`` to ``low + width - 1`` mines, whatever the number. For
    each such count ``b``: ``rest[b]``, the ways to place the other mines in the parts the cell
    does not touch and the interior cells away from it; ``interior[b]``, those ways times the
    interior's mines (its cells' mined ways, scaled as the small road scales them); and per
    distinct row of an untouched part's cells, ``row[b]``, the ways in which such a cell is a
    mine. Each is a product over the untouched parts, made once: the parts' ways multiplied
    (the others' product for a row of one part, from products before and after it), then
    correlated with the interior's binomials. :meth:`joined` adds the joined groups' tables
    for one number, from what the other groups give each (made once too).
    """

    def __init__(self, reveal: Reveal) -> None:
        bits, tables = reveal.bits, reveal.tables
        # The joined cells' fewest and most mines: the sums of each group's.
        low = high = 0
        for table in tables:
            ends = [(w & -w).bit_length() - 1 for w, _ in table.values() if w]
            tops = [w.bit_length() - 1 for w, _ in table.values() if w]
            low += min(ends, default=0) // bits
            high += max(tops, default=0) // bits
        self.low, self.width = low, high - low + 1
        self._others = _others(tables)
        self._tables = tables
        # The untouched parts: their ways by mine count from the fewest (``fewest`` in all).
        weighed = [part.weighed() for part in reveal.rest]
        fewest = sum(lo for lo, _, _ in weighed)
        before: list[list[int]] = [[1]]
        for _, ways, _ in weighed:
            before.append(times(before[-1], ways))
        untouched = before[-1]
        # inside[t]: the interior's placements when the parts and the joined cells hold fewest + low + t.
        most = reveal.remaining - fewest - low
        span = len(untouched) + self.width - 1
        inside = binomial_row(reveal.interior, most - (span - 1), most)[::-1]
        self.rest = correlated(inside, untouched, self.width)
        self.interior = correlated([w * (most - t) for t, w in enumerate(inside)], untouched, self.width)
        self.rows: list[tuple[list[int], int]] = []
        after: list[int] = [1]
        for k in range(len(weighed) - 1, -1, -1):
            others = times(before[k], after)
            for row, cells in weighed[k][2]:
                self.rows.append((correlated(inside, times(row, others), self.width), cells))
            after = times(after, weighed[k][1])

    def joined(self, need: int) -> tuple[int, dict[int, int]] | None:
        """:func:`_joined` of the groups' tables, ``need`` mines beside the cell."""
        tables = self._tables
        if not tables:  # no covered cell beside it (flags at most): one way, with no mine
            return (1, {}) if need == 0 else None
        if len(tables) == 1:
            return tables[0].get(need)
        ways = 0
        weights: dict[int, int] = {}
        last = len(tables) - 1
        for p, others in enumerate(self._others):
            for s, (w, masks) in tables[p].items():
                o = others.get(need - s)
                if not o:
                    continue
                if p == last:
                    ways += w * o  # the layouts once, with the last group's share
                for mask, x in masks.items():
                    weights[mask] = weights.get(mask, 0) + x * o
        return ways, weights


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


def _others(tables: list[Table]) -> list[dict[int, int]]:
    """For each group, what the other groups give together, by the mines they put beside the cell
    (packed by mine count): the groups before it joined with those after it, once for every number."""
    plain = [{s: w for s, (w, _) in table.items()} for table in tables]
    before: list[dict[int, int]] = [{0: 1}]
    for table in plain[:-1]:
        before.append(_times(before[-1], table))
    others: list[dict[int, int]] = [{}] * len(tables)
    after: dict[int, int] = {0: 1}
    for p in range(len(tables) - 1, -1, -1):
        others[p] = _times(before[p], after)
        after = _times(after, plain[p])
    return others


def _times(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    """Layouts of two groups together (packed by mine count), by the mines they put beside the cell."""
    out: dict[int, int] = {}
    for s, x in a.items():
        for t, y in b.items():
            out[s + t] = out.get(s + t, 0) + x * y
    return out
