"""A sweep's report: one plot of every curve, each curve's 50 % crossing, every point; HTML, Markdown or JSON.

The plot puts every curve on the same axes, each with its Wilson band, in a
colour, line style and marker of its own (:func:`curve_style`), with the x axis
as the density, the effective density or the mine count (:data:`X_AXES`).

>>> [curve_style(i).color == curve_style(0).color for i in (0, 8)], curve_style(8).linestyle
([True, True], (0, (5, 2)))
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from minesat.board import cell_name
from minesat.provenance import describe_provenance, short
from minesat.report.formatting import ci_text, pct
from minesat.report.plots import DENSE, PLOT_STYLE, _figure, _percent_axis, figure_svg, inline_svg, plot_rates
from minesat.report.render import _md_table, _write, templates
from minesat.rules import rules_lines
from minesat.words import agree, plural

if TYPE_CHECKING:
    from minesat.sweeping import Curve, Sweep, SweepPoint

__all__ = [
    "CURVE_COLORS",
    "CURVE_LINES",
    "CURVE_MARKERS",
    "FIGURES_EXPLAINED",
    "X_AXES",
    "CurveStyle",
    "axis_text",
    "crossing_notes",
    "crossing_table",
    "curve_style",
    "fit_text",
    "mean_text",
    "plot_sweep",
    "render_sweep_html",
    "render_sweep_json",
    "render_sweep_markdown",
    "render_sweep_plots",
    "sweep_cards",
    "sweep_subtitle",
    "sweep_table",
    "sweep_title",
    "to_axis",
    "write_sweep_report",
]

#: What the x axis can show, and how it is labelled.
X_AXES = {
    "density": "mine density (mines per cell)",
    "effective-density": "effective density (mines per cell not kept clear at the start)",
    "mines": "mines",
}

#: Curve colours: Okabe and Ito's palette, told apart with the common colour blindnesses
#: (its yellow, too pale on white, left out), and a brown.
CURVE_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B")
#: After every colour has served once, the next curves take the next line style and marker:
#: 32 curves are told apart by colour, line and marker together.
CURVE_LINES: tuple[Any, ...] = ("-", (0, (5, 2)), (0, (1, 1.5)), (0, (6, 2, 1, 2)))
CURVE_MARKERS = ("o", "s", "^", "D")


@dataclass(frozen=True)
class CurveStyle:
    color: str
    linestyle: Any
    marker: str


def curve_style(i: int) -> CurveStyle:
    """The look of the ``i``-th curve (from 0): a colour; a line style and marker per round of colours."""
    round_, k = divmod(i, len(CURVE_COLORS))
    return CurveStyle(CURVE_COLORS[k], CURVE_LINES[round_ % len(CURVE_LINES)],
                      CURVE_MARKERS[round_ % len(CURVE_MARKERS)])  # fmt: skip


def to_axis(curve: Curve, density: float, axis: str) -> float:
    """A density of ``curve``'s board in the units of ``axis``."""
    if axis == "mines":
        return density * curve.cells
    if axis == "effective-density":
        free = curve.cells - curve.clear
        return density * curve.cells / free if free else 0.0
    return density


def _legend_order(handles: list[Any], columns: int) -> list[Any]:
    """Handles reordered so the legend, which matplotlib fills column by column, reads row by row."""
    rows = math.ceil(len(handles) / columns)
    order = (i * columns + j for j in range(columns) for i in range(rows))
    return [handles[k] for k in order if k < len(handles)]


def plot_sweep(sweep: Sweep, x_axis: str = "density") -> Any:
    """Every curve against ``x_axis``: the win rate, each curve's 50 % crossing with its interval,
    the share won with no guess, the guesses a won game needed, and the share of guesses that hit a mine."""
    from matplotlib.lines import Line2D

    n = len(sweep.curves)
    columns = min(n, 3)
    strip = 0.5 + 0.24 * n
    fig = _figure(8.6 + strip + 0.2 * math.ceil(n / columns))
    axes = fig.subplots(5, 1, sharex=True, height_ratios=[3.4, strip, 2, 2, 2])
    handles = []
    for i, curve in enumerate(sweep.curves):
        style = curve_style(i)
        pts = [(to_axis(curve, p.density, x_axis), p) for p in curve.points if p.games]
        _plot_curve(axes, curve, pts, style, x_axis)
        _plot_crossing(axes[0], axes[1], curve, i, pts, style, x_axis)
        handles.append(Line2D([], [], color=style.color, label=curve.label, ms=4,
                              marker=style.marker, linestyle=style.linestyle))  # fmt: skip
    _label_sweep_axes(axes, sweep, x_axis)
    fig.legend(handles=_legend_order(handles, columns), loc="outside lower center", ncols=columns, fontsize=8)
    return fig


def _plot_curve(
    axes: Any, curve: Curve, pts: list[tuple[float, SweepPoint]], style: CurveStyle, x_axis: str
) -> None:
    """One curve's points on the four panels of rates: the win rate (with its fitted logistic
    line), the share won with no guess, the guesses per won game, the share of fatal guesses."""
    win, _, no_guess, per_win, hazard = axes
    look = {"marker": style.marker, "linestyle": style.linestyle}
    # The games as points in their Wilson band; the line is the fitted logistic curve, so a
    # curve that is not logistic shows as points that stray from their line.
    plot_rates(win, [(x, p.wins, p.games) for x, p in pts], style.color, None,
               marker=style.marker, linestyle="none")  # fmt: skip
    fit = curve.fit
    if fit is not None and pts:
        lo_d, hi_d = min(p.density for _, p in pts), max(p.density for _, p in pts)
        grid = [lo_d + (hi_d - lo_d) * k / 120 for k in range(121)]
        win.plot([to_axis(curve, d, x_axis) for d in grid], [fit.probability(d) for d in grid],
                 color=style.color, linestyle=style.linestyle, lw=1.3, zorder=3)  # fmt: skip
    plot_rates(no_guess, [(x, p.no_guess_wins, p.games) for x, p in pts], style.color, None, **look)
    _plot_means(per_win, [(x, p) for x, p in pts if p.wins], style)
    plot_rates(hazard, [(x, p.fatal_guesses, p.guesses_total) for x, p in pts if p.guesses_total],
               style.color, None, **look)  # fmt: skip


def _plot_crossing(
    win: Any,
    cross: Any,
    curve: Curve,
    i: int,
    pts: list[tuple[float, SweepPoint]],
    style: CurveStyle,
    x_axis: str,
) -> None:
    """The curve's 50 % crossing: an open marker on the win rate, and its interval on row ``i`` of
    the crossings' strip (or why it has none)."""
    from matplotlib.transforms import blended_transform_factory

    crossing = curve.crossing50
    if crossing is None:
        cross.text(0.01, i, f"none: {curve.crossing_note}", fontsize=8, color="#777777", va="center",
                   transform=blended_transform_factory(cross.transAxes, cross.transData))  # fmt: skip
        return
    x = to_axis(curve, crossing.density, x_axis)
    win.plot([x], [0.5], marker=style.marker, ms=6, mfc="white", mew=1.4, color=style.color, zorder=4)
    # An unbounded side is drawn to the edge of the plot, with no cap.
    low = to_axis(curve, crossing.low, x_axis) if crossing.low is not None else None
    high = to_axis(curve, crossing.high, x_axis) if crossing.high is not None else None
    cross.plot([x], [i], marker=style.marker, ms=5, mfc="white", mew=1.4, color=style.color, zorder=4)
    left = low if low is not None else min(x for x, _ in pts)
    right = high if high is not None else max(x for x, _ in pts)
    cross.plot([left, right], [i, i], color=style.color, lw=1.6, solid_capstyle="butt")
    for end in (low, high):
        if end is not None:
            cross.plot([end, end], [i - 0.25, i + 0.25], color=style.color, lw=1.2)
    if crossing.poor_fit and crossing.interpolated is not None:
        # A poor fit: the crossing the points themselves give, beside the model's.
        cross.plot([to_axis(curve, crossing.interpolated, x_axis)], [i], marker="x", ms=6, mew=1.6,
                   color=style.color, zorder=5)  # fmt: skip


def _label_sweep_axes(axes: Any, sweep: Sweep, x_axis: str) -> None:
    """The panels' titles, labels and limits, once every curve is drawn."""
    win, cross, no_guess, per_win, hazard = axes
    n = len(sweep.curves)
    win.axhline(0.5, color="#999999", lw=0.8, ls=":", zorder=1)
    win.set_title("Win rate (points: the games, 95 % Wilson band; line: the fitted logistic curve; "
                  "open marker: its 50 % crossing)", fontsize=10)  # fmt: skip
    win.set_ylabel("win rate")
    win.set_ylim(0, 1.02)
    cross.set_title("The fitted 50 % crossing, 95 % interval (Fieller); ×: a poor fit's crossing between "
                    "the points", fontsize=10)  # fmt: skip
    cross.set_yticks(range(n), [c.label for c in sweep.curves], fontsize=8)
    cross.set_ylim(n - 0.5, -0.5)
    cross.grid(False)
    no_guess.set_title("Won with no guess at all (95 % band)", fontsize=10)
    no_guess.set_ylabel("share of games")
    no_guess.set_ylim(0, None)
    per_win.set_title(f"Guesses a won game needed (mean, Student's t 95 % band; hollow: fewer than {DENSE} "
                      "won games)", fontsize=10)  # fmt: skip
    per_win.set_ylabel("guesses\nper won game")
    # A mean over two or three won games has a t interval tens of guesses wide: honest, but drawn to
    # its end it would flatten every curve; the axis keeps to the means and the bands of dense points.
    every = [p for c in sweep.curves for p in c.points if p.wins]
    tops = [p.guesses_per_win or 0.0 for p in every]
    tops += [(p.guesses_per_win_ci95 or (0.0, 0.0))[1] for p in every if p.wins >= DENSE]
    per_win.set_ylim(0, 1.15 * max(tops) if tops and max(tops) > 0 else None)
    hazard.set_title(f"Share of guesses that hit a mine (95 % band; hollow: fewer than {DENSE} guesses)",
                     fontsize=10)  # fmt: skip
    hazard.set_ylabel("chance a\nguess loses")
    hazard.set_ylim(0, None)
    hazard.set_xlabel(X_AXES[x_axis])
    for ax in (win, no_guess, hazard):
        _percent_axis(ax)
    if x_axis != "mines":
        _percent_axis(hazard, "x")
    sizes = {(c.config.rows, c.config.cols) for c in sweep.curves}
    if len(sizes) == 1 and x_axis == "density":
        # The mine counts along the top, so a reader can find a board they know.
        cells = sweep.curves[0].cells
        top = win.secondary_xaxis("top", functions=(lambda d: d * cells, lambda m: m / cells))
        top.set_xlabel("mines")


def _plot_means(ax: Any, points: Sequence[tuple[float, SweepPoint]], style: CurveStyle) -> None:
    """Guesses per won game with Student's t interval of the mean: a line in a band through the
    points over at least :data:`DENSE` won games, a hollow marker (its bar, where it has one) for
    each point over fewer: the count that decides is the won games the mean is over."""
    dense = [(x, p) for x, p in points if p.wins >= DENSE]
    if dense:
        xs = [x for x, _ in dense]
        bands = [p.guesses_per_win_ci95 or (p.guesses_per_win or 0.0,) * 2 for _, p in dense]
        ax.fill_between(xs, [lo for lo, _ in bands], [hi for _, hi in bands], color=style.color, alpha=0.18,
                        lw=0)  # fmt: skip
        ax.plot(xs, [p.guesses_per_win for _, p in dense], color=style.color, marker=style.marker, ms=3,
                linestyle=style.linestyle)  # fmt: skip
    for x, p in points:
        if p.wins >= DENSE or p.guesses_per_win is None:
            continue
        ci = p.guesses_per_win_ci95
        bar = None if ci is None else [[p.guesses_per_win - ci[0]], [ci[1] - p.guesses_per_win]]
        ax.errorbar([x], [p.guesses_per_win], yerr=bar, fmt=style.marker, ms=3.5, mfc="white",
                    color=style.color, alpha=0.6, lw=0.8, capsize=2)  # fmt: skip


def render_sweep_plots(sweep: Sweep, x_axis: str = "density") -> list[tuple[str, str, str]]:
    """The sweep's plot as ``[(name, alt text, SVG text)]``; none when no point has games."""
    import matplotlib

    if not any(p.games for p in sweep.points):
        return []
    with matplotlib.rc_context(PLOT_STYLE):
        fig = plot_sweep(sweep, x_axis)
        alt = "Win rate, no-guess share, guesses per won game and the chance a guess loses, every curve"
        return [("curves", alt, figure_svg(fig, "sweep"))]


# --- tables --------------------------------------------------------------------------


def _interval(low: float | None, high: float | None) -> str:
    """A density interval in percent; an unbounded side says so."""
    lo = "unbounded" if low is None else f"{100 * low:.1f}"
    hi = "unbounded" if high is None else f"{100 * high:.1f}"
    return f"{lo}–{hi} %"


def fit_text(curve: Curve) -> str:
    """How well a curve's logistic fit fits: the deviance on its degrees of freedom and the
    chi-square p-value, and the dispersion when it widens the interval.

    >>> from minesat.logistic import fit_logistic
    >>> from types import SimpleNamespace
    >>> fit_text(SimpleNamespace(fit=fit_logistic([(0.1, 9, 10), (0.2, 4, 10), (0.3, 2, 10)])))
    'deviance 0.80 on 1 df, p = 0.37'
    """
    fit = curve.fit
    if fit is None:
        return "–"
    if fit.p_value is None:
        return "two points: no degree of freedom to test the fit"
    text = f"deviance {fit.deviance:.2f} on {fit.df} df, p = {fit.p_value:.2g}"
    if fit.poor_fit:
        text += ": poor fit"
    if fit.scale > 1:
        text += f"; dispersion {fit.scale:.2f}, interval widened by its square root"
    return text


def crossing_table(sweep: Sweep) -> tuple[list[str], list[list[str]]]:
    """One row per curve: where the fitted win rate is 50 %, how well the curve fits, the crossing
    between the points, or why the curve has no crossing."""
    header = ["Curve", "50 % won at density", "95 % CI", "Effective density", "Mines", "Fit",
              "Between the points", "Games"]  # fmt: skip
    rows = []
    for curve in sweep.curves:
        games = f"{sum(p.games for p in curve.points):,}"
        c = curve.crossing50
        if c is None:
            rows.append([curve.label, "–", curve.crossing_note or "", "–", "–", fit_text(curve), "–", games])
            continue
        flagged = pct(c.density) + (" (poor fit)" if c.poor_fit else "")
        line = "–" if c.interpolated is None else pct(c.interpolated)
        rows.append([curve.label, flagged, _interval(c.low, c.high), pct(c.effective_density),
                     f"{c.mines:.1f}", fit_text(curve), line, games])  # fmt: skip
    return header, rows


def crossing_notes(sweep: Sweep) -> list[str]:
    """A sentence for each curve whose fit is poor: its crossing is a model's, and the points say
    otherwise."""
    notes = []
    for curve in sweep.curves:
        c, fit = curve.crossing50, curve.fit
        if c is None or fit is None or not c.poor_fit or fit.p_value is None:
            continue
        between = (f"; the line joining the two points around 50 % crosses at {pct(c.interpolated, 2)}"
                   if c.interpolated is not None else "")  # fmt: skip
        notes.append(
            f"{curve.label}: the points are not a logistic curve (deviance {fit.deviance:.2f} on "
            f"{fit.df} df, p = {fit.p_value:.2g}), so its crossing, {pct(c.density, 2)}, is the model's"
            f"{between}. "
            f"Its interval is widened by the dispersion ({fit.scale:.2f}, quasi-binomial), but no logistic "
            "interval covers a wrong shape: read the points."
        )
    return notes


def sweep_table(sweep: Sweep) -> tuple[list[str], list[list[str]]]:
    """One row per point, curve by curve (by size, then rule and strategy), in density order."""
    header = ["Curve", "Mines", "Density", "Effective density", "Games", "Win rate (95 % CI)",
              "Won, no guess", "Guesses per won game", "Guesses that hit a mine"]  # fmt: skip
    rows = []
    for curve in sweep.curves:
        for p in curve.points:
            per_win = mean_text(p.guesses_per_win, p.guesses_per_win_ci95, p.wins, "won game")
            hazard = "–" if p.hazard is None else f"{pct(p.hazard)} of {p.guesses_total:,}"
            rows.append([curve.label, str(p.mines), pct(p.density), pct(p.effective_density), f"{p.games:,}",
                         f"{pct(p.win_rate)} ({ci_text(p.ci95)})", pct(p.no_guess_rate), per_win, hazard])
    return header, rows  # fmt: skip


def mean_text(mean: float | None, ci: tuple[float, float] | None, n: int, unit: str) -> str:
    """A mean with its interval, or a dash where under two values leave it none, with the count.

    >>> mean_text(6.0, None, 1, "won game"), mean_text(1.5, (0.5, 2.5), 4, "won game")
    ('6.00 (–, 1 won game)', '1.50 (0.50–2.50)')
    """
    if mean is None or not n:
        return "–"
    if ci is None:
        return f"{mean:.2f} (–, {plural(n, unit, ',')})"
    return f"{mean:.2f} ({ci[0]:.2f}–{ci[1]:.2f})"


def sweep_title(sweep: Sweep) -> str:
    sizes = ", ".join(f"{r}x{c}" for r, c in sweep.plan.sizes)
    return f"Solvability against density: {sizes}"


def sweep_subtitle(sweep: Sweep) -> str:
    plan = sweep.plan
    if plan.start is not None:
        start = f"{cell_name(plan.start)} ({plan.start[0]},{plan.start[1]} counted from 0)"
    else:
        start = "D4 (3,3 counted from 0, clipped to small boards)"
    rules = " and ".join(plan.rules)
    strategies = ", ".join(plan.strategies)
    return (
        f"{plural(sweep.games, 'game', ',')} per point; first click {rules} at {start}; seed {plan.seed}; "
        f"{agree(len(plan.strategies), 'strategy', 'strategies')} {strategies}; "
        f"{plural(len(sweep.curves), 'curve')}, {plural(len(sweep.points), 'point')}."
    )


def axis_text(curve: Curve, density: float | None, axis: str) -> str:
    """A density of ``curve``'s board said in the units of ``axis`` (``unbounded`` for None)."""
    if density is None:
        return "unbounded"
    value = to_axis(curve, density, axis)
    return f"{value:.1f} mines" if axis == "mines" else pct(value)


def sweep_cards(sweep: Sweep, x_axis: str = "density") -> list[tuple[str, str, str]]:
    """The figures a reader looks for first: the games, and each curve's crossing in the units of
    the plot's x axis (with many curves, the lowest and the highest: the table below has them all)."""
    cards = [("Games", f"{sum(p.games for p in sweep.points):,}",
              f"{plural(len(sweep.curves), 'curve')}, {plural(len(sweep.points), 'point')}")]  # fmt: skip
    crossed = [(curve.crossing50, curve) for curve in sweep.curves if curve.crossing50 is not None]
    if len(crossed) > 4:
        crossed.sort(key=lambda pair: to_axis(pair[1], pair[0].density, x_axis))
        crossed = [crossed[0], crossed[-1]]
        names: tuple[str, ...] = ("Lowest 50 % crossing", "Highest 50 % crossing")
    else:
        names = tuple("50 % won" for _ in crossed)
    unit = {"density": "density", "effective-density": "effective density", "mines": "mines"}[x_axis]
    for name, (c, curve) in zip(names, crossed, strict=True):
        interval = f"{axis_text(curve, c.low, x_axis)} to {axis_text(curve, c.high, x_axis)}"
        sub = f"{unit}; 95 % CI {interval}"
        if c.poor_fit:
            between = axis_text(curve, c.interpolated, x_axis) if c.interpolated is not None else None
            sub += "; poor fit" + (f", {between} between the points" if between else "")
        cards.append((f"{name}: {curve.label}", axis_text(curve, c.density, x_axis), sub))
    return cards


#: The fields of a point's provenance shown in its row when the points differ on them (a sweep
#: resumed on another machine); otherwise the sweep's table says them once for all.
_MACHINE = (("minesat", "minesat"), ("python", "Python"), ("platform", "Platform"), ("cpus", "Cores"),
            ("workers", "Workers"))  # fmt: skip


def _players(value: Any) -> str:
    """A point's player as people read it: the short fingerprint, ``unknown``, or each of several."""
    if isinstance(value, list):
        return "; ".join(short(v) for v in value)
    return short(value)


def provenance_table(sweep: Sweep) -> tuple[list[str], list[list[str]]]:
    """One row per point: its player, sessions, last batch stored and games' hash (and the machine
    fields on which the points differ)."""
    points = [(curve.label, p) for curve in sweep.curves for p in curve.points]
    known = [p.provenance or {} for _, p in points]
    varying = [(key, name) for key, name in _MACHINE
               if len({json.dumps(k.get(key)) for k in known}) > 1]  # fmt: skip
    header = ["Curve", "Mines", "Player", *(name for _, name in varying), "Sessions", "Finished (UTC)",
              "Games (SHA-256)"]  # fmt: skip
    rows = []
    for (label, p), prov in zip(points, known, strict=True):
        machine = [dict(describe_provenance({key: prov.get(key)}))[name] for key, name in varying]
        rows.append([label, str(p.mines), _players(prov.get("player")), *machine,
                     str(prov.get("sessions", 0)), prov.get("finished") or "–",
                     prov.get("games_sha256") or "–"])  # fmt: skip
    return header, rows


def provenance_notes(sweep: Sweep) -> list[str]:
    """Points whose store holds several players' games (each player's figures apart, the point's
    one player's), or an unknown player's."""
    notes = []
    for curve in sweep.curves:
        for p in curve.points:
            player = (p.provenance or {}).get("player")
            if p.players:
                others = "; ".join(
                    f"player {short(row['player'])}: {row['games']:,} games, {row['wins']:,} won"
                    for row in p.players if not row.get("shown")
                )  # fmt: skip
                notes.append(f"{curve.label} at {p.mines} mines: its store holds the games of "
                             f"{len(p.players)} players (resumed with --mix-players), never pooled: the "
                             f"point is player {short(player)}'s {p.games:,} games; the others apart "
                             f"({others}).")
            elif p.games and player is None:
                notes.append(f"{curve.label} at {p.mines} mines holds games of an unknown player "
                             "(stored before minesat recorded players).")
    return notes  # fmt: skip


#: What each figure means, for the reader of a report (the docs say more).
FIGURES_EXPLAINED = (
    ("Density", "mines per cell of the board."),
    ("Effective density", "mines per cell the first-click rule does not keep clear (opening: the first "
     "cell and its neighbours, 9 cells, 6 at an edge, 4 in a corner; safe: 1; any: 0). On small boards "
     "the two differ most: 10 mines on 9x9 are 12.3 % of the cells, 13.9 % of the 72 that may hold one."),
    ("Win rate", "share of games won, with the Wilson 95 % interval."),
    ("50 % won at density", "where the maximum-likelihood logistic curve, logit P(win) = b0 + b1 x density, "
     "fitted to every game of the curve, crosses 50 %: -b0/b1, with Fieller's 95 % interval (a side is "
     "unbounded when the slope is not clearly away from 0). None when the points do not bracket 50 % or "
     "every win lies at a lower density than every loss (the fit then has no maximum)."),
    ("Fit", "how well the logistic curve fits the points: its deviance on (points - 2) degrees of freedom "
     "and the chi-square p-value of that deviance. Below 0.05 the fit is poor: the points are no "
     "logistic curve, the crossing is the model's, and the crossing between the points (the line joining "
     "the two points around 50 %) is shown beside it. Where the dispersion (Pearson's X² over the degrees "
     "of freedom) exceeds 1, the games vary more than binomial counts would, and the covariance of the fit, "
     "so the crossing's interval, is widened by it (quasi-binomial)."),
    ("Guesses per won game", "the guesses a game that was won needed: the mean and Student's t 95 % "
     "interval over the won games, none under 2 of them (a dash with the count); hollow in the plot under "
     f"{DENSE} won games. Guesses per game over all games would fall at high densities only because lost "
     "games stop early."),
    ("Guesses that hit a mine", "fatal guesses over all guesses made: the risk one guess carries "
     "(the interval treats guesses as independent, which guesses of one game are not quite)."),
)  # fmt: skip


# --- the three formats ---------------------------------------------------------------


def render_sweep_json(sweep: Sweep) -> str:
    """The sweep as one JSON object (what ``minesat sweep --json`` prints, indented)."""
    return json.dumps(sweep.to_dict(), indent=1, allow_nan=False) + "\n"


#: What the provenance tables say, above them.
PROVENANCE_TEXT = (
    "What made the games: the sweep's points together, then each point, as minesat report gives a run's "
    "(a point's JSON adds the minesat simulate command that plays it alone). The player is the "
    "fingerprint of the code that decides moves; the games' hash is the SHA-256 of minesat export of "
    "the point's games, times and the player left out."
)


def render_sweep_markdown(sweep: Sweep, plots: Sequence[tuple[str, str]] = (), db: str | None = None) -> str:
    """The sweep as Markdown; ``plots`` are ``(alt text, relative link)`` pairs."""
    out = [f"# {sweep_title(sweep)}", "", sweep_subtitle(sweep)]
    out += ["", "## Rules", ""] + [f"- {line}" for line in rules_lines(sweep.rules)]
    out += [f"\n![{alt}]({link})" for alt, link in plots]
    out += ["", "## Where half the games are won", "", _md_table(*crossing_table(sweep), align="lrrrrlrr")]
    out += [f"\n> **Poor fit:** {n}" for n in crossing_notes(sweep)]
    out += ["", "## Points", "", _md_table(*sweep_table(sweep), align="lrrrrrrrr")]
    out += ["", "## What the figures mean", ""]
    out += [f"- **{name}**: {text}" for name, text in FIGURES_EXPLAINED]
    out += ["", "## Reproduce", "", "```sh", sweep.command(db), "```"]
    if sweep.provenance:
        out += ["", "## Provenance", "", PROVENANCE_TEXT, ""]
        out += [_md_table(["", ""], describe_provenance(sweep.provenance)), ""]
        out += [_md_table(*provenance_table(sweep))]
        out += [f"\n> Note: {n}" for n in provenance_notes(sweep)]
    return "\n".join(out) + "\n"


def render_sweep_html(sweep: Sweep, db: str | None = None, x_axis: str = "density") -> str:
    """The sweep as one self-contained HTML page."""
    plots = render_sweep_plots(sweep, x_axis)
    header, rows = sweep_table(sweep)
    crossing_header, crossing_rows = crossing_table(sweep)
    return templates().get_template("sweep.html.j2").render(
        title=sweep_title(sweep),
        subtitle=sweep_subtitle(sweep),
        rules=rules_lines(sweep.rules),
        cards=sweep_cards(sweep, x_axis),
        crossing_notes=crossing_notes(sweep),
        plots=[(alt, Markup(inline_svg(svg))) for _, alt, svg in plots],
        crossings={"header": crossing_header, "rows": crossing_rows},
        table={"header": header, "rows": rows},
        explained=FIGURES_EXPLAINED,
        command=sweep.command(db),
        provenance={
            "text": PROVENANCE_TEXT,
            "sweep": describe_provenance(sweep.provenance),
            "points": dict(zip(("header", "rows"), provenance_table(sweep), strict=True)),
            "notes": provenance_notes(sweep),
        } if sweep.provenance else None,
    )  # fmt: skip


def write_sweep_report(
    sweep: Sweep, out: str | Path, db: str | None = None, x_axis: str = "density"
) -> list[Path]:
    """Write the sweep report in the format ``out``'s extension names; return every file written."""
    return _write(
        out,
        lambda: render_sweep_json(sweep),
        lambda: render_sweep_html(sweep, db, x_axis),
        lambda links: render_sweep_markdown(sweep, links, db),
        lambda: render_sweep_plots(sweep, x_axis),
    )
