"""Where the served games live: a SQLite store, the games being played also in memory.

Every change to a game is written before its answer leaves (:meth:`GameKeeper.save`), so a
restart, or ``SIGTERM``, loses no game: its maker moves on where they left off. A second
server on the same store is refused (:class:`StoreInUse`): the store is held in SQLite's
exclusive locking mode for the server's life, and the lock goes with the process.

What bounds the store (docs/commands/serve.md, "Games kept"):

- each client holds at most :data:`CLIENT_GAMES` games; at the bound, its own games never
  moved in go first, then its own finished games, oldest first; past that, 429;
- new games are made at most :data:`NEW_GAMES_RATE` a second, server-wide (429 past it);
- at most :data:`STORED_GAMES` games in all: past it, games never moved in go first, then
  finished games, oldest first; a game in progress (moved in) is never dropped for another
  client's game: past that, 429;
- retention: a finished game is kept :data:`FINISHED_DAYS` days after its end, a game never
  moved in :data:`UNMOVED_DAYS` day, a game in progress :data:`IDLE_DAYS` days after its last
  move.

Memory holds at most :data:`LIVE_GAMES` of them (the least recently used leave memory, not
the store).

>>> from minesat.web.games import GameSession
>>> keeper = GameKeeper(None)
>>> game = GameSession(9, 9, 10, seed=1)
>>> game.owner = "someone"
>>> keeper.add(game)
>>> _ = game.play("E5"); keeper.save(game)
>>> keeper.forget_live()  # as after a restart: only the store is left
>>> again = keeper.get(game.id)
>>> again is not game, again.state()["cells"] == game.state()["cells"], again.owner
(True, True, 'someone')
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from minesat.web.games import GameSession
from minesat.web.guard import Bucket

__all__ = [
    "CLIENT_GAMES",
    "FINISHED_DAYS",
    "IDLE_DAYS",
    "LIVE_GAMES",
    "NEW_GAMES_BURST",
    "NEW_GAMES_RATE",
    "STORED_GAMES",
    "UNMOVED_DAYS",
    "GameKeeper",
    "StoreInUse",
    "StoreUnreadable",
    "TooMany",
]

#: Games one client may hold (made or copied by it, and not yet dropped).
CLIENT_GAMES = 500

#: Games the store holds at most.
STORED_GAMES = 20_000

#: New games a second, server-wide, and how many at once after a pause.
NEW_GAMES_RATE = 20.0
NEW_GAMES_BURST = 200

#: Days a finished game is kept after its end (its link opens it, its review with it).
FINISHED_DAYS = 30

#: Days a game never moved in is kept after it was made.
UNMOVED_DAYS = 1

#: Days a game in progress is kept after its last move.
IDLE_DAYS = 90

#: Games kept in memory, the least recently used leaving it first (they stay in the store). One
#: used in the last :data:`LIVE_SECONDS` stays however many there are: a request may still hold it.
LIVE_GAMES = 200
LIVE_SECONDS = 30.0

#: The retention rule runs at most this often (seconds), when games are added.
PURGE_EVERY = 60.0

_DAY = 86_400.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    made REAL NOT NULL,      -- when it was made (seconds since the epoch)
    moved REAL NOT NULL,     -- its last move (or when it was made)
    moves INTEGER NOT NULL,  -- moves played (flags before the first uncover included)
    status TEXT NOT NULL,    -- playing, won, lost
    ended REAL,              -- when it ended
    data TEXT NOT NULL       -- GameSession.record() but its log and moves, as JSON: its secrets too
);
CREATE INDEX IF NOT EXISTS games_owner ON games (owner, status, moves);
-- A game's log and judged moves, a line each as they come (they only grow): a move of a long game
-- writes its own lines, not the game again.
CREATE TABLE IF NOT EXISTS lines (
    game TEXT NOT NULL,
    kind TEXT NOT NULL,      -- log, move
    n INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game, kind, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

#: What the store says it is, so that another SQLite file is not taken for one.
_KIND = "minesat serve games"


class StoreInUse(Exception):
    """Another server holds the store."""


class StoreUnreadable(Exception):
    """The file is not a store of served games (or cannot be opened)."""


class TooMany(Exception):
    """A limit of the module docstring: the one line the client is told (429)."""


class GameKeeper:
    """The store at ``path`` (``None``: in memory, gone with the server), with the limits of the
    module docstring; ``clock`` reads the wall clock (seconds since the epoch)."""

    def __init__(
        self,
        path: str | Path | None,
        *,
        live: int = LIVE_GAMES,
        client_games: int = CLIENT_GAMES,
        stored: int = STORED_GAMES,
        new_rate: float = NEW_GAMES_RATE,
        new_burst: int = NEW_GAMES_BURST,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = ":memory:" if path is None else str(path)
        self.live_limit, self.client_games, self.stored = live, client_games, stored
        self.clock = clock
        self.new_games = Bucket(new_rate, new_burst, clock)
        self.live: OrderedDict[str, tuple[GameSession, float]] = OrderedDict()
        #: The lines of its log and its judged moves the store holds, by game (:meth:`save`).
        self.written: dict[str, tuple[int, int]] = {}
        self._lock = threading.RLock()
        self._purged = 0.0
        self.db = _open(self.path)
        self.purge()

    # --- the games ---------------------------------------------------------------------------

    def add(self, game: GameSession) -> None:
        """Keep a new game (its ``owner`` set), within the limits; :class:`TooMany` past them."""
        with self._lock:
            if not self.new_games.take():
                raise TooMany("too many new games on this server just now: try again in a moment")
            if self.clock() - self._purged > PURGE_EVERY:
                self.purge()
            held = self._count("owner = ?", game.owner)
            over = held - self.client_games + 1
            if over > 0 and not self._drop(over, "owner = ? AND", game.owner):
                raise TooMany(f"you hold {held} games on this server, the most one player may: finish one "
                              "of those in progress first")
            total = self._count("1")
            if total >= self.stored and not self._drop(total - self.stored + 1, ""):
                raise TooMany(f"the server holds {total} games in progress, its most: try again later")
            self._write(game, insert=True)
            self._remember(game)

    def get(self, game_id: str) -> GameSession:
        """The game, from memory or the store; :class:`KeyError` for an unknown (or dropped) id."""
        with self._lock:
            held = self.live.get(game_id)
            if held is not None:
                self.live[game_id] = (held[0], time.monotonic())
                self.live.move_to_end(game_id)
                return held[0]
            row = self.db.execute("SELECT data FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise KeyError(game_id)
            record = json.loads(row[0])
            for kind, key in (("log", "log"), ("move", "moves")):
                record[key] = [json.loads(line) for (line,) in self.db.execute(
                    "SELECT data FROM lines WHERE game = ? AND kind = ? ORDER BY n", (game_id, kind))]
            game = GameSession.restore(record)
            self.written[game_id] = (len(record["log"]), len(record["moves"]))
            self._remember(game)
            return game

    def save(self, game: GameSession) -> None:
        """Write the game as it is now (after each change, before the answer is sent)."""
        with self._lock:
            self._write(game, insert=False)

    def discard(self, game_id: str) -> None:
        with self._lock:
            self.db.execute("DELETE FROM games WHERE id = ?", (game_id,))
            self.live.pop(game_id, None)

    def __len__(self) -> int:
        with self._lock:
            return self._count("1")

    def __contains__(self, game_id: object) -> bool:
        with self._lock:
            return self.db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None

    def forget_live(self) -> None:
        """Let every game leave memory (they stay in the store)."""
        with self._lock:
            self.live.clear()

    def purge(self) -> int:
        """The retention rule of the module docstring: the games dropped."""
        with self._lock:
            now = self._purged = self.clock()
            doomed = [row[0] for row in self.db.execute(
                "SELECT id FROM games WHERE (status != 'playing' AND ended < ?) "
                "OR (status = 'playing' AND moves = 0 AND made < ?) "
                "OR (status = 'playing' AND moves > 0 AND moved < ?)",
                (now - FINISHED_DAYS * _DAY, now - UNMOVED_DAYS * _DAY, now - IDLE_DAYS * _DAY),
            )]
            self._delete(doomed)
            return len(doomed)

    def close(self) -> None:
        with self._lock:
            self.db.close()

    # --- inside ------------------------------------------------------------------------------

    def _count(self, where: str, *args: Any) -> int:
        return int(self.db.execute(f"SELECT COUNT(*) FROM games WHERE {where}", args).fetchone()[0])

    def _drop(self, wanted: int, where: str, *args: Any) -> bool:
        """Drop ``wanted`` games (of those ``where`` picks): never moved in first, then finished,
        oldest first; never one in progress. Whether that many went."""
        doomed = [row[0] for row in self.db.execute(
            f"SELECT id FROM games WHERE {where} (moves = 0 AND status = 'playing') ORDER BY made LIMIT ?",
            (*args, wanted),
        )]
        if len(doomed) < wanted:
            doomed += [row[0] for row in self.db.execute(
                f"SELECT id FROM games WHERE {where} status != 'playing' ORDER BY ended LIMIT ?",
                (*args, wanted - len(doomed)),
            )]
        if len(doomed) < wanted:
            return False
        self._delete(doomed)
        return True

    def _delete(self, ids: list[str]) -> None:
        for game_id in ids:
            self.live.pop(game_id, None)
            self.written.pop(game_id, None)
        self.db.executemany("DELETE FROM games WHERE id = ?", [(i,) for i in ids])
        self.db.executemany("DELETE FROM lines WHERE game = ?", [(i,) for i in ids])

    def _write(self, game: GameSession, insert: bool) -> None:
        """The game's header, and the lines of its log and moves the store does not hold yet."""
        done = (0, 0) if insert else self.written.get(game.id, (0, 0))
        record = game.record(done)
        log, moves = record.pop("log"), record.pop("moves")
        status = game.reviewer.game.status.value if game.reviewer is not None else "playing"
        ended = None if status == "playing" else game.moved_at
        values = (game.owner, record["made_at"], record["moved_at"], done[0] + len(log), status, ended,
                  json.dumps(record, separators=(",", ":")), game.id)
        lines = [(game.id, "log", done[0] + k, json.dumps(line, separators=(",", ":")))
                 for k, line in enumerate(log)]
        lines += [(game.id, "move", done[1] + k, json.dumps(line, separators=(",", ":")))
                  for k, line in enumerate(moves)]
        self.db.execute("BEGIN")
        try:
            self.db.executemany("INSERT OR REPLACE INTO lines (game, kind, n, data) VALUES (?, ?, ?, ?)",
                                lines)
            self._header(values, insert)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.written[game.id] = (done[0] + len(log), done[1] + len(moves))

    def _header(self, values: tuple[Any, ...], insert: bool) -> None:
        if insert:
            self.db.execute("INSERT INTO games (owner, made, moved, moves, status, ended, data, id) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", values)
        else:
            self.db.execute("UPDATE games SET owner = ?, made = ?, moved = ?, moves = ?, status = ?, "
                            "ended = ?, data = ? WHERE id = ?", values)

    def _remember(self, game: GameSession) -> None:
        now = time.monotonic()
        self.live[game.id] = (game, now)
        self.live.move_to_end(game.id)
        while len(self.live) > self.live_limit:
            oldest, (_, used) = next(iter(self.live.items()))
            if now - used < LIVE_SECONDS:
                break  # still in use, perhaps: memory may hold more for a while
            del self.live[oldest]


def _open(path: str) -> sqlite3.Connection:
    """The store at ``path``, made if new, and held: :class:`StoreInUse` when another server holds it."""
    try:
        db = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as err:
        raise StoreUnreadable(f"{path}: cannot open it ({err})") from None
    try:
        # Held for the connection's life: a second server's first read fails at once.
        db.execute("PRAGMA locking_mode = EXCLUSIVE")
        db.execute("BEGIN EXCLUSIVE")
        kind = None
        has_meta = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone()
        tables = db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]
        if has_meta:
            row = db.execute("SELECT value FROM meta WHERE key = 'kind'").fetchone()
            kind = row and row[0]
        if tables and kind != _KIND:
            db.execute("ROLLBACK")
            db.close()
            raise StoreUnreadable(f"{path} is not a store of minesat serve's games: give another --db")
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('kind', ?)", (_KIND,))
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
    except sqlite3.OperationalError as err:
        db.close()
        if "locked" in str(err) or "busy" in str(err):
            raise StoreInUse(f"{path} is in use by another minesat serve (one server per --db)") from None
        raise StoreUnreadable(f"{path}: {err}") from None
    except sqlite3.DatabaseError as err:
        db.close()
        raise StoreUnreadable(f"{path} is not a store of minesat serve's games ({err}): give another --db") \
            from None
    return db
