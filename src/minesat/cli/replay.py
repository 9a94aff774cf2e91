"""``minesat replay``: real games from replay files, every move analysed on the position the player saw."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from minesat import usecases
from minesat.cli.common import (
    EXIT_BAD_INPUT,
    ProgressLine,
    check_output,
    check_viewer_size,
    fail,
    file_error,
    interrupted,
    is_stdout,
    path_error,
    percent,
    plural,
    refuse_stdout,
    write_output,
)
from minesat.errors import InvalidValue
from minesat.usecases import MAX_REPLAY_BYTES, Replay, parse_replay, read_replay, replay_formats, replay_help
from minesat.verdict import NOTABLE

if TYPE_CHECKING:
    from minesat.usecases import ReplayReview

__all__ = ["replay"]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()


@commands.command()
def replay(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE",
            help=f"Replay files: {replay_help()}; - reads standard input (give --format).",
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per file (JSON Lines), every move analysed.")
    ] = False,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            metavar="OUT",
            help="Also write the game viewer: with one FILE, the page OUT (- for standard output, which "
            "then carries the page alone); with several, one page per file in the directory OUT.",
        ),
    ] = None,
    moves: Annotated[
        bool, typer.Option("--moves", help="Text output: every move, not only the guesses and wrong flags.")
    ] = False,
    fmt: Annotated[
        str | None,
        typer.Option("--format", help=f"Replay format when the extension does not say: {_names()}."),
    ] = None,
) -> None:
    """Replay real games move by move through minesat's rules and analyse every move.

    Each uncover is proven safe, a guess (its exact mine probability, the safest
    guess's, and whether a proven-safe cell was there to take: a needless guess)
    or a loss; each flag a proven mine, unproven, or wrong; each chord safe or
    not. A summary per game gives the guesses, the chance the player's guesses
    all survived (and with the safest guesses), 3BV, 3BV/s, clicks and
    efficiency. Exit status: 0 every file read, 2 a file that could not be read,
    130 interrupted (Ctrl-C).
    """
    try:
        _replay(files, as_json=as_json, html=html, moves=moves, fmt=fmt)
    except KeyboardInterrupt as stop:
        interrupted(stop)


def _replay(files: list[Path], *, as_json: bool, html: Path | None, moves: bool, fmt: str | None) -> None:
    pages = _page_paths(files, html)
    status = 0
    reviewed: list[tuple[Path, ReplayReview]] = []
    for path in files:
        try:
            source = _read_stdin(fmt) if str(path) == "-" else read_replay(path, fmt)
            if html is not None and (too_large := check_viewer_size(source.rows, source.cols)) is not None:
                raise InvalidValue(too_large)
            with _progress("<stdin>" if str(path) == "-" else path.name) as progress:
                result = usecases.review_replay(source, keep_analyses=html is not None, progress=progress)
        except (ValueError, OSError) as err:
            status = EXIT_BAD_INPUT
            line = file_error(path, err)
            typer.echo(f"minesat: {line}", err=True)
            if as_json:
                typer.echo(json.dumps({"file": str(path), "error": line}))
            continue
        if pages is not None:
            _write_page(pages[path], result)
            if is_stdout(pages[path]):
                continue  # standard output carries the page alone
        if as_json:
            typer.echo(json.dumps({"file": str(path), **result.to_json()}))
        else:
            _print_game(path, result, every_move=moves, heading=len(files) > 1)
        reviewed.append((path, result))
    if not as_json and len(reviewed) > 1:
        _print_table(reviewed)
    if status:
        raise typer.Exit(status)


def _names() -> str:
    """The replay formats' names: ``avf, rmv, mvf, evf``."""
    return ", ".join(fmt["name"] for fmt in replay_formats())


def _read_stdin(fmt: str | None) -> Replay:
    """The replay on standard input: its format cannot come from a name, so ``--format`` must say."""
    if fmt is None:
        raise InvalidValue(
            f"reading a replay from standard input needs --format ({_names()})"
        )
    data = sys.stdin.buffer.read(MAX_REPLAY_BYTES + 1)
    return parse_replay(data, fmt, "<stdin>")


def _page_paths(files: list[Path], html: Path | None) -> dict[Path, Path] | None:
    """Where each file's viewer page goes; checked before any work, so a bad OUT fails at once."""
    if html is None:
        return None
    if len(files) == 1:
        check_output(html, "--html")
        return {files[0]: html}
    refuse_stdout(html, "--html", "with several files OUT is a directory of pages, not standard output")
    if html.exists() and not html.is_dir():
        fail(f"--html {html}: with several files OUT is a directory, and this is a file")
    pages = _page_names(files, html)
    try:
        html.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        fail(path_error(html, err, "cannot make the folder for the pages"))
    return pages


def _page_names(files: list[Path], html: Path) -> dict[Path, Path]:
    """Each file's page in the directory ``html``: ``NAME.html`` after the file's name without its
    extension, or with it (``a.evf.html``, ``a.rmv.html``) where two files would share a page; the
    same name in two folders cannot be told apart and is refused (one page would overwrite the other)."""
    def stem(path: Path) -> str:
        return "stdin" if str(path) == "-" else path.stem

    distinct = list(dict.fromkeys(files))
    shared = Counter(stem(p) for p in distinct)
    pages: dict[Path, Path] = {}
    written: dict[Path, Path] = {}
    for path in distinct:
        page = html / f"{stem(path) if shared[stem(path)] == 1 else path.name}.html"
        if page in written:
            fail(f"--html {html}: {written[page]} and {path} would both be written as {page}; "
                 "replay them in separate runs")
        pages[path] = page
        written[page] = path
    return pages


def _write_page(out: Path, result: ReplayReview) -> None:
    write_output(out, usecases.replay_page(result), "the page")
    if not is_stdout(out):
        typer.echo(f"wrote {out}", err=True)


@contextmanager
def _progress(name: str) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar over a game's moves on stderr on a terminal; off one, a line every 10 s."""
    if not sys.stderr.isatty():
        line = ProgressLine("replay", live=False)
        yield lambda done, total: line(f"{name}: {done} of {plural(total, 'move')} analysed")
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (
        TextColumn(name), BarColumn(), MofNCompleteColumn(), TextColumn("moves"), TimeRemainingColumn()
    )
    with Progress(*columns, transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task(name, total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield progress


def _print_game(path: Path, result: ReplayReview, *, every_move: bool, heading: bool) -> None:
    if heading:
        typer.echo(f"== {path}")
    for label, value in result.summary():
        typer.echo(f"{label}: {value}")
    shown = [m for m in result.review.moves if every_move or m.verdict in NOTABLE]
    if shown:
        typer.echo(f"{'move':>5}  {'time':>9}  {'cell':<5} what")
        for m in shown:
            time = "" if m.time is None else f"{m.time:.2f} s"
            typer.echo(f"{m.index + 1:>5}  {time:>9}  {m.move!s:<5} {usecases.describe_move(m)}")
    elif result.review.moves:
        typer.echo("no guess, no wrong flag: every move was proven")


def _print_table(reviewed: list[tuple[Path, ReplayReview]]) -> None:
    """One line per game, for a batch."""
    head = ["file", "format", "board", "won", "seconds", "3BV/s", "guesses", "needless", "survival"]
    rows: list[list[str]] = [head]
    for path, result in reviewed:
        data: dict[str, Any] = result.to_json()
        rows.append([
            path.name,
            data["format"],
            f"{data['rows']}x{data['cols']}/{data['mines']}",
            "yes" if data["won"] else "no",
            "-" if data["seconds"] is None else f"{data['seconds']:.2f}",
            "-" if data["bbbv_per_second"] is None else f"{data['bbbv_per_second']:.2f}",
            str(data["guesses"]),
            str(data["needless_guesses"]),
            "-" if data["survival"] is None else percent(data["survival"]),
        ])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    typer.echo("")
    typer.echo(f"{plural(len(reviewed), 'game')}:")
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(w) for cell, w in zip(row[1:], widths[1:], strict=True)]
        typer.echo("  ".join(cells))
