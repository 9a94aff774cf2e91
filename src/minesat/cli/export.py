"""``minesat export``: every stored game as one record, JSON Lines or CSV (docs/commands/export.md)."""

from __future__ import annotations

import sqlite3
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer

from minesat import usecases
from minesat.cli.common import EXIT_OUTPUT_FAILED, check_output, fail, is_stdout, path_error, unreadable_store
from minesat.errors import ParquetUnavailable, StoreError

__all__ = ["OUT_FORMATS", "export"]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()


@commands.command()
def export(
    db: Annotated[
        Path,
        typer.Argument(
            metavar="DB", help="Game database written by `minesat simulate --db`.", show_default=False
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", metavar="FILE",
                     help="Write here instead of stdout (- is stdout): .jsonl or .ndjson JSON Lines, "
                     ".csv CSV, .parquet Parquet; no extension as stdout.",
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
    start, strategy, player). Seeds are strings of digits in JSON. --out FILE.csv writes CSV,
    FILE.parquet Parquet (pip install 'minesat[parquet]'); another extension is refused.

    Example: minesat export reports/expert.sqlite --out expert.csv
    """
    if is_stdout(out):
        out = None
    kind = _kind(out, as_csv)
    if kind == "parquet" and not usecases.parquet_available():
        fail("--out FILE.parquet needs pyarrow: install the extra with  pip install 'minesat[parquet]'")
    if out is not None:
        check_output(out, "--out")
    try:
        store = usecases.open_store(db)
    except FileNotFoundError:
        fail(f"{db}: no such game database")
    except (StoreError, sqlite3.Error, OSError, ValueError, KeyError) as exc:
        unreadable_store(db, exc)
    with store:
        try:
            # Whole or not at all: a damaged row met while streaming leaves no file at --out.
            # closing(): the game cursor is closed before the store, even when the pipe breaks.
            if kind == "parquet":
                assert out is not None
                with usecases.open_atomic(out) as raw:
                    usecases.export_parquet(store, raw, guesses=guesses)
            else:
                # newline="": the csv module writes its own line ends.
                with nullcontext(sys.stdout) if out is None else usecases.open_text_atomic(out) as handle:
                    usecases.export_records(store, handle, as_csv=kind == "csv", guesses=guesses)
        except ParquetUnavailable as exc:
            fail(exc)
        except OSError as exc:  # writing FILE (standard output's errors are met for every command alike)
            fail(path_error(out or "-", exc, "cannot write"), EXIT_OUTPUT_FAILED)
        except (sqlite3.Error, ValueError, KeyError) as exc:  # a damaged row, met while streaming
            unreadable_store(db, exc)


#: What ``--out``'s extension writes; a name with none (a FIFO, ``/dev/fd/63``) is JSON Lines or,
#: with ``--csv``, CSV, as standard output is.
OUT_FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".parquet": "parquet"}
_NAMES = {"jsonl": "JSON Lines", "csv": "CSV", "parquet": "Parquet"}


def _kind(out: Path | None, as_csv: bool) -> str:
    """The format to write: ``--out``'s extension, else ``--csv`` (one line, exit 2, on a clash
    or an extension export does not write: an ``.xlsx`` file of JSON Lines would open as nothing)."""
    suffix = out.suffix.lower() if out is not None else ""
    if not suffix:
        return "csv" if as_csv else "jsonl"
    kind = OUT_FORMATS.get(suffix)
    if kind is None:
        fail(f"{out}: export writes JSON Lines (.jsonl, .ndjson), CSV (.csv) or Parquet (.parquet), "
             f"not {suffix}")
    if as_csv and kind != "csv":
        fail(f"{out}: --csv writes CSV, and a {suffix} file is {_NAMES[kind]}: leave out one of them")
    return kind
