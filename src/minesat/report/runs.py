"""The runs of a store, summarized: what ``minesat report`` reads.

A store's games are counted by :class:`minesat.tally.Tally` as they stream from SQLite,
one :class:`~minesat.tally.Summary` per run (per player, in a store of several players'
games), with what made them (its ``provenance``) and their digest.

>>> import os, tempfile
>>> from minesat.store import GameStore, RunConfig
>>> path = os.path.join(tempfile.mkdtemp(), "empty.sqlite")
>>> GameStore(path, RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=0)).close()
>>> summarize_db(path)
Summary(empty: 0 games)
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from minesat.export import GamesDigest
from minesat.provenance import short
from minesat.store import ANY_PLAYER, GameStore, Whose
from minesat.tally import Summary, summarize

__all__ = ["summarize_db", "summarize_store"]


def summarize_db(path: str | Path, label: str | None = None) -> Summary:
    """Summarize every game stored in the SQLite database at ``path``, with its provenance."""
    with GameStore(path) as store:
        players = list(store.players())
        player = players[0] if len(players) == 1 else None
        return _summarize_part(store, ANY_PLAYER, player, label, len(players) or 1)


def summarize_store(path: str | Path, label: str | None = None) -> list[Summary]:
    """The runs of the store at ``path``: one :class:`Summary`, or, when the store holds games of
    several players (``simulate --mix-players``), one per player, labelled with the player, so
    that no win rate mixes two players' games (docs/commands/report.md)."""
    with GameStore(path) as store:
        players = list(store.players())
        if len(players) <= 1:
            return [_summarize_part(store, ANY_PLAYER, players[0] if players else None, label, 1)]
        base = label or Path(path).stem
        return [
            _summarize_part(store, player, player, f"{base} (player {short(player)})" if player
                            else f"{base} (unknown player)", len(players))
            for player in players
        ]  # fmt: skip


def _summarize_part(store: GameStore, which: Whose, player: str | None, label: str | None,
                    players: int) -> Summary:
    """One run of ``store``: the games of ``which`` (a fingerprint, None, or every game)."""
    digest = GamesDigest(store.config)
    summary = summarize(digest.through(store.games(player=which)), store.config, str(store.path), label)
    provenance = store.provenance(which, player, command=summary.command, games_sha256=digest.hexdigest())
    return replace(summary, player=player, players_in_store=players, provenance=provenance)
