"""The viewer page: frames packed into one JSON blob, drawn by a small inline script.

The page is one self-contained HTML file: inline CSS and JavaScript, no link
out, no font fetched; it works from ``file://``. The frames travel compactly
(see :func:`encode_frames`) so that a 36x60 game of 1500 moves stays a page of
well under a few megabytes, and the script builds each board from the one
before, so stepping is instant.

>>> from minesat.board import Layout
>>> from minesat.viewer.frames import game_frames
>>> frames = game_frames(Layout.from_rows(["*  ", "   ", "   "]), ["C3"])
>>> page = render_viewer("A <tiny> game", {"moves": 1}, frames)
>>> page.startswith("<!DOCTYPE html>"), "A &lt;tiny&gt; game" in page, "<tiny>" in page
(True, True, False)
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

import jinja2
from markupsafe import Markup

from minesat.board import COVERED, Cell, Layout
from minesat.viewer.frames import MouseTrack, ViewerFrame, check_frames

__all__ = ["ALPHABET", "DECIMALS", "encode_frames", "render_viewer", "script_json"]

#: Characters that name an entry of a frame's probability table in the analysis string
#: (no digits: they write run lengths; no quote, backslash, <, > or &: the string sits in
#: JSON inside a script element). The script holds the same alphabet.
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%()*+,-./:;=?@[]^_{|}~"

#: The first entries of every table: proven safe, proven mine, no probability known.
SAFE, MINE, UNKNOWN = 0, 1, 2
_FIXED = 3

#: Mine probabilities travel rounded to this many decimals (the page shows two of the percentage).
DECIMALS = 6


def render_viewer(
    title: str,
    summary: Mapping[str, object] | Sequence[tuple[str, object]],
    frames: Sequence[ViewerFrame],
    layout: Layout | None = None,
    mouse: MouseTrack | None = None,
    link_tip: bool = True,
) -> str:
    """One self-contained HTML page that steps through ``frames``, and plays them back.

    ``summary`` (label, value) pairs go on top; every text is escaped, so a
    title or player name may hold anything. ``layout``, when given, lets the
    page show where the mines are at every step (a toggle, off at first).
    ``mouse``, when given, is drawn over the board as the game plays (the
    pointer and its path since the last move). Playback runs on the frames'
    times when every move has one, else at two moves a second.
    ``link_tip`` false leaves out the tip about the page's address (``?step=N``), which
    means nothing inside another page (the web app's). Raises :class:`ValueError` when the
    frames do not share one board size or the layout does not fit it.
    """
    rows, cols = check_frames(frames)
    if layout is not None and (layout.rows, layout.cols) != (rows, cols):
        raise ValueError(f"the layout is {layout.rows}x{layout.cols}, the frames {rows}x{cols}")
    pairs = list(summary.items()) if isinstance(summary, Mapping) else list(summary)
    data = encode_frames(frames, layout, mouse)
    return _templates().get_template("viewer.html.j2").render(
        title=title,
        summary=[(str(label), str(value)) for label, value in pairs],
        data=Markup(script_json(data)),
        css=Markup(_asset("viewer.css")),
        script=Markup(_script()),
        steps=len(frames),
        link_tip=link_tip,
    )


def script_json(value: Any) -> str:
    """JSON safe to put inside a ``<script>`` element: no ``<``, ``>`` or ``&`` left to close it.

    >>> script_json({"name": "</script><b>"})
    '{"name":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e"}'
    """
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def encode_frames(
    frames: Sequence[ViewerFrame], layout: Layout | None = None, mouse: MouseTrack | None = None
) -> dict[str, Any]:
    """The JSON blob the page's script reads.

    ``{"rows", "cols", "mines", "frames": [...], "layout": [cell index, ...] or null,
    "figures": [label, ...] or null, "mouse": {...} or null}``; cells are row-major
    indices. ``mouse`` holds the track as whole numbers, each the change from the
    event before: ``t`` milliseconds, ``x`` and ``y`` sixteenths of a cell, and ``b``
    the buttons string (see :class:`~minesat.viewer.frames.MouseTrack`). Per frame,
    keys left out when empty:

    - ``d``: the board's changes since the previous frame, flat ``[index, state, ...]``
      (state -1 covered, -2 flag, 0-8 a number); the first frame against a covered board;
    - ``a``, ``p``, ``w``: the analysis of the covered cells in row-major order, one
      token per cell naming an entry of the table ``[safe, mine, unknown] + p``
      (``w`` characters of :data:`ALPHABET` each), a token followed by digits
      standing for that many cells in a row;
    - ``m``: the move ``[index, kind]``; ``v`` verdict, ``t`` text, ``s`` time in seconds;
    - ``x``: mines to show, ``e``: the mine that went off (final frames);
    - ``g``: the texts of the frame's figures, in the order of the labels ``figures``.

    >>> from minesat.board import Position
    >>> f = ViewerFrame(Position.from_rows(["1??", "???"]), safe=frozenset({(0, 1)}),
    ...                 probability=((None, 0.0, 0.25), (0.25, 0.25, 0.25)))
    >>> encode_frames([f])["frames"][0]
    {'d': [0, 1], 'a': 'AD4', 'p': [0.25]}
    """
    rows, cols = check_frames(frames)
    labels = next(([label for label, _ in f.figures] for f in frames if f.figures), None)
    before = [COVERED] * (rows * cols)
    out = []
    for number, frame in enumerate(frames, 1):
        cells = frame.position.cells
        item: dict[str, Any] = {}
        diff = [x for i, s in enumerate(cells) if s != before[i] for x in (i, s)]
        if diff:
            item["d"] = diff
        before = list(cells)
        if frame.probability is not None:
            item.update(_encode_analysis(frame, cols))
        if frame.move is not None:
            item["m"] = [_index(frame.move.cell, cols), frame.move.kind]
        for key, value in (("v", frame.verdict), ("t", frame.text)):
            if value:
                item[key] = value
        if frame.time is not None:
            item["s"] = round(frame.time, 3)
        if frame.mines:
            item["x"] = sorted(_index(c, cols) for c in frame.mines)
        if frame.exploded is not None:
            item["e"] = _index(frame.exploded, cols)
        if frame.figures:
            if [label for label, _ in frame.figures] != labels:
                raise ValueError(f"frame {number}: its figures' labels are not those of the others")
            item["g"] = [text for _, text in frame.figures]
        out.append(item)
    mines = frames[0].position.mines
    return {
        "rows": rows,
        "cols": cols,
        "mines": mines if mines is not None else (layout.mine_count if layout is not None else None),
        "frames": out,
        "layout": sorted(_index(c, cols) for c in layout.mines) if layout is not None else None,
        "figures": labels,
        "mouse": _encode_mouse(mouse) if mouse is not None else None,
    }


def _encode_mouse(mouse: MouseTrack) -> dict[str, Any]:
    """The track as changes from one event to the next, in whole units (see :func:`encode_frames`).

    >>> _encode_mouse(MouseTrack((-0.25, 0.0, 1.5), (0.5, 0.5, 2.0), (0.5, 1.0, 1.0), ".lL"))
    {'t': [-250, 250, 1500], 'x': [8, 0, 24], 'y': [8, 8, 0], 'b': '.lL'}
    """
    out: dict[str, Any] = {"t": [], "x": [], "y": [], "b": mouse.buttons}
    last = (0, 0, 0)
    for t, x, y in zip(mouse.times, mouse.x, mouse.y, strict=True):
        now = (round(t * 1000), round(x * 16), round(y * 16))
        for key, a, b in zip("txy", now, last, strict=True):
            out[key].append(a - b)
        last = now
    return out


def _encode_analysis(frame: ViewerFrame, cols: int) -> dict[str, Any]:
    """The ``a``, ``p`` (and ``w``) keys of one frame: see :func:`encode_frames`."""
    assert frame.probability is not None
    # Flat indices: this runs over every cell of every frame, so it avoids tuples per cell.
    safe = {r * cols + c for r, c in frame.safe}
    mine = {r * cols + c for r, c in frame.mine}
    flat = [p for row in frame.probability for p in row]
    table: dict[float, int] = {}  # rounded probability -> code
    code_of: dict[float | None, int] = {None: UNKNOWN}  # exact probability -> code, to round each once
    codes: list[int] = []
    for i, state in enumerate(frame.position.cells):
        if state != COVERED:
            continue
        if i in safe:
            codes.append(SAFE)
        elif i in mine:
            codes.append(MINE)
        else:
            p = flat[i]
            code = code_of.get(p)
            if code is None:
                assert p is not None
                code = code_of[p] = table.setdefault(round(p, DECIMALS), _FIXED + len(table))
            codes.append(code)
    base = len(ALPHABET)
    width = 1 if _FIXED + len(table) <= base else 2
    tokens = []
    for code, run in itertools.groupby(codes):
        token = ALPHABET[code] if width == 1 else ALPHABET[code // base] + ALPHABET[code % base]
        n = sum(1 for _ in run)
        tokens.append(token if n == 1 else f"{token}{n}")
    item: dict[str, Any] = {"a": "".join(tokens)}
    if table:
        item["p"] = list(table)
    if width != 1:
        item["w"] = width
    return item


def _index(cell: Cell, cols: int) -> int:
    return cell[0] * cols + cell[1]


@functools.cache
def _templates() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("minesat.viewer", "assets"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


@functools.cache
def _script() -> str:
    """The page's script: ``drawing.js`` (what the app's board draws with too; an ES module there,
    its ``export`` keywords taken off here, where the script is a classic one), then ``viewer.js``."""
    shared = re.sub(r"^export ", "", _asset("drawing.js"), flags=re.MULTILINE)
    return shared + _asset("viewer.js")


@functools.cache
def _asset(name: str) -> str:
    """A file shipped in ``assets/``; passed to the template as it is (not parsed as a template)."""
    return resources.files("minesat.viewer").joinpath("assets", name).read_text(encoding="utf-8")
