"""``minesat generate``: seeded board sets, optionally no-guess (docs/commands/generate.md)."""

from __future__ import annotations

import contextlib
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Annotated

import typer

from minesat.cli.common import (
    EXIT_OUTPUT_FAILED,
    ColsOption,
    FirstClickOption,
    MinesOption,
    PresetOption,
    ProgressLine,
    RowsOption,
    StartOption,
    board_size,
    check_output,
    check_time_limit,
    fail,
    first_click_rule,
    given_options,
    is_stdout,
    path_error,
    plural,
    refuse_unused,
    start_cell,
)
from minesat.errors import InvalidValue
from minesat.usecases import FirstClick, games, open_text_atomic
from minesat.usecases.games import MAX_TRIES, REJECTION_TRIES, BoardSpec, Method, NoGuessError, NoGuessTimeout

__all__ = ["generate"]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()


@commands.command()
def generate(
    ctx: typer.Context,
    count: Annotated[int, typer.Option("--count", help="Number of boards (games 0..N-1).")],
    preset: PresetOption = None,
    rows: RowsOption = None,
    cols: ColsOption = None,
    mines: MinesOption = None,
    seed: Annotated[
        int, typer.Option(min=0, help="Set seed (>= 0): board i is a pure function of the options and i.")
    ] = 0,
    first_click: FirstClickOption = FirstClick.OPENING.value,
    start: StartOption = None,
    no_guess: Annotated[
        bool,
        typer.Option(
            "--no-guess",
            help="Only boards won from the start cell with no guess by the full analysis "
            "(rejection: uniform; repair, where rejection finds none: not uniform).",
        ),
    ] = False,
    method: Annotated[
        str,
        typer.Option(
            help="With --no-guess: auto (rejection, then repair), rejection (only) or repair (at once)."
        ),
    ] = "auto",
    max_tries: Annotated[
        int,
        typer.Option("--max-tries", help="With --no-guess: layouts checked per board before giving up."),
    ] = MAX_TRIES,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            help="With --no-guess: give up past SECONDS for the whole set (0: no limit), saying how far "
            "it got; nothing is written to --out (standard output has had the boards made so far).",
        ),
    ] = 0.0,
    out: Annotated[
        Path | None,
        typer.Option(help="Write the board set here (whole or not at all); default (and -) stdout."),
    ] = None,
) -> None:
    """Write seeded layouts as a board set: JSON Lines, one board per line.

    Each line is an object with "game", "seed", "rows", "cols" and "mines" (a list
    of row, col pairs), plus "method" and "tries" under --no-guess. Without --no-guess board i is the
    layout `simulate` plays as game i with the same options.
    """
    rows, cols, mines = board_size(preset, rows, cols, mines)
    rule = first_click_rule(first_click)
    cell = start_cell(start, rows, cols)
    if count < 0:
        fail(f"--count must be >= 0, not {count}")
    if out is not None:
        check_output(out, "--out")
    if not no_guess:
        refuse_unused(given_options(ctx, "method", "max_tries", "time_limit"), "without --no-guess")
    check_time_limit(time_limit)
    if max_tries < 1:
        fail(f"--max-tries must be >= 1, not {max_tries}")
    tries_first = {"auto": REJECTION_TRIES, "rejection": max_tries, "repair": 0}
    if method not in tries_first:
        fail(f"--method must be one of {', '.join(tries_first)}, not {method!r}")
    spec = BoardSpec(rows, cols, mines, rule=rule, start=cell)
    try:
        spec.check()
    except InvalidValue as exc:
        fail(exc)

    progress = _Progress(count)
    boards = games.board_sets(
        spec, count, seed=seed, no_guess=no_guess,
        rejection_tries=tries_first[method], max_tries=max_tries, seconds=time_limit or None,
        progress=progress if no_guess else None,
    )
    began = time.perf_counter()
    methods: Counter[str] = Counter()
    tries = 0
    try:
        # Ticking: one check of a large layout takes minutes, and the line keeps coming meanwhile.
        with _output(out) as stream, progress.line.ticking() if no_guess else contextlib.nullcontext():
            for board in boards:
                stream.write(games.board_line(board))
                if board.method is not None:
                    methods[board.method.value] += 1
                    tries += board.tries or 0
    except NoGuessTimeout as exc:
        made = progress.board
        fail(f"past --time-limit {time_limit:g} s: {made} of {plural(count, 'board')} made, board {made + 1} "
             f"not found in {plural(exc.tries, 'try')}; raise --time-limit or place fewer mines", 1)
    except NoGuessError as exc:
        fail(exc)
    except OSError as exc:  # writing --out (standard output's errors are met for every command alike)
        fail(path_error(out or "-", exc, "cannot write the board set"), EXIT_OUTPUT_FAILED)
    if no_guess:
        seconds = time.perf_counter() - began
        per = f"{seconds / count:.3f} s and {tries / count:.1f} tries per board" if count else "no board"
        typer.echo(
            f"generated {plural(count, f'no-guess {rows}x{cols}/{mines} board')}: "
            f"{methods[Method.REJECTION.value]} by rejection (uniform), "
            f"{methods[Method.REPAIR.value]} by repair (not uniform); {plural(tries, 'layout')} tried, {per}",
            err=True,
        )


@contextlib.contextmanager
def _output(path: Path | None) -> Iterator[IO[str]]:
    """stdout (no ``--out``, or ``-``), or ``path`` written whole at the end (never half a set)."""
    if path is None or is_stdout(path):
        yield sys.stdout
        sys.stdout.flush()
        return
    with open_text_atomic(path) as stream:
        yield stream


class _Progress:
    """How a no-guess set is coming on (:class:`~minesat.cli.common.ProgressLine`): the board being
    drawn and the layouts tried for it, told after each layout checked."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.board = 0
        self.line = ProgressLine("generate")
        self.line.text = f"board 1 of {count}, no layout tried yet"

    def __call__(self, board: int, tries: int) -> None:
        self.board = board
        self.line(f"board {board + 1} of {self.count}, {plural(tries, 'layout')} tried for it")
