"""The viewer's data model: one frame per move, each the position before it and its analysis.

A :class:`ViewerFrame` is plain data and does not care where the game came
from: the automatic player (:func:`player_frames`), a list of moves on a known
layout (:func:`game_frames`, which a replay reader can feed), or frames built
by hand. :func:`minesat.viewer.render_viewer` draws any list of them.

>>> from minesat.board import Layout
>>> layout = Layout.from_rows(["*  ", "   ", "   "])
>>> frames = game_frames(layout, ["C3"])
>>> [(f.move and str(f.move), f.verdict, f.text) for f in frames]
[('C3', 'guess', 'guess at 11.1 %, among the safest'), (None, 'won', 'won in 1 move')]
>>> frames[0].position.to_rows(), frames[-1].position.to_rows()
(['???', '???', '???'], ['?1 ', '11 ', '   '])
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from minesat.analysis import Analysis, Analyzer
from minesat.board import COVERED, FLAG, Action, Cell, Layout, Move, Position, cell_name, neighbours, on_board
from minesat.game import Game, MoveResult, Status
from minesat.generate import FirstClick
from minesat.guess import TIE
from minesat.player import GameRecord, Step, Strategy, play_game

#: Move kinds by the action of a :class:`~minesat.board.Move`, in the words the viewer shows.
KINDS: dict[Action, str] = {
    Action.UNCOVER: "uncover",
    Action.FLAG: "flag",
    Action.UNFLAG: "unflag",
    Action.CHORD: "chord",
}
_ACTIONS = {kind: action for action, kind in KINDS.items()}


class Verdict(enum.StrEnum):
    """What a move was, judged on the position before it (the viewer colours these).

    A frame's verdict is a plain string: other sources may use words of their own.
    """

    FIRST = "first click"  # safe by the first-click rule
    SAFE = "safe"  # uncovered (or chorded open) only proven-safe cells
    MINE = "mine"  # flagged a proven mine
    GUESS = "guess"  # uncovered an unproven cell when no proven-safe cell was left
    NEEDLESS = "needless guess"  # uncovered an unproven cell while a proven-safe one was there
    UNPROVEN_FLAG = "unproven flag"  # flagged a cell that is not (yet) proven a mine
    UNFLAG = "unflag"
    NO_EFFECT = "no effect"  # a move the rules refuse or that changes nothing
    LOSS = "loss"  # the move uncovered a mine
    WON = "won"  # the final frame of a won game
    LOST = "lost"  # the final frame of a lost game
    UNFINISHED = "unfinished"  # the final frame of a game that stopped before its end


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
        """From a :class:`~minesat.board.Move` or its SPEC notation (``A5``, ``A5*``, ``A5-``, ``A5+``)."""
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
            **fields,  # type: ignore[arg-type]
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
    moves: Iterable[Move | str | ViewerMove],
    *,
    times: Sequence[float | None] | None = None,
    rule: FirstClick | str = FirstClick.ANY,
    analyzer: Analyzer | None = None,
) -> list[ViewerFrame]:
    """Play ``moves`` on ``layout`` and judge each on the position just before it.

    One frame per move, then the final frame. Each move is analysed on the
    position the player saw before making it, with the total mine count.
    A flag counts in the analysis only when it was put on a proven mine; other
    flags are set aside (their cells count as covered): a flag is a belief, and
    a wrong one must not make the position look inconsistent or prove wrong
    things. A proven mine stays proven, flagged or not, so this loses nothing.
    The first uncover is safe (verdict :attr:`Verdict.FIRST`) when ``rule`` is
    ``opening`` or ``safe``. A move after the game is over raises
    :class:`ValueError`; a move the rules refuse is kept, as ``no effect``.
    """
    rule = FirstClick(rule)
    analyzer = analyzer if analyzer is not None else Analyzer()
    game = Game(layout)
    frames: list[ViewerFrame] = []
    moved = False
    trusted: set[Cell] = set()  # flags put on proven mines
    last: tuple[Position, Analysis] | None = None  # the position analysed last, and its analysis
    for number, raw in enumerate(moves):
        move = _as_move(raw)
        if game.over:
            raise ValueError(
                f"move {number + 1} ({move}) comes after the end of the game ({game.status.value})"
            )
        position = game.position()
        seen = _trusted_flags(position, trusted)
        if last is None or last[0] != seen:
            # A move with no effect (a replay has many) leaves the position as it was.
            last = (seen, analyzer.analyze(seen))
        analysis = last[1]
        protected = not moved and rule is not FirstClick.ANY and move.action is Action.UNCOVER
        refusal = game.refusal(move)
        result = game.play(move) if refusal is None else MoveResult.INVALID
        moved = moved or result is not MoveResult.INVALID
        verdict, text = judge(position, analysis, move, result, refusal, layout)
        if move.action is Action.FLAG and verdict is Verdict.MINE:
            trusted.add(move.cell)
        elif move.action is Action.UNFLAG:
            trusted.discard(move.cell)
        if protected and result is not MoveResult.INVALID:
            verdict, text = Verdict.FIRST, f"first click, safe by the {rule.value} rule"
        time = times[number] if times is not None and number < len(times) else None
        frames.append(
            ViewerFrame.analysed(
                position, analysis, move=ViewerMove.of(move), verdict=verdict.value, text=text, time=time
            )
        )
    frames.append(final_frame(game, len(frames)))
    return frames


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
        ("Board", f"{layout.rows}x{layout.cols}, {_plural(layout.mine_count, 'mine')}"),
        ("First click", f"{cell_name(start)} ({FirstClick(rule).value} rule)"),
        ("Strategy", strategy),
        ("Result", "won" if record.won else f"lost on guess {record.fatal_guess}"),
        ("Moves", str(len(record.moves))),
        ("Guesses", str(guesses)),
    ]
    if record.won and guesses:
        # After a loss the product is no chance of anything: the fatal guess was not safe.
        survival = math.prod(1.0 - g.probability for g in record.guesses)
        pairs.append(("Chance the guesses were all safe", _pct(survival)))
    pairs.append(("3BV", str(record.bbbv)))
    return pairs


def final_frame(game: Game, moves: int) -> ViewerFrame:
    """The position after the last move; the layout's mines shown once the game is over."""
    position = game.position()
    if game.status is Status.WON:
        verdict, text = Verdict.WON, f"won in {_plural(moves, 'move')}"
    elif game.status is Status.LOST:
        assert game.exploded is not None
        verdict, text = Verdict.LOST, f"lost on move {moves}: a mine at {cell_name(game.exploded)}"
    else:
        verdict, text = Verdict.UNFINISHED, f"stopped after {_plural(moves, 'move')}"
    mines = game.layout.mines if game.over and game.layout is not None else frozenset()
    return ViewerFrame(
        position, verdict=verdict.value, text=text, mines=frozenset(mines), exploded=game.exploded
    )


# --- judging one move --------------------------------------------------------------------


def judge(
    position: Position,
    analysis: Analysis,
    move: Move,
    result: MoveResult,
    refusal: str | None = None,
    layout: Layout | None = None,
) -> tuple[Verdict, str]:
    """The verdict on ``move`` made on ``position`` (whose ``analysis`` is given), and a sentence.

    ``result`` is what the rules made of the move; ``refusal`` why they refused
    it; ``layout``, when known, tells a wrong flag from a right one.

    >>> p = Position.from_rows(["1?", "??"], mines=1)
    >>> from minesat.analysis import analyze
    >>> judge(p, analyze(p), Move.parse("B2"), MoveResult.BLOWN_UP)
    (<Verdict.LOSS: 'loss'>, 'guess at 33.3 %, among the safest: hit a mine')
    """
    cell = move.cell
    if refusal is not None or result in (MoveResult.INVALID, MoveResult.REDUNDANT):
        return Verdict.NO_EFFECT, refusal or "changes nothing"
    # Flags the analysis set aside may be listed: only covered cells are there to take.
    safe = {c for c in analysis.safe if position[c] == COVERED}
    mine = set(analysis.mine)
    match move.action:
        case Action.FLAG:
            if cell in mine:
                return Verdict.MINE, "proven mine"
            wrong = layout is not None and cell not in layout.mines
            return Verdict.UNPROVEN_FLAG, (
                f"flag on an unproven cell ({_probability_text(analysis, cell)})"
                + (": not a mine" if wrong else "")
            )
        case Action.UNFLAG:
            return Verdict.UNFLAG, "flag removed"
        case Action.CHORD:
            opened = [n for n in neighbours(cell, position.rows, position.cols) if position[n] == COVERED]
            unproven = [n for n in opened if n not in safe]
            if not unproven:
                verdict, text = Verdict.SAFE, f"chord: opens {_plural(len(opened), 'proven-safe cell')}"
            else:
                verdict = Verdict.NEEDLESS if safe else Verdict.GUESS
                text = f"chord over {_plural(len(unproven), 'unproven cell')}"
        case _:
            if cell in safe:
                return Verdict.SAFE, "proven safe"
            if cell in mine:
                return Verdict.LOSS, "uncovered a proven mine"
            verdict = Verdict.NEEDLESS if safe else Verdict.GUESS
            text = _guess_text(position, analysis, cell, len(safe))
    if result is MoveResult.BLOWN_UP:
        return Verdict.LOSS, text + ": hit a mine"
    return verdict, text


def _guess_text(position: Position, analysis: Analysis, cell: Cell, safe: int) -> str:
    """``guess at 18.2 %, safest was 12.0 %`` (or ``among the safest``), and the safe cells passed by."""
    p = analysis.probability[cell[0]][cell[1]]
    if p is None:
        text = "guess (mine probability unknown)"
    else:
        known = [
            q for c in analysis.unknown
            if position[c] == COVERED and (q := analysis.probability[c[0]][c[1]]) is not None
        ]
        best = min(known, default=p)
        than = "among the safest" if p <= best + TIE else f"safest was {_pct(best)}"
        text = f"guess at {_pct(p)}, {than}"
    if safe:
        text += f"; {_plural(safe, 'proven-safe cell')} left untaken"
    return text


def _as_move(move: Move | str | ViewerMove) -> Move:
    if isinstance(move, ViewerMove):
        return move.to_move()
    return Move.parse(move) if isinstance(move, str) else move


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _probability_text(analysis: Analysis, cell: Cell) -> str:
    p = analysis.probability[cell[0]][cell[1]]
    return "mine probability unknown" if p is None else f"mine probability {_pct(p)}"


def _pct(p: float) -> str:
    """``18.2 %``; never 0.0 % or 100.0 % for a probability strictly between.

    >>> _pct(0.182), _pct(0.0004), _pct(0.99999)
    ('18.2 %', '<0.1 %', '>99.9 %')
    """
    if 0.0 < p < 0.0005:
        return "<0.1 %"
    if 0.9995 < p < 1.0:
        return ">99.9 %"
    return f"{100 * p:.1f} %"


def _trusted_flags(position: Position, trusted: set[Cell]) -> Position:
    """The position with every flag not in ``trusted`` back to covered.

    >>> _trusted_flags(Position.from_rows(["1*", "*?"]), {(0, 1)}).to_rows()
    ['1*', '??']
    """
    cols = position.cols
    cells = position.cells
    if all(divmod(i, cols) in trusted for i, s in enumerate(cells) if s == FLAG):
        return position
    return Position(
        position.rows,
        cols,
        tuple(COVERED if s == FLAG and divmod(i, cols) not in trusted else s for i, s in enumerate(cells)),
        position.mines,
    )


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
