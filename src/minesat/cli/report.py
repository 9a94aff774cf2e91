"""``minesat report``: solvability statistics of stored simulation runs."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Annotated

import typer

from minesat.cli import app
from minesat.cli.common import (
    EXIT_OUTPUT_FAILED,
    check_output,
    error_line,
    fail,
    is_stdout,
    path_error,
    unreadable_store,
)

__all__ = ["report"]


@app.command()
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
    # Imported here so `minesat --help` and the other commands do not pay for it.
    from minesat import report as rep
    from minesat.store import ANY_PLAYER, StoreError

    if is_stdout(out):
        out = None  # the Markdown tables on standard output, as without --out
    if out is not None:
        check_output(out, "--out")  # first: a directory is said to be one, not a format without a name
    if out is not None and out.suffix.lower() not in rep.FORMATS:
        fail(f"{out}: unknown report format {out.suffix or '(none)'!r}; use .html, .md or .json")
    references = []
    if reference is not None:
        try:
            references = rep.read_references(reference)
        except rep.ReferenceError as exc:
            fail(exc)
        except OSError as exc:
            fail(path_error(reference, exc, "cannot read the references"))
    summaries = []
    for path in db:
        try:
            summaries += rep.summarize_store(path)
        except FileNotFoundError:
            fail(f"{path}: no such game database")
        except (StoreError, sqlite3.Error, OSError, ValueError, KeyError) as exc:
            # A damaged file can fail while its rows are read, not only when opened.
            unreadable_store(path, exc)
    # Two runs on the same boards are also compared game by game (docs/commands/report.md); a store of
    # several players is several runs, one per player.
    labelled = rep.unique_labels(summaries)
    runs = [(s.source, s.player if s.players_in_store > 1 else ANY_PLAYER, s.label) for s in labelled]
    try:
        paired = rep.pair_runs(runs)
    except (StoreError, sqlite3.Error, OSError, ValueError, KeyError) as exc:
        fail(error_line(exc))
    document = rep.make_report(summaries, paired, references)

    if out is not None:
        try:
            written = rep.write_report(document, out)
        except OSError as exc:
            fail(path_error(out, exc, "cannot write the report"), EXIT_OUTPUT_FAILED)
        for path in written:
            # On stderr when stdout carries the JSON, so that it parses.
            typer.echo(f"wrote {path}", err=as_json)
    if as_json:
        typer.echo(rep.render_json(document), nl=False)
    elif out is None:
        typer.echo(rep.render_markdown(document), nl=False)
