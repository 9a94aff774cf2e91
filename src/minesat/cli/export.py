"""``minesat export``: every stored game as one record, JSON Lines or CSV (docs/commands/export.md)."""

from __future__ import annotations

import sqlite3
import sys
from contextlib import closing, nullcontext
from pathlib import Path
from typing import Annotated

import typer

from minesat.cli import app
from minesat.cli.common import EXIT_OUTPUT_FAILED, check_output, fail, is_stdout, path_error, unreadable_store

__all__ = ["export"]


@app.command()
def export(
    db: Annotated[
        Path,
        typer.Argument(
            metavar="DB", help="Game database written by `minesat simulate --db`.", show_default=False
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", metavar="FILE", help="Write here instead of stdout (- is stdout).",
                     show_default=False),
    ] = None,
    as_csv: Annotated[
        bool, typer.Option("--csv", help="CSV with a header row instead of JSON Lines.")
    ] = False,
    guesses: Annotated[
        bool,
        typer.Option(
            "--guesses",
            help="One record per guess instead of per game: game, k, cell, probability, survived, "
            "uncovered (where the store recorded it).",
        ),
    ] = False,
) -> None:
    """One record per stored game (or per guess), with its run's settings: JSON Lines, CSV or Parquet.

    The keys: game, seed, won, guesses, moves, uncovered, bbbv, seconds, analyses, fatal_move,
    fatal_probability, first_guess_probability, and the run's settings (rows, cols, mines, rule,
    start, strategy, player). Seeds are strings of digits in JSON. --out FILE.parquet writes
    Parquet (pip install 'minesat[parquet]').

    Example: minesat export reports/expert.sqlite --csv --out expert.csv
    """
    from minesat.export import ParquetUnavailable, write_parquet, write_records
    from minesat.store import GameStore, StoreError

    if is_stdout(out):
        out = None
    parquet = out is not None and out.suffix.lower() == ".parquet"
    if parquet and as_csv:
        fail(f"{out}: --csv writes CSV, and a .parquet file is Parquet: leave out one of them")
    if parquet:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            fail("--out FILE.parquet needs pyarrow: install the extra with  pip install 'minesat[parquet]'")
    if out is not None:
        check_output(out, "--out")
    try:
        store = GameStore(db)
    except FileNotFoundError:
        fail(f"{db}: no such game database")
    except (StoreError, sqlite3.Error, OSError, ValueError, KeyError) as exc:
        unreadable_store(db, exc)
    with store:
        if parquet:
            assert out is not None
            try:
                out.parent.mkdir(parents=True, exist_ok=True)
                with closing(store.games()) as games:
                    write_parquet(games, out, config=store.config, guesses=guesses)
            except ParquetUnavailable as exc:
                fail(exc)
            except OSError as exc:
                fail(f"{out}: cannot write ({exc.strerror or exc})")
            except (sqlite3.Error, ValueError, KeyError) as exc:
                unreadable_store(db, exc)
            return
        try:
            # newline="": the csv module writes its own line ends.
            if out is not None:
                out.parent.mkdir(parents=True, exist_ok=True)
            handle = sys.stdout if out is None else out.open("w", encoding="utf-8", newline="")
        except OSError as exc:
            fail(path_error(out or "-", exc, "cannot write"), EXIT_OUTPUT_FAILED)
        try:
            # closing(): the game cursor is closed before the store, even when the pipe breaks.
            with handle if out is not None else nullcontext(handle), closing(store.games()) as games:
                write_records(games, handle, as_csv=as_csv, config=store.config, guesses=guesses)
        except OSError as exc:  # writing FILE (standard output's errors are met for every command alike)
            fail(path_error(out or "-", exc, "cannot write"), EXIT_OUTPUT_FAILED)
        except (sqlite3.Error, ValueError, KeyError) as exc:  # a damaged row, met while streaming
            unreadable_store(db, exc)
