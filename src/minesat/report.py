"""Solvability reports: statistics over stored games, rendered as Markdown, JSON or HTML.

The statistics are computed in **one streaming pass** over the games: every
quantity is a counter or a fixed-size histogram, so a report on a million games
needs no more memory than a report on ten. Integer-valued quantities (guesses,
3BV, the number of the fatal guess) are counted per value, which is bounded by
the number of cells on the board; real-valued ones (probabilities, seconds) go
into fixed bins.

>>> from minesat.player import Guess
>>> from types import SimpleNamespace as G
>>> games = [
...     G(index=0, seed=0, won=True, moves=12, guesses=(), uncovered=71, bbbv=20, seconds=0.01),
...     G(index=1, seed=1, won=False, moves=5, guesses=(Guess("A1", 0.2),), uncovered=9,
...       bbbv=25, seconds=0.02),
... ]
>>> s = summarize(games)
>>> s.games, s.wins, s.win_rate, s.no_guess_wins
(2, 1, 0.5, 1)
>>> [(step.number, step.made, step.fatal) for step in s.guess_steps]
[(1, 1, 1)]

Rendering: :func:`render_markdown`, :func:`render_json`, :func:`render_html`, or
:func:`write_report`, which picks the format from the file name. Every renderer
takes a sequence of summaries: with several, the runs are compared side by side.
"""

from __future__ import annotations

import html
import io
import json
import math
import re
import shlex
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from cycler import cycler

from minesat.board import PRESETS
from minesat.player import Guess
from minesat.stats import wilson

# --- what a game must look like ----------------------------------------------


class GameLike(Protocol):
    """What the statistics read from a game: a ``store.StoredGame`` fits."""

    won: bool
    guesses: Sequence[Guess]
    uncovered: int
    bbbv: int
    seconds: float


class ConfigLike(Protocol):
    """What the report reads from a run configuration: a ``store.RunConfig`` fits."""

    rows: int
    cols: int
    mines: int
    rule: str
    start: tuple[int, int]
    seed: int


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


@dataclass(frozen=True)
class Summary:
    """Everything a report says about one run, computed by :func:`summarize`."""

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
        return out


def config_dict(config: ConfigLike | None) -> dict[str, Any] | None:
    """The run configuration as a plain dict (``start`` as a list, JSON-style)."""
    if config is None:
        return None
    keys = ("rows", "cols", "mines", "rule", "start", "seed", "strategy")
    out = {k: getattr(config, k) for k in keys if hasattr(config, k)}
    out["start"] = list(out["start"])
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
    """
    if config is None:
        return None
    preset = preset_name(config)
    args = ["minesat", "simulate"]
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


class Accumulator:
    """Counters for one run; :meth:`add` each game once, then :meth:`summary`.

    >>> acc = Accumulator()
    >>> acc.games
    0
    """

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0
        self.no_guess_wins = 0
        self.lost_without_guess = 0
        self.guesses_total = 0
        self.moves_total = 0
        self.index_max = -1
        self.uncovered_lost = 0
        # number of guesses -> [games, wins]; bounded by the cell count
        self.by_guesses: Counter[int] = Counter()
        self.wins_by_guesses: Counter[int] = Counter()
        self.fatal_at: Counter[int] = Counter()  # fatal guess number -> losses
        self.risk_guesses = [0] * RISK_BINS
        self.risk_fatal = [0] * RISK_BINS
        self.risk_sum = [0.0] * RISK_BINS
        self.by_bbbv: Counter[int] = Counter()
        self.wins_by_bbbv: Counter[int] = Counter()
        self.time_hist = [0] * TIME_BINS
        self.seconds_total = 0.0
        self.seconds_min = math.inf
        self.seconds_max = 0.0

    def add(self, game: GameLike) -> None:
        """Count one game."""
        self.games += 1
        won = bool(game.won)
        n_guesses = len(game.guesses)
        self.wins += won
        self.guesses_total += n_guesses
        moves = getattr(game, "moves", 0)
        # StoredGame keeps the move count, GameRecord the moves themselves.
        self.moves_total += moves if isinstance(moves, int) else len(moves)
        self.index_max = max(self.index_max, getattr(game, "index", self.games - 1))
        self.by_guesses[n_guesses] += 1
        self.by_bbbv[game.bbbv] += 1
        if won:
            self.wins_by_guesses[n_guesses] += 1
            self.wins_by_bbbv[game.bbbv] += 1
            self.no_guess_wins += n_guesses == 0
        else:
            self.uncovered_lost += game.uncovered
            if n_guesses:
                self.fatal_at[n_guesses] += 1  # the player only loses on its last guess
            else:
                self.lost_without_guess += 1
        for i, guess in enumerate(game.guesses):
            p = float(guess.probability)
            b = min(max(int(p * RISK_BINS), 0), RISK_BINS - 1)
            self.risk_guesses[b] += 1
            self.risk_sum[b] += p
            self.risk_fatal[b] += (not won) and i == n_guesses - 1
        s = float(game.seconds)
        self.seconds_total += s
        self.seconds_min = min(self.seconds_min, s)
        self.seconds_max = max(self.seconds_max, s)
        self.time_hist[_time_bin(s)] += 1

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
        notes = []
        if self.games and self.index_max + 1 != self.games:
            notes.append(f"incomplete run: {self.games} games stored out of indices 0..{self.index_max}")
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
            guesses_total=self.guesses_total,
            moves_total=self.moves_total,
            guesses=guesses,
            guess_steps=tuple(steps),
            fatal_risk=risk,
            bbbv=bbbv,
            bbbv_binned=bin_buckets(bbbv),
            seconds_total=self.seconds_total,
            seconds_min=self.seconds_min if self.games else 0.0,
            seconds_max=self.seconds_max,
            seconds_median=self._time_quantile(0.5),
            seconds_p90=self._time_quantile(0.9),
            seconds_hist=times,
            uncovered_lost_total=self.uncovered_lost,
            index_max=self.index_max,
            notes=tuple(notes),
        )


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
    acc = Accumulator()
    for game in games:
        acc.add(game)
    return acc.summary(config, source, label)


def summarize_db(path: str | Path, label: str | None = None) -> Summary:
    """Summarize the games stored in the SQLite database at ``path``."""
    from minesat.store import GameStore  # here: the report renderers do not need SQLite

    with GameStore(path) as store:
        return summarize(store, store.config, str(path), label)


def unique_labels(summaries: Sequence[Summary]) -> list[Summary]:
    """Give runs that share a label distinct ones (their source path), for legends and tables."""
    counts = Counter(s.label for s in summaries)
    out = []
    for i, s in enumerate(summaries):
        if counts[s.label] > 1:
            s = replace(s, label=s.source or f"{s.label} #{i + 1}")
        out.append(s)
    return out


# --- formatting helpers ------------------------------------------------------


def pct(x: float | None, digits: int = 1) -> str:
    """``0.5 -> '50.0 %'``; ``None -> '–'``."""
    return "–" if x is None else f"{100 * x:.{digits}f} %"


def ci_text(ci: tuple[float, float]) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f} %"


def secs(x: float) -> str:
    """Seconds with a unit that keeps 3 significant digits readable."""
    if x < 1e-3:
        return f"{x * 1e6:.0f} µs"
    if x < 1:
        return f"{x * 1e3:.3g} ms"
    return f"{x:.3g} s"


def describe_config(s: Summary) -> list[tuple[str, str]]:
    """(name, value) rows describing how a run was made."""
    rows: list[tuple[str, str]] = []
    c = s.config
    if c is not None:
        preset = preset_name(c)
        board = f"{c['rows']} rows × {c['cols']} columns, {c['mines']} mines"
        rows.append(("Board", f"{board} ({preset})" if preset else board))
        rows.append(("First click", f"{c['rule']} at {c['start'][0]},{c['start'][1]}"))
        rows.append(("Seed", str(c["seed"])))
        rows.append(("Strategy", str(c.get("strategy", "safest"))))
    if s.source:
        rows.append(("Database", s.source))
    return rows


def headline(s: Summary) -> list[tuple[str, str]]:
    """The key figures of one run, as (name, value) rows; also the comparison table's rows."""
    if not s.games:
        return [("Games", "0")]
    rows = [
        ("Games", f"{s.games:,}"),
        ("Won", f"{s.wins:,}"),
        ("Win rate", pct(s.win_rate)),
        ("95 % CI (Wilson)", ci_text(s.ci95)),
        ("Won with no guess", f"{pct(s.no_guess_share)} ({s.no_guess_wins:,})"),
        ("Guesses per game", f"{s.guesses_mean:.2f}"),
        ("Moves per game", f"{s.moves_mean:.1f}"),
        ("Mean 3BV", f"{sum(b.lo * b.games for b in s.bbbv) / s.games:.1f}"),
        ("Lost games: safe cells uncovered", pct(s.progress_lost_mean)),
        ("Seconds per game (mean)", secs(s.seconds_mean)),
        ("Seconds per game (median ≈, p90 ≈)", f"{secs(s.seconds_median)}, {secs(s.seconds_p90)}"),
    ]
    return rows


def config_rows(s: Summary) -> list[tuple[str, str]]:
    return [(k, v) for k, v in describe_config(s) if k != "Database"]


# --- plots -------------------------------------------------------------------

#: Look of every plot: light, no chart junk, system sans-serif fonts, text kept as text.
PLOT_STYLE = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["Helvetica Neue", "Helvetica", "Arial", "DejaVu Sans"],
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.edgecolor": "#888888",
    "axes.grid": True,
    "axes.grid.axis": "y",
    "axes.axisbelow": True,  # grid lines behind bars, not across them
    "grid.color": "#e4e4e4",
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.titlelocation": "left",
    "legend.frameon": False,
    "figure.facecolor": "white",
    "axes.prop_cycle": cycler(
        color=["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"]
    ),
}
WIN, LOSS = "#3b8d3b", "#c44e52"


def _figure(height: float = 3.2) -> Any:
    # A bare Figure, not pyplot: no global backend is switched, so importing
    # minesat.report in a notebook leaves its plotting setup alone (headless like Agg).
    from matplotlib.figure import Figure

    # 8.8 in is about the page's column width, so text shows near its nominal size.
    fig = Figure(figsize=(8.8, height), layout="constrained")
    fig.get_layout_engine().set(w_pad=0.08, h_pad=0.06)
    return fig


def _bar_width(n: int) -> float:
    return 0.8 / max(n, 1)


def plot_guesses(summaries: Sequence[Summary]) -> Any:
    """Share of games by number of guesses; one run: won and lost stacked."""
    fig = _figure(3.4)
    ax = fig.add_subplot()
    if len(summaries) == 1:
        s = summaries[0]
        xs = [int(b.lo) for b in s.guesses]
        won = [b.wins / s.games for b in s.guesses]
        lost = [(b.games - b.wins) / s.games for b in s.guesses]
        ax.bar(xs, won, color=WIN, label="won")
        ax.bar(xs, lost, bottom=won, color=LOSS, label="lost")
    else:
        w = _bar_width(len(summaries))
        for i, s in enumerate(summaries):
            xs = [b.lo + (i - (len(summaries) - 1) / 2) * w for b in s.guesses]
            ax.bar(xs, [b.games / s.games for b in s.guesses], width=w, label=s.label)
    ax.set_title("Guesses per game")
    ax.set_xlabel("guesses in the game")
    ax.set_ylabel("share of games")
    _percent_axis(ax)
    _integer_x(ax)
    ax.legend()
    return fig


def plot_fatal(summaries: Sequence[Summary]) -> Any:
    """Where games are lost: share of all games lost on the k-th guess, and that guess's hazard."""
    fig = _figure(4.8)
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=[3, 2])
    w = _bar_width(len(summaries))
    for i, s in enumerate(summaries):
        steps = [st for st in s.guess_steps if st.made]
        xs = [st.number + (i - (len(summaries) - 1) / 2) * w for st in steps]
        color = LOSS if len(summaries) == 1 else f"C{i}"
        top.bar(xs, [st.fatal / s.games for st in steps], width=w, color=color, label=s.label)
        # The hazard is noisy where few games got that far: hide steps under 20 games.
        hz = [(st.number, st.fatal / st.made) for st in steps if st.made >= 20]
        if hz:
            bottom.plot(*zip(*hz, strict=True), marker="o", ms=3, color=color, label=s.label)
    top.set_title("Where games are lost")
    top.set_ylabel("share of all games\nlost on this guess")
    bottom.set_ylabel("chance this guess\nloses (≥ 20 games)")
    bottom.set_xlabel("number of the guess in the game")
    bottom.set_ylim(0, None)
    _percent_axis(top)
    _percent_axis(bottom)
    _integer_x(bottom)
    if len(summaries) > 1:
        top.legend()
    return fig


def plot_risk(summaries: Sequence[Summary]) -> Any:
    """The fatal guess's probability (histogram), and calibration: predicted vs observed."""
    fig = _figure(3.9)
    left, right = fig.subplots(1, 2)
    w = 1 / RISK_BINS * 0.8 / len(summaries)
    for i, s in enumerate(summaries):
        color = LOSS if len(summaries) == 1 else f"C{i}"
        fatal = sum(r.fatal for r in s.fatal_risk)
        xs = [r.lo + 0.1 / RISK_BINS + (i + 0.5) * w for r in s.fatal_risk]
        left.bar(xs, [r.fatal / fatal if fatal else 0 for r in s.fatal_risk], width=w,
                 color=color, label=s.label)  # fmt: skip
        pts = [(r.mean_probability, r.loss_rate) for r in s.fatal_risk if r.guesses >= 20]
        if pts:
            right.plot(*zip(*pts, strict=True), marker="o", ms=4, color=color, label=s.label)
    left.set_title("Probability of the fatal guess")
    left.set_xlabel("mine probability the player saw")
    left.set_ylabel("share of losses")
    right.plot([0, 1], [0, 1], color="#999999", lw=1, ls="--", label="perfect")
    top = max((r.hi for s in summaries for r in s.fatal_risk if r.guesses >= 20), default=0.5)
    right.set_xlim(0, top)
    right.set_ylim(0, top)
    right.set_title("Calibration of guesses")
    right.set_xlabel("predicted mine probability")
    right.set_ylabel("observed share that hit a mine")
    right.grid(True, axis="both")
    for ax in (left, right):
        _percent_axis(ax, "y")
        _percent_axis(ax, "x")
    right.legend(fontsize=8)
    return fig


def plot_bbbv(summaries: Sequence[Summary]) -> Any:
    """3BV distribution and win rate by 3BV (binned, Wilson 95 % band)."""
    fig = _figure(5.2)
    top, bottom = fig.subplots(2, 1, sharex=True)
    one = len(summaries) == 1
    for i, s in enumerate(summaries):
        color = "#5b7fa6" if one else f"C{i}"
        # Per-value counts are noisy; ~30 bins, as a density so runs binned
        # differently (beginner vs expert) stay comparable on one axis.
        dist = bin_buckets(s.bbbv, 30)
        xs = [b.lo for b in dist] + [dist[-1].hi]
        ys = [b.games / (s.games * (b.hi - b.lo)) for b in dist]
        top.stairs(ys, xs, color=color, fill=one, alpha=0.45 if one else 1, label=s.label)
        if one:
            top.stairs(ys, xs, color=color)
        # Bins with very few games say nothing: plot those with at least 10.
        bins = [b for b in s.bbbv_binned if b.games >= 10]
        if bins:
            mids = [(b.lo + b.hi) / 2 for b in bins]
            color = "#333333" if one else f"C{i}"
            bottom.plot(mids, [b.win_rate for b in bins], marker="o", ms=3, color=color,
                        label=s.label)  # fmt: skip
            bottom.fill_between(mids, [b.ci95[0] for b in bins], [b.ci95[1] for b in bins],
                                color=color, alpha=0.15, lw=0)  # fmt: skip
    top.set_title("3BV (clicks a perfect player needs)")
    top.set_ylabel("share of games\nper unit of 3BV")
    bottom.set_title("Win rate by 3BV (95 % CI band, bins with ≥ 10 games)")
    bottom.set_ylabel("win rate")
    bottom.set_xlabel("3BV of the layout")
    bottom.set_ylim(0, 1.02)
    _percent_axis(top)
    _percent_axis(bottom)
    if not one:
        top.legend()
    return fig


def plot_time(summaries: Sequence[Summary]) -> Any:
    """Seconds per game on a log axis."""
    fig = _figure(3.0)
    ax = fig.add_subplot()
    for i, s in enumerate(summaries):
        color = "#5b7fa6" if len(summaries) == 1 else f"C{i}"
        if not s.seconds_hist:
            continue
        edges = [b.lo for b in s.seconds_hist]
        ax.bar(edges, [b.games / s.games for b in s.seconds_hist],
               width=[b.hi - b.lo for b in s.seconds_hist], align="edge",
               color=color, alpha=0.55 if len(summaries) > 1 else 0.9, label=s.label)  # fmt: skip
        ax.axvline(s.seconds_median, color=color, ls="--", lw=1)
    ax.set_xscale("log")
    from matplotlib.ticker import FuncFormatter

    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: secs(x)))
    ax.set_title("Time per game (dashed: median)")
    ax.set_xlabel("seconds")
    ax.set_ylabel("share of games")
    _percent_axis(ax)
    if len(summaries) > 1:
        ax.legend()
    return fig


def _percent_axis(ax: Any, which: str = "y") -> None:
    from matplotlib.ticker import PercentFormatter

    axis = ax.yaxis if which == "y" else ax.xaxis
    axis.set_major_formatter(PercentFormatter(1.0, decimals=None))


def _integer_x(ax: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


#: (file-name part, alt text, plot function) for every plot a report shows, in order.
PLOTS: tuple[tuple[str, str, Callable[[Sequence[Summary]], Any]], ...] = (
    ("guesses", "Guesses per game", plot_guesses),
    ("lost", "Where games are lost", plot_fatal),
    ("risk", "Probability of the fatal guess and calibration", plot_risk),
    ("bbbv", "3BV distribution and win rate by 3BV", plot_bbbv),
    ("time", "Time per game", plot_time),
)


def figure_svg(fig: Any, salt: str) -> str:
    """Save a figure as standalone SVG text (no date, ids made unique by ``salt``)."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": salt}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def render_plots(summaries: Sequence[Summary]) -> list[tuple[str, str, str]]:
    """Every plot as ``(name, alt text, SVG text)``; empty runs are left out of plots."""
    import matplotlib

    runs = [s for s in summaries if s.games]
    if not runs:
        return []
    out = []
    with matplotlib.rc_context(PLOT_STYLE):
        for name, alt, plot in PLOTS:
            out.append((name, alt, figure_svg(plot(runs), f"minesat-{name}")))
    return out


def inline_svg(svg: str) -> str:
    """SVG text made fit for inlining in HTML: no prolog, no metadata, scalable, lean ids.

    matplotlib names every group (``figure_1``, ``axes_1`` ...), so several plots
    in one page would repeat ids; only the ids something refers to are kept.
    """
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.S)
    referenced = set(re.findall(r"(?:href=\"#|url\(#)([^\")]+)", svg))
    svg = re.sub(r' id="([^"]+)"', lambda m: m.group(0) if m.group(1) in referenced else "", svg)
    # Let CSS size the plot: drop the fixed pt size, keep the viewBox.
    svg = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r"<svg\1", svg, count=1)
    return svg.replace("<svg", '<svg role="img" class="plot"', 1)


# --- Markdown ------------------------------------------------------------------


def _md_table(header: Sequence[str], rows: Iterable[Sequence[str]], align: str = "") -> str:
    align = align or "l" + "r" * (len(header) - 1)
    marks = {"l": "---", "r": "---:", "c": ":---:"}
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(marks[a] for a in align) + "|"]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines)


def detail_tables(s: Summary) -> list[tuple[str, list[str], list[list[str]]]]:
    """The detailed tables of one run as (title, header, rows); shared by Markdown and HTML."""
    tables: list[tuple[str, list[str], list[list[str]]]] = []
    tables.append((
        "Guesses per game",
        ["Guesses", "Games", "Share", "Won", "Win rate"],
        [[str(int(b.lo)), f"{b.games:,}", pct(b.games / s.games), f"{b.wins:,}", pct(b.win_rate)]
         for b in s.guesses],
    ))  # fmt: skip
    lost = [st for st in s.guess_steps if st.fatal]
    tables.append((
        "Where games are lost",
        ["Guess no.", "Games that made it", "Lost on it", "Chance it loses", "Share of losses"],
        [[str(st.number), f"{st.made:,}", f"{st.fatal:,}", pct(st.fatal / st.made),
          pct(st.fatal / s.losses)] for st in lost],
    ))  # fmt: skip
    risky = [r for r in s.fatal_risk if r.guesses]
    tables.append((
        "Guesses by mine probability (fatal guess and calibration)",
        ["Mine probability", "Guesses", "Mean predicted", "Hit a mine", "Observed", "Share of losses"],
        [[f"{r.lo:.2f}–{r.hi:.2f}", f"{r.guesses:,}", pct(r.mean_probability), f"{r.fatal:,}",
          pct(r.loss_rate), pct(r.fatal / s.losses if s.losses else None)] for r in risky],
    ))  # fmt: skip
    tables.append((
        "Win rate by 3BV",
        ["3BV", "Games", "Won", "Win rate", "95 % CI"],
        [[f"{int(b.lo)}–{int(b.hi) - 1}", f"{b.games:,}", f"{b.wins:,}", pct(b.win_rate),
          ci_text(b.ci95)] for b in s.bbbv_binned],
    ))  # fmt: skip
    return tables


def comparison_rows(summaries: Sequence[Summary]) -> tuple[list[str], list[list[str]]]:
    """A metrics × runs table: the configuration then the headline figures."""
    names: list[str] = []
    per_run = []
    for s in summaries:
        d = dict(config_rows(s) + headline(s))
        per_run.append(d)
        names += [k for k in d if k not in names]
    return ["", *[s.label for s in summaries]], [
        [name, *[d.get(name, "–") for d in per_run]] for name in names
    ]


def render_markdown(summaries: Sequence[Summary], plots: Sequence[tuple[str, str]] = ()) -> str:
    """A Markdown report. ``plots`` are ``(alt text, relative link)`` pairs to show.

    Use :func:`write_report` to also write the plot files beside the Markdown.
    """
    summaries = unique_labels(summaries)
    title = "minesat solvability report"
    out = [f"# {title}" + (f": {summaries[0].label}" if len(summaries) == 1 else "")]
    if len(summaries) > 1:
        out += ["", "## Comparison", ""]
        header, rows = comparison_rows(summaries)
        out.append(_md_table(header, rows))
    if plots:
        out += ["", "## Plots", ""]
        out.append("\n\n".join(f"![{alt}]({link})" for alt, link in plots))
    for s in summaries:
        level = "##" if len(summaries) == 1 else "###"
        if len(summaries) > 1:
            out += ["", f"## {s.label}"]
        out += ["", f"{level} Key figures", "", _md_table(["", ""], headline(s))]
        out += ["", f"{level} Reproduce", "", _md_table(["", ""], describe_config(s))]
        if s.command:
            out += ["", "```sh", s.command, "```"]
        out += [f"\n> Note: {n}" for n in s.notes]
        if s.games:
            for title_, header, rows in detail_tables(s):
                if rows:
                    out += ["", f"{level} {title_}", "", _md_table(header, rows)]
    return "\n".join(out).rstrip() + "\n"


# --- JSON ----------------------------------------------------------------------


def render_json(summaries: Sequence[Summary]) -> str:
    """``{"report": "minesat", "version": 1, "runs": [summary, ...]}``, one entry per run."""
    doc = {"report": "minesat", "version": 1, "runs": [s.to_dict() for s in summaries]}
    return json.dumps(doc, indent=1, allow_nan=False) + "\n"


# --- HTML ----------------------------------------------------------------------

CSS = """
:root { --fg: #1d2330; --muted: #5d6677; --line: #e3e6ec; --accent: #1f5fa8;
        --win: #3b8d3b; --loss: #c44e52; --bg: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.45;
       font: 15px/1.45 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial,
             sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 28px 20px 60px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 36px 0 12px; padding-bottom: 6px;
     border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 22px 0 8px; color: var(--muted); text-transform: uppercase;
     letter-spacing: .04em; }
.sub { color: var(--muted); margin: 0 0 18px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 12px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; }
.card .v { font-size: 26px; font-weight: 650; }
.card .k { color: var(--muted); font-size: 13px; }
.card .d { color: var(--muted); font-size: 13px; margin-top: 2px; }
table { border-collapse: collapse; background: #fff; border: 1px solid var(--line);
        border-radius: 8px; overflow: hidden; font-size: 14px; margin: 4px 0 8px; }
th, td { padding: 6px 12px; text-align: right; border-bottom: 1px solid var(--line);
         font-variant-numeric: tabular-nums; }
th { background: #eef1f5; font-weight: 600; }
td:first-child, th:first-child { text-align: left; }
tr:last-child td { border-bottom: none; }
.kv td:first-child { color: var(--muted); }
.tables { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 4px 24px;
          align-items: start; }
.scroll { overflow-x: auto; }
.tall { max-height: 440px; overflow-y: auto; }
.tables table { width: 100%; }
.tables .wide { grid-column: 1 / -1; }
tr.key td { font-weight: 650; }
figure { margin: 14px 0; background: #fff; border: 1px solid var(--line); border-radius: 8px;
         padding: 10px; }
svg.plot { width: 100%; height: auto; display: block; }
pre { background: #1d2330; color: #e8ecf3; padding: 12px 14px; border-radius: 8px; font-size: 13px;
      white-space: pre-wrap; overflow-wrap: anywhere; }
.note { background: #fff7e0; border: 1px solid #f0dca0; padding: 8px 12px; border-radius: 6px; }
footer { color: var(--muted); font-size: 12px; margin-top: 40px; }
"""


#: Rows of the key-figure and comparison tables shown in bold.
KEY_ROWS = frozenset({"Win rate", "95 % CI (Wilson)", "Won with no guess"})


def _html_table(
    header: Sequence[str] | None, rows: Iterable[Sequence[str]], cls: str = "", tall: bool = False
) -> str:
    """An HTML table; ``tall`` ones scroll inside a box instead of running down the page."""
    esc = html.escape
    parts = [f'<div class="scroll{" tall" if tall else ""}"><table{f" class={cls!r}" if cls else ""}>']
    if header:
        parts.append("<thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr></thead>")
    parts.append("<tbody>")
    for row in rows:
        key = ' class="key"' if row and row[0] in KEY_ROWS else ""
        parts.append(f"<tr{key}>" + "".join(f"<td>{esc(str(c))}</td>" for c in row) + "</tr>")
    parts.append("</tbody></table></div>")
    return "".join(parts)


def _cards(s: Summary) -> str:
    esc = html.escape
    if not s.games:
        return '<p class="note">This database holds no games yet.</p>'
    cards = [
        ("Win rate", pct(s.win_rate), f"95 % CI {ci_text(s.ci95)}"),
        ("Games", f"{s.games:,}", f"{s.wins:,} won, {s.losses:,} lost"),
        ("Won with no guess", pct(s.no_guess_share), f"{s.no_guess_wins:,} games"),
        ("Guesses per game", f"{s.guesses_mean:.2f}", f"{s.moves_mean:.0f} moves per game"),
        ("Time per game", secs(s.seconds_mean), f"median ≈ {secs(s.seconds_median)}, "
         f"p90 ≈ {secs(s.seconds_p90)}"),
    ]  # fmt: skip
    return (
        '<div class="cards">'
        + "".join(
            f'<div class="card"><div class="k">{esc(k)}</div><div class="v">{esc(v)}</div>'
            f'<div class="d">{esc(d)}</div></div>'
            for k, v, d in cards
        )
        + "</div>"
    )


def render_html(summaries: Sequence[Summary], plots: Sequence[tuple[str, str, str]] | None = None) -> str:
    """One self-contained HTML page: inline CSS, plots as inline SVG, no scripts, no links out."""
    esc = html.escape
    summaries = unique_labels(summaries)
    if plots is None:
        plots = render_plots(summaries)
    many = len(summaries) > 1
    title = "Solvability report: " + (" vs ".join(s.label for s in summaries) if many else summaries[0].label)
    body = [f"<h1>{esc(title)}</h1>"]
    body.append(
        '<p class="sub">Games played by the minesat automatic player '
        "(proven moves first, then the safest guess).</p>"
    )
    if many:
        header, rows = comparison_rows(summaries)
        body += ["<h2>Comparison</h2>", _html_table(header, rows)]
    else:
        body.append(_cards(summaries[0]))
    if plots:
        body.append("<h2>Plots</h2>")
        body += [f'<figure aria-label="{esc(alt)}">{inline_svg(svg)}</figure>' for _, alt, svg in plots]
    for s in summaries:
        body.append(f"<h2>{esc(s.label if many else 'Details')}</h2>")
        body.append('<div class="tables">')
        body.append("<div><h3>Key figures</h3>" + _html_table(None, headline(s), "kv") + "</div>")
        body.append("<div><h3>Run</h3>" + _html_table(None, describe_config(s), "kv") + "</div>")
        body.append("</div>")
        if s.command:
            body.append(f"<h3>Reproduce</h3><pre><code>{esc(s.command)}</code></pre>")
        body += [f'<p class="note">{esc(n)}</p>' for n in s.notes]
        if s.games:
            body.append('<div class="tables">')
            for title_, header, rows in detail_tables(s):
                if rows:
                    # Six columns do not fit half the page: such tables take a whole row.
                    wide = ' class="wide"' if len(header) > 5 else ""
                    table = _html_table(header, rows, tall=True)
                    body.append(f"<div{wide}><h3>{esc(title_)}</h3>{table}</div>")
            body.append("</div>")
    body.append("<footer>Generated by minesat report. Median and p90 of time come from "
                "log-spaced bins (within about 12 %).</footer>")  # fmt: skip
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n"
        "<body><main>\n" + "\n".join(body) + "\n</main></body>\n</html>\n"
    )


# --- files -----------------------------------------------------------------------

#: Report format by file extension.
FORMATS = {
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".markdown": "markdown",
    ".json": "json",
}


def write_report(summaries: Sequence[Summary], out: str | Path) -> list[Path]:
    """Write the report to ``out`` in the format its extension names; return every file written.

    Markdown gets its plots as SVG files beside it, ``NAME-<plot>.svg``, linked relatively.
    """
    out = Path(out)
    kind = FORMATS.get(out.suffix.lower())
    if kind is None:
        raise ValueError(f"{out}: unknown report format (use .html, .md or .json)")
    out.parent.mkdir(parents=True, exist_ok=True)
    written = []
    if kind == "json":
        text = render_json(summaries)
    elif kind == "html":
        text = render_html(summaries)
    else:
        links = []
        for name, alt, svg in render_plots(unique_labels(summaries)):
            path = out.with_name(f"{out.stem}-{name}.svg")
            path.write_text(svg, encoding="utf-8")
            written.append(path)
            links.append((alt, path.name))
        text = render_markdown(summaries, links)
    out.write_text(text, encoding="utf-8")
    return [out, *written]
