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

from minesat.analysis.constraints import Component, Constraint, Frontier
from minesat.analysis.counting import count_component
from minesat.board import COVERED as CELL_COVERED
from minesat.board import FLAG, Cell, Position, neighbour_table
from minesat.budget import checkpoint
from minesat.errors import InvalidValue
from minesat.exact.geometry import COVERED, FLAGGED, layout_numbers

__all__ = ["HELD_BITS", "component_solutions", "list_layouts", "position_bytes", "position_layouts"]


def component_solutions(
    component: Component, bit: dict[Cell, int] | _Bits, cap: int, allowed: int = -1
) -> list[tuple[int, int]] | None:
    """Every solution of one component as ``(mine bit set, mine count)``; ``None`` past ``cap``.

    The cells are decided one after another, safe before mined, a number
    taking a value only while it keeps enough mines and enough room; a walk
    with its own stack of choices, so a component as long as the board
    (a row of a thousand cells) needs no deeper recursion than a short one.
    Only the solutions whose mine count ``k`` is in ``allowed`` (bit ``k`` set; every count by
    default) are kept, and only they count against ``cap``.
    """
    cells = component.cells
    constraints_of: dict[Cell, list[int]] = {cell: [] for cell in cells}
    for k, c in enumerate(component.constraints):
        for cell in c.cells:
            constraints_of[cell].append(k)
    need = [c.count for c in component.constraints]
    left = [len(c.cells) for c in component.constraints]  # cells of each number not yet assigned
    found: list[tuple[int, int]] = []
    chosen: list[int] = []  # the value (0 safe, 1 mined) of each cell decided so far, in order
    mask = mines = 0
    mined = 0  # the next value to try at the first undecided cell (2: none left)
    while True:
        i = len(chosen)
        if i == len(cells):
            if allowed >> mines & 1:
                found.append((mask, mines))
                if len(found) > cap:
                    return None
                if not len(found) % 4096:
                    checkpoint()
            mined = 2
        elif mined < 2:
            ks = constraints_of[cells[i]]
            for k in ks:  # a loop, not all() over a generator: one per node of the walk
                if not 0 <= need[k] - mined < left[k]:
                    mined += 1
                    break
            else:
                for k in ks:
                    need[k] -= mined
                    left[k] -= 1
                chosen.append(mined)
                if mined:
                    mask |= bit[cells[i]]
                    mines += 1
                mined = 0
            continue
        # Nothing left to try at this depth: undo the last decided cell and try its next value.
        if not chosen:
            return found
        last = chosen.pop()
        cell = cells[len(chosen)]
        for k in constraints_of[cell]:
            need[k] += last
            left[k] += 1
        if last:
            mask &= ~bit[cell]
            mines -= 1
        mined = last + 1


#: On a board of at most this many covered cells each interior cell's bit set is made once (some
#: 8 MB at most); on a larger one each layout's are made as it is listed.
HELD_BITS = 8192


class _Bits:
    """``bits[cell]``: the bit set of ``cell`` alone over the cells ``index`` numbers, made when asked."""

    __slots__ = ("index",)

    def __init__(self, index: dict[Cell, int]) -> None:
        self.index = index

    def __getitem__(self, cell: Cell) -> int:
        return 1 << self.index[cell]


def list_layouts(
    position: Position, limit: int, *, consistent: bool = False
) -> tuple[tuple[Cell, ...], list[int]] | None:
    """The covered, unflagged cells and every consistent layout as a bit set over them.

    ``None`` when there are more than ``limit`` layouts (or the total is unknown).
    ``consistent``: some layout is known to fit (the position's analysis said so), so the
    numbers away from the covered cells need not be read.

    >>> listed = list_layouts(Position.from_rows(["0?11??3??", "?01??????", "0?1??3?3?"], mines=9), 1)
    >>> listed is not None and len(listed[1])
    1
    """
    if position.mines is None:
        return None
    frontier, components = _frontier(position, consistent)
    # The components' solutions are combined as they come, first with the total as the only
    # bound: the quickest way, and enough for nearly every position. Where their solutions, or
    # the combinations on the way, pass ``limit`` many times over, they are listed again with
    # the total's reach: only those that the other components and the interior can complete
    # to the total, each of which ends in a layout of its own. So a position of at most
    # ``limit`` layouts is never refused for the ways to them that lead nowhere.
    listed = _list_layouts(position, frontier, components, limit, reach=False)
    return _list_layouts(position, frontier, components, limit, reach=True) if listed is None else listed


def _frontier(position: Position, consistent: bool = False) -> tuple[Frontier, list[Component]]:
    """The position's :class:`~minesat.analysis.constraints.Frontier` and its components, as
    ``Frontier.of(position)`` and its ``components()`` give them, read from the covered cells out.

    An endgame has a few dozen covered cells among hundreds of numbers: ``Frontier.of`` reads
    every number and its eight neighbours, and networkx splits a graph built for the occasion
    (together 0.27 ms of a 0.65 ms endgame search of two layouts). Here, when the position is
    known to be ``consistent`` (some layout fits it, so every number holds), only the numbers
    next to a covered cell are read. Otherwise the numbers next to a flag are read too, and
    any other must show 0; a number that breaks (more flags than its value, fewer covered
    cells than the mines it needs) sends the position to ``Frontier.of``, which names it.

    >>> position = Position.from_rows(["F1??", "11??"], mines=2)
    >>> frontier, components = _frontier(position)
    >>> frontier.frontier, frontier.interior, [[c.source for c in p.constraints] for p in components]
    (((0, 2), (1, 2)), ((0, 3), (1, 3)), [[(0, 1), (1, 1)]])
    >>> (frontier, components) == _frontier(position, consistent=True)
    True
    """
    rows, cols = position.rows, position.cols
    table = neighbour_table(rows, cols)
    grid = position.cells
    covered = [i for i, s in enumerate(grid) if s == CELL_COVERED]
    flagged = grid.count(FLAG)
    near = {j for i in covered for j in table[i] if grid[j] >= 0}
    broken = False
    if not consistent:
        if flagged:
            near.update(j for i, s in enumerate(grid) if s == FLAG for j in table[i] if grid[j] >= 0)
        broken = any(s > 0 and i not in near for i, s in enumerate(grid))
    sees: dict[int, list[int]] = {}  # number -> its covered neighbours (ascending, as the table)
    need: dict[int, int] = {}
    watch: dict[int, list[int]] = {}  # covered cell -> the numbers that see it
    for a in sorted(near):
        if broken:
            break
        seen = []
        flags = 0
        for j in table[a]:
            if grid[j] == CELL_COVERED:
                seen.append(j)
            elif grid[j] == FLAG:
                flags += 1
        left = grid[a] - flags
        if not 0 <= left <= len(seen):
            broken = True
        elif seen:
            sees[a], need[a] = seen, left
            for j in seen:
                watch.setdefault(j, []).append(a)
    if broken:
        frontier = Frontier.of(position)  # raises, naming the first broken number
        return frontier, frontier.components()
    constraint = {
        a: Constraint(tuple(divmod(j, cols) for j in seen), need[a], divmod(a, cols))
        for a, seen in sees.items()
    }
    # Numbers linked through a shared cell, walked from each number not yet reached, as
    # FrontierModel splits them; each part ordered as Frontier.components orders it.
    components: list[Component] = []
    reached: set[int] = set()
    for a in sees:
        if a in reached:
            continue
        reached.add(a)
        stack = [a]
        members: list[int] = []
        while stack:
            x = stack.pop()
            members.append(x)
            for j in sees[x]:
                for b in watch[j]:
                    if b not in reached:
                        reached.add(b)
                        stack.append(b)
        members.sort(key=lambda x: (sees[x][0], x))
        cells = sorted({j for x in members for j in sees[x]})
        part = Component(tuple(divmod(j, cols) for j in cells), tuple(constraint[x] for x in members))
        components.append(part)
    components.sort(key=lambda part: part.cells[0])
    frontier = Frontier(
        rows, cols, tuple(constraint.values()),
        tuple(divmod(j, cols) for j in sorted(watch)),
        tuple(divmod(i, cols) for i in covered if i not in watch),
        flagged,
    )
    return frontier, components


def _list_layouts(
    position: Position, frontier: Frontier, components: list[Component], limit: int, *, reach: bool
) -> tuple[tuple[Cell, ...], list[int]] | None:
    """:func:`list_layouts`, with the total's reach (``reach``) or without."""
    assert position.mines is not None
    cells = tuple(sorted((*frontier.frontier, *frontier.interior)))
    index = {cell: i for i, cell in enumerate(cells)}
    held = len(cells) <= HELD_BITS
    # Past HELD_BITS cells each cell's bit set is made when it is asked for, not held for every
    # cell: on a board of 250 000 covered cells those would take 3.9 GB (the i-th is i bits long).
    bit: dict[Cell, int] | _Bits = {cell: 1 << i for cell, i in index.items()} if held else _Bits(index)
    remaining = position.mines - frontier.flags
    # With reach: the counts the components after each one and the interior can hold.
    after = _completions(components, len(frontier.interior), remaining) if reach else None
    combos: list[tuple[int, int]] = [(0, 0)]
    for i, component in enumerate(components):
        checkpoint()
        allowed = completes = -1  # without reach: every count of this component, every total after it
        if after is not None:
            bits, shift = after[i + 1]
            completes = bits << shift  # the counts the components after this one and the interior hold
            # The counts this component may take: those that some combination so far completes.
            reachable = 0
            for k in {k for _, k in combos}:
                reachable |= completes << k
            allowed = sum(1 << k for k in range(min(len(component.cells), remaining) + 1)
                          if reachable >> (remaining - k) & 1)
        solutions = component_solutions(component, bit, limit * 16, allowed)
        if solutions is None:
            return None
        combos = [(m1 | m2, k1 + k2) for m1, k1 in combos for m2, k2 in solutions
                  if k1 + k2 <= remaining and completes >> (remaining - k1 - k2) & 1]
        if len(combos) > limit * 16:
            return None
    # Held, a layout is the sum of its interior mines' bit sets; else they are made from indices.
    interior = [bit[cell] if held else index[cell] for cell in frontier.interior]
    layouts: list[int] = []
    work = 0  # interior mines placed since the clock was last read
    for mask, mines in combos:
        rest = remaining - mines
        if not 0 <= rest <= len(interior):
            continue
        for chosen in combinations(interior, rest):
            if held:
                layout = mask | sum(chosen)
            else:
                layout = mask
                for i in chosen:
                    layout |= 1 << i
            layouts.append(layout)
            if len(layouts) > limit:
                return None
            # The clock is read by the work done, not by the layouts: one layout of a 60x60 board
            # with 3 599 mines places 3 599 of them.
            work += rest + 1
            if work >= 1 << 16:
                checkpoint()
                work = 0
    return cells, layouts


def _completions(components: list[Component], interior: int, remaining: int) -> list[tuple[int, int]]:
    """For each ``i``, the mine counts that the components from ``i`` on and the ``interior``
    cells can hold together, as ``(bits, shift)``: count ``n`` is held where bit ``n`` of
    ``bits << shift`` is set. The counts each component can take come from its exact count
    (:func:`~minesat.analysis.counting.count_component`; every count from none to all its cells
    where that count is past its budget). A component of one count shares the bits after it,
    shifted: a large board's thousands of decided components hold one bit set, not one each.

    >>> [comp] = Frontier.of(Position.from_rows(["1?", "??"], mines=1)).components()
    >>> _completions([comp], 0, 1)
    [(1, 1), (1, 0)]
    """
    after = [((1 << (interior + 1)) - 1, 0)]  # the interior takes any number of its cells' mines
    within = (1 << (remaining + 1)) - 1 if remaining >= 0 else 0
    for component in reversed(components):
        checkpoint()
        count = count_component(component)
        everything = range(len(component.cells) + 1)
        takes = everything if count is None else [k for k, ways in enumerate(count.ways) if ways]
        bits, shift = after[-1]
        if len(takes) == 1:
            after.append((bits, shift + takes[0]))
            continue
        held = 0
        for k in takes:
            held |= bits << (shift + k)
        after.append((held & within, 0))
    after.reverse()
    return after


def position_layouts(position: Position, limit: int, *, consistent: bool = False) -> np.ndarray:
    """Every layout consistent with ``position`` and its total, as a layout matrix (flags are mines).

    Row ``k`` holds, for every cell of the board, the number it shows in
    layout ``k``, or :data:`~minesat.exact.geometry.MINE`. Raises
    :class:`ValueError` when the total is unknown or there are more than ``limit`` layouts.
    ``consistent`` as :func:`list_layouts` takes it.

    >>> position_layouts(Position.from_rows(["1?", "??"], mines=1), limit=10).tolist()
    [[1, 1, 1, 9], [1, 1, 9, 1], [1, 9, 1, 1]]
    """
    if position.mines is None:
        raise InvalidValue("perfect play needs the total number of mines (a '# mines: N' header)")
    listed = list_layouts(position, limit, consistent=consistent)
    if listed is None:
        raise InvalidValue(f"more than {limit} layouts are consistent with the position: too many to list")
    cells, layouts = listed
    flags = [i for i, s in enumerate(position.cells) if s == FLAG]
    index = np.asarray([r * position.cols + c for r, c in cells], dtype=np.int32)
    remaining = position.mines - len(flags)
    return layout_numbers(position.rows, position.cols, _mine_cells(layouts, index, remaining), flags)


def _mine_cells(layouts: list[int], index: np.ndarray, mines: int) -> np.ndarray:
    """Each layout's mines (``mines`` of them in every one), as the cells ``index`` names, row by row.

    >>> _mine_cells([0b011, 0b110], np.array([4, 5, 6]), 2).tolist()
    [[4, 5], [5, 6]]
    """
    chosen = np.empty((len(layouts), mines), dtype=np.int32)
    block = max(1, (1 << 21) // max(1, len(index)))  # about 16 MB of bits (eight bytes each while read)
    for first in range(0, len(layouts), block):
        checkpoint()
        bits = _bits(layouts[first:first + block], len(index))
        chosen[first:first + len(bits)] = index[np.nonzero(bits)[1]].reshape(len(bits), mines)
    return chosen


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
