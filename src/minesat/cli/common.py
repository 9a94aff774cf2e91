"""What every command shares: turning library errors into one line and an exit status."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Literal, NoReturn

import typer

from minesat.board import COVERED, FLAG, PRESETS, Cell, Layout, Position, parse_cell
from minesat.formats import MAX_BYTES, format_for, parse_layout, parse_position, read_layout, read_position
from minesat.generate import FirstClick
from minesat.guess.best import DEFAULT_PIECES
from minesat.player import get_strategy
from minesat.stats import percent  # noqa: F401  (the commands import it from here)

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


def check_total(mines: int | None) -> None:
    """Fail (one line, exit 2) on a negative ``--mines``: the library would refuse it anyway, per file."""
    if mines is not None and mines < 0:
        fail(f"--mines must be >= 0, not {mines}")


class InputError(ValueError):
    """Input a command cannot use; the message is one line that names the file."""


def with_path(path: str | Path, message: str) -> str:
    """``PATH: message``, unless the message already starts with the path (no ``a.txt: a.txt:``)."""
    name = "<stdin>" if str(path) == "-" else str(path)
    return message if message.startswith((name, str(path))) else f"{name}: {message}"


#: What each kind of board is, for messages that say which one a command wants.
KIND = {
    "position": "a position (what a player sees: '?' covered cells, numbers, '*' flags)",
    "layout": "a layout (where the mines are: '*' mines)",
}


def read_board(
    path: Path,
    format: str | None,
    want: Literal["position", "layout"],
    command: str,
    check_kind: bool = True,
) -> Position | Layout:
    """Read the board a command wants, or raise :class:`InputError` with one line.

    ``-`` reads standard input (text format unless ``format`` says otherwise).
    A layout where a position is wanted (an MBF file, or a text board with no
    covered cell), or a position where a layout is wanted (a board with covered
    cells), is refused with a message that says what the file is; ``check_kind``
    false skips that (``show`` and ``convert`` take either).
    """
    name = str(path)
    if name == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise InputError(f"<stdin>: more than {MAX_BYTES} bytes: too large for a board")
        return board_from_content(data, "<stdin>", format or "text", want, command, check_kind)
    try:
        if path.is_dir():
            raise InputError(f"{name}: is a directory, not a board file")
        fmt = format_for(path, format)
        read_p = lambda: read_position(path, fmt)  # noqa: E731
        read_l = lambda: read_layout(path, fmt)  # noqa: E731
        return _of_kind(name, fmt, read_p, read_l, want, command, check_kind)
    except InputError:
        raise
    except (ValueError, RecursionError) as err:
        raise InputError(with_path(name, " ".join(str(err).split()))) from None
    except OSError as err:
        raise InputError(f"{name}: {err.strerror or err}") from None


def board_from_content(
    data: str | bytes,
    name: str,
    format: str,
    want: Literal["position", "layout"],
    command: str,
    check_kind: bool = True,
) -> Position | Layout:
    """:func:`read_board` for a file's content already in memory (standard input, an upload).

    ``name`` stands for the file in messages (``name:LINE:COL: ...``).

    >>> board_from_content("1?\\n", "board", "text", "position", "analyze").to_rows()
    ['1?']
    >>> board_from_content("1x\\n", "board", "text", "position", "analyze")
    Traceback (most recent call last):
    ...
    minesat.cli.common.InputError: board:1:2: unknown character 'x' (a position uses ? * F . 0-8)
    """
    try:
        fmt = format_for(name, format)
        read_p = lambda: parse_position(data, name, fmt)  # noqa: E731
        read_l = lambda: parse_layout(data, name, fmt)  # noqa: E731
        return _of_kind(name, fmt, read_p, read_l, want, command, check_kind)
    except InputError:
        raise
    except (ValueError, RecursionError) as err:
        raise InputError(with_path(name, " ".join(str(err).split()))) from None


def _of_kind(
    name: str,
    fmt: str,
    read_p: Callable[[], Position],
    read_l: Callable[[], Layout],
    want: Literal["position", "layout"],
    command: str,
    check_kind: bool,
) -> Position | Layout:
    """The board read the way ``want`` says, refusing a layout for a position and the other way round."""
    if not check_kind:
        return read_p() if want == "position" else read_l()
    if want == "position":
        if fmt == "mbf":
            raise InputError(f"{name}: an MBF file is {KIND['layout']}; {command} wants {KIND['position']}")
        position = read_p()
        if not position.cells_in(COVERED) and not _shows_play(position, read_l):
            raise InputError(
                f"{name}: only mines and blank cells, so this is {KIND['layout']}; "
                f"{command} wants {KIND['position']}"
            )
        return position
    if fmt in ("text", "json"):
        # Layout characters are '*' and anything else, so a position reads as a layout
        # without error: its covered cells would silently count as mine-free.
        try:
            as_position = read_p()
        except ValueError:
            as_position = None
        if as_position is not None and as_position.cells_in(COVERED):
            raise InputError(
                f"{name}: covered cells ('?'), so this is {KIND['position']}; {command} wants "
                f"{KIND['layout']}"
            )
    return read_l()


def _shows_play(position: Position, read_layout: Callable[[], Layout]) -> bool:
    """Whether a board with no covered cell is a finished position rather than a layout.

    A number (1-8) or a flag written ``F`` is something only a player sees: such a
    file is a finished game, analysed like any position. A file of mines (``*``)
    and blank cells alone is a layout. ``F`` shows where the layout reading of
    the same file finds no mine on a flagged cell.
    """
    if any(state > 0 for state in position.cells):
        return True
    try:
        mines = read_layout().mines
    except ValueError:
        return True  # not a layout at all
    return set(position.cells_in(FLAG)) != mines


def plural(count: int, noun: str) -> str:
    """``1 game``, ``2 games``: counts read as English.

    >>> plural(1, "game"), plural(0, "guess")
    ('1 game', '0 guesses')
    """
    suffix = "es" if noun.endswith(("s", "sh", "ch", "x")) else "s"
    return f"{count} {noun}" if count == 1 else f"{count} {noun}{suffix}"


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
    + ") on, and they chain: best-no-endgame-with-headoff. See docs/strategies.md."
)


def check_strategy(name: str) -> str:
    """``name`` if the player knows the strategy; otherwise one line and exit 2."""
    try:
        get_strategy(name)
    except ValueError as err:
        fail(str(err))
    return name
