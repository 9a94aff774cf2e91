"""What every command shares: turning library errors into one line and an exit status."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from minesat.board import PRESETS, Cell, parse_cell
from minesat.generate import FirstClick
from minesat.guess.best import DEFAULT_PIECES
from minesat.player import get_strategy
from minesat.stats import percent  # noqa: F401  (the commands import it from here)
from minesat.words import agree, plural  # noqa: F401  (the commands import them from here)

#: The first click when none is given (SPEC section 4), clipped to small boards.
DEFAULT_START: Cell = (3, 3)

#: The board options ``simulate`` and ``generate`` share (read them with :func:`board_size`).
PresetOption = Annotated[str | None, typer.Option(help=f"Board preset: {', '.join(PRESETS)}.")]
RowsOption = Annotated[int | None, typer.Option(help="Board rows (with --cols and --mines).")]
ColsOption = Annotated[int | None, typer.Option(help="Board columns.")]
MinesOption = Annotated[int | None, typer.Option(help="Number of mines.")]
FirstClickOption = Annotated[
    str,
    typer.Option(
        "--first-click",
        help="opening: the first cell and its neighbours are mine-free; "
        "safe: the first cell only; any: no rule.",
    ),
]
StartOption = Annotated[
    str | None,
    typer.Option(help="First click as ROW,COL (0-based) or a cell name; default 3,3 clipped to the board."),
]

#: Exit statuses, as SPEC promises them.
EXIT_INCONSISTENT = 1  # a position no layout satisfies
EXIT_BAD_INPUT = 2  # unreadable file, bad option value


def fail(message: str, status: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``minesat: message`` on stderr (one line, no traceback) and exit."""
    typer.echo(f"minesat: {message}", err=True)
    raise typer.Exit(status)


def given_options(ctx: typer.Context, *names: str) -> list[str]:
    """The options among ``names`` (parameter names) given on the command line, as typed (``--workers``).

    An option left at its default was not given; one given with the default value was.
    """
    given = []
    for name in names:
        source = ctx.get_parameter_source(name)
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):
            param = next(p for p in ctx.command.params if p.name == name)
            given.append(max(param.opts, key=len))
    return given


def refuse_unused(options: list[str], why: str) -> None:
    """Fail (one line, exit 2) when any of ``options`` was given: it would do nothing ``why`` says."""
    if options:
        it = "it" if len(options) == 1 else "them"
        named = options[0] if len(options) == 1 else f"{', '.join(options[:-1])} and {options[-1]}"
        fail(f"{named} {agree(len(options), 'does', 'do')} nothing {why}: leave {it} out")


def check_output(path: Path, option: str) -> None:
    """Refuse, before any work, a path no file can be written at (one line, exit 2): a directory,
    or a path under a file. Missing folders are no reason: they are made when the file is written."""
    if path.is_dir():
        fail(f"{path}: is a directory; {option} wants a file name")
    check_folder(path.parent, path)


def check_folder(folder: Path, wanted: Path | None = None) -> None:
    """Refuse (one line, exit 2) a ``folder`` that cannot be made: a file there or on the way to it.
    ``wanted`` is what is to go in it, for the message (the folder itself by default)."""
    wanted = wanted if wanted is not None else folder
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        fail(f"{wanted}: {folder} is a file, not a folder")


def check_viewer_size(rows: int, cols: int, option: str = "--html") -> str | None:
    """Why a ``rows`` x ``cols`` board is too large for a viewer page, or ``None`` when it is not
    (:data:`~minesat.viewer.MAX_VIEWER_CELLS`)."""
    from minesat.viewer import MAX_VIEWER_CELLS

    if rows * cols <= MAX_VIEWER_CELLS:
        return None
    return (f"{option} draws boards of up to {MAX_VIEWER_CELLS} cells (64x64), not {rows}x{cols}: "
            "each step keeps its whole analysis; leave out " + option)


def check_total(mines: int | None) -> None:
    """Fail (one line, exit 2) on a negative ``--mines``: the library would refuse it anyway, per file."""
    if mines is not None and mines < 0:
        fail(f"--mines must be >= 0, not {mines}")


def check_time_limit(seconds: float) -> None:
    """Fail (one line, exit 2) on a ``--time-limit`` that is no number of seconds >= 0 (0: no limit)."""
    if not seconds >= 0 or math.isinf(seconds):  # nan compares false
        fail(f"--time-limit must be a number of seconds >= 0 (0: no limit), not {seconds:g}")


def first_click_rule(text: str) -> FirstClick:
    """Parse ``--first-click``; a bad value fails with the list of rules."""
    try:
        return FirstClick(text.lower())
    except ValueError:
        fail(f"--first-click must be one of {', '.join(r.value for r in FirstClick)}, not {text!r}")


def start_cell(text: str | None, rows: int, cols: int) -> Cell:
    """Parse ``--start`` (a cell name or ROW,COL); the default is clipped to the board.

    An explicit cell off the board fails: clipping it silently would play another game.
    """
    if text is None:
        return min(DEFAULT_START[0], rows - 1), min(DEFAULT_START[1], cols - 1)
    return given_start(text, rows, cols)


def given_start(text: str, rows: int, cols: int) -> Cell:
    """Parse an explicit ``--start``; a cell off the board fails."""
    try:
        cell = parse_cell(text)
    except ValueError as err:
        fail(f"--start: {err}")
    if not (0 <= cell[0] < rows and 0 <= cell[1] < cols):
        fail(f"--start {text} is off the {rows}x{cols} board")
    return cell


def board_size(
    preset: str | None, rows: int | None, cols: int | None, mines: int | None
) -> tuple[int, int, int]:
    """``--preset NAME`` or all of ``--rows/--cols/--mines``, as (rows, cols, mines); fails otherwise."""
    board = (rows, cols, mines)
    if preset is not None:
        if any(v is not None for v in board):
            fail("give either --preset or --rows/--cols/--mines, not both")
        if preset.lower() not in PRESETS:
            fail(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
        return PRESETS[preset.lower()]
    if rows is None or cols is None or mines is None:
        fail("give --preset NAME or all of --rows, --cols and --mines")
    return rows, cols, mines


#: Help for every --strategy option.
STRATEGY_HELP = (
    "Guessing strategy: best (default), safest (the baseline), safest-rowmajor, or best "
    "with pieces switched: best-no-PIECE turns one of best's pieces ("
    + ", ".join(p for p, on in DEFAULT_PIECES.items() if on)
    + ") off, best-with-PIECE another ("
    + ", ".join(p for p, on in DEFAULT_PIECES.items() if not on)
    + ") on, and they chain: best-no-endgame-with-pseudo. See docs/strategies.md."
)


def check_strategy(name: str) -> str:
    """``name`` if the player knows the strategy; otherwise one line and exit 2."""
    try:
        get_strategy(name)
    except ValueError as err:
        fail(str(err))
    return name
