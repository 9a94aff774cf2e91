"""Unavoidable guesses: cells among which no information can ever tell where the mines are.

The classic case is a 50/50: two cells, one mine, walled in so that nothing
sees one without the other. More generally, take a number whose undecided
neighbours ``T`` (two or more) hold some but not all of its remaining mines.
If every other cell next to any cell of ``T`` is either a known mine or next to
*all* of ``T``, then every number that will ever be uncovered counts all of
``T`` together or none of it, and the mine count cannot split it either (``T``
holds the same number of mines in every layout). Which cells of ``T`` are mined
can never be learnt: one of them must be guessed some day, at the same risk.

Guessing it *at once* loses nothing and can gain: the number it shows when it
survives informs the rest of the board, and in the games that end here the
player has not yet taken other risks for nothing.

>>> from minesat.analysis import analyze
>>> position = Position.from_rows(["??*", "13*", " 11"], mines=3)   # a 1 over two cells, walled in
>>> unavoidable_guess(position, analyze(position))
((0, 0), (0, 1))
"""

from __future__ import annotations

from minesat.analysis import Analysis
from minesat.board import Cell, Position, neighbour_table


def unavoidable_guess(position: Position, analysis: Analysis) -> tuple[Cell, ...] | None:
    """The cells of the first unavoidable guess (row-major by its number), or ``None``."""
    rows, cols = position.rows, position.cols
    table = neighbour_table(rows, cols)
    cells = position.cells
    grid = analysis.probability
    unknown = {r * cols + c for r, c in analysis.unknown}

    def known_mine(j: int) -> bool:
        return grid[j // cols][j % cols] == 1.0  # flags and proven mines alike

    seen: set[tuple[int, ...]] = set()
    for i, state in enumerate(cells):
        if state <= 0:
            continue  # covered, flagged or zero: no number to read
        group = tuple(j for j in table[i] if j in unknown)
        need = state - sum(1 for j in table[i] if cells[j] < 0 and known_mine(j))
        # The number must leave a real choice: some, not all, of two or more cells.
        if len(group) < 2 or not 0 < need < len(group) or group in seen:
            continue
        seen.add(group)
        members = set(group)
        watchers = {k for j in group for k in table[j]} - members
        # Whatever sees part of the group must see all of it, or be a mine that shows nothing.
        if all(known_mine(k) or members <= set(table[k]) for k in watchers):
            return tuple(divmod(j, cols) for j in group)
    return None
