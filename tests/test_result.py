"""The Analysis value is built as its definition reads, cell by cell.

:func:`~minesat.analysis.result.build_analysis` builds the grid and the undecided cells
with C-level passes (a flat grid patched where the probabilities are named, the
covered cells picked from bytes). These tests hold it to the plain reading: every
covered cell reads its named probability or ``otherwise``, a flag 1.0, a number
``None``; the undecided cells are the covered ones neither safe nor mined, row-major.
Boards past the byte road's size, and cell states past a byte, take the plain road.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from minesat.analysis import result
from minesat.analysis.result import build_analysis
from minesat.board import COVERED, FLAG, Cell, Position

#: What a random cell holds: covered mostly, a flag, a number; and a state past a byte,
#: which a library caller may put in a Position (the analysis reads it as shown).
STATES = st.sampled_from([COVERED, COVERED, COVERED, FLAG, 0, 1, 2, 3, 8, -3, -200])


@st.composite
def built(draw: st.DrawFn) -> tuple[Position, set[Cell], set[Cell], dict[Cell, float | None], float | None]:
    rows = draw(st.integers(1, 9))
    cols = draw(st.integers(1, 9))
    cells = draw(st.lists(STATES, min_size=rows * cols, max_size=rows * cols))
    position = Position(rows, cols, tuple(cells))
    every = [(r, c) for r in range(rows) for c in range(cols)]
    covered = [cell for cell, state in zip(every, cells, strict=True) if state == COVERED]
    safe = set(draw(st.lists(st.sampled_from(covered), max_size=4))) if covered else set()
    mine = set(draw(st.lists(st.sampled_from(covered), max_size=4))) - safe if covered else set()
    # Named probabilities, uncovered cells among them (ignored: they read as shown).
    named = draw(st.dictionaries(st.sampled_from(every), st.none() | st.floats(0, 1), max_size=12))
    probability: dict[Cell, float | None] = {**named, **dict.fromkeys(safe, 0.0), **dict.fromkeys(mine, 1.0)}
    otherwise = draw(st.none() | st.floats(0, 1))
    return position, safe, mine, probability, otherwise


def plainly(position: Position, safe: set[Cell], mine: set[Cell], probability: dict[Cell, float | None],
            otherwise: float | None) -> tuple[tuple[tuple[float | None, ...], ...], tuple[Cell, ...]]:
    """The grid and the undecided cells, one cell at a time."""
    grid = []
    unknown = []
    for r in range(position.rows):
        row: list[float | None] = []
        for c in range(position.cols):
            state = position.cells[r * position.cols + c]
            if state == COVERED:
                row.append(probability.get((r, c), otherwise))
                if (r, c) not in safe and (r, c) not in mine:
                    unknown.append((r, c))
            else:
                row.append(1.0 if state == FLAG else None)
        grid.append(tuple(row))
    return tuple(grid), tuple(unknown)


@given(built(), st.booleans())
def test_the_grid_and_the_undecided_cells_read_as_their_definition(case, byte_road: bool) -> None:
    position, safe, mine, probability, otherwise = case
    limit = result._CACHED_CELLS
    try:
        if not byte_road:
            result._CACHED_CELLS = 0  # every board past the byte road: the plain road
        found = build_analysis(position, None, set(safe), set(mine), dict(probability), 1, True,
                               otherwise=otherwise)
    finally:
        result._CACHED_CELLS = limit
    grid, unknown = plainly(position, safe, mine, probability, otherwise)
    assert found.probability == grid
    # The same objects, not just equal values: json_chunks writes each object's text once.
    assert all(a is b for got, want in zip(found.probability, grid, strict=True)
               for a, b in zip(got, want, strict=True) if isinstance(b, float) and b != 1.0)
    assert found.unknown == unknown
    assert found.safe == tuple(sorted(safe)) and found.mine == tuple(sorted(mine))
