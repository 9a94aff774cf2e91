"""How the automatic player guesses: the pieces of the ``best`` strategy (see :mod:`.best`).

Two conventions every strategy shares live here, below :mod:`minesat.player`
(which registers the strategies by name) so both can use them.
"""

from __future__ import annotations

from minesat.analysis import Analysis
from minesat.board import Cell

__all__ = ["TIE", "mine_probability"]

#: Probabilities closer than this are the same probability: exact values that
#: are mathematically equal can differ in the last bits after float division.
TIE = 1e-9


def mine_probability(analysis: Analysis, cell: Cell) -> float:
    """The cell's mine probability; 0.5 when the total is unknown (worth no more than a coin toss)."""
    p = analysis.probability[cell[0]][cell[1]]
    return 0.5 if p is None else p
