"""``minesat metrics``: 3BV, openings, islands and greedy ZiNi per layout (docs/commands/metrics.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from minesat.board import Layout
from minesat.cli import app
from minesat.cli.common import EXIT_BAD_INPUT
from minesat.errors import InvalidValue
from minesat.formats.boardset import iter_boardset
from minesat.formats.wanted import read_board
from minesat.metrics import metrics as layout_metrics

__all__ = ["BOARD_SET_EXTENSIONS", "metrics"]

#: Extensions read as board sets (one layout per line); others are single layout files.
BOARD_SET_EXTENSIONS = (".jsonl", ".ndjson")

_COLUMNS = ("cells", "mines", "bbbv", "openings", "islands", "zini")


@app.command()
def metrics(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="LAYOUT",
            help="Layout files (.txt/.dat, .mine, .mbf, .json) or board sets (.jsonl, one layout per line).",
            show_default=False,
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per layout (JSON Lines), with its file and line.")
    ] = False,
) -> None:
    """How hard each layout is to clear: cells, mines, 3BV, openings, islands, greedy ZiNi.

    A file that cannot be read is one line on stderr (and with --json an object
    {"file", "error"}); the other files are still measured, and the exit status is 2.
    """
    failed = False
    if not as_json:
        typer.echo(f"{'layout':<24} " + " ".join(f"{name:>8}" for name in _COLUMNS))
    for path in files:
        layouts = _layouts(path)
        while True:
            # Only reading is guarded: an error writing the output is not this file's fault.
            try:
                item = next(layouts, None)
            except (ValueError, OSError) as exc:  # BoardFormatError names file:line:column itself
                message = f"{path}: {exc.strerror or exc}" if isinstance(exc, OSError) else str(exc)
                typer.echo(f"minesat: {message}", err=True)
                if as_json:
                    typer.echo(json.dumps({"file": str(path), "error": message}))
                failed = True
                break
            if item is None:
                break
            line, layout = item
            figures = layout_metrics(layout).to_json()
            if as_json:
                where = {"file": str(path)} if line is None else {"file": str(path), "line": line}
                typer.echo(json.dumps({**where, **figures}))
            else:
                name = str(path) if line is None else f"{path}:{line}"
                typer.echo(f"{name:<24} " + " ".join(f"{figures[k]:>8}" for k in _COLUMNS))
    if failed:
        raise typer.Exit(EXIT_BAD_INPUT)


def _layouts(path: Path) -> Iterator[tuple[int | None, Layout]]:
    """``(line, layout)`` per board of a board set, or ``(None, layout)`` for a layout file or
    ``-`` (standard input, in the text format, as every command reads it)."""
    if path.is_dir():
        raise InvalidValue(f"{path}: is a directory, not a board file")
    if path.suffix.lower() in BOARD_SET_EXTENSIONS:
        yield from iter_boardset(path)
    else:
        layout = read_board(path, None, "layout", "metrics")
        assert isinstance(layout, Layout)
        yield None, layout
