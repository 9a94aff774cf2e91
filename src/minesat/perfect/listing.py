"""Every layout consistent with a position, listed: what an exact search from a position starts from.

The analysis counts layouts without listing them; the exact searches
(:func:`minesat.perfect.perfect_from_position`, the player's endgame) need
each one. A component of the frontier is solved cell by cell (a number can
take a value only while it keeps enough mines and enough room), the
components' solutions are combined, and the interior cells take the mines
left over in every way they can.

>>> cells, layouts = list_layouts(Position.from_rows(["1?", "??"], mines=1), limit=10)
>>> cells, sorted(layouts)
(((0, 1), (1, 0), (1, 1)), [1, 2, 4])
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import numpy as np

from minesat.analysis.constraints import Component, Frontier
from minesat.board import FLAG, Cell, Position
from minesat.perfect.geometry import COVERED, FLAGGED, MINE, Board

#: One board's geometry per shape, kept: a game asks for the same board again and again.
_board = lru_cache(maxsize=16)(Board)


def component_solutions(
    component: Component, bit: dict[Cell, int], cap: int
) -> list[tuple[int, int]] | None:
    """Every solution of one component as ``(mine bit set, mine count)``; ``None`` past ``cap``."""
    cells = component.cells
    constraints_of: dict[Cell, list[int]] = {cell: [] for cell in cells}
    for k, c in enumerate(component.constraints):
        for cell in c.cells:
            constraints_of[cell].append(k)
    need = [c.count for c in component.constraints]
    left = [len(c.cells) for c in component.constraints]  # cells of each number not yet assigned
    found: list[tuple[int, int]] = []

    def assign(i: int, mask: int, mines: int) -> bool:
        if i == len(cells):
            found.append((mask, mines))
            return len(found) <= cap
        ks = constraints_of[cells[i]]
        for mined in (0, 1):
            # A number can take this value only if it keeps enough mines and enough room.
            if all(0 <= need[k] - mined <= left[k] - 1 for k in ks):
                for k in ks:
                    need[k] -= mined
                    left[k] -= 1
                ok = assign(i + 1, mask | (bit[cells[i]] if mined else 0), mines + mined)
                for k in ks:
                    need[k] += mined
                    left[k] += 1
                if not ok:
                    return False
        return True

    return found if assign(0, 0, 0) else None


def list_layouts(position: Position, limit: int) -> tuple[tuple[Cell, ...], list[int]] | None:
    """The covered, unflagged cells and every consistent layout as a bit set over them.

    ``None`` when there are more than ``limit`` layouts (or the total is unknown).
    """
    if position.mines is None:
        return None
    frontier = Frontier.of(position)
    cells = tuple(sorted((*frontier.frontier, *frontier.interior)))
    bit = {cell: 1 << i for i, cell in enumerate(cells)}
    remaining = position.mines - frontier.flags
    combos: list[tuple[int, int]] = [(0, 0)]
    for component in frontier.components():
        solutions = component_solutions(component, bit, limit * 16)
        if solutions is None:
            return None
        combos = [(m1 | m2, k1 + k2) for m1, k1 in combos for m2, k2 in solutions if k1 + k2 <= remaining]
        if len(combos) > limit * 16:
            return None
    interior = [bit[cell] for cell in frontier.interior]
    layouts: list[int] = []
    for mask, mines in combos:
        rest = remaining - mines
        if not 0 <= rest <= len(interior):
            continue
        for chosen in combinations(interior, rest):
            layouts.append(mask | sum(chosen))
            if len(layouts) > limit:
                return None
    return cells, layouts


def position_layouts(position: Position, limit: int) -> np.ndarray:
    """Every layout consistent with ``position`` and its total, as a layout matrix (flags are mines).

    Row ``k`` holds, for every cell of the board, the number it shows in
    layout ``k``, or :data:`~minesat.perfect.geometry.MINE`. Raises
    :class:`ValueError` when the total is unknown or there are more than ``limit`` layouts.

    >>> position_layouts(Position.from_rows(["1?", "??"], mines=1), limit=10).tolist()
    [[1, 1, 1, 9], [1, 1, 9, 1], [1, 9, 1, 1]]
    """
    if position.mines is None:
        raise ValueError("perfect play needs the total number of mines (a '# mines: N' header)")
    listed = list_layouts(position, limit)
    if listed is None:
        raise ValueError(f"more than {limit} layouts are consistent with the position: too many to list")
    cells, layouts = listed
    board = _board(position.rows, position.cols)
    index = np.array([board.index(c) for c in cells], dtype=np.intp)
    flags = np.array([i for i, s in enumerate(position.cells) if s == FLAG], dtype=np.intp)
    # The layouts' bit sets, unpacked: row k, column j is 1 when cells[j] is a mine in layout k.
    width = (len(cells) + 7) // 8 or 1
    packed = np.frombuffer(b"".join(bits.to_bytes(width, "little") for bits in layouts), dtype=np.uint8)
    mined = np.unpackbits(packed.reshape(len(layouts), width), axis=1, bitorder="little")[:, : len(cells)]
    # Only covered cells show numbers the search has not seen: count their mined neighbours
    # (a float product runs on BLAS; the counts, at most 8, are exact), the others keep theirs.
    adjacency = board.adjacency.astype(np.float32)
    counts = mined.astype(np.float32) @ adjacency[index][:, index]
    counts += adjacency[flags][:, index].sum(axis=0)
    rows = np.empty((len(layouts), board.cells), dtype=np.uint8)
    rows[:] = np.array([max(s, 0) for s in position.cells], dtype=np.uint8)
    shown = counts.astype(np.uint8)
    shown[mined == 1] = MINE
    rows[:, index] = shown
    rows[:, flags] = MINE
    return rows


def position_bytes(position: Position) -> bytes:
    """The position as the search sees it: a number per uncovered cell, covered or flagged otherwise.

    Flags are kept apart from covered cells: the layouts of a state are those with mines
    under its flags, so a mirror image of a state is another state only with its flags mirrored too.

    >>> list(position_bytes(Position.from_rows(["1?", "F?"], mines=1)))
    [1, 10, 11, 10]
    """
    return bytes(s if s >= 0 else FLAGGED if s == FLAG else COVERED for s in position.cells)
