"""What a position proves: certainly safe cells, certain mines, exact probabilities, proofs.

>>> from minesat.board import Position
>>> a = analyze(Position.from_rows(["1?", "??"]), mines=1)
>>> a.probability[0][1]
0.3333333333333333
"""

from __future__ import annotations

from minesat.analysis.result import Analysis, InconsistentPositionError

__all__ = ["Analysis", "InconsistentPositionError", "analyze"]


def analyze(position, mines=None):  # placeholder until the engine lands
    raise NotImplementedError
