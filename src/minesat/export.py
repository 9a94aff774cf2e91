"""Stored games as tidy records, one per game (or per guess), for pandas, spreadsheets and scripts
(docs/commands/export.md, docs/commands/report.md).

JSON Lines by default, CSV or Parquet on request; all streamed, a batch of
games in memory at a time, in game order. Every record carries its run's
settings (board, rule, start, strategy, the player's fingerprint), so the
exports of several runs (a sweep's points) concatenate into one table. Seeds
are strings of digits in JSON: they run past 2^53, where JavaScript, jq and
spreadsheets round a JSON number.

>>> from minesat.board import Move
>>> from minesat.player import Guess
>>> from minesat.store import RunConfig, StoredGame
>>> config = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=0, strategy="best")
>>> g = StoredGame(index=3, seed=4357349932501927659, won=False, moves=40, uncovered=30, bbbv=21,
...                guesses=(Guess(Move.parse("B2"), 0.25, 30),), seconds=0.5, analyses=12)
>>> r = record(g, config)
>>> r["seed"], r["fatal_move"], r["rows"], r["start"], r["player"]
('4357349932501927659', 'B2', 9, '3,3', None)
>>> [(x["k"], x["cell"], x["survived"], x["uncovered"]) for x in guess_records(g, config)]
[(1, 'B2', False, 30)]
>>> import io
>>> out = io.StringIO()
>>> write_records([g], out, config=config)
1
>>> out.getvalue()[:50]
'{"game": 3, "seed": "4357349932501927659", "won": '
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from minesat.store import GameStore, RunConfig, StoredGame

__all__ = [
    "FIELDS",
    "GAME_FIELDS",
    "GUESS_FIELDS",
    "PARQUET_BATCH",
    "RUN_FIELDS",
    "GamesDigest",
    "ParquetUnavailable",
    "export_db",
    "game_records",
    "games_digest",
    "guess_records",
    "read_records",
    "record",
    "records",
    "settings",
    "write_parquet",
    "write_records",
]

#: The game's own columns, in order. ``guesses`` is a count; ``fatal_*`` are empty for games not lost.
GAME_FIELDS = (
    "game",  # index of the game in its run
    "seed",  # layout seed (digits): the layout is generated again from it
    "won",
    "guesses",  # guesses made
    "moves",  # moves made, first click included
    "uncovered",  # mine-free cells uncovered at the end
    "bbbv",  # 3BV of the layout
    "seconds",  # wall time of the game
    "analyses",  # calls to the analysis engine
    "searches_cut",  # endgame searches that ran out of budget
    "fatal_move",  # the guess that hit a mine (lost games)
    "fatal_probability",  # its mine probability as the player saw it
    "first_guess_probability",  # mine probability of the game's first guess, if any
)

#: The run's settings, on every record (docs/commands/report.md).
RUN_FIELDS = (
    "rows",
    "cols",
    "mines",
    "rule",  # first-click rule: opening, safe or any
    "start",  # the first click, ROW,COL (0-based)
    "strategy",
    "player",  # fingerprint of the code that played the game (null: unknown)
    "run_seed",  # the run's --seed (digits); game seeds derive from it
    "boards",  # SHA-256 of the board set a --boards run played (null otherwise)
)

#: Every column of a game record.
FIELDS = GAME_FIELDS + RUN_FIELDS

#: Every column of a guess record (``--guesses``).
GUESS_FIELDS = (
    "game",
    "k",  # 1 for the game's first guess, 2 for its second, ...
    "cell",  # the cell guessed, by name (A1)
    "probability",  # its mine probability as the player saw it
    "survived",  # false for the guess that lost the game
    "uncovered",  # mine-free cells uncovered when it was made (null where the store did not record it)
    "uncovered_share",  # the same as a share of the board's mine-free cells
    *RUN_FIELDS,
)

#: Columns written as text however numeric they look: a seed is an identifier, not a quantity.
_DIGITS = ("seed", "run_seed")
_INTS = ("game", "guesses", "moves", "uncovered", "bbbv", "analyses", "searches_cut", "rows", "cols",
         "mines", "k")  # fmt: skip
_FLOATS = ("seconds", "fatal_probability", "first_guess_probability", "probability", "uncovered_share")
_BOOLS = ("won", "survived")


def settings(config: RunConfig | None) -> dict[str, Any]:
    """The run's settings as record columns (``player`` is the game's own: see :func:`record`)."""
    if config is None:
        return {}
    return {
        "rows": config.rows,
        "cols": config.cols,
        "mines": config.mines,
        "rule": config.rule,
        "start": f"{config.start[0]},{config.start[1]}",
        "strategy": config.strategy,
        "player": None,
        "run_seed": str(config.seed),
        "boards": config.boards,
    }


def record(game: StoredGame, config: RunConfig | None = None) -> dict[str, Any]:
    """One game as a flat record: the keys of :data:`GAME_FIELDS`, then (with ``config``) its run's."""
    fatal = game.guesses[-1] if game.fatal_guess is not None else None
    out = {
        "game": game.index,
        "seed": str(game.seed),
        "won": game.won,
        "guesses": len(game.guesses),
        "moves": game.moves,
        "uncovered": game.uncovered,
        "bbbv": game.bbbv,
        "seconds": game.seconds,
        "analyses": game.analyses,
        "searches_cut": game.searches_cut,
        "fatal_move": str(fatal.move) if fatal else None,
        "fatal_probability": fatal.probability if fatal else None,
        "first_guess_probability": game.guesses[0].probability if game.guesses else None,
    }
    if config is not None:
        out.update(settings(config), player=game.player)
    return out


def guess_records(game: StoredGame, config: RunConfig | None = None) -> Iterator[dict[str, Any]]:
    """One record per guess of ``game``: the keys of :data:`GUESS_FIELDS`."""
    safe = config.rows * config.cols - config.mines if config is not None else 0
    run = {**settings(config), "player": game.player} if config is not None else {}
    last = len(game.guesses)
    for k, guess in enumerate(game.guesses, 1):
        yield {
            "game": game.index,
            "k": k,
            "cell": str(guess.move),
            "probability": guess.probability,
            "survived": game.won or k < last,
            "uncovered": guess.uncovered,
            "uncovered_share": guess.uncovered / safe if guess.uncovered is not None and safe else None,
            **run,
        }


def game_records(
    games: Iterable[StoredGame], config: RunConfig | None = None, *, guesses: bool = False
) -> Iterator[dict[str, Any]]:
    """The records of ``games`` (with ``config``, their run's settings on each): :func:`record`
    per game, or with ``guesses`` :func:`guess_records` per guess."""
    for game in games:
        if guesses:
            yield from guess_records(game, config)
        else:
            yield record(game, config)


def write_records(
    games: Iterable[StoredGame],
    out: TextIO,
    *,
    as_csv: bool = False,
    config: RunConfig | None = None,
    guesses: bool = False,
) -> int:
    """Write ``games`` to ``out`` as JSON Lines (or CSV with a header row); return how many records.

    ``config`` adds the run's settings to every record; ``guesses`` writes one
    record per guess instead of one per game. In CSV, booleans are
    ``true``/``false`` and missing values empty, as spreadsheets and
    ``pandas.read_csv`` read them.
    """
    count = 0
    if as_csv:
        fields = GUESS_FIELDS if guesses else FIELDS
        writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        for row in game_records(games, config, guesses=guesses):
            writer.writerow({k: _csv_value(row.get(k)) for k in fields})
            count += 1
    else:
        for row in game_records(games, config, guesses=guesses):
            out.write(json.dumps(row) + "\n")
            count += 1
    return count


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


class ParquetUnavailable(RuntimeError):
    """Writing Parquet needs pyarrow, which is not installed."""


#: Records per Parquet row group: memory stays flat however many games.
PARQUET_BATCH = 65_536


def write_parquet(
    games: Iterable[StoredGame], path: str | Path | BinaryIO, *, config: RunConfig | None = None,
    guesses: bool = False,
) -> int:
    """Write ``games`` as a Parquet file at ``path``, or into the binary file ``path`` (needs
    pyarrow: the ``parquet`` extra); return how many records. Written in row groups of
    :data:`PARQUET_BATCH`, so memory stays flat. Seeds are strings of digits, as in JSON;
    missing values are nulls."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise ParquetUnavailable(
            "writing Parquet needs pyarrow: install the extra with  pip install 'minesat[parquet]'"
        ) from exc
    fields: tuple[str, ...] = GUESS_FIELDS if guesses else FIELDS
    if config is None:
        fields = tuple(f for f in fields if f not in RUN_FIELDS)

    def kind(name: str) -> Any:
        if name in _BOOLS:
            return pa.bool_()
        if name in _INTS:
            return pa.int64()
        if name in _FLOATS:
            return pa.float64()
        return pa.string()

    schema = pa.schema([(name, kind(name)) for name in fields])
    count = 0
    where = str(path) if isinstance(path, str | Path) else path
    with pq.ParquetWriter(where, schema) as writer:
        batch: list[dict[str, Any]] = []
        for row in game_records(games, config, guesses=guesses):
            batch.append(row)
            if len(batch) == PARQUET_BATCH:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                count += len(batch)
                batch = []
        if batch or not count:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            count += len(batch)
    return count


class GamesDigest:
    """SHA-256 of games as ``minesat export`` writes them, times and the player left out (the report's
    ``games_sha256``, docs/commands/report.md): each JSON line of :func:`write_records` without its
    ``seconds`` and ``player`` keys, in the order added, UTF-8. Fed a game at a time, so a report
    hashes the games in the same pass that counts them.

    The hash names the games (seeds, moves, outcomes, settings), not the code that played them: two
    versions of minesat that played the same games show the same hash, and the player's fingerprint
    is kept beside it to say whether the code differed.

    >>> GamesDigest(None).hexdigest() == hashlib.sha256(b"").hexdigest()
    True
    """

    def __init__(self, config: RunConfig | None) -> None:
        self.config = config
        self._sha = hashlib.sha256()

    def add(self, game: StoredGame) -> None:
        row = record(game, self.config)
        del row["seconds"]
        row.pop("player", None)
        self._sha.update((json.dumps(row) + "\n").encode())

    def through(self, games: Iterable[StoredGame]) -> Iterator[StoredGame]:
        """``games`` as they are, each added on its way through: hash in the pass that counts."""
        for game in games:
            self.add(game)
            yield game

    def hexdigest(self) -> str:
        return self._sha.hexdigest()


def games_digest(games: Iterable[StoredGame], config: RunConfig | None) -> str:
    """:class:`GamesDigest` of ``games``, in the order given."""
    digest = GamesDigest(config)
    for game in games:
        digest.add(game)
    return digest.hexdigest()


def records(db: str | Path | Iterable[str | Path], *, guesses: bool = False) -> Iterator[dict[str, Any]]:
    """Every game (or guess) of the store at ``db`` as the export's records, streamed in game
    order with the run's settings on each: ``pandas.DataFrame(records("run.sqlite"))``.

    ``db`` may be several stores (a list of paths, a sweep's ``[p.db for p in sweep.points]``,
    ``Path("reports/sweep").glob("*.sqlite")``): their records follow one another, each store's
    in game order, each record with its own run's settings, so one table holds them all.

    The keys are the export's (docs/commands/export.md): a game's index is ``game``, its number
    of guesses ``guesses``, the first-click rule ``rule``; :class:`~minesat.store.StoredGame`
    holds the same as ``index``, ``len(guesses)`` and the run's ``config.rule``.
    """
    paths = [db] if isinstance(db, str | Path) else list(db)
    for path in paths:
        with GameStore(path) as store:
            yield from game_records(store.games(), store.config, guesses=guesses)


def export_db(path: str | Path, out: TextIO, *, as_csv: bool = False, guesses: bool = False) -> int:
    """Write every game (or guess) of the store at ``path`` to ``out``, settings included; return how
    many records."""
    with GameStore(path) as store:
        return write_records(store.games(), out, as_csv=as_csv, config=store.config, guesses=guesses)


def read_records(lines: Iterable[str], *, as_csv: bool = False) -> Iterator[dict[str, Any]]:
    """Read back what :func:`write_records` wrote, with the same types (a round trip).

    >>> rows = [",".join(FIELDS), "0,5,true,0,9,71,12,0.01,3,0,,,,9,9,10,opening,\\"3,3\\",best,,0,"]
    >>> r = next(read_records(rows, as_csv=True))
    >>> r["won"], r["seed"], r["rows"], r["player"], r["fatal_move"]
    (True, '5', 9, None, None)
    """
    if not as_csv:
        for line in lines:
            if line.strip():
                yield json.loads(line)
        return
    for row in csv.DictReader(lines):
        out: dict[str, Any] = {}
        for key, text in row.items():
            if key in _BOOLS:
                out[key] = text == "true"
            elif text == "":
                out[key] = None
            elif key in _INTS:
                out[key] = int(text)
            elif key in _FLOATS:
                out[key] = float(text)
            else:
                out[key] = text
        yield out
