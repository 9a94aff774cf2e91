"""The use cases: one function for each thing a face does, and the lists the faces show.

The command line (:mod:`minesat.cli`) and the web app (:mod:`minesat.web`) parse their input,
call a function of this package with plain values (a position, a layout, a path, a
:class:`Budget`), and format the result object it returns; they know the library through this
package, the errors (:mod:`minesat.errors`) and the value types they print (:mod:`minesat.board`,
:mod:`minesat.verdict`). The recipes they would otherwise repeat (an analyzer shared by several
positions, then the analysis within a budget; a game played under a memory watch) live here once.

Importing this package costs little: each use case imports the machinery it needs when it is
called, so that ``minesat analyze`` never loads the simulator or the web app
(tests/test_cli_startup.py holds it).

- :mod:`.registry`: strategies, board and replay formats, presets, first-click rules, and the
  web page's :func:`meta`.
"""

from __future__ import annotations

from minesat.usecases.registry import (
    BOARD_FORMATS,
    FIRST_CLICK_HELP,
    FIRST_CLICK_RULES,
    LAYOUT_FORMATS,
    PRESET_HELP,
    STORE_EXTENSIONS,
    STRATEGY_NOTES,
    FirstClick,
    base_strategies,
    check_strategy,
    is_strategy,
    meta,
    preset_sizes,
    replay_formats,
    replay_help,
    strategy_help,
    written_replay_help,
)

__all__ = [
    "BOARD_FORMATS",
    "FIRST_CLICK_HELP",
    "FIRST_CLICK_RULES",
    "LAYOUT_FORMATS",
    "PRESET_HELP",
    "STORE_EXTENSIONS",
    "STRATEGY_NOTES",
    "FirstClick",
    "base_strategies",
    "check_strategy",
    "is_strategy",
    "meta",
    "preset_sizes",
    "replay_formats",
    "replay_help",
    "strategy_help",
    "written_replay_help",
]
