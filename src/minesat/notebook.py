"""How minesat's values show themselves in Jupyter: boards, analyses and reviews as pictures.

IPython shows an object through its ``_repr_svg_`` or ``_repr_html_`` method,
as python-chess shows its boards. This module attaches those methods to the
model's classes when it is imported (the model never imports what draws it);
under IPython, ``import minesat`` imports it. :class:`~minesat.board.Position`
and :class:`~minesat.board.Layout` draw themselves with :mod:`minesat.svg`, and so does a
:class:`~minesat.game.Game` (the position its player sees);
an :class:`~minesat.analysis.Analysis` draws the position it was made from
with the probabilities in it; a :class:`~minesat.review.GameReview` (and a
replay's :class:`~minesat.replay.ReplayReview`) is a short HTML summary: the
final board, the result and the moves worth a look, each in the words
``minesat replay`` uses.

>>> import minesat.notebook  # attaches the pictures (done by ``import minesat`` under IPython)
>>> from minesat.analysis import analyze
>>> from minesat.board import Layout, Move, Position
>>> position = Position.from_rows(["1??", "???"], mines=1)
>>> position._repr_svg_().startswith("<svg")
True
>>> "33%" in analyze(position)._repr_svg_()
True
>>> from minesat.review import review_game
>>> layout = Layout.from_rows(["*  ", "   ", "  *"])
>>> review = review_game(layout, [Move.parse(m) for m in ["B2", "A3", "A1*", "C1"]])
>>> html = review._repr_html_()
>>> "<svg" in html and "guess at 25.0%, among the safest" in html
True
"""

from __future__ import annotations

from html import escape

from minesat.analysis import Analysis
from minesat.board import COVERED, FLAG, Layout, Position, cell_name
from minesat.game import Game
from minesat.replay import ReplayReview
from minesat.review import GameReview, describe
from minesat.stats import percent
from minesat.svg import layout_svg, position_svg
from minesat.verdict import NOTABLE
from minesat.words import plural

__all__ = [
    "NOTABLE",
    "NOTEBOOK_CELL",
    "analysis_svg",
    "game_picture",
    "layout_picture",
    "position_picture",
    "replay_review_html",
    "review_html",
]

#: Pixels per cell in a notebook: an expert board (30 columns) fits a notebook's width.
NOTEBOOK_CELL = 24


def position_picture(position: Position) -> str:
    """A position as the player sees it (Jupyter's ``_repr_svg_`` of a :class:`~minesat.board.Position`)."""
    return position_svg(position, cell_size=NOTEBOOK_CELL)


def layout_picture(layout: Layout) -> str:
    """A layout: its numbers, and the mines drawn (``_repr_svg_`` of a :class:`~minesat.board.Layout`)."""
    return layout_svg(layout, cell_size=NOTEBOOK_CELL)


def analysis_svg(analysis: Analysis) -> str:
    """The analysed position with its safe cells, mines and probabilities drawn in.

    An analysis made by hand, without its position, shows its uncovered cells blank.
    """
    position = analysis.position
    if position is None:
        cells = tuple(
            FLAG if p == 1.0 and (r, c) not in analysis.mine else 0 if p is None and (r, c) not in
            analysis.unknown else COVERED
            for r, row in enumerate(analysis.probability)
            for c, p in enumerate(row)
        )
        position = Position(analysis.rows, analysis.cols, cells, analysis.mines)
    return position_svg(position, analysis, cell_size=NOTEBOOK_CELL)


def review_html(review: GameReview, title: str | None = None) -> str:
    """A review as an HTML fragment: the result, the final board, the notable moves.

    The board is the one the game ended on; after a loss its mines are drawn and
    the one that was hit is outlined.
    """
    layout = review.layout
    outcome = "Won" if review.won else "Lost" if review.exploded is not None else "Unfinished"
    line = f"{outcome} in {plural(len(review.moves), 'move')}; {plural(review.guesses, 'guess')}"
    line += f" ({review.needless_guesses} needless)"
    if review.guesses and review.survival is not None:
        line += f"; chance the guesses all survive {percent(review.survival)}"
        if review.safest_survival is not None:
            line += f" (with the safest choices {percent(review.safest_survival)})"
    lost = review.exploded is not None
    board = position_svg(
        review.final,
        cell_size=NOTEBOOK_CELL,
        mines=layout.mines if lost else (),
        mark=review.exploded,
        legend=False,
    )
    out = ["<div class='minesat-review'>"]
    if title:
        out.append(f"<p><b>{escape(title)}</b></p>")
    out.append(f"<p>{escape(line)}.</p>")
    out.append(board)
    notable = [m for m in review.moves if m.verdict in NOTABLE]
    if notable:
        out.append(
            "<table style='border-spacing:0.8em 0;text-align:left'>"
            "<tr><th>move</th><th>time</th><th>cell</th><th>what</th></tr>"
        )
        for m in notable:
            time = "" if m.time is None else f"{m.time:.2f} s"
            out.append(
                f"<tr><td>{m.index + 1}</td><td>{time}</td><td>{escape(cell_name(m.cell))}</td>"
                f"<td>{escape(describe(m))}</td></tr>"
            )
        out.append("</table>")
    else:
        out.append("<p>Every move was proven.</p>")
    out.append("</div>")
    return "\n".join(out)


def game_picture(game: Game) -> str:
    """A game in progress as its player sees it (``_repr_svg_`` of a :class:`~minesat.game.Game`)."""
    return position_picture(game.position)


def replay_review_html(review: ReplayReview) -> str:
    """The review of a replayed game, titled with its file, player and date."""
    return review_html(review.review, title=review.title())


# The display hooks: IPython looks these methods up on the class of the value it shows. They are
# set here, so the model never imports what draws it; mypy sees no such attribute on the classes.
Position._repr_svg_ = position_picture  # type: ignore[attr-defined]
Layout._repr_svg_ = layout_picture  # type: ignore[attr-defined]
Analysis._repr_svg_ = analysis_svg  # type: ignore[attr-defined]
Game._repr_svg_ = game_picture  # type: ignore[attr-defined]
GameReview._repr_html_ = review_html  # type: ignore[attr-defined]
ReplayReview._repr_html_ = replay_review_html  # type: ignore[attr-defined]
