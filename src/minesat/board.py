"""Cells, names, moves, positions and layouts: the vocabulary of minesat.

A cell is a plain ``(row, col)`` tuple, 0-based, row 0 at the top. Its *name*
is the row as letters (A..Z, AA, AB, ... like spreadsheet columns) followed by
the 1-based column: ``A5`` is ``(0, 4)``.

>>> cell_name((15, 29))
'P30'
>>> parse_cell("P30")
(15, 29)
>>> str(Move.parse("A5*"))
'A5*'

A :class:`Position` is what a player sees; a :class:`Layout` is where the
mines are. Both are immutable values.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from minesat.errors import InvalidValue
from minesat.words import plural

__all__ = [
    "COVERED",
    "FLAG",
    "MAX_SIDE",
    "POSITION_CHARACTERS",
    "PRESETS",
    "SHORT_REPR_CELLS",
    "Action",
    "Cell",
    "Layout",
    "Move",
    "Position",
    "as_cell",
    "cell_index",
    "cell_name",
    "check_size",
    "neighbour_table",
    "neighbours",
    "on_board",
    "parse_cell",
    "parse_row",
    "render_grid",
    "row_name",
    "without_flags",
]

Cell = tuple[int, int]

#: Largest board minesat accepts from a file or the command line, rows and columns
#: alike: a hostile file cannot make it allocate more than a million cells.
MAX_SIDE = 1000

#: Cell states in a :class:`Position`; 0..8 are uncovered numbers.
COVERED = -1
FLAG = -2

PRESETS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}


# --- names -------------------------------------------------------------------


def row_name(row: int) -> str:
    """Spreadsheet-style letters for a 0-based row.

    >>> [row_name(r) for r in (0, 25, 26, 27, 701, 702)]
    ['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']
    """
    if row < 0:
        raise InvalidValue(f"row must be >= 0, not {row}")
    letters = ""
    n = row + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def parse_row(letters: str) -> int:
    """Inverse of :func:`row_name`.

    >>> parse_row("AA")
    26
    """
    if not letters or not letters.isalpha() or not letters.isascii():
        raise InvalidValue(f"not a row name: {letters!r}")
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def cell_name(cell: Cell) -> str:
    """The name of a cell (docs/cells-and-moves.md): row letters then 1-based column.

    >>> cell_name((0, 4))
    'A5'
    """
    row, col = cell
    if col < 0:
        raise InvalidValue(f"column must be >= 0, not {col}")
    return f"{row_name(row)}{col + 1}"


_CELL_NAME = re.compile(r"^([A-Za-z]+)([0-9]+)$")
_CELL_PAIR = re.compile(r"^\s*([0-9]+)\s*,\s*([0-9]+)\s*$")


def parse_cell(text: str) -> Cell:
    """Parse a cell name (``A5``) or a 0-based ``ROW,COL`` pair.

    >>> parse_cell("A5"), parse_cell("3,3")
    ((0, 4), (3, 3))
    """
    text = text.strip()
    if m := _CELL_NAME.match(text):
        col = int(m.group(2))
        if col < 1:
            raise InvalidValue(f"column numbers start at 1: {text!r}")
        return parse_row(m.group(1)), col - 1
    if m := _CELL_PAIR.match(text):
        return int(m.group(1)), int(m.group(2))
    raise InvalidValue(f"not a cell: {text!r} (expected a name like A5 or ROW,COL like 0,4)")


def as_cell(cell: Cell | str, parameter: str = "cell") -> Cell:
    """A cell given as a ``(row, col)`` pair or by its name (``"A7"``, or ``"0,6"``).

    Every function of the library that takes a cell takes either, through this.
    ``parameter`` names the argument in the error a wrong value raises.

    >>> as_cell("A7"), as_cell((0, 6)), as_cell([2, 3])
    ((0, 6), (0, 6), (2, 3))
    >>> as_cell(7, "start")
    Traceback (most recent call last):
    TypeError: start must be a cell name like 'A7' or a (row, col) pair, not 7
    """
    if isinstance(cell, str):
        try:
            return parse_cell(cell)
        except InvalidValue as err:
            raise InvalidValue(err.message, parameter=parameter, value=cell) from None
    if isinstance(cell, tuple | list) and len(cell) == 2 and all(isinstance(x, int) for x in cell):
        return int(cell[0]), int(cell[1])
    raise TypeError(f"{parameter} must be a cell name like 'A7' or a (row, col) pair, not {cell!r}")


def neighbours(cell: Cell, rows: int, cols: int) -> Iterator[Cell]:
    """The up to 8 cells around ``cell`` that lie on a ``rows`` x ``cols`` board.

    >>> sorted(neighbours((0, 0), 9, 9))
    [(0, 1), (1, 0), (1, 1)]
    """
    r, c = cell
    for dr in (-1, 0, 1):
        rr = r + dr
        if 0 <= rr < rows:
            for dc in (-1, 0, 1):
                cc = c + dc
                if (dr or dc) and 0 <= cc < cols:
                    yield rr, cc


#: Boards up to this many cells count their mines' neighbours through :func:`neighbour_table`
#: (:attr:`Layout.counts`): 2.5 times faster on expert; on a larger board the table (0.9 s for
#: 1000x1000) is made only where a game needs it.
_TABLE_CELLS = 10_000


@lru_cache(maxsize=16)
def neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Flat (row-major) indices of each cell's neighbours, built once per board size.

    The hot loops (constraint building, flood fill) index cells as ``r * cols + c``;
    a table saves recomputing the same 8 offsets millions of times.

    Each index is one shared int object: ints past 256 are not cached by
    Python, and eight private copies per cell cost some 250 MB on a 1000x1000 board.

    >>> neighbour_table(2, 2)[0]
    (1, 2, 3)
    """
    index = list(range(rows * cols))
    table: list[tuple[int, ...]] = []
    add = table.append
    for r in range(rows):
        edge_row = r == 0 or r == rows - 1
        for c in range(cols):
            if edge_row or c == 0 or c == cols - 1:
                add(tuple(index[nr * cols + nc] for nr, nc in neighbours((r, c), rows, cols)))
                continue
            # Inside the board: the three cells above, left, right, the three below, in the order
            # neighbours() gives them (slices of ``index`` share its int objects). 3 times faster:
            # a 1000x1000 table in 0.9 s rather than 3.2.
            i = r * cols + c
            up, down = i - cols, i + cols
            add((*index[up - 1:up + 2], index[i - 1], index[i + 1], *index[down - 1:down + 2]))
    return tuple(table)


def on_board(cell: Cell, rows: int, cols: int) -> bool:
    return 0 <= cell[0] < rows and 0 <= cell[1] < cols


def cell_index(cell: Cell | str, rows: int, cols: int) -> int:
    """The row-major index of a cell (``(row, col)`` or its name) on a ``rows`` x ``cols`` board;
    :class:`IndexError` off the board (a negative or too large index never wraps to another cell).

    >>> cell_index("B1", 2, 30), cell_index((0, 29), 2, 30)
    (30, 29)
    >>> cell_index((0, 30), 2, 30)
    Traceback (most recent call last):
    IndexError: cell (0, 30) is off the 2x30 board
    """
    row, col = as_cell(cell) if isinstance(cell, str) else cell
    if 0 <= row < rows and 0 <= col < cols:
        return row * cols + col
    raise IndexError(f"cell {cell!r} is off the {rows}x{cols} board")


def check_size(rows: int, cols: int, limit: int | None = MAX_SIDE) -> None:
    """Raise :class:`ValueError` unless the board is at least 1x1 and at most ``limit`` a side.

    ``limit`` guards what comes from outside (files, the command line); a game
    built from a layout in code passes ``None``.
    """
    if rows < 1 or cols < 1:
        raise InvalidValue(f"a board needs at least one row and one column, not {rows}x{cols}")
    if limit is not None and (rows > limit or cols > limit):
        raise InvalidValue(f"board must be at most {limit} rows by {limit} columns, not {rows}x{cols}")


# --- drawing -----------------------------------------------------------------

#: How a cell state is drawn: ``?`` covered, ``*`` flag, blank for 0, else its number.
_DISPLAY = {COVERED: "?", FLAG: "*", 0: " ", **{n: str(n) for n in range(1, 9)}}

#: Boards of at most this many cells show all their rows in their ``repr`` (an expert
#: board's is under 2,000 characters); larger ones show their size.
SHORT_REPR_CELLS = 16 * 30


def render_grid(rows: int, cols: int, char: Callable[[Cell], str], width: int | None = None) -> str:
    """Draw a board with row letters down the side and column numbers across the top.

    Every column is as wide as the widest column number (or ``width``, if wider),
    so the grid stays aligned past 9 columns and past 26 rows.

    >>> print(render_grid(2, 3, lambda cell: "?"))
      1 2 3
    A ? ? ?
    B ? ? ?
    """
    width = max(len(str(cols)), width or 0)
    label = len(row_name(rows - 1))
    header = " " * (label + 1) + " ".join(str(c + 1).rjust(width) for c in range(cols))
    lines = [header]
    for r in range(rows):
        cells = " ".join(char((r, c)).rjust(width) for c in range(cols))
        lines.append(f"{row_name(r).ljust(label)} {cells}")
    return "\n".join(lines)


# --- moves -------------------------------------------------------------------


class Action(enum.Enum):
    UNCOVER = ""
    FLAG = "*"
    UNFLAG = "-"
    CHORD = "+"


@dataclass(frozen=True)
class Move:
    """A move in move notation: ``A5`` uncover, ``A5*`` flag, ``A5-`` unflag, ``A5+`` chord.

    >>> Move.parse("B6")
    Move(cell=(1, 5), action=<Action.UNCOVER: ''>)
    >>> str(Move((0, 4), Action.FLAG))
    'A5*'
    """

    cell: Cell
    action: Action = Action.UNCOVER

    @classmethod
    def parse(cls, text: str) -> Move:
        """A move from its move notation; :class:`ValueError` names what is wrong with the text."""
        text = text.strip()
        action = Action.UNCOVER
        if text and text[-1] in "*-+":
            action = Action(text[-1])
            text = text[:-1]
        return cls(parse_cell(text), action)

    def __str__(self) -> str:
        return cell_name(self.cell) + self.action.value


# --- positions and layouts ---------------------------------------------------


@dataclass(frozen=True)
class Position:
    """What a player sees: per cell :data:`COVERED`, :data:`FLAG` or a number 0..8.

    ``cells`` is row-major, ``rows * cols`` long. ``mines`` is the board's total
    number of mines when known.

    >>> p = Position.from_rows(["1?", "??"], mines=1)
    >>> p[0, 0], p["A2"] == COVERED, p.mines
    (1, True, 1)
    >>> print(p)
      1 2
    A 1 ?
    B ? ?
    >>> p
    Position.from_rows(['1?', '??'], mines=1)
    """

    rows: int
    cols: int
    cells: tuple[int, ...]
    mines: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.cells, tuple):
            # A list given by the caller could change later under the analysis caches
            # that keep the position (they compare it with the next one): hold a copy.
            object.__setattr__(self, "cells", tuple(self.cells))
        if len(self.cells) != self.rows * self.cols:
            cells = plural(self.rows * self.cols, "cell")
            raise InvalidValue(f"{self.rows}x{self.cols} position needs {cells}")

    @classmethod
    def from_rows(cls, rows: Iterable[str], mines: int | None = None) -> Position:
        """Build from row strings in the text format (``?`` covered, ``*``/``F`` flag, blank, ``.``
        or ``0`` empty, ``1``-``8`` numbers); every row as long as the first.

        A board file may drop a row's trailing blanks (:mod:`minesat.formats` pads them); rows
        given in code are taken as they are, so a short row is refused, not padded.

        >>> Position.from_rows(["1x"])
        Traceback (most recent call last):
        minesat.errors.InvalidValue: row 1, column 2: 'x' is not a position character (? * F . 0-8 or blank)
        """
        lines = list(rows)
        if isinstance(rows, str):
            raise TypeError("rows must be a list of row strings, not one string (split it into lines)")
        width = _width(lines)
        cells: list[int] = []
        for r, line in enumerate(lines):
            for c, ch in enumerate(line):
                state = _POSITION_CHARS.get(ch)
                if state is None:
                    raise InvalidValue(
                        f"row {r + 1}, column {c + 1}: {ch!r} is not a position character "
                        "(? * F . 0-8 or blank)"
                    )
                cells.append(state)
        return cls(len(lines), width, tuple(cells), mines)

    @classmethod
    def covered(cls, rows: int, cols: int, mines: int | None = None) -> Position:
        """A board with nothing uncovered yet."""
        return cls(rows, cols, (COVERED,) * (rows * cols), mines)

    def __getitem__(self, cell: Cell | str) -> int:
        """The state of a cell, given as ``(row, col)`` or by name; :class:`IndexError` off the board."""
        return self.cells[cell_index(cell, self.rows, self.cols)]

    def __str__(self) -> str:
        """The board drawn with row letters and column numbers, as ``minesat show`` draws it."""
        return render_grid(self.rows, self.cols, lambda cell: _DISPLAY.get(self[cell], str(self[cell])))

    def __repr__(self) -> str:
        """The call that makes the position, or for a large one its size and what is uncovered."""
        mines = "" if self.mines is None else f", mines={self.mines}"
        if self.rows * self.cols <= SHORT_REPR_CELLS:
            return f"Position.from_rows({self.to_rows()!r}{mines})"
        covered = self.cells.count(COVERED)
        return f"<Position {self.rows}x{self.cols}{mines}: {plural(covered, 'cell', ',')} covered>"

    def __call__(self) -> Position:
        """The position itself: ``game.position()``, from before :attr:`Game.position
        <minesat.game.Game.position>` was a property, still reads it."""
        return self

    def all_cells(self) -> Iterator[Cell]:
        for r in range(self.rows):
            for c in range(self.cols):
                yield r, c

    def cells_in(self, state: int) -> list[Cell]:
        """Cells in one state (:data:`COVERED`, :data:`FLAG` or a number), row-major."""
        cols = self.cols
        return [divmod(i, cols) for i, s in enumerate(self.cells) if s == state]

    def to_rows(self) -> list[str]:
        """Row strings in the text format: ``?`` covered, ``*`` flag, blank for 0."""
        return [
            "".join(_POSITION_TEXT[s] for s in self.cells[r * self.cols : (r + 1) * self.cols])
            for r in range(self.rows)
        ]

    def with_mines(self, mines: int | None) -> Position:
        return Position(self.rows, self.cols, self.cells, mines)


def without_flags(position: Position) -> Position:
    """The position with its flags read as covered cells: what its numbers and total say alone.

    >>> without_flags(Position.from_rows(["1*"], mines=1)).to_rows()
    ['1?']
    """
    if FLAG not in position.cells:
        return position
    # A list first: a generator into tuple() costs twice as much, and this runs at every move.
    cells = tuple([COVERED if state == FLAG else state for state in position.cells])
    return Position(position.rows, position.cols, cells, position.mines)


_POSITION_CHARS: dict[str, int] = {
    "?": COVERED,
    "*": FLAG,
    "F": FLAG,
    " ": 0,
    ".": 0,
    **{str(n): n for n in range(9)},
}
_POSITION_TEXT: dict[int, str] = {COVERED: "?", FLAG: "*", 0: " ", **{n: str(n) for n in range(1, 9)}}

def _width(lines: list[str]) -> int:
    """The width of a board given as rows, all as long as the first (a short row is refused)."""
    width = len(lines[0]) if lines else 0
    for r, line in enumerate(lines):
        if len(line) != width:
            wide = plural(len(line), "cell")
            raise InvalidValue(f"row {r + 1} is {wide} wide, row 1 {width}: rows must be equally long")
    return width

#: Characters allowed in a text-format position, for the readers' error messages.
POSITION_CHARACTERS = "".join(_POSITION_CHARS)


@dataclass(frozen=True)
class Layout:
    """Where the mines are on a ``rows`` x ``cols`` board.

    >>> lay = Layout(2, 3, frozenset({(0, 0)}))
    >>> lay.count((1, 1)), lay.to_rows()
    (1, ['*  ', '   '])
    """

    rows: int
    cols: int
    mines: frozenset[Cell] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if not isinstance(self.mines, frozenset):
            object.__setattr__(self, "mines", frozenset(self.mines))
        for cell in self.mines:
            if not on_board(cell, self.rows, self.cols):
                raise InvalidValue(f"mine {cell} is off the {self.rows}x{self.cols} board")

    @classmethod
    def from_rows(cls, rows: Iterable[str]) -> Layout:
        """Build from text rows: ``*`` is a mine, anything else is not.

        The board is as wide as the longest row: a shorter row holds no mine past its end, as a
        layout file's rows may drop their trailing blanks (a position's rows may not: there a
        missing cell would have to be guessed).
        """
        if isinstance(rows, str):
            raise TypeError("rows must be a list of row strings, not one string (split it into lines)")
        lines = list(rows)
        width = max((len(line) for line in lines), default=0)
        mines = frozenset((r, c) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "*")
        return cls(len(lines), width, mines)

    @property
    def mine_count(self) -> int:
        return len(self.mines)

    def __str__(self) -> str:
        """The layout drawn: ``*`` for mines, numbers elsewhere."""
        counts = self.counts
        return render_grid(
            self.rows, self.cols,
            lambda cell: "*" if cell in self.mines else _DISPLAY[counts[cell[0] * self.cols + cell[1]]],
        )

    def __repr__(self) -> str:
        """The call that makes the layout, or for a large one its size and mine count."""
        if self.rows * self.cols <= SHORT_REPR_CELLS:
            return f"Layout.from_rows({self.to_rows()!r})"
        return f"<Layout {self.rows}x{self.cols}: {plural(self.mine_count, 'mine')}>"

    def count(self, cell: Cell) -> int:
        """Number of mines among the neighbours of ``cell``."""
        return sum(1 for n in neighbours(cell, self.rows, self.cols) if n in self.mines)

    @cached_property
    def counts(self) -> tuple[int, ...]:
        """Adjacency count of every cell, row-major (mines included)."""
        rows, cols = self.rows, self.cols
        grid = [0] * (rows * cols)
        if rows * cols <= _TABLE_CELLS:
            # A game on the board floods through the same table: it is made once per size.
            table = neighbour_table(rows, cols)
            for r, c in self.mines:
                for j in table[r * cols + c]:
                    grid[j] += 1
            return tuple(grid)
        for mine in self.mines:
            for r, c in neighbours(mine, rows, cols):
                grid[r * cols + c] += 1
        return tuple(grid)

    def to_rows(self) -> list[str]:
        """Text rows: ``*`` for a mine, blank otherwise."""
        return [
            "".join("*" if (r, c) in self.mines else " " for c in range(self.cols)) for r in range(self.rows)
        ]

    def solution(self) -> Position:
        """The fully solved position: every mine flagged, every other cell uncovered."""
        counts = self.counts
        cells = tuple(
            FLAG if divmod(i, self.cols) in self.mines else counts[i] for i in range(self.rows * self.cols)
        )
        return Position(self.rows, self.cols, cells, self.mine_count)

    def is_solved_by(self, position: Position) -> bool:
        """True when ``position`` has every mine-free cell uncovered with the right number."""
        if (position.rows, position.cols) != (self.rows, self.cols):
            return False
        counts = self.counts
        for i, state in enumerate(position.cells):
            if divmod(i, self.cols) in self.mines:
                if state >= 0:
                    return False
            elif state != counts[i]:
                return False
        return True

    def bbbv(self) -> int:
        """3BV: the fewest left clicks that clear the board without flags.

        Each 8-connected region of zeros counts once (with its numbered border),
        and each numbered cell not on the border of any zero region counts once.

        >>> Layout.from_rows(["*  ", "   ", "   "]).bbbv()
        1
        """
        rows, cols = self.rows, self.cols
        counts = self.counts
        mined = bytearray(rows * cols)
        for r, c in self.mines:
            mined[r * cols + c] = 1
        seen = bytearray(rows * cols)
        clicks = 0
        table = neighbour_table(rows, cols)
        # Openings: flood each zero region, marking it and its border.
        for start in range(rows * cols):
            if seen[start] or counts[start] or mined[start]:
                continue
            clicks += 1
            seen[start] = 1
            stack = [start]
            while stack:
                for j in table[stack.pop()]:
                    if not seen[j]:
                        seen[j] = 1
                        if counts[j] == 0:
                            stack.append(j)
        # Remaining numbered cells each need a click of their own. No mine is seen (a zero has
        # no mine beside it): the cells neither seen nor mined are those left.
        return clicks + rows * cols - seen.count(1) - mined.count(1)
