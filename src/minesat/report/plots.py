"""The report's plots: matplotlib figures saved as standalone or inline SVG.

Each ``plot_*`` function takes the runs to draw (one or several, compared on
the same axes) and returns a matplotlib ``Figure``; :func:`render_plots` gives
every plot of a report as SVG text.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from typing import Any

from cycler import cycler

from minesat.report.formatting import secs
from minesat.report.statistics import RISK_BINS, Summary, bin_buckets
from minesat.stats import wilson

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


#: A rate that stands on fewer trials than this is drawn as a lone point with its
#: interval, never joined into a trend line: its interval is wider than the trend.
DENSE = 20


def plot_rates(
    ax: Any,
    points: Sequence[tuple[float, int, int]],
    color: str,
    label: str | None,
    dense: int = DENSE,
    sparse_label: str | None = None,
    marker: str = "o",
    linestyle: Any = "-",
) -> None:
    """Draw rates ``k / n`` at ``x`` with Wilson 95 % bands, from ``(x, k, n)`` in x order.

    Runs of consecutive points with at least ``dense`` trials are one line
    inside a shaded band; every other point is a hollow marker with an error
    bar, joined to nothing, so a handful of trials cannot pass for a trend.
    ``marker`` and ``linestyle`` tell many lines on one plot apart.
    """
    runs: list[list[tuple[float, float, float, float]]] = [[]]
    lone = []
    for x, k, n in points:
        if n <= 0:
            continue
        lo, hi = wilson(k, n)
        if n >= dense:
            runs[-1].append((x, k / n, lo, hi))
        else:
            lone.append((x, k / n, lo, hi))
            if runs[-1]:
                runs.append([])
    for run in runs:
        if len(run) == 1:  # a band needs two points: one alone keeps its interval as a bar
            (x, y, lo, hi), = run
            ax.errorbar([x], [y], yerr=[[y - lo], [hi - y]], fmt=marker, ms=3, color=color, lw=0.8, capsize=2)
        elif run:
            xs, ys, los, his = zip(*run, strict=True)
            ax.fill_between(xs, los, his, color=color, alpha=0.18, lw=0)
            ax.plot(xs, ys, marker=marker, ms=3, color=color, linestyle=linestyle, label=label)
            label = None  # one legend entry per run of games
    if lone:
        xs, ys, los, his = zip(*lone, strict=True)
        below = [y - lo for y, lo in zip(ys, los, strict=True)]
        above = [hi - y for y, hi in zip(ys, his, strict=True)]
        ax.errorbar(xs, ys, yerr=[below, above], fmt=marker, ms=3.5, mfc="white", color=color, alpha=0.6,
                    lw=0.8, capsize=2, label=sparse_label)  # fmt: skip


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
        plot_rates(bottom, [(x, st.fatal, st.made) for x, st in zip(xs, steps, strict=True)], color, s.label)
    top.set_title("Where games are lost")
    top.set_ylabel("share of all games\nlost on this guess")
    bottom.set_title(f"Chance this guess loses (95 % CI band; hollow: fewer than {DENSE} games made it)",
                     fontsize=9, fontweight="normal")  # fmt: skip
    bottom.set_ylabel("chance this\nguess loses")
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
        # Every guess that hit a mine lost the game: the observed share is fatal / guesses.
        sparse = f"< {DENSE} guesses" if len(summaries) == 1 else None
        plot_rates(right, [(r.mean_probability, r.fatal, r.guesses) for r in s.fatal_risk], color, s.label,
                   sparse_label=sparse)  # fmt: skip
    left.set_title("Probability of the fatal guess")
    left.set_xlabel("mine probability the player saw")
    left.set_ylabel("share of losses")
    right.plot([0, 1], [0, 1], color="#999999", lw=1, ls="--", label="perfect")
    # Bins with a handful of guesses would stretch the axes for nothing.
    top = max((r.hi for s in summaries for r in s.fatal_risk if r.guesses >= 5), default=0.5)
    right.set_xlim(0, top)
    right.set_ylim(0, top)
    right.set_title("Calibration of guesses (95 % CI)")
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
        color = "#333333" if one else f"C{i}"
        plot_rates(bottom, [((b.lo + b.hi) / 2, b.wins, b.games) for b in s.bbbv_binned], color, s.label,
                   dense=10)  # fmt: skip
    top.set_title("3BV (clicks a perfect player needs)")
    top.set_ylabel("share of games\nper unit of 3BV")
    bottom.set_title("Win rate by 3BV (95 % CI band; hollow: bins with < 10 games)")
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
    # The ticks carry their unit (µs, ms, s): the label must not name one.
    ax.set_xlabel("wall time per game (log scale)")
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
