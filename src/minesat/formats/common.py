"""What every format shares: the errors, the size cap, and the checks of a grid's content."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from minesat.board import COVERED, FLAG, MAX_SIDE, Cell, Position, neighbours
from minesat.errors import InputError, InvalidValue, Namer
from minesat.words import plural

__all__ = [
    "MAX_BYTES",
    "BoardFormatError",
    "Locator",
    "UnsupportedFormatError",
    "check_mine_total",
    "check_position",
    "split_lines",
    "text_locator",
    "too_large",
]

#: Largest file read, in bytes: a MAX_SIDE x MAX_SIDE board with line ends and quoting,
#: plus room for headers. Anything larger is refused before it is read whole.
MAX_BYTES = (MAX_SIDE + 2) ** 2 + 64 * 1024


class BoardFormatError(InputError):
    """A board file that cannot be read: names the file, 1-based line and column, and why;
    ``cell`` the cell they point at, when they point at one.

    >>> err = BoardFormatError("a.txt", 3, 9, "4 in a corner", cell=(2, 8))
    >>> str(err), err.line, err.column, err.cell, err.message
    ('a.txt:3:9: 4 in a corner', 3, 9, (2, 8), '4 in a corner')
    """

    def __init__(self, path: str, line: int, column: int, message: str, *, cell: Cell | None = None) -> None:
        super().__init__(message, path=path, line=line, column=column, cell=cell)


class UnsupportedFormatError(InvalidValue):
    """A format that is unknown, or cannot hold this board (a position in MBF); ``path`` the file
    whose name says no format, when that is what went wrong.

    >>> str(UnsupportedFormatError("no format has the extension '.xyz'", path="foo.xyz"))
    "foo.xyz: no format has the extension '.xyz'"
    """

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path

    def said(self, name: Namer) -> str:
        said = super().said(name)
        return f"{self.path}: {said}" if self.path is not None else said


# Shown as ``minesat.formats.BoardFormatError`` in tracebacks: that is where users import it.
BoardFormatError.__module__ = UnsupportedFormatError.__module__ = "minesat.formats"

#: Where a cell came from in the file: (row, col) -> (line, column), both 1-based.
Locator = Callable[[int, int], tuple[int, int]]


#: A line's end: Unix, Windows, or a lone carriage return (classic Mac OS, some old tools' files).
_LINE_END = re.compile(r"\r\n|\r|\n")


def split_lines(content: str) -> list[str]:
    r"""The lines of a text file, whichever line ends it uses (the last may be empty).

    >>> split_lines("1?\r??\r"), split_lines("1?\r\n??\n")
    (['1?', '??', ''], ['1?', '??', ''])
    """
    return _LINE_END.split(content)


def too_large(path: str, line: int, column: int, what: str) -> BoardFormatError:
    """The error for a board beyond :data:`MAX_SIDE`, pointing at the first excess row or column."""
    return BoardFormatError(
        path,
        line,
        column,
        f"board too large: more than {MAX_SIDE} {what} (at most {MAX_SIDE}x{MAX_SIDE})",
    )


def check_mine_total(path: str, mines: int, rows: int, cols: int, where: tuple[int, int]) -> None:
    """A declared mine total must fit on the board."""
    if mines < 0 or mines > rows * cols:
        raise BoardFormatError(
            path,
            *where,
            f"mine count {mines} does not fit a {rows}x{cols} board (0..{rows * cols})",
        )


def check_position(path: str, position: Position, where: Locator) -> None:
    """Content errors a reader can see without solving: a number above its neighbour count
    (a 4 in a corner) and more flags than the board's mines.

    Numbers that the flags and covered cells cannot satisfy are left to the analysis:
    that is an inconsistent position (exit status 1), not a malformed file.
    """
    rows, cols = position.rows, position.cols
    cells = position.cells
    # The common case at once: no more flags than mines, only known states (so nothing above 8,
    # all an inner cell's neighbours) and no number on the edge above its neighbour count; else
    # the loop below finds the first cell that is wrong.
    if (
        (position.mines is None or cells.count(FLAG) <= position.mines)
        and _KNOWN_STATES.issuperset(cells)
        and _edges_fit(cells, rows, cols)
    ):
        return
    flags = 0
    for i, state in enumerate(cells):
        r, c = divmod(i, cols)
        if state == FLAG:
            flags += 1
            if position.mines is not None and flags > position.mines:
                raise BoardFormatError(
                    path,
                    *where(r, c),
                    f"more flags than mines: flag {flags} of a board with {plural(position.mines, 'mine')}",
                    cell=(r, c),
                )
        elif state > 0:
            around = sum(1 for _ in neighbours((r, c), rows, cols))
            if state > around:
                raise BoardFormatError(
                    path, *where(r, c), f"number {state} is larger than its {around} neighbours", cell=(r, c)
                )
        elif state not in (0, COVERED):  # pragma: no cover - readers only produce known states
            raise BoardFormatError(path, *where(r, c), f"bad cell state {state}")


#: The states a reader produces.
_KNOWN_STATES = frozenset((COVERED, FLAG, *range(9)))


def _edges_fit(cells: tuple[int, ...], rows: int, cols: int) -> bool:
    """Whether no cell of the board's edge (its first and last row and column) holds more than
    its neighbour count: four slices compared in C, where the inner cells (eight neighbours, and
    known states are at most 8) need no look.

    >>> _edges_fit((1, 2, 1, 1), 2, 2), _edges_fit((0, 4, 0, 0), 2, 2)
    (True, False)
    """
    n = rows * cols
    most = _most_shown(rows, cols)
    edges = (slice(0, cols), slice(n - cols, n), slice(0, n, cols), slice(cols - 1, n, cols))
    return all(all(map(int.__le__, cells[edge], most[edge])) for edge in edges)


@lru_cache(maxsize=8)
def _most_shown(rows: int, cols: int) -> tuple[int, ...]:
    """The largest number each cell can show: its neighbour count (a flag or covered cell is
    below it anyway), from the board's shape alone: the table of every cell's neighbours would
    be held by its cache (134 MB on 1000x1000, past a --max-memory of 600 once analysed).

    >>> _most_shown(2, 3)
    (3, 5, 3, 3, 5, 3)
    """
    down = [min(r + 1, rows - 1) - max(r - 1, 0) + 1 for r in range(rows)]
    across = [min(c + 1, cols - 1) - max(c - 1, 0) + 1 for c in range(cols)]
    return tuple(d * a - 1 for d in down for a in across)


def text_locator(lines: list[int], offset: int = 1) -> Locator:
    """Locator for row-per-line formats: row r is on ``lines[r]``, cell c in column offset + c."""

    def where(r: int, c: int) -> tuple[int, int]:
        line = lines[r] if r < len(lines) else (lines[-1] + 1 if lines else 1)
        return line, offset + c

    return where
