"""The report's plots: matplotlib figures saved as standalone or inline SVG.

Each ``plot_*`` function takes the runs to draw (one or several, compared on
the same axes) and returns a matplotlib ``Figure``; :func:`render_plots` gives
every plot of a report as SVG text.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cycler import cycler

from minesat.board import cell_name, row_name
from minesat.report.formatting import secs
from minesat.stats import wilson
from minesat.tally import DEATH_BINS, RISK_BINS, Summary, bin_buckets

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

    from minesat.report.references import Reference, ReferenceMatch

__all__ = [
    "DENSE",
    "LOSS_PLOTS",
    "PLOTS",
    "PLOT_STYLE",
    "figure_svg",
    "inline_svg",
    "plot_anatomy",
    "plot_bbbv",
    "plot_fatal",
    "plot_fatal_cells",
    "plot_guesses",
    "plot_rates",
    "plot_risk",
    "plot_time",
    "plot_win_rates",
    "render_plots",
]

#: Look of every plot: light, no chart junk, system sans-serif fonts, text kept as text.
PLOT_STYLE: dict[RcKeyType, Any] = {
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
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    # 8.8 in is about the page's column width, so text shows near its nominal size.
    return Figure(figsize=(8.8, height), layout=ConstrainedLayoutEngine(w_pad=0.08, h_pad=0.06))


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
            at = [b.lo + (i - (len(summaries) - 1) / 2) * w for b in s.guesses]
            ax.bar(at, [b.games / s.games for b in s.guesses], width=w, label=s.label)
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


def plot_win_rates(summaries: Sequence[Summary], references: Sequence[ReferenceMatch] = ()) -> Any:
    """Each run's win rate with its Wilson 95 % interval, and the published figures that meet it
    (hollow diamonds, their 95 % intervals), one line each, named above its interval."""
    from matplotlib.transforms import blended_transform_factory

    refs: dict[int, Reference] = {}  # one line per reference row, however many runs it meets
    for match in references:
        refs.setdefault(id(match.reference), match.reference)
    boards = {(c["rows"], c["cols"], c["mines"], c["rule"], tuple(c["start"]))
              for c in (s.config for s in summaries) if c}  # fmt: skip
    lines: list[tuple[str, float, float, float, str, bool]] = []
    for i, s in enumerate(summaries):
        lo, hi = s.ci95
        lines.append((f"{s.label}: {100 * s.win_rate:.2f} % of {s.games:,} games", s.win_rate, lo, hi,
                      f"C{i % 7}", False))  # fmt: skip
    for ref in refs.values():
        half = 1.959964 * ref.se
        lo = ref.low if ref.low is not None else max(0.0, ref.rate - half)
        hi = ref.high if ref.high is not None else min(1.0, ref.rate + half)
        games = f" of {ref.games:,} games" if ref.games else ""
        where = "" if len(boards) == 1 else f" ({ref.board()})"
        label = f"{ref.source}{where}: {100 * ref.rate:.2f} %{games}"
        lines.append((label, ref.rate, lo, hi, "#444444", True))
    fig = _figure(0.8 + 0.42 * len(lines))
    ax = fig.add_subplot()
    at_left = blended_transform_factory(ax.transAxes, ax.transData)
    for y, (label, rate, lo, hi, color, published) in enumerate(reversed(lines)):
        ax.errorbar([rate], [y], xerr=[[rate - lo], [hi - rate]], fmt="D" if published else "o",
                    ms=5, color=color, mfc="white" if published else color, capsize=3, lw=1.2)  # fmt: skip
        ax.text(0.005, y + 0.3, label, transform=at_left, fontsize=8.5, color=color, va="bottom")
    ax.set_yticks([])
    ax.set_ylim(-0.5, len(lines) - 0.05)
    lows = [lo for _, _, lo, _, _, _ in lines]
    highs = [hi for _, _, _, hi, _, _ in lines]
    span = max(highs) - min(lows) or 0.01
    ax.set_xlim(max(0.0, min(lows) - 0.15 * span), min(1.0, max(highs) + 0.15 * span))
    ax.grid(True, axis="x")
    ax.grid(False, axis="y")
    ax.spines["left"].set_visible(False)
    board = ""
    if len(boards) == 1:
        rows, cols, mines, rule, start = next(iter(boards))
        board = f", {rows}x{cols}/{mines} {rule} at {cell_name(start)} ({start[0]},{start[1]})"
    ax.set_title(f"Win rate with its 95 % interval{board}")
    if refs:
        ax.set_xlabel("dots: runs here (Wilson interval); hollow diamonds: published figures "
                      "(their 95 % interval)")
    _percent_axis(ax, "x")
    return fig


def plot_fatal_cells(summaries: Sequence[Summary]) -> Any:
    """Where games died: the share of each run's losses on every cell (the fatal guess's cell)."""
    runs = [s for s in summaries if s.losses_detail is not None and s.losses][:4]
    grids = [s.losses_detail.fatal_cells for s in runs if s.losses_detail is not None]
    if not grids:
        return None
    aspect = max(len(g) / max(len(g[0]), 1) for g in grids)
    fig = _figure(min(1.2 + 8.0 * aspect, 9.0) * len(grids) ** 0.8 / (1 + 0.4 * (len(grids) > 1)))
    axes = fig.subplots(len(grids), 1, squeeze=False)[:, 0]
    for ax, s, grid in zip(axes, runs, grids, strict=True):
        total = sum(map(sum, grid)) or 1
        shares = [[n / total for n in line] for line in grid]
        image = ax.imshow(shares, cmap="Reds", interpolation="nearest", vmin=0)
        ax.grid(False)
        # Cells named as moves are (row letters, 1-based columns): the fatal B18 is row B, column 18.
        rows, cols = len(grid), len(grid[0])
        xs = range(0, cols, max(1, cols // 10))
        ys = range(0, rows, max(1, rows // 8))
        ax.set_xticks(xs, [str(c + 1) for c in xs])
        ax.set_yticks(ys, [row_name(r) for r in ys])
        for spine in ax.spines.values():
            spine.set_visible(False)
        on, board = s.losses_detail.on_border if s.losses_detail else (0, 0.0)
        ax.set_title(f"{s.label}: where {s.losses:,} lost games died ({on / total:.0%} on an edge or corner "
                     f"cell, {board:.0%} of the board)", fontsize=10)  # fmt: skip
        ax.set_xlabel("column")
        ax.set_ylabel("row")
        bar = fig.colorbar(image, ax=ax, shrink=0.85, pad=0.01)
        bar.ax.yaxis.set_major_formatter(_percent_formatter())
        bar.set_label("share of losses")
    return fig


def plot_anatomy(summaries: Sequence[Summary]) -> Any:
    """How far lost games had come (share of safe cells uncovered at death) and which guess lost them."""
    runs = [s for s in summaries if s.losses_detail is not None and s.losses]
    if not runs:
        return None
    fig = _figure(3.4)
    left, right = fig.subplots(1, 2, width_ratios=[3, 2])
    w = _bar_width(len(runs))
    for i, s in enumerate(runs):
        assert s.losses_detail is not None
        color = LOSS if len(runs) == 1 else f"C{i % 7}"
        shift = (i - (len(runs) - 1) / 2) * w
        death = s.losses_detail.uncovered_at_death
        left.bar([k + 0.5 + shift for k in range(DEATH_BINS)], [n / s.losses for n in death], width=w,
                 color=color, label=s.label)  # fmt: skip
        fatal = list(s.losses_detail.fatal_guess[:9])
        fatal.append(sum(s.losses_detail.fatal_guess[9:]))
        right.bar([k + 1 + shift for k in range(len(fatal))], [n / s.losses for n in fatal], width=w,
                  color=color, label=s.label)  # fmt: skip
    left.set_xticks(range(DEATH_BINS + 1), [f"{10 * k}%" for k in range(DEATH_BINS + 1)])
    left.set_title("How far lost games had come")
    left.set_xlabel("safe cells uncovered when the game was lost")
    left.set_ylabel("share of losses")
    right.set_xticks(range(1, 11), [*map(str, range(1, 10)), "10+"])
    right.set_title("Which guess lost the game")
    right.set_xlabel("number of the fatal guess")
    for ax in (left, right):
        _percent_axis(ax)
    if len(runs) > 1:
        left.legend(fontsize=8)
    return fig


def _percent_formatter() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0, decimals=None)


def _percent_axis(ax: Any, which: str = "y") -> None:
    from matplotlib.ticker import PercentFormatter

    axis = ax.yaxis if which == "y" else ax.xaxis
    axis.set_major_formatter(PercentFormatter(1.0, decimals=None))


def _integer_x(ax: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


#: (file-name part, alt text, plot function) for every plot a report shows, in order;
#: a function may return None (nothing to draw: no lost game).
PLOTS: tuple[tuple[str, str, Callable[[Sequence[Summary]], Any]], ...] = (
    ("guesses", "Guesses per game", plot_guesses),
    ("lost", "Where games are lost", plot_fatal),
    ("risk", "Probability of the fatal guess and calibration", plot_risk),
    ("anatomy", "How far lost games had come, and which guess lost them", plot_anatomy),
    ("fatal-cells", "Heat map of the cells lost games died on", plot_fatal_cells),
    ("bbbv", "3BV distribution and win rate by 3BV", plot_bbbv),
    ("time", "Time per game", plot_time),
)

#: The plots of the anatomy of losses, shown in their own section of the HTML page.
LOSS_PLOTS = ("anatomy", "fatal-cells")


def figure_svg(fig: Any, salt: str) -> str:
    """Save a figure as standalone SVG text (no date, ids made unique by ``salt``)."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": salt}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def render_plots(
    summaries: Sequence[Summary], references: Sequence[ReferenceMatch] = ()
) -> list[tuple[str, str, str]]:
    """Every plot as ``(name, alt text, SVG text)``; empty runs are left out of plots.

    The first, ``rates``, sets each run's win rate beside the published figures
    (``references``) that meet it.
    """
    import matplotlib

    runs = [s for s in summaries if s.games]
    if not runs:
        return []
    out = []
    with matplotlib.rc_context(PLOT_STYLE):
        alt = "Win rate with its 95 % interval" + (", beside published figures" if references else "")
        out.append(("rates", alt, figure_svg(plot_win_rates(runs, references), "minesat-rates")))
        for name, alt, plot in PLOTS:
            fig = plot(runs)
            if fig is not None:
                out.append((name, alt, figure_svg(fig, f"minesat-{name}")))
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
