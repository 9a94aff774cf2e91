"""The native text format (``.txt``, ``.dat``): one line per row, one character per cell.

A superset of the classic 9x9 ``.dat`` files: ``#`` lines are comments, and
``# key: value`` lines are headers. ``mines`` is the board's total; ``rows`` and
``cols`` (an extension) fix the size when trailing blanks or blank last rows
might have been stripped. Short rows are padded on the right with blanks.

>>> pos = read_position("# mines: 10\\n   1??\\n  12*?\\n", "p.txt")
>>> pos.rows, pos.cols, pos.mines, pos.to_rows()
(2, 6, 10, ['   1??', '  12*?'])
>>> read_layout(" *\\n\\n*", "l.txt").mines == {(0, 1), (2, 0)}
True
>>> print(write_layout(read_layout("*\\n", "l.txt")), end="")
# mines: 1
*
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, field

from minesat.board import COVERED, FLAG, MAX_SIDE, Layout, Position
from minesat.formats.common import (
    BoardFormatError,
    Locator,
    check_mine_total,
    check_position,
    split_lines,
    text_locator,
    too_large,
)
from minesat.words import plural

__all__ = [
    "MAX_DIGITS",
    "STATES",
    "Header",
    "TextBoard",
    "check_layout_total",
    "position_from_rows",
    "read_layout",
    "read_position",
    "split",
    "write_layout",
    "write_position",
]

#: Position characters and the cell states they stand for.
STATES: dict[str, int] = {
    "?": COVERED,
    "*": FLAG,
    "F": FLAG,
    " ": 0,
    ".": 0,
    **{str(n): n for n in range(9)},
}

#: :data:`STATES` as a table for ``bytes.translate``: each character's state as a byte, every
#: other byte :data:`_UNKNOWN` (no state's byte).
_UNKNOWN = 127
_STATE_BYTES = bytes(STATES[chr(b)] & 0xFF if chr(b) in STATES else _UNKNOWN for b in range(256))

_HEADER = re.compile(r"^#\s*([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*?)\s*$")
_NUMBER = re.compile(r"^[0-9]+$")
#: More digits than any count on a board needs (see :data:`MAX_SIDE`).
MAX_DIGITS = 18
#: Header keys this format understands; other ``# key: value`` lines are comments.
_KEYS = ("mines", "rows", "cols")


@dataclass
class Header:
    value: int
    line: int
    column: int  # where the value starts


@dataclass
class TextBoard:
    """A text file split into board rows (unpadded, with their line numbers) and headers."""

    path: str
    rows: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    headers: dict[str, Header] = field(default_factory=dict)
    width: int = 0
    height: int = 0

    def where(self, r: int, c: int) -> tuple[int, int]:
        return text_locator(self.lines)(r, c)

    def padded(self) -> list[str]:
        """Rows padded with blanks to the full width, and blank rows up to the full height."""
        rows = [row.ljust(self.width) for row in self.rows]
        return rows + [" " * self.width] * (self.height - len(rows))

    def header_at(self, key: str) -> tuple[int, int]:
        h = self.headers[key]
        return h.line, h.column


def split(content: str, path: str) -> TextBoard:
    """Separate rows from comments and headers, and fix the board's size."""
    board = TextBoard(path)
    for number, line in enumerate(split_lines(content), 1):
        if line.startswith("#"):
            _header(board, line, number)
            continue
        board.rows.append(line)
        board.lines.append(number)
    # Trailing empty lines are not rows (files end with a newline, editors add more).
    while board.rows and board.rows[-1] == "":
        board.rows.pop()
        board.lines.pop()

    if len(board.rows) > MAX_SIDE:
        raise too_large(path, board.lines[MAX_SIDE], 1, "rows")
    widest = max(map(len, board.rows), default=0)
    if widest > MAX_SIDE:
        for row, number in zip(board.rows, board.lines, strict=True):
            if len(row) > MAX_SIDE:
                raise too_large(path, number, MAX_SIDE + 1, "columns")

    board.height = len(board.rows)
    board.width = widest
    if "rows" in board.headers:
        declared = board.headers["rows"].value
        if board.height > declared:
            raise BoardFormatError(
                path, board.lines[declared], 1, f"more rows than the header's 'rows: {declared}'"
            )
        board.height = declared
    if "cols" in board.headers:
        declared = board.headers["cols"].value
        for row, number in zip(board.rows, board.lines, strict=True):
            if len(row) > declared:
                raise BoardFormatError(
                    path,
                    number,
                    declared + 1,
                    f"row is {plural(len(row), 'cell')} wide, longer than the header's "
                    f"'cols: {declared}': it cannot be padded",
                )
        board.width = declared
    if board.height == 0 or board.width == 0:
        raise BoardFormatError(
            path,
            1,
            1,
            "empty board: no rows" if board.height == 0 else "empty board: every row is empty",
        )
    return board


def _header(board: TextBoard, line: str, number: int) -> None:
    m = _HEADER.match(line)
    if not m or m.group(1).lower() not in _KEYS:
        return  # a comment
    key, text, column = m.group(1).lower(), m.group(2), m.start(2) + 1
    if not _NUMBER.match(text):
        raise BoardFormatError(
            board.path,
            number,
            column,
            f"bad header value {text!r} for '{key}': expected a non-negative whole number",
        )
    if len(text) > MAX_DIGITS:  # never convert: Python refuses ints of 4300+ digits
        raise BoardFormatError(
            board.path, number, column, f"header value for '{key}' is too large ({len(text)} digits)"
        )
    value = int(text)
    if key in ("rows", "cols"):
        if value > MAX_SIDE:
            raise too_large(board.path, number, column, key)
        if value == 0:
            raise BoardFormatError(
                board.path, number, column, f"bad header value: {key} must be at least 1"
            )
    old = board.headers.get(key)
    if old is not None and old.value != value:
        raise BoardFormatError(
            board.path,
            number,
            column,
            f"header '{key}' given twice with different values ({old.value} on line "
            f"{old.line}, {value} here)",
        )
    board.headers[key] = Header(value, number, column)


# --- readers -------------------------------------------------------------------


def read_position(content: str, path: str) -> Position:
    """A position: ``?`` covered, ``*``/``F`` flag, blank/``.``/``0`` empty, ``1``-``8`` numbers."""
    board = split(content, path)
    return position_from_rows(
        board.padded(),
        board.where,
        path,
        board.headers["mines"].value if "mines" in board.headers else None,
        board.header_at("mines") if "mines" in board.headers else (1, 1),
    )


def position_from_rows(
    rows: list[str], where: Locator, path: str, mines: int | None, mines_at: tuple[int, int]
) -> Position:
    """Check and convert full-width text rows; shared with the JSON format."""
    cells: tuple[int, ...] | None = None
    try:
        # Every character to its state's byte at once (two's complement: covered 255, a flag
        # 254), read back as signed bytes: a few C loops where a dict lookup a cell took 4x as long.
        raw = "".join(rows).encode("ascii").translate(_STATE_BYTES)
        if _UNKNOWN not in raw:
            cells = tuple(array("b", raw))
    except (UnicodeEncodeError, TypeError):  # a character no position uses: named below
        pass
    if cells is None:
        cells = _states(rows, where, path)
    height, width = len(rows), len(rows[0])
    if mines is not None:
        check_mine_total(path, mines, height, width, mines_at)
    position = Position(height, width, cells, mines)
    check_position(path, position, where)
    return position


def _states(rows: list[str], where: Locator, path: str) -> tuple[int, ...]:
    """The rows' states cell by cell, the first character no position uses named."""
    cells: list[int] = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            state = STATES.get(ch)
            if state is None:
                raise BoardFormatError(
                    path, *where(r, c), f"unknown character {ch!r} (a position uses ? * F . 0-8)", cell=(r, c)
                )
            cells.append(state)
    return tuple(cells)


def read_layout(content: str, path: str) -> Layout:
    """A layout: ``*`` is a mine, any other character is not (so a solved position is a layout)."""
    board = split(content, path)
    layout = Layout.from_rows(board.padded())
    if "mines" in board.headers:
        check_layout_total(path, layout, board.headers["mines"].value, board.header_at("mines"))
    return layout


def check_layout_total(path: str, layout: Layout, declared: int, at: tuple[int, int]) -> None:
    if declared != layout.mine_count:
        raise BoardFormatError(
            path, *at, f"the header says {plural(declared, 'mine')} but the layout has {layout.mine_count}"
        )


# --- writers -------------------------------------------------------------------


def write_position(position: Position) -> str:
    """Text rows with a ``# mines:`` header when the total is known."""
    return _lines(position.to_rows(), position.mines, position.rows, position.cols)


def write_layout(layout: Layout) -> str:
    """``*`` for mines, blanks elsewhere, under a ``# mines:`` header."""
    return _lines(layout.to_rows(), layout.mine_count, layout.rows, layout.cols)


def _lines(rows: list[str], mines: int | None, height: int, width: int) -> str:
    head = [] if mines is None else [f"# mines: {mines}"]
    # The size is stated only when stripping trailing blanks (as old .dat files and many
    # editors do) would change it: a blank last row, or no row reaching the last column.
    if not rows[-1].strip(" ") or max(len(row.rstrip(" ")) for row in rows) < width:
        head += [f"# rows: {height}", f"# cols: {width}"]
    return "\n".join([*head, *rows]) + "\n"
