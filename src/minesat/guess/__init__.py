"""How the automatic player guesses: the pieces of the ``best`` strategy (see :mod:`.best`).

Two conventions every strategy shares live here, below :mod:`minesat.player`
(which registers the strategies by name) so both can use them.
"""

from __future__ import annotations

from minesat.analysis import Analysis
from minesat.board import Cell

__all__ = ["COIN_TOSS", "TIE", "mine_probability"]

#: Probabilities closer than this are the same probability: exact values that
#: are mathematically equal can differ in the last bits after float division.
TIE = 1e-9

#: A covered cell's mine probability where the total is unknown (the analysis gives ``None``):
#: worth no more than a coin toss.
COIN_TOSS = 0.5


def mine_probability(analysis: Analysis, cell: Cell) -> float:
    """The cell's mine probability; :data:`COIN_TOSS` when the total is unknown."""
    p = analysis.probability[cell[0]][cell[1]]
    return COIN_TOSS if p is None else p
