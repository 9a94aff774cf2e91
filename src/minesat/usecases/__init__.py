"""The use cases: one function for each thing a face does, and the lists the faces show.

The command line (:mod:`minesat.cli`) and the web app (:mod:`minesat.web`) parse their input,
call a function of this package with plain values (a position, a layout, a path, a
:class:`Budget`), and format the result object it returns; they know the library through this
package, the errors (:mod:`minesat.errors`) and the value types they print (:mod:`minesat.board`,
:mod:`minesat.verdict`). A recipe they would otherwise each repeat (an analyzer shared by
several positions, then the analysis within a budget; a game played under a memory watch) lives
here once.

Importing this package costs little (every command's start-up imports it, before its Ctrl-C is
handled): its use cases import the machinery they need when called, so that ``minesat analyze``
never loads the simulator or the web app (tests/test_cli_startup.py holds it). Two modules
import the engine when imported, and are imported apart by the faces that need them. By concern:

- :mod:`.registry`: strategies, board and replay formats, presets, first-click rules, and what
  the web page lists (:func:`meta`);
- :mod:`.limits`: a budget of time, states and memory kept while a use case runs;
- :mod:`.positions` (apart: it loads the analysis): a position analysed, a cell explained, the
  marks, the automatic player's move and a hint, perfect play, a copy's hidden cells;
- :mod:`.games` (apart: it loads the analysis): a game on a layout (the player's, the
  oracle's), recorded as a replay or drawn as a viewer page, board sets, a layout's figures;
- :mod:`.files`: boards read and converted, replays reviewed, outputs written whole;
- :mod:`.runs`: simulations, sweeps, reports, exports and uploaded game databases;
- :mod:`.session`: a game played with a judge beside it (the web app's games), imported apart:
  it loads the judge.

>>> from minesat.board import Position
>>> from minesat.usecases.positions import analyse
>>> analyse(Position.from_rows(["1?", "??"], mines=1)).probability[0]
(None, 0.3333333333333333)
>>> from minesat import usecases
>>> usecases.presets()["beginner"], usecases.replay_help()[:30]
((9, 9, 10), '.avf (Minesweeper Arbiter), .r')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minesat.usecases.files import (
    BOARD_SET_EXTENSIONS,
    EXTENSIONS,
    FORMATS,
    LEGEND,
    MAX_BYTES,
    MAX_REPLAY_BYTES,
    MAX_WRITTEN_SIDE,
    BoardFormatError,
    InputError,
    Replay,
    UnsupportedFormatError,
    board_from_content,
    describe_move,
    format_for,
    format_layout,
    format_position,
    iter_boardset,
    open_atomic,
    open_text_atomic,
    parse_replay,
    read_board,
    read_layouts,
    read_replay,
    render_grid,
    render_position,
    replay_at_once,
    replay_format_for,
    replay_page,
    review_replay,
    sample_page,
    viewer_too_large,
    write_text_atomically,
    written_choice,
    written_format_for,
)
from minesat.usecases.limits import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_STATES,
    DEFAULT_TIME_LIMIT,
    SEARCH_BUDGET,
    WATCH_EVERY,
    Budget,
    OutOfMemory,
    checkpoint,
    memory_watch,
    recover_memory,
    resident_bytes,
    which_budget,
    within,
)
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
    presets,
    replay_formats,
    replay_help,
    strategy_help,
    written_replay_help,
)
from minesat.usecases.runs import (
    SchedulerError,
    board_run_config,
    check_scheduler,
    default_strategy,
    export_parquet,
    export_records,
    max_games,
    open_store,
    parquet_available,
    parse_densities,
    parse_mines,
    parse_sizes,
    plan_sweep,
    preset_sizes,
    read_references,
    render_report,
    replay_stored_game,
    report_document,
    report_formats,
    run_config,
    simulate,
    split_list,
    stored_game_page,
    sweep,
    sweep_axes,
    sweep_markdown,
    uploaded_store,
    write_report,
    write_sweep_report,
)

if TYPE_CHECKING:  # the types of what the use cases answer, for the faces' annotations
    from minesat.perfect import PerfectResult, PositionResult, RankedMove, RankingCut, StrategyCount
    from minesat.player import GameRecord, RiskyMove, Step
    from minesat.replay import ReplayReview
    from minesat.review import GameReview, ReviewedMove
    from minesat.simulation import ProgressCallback
    from minesat.store import GameStore, RunConfig, StoredGame
    from minesat.sweeping import Sweep, SweepPlan
    from minesat.tally import Tally


#: What the use cases import when first called, beyond this package: the engine's search, the
#: player, the judge, the store. A process that answers many requests (the web app's workers)
#: imports them once ahead, so that no request waits for them.
MACHINERY = ("minesat.perfect", "minesat.player", "minesat.guess.best", "minesat.replay", "minesat.review",
             "minesat.store")

__all__ = [
    "BOARD_FORMATS",
    "BOARD_SET_EXTENSIONS",
    "DEFAULT_MAX_MEMORY",
    "DEFAULT_MAX_STATES",
    "DEFAULT_TIME_LIMIT",
    "EXTENSIONS",
    "FIRST_CLICK_HELP",
    "FIRST_CLICK_RULES",
    "FORMATS",
    "LAYOUT_FORMATS",
    "LEGEND",
    "MACHINERY",
    "MAX_BYTES",
    "MAX_REPLAY_BYTES",
    "MAX_WRITTEN_SIDE",
    "PRESET_HELP",
    "SEARCH_BUDGET",
    "STORE_EXTENSIONS",
    "STRATEGY_NOTES",
    "WATCH_EVERY",
    "BoardFormatError",
    "Budget",
    "FirstClick",
    "GameRecord",
    "GameReview",
    "GameStore",
    "InputError",
    "OutOfMemory",
    "PerfectResult",
    "PositionResult",
    "ProgressCallback",
    "RankedMove",
    "RankingCut",
    "Replay",
    "ReplayReview",
    "ReviewedMove",
    "RiskyMove",
    "RunConfig",
    "SchedulerError",
    "Step",
    "StoredGame",
    "StrategyCount",
    "Sweep",
    "SweepPlan",
    "Tally",
    "UnsupportedFormatError",
    "base_strategies",
    "board_from_content",
    "board_run_config",
    "check_scheduler",
    "check_strategy",
    "checkpoint",
    "default_strategy",
    "describe_move",
    "export_parquet",
    "export_records",
    "format_for",
    "format_layout",
    "format_position",
    "is_strategy",
    "iter_boardset",
    "max_games",
    "memory_watch",
    "meta",
    "open_atomic",
    "open_store",
    "open_text_atomic",
    "parquet_available",
    "parse_densities",
    "parse_mines",
    "parse_replay",
    "parse_sizes",
    "plan_sweep",
    "preset_sizes",
    "presets",
    "read_board",
    "read_layouts",
    "read_references",
    "read_replay",
    "recover_memory",
    "render_grid",
    "render_position",
    "render_report",
    "replay_at_once",
    "replay_format_for",
    "replay_formats",
    "replay_help",
    "replay_page",
    "replay_stored_game",
    "report_document",
    "report_formats",
    "resident_bytes",
    "review_replay",
    "run_config",
    "sample_page",
    "simulate",
    "split_list",
    "stored_game_page",
    "strategy_help",
    "sweep",
    "sweep_axes",
    "sweep_markdown",
    "uploaded_store",
    "viewer_too_large",
    "which_budget",
    "within",
    "write_report",
    "write_sweep_report",
    "write_text_atomically",
    "written_choice",
    "written_format_for",
    "written_replay_help",
]
