"""From a position to constraints: the frontier, the interior, and independent components.

Every uncovered number ``n`` says: its covered, unflagged neighbours hold exactly
``n - (flagged neighbours)`` mines. Flags are taken as mines. Covered cells that
touch no number (the *interior*) are interchangeable: only the total mine count
constrains them.

>>> from minesat.board import Position
>>> f = Frontier.of(Position.from_rows(["1?", "??"]))
>>> [(c.cells, c.count, c.source) for c in f.constraints]
[(((0, 1), (1, 0), (1, 1)), 1, (0, 0))]
>>> f.interior, f.flags
((), 0)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import networkx as nx

from minesat.analysis.result import InconsistentPositionError
from minesat.board import COVERED, FLAG, Cell, Position, neighbour_table


@dataclass(frozen=True)
class Constraint:
    """``count`` mines among ``cells`` (sorted), stated by the number at ``source``."""

    cells: tuple[Cell, ...]
    count: int
    source: Cell


@dataclass(frozen=True)
class Component:
    """Frontier cells linked through shared numbers, with the constraints on them.

    Components share no cell and no constraint, so each can be solved on its own;
    only the global mine count couples them.
    """

    cells: tuple[Cell, ...]  # sorted row-major
    constraints: tuple[Constraint, ...]

    @property
    def key(self) -> tuple[tuple[tuple[Cell, ...], int], ...]:
        """What the component's solutions depend on, for caching across moves.

        Two positions with the same key have exactly the same component solutions,
        whatever else changed on the board.
        """
        return tuple(sorted((c.cells, c.count) for c in self.constraints))


@dataclass(frozen=True)
class Frontier:
    """The constraint model of a position."""

    rows: int
    cols: int
    constraints: tuple[Constraint, ...]
    frontier: tuple[Cell, ...]  # covered, unflagged cells next to a number, row-major
    interior: tuple[Cell, ...]  # covered, unflagged cells next to no number, row-major
    flags: int

    @classmethod
    def of(cls, position: Position) -> Frontier:
        """Build the constraints, rejecting numbers that flags alone already break."""
        rows, cols = position.rows, position.cols
        table = neighbour_table(rows, cols)
        grid = position.cells
        constraints: list[Constraint] = []
        on_frontier: set[int] = set()
        flags = 0
        for i, state in enumerate(grid):
            if state < 0:
                flags += state == FLAG
                continue
            covered = []
            flagged = 0
            for j in table[i]:
                if grid[j] == COVERED:
                    covered.append(j)
                elif grid[j] == FLAG:
                    flagged += 1
            need = state - flagged
            # A number can be broken before any search: more flags around it than
            # its value, or fewer covered cells than the mines it still needs.
            if need < 0:
                raise InconsistentPositionError(divmod(i, cols), f"{state} has {flagged} flagged neighbours")
            if need > len(covered):
                raise InconsistentPositionError(
                    divmod(i, cols),
                    f"{state} needs {need} more mines but has {len(covered)} covered neighbours",
                )
            if covered:
                covered.sort()
                constraints.append(Constraint(tuple(divmod(j, cols) for j in covered), need, divmod(i, cols)))
                on_frontier.update(covered)
        interior = tuple(divmod(i, cols) for i, s in enumerate(grid) if s == COVERED and i not in on_frontier)
        frontier = tuple(divmod(i, cols) for i in sorted(on_frontier))
        return cls(rows, cols, tuple(constraints), frontier, interior, flags)

    def components(self) -> list[Component]:
        """Split the frontier into independent components (networkx connected components).

        Cells are linked when a number sees both; chaining each number's cells is
        enough for connectivity.
        """
        graph: nx.Graph = nx.Graph()
        graph.add_nodes_from(self.frontier)
        for c in self.constraints:
            nx.add_path(graph, c.cells)
        by_cell: dict[Cell, list[Constraint]] = defaultdict(list)
        for c in self.constraints:
            by_cell[c.cells[0]].append(c)
        parts = []
        for cells in nx.connected_components(graph):
            ordered = tuple(sorted(cells))
            constraints = tuple(c for cell in ordered for c in by_cell.get(cell, ()))
            parts.append(Component(ordered, constraints))
        parts.sort(key=lambda comp: comp.cells[0])
        return parts
