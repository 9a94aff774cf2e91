"""minesat: a Minesweeper constraint-solving analysis engine.

The package reads in the order data flows through it: ``board`` (cells, moves,
positions, layouts) -> ``formats`` (files) -> ``game`` / ``generate`` (the
rules) -> ``analysis`` (what a position proves) -> ``player`` (full games) ->
``simulate`` (many games, stored) -> ``report`` (statistics) -> ``cli``.
"""

import sys

from minesat.board import COVERED, FLAG, PRESETS, Action, Cell, Layout, Move, Position, cell_name, parse_cell

__version__ = "0.1.0"

__all__ = [
    "COVERED",
    "FLAG",
    "PRESETS",
    "Action",
    "Cell",
    "Layout",
    "Move",
    "Position",
    "cell_name",
    "parse_cell",
]

# In Jupyter (IPython already running) minesat's values draw themselves: minesat.notebook attaches
# the display hooks to the model's classes, so that the model never imports what draws it.
if "IPython" in sys.modules:
    import minesat.notebook  # noqa: F401
