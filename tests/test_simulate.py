"""Batch simulation: determinism across executors, resuming, crash safety, the CLI summary."""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import functools
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minesat.board import Cell, Layout, Move
from minesat.cli import app
from minesat.errors import WorkerLost
from minesat.executors import SchedulerError, run_bounded
from minesat.generate import game_seed, generate_layout
from minesat.player import GameRecord, Guess, play_game
from minesat.provenance import new_session, player_fingerprint
from minesat.simulation import Tally, play_indices, run
from minesat.store import GameStore, PlayerMismatchError, RunConfig, StoredGame

BEGINNER = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=11)
SPEC_KEYS = {
    "games",
    "wins",
    "win_rate",
    "ci95",
    "guesses_mean",
    "no_guess_wins",
    "seconds",
    "games_per_second",
}


def outcome(game: StoredGame) -> StoredGame:
    """Everything a game's result promises to repeat: all but the wall time (and who played it,
    which the store records and a game played here does not carry)."""
    return dataclasses.replace(game, seconds=0.0, player=None)


def outcomes(games: Sequence[StoredGame] | GameStore) -> list[StoredGame]:
    return [outcome(g) for g in games]


def reference(config: RunConfig, games: int) -> list[StoredGame]:
    """The run played one game at a time in this process, straight from the player."""
    return play_indices(config, range(games))


# --- one batch -----------------------------------------------------------------------


def test_play_indices_plays_the_seeded_layouts() -> None:
    games = play_indices(BEGINNER, [5, 0, 3])
    assert [g.index for g in games] == [5, 0, 3]
    for g in games:
        seed = game_seed(9, 9, 10, rule="opening", start=(3, 3), seed=11, index=g.index)
        assert g.seed == seed
        layout = generate_layout(9, 9, 10, start=(3, 3), rule="opening", seed=seed)
        record = play_game(layout, (3, 3), rule="opening")
        assert outcome(g) == outcome(StoredGame.from_record(g.index, seed, record))


def test_a_game_does_not_depend_on_its_batch() -> None:
    alone = [play_indices(BEGINNER, [i])[0] for i in range(8)]
    together = play_indices(BEGINNER, range(8))
    assert outcomes(alone) == outcomes(together)


# --- executors -----------------------------------------------------------------------


def test_one_and_two_workers_give_identical_games(tmp_path: Path) -> None:
    summaries = {}
    stored = {}
    for workers in (1, 2):
        with GameStore(tmp_path / f"w{workers}.sqlite", BEGINNER) as store:
            summaries[workers] = run(BEGINNER, 40, workers=workers, store=store, batch_size=3)
            stored[workers] = outcomes(store)
    assert stored[1] == stored[2] == outcomes(reference(BEGINNER, 40))
    for key in ("games", "wins", "win_rate", "ci95", "guesses_mean", "no_guess_wins"):
        assert summaries[1][key] == summaries[2][key]
    assert summaries[2]["workers"] == 2


def test_without_a_store_the_summary_comes_from_the_results() -> None:
    games = reference(BEGINNER, 30)
    summary = run(BEGINNER, 30, workers=2)
    assert summary["games"] == summary["played"] == 30
    assert summary["wins"] == sum(g.won for g in games)
    assert summary["guesses_mean"] == pytest.approx(sum(len(g.guesses) for g in games) / 30)
    assert summary["db"] is None


def test_a_dask_cluster_gives_the_local_results(tmp_path: Path) -> None:
    # The test extra installs dask: a missing install must fail here, not skip.
    import dask.distributed as distributed

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        GameStore(tmp_path / "dask.sqlite", BEGINNER) as store,
    ):
        summary = run(BEGINNER, 40, scheduler=cluster.scheduler_address, store=store, batch_size=4)
        assert outcomes(store) == outcomes(reference(BEGINNER, 40))
        # Each batch came back with its worker's player, recorded with the games.
        assert store.players() == {player_fingerprint(BEGINNER.strategy): 40}
        assert [s.workers for s in store.sessions()] == [cluster.scheduler_address]
        # A worker whose minesat is other code: its batches are refused, none stored.
        with distributed.Client(cluster.scheduler_address) as client:
            client.run(_other_code)
        with pytest.raises(PlayerMismatchError, match="eeeeeeeeeeee"):
            run(BEGINNER, 48, scheduler=cluster.scheduler_address, store=store, batch_size=4)
        assert len(store) == 40
    assert summary["scheduler"] == cluster.scheduler_address
    assert summary["games"] == 40


def _other_code() -> None:
    """Run in a Dask worker: its minesat now fingerprints as another player's."""
    import minesat.simulation

    minesat.simulation.player_fingerprint = lambda strategy: "e" * 64  # type: ignore[assignment]


def test_missing_dask_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import now fails
    with pytest.raises(SchedulerError, match=r"minesat\[dask\]"):
        run(BEGINNER, 5, scheduler="tcp://127.0.0.1:1")


# --- memory stays flat ---------------------------------------------------------------


def _counting_batch(config: RunConfig, indices: Sequence[int]) -> list[StoredGame]:
    """A stand-in player: instant, so plumbing tests need no real games."""
    return [StoredGame(i, i, bool(i % 2), 1, (), 1, 1, 0.0) for i in indices]


class _Stop(Exception):
    pass


@pytest.mark.parametrize("with_store", [False, True])
def test_indices_are_drawn_lazily(tmp_path: Path, with_store: bool) -> None:
    """A run of 10**12 games starts at once: neither indices nor results are materialised."""
    calls = []

    def stop_after_three_batches(played: int, to_play: int, tally: Tally) -> None:
        calls.append((played, to_play))
        if len(calls) == 4:
            raise _Stop

    store = GameStore(tmp_path / "huge.sqlite", BEGINNER) if with_store else None
    with pytest.raises(_Stop):
        run(
            BEGINNER,
            10**12,
            workers=1,
            store=store,
            batch_size=10,
            batch_fn=_counting_batch,
            progress=stop_after_three_batches,
        )
    assert calls == [(0, 10**12), (10, 10**12), (20, 10**12), (30, 10**12)]
    if store is not None:
        assert len(store) == 30  # every finished batch was committed before the failure
        store.close()


def test_batches_in_flight_are_bounded() -> None:
    """However many batches there are, at most ``in_flight`` futures exist at once."""

    class Recording(cf.ThreadPoolExecutor):
        def __init__(self) -> None:
            super().__init__(max_workers=2)
            self.live: set[cf.Future] = set()
            self.most = 0

        def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
            future = super().submit(fn, *args, **kwargs)
            self.live.add(future)
            self.most = max(self.most, sum(1 for f in self.live if not f.done()))
            future.add_done_callback(self.live.discard)
            return future

    executor = Recording()
    calls = ((i, _counting_batch, (BEGINNER, [i, i + 1])) for i in range(0, 2000, 2))
    seen = []
    for first, batch in run_bounded(executor, calls, 3):
        assert [g.index for g in batch] == [first, first + 1]  # each result comes with its own tag
        seen += [g.index for g in batch]
    executor.shutdown()
    assert sorted(seen) == list(range(2000))
    assert executor.most <= 3


def test_a_pool_broken_between_two_calls_is_a_lost_worker() -> None:
    """A worker killed after the last results were taken and before the next call is submitted:
    the pool refuses the call (BrokenProcessPool from submit, not from a future), and that is
    the one-line WorkerLost a loss in flight gives, not a traceback."""

    class Broken(cf.ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
            raise BrokenProcessPool("A child process terminated abruptly")

    calls = iter([(0, _counting_batch, (BEGINNER, [0]))])
    with Broken(max_workers=1) as executor, pytest.raises(WorkerLost, match="a worker process ended"):
        list(run_bounded(executor, calls, 2))


# --- resuming --------------------------------------------------------------------------


def test_resume_plays_only_the_missing_games(tmp_path: Path) -> None:
    path = tmp_path / "run.sqlite"
    with GameStore(path, BEGINNER) as store:
        first = run(BEGINNER, 30, workers=2, store=store, batch_size=4)
    assert first["played"] == 30
    with GameStore(path, BEGINNER) as store:
        second = run(BEGINNER, 50, workers=2, store=store, batch_size=4)
        assert second["played"] == 20
        assert second["games"] == 50
        assert outcomes(store) == outcomes(reference(BEGINNER, 50))
        again = run(BEGINNER, 50, workers=2, store=store)
        assert again["played"] == 0 and again["games_per_second"] == 0.0
        # Asking fewer games than stored summarises exactly the games asked for.
        fewer = run(BEGINNER, 10, workers=1, store=store)
        assert fewer["games"] == 10 and fewer["played"] == 0
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*), COUNT(DISTINCT idx) FROM game").fetchone() == (50, 50)


def test_resume_fills_holes(tmp_path: Path) -> None:
    with GameStore(tmp_path / "run.sqlite", BEGINNER) as store:
        store.add(play_indices(BEGINNER, [0, 3, 4, 9]), new_session(BEGINNER.strategy, 1))
        summary = run(BEGINNER, 12, workers=1, store=store)
        assert summary["played"] == 8
        assert outcomes(store) == outcomes(reference(BEGINNER, 12))


def test_a_store_of_another_run_is_refused(tmp_path: Path) -> None:
    with GameStore(tmp_path / "run.sqlite", BEGINNER) as store:
        other = dataclasses.replace(BEGINNER, seed=12)
        with pytest.raises(ValueError, match="holds"):
            run(other, 5, workers=1, store=store)
        assert len(store) == 0


def test_bad_configurations_are_refused() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        run(dataclasses.replace(BEGINNER, mines=73), 1, workers=1)
    with pytest.raises(ValueError, match="unknown strategy"):
        run(dataclasses.replace(BEGINNER, strategy="psychic"), 1, workers=1)


# --- the command line ---------------------------------------------------------------------

BEGINNER_ARGS = ["simulate", "--preset", "beginner", "--seed", "11"]


def invoke(args: list[str]):
    return CliRunner().invoke(app, args)


def test_cli_json_summary(tmp_path: Path) -> None:
    db = tmp_path / "cli.sqlite"
    result = invoke([*BEGINNER_ARGS, "--games", "25", "--workers", "1", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary.keys() >= SPEC_KEYS
    assert summary["games"] == 25
    assert summary["start"] == [3, 3] and summary["first_click"] == "opening"
    # Seeds are digits, as in every JSON minesat prints: JSON readers round integers past 2^53.
    assert summary["seed"] == str(BEGINNER.seed) and summary["config"]["seed"] == str(BEGINNER.seed)
    assert f'"seed": "{BEGINNER.seed}"' in result.stdout
    lo, hi = summary["ci95"]
    assert 0 <= lo <= summary["win_rate"] <= hi <= 1
    games = reference(BEGINNER, 25)
    assert summary["wins"] == sum(g.won for g in games)
    assert summary["no_guess_wins"] == sum(g.won and not g.guesses for g in games)
    with GameStore(db) as store:
        assert store.config == BEGINNER
        assert outcomes(store) == outcomes(games)


def test_cli_text_summary_and_default_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(
        [
            "simulate",
            "--rows",
            "5",
            "--cols",
            "6",
            "--mines",
            "4",
            "--games",
            "6",
            "--workers",
            "1",
            "--first-click",
            "safe",
        ]
    )
    assert result.exit_code == 0, result.output
    assert "win rate" in result.stdout
    # --start defaults to 3,3, clipped to the board; the database goes under reports/.
    db = tmp_path / "reports" / "5x6x4-safe-r3c3-s0.sqlite"
    with GameStore(db) as store:
        assert store.config.start == (3, 3) and len(store) == 6
    result = invoke(
        ["simulate", "--rows", "2", "--cols", "9", "--mines", "3", "--games", "2", "--workers", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["start"] == [1, 3]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--preset", "huge"], "unknown preset"),
        (["--rows", "9", "--cols", "9"], "--mines"),
        (["--preset", "beginner", "--rows", "9"], "not both"),
        (["--rows", "4", "--cols", "4", "--mines", "13"], "do not fit"),
        (["--preset", "beginner", "--start", "3;3"], "--start"),
        (["--preset", "beginner", "--start", "9,0"], "off the 9x9 board"),
        (["--preset", "beginner", "--first-click", "lucky"], "--first-click"),
        (["--preset", "beginner", "--strategy", "psychic"], "unknown strategy"),
        (["--preset", "beginner", "--workers", "0"], "--workers"),
    ],
)
def test_cli_bad_options(tmp_path: Path, args: list[str], message: str) -> None:
    result = invoke(["simulate", *args, "--games", "3", "--db", str(tmp_path / "x.sqlite")])
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_cli_refuses_a_database_of_another_run(tmp_path: Path) -> None:
    db = str(tmp_path / "run.sqlite")
    assert invoke([*BEGINNER_ARGS, "--games", "5", "--workers", "1", "--db", db]).exit_code == 0
    result = invoke(
        ["simulate", "--preset", "beginner", "--seed", "12", "--games", "5", "--workers", "1", "--db", db]
    )
    assert result.exit_code == 2
    assert "holds a different run" in result.stderr and "seed 11 (asked 12)" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    with GameStore(db) as store:
        assert store.config.seed == 11 and len(store) == 5


def test_cli_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.sqlite"
    bogus.write_text("not sqlite\n" * 200)
    result = invoke([*BEGINNER_ARGS, "--games", "5", "--db", str(bogus)])
    assert result.exit_code == 2
    assert "not usable as a game database" in result.stderr


def _cli(args: list[str], **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", "from minesat.cli import main; main()", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def _stored(db: Path) -> int:
    if not db.exists():  # sqlite3.connect would create it empty, and the run refuses empty files
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return con.execute("SELECT COUNT(*) FROM game").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


def test_sigkill_loses_only_games_in_flight(tmp_path: Path) -> None:
    """Kill a CLI run (and its workers) at a random moment; rerunning completes it exactly.
    1200 games, killed within 0.25 s of the first batch stored (benchmarks/heavy: 2400, 0.5 s)."""
    kill_a_run_and_finish_it(tmp_path, 1200, 0.25)


def kill_a_run_and_finish_it(tmp_path: Path, games: int, within: float) -> None:
    # Enough games that the run outlasts the kill's random delay (beginner games
    # take about a millisecond each, two workers play them).
    db = tmp_path / "killed.sqlite"
    args = [
        *BEGINNER_ARGS,
        "--games",
        str(games),
        "--workers",
        "2",
        "--batch-size",
        "5",
        "--db",
        str(db),
        "--json",
    ]
    # A new session, so the kill reaches the pool's workers too, as a real crash would.
    proc = _cli(args, start_new_session=True)
    deadline = time.monotonic() + 120
    while _stored(db) == 0 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    delay = random.uniform(0.0, within)
    time.sleep(delay)
    assert proc.poll() is None, "the run ended before the kill: give it more games"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL

    with GameStore(db) as store:  # what survived the kill is intact and consistent
        survivors = outcomes(store)
    rerun = _cli(args)
    out, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["games"] == games
    assert summary["played"] == games - len(survivors), f"killed {delay:.3f}s after the first batch"
    assert 0 < len(survivors) < games
    with sqlite3.connect(db) as con:
        counts = con.execute("SELECT COUNT(*), COUNT(DISTINCT idx) FROM game").fetchone()
    assert counts == (games, games)
    with GameStore(db) as store:
        stored = outcomes(store)
    expected = outcomes(reference(BEGINNER, games))
    assert stored == expected
    assert all(g in expected for g in survivors)


def _guess_first(layout: Layout, start: Cell, rule: str, strategy: str) -> GameRecord:
    """A stand-in player that loses every game on one guess: checks the plumbing of losses."""
    d4, a1 = Move.parse("D4"), Move.parse("A1")
    return GameRecord(False, (d4, a1), (Guess(a1, 0.25),), 5, layout.bbbv(), 0.0)


def test_losses_are_summarised() -> None:
    batch = functools.partial(play_indices, play=_guess_first)
    summary = run(BEGINNER, 20, workers=2, batch_fn=batch)
    assert summary["wins"] == 0 and summary["losses"] == 20
    assert summary["guesses_mean"] == 1.0
    assert summary["fatal_guess_probability_mean"] == 0.25
