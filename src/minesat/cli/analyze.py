"""``minesat analyze``: classify every covered cell of one or more positions (SPEC section 3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from minesat.analysis import Analysis, Analyzer, InconsistentPositionError, explain
from minesat.board import COVERED, FLAG, Cell, Position, cell_name, parse_cell
from minesat.cli import app
from minesat.cli.common import EXIT_BAD_INPUT, EXIT_INCONSISTENT, InputError, fail, read_board
from minesat.game import render_grid

LEGEND = "o certainly safe, X certainly a mine, numbers: mine probability in %, * flag, ? uncertain"


def render_analysis(position: Position, analysis: Analysis) -> str:
    """The board with the classification drawn in, three characters a cell."""
    safe, mine = set(analysis.safe), set(analysis.mine)

    def char(cell: Cell) -> str:
        state = position[cell]
        if state == FLAG:
            return "*"
        if state != COVERED:
            return str(state) if state else ""
        if cell in safe:
            return "o"
        if cell in mine:
            return "X"
        p = analysis.probability[cell[0]][cell[1]]
        # Two digits of percent; never round an uncertain cell to 0 or 100.
        return "?" if p is None else str(min(99, max(1, round(p * 100))))

    return render_grid(position.rows, position.cols, char, width=2)


def _summary(analysis: Analysis) -> list[str]:
    def names(cells: tuple[Cell, ...]) -> str:
        return " ".join(cell_name(c) for c in cells) or "-"

    lines = [f"safe:  {names(analysis.safe)}", f"mines: {names(analysis.mine)}"]
    if analysis.unknown:
        lines.append(f"uncertain: {len(analysis.unknown)} cells")
    if not analysis.exact:
        lines.append("probabilities are estimates: a component was too large to count exactly")
    return lines


@app.command()
def analyze(
    files: Annotated[list[Path], typer.Argument(help="Position files (.txt, .dat, .mine, .json).")],
    mines: Annotated[
        int | None,
        typer.Option("--mines", "-m", min=0, help="Total mines on the board (overrides the file)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per file, one per line.")] = False,
    explain_cell: Annotated[
        str | None,
        typer.Option(
            "--explain", help="Explain why CELL (A5 or ROW,COL) is certain: the numbers that force it."
        ),
    ] = None,
    format: Annotated[
        str | None, typer.Option("--format", help="Force the file format: text, mine, json.")
    ] = None,
) -> None:
    """Classify every covered cell as certainly safe, certainly a mine, or uncertain.

    With the total mine count known (a `# mines: N` header, or --mines), exact
    mine probabilities are given for every covered cell. Exit status: 0 all
    consistent, 1 a position no layout satisfies, 2 unreadable input.
    """
    target: Cell | None = None
    if explain_cell is not None:
        try:
            target = parse_cell(explain_cell)
        except ValueError as err:
            fail(f"--explain: {err}")
    analyzer = Analyzer()  # shared: its component cache serves every file
    status = 0
    for path in files:
        try:
            position = read_board(path, format, "position", "analyze")
            assert isinstance(position, Position)
            if target is not None:
                _explain(path, position, target, mines, as_json)
                continue
            analysis = analyzer.analyze(position, mines)
        except InputError as err:
            status = max(status, EXIT_BAD_INPUT)
            _report_error(path, str(err), as_json, with_path=False)
            continue
        except InconsistentPositionError as err:
            status = max(status, EXIT_INCONSISTENT)
            _report_error(path, f"inconsistent position: {err}", as_json)
            continue
        except ValueError as err:  # e.g. --explain on a cell that is not certain
            status = max(status, EXIT_BAD_INPUT)
            _report_error(path, str(err), as_json)
            continue
        if as_json:
            typer.echo(json.dumps({"file": str(path), **analysis.to_json()}))
        else:
            if len(files) > 1:
                typer.echo(f"== {path}")
            total = "unknown" if analysis.mines is None else analysis.mines
            typer.echo(f"{position.rows}x{position.cols}, mines: {total}, components: {analysis.components}")
            typer.echo(render_analysis(position, analysis))
            typer.echo("\n".join(_summary(analysis)))
            typer.echo(f"({LEGEND})")
    if status:
        raise typer.Exit(status)


def _explain(path: Path, position: Position, cell: Cell, mines: int | None, as_json: bool) -> None:
    if not (0 <= cell[0] < position.rows and 0 <= cell[1] < position.cols):
        raise ValueError(f"{cell_name(cell)} is off the {position.rows}x{position.cols} board")
    proof = explain(position, cell, mines)
    if as_json:
        payload = {
            "file": str(path),
            "cell": cell_name(proof.cell),
            "mine": proof.mined,
            "numbers": [cell_name(c) for c in proof.numbers],
            "uses_total": proof.uses_total,
        }
        typer.echo(json.dumps(payload))
    else:
        typer.echo(str(proof))


def _report_error(path: Path, message: str, as_json: bool, with_path: bool = True) -> None:
    """One line on stderr; with --json also a ``{"file", "error"}`` line so the output stays aligned."""
    line = f"{path}: {message}" if with_path else message
    typer.echo(f"minesat: {line}", err=True)
    if as_json:
        typer.echo(json.dumps({"file": str(path), "error": line}))
