"""A position and its analysis drawn as an SVG picture (docs/commands/analyze.md).

Pure functions from values to text: no files, no command line. The picture
shows row letters down the side and column numbers across the top, as every
board minesat prints; uncovered numbers in the classic colours; flags; cells
proven safe (a green ring) or mined (a red disc); and each uncertain cell
shaded from green (likely safe) through yellow to red (likely a mine), with its
mine probability written in it.

>>> from minesat.analysis import analyze
>>> from minesat.board import Position
>>> pos = Position.from_rows(["1??", "???"], mines=1)
>>> svg = position_svg(pos, analyze(pos), title="two rows")
>>> svg.startswith("<svg") and "33%" in svg and "<title>two rows</title>" in svg
True
>>> position_svg(pos).count("<rect")  # the background and one square per cell
7
>>> "B3: mine" in layout_svg(Layout.from_rows(["  ", " *"]))
False
>>> "B2: mine" in layout_svg(Layout.from_rows(["  ", " *"]))
True
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from minesat.analysis import Analysis
from minesat.board import COVERED, FLAG, Cell, Layout, Position, cell_name, row_name

__all__ = ["NUMBER_COLOURS", "layout_svg", "position_svg", "shade"]

#: Classic Minesweeper colours of the numbers 1-8.
NUMBER_COLOURS = ("#0000ff", "#007b00", "#ff0000", "#00007b", "#7b0000", "#007b7b", "#000000", "#7b7b7b")
_UNCOVERED, _COVERED, _GRID = "#e8e8e8", "#b8bcc4", "#7a7f88"
_MARK = "#1d4ed8"  # the outlined cell: blue, apart from the red of mines and risk
_BETTER = "#0f7b2e"  # rings around the moves that do better than the marked one: dashed green
_SAFE, _MINE, _FLAG = "#1a9a3a", "#c62828", "#d32f2f"
_FONT = "font-family='DejaVu Sans, Arial, Helvetica, sans-serif'"


def shade(p: float) -> str:
    """The fill for a mine probability: green at 0, yellow at 0.5, red at 1.

    >>> shade(0.0), shade(0.5), shade(1.0)
    ('#4caf50', '#ffeb3b', '#e53935')
    """
    stops = ((0.0, (0x4C, 0xAF, 0x50)), (0.5, (0xFF, 0xEB, 0x3B)), (1.0, (0xE5, 0x39, 0x35)))
    p = min(1.0, max(0.0, p))
    (p0, c0), (p1, c1) = (stops[0], stops[1]) if p <= 0.5 else (stops[1], stops[2])
    t = (p - p0) / (p1 - p0)
    return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(c0, c1, strict=True))


def _percent(p: float) -> str:
    """Whole percent, never 0 % or 100 % for a cell that is not certain."""
    return f"{min(99, max(1, round(p * 100)))}%"


def position_svg(
    position: Position,
    analysis: Analysis | None = None,
    *,
    cell_size: int = 32,
    title: str | None = None,
    legend: bool = True,
    mark: Cell | None = None,
    better: Iterable[Cell] = (),
    mines: Iterable[Cell] = (),
) -> str:
    """The position as a standalone SVG document, with ``analysis`` drawn in when given.

    ``cell_size`` is the side of a cell in pixels; ``title`` becomes the SVG
    ``<title>`` and a caption; ``legend`` adds a key below the board. The text
    is self-contained (no scripts, no external references), so it can be
    written to a file or inlined into an HTML page. ``mark`` outlines one cell
    (the report uses it for the guess that lost a game); ``better`` rings other
    cells in a dashed green (the moves that would have done better). ``mines``
    are drawn as mines where they are still covered (a layout, or a lost game's
    board; flags stay flags).
    """
    s = cell_size
    label_w = max(len(row_name(position.rows - 1)), 1) * s * 0.42 + s * 0.4
    label_h = s * 0.8
    caption_h = s * 0.9 if title else 0.0
    legend_h = s * 1.5 if legend and analysis is not None else 0.0
    x0, y0 = label_w, caption_h + label_h
    width = x0 + position.cols * s + s * 0.3
    height = y0 + position.rows * s + legend_h + s * 0.3
    if legend and analysis is not None:
        width = max(width, x0 + 12.2 * s)  # the scale's last label, 100%, whole
    safe = set(analysis.safe) if analysis is not None else set()
    mine = set(analysis.mine) if analysis is not None else set()
    shown = set(mines)

    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:.0f}' height='{height:.0f}' "
        f"viewBox='0 0 {width:.1f} {height:.1f}' {_FONT}>",
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append("<rect width='100%' height='100%' fill='#ffffff'/>")
    if title:
        out.append(
            f"<text x='{x0:.1f}' y='{caption_h * 0.7:.1f}' font-size='{s * 0.45:.1f}' "
            f"font-weight='bold'>{escape(title)}</text>"
        )
    # Column numbers across the top, row letters down the side.
    for c in range(position.cols):
        out.append(
            f"<text x='{x0 + (c + 0.5) * s:.1f}' y='{y0 - s * 0.2:.1f}' font-size='{s * 0.36:.1f}' "
            f"text-anchor='middle' fill='#444'>{c + 1}</text>"
        )
    for r in range(position.rows):
        out.append(
            f"<text x='{x0 - s * 0.2:.1f}' y='{y0 + (r + 0.5) * s:.1f}' font-size='{s * 0.36:.1f}' "
            f"text-anchor='end' dominant-baseline='central' fill='#444'>{row_name(r)}</text>"
        )
    for r in range(position.rows):
        for c in range(position.cols):
            out.extend(_cell(position, analysis, (r, c), x0 + c * s, y0 + r * s, s, safe, mine, shown))
    if mark is not None:
        out.append(
            f"<rect x='{x0 + mark[1] * s + 1.5:.1f}' y='{y0 + mark[0] * s + 1.5:.1f}' width='{s - 3}' "
            f"height='{s - 3}' fill='none' stroke='{_MARK}' stroke-width='{max(2.0, s * 0.12):.1f}'/>"
        )
    for r, c in better:
        out.append(
            f"<rect x='{x0 + c * s + 2.5:.1f}' y='{y0 + r * s + 2.5:.1f}' width='{s - 5}' "
            f"height='{s - 5}' fill='none' stroke='{_BETTER}' stroke-width='{max(2.0, s * 0.1):.1f}' "
            f"stroke-dasharray='{s * 0.18:.1f} {s * 0.1:.1f}'/>"
        )
    if legend and analysis is not None:
        out.extend(_legend(x0, y0 + position.rows * s + s * 0.5, s))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def layout_svg(layout: Layout, *, cell_size: int = 32, title: str | None = None) -> str:
    """Where the mines are: every other cell uncovered with its number, each mine drawn.

    A standalone SVG document, as :func:`position_svg` draws.
    """
    counts, cols = layout.counts, layout.cols
    cells = tuple(COVERED if divmod(i, cols) in layout.mines else n for i, n in enumerate(counts))
    position = Position(layout.rows, layout.cols, cells, layout.mine_count)
    return position_svg(position, cell_size=cell_size, title=title, mines=layout.mines)


def _cell(
    position: Position,
    analysis: Analysis | None,
    cell: Cell,
    x: float,
    y: float,
    s: int,
    safe: set[Cell],
    mine: set[Cell],
    shown: set[Cell],
) -> list[str]:
    """The shapes of one cell; its name and state in a tooltip."""
    state = position[cell]
    cx, cy = x + s / 2, y + s / 2
    name = cell_name(cell)
    tip = name
    fill = _COVERED
    inner: list[str] = []
    if cell in shown and state == COVERED:
        tip = f"{name}: mine"
        inner.append(f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='{s * 0.25:.1f}' fill='#111111'/>")
        inner.append(
            f"<circle cx='{cx - s * 0.08:.1f}' cy='{cy - s * 0.08:.1f}' r='{s * 0.07:.1f}' fill='#ffffff'/>"
        )
    elif state >= 0:
        fill = _UNCOVERED
        tip = f"{name}: {state}"
        if state:
            inner.append(_text(cx, cy, str(state), s * 0.6, NUMBER_COLOURS[state - 1], bold=True))
    elif state == FLAG:
        tip = f"{name}: flag"
        inner.append(
            f"<line x1='{cx - s * 0.12:.1f}' y1='{y + s * 0.2:.1f}' x2='{cx - s * 0.12:.1f}' "
            f"y2='{y + s * 0.8:.1f}' stroke='#222' stroke-width='{s * 0.06:.1f}'/>"
        )
        inner.append(
            f"<polygon points='{cx - s * 0.12:.1f},{y + s * 0.2:.1f} {cx + s * 0.28:.1f},"
            f"{y + s * 0.35:.1f} {cx - s * 0.12:.1f},{y + s * 0.5:.1f}' fill='{_FLAG}'/>"
        )
    elif cell in safe:
        tip = f"{name}: certainly safe"
        inner.append(
            f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='{s * 0.26:.1f}' fill='none' stroke='{_SAFE}' "
            f"stroke-width='{s * 0.1:.1f}'/>"
        )
    elif cell in mine:
        tip = f"{name}: certainly a mine"
        inner.append(f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='{s * 0.28:.1f}' fill='{_MINE}'/>")
        inner.append(_text(cx, cy, "X", s * 0.36, "#ffffff", bold=True))
    elif analysis is not None and state == COVERED:
        p = analysis.probability[cell[0]][cell[1]]
        if p is not None:
            fill = shade(p)
            tip = f"{name}: mine probability {p:.1%}"
            inner.append(_text(cx, cy, _percent(p), s * 0.32, "#111111"))
        else:
            tip = f"{name}: uncertain"
    return [
        f"<g><title>{escape(tip)}</title>",
        f"<rect x='{x:.1f}' y='{y:.1f}' width='{s}' height='{s}' fill='{fill}' stroke='{_GRID}' "
        f"stroke-width='1'/>",
        *inner,
        "</g>",
    ]


def _text(x: float, y: float, text: str, size: float, colour: str, bold: bool = False) -> str:
    weight = " font-weight='bold'" if bold else ""
    return (
        f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size:.1f}' text-anchor='middle' "
        f"dominant-baseline='central' fill='{colour}'{weight}>{escape(text)}</text>"
    )


def _legend(x: float, y: float, s: int) -> list[str]:
    """Key: a safe ring, a mine disc, and the probability scale from 0 % to 100 %."""
    small = s * 0.32
    out = [
        f"<circle cx='{x + s * 0.3:.1f}' cy='{y + s * 0.4:.1f}' r='{s * 0.2:.1f}' fill='none' "
        f"stroke='{_SAFE}' stroke-width='{s * 0.08:.1f}'/>",
        f"<text x='{x + s * 0.6:.1f}' y='{y + s * 0.4:.1f}' font-size='{small:.1f}' "
        f"dominant-baseline='central'>safe</text>",
        f"<circle cx='{x + s * 1.8:.1f}' cy='{y + s * 0.4:.1f}' r='{s * 0.2:.1f}' fill='{_MINE}'/>",
        f"<text x='{x + s * 2.1:.1f}' y='{y + s * 0.4:.1f}' font-size='{small:.1f}' "
        f"dominant-baseline='central'>mine</text>",
        f"<text x='{x + s * 3.4:.1f}' y='{y + s * 0.4:.1f}' font-size='{small:.1f}' "
        f"dominant-baseline='central'>mine probability</text>",
    ]
    for i in range(11):
        p = i / 10
        bx = x + s * 6.2 + i * s * 0.5
        out.append(
            f"<rect x='{bx:.1f}' y='{y + s * 0.15:.1f}' width='{s * 0.5:.1f}' height='{s * 0.5:.1f}' "
            f"fill='{shade(p)}'/>"
        )
        if i in (0, 5, 10):
            out.append(_text(bx + s * 0.25, y + s * 0.95, f"{i * 10}%", small * 0.8, "#444444"))
    return out
