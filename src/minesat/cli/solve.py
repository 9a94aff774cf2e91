"""``minesat solve``: one layout played by the automatic player, or the oracle (docs/commands/solve.md)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from minesat import usecases
from minesat.board import Cell, Layout, cell_name
from minesat.cli.common import (
    EXIT_OUTPUT_FAILED,
    ProgressLine,
    check_max_memory,
    check_output,
    check_strategy,
    check_viewer_size,
    error_line,
    fail,
    first_click_rule,
    is_stdout,
    path_error,
    percent,
    plural,
    refuse_stdout,
    start_cell,
    write_output,
)
from minesat.errors import InputError, InvalidValue, fill, option_name
from minesat.usecases import (
    DEFAULT_MAX_MEMORY,
    MAX_WRITTEN_SIDE,
    Budget,
    FirstClick,
    OutOfMemory,
    UnsupportedFormatError,
    games,
    read_board,
    strategy_help,
    written_choice,
    written_format_for,
    written_replay_help,
)
from minesat.verdict import Verdict

if TYPE_CHECKING:
    from minesat.usecases import GameRecord, RiskyMove, Step

__all__ = ["solve", "survival"]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()


@commands.command()
def solve(
    layout_file: Annotated[
        Path, typer.Argument(metavar="LAYOUT", help="Layout file (.txt/.dat, .mine, .mbf, .json).")
    ],
    start: Annotated[
        str | None,
        typer.Option(
            help="First click: a cell name (A1) or ROW,COL (0-based); default 3,3 clipped "
            "to the board."
        ),
    ] = None,
    first_click: Annotated[
        str,
        typer.Option(
            "--first-click",
            help="What the player may assume about the first click. any (default): "
            "nothing, so it is a guess, as in a classic puzzle file; opening: the first "
            "cell and its neighbours are mine-free; safe: the first cell only.",
        ),
    ] = FirstClick.ANY.value,
    strategy: Annotated[
        str, typer.Option(help=strategy_help())
    ] = usecases.default_strategy(),
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    oracle: Annotated[
        bool,
        typer.Option(
            "--oracle",
            help="Print instead the risky moves a player who knows the layout must take.",
        ),
    ] = False,
    fmt: Annotated[
        str | None,
        typer.Option("--format", help="Layout file format when the extension does not say."),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            metavar="OUT",
            help="Also write the game as one self-contained HTML page that steps through it, "
            "every move with the analysis of the position before it (see docs/viewer.md); - for "
            "standard output, which then carries the page alone.",
            show_default=False,
        ),
    ] = None,
    save_replay: Annotated[
        Path | None,
        typer.Option(
            "--save-replay",
            metavar="PATH",
            help="Also write the game as a replay file in the format PATH's extension names "
            f"({written_replay_help()}), with mouse moves and times a steady hand "
            "would make (see docs/commands/solve.md).",
            show_default=False,
        ),
    ] = None,
    max_memory: Annotated[
        int,
        typer.Option(
            "--max-memory",
            metavar="MB",
            help="Hold at most this many megabytes: past it the game stops, its moves so far printed, "
            "exit 1; 0: no limit.",
        ),
    ] = DEFAULT_MAX_MEMORY // 10**6,
) -> None:
    """Play LAYOUT with the automatic player, printing each move and why it was made.

    A game that takes a while (a large board) says how it is coming on, on stderr.
    """
    check_max_memory(max_memory)
    try:
        layout = read_board(layout_file, fmt, "layout", "solve")
    except InputError as err:
        fail(err)
    assert isinstance(layout, Layout)
    rule = first_click_rule(first_click)
    cell = start_cell(start, layout.rows, layout.cols)
    check_strategy(strategy)
    if html is not None:
        if oracle:
            fail("--html draws the player's game; it does not go with --oracle")
        check_output(html, "--html")
        if (too_large := check_viewer_size(layout.rows, layout.cols)) is not None:
            fail(too_large)
    if save_replay is not None:
        if oracle:
            fail("--save-replay records the player's game; it does not go with --oracle")
        refuse_stdout(save_replay, "--save-replay", "the replay's format comes from PATH's extension "
                      f"({written_choice()}), and standard output has none")
        if is_stdout(html):
            fail("--html - and --save-replay: standard output carries one of them, not both")
        check_output(save_replay, "--save-replay")
        try:
            written = written_format_for(save_replay)
        except UnsupportedFormatError as err:
            fail(err)
        if max(layout.rows, layout.cols) > MAX_WRITTEN_SIDE:
            fail(f"{save_replay}: {written.upper()} replays hold boards up to {MAX_WRITTEN_SIDE}x"
                 f"{MAX_WRITTEN_SIDE} cells, not {layout.rows}x{layout.cols}")

    budget = Budget(max_memory=max_memory * 10**6 or None)
    if oracle:
        try:
            risky = games.oracle(layout, cell, rule, budget)
        except InvalidValue as err:
            fail(err)
        except (OutOfMemory, MemoryError) as stop:
            fail(_stopped(stop, budget, "while the risky moves were listed"), 1)
        _print_oracle(risky, cell, rule, as_json)
        return

    progress = ProgressLine("solve")
    steps = _Played(progress)
    try:
        with progress.ticking():
            record = games.solve(layout, cell, rule, strategy, budget, trace=steps)
    except InvalidValue as err:
        fail(err)
    except (OutOfMemory, MemoryError) as stop:
        _past_budget(steps, stop, budget, as_json)
    if html is not None:
        _write_viewer(html, layout_file, layout, record, cell, rule, strategy)
    if save_replay is not None:
        _write_replay(save_replay, layout, record, strategy)
    if is_stdout(html):
        return  # standard output carries the page alone
    if as_json:
        typer.echo(json.dumps(_game_json(record, steps, cell, rule, strategy)))
        return
    _print_steps(steps)
    typer.echo(_summary(record))
    typer.echo(_final_board(layout, record))


class _Played(list["Step"]):
    """The game's steps, as :func:`~minesat.player.play_game` appends each once it is played: the
    progress line is told (``minesat solve: 5120 moves, 3 guesses, 12 s``) and the memory budget
    checked between moves (the analysis checks it within one)."""

    def __init__(self, progress: ProgressLine) -> None:
        super().__init__()
        self.progress = progress
        self.guesses = 0

    def append(self, step: Step) -> None:
        super().append(step)
        self.guesses += step.verdict is Verdict.GUESS
        self.progress(f"{plural(len(self), 'move')}, {plural(self.guesses, 'guess')}")
        usecases.checkpoint()


def _past_budget(steps: list[Step], stop: BaseException, budget: Budget, as_json: bool) -> NoReturn:
    """Stop the game past the memory budget: its moves so far on stdout (with ``--json`` an object
    ``{"error", "steps"}``), one line on stderr, exit 1."""
    line = _stopped(stop, budget, f"the game stopped after {plural(len(steps), 'move')}")
    if as_json:
        typer.echo(json.dumps({"error": line, "steps": _steps_json(steps)}))
    else:
        _print_steps(steps)
    fail(line, 1)


def _stopped(stop: BaseException, budget: Budget, where: str) -> str:
    """``past the memory budget of 1000 MB: the game stopped after 5120 moves; raise --max-memory``."""
    why, advice = usecases.which_budget(stop, budget)
    return f"{why}: {where}; {fill(advice, option_name)}"


def survival(record: GameRecord) -> float:
    """The chance that all the game's guesses were safe, as the player saw them."""
    return math.prod(1.0 - g.probability for g in record.guesses)


def _game_json(
    record: GameRecord, steps: list[Step], start: Cell, rule: FirstClick, strategy: str
) -> dict[str, Any]:
    return {
        "won": record.won,
        "moves": [str(m) for m in record.moves],
        "guesses": [{"move": str(g.move), "probability": g.probability} for g in record.guesses],
        "steps": _steps_json(steps),
        "start": cell_name(start),
        "rule": rule.value,
        "strategy": strategy,
        "survival": survival(record),
        "uncovered": record.uncovered,
        "bbbv": record.bbbv,
        "analyses": record.analyses,
        "searches_cut": record.searches_cut,
        "seconds": record.seconds,
    }


def _steps_json(steps: list[Step]) -> list[dict[str, Any]]:
    return [{"move": str(s.move), "reason": s.reason, "probability": s.probability} for s in steps]


def _print_steps(steps: list[Step]) -> None:
    width = len(str(len(steps)))
    for number, step in enumerate(steps, 1):
        typer.echo(f"{number:>{width}}. {step.move!s:<6} {_reason(step)}")


def _summary(record: GameRecord) -> str:
    guesses = len(record.guesses)
    outcome = "Won" if record.won else f"Lost on guess {record.fatal_guess}"
    # After a loss the product is no chance of anything: the fatal guess was not safe.
    chance = f" (chance they were all safe {percent(survival(record))})" if guesses and record.won else ""
    return (
        f"{outcome}: {plural(len(record.moves), 'move')}, {plural(guesses, 'guess')}{chance}, "
        f"3BV {record.bbbv}, {record.seconds:.3f} s."
    )


def _reason(step: Step) -> str:
    """The step's reason; a guess's probability as a percentage, as every command prints it."""
    if step.probability is not None and step.verdict is Verdict.GUESS:
        return f"guess, mine probability {percent(step.probability)}"
    return step.describe()


def _final_board(layout: Layout, record: GameRecord) -> str:
    """Replay the moves to draw the end of the game (mines shown after a loss)."""
    return games.final_board(layout, record.moves).render()


def _write_viewer(
    out: Path, source: Path, layout: Layout, record: GameRecord, start: Cell, rule: FirstClick, strategy: str
) -> None:
    """The game as a viewer page: every move judged on the position before it (``wrote OUT`` on stderr)."""
    page = games.game_page(f"minesat solve: {source.name}", layout, record, start, rule, strategy,
                              about=[("Layout", str(source))])
    write_output(out, page, "the viewer page")
    if not is_stdout(out):
        # On stderr: stdout carries the moves (or the JSON) as before.
        typer.echo(f"wrote {out}", err=True)


def _write_replay(out: Path, layout: Layout, record: GameRecord, strategy: str) -> None:
    """The game as a replay file, schedule seed 0, dated now (``wrote OUT`` on stderr); the player
    is named by its strategy (``minesat (best strategy)``), the program is minesat."""
    player = f"minesat ({strategy} strategy)"
    try:
        data = games.recorded_replay(layout, record.moves, str(out), player)
        with usecases.open_atomic(out) as written:  # whole or not at all
            written.write(data)
    except InvalidValue as err:  # a board or game the format cannot hold
        fail(f"{out}: {error_line(err)}")
    except OSError as err:
        fail(path_error(out, err, "cannot write the replay"), EXIT_OUTPUT_FAILED)
    typer.echo(f"wrote {out}", err=True)


def _print_oracle(risky: list[RiskyMove], start: Cell, rule: FirstClick, as_json: bool) -> None:
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "start": cell_name(start),
                    "rule": rule.value,
                    "count": len(risky),
                    "risky": [
                        {"move": str(r.move), "probability": r.probability, "uncovers": r.uncovers}
                        for r in risky
                    ],
                }
            )
        )
        return
    width = len(str(len(risky)))
    for number, r in enumerate(risky, 1):
        typer.echo(
            f"{number:>{width}}. {r.move!s:<6} risky (mine probability {percent(r.probability)} without "
            f"the layout), uncovers {r.uncovers} with the safe moves that follow"
        )
    typer.echo(f"{plural(len(risky), 'risky move')} from {cell_name(start)} ({rule.value} rule).")
