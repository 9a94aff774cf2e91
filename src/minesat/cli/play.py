"""``minesat play``: a line-oriented game, as in the classic C program.

The rules live in :mod:`minesat.game`; this module reads commands, applies them
and prints the board. It works the same from a terminal or from a pipe, and
ends cleanly at end of input.

>>> parse_command("uncover 1 5")
('uncover', (0, 4))
>>> parse_command("flag A5")
('flag', (0, 4))
>>> parse_command("B6*")
('flag', (1, 5))
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Annotated

import typer

from minesat.board import FLAG, PRESETS, Action, Cell, Move, cell_name, parse_cell
from minesat.cli.common import EXIT_BAD_INPUT, fail, percent, plural
from minesat.errors import InvalidValue
from minesat.usecases import LEGEND, FirstClick
from minesat.usecases.games import Game, MoveResult, check_mine_count
from minesat.usecases.positions import InconsistentPositionError
from minesat.usecases.positions import analyse as analyze

__all__ = [
    "HELP",
    "CommandError",
    "Session",
    "check_playable",
    "input_lines",
    "parse_cell_args",
    "parse_command",
    "play",
]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()

HELP = f"""\
commands (a cell is a name like A5, or ROW COL numbered from 1 as on the board: 1 5 is A5):
  new R C M      start a new game: R rows, C columns, M mines
  show           draw the board
  uncover A5     uncover a cell (also: uncover 1 5)
  flag A5        mark a cell as a mine
  unflag A5      remove a flag
  chord A5       uncover the unflagged neighbours of a number whose flags are all placed
  A5 A5* A5- A5+ the same moves in short: uncover, flag, unflag, chord
  hint           what the position proves: safe cells, mines, probabilities, the best guess
  help           this text
  quit           leave (end of input does the same)
board: {LEGEND}"""

_VERBS = {"uncover": Action.UNCOVER, "flag": Action.FLAG, "unflag": Action.UNFLAG, "chord": Action.CHORD}
_VERB_OF = {action: verb for verb, action in _VERBS.items()}


#: A cell name a board can have (at most 3 row letters: 18278 rows, past MAX_SIDE), and a
#: move: anything longer, like ``clearC8+``, is a typo, not a far-away cell.
_NAME = re.compile(r"^[A-Za-z]{1,3}[0-9]{1,4}$")
_MOVE = re.compile(r"^[A-Za-z]{1,3}[0-9]{1,4}[*+-]?$")


class CommandError(InvalidValue):
    """A line that is not a command; the message is shown to the player."""


def parse_cell_args(args: list[str]) -> Cell:
    """``R C`` (or ``R,C``) numbered from 1 as the board's labels are, or a name like ``A5``.

    >>> parse_cell_args(["4", "4"]), parse_cell_args(["d4"]), parse_cell_args(["4,4"])
    ((3, 3), (3, 3), (3, 3))
    """
    if len(args) == 1 and "," in args[0]:
        args = [a.strip() for a in args[0].split(",")]
    if len(args) == 2 and all(a.isdigit() and len(a) <= 6 for a in args):
        row, col = int(args[0]), int(args[1])
        if row >= 1 and col >= 1:
            return row - 1, col - 1
    if len(args) == 1 and _NAME.match(args[0]):
        return parse_cell(args[0])
    raise CommandError(f"expected a cell as a name like A5 or ROW COL from 1, not {' '.join(args)!r}")


def parse_command(line: str) -> tuple[str, Cell | tuple[int, int, int] | None]:
    """Split a line into a command and its argument (a cell, or R C M for ``new``)."""
    words = line.split()
    if not words:
        return "", None
    verb, args = words[0].lower(), words[1:]
    if verb in _VERBS:
        return verb, parse_cell_args(args)
    if verb == "new":
        if len(args) != 3 or not all(a.isdigit() for a in args):
            raise CommandError("usage: new ROWS COLS MINES")
        rows, cols, mines = (int(a) for a in args)
        return verb, (rows, cols, mines)
    if verb in ("show", "help", "quit", "exit", "hint") and not args:
        return verb, None
    if len(words) == 1 and _MOVE.match(words[0]):
        move = Move.parse(words[0])
        return _VERB_OF[move.action], move.cell
    raise CommandError(f"unknown command {line.strip()!r} (type help)")


class Session:
    """One player's games: the current game, and how to start the next one."""

    def __init__(self, rule: FirstClick, seed: int | None, echo: Callable[[str], None]) -> None:
        self.rule, self.seed, self.echo = rule, seed, echo
        self.games = 0
        self.game: Game | None = None

    def new(self, rows: int, cols: int, mines: int) -> None:
        """Start a game; game k of the session uses seed + k, so a seeded session replays."""
        check_playable(rows, cols, mines, rule=self.rule)
        seed = None if self.seed is None else self.seed + self.games
        self.games += 1
        self.game = Game.new(rows, cols, mines, seed=seed, rule=self.rule)
        seeded = "" if seed is None else f", seed {seed}"
        board = f"{rows}x{cols}, {plural(mines, 'mine')}"
        self.echo(f"new game: {board} (first click: {self.rule.value}{seeded})")
        self.show()

    def show(self) -> None:
        assert self.game is not None
        game = self.game
        self.echo(game.render())
        flags = sum(1 for s in game.state if s == FLAG)
        self.echo(f"{plural(game.mines, 'mine')}, {flags} flagged, {game.status.value}")

    def move(self, verb: str, cell: Cell) -> None:
        assert self.game is not None
        game = self.game
        move = Move(cell, _VERBS[verb])
        reason = game.refusal(move)
        if reason is not None:
            self.echo(f"{verb} {cell_name(cell)}: refused: {reason}")
            if game.over:
                self.echo("type new ROWS COLS MINES to play again")
            return
        try:
            result = game.play(move)
        except InvalidValue as err:  # a layout the rule cannot draw; check_playable prevents it
            self.echo(f"error: {err}")
            return
        self.echo(f"{verb} {cell_name(cell)}: {result.value}")
        self.show()
        if result is MoveResult.SOLVED:
            self.echo("You win: every safe cell is uncovered.")
        elif result is MoveResult.BLOWN_UP:
            self.echo(f"Boom: {cell_name(game.exploded or cell)} was a mine. You lose.")

    def hint(self) -> None:
        """The analysis of the current position: what a careful player knows now."""
        assert self.game is not None
        game = self.game
        if game.over:
            self.echo("the game is over: type new ROWS COLS MINES to play again")
            return
        from minesat.board import COVERED, Position
        from minesat.cli.analyze import best_guess, render_analysis

        position = game.position
        try:
            analysis = analyze(position)
        except InconsistentPositionError as err:
            # The numbers are facts, the flags only the player's belief: drop the flags.
            self.echo(f"your flags contradict the numbers ({err}): a flag is wrong; hint without flags:")
            cells = tuple(COVERED if state == FLAG else state for state in position.cells)
            position = Position(position.rows, position.cols, cells, position.mines)
            analysis = analyze(position)
        self.echo(render_analysis(position, analysis))
        safe = " ".join(cell_name(c) for c in analysis.safe) or "-"
        mines = " ".join(cell_name(c) for c in analysis.mine if game[c] != FLAG) or "-"
        self.echo(f"safe: {safe}\nmines: {mines}")
        guess = best_guess(analysis)
        if guess is not None:
            self.echo(f"no safe cell: the best guess is {cell_name(guess[0])} "
                      f"(mine probability {percent(guess[1])})")

    def handle(self, line: str) -> bool:
        """Run one command line; False when the player quits."""
        try:
            verb, arg = parse_command(line)
        except InvalidValue as err:  # CommandError, or a cell name like A0
            self.echo(f"error: {err}")
            return True
        match verb:
            case "":
                pass
            case "quit" | "exit":
                return False
            case "help":
                self.echo(HELP)
            case "show":
                self.show()
            case "hint":
                self.hint()
            case "new":
                assert isinstance(arg, tuple) and len(arg) == 3
                try:
                    self.new(*arg)
                except InvalidValue as err:
                    self.echo(f"error: {err}")
            case _:
                assert isinstance(arg, tuple) and len(arg) == 2
                self.move(verb, arg)
        return True


def check_playable(rows: int, cols: int, mines: int, *, rule: FirstClick) -> None:
    """Raise ValueError unless the mines fit wherever the first click lands (worst case: mid-board)."""
    check_mine_count(rows, cols, mines, start=(rows // 2, cols // 2), rule=rule)


def input_lines() -> Iterator[str]:
    """Lines from stdin, with a prompt only when a person is typing."""
    interactive = sys.stdin.isatty()
    while True:
        if interactive:
            try:
                yield input("> ")
            except EOFError:
                typer.echo()
                return
        else:
            line = sys.stdin.readline()
            if not line:
                return
            yield line


@commands.command(
    help="Play Minesweeper line by line (works from a pipe too).\n\n"
    "Commands: new R C M, show, uncover A5, flag A5, unflag A5, chord A5, hint, help, quit; "
    "a cell is a name like A5 or ROW COL numbered from 1 as on the board. "
    "Default board: the beginner preset."
)
def play(
    rows: Annotated[
        int | None, typer.Option("--rows", help="Rows (with --cols and --mines).", show_default=False)
    ] = None,
    cols: Annotated[int | None, typer.Option("--cols", help="Columns.", show_default=False)] = None,
    mines: Annotated[int | None, typer.Option("--mines", help="Mines.", show_default=False)] = None,
    preset: Annotated[
        str | None,
        typer.Option(help=f"One of {', '.join(PRESETS)} (default beginner).", show_default=False),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", min=0, help="Seed (>= 0): the same seed gives the same games.")
    ] = None,
    first_click: Annotated[
        FirstClick,
        typer.Option(
            "--first-click",
            help="opening: the first cell and its neighbours are mine-free; "
            "safe: the first cell; any: no rule.",
            case_sensitive=False,
        ),
    ] = FirstClick.OPENING,
) -> None:
    given = [v is not None for v in (rows, cols, mines)]
    if preset is not None and any(given):
        fail("give either --preset or --rows/--cols/--mines, not both")
    if any(given) and not all(given):
        fail("give --rows, --cols and --mines together")
    if preset is not None and preset.lower() not in PRESETS:
        fail(f"--preset: unknown preset {preset!r} (use one of {', '.join(PRESETS)})")
    size = (rows, cols, mines) if all(given) else PRESETS[(preset or "beginner").lower()]
    session = Session(FirstClick(first_click), seed, typer.echo)
    try:
        session.new(*size)  # type: ignore[arg-type]
    except InvalidValue as err:
        fail(err, EXIT_BAD_INPUT)
    session.echo("type help for the commands")
    for line in input_lines():
        if not session.handle(line):
            break
