"""Two runs compared: game by game on the same boards (docs/commands/report.md), or side by side.

When two stores hold the same boards (their run configurations are equal once
the strategy is set aside), game *i* of one and game *i* of the other were
played on the same layout from the same first click. Pairing them removes the
luck of the boards from the comparison: only the games that one run won and
the other lost (the *discordant* pairs) say which player is stronger, and the
exact McNemar test says how surely. The difference of the win rates gets
Newcombe's interval for paired data, which is much narrower than two
independent intervals would suggest.

Runs on other boards can only be compared as independent samples
(:class:`Compared`, Newcombe's interval for independent proportions).

>>> from types import SimpleNamespace as G
>>> a = [G(index=i, won=w) for i, w in enumerate([True, True, False, False, True])]
>>> b = [G(index=i, won=w) for i, w in enumerate([True, False, False, True, False])]
>>> p = pair_games(a, b, "A", "B")
>>> (p.games, p.both, p.only_a, p.only_b, p.neither)
(5, 1, 2, 1, 1)
>>> p.p_value, p.significant, p.verdict
(1.0, False, None)
>>> p.only_a_games, p.only_b_games
((1, 4), (3,))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from minesat.errors import InvalidValue
from minesat.stats import mcnemar_exact, newcombe_independent, newcombe_paired
from minesat.store import ANY_PLAYER, GameStore

__all__ = [
    "ALPHA",
    "FIRST_BOARDS",
    "Compared",
    "Outcome",
    "Paired",
    "pair_dbs",
    "pair_games",
    "pair_runs",
    "same_boards",
]

#: The level below which a difference is called significant (two-sided).
ALPHA = 0.05
#: Boards listed per side: the first games only A won, and only B won.
FIRST_BOARDS = 3


class Outcome(Protocol):
    """What pairing reads from a game: a ``store.StoredGame`` fits (read only, so frozen records do)."""

    @property
    def index(self) -> int: ...
    @property
    def won(self) -> bool: ...


@dataclass(frozen=True, repr=False)
class Paired:
    """Runs ``a`` and ``b`` on the same boards: counts over the games both played.

    The counts must agree: none negative, and ``both + only_a + only_b + neither == games``.

    >>> Paired("best", "safest", games=300, both=129, only_a=31, only_b=36, neither=104)
    Paired(best vs safest on 300 boards: only best won 31, only safest 36; difference -1.67 points, 95 % CI \
-7.01 to +3.69; exact McNemar p = 0.625)
    >>> Paired("a", "b", games=5, both=500, only_a=0, only_b=0, neither=0)
    Traceback (most recent call last):
    minesat.errors.InvalidValue: games: 5 games, but both + only_a + only_b + neither = 500
    """

    a: str  # label of run A
    b: str  # label of run B
    games: int  # game indices both runs stored
    both: int  # won by both
    only_a: int  # won by A, lost by B
    only_b: int
    neither: int
    a_source: str = ""  # where the games came from (database paths)
    b_source: str = ""
    #: The first game indices only A won, and only B won (at most :data:`FIRST_BOARDS` each).
    only_a_games: tuple[int, ...] = ()
    only_b_games: tuple[int, ...] = ()
    #: Their layout seeds, by game index (empty for a board set, whose boards are its lines).
    seeds: dict[int, int] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        counts = {"games": self.games, "both": self.both, "only_a": self.only_a, "only_b": self.only_b,
                  "neither": self.neither}  # fmt: skip
        for name, value in counts.items():
            if not isinstance(value, int) or value < 0:
                raise InvalidValue(f"must be a whole number >= 0, not {value!r}", parameter=name, value=value)
        total = self.both + self.only_a + self.only_b + self.neither
        if total != self.games:
            raise InvalidValue(f"{self.games} games, but both + only_a + only_b + neither = {total}",
                               parameter="games", value=self.games)  # fmt: skip

    def __repr__(self) -> str:
        low, high = self.difference_ci95
        return (f"Paired({self.a} vs {self.b} on {self.games:,} boards: only {self.a} won {self.only_a:,}, "
                f"only {self.b} {self.only_b:,}; difference {100 * self.difference:+.2f} points, 95 % CI "
                f"{100 * low:+.2f} to {100 * high:+.2f}; exact McNemar p = {self.p_value:.3g})")  # fmt: skip

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
    def difference_ci95(self) -> tuple[float, float]:
        """The 95 % interval of :attr:`difference`: Newcombe's method 10 for paired data."""
        return newcombe_paired(self.both, self.only_a, self.only_b, self.neither)

    @property
    def p_value(self) -> float:
        """Exact two-sided McNemar p-value: could A and B be equally strong?"""
        return mcnemar_exact(self.only_a, self.only_b)

    @property
    def significant(self) -> bool:
        """True when the McNemar test rejects "equally strong" at the 5 % level."""
        return self.p_value < ALPHA

    @property
    def verdict(self) -> str | None:
        """The label of the run that won more of the boards where the two differ, when that is
        significant; ``None`` otherwise (the data do not say which is stronger)."""
        if not self.significant:
            return None
        return self.a if self.only_a > self.only_b else self.b

    @property
    def disagreement(self) -> str | None:
        """What the interval and the test say differently, when they do (near p = 0.05 they can:
        the interval is a score interval, the test exact), else ``None``."""
        low, high = self.difference_ci95
        excludes_zero = low > 0 or high < 0
        if excludes_zero == self.significant:
            return None
        if excludes_zero:
            return ("the 95 % interval of the difference leaves out 0 while the exact McNemar p is "
                    f"{self.p_value:.3g} (not below 0.05): the two methods disagree at the edge of "
                    "significance, so the difference is not established")  # fmt: skip
        return ("the exact McNemar p is below 0.05 while the 95 % interval of the difference still "
                "holds 0: the two methods disagree at the edge of significance")  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the counts, both win rates, their difference with its interval, the
        p-value, ``significant``, ``verdict``, ``disagreement``, and the first boards each
        run won alone."""
        out = dataclasses.asdict(self)
        out.pop("seeds")
        out["a_wins"], out["b_wins"] = self.a_wins, self.b_wins
        out["a_win_rate"] = self.a_wins / self.games if self.games else 0.0
        out["b_win_rate"] = self.b_wins / self.games if self.games else 0.0
        out["difference"] = self.difference
        out["difference_ci95"] = list(self.difference_ci95)
        out["p_value"] = self.p_value
        out["significant"] = self.significant
        out["verdict"] = self.verdict
        out["disagreement"] = self.disagreement
        out["only_a_games"], out["only_b_games"] = list(self.only_a_games), list(self.only_b_games)
        return out


@dataclass(frozen=True, repr=False)
class Compared:
    """Two runs that cannot be paired, compared as independent samples (docs/commands/report.md)."""

    a: str
    b: str
    a_wins: int
    a_games: int
    b_wins: int
    b_games: int

    def __repr__(self) -> str:
        low, high = self.ci95
        return (f"Compared({self.a} vs {self.b}, independent samples: difference "
                f"{100 * self.difference:+.2f} points, 95 % CI {100 * low:+.2f} to "
                f"{100 * high:+.2f})")  # fmt: skip

    @property
    def difference(self) -> float:
        """A's win rate minus B's, each over its own games."""
        pa = self.a_wins / self.a_games if self.a_games else 0.0
        pb = self.b_wins / self.b_games if self.b_games else 0.0
        return pa - pb

    @property
    def ci95(self) -> tuple[float, float]:
        """Newcombe's interval for the difference of independent proportions."""
        return newcombe_independent(self.a_wins, self.a_games, self.b_wins, self.b_games)

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "difference": self.difference, "ci95": list(self.ci95)}


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
    firsts: tuple[list[int], list[int]] = ([], [])
    seeds: dict[int, int] = {}
    for ga, gb in _aligned(a, b):
        counts[bool(ga.won)][bool(gb.won)] += 1
        if ga.won != gb.won:
            first = firsts[0 if ga.won else 1]
            if len(first) < FIRST_BOARDS:
                first.append(ga.index)
                seed = getattr(ga, "seed", None)
                if seed is not None:
                    seeds[ga.index] = seed
    return Paired(
        a=label_a,
        b=label_b,
        games=sum(map(sum, counts)),
        both=counts[1][1],
        only_a=counts[1][0],
        only_b=counts[0][1],
        neither=counts[0][0],
        only_a_games=tuple(firsts[0]),
        only_b_games=tuple(firsts[1]),
        seeds=seeds,
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


def pair_runs(runs: Sequence[tuple[str | Path, Any, str]]) -> list[Paired]:
    """Every two runs (in the order given) that hold the same boards, paired game by game
    (those that share no game index are left out).

    A run is ``(database path, player, label)``: ``player`` picks the games of one
    player of a store that holds several (a fingerprint, ``None`` for the unknown
    one), or ``store.ANY_PLAYER`` for all of them. Both stores are read in index
    order at the same time, one game of each in memory.
    """
    configs = []
    for path, _, _ in runs:
        with GameStore(path) as store:
            configs.append(store.config)
    out = []
    for i in range(len(runs)):
        for j in range(i + 1, len(runs)):
            if not same_boards(configs[i], configs[j]):
                continue
            (path_a, player_a, label_a), (path_b, player_b, label_b) = runs[i], runs[j]
            with GameStore(path_a) as sa, GameStore(path_b) as sb:
                p = pair_games(sa.games(player=player_a), sb.games(player=player_b), label_a, label_b)
            if p.games:  # two players of one store share no game index: nothing to pair
                out.append(dataclasses.replace(p, a_source=str(path_a), b_source=str(path_b)))
    return out


def pair_dbs(paths: Sequence[str | Path], labels: Sequence[str]) -> list[Paired]:
    """Every pair of databases (in the order given) that hold the same boards, paired game by game.

    ``labels`` name the runs as the report shows them (every game of each store).
    """
    return pair_runs([(path, ANY_PLAYER, label) for path, label in zip(paths, labels, strict=True)])
