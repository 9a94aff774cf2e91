"""How hard a layout is to clear: 3BV, openings, islands and greedy ZiNi (docs/commands/metrics.md).

- **openings**: 8-connected regions of zero cells (one click opens each, with its border);
- **islands**: 8-connected groups of numbered cells that touch no zero cell: the
  numbers no opening reveals, which must be clicked one by one;
- **bbbv** (3BV): the fewest left clicks that clear the board, openings plus the
  numbered cells no opening reveals;
- **zini**: greedy ZiNi (Zimmermann and Nikolaus), the clicks of a player who
  may also flag and chord, always taking the cell whose chord saves the most.

>>> m = metrics(Layout.from_rows(["*    ", "     ", "     ", "    *"]))
>>> (m.cells, m.mines, m.bbbv, m.openings, m.islands, m.zini)
(20, 2, 1, 1, 0, 1)
>>> metrics(Layout.from_rows(["* *", "   ", "* *"])).to_json()
{'rows': 3, 'cols': 3, 'cells': 9, 'mines': 4, 'bbbv': 5, 'openings': 0, 'islands': 1, 'zini': 5}

All four equal ms-toollib's (``cal_bbbv``, ``cal_op``, ``Board.isl``, ``cal_zini``)
on random layouts (``tests/test_metrics.py``).

A game under way has cleared part of the 3BV: :class:`SolvedBbbv` counts it as
cells are uncovered (a replay's running 3BV/s), :func:`bbbv_solved` on a position.
"""

from __future__ import annotations

import heapq
from dataclasses import asdict, dataclass

from minesat.board import Layout, Position, neighbour_table
from minesat.budget import checkpoint

__all__ = ["CHECK_EVERY", "Metrics", "greedy_zini", "islands", "metrics", "opening_regions"]

#: The long loops check the memory budget (:func:`~minesat.budget.checkpoint`) once in this
#: many turns: a reading costs a microsecond, and a turn far less.
CHECK_EVERY = 4096


@dataclass(frozen=True)
class Metrics:
    """The figures of one layout, keyed as in ``minesat metrics --json``."""

    rows: int
    cols: int
    cells: int
    mines: int
    bbbv: int
    openings: int
    islands: int
    zini: int

    def to_json(self) -> dict[str, int]:
        return asdict(self)


def metrics(layout: Layout) -> Metrics:
    """Every figure of ``layout``.

    The memory a caller's budget allows (:func:`~minesat.budget.watching`) is checked
    between the figures and within their long loops: a 1000x1000 layout holds some tables
    of a million cells each.
    """
    openings = max(opening_regions(layout), default=0)
    checkpoint()
    bbbv = layout.bbbv()
    checkpoint()
    lonely = islands(layout)
    checkpoint()
    return Metrics(
        rows=layout.rows,
        cols=layout.cols,
        cells=layout.rows * layout.cols,
        mines=layout.mine_count,
        bbbv=bbbv,
        openings=openings,
        islands=lonely,
        zini=greedy_zini(layout),
    )


def opening_regions(layout: Layout) -> list[int]:
    """Per cell (row-major), the 1-based number of its opening if it is a zero, else 0.

    >>> opening_regions(Layout.from_rows(["  *  "]))
    [1, 0, 0, 0, 2]
    """
    counts = layout.counts
    mined = _mined(layout)
    return _label([not counts[i] and not mined[i] for i in range(len(counts))], layout)


def islands(layout: Layout) -> int:
    """8-connected groups of numbered cells with no zero among their neighbours.

    >>> islands(Layout.from_rows(["*  ", "   ", "  *"]))
    0
    >>> islands(Layout.from_rows(["* *", "   ", "* *"]))
    1
    """
    table = neighbour_table(layout.rows, layout.cols)
    counts = layout.counts
    mined = _mined(layout)
    # A numbered cell beside a zero is revealed by that zero's opening.
    lonely = [
        not mined[i] and counts[i] > 0 and all(counts[j] or mined[j] for j in table[i])
        for i in range(len(counts))
    ]
    return max(_label(lonely, layout), default=0)


def _label(member: list[bool], layout: Layout) -> list[int]:
    """Number the 8-connected groups of member cells 1, 2, ... in row-major order; 0 elsewhere."""
    table = neighbour_table(layout.rows, layout.cols)
    label = [0] * len(member)
    found = 0
    for start, inside in enumerate(member):
        if not start % CHECK_EVERY:
            checkpoint()
        if not inside or label[start]:
            continue
        found += 1
        label[start] = found
        stack = [start]
        while stack:
            for j in table[stack.pop()]:
                if member[j] and not label[j]:
                    label[j] = found
                    stack.append(j)
    return label


def greedy_zini(layout: Layout) -> int:
    """Clicks (left, flags and chords) of the greedy ZiNi player.

    Every mine-free cell *x* has a *premium*: the 3BV left in its 3x3 block
    (unopened numbers no opening reveals, and the unrevealed openings *x*
    borders, at most two) minus what chording *x* costs (a click to open it if
    still covered, a flag per unflagged mine beside it, the chord itself). While
    some premium is at least 0 the player takes the highest (the first in
    column-major order on ties, as the original program scans), opens it,
    flags around it and chords; otherwise it clicks the first covered cell that
    costs a click anyway (a zero, or a number no opening reveals). This is the
    greedy algorithm as Zimmermann and Nikolaus published it (not the random or
    human variants); it equals ms-toollib's ``cal_zini``.

    >>> greedy_zini(Layout.from_rows(["   ", "   "]))
    1
    >>> greedy_zini(Layout.from_rows(["*1", "11"]))  # flag, chord: 3 cells in 2 clicks + 1 to start
    3
    """
    return _Zini(layout).play()


class _Zini:
    """One greedy ZiNi game (:func:`greedy_zini`), step by step: what each cell borders, the
    premiums, then the clicks: the best premium's open, flags and chord, or a fallback click.

    Flat tables, a byte or a pointer per cell where they can be: a 1000x1000 board has a
    million cells, and a tuple or a private int per cell costs some 100 MB a table.
    """

    def __init__(self, layout: Layout) -> None:
        self.rows, self.cols = layout.rows, layout.cols
        self.size = size = layout.rows * layout.cols
        self.table = neighbour_table(layout.rows, layout.cols)
        self.counts = layout.counts
        self.mined = _mined(layout)
        self.region = opening_regions(layout)
        bordering, self.members = self._openings()
        self.isolated = bytearray(not self.mined[i] and not bordering[i] for i in range(size))
        checkpoint()
        self.opened = bytearray(size)
        self.flagged = bytearray(size)
        self.closed = size - layout.mine_count
        self.premium = self._premiums(bordering)
        checkpoint()
        # The highest premium, first in column-major order among equals, without scanning the
        # board at every step (that made a 300x300 board take 16 s): a heap of entries pushed at
        # every change, one no longer current passed over. An entry is one int,
        # -premium * size + place, which sorts as the pair (-premium, place) would
        # (0 <= place < size) at a tenth of its memory.
        self.heap = [-self.premium[i] * size + self._place(i) for i in range(size) if not self.mined[i]]
        heapq.heapify(self.heap)
        # The cells a click may fall back on only ever become fewer: the scan goes on where it stopped.
        self.fallbacks = (r * self.cols + c for c in range(self.cols) for r in range(self.rows))

    def _openings(self) -> tuple[bytearray, dict[int, list[int]]]:
        """How many openings each cell borders or belongs to (at most two, as in the original),
        and each opening's cells: the cells it reveals."""
        table, region, mined = self.table, self.region, self.mined
        bordering = bytearray(self.size)
        members: dict[int, list[int]] = {}
        for i, cell_region in enumerate(region):
            if mined[i]:
                continue
            if cell_region:
                seen = [cell_region]
            else:
                seen = []
                for j in table[i]:
                    if region[j] and region[j] not in seen:
                        seen.append(region[j])
                        if len(seen) == 2:
                            break
            bordering[i] = len(seen)
            for op in seen:
                members.setdefault(op, []).append(i)
        return bordering, members

    def _premiums(self, bordering: bytearray) -> list[int]:
        """Each cell's premium from its definition: the 3BV in its block (isolated numbers and
        the openings it borders) less the click to open it, the chord and a flag per mine beside it.
        It is kept up to date as cells open, mines are flagged and openings are revealed: each
        event changes a few terms (:meth:`_bump`)."""
        table, isolated, mined = self.table, self.isolated, self.mined
        return [
            sum(1 for j in self._block(i) if isolated[j]) + bordering[i]
            - 2 - sum(1 for j in table[i] if mined[j])
            for i in range(self.size)
        ]

    def _block(self, i: int) -> tuple[int, ...]:
        """The cell and its neighbours: its 3x3 block."""
        return (i, *self.table[i])

    def _place(self, i: int) -> int:
        """The cell's place in the column-major scan order of the original program."""
        return (i % self.cols) * self.rows + i // self.cols

    def _at(self, place: int) -> int:
        return (place % self.rows) * self.cols + place // self.rows

    def _bump(self, i: int, by: int) -> None:
        self.premium[i] += by
        if not self.mined[i]:
            heapq.heappush(self.heap, -self.premium[i] * self.size + self._place(i))

    def _open(self, i: int) -> None:
        if self.opened[i]:
            return
        self.opened[i] = True
        self.closed -= 1
        self._bump(i, 1)  # no click needed to open it any more
        if self.isolated[i]:
            for j in self._block(i):
                self._bump(j, -1)  # one 3BV unit fewer around

    def _reveal(self, i: int) -> None:
        if self.opened[i] or self.flagged[i] or self.mined[i]:
            return
        if self.counts[i]:
            self._open(i)
            return
        for j in self.members[self.region[i]]:
            self._bump(j, -1)  # the opening is no longer a unit for anyone beside it
            self._open(j)

    def _best(self) -> int | None:
        """The cell of the highest premium, if that premium is at least 0."""
        heap, size = self.heap, self.size
        while heap and -(heap[0] // size) != self.premium[self._at(heap[0] % size)]:
            heapq.heappop(heap)  # an entry from before the cell's premium changed
        if heap and self.premium[self._at(heap[0] % size)] >= 0:
            return self._at(heap[0] % size)
        return None

    def _chord(self, best: int) -> int:
        """Open ``best`` (if covered), flag the mines beside it and chord: the clicks it took."""
        clicks = 0
        if not self.opened[best]:
            clicks += 1
            self._reveal(best)
        for j in self.table[best]:
            if self.mined[j] and not self.flagged[j]:
                self.flagged[j] = True
                clicks += 1
                for k in self.table[j]:
                    self._bump(k, 1)  # one flag fewer to place around
        for j in self._block(best):
            self._reveal(j)
        return clicks + 1  # the chord

    def _fallback(self) -> int:
        """A plain click on the first covered cell that costs a click anyway (a zero, or a
        number no opening reveals), in column-major order."""
        opened, mined, isolated, counts = self.opened, self.mined, self.isolated, self.counts
        cell = next(i for i in self.fallbacks
                    if not opened[i] and not mined[i] and (isolated[i] or not counts[i]))
        self._reveal(cell)
        return 1

    def play(self) -> int:
        """Every click until no safe cell is covered."""
        clicks = steps = 0
        while self.closed > 0:
            steps += 1
            if not steps % CHECK_EVERY:
                checkpoint()
            best = self._best()
            clicks += self._fallback() if best is None else self._chord(best)
        return clicks


class SolvedBbbv:
    """The 3BV units a game has cleared, kept up to date cell by cell as cells are uncovered.

    A unit is an opening, cleared once all its zeros are uncovered, or a
    numbered cell that borders no opening, cleared when it is. A flag on one of
    an opening's zeros stops the flood there, and the opening is not cleared
    until that zero is (ms-toollib counts it so too).

    >>> lay = Layout.from_rows(["*  ", "   ", "  *"])    # two openings, 3BV 2
    >>> count = SolvedBbbv(lay)
    >>> count.reveal_all([-1, 1, 0, -1, 2, 1, -1, -1, -1])
    >>> count.solved, count.bbbv
    (1, 2)
    """

    def __init__(self, layout: Layout) -> None:
        regions = opening_regions(layout)
        table = neighbour_table(layout.rows, layout.cols)
        mined = _mined(layout)
        counts = layout.counts
        # Per cell: its opening, -1 a number that is a 3BV unit of its own (it borders no
        # opening, whose click would reveal it), 0 neither.
        self.unit = [
            region or (-1 if not mined[i] and counts[i] and not any(regions[j] for j in table[i]) else 0)
            for i, region in enumerate(regions)
        ]
        self.zeros_left: dict[int, int] = {}
        for region in regions:
            if region:
                self.zeros_left[region] = self.zeros_left.get(region, 0) + 1
        self.bbbv = layout.bbbv()
        self.solved = 0
        self.seen = [False] * len(self.unit)
        self.cols = layout.cols
        self.table = table
        self.zero = [not counts[i] and not mined[i] for i in range(len(counts))]

    def reveal(self, i: int) -> None:
        """Count cell ``i`` (row-major) uncovered; a cell counted before is not counted again."""
        if self.seen[i]:
            return
        self.seen[i] = True
        unit = self.unit[i]
        if unit == -1:
            self.solved += 1
        elif unit:
            self.zeros_left[unit] -= 1
            if not self.zeros_left[unit]:
                self.solved += 1

    def reveal_all(self, state: list[int] | tuple[int, ...]) -> None:
        """Count every uncovered cell of ``state`` (a position's cells, row-major)."""
        for i, value in enumerate(state):
            if value >= 0:
                self.reveal(i)

    def update(self, state: list[int], cell: tuple[int, int]) -> None:
        """Count what an uncover or chord on ``cell`` opened: the cell and its neighbours, and
        the flood from each zero among them (only the cells that changed are visited)."""
        start = cell[0] * self.cols + cell[1]
        todo = [start, *self.table[start]]
        while todo:
            i = todo.pop()
            if self.seen[i] or state[i] < 0:
                continue
            self.reveal(i)
            if self.zero[i]:
                todo.extend(self.table[i])


def bbbv_solved(layout: Layout, position: Position) -> int:
    """The 3BV units the position has cleared (:class:`SolvedBbbv`): openings whose zeros are all
    uncovered, and uncovered numbers that border no opening.

    >>> lay = Layout.from_rows(["*  ", "   ", "  *"])    # two openings, 3BV 2
    >>> bbbv_solved(lay, Position.from_rows(["?1 ", "?21", "???"])), lay.bbbv()
    (1, 2)
    """
    count = SolvedBbbv(layout)
    count.reveal_all(position.cells)
    return count.solved


def _mined(layout: Layout) -> list[bool]:
    mined = [False] * (layout.rows * layout.cols)
    for r, c in layout.mines:
        mined[r * layout.cols + c] = True
    return mined
