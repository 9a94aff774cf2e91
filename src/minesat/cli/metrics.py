"""``minesat metrics``: 3BV, openings, islands and greedy ZiNi per layout (docs/commands/metrics.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from minesat import usecases
from minesat.cli.common import EXIT_BAD_INPUT, check_max_memory
from minesat.errors import fill, option_name
from minesat.usecases import DEFAULT_MAX_MEMORY, Budget, OutOfMemory, games

__all__ = ["metrics"]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()

_COLUMNS = ("cells", "mines", "bbbv", "openings", "islands", "zini")


@commands.command()
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
        layouts = usecases.read_layouts(path, "metrics")
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
                figures = games.layout_metrics(layout, budget).to_json()
            except (OutOfMemory, MemoryError) as stop:
                del layout
                usecases.recover_memory()
                why, advice = usecases.which_budget(stop, budget)
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

