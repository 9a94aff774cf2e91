"""Why is this cell safe? The fewest numbers (and the total, if needed) that force it.

Each number's constraint gets a *selector* variable, and so does the global
mine count. A set of selectors *proves* the claim when assuming them together
with the opposite of the claim is unsatisfiable.

The smallest proof is found by the implicit hitting set method: every
satisfiable attempt is grown into a maximal satisfiable set of constraints, and
its complement (a *correction set*) must be hit by any proof. The candidate
proof is always a smallest set hitting every correction set found so far; the
first candidate that is unsatisfiable is therefore a smallest proof. The global
count joins only when the numbers alone cannot force the cell.

That search may grow exponentially with the size of the proof (a long chain of
numbers). Given a budget of search nodes (``max_nodes``), past it the proof is
instead *irreducible*: the solver's unsatisfiable core, then each number dropped
whose absence still refutes the claim. No number of it can go, but a smaller
proof may exist (``smallest`` is then false).

>>> from minesat.board import Position
>>> e = explain(Position.from_rows(["1?", "1?", "1?"]), (2, 1))
>>> e.mined, e.numbers, e.uses_total
(False, ((0, 0), (1, 0)), False)
>>> print(e)
C2 is safe because of A1, B1
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from minesat.analysis.classify import CardinalitySolver
from minesat.analysis.constraints import Constraint, Frontier
from minesat.analysis.engine import Analyzer
from minesat.analysis.result import Analysis
from minesat.board import COVERED, FLAG, Cell, Position, as_cell, cell_name, neighbour_table, on_board
from minesat.errors import InvalidValue, OverBudget

__all__ = ["Explanation", "explain", "explain_json"]


@dataclass(frozen=True)
class Explanation:
    """Why a cell is certain: the fewest uncovered numbers (and the total) that force it."""

    cell: Cell
    mined: bool  # True: certainly a mine; False: certainly safe
    numbers: tuple[Cell, ...]  # uncovered number cells whose constraints suffice, row-major
    uses_total: bool  # the global mine count is needed too
    smallest: bool = True  # no proof has fewer numbers (false: irreducible only, past the budget)

    def __str__(self) -> str:
        what = "a mine" if self.mined else "safe"
        because = [cell_name(c) for c in self.numbers]
        if self.uses_total:
            because.append("the total mine count")
        return f"{cell_name(self.cell)} is {what} because of " + ", ".join(because)

    def __repr__(self) -> str:
        """Its sentence (the fields are attributes: ``cell``, ``mined``, ``numbers``, ...)."""
        return f"Explanation({str(self)!r}{'' if self.smallest else ', smallest=False'})"

    def to_json(self) -> dict[str, Any]:
        """The object ``minesat analyze --explain CELL --json`` prints for a certain cell (no ``file``)."""
        return {
            "cell": cell_name(self.cell),
            "certain": True,
            "mine": self.mined,
            "numbers": [cell_name(c) for c in self.numbers],
            "uses_total": self.uses_total,
        }


def explain_json(position: Position, analysis: Analysis, cell: Cell) -> dict[str, Any]:
    """Why ``cell`` is certain (:meth:`Explanation.to_json`), or, when it is not, its probability.

    The object ``minesat analyze --explain CELL --json`` prints (without ``file``);
    ``analysis`` is the position's, with the total it was given.

    >>> pos = Position.from_rows(["1?", "??"], mines=1)
    >>> explain_json(pos, Analyzer().analyze(pos), (0, 1))
    {'cell': 'A2', 'certain': False, 'probability': 0.3333333333333333}
    """
    if cell in analysis.unknown:
        p = analysis.probability[cell[0]][cell[1]]
        return {"cell": cell_name(cell), "certain": False, "probability": p}
    return explain(position, cell, analysis.mines).to_json()


def explain(
    position: Position | str | os.PathLike[str],
    cell: Cell | str,
    mines: int | None = None,
    *,
    analysis: Analysis | None = None,
    mined: bool | None = None,
    max_nodes: int | None = None,
) -> Explanation:
    """Explain a certain cell; :class:`ValueError` when it is not certain or not covered.

    ``analysis`` is the position's (with ``mines``), when the caller has it. A caller who knows
    the cell is proven already says which way (``mined``): no analysis is made then, and the
    total is ``mines`` or the position's. ``max_nodes`` bounds the search for a smallest proof
    (see the module docstring); ``None``: no bound.

    The numbers of the cell's own component are tried first, on their own: no other number
    shares a cell with them, so none can be part of a proof from the numbers alone (only the
    total couples the components), and on a big board the problem stays small.

    ``position`` may be the path of a board file, ``cell`` a name (``"C2"``) or ``(row, col)``.

    >>> p = Position.from_rows(["1?", "1?", "1?"])
    >>> explain(p, "C2", max_nodes=0)
    Explanation('C2 is safe because of A1, B1', smallest=False)
    """
    from minesat.formats import as_position

    position = as_position(position)
    cell = as_cell(cell)
    if not on_board(cell, position.rows, position.cols):
        raise IndexError(f"cell {cell_name(cell)} is off the {position.rows}x{position.cols} board")
    if position[cell] != COVERED:
        raise InvalidValue(f"{cell_name(cell)} is not a covered, unflagged cell: there is nothing to explain")
    if mined is None:
        if analysis is None:
            analysis = Analyzer().analyze(position, mines)
        if cell in analysis.safe:
            mined = False
        elif cell in analysis.mine:
            mined = True
        else:
            raise InvalidValue(f"{cell_name(cell)} is not certain: nothing proves it safe or mined")
        total = analysis.mines
    else:
        total = mines if mines is not None else position.mines
    near = _component(position, cell)
    if near:
        cells = sorted({c for con in near for c in con.cells})
        found = _prove(cells, near, cell, mined, None, max_nodes)
        if found is not None:
            return Explanation(cell, mined, *found)
    frontier = Frontier.of(position)
    covered = sorted((*frontier.frontier, *frontier.interior))
    if total is None:
        raise InvalidValue(
            f"{cell_name(cell)} is not certain from the numbers alone, and the total is unknown"
        )
    found = _prove(covered, frontier.constraints, cell, mined, total - frontier.flags, max_nodes)
    if found is None:
        raise InvalidValue(f"{cell_name(cell)} is not certain: nothing proves it safe or mined")
    return Explanation(cell, mined, *found)


def _component(position: Position, cell: Cell) -> list[Constraint]:
    """The numbers linked to ``cell`` through shared covered cells, as constraints in row-major
    order of their numbers (none for an interior cell); found from the cell outwards, so that its
    cost is the component's, not the board's."""
    rows, cols = position.rows, position.cols
    table = neighbour_table(rows, cols)
    grid = position.cells
    seen_cells = {cell[0] * cols + cell[1]}
    numbers: set[int] = set()
    todo = list(seen_cells)
    while todo:
        for j in table[todo.pop()]:
            if grid[j] < 0 or j in numbers:
                continue  # covered or flagged: no number
            numbers.add(j)
            for k in table[j]:
                if grid[k] == COVERED and k not in seen_cells:
                    seen_cells.add(k)
                    todo.append(k)
    constraints = []
    for i in sorted(numbers):  # as Frontier.of builds them: row-major, cells sorted
        covered = sorted(j for j in table[i] if grid[j] == COVERED)
        need = grid[i] - sum(1 for j in table[i] if grid[j] == FLAG)
        constraints.append(Constraint(tuple(divmod(j, cols) for j in covered), need, divmod(i, cols)))
    return constraints


def _prove(
    covered: list[Cell],
    constraints: tuple[Constraint, ...] | list[Constraint],
    cell: Cell,
    mined: bool,
    remaining: int | None,
    max_nodes: int | None,
) -> tuple[tuple[Cell, ...], bool, bool] | None:
    """The proof of the claim over ``covered`` from ``constraints`` (and, if the numbers alone do
    not force it, the ``remaining`` mines among ``covered``): ``(numbers, uses_total, smallest)``;
    ``None`` when the numbers do not force it and no total is given."""
    with CardinalitySolver(covered) as sat:
        holds: dict[int, tuple[tuple[Cell, ...], int]] = {}  # selector -> (cells, mines)
        source: dict[int, Cell] = {}
        for c in constraints:
            s = sat.new_var()
            holds[s], source[s] = (c.cells, c.count), c.source
            sat.exactly(c.cells, c.count, selector=s)
        claim_negated = sat.var[cell] if not mined else -sat.var[cell]
        numbers = sorted(source, key=lambda s: _distance(source[s], cell))
        fixed: list[int] = []
        if sat.solve([*numbers, claim_negated]):
            # The numbers alone allow the opposite: the global count is needed.
            if remaining is None:
                return None
            s = sat.new_var()
            holds[s] = (tuple(covered), remaining)
            sat.exactly(covered, remaining, selector=s)
            fixed = [s]
            if sat.solve([*fixed, *numbers, claim_negated]):
                return None  # not certain at all
        try:
            proof, smallest = _smallest_proof(sat, numbers, fixed, claim_negated, holds, max_nodes), True
        except _PastBudget:
            proof, smallest = _irreducible_proof(sat, numbers, fixed, claim_negated), False
    return tuple(sorted(source[s] for s in proof)), bool(fixed), smallest


class _PastBudget(OverBudget):
    """The search for a smallest proof went past its budget of nodes."""

    what = "states"


def _irreducible_proof(
    sat: CardinalitySolver, candidates: list[int], fixed: list[int], claim_negated: int
) -> set[int]:
    """A proof from which no number can be dropped: the solver's core, shrunk one number at a time
    (the farthest first)."""
    solved = sat.solve([*fixed, *candidates, claim_negated])
    assert not solved, "the claim is certain: all the numbers together refute its opposite"
    proof = [s for s in candidates if s in sat.core()]
    for s in reversed(list(proof)):
        trial = [t for t in proof if t != s]
        if not sat.solve([*fixed, *trial, claim_negated]):
            core = sat.core()
            proof = [t for t in trial if t in core]
    return set(proof)


def _distance(a: Cell, b: Cell) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _smallest_proof(
    sat: CardinalitySolver,
    candidates: list[int],
    fixed: list[int],
    claim_negated: int,
    holds: dict[int, tuple[tuple[Cell, ...], int]],
    max_nodes: int | None = None,
) -> set[int]:
    """A smallest subset of ``candidates`` that, with ``fixed``, refutes ``claim_negated``.

    ``candidates`` are in order of preference (nearest numbers first), which
    breaks ties between proofs of the same size. :class:`_PastBudget` once the
    hitting-set searches have visited more than ``max_nodes`` nodes in all.
    """
    rank = {s: i for i, s in enumerate(candidates)}
    correction_sets: list[frozenset[int]] = []
    budget = [max_nodes] if max_nodes is not None else None
    while True:
        attempt = _smallest_hitting_set(correction_sets, rank, budget)
        if not sat.solve([*fixed, *sorted(attempt), claim_negated]):
            return attempt
        # Grow the attempt into a maximal set of constraints that still allows
        # the opposite of the claim: first everything the model already
        # satisfies, then each remaining candidate that can be added.
        grown = set(attempt) | _satisfied(sat, candidates, holds)
        for s in candidates:
            if s not in grown and sat.solve([*fixed, *sorted(grown), s, claim_negated]):
                grown |= {s} | _satisfied(sat, candidates, holds)
        correction_sets.append(frozenset(candidates) - grown)


def _satisfied(sat: CardinalitySolver, candidates: list[int], holds: dict[int, tuple]) -> set[int]:
    """Candidates whose constraints hold in the solver's last model."""
    mined = sat.mined_in_model()
    return {s for s in candidates if sum(1 for c in holds[s][0] if c in mined) == holds[s][1]}


def _smallest_hitting_set(
    sets: list[frozenset[int]], rank: dict[int, int], budget: list[int] | None = None
) -> set[int]:
    """An exact smallest set meeting every set in ``sets`` (branch and bound).

    Branches on the smallest set not yet hit; a count of pairwise disjoint
    unhit sets bounds how many more elements any completion needs. ``budget``
    holds the nodes left to visit (shared across calls); :class:`_PastBudget` when none are.
    """
    best: list[int] | None = None

    def lower_bound(chosen: set[int]) -> int:
        used: set[int] = set()
        bound = 0
        for s in sorted((s for s in sets if not s & chosen), key=len):
            if not s & used:
                bound += 1
                used |= s
        return bound

    def search(chosen: list[int]) -> None:
        nonlocal best
        if budget is not None:
            budget[0] -= 1
            if budget[0] < 0:
                raise _PastBudget("the search for a smallest proof passed its budget of nodes")
        picked = set(chosen)
        unhit = [s for s in sets if not s & picked]
        if not unhit:
            if best is None or len(chosen) < len(best):
                best = list(chosen)
            return
        if best is not None and len(chosen) + lower_bound(picked) >= len(best):
            return
        smallest = min(unhit, key=len)
        for element in sorted(smallest, key=rank.__getitem__):
            search([*chosen, element])

    search([])
    assert best is not None
    return set(best)
