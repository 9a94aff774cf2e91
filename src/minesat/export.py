"""Stored games as flat records, one per game, for pandas, spreadsheets and scripts (SPEC section 7).

JSON Lines by default, CSV on request; both streamed, one game in memory at a
time, in game order.

>>> from minesat.player import Guess
>>> from minesat.store import StoredGame
>>> g = StoredGame(index=3, seed=77, won=False, moves=40, guesses=(Guess("B2", 0.25),),
...                uncovered=30, bbbv=21, seconds=0.5, analyses=12)
>>> record(g)["fatal_probability"], record(g)["fatal_move"]
(0.25, 'B2')
>>> import io
>>> out = io.StringIO()
>>> write_records([g], out)
1
>>> out.getvalue()[:40]
'{"game": 3, "seed": 77, "won": false, "g'
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from minesat.store import GameStore, StoredGame

#: The columns, in order. ``guesses`` is a count; ``fatal_*`` are empty for games not lost.
FIELDS = (
    "game",  # index of the game in its run
    "seed",  # layout seed: `minesat solve` can replay the game from it
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


def record(game: StoredGame) -> dict[str, Any]:
    """One game as a flat record with the keys of :data:`FIELDS`."""
    fatal = game.guesses[-1] if game.fatal_guess is not None else None
    return {
        "game": game.index,
        "seed": game.seed,
        "won": game.won,
        "guesses": len(game.guesses),
        "moves": game.moves,
        "uncovered": game.uncovered,
        "bbbv": game.bbbv,
        "seconds": game.seconds,
        "analyses": game.analyses,
        "searches_cut": game.searches_cut,
        "fatal_move": fatal.move if fatal else None,
        "fatal_probability": fatal.probability if fatal else None,
        "first_guess_probability": game.guesses[0].probability if game.guesses else None,
    }


def records(store: GameStore) -> Iterator[dict[str, Any]]:
    """Every stored game as a record, in game order, streamed."""
    return (record(game) for game in store.games())


def write_records(games: Iterable[StoredGame], out: TextIO, *, as_csv: bool = False) -> int:
    """Write ``games`` to ``out`` as JSON Lines (or CSV with a header row); return how many.

    In CSV, booleans are ``true``/``false`` and missing values empty, as
    spreadsheets and ``pandas.read_csv`` read them.
    """
    count = 0
    if as_csv:
        writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        for game in games:
            row = record(game)
            row["won"] = "true" if row["won"] else "false"
            writer.writerow({k: "" if v is None else v for k, v in row.items()})
            count += 1
    else:
        for game in games:
            out.write(json.dumps(record(game)) + "\n")
            count += 1
    return count


def export_db(path: str | Path, out: TextIO, *, as_csv: bool = False) -> int:
    """Write every game of the store at ``path`` to ``out``; return how many."""
    with GameStore(path) as store:
        return write_records(store.games(), out, as_csv=as_csv)


def read_records(lines: Iterable[str], *, as_csv: bool = False) -> Iterator[dict[str, Any]]:
    """Read back what :func:`write_records` wrote, with the same types (a round trip).

    >>> rows = ["game,seed,won,guesses,moves,uncovered,bbbv,seconds,analyses,searches_cut,fatal_move,"
    ...         "fatal_probability,first_guess_probability", "0,5,true,0,9,71,12,0.01,3,0,,,"]
    >>> next(read_records(rows, as_csv=True))["won"]
    True
    """
    if not as_csv:
        for line in lines:
            if line.strip():
                yield json.loads(line)
        return
    ints = ("game", "seed", "guesses", "moves", "uncovered", "bbbv", "analyses", "searches_cut")
    floats = ("seconds", "fatal_probability", "first_guess_probability")
    for row in csv.DictReader(lines):
        out: dict[str, Any] = dict(row)
        for key in ints:
            out[key] = int(row[key])
        for key in floats:
            out[key] = float(row[key]) if row[key] else None
        out["won"] = row["won"] == "true"
        out["fatal_move"] = row["fatal_move"] or None
        yield out
