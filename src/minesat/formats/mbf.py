"""The Minesweeper Board Format (``.mbf``): a binary layout.

Byte 0 width, byte 1 height, bytes 2-3 the mine count (big-endian), then one
(x, y) byte pair per mine: column then row, 0-based. The length is exactly
4 + 2 * mines. MBF holds layouts only; errors name line 1 and the byte's
1-based offset as the column.

>>> lay = read_layout(bytes([3, 2, 0, 1, 2, 1]), "b.mbf")
>>> lay.rows, lay.cols, sorted(lay.mines)
(2, 3, [(1, 2)])
>>> write_layout(lay) == bytes([3, 2, 0, 1, 2, 1])
True
"""

from __future__ import annotations

from minesat.board import Layout, Position
from minesat.formats.common import BoardFormatError, UnsupportedFormatError
from minesat.words import agree, plural

__all__ = [
    "MAX_HEIGHT",
    "MAX_MINES",
    "MAX_WIDTH",
    "read_layout",
    "read_position",
    "write_layout",
    "write_position",
]

#: The largest board and mine count the format can express.
MAX_WIDTH = MAX_HEIGHT = 255
MAX_MINES = 65535


def read_layout(data: bytes, path: str) -> Layout:
    if not data:
        raise BoardFormatError(path, 1, 1, "empty file: an MBF file starts with 4 header bytes")
    if len(data) < 4:
        raise BoardFormatError(
            path,
            1,
            len(data) + 1,
            f"truncated: an MBF file starts with 4 header bytes, this one has {len(data)}",
        )
    width, height, count = data[0], data[1], int.from_bytes(data[2:4], "big")
    if width == 0:
        raise BoardFormatError(path, 1, 1, "bad header value: width 0")
    if height == 0:
        raise BoardFormatError(path, 1, 2, "bad header value: height 0")
    if count > width * height:
        fit = f"{plural(count, 'mine')} {agree(count, 'does', 'do')} not fit"
        raise BoardFormatError(path, 1, 3, f"{fit} a {width}x{height} board")
    expected = 4 + 2 * count
    if len(data) < expected:
        raise BoardFormatError(
            path,
            1,
            len(data) + 1,
            f"truncated: {plural(count, 'mine')} {agree(count, 'needs', 'need')} {expected} bytes, "
            f"the file has {len(data)}",
        )
    if len(data) > expected:
        raise BoardFormatError(
            path, 1, expected + 1,
            f"{plural(len(data) - expected, 'extra byte')} after the {plural(count, 'mine')}",
        )
    mines: set[tuple[int, int]] = set()
    for i in range(count):
        at = 4 + 2 * i
        x, y = data[at], data[at + 1]
        if x >= width:
            raise BoardFormatError(
                path, 1, at + 1, f"mine {i + 1} at x={x} is outside the {width}-column board"
            )
        if y >= height:
            raise BoardFormatError(
                path, 1, at + 2, f"mine {i + 1} at y={y} is outside the {height}-row board"
            )
        if (y, x) in mines:
            raise BoardFormatError(path, 1, at + 1, f"mine {i + 1} at x={x}, y={y} is listed twice")
        mines.add((y, x))
    return Layout(height, width, frozenset(mines))


def read_position(data: bytes, path: str) -> Position:
    """An MBF file seen by a player before the first click: all covered, the total known."""
    layout = read_layout(data, path)
    return Position.covered(layout.rows, layout.cols, layout.mine_count)


def write_layout(layout: Layout) -> bytes:
    if layout.cols > MAX_WIDTH or layout.rows > MAX_HEIGHT or layout.mine_count > MAX_MINES:
        raise UnsupportedFormatError(
            f"MBF holds at most {MAX_WIDTH}x{MAX_HEIGHT} boards with {MAX_MINES} mines, not "
            f"{layout.rows}x{layout.cols} with {layout.mine_count}"
        )
    out = bytearray([layout.cols, layout.rows, *layout.mine_count.to_bytes(2, "big")])
    for row, col in sorted(layout.mines):
        out += bytes([col, row])
    return bytes(out)


def write_position(position: Position) -> bytes:
    raise UnsupportedFormatError(
        "MBF holds layouts only: a position cannot be written to .mbf "
        "(read the board as a layout to write its mines)"
    )
