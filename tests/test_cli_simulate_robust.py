"""Issue 9, defects 4-7: progress on stderr, signals, damaged stores, bad schedulers, one run per store."""

from __future__ import annotations

import json
import os
import pty
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from minesat.cli import app
from minesat.executors import SchedulerError, probe_scheduler
from minesat.store import GameStore, RunConfig
from processes import alive, children

runner = CliRunner()
BEGINNER = ["simulate", "--preset", "beginner", "--seed", "5"]
CONFIG = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=5)


def run(*args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def one_line(result: Result) -> str:
    assert "Traceback" not in result.output and result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: "), result.stderr
    return lines[0]


def _cli(args: list[str], **kwargs: object) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", "from minesat.cli import main; main()", *args],
        stdout=subprocess.PIPE,
        text=True,
        **kwargs,  # type: ignore[arg-type]
    )


# --- defect 4: progress on stderr whenever stderr is a terminal --------------------------------


def test_progress_goes_to_a_terminal_stderr_even_with_json_and_a_piped_stdout(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    seen = bytearray()

    def drain() -> None:  # keep the terminal's buffer empty, or the child blocks writing to it
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            if not data:
                return
            seen.extend(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    db = tmp_path / "p.sqlite"
    proc = _cli([*BEGINNER, "--games", "30", "--workers", "1", "--db", str(db), "--json"], stderr=slave)
    out, _ = proc.communicate(timeout=120)
    os.close(slave)
    reader.join(timeout=5)
    os.close(master)
    assert proc.returncode == 0
    assert json.loads(out)["games"] == 30  # stdout carries only the result
    assert b"simulating" in seen  # the bar was drawn on the terminal


def test_report_json_with_out_keeps_stdout_parseable(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    assert run(*BEGINNER, "--games", "5", "--workers", "1", "--db", db).exit_code == 0
    result = run("report", db, "--out", tmp_path / "r.html", "--json")
    assert result.exit_code == 0
    json.loads(result.stdout)
    assert "wrote" in result.stderr


def test_default_db_is_announced_and_no_games_give_no_win_rate(tmp_path: Path) -> None:
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = run(*BEGINNER, "--games", "0")
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0
    assert "storing the games in reports" in result.stderr
    assert "win rate" not in result.stdout and "none played" in result.stdout


# --- defect 5: SIGTERM and SIGHUP stop the workers and keep the games ------------------------


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to find the pool's workers")
@pytest.mark.parametrize("command", ["simulate", "sweep"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_stops_the_workers_and_says_how_to_resume(tmp_path: Path, signum: int, command: str) -> None:
    if command == "simulate":
        db = tmp_path / "s.sqlite"
        args = [*BEGINNER, "--games", "100000", "--workers", "2", "--batch-size", "5", "--db", str(db)]
    else:  # the first point's store is the one that fills first
        db = tmp_path / "sw" / "9x9x10-opening-r3c3-s5-best.sqlite"
        args = ["sweep", "--preset", "beginner", "--seed", "5", "--mines", "10,11", "--games", "100000",
                "--workers", "2", "--db", str(tmp_path / "sw")]  # fmt: skip
    proc = _cli(args, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and proc.poll() is None:
        workers = children(proc.pid)
        if len(workers) >= 2 and db.exists() and db.stat().st_size > 0:
            with GameStore(db) as store:
                if len(store):
                    break
        time.sleep(0.05)
    assert proc.poll() is None and workers
    proc.send_signal(signum)  # to the parent only, as `kill PID` does
    try:
        _, err = proc.communicate(timeout=300)  # a hang, not a slow machine
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        raise AssertionError(f"still running 300 s after the signal; stderr: {err}") from None
    assert proc.returncode == 128 + signum, err
    assert "are stored" in err and "run the same command again to resume" in err, err
    assert "Traceback" not in err, err
    deadline = time.monotonic() + 120  # a hang, not a slow machine
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(w) for w in workers)


# --- defect 6: damaged and foreign stores ------------------------------------------------------


def _store_with_games(path: Path) -> Path:
    assert run(*BEGINNER, "--games", "40", "--workers", "1", "--db", path).exit_code == 0
    return path


def test_empty_and_foreign_files_are_refused_not_adopted(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    assert "empty file" in one_line(run(*BEGINNER, "--games", "3", "--db", empty))
    assert empty.stat().st_size == 0
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as con:
        con.execute("CREATE TABLE customers (name TEXT)")
    con.close()
    assert "another program" in one_line(run(*BEGINNER, "--games", "3", "--db", foreign))
    with sqlite3.connect(foreign) as con:
        tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    con.close()
    assert tables == {"customers"}


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        ("DROP TABLE game", "damaged game database (no game table)"),
        ("UPDATE game SET guesses = '[[1' WHERE idx = 3", "bad game row 3"),
        ("UPDATE game SET bbbv = 'many' WHERE idx = 5", "bad game row 5: bbbv"),
    ],
)
def test_a_dropped_table_or_a_bad_row_is_one_line_naming_what_to_do(
    tmp_path: Path, damage: str, expected: str
) -> None:
    db = _store_with_games(tmp_path / "damaged.sqlite")
    with sqlite3.connect(db) as con:
        con.execute(damage)
    con.close()
    for command in ([*BEGINNER, "--games", "50", "--db"], ["report"]):
        line = one_line(run(*command, db))
        assert "damaged.sqlite" in line and expected in line and "move it aside" in line


def test_junk_inside_the_file_is_one_line(tmp_path: Path) -> None:
    db = _store_with_games(tmp_path / "junk.sqlite")
    GameStore(db).close()  # fold the write-ahead log into the file
    data = bytearray(db.read_bytes())
    assert len(data) > 4096
    data[4096:] = os.urandom(len(data) - 4096)  # every page after the first: the tables
    db.write_bytes(bytes(data))
    for w in (db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        w.unlink(missing_ok=True)
    for command in ([*BEGINNER, "--games", "50", "--db"], ["report"]):
        assert "junk.sqlite" in one_line(run(*command, db))


# --- defect 7: schedulers that are not, and two runs on one store ------------------------------


@pytest.fixture
def listener() -> Iterator[tuple[str, socket.socket]]:
    server = socket.create_server(("127.0.0.1", 0))
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}", server
    server.close()


def test_a_silent_listener_times_out(listener: tuple[str, socket.socket]) -> None:
    address, _ = listener
    with pytest.raises(SchedulerError, match=r"did not answer like a Dask scheduler within 0\.5 s"):
        probe_scheduler(address, timeout=0.5)


def test_a_banner_is_not_a_scheduler(tmp_path: Path, listener: tuple[str, socket.socket]) -> None:
    address, server = listener

    def greet() -> None:
        conn, _ = server.accept()
        conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
        time.sleep(1)
        conn.close()

    threading.Thread(target=greet, daemon=True).start()
    line = one_line(run(*BEGINNER, "--games", "3", "--scheduler", address, "--db", tmp_path / "d.sqlite"))
    assert "not like a Dask scheduler" in line


def test_a_second_run_on_the_same_store_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "busy.sqlite"
    with GameStore(db, CONFIG) as store, store.lock():
        line = one_line(run(*BEGINNER, "--games", "3", "--workers", "1", "--db", db))
        assert "another minesat run" in line
        assert len(store) == 0
    assert run(*BEGINNER, "--games", "3", "--workers", "1", "--db", db).exit_code == 0
