"""Two runs on the same boards, compared game by game (SPEC section 8).

When two stores hold the same boards (their run configurations are equal once
the strategy is set aside), game *i* of one and game *i* of the other were
played on the same layout from the same first click. Pairing them removes the
luck of the boards from the comparison: only the games that one run won and
the other lost (the *discordant* pairs) say which player is stronger, and the
exact McNemar test says how surely.

>>> from types import SimpleNamespace as G
>>> a = [G(index=i, won=w) for i, w in enumerate([True, True, False, False, True])]
>>> b = [G(index=i, won=w) for i, w in enumerate([True, False, False, True, False])]
>>> p = pair_games(a, b, "A", "B")
>>> (p.games, p.both, p.only_a, p.only_b, p.neither)
(5, 1, 2, 1, 1)
>>> p.p_value
1.0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from minesat.stats import mcnemar_exact


class Outcome(Protocol):
    """What pairing reads from a game: a ``store.StoredGame`` fits."""

    index: int
    won: bool


@dataclass(frozen=True)
class Paired:
    """Runs ``a`` and ``b`` on the same boards: counts over the games both played."""

    a: str  # label of run A
    b: str  # label of run B
    games: int  # game indices both runs stored
    both: int  # won by both
    only_a: int  # won by A, lost by B
    only_b: int
    neither: int
    a_source: str = ""  # where the games came from (database paths)
    b_source: str = ""

    @property
    def a_wins(self) -> int:
        return self.both + self.only_a

    @property
    def b_wins(self) -> int:
        return self.both + self.only_b

    @property
    def difference(self) -> float:
        """A's win rate minus B's, over the paired games."""
        return (self.only_a - self.only_b) / self.games if self.games else 0.0

    @property
    def p_value(self) -> float:
        """Exact two-sided McNemar p-value: could A and B be equally strong?"""
        return mcnemar_exact(self.only_a, self.only_b)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the counts plus both win rates, their difference and the p-value."""
        out = dataclasses.asdict(self)
        out["a_wins"], out["b_wins"] = self.a_wins, self.b_wins
        out["a_win_rate"] = self.a_wins / self.games if self.games else 0.0
        out["b_win_rate"] = self.b_wins / self.games if self.games else 0.0
        out["difference"] = self.difference
        out["p_value"] = self.p_value
        return out


def _aligned(a: Iterable[Outcome], b: Iterable[Outcome]) -> Iterator[tuple[Outcome, Outcome]]:
    """The games of ``a`` and ``b`` with the same index, both streams ascending by index.

    A merge join: one game of each side in memory, so pairing a million games
    costs no more memory than pairing ten. Indices only one side has are skipped.
    """
    it_a, it_b = iter(a), iter(b)
    ga, gb = next(it_a, None), next(it_b, None)
    while ga is not None and gb is not None:
        if ga.index == gb.index:
            yield ga, gb
            ga, gb = next(it_a, None), next(it_b, None)
        elif ga.index < gb.index:
            ga = next(it_a, None)
        else:
            gb = next(it_b, None)


def pair_games(a: Iterable[Outcome], b: Iterable[Outcome], label_a: str = "A", label_b: str = "B") -> Paired:
    """Pair two runs' games by index; each iterable must be ascending by index (as a store gives them)."""
    counts = [[0, 0], [0, 0]]  # [won by a][won by b]
    for ga, gb in _aligned(a, b):
        counts[bool(ga.won)][bool(gb.won)] += 1
    return Paired(
        a=label_a,
        b=label_b,
        games=sum(map(sum, counts)),
        both=counts[1][1],
        only_a=counts[1][0],
        only_b=counts[0][1],
        neither=counts[0][0],
    )


def same_boards(config_a: Any, config_b: Any) -> bool:
    """True when two run configurations play the same boards: equal once the strategy is set aside.

    Every other field (board size, mines, rule, start, seed, and any field
    added later, such as a board set's digest) decides the layouts.

    >>> from minesat.store import RunConfig
    >>> a = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=0, strategy="safest")
    >>> same_boards(a, dataclasses.replace(a, strategy="best"))
    True
    >>> same_boards(a, dataclasses.replace(a, seed=1))
    False
    """
    return dataclasses.replace(config_a, strategy=config_b.strategy) == config_b


def pair_dbs(paths: Sequence[str | Path], labels: Sequence[str]) -> list[Paired]:
    """Every pair of databases (in the order given) that hold the same boards, paired game by game.

    ``labels`` name the runs as the report shows them. Both stores are read in
    index order at the same time, one game of each in memory.
    """
    from minesat.store import GameStore  # here: pairing plain iterables needs no SQLite

    configs = []
    for path in paths:
        with GameStore(path) as store:
            configs.append(store.config)
    out = []
    for i in range(len(paths)):
        for j in range(i + 1, len(paths)):
            if not same_boards(configs[i], configs[j]):
                continue
            with GameStore(paths[i]) as sa, GameStore(paths[j]) as sb:
                p = pair_games(sa.games(), sb.games(), labels[i], labels[j])
            out.append(dataclasses.replace(p, a_source=str(paths[i]), b_source=str(paths[j])))
    return out
