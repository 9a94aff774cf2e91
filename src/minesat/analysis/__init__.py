"""What a position proves: certainly safe cells, certain mines, exact probabilities, proofs.

The data flows through the modules in order: :mod:`.constraints` (numbers to
cardinality constraints, split into components) -> :mod:`.classify` (local
rules, then SAT) -> :mod:`.counting` (exact counts of each part the rules leave
open) -> :mod:`.combine` (the parts weighed with the interior under the total:
exact integers, or the close road within 1e-10) -> :mod:`.engine` (the pipeline,
its caches, and the analysis within a time and memory budget) -> :mod:`.explain`
(proofs). Small boards take a shorter road through :mod:`.smallroad` (the
position read whole as bit masks by :mod:`.small`), big ones through
:mod:`.bigroad` (as arrays, :mod:`.arrays`), to the same answers; the roads know
the engine only as the protocols of :mod:`.roads`.
:mod:`.glance` and :mod:`.patterns` answer a look-ahead's cheaper questions, and
:mod:`.estimate` gives what propagation proves and estimates where exact
figures are out of reach. :mod:`.sample` draws one layout uniformly from those
a position allows, from the same counts.

>>> from minesat.board import Position, cell_name
>>> position = Position.from_rows(["1?", "??"])
>>> a = analyze(position, mines=1)
>>> [round(p, 4) for p in a.probability[1]]
[0.3333, 0.3333]
>>> [str(m) for m in analyze(Position.from_rows(["1?", "1?", "1?"])).moves()]
['A2', 'C2', 'B2*']
"""

from __future__ import annotations

import os

from minesat.analysis.engine import Analyzer
from minesat.analysis.explain import Explanation, explain
from minesat.analysis.result import Analysis, InconsistentPositionError
from minesat.board import Position

__all__ = ["Analysis", "Analyzer", "Explanation", "InconsistentPositionError", "analyze", "explain"]


def analyze(position: Position | str | os.PathLike[str], mines: int | None = None) -> Analysis:
    """Classify every covered, unflagged cell of a position (or of the board file at a path);
    ``mines`` overrides the position's total.

    >>> analyze("puzzles/partial.dat")
    Analysis(9x9, 10 mines: 8 safe, 7 mines, 0 uncertain, exact)
    """
    from minesat.formats import as_position

    return Analyzer().analyze(as_position(position), mines)
