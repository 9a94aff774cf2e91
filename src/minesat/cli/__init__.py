"""The ``minesat`` command line: typer commands that only wire the library together.

Each group of commands lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(
    name="minesat",
    help="Minesweeper constraint-solving analysis engine: analyse boards, play, simulate, report.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Plain help: the rich panels print "<bool>" beside every flag, as if it took a value.
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from minesat import __version__

        typer.echo(f"minesat {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Minesweeper constraint-solving analysis engine: analyse boards, play, simulate, report.

    Documentation: docs/README.md in the project. Exit status: 0 success, 1 an
    inconsistent position, 2 bad input.
    """

# Importing a module registers its commands on ``app``.
from minesat.cli import analyze as _analyze  # noqa: E402,F401
from minesat.cli import boards as _boards  # noqa: E402,F401
from minesat.cli import export as _export  # noqa: E402,F401
from minesat.cli import generate as _generate  # noqa: E402,F401
from minesat.cli import metrics as _metrics  # noqa: E402,F401
from minesat.cli import perfect as _perfect  # noqa: E402,F401
from minesat.cli import play as _play  # noqa: E402,F401
from minesat.cli import replay as _replay  # noqa: E402,F401
from minesat.cli import report as _report  # noqa: E402,F401
from minesat.cli import serve as _serve  # noqa: E402,F401
from minesat.cli import simulate as _simulate  # noqa: E402,F401
from minesat.cli import solve as _solve  # noqa: E402,F401
from minesat.cli import sweep as _sweep  # noqa: E402,F401


def main() -> None:
    app()
