"""A deliberately simple brute-force Minesweeper analyser: the oracle for the engine's tests.

Written from the rules alone, without looking at :mod:`minesat.analysis`, so that
agreement between the two means something. It is simple rather than fast: the
frontier is enumerated one cell at a time, and only exact integers and
:class:`~fractions.Fraction` are used.

The model (issue 3, "Model"):

- flags are mines;
- every uncovered number ``n`` says its covered, unflagged neighbours hold exactly
  ``n - (flagged neighbours)`` mines;
- covered, unflagged cells touching no number (the *interior*) are interchangeable,
  so a frontier solution with ``k`` mines stands for ``C(interior, M - flags - k)``
  whole-board layouts when the total ``M`` is known.

>>> p = Position.from_rows(["1?", "??"], mines=1)
>>> r = solve(p)
>>> r.consistent, sorted(r.probability.values())
(True, [Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)])
>>> solve(p.with_mines(None)).unknown == frozenset({(0, 1), (1, 0), (1, 1)})
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb

from minesat.board import COVERED, FLAG, Cell, Position, neighbours


@dataclass(frozen=True)
class Constraint:
    """One uncovered number: its covered, unflagged ``cells`` hold exactly ``need`` mines."""

    number: Cell
    cells: tuple[Cell, ...]
    need: int


@dataclass(frozen=True)
class Problem:
    """A position turned into constraints over its covered, unflagged cells."""

    flags: int  # how many flags (all taken as mines)
    constraints: tuple[Constraint, ...]  # numbers with at least one covered, unflagged neighbour
    frontier: tuple[Cell, ...]  # covered, unflagged cells touching a kept number, row-major
    interior: tuple[Cell, ...]  # the other covered, unflagged cells, row-major
    violated: bool  # a kept number with no covered neighbour disagrees with its flags


def build_problem(position: Position, numbers: Iterable[Cell] | None = None) -> Problem:
    """The constraints of ``position``; with ``numbers``, only those number cells count.

    Dropping numbers is how :func:`forced` asks "do these numbers alone force the
    cell?": a cell that touches only dropped numbers becomes free (interior).
    """
    rows, cols, cells = position.rows, position.cols, position.cells
    covered = position.cells_in(COVERED)
    flags = position.cells_in(FLAG)
    # Per-cell counts of flagged and covered neighbours, built from the (few) covered and
    # flagged cells rather than by visiting the neighbours of every number: a 1000x1000
    # board stays quick, and the result is the same.
    flag_around = [0] * (rows * cols)
    covered_around = [0] * (rows * cols)
    for group, counter in ((flags, flag_around), (covered, covered_around)):
        for cell in group:
            for r, c in neighbours(cell, rows, cols):
                counter[r * cols + c] += 1
    keep = None if numbers is None else set(numbers)

    constraints: list[Constraint] = []
    violated = False
    for i, value in enumerate(cells):
        if value < 0:
            continue  # covered or flagged: not a number
        cell = divmod(i, cols)
        if keep is not None and cell not in keep:
            continue
        need = value - flag_around[i]
        if covered_around[i] == 0:
            # A number with nothing left to decide must already be met by its flags.
            violated = violated or need != 0
            continue
        around = tuple(
            n for n in neighbours(cell, rows, cols) if cells[n[0] * cols + n[1]] == COVERED
        )
        constraints.append(Constraint(cell, around, need))

    touched = {cell for con in constraints for cell in con.cells}
    frontier = tuple(cell for cell in covered if cell in touched)
    interior = tuple(cell for cell in covered if cell not in touched)
    return Problem(len(flags), tuple(constraints), frontier, interior, violated)


@dataclass
class FrontierCounts:
    """Frontier solutions grouped by their number of mines ``k``.

    ``solutions[k]`` counts the assignments of the frontier with ``k`` mines that meet
    every constraint; ``mined[k][cell]`` counts those in which ``cell`` is a mine.
    """

    solutions: dict[int, int]
    mined: dict[int, dict[Cell, int]]


def enumerate_frontier(problem: Problem) -> FrontierCounts:
    """Try every assignment of the frontier cells, one cell at a time, row-major.

    After each cell is set, every constraint on it is checked for the two ways it can
    no longer be met: too many mines already, or too few cells left to reach ``need``.
    When the last cell is set, every constraint has no cells left, so the two checks
    together say it holds exactly ``need`` mines.
    """
    order = problem.frontier
    position_of = {cell: i for i, cell in enumerate(order)}
    needs = [con.need for con in problem.constraints]
    mines_in = [0] * len(needs)  # mines assigned so far in each constraint
    open_in = [len(con.cells) for con in problem.constraints]  # cells not assigned yet
    constraints_of: list[list[int]] = [[] for _ in order]
    for ci, con in enumerate(problem.constraints):
        for cell in con.cells:
            constraints_of[position_of[cell]].append(ci)

    counts = FrontierCounts({}, {})
    assignment = [0] * len(order)

    def record(k: int) -> None:
        counts.solutions[k] = counts.solutions.get(k, 0) + 1
        mined = counts.mined.setdefault(k, {})
        for i, value in enumerate(assignment):
            if value:
                mined[order[i]] = mined.get(order[i], 0) + 1

    def place(i: int, k: int) -> None:
        if i == len(order):
            record(k)
            return
        for value in (0, 1):
            ok = True
            for ci in constraints_of[i]:
                mines_in[ci] += value
                open_in[ci] -= 1
                if mines_in[ci] > needs[ci] or mines_in[ci] + open_in[ci] < needs[ci]:
                    ok = False
            if ok:
                assignment[i] = value
                place(i + 1, k + value)
            for ci in constraints_of[i]:
                mines_in[ci] -= value
                open_in[ci] += 1
        assignment[i] = 0

    if not problem.violated:
        place(0, 0)
    return counts


@dataclass(frozen=True)
class Result:
    """What the brute force concludes about a position.

    ``probability`` maps every covered, unflagged cell to its exact mine probability
    when the total is known, and is ``None`` when it is not. When the position is
    inconsistent, every set is empty and ``probability`` is ``None``.
    """

    consistent: bool
    safe: frozenset[Cell]
    mine: frozenset[Cell]
    unknown: frozenset[Cell]
    probability: dict[Cell, Fraction] | None
    layouts: int | None = None  # whole-board layouts consistent with the position, with the total


def _weights(problem: Problem, counts: FrontierCounts, total: int) -> dict[int, int]:
    """Whole-board layouts per frontier solution with ``k`` mines: ``C(interior, rest - k)``."""
    rest = total - problem.flags
    size = len(problem.interior)
    return {k: comb(size, rest - k) if 0 <= rest - k <= size else 0 for k in counts.solutions}


def solve_problem(problem: Problem, total: int | None) -> Result:
    """Classify the covered, unflagged cells of ``problem`` (with the total when given)."""
    counts = enumerate_frontier(problem)
    covered = frozenset(problem.frontier) | frozenset(problem.interior)
    nothing = Result(False, frozenset(), frozenset(), frozenset(), None)

    if total is None:
        if not counts.solutions:
            return nothing
        safe = {c for c in problem.frontier if all(m.get(c, 0) == 0 for m in counts.mined.values())}
        mine = {
            c for c in problem.frontier
            if all(counts.mined[k].get(c, 0) == n for k, n in counts.solutions.items())
        }
        # Without a total the interior is unconstrained: each cell can go either way.
        return Result(True, frozenset(safe), frozenset(mine), covered - safe - mine, None)

    weights = _weights(problem, counts, total)
    layouts = sum(n * weights[k] for k, n in counts.solutions.items())
    if layouts == 0:
        return nothing
    probability: dict[Cell, Fraction] = {}
    for cell in problem.frontier:
        probability[cell] = Fraction(
            sum(counts.mined[k].get(cell, 0) * w for k, w in weights.items()), layouts
        )
    if problem.interior:
        rest, size = total - problem.flags, len(problem.interior)
        # In each layout the interior holds rest - k mines, spread evenly over its cells.
        interior_mines = sum(n * weights[k] * (rest - k) for k, n in counts.solutions.items())
        for cell in problem.interior:
            probability[cell] = Fraction(interior_mines, layouts * size)
    safe = frozenset(c for c, p in probability.items() if p == 0)
    mine = frozenset(c for c, p in probability.items() if p == 1)
    return Result(True, safe, mine, covered - safe - mine, probability, layouts)


def solve(position: Position, mines: int | None = None) -> Result:
    """Brute-force analysis of ``position``; ``mines`` overrides ``position.mines``.

    >>> r = solve(Position.from_rows(["?1?"]), mines=None)
    >>> sorted(r.unknown), r.probability is None
    ([(0, 0), (0, 2)], True)
    """
    total = position.mines if mines is None else mines
    return solve_problem(build_problem(position), total)


def forced(
    position: Position,
    cell: Cell,
    numbers: Iterable[Cell],
    use_total: bool,
    mines: int | None = None,
) -> bool | None:
    """What only the constraints of ``numbers`` (and the total if ``use_total``) say of ``cell``.

    True: a mine in every layout they allow; False: safe in every one; None: either.
    Flags are always taken as mines. The total is ``mines``, else ``position.mines``.

    >>> p = Position.from_rows(["?1", "?2", "?1"], mines=2)
    >>> forced(p, (1, 0), [(0, 1), (1, 1)], False)
    >>> forced(p, (1, 0), [(0, 1), (1, 1), (2, 1)], False)
    False
    """
    total = (position.mines if mines is None else mines) if use_total else None
    if use_total and total is None:
        raise ValueError("use_total needs a known mine count")
    result = solve_problem(build_problem(position, numbers), total)
    if not result.consistent:
        raise ValueError("these constraints alone admit no layout")
    if cell in result.mine:
        return True
    if cell in result.safe:
        return False
    return None


def forces(
    position: Position,
    cell: Cell,
    numbers: Iterable[Cell],
    use_total: bool,
    mines: int | None = None,
    *,
    mined: bool,
) -> bool:
    """True when the given constraints alone force ``cell`` to be a mine (``mined``) or safe."""
    return forced(position, cell, numbers, use_total, mines) is mined


def frontier_components(position: Position) -> int:
    """Number of groups of frontier cells linked through shared numbers."""
    problem = build_problem(position)
    parent = {cell: cell for cell in problem.frontier}

    def root(cell: Cell) -> Cell:
        while parent[cell] != cell:
            cell = parent[cell]
        return cell

    for con in problem.constraints:
        first = root(con.cells[0])
        for other in con.cells[1:]:
            parent[root(other)] = first
    return len({root(cell) for cell in problem.frontier})


def whole_layouts(position: Position, total: int | None) -> Iterator[frozenset[Cell]]:
    """Every set of mines (flags included) consistent with the position, by trying every
    subset of its covered cells: plainer still than :func:`solve`, no frontier, no weights.

    With ``total`` only sets of that many mines; without, sets of every size.

    >>> sorted(sorted(m) for m in whole_layouts(Position.from_rows(["1?", "??"]), 1))
    [[(0, 1)], [(1, 0)], [(1, 1)]]
    """
    covered = position.cells_in(COVERED)
    flags = frozenset(position.cells_in(FLAG))
    numbers = [
        (tuple(neighbours(c, position.rows, position.cols)), position[c])
        for c in position.all_cells()
        if position[c] >= 0
    ]
    sizes = range(len(covered) + 1) if total is None else [total - len(flags)]
    for size in sizes:
        if not 0 <= size <= len(covered):
            continue
        for chosen in combinations(covered, size):
            mines = flags | frozenset(chosen)
            if all(len(mines.intersection(around)) == value for around, value in numbers):
                yield mines
