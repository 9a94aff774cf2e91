"""Small boards read whole, as bit masks: the analysis's fast road on beginner-sized boards.

:class:`~minesat.analysis.constraints.FrontierModel` updates constraint
objects move by move, which pays on big boards, where a move touches a tiny
share of the frontier. On a small board a move (often a flood fill) touches
most of it, and the objects cost more than reading the whole position again.
Here a position becomes Python ints, one bit per cell (bit ``r * cols + c``):
the covered cells, the flags, and for each number the mask of the covered
cells it sees with the mines they still hold. The local rules, the split into
independent parts and the enumeration of a small part's layouts are then a
few integer operations per number.

The road only reads: :class:`~minesat.analysis.engine.Analyzer` combines what
it finds with the same exact arithmetic as its general road, and a position
this module cannot read (a broken number, an unknown state) goes back to the
general road, which names the problem.

>>> from minesat.board import Position
>>> reading = read(Position.from_rows(["???", "11 ", "   "]))
>>> safe, mine, rest = settle(reading.constraints)  # the 0 clears two cells, the 1s mine the third
>>> cells(safe, 3), cells(mine, 3), rest
([(0, 1), (0, 2)], [(0, 0)], [])
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations
from operator import itemgetter

from minesat.board import COVERED, FLAG, Position, neighbour_table
from minesat.errors import OverBudget

__all__ = [
    "Geometry",
    "MaskConstraint",
    "Read",
    "Reading",
    "cells",
    "components",
    "read",
    "read_since",
    "settle",
    "shown",
    "solutions",
    "split",
]

#: A constraint as masks: ``(cells, mines, number)``, ``mines`` of the covered
#: cells in the mask ``cells``, stated by the number at flat index ``number``.
MaskConstraint = tuple[int, int, int]

#: The bytes of every state a position may hold, as :func:`read_since` writes them (two's
#: complement: the flag 254, covered 255, numbers 0..8 themselves).
_KNOWN = bytes(state & 0xFF for state in (FLAG, COVERED, *range(9)))


def _digits(state: int) -> bytes:
    """A translation table: ``state``'s byte to ``b"1"``, every other byte to ``b"0"``."""
    return bytes(49 if b == state & 0xFF else 48 for b in range(256))


_COVERED_DIGITS = _digits(COVERED)
_FLAG_DIGITS = _digits(FLAG)
_ZERO_DIGITS = _digits(0)
_SHOWN_DIGITS = bytes(49 if b <= 8 else 48 for b in range(256))
#: A byte of two positions' bytes XORed: ``b"1"`` where the cell changed.
_CHANGED = bytes(48 if b == 0 else 49 for b in range(256))


@dataclass(frozen=True)
class Geometry:
    """One board size as masks: every cell's neighbours, and the edges a shift must not wrap over."""

    rows: int
    cols: int
    full: int  # every cell
    not_first_col: int  # every cell but those of column 0
    not_last_col: int  # every cell but those of the last column

    @staticmethod
    @lru_cache(maxsize=8)
    def of(rows: int, cols: int) -> Geometry:
        """Built once per board size: a few masks as long as the board (any board: the player's
        pieces use :meth:`near` on 1000x1000 too)."""
        first_col = int(("0" * (cols - 1) + "1") * rows, 2)
        full = (1 << (rows * cols)) - 1
        return Geometry(rows, cols, full, full ^ first_col, full ^ (first_col << (cols - 1)))

    @cached_property
    def around(self) -> tuple[int, ...]:
        """Flat index -> mask of its neighbours, made when first asked (the small road reads it).

        Each mask is as long as the board up to its cell: cells x cells / 2 bits in all, nothing
        on a small board but 62 GB on 1000x1000, so :meth:`of` leaves it out.
        """
        return tuple(sum(1 << j for j in near) for near in neighbour_table(self.rows, self.cols))

    def near(self, mask: int) -> int:
        """``mask`` and every neighbour of its cells: eight shifts instead of a loop over cells.

        >>> g = Geometry.of(3, 3)
        >>> cells(g.near(1 << 0), 3)
        [(0, 0), (0, 1), (1, 0), (1, 1)]
        """
        across = mask | ((mask << 1) & self.not_first_col) | ((mask >> 1) & self.not_last_col)
        return (across | (across << self.cols) | (across >> self.cols)) & self.full


@dataclass(frozen=True)
class Reading:
    """A position as masks: its covered cells, flags, and the constraints of its numbers."""

    geometry: Geometry
    covered: int  # covered, unflagged cells
    flags: int
    constraints: list[MaskConstraint]  # numbers that see covered cells, row-major
    frontier: int  # covered cells some number sees

    @property
    def interior(self) -> int:
        """Covered cells no number sees."""
        return self.covered ^ self.frontier  # the frontier is covered: no negative mask


def read(position: Position) -> Reading | None:
    """The position as masks; ``None`` when a number cannot be met or a cell holds no known state.

    ``None`` sends the position back to the general road, which names the
    broken number; so every number is checked here, including those that see
    no covered cell.

    >>> r = read(Position.from_rows(["1?", "??"]))
    >>> r.constraints, r.covered, r.frontier
    ([(14, 1, 0)], 14, 14)
    >>> read(Position.from_rows(["1 "])) is None  # the 1 sees no mine
    True
    """
    found = read_since(position, None)
    return None if found is None else found[1]


#: A position as :func:`read_since` keeps it for the next: its bytes (one a cell, the last cell
#: first) and its reading.
Read = tuple[bytes, Reading]


def read_since(position: Position, last: Read | None) -> Read | None:
    """:func:`read`, from the reading of ``last``, a position of the same size read before.

    A game reads its position after every round of moves, and a round changes a few cells:
    only the numbers on or beside a changed cell are read again (checked, and their
    constraint made); every other number sees what it saw and keeps its constraint, which
    was checked then. The reading is the one :func:`read` makes. Returns the position's
    bytes with it, to read the next position from.

    >>> before = read_since(Position.from_rows(["1?", "??"]), None)
    >>> read_since(Position.from_rows(["1?", "?2"]), before)[1].constraints
    [(6, 1, 0), (6, 2, 3)]
    >>> read_since(Position.from_rows(["1?", "?4"]), before) is None   # the 4 cannot be met
    True
    """
    cells = position.cells
    try:
        raw = _last_first(cells)
    except struct.error:  # a state far out of range, or no integer
        return None
    if raw.translate(None, _KNOWN):  # some byte is no known state
        return None
    geometry = Geometry.of(position.rows, position.cols)
    covered = int(raw.translate(_COVERED_DIGITS), 2)
    flags = int(raw.translate(_FLAG_DIGITS), 2)
    numbers = geometry.full ^ (covered | flags)
    near_covered, near_flags = geometry.near(covered), geometry.near(flags)
    kept: list[MaskConstraint] = []
    again = numbers  # the numbers read (again)
    if last is not None and len(last[0]) == len(raw) and last[1].geometry is geometry:
        differ = int.from_bytes(raw) ^ int.from_bytes(last[0])  # a nonzero byte for each changed cell
        changed = int(differ.to_bytes(len(raw)).translate(_CHANGED), 2)
        touched = geometry.near(changed)  # a number here may have changed, or gone
        again &= touched
        kept = [c for c in last[1].constraints if not touched >> c[2] & 1]
    # A number that sees neither a covered cell nor a flag must be a 0 (one read before was
    # checked then, and nothing around it changed) ...
    alone = again & (geometry.full ^ (near_covered | near_flags))
    if alone and alone & (geometry.full ^ int(raw.translate(_ZERO_DIGITS), 2)):
        return None
    around = geometry.around
    # ... and one that sees flags but no covered cell shows just as many. (The numbers are
    # taken from the highest bit down: the lowest, todo & -todo, would cost a negative number
    # as long as the board, and an AND with it, a number.)
    todo = again & near_flags & (geometry.full ^ near_covered)
    while todo:
        i = todo.bit_length() - 1
        todo ^= 1 << i
        if cells[i] != (around[i] & flags).bit_count():
            return None
    constraints: list[MaskConstraint] = []
    todo = again & near_covered
    while todo:
        i = todo.bit_length() - 1
        todo ^= 1 << i
        near = around[i]
        sees = near & covered
        need = cells[i] - (near & flags).bit_count()
        if need < 0 or need > sees.bit_count():
            return None
        constraints.append((sees, need, i))
    constraints.reverse()  # row-major
    if kept:
        constraints = sorted(kept + constraints, key=_number)  # row-major, as read whole
    return raw, Reading(geometry, covered, flags, constraints, covered & geometry.near(numbers))


def _last_first(cells: Sequence[int]) -> bytes:
    """One byte per cell (two's complement), the last cell first: int() reads its most
    significant digit first. A packer made once per board size converts a position's cells a
    few times faster than array("b", cells). Raises struct.error for a state past a byte.

    >>> _last_first((1, -2, 0))
    b'\\x00\\xfe\\x01'
    """
    return _packer(len(cells)).pack(*cells)[::-1]


@lru_cache(maxsize=8)
def _packer(cells: int) -> struct.Struct:
    """Packs ``cells`` states into as many signed bytes."""
    return struct.Struct(f"{cells}b")


#: A constraint's number (its flat index), the key constraints are sorted by.
_number = itemgetter(2)


def shown(position: Position) -> int:
    """The mask of the cells that show a number (0 included).

    >>> cells(shown(Position.from_rows(["1?", "*2"])), 2)
    [(0, 0), (1, 1)]
    """
    return int(_last_first(position.cells).translate(_SHOWN_DIGITS), 2)


def settle(
    constraints: Sequence[MaskConstraint], cells: int | None = None
) -> tuple[int, int, list[MaskConstraint]] | None:
    """The local rules to a fixpoint: ``(safe, mine, what is left open)``; ``None`` if a number breaks.

    The two classic rules (a number whose mines are all known clears its other
    cells; a number that needs every open cell mines them) of
    :func:`~minesat.analysis.classify.local_rules`, in whole passes over the
    numbers: a pass is a few integer operations per number, and after the
    first it looks again only at numbers some of whose cells the last pass
    decided. The constraints
    left open are reduced to their undecided cells and the mines those still
    hold, and each still needs some but not all of them. ``cells``, when the caller
    has it, holds every cell of the constraints (a reading's frontier: more is harmless).

    >>> settle([(0b011, 1, 5), (0b110, 1, 6)])  # 1 of cells 0,1; 1 of cells 1,2: no rule fires
    (0, 0, [(3, 1, 5), (6, 1, 6)])
    >>> settle([(0b011, 1, 5), (0b110, 2, 6)])  # 2 of cells 1,2: both mined, so cell 0 is safe
    (1, 6, [])
    >>> settle([(0b011, 1, 5), (0b001, 1, 6)])  # cell 0 is the mine: cell 1 is safe
    (2, 1, [])
    """
    safe = mine = 0
    # The cells not decided yet, kept as the rules decide (a mask of the numbers' cells: a
    # negative ~(safe | mine) would cost every AND a two's complement).
    free = cells
    if free is None:
        free = 0
        for c in constraints:
            free |= c[0]
    todo = list(constraints)
    fresh = free  # cells decided since the last pass: at first, every cell
    while fresh:
        before = free
        still: list[MaskConstraint] = []
        keep = still.append
        for c in todo:
            held, mines, _ = c
            if not held & fresh:
                keep(c)  # none of its cells changed since it was last looked at
                continue
            open_cells = held & free
            need = mines - (held & mine).bit_count() if mine else mines
            if not open_cells:
                if need:
                    return None
                continue
            width = open_cells.bit_count()
            if need == 0:
                safe |= open_cells
                free ^= open_cells
            elif need == width:
                mine |= open_cells
                free ^= open_cells
            elif need < 0 or need > width:
                return None
            else:
                keep(c)
        todo = still
        fresh = before ^ free
    known = safe | mine
    if not known:
        return 0, 0, todo
    rest = []
    for c in todo:
        held = c[0]
        if held & known:  # else it is left as it came
            c = (held & free, c[1] - (held & mine).bit_count(), c[2])
        rest.append(c)
    return safe, mine, rest


def split(constraints: Sequence[MaskConstraint]) -> list[tuple[int, list[MaskConstraint]]]:
    """Independent parts: ``(cells, constraints)``, constraints linked through shared cells.

    >>> split([(0b0011, 1, 9), (0b1100, 1, 8), (0b0110, 1, 7)])
    [(15, [(6, 1, 7), (3, 1, 9), (12, 1, 8)])]
    >>> [cells for cells, _ in split([(0b0011, 1, 9), (0b1100, 1, 8)])]
    [3, 12]
    """
    parts: list[tuple[int, list[MaskConstraint]]] = []
    for c in constraints:
        cells = c[0]
        joined = [c]
        kept = []
        for part in parts:
            if part[0] & cells:
                cells |= part[0]
                joined += part[1]
            else:
                kept.append(part)
        kept.append((cells, joined))
        parts = kept
    return parts


def _linked_order(constraints: Sequence[MaskConstraint]) -> list[MaskConstraint]:
    """From the lowest number on, each constraint after one it shares a cell with."""
    rest = sorted(constraints, key=_number)
    ordered = [rest.pop(0)]
    seen = ordered[0][0]
    while rest:
        # The first that shares a cell with those placed, else the first left.
        at = 0
        for i, c in enumerate(rest):
            if c[0] & seen:
                at = i
                break
        c = rest.pop(at)
        ordered.append(c)
        seen |= c[0]
    return ordered


def components(constraints: Sequence[MaskConstraint]) -> int:
    """How many independent components the numbers form (cells linked through shared numbers).

    >>> components([(0b0011, 1, 9), (0b1100, 1, 8)]), components([(0b0011, 1, 9), (0b0110, 1, 8)])
    (2, 1)
    """
    groups: list[int] = []
    for cells, _, _ in constraints:
        kept = []
        for group in groups:
            if group & cells:
                cells |= group
            else:
                kept.append(group)
        kept.append(cells)
        groups = kept
    return len(groups)


def solutions(constraints: Sequence[MaskConstraint], limit: int) -> list[int] | None:
    """Every layout of a part, as the mask of its mines; ``None`` past ``limit`` search steps.

    Each constraint in turn places the mines it still needs among its cells
    no earlier constraint placed (one step per placement tried), so a layout
    is found once. From the lowest number on, each constraint comes after one
    it shares a cell with: a broken number is then met soon after the
    placements that break it.

    >>> sorted(solutions([(0b011, 1, 0), (0b110, 1, 1)], 100))  # cell 1, or cells 0 and 2
    [2, 5]
    >>> solutions([(0b011, 1, 0), (0b110, 1, 1)], 1) is None
    True
    """
    constraints = _linked_order(constraints)
    # The cells a constraint places are those no earlier one placed: the same on every path,
    # so each constraint's placements of k mines are made once, as masks (in the order
    # combinations() gives them), and the search is a walk over masks.
    #
    # The walk goes constraint by constraint, a layer at a time: each node of a layer (the mines
    # placed so far) makes its children, in order, for the next. A depth-first walk taking the
    # children in order meets the leaves in the same order (both order them by the placements
    # made, first constraint first), and visits the same nodes: a node is a step either way,
    # a layout (a node past the last constraint) too, so the steps, and the limit's answer, are
    # the same. A layer is made in one loop, with no stack and no tuple a node.
    placed = steps = 0
    layer = [0]
    for cells, mines, _ in constraints:
        steps += len(layer)
        if steps > limit:
            return None
        free = cells & ~placed
        placed |= free
        width = free.bit_count()
        choices: dict[int, list[int]] = {}
        children: list[int] = []
        add, extend = children.append, children.extend
        for mined in layer:
            need = mines - (cells & mined).bit_count()
            if need == 0:
                add(mined)
            elif need == width:
                add(mined | free)
            elif 0 < need < width:
                masks = choices.get(need)
                if masks is None:
                    masks = choices[need] = _placements(_singles(free), need)
                extend([mined | m for m in masks])
        layer = children
    steps += len(layer)  # the layouts
    return None if steps > limit else layer


def _singles(mask: int) -> list[int]:
    """The single bits of ``mask``, lowest first.

    >>> _singles(0b1010)
    [2, 8]
    """
    singles = []
    while mask:
        low = mask & -mask
        singles.append(low)
        mask ^= low
    return singles


def _placements(singles: list[int], k: int) -> list[int]:
    """The masks of ``k`` of the cells ``singles`` (single bits, lowest first), in the order
    ``combinations()`` gives them: one cell, or all cells but one, read off directly.

    >>> _placements([1, 2, 4], 1), _placements([1, 2, 4], 2), _placements([1, 2, 4, 8], 2)
    ([1, 2, 4], [3, 5, 6], [3, 5, 9, 6, 10, 12])
    """
    if k == 1:
        return list(singles)
    if k == len(singles) - 1:
        every = sum(singles)
        return [every ^ single for single in reversed(singles)]
    return list(map(sum, combinations(singles, k)))


class _TooManySteps(OverBudget):
    """The search passed its limit."""

    what = "states"


def cells(mask: int, cols: int) -> list[tuple[int, int]]:
    """The ``(row, col)`` cells of a mask, row-major.

    >>> cells(0b100110, 3)
    [(0, 1), (0, 2), (1, 2)]
    """
    # From the highest bit down: taking the lowest (mask & -mask) would cost a negative
    # number as long as the board, and an AND with it, a cell.
    out = []
    while mask:
        i = mask.bit_length() - 1
        mask ^= 1 << i
        out.append(divmod(i, cols))
    out.reverse()
    return out
