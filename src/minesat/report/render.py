"""Reports as Markdown, JSON or HTML; HTML from the Jinja2 templates shipped in ``templates/``.

Every renderer takes a sequence of summaries: with several, the runs are
compared side by side. :func:`write_report` picks the format from the file name.

>>> from minesat.report.statistics import summarize
>>> print(render_markdown([summarize([], label="empty")]).splitlines()[0])
# minesat solvability report: empty
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import jinja2
from markupsafe import Markup

from minesat.report.formatting import (
    ci_text,
    config_rows,
    describe_config,
    headline,
    paired_rows,
    paired_text,
    pct,
    secs,
)
from minesat.report.paired import Paired
from minesat.report.plots import inline_svg, render_plots
from minesat.report.statistics import Summary
from minesat.words import plural


def unique_labels(summaries: Sequence[Summary]) -> list[Summary]:
    """Give runs that share a label distinct ones (their source path), for legends and tables."""
    counts = Counter(s.label for s in summaries)
    out = []
    for i, s in enumerate(summaries):
        if counts[s.label] > 1:
            s = replace(s, label=s.source or f"{s.label} #{i + 1}")
        out.append(s)
    return out


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


def render_markdown(
    summaries: Sequence[Summary], plots: Sequence[tuple[str, str]] = (), paired: Sequence[Paired] = ()
) -> str:
    """A Markdown report. ``plots`` are ``(alt text, relative link)`` pairs to show;
    ``paired`` the runs compared game by game (:func:`~minesat.report.paired.pair_dbs`).

    Use :func:`write_report` to also write the plot files beside the Markdown.
    """
    summaries = unique_labels(summaries)
    title = "minesat solvability report"
    out = [f"# {title}" + (f": {summaries[0].label}" if len(summaries) == 1 else "")]
    if len(summaries) > 1:
        out += ["", "## Comparison", ""]
        header, rows = comparison_rows(summaries)
        out.append(_md_table(header, rows))
    for p in paired:
        out += ["", f"## Paired: {p.a} vs {p.b}", "", paired_text(p), "", _md_table(["", ""], paired_rows(p))]
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


def render_json(summaries: Sequence[Summary], paired: Sequence[Paired] = ()) -> str:
    """``{"report": "minesat", "version": 1, "runs": [summary, ...], "paired": [pair, ...]}``.

    ``runs`` has one entry per run; ``paired`` one per two runs on the same boards
    (empty when none are).
    """
    doc = {
        "report": "minesat",
        "version": 1,
        "runs": [s.to_dict() for s in summaries],
        "paired": [p.to_dict() for p in paired],
    }
    return json.dumps(doc, indent=1, allow_nan=False) + "\n"


# --- HTML ----------------------------------------------------------------------

#: Rows of the key-figure and comparison tables shown in bold.
KEY_ROWS = frozenset({"Win rate", "95 % CI (Wilson)", "Won with no guess"})


@functools.cache
def templates() -> jinja2.Environment:
    """The Jinja2 environment over the templates shipped in this package; autoescaping on.

    >>> templates().get_template("report.html.j2").name
    'report.html.j2'
    """
    return jinja2.Environment(
        loader=jinja2.PackageLoader("minesat.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,  # a misspelt name fails loudly instead of printing nothing
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _cards(s: Summary) -> list[tuple[str, str, str]]:
    if not s.games:
        return []
    return [
        ("Win rate", pct(s.win_rate), f"95 % CI {ci_text(s.ci95)}"),
        ("Games", f"{s.games:,}", f"{s.wins:,} won, {s.losses:,} lost"),
        ("Won with no guess", pct(s.no_guess_share), plural(s.no_guess_wins, "game", ",")),
        ("Guesses per game", f"{s.guesses_mean:.2f}", f"{s.moves_mean:.0f} moves per game"),
        ("Time per game", secs(s.seconds_mean), f"median ≈ {secs(s.seconds_median)}, "
         f"p90 ≈ {secs(s.seconds_p90)}"),
    ]  # fmt: skip


def _run_context(s: Summary) -> dict[str, object]:
    tables = []
    if s.games:
        for title, header, rows in detail_tables(s):
            if rows:
                # Six columns do not fit half the page: such tables take a whole row.
                tables.append({"title": title, "header": header, "rows": rows, "wide": len(header) > 5})
    return {
        "label": s.label,
        "cards": _cards(s),
        "headline": headline(s),
        "config": describe_config(s),
        "command": s.command,
        "notes": s.notes,
        "tables": tables,
    }


def render_html(
    summaries: Sequence[Summary],
    plots: Sequence[tuple[str, str, str]] | None = None,
    paired: Sequence[Paired] = (),
    viewers: Mapping[int, str] | None = None,
) -> str:
    """One self-contained HTML page: inline CSS, plots as inline SVG, no scripts, no links out.

    ``viewers`` maps a lost game's index to the (relative) address of its viewer
    page (:func:`write_viewer_pages`); each lost game shown links to its page.
    """
    summaries = unique_labels(summaries)
    if plots is None:
        plots = render_plots(summaries)
    many = len(summaries) > 1
    title = "Solvability report: " + (" vs ".join(s.label for s in summaries) if many else summaries[0].label)
    header, rows = comparison_rows(summaries)
    fatal = [] if many else _fatal_pictures(summaries[0], viewers or {})
    return templates().get_template("report.html.j2").render(
        fatal=fatal,
        title=title,
        many=many,
        comparison={"header": header, "rows": rows},
        runs=[_run_context(s) for s in summaries],
        plots=[(alt, Markup(inline_svg(svg))) for _, alt, svg in plots],
        key_rows=KEY_ROWS,
        paired=[
            {"a": p.a, "b": p.b, "text": paired_text(p), "header": None, "rows": paired_rows(p)}
            for p in paired
        ],
    )


def _fatal_pictures(summary: Summary, viewers: Mapping[int, str]) -> list[dict[str, object]]:
    """The first lost games of a one-run report, each at its fatal guess, as inline SVG
    with the address of its viewer page when there is one.

    Only for a seeded run whose store is at hand: the games are replayed from
    their seeds (a board-set run, or a summary without a store, gets none).
    """
    from minesat.report.fatal import fatal_boards, fatal_svg

    if not summary.source or not Path(summary.source).is_file():
        return []
    return [
        {"svg": Markup(fatal_svg(board)), "game": board.game, "viewer": viewers.get(board.game)}
        for board in fatal_boards(summary.source)
    ]


def write_viewer_pages(summary: Summary, out: str | Path, limit: int | None = None) -> dict[int, Path]:
    """Write a viewer page (:mod:`minesat.viewer`) for each lost game the report shows, beside ``out``.

    The pages are ``<out stem>-game-<index>.html``; returns them by game index.
    Nothing for a run whose store is not at hand or that plays a board set.
    """
    from minesat.formats import write_text_atomically
    from minesat.report.fatal import FATAL_BOARDS, game_page, lost_games

    out = Path(out)
    if not summary.source or not Path(summary.source).is_file():
        return {}
    out.parent.mkdir(parents=True, exist_ok=True)
    pages = {}
    for lost in lost_games(summary.source, FATAL_BOARDS if limit is None else limit):
        path = out.with_name(f"{out.stem}-game-{lost.game}.html")
        write_text_atomically(path, game_page(lost, summary.label))
        pages[lost.game] = path
    return pages


# --- files -----------------------------------------------------------------------

#: Report format by file extension.
FORMATS = {
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".markdown": "markdown",
    ".json": "json",
}


def _write(
    out: str | Path,
    as_json: Callable[[], str],
    as_html: Callable[[], str],
    as_markdown: Callable[[list[tuple[str, str]]], str],
    plots: Callable[[], list[tuple[str, str, str]]],
) -> list[Path]:
    """Write one report in the format ``out``'s extension names; return every file written.

    Markdown gets its plots as SVG files beside it, ``NAME-<plot>.svg``, linked relatively.
    """
    out = Path(out)
    kind = FORMATS.get(out.suffix.lower())
    if kind is None:
        raise ValueError(f"{out}: unknown report format (use .html, .md or .json)")
    out.parent.mkdir(parents=True, exist_ok=True)
    written = []
    if kind == "json":
        text = as_json()
    elif kind == "html":
        text = as_html()
    else:
        links = []
        for name, alt, svg in plots():
            path = out.with_name(f"{out.stem}-{name}.svg")
            path.write_text(svg, encoding="utf-8")
            written.append(path)
            links.append((alt, path.name))
        text = as_markdown(links)
    out.write_text(text, encoding="utf-8")
    return [out, *written]


def write_report(summaries: Sequence[Summary], out: str | Path, paired: Sequence[Paired] = ()) -> list[Path]:
    """Write the report to ``out`` in the format its extension names; return every file written.

    An HTML report of one run also gets a viewer page for each lost game it
    shows (:func:`write_viewer_pages`), written first and linked from it.
    """
    pages: dict[int, Path] = {}
    if FORMATS.get(Path(out).suffix.lower()) == "html" and len(summaries) == 1:
        pages = write_viewer_pages(unique_labels(summaries)[0], out)
    written = _write(
        out,
        lambda: render_json(summaries, paired),
        lambda: render_html(summaries, paired=paired, viewers={g: p.name for g, p in pages.items()}),
        lambda links: render_markdown(summaries, links, paired),
        lambda: render_plots(unique_labels(summaries)),
    )
    return written + list(pages.values())
