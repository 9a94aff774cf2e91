"""Heading off later 50/50s: how likely a cell is to end up in a two-cell 50/50.

Two side-by-side covered cells become a 50/50 when exactly one of them is a
mine and every cell that sees only one of them (the *walls*: three beyond each
end) is a mine or off the board. Once formed, it costs half the games that
reach it. A cell that may still become part of such a pair is worth guessing
*now*, at its present risk, rather than later at even odds: this is the
"50/50 influence" of DavidNHill's JSMinesweeper, in a simpler form.

For a cell ``t`` and each of its four side neighbours ``n``, a pair can only form
if no wall is uncovered and at most one wall is still unknown (it must turn
out a mine). The share of layouts in which it forms with ``n`` as the mine is

    layouts(walls and n flagged) - layouts(walls, n and t flagged)

over the position's layouts: two counts the analysis engine gives exactly.
The influence of ``t`` sums that over its pairs, at most its chance to be safe
or to be a mine, whichever is smaller.

>>> from minesat.analysis import Analyzer
>>> position = Position.from_rows(["??*", "13*", " 11"], mines=3)   # a 50/50 already walled in
>>> a = Analyzer()
>>> {cell: round(x, 4) for cell, x in influences(a, position, a.analyze(position)).items()}
{(0, 0): 0.5, (0, 1): 0.5}
"""

from __future__ import annotations

from minesat.analysis import Analysis, Analyzer, InconsistentPositionError
from minesat.board import COVERED, FLAG, Cell, Position

#: Walls still unknown that a pair may need to become a 50/50 (each must be a mine).
MAX_OPEN_WALLS = 1


def _layouts_with_mines(analyzer: Analyzer, position: Position, mines: list[int]) -> int:
    cells = list(position.cells)
    for i in mines:
        cells[i] = FLAG
    try:
        after = analyzer.analyze(Position(position.rows, position.cols, tuple(cells), position.mines))
    except InconsistentPositionError:
        return 0
    return after.layouts or 0


def influences(analyzer: Analyzer, position: Position, analysis: Analysis) -> dict[Cell, float]:
    """The influence of every cell that has any (see the module docstring); others are left out."""
    cols = position.cols
    grid = analysis.probability
    total = analysis.layouts
    if not total:
        return {}
    unknown = set(analysis.unknown)
    tally: dict[Cell, int] = {}
    for a in analysis.unknown:
        for b in ((a[0], a[1] + 1), (a[0] + 1, a[1])):  # each side-by-side pair once
            if b not in unknown:
                continue
            open_walls = _open_walls(position, grid, a, b)
            if open_walls is None:
                continue
            ia, ib = a[0] * cols + a[1], b[0] * cols + b[1]
            a_mined = _layouts_with_mines(analyzer, position, [*open_walls, ia])
            b_mined = _layouts_with_mines(analyzer, position, [*open_walls, ib])
            if not (a_mined or b_mined):
                continue
            both = _layouts_with_mines(analyzer, position, [*open_walls, ia, ib])
            # Each cell is credited with the layouts where the pair forms and it is the safe one.
            tally[a] = tally.get(a, 0) + b_mined - both
            tally[b] = tally.get(b, 0) + a_mined - both
    found = {}
    for (r, c), n in tally.items():
        p_mine = grid[r][c]
        assert p_mine is not None
        if n:
            found[(r, c)] = min(n / total, p_mine, 1.0 - p_mine)
    return found


def _open_walls(
    position: Position, grid: tuple[tuple[float | None, ...], ...], a: Cell, b: Cell
) -> list[int] | None:
    """The unknown walls of the pair ``a``-``b``, or ``None`` when it can never be a 50/50."""
    rows, cols = position.rows, position.cols
    dr, dc = b[0] - a[0], b[1] - a[1]
    found = []
    # The walls: the three cells beyond each end of the pair, across its length.
    for end, step in ((a, (-dr, -dc)), (b, (dr, dc))):
        wr, wc = end[0] + step[0], end[1] + step[1]
        for k in (-1, 0, 1):
            cr, cc = (wr + k, wc) if dr == 0 else (wr, wc + k)
            if not (0 <= cr < rows and 0 <= cc < cols):
                continue  # off the board: a wall that shows nothing
            state = position.cells[cr * cols + cc]
            if state >= 0 or grid[cr][cc] == 0.0:
                return None  # an uncovered or safe wall will show a number that splits the pair
            if state == COVERED and grid[cr][cc] != 1.0:
                found.append(cr * cols + cc)
    return found if len(found) <= MAX_OPEN_WALLS else None
