"""Reports as Markdown, JSON or HTML; HTML from the Jinja2 templates shipped in ``templates/``.

Every renderer draws a :class:`~minesat.report.document.Report` (or a sequence
of summaries, made into one): with several runs, they are compared side by
side, paired where they played the same boards. :func:`write_report` picks the
format from the file name.

>>> from minesat.tally import summarize
>>> print(render_markdown([summarize([], label="empty")]).splitlines()[0])
# minesat solvability report: empty
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import jinja2
from markupsafe import Markup

from minesat.errors import InvalidValue
from minesat.formats.output import write_text_atomically
from minesat.provenance import describe_provenance
from minesat.report.boards import PairedBoard, write_boards
from minesat.report.document import Report, as_report, unique_labels
from minesat.report.formatting import (
    ci_text,
    config_rows,
    describe_config,
    headline,
    interval_points,
    p_text,
    paired_rows,
    paired_text,
    pct,
    points,
    secs,
)
from minesat.report.paired import Compared, Paired
from minesat.report.plots import LOSS_PLOTS, inline_svg, render_plots
from minesat.rules import rules_lines
from minesat.tally import DEATH_BINS, Summary
from minesat.words import plural

__all__ = ["unique_labels"]  # re-exported: it lived here first


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


def losses_table(s: Summary) -> tuple[list[str], list[list[str]]]:
    """Lost games by the share of safe cells uncovered at death, in tenths (the anatomy of losses)."""
    d = s.losses_detail
    if d is None or not s.losses:
        return [], []
    header = ["Safe cells uncovered at death", "Lost games", "Share of losses"]
    rows = [[f"{10 * k}–{10 * (k + 1)} %", f"{n:,}", pct(n / s.losses)]
            for k, n in enumerate(d.uncovered_at_death)]  # fmt: skip
    return header, rows


def losses_sentences(s: Summary) -> list[str]:
    """The anatomy of a run's losses in a few sentences, each a count with its share."""
    d = s.losses_detail
    if d is None or not s.losses:
        return []
    out = []
    early = sum(d.uncovered_at_death[:1])
    late = d.uncovered_at_death[DEATH_BINS - 1]
    out.append(f"{late:,} of the {s.losses:,} lost games ({pct(late / s.losses)}) were lost with more "
               f"than 90 % of the safe cells uncovered, {early:,} ({pct(early / s.losses)}) with less "
               "than 10 %.")
    on, board = d.on_border
    if sum(d.fatal_guess):
        out.append(f"{on:,} of the fatal guesses ({pct(on / sum(d.fatal_guess))}) were on an edge or corner "
                   f"cell, which make up {pct(board)} of the board.")  # fmt: skip
        first = d.fatal_guess[0] if d.fatal_guess else 0
        out.append(f"{first:,} losses ({pct(first / s.losses)}) came at the game's first guess.")
    if s.lost_without_guess:
        out.append(f"{s.lost_without_guess:,} lost games made no guess at all.")
    return out


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


def compared_text(c: Compared) -> str:
    """An unpaired difference in words: no test is named, only the interval."""
    return (f"{c.a} − {c.b}: {points(c.difference)} (95 % CI {interval_points(c.ci95)}, Newcombe's interval "
            "for independent samples: the runs played different boards)")  # fmt: skip


def board_rows(boards: Sequence[PairedBoard]) -> list[list[str]]:
    """One row per board only one run of a pair won: game, winner, seed, replay commands."""
    return [
        [str(b.index), b.won_by, "–" if b.seed is None else str(b.seed),
         "\n".join(b.replay) if b.replay else ("line " + str(b.index + 1) + " of the board set"
                                               if b.seed is None else "write the report with --out")]
        for b in boards
    ]  # fmt: skip


def reference_rows(report: Report) -> tuple[list[str], list[list[str]]]:
    """The published figures beside the runs they meet."""
    # A reference meets a run of its own board and rules: the run's label says which.
    header = ["Run", "Its rate", "Published by", "Published rate", "95 % CI, or games", "Test", "z", "p"]
    rows = []
    for m in report.references:
        ref = m.reference
        spread = f"{ref.games:,} games" if ref.games else ci_text((ref.low or 0.0, ref.high or 0.0), 3)
        if m.paired is not None:
            test, z = f"paired on {m.paired.games:,} shared boards (McNemar)", "–"
            p = p_text(m.paired.p_value)
        else:
            test = "z (independent samples)"
            if m.dependent:
                test = "z, but the boards are shared: not independent"
            z = "–" if m.z is None else f"{m.z:+.2f}"
            p = "–" if m.p is None else f"{m.p:.3g}"
        rows.append([m.run, pct(m.run_rate, 2), ref.source, pct(ref.rate, 2), spread, test, z, p])
    return header, rows


def render_markdown(
    summaries: Report | Sequence[Summary],
    plots: Sequence[tuple[str, str]] = (),
    paired: Sequence[Paired] = (),
) -> str:
    """A Markdown report. ``plots`` are ``(alt text, relative link)`` pairs to show;
    ``paired`` the runs compared game by game when ``summaries`` is not a whole
    :class:`~minesat.report.document.Report`.

    Use :func:`write_report` to also write the plot files beside the Markdown.
    """
    report = as_report(summaries, paired)
    runs = report.runs
    title = "minesat solvability report"
    out = [f"# {title}" + (f": {runs[0].label}" if len(runs) == 1 else "")]
    out += [f"\n> **Warning:** {w}" for w in report.warnings]
    if report.rules["runs"]:
        out += ["", "## Rules", ""] + [f"- {line}" for line in rules_lines(report.rules)]
    if len(runs) > 1:
        out += ["", "## Comparison", ""]
        header, rows = comparison_rows(runs)
        out.append(_md_table(header, rows))
        if report.compared:
            out += ["", "Differences of win rates between runs on different boards (not paired):", ""]
            out += [f"- {compared_text(c)}" for c in report.compared]
    for p, boards in zip(report.paired, report.boards or [()] * len(report.paired), strict=True):
        out += ["", f"## Paired: {p.a} vs {p.b}", "", paired_text(p), "", _md_table(["", ""], paired_rows(p))]
        if boards:
            out += ["", "Boards only one run won (the first of each):", ""]
            rows = [[game, who, seed, "<br>".join(f"`{c}`" for c in replay.split("\n"))
                     if replay.startswith("minesat") else replay]
                    for game, who, seed, replay in board_rows(boards)]  # fmt: skip
            out.append(_md_table(["Game", "Won by", "Seed", "Replay"], rows, "rlrl"))
    if report.references:
        header, rows = reference_rows(report)
        out += ["", "## Published figures", "", _md_table(header, rows, "lrlrrlrr"), ""]
        out += [f"- {m.sentence()}" for m in report.references]
    out += [f"\n> Note: {n}" for n in report.notes]
    if plots:
        out += ["", "## Plots", ""]
        out.append("\n\n".join(f"![{alt}]({link})" for alt, link in plots))
    for s in runs:
        level = "##" if len(runs) == 1 else "###"
        if len(runs) > 1:
            out += ["", f"## {s.label}"]
        out += ["", f"{level} Key figures", "", _md_table(["", ""], headline(s))]
        header, rows = losses_table(s)
        if rows:
            out += ["", f"{level} Anatomy of losses", "", " ".join(losses_sentences(s)), ""]
            out.append(_md_table(header, rows))
        out += ["", f"{level} Reproduce", "", _md_table(["", ""], describe_config(s))]
        if s.command:
            out += ["", "```sh", s.command, "```"]
        if s.provenance:
            out += ["", f"{level} Provenance", "", _md_table(["", ""], describe_provenance(s.provenance))]
        out += [f"\n> Note: {n}" for n in s.notes]
        if s.games:
            for title_, header, rows in detail_tables(s):
                if rows:
                    out += ["", f"{level} {title_}", "", _md_table(header, rows)]
    return "\n".join(out).rstrip() + "\n"


# --- JSON ----------------------------------------------------------------------


def render_json(summaries: Report | Sequence[Summary], paired: Sequence[Paired] = ()) -> str:
    """``{"report": "minesat", "version": 1, "rules", "runs", "paired", "compared", "references",
    "warnings", "notes"}`` (docs/commands/report.md).

    ``runs`` has one entry per run, each with its ``provenance`` and ``losses_detail``;
    ``paired`` one per two runs on the same boards (empty when none are), with the first
    boards each won alone; ``compared`` one per two runs that are not paired.
    """
    report = as_report(summaries, paired)
    pairs = []
    for p, boards in zip(report.paired, report.boards or [()] * len(report.paired), strict=True):
        pairs.append({**p.to_dict(), "boards": [b.to_dict() for b in boards]})
    doc = {
        "report": "minesat",
        "version": 1,
        "rules": report.rules,
        "runs": [s.to_dict() for s in report.runs],
        "paired": pairs,
        "compared": [c.to_dict() for c in report.compared],
        "references": [m.to_dict() for m in report.references],
        "warnings": list(report.warnings),
        "notes": list(report.notes),
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
    header, rows = losses_table(s)
    return {
        "label": s.label,
        "cards": _cards(s),
        "headline": headline(s),
        "config": describe_config(s),
        "command": s.command,
        "notes": s.notes,
        "tables": tables,
        "provenance": describe_provenance(s.provenance) if s.provenance else [],
        "losses": {"header": header, "rows": rows, "text": " ".join(losses_sentences(s))} if rows else None,
    }


def render_html(
    summaries: Report | Sequence[Summary],
    plots: Sequence[tuple[str, str, str]] | None = None,
    paired: Sequence[Paired] = (),
    viewers: Mapping[int, str] | None = None,
    games: Mapping[int, str] | None = None,
) -> str:
    """One self-contained HTML page: inline CSS, plots as inline SVG, no links out.

    ``games`` maps a lost game's index to its viewer page itself (:func:`viewer_pages`): each
    lost game shown carries its page inline, opened in place (an ``iframe`` of its own, whose
    script steps through the game), so the report travels as one file. ``viewers`` maps an
    index to the (relative) address of a page written beside the report instead.
    """
    report = as_report(summaries, paired)
    runs = report.runs
    if plots is None:
        plots = render_plots(runs, report.references)
    many = len(runs) > 1
    title = "Solvability report: " + (" vs ".join(s.label for s in runs) if many else runs[0].label)
    header, rows = comparison_rows(runs)
    fatal = [] if many else _fatal_pictures(runs[0], viewers or {}, games or {})
    ref_header, ref_rows = reference_rows(report)
    svg = {name: (alt, Markup(inline_svg(text))) for name, alt, text in plots}
    return templates().get_template("report.html.j2").render(
        fatal=fatal,
        title=title,
        many=many,
        warnings=report.warnings,
        notes=report.notes,
        rules=rules_lines(report.rules) if report.rules["runs"] else [],
        comparison={"header": header, "rows": rows},
        compared=[compared_text(c) for c in report.compared],
        runs=[_run_context(s) for s in runs],
        rates=[svg["rates"]] if "rates" in svg else [],
        plots=[v for k, v in svg.items() if k != "rates" and k not in LOSS_PLOTS],
        loss_plots=[svg[k] for k in LOSS_PLOTS if k in svg],
        key_rows=KEY_ROWS,
        references={"header": ref_header, "rows": ref_rows,
                    "sentences": [m.sentence() for m in report.references]},
        paired=[
            {"a": p.a, "b": p.b, "text": paired_text(p), "header": None, "rows": paired_rows(p),
             "boards": board_rows(boards)}
            for p, boards in zip(report.paired, report.boards or [()] * len(report.paired), strict=True)
        ],
    )


def _fatal_pictures(
    summary: Summary, viewers: Mapping[int, str], games: Mapping[int, str] | None = None
) -> list[dict[str, object]]:
    """The first lost games of a one-run report, each at its fatal guess, as inline SVG
    with its viewer page (inline) or the address of one, when there is one.

    Only for a seeded run whose store is at hand and holds one player's games: the
    games are replayed from their seeds (a board-set run, or a summary without a
    store, gets none).
    """
    from minesat.report.fatal import fatal_boards, fatal_svg

    if not summary.source or not Path(summary.source).is_file() or summary.players_in_store > 1:
        return []
    games = games or {}
    return [
        {"svg": Markup(fatal_svg(board)), "game": board.index, "viewer": viewers.get(board.index),
         "page": games.get(board.index)}
        for board in fatal_boards(summary.source)
    ]  # fmt: skip


def viewer_pages(summary: Summary, limit: int | None = None) -> dict[int, str]:
    """The viewer page (:mod:`minesat.viewer`) of each lost game the report shows, by game index,
    as HTML text to carry inside the report. Nothing for a run whose store is not at hand, that
    plays a board set, or whose store holds several players' games (the games are replayed by
    this player)."""
    from minesat.report.fatal import FATAL_BOARDS, game_page, lost_games

    if not summary.source or not Path(summary.source).is_file() or summary.players_in_store > 1:
        return {}
    return {lost.index: game_page(lost, summary.label)
            for lost in lost_games(summary.source, FATAL_BOARDS if limit is None else limit)}  # fmt: skip


def write_viewer_pages(summary: Summary, out: str | Path, limit: int | None = None) -> dict[int, Path]:
    """Write a viewer page (:mod:`minesat.viewer`) for each lost game the report shows, beside ``out``.

    The pages are ``<out stem>-game-<index>.html``; returns them by game index.
    Nothing for a run whose store is not at hand, that plays a board set, or whose
    store holds several players' games (the games are replayed by this player).
    """
    from minesat.report.fatal import FATAL_BOARDS, game_page, lost_games

    out = Path(out)
    if not summary.source or not Path(summary.source).is_file() or summary.players_in_store > 1:
        return {}
    out.parent.mkdir(parents=True, exist_ok=True)
    pages = {}
    for lost in lost_games(summary.source, FATAL_BOARDS if limit is None else limit):
        path = out.with_name(f"{out.stem}-game-{lost.index}.html")
        write_text_atomically(path, game_page(lost, summary.label))
        pages[lost.index] = path
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
        raise InvalidValue(f"{out}: unknown report format (use .html, .md or .json)")
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
            write_text_atomically(path, svg)
            written.append(path)
            links.append((alt, path.name))
        text = as_markdown(links)
    write_text_atomically(out, text)  # whole or not at all, as every file minesat writes
    return [out, *written]


def _with_board_files(report: Report, out: str | Path) -> tuple[Report, list[Path]]:
    """The report with the boards its pairs name written as layout files beside ``out``."""
    boards, files = [], []
    for p, listed in zip(report.paired, report.boards, strict=True):
        a, b = report.run(p.a), report.run(p.b)
        if a is None or b is None or a.config is None or b.config is None or not listed:
            boards.append(listed)
            continue
        strategies = (str(a.config.get("strategy")), str(b.config.get("strategy")))
        written = write_boards(list(listed), a.config, strategies, out)
        files += [Path(x.layout) for x in written if x.layout]
        boards.append(tuple(written))
    return replace(report, boards=tuple(boards)), files


def write_report(
    summaries: Report | Sequence[Summary], out: str | Path, paired: Sequence[Paired] = ()
) -> list[Path]:
    """Write the report to ``out`` in the format its extension names; return every file written.

    An HTML report of one run carries a viewer page for each lost game it shows
    (:func:`viewer_pages`) inside it, so the one file, moved or mailed alone, still
    steps through its games. The boards a paired comparison names are written beside it
    as layout files, each with the ``minesat solve`` commands that replay it.
    """
    report = as_report(summaries, paired)
    report, boards = _with_board_files(report, out)
    pages: dict[int, str] = {}
    if FORMATS.get(Path(out).suffix.lower()) == "html" and len(report.runs) == 1:
        pages = viewer_pages(report.runs[0])
    written = _write(
        out,
        lambda: render_json(report),
        lambda: render_html(report, games=pages),
        lambda links: render_markdown(report, links),
        lambda: render_plots(report.runs, report.references),
    )
    return written + boards
