"""The SQLite game store: round trips, no duplicates, one configuration per file, streaming."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from minesat.board import Move
from minesat.player import GameRecord, Guess
from minesat.store import ConfigMismatchError, GameStore, RunConfig, StoreBusyError, StoredGame, StoreError

CONFIG = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=7)


def game(index: int, *, won: bool = True, guesses: tuple[Guess, ...] = ()) -> StoredGame:
    return StoredGame(
        index=index,
        seed=1000 + index,
        won=won,
        moves=5 + index,
        guesses=guesses,
        uncovered=71 if won else 20,
        bbbv=12,
        seconds=0.5,
        analyses=3,
    )


def test_round_trip(tmp_path: Path) -> None:
    games = [
        game(0),
        game(1, won=False, guesses=(Guess(Move.parse("A1"), 0.125), Guess(Move.parse("C7"), 1 / 3))),
        game(2, guesses=(Guess(Move.parse("I9"), 0.0625),)),
    ]
    with GameStore(tmp_path / "run.sqlite", CONFIG) as store:
        store.add(games)
        assert list(store) == games
        assert len(store) == 3
    with GameStore(tmp_path / "run.sqlite") as store:
        assert store.config == CONFIG
        assert list(store) == games  # probabilities survive JSON exactly


def test_from_record_keeps_everything_but_the_move_list() -> None:
    record = GameRecord(
        won=False,
        moves=("D4", "A1", "B2"),
        guesses=(Guess(Move.parse("B2"), 0.4),),
        uncovered=9,
        bbbv=14,
        seconds=0.25,
        analyses=2,
    )
    stored = StoredGame.from_record(17, 99, record)
    assert stored == StoredGame(
        index=17,
        seed=99,
        won=False,
        moves=3,
        guesses=(Guess(Move.parse("B2"), 0.4),),
        uncovered=9,
        bbbv=14,
        seconds=0.25,
        analyses=2,
    )
    assert stored.fatal_guess == record.fatal_guess == 1


def test_derived_properties() -> None:
    lost = game(0, won=False, guesses=(Guess(Move.parse("A1"), 0.5), Guess(Move.parse("A2"), 0.25)))
    assert lost.fatal_guess == 2
    assert not lost.no_guess_win
    assert lost.survival == pytest.approx(0.375)
    assert game(1).fatal_guess is None
    assert game(1).no_guess_win
    assert not game(2, guesses=(Guess(Move.parse("A1"), 0.1),)).no_guess_win


def test_nothing_is_stored_twice(tmp_path: Path) -> None:
    with GameStore(tmp_path / "run.sqlite", CONFIG) as store:
        store.add([game(0), game(1)])
        # A second copy of game 1 (say, replayed after a crash) leaves the first untouched.
        store.add([game(1, won=False), game(2)])
        assert [g.index for g in store] == [0, 1, 2]
        assert next(g for g in store if g.index == 1).won


def test_add_is_one_transaction(tmp_path: Path) -> None:
    path = tmp_path / "run.sqlite"

    def games_then_crash():
        yield game(0)
        yield game(1)
        raise RuntimeError("worker died")

    with GameStore(path, CONFIG) as store:
        with pytest.raises(RuntimeError):
            store.add(games_then_crash())
        assert len(store) == 0  # all or nothing


def test_stores_in_wal_mode(tmp_path: Path) -> None:
    with GameStore(tmp_path / "run.sqlite", CONFIG):
        pass
    with sqlite3.connect(tmp_path / "run.sqlite") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_different_configuration_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.sqlite"
    with GameStore(path, CONFIG) as store:
        store.add([game(0)])
    other = RunConfig(rows=9, cols=9, mines=10, rule="safe", start=(3, 3), seed=8)
    with pytest.raises(ConfigMismatchError) as info:
        GameStore(path, other)
    message = str(info.value)
    assert "rule opening (asked safe)" in message and "seed 7 (asked 8)" in message
    assert "\n" not in message
    with GameStore(path, CONFIG) as store:  # the same configuration reopens fine
        assert len(store) == 1


def test_strategy_is_part_of_the_configuration(tmp_path: Path) -> None:
    path = tmp_path / "run.sqlite"
    GameStore(path, CONFIG).close()
    with pytest.raises(ConfigMismatchError):
        GameStore(path, RunConfig(9, 9, 10, rule="opening", start=(3, 3), seed=7, strategy="safest-rowmajor"))


def test_opening_needs_an_existing_store(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        GameStore(tmp_path / "none.sqlite")
    assert not (tmp_path / "none.sqlite").exists()


def test_other_files_are_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.sqlite"
    text.write_text("hello, not a database\n" * 100)
    with pytest.raises(StoreError, match="not usable as a game database"):
        GameStore(text, CONFIG)
    empty = tmp_path / "other.sqlite"
    sqlite3.connect(empty).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(StoreError, match="not a minesat game database"):
        GameStore(empty)


def test_missing_indices_in_chunks(tmp_path: Path) -> None:
    with GameStore(tmp_path / "run.sqlite", CONFIG) as store:
        store.add(game(i) for i in (0, 1, 2, 5, 9, 10, 40))
        assert list(store.missing(12, chunk=4)) == [3, 4, 6, 7, 8, 11]
        assert list(store.missing(3, chunk=4)) == []
        assert store.count(10) == 5
        assert store.done_indices(2, 10) == {2, 5, 9}
        assert store.is_done(40) and not store.is_done(41)
        assert [g.index for g in store.games(10)] == [0, 1, 2, 5, 9]


def test_missing_is_lazy_while_games_are_added(tmp_path: Path) -> None:
    """Games added while the missing indices are being drawn do not disturb the iteration."""
    with GameStore(tmp_path / "run.sqlite", CONFIG) as store:
        todo = store.missing(10**12, chunk=8)  # would never finish if materialised
        first = [next(todo) for _ in range(20)]
        store.add(game(i) for i in first)
        assert first == list(range(20))
        assert next(todo) == 20
        assert len(store) == 20


def test_empty_and_foreign_files_are_refused_and_left_alone(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    with pytest.raises(StoreError, match="an empty file"):
        GameStore(empty, CONFIG)
    assert empty.stat().st_size == 0
    foreign = tmp_path / "foreign.sqlite"
    sqlite3.connect(foreign).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(StoreError, match="another program"):
        GameStore(foreign, CONFIG)
    con = sqlite3.connect(foreign)
    assert [n for (n,) in con.execute("SELECT name FROM sqlite_master")] == ["t"]
    con.close()


def test_a_bad_row_is_a_store_error_naming_the_row(tmp_path: Path) -> None:
    path = tmp_path / "run.sqlite"
    with GameStore(path, CONFIG) as store:
        store.add(game(i) for i in range(3))
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE game SET bbbv = 'many' WHERE idx = 1")
    con.close()
    with GameStore(path) as store, pytest.raises(StoreError, match="bad game row 1: bbbv"):
        list(store)


def test_one_run_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "run.sqlite"
    with GameStore(path, CONFIG) as first, GameStore(path, CONFIG) as second:
        with first.lock(), pytest.raises(StoreBusyError), second.lock():
            pass
        with second.lock():  # released when the first run ended
            pass


def test_searches_cut_round_trips_and_old_stores_read_zero(tmp_path) -> None:
    import sqlite3

    from minesat.player import GameRecord
    from minesat.store import GameStore, RunConfig, StoredGame

    config = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=0)
    record = GameRecord(won=True, moves=("D4",), guesses=(), uncovered=71, bbbv=9, seconds=0.1,
                        analyses=3, searches_cut=2)
    path = tmp_path / "new.sqlite"
    with GameStore(path, config) as store:
        store.add([StoredGame.from_record(0, 1, record)])
        assert next(store.games()).searches_cut == 2
    # A store made before the column existed: rebuild the game table without it.
    old = tmp_path / "old.sqlite"
    with GameStore(old, config) as store:
        store.add([StoredGame.from_record(0, 1, record)])
    with sqlite3.connect(old) as db:
        db.execute("CREATE TABLE g2 AS SELECT idx, seed, won, moves, guess_count, guesses, uncovered, "
                   "bbbv, seconds, analyses FROM game")
        db.execute("DROP TABLE game")
        db.execute("ALTER TABLE g2 RENAME TO game")
    with GameStore(old, config) as store:
        assert next(store.games()).searches_cut == 0
        store.add([StoredGame.from_record(1, 2, record)])  # written in the old shape
        assert [g.index for g in store.games()] == [0, 1]
