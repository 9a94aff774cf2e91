"""Solvability against density: curves over board sizes, first-click rules and strategies
(docs/commands/sweep.md).

A sweep is a family of curves, one per (size, rule, strategy), each a list of
points, one per mine count. Every point is an ordinary run
(:func:`minesat.simulation.play_indices` into its own resumable store), so a sweep
interrupted at any moment resumes where it stopped, and every point can be
reported, exported or compared on its own. All points of all curves are played
on one worker pool (:func:`run_sweep`): no pool is started per point, and no
worker waits for a point's last game while another point has games to play.

Mines are given as counts or as densities (d means ``round(d x cells)`` mines,
halves to even as Python rounds, computed exactly from the decimal written):

>>> parse_mines("40,60,99"), parse_mines("40:120:20")  # the end is included when the steps reach it
([40, 60, 99], [40, 60, 80, 100, 120])
>>> [str(d) for d in parse_densities("0.1:0.2:0.05")], mines_at(parse_densities("0.15")[0], 81)
(['1/10', '3/20', '1/5'], 12)
>>> plan = plan_sweep([(9, 9), (16, 30)], ["opening"], ["safest"], densities=parse_densities("0.1,0.2"))
>>> [(c.label, c.mines) for c in plan.curves]
[('9x9 opening safest', (8, 16)), ('16x30 opening safest', (48, 96))]
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import shlex
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from minesat.board import Cell, as_cell, check_size
from minesat.errors import InvalidValue
from minesat.executors import run_bounded, worker_pool
from minesat.export import GamesDigest
from minesat.generate import BoardSpec, FirstClick
from minesat.logistic import LogisticFit, fit_logistic
from minesat.player import default_start, get_strategy
from minesat.provenance import Session, new_session, player_fingerprint, run_provenance
from minesat.rules import rules_object
from minesat.simulation import (
    BatchFunction,
    check_batch,
    check_counts,
    check_player,
    default_batch_size,
    in_flight,
    index_batches,
    play_indices,
    played_by,
    player_rows,
    player_tallies,
)
from minesat.stats import mean_interval, wilson
from minesat.store import ANY_PLAYER, GameStore, RunConfig, Whose
from minesat.sweeplists import (
    MAX_POINTS,
    density_text,
    mines_text,
    parse_densities,
    parse_mines,
    parse_sizes,
    preset_sizes,
    split_list,
)
from minesat.tally import Tally, simulate_command

#: At most this many points in a whole sweep (curves times values).
MAX_SWEEP_POINTS = 10_000

__all__ = [
    "MAX_POINTS", "MAX_SWEEP_POINTS", "Crossing", "Curve", "CurvePlan", "Sweep", "SweepPlan", "SweepPoint",
    "SweepProgress", "density_text", "effective_density", "interpolated_crossing", "mean_interval",
    "mines_at", "mines_text", "parse_densities", "parse_mines", "parse_sizes", "plan_sweep", "point_db",
    "preset_sizes", "run_sweep", "split_list", "sweep",
]  # fmt: skip


def mines_at(density: Fraction, cells: int) -> int:
    """The mine count of a density on a board of ``cells``: ``round(density x cells)``."""
    return round(density * cells)


# --- the plan ------------------------------------------------------------------------


def effective_density(spec: BoardSpec) -> float:
    """Mines per cell the player does not know to be safe at the start: ``mines / (cells - clear)``.

    On a small board the opening rule's nine clear cells are a large share:
    10 mines on 9x9 are 12.3 % of the cells but 13.9 % of the 72 that may hold
    them. 0 when no cell may hold a mine (then there are none).

    >>> round(effective_density(BoardSpec(9, 9, 10, rule="opening", start="D4")), 4)
    0.1389
    """
    return spec.mines / spec.free if spec.free else 0.0


@dataclass(frozen=True)
class CurvePlan:
    """One curve to play: a board size, rule, start, strategy and seed, and its mine counts."""

    base: RunConfig  # the curve's options; its ``mines`` is the first point's
    mines: tuple[int, ...]

    @property
    def label(self) -> str:
        """``16x30 opening best``: the size, the rule and the strategy, which set curves apart."""
        c = self.base
        return f"{c.rows}x{c.cols} {c.rule} {c.strategy}"

    def configs(self) -> list[RunConfig]:
        """The run of every point, in mine order."""
        return [dataclasses.replace(self.base, mines=m) for m in self.mines]


@dataclass(frozen=True)
class SweepPlan:
    """Every curve of a sweep, checked, and the options that name it again."""

    curves: tuple[CurvePlan, ...]
    seed: int
    start: Cell | None  # as given; None: 3,3 clipped to each board
    mines: tuple[int, ...] | None  # as given: counts ...
    densities: tuple[Fraction, ...] | None  # ... or densities
    rules: tuple[str, ...]
    strategies: tuple[str, ...]

    @property
    def sizes(self) -> list[tuple[int, int]]:
        return list(dict.fromkeys((c.base.rows, c.base.cols) for c in self.curves))

    def points(self) -> int:
        return sum(len(c.mines) for c in self.curves)

    def command(self, games: int, db: str | Path | None = None) -> str:
        """The ``minesat sweep`` command that plays this sweep again (or resumes it)."""
        args = ["minesat", "sweep"]
        for rows, cols in self.sizes:
            args += ["--size", f"{rows}x{cols}"]
        if self.densities is not None:
            args += ["--density", density_text(self.densities)]
        else:
            args += ["--mines", mines_text(self.mines or ())]
        args += ["--games", str(games), "--seed", str(self.seed)]
        args += ["--first-click", ",".join(self.rules), "--strategy", ",".join(self.strategies)]
        if self.start is not None:
            args += ["--start", f"{self.start[0]},{self.start[1]}"]
        if db is not None:
            args += ["--db", str(db)]
        return shlex.join(args)

    def default_dir(self) -> Path:
        """Where the stores go when no ``--db`` is given, named by what sets the curves apart.

        One curve: ``reports/sweep-<rows>x<cols>-<rule>-r<ROW>c<COL>-s<SEED>-<strategy>``;
        several: ``reports/sweep-<sizes>-<rules>[-r<ROW>c<COL>]-s<SEED>-<strategies>``, each
        list joined by ``+``.
        """
        if len(self.curves) == 1:
            c = self.curves[0].base
            where = f"r{c.start[0]}c{c.start[1]}"
            return Path("reports") / f"sweep-{c.rows}x{c.cols}-{c.rule}-{where}-s{c.seed}-{c.strategy}"
        sizes = "+".join(f"{r}x{c}" for r, c in self.sizes)
        where = f"-r{self.start[0]}c{self.start[1]}" if self.start is not None else ""
        rules, strategies = "+".join(self.rules), "+".join(self.strategies)
        return Path("reports") / f"sweep-{sizes}-{rules}{where}-s{self.seed}-{strategies}"


def plan_sweep(
    sizes: Sequence[tuple[int, int]],
    rules: Sequence[str],
    strategies: Sequence[str],
    *,
    mines: Sequence[int] | None = None,
    densities: Sequence[Fraction] | None = None,
    start: Cell | None = None,
    seed: int = 0,
) -> SweepPlan:
    """Check every curve and point of a sweep; a :class:`ValueError` names the first that cannot be played.

    Curves come ordered by board size (cells, then rows), then by rule and
    strategy in the order given. ``start`` None is 3,3 clipped to each board.

    >>> plan_sweep([(9, 9)], ["opening"], ["safest"], mines=[10, 80])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minesat.errors.InvalidValue: the point 9x9 opening safest at 80 mines cannot be played: ...
    """
    # Messages name parameters as {mines}: mines= in the library, --mines on the command line.
    if not sizes:
        raise InvalidValue("give a board size: {sizes:RxC}", template=True)
    if (mines is None) == (densities is None):
        raise InvalidValue("give the mines as counts ({mines}) or as densities ({densities}), one of them",
                           template=True)  # fmt: skip
    values = mines if mines is not None else densities
    if not values:
        raise InvalidValue("no mine counts" if mines is not None else "no densities",
                           parameter="mines" if mines is not None else "densities")  # fmt: skip
    if not rules or not strategies:
        raise InvalidValue("give at least one first-click rule ({rules}) and one strategy ({strategies})",
                           template=True)  # fmt: skip
    for rule in rules:
        if rule not in {r.value for r in FirstClick}:
            known = tuple(r.value for r in FirstClick)
            raise InvalidValue(f"must be among {', '.join(known)}, not {rule!r}", parameter="rules",
                               value=rule, choices=known)  # fmt: skip
    for name in strategies:
        get_strategy(name)
    if len(sizes) * len(rules) * len(strategies) * len(values) > MAX_SWEEP_POINTS:
        raise InvalidValue(f"more than {MAX_SWEEP_POINTS} points in one sweep; use fewer values or curves")
    curves = []
    for rows, cols in sorted(dict.fromkeys(sizes), key=lambda s: (s[0] * s[1], s[0])):
        check_size(rows, cols)
        if start is not None and not (0 <= start[0] < rows and 0 <= start[1] < cols):
            raise InvalidValue(f"{start[0]},{start[1]} is off the {rows}x{cols} board", parameter="start",
                               value=start)  # fmt: skip
        first = start if start is not None else default_start(rows, cols)
        if mines is not None:
            counts = sorted(set(mines))
        else:
            counts = sorted({mines_at(d, rows * cols) for d in densities or ()})
        for rule in rules:
            for strategy in strategies:
                base = RunConfig(rows=rows, cols=cols, mines=counts[0], rule=rule, start=first,
                                 seed=seed, strategy=strategy)  # fmt: skip
                curve = CurvePlan(base, tuple(counts))
                for m in counts:
                    try:
                        BoardSpec(rows, cols, m, rule=rule, start=first).check()
                    except InvalidValue as err:
                        point = f"the point {curve.label} at {m} mines"
                        raise InvalidValue(f"{point} cannot be played: {err}") from None
                curves.append(curve)
    return SweepPlan(
        curves=tuple(curves),
        seed=seed,
        start=start,
        mines=tuple(sorted(set(mines))) if mines is not None else None,
        densities=tuple(sorted(set(densities))) if densities is not None else None,
        rules=tuple(rules),
        strategies=tuple(strategies),
    )


# --- the results ---------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class SweepPoint:
    """One mine count of a curve: its games and measures, each with its 95 % interval."""

    mines: int
    density: float  # mines / cells
    effective_density: float  # mines / (cells - the cells the rule keeps clear)
    games: int
    wins: int
    no_guess_wins: int
    guesses_total: int
    guesses_sq_total: int  # sum over games of guesses², for the mean's interval
    won_guesses_total: int = 0  # guesses made in won games
    won_guesses_sq_total: int = 0
    fatal_guesses: int = 0  # guesses that hit a mine (each ended its game)
    db: str = ""
    #: What made the point's games (docs/commands/report.md), as ``minesat report`` gives a run's;
    #: its ``command`` is the ``minesat simulate`` that plays (or resumes) the point alone.
    provenance: dict[str, Any] | None = dataclasses.field(default=None, hash=False)
    #: A store of several players' games (``mix_players``): each player's games and wins, apart;
    #: the point's figures are those of one of them (:func:`run_sweep`). Empty otherwise.
    players: tuple[dict[str, Any], ...] = dataclasses.field(default=(), hash=False)

    def __repr__(self) -> str:
        return (f"SweepPoint({self.mines} mines, density {100 * self.density:.1f} %: {self.wins:,} of "
                f"{self.games:,} won)")  # fmt: skip

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def no_guess_rate(self) -> float:
        return self.no_guess_wins / self.games if self.games else 0.0

    @property
    def no_guess_ci95(self) -> tuple[float, float]:
        return wilson(self.no_guess_wins, self.games)

    @property
    def guesses_mean(self) -> float:
        """Guesses per game. Falls at high densities only because lost games stop early:
        read :attr:`guesses_per_win` or :attr:`hazard` instead."""
        return self.guesses_total / self.games if self.games else 0.0

    @property
    def guesses_ci95(self) -> tuple[float, float] | None:
        """Student's t 95 % interval of :attr:`guesses_mean`; ``None`` under 2 games."""
        return mean_interval(self.guesses_total, self.guesses_sq_total, self.games)

    @property
    def guesses_per_win(self) -> float | None:
        """Guesses a won game needed, on average: the guesses a board asks of a player who clears it."""
        return self.won_guesses_total / self.wins if self.wins else None

    @property
    def guesses_per_win_ci95(self) -> tuple[float, float] | None:
        """Student's t 95 % interval of :attr:`guesses_per_win`, over the won games; ``None``
        under 2 won games (one value has no spread to measure)."""
        return mean_interval(self.won_guesses_total, self.won_guesses_sq_total, self.wins)

    @property
    def hazard(self) -> float | None:
        """The share of guesses that hit a mine: the risk a guess carries at this density."""
        return self.fatal_guesses / self.guesses_total if self.guesses_total else None

    @property
    def hazard_ci95(self) -> tuple[float, float] | None:
        """Wilson's interval, each guess counted as a trial (guesses of one game are not
        independent: read it as a guide, not an exact interval)."""
        return wilson(self.fatal_guesses, self.guesses_total) if self.guesses_total else None

    @classmethod
    def from_tally(
        cls, config: RunConfig, tally: Tally, db: str = "", provenance: dict[str, Any] | None = None,
        players: Sequence[dict[str, Any]] = (),
    ) -> SweepPoint:
        c = config
        won = tally.wins_by_guesses
        return cls(
            mines=c.mines,
            density=c.mines / (c.rows * c.cols),
            effective_density=effective_density(c.spec),
            games=tally.games,
            wins=tally.wins,
            no_guess_wins=tally.no_guess_wins,
            guesses_total=tally.guesses,
            guesses_sq_total=sum(k * k * n for k, n in tally.by_guesses.items()),
            won_guesses_total=sum(k * n for k, n in won.items()),
            won_guesses_sq_total=sum(k * k * n for k, n in won.items()),
            fatal_guesses=sum(tally.fatal_at.values()),
            db=db,
            provenance=provenance,
            players=tuple(players),
        )

    def to_dict(self) -> dict[str, Any]:
        """The documented keys first (``mines``, ``density``, ``effective_density``, ``games``, ``wins``,
        ``win_rate``, ``ci95``, ``no_guess_wins``), then the other measures."""
        return {
            "mines": self.mines,
            "density": self.density,
            "effective_density": self.effective_density,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95),
            "no_guess_wins": self.no_guess_wins,
            "no_guess_rate": self.no_guess_rate,
            "no_guess_ci95": list(self.no_guess_ci95),
            "guesses_per_win": self.guesses_per_win,
            "guesses_per_win_ci95": _list(self.guesses_per_win_ci95),
            "guesses": self.guesses_total,
            "fatal_guesses": self.fatal_guesses,
            "hazard": self.hazard,
            "hazard_ci95": _list(self.hazard_ci95),
            "guesses_mean": self.guesses_mean,
            "guesses_ci95": _list(self.guesses_ci95),
            "db": self.db,
            "provenance": self.provenance,
            "players": list(self.players),
        }


def _list(pair: tuple[float, float] | None) -> list[float] | None:
    return list(pair) if pair is not None else None


@dataclass(frozen=True)
class Crossing:
    """Where a curve's fitted win rate is 50 %: the density, its 95 % interval, and the same in
    other units; whether the fit is poor, and the crossing the points themselves give."""

    density: float
    low: float | None  # None: the interval is unbounded on that side
    high: float | None
    effective_density: float
    mines: float  # density x cells: a mine count between the grid's, not rounded
    #: The goodness-of-fit p-value is below 0.05: the points are no logistic curve, and
    #: the crossing is the model's; read :attr:`interpolated` beside it.
    poor_fit: bool = False
    #: The density where the line joining the two points around 50 % crosses it (the first such
    #: pair in density order), None when no two neighbouring points bracket 50 %.
    interpolated: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def interpolated_crossing(points: Sequence[tuple[float, float]], rate: float = 0.5) -> float | None:
    """Where the line joining two neighbouring ``(x, win rate)`` points crosses ``rate``: the
    first pair, in x order, with one rate at or above it and the other below; None if none.

    >>> interpolated_crossing([(0.1, 0.9), (0.2, 0.6), (0.3, 0.2)])
    0.225
    """
    pts = sorted(points)
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        if y0 != y1 and (y0 - rate) * (y1 - rate) <= 0:
            return x0 + (rate - y0) * (x1 - x0) / (y1 - y0)
    return None


@dataclass(frozen=True, repr=False)
class Curve:
    """One curve of a finished sweep: its options and its points, in mine order."""

    config: RunConfig  # its ``mines`` is the first point's
    points: tuple[SweepPoint, ...]

    def __repr__(self) -> str:
        c = self.crossing50
        crossing = f"50 % at density {100 * c.density:.2f} %" if c is not None else "no 50 % crossing"
        return f"Curve({self.label}: {len(self.points)} points, {crossing})"

    @property
    def label(self) -> str:
        return CurvePlan(self.config, tuple(p.mines for p in self.points)).label

    @property
    def cells(self) -> int:
        return self.config.rows * self.config.cols

    @property
    def clear(self) -> int:
        return len(self.config.spec.kept_clear())

    @functools.cached_property
    def fit(self) -> LogisticFit | None:
        """The logistic fit of the win rate on the density over every game of the curve."""
        return fit_logistic([(p.density, p.wins, p.games) for p in self.points])

    @property
    def crossing_note(self) -> str | None:
        """Why the curve has no 50 % crossing, or None when it has one."""
        rates = [p.win_rate for p in self.points if p.games]
        if not rates or not (min(rates) <= 0.5 <= max(rates)) or min(rates) == max(rates):
            return "the points do not bracket 50 %"
        fit = self.fit
        if fit is None:
            return "the games separate: every win at a lower density than every loss"
        if fit.slope == 0:
            return "the fitted curve is flat"
        return None

    @property
    def crossing50(self) -> Crossing | None:
        """The density where the fitted win rate is 50 %, with Fieller's 95 % interval
        (docs/commands/sweep.md)."""
        fit = self.fit
        if self.crossing_note is not None or fit is None:
            return None
        x = fit.crossing()
        low, high = fit.fieller()
        free = self.cells - self.clear
        line = interpolated_crossing([(p.density, p.win_rate) for p in self.points if p.games])
        return Crossing(density=x, low=low, high=high,
                        effective_density=x * self.cells / free if free else 0.0,
                        mines=x * self.cells, poor_fit=fit.poor_fit, interpolated=line)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """The documented keys (docs/commands/sweep.md), then the fit (so a reader can recompute the
        crossing) and why there is none."""
        c = self.config
        fit = self.fit
        crossing = self.crossing50
        return {
            "label": self.label,
            "rows": c.rows,
            "cols": c.cols,
            "rule": c.rule,
            "start": list(c.start),
            "strategy": c.strategy,
            "points": [p.to_dict() for p in self.points],
            "crossing50": crossing.to_dict() if crossing is not None else None,
            "crossing50_note": self.crossing_note,
            "fit": None if fit is None else {
                "intercept": fit.intercept, "slope": fit.slope,
                "covariance": [list(row) for row in fit.covariance()],
                "deviance": fit.deviance, "df": fit.df, "p_value": fit.p_value,
                "dispersion": fit.dispersion, "covariance_scale": fit.scale,
            },
            "seed": str(c.seed),
            "clear_cells": self.clear,
        }  # fmt: skip


@dataclass(frozen=True, repr=False)
class Sweep:
    """A finished sweep: its plan, the games asked per point, and every curve."""

    plan: SweepPlan
    games: int  # games asked per point
    curves: tuple[Curve, ...]
    #: What made the sweep's games, all points together; each point has its own.
    provenance: dict[str, Any] | None = dataclasses.field(default=None, hash=False)

    def __repr__(self) -> str:
        return (f"Sweep({len(self.curves)} curve{'s' if len(self.curves) != 1 else ''}, "
                f"{len(self.points)} points, {self.games:,} games per point: "
                f"{'; '.join(c.label for c in self.curves)})")  # fmt: skip

    @property
    def points(self) -> tuple[SweepPoint, ...]:
        """Every point of every curve, curve by curve."""
        return tuple(p for curve in self.curves for p in curve.points)

    def command(self, db: str | Path | None = None) -> str:
        """The ``minesat sweep`` command that plays this sweep again (or resumes it)."""
        return self.plan.command(self.games, db)

    @property
    def rules(self) -> dict[str, Any]:
        """The rules the curves were played by, as a report's ``rules`` (docs/commands/report.md),
        each curve with its mine counts."""
        return rules_object(
            ((c.label, {**c.config.to_dict(), "mines": [p.mines for p in c.points]}) for c in self.curves),
            key="curves",
        )

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` object: ``curves`` (docs/commands/sweep.md); a single curve also keeps its
        ``points`` and options at the top, as a one-curve sweep always had them."""
        out: dict[str, Any] = {}
        if len(self.curves) == 1:
            curve = self.curves[0].to_dict()
            out.update(rows=curve["rows"], cols=curve["cols"], first_click=curve["rule"],
                       start=curve["start"], strategy=curve["strategy"])  # fmt: skip
            out.update(points=curve["points"], crossing50=curve["crossing50"])
        # Seeds as digits, as everywhere in minesat's JSON: JSON readers round integers past 2^53.
        out.update(seed=str(self.plan.seed), games=self.games, rules=self.rules,
                   curves=[c.to_dict() for c in self.curves])  # fmt: skip
        out["provenance"] = self.provenance
        return out


# --- playing ---------------------------------------------------------------------------


def point_db(directory: str | Path, config: RunConfig) -> Path:
    """The store of one point: ``DIR/<rows>x<cols>x<mines>-<rule>-r<R>c<C>-s<seed>-<strategy>.sqlite``."""
    name = (
        f"{config.rows}x{config.cols}x{config.mines}-{config.rule}-r{config.start[0]}c{config.start[1]}"
        f"-s{config.seed}-{config.strategy}"
    )
    return Path(directory) / f"{name}.sqlite"


#: Called once before the first game and after every stored batch with (games played, games to play).
SweepProgress = Callable[[int, int], None]


def run_sweep(
    plan: SweepPlan,
    games: int,
    directory: str | Path,
    *,
    workers: int | None = 1,
    scheduler: str | None = None,
    progress: SweepProgress | None = None,
    batch_fn: BatchFunction = play_indices,
    mix_players: bool = False,
) -> Sweep:
    """Play ``games`` games at every point of every curve, into one store per point under ``directory``.

    Every store already there is checked before anything is played or written:
    it must hold the same run (:class:`~minesat.store.ConfigMismatchError`), no
    other sweep may be playing into it (:class:`~minesat.store.StoreBusyError`),
    and, when the point lacks games, its games must be this minesat's player's
    (:class:`~minesat.store.PlayerMismatchError`, unless ``mix_players``: see
    :func:`minesat.simulation.check_player`); a complete point is only read, and
    reported with the player that played it. Then the games every point lacks are
    played on one pool (``workers`` local processes, by default this one alone,
    ``None`` every core, as ``minesat sweep`` plays, or the Dask cluster at ``scheduler``),
    point after point in curve order, the next point's games starting as soon as a worker is
    free. Each batch comes back with the fingerprint of the player that played it (checked, as
    :func:`minesat.simulation.run` checks it) and is stored as it ends, with the
    point's session, so a sweep stopped at any moment resumes where it stopped.
    ``batch_fn`` exists for tests of the plumbing.
    """
    if games < 0:
        raise InvalidValue(f"the number of games must be >= 0, not {games}")
    directory = Path(directory)
    configs = [config for curve in plan.curves for config in curve.configs()]
    lacking = []
    for config in configs:
        path = point_db(directory, config)
        if not path.exists():  # made when its first batch is stored: a refused sweep leaves none
            lacking.append(games)
            continue
        with GameStore(path, config) as store, store.lock():
            lacking.append(games - store.count(games))
            if lacking[-1]:  # a complete point adds nothing: it is reported as its player played it
                check_player(store, player_fingerprint(config.strategy), mix_players=mix_players)
    _play(configs, lacking, games, directory, workers, scheduler, progress, batch_fn)
    directory.mkdir(parents=True, exist_ok=True)  # a sweep with nothing to play still reads its stores
    curves = []
    sessions: list[Session] = []
    for curve in plan.curves:
        points = []
        for config in curve.configs():
            path = point_db(directory, config)
            with GameStore(path, config) as store:
                points.append(_point(store, games))
                sessions += store.sessions()
        curves.append(Curve(curve.base, tuple(points)))
    sessions.sort(key=lambda session: session.started)
    provenance = run_provenance(sessions, command=plan.command(games, directory))
    return Sweep(plan=plan, games=games, curves=tuple(curves), provenance=provenance)


def _point(store: GameStore, games: int) -> SweepPoint:
    """The point of the run in ``store``: its first ``games`` games, and what made them.

    A store of several players' games (``mix_players``) is never pooled: the point is one
    player's games (this minesat's when it has any there, else the player with the most), and
    every player's games and wins are listed beside it (:attr:`SweepPoint.players`)."""
    counts = store.players()
    command = simulate_command(store.config.to_dict(), games, str(store.path))
    digest = GamesDigest(store.config)
    which: Whose = ANY_PLAYER
    sole = next(iter(counts), None) if len(counts) == 1 else None
    rows: list[dict[str, Any]] = []
    if len(counts) > 1:
        this = player_fingerprint(store.config.strategy)
        tallies = dict(player_tallies(store, games))
        which = sole = this if this in counts else max(counts, key=lambda p: tallies[p].games)
        rows = [{**row, "shown": row["player"] == which} for row in player_rows(list(tallies.items()), this)]
    tally = Tally().update(digest.through(store.games(games, player=which)))
    provenance = store.provenance(which, sole, command=command, games_sha256=digest.hexdigest())
    return SweepPoint.from_tally(store.config, tally, str(store.path), provenance, rows)


def _play(
    configs: Sequence[RunConfig],
    lacking: list[int],
    games: int,
    directory: Path,
    workers: int | None,
    scheduler: str | None,
    progress: SweepProgress | None,
    batch_fn: BatchFunction,
) -> None:
    """Play the games each point lacks on one pool, each batch stored in its point's store as it ends.

    A point's store is opened (and locked against a second run) when its first
    batch is submitted and closed when its last one is stored: with a bounded
    number of batches in flight, only a few stores are open at any time, however
    many points the sweep has. Each point plays as a session of its own (its
    strategy is its player), recorded in its store with its games; a batch played
    by another player (a Dask worker with other code) stops the sweep with
    :class:`~minesat.store.PlayerMismatchError`, the batches stored before it kept.
    """
    to_play = sum(lacking)
    played = 0
    if progress is not None:
        progress(0, to_play)
    if not to_play:
        return
    open_stores: dict[int, tuple[GameStore, contextlib.ExitStack, Session]] = {}

    def calls(size: int, workers: int | str) -> Iterator[tuple[int, Callable[..., Any], tuple[Any, ...]]]:
        # Made once the pool has started: a scheduler that cannot be reached leaves no folder behind.
        directory.mkdir(parents=True, exist_ok=True)
        for i, config in enumerate(configs):
            if not lacking[i]:
                continue
            stack = contextlib.ExitStack()
            store = stack.enter_context(GameStore(point_db(directory, config), config))
            open_stores[i] = (store, stack, new_session(config.strategy, workers))
            stack.enter_context(store.lock())
            for batch in index_batches(store.missing(games), size):
                yield i, played_by, (batch_fn, config, batch)

    try:
        with worker_pool(workers, scheduler, to_play) as (executor, slots):
            batches = calls(default_batch_size(to_play, slots), scheduler if scheduler is not None else slots)
            for i, (player, done) in run_bounded(executor, batches, in_flight(slots)):
                store, stack, session = open_stores[i]
                check_batch(player, session)
                store.add(done, session)
                lacking[i] -= len(done)
                if not lacking[i]:  # the point is complete: let its store go
                    stack.close()
                    del open_stores[i]
                played += len(done)
                if progress is not None:
                    progress(played, to_play)
    finally:
        for _, stack, _ in open_stores.values():
            stack.close()


# --- the short road -------------------------------------------------------------------------


def _sizes(boards: str | tuple[int, int] | Sequence[str | tuple[int, int]]) -> list[tuple[int, int]]:
    """Board sizes from presets' names, ``RxC`` texts or ``(rows, cols)`` pairs."""
    items: list[Any]
    if isinstance(boards, str) or (isinstance(boards, tuple) and all(isinstance(v, int) for v in boards)):
        items = [boards]
    else:
        items = list(boards)
    sizes: list[tuple[int, int]] = []
    for item in items:
        if isinstance(item, str):
            found = parse_sizes([item]) if "x" in item.lower() else preset_sizes(item)
        else:
            rows, cols = item
            found = [(int(rows), int(cols))]
        sizes += [s for s in found if s not in sizes]
    return sizes


def _names(value: str | Sequence[str]) -> list[str]:
    return split_list(value, "rules") if isinstance(value, str) else list(value)


def sweep(
    boards: str | tuple[int, int] | Sequence[str | tuple[int, int]] = "expert",
    games: int = 100,
    *,
    densities: str | Sequence[float | str | Fraction] | None = None,
    mines: str | Sequence[int] | None = None,
    rules: str | Sequence[str] = "opening",
    strategies: str | Sequence[str] | None = None,
    start: Cell | str | None = None,
    seed: int = 0,
    workers: int | None = 1,
    db: str | Path | None = None,
    progress: SweepProgress | None = None,
    mix_players: bool = False,
) -> Sweep:
    """Play a sweep and return it: ``minesat.sweep("expert", 100, densities="0.12:0.24:0.04")``.

    ``boards`` is a preset's name (its size), ``"RxC"``, ``(rows, cols)``, or a list of them;
    the mines are ``densities`` (a list, or a text as ``--density`` takes it: each d means
    round(d x cells) mines) or ``mines`` (counts, or a text as ``--mines`` takes it), one of
    them; ``rules`` and ``strategies`` a name or a list (the default strategy when None). The
    games are those ``minesat sweep`` plays with the same options, one store per point in ``db``
    (a directory; a sweep there resumes), otherwise in a temporary one for the call. The bounds
    and errors are the command line's, in this function's words (``densities=``, ``rules=``).

    >>> result = sweep("beginner", 4, densities=[0.1, 0.2], strategies="safest")
    >>> result
    Sweep(1 curve, 2 points, 4 games per point: 9x9 opening safest)
    >>> [(p.mines, p.games) for p in result.points], result.to_dict()["seed"]
    ([(8, 4), (16, 4)], '0')
    """
    from minesat.player import DEFAULT_STRATEGY

    check_counts(games, workers=workers, seed=seed)
    if isinstance(densities, str):
        fractions: list[Fraction] | None = parse_densities(densities)
    elif densities is not None:
        fractions = [Fraction(str(d)) if not isinstance(d, Fraction) else d for d in densities]
        for d in fractions:
            if not 0 <= d <= 1:
                raise InvalidValue(f"each must lie in [0, 1], not {float(d)}", parameter="densities", value=d)
    else:
        fractions = None
    counts = parse_mines(mines) if isinstance(mines, str) else (list(mines) if mines is not None else None)
    where = None if start is None else as_cell(start, "start")
    plan = plan_sweep(_sizes(boards), _names(rules), _names(strategies or DEFAULT_STRATEGY),
                      mines=counts, densities=fractions, start=where, seed=seed)  # fmt: skip
    with contextlib.ExitStack() as stack:
        if db is None:
            db = stack.enter_context(tempfile.TemporaryDirectory(prefix="minesat-sweep-"))
        return run_sweep(plan, games, db, workers=workers, progress=progress, mix_players=mix_players)
