"""A played game reviewed move by move: what each move risked, on the position the player saw.

A human game (a replay file) or one of ours is a layout and a list of moves.
Each move is played through :class:`~minesat.game.Game` and judged on the
position just before it:

- an **uncover** is *safe* when the numbers prove the cell mine-free, else a
  *guess* with its exact mine probability (and the safest cell's, and how many
  proven-safe cells were there to take instead: a *needless* guess), or a *loss*
  when it hits a mine; and for a guess, what it did to the chance to win the
  game: where the position is small enough for perfect play
  (:class:`~minesat.exact.PositionSearch`, within :data:`GUESS_LAYOUTS`
  layouts and :data:`GUESS_STATES` states), the exact chance the guess kept
  against the best move's; elsewhere, on boards of at most
  :data:`BEST_MOVE_CELLS` cells, the move the ``best`` strategy would have
  made;
- a **chord** is judged like an uncover of every cell it opens: safe when all
  are proven safe, else a guess whose probability is that of at least one mine
  among them;
- a **flag** is on a proven *mine*, on a mine not proven yet (*unproven*), or
  *wrong* (a safe cell); an **unflag** is noted; a move the rules refuse (a
  click on an uncovered cell) has *no effect*.

The player's flags are their own notes, not knowledge: a wrong flag must not
change what the numbers prove. So each position is analysed from its numbers
and the total alone, its flags read as covered cells. This is the one judge
of moves: ``minesat replay``, the game viewer and its pages of our own games
all read it.

>>> from minesat.board import Layout, Move
>>> layout = Layout.from_rows(["*  ", "   ", "  *"])
>>> review = review_game(layout, [Move.parse(m) for m in ["B2", "A3", "A1*", "C1"]])
>>> [(str(m.move), m.verdict.value, m.probability) for m in review.moves]
[('B2', 'first', None), ('A3', 'guess', 0.25), ('A1*', 'unproven', 0.5), ('C1', 'safe', None)]
>>> review.won, review.guesses, review.survival
(True, 1, 0.75)
>>> describe(review.moves[1])
'guess at 25.0%, among the safest; keeps the best chance to win, 60.7%'
>>> describe(review.moves[2])
'flag on an unproven cell (mine probability 50.0%)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import TYPE_CHECKING

from minesat.analysis import Analysis, Analyzer
from minesat.board import (
    COVERED,
    FLAG,
    Action,
    Cell,
    Layout,
    Move,
    Position,
    cell_name,
    neighbours,
    without_flags,
)
from minesat.budget import Budget
from minesat.errors import InvalidValue
from minesat.exact import PastBudget, PositionSearch
from minesat.game import Game, Status
from minesat.generate import FirstClick
from minesat.guess import TIE
from minesat.stats import percent
from minesat.verdict import RISKY, Verdict
from minesat.words import plural

if TYPE_CHECKING:
    from minesat.player import Strategy

__all__ = [
    "BEST_MOVE_CELLS",
    "GUESS_LAYOUTS",
    "GUESS_STATES",
    "RISKY",
    "GameReview",
    "PlayedMove",
    "ReviewedMove",
    "Reviewer",
    "Verdict",
    "describe",
    "review_game",
    "without_flags",
]


#: A guess's position is searched exactly (perfect play) when it has at most this many
#: layouts, and given up past :data:`GUESS_STATES` states: endgames and small boards. On a
#: 36x60 board a search of 1 200 layouts took 670 states and 0.6 s, one of 3 990 layouts
#: 3 939 states and 2.8 s: these limits keep the review of that game within a second
#: of what it was without (benchmarks/review.py).
GUESS_LAYOUTS = 2000
GUESS_STATES = 1000

#: Where perfect play is out of reach, a guess is compared with the move the ``best``
#: strategy would have made (its exact play held to 2 000 layouts on every board) on
#: boards of at most this many cells: its look-ahead costs
#: about a second a guess on a 36x60 board (2 160 cells), where a review would take
#: minutes instead of seconds (expert has 480 cells).
BEST_MOVE_CELLS = 1000

#: Who chose a guess's ``best_move``: perfect play (exact), or the ``best`` strategy.
PERFECT, STRATEGY = "perfect", "best"


@dataclass(frozen=True)
class PlayedMove:
    """A move as it was played: a :class:`~minesat.board.Move` and when (seconds from the start)."""

    move: Move
    time: float | None = None


@dataclass(frozen=True)
class ReviewedMove:
    """One move, its verdict, and what the position before it offered.

    ``probability`` is the chance that the move hits a mine (an uncover or a
    chord that risks one), or that the flagged cell is a mine (an unproven or
    wrong flag); ``None`` for proven moves, or where it cannot be counted.
    ``safest`` is the lowest mine probability of any unproven covered cell
    then (the safest guess), and ``safe_left`` how many proven-safe cells were
    there to take instead (both for risky moves). ``position`` is what the
    player saw (flags included); ``analysis`` its analysis (flags read as
    covered), kept only when :func:`review_game` is asked for it. ``note`` says
    why a move had no effect.

    For a risky uncover, ``best_move`` is the move to compare it with: where
    perfect play was searched (``best_move_by`` is :data:`PERFECT`), a move
    keeping the best chance to win, ``best_win_probability``, and
    ``win_probability`` is the chance the move taken kept (both exact, then
    playing perfectly); elsewhere (:data:`STRATEGY`) the move the ``best``
    strategy would have made, and both chances ``None``.
    """

    index: int  # 0-based, in the order played
    move: Move
    time: float | None
    verdict: Verdict
    probability: float | None
    safest: float | None
    safe_left: int
    position: Position
    analysis: Analysis | None = None
    note: str = ""
    unproven: int = 0  # cells the move opened that were not proven safe
    win_probability: float | None = None
    best_win_probability: float | None = None
    best_move: Cell | None = None
    best_move_by: str | None = None
    #: A guess no play could have avoided: its cell is one of an unavoidable 50/50, cells nothing
    #: left on the board can tell apart (walled in, a chain of them;
    #: :func:`~minesat.guess.fifty.unavoidable_guesses`).
    forced: bool = False

    @property
    def needless(self) -> bool:
        """A risky move made while a proven-safe cell was there to take."""
        return self.safe_left > 0

    @property
    def cell(self) -> Cell:
        return self.move.cell

    @property
    def kind(self) -> str:
        """``uncover``, ``flag``, ``unflag`` or ``chord``."""
        return self.move.action.name.lower()


@dataclass(frozen=True)
class GameReview:
    """Every accepted move of a game reviewed, and what they add up to."""

    layout: Layout
    moves: tuple[ReviewedMove, ...]
    status: Status
    final: Position  # the board after the last move
    exploded: Cell | None  # the mine that lost the game

    @property
    def won(self) -> bool:
        return self.status is Status.WON

    def __repr__(self) -> str:
        return f"<GameReview: {self.outline()}>"

    def outline(self) -> str:
        """``won in 120 moves, 3 guesses (1 needless)``: the review in a line."""
        return (
            f"{self.status.value} in {plural(len(self.moves), 'move')}, {plural(self.guesses, 'guess')} "
            f"({self.needless_guesses} needless)"
        )

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
        """The same chance had each risky move been the safest one at that moment.

        That is a proven-safe cell where there was one (no risk at all), else the
        safest guess.
        """
        return _product(0.0 if m.needless else m.safest for m in self.risky)


def _product(probabilities: Iterable[float | None]) -> float | None:
    out = 1.0
    for p in probabilities:
        if p is None:
            return None
        out *= 1.0 - p
    return out


def review_game(
    layout: Layout,
    moves: Iterable[Move | PlayedMove | str],
    *,
    rule: FirstClick | str = FirstClick.SAFE,
    keep_analyses: bool = False,
    progress: Callable[[int], None] | None = None,
    analyzer: Analyzer | None = None,
) -> GameReview:
    """Play ``moves`` on ``layout`` and judge each one (see the module docstring).

    A move is a :class:`~minesat.board.Move` (a played game's ``record.moves``
    are reviewed as they are), a :class:`PlayedMove` (a move and its time) or a
    move string (``"C3"``, ``"A1*"``, ``"A1-"``, ``"B2+"``, read by
    :meth:`~minesat.board.Move.parse`).

    ``rule`` is what the player could assume of the first click: under
    ``opening`` or ``safe`` (the default, as in the programs people play) it is
    the *first* move, not a guess; under ``any`` it is a guess like any other.
    A move the rules refuse is kept, with no effect; a move after the end of
    the game raises :class:`ValueError`. ``keep_analyses`` keeps each
    position's full analysis (for a viewer's heat map); without it a position
    is fully analysed only before a risky move or an unproven flag.
    ``progress`` is called with the number of moves judged so far.
    """
    reviewer = Reviewer(layout, rule=rule, keep_analyses=keep_analyses, analyzer=analyzer)
    for index, played in enumerate(moves):
        reviewer.play(played)
        if progress is not None:
            progress(index + 1)
    return reviewer.review()


class Reviewer:
    """A game judged as it is played: :func:`review_game` one move at a time.

    For a game in progress (the web app's): each move is judged on the
    position before it and then played, and :meth:`review` sums up so far.

    >>> from minesat.board import Layout
    >>> reviewer = Reviewer(Layout.from_rows(["*  ", "   ", "  *"]))
    >>> [reviewer.play(Move.parse(m)).verdict.value for m in ["B2", "A3"]]
    ['first', 'guess']
    >>> reviewer.game.status.value, len(reviewer.review().moves)
    ('playing', 2)
    """

    def __init__(
        self,
        layout: Layout,
        *,
        rule: FirstClick | str = FirstClick.SAFE,
        keep_analyses: bool = False,
        analyzer: Analyzer | None = None,
        chances: bool = True,
        flags_by_numbers: bool = False,
    ) -> None:
        self.game = Game(layout)
        self.moves: list[ReviewedMove] = []
        self._judge = _Judge(
            analyzer if analyzer is not None else Analyzer(), self.game, FirstClick(rule), keep_analyses
        )
        #: Whether a guess is compared with the best move (``chances`` off: a game played on a big
        #: board, where that search may take seconds a guess; its review afterwards has them).
        self._judge.chances = chances
        #: A flag judged on the numbers alone (a game still being played, whose layout is secret):
        #: *wrong* only on a cell proven safe, else *unproven*, whatever the layout holds there.
        self._judge.flags_by_numbers = flags_by_numbers

    def play(self, played: Move | PlayedMove | str) -> ReviewedMove:
        """Judge ``played`` on the position before it, then play it (a refused move changes nothing).

        ``played`` may be a move string (``"A1*"``). Raises :class:`ValueError` for a
        move string that is no move, and for a move after the end of the game;
        :class:`TypeError` for anything that is not a move at all.
        """
        game = self.game
        number = len(self.moves) + 1
        if not isinstance(played, PlayedMove):
            played = PlayedMove(played)  # type: ignore[arg-type]  # a str is parsed just below
        if isinstance(played.move, str):
            try:
                played = PlayedMove(Move.parse(played.move), played.time)
            except InvalidValue as err:
                raise InvalidValue(f"move {number}: {err}") from None
        if not isinstance(played.move, Move):
            raise TypeError(f"move {number}: expected a Move, a PlayedMove or a move string such as "
                            f"'A5' or 'A5*', not {type(played.move).__name__} {played.move!r}")
        move = played.move
        if game.over:
            where = f"move {len(self.moves) + 1} ({move})"
            raise InvalidValue(f"{where} comes after the end of the game ({game.status.value})")
        position = game.position
        refusal = game.refusal(move)
        judged = self._judge(position, move) if refusal is None else self._judge.no_effect(position, refusal)
        reviewed = ReviewedMove(
            len(self.moves), move, played.time, judged.verdict, judged.probability, judged.safest,
            judged.safe_left, position, judged.analysis, judged.note, judged.unproven, *judged.chances,
            judged.forced,
        )
        self.moves.append(reviewed)
        if refusal is None:
            game.play(move)
        return reviewed

    def copy(self) -> Reviewer:
        """An independent copy: the moves judged so far, then each its own game and judge (with
        an analyzer of its own), so that moves on one leave the other alone.

        >>> from minesat.board import Layout
        >>> reviewer = Reviewer(Layout.from_rows(["*  ", "   ", "  *"]))
        >>> _ = reviewer.play(Move.parse("B2"))
        >>> twin = reviewer.copy()
        >>> twin.play(Move.parse("A3")).verdict.value, len(twin.moves), len(reviewer.moves)
        ('guess', 2, 1)
        """
        judge = self._judge
        assert self.game.layout is not None
        twin = Reviewer(self.game.layout, rule=judge.rule, keep_analyses=judge.keep, chances=judge.chances,
                        flags_by_numbers=judge.flags_by_numbers)
        twin.game = twin._judge.game = self.game.copy()
        twin.moves = list(self.moves)  # each ReviewedMove is immutable: shared, not copied
        return twin

    def review(self) -> GameReview:
        """The moves judged so far, and where the game stands."""
        game = self.game
        assert game.layout is not None
        return GameReview(game.layout, tuple(self.moves), game.status, game.position, game.exploded)


_NO_CHANCES: tuple[float | None, float | None, Cell | None, str | None] = (None, None, None, None)


@dataclass(frozen=True)
class _Judgement:
    verdict: Verdict
    probability: float | None = None
    safest: float | None = None
    safe_left: int = 0
    analysis: Analysis | None = None
    note: str = ""
    unproven: int = 0
    #: (win_probability, best_win_probability, best_move, best_move_by), as in ReviewedMove.
    chances: tuple[float | None, float | None, Cell | None, str | None] = _NO_CHANCES
    forced: bool = False


class _Judge:
    """Judges the moves of one game in order, remembering what earlier positions proved.

    A proof only grows stronger as cells are uncovered (every layout it rules
    out stays ruled out), and flags are not read: so a cell proven safe or
    mined before is still proven now, and a move on it needs no new analysis.
    Human players mostly click cells proven a while ago; this keeps a review of
    a 1500-move game to about a second.
    """

    def __init__(self, analyzer: Analyzer, game: Game, rule: FirstClick, keep: bool) -> None:
        self.analyzer, self.game, self.rule, self.keep = analyzer, game, rule, keep
        self.safe: set[Cell] = set()
        self.mine: set[Cell] = set()
        self._last: tuple[Position, Analysis] | None = None
        self._best: Strategy | None = None  # the ``best`` strategy, made when first asked
        self.chances = True
        self.flags_by_numbers = False

    def _analysis(self, blank: Position) -> Analysis:
        """The full analysis of ``blank``; a move with no effect leaves the position as it was."""
        if self._last is None or self._last[0] != blank:
            self._last = (blank, self.analyzer.analyze(blank))
        analysis = self._last[1]
        self.safe.update(analysis.safe)
        self.mine.update(analysis.mine)
        return analysis

    def _prove(self, blank: Position) -> None:
        """Learn what ``blank`` proves. The mines proven before are flagged for it (a flag is a
        mine to the analysis): the same layouts, so the same proofs, but the numbers around them
        no longer tie the frontier into one big component (on 100x100 a few times faster)."""
        safe, mine = self.analyzer.proven(_flagged(blank, self.mine))
        self.safe.update(safe)
        self.mine.update(mine)

    def no_effect(self, position: Position, refusal: str) -> _Judgement:
        analysis = self._analysis(without_flags(position)) if self.keep else None
        return _Judgement(Verdict.NO_EFFECT, analysis=analysis, note=refusal)

    def __call__(self, position: Position, move: Move) -> _Judgement:
        game, layout = self.game, self.game.layout
        assert layout is not None
        blank = without_flags(position)
        analysis = self._analysis(blank) if self.keep else None
        cell = move.cell
        match move.action:
            case Action.UNFLAG:
                return _Judgement(Verdict.UNFLAG, analysis=analysis)
            case Action.FLAG:
                if cell not in self.mine and analysis is None:
                    self._prove(blank)
                if cell in self.mine:
                    return _Judgement(Verdict.MINE, analysis=analysis)
                full = analysis if analysis is not None else self._analysis(blank)
                if self.flags_by_numbers:
                    verdict = Verdict.WRONG if cell in self.safe else Verdict.UNPROVEN
                else:
                    verdict = Verdict.UNPROVEN if cell in layout.mines else Verdict.WRONG
                return _Judgement(verdict, full.probability[cell[0]][cell[1]], analysis=analysis)
        # An uncover opens its cell; a chord every covered, unflagged neighbour of its number.
        if move.action is Action.UNCOVER:
            opened = [cell]
        else:
            opened = [n for n in neighbours(cell, game.rows, game.cols) if game[n] == COVERED]
        hits = any(n in layout.mines for n in opened)
        if self.rule is not FirstClick.ANY and not any(state >= 0 for state in position.cells):
            # The first click, which the rule keeps safe: where the game starts, not a risk taken.
            return _Judgement(Verdict.LOSS if hits else Verdict.FIRST, analysis=analysis)
        if not self.safe.issuperset(opened) and analysis is None:
            self._prove(blank)
        if self.safe.issuperset(opened):
            return _Judgement(Verdict.SAFE, analysis=analysis)
        full = analysis if analysis is not None else self._analysis(blank)
        unproven = [n for n in opened if n not in self.safe]
        risk = _risk(self.analyzer, blank, full, unproven)
        known = [p for r, c in full.unknown if (p := full.probability[r][c]) is not None]
        safe_left = len(full.safe)
        safest = min(known, default=None)
        verdict = Verdict.LOSS if hits else Verdict.GUESS
        compare = self.chances and move.action is Action.UNCOVER
        chances = self._chances(blank, full, cell) if compare else _NO_CHANCES
        forced = move.action is Action.UNCOVER and _unavoidable(blank, full, cell)
        return _Judgement(verdict, risk, safest, safe_left, analysis, unproven=len(unproven), chances=chances,
                          forced=forced)

    def _chances(
        self, blank: Position, analysis: Analysis, cell: Cell
    ) -> tuple[float | None, float | None, Cell | None, str | None]:
        """What a guess at ``cell`` kept of the chance to win: exact where the position is small
        enough for perfect play, else only the move the ``best`` strategy would have made."""
        if analysis.layouts is not None and analysis.layouts <= GUESS_LAYOUTS:
            try:
                search = PositionSearch(
                    blank, budget=Budget(max_states=GUESS_STATES), analysis=analysis,
                    max_layouts=GUESS_LAYOUTS,
                )
                wins, kept, best = search.wins(), search.move_wins(cell), search.best_move()
                return kept / search.layouts, wins / search.layouts, best, PERFECT
            except (PastBudget, ValueError):
                pass  # past the small budget: the strategy's move instead
        if analysis.safe or blank.rows * blank.cols > BEST_MOVE_CELLS:
            return _NO_CHANCES  # a needless guess: the proven-safe cells left untaken say it already
        if self._best is None:
            from minesat.guess.best import best_within

            # Exact play as the player has it on large boards, on small ones too: there the
            # player searches up to 70 000 layouts, half a minute for some early guesses.
            self._best = best_within()
        return None, None, self._best.choose(blank, analysis), STRATEGY


def _unavoidable(blank: Position, analysis: Analysis, cell: Cell) -> bool:
    """Whether ``cell`` is one of an unavoidable 50/50: a group of cells at one chance in two that
    no play can tell apart (walled in, or a chain of them; the marks the page draws,
    :func:`~minesat.guess.fifty.unavoidable_guesses`). Guessing it was forced, whenever it came."""
    from minesat.guess.fifty import unavoidable_guesses

    grid = analysis.probability
    if grid[cell[0]][cell[1]] != 0.5:
        return False
    return any(cell in group and all(grid[r][c] == 0.5 for r, c in group)
               for group in unavoidable_guesses(blank, analysis))


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


# --- in words ---------------------------------------------------------------------------


def describe(move: ReviewedMove, player: str = "best") -> str:
    """The verdict on ``move`` as a short sentence, as the viewer and ``minesat replay`` print it.

    ``player`` names whoever chose the move a guess is compared with where perfect play was out
    of reach (the ``best`` strategy; the web app's game calls it the automatic player).

    >>> from minesat.board import Layout
    >>> review = review_game(Layout.from_rows(["*  ", "   ", "  *"]), [Move.parse("B2"), Move.parse("A1")])
    >>> [describe(m) for m in review.moves]
    ['first click', 'guess at 25.0%, among the safest; keeps the best chance to win, 60.7%: hit a mine']
    """
    match move.verdict:
        case Verdict.FIRST:
            return "first click"
        case Verdict.SAFE if move.kind == "chord":
            opened = sum(1 for n in neighbours(move.cell, move.position.rows, move.position.cols)
                         if move.position[n] == COVERED)
            return f"chord: opens {plural(opened, 'proven-safe cell')}"
        case Verdict.SAFE:
            return "proven safe"
        case Verdict.MINE:
            return "proven mine"
        case Verdict.WRONG if move.probability == 0.0:
            return "flag on a proven-safe cell: not a mine"
        case Verdict.UNPROVEN | Verdict.WRONG:
            # Near 0 % or 100 % the exact chance is the point: "0.0%" beside "not a mine" reads as a proof.
            text = f"flag on an unproven cell ({_chance(move.probability, precise=True)})"
            return text + (": not a mine" if move.verdict is Verdict.WRONG else "")
        case Verdict.UNFLAG:
            return "flag removed"
        case Verdict.NO_EFFECT:
            return move.note or "changes nothing"
    # A risky uncover or chord.
    p = move.probability
    if move.kind == "chord":
        text = f"chord over {plural(move.unproven, 'unproven cell')}"
        text += "" if p is None else f", {percent(p)} risk"
    elif p == 1.0:
        text = "uncovered a proven mine"
    elif p is None:
        text = "guess (mine probability unknown)"
    elif move.forced:
        # Not a mistake: one cell of the group had to be guessed some day, at this risk.
        text = f"forced guess at {percent(p)}: no play could tell its cells apart"
    else:
        safest = move.safest if move.safest is not None else p
        than = "among the safest" if p <= safest + TIE else f"safest was {percent(safest)}"
        text = f"guess at {percent(p)}, {than}"
    if move.safe_left:
        text += f"; {plural(move.safe_left, 'proven-safe cell')} left untaken"
    text += _chances(move, player)
    return text + (": hit a mine" if move.verdict is Verdict.LOSS else "")


def _chances(move: ReviewedMove, player: str = "best") -> str:
    """What a guess kept of the chance to win (``; kept 62.5% of 80.0% to win (best B3)``), or the
    move ``player`` would have made; nothing for a move without either."""
    if move.best_move is None:
        return ""
    best = cell_name(move.best_move)
    if move.win_probability is None or move.best_win_probability is None:
        if move.best_move == move.cell:
            return f"; the move {player} would make"
        return f"; {player} would {'take' if move.safe_left else 'guess'} {best}"
    if move.win_probability >= move.best_win_probability:
        return f"; keeps the best chance to win, {percent(move.best_win_probability)}"
    kept, of = percent(move.win_probability), percent(move.best_win_probability)
    return f"; kept {kept} of {of} to win (best {best})"


def _chance(p: float | None, precise: bool = False) -> str:
    return "mine probability unknown" if p is None else f"mine probability {percent(p, precise=precise)}"
