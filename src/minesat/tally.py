"""Statistics over finished games: one streaming counter, frozen into a :class:`Summary`.

Below everything that counts games (``minesat simulate`` as they are played, ``minesat
sweep`` per point, ``minesat report`` over a store read back by :mod:`minesat.report.runs`),
and knowing none of them: a game is anything shaped like :class:`GameLike`.

Every quantity is a counter or a fixed-size histogram, so a report on a million
games needs no more memory than a report on ten. Integer-valued quantities
(guesses, 3BV, the number of the fatal guess) are counted per value, which is
bounded by the number of cells on the board; real-valued ones (probabilities,
seconds) go into fixed bins.

The same :class:`Tally` counts games for ``minesat simulate``'s summary (as they
arrive from the workers) and for ``minesat report`` (as they are read back from
a store), so the two can never disagree.

>>> from minesat.board import Move
>>> from minesat.player import Guess
>>> from types import SimpleNamespace as G
>>> games = [
...     G(index=0, seed=0, won=True, moves=12, guesses=(), uncovered=71, bbbv=20, seconds=0.01),
...     G(index=1, seed=1, won=False, moves=5, guesses=(Guess(Move.parse("A1"), 0.2),), uncovered=9,
...       bbbv=25, seconds=0.02),
... ]
>>> s = summarize(games)
>>> s.games, s.wins, s.win_rate, s.no_guess_wins
(2, 1, 0.5, 1)
>>> [(step.number, step.made, step.fatal) for step in s.guess_steps]
[(1, 1, 1)]
"""

from __future__ import annotations

import math
import shlex
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from minesat.board import PRESETS, Move
from minesat.player import Guess
from minesat.stats import wilson
from minesat.words import plural

__all__ = [
    "DEATH_BINS",
    "RISK_BINS",
    "TIME_BINS",
    "TIME_LO_EXP",
    "TIME_PER_DECADE",
    "Bucket",
    "ConfigLike",
    "GameLike",
    "GuessStep",
    "LossesDetail",
    "RiskBin",
    "Summary",
    "Tally",
    "bin_buckets",
    "config_dict",
    "nice_width",
    "preset_name",
    "ratio",
    "simulate_command",
    "summarize",
]

# --- what a game must look like ----------------------------------------------


class GameLike(Protocol):
    """What the statistics read from a game: a ``store.StoredGame`` fits, and a
    ``player.GameRecord``. Read only (properties), so that frozen records fit; what only some
    games have (``moves``, ``analyses``, ``searches_cut``, ``index``) is read where present."""

    @property
    def won(self) -> bool: ...
    @property
    def guesses(self) -> Sequence[Guess]: ...
    @property
    def uncovered(self) -> int: ...
    @property
    def bbbv(self) -> int: ...
    @property
    def seconds(self) -> float: ...


class ConfigLike(Protocol):
    """What the report reads from a run configuration: a ``store.RunConfig`` fits (and its
    ``strategy`` and ``boards``, a board set's SHA-256, where present)."""

    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def mines(self) -> int: ...
    @property
    def rule(self) -> str: ...
    @property
    def start(self) -> tuple[int, int]: ...
    @property
    def seed(self) -> int: ...


# --- the summary -------------------------------------------------------------


def ratio(part: float, whole: float) -> float:
    """``part / whole``, or 0 when there is nothing to divide (an empty run, an empty bin)."""
    return part / whole if whole else 0.0


@dataclass(frozen=True)
class Bucket:
    """Games whose value lies in ``[lo, hi)``, and how many of them were won."""

    lo: float
    hi: float
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return ratio(self.wins, self.games)

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


@dataclass(frozen=True)
class GuessStep:
    """The ``number``-th guess of a game: how many games made one, how many died on it.

    ``fatal / made`` is the hazard of that guess; the steps together say where
    games are lost.
    """

    number: int
    made: int
    fatal: int


@dataclass(frozen=True)
class RiskBin:
    """Guesses whose mine probability lay in ``[lo, hi)``, and how many hit a mine.

    With exact probabilities, ``fatal / guesses`` should match
    ``mean_probability``: this is the engine's calibration check.
    """

    lo: float
    hi: float
    guesses: int
    fatal: int
    probability_sum: float

    @property
    def mean_probability(self) -> float:
        return ratio(self.probability_sum, self.guesses)

    @property
    def loss_rate(self) -> float:
        return ratio(self.fatal, self.guesses)


#: Bins of :attr:`LossesDetail.uncovered_at_death`: tenths of the safe cells.
DEATH_BINS = 10


@dataclass(frozen=True)
class LossesDetail:
    """Where and when the lost games of a run were lost (docs/commands/report.md, ``losses_detail``).

    The mean share uncovered at death hides a bimodal thing (games lost at the
    first guess, and games lost in the last 50/50); these counts show it.
    """

    #: rows x cols: how many lost games died on each cell (the cell of the fatal guess).
    fatal_cells: tuple[tuple[int, ...], ...]
    #: Lost games by the share of the safe cells uncovered when they were lost: 0-10 %, ..., 90-100 %.
    uncovered_at_death: tuple[int, ...]
    #: Lost games by which guess of the game was fatal: [1st, 2nd, ...].
    fatal_guess: tuple[int, ...]

    @property
    def losses(self) -> int:
        return sum(self.uncovered_at_death)

    @property
    def on_border(self) -> tuple[int, float]:
        """Fatal guesses on an edge or corner cell, and the share of the board's cells those are.

        >>> d = LossesDetail(((1, 0, 0), (0, 2, 0), (0, 0, 1)), (4,) + (0,) * 9, (4,))
        >>> d.on_border
        (2, 0.8888888888888888)
        """
        rows, cols = len(self.fatal_cells), len(self.fatal_cells[0]) if self.fatal_cells else 0
        if not rows or not cols:
            return 0, 0.0
        inner = max(rows - 2, 0) * max(cols - 2, 0)
        on = sum(n for r, line in enumerate(self.fatal_cells) for c, n in enumerate(line)
                 if r in (0, rows - 1) or c in (0, cols - 1))  # fmt: skip
        return on, (rows * cols - inner) / (rows * cols)

    def to_dict(self) -> dict[str, Any]:
        return {
            "fatal_cells": [list(line) for line in self.fatal_cells],
            "uncovered_at_death": list(self.uncovered_at_death),
            "fatal_guess": list(self.fatal_guess),
        }


@dataclass(frozen=True, repr=False)
class Summary:
    """Everything a report says about one run, computed by :func:`summarize`; its ``repr`` is
    one line (the histograms are in its fields)."""

    label: str  # short name for tables and plot legends
    source: str  # where the games came from (a database path), or ""
    config: dict[str, Any] | None  # rows, cols, mines, rule, start, seed, strategy
    games: int
    wins: int
    ci95: tuple[float, float]
    no_guess_wins: int
    lost_without_guess: int  # losses with no guess (first click under rule "any")
    guesses_total: int
    moves_total: int
    guesses: tuple[Bucket, ...]  # per number of guesses: games and wins
    guess_steps: tuple[GuessStep, ...]  # where games are lost
    fatal_risk: tuple[RiskBin, ...]  # every guess by probability, fatal ones counted
    bbbv: tuple[Bucket, ...]  # per 3BV value
    bbbv_binned: tuple[Bucket, ...]  # the same in ~12 bins, for win rate by 3BV
    seconds_total: float
    seconds_min: float
    seconds_max: float
    seconds_median: float  # from the log histogram: within ~12 %
    seconds_p90: float
    seconds_hist: tuple[Bucket, ...]  # non-empty log bins only
    uncovered_lost_total: int  # safe cells uncovered in lost games
    index_max: int  # highest game index seen, -1 when no games
    notes: tuple[str, ...] = field(default=())
    losses_detail: LossesDetail | None = None  # None when the board is not known
    #: The fingerprint of the player whose games these are (None: unknown, or not from a store).
    player: str | None = None
    #: How many players the store holds games of: more than one and it is split by player,
    #: each player's games a run of its own (docs/commands/report.md).
    players_in_store: int = 1
    #: What made the games (docs/commands/report.md): set by :func:`minesat.report.runs.summarize_db`.
    provenance: dict[str, Any] | None = None

    def __repr__(self) -> str:
        if not self.games:
            return f"Summary({self.label}: 0 games)"
        lo, hi = self.ci95
        return (f"Summary({self.label}: {self.games:,} games, {100 * self.win_rate:.2f} % won "
                f"(95 % CI {100 * lo:.2f}–{100 * hi:.2f} %))")  # fmt: skip

    # Derived figures are properties so they cannot disagree with the counts.
    @property
    def losses(self) -> int:
        return self.games - self.wins

    @property
    def win_rate(self) -> float:
        return ratio(self.wins, self.games)

    @property
    def no_guess_share(self) -> float:
        """Share of all games won without a single guess."""
        return ratio(self.no_guess_wins, self.games)

    @property
    def guesses_mean(self) -> float:
        return ratio(self.guesses_total, self.games)

    @property
    def moves_mean(self) -> float:
        return ratio(self.moves_total, self.games)

    @property
    def seconds_mean(self) -> float:
        return ratio(self.seconds_total, self.games)

    @property
    def complete(self) -> bool:
        """True when the stored games are exactly indices ``0 .. games-1``."""
        return self.index_max + 1 == self.games

    @property
    def progress_lost_mean(self) -> float | None:
        """Mean share of the safe cells a lost game had uncovered, when the board is known."""
        if self.config is None or self.losses == 0:
            return None
        safe = self.config["rows"] * self.config["cols"] - self.config["mines"]
        return self.uncovered_lost_total / (self.losses * safe) if safe else None

    @property
    def command(self) -> str | None:
        """The ``minesat simulate`` command that reproduces this run, when the config is known."""
        return simulate_command(self.config, self.index_max + 1, self.source or None)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the fields plus the derived figures."""
        out = asdict(self)
        out["ci95"] = list(self.ci95)
        if out["config"] is not None and "seed" in out["config"]:
            out["config"]["seed"] = str(out["config"]["seed"])  # digits: JSON readers round past 2^53
        for key in (
            "losses", "win_rate", "no_guess_share", "guesses_mean", "moves_mean",
            "seconds_mean", "complete", "progress_lost_mean", "command",
        ):  # fmt: skip
            out[key] = getattr(self, key)
        for key in ("guesses", "bbbv", "bbbv_binned"):
            for row, bucket in zip(out[key], getattr(self, key), strict=True):
                row["win_rate"] = bucket.win_rate
                row["ci95"] = list(bucket.ci95)
        for row, risk in zip(out["fatal_risk"], self.fatal_risk, strict=True):
            row["mean_probability"] = risk.mean_probability
            row["loss_rate"] = risk.loss_rate
        out["losses_detail"] = self.losses_detail.to_dict() if self.losses_detail else None
        return out

    @property
    def safe_cells(self) -> int | None:
        """The mine-free cells of the board, when it is known."""
        if self.config is None:
            return None
        return self.config["rows"] * self.config["cols"] - self.config["mines"]


def config_dict(config: ConfigLike | None) -> dict[str, Any] | None:
    """The run configuration as a plain dict (``start`` as a list, JSON-style)."""
    if config is None:
        return None
    keys = ("rows", "cols", "mines", "rule", "start", "seed", "strategy")
    out = {k: getattr(config, k) for k in keys if hasattr(config, k)}
    out["start"] = list(out["start"])
    boards = getattr(config, "boards", None)
    if boards:  # a board set's SHA-256: its games are its lines, not seeds
        out["boards"] = boards
    return out


def preset_name(config: dict[str, Any]) -> str | None:
    """The preset whose board this is, if any."""
    board = (config["rows"], config["cols"], config["mines"])
    return next((name for name, dims in PRESETS.items() if dims == board), None)


def simulate_command(config: dict[str, Any] | None, games: int, db: str | None = None) -> str | None:
    """The command line that plays the same games again.

    >>> cfg = dict(rows=16, cols=30, mines=99, rule="opening", start=[3, 3], seed=7)
    >>> simulate_command(cfg, 1000)
    'minesat simulate --preset expert --games 1000 --seed 7 --first-click opening --start 3,3'

    A board set is named by a stand-in, BOARDS.jsonl: the store keeps its SHA-256, not its path.
    """
    if config is None:
        return None
    preset = preset_name(config)
    args = ["minesat", "simulate"]
    if config.get("boards"):
        args += ["--boards", "BOARDS.jsonl", "--games", str(games)]
        args += ["--first-click", str(config["rule"]), "--start", "{},{}".format(*config["start"])]
        args += ["--strategy", str(config.get("strategy", "safest"))] + (["--db", db] if db else [])
        return shlex.join(args)
    if preset:
        args += ["--preset", preset]
    else:
        args += ["--rows", str(config["rows"]), "--cols", str(config["cols"])]
        args += ["--mines", str(config["mines"])]
    args += ["--games", str(games), "--seed", str(config["seed"])]
    args += ["--first-click", str(config["rule"])]
    args += ["--start", "{},{}".format(*config["start"])]
    # Always named: the default strategy changes as stronger ones land; old runs used "safest".
    if "strategy" in config:
        args += ["--strategy", str(config["strategy"])]
    if db:
        args += ["--db", db]
    return shlex.join(args)


# --- the streaming pass ------------------------------------------------------

#: Probability bins for guesses: 20 bins of 0.05.
RISK_BINS = 20
#: Log-spaced bins for seconds per game: 10 per decade, 1 µs .. 10^4 s, clamped at both ends.
TIME_PER_DECADE = 10
TIME_LO_EXP = -6
TIME_BINS = TIME_PER_DECADE * 10


def _time_bin(seconds: float) -> int:
    if seconds <= 0:
        return 0
    k = math.floor((math.log10(seconds) - TIME_LO_EXP) * TIME_PER_DECADE)
    return min(max(k, 0), TIME_BINS - 1)


def _time_edge(k: int) -> float:
    return 10.0 ** (TIME_LO_EXP + k / TIME_PER_DECADE)


class Tally:
    """Counters over finished games, in any order: :meth:`add` each game once, then :meth:`summary`.

    One class counts for both ``minesat simulate``'s summary and the report.
    A game is anything shaped like :class:`GameLike` (a ``store.StoredGame``;
    a ``player.GameRecord``, whose ``moves`` are the moves themselves).

    >>> tally = Tally()
    >>> tally.games, tally.win_rate
    (0, 0.0)
    """

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0
        self.no_guess_wins = 0
        self.lost_without_guess = 0
        self.guesses = 0  # guesses made, all games together
        self.moves = 0
        self.analyses = 0  # calls to the analysis engine, all games together
        self.searches_cut = 0  # endgame searches that ran out of budget, all games together
        self.fatal_probability = 0.0  # sum over lost games of the fatal guess's probability
        self.index_max = -1
        self.uncovered_lost = 0
        # number of guesses -> games, wins; bounded by the cell count
        self.by_guesses: Counter[int] = Counter()
        self.wins_by_guesses: Counter[int] = Counter()
        self.fatal_at: Counter[int] = Counter()  # fatal guess number -> losses
        self.fatal_moves: Counter[Move] = Counter()  # the fatal guess's move -> losses; bounded by the cells
        self.uncovered_at_loss: Counter[int] = Counter()  # safe cells uncovered -> losses
        self.risk_guesses = [0] * RISK_BINS
        self.risk_fatal = [0] * RISK_BINS
        self.risk_sum = [0.0] * RISK_BINS
        self.by_bbbv: Counter[int] = Counter()
        self.wins_by_bbbv: Counter[int] = Counter()
        self.time_hist = [0] * TIME_BINS
        self.seconds = 0.0  # wall time of the games themselves, summed
        self.seconds_min = math.inf
        self.seconds_max = 0.0

    def add(self, game: GameLike) -> None:
        """Count one game."""
        self.games += 1
        won = bool(game.won)
        n_guesses = len(game.guesses)
        self.wins += won
        self.guesses += n_guesses
        moves = getattr(game, "moves", 0)
        # StoredGame keeps the move count, GameRecord the moves themselves.
        self.moves += moves if isinstance(moves, int) else len(moves)
        self.analyses += getattr(game, "analyses", 0)
        self.searches_cut += getattr(game, "searches_cut", 0)
        self.index_max = max(self.index_max, getattr(game, "index", self.games - 1))
        self.by_guesses[n_guesses] += 1
        self.by_bbbv[game.bbbv] += 1
        if won:
            self.wins_by_guesses[n_guesses] += 1
            self.wins_by_bbbv[game.bbbv] += 1
            self.no_guess_wins += n_guesses == 0
        else:
            self.uncovered_lost += game.uncovered
            self.uncovered_at_loss[game.uncovered] += 1
            if n_guesses:
                self.fatal_at[n_guesses] += 1  # the player only loses on its last guess
                self.fatal_moves[game.guesses[-1].move] += 1
                self.fatal_probability += float(game.guesses[-1].probability)
            else:
                self.lost_without_guess += 1
        for i, guess in enumerate(game.guesses):
            p = float(guess.probability)
            b = min(max(int(p * RISK_BINS), 0), RISK_BINS - 1)
            self.risk_guesses[b] += 1
            self.risk_sum[b] += p
            self.risk_fatal[b] += (not won) and i == n_guesses - 1
        s = float(game.seconds)
        self.seconds += s
        self.seconds_min = min(self.seconds_min, s)
        self.seconds_max = max(self.seconds_max, s)
        self.time_hist[_time_bin(s)] += 1

    def update(self, games: Iterable[GameLike]) -> Tally:
        """Count every game of ``games`` (streamed); returns ``self`` for chaining."""
        for game in games:
            self.add(game)
        return self

    @property
    def losses(self) -> int:
        return self.games - self.wins

    @property
    def win_rate(self) -> float:
        return ratio(self.wins, self.games)

    def _time_quantile(self, q: float) -> float:
        """The q-quantile of seconds, interpolated geometrically inside its log bin."""
        if not self.games:
            return 0.0
        target = q * self.games
        seen = 0
        for k, count in enumerate(self.time_hist):
            if count and seen + count >= target:
                frac = (target - seen) / count
                lo, hi = _time_edge(k), _time_edge(k + 1)
                value = lo * (hi / lo) ** frac
                return min(max(value, self.seconds_min), self.seconds_max)
            seen += count
        return self.seconds_max

    def summary(
        self, config: ConfigLike | None = None, source: str = "", label: str | None = None
    ) -> Summary:
        """Freeze the counters into a :class:`Summary`."""
        guesses = tuple(
            Bucket(k, k + 1, self.by_guesses[k], self.wins_by_guesses[k]) for k in sorted(self.by_guesses)
        )
        # A game that made k guesses made its 1st .. k-th: count survivors per step.
        steps = []
        made = self.games - self.by_guesses[0]
        for number in range(1, max(self.by_guesses, default=0) + 1):
            steps.append(GuessStep(number, made, self.fatal_at[number]))
            made -= self.by_guesses[number]
        risk = tuple(
            RiskBin(b / RISK_BINS, (b + 1) / RISK_BINS, self.risk_guesses[b],
                    self.risk_fatal[b], self.risk_sum[b])
            for b in range(RISK_BINS)
        )  # fmt: skip
        bbbv = tuple(Bucket(v, v + 1, self.by_bbbv[v], self.wins_by_bbbv[v]) for v in sorted(self.by_bbbv))
        times = tuple(
            Bucket(_time_edge(k), _time_edge(k + 1), c, 0) for k, c in enumerate(self.time_hist) if c
        )
        cfg = config_dict(config)
        detail = self._losses_detail(cfg) if cfg is not None else None
        notes = []
        if self.games and self.index_max + 1 != self.games:
            stored = plural(self.games, "game")
            notes.append(f"incomplete run: {stored} stored out of indices 0..{self.index_max}")
        if label is None:
            label = Path(source).stem if source else (_config_label(cfg) if cfg else "games")
        return Summary(
            label=label,
            source=source,
            config=cfg,
            games=self.games,
            wins=self.wins,
            ci95=wilson(self.wins, self.games),
            no_guess_wins=self.no_guess_wins,
            lost_without_guess=self.lost_without_guess,
            guesses_total=self.guesses,
            moves_total=self.moves,
            guesses=guesses,
            guess_steps=tuple(steps),
            fatal_risk=risk,
            bbbv=bbbv,
            bbbv_binned=bin_buckets(bbbv),
            seconds_total=self.seconds,
            seconds_min=self.seconds_min if self.games else 0.0,
            seconds_max=self.seconds_max,
            seconds_median=self._time_quantile(0.5),
            seconds_p90=self._time_quantile(0.9),
            seconds_hist=times,
            uncovered_lost_total=self.uncovered_lost,
            index_max=self.index_max,
            notes=tuple(notes),
            losses_detail=detail,
        )

    def _losses_detail(self, cfg: dict[str, Any]) -> LossesDetail:
        rows, cols = cfg["rows"], cfg["cols"]
        grid = [[0] * cols for _ in range(rows)]
        for move, count in self.fatal_moves.items():
            r, c = move.cell
            grid[r][c] += count
        safe = rows * cols - cfg["mines"]
        death = [0] * DEATH_BINS
        for uncovered, count in self.uncovered_at_loss.items():
            # Exact integer bins: the share uncovered / safe falls in tenth k when 10 * share >= k.
            death[min(uncovered * DEATH_BINS // safe, DEATH_BINS - 1) if safe else 0] += count
        fatal = [self.fatal_at[k] for k in range(1, max(self.fatal_at, default=0) + 1)]
        return LossesDetail(tuple(map(tuple, grid)), tuple(death), tuple(fatal))


def _config_label(cfg: dict[str, Any]) -> str:
    return preset_name(cfg) or "{rows}x{cols}/{mines}".format(**cfg)


def nice_width(span: float, bins: int = 12) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... that splits ``span`` into at most ``bins`` bins.

    >>> nice_width(10), nice_width(100), nice_width(250)
    (1, 10, 25)
    """
    scale = 1
    while True:
        for step in (1, 2, 2.5, 5):
            width = step * scale
            if width == int(width) and span / width <= bins:
                return int(width)
        scale *= 10


def bin_buckets(buckets: Sequence[Bucket], bins: int = 12) -> tuple[Bucket, ...]:
    """Merge unit-width buckets into at most about ``bins`` aligned bins of a nice width.

    >>> unit = [Bucket(3, 4, 2, 1), Bucket(9, 10, 1, 1)]
    >>> [(b.lo, b.hi, b.games, b.wins) for b in bin_buckets(unit, 3)]
    [(0, 5, 2, 1), (5, 10, 1, 1)]
    """
    if not buckets:
        return ()
    lo, hi = int(buckets[0].lo), int(buckets[-1].lo)
    width = nice_width(hi - lo + 1, bins)
    merged: dict[int, list[int]] = {}
    for b in buckets:
        start = int(b.lo) // width * width
        acc = merged.setdefault(start, [0, 0])
        acc[0] += b.games
        acc[1] += b.wins
    return tuple(Bucket(s, s + width, g, w) for s, (g, w) in sorted(merged.items()))


def summarize(
    games: Iterable[GameLike],
    config: ConfigLike | None = None,
    source: str = "",
    label: str | None = None,
) -> Summary:
    """One streaming pass over ``games`` (any iterable, e.g. a ``GameStore``)."""
    return Tally().update(games).summary(config, source, label)
