"""minesat: a Minesweeper constraint-solving analysis engine.

The package reads in the order data flows through it: ``board`` (cells, moves,
positions, layouts) -> ``formats`` (files) -> ``game`` / ``generate`` (the
rules) -> ``analysis`` (what a position proves) -> ``player`` (full games) ->
``simulate`` (many games, stored) -> ``report`` (statistics) -> ``cli``.

The names below come from :mod:`minesat.board`, imported when one of them is first asked for
(PEP 562), so that ``import minesat`` (and ``minesat --version``) costs next to nothing:

>>> import minesat
>>> minesat.Position.from_rows(["1?"]).rows
1
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from minesat import board  # noqa: F401
    from minesat.board import (
        COVERED,
        FLAG,
        PRESETS,
        Action,
        Cell,
        Layout,
        Move,
        Position,
        cell_name,
        parse_cell,
    )


def __getattr__(name: str) -> Any:
    if name in __all__ or name == "board":
        import minesat.board

        return minesat.board if name == "board" else getattr(minesat.board, name)
    raise AttributeError(f"module 'minesat' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, "board"})


# In Jupyter (IPython already running) minesat's values draw themselves: minesat.notebook attaches
# the display hooks to the model's classes, so that the model never imports what draws it.
if "IPython" in sys.modules:
    import minesat.notebook  # noqa: F401
