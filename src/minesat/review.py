"""A played game reviewed move by move: what each move risked, on the position the player saw.

A human game (a replay file) or one of ours is a layout and a list of moves.
Each move is played through :class:`~minesat.game.Game` and judged on the
position just before it:

- an **uncover** is *safe* when the numbers prove the cell mine-free, else a
  *guess* with its exact mine probability (and the safest cell's, and whether a
  proven-safe cell was there to take instead: a *needless* guess), or a *loss*
  when it hits a mine;
- a **chord** is judged like an uncover of every cell it opens: safe when all
  are proven safe, else a guess whose probability is that of at least one mine
  among them;
- a **flag** is on a proven *mine*, on a mine not proven yet (*unproven*), or
  *wrong* (a safe cell); an **unflag** is noted.

The player's flags are their own notes, not knowledge: a wrong flag must not
change what the numbers prove. So each position is analysed from its numbers
and the total alone, its flags read as covered cells.

>>> from minesat.board import Layout, Move
>>> layout = Layout.from_rows(["*  ", "   ", "  *"])
>>> review = review_game(layout, [Move.parse(m) for m in ["B2", "A3", "A1*", "C1"]])
>>> [(m.move, m.verdict.value, m.probability) for m in review.moves]
[('B2', 'first', None), ('A3', 'guess', 0.25), ('A1*', 'unproven', None), ('C1', 'safe', None)]
>>> review.won, review.guesses, review.survival
(True, 1, 0.75)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from minesat.analysis import Analysis, Analyzer
from minesat.board import COVERED, FLAG, Action, Cell, Layout, Move, Position, neighbours
from minesat.game import Game, Status


class Verdict(enum.StrEnum):
    """What a move was, judged on the position before it."""

    FIRST = "first"  # the first uncover of the game, on a blank board
    SAFE = "safe"  # opened only cells the numbers prove mine-free
    GUESS = "guess"  # risked a mine and survived
    LOSS = "loss"  # risked a mine and hit one
    MINE = "mine"  # a flag on a proven mine
    UNPROVEN = "unproven"  # a flag on a mine the numbers do not prove yet
    WRONG = "wrong"  # a flag on a safe cell
    UNFLAG = "unflag"  # a flag taken off


#: Verdicts of moves that risked a mine.
RISKY = (Verdict.GUESS, Verdict.LOSS)


@dataclass(frozen=True)
class PlayedMove:
    """A move as it was played: a :class:`~minesat.board.Move` and when (seconds from the start)."""

    move: Move
    time: float | None = None


@dataclass(frozen=True)
class ReviewedMove:
    """One move, its verdict, and what the position before it offered.

    ``probability`` is the chance that the move hits a mine (uncover or chord;
    ``None`` for a safe move, a flag, or when it cannot be counted); ``safest``
    the lowest mine probability of any covered cell then; ``needless`` whether a
    proven-safe cell was there to take instead of a risky move. ``position`` is
    what the player saw (flags included); ``analysis`` its analysis (flags read as
    covered), kept only when :func:`review_game` is asked for it.
    """

    index: int  # 0-based, among the moves the game accepted
    move: str  # SPEC notation: A5, A5*, A5-, A5+
    time: float | None
    verdict: Verdict
    probability: float | None
    safest: float | None
    needless: bool
    position: Position
    analysis: Analysis | None = None

    @property
    def cell(self) -> Cell:
        return Move.parse(self.move).cell

    @property
    def kind(self) -> str:
        """``uncover``, ``flag``, ``unflag`` or ``chord``."""
        return Move.parse(self.move).action.name.lower()


@dataclass(frozen=True)
class GameReview:
    """Every accepted move of a game reviewed, and what they add up to."""

    layout: Layout
    moves: tuple[ReviewedMove, ...]
    won: bool
    final: Position  # the board after the last move
    exploded: Cell | None  # the mine that lost the game

    @property
    def risky(self) -> list[ReviewedMove]:
        return [m for m in self.moves if m.verdict in RISKY]

    @property
    def guesses(self) -> int:
        """Moves that risked a mine (a lost game's last move included)."""
        return len(self.risky)

    @property
    def needless_guesses(self) -> int:
        """Risky moves made while a proven-safe cell was there to take."""
        return sum(m.needless for m in self.risky)

    @property
    def survival(self) -> float | None:
        """The chance that the player's own risky moves all survive: the product of their safeties."""
        return _product(m.probability for m in self.risky)

    @property
    def safest_survival(self) -> float | None:
        """The same chance had each risky move been on the safest cell at that moment."""
        return _product(m.safest for m in self.risky)


def _product(probabilities: Iterable[float | None]) -> float | None:
    out = 1.0
    for p in probabilities:
        if p is None:
            return None
        out *= 1.0 - p
    return out


def review_game(
    layout: Layout,
    moves: Sequence[Move | PlayedMove],
    *,
    keep_analyses: bool = False,
    progress: Callable[[int], None] | None = None,
    analyzer: Analyzer | None = None,
) -> GameReview:
    """Play ``moves`` on ``layout`` and judge each one (see the module docstring).

    Moves the game refuses (a click on an uncovered cell, a chord whose flags
    do not match its number, anything after the end) change nothing and are
    left out. ``keep_analyses`` keeps each position's full analysis (for a
    viewer's heat map); without it a position is fully analysed only before a
    risky move. ``progress`` is called with the number of moves looked at so far.
    """
    game = Game(layout)
    judge = _Judge(analyzer if analyzer is not None else Analyzer(), game, keep_analyses)
    reviewed: list[ReviewedMove] = []
    for done, played in enumerate(moves, 1):
        if progress is not None:
            progress(done)
        if not isinstance(played, PlayedMove):
            played = PlayedMove(played)
        move = played.move
        if game.over or game.refusal(move) is not None:
            continue
        position = game.position()
        judged = judge(position, move)
        reviewed.append(
            ReviewedMove(
                len(reviewed), str(move), played.time, judged.verdict, judged.probability,
                judged.safest, judged.needless, position, judged.analysis,
            )
        )
        game.play(move)
    return GameReview(layout, tuple(reviewed), game.status is Status.WON, game.position(), game.exploded)


@dataclass(frozen=True)
class _Judgement:
    verdict: Verdict
    probability: float | None = None
    safest: float | None = None
    needless: bool = False
    analysis: Analysis | None = None


def without_flags(position: Position) -> Position:
    """The position with its flags read as covered cells: what its numbers and total say alone.

    >>> without_flags(Position.from_rows(["1*"], mines=1)).to_rows()
    ['1?']
    """
    cells = tuple(COVERED if state == FLAG else state for state in position.cells)
    return Position(position.rows, position.cols, cells, position.mines)


class _Judge:
    """Judges the moves of one game in order, remembering what earlier positions proved.

    A proof only grows stronger as cells are uncovered (every layout it rules
    out stays ruled out), and flags are not read: so a cell proven safe or
    mined before is still proven now, and a move on it needs no new analysis.
    Human players mostly click cells proven a while ago; this keeps a review of
    a 1500-move game to a few seconds.
    """

    def __init__(self, analyzer: Analyzer, game: Game, keep: bool) -> None:
        self.analyzer, self.game, self.keep = analyzer, game, keep
        self.safe: set[Cell] = set()
        self.mine: set[Cell] = set()

    def _prove(self, blank: Position, analysis: Analysis | None) -> None:
        safe, mine = (analysis.safe, analysis.mine) if analysis is not None else self.analyzer.proven(blank)
        self.safe.update(safe)
        self.mine.update(mine)

    def __call__(self, position: Position, move: Move) -> _Judgement:
        game, layout = self.game, self.game.layout
        assert layout is not None
        blank = without_flags(position)
        analysis = self.analyzer.analyze(blank) if self.keep else None
        cell = move.cell
        match move.action:
            case Action.FLAG:
                if cell not in self.mine:
                    self._prove(blank, analysis)
                if cell in self.mine:
                    return _Judgement(Verdict.MINE, analysis=analysis)
                verdict = Verdict.UNPROVEN if cell in layout.mines else Verdict.WRONG
                return _Judgement(verdict, analysis=analysis)
            case Action.UNFLAG:
                return _Judgement(Verdict.UNFLAG, analysis=analysis)
        # An uncover opens its cell; a chord every covered, unflagged neighbour of its number.
        if move.action is Action.UNCOVER:
            opened = [cell]
        else:
            opened = [n for n in neighbours(cell, game.rows, game.cols) if game[n] == COVERED]
        hits = any(n in layout.mines for n in opened)
        if not any(state >= 0 for state in position.cells):
            # The first click, on a blank board: where the game starts, not a choice between risks.
            first_risk = layout.mine_count / (layout.rows * layout.cols) if hits else None
            return _Judgement(Verdict.LOSS if hits else Verdict.FIRST, first_risk, analysis=analysis)
        if not self.safe.issuperset(opened):
            self._prove(blank, analysis)
        if self.safe.issuperset(opened):
            return _Judgement(Verdict.SAFE, analysis=analysis)
        full = analysis if analysis is not None else self.analyzer.analyze(blank)
        risk = _risk(self.analyzer, blank, full, [n for n in opened if n not in self.safe])
        known = [p for r, c in full.unknown if (p := full.probability[r][c]) is not None]
        safest = 0.0 if full.safe else min(known, default=None)
        return _Judgement(Verdict.LOSS if hits else Verdict.GUESS, risk, safest, bool(full.safe), analysis)


def _risk(analyzer: Analyzer, blank: Position, analysis: Analysis, cells: list[Cell]) -> float | None:
    """The chance that at least one of ``cells`` holds a mine; ``None`` where it cannot be counted.

    One cell: its probability. Several (a chord): by inclusion and exclusion
    over the layouts that mine every cell of a subset, each counted by the
    engine on the position with that subset flagged (flags are mines to it).
    """
    if len(cells) == 1:
        r, c = cells[0]
        return analysis.probability[r][c]
    total = analyzer.layouts(blank)
    if not total:
        return None
    none_mined = 0
    for size in range(len(cells) + 1):
        for subset in combinations(cells, size):
            count = total if not subset else analyzer.layouts(_flagged(blank, subset))
            if count is None:
                return None
            none_mined += (-1) ** size * count
    return float(1 - Fraction(none_mined, total))


def _flagged(position: Position, cells: Iterable[Cell]) -> Position:
    state = list(position.cells)
    for r, c in cells:
        state[r * position.cols + c] = FLAG
    return Position(position.rows, position.cols, tuple(state), position.mines)
