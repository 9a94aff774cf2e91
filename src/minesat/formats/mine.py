"""The JSMinesweeper ``.mine`` format: a ``WxHxM`` line, then H rows of W cells.

``H`` hidden, ``F`` flag, ``0``-``8`` uncovered, ``M`` or ``?`` an unflagged mine
(layout knowledge). Read as a position, ``M`` and ``?`` are covered cells; read as
a layout, the mines are the ``M``, ``?`` and ``F`` cells.

>>> pos = read_position("3x2x1\\nH1F\\n111\\n", "b.mine")
>>> pos.to_rows(), pos.mines
(['?1*', '111'], 1)
>>> write_layout(read_layout("2x1x1\\nM1\\n", "b.mine"))
'2x1x1\\nMH\\n'
"""

from __future__ import annotations

import re

from minesat.board import COVERED, FLAG, MAX_SIDE, Layout, Position
from minesat.formats.common import (
    BoardFormatError,
    UnsupportedFormatError,
    check_mine_total,
    check_position,
    split_lines,
    text_locator,
    too_large,
)
from minesat.words import plural

__all__ = ["MAX_DIGITS", "MINES", "STATES", "read_layout", "read_position", "write_layout", "write_position"]

#: Cell characters and the position states they stand for.
STATES: dict[str, int] = {
    "H": COVERED,
    "M": COVERED,
    "?": COVERED,
    "F": FLAG,
    **{str(n): n for n in range(9)},
}
#: Characters that are mines when the file is read as a layout.
MINES = frozenset("M?F")

#: More digits than any count on a board needs.
MAX_DIGITS = 18
_SIZE = re.compile(r"^\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*$")


def _split(content: str, path: str) -> tuple[int, int, int, int, list[str], list[int]]:
    """Header values, the mine count's column, the H rows (each W wide), their lines."""
    lines = split_lines(content)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise BoardFormatError(path, 1, 1, "empty file: expected a 'WxHxM' line")
    m = _SIZE.match(lines[0])
    if not m:
        raise BoardFormatError(
            path, 1, 1, f"bad header {lines[0][:40]!r}: expected 'WxHxM' (width x height x mines)"
        )
    for group in (1, 2, 3):
        if len(m.group(group)) > MAX_DIGITS:  # never convert: Python refuses ints of 4300+ digits
            raise BoardFormatError(
                path, 1, m.start(group) + 1, f"header value too large ({len(m.group(group))} digits)"
            )
    width, height, mines = (int(g) for g in m.groups())
    for value, group, what in ((width, 1, "columns"), (height, 2, "rows")):
        if value > MAX_SIDE:
            raise too_large(path, 1, m.start(group) + 1, what)
        if value == 0:
            raise BoardFormatError(path, 1, m.start(group) + 1, f"bad header value: no {what}")
    check_mine_total(path, mines, height, width, (1, m.start(3) + 1))

    rows = [line.rstrip() for line in lines[1:]]
    if len(rows) < height:
        raise BoardFormatError(
            path,
            len(lines) + 1,
            1,
            f"truncated: the header says {plural(height, 'row')}, the file has {len(rows)}",
        )
    if len(rows) > height:
        raise BoardFormatError(path, height + 2, 1, f"more rows than the header's {height}")
    for r, row in enumerate(rows):
        if len(row) != width:
            raise BoardFormatError(
                path,
                r + 2,
                min(len(row), width) + 1,
                f"row is {plural(len(row), 'cell')} wide, the header says {width}",
            )
        for c, ch in enumerate(row):
            if ch not in STATES:
                raise BoardFormatError(
                    path, r + 2, c + 1, f"unknown character {ch!r} (a .mine board uses H F M ? 0-8)"
                )
    return width, height, mines, m.start(3) + 1, rows, list(range(2, height + 2))


def read_position(content: str, path: str) -> Position:
    """The player's view: ``M``/``?``/``H`` covered, ``F`` flagged; the header gives the total."""
    width, height, mines, _, rows, lines = _split(content, path)
    cells = tuple(STATES[ch] for row in rows for ch in row)
    position = Position(height, width, cells, mines)
    check_position(path, position, text_locator(lines))
    return position


def read_layout(content: str, path: str) -> Layout:
    """The mines: every ``M``, ``?`` and ``F`` cell; their number must match the header."""
    width, height, mines, mines_column, rows, _ = _split(content, path)
    found = frozenset(
        (r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in MINES
    )
    if len(found) != mines:
        raise BoardFormatError(
            path,
            1,
            mines_column,
            f"the header says {plural(mines, 'mine')} but the board marks {len(found)} (M, ? or F)",
        )
    return Layout(height, width, found)


_WRITE = {COVERED: "H", FLAG: "F", **{n: str(n) for n in range(9)}}


def write_position(position: Position) -> str:
    if position.mines is None:
        raise UnsupportedFormatError(
            "a .mine file needs the total number of mines, and this position "
            "does not give it (add a '# mines: N' header)"
        )
    rows = [
        "".join(_WRITE[s] for s in position.cells[r * position.cols : (r + 1) * position.cols])
        for r in range(position.rows)
    ]
    return "\n".join([f"{position.cols}x{position.rows}x{position.mines}", *rows]) + "\n"


def write_layout(layout: Layout) -> str:
    """Every mine as ``M``, every other cell hidden (read as a position: nothing uncovered)."""
    rows = [
        "".join("M" if (r, c) in layout.mines else "H" for c in range(layout.cols))
        for r in range(layout.rows)
    ]
    return "\n".join([f"{layout.cols}x{layout.rows}x{layout.mine_count}", *rows]) + "\n"
