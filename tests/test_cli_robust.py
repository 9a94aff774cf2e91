"""Issue 42: what can go wrong with any command is met the same way, tried the way it was met, in a
real process: standard output on a full disk (a ``full`` device) is one line and exit status 1, a
closed pipe (``| head -c1``) ends quietly with 0, Ctrl-C (SIGINT) says ``minesat: interrupted``
and exits 130, and ``kill -9`` of ``simulate`` leaves no worker and no resource tracker behind."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from devices import FULL, device
from minesat.cli import app
from processes import (
    READ_CALL,
    alive,
    children,
    command_line,
    cpu_seconds,
    reading_stdin,
    sigint_as_from_a_shell,
)

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = ROOT / "puzzles" / "beginner-mid.layout.txt"
LINUX = Path("/proc/self/maps").exists()


def minesat(*args: str | Path) -> list[str]:
    """The ``minesat`` command as its script runs it (``python -m minesat`` may end a Ctrl-C met
    while it imports as killed by SIGINT, which a shell reads as 130 too)."""
    return [sys.executable, "-c", "from minesat.__main__ import main; main()", *map(str, args)]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A small position, a stored run of three games and a replay, made once."""
    work = tmp_path_factory.mktemp("robust")
    position = work / "small.txt"
    position.write_text("# mines: 1\n1?\n??\n")
    db = work / "games.sqlite"
    runner = CliRunner()
    made = runner.invoke(app, ["simulate", "--preset", "beginner", "--games", "3", "--workers", "1",
                               "--db", str(db)])
    assert made.exit_code == 0, made.output
    replay = work / "game.evf"
    made = runner.invoke(app, ["solve", str(LAYOUT), "--save-replay", str(replay)])
    assert made.exit_code == 0, made.output
    return {"position": position, "db": db, "replay": replay, "work": work}


#: The commands the issue met each defect in, with arguments (``{position}`` ... from ``files``).
FULL_DISK = {
    "analyze": ["analyze", "{position}"],
    "export": ["export", "{db}"],
    "generate": ["generate", "--preset", "beginner", "--count", "3"],
    "report": ["report", "{db}"],
    "simulate --json": ["simulate", "--preset", "beginner", "--games", "2", "--workers", "1",
                        "--db", "{work}/full.sqlite", "--json"],
    "convert IN -": ["convert", "{position}", "-", "--to", "text"],
}
CLOSED_PIPE = {
    "generate": ["generate", "--preset", "expert", "--count", "200"],
    "solve": ["solve", str(LAYOUT)],
    "replay": ["replay", "{replay}"],
    "metrics": ["metrics", str(LAYOUT)],
    "analyze": ["analyze", "{position}"],
    "show": ["show", "{position}"],
    "perfect": ["perfect", "--rows", "2", "--cols", "3", "--mines", "1"],
    "export": ["export", "{db}"],
}


def filled(args: list[str], files: dict[str, Path]) -> list[str]:
    return [a.format(**files) for a in args]


def said(stderr: str) -> list[str]:
    """The lines of stderr but progress lines (``minesat replay: ...``, every 10 s of long work)."""
    return [line for line in stderr.splitlines() if not re.match(r"minesat [a-z]+: ", line)]


@pytest.fixture
def full_device(tmp_path: Path) -> Path:
    """A full disk: a ``full`` device made in a temporary folder, never ``/dev/full`` itself."""
    return device(tmp_path / "full", FULL)


@pytest.mark.parametrize("name", FULL_DISK)
def test_a_full_disk_is_one_line_and_exit_1(name: str, files: dict[str, Path], full_device: Path) -> None:
    with open(full_device, "w") as full:
        done = subprocess.run(minesat(*filled(FULL_DISK[name], files)), stdout=full, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, text=True, timeout=120, cwd=files["work"])
    assert said(done.stderr) == ["minesat: standard output: No space left on device"], done.stderr
    assert done.returncode == 1


@pytest.mark.parametrize("name", CLOSED_PIPE)
def test_a_closed_pipe_ends_quietly_with_exit_0(name: str, files: dict[str, Path]) -> None:
    """The reader is gone before the first line (as ``head -c1`` is after its byte)."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(minesat(*filled(CLOSED_PIPE[name], files)), stdout=write,
                              stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, timeout=120)
    finally:
        os.close(write)
    assert said(done.stderr) == []
    assert done.returncode == 0


def test_head_reads_what_it_wants_and_the_command_ends_at_once(files: dict[str, Path]) -> None:
    """``minesat generate ... | head -c1``: a set far longer than the pipe holds."""
    command = shlex.join(minesat("generate", "--preset", "expert", "--count", "5000"))
    command += ' | head -c1; echo " status ${PIPESTATUS[0]}"'
    done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=120,
                          executable="/bin/bash")
    assert done.stdout == "{ status 0\n" and done.stderr == ""


# --- Ctrl-C ----------------------------------------------------------------------------------


def _at_work(pid: int, ready: str) -> bool:
    if ready == "stdin":
        return reading_stdin(pid)
    if ready.startswith("cpu:"):
        return cpu_seconds(pid) >= float(ready.removeprefix("cpu:"))
    raise ValueError(f"no such sign of work: {ready}")


def _interrupt_when(proc: subprocess.Popen[str], ready: str) -> tuple[str, str]:
    """SIGINT once the command is at work, as Ctrl-C sends it: ``ready`` is ``stdin`` (it waits
    for its input), ``cpu:S`` (it has worked S seconds: past its imports, which take well under a
    second), or (``stdout:...``) the line it prints when it waits for its player."""
    if ready.startswith("stdout:"):
        assert proc.stdout is not None
        while (line := proc.stdout.readline()) and ready.removeprefix("stdout:") not in line:
            pass
    else:
        deadline = time.monotonic() + 120
        while not _at_work(proc.pid, ready) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _at_work(proc.pid, ready), f"not at work ({ready}) after 120 s"
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.skipif(not LINUX or READ_CALL is None, reason="reads /proc to know the command is at work")
@pytest.mark.parametrize(
    ("name", "args", "ready"),
    [
        ("analyze", ["analyze", "-"], "stdin"),  # waiting for its position on standard input
        ("play", ["play", "--seed", "1"], "stdout:type help"),  # waiting for a command
        ("generate", ["generate", "--rows", "400", "--cols", "400", "--mines", "30000", "--count", "1",
                      "--no-guess"], "cpu:1"),  # checking a layout, minutes of work; the whole
        # command on a 4x4 board, imports and all, takes 0.26 s of CPU: at 1 s it is at work
    ],
)
def test_ctrl_c_says_interrupted_and_exits_130(name: str, args: list[str], ready: str) -> None:
    proc = subprocess.Popen(minesat(*args), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=sigint_as_from_a_shell)
    _, err = _interrupt_when(proc, ready)
    assert err.splitlines()[-1:] == ["minesat: interrupted"], err
    assert "Traceback" not in err
    assert proc.returncode == 130


# --- kill -9 ---------------------------------------------------------------------------------


@pytest.fixture
def killed_leftovers() -> Iterator[list[int]]:
    """Processes a test leaves behind are killed after it, whatever it asserted."""
    left: list[int] = []
    yield left
    for pid in left:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not LINUX, reason="reads /proc to find the pool's workers")
def test_kill_9_of_simulate_leaves_no_worker_and_no_resource_tracker(
    tmp_path: Path, killed_leftovers: list[int]
) -> None:
    db = tmp_path / "k.sqlite"
    proc = subprocess.Popen(minesat("simulate", "--preset", "beginner", "--games", "1000000",
                                    "--workers", "2", "--batch-size", "5", "--db", db),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    started: set[int] = set()
    while time.monotonic() < deadline and proc.poll() is None:
        started = children(proc.pid)
        workers = [c for c in started if "spawn_main" in command_line(c)]
        if len(workers) >= 2 and any("resource_tracker" in command_line(c) for c in started):
            break
        time.sleep(0.05)
    killed_leftovers.extend(started)
    assert proc.poll() is None, "simulate ended before its workers started"
    proc.kill()  # SIGKILL: no handler runs, nothing is cleaned up by the parent
    proc.wait()
    deadline = time.monotonic() + 60
    while any(alive(c) for c in started) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [command_line(c)[:80] for c in started if alive(c)] == []


# --- the smaller defects, one rule each -------------------------------------------------------

runner = CliRunner()


def one_line(*args: str | Path, status: int = 2) -> str:
    """The single ``minesat: ...`` line on stderr (no traceback), after exit ``status``."""
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == status, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: "), result.stderr
    return lines[0]


def test_dash_is_standard_output_wherever_an_output_path_is_taken(
    files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a file named "-" would land here
    position = files["position"]
    converted = runner.invoke(app, ["convert", str(position), "-", "--to", "text"])
    assert converted.exit_code == 0 and converted.stdout == "# mines: 1\n1?\n??\n"
    assert runner.invoke(app, ["convert", str(position), "-"]).stdout == converted.stdout  # text by default
    picture = runner.invoke(app, ["analyze", str(position), "--svg", "-"])
    assert picture.exit_code == 0 and picture.stdout.startswith("<svg")
    assert picture.stdout.rstrip().endswith("</svg>")
    boards = runner.invoke(app, ["generate", "--preset", "beginner", "--count", "2", "--out", "-"])
    assert boards.stdout == runner.invoke(app, ["generate", "--preset", "beginner", "--count", "2"]).stdout
    records = runner.invoke(app, ["export", str(files["db"]), "--out", "-"])
    assert records.stdout == runner.invoke(app, ["export", str(files["db"])]).stdout and records.stdout
    tables = runner.invoke(app, ["report", str(files["db"]), "--out", "-"])
    assert tables.stdout == runner.invoke(app, ["report", str(files["db"])]).stdout and tables.stdout
    page = runner.invoke(app, ["solve", str(LAYOUT), "--html", "-"])
    assert page.exit_code == 0 and page.stdout.startswith("<!DOCTYPE html>") and "wrote" not in page.stderr
    page = runner.invoke(app, ["replay", str(files["replay"]), "--html", "-"])
    assert page.exit_code == 0 and page.stdout.startswith("<!DOCTYPE html>")
    assert list(tmp_path.iterdir()) == []
    # Where standard output cannot be what is written, "-" is refused in one line.
    assert one_line("simulate", "--preset", "beginner", "--games", "1", "--db", "-") == (
        "minesat: --db -: a game database is a file, not standard output")
    assert one_line("sweep", "--rows", "4", "--cols", "4", "--mines", "1,2", "--games", "1", "--db", "-")
    assert "format comes from PATH's extension" in one_line("solve", LAYOUT, "--save-replay", "-")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"])
def test_any_line_end_reads_alike(tmp_path: Path, end: str) -> None:
    """A file with CR-only line ends (old Mac tools) read as one line ``# mines: 1\\r1?\\r??``."""
    text = tmp_path / "p.txt"
    text.write_bytes(end.join(["# mines: 1", "1?", "??", ""]).encode())
    mine = tmp_path / "p.mine"
    mine.write_bytes(end.join(["2x2x1", "H1", "HH", ""]).encode())
    for path in (text, mine):
        result = runner.invoke(app, ["analyze", str(path), "--json"])
        assert result.exit_code == 0, result.output
        assert '"mines": 1' in result.stdout and "33" not in result.stderr


def test_report_out_a_directory_names_the_directory(files: dict[str, Path], tmp_path: Path) -> None:
    assert one_line("report", files["db"], "--out", tmp_path) == (
        f"minesat: {tmp_path}: is a directory; --out wants a file name")


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs a /sys no one may write to")
def test_an_os_error_names_the_path_first() -> None:
    line = one_line("sweep", "--rows", "4", "--cols", "4", "--mines", "1,2", "--games", "1",
                    "--db", "/sys/foo")
    assert line.startswith("minesat: /sys/foo: ") and "Errno" not in line


def test_an_os_error_nobody_expected_is_one_line_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from minesat.cli import common

    with pytest.raises(typer.Exit) as stopped, common.command_guard():
        raise PermissionError(1, "Operation not permitted", "/sys/foo")
    assert stopped.value.exit_code == 2


@pytest.mark.parametrize("command", ["perfect --rows 3 --cols 3 --mines 1",
                                     "simulate --preset beginner --games 1",
                                     "sweep --rows 4 --cols 4 --mines 1,2 --games 1"])
def test_workers_and_a_scheduler_exclude_each_other(command: str) -> None:
    line = one_line(*command.split(), "--workers", "2", "--scheduler", "tcp://127.0.0.1:9")
    assert line == ("minesat: --workers does nothing with --scheduler (the cluster's threads do the work): "
                    "leave it out")


def test_store_messages_advise_no_option_the_command_lacks(files: dict[str, Path], tmp_path: Path) -> None:
    import shutil
    import sqlite3

    damaged = tmp_path / "damaged.sqlite"
    shutil.copy(files["db"], damaged)
    with sqlite3.connect(damaged) as con:
        con.execute("DROP TABLE game")
    con.close()
    for command in ("report", "export"):
        line = one_line(command, damaged)
        assert "damaged game database" in line and "--db" not in line and "move it aside" in line


@pytest.mark.parametrize("command", ["generate --preset beginner --count 1", "play",
                                     "simulate --preset beginner --games 1",
                                     "sweep --rows 4 --cols 4 --mines 1,2 --games 1"])
def test_negative_seeds_are_refused_as_the_api_refuses_them(command: str) -> None:
    assert one_line(*command.split(), "--seed", "-1") == "minesat: --seed must be at least 0, not -1"


def test_the_first_text_example_of_the_board_docs_is_a_consistent_position() -> None:
    from minesat.analysis import analyze
    from minesat.formats import parse_position

    page = (ROOT / "docs" / "boards.md").read_text()
    example = page.split("## Text", 1)[1].split("```", 2)[1].split("\n", 1)[1]
    position = parse_position(example, "text")
    analysis = analyze(position)  # raises InconsistentPositionError on a position no layout fits
    assert analysis.safe or analysis.mine or analysis.unknown


def test_the_simulate_header_counts_one_mine_in_the_singular(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--rows", "3", "--cols", "3", "--mines", "1", "--games", "1",
                                 "--workers", "1", "--db", str(tmp_path / "one.sqlite")])
    assert result.stdout.startswith("3x3 board, 1 mine, first click opening at C3")


def test_a_mine_free_layout_is_solved_with_no_guess(tmp_path: Path) -> None:
    layout = tmp_path / "free.layout.txt"
    layout.write_text("...\n...\n")
    result = runner.invoke(app, ["solve", str(layout)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == ["1. B3     proven safe", "Won: 1 move, 0 guesses, 3BV 1, "
                                              + result.stdout.splitlines()[1].split("3BV 1, ")[1]]
    assert "guess" not in result.stdout.splitlines()[0]
    oracle = runner.invoke(app, ["solve", str(layout), "--oracle", "--json"])
    assert '"count": 0' in oracle.stdout
