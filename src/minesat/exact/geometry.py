"""The board as the perfect-play search sees it: symmetries, and every layout listed as a matrix.

A layout is one row of a ``numpy`` matrix with a byte per cell: the number the
cell would show (0..8), or :data:`MINE`. A position is ``bytes`` of the same
length, :data:`COVERED` where nothing is seen yet. Both are read by cell index
``row * cols + col``.

>>> board = Board(2, 2)
>>> len(board.symmetries), board.orbit_representatives()
(8, [0])
>>> layouts_matrix(board, pool=[1, 2, 3], mines=1).tolist()
[[1, 9, 1, 1], [1, 1, 9, 1], [1, 1, 1, 9]]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property, lru_cache
from math import comb
from operator import itemgetter

import numpy as np

from minesat.board import Cell, neighbour_table
from minesat.budget import ListingRefused, checkpoint

__all__ = [
    "COMBINATIONS_BLOCK",
    "COVERED",
    "FLAGGED",
    "MINE",
    "Board",
    "TooManyLayouts",
    "bit_set",
    "combination_blocks",
    "combinations_array",
    "layout_numbers",
    "layouts_matrix",
]

#: What a layout matrix holds for a mine (numbers are 0..8).
MINE = 9

#: What a position holds for a cell not uncovered yet.
COVERED = 10

#: What a position holds for a flagged cell (a mine in every layout the search lists).
FLAGGED = 11


#: More layouts than a search lists, or a listing past its memory: the one refusal,
#: :class:`~minesat.errors.ListingRefused` (this name kept for the code that imports it from here).
TooManyLayouts = ListingRefused


class Board:
    """A ``rows`` x ``cols`` board: neighbours, and the symmetries that map it onto itself.

    Every board has four (the identity, two mirrors, the half turn); a square
    one has eight (the quarter turns and the diagonal mirrors too).
    ``symmetries[k][i]`` is the cell that cell ``i`` goes to under symmetry ``k``.
    Each table is built when first used, so a board the search never enters
    (a game with one layout) costs nothing however large.
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.cells = rows * cols

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        return neighbour_table(self.rows, self.cols)

    @cached_property
    def around(self) -> dict[int, int]:
        """The neighbours of each cell as a bit set (cell ``j`` at bit ``j``), made when first asked for:
        a cell far down a large board has a long one."""
        return _BitSets(self.neighbours)

    @cached_property
    def symmetries(self) -> list[tuple[int, ...]]:
        return [tuple(image.tolist()) for image in _images(self.rows, self.cols)]

    @cached_property
    def _transpose(self) -> itemgetter[bytes] | None:
        """A square board's transpose (its own inverse), read cell by cell: the image of position p
        under the symmetry is p read through its inverse."""
        if self.rows != self.cols or self.cells == 1:
            return None
        return itemgetter(*_images(self.rows, self.cols)[4].tolist())

    @staticmethod
    @lru_cache(maxsize=8)
    def of(rows: int, cols: int) -> Board:
        """The board of a size, built once per process (it never changes): the player's endgame
        searches many positions of one board."""
        return Board(rows, cols)

    def images(self, position: bytes) -> list[bytes]:
        """The position seen through every symmetry (the identity first), as :attr:`symmetries` lists them.

        The mirrors are slices of rows and reversals of bytes; a square board's other four
        are the same of the transpose.

        >>> [list(image) for image in Board(2, 3).images(bytes(range(6)))]
        [[0, 1, 2, 3, 4, 5], [3, 4, 5, 0, 1, 2], [2, 1, 0, 5, 4, 3], [5, 4, 3, 2, 1, 0]]
        """
        position = bytes(position)
        images = self._mirrors(position)
        if self.rows == self.cols:
            images += self._mirrors(bytes(self._transpose(position)) if self._transpose else position)
        return images

    @cached_property
    def _rows_upwards(self) -> itemgetter[slice] | None:
        """A position's rows, the last first, as slices read at once (``None`` for one row)."""
        cols = self.cols
        if self.rows == 1:
            return None
        return itemgetter(*[slice(at, at + cols) for at in range(self.cells - cols, -1, -cols)])

    def _mirrors(self, position: bytes) -> list[bytes]:
        """The position, its rows in reverse order, each row reversed, and the half turn."""
        rows = self._rows_upwards
        upside_down = position if rows is None else b"".join(rows(position))
        return [position, upside_down, upside_down[::-1], position[::-1]]

    def canonical(self, position: bytes) -> bytes:
        """The least image of ``position``: one key for a position and all its mirror images."""
        return min(self.images(position))

    def cell(self, i: int) -> Cell:
        return divmod(i, self.cols)

    def index(self, cell: Cell) -> int:
        return cell[0] * self.cols + cell[1]

    def orbit_representatives(self) -> list[int]:
        """One cell of each class of cells the symmetries map onto each other (the least index)."""
        images = _images(self.rows, self.cols)
        least = np.all(images >= np.arange(self.cells, dtype=images.dtype), axis=0)
        return np.flatnonzero(least).tolist()


class _BitSets(dict[int, int]):
    """Each cell's neighbours as a bit set, made the first time the cell is asked for."""

    def __init__(self, neighbours: tuple[tuple[int, ...], ...]) -> None:
        super().__init__()
        self.neighbours = neighbours

    def __missing__(self, i: int) -> int:
        bits = self[i] = sum(1 << j for j in self.neighbours[i])
        return bits


def _images(rows: int, cols: int) -> np.ndarray:
    """``images[k, i]``: the cell that cell ``i`` goes to under symmetry ``k`` (the identity first).

    >>> _images(1, 3).tolist()
    [[0, 1, 2], [0, 1, 2], [2, 1, 0], [2, 1, 0]]
    """
    r, c = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    r1, c1 = rows - 1, cols - 1
    maps = [(r, c), (r1 - r, c), (r, c1 - c), (r1 - r, c1 - c)]
    if rows == cols:
        maps += [(c, r), (c1 - c, r), (c, r1 - r), (c1 - c, r1 - r)]
    return np.stack([rr * cols + cc for rr, cc in maps])


def combinations_array(pool: int, k: int) -> np.ndarray:
    """Every ``k``-subset of ``range(pool)`` in lexicographic order, one per row.

    >>> combinations_array(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    >>> combinations_array(3, 0).shape
    (1, 0)
    """
    if k == 0:
        return np.zeros((1, 0), dtype=np.int32)
    if k > pool:
        return np.zeros((0, k), dtype=np.int32)
    rows = np.arange(pool - k + 1, dtype=np.int32)[:, None]
    for j in range(1, k):
        last = rows[:, -1]
        # Each row grows by every element after its last that still leaves room for the rest.
        counts = (pool - (k - j)) - last
        counts = np.maximum(counts, 0)
        grown = np.repeat(rows, counts, axis=0)
        offsets = np.arange(int(counts.sum()), dtype=np.int32) - np.repeat(np.cumsum(counts) - counts, counts)
        nxt = np.repeat(last + 1, counts) + offsets
        rows = np.hstack([grown, nxt[:, None].astype(np.int32)])
    return rows


def bit_set(flags: np.ndarray) -> int:
    """A boolean vector as a Python int, element ``i`` at bit ``i``: a set of layouts.

    >>> bin(bit_set(np.array([True, False, True])))
    '0b101'
    """
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


def combination_blocks(pool: int, k: int) -> Iterator[np.ndarray]:
    """:func:`combinations_array` ``(pool, k)`` in the same order, a block of rows at a time.

    Up to :data:`COMBINATIONS_BLOCK` rows come at once; more, one block for
    each first element (those that begin with 0, then with 1, ...), so that
    no more than a share ``k / pool`` of them is held at once.

    >>> [b.tolist() for b in combination_blocks(4, 2)]
    [[[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]]
    """
    if k == 0 or comb(pool, k) <= COMBINATIONS_BLOCK:
        yield combinations_array(pool, k)
        return
    for first in range(pool - k + 1):
        rest = combinations_array(pool - first - 1, k - 1)
        block = np.empty((len(rest), k), dtype=np.int32)
        block[:, 0] = first
        np.add(rest, first + 1, out=block[:, 1:])
        yield block


#: Most rows :func:`combination_blocks` hands out in one block before it splits them.
COMBINATIONS_BLOCK = 1 << 20


def layouts_matrix(board: Board, pool: Sequence[int], mines: int) -> np.ndarray:
    """Every layout with ``mines`` mines among the cells ``pool``, as rows of numbers and :data:`MINE`.

    The rows come in lexicographic order of their mine cells (as ``pool`` lists them).
    """
    cells = np.asarray(pool, dtype=np.int32)
    blocks = (cells[rows] for rows in combination_blocks(len(cells), mines))
    return _numbers(board.rows, board.cols, blocks, comb(len(cells), mines), mines)


def layout_numbers(rows: int, cols: int, chosen: np.ndarray, flags: Sequence[int] = ()) -> np.ndarray:
    """Layout ``k`` with mines at ``chosen[k]`` (and at ``flags``), as a row of numbers and :data:`MINE`.

    >>> layout_numbers(2, 2, np.array([[0], [3]])).tolist()
    [[9, 1, 1, 1], [1, 1, 1, 9]]
    >>> layout_numbers(1, 3, np.array([[1]]), flags=[0]).tolist()
    [[9, 9, 1]]
    """
    return _numbers(rows, cols, [chosen], len(chosen), chosen.shape[1], flags)


def _numbers(
    rows: int, cols: int, blocks: Iterable[np.ndarray], total: int, mines: int, flags: Sequence[int] = ()
) -> np.ndarray:
    """The layouts whose mines are the rows of ``blocks`` (``total`` rows of ``mines`` cells), as numbers.

    A step of layouts at a time, each layout's mines are set in a grid with a
    border of empty cells, and a cell's number is the sum of the grid moved
    one cell each of the eight ways: eight additions of the step's rows,
    however many mines each has (adding a row of an adjacency table per mine
    was 2 to 10 times slower on expert boards, and grew with the cells squared
    or with the mines). Work and memory grow with the layouts times the cells,
    the size of the answer. The budgets are checked between steps
    (:func:`~minesat.budget.checkpoint`), and the bytes before they are made.
    """
    size = rows * cols
    wide = cols + 2
    padded = (rows + 2) * wide
    # About 16 MB a step: its grid, its sums, and its mines' flat indices (with their temporaries).
    row = padded + size + 32 * mines
    step = max(1, (1 << 24) // row)
    checkpoint(more=total * size + min(total, step) * row)  # the answer, and one step
    flag_cells = np.asarray(list(flags), dtype=np.intp)
    flag_rows, flag_cols = np.divmod(flag_cells, cols)
    flagged = (flag_rows + 1) * wide + flag_cols + 1  # the flags' cells in the bordered grid
    ways = [(dr, dc) for dr in range(3) for dc in range(3) if (dr, dc) != (1, 1)]
    out = np.empty((total, size), dtype=np.uint8)
    at = 0
    for chosen in blocks:
        for first in range(0, len(chosen), step):
            checkpoint(more=(total - at) * size)  # the rows still to fill
            mined = chosen[first:first + step].astype(np.intp)
            n = len(mined)
            mine_rows, mine_cols = np.divmod(mined, cols)
            grid = np.zeros((n, padded), dtype=np.uint8)
            starts = np.arange(n, dtype=np.intp)[:, None]  # each layout's first cell, flat
            grid.reshape(-1)[(starts * padded + (mine_rows + 1) * wide + mine_cols + 1).reshape(-1)] = 1
            grid[:, flagged] = 1
            seen = grid.reshape(n, rows + 2, wide)
            part = out[at:at + n]
            sums = part.reshape(n, rows, cols)
            (dr, dc), (er, ec) = ways[0], ways[1]
            np.add(seen[:, dr:dr + rows, dc:dc + cols], seen[:, er:er + rows, ec:ec + cols], out=sums)
            for dr, dc in ways[2:]:
                sums += seen[:, dr:dr + rows, dc:dc + cols]
            part[:, flag_cells] = MINE
            part.reshape(-1)[(starts * size + mined).reshape(-1)] = MINE
            at += n
    return out
