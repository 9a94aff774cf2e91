"""Look-alike layouts: which layouts of a list no cell safe in both can tell apart.

Two layouts are *alike* when every cell safe in both shows the same number in
both. A perfect player wins at most one layout of a set of mutually alike
layouts (docs/perfect.md, Theorem 3), so any split of a set of layouts into
such groups bounds its value: :meth:`Alike.cover` counts a greedy one.

The pairs are found once per list of layouts by :func:`alike_pairs`, a join of
the list with itself cell by cell (a mine matches any number); a smaller list
restricts its parent's table. A short list keeps, per layout, the bit set of its
look-alikes (:class:`Alike`); a long one keeps the pairs as arrays
(:class:`SparseAlike`), since most layouts have none or one or two look-alikes.

Not always: on a dense board (a row of 31 cells with 22 mines) most cells are a
mine in one layout or the other, nearly every pair is alike, and the pairs of
53 130 layouts would take 11 GB. :func:`tabulate` stops counting past
:func:`pair_limit` (a number of pairs, so the same lists give up on every
machine) and keeps no table (:class:`NoTable`): the search is then bounded by
sizes alone, which is still right, only slower to prune.

>>> import numpy as np
>>> matrix = np.array([[9, 1, 1], [1, 9, 1], [2, 2, 9]], dtype=np.uint8)
>>> alike_pairs(matrix, [0, 1, 2])          # layouts 0 and 1 agree wherever both are safe
(array([0]), array([1]))
>>> table = alike_table(3, *alike_pairs(matrix, [0, 1, 2]))
>>> table.cover(0b111), table.cover(0b101)
(2, 2)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from minesat.budget import checkpoint
from minesat.errors import OverBudget
from minesat.exact.geometry import MINE

__all__ = [
    "LOCAL_SIZE",
    "PAIRS_FLOOR",
    "PAIRS_PER_LAYOUT",
    "Alike",
    "NoTable",
    "SparseAlike",
    "TooAlike",
    "alike_pairs",
    "alike_table",
    "pair_limit",
    "tabulate",
]

#: A list of layouts at most this long keeps bit sets of look-alikes, and remembers its covers;
#: a longer one keeps the pairs as arrays.
LOCAL_SIZE = 4096

#: Pairs of blocks of layouts whose product is at most this are compared at once, cell by cell;
#: packed (:func:`_packed`), eight cells at once, up to :data:`_PACKED_LEAF` pairs (measured on the
#: endgames of 300 expert games: 2 times faster than 4 096 pairs, cell by cell).
_JOIN_LEAF = 4096
_PACKED_LEAF = 32_768

#: A list of ``n`` layouts gives up its table past ``PAIRS_PER_LAYOUT * n + PAIRS_FLOOR`` alike
#: pairs. Boards within the search's reach have fewer pairs than layouts (5x6 with 6 mines:
#: 90 147 pairs among 230 230 layouts); past the limit the pairs grow as the square of the
#: list, and the table would cost more than the bound saves.
PAIRS_PER_LAYOUT = 64
PAIRS_FLOOR = 65_536


def pair_limit(size: int) -> int:
    """The most alike pairs a list of ``size`` layouts keeps a table for.

    >>> pair_limit(1000)
    129536
    """
    return PAIRS_PER_LAYOUT * size + PAIRS_FLOOR


class TooAlike(OverBudget):
    """More alike pairs than :func:`alike_pairs` was asked to find (``limit``)."""

    what = "pairs"


def alike_pairs(
    matrix: np.ndarray, cells: Sequence[int], max_pairs: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Every pair ``a < b`` of rows of ``matrix`` alike on ``cells``, as two index arrays.

    Raises :class:`TooAlike` as soon as more than ``max_pairs`` are found (``None``: no limit).

    The rows are split by the number each shows at one cell after another
    (the most varied cells first); a row with a mine there goes with every
    row, since a mine matches any number. Blocks small enough are compared
    all pairs at once. Each pair is found once: a mine-mine pair only in the
    mine block, a mine-number pair only in the cross of the mine block with
    the others, a number-number pair only in its number's block.
    """
    checkpoint(more=2 * len(matrix) * len(cells))  # the rows seen on ``cells``, in the order read
    seen = np.ascontiguousarray(matrix[:, list(cells)])
    if len(seen) * len(seen) <= _JOIN_LEAF:
        return _pairs_at_once(seen, max_pairs)
    width = seen.shape[1]
    seen = np.ascontiguousarray(seen[:, np.argsort(-_variety(seen), kind="stable")])
    packed = _packed(seen)
    leaf = _JOIN_LEAF if packed is None else _PACKED_LEAF
    found_a: list[np.ndarray] = []
    found_b: list[np.ndarray] = []
    found = [0]  # pairs found so far

    def compare(xs: np.ndarray, ys: np.ndarray, depth: int, same: bool) -> None:
        if packed is not None:  # eight cells a word, each a byte that meets the other's when alike
            checkpoint(more=len(xs) * len(ys) * 40)  # the words met, four at a time, and the answer
            ok = np.ones((len(xs), len(ys)), dtype=bool)
            for word in packed:
                met = word[xs][:, None] & word[ys][None, :]
                ok &= (((met & _LOW) + _LOW) | met) & _HIGH == _HIGH
        else:
            checkpoint(more=len(xs) * len(ys) * (width - depth) * 3)  # the comparisons, three bytes a cell
            a, b = seen[xs, depth:][:, None, :], seen[ys, depth:][None, :, :]
            ok = ((a == b) | (a == MINE) | (b == MINE)).all(axis=2)
        i, j = np.nonzero(ok)
        if same:  # each pair once, and no row with itself
            above = i < j
            i, j = i[above], j[above]
        if len(i):
            found_a.append(np.minimum(xs[i], ys[j]))
            found_b.append(np.maximum(xs[i], ys[j]))
            found[0] += len(i)
            if max_pairs is not None and found[0] > max_pairs:
                said = f"more than {max_pairs} alike pairs among {len(seen)} layouts"
                raise TooAlike(said, found[0], max_pairs)

    # The blocks still to compare, a stack of (rows, other rows or None for "among themselves",
    # depth): a walk of its own rather than a recursion, which would go as deep as the cells.
    todo: list[tuple[np.ndarray, np.ndarray | None, int]] = [(np.arange(len(seen)), None, 0)]
    while todo:
        xs, ys, depth = todo.pop()
        checkpoint()
        if ys is None:  # every pair within xs
            if len(xs) < 2:
                continue
            if depth == width or len(xs) * len(xs) <= leaf:
                compare(xs, xs, depth, True)
                continue
            column = seen[xs, depth]
            mine = column == MINE
            shown, numbers = xs[~mine], column[~mine]
            order = np.argsort(numbers, kind="stable")
            shown, numbers = shown[order], numbers[order]
            parts = np.split(shown, np.flatnonzero(np.diff(numbers)) + 1)
            todo.extend((part, None, depth + 1) for part in parts)
            todo.append((xs[mine], xs[~mine], depth + 1))
            todo.append((xs[mine], None, depth + 1))
            continue
        # every pair of one row of xs and one of ys
        if not len(xs) or not len(ys):
            continue
        if depth == width or len(xs) * len(ys) <= leaf:
            compare(xs, ys, depth, False)
            continue
        cx, cy = seen[xs, depth], seen[ys, depth]
        mx, my = cx == MINE, cy == MINE
        rest_x, rest_y, cx, cy = xs[~mx], ys[~my], cx[~mx], cy[~my]
        todo.extend((rest_x[cx == v], rest_y[cy == v], depth + 1) for v in np.intersect1d(cx, cy))
        todo.append((ys[my], rest_x, depth + 1))
        todo.append((xs[mx], ys, depth + 1))

    if not found_a:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    checkpoint(more=48 * found[0])  # the pairs joined, the order that sorts them, and sorted
    a, b = np.concatenate(found_a).astype(np.int64), np.concatenate(found_b).astype(np.int64)
    order = np.lexsort((b, a))
    return a[order], b[order]


def _pairs_at_once(seen: np.ndarray, max_pairs: int | None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`alike_pairs` of a list short enough to compare every pair at once, cell by cell.

    The walk compares such a list whole before it splits it, so the order of its cells, the
    packed words and the blocks it would make are not needed (a hundred microseconds of numpy
    calls on a list of two layouts, a third of the search).

    >>> _pairs_at_once(np.array([[9, 1, 1], [1, 9, 1], [2, 2, 9]], dtype=np.uint8), None)
    (array([0]), array([1]))
    """
    checkpoint(more=len(seen) * len(seen) * seen.shape[1] * 3)  # the comparisons, three bytes a cell
    a, b = seen[:, None, :], seen[None, :, :]
    ok = ((a == b) | (a == MINE) | (b == MINE)).all(axis=2)
    i, j = np.nonzero(np.triu(ok, 1))  # row by row: each pair once, sorted as the walk sorts them
    if max_pairs is not None and len(i) > max_pairs:
        raise TooAlike(f"more than {max_pairs} alike pairs among {len(seen)} layouts", len(i), max_pairs)
    return i.astype(np.int64), j.astype(np.int64)


#: In a packed row (:func:`_packed`): each byte's low seven bits, and its top bit.
_LOW = np.uint64(0x7F7F7F7F7F7F7F7F)
_HIGH = np.uint64(0x8080808080808080)


def _packed(seen: np.ndarray) -> np.ndarray | None:
    """The rows of ``seen`` with each cell a byte, eight cells a word, such that two rows are alike
    exactly when every byte of one meets (shares a bit with) the same byte of the other, word by
    word (row ``k`` of the answer is every row's ``k``-th word); ``None``
    when a cell shows more than eight numbers (a byte cannot name them apart).

    Each number a cell shows gets a bit of its own (in the order of the numbers), a mine all eight:
    a mine then meets any number, and two numbers meet only when equal. A byte past the last cell
    is all ones. One ``&`` of two words then compares eight cells, and a byte's test for zero is
    a carry into its top bit.

    >>> words = _packed(np.array([[MINE, 2], [1, 2], [1, 3]], dtype=np.uint8))
    >>> [hex(int(word)) for word in words[0]]
    ['0xffffffffffff01ff', '0xffffffffffff0101', '0xffffffffffff0201']
    """
    rows, width = seen.shape
    shown = np.zeros((width, MINE + 1), dtype=bool)
    across = np.arange(width)
    block = max(1, (1 << 21) // max(1, width))  # about 16 MB of indices (eight bytes each) at a time
    for first in range(0, rows, block):
        checkpoint(more=16 * width * min(block, rows - first))  # the indices, as numpy reads them
        shown[across, seen[first:first + block]] = True  # every row's value of every cell at once
    numbers = shown[:, :MINE]
    if int(numbers.sum(axis=1).max(initial=0)) > 8:
        return None
    rank = np.cumsum(numbers, axis=1) - 1
    table = np.zeros((width, MINE + 1), dtype=np.uint8)
    table[:, :MINE] = np.where(numbers, np.left_shift(1, np.maximum(rank, 0)), 0)
    table[:, MINE] = 0xFF
    words = (width + 7) // 8
    checkpoint(more=rows * words * 16)  # the bytes, and the words read from them
    out = np.full((rows, words * 8), 0xFF, dtype=np.uint8)
    for first in range(0, rows, block):
        checkpoint(more=16 * width * min(block, rows - first))
        out[first:first + block, :width] = table[across, seen[first:first + block]]
    return np.ascontiguousarray(out.view(np.uint64).T)


def _variety(seen: np.ndarray) -> np.ndarray:
    """How varied each column is: the entropy of the numbers it shows (a mine as a number).

    >>> same, split = _variety(np.array([[0, 1], [0, 2]], dtype=np.uint8)).tolist()
    >>> same == 0.0, round(split, 3)
    (True, 0.693)
    """
    rows, width = seen.shape
    variety = np.zeros(width)
    block = max(1, (1 << 21) // max(1, rows))  # about 16 MB of keys (eight bytes each) at a time
    for first in range(0, width, block):
        checkpoint(more=16 * rows * min(block, width - first))  # the keys, and the numbers they come from
        part = seen[:, first:first + block]
        span = part.shape[1]
        # Each value of each column counted at once: column j's value v goes to bin j * (MINE + 1) + v.
        keys = part.astype(np.int64) + np.arange(span, dtype=np.int64) * (MINE + 1)
        counts = np.bincount(keys.ravel(), minlength=span * (MINE + 1)).reshape(span, MINE + 1)
        share = counts / rows
        logs = np.log(np.where(counts > 0, share, 1.0))
        variety[first:first + span] = -(share * logs).sum(axis=1)
    return variety


def tabulate(matrix: np.ndarray, cells: Sequence[int]) -> Alike | SparseAlike | NoTable:
    """The look-alike table of the layouts ``matrix`` (alike on ``cells``), or
    :class:`NoTable` when they have more pairs than :func:`pair_limit` allows.

    >>> row = np.array([[9, 9, 1], [9, 1, 9], [1, 9, 9]], dtype=np.uint8)  # 1x3, two mines
    >>> tabulate(row, [0, 1, 2]).cover(0b111)
    1
    """
    try:
        pairs = alike_pairs(matrix, cells, pair_limit(len(matrix)))
    except TooAlike:
        return NoTable(matrix)
    return alike_table(len(matrix), *pairs)


def alike_table(size: int, a: np.ndarray, b: np.ndarray) -> Alike | SparseAlike:
    """The table of a list of ``size`` layouts whose alike pairs are ``a[k], b[k]``."""
    if size > LOCAL_SIZE:
        return SparseAlike(size, a, b)
    rows: dict[int, int] = {}
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        rows[x] = rows.get(x, 1 << x) | 1 << y
        rows[y] = rows.get(y, 1 << y) | 1 << x
    lonely = (1 << size) - 1
    for x in rows:
        lonely &= ~(1 << x)
    return Alike(lonely, rows, size)


def _inside(subset: int, size: int) -> np.ndarray:
    """``subset`` as a boolean vector of ``size`` elements."""
    raw = np.frombuffer(subset.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:size].astype(bool)


def _greedy(rest: int, others: list[int]) -> int:
    """The groups of the greedy split of ``rest`` (:meth:`Alike.cover`), ``others[x]`` the look-alikes
    of layout ``x`` but itself.

    >>> _greedy(0b1111, [0b0010, 0b0001, 0b1000, 0b0100])   # 0 with 1, 2 with 3
    2
    """
    groups = 0
    while rest:
        low = rest & -rest
        grow = others[low.bit_length() - 1] & rest
        rest ^= low
        while grow:  # the next member is the lowest layout alike to every member so far
            nxt = grow & -grow
            rest ^= nxt
            grow &= others[nxt.bit_length() - 1]
        groups += 1
    return groups


class Alike:
    """The look-alikes of a short list of layouts, as bit sets: at most one of each group is won.

    Most layouts are alike to no other (``lonely``, a bit set); ``rows`` maps
    each of the others to the bit set of its look-alikes (itself included).
    """

    __slots__ = ("cache", "crowded", "lonely", "others", "rows")

    def __init__(self, lonely: int, rows: dict[int, int], size: int) -> None:
        self.lonely = lonely
        self.rows = rows
        self.cache: dict[int, int] = {}
        #: The layouts alike to some other, and each layout's look-alikes but itself (0 for a lonely
        #: one), by index: the greedy split reads them once for each layout it groups.
        self.crowded = ((1 << size) - 1) & ~lonely
        others = [0] * size
        for x, row in rows.items():
            others[x] = row & ~(1 << x)
        self.others = others

    def cover(self, subset: int) -> int:
        """How many groups of mutually alike layouts a greedy split of ``subset`` makes.

        Each group is started by its lowest layout and grown by every later one
        alike to all its members so far. A perfect player wins at most one
        layout of each group, so the count bounds the value of ``subset``.

        >>> Alike(0b100, {0: 0b011, 1: 0b011}, 3).cover(0b111)     # layouts 0 and 1 look alike
        2
        """
        rest = subset & self.crowded
        if not rest:
            return subset.bit_count()
        cache = self.cache
        if (found := cache.get(subset)) is not None:
            return found
        # The lonely ones make a group each.
        groups = subset.bit_count() - rest.bit_count() + _greedy(rest, self.others)
        cache[subset] = groups
        return groups

    def restrict(self, subset: int, index: np.ndarray) -> Alike:
        """The table for the layouts ``index`` (the members of ``subset``), renumbered 0, 1, ..."""
        where: dict[int, int] | None = None
        rows: dict[int, int] = {}
        lonely = 0
        for new, old in enumerate(index.tolist()):
            row = self.rows.get(old)
            if row is not None:
                row &= subset
            if row is None or row == 1 << old:
                lonely |= 1 << new
                continue
            if where is None:
                where = {o: n for n, o in enumerate(index.tolist())}
            bits = 0
            while row:
                low = row & -row
                bits |= 1 << where[low.bit_length() - 1]
                row ^= low
            rows[new] = bits
        return Alike(lonely, rows, len(index))


class SparseAlike:
    """The look-alikes of a long list of layouts: the pairs ``a[k] < b[k]`` (index arrays, ``a`` ascending).

    Its :meth:`cover` counts the groups of one split of the whole list into
    mutually alike groups (made greedily once, as :meth:`Alike.cover` does)
    that meet the subset: a subset of a group of mutually alike layouts is
    one, so this is a valid bound, one ``numpy`` pass instead of a walk. For
    two layouts it is exact (1 when they are alike), as the search relies on.

    >>> SparseAlike(3, np.array([0]), np.array([1])).cover(0b111)
    2
    """

    __slots__ = ("_alike_to_some", "_their_group", "a", "b", "group", "size")

    def __init__(self, size: int, a: np.ndarray, b: np.ndarray) -> None:
        self.size = size
        self.a = a
        self.b = b
        self.group: np.ndarray | None = None
        self._alike_to_some = self._their_group = np.zeros(0, dtype=np.int64)

    def _groups(self) -> np.ndarray:
        """Each layout's group in the greedy split of the whole list; -1 for a layout alike to none.

        Each layout's look-alikes are read from the pairs sorted by layout
        (a slice of one array each, not a set per layout: a long list can
        have millions of pairs).
        """
        size = self.size
        group = np.full(size, -1, dtype=np.int64)
        checkpoint(more=48 * len(self.a))  # the pairs both ways, sorted, and the order that sorts them
        ends = np.concatenate([self.a, self.b])
        order = np.argsort(ends, kind="stable")
        other = np.concatenate([self.b, self.a])[order]
        start = np.zeros(size + 1, dtype=np.int64)
        np.cumsum(np.bincount(ends, minlength=size), out=start[1:])
        del ends, order
        rest = np.zeros(size, dtype=bool)  # alike to some layout, and in no group yet
        rest[self.a] = rest[self.b] = True
        for k, low in enumerate(np.flatnonzero(rest).tolist()):
            if not rest[low]:
                continue
            if not k % 1024:
                checkpoint()
            rest[low] = False
            group[low] = low
            grow = {y for y in other[start[low]:start[low + 1]].tolist() if rest[y]}
            while grow:
                nxt = min(grow)
                rest[nxt] = False
                group[nxt] = low
                grow.intersection_update(other[start[nxt]:start[nxt + 1]].tolist())
        return group

    def cover(self, subset: int) -> int:
        """How many groups of the split of the whole list hold a layout of ``subset``."""
        m = subset.bit_count()
        if not len(self.a) or m < 2:
            return m
        if m == 2:  # exact for two layouts, as the search takes it: one group when they are alike
            x = (subset & -subset).bit_length() - 1
            y = subset.bit_length() - 1
            at = np.searchsorted(self.a, x, side="left"), np.searchsorted(self.a, x, side="right")
            return 1 if y in self.b[at[0]:at[1]].tolist() else 2
        if self.group is None:
            self.group = self._groups()
            self._alike_to_some = np.flatnonzero(self.group >= 0)
            self._their_group = self.group[self._alike_to_some]
        shared = self._their_group[_inside(subset, self.size)[self._alike_to_some]]
        met = np.zeros(self.size, dtype=bool)
        met[shared] = True  # a group is named by its first layout
        return m - len(shared) + int(np.count_nonzero(met))

    def restrict(self, subset: int, index: np.ndarray) -> Alike | SparseAlike:
        """The table for the layouts ``index`` (the members of ``subset``), renumbered 0, 1, ..."""
        renumber = np.full(self.size, -1, dtype=np.int64)
        renumber[index] = np.arange(len(index))
        a, b = renumber[self.a], renumber[self.b]
        keep = (a >= 0) & (b >= 0)
        return alike_table(len(index), a[keep], b[keep])


class NoTable:
    """The stand-in for the table of a list with too many alike pairs (:func:`tabulate`).

    Its cover of a set is the set's size, a valid bound that prunes nothing,
    save for two layouts, where the search takes the cover as the exact value:
    one when the two look alike, as it is for the tables.

    >>> table = NoTable(np.array([[9, 1], [1, 9], [2, 2]], dtype=np.uint8))
    >>> table.cover(0b011), table.cover(0b101), table.cover(0b111)
    (1, 2, 3)
    """

    __slots__ = ("matrix",)

    def __init__(self, matrix: np.ndarray) -> None:
        self.matrix = matrix

    def cover(self, subset: int) -> int:
        m = subset.bit_count()
        if m != 2:
            return m
        x, y = self.matrix[(subset & -subset).bit_length() - 1], self.matrix[subset.bit_length() - 1]
        alike = bool(((x == y) | (x == MINE) | (y == MINE)).all())
        return 1 if alike else 2

    def restrict(self, subset: int, index: np.ndarray) -> NoTable:
        """A smaller list of a list this alike is no table either (for the same reason, mostly)."""
        return NoTable(self.matrix[index])
