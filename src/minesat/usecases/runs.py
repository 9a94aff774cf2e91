"""Many games: a simulation run into a store, a sweep across densities, the report of stored
runs, the export of their games, and a game database uploaded to the web app.

Each function imports the simulator, the store or the report when it is called: the other
commands never load them (tests/test_cli_startup.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from minesat.board import Cell
from minesat.errors import SchedulerError
from minesat.sweeplists import parse_densities, parse_mines, parse_sizes, preset_sizes, split_list

if TYPE_CHECKING:
    from minesat.report import Report
    from minesat.report.fatal import ReplayedGame
    from minesat.report.references import Reference
    from minesat.store import GameStore, RunConfig, StoredGame
    from minesat.sweeping import Sweep, SweepPlan
    from minesat.tally import Summary

__all__ = [
    "SchedulerError",
    "board_run_config",
    "check_scheduler",
    "default_strategy",
    "export_parquet",
    "export_records",
    "max_games",
    "open_store",
    "parquet_available",
    "parse_densities",
    "parse_mines",
    "parse_sizes",
    "plan_sweep",
    "preset_sizes",
    "read_references",
    "render_report",
    "replay_stored_game",
    "report_document",
    "report_formats",
    "run_config",
    "simulate",
    "split_list",
    "stored_game_page",
    "sweep",
    "sweep_axes",
    "sweep_markdown",
    "uploaded_store",
    "write_report",
    "write_sweep_report",
]


def default_strategy() -> str:
    """The automatic player's strategy unless one is named: ``best``."""
    from minesat.player import DEFAULT_STRATEGY  # start-up: the player loads numpy

    return DEFAULT_STRATEGY


def max_games() -> int:
    """Most games a run may ask for (game indices are SQLite integers)."""
    from minesat.simulation import MAX_GAMES  # start-up: only simulate loads the simulator

    return MAX_GAMES


def check_scheduler(address: str) -> None:
    """Raise :class:`~minesat.errors.SchedulerError` unless the Dask scheduler at ``address`` can be used."""
    from minesat.executors import check_scheduler as check  # start-up: multiprocessing's machinery

    check(address)


# --- a simulation -----------------------------------------------------------------------------


def run_config(
    rows: int, cols: int, mines: int, *, rule: str, start: Cell, seed: int, strategy: str
) -> RunConfig:
    """The configuration of a run of generated layouts, checked: :class:`InvalidValue` for one no
    game can be played with."""
    from minesat.simulation import check_config  # start-up: only simulate loads the simulator
    from minesat.store import RunConfig

    config = RunConfig(rows=rows, cols=cols, mines=mines, rule=rule, start=start, seed=seed,
                       strategy=strategy)
    check_config(config)
    return config


def board_run_config(path: Path, *, rule: str, start: Cell, strategy: str) -> tuple[RunConfig, int]:
    """The configuration of a run over the board set ``path``, checked, and its number of boards."""
    from minesat.simulation import board_run_config as configure  # start-up: the simulator
    from minesat.simulation import check_config

    config, count = configure(path, rule=rule, start=start, strategy=strategy)
    check_config(config)
    return config, count


def open_store(path: str | Path, config: RunConfig | None = None) -> GameStore:
    """The game database at ``path`` (made for ``config`` when given and missing)."""
    from minesat.store import GameStore  # start-up: only the commands with a --db load the store

    return GameStore(path, config)


def simulate(
    config: RunConfig,
    games: int,
    store: GameStore,
    *,
    workers: int | None,
    scheduler: str | None,
    batch_size: int | None,
    progress: Callable[..., None] | None,
    boards: Path | None,
    mix_players: bool,
) -> dict[str, object]:
    """Play games ``0 .. games-1`` of the run into ``store`` (those stored already are not played
    again): the summary ``minesat simulate --json`` prints (:func:`minesat.simulation.run`)."""
    from minesat.simulation import run  # start-up: only simulate loads the simulator

    return run(config, games, workers=workers, scheduler=scheduler, store=store, batch_size=batch_size,
               progress=progress, boards=boards, mix_players=mix_players)


# --- a sweep ----------------------------------------------------------------------------------


def plan_sweep(
    sizes: Sequence[tuple[int, int]],
    rules: Sequence[str],
    strategies: Sequence[str],
    *,
    mines: Sequence[int] | None,
    densities: Sequence[Any] | None,
    start: Cell | None,
    seed: int,
) -> SweepPlan:
    """Every curve and point of a sweep, checked (:func:`minesat.sweeping.plan_sweep`)."""
    from minesat.sweeping import plan_sweep as plan  # start-up: only sweep loads the simulator

    return plan(sizes, rules, strategies, mines=mines, densities=densities, start=start, seed=seed)


def sweep(
    plan: SweepPlan, games: int, directory: Path, *, workers: int | None, scheduler: str | None,
    progress: Callable[[int, int], None] | None, mix_players: bool,
) -> Sweep:
    """Play ``games`` games at every point of ``plan``, one store per point under ``directory``."""
    from minesat.sweeping import run_sweep  # start-up: only sweep loads the simulator

    return run_sweep(plan, games, directory, workers=workers, scheduler=scheduler, progress=progress,
                     mix_players=mix_players)


def sweep_axes() -> tuple[str, ...]:
    """The x axes a sweep's plot takes: ``density``, ``effective-density``, ``mines``."""
    from minesat.report.sweep import X_AXES  # start-up: the report loads matplotlib's settings

    return tuple(X_AXES)


def write_sweep_report(result: Sweep, out: Path, db: str, x_axis: str) -> list[Path]:
    """The sweep's report at ``out`` (its format from the extension), and what was written beside it."""
    from minesat.report.sweep import write_sweep_report as write  # start-up: the report

    return write(result, out, db, x_axis)


def sweep_markdown(result: Sweep, db: str) -> str:
    """The sweep's table in Markdown."""
    from minesat.report.sweep import render_sweep_markdown  # start-up: the report

    return render_sweep_markdown(result, db=db)


# --- the report -------------------------------------------------------------------------------


def report_formats() -> tuple[str, ...]:
    """The extensions a report is written in: ``.html``, ``.md``, ``.json``."""
    from minesat.report import FORMATS  # start-up: the report loads Jinja2

    return tuple(FORMATS)


def read_references(path: Path) -> list[Reference]:
    """Published win rates to set beside the runs (a :class:`~minesat.errors.InputError` naming the
    line and column of a file that cannot be read)."""
    from minesat.report import read_references as read  # start-up: the report

    return read(path)


def report_document(paths: Sequence[Path], references: Sequence[Reference],
                    failed: Callable[[Path, BaseException], None]) -> Report:
    """The report of the runs stored at ``paths``: each run summarised (a store of several players
    is one run per player), two runs on the same boards paired game by game, the references
    beside them. A store that cannot be read is given to ``failed`` (which raises)."""
    import sqlite3

    from minesat import report as rep  # start-up: the report loads Jinja2
    from minesat.store import ANY_PLAYER, StoreError

    summaries: list[Summary] = []
    for path in paths:
        try:
            summaries += rep.summarize_store(path)
        except (StoreError, sqlite3.Error, OSError, ValueError, KeyError) as exc:
            # A damaged file can fail while its rows are read, not only when opened.
            failed(path, exc)
    labelled = rep.unique_labels(summaries)
    runs = [(s.source, s.player if s.players_in_store > 1 else ANY_PLAYER, s.label) for s in labelled]
    paired = rep.pair_runs(runs)
    return rep.make_report(summaries, paired, list(references))


def write_report(document: Report, out: Path) -> list[Path]:
    """The report at ``out``, its format from the extension; what was written."""
    from minesat.report import write_report as write  # start-up: the report

    return write(document, out)


def render_report(document: Report, as_json: bool) -> str:
    """The report as JSON, or as its Markdown tables (no plots)."""
    from minesat.report import render_json, render_markdown  # start-up: the report

    return render_json(document) if as_json else render_markdown(document)


# --- the export -------------------------------------------------------------------------------


def export_records(store: GameStore, out: TextIO, *, as_csv: bool, guesses: bool) -> int:
    """Every game of ``store`` (or every guess) as a record written to ``out``, JSON Lines or CSV,
    with its run's settings; how many records."""
    from minesat.export import write_records  # start-up: only export

    with _streamed(store) as games:
        return write_records(games, out, as_csv=as_csv, config=store.config, guesses=guesses)


def parquet_available() -> bool:
    """Whether Parquet can be written: pyarrow (the ``parquet`` extra) is installed."""
    try:
        import pyarrow  # noqa: F401  # start-up: asked only before a Parquet export
    except ImportError:
        return False
    return True


def export_parquet(store: GameStore, out: BinaryIO, *, guesses: bool) -> int:
    """:func:`export_records` as Parquet (needs pyarrow: :class:`~minesat.errors.ParquetUnavailable`)."""
    from minesat.export import write_parquet  # start-up: only export

    with _streamed(store) as games:
        return write_parquet(games, out, config=store.config, guesses=guesses)


@contextmanager
def _streamed(store: GameStore) -> Iterator[Iterator[StoredGame]]:
    """The store's games, streamed; the cursor closed before the store, even when the pipe breaks."""
    games = store.games()
    try:
        yield games
    finally:
        close = getattr(games, "close", None)
        if close is not None:
            close()


# --- a database uploaded to the web app ----------------------------------------------------------


@contextmanager
def uploaded_store(data: bytes, name: str, seconds: float) -> Iterator[GameStore]:
    """A simulation database sent as bytes, read from a private copy in memory, read-only, its
    queries cut after ``seconds``."""
    from minesat.store import GameStore  # start-up: only the web app's uploads

    with GameStore.from_bytes(data, name, seconds) as store:
        yield store


def replay_stored_game(config: RunConfig, game: StoredGame) -> ReplayedGame:
    """A stored game of a seeded run played again (:class:`InvalidValue` for a board-set run)."""
    from minesat.report.fatal import replay_stored_game as replay  # start-up: the report

    return replay(config, game)


def stored_game_page(replayed: ReplayedGame, label: str) -> str:
    """A stored game as a viewer page, every move analysed (no "open ?step=N" tip)."""
    from minesat.report.fatal import game_page  # start-up: the report

    return game_page(replayed, label, link_tip=False)

