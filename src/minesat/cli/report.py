"""``minesat report``: solvability statistics of stored simulation runs."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from minesat import usecases
from minesat.cli.common import (
    EXIT_OUTPUT_FAILED,
    check_output,
    error_line,
    fail,
    is_stdout,
    path_error,
    unreadable_store,
)
from minesat.errors import InputError, StoreError

__all__ = ["report"]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()


@commands.command()
def report(
    db: Annotated[
        list[Path],
        typer.Argument(
            metavar="DB",
            help="Game databases written by `minesat simulate --db`; several are compared.",
            show_default=False,
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            help="Write the report here; the extension picks the format: .html (one self-contained "
            "page, plots inline), .md (plots as NAME-*.svg files beside it) or .json. "
            "Without it (or with -) the Markdown tables (no plots) go to stdout.",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the statistics as one JSON document on stdout.")
    ] = False,
    reference: Annotated[
        Path | None,
        typer.Option(
            "--reference",
            metavar="FILE.csv",
            help="Published win rates to set beside the runs of the same board, rule and start: CSV "
            "with source, rows, cols, mines, rule, start, rate, and games or low, high "
            "(reports/references.csv holds the published figures the docs cite).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Win rate with a Wilson 95 % interval, guesses per game, where games are lost,
    win rate by 3BV, time per game, and the command that reproduces each run.

    Two databases that hold the same boards (the same options apart from
    --strategy) are also paired game by game: both won, only A, only B,
    neither, the exact McNemar p-value and the difference with its 95 %
    interval. Every run says what made it (its provenance).

    Example: minesat report reports/expert.sqlite --out reports/expert.html
    """
    if is_stdout(out):
        out = None  # the Markdown tables on standard output, as without --out
    if out is not None:
        check_output(out, "--out")  # first: a directory is said to be one, not a format without a name
    if out is not None and out.suffix.lower() not in usecases.report_formats():
        fail(f"{out}: unknown report format {out.suffix or '(none)'!r}; use .html, .md or .json")
    references = []
    if reference is not None:
        try:
            references = usecases.read_references(reference)
        except InputError as exc:
            fail(exc)
        except OSError as exc:
            fail(path_error(reference, exc, "cannot read the references"))

    def unreadable(path: Path, exc: BaseException) -> NoReturn:
        if isinstance(exc, FileNotFoundError):
            fail(f"{path}: no such game database")
        unreadable_store(path, exc)

    # Two runs on the same boards are also compared game by game (docs/commands/report.md); a store of
    # several players is several runs, one per player.
    try:
        document = usecases.report_document(db, references, unreadable)
    except (StoreError, sqlite3.Error, OSError, ValueError, KeyError) as exc:  # while pairing runs
        fail(error_line(exc))

    if out is not None:
        try:
            written = usecases.write_report(document, out)
        except OSError as exc:
            fail(path_error(out, exc, "cannot write the report"), EXIT_OUTPUT_FAILED)
        for path in written:
            # On stderr when stdout carries the JSON, so that it parses.
            typer.echo(f"wrote {path}", err=as_json)
    if as_json or out is None:
        typer.echo(usecases.render_report(document, as_json), nl=False)
