"""``minesat metrics``: 3BV, openings, islands and greedy ZiNi per layout (docs/commands/metrics.md)."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from minesat.board import Layout
from minesat.budget import DEFAULT_MAX_MEMORY, Budget, OutOfMemory, give_back, watching, which_budget
from minesat.cli import app
from minesat.cli.common import EXIT_BAD_INPUT, check_max_memory, memory_watch
from minesat.errors import InvalidValue, fill, option_name
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
    max_memory: Annotated[
        int,
        typer.Option(
            "--max-memory",
            metavar="MB",
            help="Hold at most this many megabytes: a layout past it is one line on stderr, the others "
            "still measured, exit 1; 0: no limit.",
        ),
    ] = DEFAULT_MAX_MEMORY // 10**6,
) -> None:
    """How hard each layout is to clear: cells, mines, 3BV, openings, islands, greedy ZiNi.

    A file that cannot be read is one line on stderr (and with --json an object
    {"file", "error"}); the other files are still measured, and the exit status is 2
    (1 for a layout past --max-memory).
    """
    check_max_memory(max_memory)
    budget = Budget(max_memory=max_memory * 10**6 or None)
    status = 0
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
                _failed(str(path), None, message, as_json)
                status = max(status, EXIT_BAD_INPUT)
                break
            if item is None:
                break
            line, layout = item
            where = {"file": str(path)} if line is None else {"file": str(path), "line": line}
            try:
                with watching(budget.clock()), memory_watch(budget.max_memory):
                    figures = layout_metrics(layout).to_json()
            except (OutOfMemory, MemoryError) as stop:
                del layout
                gc.collect()
                give_back()
                why, advice = which_budget(stop, budget)
                name = str(path) if line is None else f"{path}:{line}"
                _failed(str(path), line, f"{name}: {why}; {fill(advice, option_name)}", as_json)
                status = max(status, EXIT_PAST_BUDGET)
                continue
            if as_json:
                typer.echo(json.dumps({**where, **figures}))
            else:
                name = str(path) if line is None else f"{path}:{line}"
                typer.echo(f"{name:<24} " + " ".join(f"{figures[k]:>8}" for k in _COLUMNS))
    if status:
        raise typer.Exit(status)


#: A layout past --max-memory: the work could not be done as asked (docs/exit-status.md).
EXIT_PAST_BUDGET = 1


def _failed(file: str, line: int | None, message: str, as_json: bool) -> None:
    """One line on stderr for a file (or a board set's line) that was not measured; with ``--json``
    also its object ``{"file", "error"}`` (and ``"line"``), in its place among the others."""
    typer.echo(f"minesat: {message}", err=True)
    if as_json:
        where = {"file": file} if line is None else {"file": file, "line": line}
        typer.echo(json.dumps({**where, "error": message}))


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
