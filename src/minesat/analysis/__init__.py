"""What a position proves: certainly safe cells, certain mines, exact probabilities, proofs.

(Engine landing: the signatures below are the contract.)
"""

from __future__ import annotations

from dataclasses import dataclass

from minesat.analysis.result import Analysis, InconsistentPositionError
from minesat.board import Cell, Position

__all__ = ["Analysis", "Analyzer", "Explanation", "InconsistentPositionError", "analyze", "explain"]


class Analyzer:
    """An analysis engine with a cache: components seen before are not solved again.

    One Analyzer per game lets the player re-analyse after every move cheaply.
    """

    def analyze(self, position: Position, mines: int | None = None) -> Analysis:
        raise NotImplementedError


def analyze(position: Position, mines: int | None = None) -> Analysis:
    """Classify every covered cell; ``mines`` overrides ``position.mines``."""
    return Analyzer().analyze(position, mines)


@dataclass(frozen=True)
class Explanation:
    """Why a cell is certain: the fewest uncovered numbers (and the total) that force it."""

    cell: Cell
    mined: bool  # True: certainly a mine; False: certainly safe
    numbers: tuple[Cell, ...]  # uncovered number cells whose constraints suffice, row-major
    uses_total: bool  # the global mine count is needed too


def explain(position: Position, cell: Cell, mines: int | None = None) -> Explanation:
    """Raises ValueError when the cell is not certain (or not covered)."""
    raise NotImplementedError
