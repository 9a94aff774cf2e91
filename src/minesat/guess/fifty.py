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

import itertools
from collections.abc import Iterator

from minesat.analysis import Analysis
from minesat.board import Cell, Position, neighbour_table

__all__ = ["unavoidable_guess", "unavoidable_guesses"]


def unavoidable_guess(
    position: Position, analysis: Analysis, *, chains: bool = True
) -> tuple[Cell, ...] | None:
    """The cells of the first unavoidable guess (row-major by its number), or else (with ``chains``)
    of a chain of 50/50s (:func:`_chain`), or ``None``."""
    reading = _Reading(position, analysis)
    return _around_a_number(reading) or (_chain(reading) if chains else None)


def unavoidable_guesses(position: Position, analysis: Analysis) -> list[tuple[Cell, ...]]:
    """Every unavoidable guess of the position: the cells around a number that nothing can tell
    apart, then the chains of 50/50s, each group once (a player's marks for them).

    >>> from minesat.analysis import analyze
    >>> position = Position.from_rows(["??*??", "13*31", " 111 "], mines=4)   # two walled-in 1s
    >>> unavoidable_guesses(position, analyze(position))
    [((0, 0), (0, 1)), ((0, 3), (0, 4))]
    """
    reading = _Reading(position, analysis)
    groups: list[tuple[Cell, ...]] = []
    for group in itertools.chain(_each_around_a_number(reading), _each_chain(reading)):
        if group not in groups:
            groups.append(group)
    return groups


class _Reading:
    """What both finders read from a position: its numbers, what each still asks, the known mines."""

    def __init__(self, position: Position, analysis: Analysis) -> None:
        self.cols = position.cols
        self.table = neighbour_table(position.rows, position.cols)
        self.cells = position.cells
        self.grid = analysis.probability
        self.unknown = {r * self.cols + c for r, c in analysis.unknown}
        self._numbers: list[tuple[tuple[int, ...], int]] | None = None

    def known_mine(self, j: int) -> bool:
        return self.grid[j // self.cols][j % self.cols] == 1.0  # flags and proven mines alike

    def numbers(self) -> list[tuple[tuple[int, ...], int]]:
        """Each number with two or more undecided neighbours (what both finders need): those
        neighbours and the mines they hold, row-major by number; read once."""
        if self._numbers is None:
            table, cells, unknown = self.table, self.cells, self.unknown
            self._numbers = []
            for i, state in enumerate(cells):
                if state <= 0:
                    continue  # covered, flagged or zero: no number to read
                group = tuple(j for j in table[i] if j in unknown)
                if len(group) >= 2:
                    known = sum(1 for j in table[i] if cells[j] < 0 and self.known_mine(j))
                    self._numbers.append((group, state - known))
        return self._numbers

    def cells_of(self, indices: list[int] | tuple[int, ...]) -> tuple[Cell, ...]:
        return tuple(divmod(j, self.cols) for j in sorted(indices))


def _around_a_number(reading: _Reading) -> tuple[Cell, ...] | None:
    """The undecided cells around one number, when nothing can ever tell them apart (the module docstring)."""
    return next(_each_around_a_number(reading), None)


def _each_around_a_number(reading: _Reading) -> Iterator[tuple[Cell, ...]]:
    """Every group :func:`_around_a_number` could give, row-major by number."""
    table = reading.table
    seen: set[tuple[int, ...]] = set()
    for group, need in reading.numbers():
        # The number must leave a real choice: some, not all, of two or more cells.
        if len(group) < 2 or not 0 < need < len(group) or group in seen:
            continue
        seen.add(group)
        members = set(group)
        watchers = {k for j in group for k in table[j]} - members
        # Whatever sees part of the group must see all of it, or be a mine that shows nothing.
        if all(reading.known_mine(k) or members <= set(table[k]) for k in watchers):
            yield reading.cells_of(group)


def _chain(reading: _Reading) -> tuple[Cell, ...] | None:
    """A chain of linked 50/50s that nothing can ever tell apart, or ``None``.

    A *link* is a number whose undecided neighbours are two cells holding one
    mine: one is a mine, the other safe. Links that share cells join them into a
    chain whose cells alternate, so the chain holds its mines in one of two ways,
    ``A`` or ``B`` (its two colours). When ``A`` and ``B`` hold as many mines and
    every other cell that sees the chain, unless it is a known mine, sees as many
    cells of ``A`` as of ``B``, then swapping ``A`` and ``B`` in any layout gives
    a layout that every number, shown or still to come, and the mine count agree
    with: the two are equally likely and can never be told apart. One of the
    chain's cells must be guessed some day, at even odds. (JSMinesweeper's chains
    of 50/50s, found as a graph.)

    >>> from minesat.analysis import analyze
    >>> position = Position.from_rows([" 1?", "12?", "??2", "12?"], mines=3)   # D3 is a mine
    >>> reading = _Reading(position, analyze(position))
    >>> _around_a_number(reading) is None     # no number's cells are walled in alone
    True
    >>> _chain(reading)                       # A3 + C2 or B3 + C1: the 1s and C3 link them
    ((0, 2), (1, 2), (2, 0), (2, 1))
    """
    return next(_each_chain(reading), None)


def _each_chain(reading: _Reading) -> Iterator[tuple[Cell, ...]]:
    """Every chain :func:`_chain` could give, by its first cell."""
    table = reading.table
    linked: dict[int, set[int]] = {}
    for group, need in reading.numbers():
        if len(group) == 2 and need == 1:
            a, b = group
            linked.setdefault(a, set()).add(b)
            linked.setdefault(b, set()).add(a)
    colour: dict[int, bool] = {}
    for root in sorted(linked):
        if root in colour:
            continue
        # Colour the chain: linked cells differ (one mine, one safe).
        colour[root] = True
        chain, queue, bipartite = [root], [root], True
        while queue:
            i = queue.pop()
            for j in linked[i]:
                if j not in colour:
                    colour[j] = not colour[i]
                    chain.append(j)
                    queue.append(j)
                elif colour[j] == colour[i]:
                    bipartite = False  # cannot happen in a consistent position; never a chain
        side_a = {i for i in chain if colour[i]}
        if not bipartite or 2 * len(side_a) != len(chain):
            continue  # the two ways hold different numbers of mines: the count may yet tell
        members = set(chain)
        watchers = {k for i in chain for k in table[i]} - members
        balanced = all(
            reading.known_mine(k) or sum(1 if j in side_a else -1 for j in table[k] if j in members) == 0
            for k in watchers
        )
        if balanced:
            yield reading.cells_of(chain)
