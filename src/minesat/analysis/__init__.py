"""What a position proves: certainly safe cells, certain mines, exact probabilities, proofs.

The data flows through the modules in order: :mod:`.constraints` (numbers to
cardinality constraints, split into components) -> :mod:`.classify` (local
rules, then SAT) -> :mod:`.counting` (exact counts over boxes) ->
:mod:`.engine` (the pipeline and its cache) -> :mod:`.explain` (proofs).
Small boards take a shorter road through :mod:`.small` (the position read
whole as bit masks), to the same answers.

>>> from minesat.board import Position, cell_name
>>> position = Position.from_rows(["1?", "??"])
>>> a = analyze(position, mines=1)
>>> [round(p, 4) for p in a.probability[1]]
[0.3333, 0.3333]
>>> [str(m) for m in analyze(Position.from_rows(["1?", "1?", "1?"])).moves()]
['A2', 'C2', 'B2*']
"""

from __future__ import annotations

from minesat.analysis.engine import Analyzer
from minesat.analysis.explain import Explanation, explain
from minesat.analysis.result import Analysis, InconsistentPositionError
from minesat.board import Position

__all__ = ["Analysis", "Analyzer", "Explanation", "InconsistentPositionError", "analyze", "explain"]


def analyze(position: Position, mines: int | None = None) -> Analysis:
    """Classify every covered, unflagged cell; ``mines`` overrides ``position.mines``."""
    return Analyzer().analyze(position, mines)
