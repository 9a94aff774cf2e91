"""``minesat sweep``: solvability against density, one resumable run per mine count (SPEC section 11)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Annotated

import typer

from minesat.board import PRESETS
from minesat.cli import app
from minesat.cli.common import (
    STRATEGY_HELP,
    check_folder,
    check_output,
    check_strategy,
    fail,
    first_click_rule,
    plural,
    start_cell,
)
from minesat.generate import FirstClick
from minesat.player import DEFAULT_STRATEGY
from minesat.report.statistics import Tally
from minesat.simulate import ProgressCallback
from minesat.store import RunConfig
from minesat.sweep import PointCallback


@app.command()
def sweep(
    mines: Annotated[
        str,
        typer.Option(
            "--mines",
            metavar="LIST",
            help="Mine counts: 40,60,99 or START:STOP:STEP (STOP included), or both.",
        ),
    ],
    games: Annotated[int, typer.Option("--games", help="Games per mine count (game indices 0..N-1).")],
    preset: Annotated[
        str | None,
        typer.Option(help=f"Board size of a preset ({', '.join(PRESETS)}); its mines are ignored."),
    ] = None,
    rows: Annotated[int | None, typer.Option(help="Board rows (with --cols).")] = None,
    cols: Annotated[int | None, typer.Option(help="Board columns.")] = None,
    seed: Annotated[int, typer.Option(help="Run seed, shared by every point.")] = 0,
    first_click: Annotated[
        str, typer.Option("--first-click", help="opening, safe or any (as for simulate).")
    ] = FirstClick.OPENING.value,
    start: Annotated[
        str | None,
        typer.Option(help="First click as ROW,COL or a cell name; default 3,3 clipped to the board."),
    ] = None,
    strategy: Annotated[
        str, typer.Option(help=STRATEGY_HELP)
    ] = DEFAULT_STRATEGY,
    workers: Annotated[int | None, typer.Option(help="Local worker processes (default: all cores).")] = None,
    scheduler: Annotated[
        str | None, typer.Option(help="Dask scheduler address (tcp://HOST:PORT) instead of local processes.")
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="Directory of the stores, one per mine count; rerunning resumes "
            "(default: reports/sweep-<rows>x<cols>-<rule>-r<ROW>c<COL>-s<SEED>-<strategy>).",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", metavar="REPORT", help="Write the report: .html, .md (plots beside it) or .json."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the sweep as one JSON object last.")] = False,
) -> None:
    """Win rate, share won with no guess and guesses per game against mine density, for one board size.

    Example: minesat sweep --preset expert --mines 40:170:10 --games 200 --out reports/sweep.html
    """
    from minesat.report import FORMATS
    from minesat.store import StoreError
    from minesat.sweep import check_sweep, parse_mines, run_sweep

    if preset is not None:
        if rows is not None or cols is not None:
            fail("give either --preset or --rows/--cols, not both")
        if preset.lower() not in PRESETS:
            fail(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
        rows, cols, _ = PRESETS[preset.lower()]
    elif rows is None or cols is None:
        fail("give --preset NAME or both --rows and --cols")
    assert rows is not None and cols is not None
    if games < 0:
        fail(f"--games must be >= 0, not {games}")
    if workers is not None and workers < 1:
        fail(f"--workers must be >= 1, not {workers}")
    check_strategy(strategy)
    if out is not None and out.suffix.lower() not in FORMATS:
        fail(f"{out}: unknown report format {out.suffix or '(none)'!r}; use .html, .md or .json")
    rule = first_click_rule(first_click).value
    cell = start_cell(start, rows, cols)
    try:
        counts = parse_mines(mines)
        base = RunConfig(rows=rows, cols=cols, mines=counts[0] if counts else 0, rule=rule, start=cell,
                         seed=seed, strategy=strategy)  # fmt: skip
        check_sweep(base, counts)
    except ValueError as exc:
        fail(str(exc))
    directory = db if db is not None else default_dir(base)
    if directory.exists() and not directory.is_dir():
        fail(f"{directory}: is a file; --db names the directory of the stores, one per mine count")
    check_folder(directory)
    if out is not None:
        check_output(out, "--out")

    from minesat.executors import SchedulerError, check_scheduler

    if scheduler is not None:  # before the stores are made: an unreachable one leaves none behind
        try:
            check_scheduler(scheduler)
        except SchedulerError as exc:
            fail(str(exc))

    show = sys.stderr.isatty()
    try:
        with _progress() if show else nullcontext((None, None)) as (on_point, progress):
            result = run_sweep(base, counts, games, directory, workers=workers, scheduler=scheduler,
                               on_point=on_point, progress=progress)  # fmt: skip
    except (StoreError, SchedulerError, OSError) as exc:
        fail(" ".join(str(exc).split()))
    except KeyboardInterrupt:
        fail(f"interrupted: the games played so far are stored in {directory}; "
             "run the same command again to resume", 130)  # fmt: skip

    from minesat.report.render import render_sweep_markdown, write_sweep_report

    if out is not None:
        try:
            written = write_sweep_report(result, out, str(directory))
        except OSError as exc:
            fail(f"{out}: cannot write the report ({exc.strerror or exc})")
        for path in written:
            typer.echo(f"wrote {path}", err=as_json)
    if as_json:
        typer.echo(json.dumps(result.to_dict()))
    else:
        typer.echo(render_sweep_markdown(result, db=str(directory)), nl=False)


def default_dir(c: RunConfig) -> Path:
    """``reports/sweep-<rows>x<cols>-<rule>-r<ROW>c<COL>-s<SEED>-<strategy>``."""
    return (
        Path("reports")
        / f"sweep-{c.rows}x{c.cols}-{c.rule}-r{c.start[0]}c{c.start[1]}-s{c.seed}-{c.strategy}"
    )


@contextmanager
def _progress() -> Iterator[tuple[PointCallback, ProgressCallback]]:
    """A rich progress bar on stderr: which mine count, and its games."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("sweep", total=None)

        def on_point(i: int, n: int, mines: int) -> None:
            point = f"point {i + 1}/{n}: {plural(mines, 'mine')}"
            bar.update(task, description=point, completed=0, total=None)

        def progress(played: int, to_play: int, _tally: Tally) -> None:
            bar.update(task, completed=played, total=to_play)

        yield on_point, progress
