"""``minesat sweep``: solvability against density by size, rule and strategy (docs/commands/sweep.md)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from minesat import usecases
from minesat.cli.common import (
    EXIT_OUTPUT_FAILED,
    EXIT_STOPPED,
    ProgressLine,
    check_folder,
    check_output,
    check_workers,
    error_line,
    fail,
    given_start,
    interrupted_status,
    is_stdout,
    path_error,
    refuse_stdout,
)
from minesat.errors import InvalidValue, StoreError, StoreFull, WorkerLost
from minesat.usecases import SchedulerError, strategy_help

if TYPE_CHECKING:
    from minesat.usecases import Sweep, SweepPlan

__all__ = ["sweep"]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()


@commands.command()
def sweep(
    ctx: typer.Context,
    games: Annotated[int, typer.Option("--games", help="Games per point (game indices 0..N-1).")],
    mines: Annotated[
        str | None,
        typer.Option(
            "--mines",
            metavar="LIST",
            help="Mine counts: 40,60,99 or START:STOP:STEP (STOP included), or both.",
        ),
    ] = None,
    density: Annotated[
        str | None,
        typer.Option(
            "--density",
            metavar="LIST",
            help="Mines as shares of the cells instead: 0.1,0.2 or 0.08:0.30:0.02; d means round(d x cells).",
        ),
    ] = None,
    size: Annotated[
        list[str] | None,
        typer.Option("--size", metavar="RxC", help="A board size such as 16x30; repeat it for several."),
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(help="Board sizes of presets, comma-separated (beginner,expert); not their mines."),
    ] = None,
    rows: Annotated[int | None, typer.Option(help="Board rows (with --cols): one size.")] = None,
    cols: Annotated[int | None, typer.Option(help="Board columns.")] = None,
    seed: Annotated[int, typer.Option(min=0, help="Run seed (>= 0), shared by every point.")] = 0,
    first_click: Annotated[
        str, typer.Option("--first-click", help="opening, safe or any, or several: opening,safe.")
    ] = "opening",
    start: Annotated[
        str | None,
        typer.Option(help="First click as ROW,COL or a cell name, on every board; default 3,3, clipped."),
    ] = None,
    strategy: Annotated[
        str | None, typer.Option(help=strategy_help() + " Several: best,safest.")
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="Local worker processes, shared by every point (default: all cores).")
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option(help="Dask scheduler address (tcp://HOST:PORT) instead of local processes.")
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="Directory of the stores, one per point; rerunning resumes "
            "(default: reports/sweep-<sizes>-<rules>-...; see docs/commands/sweep.md).",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", metavar="REPORT", help="Write the report: .html, .md (plot beside it) or .json."
        ),
    ] = None,
    x_axis: Annotated[
        str, typer.Option("--x-axis", help="The plot's x axis: density, effective-density or mines.")
    ] = "density",
    as_json: Annotated[bool, typer.Option("--json", help="Print the sweep as one JSON object last.")] = False,
    mix_players: Annotated[
        bool,
        typer.Option(
            "--mix-players",
            help="Resume points whose stores hold games of another player (other minesat code): by "
            "default refused, since a point's win rate would mix two players.",
        ),
    ] = False,
) -> None:
    """Win rate, share won with no guess, guesses per won game and the 50 % crossing against mine
    density: one curve per board size, first-click rule and strategy.

    Example: minesat sweep --preset beginner,expert --density 0.08:0.30:0.02 --strategy best,safest
    --games 200 --out reports/sweep.html
    """
    if games < 0:
        fail(f"--games must be >= 0, not {games}")
    if workers is not None and workers < 1:
        fail(f"--workers must be >= 1, not {workers}")
    check_workers(ctx, scheduler)
    if is_stdout(out):
        out = None  # the Markdown table on standard output, as without --out
    refuse_stdout(db, "--db", "the stores are files in a directory, not standard output")
    if out is not None:
        check_output(out, "--out")  # first: a directory is said to be one, not a format without a name
    if out is not None and out.suffix.lower() not in usecases.report_formats():
        fail(f"{out}: unknown report format {out.suffix or '(none)'!r}; use .html, .md or .json")
    if x_axis not in (axes := usecases.sweep_axes()):
        fail(f"--x-axis must be one of {', '.join(axes)}, not {x_axis!r}")
    if (mines is None) == (density is None):
        fail("give the mines as counts (--mines LIST) or as densities (--density LIST), one of them")
    if (rows is None) != (cols is None):
        fail("give both --rows and --cols, or --size RxC")
    try:
        plan = _plan(size, preset, rows, cols, start, first_click, strategy, mines, density, seed)
    except InvalidValue as exc:
        fail(exc)
    directory = db if db is not None else plan.default_dir()
    if directory.exists() and not directory.is_dir():
        fail(f"{directory}: is a file; --db names the directory of the stores, one per point")
    check_folder(directory)
    result = _run(plan, games, directory, workers, scheduler, mix_players)
    _write(result, out, directory, x_axis, as_json)


def _plan(
    size: list[str] | None,
    preset: str | None,
    rows: int | None,
    cols: int | None,
    start: str | None,
    first_click: str,
    strategy: str | None,
    mines: str | None,
    density: str | None,
    seed: int,
) -> SweepPlan:
    """Every curve and point the options ask for (:class:`InvalidValue` for a list that cannot be read)."""
    sizes = usecases.parse_sizes(size or [])
    if preset is not None:
        sizes += [s for s in usecases.preset_sizes(preset) if s not in sizes]
    if rows is not None and cols is not None:
        sizes += [s for s in usecases.parse_sizes([f"{rows}x{cols}"]) if s not in sizes]
    cell = None
    if start is not None:  # off a board: said in the user's words (Z99, not 25,98)
        for rows_cols in sizes:
            cell = given_start(start, *rows_cols)
    return usecases.plan_sweep(
        sizes,
        usecases.split_list(first_click.lower(), "--first-click"),
        usecases.split_list(strategy or usecases.default_strategy(), "--strategy"),
        mines=usecases.parse_mines(mines) if mines is not None else None,
        densities=usecases.parse_densities(density) if density is not None else None,
        start=cell,
        seed=seed,
    )


def _run(
    plan: SweepPlan, games: int, directory: Path, workers: int | None, scheduler: str | None,
    mix_players: bool,
) -> Sweep:
    """Play the sweep's games into its stores under ``directory``, its progress on stderr."""
    if scheduler is not None:  # before the stores are made: an unreachable one leaves none behind
        try:
            usecases.check_scheduler(scheduler)
        except SchedulerError as exc:
            fail(exc)
    what = f"sweep: {plan.points()} points on {len(plan.curves)} curves"
    try:
        # SIGTERM and SIGHUP stop the sweep as Ctrl-C does (command_guard): workers stopped, games kept.
        with _progress(what) if sys.stderr.isatty() else nullcontext(
            _progress_lines(what)
        ) as progress:
            return usecases.sweep(plan, games, directory, workers=workers, scheduler=scheduler,
                                  progress=progress, mix_players=mix_players)  # fmt: skip
    except (MemoryError, WorkerLost, StoreFull) as exc:
        # A limit of the machine (its memory, its disk) stops the sweep as Ctrl-C does: what is
        # stored is kept and resumes (docs/commands/sweep.md, Exit statuses).
        why = "out of memory" if isinstance(exc, MemoryError) else getattr(exc, "message", str(exc))
        room = "make room on its disk and " if isinstance(exc, StoreFull) else ""
        fail(f"{why}: the games played so far are stored in {directory}; {room}run the same command "
             "again to resume", EXIT_STOPPED)
    except (StoreError, SchedulerError, OSError) as exc:
        fail(error_line(exc))
    except KeyboardInterrupt as exc:
        fail(f"interrupted: the games played so far are stored in {directory}; "
             "run the same command again to resume", interrupted_status(exc))  # fmt: skip


def _write(result: Sweep, out: Path | None, directory: Path, x_axis: str, as_json: bool) -> None:
    """The sweep's report at ``out`` (``wrote OUT`` on stderr), its JSON, or its Markdown table."""
    if out is not None:
        try:
            written = usecases.write_sweep_report(result, out, str(directory), x_axis)
        except OSError as exc:
            fail(path_error(out, exc, "cannot write the report"), EXIT_OUTPUT_FAILED)
        # One line naming the report (and what was written beside it): the report is in the file.
        beside = [path.name for path in written[1:]]
        also = f" (and beside it {', '.join(beside)})" if beside else ""
        typer.echo(f"wrote {written[0]}{also}", err=as_json)
    if as_json:
        typer.echo(json.dumps(result.to_dict()))
    elif out is None:
        typer.echo(usecases.sweep_markdown(result, str(directory)), nl=False)


def _progress_lines(what: str) -> Callable[[int, int], None]:
    """Off a terminal, a line every 10 s (:class:`~minesat.cli.common.ProgressLine`)."""
    line = ProgressLine("sweep", live=False)

    def progress(played: int, to_play: int) -> None:
        line(f"{what.removeprefix('sweep: ')}, {played} of {to_play} games played")

    return progress


@contextmanager
def _progress(what: str) -> Iterator[Callable[[int, int], None]]:
    """One rich progress bar on stderr for the whole sweep: its games, all points together."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=None)

        def progress(played: int, to_play: int) -> None:
            bar.update(task, completed=played, total=to_play)

        yield progress
