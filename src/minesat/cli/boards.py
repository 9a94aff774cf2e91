"""``minesat show`` and ``minesat convert``: board files on the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from minesat.board import FLAG, Layout, Position
from minesat.cli.common import EXIT_BAD_INPUT, check_output, fail, file_error, is_stdout, plural, write_output
from minesat.errors import InputError, InvalidValue
from minesat.usecases import (
    EXTENSIONS,
    FORMATS,
    LEGEND,
    format_for,
    format_layout,
    format_position,
    read_board,
    render_grid,
    render_position,
)

__all__ = ["FileArg", "FormatOpt", "LayoutOpt", "convert", "describe", "load", "render_layout", "show"]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()

_FORMAT_HELP = (
    f"Board format: {', '.join(FORMATS)}. Default: from the extension "
    f"({', '.join(f'{ext} {name}' for ext, name in EXTENSIONS.items())})."
)
_LAYOUT_HELP = (
    "Read the file as a layout (where the mines are: '*' in text files) instead of a "
    "position (what a player sees). MBF files are always layouts."
)


def load(path: Path, format: str | None, as_layout: bool) -> Position | Layout:
    """Read a board for a command, turning every problem into one line and exit status 2."""
    try:
        # A directory is said to be one (read_board does), before its name is read for a format.
        mbf = str(path) != "-" and path.is_file() and format_for(path, format) == "mbf"
        if as_layout or mbf:
            return read_board(path, format, "layout", "show", check_kind=False)
        return read_board(path, format, "position", "show", check_kind=False)
    except (InputError, ValueError) as err:
        fail(file_error(path, err), EXIT_BAD_INPUT)


def describe(board: Position | Layout) -> str:
    """One line: size, kind and mine count, e.g. ``9x9 position, 10 mines, 3 flagged``."""
    size = f"{board.rows}x{board.cols}"
    if isinstance(board, Layout):
        return f"{size} layout, {plural(board.mine_count, 'mine')}"
    mines = "mine count unknown" if board.mines is None else plural(board.mines, "mine")
    flags = len(board.cells_in(FLAG))
    return f"{size} position, {mines}, {flags} flagged"


def render_layout(layout: Layout) -> str:
    """A layout drawn as its solved board: ``*`` mines, numbers, blanks for zeros."""
    counts = layout.counts

    def char(cell: tuple[int, int]) -> str:
        if cell in layout.mines:
            return "*"
        n = counts[cell[0] * layout.cols + cell[1]]
        return str(n) if n else " "

    return render_grid(layout.rows, layout.cols, char)


FileArg = Annotated[
    Path,
    typer.Argument(metavar="FILE", help="Board file (.txt/.dat, .mine, .mbf, .json).", show_default=False),
]
FormatOpt = Annotated[str | None, typer.Option("--format", "-f", help=_FORMAT_HELP, show_default=False)]
LayoutOpt = Annotated[bool, typer.Option("--layout", help=_LAYOUT_HELP)]


@commands.command(help=f"Draw a board file with row letters and column numbers.\n\nLegend: {LEGEND}.")
def show(file: FileArg, format: FormatOpt = None, layout: LayoutOpt = False) -> None:
    board = load(file, format, layout)
    typer.echo(f"{file}: {describe(board)}")
    typer.echo(render_layout(board) if isinstance(board, Layout) else render_position(board))


@commands.command(
    help="Convert a board file between formats (text, mine, mbf, json).\n\n"
    "The output is written whole or not at all; OUT - writes standard output (text unless --to "
    "says otherwise). MBF holds layouts only: converting to .mbf needs --layout (or an .mbf input)."
)
def convert(
    source: Annotated[Path, typer.Argument(metavar="IN", help="Board file to read.", show_default=False)],
    target: Annotated[
        Path, typer.Argument(metavar="OUT", help="File to write; - for standard output.", show_default=False)
    ],
    from_: Annotated[
        str | None,
        typer.Option("--from", help="Format of IN. " + _FORMAT_HELP, show_default=False),
    ] = None,
    to: Annotated[
        str | None, typer.Option("--to", help="Format of OUT. " + _FORMAT_HELP, show_default=False)
    ] = None,
    layout: LayoutOpt = False,
) -> None:
    check_output(target, "OUT")
    try:
        # Standard output has no extension to name a format: text unless --to says otherwise.
        out_format = format_for(target, to if to is not None or not is_stdout(target) else "text")
    except InvalidValue as err:
        fail(err, EXIT_BAD_INPUT)
    board = load(source, from_, layout)
    if isinstance(board, Position) and out_format == "mbf":
        fail(
            f"{target}: MBF holds layouts only, and {source} was read as a position "
            "(pass --layout to read it as a layout)",
            EXIT_BAD_INPUT,
        )
    try:
        content = format_layout(board, out_format) if isinstance(board, Layout) else format_position(
            board, out_format)
    except InvalidValue as err:
        fail(file_error(target, err), EXIT_BAD_INPUT)
    write_output(target, content, "the board")
