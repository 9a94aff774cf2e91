"""The values the analysis engine returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from minesat.board import Action, Cell, Move, Position, cell_name


class InconsistentPositionError(ValueError):
    """No layout satisfies the position; ``cell`` is a number that cannot be met."""

    def __init__(self, cell: Cell, message: str) -> None:
        super().__init__(f"{cell_name(cell)}: {message}")
        self.cell = cell


@dataclass(frozen=True)
class Analysis:
    """The classification of every covered, unflagged cell of a position (SPEC section 3).

    ``probability[r][c]`` is ``None`` for uncovered cells, ``1.0`` for flags, and the
    exact mine probability otherwise (``None`` for uncertain cells when the total
    mine count is unknown). ``exact`` is false when the probabilities are
    estimates (a component was too large to count exactly, or the components
    too many to combine exactly within the engine's work budget), or when the
    solver that then decides the certain cells ran out of that budget. The
    safe and mine cells listed are always certain; they are all of them unless
    the solver ran out (only on hostile positions of thousands of cells that
    no count takes; a component too big for a single solver call is then not
    even checked for a layout).
    """

    rows: int
    cols: int
    mines: int | None
    safe: tuple[Cell, ...]
    mine: tuple[Cell, ...]
    unknown: tuple[Cell, ...]
    probability: tuple[tuple[float | None, ...], ...]
    components: int
    exact: bool = True
    #: The number of layouts consistent with the position and the total, when it
    #: is counted exactly (total known, every component counted); else ``None``.
    #: A look-ahead uses ratios of it: P(a cell is safe and shows n) is
    #: layouts(position with that n) / layouts(position).
    layouts: int | None = None
    #: The position analysed, when the engine made this value (for pictures; not compared).
    position: Position | None = field(default=None, compare=False, repr=False)

    def moves(self) -> list[Move]:
        """One uncover per safe cell, then one flag per certain mine, row-major."""
        return [Move(c) for c in self.safe] + [Move(c, Action.FLAG) for c in self.mine]

    def to_json(self) -> dict[str, Any]:
        """The SPEC section 3 object (``exact`` is an extension)."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "safe": [list(c) for c in self.safe],
            "mine": [list(c) for c in self.mine],
            "unknown": [list(c) for c in self.unknown],
            "probability": [list(row) for row in self.probability],
            "moves": [str(m) for m in self.moves()],
            "components": self.components,
            "exact": self.exact,
        }
