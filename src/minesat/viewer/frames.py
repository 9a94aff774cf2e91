"""The viewer's data model: one frame per move, each the position before it and its analysis.

A :class:`ViewerFrame` is plain data and does not care where the game came
from: the automatic player (:func:`player_frames`), a list of moves on a known
layout (:func:`game_frames`, which a replay reader can feed), or frames built
by hand. :func:`minesat.viewer.render_viewer` draws any list of them.

>>> from minesat.board import Layout
>>> layout = Layout.from_rows(["*  ", "   ", "   "])
>>> frames = game_frames(layout, ["C3"])
>>> [(f.move and str(f.move), f.verdict) for f in frames]
[('C3', 'guess'), (None, 'won')]
>>> frames[0].text, frames[1].text
('guess at 11.1%, among the safest; keeps the best chance to win, 88.9%', 'won in 1 move')
>>> frames[0].position.to_rows(), frames[-1].position.to_rows()
(['???', '???', '???'], ['?1 ', '11 ', '   '])
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from minesat.analysis import Analysis, Analyzer
from minesat.board import COVERED, Action, Cell, Layout, Move, Position, cell_name, on_board
from minesat.game import Status
from minesat.generate import FirstClick
from minesat.player import GameRecord, Step, Strategy, play_game
from minesat.review import GameReview, PlayedMove, ReviewedMove, describe, review_game
from minesat.stats import percent
from minesat.verdict import Verdict
from minesat.words import plural

__all__ = [
    "KINDS",
    "MouseTrack",
    "Verdict",
    "ViewerFrame",
    "ViewerMove",
    "check_frames",
    "display_verdict",
    "final_frame",
    "game_frames",
    "player_frames",
    "record_summary",
    "review_frames",
]

#: Move kinds by the action of a :class:`~minesat.board.Move`, in the words the viewer shows.
KINDS: dict[Action, str] = {
    Action.UNCOVER: "uncover",
    Action.FLAG: "flag",
    Action.UNFLAG: "unflag",
    Action.CHORD: "chord",
}
_ACTIONS = {kind: action for action, kind in KINDS.items()}


#: The word the viewer shows for a move's verdict, which its page colours (a CSS class): a
#: frame's ``verdict`` is that plain string, and other sources may use words of their own.
SHOWN: dict[Verdict, str] = {
    Verdict.FIRST: "first click",  # safe by the first-click rule
    Verdict.SAFE: "safe",  # uncovered (or chorded open) only proven-safe cells
    Verdict.GUESS: "guess",  # uncovered an unproven cell when no proven-safe cell was left
    Verdict.LOSS: "loss",  # the move uncovered a mine
    Verdict.MINE: "mine",  # flagged a proven mine
    Verdict.UNPROVEN: "unproven flag",  # flagged a cell that is not (yet) proven a mine
    Verdict.WRONG: "unproven flag",  # the same, on a safe cell: the page does not tell which
    Verdict.UNFLAG: "unflag",
    Verdict.NO_EFFECT: "no effect",  # a move the rules refuse or that changes nothing
}

#: The word for a guess made while a proven-safe cell was there to take.
NEEDLESS = "needless guess"

#: The final frame's word, by how the game stands after its last move.
ENDED: dict[Status, str] = {Status.WON: "won", Status.LOST: "lost", Status.PLAYING: "unfinished"}


@dataclass(frozen=True)
class ViewerMove:
    """A move as the viewer shows it: a cell and one of :data:`KINDS`' words.

    >>> m = ViewerMove.of("B3*")
    >>> m, str(m)
    (ViewerMove(cell=(1, 2), kind='flag'), 'B3*')
    """

    cell: Cell
    kind: str = "uncover"

    def __post_init__(self) -> None:
        if self.kind not in _ACTIONS:
            raise ValueError(f"unknown move kind {self.kind!r} (known: {', '.join(_ACTIONS)})")

    @classmethod
    def of(cls, move: Move | str) -> ViewerMove:
        """From a :class:`~minesat.board.Move` or its notation (``A5``, ``A5*``, ``A5-``, ``A5+``:
        docs/cells-and-moves.md)."""
        move = Move.parse(move) if isinstance(move, str) else move
        return cls(move.cell, KINDS[move.action])

    def to_move(self) -> Move:
        return Move(self.cell, _ACTIONS[self.kind])

    def __str__(self) -> str:
        return str(self.to_move())


@dataclass(frozen=True)
class ViewerFrame:
    """One step of a game: the position the player saw, what it proves, and the move made on it.

    ``safe`` and ``mine`` are the cells proven safe and proven mined;
    ``probability[row][col]`` the exact mine probability of each covered cell
    (``None`` where not known, and wherever the cell is uncovered or flagged).
    ``probability`` itself is ``None`` for a frame without analysis.
    ``move`` is ``None`` in the final frame, the position after the last move;
    a final frame may show the layout's ``mines`` and the ``exploded`` one.
    ``time`` is the move's time in seconds into the game, when known.
    ``figures`` are (label, text) pairs about the game so far, up to the
    position shown (a replay's 3BV/s, clicks, ...); every frame of a game has
    the same labels, or none.
    """

    position: Position
    move: ViewerMove | None = None
    safe: frozenset[Cell] = frozenset()
    mine: frozenset[Cell] = frozenset()
    probability: tuple[tuple[float | None, ...], ...] | None = None
    verdict: str = ""
    text: str = ""
    time: float | None = None
    mines: frozenset[Cell] = field(default=frozenset())
    exploded: Cell | None = None
    figures: tuple[tuple[str, str], ...] = ()

    @classmethod
    def analysed(cls, position: Position, analysis: Analysis, **fields: object) -> ViewerFrame:
        """A frame with ``analysis`` (:class:`~minesat.analysis.Analysis`) drawn in.

        Probabilities are kept only for covered cells: a flag's 1.0 is the
        player's mark, not a finding.
        """
        cols, cells = position.cols, position.cells
        probability = tuple(
            tuple(p if cells[base + c] == COVERED else None for c, p in enumerate(row))
            for base, row in zip(range(0, len(cells), cols), analysis.probability, strict=True)
        )
        return cls(
            position,
            safe=frozenset(analysis.safe),
            mine=frozenset(analysis.mine),
            probability=probability,
            **fields,  # type: ignore[arg-type]  # any other field, by name: typed object here
        )

    @property
    def final(self) -> bool:
        return self.move is None

    def cell_class(self, cell: Cell) -> str | None:
        """``"safe"``, ``"mine"`` or ``"unknown"`` for a covered cell; ``None`` otherwise.

        >>> f = ViewerFrame(Position.from_rows(["1?", "??"]), safe=frozenset({(1, 0)}))
        >>> f.cell_class((1, 0)), f.cell_class((1, 1)), f.cell_class((0, 0))
        ('safe', 'unknown', None)
        """
        if self.position[cell] != COVERED:
            return None
        if cell in self.safe:
            return "safe"
        if cell in self.mine:
            return "mine"
        return "unknown"


# --- frames of a game on a known layout ------------------------------------------------


def game_frames(
    layout: Layout,
    moves: Iterable[Move | str | ViewerMove | PlayedMove],
    *,
    times: Sequence[float | None] | None = None,
    rule: FirstClick | str = FirstClick.ANY,
    analyzer: Analyzer | None = None,
) -> list[ViewerFrame]:
    """Play ``moves`` on ``layout`` and judge each on the position just before it.

    One frame per move, then the final frame. The moves are judged by
    :func:`minesat.review.review_game` (flags read as the player's notes, so a
    wrong one proves nothing; a refused move kept with no effect), each frame
    drawn with the full analysis of its position. The first uncover is safe
    (verdict :attr:`Verdict.FIRST`) when ``rule`` is ``opening`` or ``safe``.
    A move after the game is over raises :class:`ValueError`.
    """
    played = []
    for number, move in enumerate(moves):
        if not isinstance(move, PlayedMove):
            time = times[number] if times is not None and number < len(times) else None
            move = PlayedMove(_as_move(move), time)
        played.append(move)
    review = review_game(layout, played, rule=rule, keep_analyses=True, analyzer=analyzer)
    return review_frames(review)


def review_frames(review: GameReview) -> list[ViewerFrame]:
    """The frames of a reviewed game: one per move, drawn with its analysis, then the end."""
    frames = []
    for move in review.moves:
        assert move.analysis is not None, "review the game with keep_analyses=True"
        frames.append(
            ViewerFrame.analysed(
                move.position, move.analysis, move=ViewerMove.of(move.move),
                verdict=display_verdict(move), text=describe(move), time=move.time,
            )
        )
    frames.append(final_frame(review, len(frames)))
    return frames


@dataclass(frozen=True)
class MouseTrack:
    """The pointer through a game, for the page to play back: one entry per mouse event.

    ``times`` are seconds into the game (negative before the first uncover);
    ``x``, ``y`` are the pointer in cells from the board's top-left corner
    (``x`` across); ``buttons`` says what each event did: ``.`` a move, ``l``
    ``r`` ``m`` a left, right or middle press, ``L`` ``R`` ``M`` its release,
    ``c`` both buttons down at once.

    >>> MouseTrack((0.0, 0.5), (0.5, 2.5), (0.5, 0.5), ".l").buttons
    '.l'
    """

    times: tuple[float, ...]
    x: tuple[float, ...]
    y: tuple[float, ...]
    buttons: str

    def __post_init__(self) -> None:
        if not len(self.times) == len(self.x) == len(self.y) == len(self.buttons):
            raise ValueError("a mouse track needs as many times, x, y and buttons")
        if any(b not in _BUTTONS for b in self.buttons):
            raise ValueError(f"unknown button codes in a mouse track (known: {_BUTTONS})")


_BUTTONS = ".lrmLRMc"


def display_verdict(move: ReviewedMove) -> str:
    """The word the viewer shows (and colours) for a reviewed move: :data:`SHOWN`'s, or
    :data:`NEEDLESS` for a guess made while a proven-safe cell was there."""
    if move.verdict is Verdict.GUESS and move.needless:
        return NEEDLESS
    return SHOWN[move.verdict]


def player_frames(
    layout: Layout,
    start: Cell,
    *,
    strategy: Strategy | None = None,
    rule: FirstClick | str = FirstClick.OPENING,
    steps: list[Step] | None = None,
) -> list[ViewerFrame]:
    """The automatic player's game on ``layout`` from ``start``, as frames.

    The game is played by :func:`~minesat.player.play_game` and its moves judged
    by :func:`game_frames`; the player's own reasons fill ``steps`` when given.
    The player makes its proven moves in batches, found on the position before
    the batch; each frame is the position just before its own move, analysed
    afresh (a proven cell stays proven as the batch goes on, and a guess's
    probability is the one the player saw: the tests check both).

    >>> frames = player_frames(Layout.from_rows(["*  ", "   ", "   "]), (2, 2))
    >>> [(f.move and str(f.move), f.verdict) for f in frames]
    [('C3', 'first click'), (None, 'won')]
    """
    record = play_game(layout, start, strategy=strategy, rule=rule, trace=steps)
    return game_frames(layout, record.moves, rule=rule)


def record_summary(
    record: GameRecord, layout: Layout, start: Cell, rule: FirstClick | str, strategy: str
) -> list[tuple[str, str]]:
    """The (label, value) pairs a viewer page of the automatic player's game shows on top.

    >>> lay = Layout.from_rows(["*  ", "   ", "   "])
    >>> record_summary(play_game(lay, (2, 2)), lay, (2, 2), "opening", "best")[:2]
    [('Board', '3x3, 1 mine'), ('First click', 'C3 (opening rule)')]
    """
    guesses = len(record.guesses)
    pairs = [
        ("Board", f"{layout.rows}x{layout.cols}, {plural(layout.mine_count, 'mine')}"),
        ("First click", f"{cell_name(start)} ({FirstClick(rule).value} rule)"),
        ("Strategy", strategy),
        ("Result", "won" if record.won else f"lost on guess {record.fatal_guess}"),
        ("Moves", str(len(record.moves))),
        ("Guesses", str(guesses)),
    ]
    if record.won and guesses:
        # After a loss the product is no chance of anything: the fatal guess was not safe.
        survival = math.prod(1.0 - g.probability for g in record.guesses)
        pairs.append(("Chance the guesses were all safe", percent(survival)))
    pairs.append(("3BV", str(record.bbbv)))
    return pairs


def final_frame(review: GameReview, moves: int) -> ViewerFrame:
    """The position after the last move; the layout's mines shown once the game is over."""
    if review.status is Status.WON:
        text = f"won in {plural(moves, 'move')}"
    elif review.status is Status.LOST:
        assert review.exploded is not None
        text = f"lost on move {moves}: a mine at {cell_name(review.exploded)}"
    else:
        text = f"stopped after {plural(moves, 'move')}"
    mines = review.layout.mines if review.status is not Status.PLAYING else frozenset()
    return ViewerFrame(review.final, verdict=ENDED[review.status], text=text, mines=frozenset(mines),
                       exploded=review.exploded)


def _as_move(move: Move | str | ViewerMove) -> Move:
    if isinstance(move, ViewerMove):
        return move.to_move()
    return Move.parse(move) if isinstance(move, str) else move


def check_frames(frames: Sequence[ViewerFrame]) -> tuple[int, int]:
    """The board size all ``frames`` share; :class:`ValueError` when they do not, or a move is off it."""
    if not frames:
        raise ValueError("a game viewer needs at least one frame")
    rows, cols = frames[0].position.rows, frames[0].position.cols
    for number, frame in enumerate(frames, 1):
        p = frame.position
        if (p.rows, p.cols) != (rows, cols):
            raise ValueError(f"frame {number} is {p.rows}x{p.cols}, the first is {rows}x{cols}")
        if frame.move is not None and not on_board(frame.move.cell, rows, cols):
            raise ValueError(f"frame {number}: move {frame.move.cell} is off the {rows}x{cols} board")
        if frame.probability is not None and (
            len(frame.probability) != rows or any(len(row) != cols for row in frame.probability)
        ):
            raise ValueError(f"frame {number}: probabilities are not {rows}x{cols}")
    return rows, cols
