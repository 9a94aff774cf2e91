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

from itertools import combinations

import numpy as np

from minesat.analysis.constraints import Component, Frontier
from minesat.board import FLAG, Cell, Position, neighbour_table
from minesat.exact.geometry import COVERED, FLAGGED, MINE


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
    # Depth first, cell by cell, mine-free before mined; a loop with the choices on a list (a
    # component may hold thousands of cells: no recursion that deep).
    n = len(cells)
    choice = [-1] * n  # the value cell i holds now; -1 before its first
    masks, counts = [0] * (n + 1), [0] * (n + 1)
    i = 0
    while i >= 0:
        if i == n:
            found.append((masks[n], counts[n]))
            if len(found) > cap:
                return None
            i -= 1
            continue
        ks = constraints_of[cells[i]]
        mined = choice[i]
        if mined >= 0:  # take back the value tried last
            for k in ks:
                need[k] += mined
                left[k] += 1
        mined += 1
        # A number can take this value only if it keeps enough mines and enough room.
        while mined <= 1 and not all(0 <= need[k] - mined <= left[k] - 1 for k in ks):
            mined += 1
        if mined > 1:
            choice[i] = -1
            i -= 1
            continue
        choice[i] = mined
        for k in ks:
            need[k] -= mined
            left[k] -= 1
        masks[i + 1] = masks[i] | (bit[cells[i]] if mined else 0)
        counts[i + 1] = counts[i] + mined
        i += 1
    return found


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
    layout ``k``, or :data:`~minesat.exact.geometry.MINE`. Raises
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
    size = position.rows * position.cols
    flags = [i for i, s in enumerate(position.cells) if s == FLAG]
    index = np.asarray([r * position.cols + c for r, c in cells], dtype=np.intp)
    # Each cell's neighbours, padded to eight with a cell past the board (its counts are dropped).
    around = np.full((size + 1, 8), size, dtype=np.intp)
    for i, near in enumerate(neighbour_table(position.rows, position.cols)):
        around[i, : len(near)] = near
    # The flags' counts are the same in every layout; each listed mine adds one to its
    # neighbours, counted by np.bincount over (layout, neighbour) pairs: work and memory
    # grow with the mines, not with the cells squared.
    base = np.bincount(around[flags].ravel(), minlength=size + 1)[:size].astype(np.uint8)
    rows = np.empty((len(layouts), size), dtype=np.uint8)
    block = max(1, min((1 << 24) // max(1, len(index)), (1 << 21) // (size + 1)))  # about 16 MB a block
    for first in range(0, len(layouts), block):
        bits = _bits(layouts[first:first + block], len(index))
        k, j = np.nonzero(bits)
        mined = index[j]
        pairs = (k[:, None] * (size + 1) + around[mined]).ravel()
        counts = np.bincount(pairs, minlength=len(bits) * (size + 1)).reshape(len(bits), size + 1)
        part = rows[first:first + len(bits)]
        part[:] = counts[:, :size] + base
        part[:, flags] = MINE
        part[k, mined] = MINE
    return rows


def _bits(layouts: list[int], width: int) -> np.ndarray:
    """Each layout (a bit set over ``width`` cells) as a row of 0s and 1s.

    >>> _bits([0b01, 0b10], 2).tolist()
    [[1, 0], [0, 1]]
    """
    out = np.zeros((len(layouts), width), dtype=np.uint8)
    for first in range(0, width, 60):  # 60 bits at a time fit in an unsigned 64-bit integer
        span = min(60, width - first)
        part = np.array([bits >> first & ((1 << span) - 1) for bits in layouts], dtype=np.uint64)
        out[:, first:first + span] = (part[:, None] >> np.arange(span, dtype=np.uint64)) & 1
    return out


def position_bytes(position: Position) -> bytes:
    """The position as the search sees it: a number per uncovered cell, covered or flagged otherwise.

    Flags are kept apart from covered cells: the layouts of a state are those with mines
    under its flags, so a mirror image of a state is another state only with its flags mirrored too.

    >>> list(position_bytes(Position.from_rows(["1?", "F?"], mines=1)))
    [1, 10, 11, 10]
    """
    return bytes(s if s >= 0 else FLAGGED if s == FLAG else COVERED for s in position.cells)
