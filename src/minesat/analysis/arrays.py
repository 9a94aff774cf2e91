"""A position read whole as numpy arrays: the numbers, what each sees and needs, and what links them.

On a big board a Python object per cell or per number costs more than the
analysis itself (a 1000x1000 position has half a million numbers). Here a
position is a handful of arrays, each step one pass over them in numpy:

- :func:`read_numbers`: every number with a covered neighbour, its covered
  neighbours (eight slots, ``-1`` where there is none) and the mines they hold
  (its value less its flagged neighbours);
- :func:`settle`: the single-number rules to their fixpoint (a number whose
  mines are all known clears its other cells; one that needs every open cell
  mines them), as :func:`~minesat.analysis.classify.local_rules` applies them;
- :func:`linked`: which cells are linked through numbers (connected groups by
  the smallest cell index in each, so a group's label is its first cell row-major).

Cells are flat row-major indices (``row * cols + col``) throughout.

>>> from minesat.board import Position
>>> numbers = read_numbers(Position.from_rows(["1?", "1?", "1?"]))
>>> numbers.source.tolist(), numbers.need.tolist()
([0, 2, 4], [1, 1, 1])
>>> linked(numbers, numbers.covered).tolist()     # one group: the numbers link every covered cell
[-1, 1, -1, 1, -1, 1]
>>> numbers = read_numbers(Position.from_rows(["0?", "??"]))
>>> value = numbers.undecided()
>>> settle(numbers, value).tolist(), value[:-1].tolist()   # the 0 clears its three neighbours
([1, 2, 3], [-1, 0, 0, 0])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from minesat.analysis.result import Analysis
from minesat.board import COVERED, FLAG, Cell, Position
from minesat.budget import checkpoint

__all__ = [
    "AROUND",
    "INDEX",
    "Broken",
    "Numbers",
    "Open",
    "analysis_of",
    "linked",
    "namer",
    "open_numbers",
    "read_numbers",
    "settle",
    "watching",
]

#: The eight neighbours of a cell as (row, column) offsets, in ascending flat order.
AROUND = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

#: The index type of cells and numbers: a board has at most a million cells.
INDEX = np.int32


@dataclass(frozen=True)
class Numbers:
    """The numbers of a position that see a covered cell, as arrays (see :func:`read_numbers`).

    ``members[f]`` lists number ``f``'s covered neighbours in ascending order with
    ``-1`` in the other slots; ``need[f]`` the mines among them; ``source[f]`` where
    the number is. ``broken`` is the first number (row-major) the flags and covered
    cells around it cannot satisfy, or ``None``.
    """

    rows: int
    cols: int
    state: np.ndarray  # per cell: COVERED, FLAG or the number shown
    covered: np.ndarray  # per cell: covered and not flagged
    flags: int
    source: np.ndarray
    members: np.ndarray
    need: np.ndarray
    broken: int | None

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def undecided(self) -> np.ndarray:
        """A value per cell, ``-1`` (undecided) everywhere, with one cell more at the end that
        reads ``0`` (safe): a ``-1`` slot of :attr:`members` indexes it, and counts for nothing."""
        value = np.full(self.size + 1, -1, dtype=np.int8)
        value[-1] = 0
        return value

    @cached_property
    def frontier(self) -> np.ndarray:
        """Per cell: covered and next to a number."""
        seen = np.zeros(self.size + 1, dtype=bool)
        seen[self.members] = True
        return seen[:-1]

    @cached_property
    def number_at(self) -> np.ndarray:
        """Per cell (and the pad after them): the row of its number in the arrays, or -1."""
        at = np.full(self.size + 1, -1, dtype=INDEX)
        at[self.source] = np.arange(len(self.source), dtype=INDEX)
        return at


def read_numbers(position: Position) -> Numbers:
    """The position's numbers as arrays.

    >>> numbers = read_numbers(Position.from_rows(["2*", "??"]))
    >>> numbers.members.tolist()[0], numbers.need.tolist(), numbers.flags, numbers.broken
    ([-1, -1, -1, -1, -1, -1, 2, 3], [1], 1, None)
    """
    rows, cols = position.rows, position.cols
    size = rows * cols
    state = np.fromiter(position.cells, dtype=np.int8, count=size)
    covered = state == COVERED
    flagged = state == FLAG
    numbers = np.flatnonzero(state >= 0).astype(INDEX)
    r, c = np.divmod(numbers, cols)
    around = np.full((len(numbers), 8), -1, dtype=INDEX)
    flag_count = np.zeros(len(numbers), dtype=np.int16)
    for k, (dr, dc) in enumerate(AROUND):
        rr, cc = r + dr, c + dc
        inside = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
        where = np.where(inside, rr * cols + cc, 0)
        around[:, k] = np.where(inside & covered[where], where, -1)
        flag_count += inside & flagged[where]
    need = state[numbers].astype(np.int16) - flag_count
    open_count = (around >= 0).sum(axis=1)
    bad = (need < 0) | (need > open_count)
    broken = int(numbers[np.argmax(bad)]) if bad.any() else None
    keep = open_count > 0
    return Numbers(
        rows, cols, state, covered, int(flagged.sum()), numbers[keep], around[keep], need[keep], broken
    )


class Broken(Exception):
    """The single-number rules break a number: it cannot be satisfied (``source``: where it is)."""

    def __init__(self, source: int) -> None:
        super().__init__(source)
        self.source = source


def settle(numbers: Numbers, value: np.ndarray, active: np.ndarray | None = None) -> np.ndarray:
    """The single-number rules to their fixpoint, writing ``value`` (0 safe, 1 mine; see
    :meth:`Numbers.undecided`); the cells they decided. The fixpoint is the one
    :func:`~minesat.analysis.classify.local_rules` reaches: each rule only adds a
    certainty, so the order they fire in does not matter. :class:`Broken` when a number
    ends with too many or too few mines (then nothing is claimed of the others).

    Each round looks only at the numbers around the cells the last round decided; the
    first at ``active`` (rows of the arrays; default: every number).
    """
    members, need = numbers.members, numbers.need
    if active is None:
        active = np.arange(len(need))
    decided = []
    while active.size:
        checkpoint()
        m = members[active]
        v = value[m]
        unknown = v < 0
        left = need[active] - (v == 1).sum(axis=1)
        u = unknown.sum(axis=1)
        bad = (left < 0) | (left > u)
        if bad.any():
            raise Broken(int(numbers.source[active[np.argmax(bad)]]))
        clear = (left == 0) & (u > 0)
        fill = (left == u) & (u > 0)
        to_clear = m[clear[:, None] & unknown]
        to_fill = m[fill[:, None] & unknown]
        if not (to_clear.size or to_fill.size):
            break
        value[to_clear] = 0
        value[to_fill] = 1
        if value[to_clear].any() or (value[to_fill] != 1).any():
            # One number cleared a cell another filled in the same round.
            both = np.intersect1d(to_clear, to_fill)[0]
            raise Broken(int(numbers.source[watching(numbers, np.array([both]))[0]]))
        decided.append(np.concatenate((to_clear, to_fill)))
        active = watching(numbers, decided[-1])
    return np.unique(np.concatenate(decided)) if decided else np.zeros(0, dtype=INDEX)


@dataclass(frozen=True)
class Open:
    """The numbers the rules left open, as arrays: each one's undecided cells (``members``, ``-1``
    in the other slots), the mines they still hold (``still``) and where it stands (``source``)."""

    members: np.ndarray
    still: np.ndarray
    source: np.ndarray


def open_numbers(numbers: Numbers, value: np.ndarray) -> Open:
    """The numbers with an undecided cell, seeing only their undecided cells (``value`` as
    :func:`settle` leaves it).

    >>> numbers = read_numbers(Position.from_rows(["1??", "1??"]))
    >>> value = numbers.undecided()
    >>> value[1] = 1                                  # A2 is known to be a mine
    >>> left = open_numbers(numbers, value)
    >>> left.members.tolist(), left.still.tolist()   # each 1 sees B2 alone, and needs nothing
    ([[-1, -1, -1, -1, -1, -1, -1, 4], [-1, -1, -1, -1, 4, -1, -1, -1]], [0, 0])
    """
    seen = value[numbers.members]
    members = np.where(seen < 0, numbers.members, -1)
    still = numbers.need - (seen == 1).sum(axis=1)
    live = (members >= 0).any(axis=1)
    return Open(members[live], still[live], numbers.source[live])


def watching(numbers: Numbers, cells: np.ndarray) -> np.ndarray:
    """The rows of the numbers that see any of ``cells`` (each once, ascending).

    Marks in arrays as long as the board, not sorting: a round of the rules on a big
    board decides tens of thousands of cells (a few are sorted instead: the later rounds
    of propagation along a chain decide a handful each, and must not cost the board).
    """
    rows, cols = numbers.rows, numbers.cols
    if cells.size * 64 < numbers.size:  # a few cells (a late round): sorted, not marked on the whole board
        where = np.unique(cells)
        where = where[where < numbers.size]
    else:
        marked = np.zeros(numbers.size + 1, dtype=bool)
        marked[cells] = True
        where = np.flatnonzero(marked[:-1])
    r, c = np.divmod(where, cols)
    seen = np.zeros(len(numbers.source) + 1, dtype=bool)  # the last slot: "no number there"
    for dr, dc in AROUND:
        rr, cc = r + dr, c + dc
        inside = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
        seen[numbers.number_at[np.where(inside, rr * cols + cc, numbers.size)]] = True
    return np.flatnonzero(seen[:-1])


def linked(numbers: Numbers, open_cells: np.ndarray, members: np.ndarray | None = None) -> np.ndarray:
    """Per cell: the first cell (row-major) of its group, ``-1`` for cells not in ``open_cells``.

    Two cells of ``open_cells`` are in one group when a number sees both, or a chain of
    such numbers links them; ``members`` (default: the numbers' own) says what each
    number sees. The groups are found by hooking each group's label onto the smallest
    label it meets and shortening the pointers, a few passes over the links.
    """
    members = numbers.members if members is None else members
    inside = np.concatenate((open_cells, [False]))[members]
    first = np.where(inside, members, numbers.size).min(axis=1)
    a = np.broadcast_to(first[:, None], members.shape)[inside]
    b = members[inside]
    label = _smallest_linked(numbers.size, a, b)
    return np.where(open_cells, label, -1)


def _smallest_linked(size: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``label[i]``: the smallest node linked to ``i`` through the edges ``a[k] - b[k]``."""
    label = np.arange(size, dtype=INDEX)
    while True:
        checkpoint()
        la, lb = label[a], label[b]
        apart = la != lb
        if not apart.any():
            return label
        a, b, la, lb = a[apart], b[apart], la[apart], lb[apart]
        # Hook the larger root onto the smaller (labels are roots here: see below).
        np.minimum.at(label, np.maximum(la, lb), np.minimum(la, lb))
        # Every node to its root: follow the pointers until none moves.
        while True:
            up = label[label]
            if np.array_equal(up, label):
                break
            label = up


def namer(rows: int, cols: int) -> Callable[[np.ndarray], list[Cell]]:
    """``(row, col)`` tuples of flat indices, sharing their int objects (one per row and column:
    a tuple of two fresh ints costs twice the memory).

    >>> namer(3, 4)(np.array([0, 5, 11]))
    [(0, 0), (1, 1), (2, 3)]
    """
    get = list(range(max(rows, cols))).__getitem__

    def name(flat: np.ndarray) -> list[Cell]:
        r, c = np.divmod(flat, cols)
        return list(zip(map(get, r.tolist()), map(get, c.tolist()), strict=True))

    return name


def analysis_of(
    position: Position,
    total: int | None,
    safe: np.ndarray,
    mine: np.ndarray,
    probability: np.ndarray,
    *,
    components: int,
    exact: bool,
    why: str | None = None,
    consistent: bool | None = True,
    layouts: int | None = None,
) -> Analysis:
    """The Analysis of arrays, as :func:`~minesat.analysis.result.build_analysis` builds it from
    sets: ``safe`` and ``mine`` per cell (covered cells proved so), ``probability`` per cell
    (NaN reads ``None``; flags read 1 and uncovered cells ``None`` whatever it holds).

    One float object stands for each distinct probability, shared by every cell that has
    it (a million cells of a game's position hold a few thousand values): less memory, and
    each value written out once (:func:`~minesat.analysis.result.json_chunks`).

    >>> position = Position.from_rows(["1?", "1?"], mines=1)
    >>> p = np.array([np.nan, 0.5, np.nan, 0.5])
    >>> no = np.zeros(4, dtype=bool)
    >>> a = analysis_of(position, 1, no, no, p, components=1, exact=True)
    >>> a.unknown, a.probability
    (((0, 1), (1, 1)), ((None, 0.5), (None, 0.5)))
    """
    rows, cols = position.rows, position.cols
    state = np.fromiter(position.cells, dtype=np.int8, count=rows * cols)
    covered = state == COVERED
    probability = np.where(covered, probability, np.nan)
    probability[state == FLAG] = 1.0
    name = namer(rows, cols)
    values, inverse = np.unique(probability, return_inverse=True)
    shared = np.empty(len(values), dtype=object)
    shared[:] = [None if v != v else v for v in values.tolist()]
    grid = shared[inverse.reshape(-1)]
    return Analysis(
        rows=rows,
        cols=cols,
        mines=total,
        safe=tuple(name(np.flatnonzero(safe & covered))),
        mine=tuple(name(np.flatnonzero(mine & covered))),
        unknown=tuple(name(np.flatnonzero(covered & ~safe & ~mine))),
        probability=tuple(map(tuple, grid.reshape(rows, cols).tolist())),
        components=components,
        exact=exact,
        why=None if exact else why,
        consistent=consistent,
        layouts=layouts,
        position=position,
    )
