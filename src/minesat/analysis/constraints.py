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

:class:`FrontierModel` keeps the same model for a sequence of positions (the
moves of a game, or hypothetical positions one cell away from it) and updates
only what the changed cells touch: the numbers around them and the components
those numbers belong to.

>>> model = FrontierModel()
>>> model.update(Position.from_rows(["1?", "??"]))
>>> [c.cells for c in model.components()], model.interior_size
([((0, 1), (1, 0), (1, 1))], 0)
>>> model.update(Position.from_rows(["1?", "?1"]))
>>> [c.cells for c in model.components()], model.interior_size
([((0, 1), (1, 0))], 0)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from functools import cached_property, lru_cache

from minesat.analysis.result import InconsistentPositionError
from minesat.board import COVERED, FLAG, Cell, Position, neighbour_table
from minesat.budget import checkpoint

__all__ = ["Component", "Constraint", "Frontier", "FrontierModel"]


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

    @cached_property
    def key(self) -> frozenset[tuple[tuple[Cell, ...], int]]:
        """What the component's solutions depend on, for caching across moves.

        Two positions with the same key have exactly the same component solutions,
        whatever else changed on the board. A set (a repeated constraint adds
        nothing), which keeps its hash: the caches look a key up several times.
        """
        return frozenset((c.cells, c.count) for c in self.constraints)


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
        import networkx as nx  # here, not above: a small position never gets this far

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


@lru_cache(maxsize=4)
def _cell_table(rows: int, cols: int) -> tuple[Cell, ...]:
    """``(row, col)`` of every flat index, made once per board size (as the neighbour table).

    The pairs share their int objects (one per row and column), as the
    neighbour table does: on a 1000x1000 board that saves some 50 MB.
    """
    row_ints, col_ints = list(range(rows)), list(range(cols))
    return tuple((r, c) for r in row_ints for c in col_ints)


class FrontierModel:
    """The constraints and components of the last position seen, updated incrementally.

    :meth:`update` compares the new position with the previous one row by row
    (equal rows cost one C-level comparison), rebuilds the constraints of the
    numbers around the changed cells, and re-splits only the components those
    numbers belonged to or now reach (a breadth-first search over numbers that
    share a cell). Components nothing touched keep their identity, so their
    cached solutions are found again at once. The first position, or a board of
    another size, is built from scratch the same way.

    Cells are flat row-major indices inside; the :class:`Component` values it
    hands out use ``(row, col)`` cells like everything else.
    """

    def __init__(self) -> None:
        self._shape: tuple[int, int] | None = None
        self._state: tuple[int, ...] = ()
        self._table: tuple[tuple[int, ...], ...] = ()
        self._need: dict[int, int] = {}  # number -> mines its covered neighbours hold
        self._constraint: dict[int, Constraint] = {}  # number -> its constraint, made once
        self._cell: tuple[Cell, ...] = ()  # flat index -> (row, col)
        self._sees: dict[int, tuple[int, ...]] = {}  # number -> its covered, unflagged neighbours
        # frontier cell -> the numbers that see it (a list: at most 8, and a set
        # costs three times the memory on a million-cell board)
        self._watch: dict[int, list[int]] = {}
        self._comp_of: dict[int, int] = {}  # number -> component id
        self._comps: dict[int, Component] = {}
        self._next_id = 0
        self._sorted: list[Component] | None = None
        self.flags = 0
        self.covered = 0

    # --- what the analysis reads ----------------------------------------------

    @property
    def frontier_size(self) -> int:
        return len(self._watch)

    @property
    def interior_size(self) -> int:
        return self.covered - len(self._watch)

    def frontier_cells(self) -> Collection[int]:
        """The flat indices (``row * cols + col``) of the frontier's cells, in no order."""
        return self._watch.keys()

    def components(self) -> list[Component]:
        """The components, ordered by their first cell (as :meth:`Frontier.components`)."""
        if self._sorted is None:
            self._sorted = sorted(self._comps.values(), key=lambda comp: comp.cells[0])
        return self._sorted

    def frontier(self) -> Frontier:
        """The whole :class:`Frontier` value, for the rarer roads that need every cell listed."""
        assert self._shape is not None
        rows, cols = self._shape
        constraints = tuple(self._constraint[i] for i in sorted(self._sees))
        frontier = tuple(divmod(i, cols) for i in sorted(self._watch))
        interior = tuple(
            divmod(i, cols) for i, s in enumerate(self._state) if s == COVERED and i not in self._watch
        )
        return Frontier(rows, cols, constraints, frontier, interior, self.flags)

    # --- keeping it up to date ------------------------------------------------

    def update(self, position: Position) -> None:
        """Bring the model to ``position``; :class:`InconsistentPositionError` as :meth:`Frontier.of`."""
        rows, cols, new = position.rows, position.cols, position.cells
        if self._shape != (rows, cols):
            self.__init__()  # type: ignore[misc]  # every field anew, as a new model has them
            self._shape = (rows, cols)
            self._table = neighbour_table(rows, cols)
            self._cell = _cell_table(rows, cols)
            self._state = (COVERED,) * (rows * cols)
            self.covered = rows * cols
        old = self._state
        if old == new:
            return
        changed: list[int] | None = None  # None: a fresh build, every number is new
        if self._sees or self.covered != rows * cols:
            changed = []
            for r in range(rows):
                lo, hi = r * cols, (r + 1) * cols
                if old[lo:hi] != new[lo:hi]:
                    changed.extend(i for i in range(lo, hi) if old[i] != new[i])
        try:
            self._apply(new, changed)
        except InconsistentPositionError:
            # Start again next time, and name the same number a fresh build names
            # (the first broken one, row-major).
            self._shape = None
            Frontier.of(position)
            raise

    def _apply(self, new: tuple[int, ...], changed: list[int] | None) -> None:
        """Bring the model from its state to ``new``, whose cells ``changed`` (None: from nothing)."""
        affected = self._affected(new, changed)
        self._state = new
        self._sorted = None
        pool = self._drop(affected) if changed is not None else set()
        self._constrain(new, affected, pool)
        self._resplit(pool)

    def _affected(self, new: tuple[int, ...], changed: list[int] | None) -> set[int] | list[int]:
        """The numbers whose constraints the change may alter (the changed cells and their
        neighbours), the flags and covered cells counted on the way."""
        if changed is None:
            # From nothing: every number is affected, and only numbers are.
            self.flags = new.count(FLAG)
            self.covered = new.count(COVERED)
            return [i for i, state in enumerate(new) if state >= 0]
        old, table = self._state, self._table
        affected: set[int] = set()
        for i in changed:
            self.flags += (new[i] == FLAG) - (old[i] == FLAG)
            self.covered += (new[i] == COVERED) - (old[i] == COVERED)
            affected.add(i)
            affected.update(table[i])
        return affected

    def _drop(self, affected: set[int] | list[int]) -> set[int]:
        """Drop the old constraints of every affected number, and their components: the numbers
        of those components, to be split again."""
        need, sees, watch, comp_of, comps = self._need, self._sees, self._watch, self._comp_of, self._comps
        cols = self._shape[1] if self._shape else 0
        pool: set[int] = set()
        for a in affected:
            if a not in sees:
                continue
            for j in sees.pop(a):
                watchers = watch[j]
                watchers.remove(a)
                if not watchers:
                    del watch[j]
            del need[a]
            del self._constraint[a]
            cid = comp_of.pop(a)
            if cid in comps:
                for c in comps.pop(cid).constraints:
                    pool.add(c.source[0] * cols + c.source[1])
        return pool

    def _constrain(self, new: tuple[int, ...], affected: set[int] | list[int], pool: set[int]) -> None:
        """The new constraints of the affected numbers (checked as Frontier.of checks them), each
        added to ``pool``."""
        table, cell_of, need, sees, watch = self._table, self._cell, self._need, self._sees, self._watch
        constraint = self._constraint
        for done, a in enumerate(affected):
            if not done & 4095:
                checkpoint()  # a budget watching the work (none for the player)
            state = new[a]
            if state < 0:
                continue
            covered = []
            flagged = 0
            for j in table[a]:
                if new[j] == COVERED:
                    covered.append(j)
                elif new[j] == FLAG:
                    flagged += 1
            left = state - flagged
            if left < 0 or left > len(covered):
                raise InconsistentPositionError(cell_of[a], "this number cannot be satisfied")
            if covered:
                sees[a] = ordered = tuple(covered)  # the neighbour table is in ascending order
                need[a] = left
                constraint[a] = Constraint(tuple(map(cell_of.__getitem__, ordered)), left, cell_of[a])
                for j in covered:
                    if j in watch:
                        watch[j].append(a)
                    else:
                        watch[j] = [a]
                pool.add(a)

    def _resplit(self, pool: set[int]) -> None:
        """Re-split what was touched: numbers linked through shared cells. A number reached in an
        untouched component takes that component along."""
        sees, watch, comp_of, comps = self._sees, self._watch, self._comp_of, self._comps
        seen: set[int] = set()
        for a in sorted(pool):
            if a in seen or a not in sees:
                continue
            checkpoint()
            seen.add(a)
            stack = [a]
            members = []
            while stack:
                x = stack.pop()
                members.append(x)
                cid = comp_of.get(x)
                if cid is not None:
                    comps.pop(cid, None)
                for j in sees[x]:
                    for b in watch[j]:
                        if b not in seen:
                            seen.add(b)
                            stack.append(b)
            self._add_component(members)

    def _add_component(self, members: list[int]) -> None:
        sees, constraint = self._sees, self._constraint
        # Constraints in the order Frontier.components gives them: by first cell, then source.
        members.sort(key=lambda x: (sees[x][0], x))
        cells = sorted({j for x in members for j in sees[x]})
        component = Component(
            tuple(map(self._cell.__getitem__, cells)), tuple(constraint[x] for x in members)
        )
        cid = self._next_id
        self._next_id += 1
        self._comps[cid] = component
        for x in members:
            self._comp_of[x] = cid
