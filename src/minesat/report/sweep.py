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

from minesat.provenance import describe_provenance, short
from minesat.report.formatting import ci_text, pct
from minesat.report.plots import DENSE, PLOT_STYLE, _figure, _percent_axis, figure_svg, inline_svg, plot_rates
from minesat.report.render import _md_table, _write, templates
from minesat.words import agree, plural

if TYPE_CHECKING:
    from minesat.sweep import Curve, Sweep, SweepPoint

__all__ = [
    "CURVE_COLORS",
    "CURVE_LINES",
    "CURVE_MARKERS",
    "FIGURES_EXPLAINED",
    "X_AXES",
    "CurveStyle",
    "crossing_table",
    "curve_style",
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
    from matplotlib.transforms import blended_transform_factory

    n = len(sweep.curves)
    columns = min(n, 3)
    strip = 0.5 + 0.24 * n
    fig = _figure(8.6 + strip + 0.2 * math.ceil(n / columns))
    win, cross, no_guess, per_win, hazard = fig.subplots(
        5, 1, sharex=True, height_ratios=[3.4, strip, 2, 2, 2]
    )
    handles = []
    for i, curve in enumerate(sweep.curves):
        style = curve_style(i)
        look = {"marker": style.marker, "linestyle": style.linestyle}
        pts = [(to_axis(curve, p.density, x_axis), p) for p in curve.points if p.games]
        plot_rates(win, [(x, p.wins, p.games) for x, p in pts], style.color, None, **look)
        plot_rates(no_guess, [(x, p.no_guess_wins, p.games) for x, p in pts], style.color, None, **look)
        _plot_means(per_win, [(x, p) for x, p in pts if p.wins], style)
        plot_rates(hazard, [(x, p.fatal_guesses, p.guesses_total) for x, p in pts if p.guesses_total],
                   style.color, None, **look)  # fmt: skip
        crossing = curve.crossing50
        if crossing is None:
            cross.text(0.01, i, f"none: {curve.crossing_note}", fontsize=8, color="#777777", va="center",
                       transform=blended_transform_factory(cross.transAxes, cross.transData))  # fmt: skip
        else:
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
        handles.append(Line2D([], [], color=style.color, label=curve.label, ms=4, **look))
    win.axhline(0.5, color="#999999", lw=0.8, ls=":", zorder=1)
    win.set_title("Win rate (95 % Wilson band; open marker: the fitted 50 % crossing)")
    win.set_ylabel("win rate")
    win.set_ylim(0, 1.02)
    cross.set_title("Where the fitted win rate is 50 %, with its 95 % interval (Fieller)", fontsize=10)
    cross.set_yticks(range(n), [c.label for c in sweep.curves], fontsize=8)
    cross.set_ylim(n - 0.5, -0.5)
    cross.grid(False)
    no_guess.set_title("Won with no guess at all (95 % band)", fontsize=10)
    no_guess.set_ylabel("share of games")
    no_guess.set_ylim(0, None)
    per_win.set_title("Guesses a won game needed (mean, 95 % band)", fontsize=10)
    per_win.set_ylabel("guesses\nper won game")
    per_win.set_ylim(0, None)
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
    fig.legend(handles=_legend_order(handles, columns), loc="outside lower center", ncols=columns, fontsize=8)
    return fig


def _plot_means(ax: Any, points: Sequence[tuple[float, SweepPoint]], style: CurveStyle) -> None:
    """Guesses per won game with the normal interval of the mean, as a line in a band."""
    if not points:
        return
    xs = [x for x, _ in points]
    bands = [p.guesses_per_win_ci95 or (0.0, 0.0) for _, p in points]
    ax.fill_between(xs, [lo for lo, _ in bands], [hi for _, hi in bands], color=style.color, alpha=0.18, lw=0)
    ax.plot(xs, [p.guesses_per_win for _, p in points], color=style.color, marker=style.marker, ms=3,
            linestyle=style.linestyle)  # fmt: skip


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


def crossing_table(sweep: Sweep) -> tuple[list[str], list[list[str]]]:
    """One row per curve: where the fitted win rate is 50 %, or why the curve has no such point."""
    header = ["Curve", "50 % won at density", "95 % CI", "Effective density", "Mines", "Games"]
    rows = []
    for curve in sweep.curves:
        games = f"{sum(p.games for p in curve.points):,}"
        c = curve.crossing50
        if c is None:
            rows.append([curve.label, "–", curve.crossing_note or "", "–", "–", games])
            continue
        rows.append([curve.label, pct(c.density), _interval(c.low, c.high), pct(c.effective_density),
                     f"{c.mines:.1f}", games])  # fmt: skip
    return header, rows


def sweep_table(sweep: Sweep) -> tuple[list[str], list[list[str]]]:
    """One row per point, curve by curve (by size, then rule and strategy), in density order."""
    header = ["Curve", "Mines", "Density", "Effective density", "Games", "Win rate (95 % CI)",
              "Won, no guess", "Guesses per won game", "Guesses that hit a mine"]  # fmt: skip
    rows = []
    for curve in sweep.curves:
        for p in curve.points:
            per_win = "–" if p.guesses_per_win is None or p.guesses_per_win_ci95 is None else (
                f"{p.guesses_per_win:.2f} ({p.guesses_per_win_ci95[0]:.2f}–{p.guesses_per_win_ci95[1]:.2f})")
            hazard = "–" if p.hazard is None else f"{pct(p.hazard)} of {p.guesses_total:,}"
            rows.append([curve.label, str(p.mines), pct(p.density), pct(p.effective_density), f"{p.games:,}",
                         f"{pct(p.win_rate)} ({ci_text(p.ci95)})", pct(p.no_guess_rate), per_win, hazard])
    return header, rows  # fmt: skip


def sweep_title(sweep: Sweep) -> str:
    sizes = ", ".join(f"{r}x{c}" for r, c in sweep.plan.sizes)
    return f"Solvability against density: {sizes}"


def sweep_subtitle(sweep: Sweep) -> str:
    plan = sweep.plan
    start = f"{plan.start[0]},{plan.start[1]}" if plan.start is not None else "3,3 (clipped to small boards)"
    rules = " and ".join(plan.rules)
    strategies = ", ".join(plan.strategies)
    return (
        f"{plural(sweep.games, 'game', ',')} per point; first click {rules} at {start}; seed {plan.seed}; "
        f"{agree(len(plan.strategies), 'strategy', 'strategies')} {strategies}; "
        f"{plural(len(sweep.curves), 'curve')}, {plural(len(sweep.points), 'point')}."
    )


def sweep_cards(sweep: Sweep) -> list[tuple[str, str, str]]:
    """The figures a reader looks for first: the games, and each curve's crossing (with many
    curves, the lowest and the highest: the table below has them all)."""
    cards = [("Games", f"{sum(p.games for p in sweep.points):,}",
              f"{plural(len(sweep.curves), 'curve')}, {plural(len(sweep.points), 'point')}")]  # fmt: skip
    crossed = [(c.crossing50, c.label) for c in sweep.curves if c.crossing50 is not None]
    if len(crossed) > 4:
        crossed.sort(key=lambda pair: pair[0].density)
        crossed = [crossed[0], crossed[-1]]
        names = ("Lowest 50 % crossing", "Highest 50 % crossing")
    else:
        names = tuple("50 % won" for _ in crossed)
    for name, (c, label) in zip(names, crossed, strict=True):
        cards.append((f"{name}: {label}", pct(c.density),
                      f"95 % CI {_interval(c.low, c.high)}; {c.mines:.1f} mines"))  # fmt: skip
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
    """Points whose games are not all one known player's: their win rates are not one player's."""
    notes = []
    for curve in sweep.curves:
        for p in curve.points:
            player = (p.provenance or {}).get("player")
            if p.games and isinstance(player, list):
                notes.append(f"{curve.label} at {p.mines} mines mixes the games of {len(player)} players "
                             f"({_players(player)}; resumed with --mix-players): its figures are "
                             "theirs together.")
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
    ("Guesses per won game", "the guesses a game that was won needed, mean and normal 95 % interval. "
     "Guesses per game over all games would fall at high densities only because lost games stop early."),
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
    "the point's games, times left out."
)


def render_sweep_markdown(sweep: Sweep, plots: Sequence[tuple[str, str]] = (), db: str | None = None) -> str:
    """The sweep as Markdown; ``plots`` are ``(alt text, relative link)`` pairs."""
    out = [f"# {sweep_title(sweep)}", "", sweep_subtitle(sweep)]
    out += [f"\n![{alt}]({link})" for alt, link in plots]
    out += ["", "## Where half the games are won", "", _md_table(*crossing_table(sweep), align="lrrrrr")]
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
        cards=sweep_cards(sweep),
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
