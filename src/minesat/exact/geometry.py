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

from collections.abc import Sequence
from functools import cached_property, lru_cache
from operator import itemgetter

import numpy as np

from minesat.board import Cell, neighbour_table

#: What a layout matrix holds for a mine (numbers are 0..8).
MINE = 9

#: What a position holds for a cell not uncovered yet.
COVERED = 10

#: What a position holds for a flagged cell (a mine in every layout the search lists).
FLAGGED = 11


#: Most layouts a search lists (a byte per cell each, and bit sets over them): past
#: this a board is refused as too large, rather than exhausting memory.
MAX_LAYOUTS = 4_000_000


class TooManyLayouts(Exception):
    """More layouts than a search lists (:data:`MAX_LAYOUTS`)."""

    def __init__(self, layouts: int) -> None:
        super().__init__(f"{layouts} layouts: more than the {MAX_LAYOUTS} the search lists")
        self.layouts = layouts


class Board:
    """A ``rows`` x ``cols`` board: neighbours, and the symmetries that map it onto itself.

    Every board has four (the identity, two mirrors, the half turn); a square
    one has eight (the quarter turns and the diagonal mirrors too).
    ``symmetries[k][i]`` is the cell that cell ``i`` goes to under symmetry ``k``.
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.cells = rows * cols
        self.neighbours: tuple[tuple[int, ...], ...] = neighbour_table(rows, cols)
        #: The neighbours of each cell as a bit set (cell ``j`` at bit ``j``).
        self.around: tuple[int, ...] = tuple(sum(1 << j for j in near) for near in self.neighbours)
        r1, c1 = rows - 1, cols - 1
        maps = [
            lambda r, c: (r, c),
            lambda r, c: (r1 - r, c),
            lambda r, c: (r, c1 - c),
            lambda r, c: (r1 - r, c1 - c),
        ]
        if rows == cols:
            maps += [
                lambda r, c: (c, r),
                lambda r, c: (c1 - c, r),
                lambda r, c: (c, r1 - r),
                lambda r, c: (c1 - c, r1 - r),
            ]
        self.symmetries: list[tuple[int, ...]] = []
        for f in maps:
            image = []
            for i in range(self.cells):
                r, c = f(*divmod(i, cols))
                image.append(r * cols + c)
            self.symmetries.append(tuple(image))
        # A square board's transpose (its own inverse), read cell by cell: the image of position p
        # under the symmetry is p read through its inverse.
        self._transpose = itemgetter(*self.symmetries[4]) if rows == cols and self.cells > 1 else None

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

    def _mirrors(self, position: bytes) -> list[bytes]:
        """The position, its rows in reverse order, each row reversed, and the half turn."""
        cols = self.cols
        upside_down = b"".join([position[at:at + cols] for at in range(self.cells - cols, -1, -cols)])
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
        return [i for i in range(self.cells) if all(image[i] >= i for image in self.symmetries)]

    @cached_property
    def adjacency(self) -> np.ndarray:
        """``adjacency[i]`` is 1 at the neighbours of cell ``i``."""
        matrix = np.zeros((self.cells, self.cells), dtype=np.uint8)
        for i, around in enumerate(self.neighbours):
            matrix[i, list(around)] = 1
        return matrix


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


def layouts_matrix(board: Board, pool: Sequence[int], mines: int) -> np.ndarray:
    """Every layout with ``mines`` mines among the cells ``pool``, as rows of numbers and :data:`MINE`.

    The rows come in lexicographic order of their mine cells (as ``pool`` lists them).
    """
    chosen = np.asarray(pool, dtype=np.int32)[combinations_array(len(pool), mines)]
    adjacency = board.adjacency
    counts = np.zeros((len(chosen), board.cells), dtype=np.uint8)
    for j in range(mines):
        counts += adjacency[chosen[:, j]]
    if mines:
        np.put_along_axis(counts, chosen.astype(np.intp), MINE, axis=1)
    return counts
