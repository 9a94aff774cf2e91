"""The ``minesat`` command line: typer commands that only wire the library together.

Each group of commands lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="minesat",
    help="Minesweeper constraint-solving analysis engine: analyse boards, play, simulate, report.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Importing a module registers its commands on ``app``.
from minesat.cli import analyze as _analyze  # noqa: E402,F401
from minesat.cli import boards as _boards  # noqa: E402,F401
from minesat.cli import export as _export  # noqa: E402,F401
from minesat.cli import generate as _generate  # noqa: E402,F401
from minesat.cli import metrics as _metrics  # noqa: E402,F401
from minesat.cli import play as _play  # noqa: E402,F401
from minesat.cli import report as _report  # noqa: E402,F401
from minesat.cli import simulate as _simulate  # noqa: E402,F401
from minesat.cli import solve as _solve  # noqa: E402,F401
from minesat.cli import sweep as _sweep  # noqa: E402,F401


def main() -> None:
    app()
