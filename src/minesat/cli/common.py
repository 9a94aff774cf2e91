"""What every command shares: turning library errors into one line and an exit status, and
meeting what can go wrong with any command the same way (docs/exit-status.md):

- standard output that cannot be written (a full disk, ``> /dev/full``) is one line,
  ``minesat: standard output: No space left on device``, and exit status 1;
- a closed pipe (``minesat ... | head -1``) ends the command quietly, exit status 0;
- Ctrl-C is ``minesat: interrupted`` and exit status 130; SIGTERM and SIGHUP the same, ``by
  SIGTERM``, with 128 + the signal's number (143, 129); a file being written is removed;
- ``-`` as an output path is standard output (:func:`output_path`);
- an error with a file names the file first (:func:`path_error`).

This module is imported by every command, so it imports only what they all need: what one
command needs is imported where it is used.
"""

from __future__ import annotations

import contextlib
import errno
import io
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from minesat import usecases
from minesat.board import PRESETS, Cell, parse_cell
from minesat.errors import InputError, InvalidValue, MinesatError, StoreError, one_line, option_name
from minesat.stats import percent  # noqa: F401  (the commands import it from here)
from minesat.usecases import FIRST_CLICK_HELP, PRESET_HELP, FirstClick, memory_watch
from minesat.words import agree, plural  # noqa: F401  (the commands import them from here)

__all__ = [
    "DEFAULT_START",
    "EXIT_BAD_INPUT",
    "EXIT_INCONSISTENT",
    "EXIT_INTERRUPTED",
    "EXIT_OUTPUT_FAILED",
    "EXIT_STOPPED",
    "LIVE_LINE_EVERY",
    "PROGRESS_LINE_EVERY",
    "ColsOption",
    "FirstClickOption",
    "MinesOption",
    "OutputError",
    "PresetOption",
    "ProgressLine",
    "RowsOption",
    "StartOption",
    "Stopped",
    "WatchedStdout",
    "board_size",
    "check_folder",
    "check_max_memory",
    "check_output",
    "check_strategy",
    "check_time_limit",
    "check_total",
    "check_viewer_size",
    "check_workers",
    "command_began",
    "command_guard",
    "error_line",
    "fail",
    "file_error",
    "first_click_rule",
    "given_options",
    "given_start",
    "interrupted",
    "interrupted_status",
    "is_stdout",
    "memory_watch",
    "output_failed",
    "path_error",
    "refuse_stdout",
    "refuse_unused",
    "run_main",
    "start_cell",
    "stop_on_signals",
    "write_output",
    "write_stdout",
]

#: The first click when none is given (docs/commands/simulate.md), clipped to small boards.
DEFAULT_START: Cell = (3, 3)

#: The board options ``simulate`` and ``generate`` share (read them with :func:`board_size`).
PresetOption = Annotated[str | None, typer.Option(help=PRESET_HELP)]
RowsOption = Annotated[int | None, typer.Option(help="Board rows (with --cols and --mines).")]
ColsOption = Annotated[int | None, typer.Option(help="Board columns.")]
MinesOption = Annotated[int | None, typer.Option(help="Number of mines.")]
FirstClickOption = Annotated[str, typer.Option("--first-click", help=FIRST_CLICK_HELP)]
StartOption = Annotated[
    str | None,
    typer.Option(help="First click as ROW,COL (0-based) or a cell name; default 3,3 clipped to the board."),
]

#: Exit statuses, as docs/exit-status.md promises them.
EXIT_INCONSISTENT = 1  # a position no layout satisfies
EXIT_OUTPUT_FAILED = 1  # standard output, or an output file, could not be written
EXIT_STOPPED = 1  # work stopped at a limit (a budget, the machine's memory or disk), saying how far it got
EXIT_BAD_INPUT = 2  # unreadable file, bad option value
EXIT_INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT


def fail(message: str | BaseException, status: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``minesat: message`` on stderr (one line, no traceback) and exit; an error is said
    as :func:`error_line` says it."""
    if isinstance(message, BaseException):
        message = error_line(message)
    typer.echo(f"minesat: {message}", err=True)
    raise typer.Exit(status)


# --- standard output, Ctrl-C and paths: the same in every command ------------------------------


class OutputError(Exception):
    """Standard output could not be written: ``error`` says why (``EPIPE``: the reader is gone).

    Not an :class:`OSError`, so that a command's ``except OSError`` around its own files never
    takes it for an error of theirs.
    """

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.error = error

    @property
    def closed_pipe(self) -> bool:
        """The reader closed its end (``| head``): not a failure, it has what it wanted."""
        return self.error.errno in (errno.EPIPE, errno.ECONNRESET)


class WatchedStdout(io.TextIOWrapper):
    """Standard output whose write errors are :class:`OutputError` (installed by :func:`run_main`)."""

    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except OSError as err:
            raise OutputError(err) from None

    def flush(self) -> None:
        try:
            super().flush()
        except OSError as err:
            raise OutputError(err) from None


def _watch_stdout() -> None:
    """Put a :class:`WatchedStdout` on the same file as ``sys.stdout``, with its settings."""
    stdout = sys.stdout
    if isinstance(stdout, WatchedStdout) or not isinstance(stdout, io.TextIOWrapper):
        return
    stdout.flush()
    sys.stdout = WatchedStdout(
        stdout.buffer, encoding=stdout.encoding, errors=stdout.errors,
        line_buffering=stdout.line_buffering, write_through=stdout.write_through,
    )


def output_failed(err: OutputError) -> int:
    """Say what went wrong with standard output (nothing for a closed pipe); the exit status.

    Standard output then goes to the null device, so that what is still buffered, flushed when
    Python exits, cannot fail a second time.
    """
    stdout = sys.stdout
    if isinstance(stdout, WatchedStdout):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stdout.fileno())
        os.close(null)
    if err.closed_pipe:
        return 0
    typer.echo(f"minesat: standard output: {err}", err=True)
    return EXIT_OUTPUT_FAILED


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, turned into the same clean stop as Ctrl-C (:func:`stop_on_signals`)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def interrupted_status(stop: KeyboardInterrupt) -> int:
    """The exit status of a stop: 128 + the signal's number (143 for SIGTERM), 130 for Ctrl-C."""
    return 128 + stop.signum if isinstance(stop, Stopped) else EXIT_INTERRUPTED


def interrupted(stop: KeyboardInterrupt | None = None) -> NoReturn:
    """Ctrl-C (``minesat: interrupted``, status 130) or a signal (``minesat: interrupted by
    SIGTERM``, 128 + its number): one line, whatever the command was doing."""
    by = f" by {signal.Signals(stop.signum).name}" if isinstance(stop, Stopped) else ""
    with contextlib.suppress(OSError):  # a hang-up may have taken the terminal with it
        typer.echo(f"minesat: interrupted{by}", err=True)
    raise typer.Exit(interrupted_status(stop) if stop is not None else EXIT_INTERRUPTED)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """While the block runs, stop on SIGTERM and SIGHUP as on Ctrl-C: a :class:`Stopped` raised in
    the main thread, so that what a command was writing is removed (a file appears whole or not
    at all), its workers are stopped and what is stored is kept.

    By default those signals kill the process at once: a file half-written would stay behind,
    and pool workers would be orphaned.
    """
    wanted = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]

    def stop(signum: int, frame: object) -> None:
        raise Stopped(signum)

    try:
        previous = {signum: signal.signal(signum, stop) for signum in wanted}
    except ValueError:  # not the main thread (an embedding program): leave signals alone
        yield
        return
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def command_guard() -> Iterator[None]:
    """Around every command (:class:`minesat.cli.Commands` runs each within it): standard output
    that fails, Ctrl-C, SIGTERM and SIGHUP end the command as :func:`output_failed` and
    :func:`interrupted` say. A command with more to say (how far it got, how to resume) catches
    the stop itself (a :class:`KeyboardInterrupt`; :func:`interrupted_status` its status)."""
    try:
        with stop_on_signals():
            yield
    except OutputError as err:
        raise typer.Exit(output_failed(err)) from None
    except KeyboardInterrupt as stop:
        interrupted(stop)
    except OSError as err:  # a file no command expected to fail: still one line, never a traceback
        fail(error_line(err), EXIT_BAD_INPUT if err.filename else EXIT_OUTPUT_FAILED)


#: Whether the command is this process's own (set by :func:`run_main`, the ``minesat`` entry point),
#: rather than called within a longer-lived process (a test's runner, a script): only then does its
#: time limit count from the process's start.
_COMMAND_IS_PROCESS = False


def command_began() -> float:
    """When the command started, on ``time.perf_counter``'s scale: the process's start when the
    process is this command (``minesat analyze ...`` through :func:`run_main`; Linux reads the start
    from ``/proc``), else now (the command called within a longer-lived process, as the tests call
    it). The interpreter's start-up and the imports before the command runs count against its
    time limit as the rest of its work does.
    """
    now = time.perf_counter()
    if not _COMMAND_IS_PROCESS:
        return now
    try:
        with open("/proc/self/stat", "rb") as stat, open("/proc/uptime", "rb") as uptime:
            # The fields after the command's name (which may hold spaces): the 20th is the start.
            started = int(stat.read().rsplit(b")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
            elapsed = float(uptime.read().split()[0]) - started
    except (OSError, ValueError, IndexError):
        return now
    return now - min(max(elapsed, 0.0), 60.0)  # a clock that says more than a minute is not believed


def run_main(app: Callable[[], Any]) -> None:
    """Run the command line with standard output watched (:class:`WatchedStdout`): the command runs
    within :func:`command_guard` (:class:`minesat.cli.Commands` sees to it), and what is left in
    the buffer at the end, written here, is met the same way."""
    global _COMMAND_IS_PROCESS
    _COMMAND_IS_PROCESS = True
    _watch_stdout()
    try:
        try:
            app()
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()
    except OutputError as err:
        sys.exit(output_failed(err))
    except KeyboardInterrupt:  # before a command started (its module loading) or after it ended
        typer.echo("minesat: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)


#: Off a terminal, long work says how far it got at most this often (seconds): a log shows it alive.
PROGRESS_LINE_EVERY = 10.0
#: On a terminal, the live line is redrawn at most this often (seconds).
LIVE_LINE_EVERY = 0.2


class ProgressLine:
    """How long work is coming on, on stderr: on a terminal one line kept up to date, else
    ``minesat COMMAND: TEXT, N s`` every :data:`PROGRESS_LINE_EVERY` seconds.

    Call it with the news (``progress("board 3 of 10")``); :meth:`ticking` also redraws the last
    news while one step of the work takes long, from a thread, so that the line keeps coming.
    ``clock`` is for the tests.
    """

    def __init__(self, command: str, live: bool | None = None, clock: Callable[[], float] = time.monotonic):
        self.command, self.clock = command, clock
        self.live = sys.stderr.isatty() if live is None else live
        self.began = self.said = clock()
        self.text: str | None = None
        self.shown = False  # a live line is on the screen
        self._lock = threading.Lock()

    def __call__(self, text: str) -> None:
        self.text = text
        self.show()

    def show(self) -> None:
        """Say the last news, if it is time to."""
        with self._lock:
            now = self.clock()
            if self.text is None or now - self.said < (LIVE_LINE_EVERY if self.live else PROGRESS_LINE_EVERY):
                return
            self.said = now
            line = f"minesat {self.command}: {self.text}, {now - self.began:.0f} s"
            if self.live:
                sys.stderr.write("\r" + line.ljust(78))
                self.shown = True
            else:
                sys.stderr.write(line + "\n")
            sys.stderr.flush()

    def done(self) -> None:
        """End the live line, if one is shown."""
        with self._lock:
            if self.shown:
                sys.stderr.write("\n")
                sys.stderr.flush()
                self.shown = False

    @contextmanager
    def ticking(self) -> Iterator[ProgressLine]:
        """Redraw the line from a thread while the block runs (and end it after)."""
        stop = threading.Event()

        def tick() -> None:
            while not stop.wait(LIVE_LINE_EVERY if self.live else 1.0):
                self.show()

        thread = threading.Thread(target=tick, name="minesat-progress", daemon=True)
        thread.start()
        try:
            yield self
        finally:
            stop.set()
            thread.join()
            self.done()


def is_stdout(path: Path | None) -> bool:
    """``-`` as an output path: standard output."""
    return path is not None and str(path) == "-"


def write_stdout(content: str | bytes) -> None:
    """Write ``content`` on standard output (bytes as they are: an MBF board), flushed."""
    if isinstance(content, str):
        sys.stdout.write(content)
        sys.stdout.flush()
        return
    sys.stdout.flush()
    try:
        sys.stdout.buffer.write(content)
        sys.stdout.buffer.flush()
    except OSError as err:
        raise OutputError(err) from None


def write_output(path: Path, content: str | bytes, what: str) -> None:
    """Write ``content`` (``what`` it is, for the message) to ``path`` whole or not at all, or on
    standard output when ``path`` is ``-``. A file that cannot be written is one line naming it
    first, and exit status 1."""
    if is_stdout(path):
        write_stdout(content)
        return
    try:
        usecases.write_text_atomically(path, content)
    except OSError as err:
        fail(path_error(path, err, f"cannot write {what}"), EXIT_OUTPUT_FAILED)


def refuse_stdout(path: Path | None, option: str, why: str) -> None:
    """Fail (one line, exit 2) on ``-`` for an output that cannot be standard output (``why``)."""
    if is_stdout(path):
        fail(f"{option} -: {why}")


def error_line(err: BaseException) -> str:
    r"""One line for an error: minesat's own in the command line's words (its options, ``--db``,
    where the library says ``store=``), an OS error with its path first (``/sys/foo: Operation not
    permitted``, not ``[Errno 1] Operation not permitted: '/sys/foo'``), others as they say it.

    >>> from minesat.errors import OverBudget
    >>> error_line(OverBudget("past {time_limit:2 s}", advice="raise {time_limit}", template=True))
    'past --time-limit 2 s; raise --time-limit'

    >>> error_line(PermissionError(1, "Operation not permitted", "/sys/foo"))
    '/sys/foo: Operation not permitted'
    >>> error_line(ValueError("a  message\nover lines"))
    'a message over lines'
    """
    if isinstance(err, MinesatError):
        return err.render(option_name)
    if isinstance(err, OSError) and err.strerror:
        return path_error(err.filename, err) if err.filename else err.strerror
    return one_line(str(err))


def file_error(path: Path | str, err: BaseException) -> str:
    """One line for what went wrong with the file at ``path`` (``-``: ``<stdin>``): the error as
    :func:`error_line` says it, after ``PATH: `` unless the error names the file itself, as its
    fields say (an :class:`~minesat.errors.InputError`, or a format refused for a file's name,
    with its ``path``). An OS error is its ``strerror`` after the path as given.

    >>> from minesat.errors import InputError
    >>> file_error("a.txt", InputError("unknown character 'x'", path="a.txt", line=2, column=2))
    "a.txt:2:2: unknown character 'x'"
    >>> file_error("-", InvalidValue("a .mine file needs the total number of mines"))
    '<stdin>: a .mine file needs the total number of mines'
    >>> file_error("a.avf", FileNotFoundError(2, "No such file or directory", "/home/me/a.avf"))
    'a.avf: No such file or directory'
    """
    if isinstance(err, (InputError, InvalidValue)) and getattr(err, "path", None) is not None:
        return error_line(err)
    said = err.strerror if isinstance(err, OSError) and err.strerror else error_line(err)
    return f"{'<stdin>' if str(path) == '-' else path}: {said}"


def unreadable_store(path: Path | str, err: BaseException) -> NoReturn:
    """Fail on a game database that could not be read (opened, or its rows streamed): a store's
    own error as it says it (it names the file and says what to do), anything else (SQLite, a
    damaged row) as ``PATH: not a readable minesat game database (...)``."""
    if isinstance(err, StoreError):
        fail(err)
    fail(f"{path}: not a readable minesat game database ({one_line(str(err))})")


def path_error(path: Path | str, err: OSError, doing: str | None = None) -> str:
    """An error with a file, its path first: ``/sys/foo: cannot write the page (Permission denied)``.

    >>> path_error("/sys/foo", PermissionError(1, "Operation not permitted", "/sys/foo"))
    '/sys/foo: Operation not permitted'
    >>> path_error("out.html", OSError(28, "No space left on device"), "cannot write the page")
    'out.html: cannot write the page (No space left on device)'
    """
    reason = err.strerror or str(err)
    return f"{path}: {doing} ({reason})" if doing else f"{path}: {reason}"


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


def check_workers(ctx: typer.Context, scheduler: str | None) -> None:
    """``--workers`` and ``--scheduler`` exclude each other: on a cluster its threads do the work,
    and a number of local processes would do nothing (one line, exit 2)."""
    if scheduler is not None:
        refuse_unused(given_options(ctx, "workers"), "with --scheduler (the cluster's threads do the work)")


def check_output(path: Path, option: str) -> None:
    """Refuse, before any work, a path no file can be written at (one line, exit 2): a directory,
    or a path under a file. Missing folders are no reason: they are made when the file is written.
    ``-`` is standard output (:func:`is_stdout`)."""
    if is_stdout(path):
        return
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
    (:func:`~minesat.usecases.viewer_too_large`)."""
    return usecases.viewer_too_large(rows, cols, option)


def check_total(mines: int | None) -> None:
    """Fail (one line, exit 2) on a negative ``--mines``: the library would refuse it anyway, per file."""
    if mines is not None and mines < 0:
        fail(f"--mines must be >= 0, not {mines}")


def check_max_memory(megabytes: int) -> None:
    """Fail (one line, exit 2) on a ``--max-memory`` below 0 (0: no limit)."""
    if megabytes < 0:
        fail(f"--max-memory must be >= 0 megabytes, not {megabytes}")


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
    except InvalidValue as err:
        fail(f"--start: {error_line(err)}")
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
            fail(f"--preset: unknown preset {preset!r} (known: {', '.join(PRESETS)})")
        return PRESETS[preset.lower()]
    if rows is None or cols is None or mines is None:
        fail("give --preset NAME or all of --rows, --cols and --mines")
    return rows, cols, mines


def check_strategy(name: str) -> str:
    """``name`` if the player knows the strategy; otherwise one line naming ``--strategy``, exit 2."""
    try:
        usecases.check_strategy(name)
    except InvalidValue as err:
        fail(f"--strategy: {error_line(err)}")
    return name
