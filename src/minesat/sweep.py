"""Solvability against density: one simulation per mine count on one board size (SPEC section 11).

Each point of a sweep is an ordinary run (:func:`minesat.simulate.run`) with
its own resumable store, so a sweep interrupted at any moment resumes where it
stopped, and every point can be reported, exported or compared on its own.

>>> parse_mines("40,60,99")
[40, 60, 99]
>>> parse_mines("40:120:20")  # the end is included when the steps reach it
[40, 60, 80, 100, 120]
>>> parse_mines("10, 5:7")
[5, 6, 7, 10]
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minesat.report.statistics import Tally
from minesat.simulate import ProgressCallback, check_config, run
from minesat.stats import wilson
from minesat.store import GameStore, RunConfig

#: At most this many points in one sweep: a typo like 1:100000 should not start a week of work.
MAX_POINTS = 1000

_ITEM = re.compile(r"\s*(\d+)\s*(?::\s*(\d+)\s*(?::\s*(\d+)\s*)?)?")


def parse_mines(text: str) -> list[int]:
    """Mine counts from ``N,N,...`` and ``START:STOP[:STEP]`` items (STOP included), ascending, unique.

    >>> parse_mines("99")
    [99]
    >>> parse_mines("40:170:10")[-1]
    170
    >>> parse_mines("5:x")
    Traceback (most recent call last):
    ...
    ValueError: --mines: '5:x' is not a count or START:STOP[:STEP] (as in 40,60,99 or 40:120:10)
    """
    counts: set[int] = set()
    for item in text.split(","):
        match = _ITEM.fullmatch(item)
        if match is None or not item.strip():
            raise ValueError(
                f"--mines: {item.strip()!r} is not a count or START:STOP[:STEP] (as in 40,60,99 or 40:120:10)"
            )
        start, stop, step = match.groups()
        if stop is None:
            counts.add(int(start))
            continue
        lo, hi, by = int(start), int(stop), int(step or 1)
        if by <= 0:
            raise ValueError(f"--mines: the step of {item.strip()!r} must be at least 1")
        if hi < lo:
            raise ValueError(f"--mines: {item.strip()!r} runs backwards ({lo} > {hi})")
        if (hi - lo) // by + 1 + len(counts) > MAX_POINTS:
            raise ValueError(f"--mines: more than {MAX_POINTS} points; use a larger step")
        counts.update(range(lo, hi + 1, by))
    return sorted(counts)


@dataclass(frozen=True)
class SweepPoint:
    """One mine count of a sweep: its games and the three measures, each with its 95 % interval."""

    mines: int
    density: float  # mines / cells
    games: int
    wins: int
    no_guess_wins: int
    guesses_total: int
    guesses_sq_total: int  # sum over games of guesses², for the mean's interval
    db: str = ""

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
        return self.guesses_total / self.games if self.games else 0.0

    @property
    def guesses_ci95(self) -> tuple[float, float]:
        """Normal interval of the mean (a mean of many games, not a proportion: Wilson does not apply)."""
        n = self.games
        if n < 2:  # no spread to measure
            return self.guesses_mean, self.guesses_mean
        mean = self.guesses_mean
        var = max(0.0, (self.guesses_sq_total - n * mean * mean) / (n - 1))
        half = 1.96 * math.sqrt(var / n)
        return max(0.0, mean - half), mean + half

    @classmethod
    def from_tally(cls, config: RunConfig, tally: Tally, db: str = "") -> SweepPoint:
        return cls(
            mines=config.mines,
            density=config.mines / (config.rows * config.cols),
            games=tally.games,
            wins=tally.wins,
            no_guess_wins=tally.no_guess_wins,
            guesses_total=tally.guesses,
            guesses_sq_total=sum(k * k * n for k, n in tally.by_guesses.items()),
            db=db,
        )

    def to_dict(self) -> dict[str, Any]:
        """The SPEC section 11 keys first (``mines``, ``density``, ``games``, ``wins``,
        ``win_rate``, ``ci95``, ``no_guess_wins``), then the other measures."""
        return {
            "mines": self.mines,
            "density": self.density,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95),
            "no_guess_wins": self.no_guess_wins,
            "no_guess_rate": self.no_guess_rate,
            "no_guess_ci95": list(self.no_guess_ci95),
            "guesses_mean": self.guesses_mean,
            "guesses_ci95": list(self.guesses_ci95),
            "db": self.db,
        }


@dataclass(frozen=True)
class Sweep:
    """A finished sweep: the board, how it was played, and one point per mine count."""

    config: RunConfig  # the run options shared by every point (its ``mines`` is the first point's)
    games: int  # games asked per point
    points: tuple[SweepPoint, ...]

    def command(self, db: str | Path | None = None) -> str:
        """The ``minesat sweep`` command that plays this sweep again (or resumes it)."""
        c = self.config
        args = ["minesat", "sweep", "--rows", str(c.rows), "--cols", str(c.cols)]
        args += ["--mines", mines_text([p.mines for p in self.points]), "--games", str(self.games)]
        args += ["--seed", str(c.seed), "--first-click", c.rule, "--start", f"{c.start[0]},{c.start[1]}"]
        args += ["--strategy", c.strategy]
        if db is not None:
            args += ["--db", str(db)]
        return shlex.join(args)

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` object: ``points`` (SPEC section 11) and the shared options."""
        c = self.config
        return {
            "rows": c.rows,
            "cols": c.cols,
            "first_click": c.rule,
            "start": list(c.start),
            "seed": c.seed,
            "strategy": c.strategy,
            "games": self.games,
            "points": [p.to_dict() for p in self.points],
        }


def mines_text(mines: Sequence[int]) -> str:
    """The shortest ``--mines`` text for these counts: a range when they are evenly spaced.

    >>> mines_text([40, 50, 60, 70]), mines_text([10, 40, 99]), mines_text([7])
    ('40:70:10', '10,40,99', '7')
    """
    steps = {b - a for a, b in itertools.pairwise(mines)}
    if len(mines) > 2 and len(steps) == 1:
        return f"{mines[0]}:{mines[-1]}:{steps.pop()}"
    return ",".join(map(str, mines))


def point_config(base: RunConfig, mines: int) -> RunConfig:
    """The run of one point: the base options with this mine count."""
    return dataclasses.replace(base, mines=mines)


def point_db(directory: str | Path, config: RunConfig) -> Path:
    """The store of one point: ``DIR/<rows>x<cols>x<mines>-<rule>-r<R>c<C>-s<seed>-<strategy>.sqlite``."""
    name = (
        f"{config.rows}x{config.cols}x{config.mines}-{config.rule}-r{config.start[0]}c{config.start[1]}"
        f"-s{config.seed}-{config.strategy}"
    )
    return Path(directory) / f"{name}.sqlite"


def check_sweep(base: RunConfig, mines: Sequence[int]) -> None:
    """Raise :class:`ValueError` before any game is played if one point cannot be played."""
    if not mines:
        raise ValueError("--mines: no mine counts given")
    for m in mines:
        check_config(point_config(base, m))


#: Called before each point with (point number from 0, number of points, mine count).
PointCallback = Callable[[int, int, int], None]


def run_sweep(
    base: RunConfig,
    mines: Sequence[int],
    games: int,
    directory: str | Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    on_point: PointCallback | None = None,
    progress: ProgressCallback | None = None,
) -> Sweep:
    """Play ``games`` games at each mine count into one store per point under ``directory``.

    Points already stored are not played again (each store resumes like
    ``minesat simulate --db``). ``workers``/``scheduler`` are passed to
    :func:`minesat.simulate.run`; ``on_point`` is told when a point starts and
    ``progress`` follows the games of the current point.
    """
    check_sweep(base, mines)
    if games < 0:
        raise ValueError(f"the number of games must be >= 0, not {games}")
    Path(directory).mkdir(parents=True, exist_ok=True)
    points = []
    for i, m in enumerate(mines):
        config = point_config(base, m)
        if on_point is not None:
            on_point(i, len(mines), m)
        path = point_db(directory, config)
        with GameStore(path, config) as store:
            run(config, games, workers=workers, scheduler=scheduler, store=store, progress=progress)
            tally = Tally().update(store.games(games))
        points.append(SweepPoint.from_tally(config, tally, str(path)))
    return Sweep(config=point_config(base, mines[0]), games=games, points=tuple(points))
