"""``minesat perfect``: the exact chance to win under perfect play (docs/perfect.md)."""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from minesat import usecases
from minesat.board import Cell, Position, cell_name
from minesat.cli.common import (
    ColsOption,
    FirstClickOption,
    MinesOption,
    PresetOption,
    ProgressLine,
    RowsOption,
    board_size,
    check_strategy,
    check_time_limit,
    check_total,
    check_workers,
    error_line,
    fail,
    first_click_rule,
    given_options,
    given_start,
    interrupted_status,
    plural,
    refuse_unused,
)
from minesat.errors import InputError, InvalidValue, ListingRefused, PastBudget
from minesat.usecases import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_STATES,
    DEFAULT_TIME_LIMIT,
    Budget,
    FirstClick,
    SchedulerError,
    games,
    positions,
    strategy_help,
)
from minesat.usecases.positions import InconsistentPositionError

if TYPE_CHECKING:
    from minesat.usecases import PerfectResult, PositionResult, RankedMove, RankingCut

__all__ = ["DEFAULT_TOP", "ProgressCallback", "describe", "describe_cut", "describe_position", "perfect"]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()

#: Called with (states or positions so far, layouts settled, layouts in all).
ProgressCallback = Callable[[int, int, int], None]

#: Moves of the ranking the text output shows by default (``--top 0``: all).
DEFAULT_TOP = 10


@commands.command()
def perfect(
    ctx: typer.Context,
    position_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="[POSITION_FILE]",
            help="A position with the total (a '# mines: N' header, or --mines): perfect play from "
            "there instead of from the first click.",
        ),
    ] = None,
    preset: PresetOption = None,
    rows: RowsOption = None,
    cols: ColsOption = None,
    mines: MinesOption = None,
    first_click: FirstClickOption = FirstClick.OPENING.value,
    start: Annotated[
        str | None,
        typer.Option(help="First click as ROW,COL (0-based) or a cell name; default: the best one."),
    ] = None,
    strategy: Annotated[
        list[str] | None,
        typer.Option(help="Also count this strategy's wins exactly (repeatable). " + strategy_help()),
    ] = None,
    max_states: Annotated[
        int,
        typer.Option("--max-states", min=1, help="Give up past this many searched states (exit 1)."),
    ] = DEFAULT_MAX_STATES,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            metavar="SECONDS",
            help="Give up past this many seconds of search (exit 1); 0: no limit.",
        ),
    ] = DEFAULT_TIME_LIMIT,
    max_memory: Annotated[
        int,
        typer.Option(
            "--max-memory",
            metavar="MB",
            help="Give up when the process would hold more than this many megabytes (exit 1); 0: no limit.",
        ),
    ] = DEFAULT_MAX_MEMORY // 10**6,
    top: Annotated[
        int,
        typer.Option(
            "--top",
            metavar="N",
            help=f"The text shows the N best moves of a POSITION_FILE's ranking, or the N best starts "
            f"when more are tried (default {DEFAULT_TOP}; 0: all). --json always gives every one.",
        ),
    ] = DEFAULT_TOP,
    workers: Annotated[
        int,
        typer.Option(
            help="Local worker processes, each searching the layouts where a first click shows one number "
            "(default 1: on the boards within reach one number holds most of the work, so more did not "
            "pay; docs/commands/perfect.md).",
        ),
    ] = 1,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Dask scheduler address (tcp://HOST:PORT) to search on instead of local processes; "
            "needs the extra: pip install 'minesat[dask]'.",
        ),
    ] = None,
    format: Annotated[
        str | None, typer.Option("--format", help="Force the position file's format: text, mine, json.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")] = False,
) -> None:
    """The exact chance to win under perfect play, and how close each strategy comes.

    Layouts are uniform among those the first-click rule allows at the start,
    as in generate and simulate. With no --start, every start is tried (one
    per class of cells the board's symmetries map together) and the best is
    given. With POSITION_FILE: the chance from that position, every move
    ranked by its exact chance (best first), and the move each --strategy
    would make (default best). --workers K (or a Dask cluster with
    --scheduler) searches the numbers a first click can show in parallel; the
    answer is the same on any number. Progress goes to stderr: a bar on a
    terminal, else a line every 10 seconds. Exit status: 0 done, 1 past
    --max-states, --time-limit or --max-memory, too many layouts, or an
    inconsistent position, 2 bad input.
    """
    names = [check_strategy(name) for name in strategy or []]
    check_total(mines)
    if workers < 1:
        fail(f"--workers must be >= 1, not {workers}")
    check_time_limit(time_limit)
    if top < 0:
        fail(f"--top must be >= 0, not {top}")
    if max_memory < 0:
        fail(f"--max-memory must be >= 0 megabytes, not {max_memory}")
    budget = Budget(max_states, time_limit or None, max_memory * 10**6 or None)
    show_bar = sys.stderr.isatty()
    began = time.perf_counter()
    try:
        if position_file is not None:
            if preset is not None or rows is not None or cols is not None or start is not None:
                fail("a POSITION_FILE sets the board: leave out --preset, --rows, --cols and --start")
            refuse_unused(
                given_options(ctx, "first_click", "workers", "scheduler"),
                "with a POSITION_FILE (the search starts from what it shows, in one process)",
            )
            _from_position(position_file, format, mines, names or ["best"], budget, as_json, show_bar, top)
            return
        check_workers(ctx, scheduler)
        rows, cols, mines = board_size(preset, rows, cols, mines)
        rule = first_click_rule(first_click)
        cell = _start(start, rows, cols)
        try:
            games.check_mine_count(rows, cols, mines, start=cell, rule=rule)
        except InvalidValue as err:
            fail(err)
        with _bar(show_bar) as bar:
            try:
                result = positions.perfect_play(
                    rows, cols, mines, rule=rule, start=cell, budget=budget, progress=bar("perfect"),
                    workers=workers, scheduler=scheduler,
                )
            except InvalidValue as err:  # the mines fit around no start
                fail(err)
            except SchedulerError as err:
                fail(err)
            try:
                counts = {
                    name: positions.strategy_wins(rows, cols, mines, rule=rule, start=result.start,
                                                 strategy=name, progress=bar(name), budget=budget,
                                                 began=began).wins
                    for name in names
                }
            except PastBudget as err:  # the search is done: its states are the run's
                _past_budget(error_line(err), result.states, as_json)
    except PastBudget as err:
        _past_budget(error_line(err), err.states, as_json)
    except KeyboardInterrupt as stop:
        fail(f"interrupted after {time.perf_counter() - began:.1f} s", interrupted_status(stop))
    result = dataclasses.replace(result, strategies=counts)
    if as_json:
        typer.echo(json.dumps(result.to_json()))
    else:
        typer.echo(describe(result, top))


def _start(text: str | None, rows: int, cols: int) -> Cell | None:
    """The given start, or ``None``: every class of starts is tried."""
    return None if text is None else given_start(text, rows, cols)


def _from_position(
    path: Path,
    format: str | None,
    mines: int | None,
    names: list[str],
    budget: Budget,
    as_json: bool,
    show_bar: bool,
    top: int,
) -> None:
    try:
        position = usecases.read_board(path, format, "position", "perfect")
    except InputError as err:
        fail(err)
    assert isinstance(position, Position)
    if mines is not None:
        position = position.with_mines(mines)
    if position.mines is None:
        fail(f"{path}: perfect play needs the total number of mines: add a '# mines: N' header or --mines")
    try:
        with _bar(show_bar) as bar:
            result = positions.perfect_from_position(position, strategies=names, budget=budget,
                                                    progress=bar("perfect"))
    except PastBudget as err:
        if (cut := positions.ranking_cut(err)) is not None:
            _ranking_cut(path, cut, as_json, top)  # what was ranked before the budget ran out is kept
        if not isinstance(err, ListingRefused):
            raise
        _past_budget(f"{path}: {error_line(err)}", 0, as_json)  # too many layouts to list
    except InconsistentPositionError as err:
        _past_budget(f"{path}: inconsistent position: {error_line(err)}", 0, as_json)
    except (ListingRefused, InvalidValue) as err:  # too many layouts to list
        _past_budget(f"{path}: {error_line(err)}", 0, as_json)
    if as_json:
        typer.echo(json.dumps({"file": str(path), **result.to_json()}))
    else:
        typer.echo(describe_position(result, top))


def _ranking_cut(path: Path, cut: RankingCut, as_json: bool, top: int) -> NoReturn:
    """Past a budget from a position: still exit 1 with the one-line error, and what was done
    first, on standard output: the exact chance when it was known and the moves ranked before
    the budget ran out (with ``--json``, beside ``"error"``, marked ``"partial": true``)."""
    message = error_line(cut)
    if as_json:
        typer.echo(json.dumps({"file": str(path), "error": message, **cut.to_json()}))
    elif cut.wins is not None:
        typer.echo(describe_cut(cut, top))
    fail(message, 1)


def describe_cut(cut: RankingCut, top: int = DEFAULT_TOP) -> str:
    """What a search from a position had done when its budget ran out: the exact chance, and the
    moves it ranked (``top`` of them; 0: all), best first.

    >>> from minesat.perfect import RankedMove, RankingCut
    >>> cut = RankingCut("past {max_states:9}", 10, 3, 3, wins=1, total=3, ranked=(RankedMove((0, 1), 1, 3),))
    >>> print(describe_cut(cut))
    perfect 0.3333 (1 of 3 layouts)
    moves ranked before the budget ran out (1):
      A2  0.3333  (1 of 3)
    """
    chance = cut.chance or 0.0
    lines = [f"perfect {chance:.4f} ({cut.wins} of {plural(cut.total, 'layout')})"]
    shown = cut.ranked if top == 0 else cut.ranked[:top]
    if not shown:
        lines.append("no move was ranked before the budget ran out")
    else:
        more = f"; the best {len(shown)} shown, --top 0 shows all" if len(shown) < len(cut.ranked) else ""
        lines.append(f"moves ranked before the budget ran out ({len(cut.ranked)}{more}):")
        lines += _move_lines(shown)
    return "\n".join(lines)


def _move_lines(shown: Sequence[RankedMove]) -> list[str]:
    """One line per ranked move: its cell, its chance, and its wins of the layouts."""
    width = max(len(cell_name(m.cell)) for m in shown)
    return [f"  {cell_name(m.cell):<{width}}  {m.win_probability:.4f}  ({m.wins} of {m.layouts})"
            for m in shown]


def _past_budget(message: str, states: int, as_json: bool) -> NoReturn:
    """A refusal (exit 1): one line, and with ``--json`` also ``{"error", "states"}`` on stdout."""
    if as_json:
        typer.echo(json.dumps({"error": message, "states": states}))
    fail(message, 1)


def describe(result: PerfectResult, top: int = DEFAULT_TOP) -> str:
    """The result in a few lines: the chance, each strategy's beside it, and the work done.

    With no start given, the starts tried (one of each class of cells) follow, row-major; past
    ``top`` of them (0: all), the ``top`` best, best first (a huge board has thousands).

    >>> from minesat.perfect import PerfectResult, perfect_play
    >>> r = perfect_play(3, 3, 1, rule="safe", start=(1, 1))
    >>> shown = {**r.__dict__, "strategies": {"safest": 7}, "states": 4, "seconds": 0.01}
    >>> print(describe(PerfectResult(**shown)))
    3x3 board, 1 mine, first click safe at B2
    perfect 0.8750 (7 of 8 layouts), safest 0.8750 (100.0 % of perfect)
    searched 4 states in 0.0 s
    """
    r = result
    mines = plural(r.mines, "mine")
    head = f"{r.rows}x{r.cols} board, {mines}, first click {r.rule.value} at {cell_name(r.start)}"
    if len(r.starts) == 1:
        head += " (every start alike)"
    elif r.starts:
        head += f" (the best of {len(r.starts)} start classes)"
    parts = [f"perfect {r.win_probability:.4f} ({r.wins} of {plural(r.layouts, 'layout')})"]
    for name, wins in r.strategies.items():
        chance = wins / r.layouts if r.layouts else 0.0
        share = f" ({wins / r.wins:.1%} of perfect)".replace("%", " %") if r.wins else ""
        parts.append(f"{name} {chance:.4f}{share}")
    lines = [head, ", ".join(parts)]
    if len(r.starts) > 1:
        shown = list(r.starts)
        if 0 < top < len(shown):  # the best first; a stable sort keeps row-major order among equals
            shown = sorted(shown, key=lambda s: -s.win_probability)[:top]
        cut = len(shown) < len(r.starts)
        more = f" (the best {top} of {len(r.starts)}; --top 0 shows all)" if cut else ""
        lines.append("starts     " + ", ".join(f"{cell_name(s.start)} {s.win_probability:.4f}" for s in shown)
                     + more)
    lines.append(f"searched {plural(r.states, 'state')} in {r.seconds:.1f} s")
    return "\n".join(lines)


def describe_position(result: PositionResult, top: int = DEFAULT_TOP) -> str:
    """A position's result: the chance, the moves that keep it, the ranking, each strategy's move.

    ``top`` moves of the ranking are shown (0: all).

    >>> from minesat.perfect import perfect_from_position
    >>> r = perfect_from_position(Position.from_rows(["1???", "????"], mines=3))
    >>> print(describe_position(r, top=3))  # doctest: +ELLIPSIS
    perfect 0.2778 (5 of 18 layouts)
    moves that keep it: A2 B2
    every move, best first (3 of 7; --top 0 shows all):
      A2  0.2778  (5 of 18)
      B2  0.2778  (5 of 18)
      A3  0.2222  (4 of 18)
    best: A2, 0.2778 (keeps it)
    searched ... states in ... s
    """
    r = result
    lines = [
        f"perfect {r.win_probability:.4f} ({r.wins} of {plural(r.layouts, 'layout')})",
        "moves that keep it: " + (" ".join(cell_name(c) for c in r.moves) or "-"),
    ]
    shown = r.ranking if top == 0 else r.ranking[:top]
    if shown:
        more = len(shown) < len(r.ranking)
        count = f" ({len(shown)} of {len(r.ranking)}; --top 0 shows all)" if more else ""
        lines.append(f"every move, best first{count}:")
        lines += _move_lines(shown)
    for p in r.players:
        if p.move is None and not r.ranking:
            lines.append(f"{p.strategy}: nothing is left to uncover")
        elif p.move is None:
            lines.append(f"{p.strategy}: uncovers the proven safe cells (keeps {r.win_probability:.4f})")
        else:
            chance = p.wins / r.layouts if r.layouts else 0.0
            verdict = "keeps it" if p.wins == r.wins else f"{plural(r.wins - p.wins, 'layout')} fewer"
            lines.append(f"{p.strategy}: {cell_name(p.move)}, {chance:.4f} ({verdict})")
    lines.append(f"searched {plural(r.states, 'state')} in {r.seconds:.1f} s")
    return "\n".join(lines)


@contextmanager
def _bar(show: bool) -> Iterator[Callable[[str], ProgressCallback | None]]:
    """Progress on stderr: a rich bar on a terminal (one task per search, layouts settled out of
    all, and states), else a line every 10 seconds, so that a script or a web page knows it is alive."""
    if not show:
        yield _lines
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>5.1f} % of layouts settled"),
        TextColumn("{task.fields[states]} states"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, transient=True, console=Console(stderr=True)) as progress:

        def task(name: str) -> ProgressCallback:
            handle = progress.add_task(name, total=None, states=0)

            def update(states: int, settled: int, total: int) -> None:
                progress.update(handle, completed=settled, total=total or None, states=states)

            return update

        yield task


def _lines(name: str) -> ProgressCallback:
    """Progress off a terminal: ``minesat perfect: 40960 states, 12.5 % of layouts settled, 15 s`` at
    most every :data:`~minesat.cli.common.PROGRESS_LINE_EVERY` seconds (the search reports every few
    thousand states)."""
    line = ProgressLine("perfect", live=False)

    def update(states: int, settled: int, total: int) -> None:
        share = f", {settled / total:.1%} of layouts settled".replace("%", " %") if settled else ""
        line(f"{name}: {plural(states, 'state')}{share}")

    return update
