"""Why is this cell safe? The fewest numbers (and the total) that force it.

Each number's constraint gets a *selector* variable, and so does the global
mine count. Assuming every selector and the opposite of the claim is
unsatisfiable; the solver's unsatisfiable core names the constraints it used.
Deletion then minimises the core: a constraint is dropped whenever the claim
still follows without it, so every constraint left is needed.

>>> from minesat.board import Position
>>> e = explain(Position.from_rows(["1?", "1?", "1?"]), (2, 1))
>>> e.mined, e.numbers, e.uses_total
(False, ((0, 0), (1, 0)), False)
>>> print(e)
C2 is safe because of A1, B1
"""

from __future__ import annotations

from dataclasses import dataclass

from minesat.analysis.classify import CardinalitySolver
from minesat.analysis.constraints import Frontier
from minesat.analysis.engine import Analyzer
from minesat.board import COVERED, Cell, Position, cell_name


@dataclass(frozen=True)
class Explanation:
    """Why a cell is certain: the fewest uncovered numbers (and the total) that force it."""

    cell: Cell
    mined: bool  # True: certainly a mine; False: certainly safe
    numbers: tuple[Cell, ...]  # uncovered number cells whose constraints suffice, row-major
    uses_total: bool  # the global mine count is needed too

    def __str__(self) -> str:
        what = "a mine" if self.mined else "safe"
        because = [cell_name(c) for c in self.numbers]
        if self.uses_total:
            because.append("the total mine count")
        return f"{cell_name(self.cell)} is {what} because of " + ", ".join(because)


def explain(position: Position, cell: Cell, mines: int | None = None) -> Explanation:
    """Explain a certain cell; :class:`ValueError` when it is not certain or not covered."""
    if position[cell] != COVERED:
        raise ValueError(f"{cell_name(cell)} is not a covered, unflagged cell: there is nothing to explain")
    analysis = Analyzer().analyze(position, mines)
    if cell in analysis.safe:
        mined = False
    elif cell in analysis.mine:
        mined = True
    else:
        raise ValueError(f"{cell_name(cell)} is not certain: nothing proves it safe or mined")
    total = analysis.mines
    frontier = Frontier.of(position)
    covered = sorted((*frontier.frontier, *frontier.interior))
    with CardinalitySolver(covered) as sat:
        selectors: dict[int, Cell | None] = {}
        for c in frontier.constraints:
            s = sat.new_var()
            selectors[s] = c.source
            sat.exactly(c.cells, c.count, selector=s)
        if total is not None:
            s = sat.new_var()
            selectors[s] = None  # None stands for the global count
            sat.exactly(covered, total - frontier.flags, selector=s)
        claim_negated = sat.var[cell] if not mined else -sat.var[cell]

        def forced(kept: set[int]) -> bool:
            return not sat.solve([*sorted(kept), claim_negated])

        needed = set(selectors)
        if not forced(needed):  # pragma: no cover - the analysis said it is certain
            raise AssertionError("the analysis and the proof disagree")
        needed &= sat.core()

        # Drop the global count first (a proof from numbers alone reads better),
        # then numbers from the farthest inwards.
        def distance(s: int) -> tuple[int, int]:
            src = selectors[s]
            if src is None:
                return (0, 0)
            return (1, -max(abs(src[0] - cell[0]), abs(src[1] - cell[1])))

        for s in sorted(needed, key=distance):
            trial = needed - {s}
            if forced(trial):
                needed = trial & sat.core()
    numbers = tuple(sorted(src for s in needed if (src := selectors[s]) is not None))
    return Explanation(cell, mined, numbers, any(selectors[s] is None for s in needed))
