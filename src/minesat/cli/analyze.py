"""``minesat analyze``: classify every covered cell of one or more positions (docs/commands/analyze.md)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from minesat import usecases
from minesat.board import COVERED, FLAG, Cell, Position, cell_name, parse_cell
from minesat.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_INCONSISTENT,
    check_output,
    check_time_limit,
    check_total,
    command_began,
    error_line,
    fail,
    is_stdout,
    percent,
    plural,
    write_output,
)
from minesat.errors import InputError, InvalidValue
from minesat.usecases import DEFAULT_MAX_MEMORY, Budget, positions, render_grid
from minesat.usecases.positions import Analysis, InconsistentPositionError

__all__ = ["LEGEND", "analyze", "best_guess", "render_analysis"]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()

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


@commands.command()
def analyze(
    files: Annotated[
        list[Path],
        # parser=Path: typer makes each path without its Path check, which builds a pydantic
        # adapter for every file (some 50 microseconds a file); what it returns is the same Path.
        typer.Argument(metavar="FILE", help="Position files (.txt, .dat, .mine, .json); - for stdin.",
                       parser=Path),
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
    analyzer = positions.budget_analyzer()  # shared: its component cache serves every file
    position: Position
    status = 0
    for k, path in enumerate(files):
        # The time limit counts from the command's start to the first answer (start-up included),
        # then from each further file's read to its answer.
        read = time.perf_counter()
        began = command_began() if k == 0 else read
        try:
            board = usecases.read_board(path, format, "position", "analyze")
            assert isinstance(board, Position)
            position = board
            if (refusal := positions.budget_too_small(budget, position)) is not None:
                raise InputError(refusal, path=str(path))
            analysis = positions.analyse_within(position, mines, budget, analyzer=analyzer, began=began,
                                               read=read)
            if target is not None:
                _explain(path, position, analysis, target, explain_cell or "", as_json)
                continue
        except InputError as err:
            status = max(status, EXIT_BAD_INPUT)
            _report_error(path, str(err), as_json, with_path=False)
            continue
        except InconsistentPositionError as err:
            status = max(status, EXIT_INCONSISTENT)
            hint = "" if COVERED in position.cells else _LAYOUT_HINT
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
        typer.echo(json.dumps({"file": str(path), **positions.explanation_json(position, analysis, cell)}))
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
    typer.echo(str(positions.explain(position, cell, analysis.mines)))


def _write_json(analysis: Analysis, path: str) -> None:
    """The analysis as one JSON line (docs/commands/analyze.md), written a piece at a time: on a 1000x1000
    board the line is some 20 MB, and building it whole would double the memory held."""
    out = sys.stdout
    for chunk in positions.analysis_json_chunks(analysis, {"file": path}):
        out.write(chunk)
    out.write("\n")
    out.flush()


def _write_svg(out: Path, position: Position, analysis: Analysis, title: str) -> None:
    write_output(out, positions.analysis_svg(position, analysis, title), "the picture")


def _report_error(path: Path, message: str, as_json: bool, with_path: bool = True) -> None:
    """One line on stderr; with --json also a ``{"file", "error"}`` line so the output stays aligned."""
    line = f"{path}: {message}" if with_path else message
    typer.echo(f"minesat: {line}", err=True)
    if as_json:
        typer.echo(json.dumps({"file": str(path), "error": line}))
