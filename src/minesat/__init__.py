"""minesat: a Minesweeper constraint-solving analysis engine.

The package reads in the order data flows through it: ``board`` (cells, moves,
positions, layouts) -> ``formats`` (files) -> ``game`` / ``generate`` (the
rules) -> ``analysis`` (what a position proves) -> ``player`` (full games) ->
``simulation`` (many games, stored) -> ``report`` (statistics) -> ``cli``.

The library's front door (:mod:`minesat.shortcuts`), each loaded when first used (PEP 562), so
that ``import minesat`` (and ``minesat --version``) costs next to nothing:

>>> import minesat
>>> minesat.analyze("puzzles/partial.dat")
Analysis(9x9, 10 mines: 8 safe, 7 mines, 0 uncertain, exact)
>>> minesat.explain("puzzles/partial.dat", "A7")
Explanation('A7 is safe because of A9, B8')
>>> minesat.Position.from_rows(["1?"]).rows
1

``minesat.play(...)`` plays a game, ``minesat.simulate(...)`` many and ``minesat.sweep(...)``
many at every density (docs/library.md).

The namespace holds the front door and nothing else: what it imports to work is kept under
private names, so ``dir(minesat)`` and tab completion show only what is meant for use.

>>> [name for name in dir(minesat) if not name.startswith("_")] == sorted([*minesat.__all__, "board"])
True
"""

import sys as _sys
import typing as _typing

from minesat.version import __version__ as __version__  # re-exported: minesat.__version__

__all__ = [
    "COVERED",
    "FLAG",
    "PRESETS",
    "Action",
    "BoardSpec",
    "Cell",
    "FirstClick",
    "Game",
    "Layout",
    "Move",
    "Position",
    "analyze",
    "cell_name",
    "explain",
    "parse_cell",
    "play",
    "read_layout",
    "read_position",
    "simulate",
    "sweep",
]

if _typing.TYPE_CHECKING:
    from minesat import board  # noqa: F401
    from minesat.analysis import analyze, explain
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
    from minesat.formats import read_layout, read_position
    from minesat.game import Game
    from minesat.generate import BoardSpec, FirstClick
    from minesat.shortcuts import play
    from minesat.simulation import simulate
    from minesat.sweeping import sweep


def __getattr__(name: str) -> "_typing.Any":
    # Each name is imported when first asked for, so that ``import minesat`` (and ``minesat
    # --version``) costs next to nothing; the imports are plain, for tools to follow.
    if name in ("analyze", "explain"):
        import minesat.analysis as analysis
        return getattr(analysis, name)
    if name in ("read_position", "read_layout"):
        import minesat.formats as formats
        return getattr(formats, name)
    if name == "play":
        from minesat.shortcuts import play
        return play
    if name in ("BoardSpec", "FirstClick"):
        import minesat.generate as generate
        return getattr(generate, name)
    if name == "Game":
        from minesat.game import Game
        return Game
    if name in ("COVERED", "FLAG", "PRESETS", "Action", "Cell", "Layout", "Move", "Position", "cell_name",
                "parse_cell", "board"):
        import minesat.board as board
        return board if name == "board" else getattr(board, name)
    if name == "simulate":
        from minesat.simulation import simulate
        return simulate
    if name == "sweep":
        from minesat.sweeping import sweep
        return sweep
    raise AttributeError(f"module 'minesat' has no attribute {name!r}")


def __dir__() -> list[str]:
    # The public names and the module's dunders; the private helpers above stay out of sight.
    return sorted({*(n for n in globals() if n.startswith("__")), *__all__, "board"})


# In Jupyter (IPython already running) minesat's values draw themselves: minesat.notebook attaches
# the display hooks to the model's classes, so that the model never imports what draws it.
if "IPython" in _sys.modules:
    import minesat.notebook  # noqa: F401
