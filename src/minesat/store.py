"""The SQLite store of a simulation run: its configuration and one row per finished game.

A store holds exactly one run configuration; games are keyed by their index in
the run, so re-running the same command resumes instead of repeating, and a
game is never stored twice. Moves are not stored: game *i* is reproducible
from its seed (``minesat solve``), only its outcome is kept.

>>> import tempfile, os
>>> from minesat.board import Move
>>> from minesat.player import GameRecord, Guess
>>> config = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=0)
>>> path = os.path.join(tempfile.mkdtemp(), "run.sqlite")
>>> d4, a1 = Move.parse("D4"), Move.parse("A1")
>>> record = GameRecord(won=False, moves=(d4, a1), guesses=(Guess(a1, 0.25),),
...                     uncovered=30, bbbv=12, seconds=0.01)
>>> with GameStore(path, config) as store:
...     store.add([StoredGame.from_record(0, 1234, record)])
...     store.add([StoredGame.from_record(0, 1234, record)])  # ignored: already stored
...     len(store), next(iter(store)).fatal_guess
(1, 1)
>>> GameStore(path).config == config
True
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import KW_ONLY, MISSING, asdict, dataclass, fields
from pathlib import Path
from types import TracebackType
from typing import Any

from minesat.board import Cell, Move, as_cell
from minesat.errors import InvalidValue, StoreError, one_line
from minesat.generate import BoardSpec, FirstClick
from minesat.player import DEFAULT_STRATEGY, GameRecord, Guess
from minesat.provenance import Session, run_provenance
from minesat.provenance import now as _now

__all__ = [
    "ANY_PLAYER",
    "SCHEMA_VERSION",
    "ConfigMismatchError",
    "GameStore",
    "PlayerMismatchError",
    "RunConfig",
    "StoreBusyError",
    "StoreError",
    "StoreFull",
    "StoredGame",
    "Whose",
]

#: Bumped when the tables change shape; a store with another version is refused.
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS run (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS game (
    idx         INTEGER PRIMARY KEY,  -- the game's index in the run ("index" is an SQL keyword)
    seed        INTEGER NOT NULL,     -- generate_layout seed, from generate.game_seed
    won         INTEGER NOT NULL,     -- 0 or 1
    moves       INTEGER NOT NULL,     -- number of moves played, first click included
    guess_count INTEGER NOT NULL,     -- len(guesses), so SQL can aggregate without JSON
    guesses     TEXT NOT NULL,        -- JSON [[move, probability], ...] in play order
    uncovered   INTEGER NOT NULL,     -- mine-free cells uncovered when the game ended
    bbbv        INTEGER NOT NULL,     -- 3BV of the layout
    seconds     REAL NOT NULL,        -- wall time of the game
    analyses    INTEGER NOT NULL,     -- calls to the analysis engine during the game
    searches_cut INTEGER NOT NULL DEFAULT 0  -- endgame searches that ran out of budget
);
"""

_COLUMNS = "idx, seed, won, moves, guess_count, guesses, uncovered, bbbv, seconds, analyses"

#: Columns added to the game table since stores were first made, with what a store made
#: before each reads in its place. A store is given the missing ones when games are next
#: added to it (:meth:`GameStore.add`); until then it is read, and keeps, its old shape.
_LATER_COLUMNS = {
    "searches_cut": ("INTEGER NOT NULL DEFAULT 0", "0"),  # endgame searches that ran out of budget
    # The session (table session) that played the game: who played it, on what, when.
    # NULL: stored before minesat recorded sessions, by an unknown player.
    "session": ("INTEGER", "NULL"),
    # JSON [n, ...]: mine-free cells uncovered when each guess was made. NULL: not recorded.
    "guess_uncovered": ("TEXT", "NULL"),
}

_SESSION_SCHEMA = """
CREATE TABLE IF NOT EXISTS session (
    id        INTEGER PRIMARY KEY,
    player    TEXT NOT NULL,     -- provenance.player_fingerprint of the code that made the moves
    minesat   TEXT NOT NULL,     -- version
    python    TEXT NOT NULL,
    platform  TEXT NOT NULL,
    cpus      INTEGER NOT NULL,
    workers   TEXT NOT NULL,     -- JSON: local processes (a number) or the Dask scheduler's address
    started   TEXT NOT NULL,     -- ISO 8601 UTC
    finished  TEXT               -- ISO 8601 UTC, when the session's last batch was stored
);
"""


class _AnyPlayer:
    """:meth:`GameStore.games` with no player filter (None means the unknown player)."""

    def __repr__(self) -> str:
        return "ANY_PLAYER"


#: Every game, whoever played it.
ANY_PLAYER = _AnyPlayer()

#: Whose games: a player's fingerprint, None (the unknown player) or :data:`ANY_PLAYER`.
Whose = str | _AnyPlayer | None


class ConfigMismatchError(StoreError):
    """The database already holds games of a different run configuration."""


class StoreBusyError(StoreError):
    """Another process is running games into the same store."""


class PlayerMismatchError(StoreError):
    """Games of another player would be mixed with a store's (docs/commands/report.md)."""


class StoreFull(StoreError):
    """No room left to store a batch (a full disk, a quota): the batches stored before it are
    whole (each is one transaction), so the run resumes once there is room."""


#: What to do about a damaged store, said at the end of every such message.
#: Said by simulate, which writes it, and by report and export, which read it: no option of one.
_DAMAGED_ADVICE = "move it aside (or delete it) and simulate again, or give another path"


@dataclass(frozen=True)
class RunConfig:
    """Everything game *i* of a run depends on, apart from *i*: the board (:attr:`spec`),
    the run's seed and the strategy. Everything past the board size is a keyword.

    ``rule`` is a first-click rule's name (``"opening"``, ``"safe"``, ``"any"``; the summary
    and ``simulate --json`` call it ``first_click``), ``start`` a cell or its name.

    >>> config = RunConfig(16, 30, 99, rule="opening", start="D4", seed=0)
    >>> config.start, config.spec
    ((3, 3), BoardSpec(16, 30, 99, rule='opening', start='D4'))
    >>> RunConfig(9, 9, 10, rule="openning", start="D4", seed=0)
    Traceback (most recent call last):
    minesat.errors.InvalidValue: rule: unknown first-click rule 'openning' (the rules: opening, safe, any)
    """

    rows: int
    cols: int
    mines: int
    _: KW_ONLY
    rule: str  # a generate.FirstClick value: "opening", "safe" or "any"
    start: Cell
    seed: int
    strategy: str = DEFAULT_STRATEGY  # always stored, so old stores read back as they were played
    #: For a run over a board set (``simulate --boards``): the hex SHA-256 of the
    #: file's bytes. Game *i* is then line *i* of that file, and ``seed`` plays no part.
    boards: str | None = None

    def __post_init__(self) -> None:
        # Normalise so that a config read back from SQLite (or JSON) compares equal.
        object.__setattr__(self, "start", as_cell(self.start, "start"))
        object.__setattr__(self, "rule", FirstClick(self.rule).value)

    @property
    def spec(self) -> BoardSpec:
        """The board the run's games are drawn on: size, mines, rule and start."""
        return BoardSpec(self.rows, self.cols, self.mines, rule=self.rule, start=self.start)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: ``start`` becomes a ``[row, col]`` list."""
        data = asdict(self)
        data["start"] = list(self.start)
        return data

    def label(self) -> str:
        """A short human name, e.g. ``9x9/10 opening at 3,3 seed 0 (safest)``."""
        where = f"boards {self.boards[:12]}" if self.boards is not None else f"seed {self.seed}"
        return (
            f"{self.rows}x{self.cols}/{self.mines} {self.rule} at {self.start[0]},{self.start[1]} "
            f"{where} ({self.strategy})"
        )


@dataclass(frozen=True)
class StoredGame:
    """The outcome of one game as kept in the store."""

    index: int
    seed: int
    won: bool
    moves: int  # number of moves, first click included
    guesses: tuple[Guess, ...]
    uncovered: int
    bbbv: int
    seconds: float
    analyses: int = 0  # calls to the analysis engine during the game
    searches_cut: int = 0  # endgame searches that ran out of budget (the guess came from heuristics)
    #: Fingerprint of the player that played it, as the store recorded it (None: unknown);
    #: set when read back from a store, which records it per session (:meth:`GameStore.add`).
    player: str | None = None

    @classmethod
    def from_record(cls, index: int, seed: int, record: GameRecord) -> StoredGame:
        return cls(
            index=index,
            seed=seed,
            won=record.won,
            moves=len(record.moves),
            guesses=tuple(record.guesses),
            uncovered=record.uncovered,
            bbbv=record.bbbv,
            seconds=record.seconds,
            analyses=record.analyses,
            searches_cut=record.searches_cut,
        )

    @property
    def fatal_guess(self) -> int | None:
        """1-based number of the guess that lost the game (the player only loses on a guess)."""
        return len(self.guesses) if not self.won and self.guesses else None

    @property
    def no_guess_win(self) -> bool:
        """Won by proof alone, without a single guess."""
        return self.won and not self.guesses

    @property
    def survival(self) -> float:
        """The chance, as the player saw it, of surviving the guesses this game made.

        Not an estimate of the win rate: a lost game stops at its fatal guess,
        so the guesses it would have made later are missing from the product.
        """
        chance = 1.0
        for guess in self.guesses:
            chance *= 1.0 - guess.probability
        return chance

    def _row(self) -> tuple[object, ...]:
        """The values of the columns :data:`_COLUMNS`, ``searches_cut`` and ``guess_uncovered``."""
        guesses = json.dumps([[str(g.move), g.probability] for g in self.guesses], separators=(",", ":"))
        uncovered = [g.uncovered for g in self.guesses]
        return (
            self.index,
            self.seed,
            int(self.won),
            self.moves,
            len(self.guesses),
            guesses,
            self.uncovered,
            self.bbbv,
            self.seconds,
            self.analyses,
            self.searches_cut,
            None if None in uncovered else json.dumps(uncovered, separators=(",", ":")),
        )

    @classmethod
    def _from_row(cls, row: tuple) -> StoredGame:
        """The game in a row; :class:`~minesat.errors.InvalidValue` naming the row when it is malformed."""
        try:
            return cls._checked_row(row)
        except (ValueError, TypeError) as exc:
            raise InvalidValue(f"bad game row {row[0]!r}: {exc}") from None

    @classmethod
    def _checked_row(cls, row: tuple) -> StoredGame:
        index, seed, won, moves, _count, guesses, uncovered, bbbv, seconds, analyses, cut, at, player = row
        counts = {"idx": index, "seed": seed, "moves": moves, "uncovered": uncovered, "bbbv": bbbv}
        for name, value in {**counts, "analyses": analyses, "searches_cut": cut}.items():
            if not isinstance(value, int):
                raise TypeError(f"{name} is {value!r}, not a whole number")
        pairs = json.loads(guesses)
        found = json.loads(at) if at is not None else [None] * len(pairs)
        if len(found) != len(pairs):
            raise InvalidValue(f"{len(found)} uncovered counts for {len(pairs)} guesses")
        return cls(
            index=index,
            seed=seed,
            won=bool(won),
            moves=moves,
            guesses=tuple(
                Guess(Move.parse(move), float(p), n) for (move, p), n in zip(pairs, found, strict=True)
            ),
            uncovered=uncovered,
            bbbv=bbbv,
            seconds=seconds,
            analyses=analyses,
            searches_cut=cut,
            player=player,
        )


class GameStore:
    """A run's games in an SQLite file; a context manager.

    ``GameStore(path, config)`` creates the store, or reopens it after checking
    it holds the same configuration (:class:`ConfigMismatchError` otherwise).
    ``GameStore(path)`` opens an existing store and reads its configuration.

    The file is in WAL mode and every :meth:`add` is one transaction, so a
    reader (a report) can read while a run writes, and a run killed at any
    moment keeps every batch it committed.
    """

    config: RunConfig

    def __init__(self, path: str | os.PathLike[str], config: RunConfig | None = None) -> None:
        self.path = Path(path)
        if config is None and not self.path.exists():
            raise FileNotFoundError(f"{self.path}: no such game database")
        if self.path.is_dir():
            raise StoreError(f"{self.path}: a directory, not a game database", path=str(self.path),
                             advice="give a file path")
        if self.path.is_file() and self.path.stat().st_size == 0:
            # SQLite would happily turn an empty file into a database: refuse rather than
            # adopt a file some other program (or a typo) created.
            raise StoreError(f"{self.path}: an empty file, not a minesat game database", path=str(self.path),
                             advice="remove it or give another path")
        def connect() -> sqlite3.Connection:
            db = sqlite3.connect(self.path)
            db.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL loses no committed transaction when the process is
            # killed (only, at worst, the last ones on a power cut), and is much faster.
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA busy_timeout=10000")
            return db

        self._connect(connect, config)

    def _connect(self, connect: Callable[[], sqlite3.Connection], config: RunConfig | None) -> None:
        try:
            self._db = connect()
            self.config = self._open(config)
            # A store made before a column was added lacks it: reads put in what it stood for.
            self._columns = {row[1] for row in self._db.execute("PRAGMA table_info(game)")}
            # The sessions of this process written here, by identity (two runs can be equal field for
            # field, started in the same second), with their row ids; each object kept, so no id is reused.
            self._sessions: dict[int, tuple[Session, int]] = {}
        except sqlite3.DatabaseError as exc:
            self._close_quietly()
            raise StoreError(f"{self.path}: not usable as a game database ({exc})", path=str(self.path),
                             advice=_advice(exc)) from exc
        except BaseException:
            self._close_quietly()
            raise

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "<upload>", seconds: float | None = None) -> GameStore:
        """A store read from a database file's bytes, in memory (the file system is not touched).

        For reading (an uploaded database): the copy is private and read-only (a write is
        refused). ``seconds``: past that many, any query is interrupted (``sqlite3.OperationalError``).
        ``name`` stands for the path in messages.
        """
        if not data:
            raise StoreError(f"{name}: an empty file, not a minesat game database", path=name)
        # A database written in WAL mode says so in its header (bytes 18 and 19 are 2); an
        # in-memory copy cannot use a write-ahead log, so it is read as a rollback-journal file.
        if data[:16] == b"SQLite format 3\0" and len(data) >= 20:
            data = data[:18] + b"\x01\x01" + data[20:]
        store = cls.__new__(cls)
        store.path = Path(name)

        def connect() -> sqlite3.Connection:
            db = sqlite3.connect(":memory:")
            db.deserialize(data)
            db.execute("PRAGMA query_only = ON")
            if seconds is not None:
                deadline = time.monotonic() + seconds
                db.set_progress_handler(lambda: time.monotonic() > deadline, 100)
            return db

        store._connect(connect, None)
        return store

    def _open(self, config: RunConfig | None) -> RunConfig:
        """Create the tables for ``config``, or check the stored configuration."""
        with self._db:
            stored = self._stored_run()
            if stored is None:
                if config is None:
                    raise StoreError(f"{self.path}: not a minesat game database (no run table)",
                                     path=str(self.path))
                tables = self._tables()
                if tables:
                    # Another program's database: adding our tables to it would mix two owners.
                    raise StoreError(
                        f"{self.path}: an SQLite database of another program (tables: "
                        f"{', '.join(sorted(tables))}), not a minesat game database", path=str(self.path),
                        advice="give another path",
                    )
                self._db.executescript("BEGIN;" + _SCHEMA)
                values = {
                    **{k: json.dumps(v) for k, v in config.to_dict().items()},
                    "schema": json.dumps(SCHEMA_VERSION),
                    "minesat": json.dumps(_version()),
                }
                self._db.executemany("INSERT INTO run (key, value) VALUES (?, ?)", values.items())
                return config
        if "game" not in self._tables():
            raise self.damaged("no game table")
        schema = stored.pop("schema", None)
        stored.pop("minesat", None)  # informational: which version created the store
        if schema != SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: game database schema {schema}, this minesat reads {SCHEMA_VERSION}",
                path=str(self.path),
            )
        try:
            # A field added since the store was made is absent from it: it takes its default
            # (a store made before board sets holds a seeded run, boards None).
            found = RunConfig(
                **{
                    f.name: stored[f.name] if f.name in stored or f.default is MISSING else f.default
                    for f in fields(RunConfig)
                }
            )
        except (KeyError, TypeError, IndexError, ValueError) as exc:
            raise self.damaged(exc, "run table") from exc
        if config is not None and found != config:
            differ = ", ".join(
                f"{f.name} {_show(getattr(found, f.name))} (asked {_show(getattr(config, f.name))})"
                for f in fields(RunConfig)
                if getattr(found, f.name) != getattr(config, f.name)
            )
            raise ConfigMismatchError(f"{self.path} holds a different run: {differ}", path=str(self.path),
                                      advice="use another database or the same options")
        return found

    def _tables(self) -> set[str]:
        return {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def _stored_run(self) -> dict[str, Any] | None:
        """The run table's settings, each as JSON decodes it (RunConfig checks them)."""
        if "run" not in self._tables():
            return None
        try:
            return {key: json.loads(value) for key, value in self._db.execute("SELECT key, value FROM run")}
        except (ValueError, TypeError) as exc:
            raise self.damaged(exc, "run table") from exc

    def damaged(self, exc: BaseException | str, what: str = "game database") -> StoreError:
        """The error for a store found damaged while it is read or written (``what``: which part)."""
        return StoreError(f"{self.path}: damaged {what} ({one_line(str(exc))})", path=str(self.path),
                          advice=_DAMAGED_ADVICE)

    # --- one writer at a time ----------------------------------------------------

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the store for one run: a second process asking meanwhile gets :class:`StoreBusyError`.

        Without it two runs on the same file would both play every missing game.
        The lock is an advisory ``flock`` on the file itself (independent of SQLite's
        own locks), released when the run ends or its process dies.
        """
        try:
            import fcntl
        except ImportError:  # not on a POSIX system: no lock
            yield
            return
        with open(self.path, "rb") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise StoreBusyError(
                    f"{self.path}: another minesat run is playing into this database", path=str(self.path),
                    advice="wait for it to finish, or give another {store} path",
                ) from None
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    # --- writing ---------------------------------------------------------------

    def add(self, games: Iterable[StoredGame], session: Session | None = None) -> None:
        """Store finished games in one transaction; games already stored are left alone.

        ``session`` says who played them (:func:`minesat.provenance.new_session`): it is
        written with the first batch that names it, and its ``finished`` time moves on
        with every batch. Games added without one are of an unknown player.
        """
        rows = [game._row() for game in games]
        try:
            with self._db:
                # Begun here, not at the first INSERT as sqlite3 would: the upgrade's ALTER and
                # CREATE belong to the batch's transaction, so a batch that fails (a full disk)
                # leaves no half-upgraded store behind (a session column without its table).
                self._db.execute("BEGIN")
                self._upgrade()
                session_id = None if session is None else self._session_id(session)
                sql = (
                    f"INSERT OR IGNORE INTO game ({_COLUMNS}, searches_cut, guess_uncovered, session) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
                )
                self._db.executemany(sql, ((*row, session_id) for row in rows))
        except sqlite3.OperationalError as exc:
            self._columns = {row[1] for row in self._db.execute("PRAGMA table_info(game)")}  # as rolled back
            if getattr(exc, "sqlite_errorcode", None) != sqlite3.SQLITE_FULL:
                raise
            raise StoreFull(f"{self.path}: no room left to store the games ({exc})", path=str(self.path),
                            advice="make room on its disk") from exc

    def _upgrade(self) -> None:
        """Give a store made by an older minesat the columns and tables added since (in the
        caller's transaction): its games read as before, new games keep all they carry."""
        for name, (kind, _) in _LATER_COLUMNS.items():
            if name not in self._columns:
                self._db.execute(f"ALTER TABLE game ADD COLUMN {name} {kind}")
                self._columns.add(name)
        if "session" not in self._tables():
            self._db.execute(_SESSION_SCHEMA)

    def _session_id(self, session: Session) -> int:
        """The row of ``session``, written now if new, its finished time set to now."""
        finished = _now()
        known = self._sessions.get(id(session), (None, None))[1]
        if known is None:
            cursor = self._db.execute(
                "INSERT INTO session (player, minesat, python, platform, cpus, workers, started, finished) "
                "VALUES (?,?,?,?,?,?,?,?)",
                (session.player, session.minesat, session.python, session.platform, session.cpus,
                 json.dumps(session.workers), session.started, finished),
            )  # fmt: skip
            known = int(cursor.lastrowid or 0)
            self._sessions[id(session)] = (session, known)
        else:
            self._db.execute("UPDATE session SET finished = ? WHERE id = ?", (finished, known))
        return known

    def _select(self) -> str:
        """The columns a game is read from, each later one or what an older store stands for it."""
        later = [name if name in self._columns else default for name, (_, default) in _LATER_COLUMNS.items()]
        cut, _session, at = later
        player = "s.player" if "session" in self._columns else "NULL"
        columns = ", ".join(f"g.{c.strip()}" for c in _COLUMNS.split(","))
        return f"{columns}, {_qualified(cut)}, {_qualified(at)}, {player}"

    def _from(self) -> str:
        if "session" in self._columns:
            return "game g LEFT JOIN session s ON s.id = g.session"
        return "game g"

    # --- reading ---------------------------------------------------------------

    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM game").fetchone()[0]

    def count(self, stop: int | None = None) -> int:
        """Number of stored games with index below ``stop`` (all when None)."""
        if stop is None:
            return len(self)
        return self._db.execute("SELECT COUNT(*) FROM game WHERE idx < ?", (stop,)).fetchone()[0]

    def is_done(self, index: int) -> bool:
        return self._db.execute("SELECT 1 FROM game WHERE idx = ?", (index,)).fetchone() is not None

    def done_indices(self, start: int = 0, stop: int | None = None) -> set[int]:
        """Indices stored in ``[start, stop)``. For big runs prefer :meth:`missing`."""
        if stop is None:
            rows = self._db.execute("SELECT idx FROM game WHERE idx >= ?", (start,))
        else:
            rows = self._db.execute("SELECT idx FROM game WHERE idx >= ? AND idx < ?", (start, stop))
        return {idx for (idx,) in rows}

    def missing(self, stop: int, chunk: int = 65536) -> Iterator[int]:
        """Indices in ``[0, stop)`` not stored yet, ascending.

        Reads the store a chunk of indices at a time, so memory stays flat
        however long the run, and no cursor stays open while the caller adds
        games between two values.
        """
        for lo in range(0, stop, chunk):
            hi = min(lo + chunk, stop)
            done = self.done_indices(lo, hi)
            if len(done) < hi - lo:
                yield from (i for i in range(lo, hi) if i not in done)

    def games(
        self, stop: int | None = None, player: Whose = ANY_PLAYER
    ) -> Iterator[StoredGame]:
        """Stored games ordered by index (those below ``stop`` when given), streamed.

        ``player``: only the games of that fingerprint (``None``: those of an unknown
        player, stored before minesat recorded players); every game by default.
        """
        where: list[str] = []
        args: list[int | str] = []
        if stop is not None:
            where.append("g.idx < ?")
            args.append(stop)
        if not isinstance(player, _AnyPlayer):
            if player is None:
                where.append("g.session IS NULL" if "session" in self._columns else "1")
            elif "session" in self._columns:
                where.append("s.player = ?")
                args.append(player)
            else:
                where.append("0")
        sql = f"SELECT {self._select()} FROM {self._from()}"
        if where:
            sql += " WHERE " + " AND ".join(where)
        # A cursor of its own: rows are fetched as iterated, never all at once.
        cursor = self._db.execute(sql + " ORDER BY g.idx", args)
        try:
            for row in cursor:
                try:
                    game = StoredGame._from_row(row)
                except InvalidValue as exc:
                    raise self.damaged(exc) from None
                yield game
        finally:
            cursor.close()

    def players(self) -> dict[str | None, int]:
        """How many games each player stored, by fingerprint (``None``: an unknown player), in the
        order the players first stored games.

        >>> import tempfile, os
        >>> store = GameStore(os.path.join(tempfile.mkdtemp(), "p.sqlite"),
        ...                   RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=0))
        >>> store.players()
        {}
        """
        if "session" not in self._columns:
            count = len(self)
            return {None: count} if count else {}
        rows = self._db.execute(
            "SELECT s.player, COUNT(*), MIN(g.session IS NULL), MIN(COALESCE(s.id, 0)) "
            "FROM game g LEFT JOIN session s ON s.id = g.session GROUP BY s.player ORDER BY 4"
        )
        return {player: count for player, count, _, _ in rows}

    def sessions(self, player: Whose = ANY_PLAYER) -> list[Session]:
        """The sessions that stored games here (of ``player`` when given), oldest first."""
        if "session" not in self._tables() or player is None:
            return []
        sql = "SELECT player, minesat, python, platform, cpus, workers, started, finished FROM session"
        args: tuple[object, ...] = ()
        if not isinstance(player, _AnyPlayer):
            sql, args = sql + " WHERE player = ?", (player,)
        try:
            return [
                Session(fp, version, python, system, cpus, json.loads(workers), started, finished)
                for fp, version, python, system, cpus, workers, started, finished
                in self._db.execute(sql + " ORDER BY id", args)
            ]  # fmt: skip
        except (ValueError, TypeError) as exc:
            raise self.damaged(exc) from None

    def provenance(
        self, which: Whose, player: str | None, *, command: str | None, games_sha256: str
    ) -> dict[str, Any]:
        """The ``provenance`` (docs/commands/report.md) of the games of ``which`` here, whose one
        player is ``player`` (None: unknown, or several).

        From the sessions that stored them; a store made before minesat recorded sessions gives
        the version that created it and an unknown player, all that is known.
        """
        sessions = self.sessions(which)
        provenance = run_provenance(sessions, command=command, games_sha256=games_sha256)
        if not sessions:  # games stored before minesat recorded sessions: the store's creator is all we know
            provenance["minesat"] = self.created_by
        if player is not None or not sessions:
            provenance["player"] = player
        return provenance

    @property
    def created_by(self) -> str | None:
        """The minesat version that created the store, as it wrote it."""
        row = self._db.execute("SELECT value FROM run WHERE key = 'minesat'").fetchone()
        try:
            return str(json.loads(row[0])) if row else None
        except ValueError:
            return None

    def __iter__(self) -> Iterator[StoredGame]:
        return self.games()

    # --- lifetime --------------------------------------------------------------

    def close(self) -> None:
        self._db.close()

    def _close_quietly(self) -> None:
        with contextlib.suppress(AttributeError, sqlite3.Error):
            self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _advice(exc: sqlite3.DatabaseError) -> str:
    """What to do, by what SQLite says: a file it cannot open is not one to delete."""
    message = str(exc)
    if "unable to open" in message:
        return "check the path and its permissions, or give another path"
    if "not a database" in message:
        # Junk from the first byte: another program's file, or a store damaged beyond recognition.
        return ("give another path; if this was a game database, it is damaged: "
                "move it aside and simulate again")
    return _DAMAGED_ADVICE


def _qualified(column: str) -> str:
    """``g.column`` for a column, the literal as it is for a stand-in (``0``, ``NULL``)."""
    return column if column in ("0", "NULL") else f"g.{column}"


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)


def _version() -> str:
    from minesat import __version__

    return __version__
