"""``minesat simulate``: play many seeded games, store them, summarise (docs/commands/simulate.md)."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from minesat import usecases
from minesat.board import cell_name
from minesat.cli.common import (
    EXIT_STOPPED,
    ColsOption,
    FirstClickOption,
    MinesOption,
    PresetOption,
    ProgressLine,
    RowsOption,
    StartOption,
    agree,
    board_size,
    check_output,
    check_strategy,
    check_workers,
    error_line,
    fail,
    first_click_rule,
    interrupted_status,
    plural,
    refuse_stdout,
    start_cell,
)
from minesat.errors import InputError, InvalidValue, StoreError, StoreFull, WorkerLost
from minesat.usecases import BoardFormatError, FirstClick, SchedulerError, iter_boardset, strategy_help

if TYPE_CHECKING:
    from minesat.usecases import GameStore, ProgressCallback, RunConfig, Tally

__all__ = ["MAX_GAMES", "default_db", "describe", "simulate"]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()

#: Most games a run may ask for (game indices are SQLite integers).
MAX_GAMES = usecases.max_games()


@commands.command()
def simulate(
    ctx: typer.Context,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            help="Number of games to play (game indices 0..N-1); with --boards, default all lines.",
        ),
    ] = None,
    boards: Annotated[
        Path | None,
        typer.Option(
            help="Play a board set (JSON Lines, one layout per line) instead of generated layouts: "
            "game i is line i. The boards set the size; no first-click rule moves a mine; --seed is unused.",
        ),
    ] = None,
    preset: PresetOption = None,
    rows: RowsOption = None,
    cols: ColsOption = None,
    mines: MinesOption = None,
    seed: Annotated[
        int, typer.Option(min=0, help="Run seed (>= 0): game i is a pure function of the options and i.")
    ] = 0,
    first_click: FirstClickOption = FirstClick.OPENING.value,
    start: StartOption = None,
    workers: Annotated[int | None, typer.Option(help="Local worker processes (default: all cores).")] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Dask scheduler address (tcp://HOST:PORT) to run on instead of local processes; "
            "needs the extra: pip install 'minesat[dask]'."
        ),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option(
            help="SQLite file of finished games; rerunning with it resumes "
            "(default: reports/<board>-<rule>-r<ROW>c<COL>-s<SEED>.sqlite)."
        ),
    ] = None,
    strategy: Annotated[
        str, typer.Option(help=strategy_help())
    ] = usecases.default_strategy(),
    batch_size: Annotated[
        int | None,
        typer.Option("--batch-size", help="Games per task (default: chosen from games and workers)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
    mix_players: Annotated[
        bool,
        typer.Option(
            "--mix-players",
            help="Resume a --db that holds games of another player (other minesat code): by default "
            "refused, since one win rate would mix two players; the report shows each player's games apart.",
        ),
    ] = False,
) -> None:
    """Play seeded games with the automatic player and report the win rate.

    The same command gives the same games and results whatever --workers or
    --scheduler say; rerunning it with the same --db plays only what is missing.
    """
    if boards is not None:
        # The seed plays no part in a board set: the file is the boards.
        config, games = _board_config(boards, games, preset, rows, cols, mines, first_click, start, strategy)
    else:
        config = _config(preset, rows, cols, mines, seed, first_click, start, strategy)
        if games is None:
            fail("give --games N (or --boards FILE to play a board set)")
    if not 0 <= games <= MAX_GAMES:
        fail(f"--games must be between 0 and {MAX_GAMES}, not {games}")
    if workers is not None and workers < 1:
        fail(f"--workers must be >= 1, not {workers}")
    check_workers(ctx, scheduler)
    if batch_size is not None and batch_size < 1:
        fail(f"--batch-size must be >= 1, not {batch_size}")
    path = db if db is not None else default_db(config)
    if db is None:  # say where the games go: the user did not choose the file
        typer.echo(f"minesat: storing the games in {path} (choose the file with --db)", err=True)

    refuse_stdout(db, "--db", "a game database is a file, not standard output")
    check_output(path, "--db")
    try:
        if scheduler is not None:  # before the store is made: an unreachable one leaves none behind
            usecases.check_scheduler(scheduler)
        folders = [p for p in path.parents if not p.exists()]  # deepest first, as they go
        path.parent.mkdir(parents=True, exist_ok=True)
        made = not path.exists()
        store = usecases.open_store(path, config)
    except (StoreError, OSError, SchedulerError) as exc:
        fail(error_line(exc))
    with store:
        # Progress is for a person watching stderr, whatever stdout is (a pipe, --json).
        show_bar = sys.stderr.isatty()
        try:
            with _progress_bar() if show_bar else nullcontext(_progress_lines()) as progress:
                summary = usecases.simulate(
                    config,
                    games,
                    store,
                    workers=workers,
                    scheduler=scheduler,
                    batch_size=batch_size,
                    progress=progress,
                    boards=boards,
                    mix_players=mix_players,
                )
        except (MemoryError, WorkerLost, StoreFull) as exc:
            # A limit of the machine (its memory, its disk) stops the run as Ctrl-C does: what is
            # stored is kept and resumes (docs/commands/simulate.md, Stopping and resuming).
            why = "out of memory" if isinstance(exc, MemoryError) else getattr(exc, "message", str(exc))
            room = "make room on its disk and " if isinstance(exc, StoreFull) else ""
            fail(f"{why}: {_stored(store, games, path)}; {room}run the same command again to resume",
                 EXIT_STOPPED)
        except (SchedulerError, BoardFormatError, StoreError) as exc:
            if made and isinstance(exc, SchedulerError) and not len(store):
                _unmake(store, path, folders)  # the run could not start: it leaves nothing behind
            fail(exc)
        except sqlite3.DatabaseError as exc:
            fail(str(store.damaged(exc)))
        except KeyboardInterrupt as exc:
            fail(f"interrupted: {_stored(store, games, path)}; run the same command again to resume",
                 interrupted_status(exc))

    if as_json:
        typer.echo(json.dumps(summary))
    else:
        typer.echo(describe(summary))


def _stored(store: GameStore, games: int, path: Path) -> str:
    """How many of the run's games a stopped run leaves stored, in words."""
    try:
        kept = store.count(games)
    except (sqlite3.Error, StoreError):
        return f"the games played so far are stored in {path}"
    return f"{kept} of {plural(games, 'game')} {agree(kept, 'is', 'are')} stored in {path}"


def _unmake(store: GameStore, path: Path, folders: list[Path]) -> None:
    """Close and remove a store this command made and stored nothing in (with SQLite's side files),
    and the ``folders`` it made for it, deepest first."""
    store.close()
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
        name.unlink(missing_ok=True)
    for folder in folders:
        with suppress(OSError):  # something else was put there meanwhile: it stays
            folder.rmdir()


def _config(
    preset: str | None,
    rows: int | None,
    cols: int | None,
    mines: int | None,
    seed: int,
    first_click: str,
    start: str | None,
    strategy: str,
) -> RunConfig:
    """Check the board options and build the run configuration, or fail with one line."""
    rows, cols, mines = board_size(preset, rows, cols, mines)
    rule = first_click_rule(first_click).value
    cell = start_cell(start, rows, cols)
    check_strategy(strategy)
    try:
        return usecases.run_config(rows, cols, mines, rule=rule, start=cell, seed=seed, strategy=strategy)
    except InvalidValue as exc:
        fail(exc)


def _board_config(
    path: Path,
    games: int | None,
    preset: str | None,
    rows: int | None,
    cols: int | None,
    mines: int | None,
    first_click: str,
    start: str | None,
    strategy: str,
) -> tuple[RunConfig, int]:
    """Check a board set and build its run configuration; how many games to play."""
    if preset is not None or any(v is not None for v in (rows, cols, mines)):
        fail("--boards sets the board size: leave out --preset, --rows, --cols and --mines")
    rule = first_click_rule(first_click)
    check_strategy(strategy)
    try:
        _, first = next(iter_boardset(path))
    except StopIteration:
        fail(f"{path}:1:1: empty board set: no layout in the file")
    except BoardFormatError as exc:
        fail(exc)
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}")
    cell = start_cell(start, first.rows, first.cols)
    try:
        config, count = usecases.board_run_config(path, rule=rule, start=cell, strategy=strategy)
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}")
    except (InputError, InvalidValue) as exc:  # a BoardFormatError names file:line:column itself
        fail(exc)
    if games is not None and games > count:
        fail(f"--games {games} is more than the {plural(count, 'board')} in {path}")
    return config, count if games is None else games


def default_db(config: RunConfig) -> Path:
    """``reports/<board>-<rule>-r<ROW>c<COL>-s<SEED>[-<strategy>].sqlite``.

    ``<board>`` is a preset name, or ``RxCxM`` for other sizes; a board-set run is
    ``boards-<first 12 digits of its SHA-256>-<rule>-r<ROW>c<COL>[-<strategy>].sqlite``.
    """
    size = (config.rows, config.cols, config.mines)
    board = next(
        (name for name, preset in usecases.presets().items() if preset == size),
        f"{config.rows}x{config.cols}x{config.mines}",
    )
    if config.boards is not None:
        board = f"boards-{config.boards[:12]}"
    name = f"{board}-{config.rule}-r{config.start[0]}c{config.start[1]}"
    if config.boards is None:
        name += f"-s{config.seed}"
    if config.strategy != usecases.default_strategy():
        name += f"-{config.strategy}"
    return Path("reports") / f"{name}.sqlite"


def _progress_lines() -> ProgressCallback:
    """Off a terminal, a line every 10 s (:class:`~minesat.cli.common.ProgressLine`)."""
    line = ProgressLine("simulate", live=False)

    def progress(played: int, to_play: int, tally: Tally) -> None:
        rate = f", win rate {tally.win_rate:.1%}" if tally.games else ""
        line(f"{played} of {plural(to_play, 'game')} played{rate}")

    return progress


@contextmanager
def _progress_bar() -> Iterator[ProgressCallback]:
    """A rich progress bar with games/s and the running win rate, as a ``run`` progress callback."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[speed]} games/s"),
        TextColumn("win rate {task.fields[win_rate]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task("simulating", total=None, speed="-", win_rate="-")

        def progress(played: int, to_play: int, tally: Tally) -> None:
            # The win rate of the games played now: a resumed run's stored games are not re-read.
            elapsed = bar.tasks[task].elapsed or 0.0
            bar.update(
                task,
                completed=played,
                total=to_play,
                speed=f"{played / elapsed:.1f}" if played and elapsed > 0 else "-",
                win_rate=f"{tally.win_rate:.1%}" if tally.games else "-",
            )

        yield progress


def describe(summary: dict[str, Any]) -> str:
    """The summary in a few lines for people."""
    s = summary
    lo, hi = s["ci95"]
    boards = s["config"].get("boards")
    source = f"board set {boards[:12]}" if boards else f"seed {s['seed']}"
    lines = [
        f"{s['rows']}x{s['cols']} board, {plural(s['mines'], 'mine')}, first click {s['first_click']} at "
        f"{cell_name(tuple(s['start']))}, {source}, strategy {s['strategy']}",
    ]
    players = [p for p in s.get("players", []) if isinstance(p, dict)]
    if len(players) > 1:  # a mixed store: each player's games apart, never one rate over both
        lines.append(f"players    the store holds the games of {len(players)} players, counted apart; "
                     "the lines below are this minesat's")  # fmt: skip
        for p in players:
            who = "unknown player" if p["player"] is None else f"player {str(p['player'])[:12]}"
            lo_p, hi_p = p["ci95"]
            lines.append(f"           {who}{' (this minesat)' if p['this'] else ''}: "
                         f"{plural(p['games'], 'game')}, {p['win_rate']:.2%} won "
                         f"(95% CI {lo_p:.2%} .. {hi_p:.2%})")  # fmt: skip
    if not s["games"]:
        lines.append("games      none played or stored")
    else:
        lines += [
            f"games      {plural(s['games'], 'game')}: {s['wins']} won, {s['losses']} lost",
            f"win rate   {s['win_rate']:.2%}  (95% CI {lo:.2%} .. {hi:.2%})",
            f"guesses    {s['guesses_mean']:.3f} per game; "
            f"{plural(s['no_guess_wins'], 'game')} won without a guess",
        ]
    lines.append(
        f"this run   {plural(s['played'], 'game')} played in {s['seconds']:.1f} s "
        f"({s['games_per_second']:.1f} games/s)"
    )
    if s.get("db"):
        lines.append(f"stored in  {s['db']}")
    return "\n".join(lines)
