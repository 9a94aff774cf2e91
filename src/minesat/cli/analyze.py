"""``minesat analyze``: classify every covered cell of one or more positions (docs/commands/analyze.md)."""

from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from minesat.analysis import Analysis, Analyzer, InconsistentPositionError, explain
from minesat.analysis.combine import LINEAR_WORK_PER_CELL
from minesat.analysis.engine import analyze_within, seconds_needed
from minesat.analysis.explain import explain_json
from minesat.analysis.result import json_chunks
from minesat.board import COVERED, FLAG, Cell, Position, cell_name, parse_cell
from minesat.budget import DEFAULT_MAX_MEMORY, Budget, resident_bytes
from minesat.cli import app
from minesat.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_INCONSISTENT,
    check_output,
    check_time_limit,
    check_total,
    error_line,
    fail,
    is_stdout,
    percent,
    plural,
    write_output,
)
from minesat.errors import InvalidValue
from minesat.formats.wanted import InputError, read_board
from minesat.game import render_grid

__all__ = ["BYTES_PER_CELL", "LEGEND", "analyze", "best_guess", "render_analysis", "too_small"]

LEGEND = (
    "o certainly safe, X certainly a mine, 12% an uncertain cell's mine probability, "
    "? uncertain (total unknown), * flag, 1-8 the board's numbers"
)

#: Colours (ANSI) for a terminal that has them: the board's numbers stay plain.
_SAFE, _MINE, _RESET = "\x1b[1;32m", "\x1b[1;31m", "\x1b[0m"


def _shade(p: float) -> str:
    """Green for nearly safe through yellow to red for nearly a mine (256-colour palette)."""
    palette = (46, 82, 118, 154, 190, 226, 220, 214, 208, 202, 196)
    return f"\x1b[38;5;{palette[round(p * (len(palette) - 1))]}m"


def render_analysis(position: Position, analysis: Analysis, colour: bool = False) -> str:
    """The board with the classification drawn in, three characters a cell.

    An uncertain cell shows its mine probability with a ``%`` sign, so it cannot
    be read as one of the board's numbers; never rounded to 0 % or 100 %.

    >>> from minesat.analysis import analyze
    >>> pos = Position.from_rows(["1??", "???"], mines=1)
    >>> print(render_analysis(pos, analyze(pos)))
        1   2   3
    A   1 33%   o
    B 33% 33%   o
    """
    safe, mine = set(analysis.safe), set(analysis.mine)

    def char(cell: Cell) -> str:
        state = position[cell]
        if state == FLAG:
            return "*"
        if state != COVERED:
            return str(state) if state else ""
        if cell in safe:
            return f"{_SAFE}o{_RESET}" if colour else "o"
        if cell in mine:
            return f"{_MINE}X{_RESET}" if colour else "X"
        p = analysis.probability[cell[0]][cell[1]]
        if p is None:
            return "?"
        text = f"{min(99, max(1, round(p * 100)))}%"
        return f"{_shade(p)}{text}{_RESET}" if colour else text

    if colour:  # the escape codes would count in the padding: pad by the visible text
        return render_grid(position.rows, position.cols, lambda c: _pad(char(c), 3), width=3)
    return render_grid(position.rows, position.cols, char, width=3)


def _pad(text: str, width: int) -> str:
    visible = text
    for code in (_SAFE, _MINE, _RESET):
        visible = visible.replace(code, "")
    if "\x1b[38;5;" in visible:
        visible = visible.split("m", 1)[1]
    return " " * (width - len(visible)) + text


def best_guess(analysis: Analysis) -> tuple[Cell, float] | None:
    """The uncertain cell least likely to be a mine (row-major among ties), or None.

    None when a safe cell exists (no need to guess) or no probability is known.
    """
    if analysis.safe:
        return None
    known = [
        (p, cell)
        for cell in analysis.unknown
        if (p := analysis.probability[cell[0]][cell[1]]) is not None
    ]
    if not known:
        return None
    p, cell = min(known)
    return cell, p


def _summary(analysis: Analysis) -> list[str]:
    def names(cells: tuple[Cell, ...]) -> str:
        return " ".join(cell_name(c) for c in cells) or "-"

    if not (analysis.safe or analysis.mine or analysis.unknown):
        return ["nothing is covered: a finished position, nothing to decide"]
    lines = [f"safe:  {names(analysis.safe)}", f"mines: {names(analysis.mine)}"]
    if analysis.unknown:
        lines.append(f"uncertain: {plural(len(analysis.unknown), 'cell')}")
    guess = best_guess(analysis)
    if guess is not None:
        lines.append(f"best guess: {cell_name(guess[0])} (mine probability {percent(guess[1])})")
    elif not analysis.safe and analysis.unknown:
        lines.append("best guess: unknown without the total mine count (give --mines)")
    if not analysis.exact:
        why = analysis.why or "a component was too large to count exactly"
        lines.append(f"probabilities are estimates: {why}")
    if analysis.consistent is None:
        lines.append("whether any layout fits was not settled within the budget")
    return lines


def _colour_wanted() -> bool:
    """Colour on a terminal, unless NO_COLOR (https://no-color.org) or TERM=dumb says otherwise."""
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


@app.command()
def analyze(
    files: Annotated[
        list[Path],
        typer.Argument(metavar="FILE", help="Position files (.txt, .dat, .mine, .json); - for stdin."),
    ],
    mines: Annotated[
        int | None,
        typer.Option("--mines", "-m", help="Total mines on the board (overrides the file)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per file, one per line.")] = False,
    explain_cell: Annotated[
        str | None,
        typer.Option(
            "--explain",
            help="Explain CELL (A5 or ROW,COL): the fewest numbers that force it, or its "
            "probability when nothing does.",
        ),
    ] = None,
    format: Annotated[
        str | None, typer.Option("--format", help="Force the file format: text, mine, json.")
    ] = None,
    svg: Annotated[
        Path | None,
        typer.Option(
            "--svg",
            metavar="OUT",
            help="Also draw the position with its analysis as an SVG picture in OUT (one FILE only; "
            "- for standard output, which then carries the picture alone).",
        ),
    ] = None,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            metavar="SECONDS",
            help="Answer each file within this many seconds: past it, what propagation proves and "
            "estimated probabilities (\"exact\": false); 0: no limit.",
        ),
    ] = 0.0,
    max_memory: Annotated[
        int,
        typer.Option(
            "--max-memory",
            metavar="MB",
            help="Hold at most this many megabytes: past it, what propagation proves and estimated "
            "probabilities (\"exact\": false); 0: no limit.",
        ),
    ] = DEFAULT_MAX_MEMORY // 10**6,
) -> None:
    """Classify every covered cell as certainly safe, certainly a mine, or uncertain.

    With the total mine count known (a `# mines: N` header, or --mines), exact
    mine probabilities are given for every covered cell. Past --time-limit or
    --max-memory it still answers: every cell propagation proves and estimated
    probabilities, marked "exact": false with the reason. Exit status: 0 all
    consistent (or not settled within the budget), 1 a position no layout
    satisfies, 2 unreadable input or a budget too small for the board.
    """
    check_total(mines)
    check_time_limit(time_limit)
    if max_memory < 0:
        fail(f"--max-memory must be >= 0 megabytes, not {max_memory}")
    budget = Budget(time_limit=time_limit or None, max_memory=max_memory * 10**6 or None)
    target: Cell | None = None
    if explain_cell is not None:
        try:
            target = parse_cell(explain_cell)
        except InvalidValue as err:
            fail(f"--explain: {error_line(err)}")
    if svg is not None and len(files) != 1:
        fail(f"--svg draws one position: give one FILE, not {len(files)}")
    if svg is not None:
        check_output(svg, "--svg")
    # Shared: its component cache serves every file. The exact integers give way to the close
    # road (within 1e-9) where they would cost more than the board's size allows.
    analyzer = Analyzer(exact_work_per_cell=LINEAR_WORK_PER_CELL)
    status = 0
    for k, path in enumerate(files):
        # The time limit counts from the command's start to the first answer (start-up included),
        # then from each further file's read to its answer.
        read = time.perf_counter()
        began = command_began() if k == 0 else read
        try:
            position = read_board(path, format, "position", "analyze")
            assert isinstance(position, Position)
            if (refusal := too_small(budget, position)) is not None:
                raise InputError(refusal, path=str(path))
            analysis = analyze_within(analyzer, position, mines, budget, began, read)
            if target is not None:
                _explain(path, position, analysis, target, explain_cell or "", as_json)
                continue
        except InputError as err:
            status = max(status, EXIT_BAD_INPUT)
            _report_error(path, str(err), as_json, with_path=False)
            continue
        except InconsistentPositionError as err:
            status = max(status, EXIT_INCONSISTENT)
            hint = "" if position.cells_in(COVERED) else _LAYOUT_HINT
            _report_error(path, f"inconsistent position: {err}{hint}", as_json)
            continue
        except InvalidValue as err:  # e.g. --explain on a cell that is not certain
            status = max(status, EXIT_BAD_INPUT)
            _report_error(path, error_line(err), as_json)
            continue
        if svg is not None:
            _write_svg(svg, position, analysis, str(path))
            if is_stdout(svg):
                continue  # standard output carries the picture alone
        if as_json:
            _write_json(analysis, str(path))
        else:
            if len(files) > 1:
                typer.echo(f"== {path}")
            total = "unknown" if analysis.mines is None else analysis.mines
            typer.echo(f"{position.rows}x{position.cols}, mines: {total}, components: {analysis.components}")
            typer.echo(render_analysis(position, analysis, colour=_colour_wanted()))
            typer.echo("\n".join(_summary(analysis)))
            typer.echo(f"({LEGEND})")
    if status:
        raise typer.Exit(status)


#: Said of an inconsistent position with nothing covered: the file may have been meant as a layout.
_LAYOUT_HINT = (
    " (nothing is covered: if this file is a layout, where the mines are, "
    "use solve or metrics instead)"
)


def _explain(
    path: Path, position: Position, analysis: Analysis, cell: Cell, given: str, as_json: bool
) -> None:
    """Why a certain cell is certain; for an uncertain cell, its probability (not an error)."""
    if not (0 <= cell[0] < position.rows and 0 <= cell[1] < position.cols):
        raise InvalidValue(f"--explain {given}: off the {position.rows}x{position.cols} board")
    if as_json:
        typer.echo(json.dumps({"file": str(path), **explain_json(position, analysis, cell)}))
        return
    if cell in analysis.unknown:
        p = analysis.probability[cell[0]][cell[1]]
        if p is None:
            typer.echo(f"{cell_name(cell)} is uncertain: nothing proves it safe or mined "
                       "(give --mines for its probability)")
        else:
            typer.echo(f"{cell_name(cell)} is uncertain: nothing proves it safe or mined; "
                       f"mine probability {percent(p)}")
        return
    typer.echo(str(explain(position, cell, analysis.mines)))


def _write_json(analysis: Analysis, path: str) -> None:
    """The analysis as one JSON line (docs/commands/analyze.md), written a piece at a time: on a 1000x1000
    board the line is some 20 MB, and building it whole would double the memory held."""
    out = sys.stdout
    for chunk in json_chunks(analysis, {"file": path}):
        out.write(chunk)
    out.write("\n")
    out.flush()


def _write_svg(out: Path, position: Position, analysis: Analysis, title: str) -> None:
    from minesat.svg import position_svg

    write_output(out, position_svg(position, analysis, title=title), "the picture")


def _report_error(path: Path, message: str, as_json: bool, with_path: bool = True) -> None:
    """One line on stderr; with --json also a ``{"file", "error"}`` line so the output stays aligned."""
    line = f"{path}: {message}" if with_path else message
    typer.echo(f"minesat: {line}", err=True)
    if as_json:
        typer.echo(json.dumps({"file": str(path), "error": line}))


#: About how many bytes an answer past a budget holds per cell of the board (the position, the
#: arrays of propagation and beliefs, the grid of probabilities and its JSON line), measured on
#: 1000x1000 positions: what a --max-memory must leave beside what the process already holds.
BYTES_PER_CELL = 400


def too_small(budget: Budget, position: Position) -> str | None:
    """Why ``budget`` cannot hold even the answer past a budget for ``position`` (docs/commands/analyze.md:
    such a budget is refused, exit 2); ``None`` when it can.

    One rule for every size: the limit itself must hold what reading the board, propagating
    and writing the answer take (:func:`~minesat.analysis.engine.seconds_needed`); the 10 % +
    1 s allowed past it is for a busy machine, not part of the plan.

    >>> too_small(Budget(max_memory=10**6), Position.from_rows(["1?"]))  # doctest: +ELLIPSIS
    'a 1x2 board needs more than the --max-memory of 1 MB (some ... MB)'
    >>> too_small(Budget(time_limit=1.0), Position(1000, 1000, (-1,) * 10**6))
    'a 1000x1000 board needs a --time-limit of at least 5.2 s (to read it, propagate and write the answer)'
    >>> too_small(Budget(time_limit=0.001), Position(160, 160, (-1,) * 25600))
    'a 160x160 board needs a --time-limit of at least 0.14 s (to read it, propagate and write the answer)'
    >>> too_small(Budget(time_limit=0.01), Position(16, 30, (-1,) * 480)) is None
    True
    """
    cells = position.rows * position.cols
    board = f"a {position.rows}x{position.cols} board"
    if budget.time_limit is not None and budget.time_limit < (needed := seconds_needed(cells)):
        least = _rounded_up(needed)
        why = "to read it, propagate and write the answer"
        return f"{board} needs a --time-limit of at least {least:g} s ({why})"
    if budget.max_memory is None:
        return None
    needed = resident_bytes() + BYTES_PER_CELL * cells
    if needed <= budget.max_memory:
        return None
    return (f"{board} needs more than the --max-memory of "
            f"{budget.max_memory / 10**6:g} MB (some {needed / 10**6:.0f} MB)")


def _rounded_up(seconds: float) -> float:
    """``seconds`` rounded up to two significant digits (what a refusal names as the least limit).

    >>> _rounded_up(5.2), _rounded_up(0.1331), _rounded_up(0.0025)
    (5.2, 0.14, 0.0025)
    """
    scale = 10.0 ** (1 - math.floor(math.log10(seconds)))
    return math.ceil(round(seconds * scale, 6)) / scale


def command_began() -> float:
    """When the command started, on ``time.perf_counter``'s scale: the process's start when the
    process is this command (``minesat analyze ...``; Linux reads it from ``/proc``), else now
    (the command called within a longer-lived process, as the tests call it). The interpreter's
    start-up and the imports before the command runs count against its time limit as the rest
    of its work does.
    """
    now = time.perf_counter()
    if sys.argv[1:2] != ["analyze"]:
        return now
    try:
        with open("/proc/self/stat", "rb") as stat, open("/proc/uptime", "rb") as uptime:
            # The fields after the command's name (which may hold spaces): the 20th is the start.
            started = int(stat.read().rsplit(b")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
            elapsed = float(uptime.read().split()[0]) - started
    except (OSError, ValueError, IndexError):
        return now
    return now - min(max(elapsed, 0.0), 60.0)  # a clock that says more than a minute is not believed
