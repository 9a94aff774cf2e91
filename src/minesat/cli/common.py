"""What every command shares: turning library errors into one line and an exit status."""

from __future__ import annotations

from typing import NoReturn

import typer

#: Exit statuses, as SPEC promises them.
EXIT_INCONSISTENT = 1  # a position no layout satisfies
EXIT_BAD_INPUT = 2  # unreadable file, bad option value


def fail(message: str, status: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``minesat: message`` on stderr (one line, no traceback) and exit."""
    typer.echo(f"minesat: {message}", err=True)
    raise typer.Exit(status)
