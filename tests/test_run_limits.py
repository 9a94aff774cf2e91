"""Issue 50, item 3: ``simulate`` and ``sweep`` stop cleanly at the machine's limits with what is stored.

They have no budget of their own (a run is as long as its ``--games``; a time limit is a signal,
tested in test_cli_simulate_robust.py and test_outputs.py): what stops them is the machine's memory
(a :class:`MemoryError`, or a worker killed by the out-of-memory killer) and its disk (a store with no
room left). Each stops in one line saying how many games are stored and how to resume, exit status
1, and the same command then plays only what is missing. A scheduler that cannot be reached leaves
nothing the command made: no store, no folder.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from click.testing import Result
from typer.testing import CliRunner

import minesat.simulation
from minesat import executors
from minesat.cli import app
from minesat.store import GameStore, StoredGame
from minesat.sweeping import run_sweep
from processes import children, command_line

runner = CliRunner()
BEGINNER = ["--preset", "beginner", "--seed", "3"]
RESUME = "run the same command again to resume"


def run(*args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def stopped(result: Result) -> str:
    """The one line a run stopped at a limit ends with: exit 1, no traceback."""
    assert result.exit_code == 1 and "Traceback" not in result.output, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: ") and lines[0].endswith(RESUME), lines
    return lines[0]


def stored(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT COUNT(*) FROM game").fetchone()[0]


@contextmanager
def failing_after(batches: int, error: BaseException) -> Iterator[None]:
    """Every batch played after the first ``batches`` raises ``error`` (in this process: ``--workers 1``),
    in ``simulate`` and in ``sweep`` (whose module, imported above, keeps the real player)."""
    real = minesat.simulation.play_indices
    count = [0]

    def play(config: object, batch: list[int]) -> list[StoredGame]:
        count[0] += 1
        if count[0] > batches:
            raise error
        return real(config, batch)  # type: ignore[arg-type]

    with mock.patch.object(minesat.simulation, "play_indices", play), \
            mock.patch.dict(run_sweep.__kwdefaults__, batch_fn=play):
        yield


@contextmanager
def disk_full_after(batches: int) -> Iterator[None]:
    """The stores fill their disk after ``batches`` stored batches: SQLite's own "database or disk is
    full", as on a full file system, from a page limit set on the store's file."""
    real = GameStore.add
    count = [0]

    def add(store: GameStore, games: object, session: object = None) -> None:
        count[0] += 1
        if count[0] > batches:
            pages = store._db.execute("PRAGMA page_count").fetchone()[0]
            store._db.execute(f"PRAGMA max_page_count = {pages}")
        real(store, games, session)  # type: ignore[arg-type]

    with mock.patch.object(GameStore, "add", add):
        yield


# --- simulate -----------------------------------------------------------------------------------


def test_simulate_out_of_memory_keeps_what_is_stored_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    args = ["simulate", *BEGINNER, "--games", "40", "--batch-size", "5", "--workers", "1", "--db", db]
    with failing_after(4, MemoryError()):
        line = stopped(run(*args))
    kept = stored(db)
    assert 0 < kept < 40
    assert line == f"minesat: out of memory: {kept} of 40 games are stored in {db}; {RESUME}"
    summary = json.loads(run(*args, "--json").stdout.splitlines()[-1])
    assert (summary["games"], summary["played"]) == (40, 40 - kept)


def test_simulate_with_its_disk_full_keeps_what_is_stored_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    args = ["simulate", *BEGINNER, "--games", "400", "--batch-size", "50", "--workers", "1", "--db", db]
    with disk_full_after(2):
        line = stopped(run(*args))
    kept = stored(db)
    # Whole batches only (the one that found no room left nothing half-stored); a batch may still
    # fit in the pages the file already has, so the limit bites at the third batch or later.
    assert kept % 50 == 0 and 100 <= kept < 400, kept
    assert line == (f"minesat: {db}: no room left to store the games (database or disk is full): {kept} of "
                    f"400 games are stored in {db}; make room on its disk and {RESUME}")
    summary = json.loads(run(*args, "--json").stdout.splitlines()[-1])
    assert (summary["games"], summary["played"]) == (400, 400 - kept)


def test_simulate_with_a_worker_killed_says_so_in_one_line_and_resumes(tmp_path: Path) -> None:
    """The out-of-memory killer's way: one worker of the pool killed outright in the middle of a run."""
    db = tmp_path / "runs.sqlite"
    args = ["simulate", *BEGINNER, "--games", "3000", "--batch-size", "5", "--workers", "2", "--db", str(db)]
    proc = subprocess.Popen([sys.executable, "-m", "minesat", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while proc.poll() is None and time.monotonic() < deadline:
        workers = {pid for pid in children(proc.pid) if "spawn_main" in command_line(pid)}
        if workers and db.exists() and stored(db):
            break
        time.sleep(0.05)
    assert proc.poll() is None and workers, "the run ended before a worker was killed: give it more games"
    subprocess.run(["kill", "-KILL", str(min(workers))], check=True)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1 and "Traceback" not in err, err
    kept = stored(db)
    assert 0 < kept < 3000
    assert err.splitlines()[-1] == (
        "minesat: a worker process ended in the middle of its work (out of memory, or killed): "
        f"{kept} of 3000 games are stored in {db}; {RESUME}"
    )
    assert not any(pid in children(proc.pid) for pid in workers)  # the pool is gone with the run
    with GameStore(db) as store:
        assert store.count(3000) == kept


# --- sweep --------------------------------------------------------------------------------------


@pytest.mark.parametrize("limit", ["memory", "disk"])
def test_sweep_stopped_at_a_limit_keeps_what_is_stored_and_resumes(tmp_path: Path, limit: str) -> None:
    folder = tmp_path / "sweep"
    args = ["sweep", "--size", "6x6", "--mines", "4,6", "--games", "100", "--workers", "1", "--db", folder]
    with failing_after(3, MemoryError()) if limit == "memory" else disk_full_after(1):
        line = stopped(run(*args, "--json"))
    full = "no room left to store the games (database or disk is full)"
    why = "out of memory" if limit == "memory" else full
    assert why in line and line.endswith(f"the games played so far are stored in {folder}; "
                                         f"{'make room on its disk and ' if limit == 'disk' else ''}{RESUME}")
    kept = sum(stored(db) for db in folder.glob("*.sqlite"))
    assert 0 < kept < 200
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    points = json.loads(result.stdout.splitlines()[-1])["points"]
    assert [p["games"] for p in points] == [100, 100]


# --- a scheduler that cannot be reached -----------------------------------------------------------


@pytest.mark.parametrize("scheme", ["tls", "ws"])
@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_a_scheduler_that_cannot_be_used_leaves_nothing_the_command_made(
    tmp_path: Path, command: str, scheme: str
) -> None:
    """``ws://`` to a closed port is found unreachable before anything is made (after the probe's
    time-out, shortened here); ``tls://`` is not looked at before Dask's own client, which fails
    there: what the command made for its games by then (the store, its folders) is removed."""
    pytest.importorskip("dask.distributed", reason="--scheduler needs the dask extra")
    db = tmp_path / "new" / "folders" / ("runs.sqlite" if command == "simulate" else "sweep")
    points = ["--size", "5x5", "--mines", "3"]
    board = [*(BEGINNER if command == "simulate" else points), "--games", "2"]
    with mock.patch.object(executors.check_scheduler, "__defaults__", (0.5,)), \
            mock.patch.object(executors.dask_executor, "__defaults__", (0.5,)):
        result = run(command, *board, "--scheduler", f"{scheme}://127.0.0.1:1", "--db", db)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"minesat: cannot reach the Dask scheduler at {scheme}://"), result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_store_whose_first_batch_finds_no_room_is_left_whole(tmp_path: Path) -> None:
    """The batch's upgrade (the session table a new store gets with its first games) is part of the
    batch's transaction: a disk full at that batch leaves the store as it was, readable, resumable."""
    from minesat.provenance import new_session, player_fingerprint
    from minesat.store import RunConfig, StoreFull

    config = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=0)
    path = tmp_path / "full.sqlite"
    games = [StoredGame(index=i, seed=i, won=True, moves=3, guesses=(), uncovered=71, bbbv=9,
                        seconds=0.1, analyses=1) for i in range(40)]
    with GameStore(path, config) as store:
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(StoreFull, match="no room left to store the games"):
            store.add(games, new_session("best", workers=1))
    with GameStore(path, config) as store:
        assert len(store) == 0 and store.players() == {}
        store.add(games, new_session("best", workers=1))
        assert store.players() == {player_fingerprint("best"): 40}
