"""The automatic player: proven moves first, the best guess when none exists.

:func:`play_game` plays a known layout from a start cell. After every round of
moves it asks the analysis engine what the position proves, makes *every*
proven move (uncovers all certainly safe cells, flags all certain mines) and
only when nothing is proven asks a :class:`Strategy` for a guess. The player
therefore only ever loses on a guess.

>>> lay = Layout.from_rows(["*  ", "   ", "   "])
>>> record = play_game(lay, (2, 2))
>>> record.won, [str(m) for m in record.moves], record.guesses
(True, ['C3'], ())

The rounds themselves are :class:`Rounds`, one :class:`Step` at a time, which
whoever drives a game (the web app's automatic player too) plays as it goes.

:func:`solve_oracle` answers a different question: how many risks must a player
take who *knows* the layout, makes every safe move and, when stuck, picks the
mine-free cell that opens the most.

>>> lay = Layout.from_rows(["*  ", "   ", "  *"])
>>> [(str(r.move), r.uncovers) for r in solve_oracle(lay, (1, 1), "safe")]
[('A3', 6)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import chain
from typing import Protocol

from minesat.analysis import Analysis, Analyzer
from minesat.board import (
    COVERED,
    Action,
    Cell,
    Layout,
    Move,
    Position,
    as_cell,
    cell_name,
    neighbours,
    on_board,
)
from minesat.errors import InvalidValue
from minesat.game import Game, Status
from minesat.generate import FirstClick, kept_clear
from minesat.guess import COIN_TOSS, TIE, mine_probability
from minesat.guess.best import DEFAULT_PIECES, BestGuess, redundant_switches, strategy_named
from minesat.verdict import Verdict
from minesat.words import plural

__all__ = [
    "DEFAULT_START",
    "DEFAULT_STRATEGY",
    "ORACLE_EXACT_LIMIT",
    "STRATEGIES",
    "AnalysisEngine",
    "GameRecord",
    "Guess",
    "RiskyMove",
    "SafestCell",
    "SafestRowMajor",
    "Step",
    "Strategy",
    "check_start",
    "default_start",
    "get_strategy",
    "is_strategy",
    "next_step",
    "play_game",
    "solve_oracle",
]


@dataclass(frozen=True)
class Guess:
    """A move made without proof, with the mine probability the player saw.

    ``uncovered``: the mine-free cells already uncovered when it was made (None where
    not recorded: stores made before it was), which says how far into the game it came.
    """

    move: Move
    probability: float
    uncovered: int | None = None


@dataclass(frozen=True)
class GameRecord:
    """How one game went. ``moves`` are every move made, first click included."""

    won: bool
    moves: tuple[Move, ...]
    guesses: tuple[Guess, ...]
    uncovered: int  # mine-free cells uncovered when the game ended
    bbbv: int  # 3BV of the layout
    seconds: float  # wall time of the game (not part of any determinism promise)
    analyses: int = 0  # calls to the analysis engine during the game
    searches_cut: int = 0  # endgame searches that ran out of budget (the guess fell back to heuristics)

    @property
    def fatal_guess(self) -> int | None:
        """1-based number of the guess that lost the game (the player only loses on a guess)."""
        return len(self.guesses) if not self.won and self.guesses else None

    def __repr__(self) -> str:
        """One line: the result, the moves and guesses counted (they are in ``moves``, ``guesses``)."""
        return (
            f"<GameRecord: {'won' if self.won else 'lost'} in {plural(len(self.moves), 'move')}, "
            f"{plural(len(self.guesses), 'guess')}, {plural(self.uncovered, 'cell')} uncovered, "
            f"3BV {self.bbbv}>"
        )


# --- why a move was made -------------------------------------------------------

#: Why the automatic player made a move, in the words ``minesat solve`` and the web app print.
REASONS: dict[Verdict, str] = {
    Verdict.FIRST: "first click",  # safe by the first-click rule
    Verdict.SAFE: "proven safe",
    Verdict.MINE: "proven mine",
    Verdict.GUESS: "guess",
}


@dataclass(frozen=True)
class Step:
    """One move of the automatic player: the move, its :class:`~minesat.verdict.Verdict`, and for a
    guess the mine probability the player saw."""

    move: Move
    verdict: Verdict
    probability: float | None = None

    @property
    def reason(self) -> str:
        """Why the move was made, in :data:`REASONS`' words (a verdict's own word past them)."""
        return REASONS.get(self.verdict, self.verdict.value)

    def describe(self) -> str:
        """The reason in words.

        >>> Step(Move.parse("C7"), Verdict.GUESS, 0.125).describe()
        'guess, mine probability 0.125'
        """
        if self.verdict is Verdict.GUESS and self.probability is not None:
            return f"guess, mine probability {self.probability:.4g}"
        return self.reason


# --- strategies ------------------------------------------------------------------


class Strategy(Protocol):
    """How to guess when the analysis proves nothing: what :func:`play_game` asks of a strategy.

    ``choose`` gets the position and its analysis (with exact probabilities,
    since the player always knows the total) and returns a covered, unflagged
    cell, one of ``analysis.unknown``. It must be deterministic: the same
    position gives the same cell. ``analyzer`` is the
    :class:`~minesat.analysis.Analyzer` the strategy keeps for its own questions
    (``best``'s look-ahead), which the game then shares, or ``None``;
    ``searches_cut`` counts its exact searches that ran out of budget.
    """

    name: str

    @property
    def analyzer(self) -> Analyzer | None: ...

    @property
    def searches_cut(self) -> int: ...

    def choose(self, position: Position, analysis: Analysis) -> Cell: ...


def _lowest(analysis: Analysis) -> tuple[float, list[Cell]]:
    """The lowest mine probability among unknown cells, and every cell within :data:`TIE` of it."""
    cells = analysis.unknown
    if not cells:
        raise InvalidValue("nothing to guess: the analysis has no uncertain cell")
    grid = analysis.probability
    # As mine_probability reads them, without a call a cell: without the total, a coin toss.
    probs = [COIN_TOSS if p is None else p for p in [grid[r][c] for r, c in cells]]
    best = min(probs)
    return best, [c for c, p in zip(cells, probs, strict=True) if p <= best + TIE]


class SafestCell:
    """Guess the cell least likely to hold a mine (interior cells included).

    Ties (probabilities within :data:`TIE`) go to the cell with the fewest
    neighbours on the board, corners first, then edges, then the rest; then to
    the first in row-major order. Fewer neighbours means a better chance of
    uncovering a zero and with it an opening (the classic advice to guess in
    corners). Measured on the same 5000 beginner and 300 intermediate layouts,
    this, plain row-major order, frontier-first and interior-first tie-breaks all
    won within 0.5 % of each other, inside the noise: ties are rare enough that
    the order matters little, so the simple, explainable rule stays.

    >>> p = Position.from_rows(["???", "???", "???"], mines=1)
    >>> a = Analysis(3, 3, 1, (), (), tuple(p.cells_in(-1)),
    ...              tuple((1 / 9,) * 3 for _ in range(3)), 1)
    >>> SafestCell().choose(p, a)
    (0, 0)
    """

    name = "safest"
    analyzer = None
    searches_cut = 0

    def choose(self, position: Position, analysis: Analysis) -> Cell:
        _, tied = _lowest(analysis)
        rows, cols = position.rows, position.cols
        return min(tied, key=lambda c: (_neighbour_count(c, rows, cols), c))


def _neighbour_count(cell: Cell, rows: int, cols: int) -> int:
    """How many neighbours ``cell`` has on the board: the rows and the columns it spans, less itself.

    >>> [_neighbour_count(c, 3, 4) for c in [(0, 0), (0, 1), (1, 1)]], _neighbour_count((0, 0), 1, 1)
    ([3, 5, 8], 0)
    """
    r, c = cell
    return (1 + (r > 0) + (r < rows - 1)) * (1 + (c > 0) + (c < cols - 1)) - 1


class SafestRowMajor:
    """Guess the cell least likely to hold a mine; ties go to the first in row-major order.

    The plain policy, kept as a baseline to measure tie-breaks against.
    """

    name = "safest-rowmajor"
    analyzer = None
    searches_cut = 0

    def choose(self, position: Position, analysis: Analysis) -> Cell:
        return _lowest(analysis)[1][0]


def _switched(name: str) -> Strategy:
    """``best`` with one piece switched, by its name (one that :func:`strategy_named` knows)."""
    strategy = strategy_named(name)
    if strategy is None:  # not met: STRATEGIES builds the names from DEFAULT_PIECES
        raise ValueError(f"unknown strategy {name!r}")
    return strategy


#: Strategies by the name the command line and the simulation use. ``best`` is
#: :class:`~minesat.guess.best.BestGuess`; ``best-no-PIECE`` switches one of its
#: pieces off and ``best-with-PIECE`` one of the others on, for experiments that
#: measure what each piece is worth.
STRATEGIES: dict[str, Callable[[], Strategy]] = {
    SafestCell.name: SafestCell,
    SafestRowMajor.name: SafestRowMajor,
    BestGuess.name: BestGuess,
    **{
        name: partial(_switched, name)
        for piece, on in DEFAULT_PIECES.items()
        for name in [f"best-{'no' if on else 'with'}-{piece}"]
    },
}

#: The strongest strategy; ``safest`` stays as the baseline.
DEFAULT_STRATEGY = BestGuess.name


def get_strategy(name: str) -> Strategy:
    """A fresh strategy from :data:`STRATEGIES`, or ``best`` with several pieces switched
    (``best-no-endgame-with-pseudo``); :class:`ValueError` names the known ones."""
    if name in STRATEGIES:
        return STRATEGIES[name]()
    if (strategy := strategy_named(name)) is not None:
        return strategy
    known = ", ".join(sorted(STRATEGIES))
    already = redundant_switches(name)
    hint = f"; {', '.join(already)}" if already else ""
    raise InvalidValue(f"unknown strategy {name!r} (known: {known}, and chains like best-no-A-with-B){hint}")


def is_strategy(name: str) -> bool:
    """True when :func:`get_strategy` knows ``name``."""
    return name in STRATEGIES or strategy_named(name) is not None


# --- the game loop -----------------------------------------------------------------

#: Where ``minesat solve`` starts by default (clipped to the board: :func:`default_start`).
DEFAULT_START: Cell = (3, 3)


def default_start(rows: int, cols: int) -> Cell:
    """The default first click, :data:`DEFAULT_START` clipped to a ``rows`` x ``cols`` board.

    >>> default_start(16, 30), default_start(2, 9)
    ((3, 3), (1, 3))
    """
    return min(DEFAULT_START[0], rows - 1), min(DEFAULT_START[1], cols - 1)


def check_start(layout: Layout, start: Cell, rule: FirstClick | str) -> FirstClick:
    """Raise :class:`ValueError` unless ``start`` is on the board and the layout obeys ``rule``.

    >>> check_start(Layout.from_rows(["*  ", "   "]), (0, 1), "opening")
    Traceback (most recent call last):
    ...
    minesat.errors.InvalidValue: the layout breaks the opening first-click rule at A2: mine at A1
    """
    rule = FirstClick(rule)
    if not on_board(start, layout.rows, layout.cols):
        raise InvalidValue(f"start {start} is off the {layout.rows}x{layout.cols} board")
    for cell in sorted(kept_clear(layout.rows, layout.cols, start=start, rule=rule)):
        if cell in layout.mines:
            raise InvalidValue(
                f"the layout breaks the {rule.value} first-click rule at {cell_name(start)}: "
                f"mine at {cell_name(cell)}"
            )
    return rule


class AnalysisEngine(Protocol):
    """What the game loop needs of an analysis engine: :meth:`Analyzer.analyze`'s signature.

    An engine may also offer ``proven(position) -> (safe, mine)``, the same two
    tuples as ``analyze(position).safe, .mine`` but cheaper; the loop then asks
    that first.
    """

    def analyze(self, position: Position, mines: int | None = None) -> Analysis: ...


def first_step(layout: Layout, start: Cell, rule: FirstClick) -> Step:
    """The first click, and why it is made: a guess only under the rule ``any`` (probability
    mines / cells); with no mine on the board the total proves every cell safe, whatever the rule.

    >>> first_step(Layout.from_rows(["*  ", "   "]), (1, 2), FirstClick.ANY).probability
    0.16666666666666666
    """
    if rule is FirstClick.ANY and layout.mine_count:
        return Step(Move(start), Verdict.GUESS, layout.mine_count / (layout.rows * layout.cols))
    return Step(Move(start), Verdict.FIRST if rule is not FirstClick.ANY else Verdict.SAFE)


def round_steps(
    position: Position, engine: AnalysisEngine | Analysis, strategy: Strategy | None = None
) -> list[Step]:
    """One round of the player on ``position``: every proven-safe cell to uncover, then every
    proven mine to flag; only when nothing is proven, the strategy's guess.

    ``engine`` analyses the position (its ``proven`` asked first when it has one, and the full
    analysis made only for a guess), or is the position's analysis, made already. Without a
    ``strategy`` a round that needs a guess is empty, as is one with nothing left to uncover.

    >>> from minesat.analysis import analyze
    >>> pos = Position.from_rows(["1?", "1?", "1?"], mines=1)
    >>> [str(step.move) for step in round_steps(pos, analyze(pos))]
    ['A2', 'C2', 'B2*']
    """
    analysis: Analysis | None = None
    if isinstance(engine, Analysis):
        analysis = engine
        safe, mine = analysis.safe, analysis.mine
    else:
        proven = getattr(engine, "proven", None)
        # Certainties first: an engine that can answer "what is proven?" without the
        # probabilities (Analyzer.proven) is asked that, and the full analysis runs only
        # when nothing is proven and the strategy needs it.
        safe, mine = proven(position) if proven is not None else ((), ())
        if not (safe or mine) and (proven is None or strategy is not None):
            analysis = engine.analyze(position)
            safe, mine = analysis.safe, analysis.mine
    if safe or mine:
        return [*map(_safe_step, safe), *map(_mine_step, mine)]
    if strategy is None or analysis is None or not analysis.unknown:
        return []
    return [guess_step(position, analysis, strategy)]


def guess_step(position: Position, analysis: Analysis, strategy: Strategy) -> Step:
    """The strategy's guess on ``position`` (nothing proven there), with its mine probability."""
    cell = strategy.choose(position, analysis)
    return Step(_move(cell, Action.UNCOVER), Verdict.GUESS, mine_probability(analysis, cell))


class Rounds:
    """The automatic player's moves on ``game``, round by round: ``for step in Rounds(...)``.

    Each round is :func:`round_steps` on the position as it stands: every proven-safe
    cell uncovered in order (one a zero has opened meanwhile is skipped), then every
    proven mine flagged; a guess only when nothing is proven. A step is yielded *before*
    it is played: whoever iterates plays it on ``game`` (as :func:`play_game` does, or
    through a judge, as the web app does) before taking the next. Without a
    ``strategy`` the steps stop where a guess is needed. ``analyses`` counts the
    positions analysed so far (one a round).

    >>> game = Game(Layout.from_rows(["*   ", "    ", "*  *"]))
    >>> game.uncover((0, 3)).value
    'valid'
    >>> for step in Rounds(game, Analyzer(), SafestCell()):
    ...     print(step.move, step.verdict.value, game.play(step.move).value)
    C2 safe valid
    C3 safe valid
    C1* mine valid
    C4* mine valid
    B1 safe solved
    """

    def __init__(self, game: Game, engine: AnalysisEngine, strategy: Strategy | None = None) -> None:
        self.game, self.engine, self.strategy = game, engine, strategy
        self.analyses = 0

    def __iter__(self) -> Iterator[Step]:
        game = self.game
        safe, playing = Verdict.SAFE, Status.PLAYING
        while not game.over:
            self.analyses += 1
            steps = round_steps(game.position, self.engine, self.strategy)
            if not steps:
                return
            cols = game.cols
            for step in steps:
                if step.verdict is safe:
                    row, col = step.move.cell
                    if game.state[row * cols + col] != COVERED:
                        continue  # opened by a zero since the round began
                yield step
                # Only an uncover can end the game (it wins, or a guess loses).
                if game.status is not playing:
                    return


def play_game(
    layout: Layout,
    start: Cell | str,
    *,
    strategy: Strategy | str | None = None,
    rule: FirstClick | str = FirstClick.OPENING,
    trace: list[Step] | None = None,
    analyzer: AnalysisEngine | None = None,
) -> GameRecord:
    """Play ``layout`` from ``start``: every proven move first, a guess when nothing is proven.

    The first click is a guess only under the rule ``any`` (probability
    mines / cells). ``trace``, when given, receives every :class:`Step`, the
    first click's (:func:`first_step`) and then those of :class:`Rounds`.
    The same layout, start, rule and strategy always give the same moves.
    ``analyzer`` defaults to the strategy's own :class:`~minesat.analysis.Analyzer`
    when it keeps one (``best`` does), else a fresh one; another engine (a
    benchmark's rival) can be put in its place.

    ``start`` is a cell or its name (``"D4"``), ``strategy`` a strategy or its name
    (``"safest"``, see :data:`STRATEGIES`). Raises :class:`ValueError` when ``start`` is off
    the board or the layout breaks the rule there.

    >>> lay = Layout.from_rows(["*  ", "   ", "   "])
    >>> record = play_game(lay, "A2", rule="any", strategy="safest")
    >>> [(str(g.move), g.probability, g.uncovered) for g in record.guesses]
    [('A2', 0.1111111111111111, 0)]
    """
    began = time.perf_counter()
    start = as_cell(start, "start")
    rule = check_start(layout, start, rule)
    if strategy is None or isinstance(strategy, str):
        strategy = get_strategy(DEFAULT_STRATEGY if strategy is None else strategy)
    if analyzer is None:
        # One per game: its caches make re-analysis incremental. A strategy that keeps its own
        # (best's look-ahead) shares it: the position after a guess was looked ahead at.
        analyzer = strategy.analyzer if strategy.analyzer is not None else Analyzer()
    game = Game(layout)
    moves: list[Move] = []
    guesses: list[Guess] = []
    rounds = Rounds(game, analyzer, strategy)
    # Every step is an uncover, or a flag on a proven mine, of a cell the rounds saw covered:
    # played straight on the game (Game.play's checks are for moves from outside).
    uncover, flag = game.uncover, game.flag
    # The first click, then the rounds (started only once the first click is played).
    for step in chain((first_step(layout, start, rule),), rounds):
        verdict, move = step.verdict, step.move
        if verdict is Verdict.MINE:
            flag(move.cell)
        else:
            if verdict is Verdict.GUESS:  # how far into the game it came: before it is played
                guesses.append(Guess(move, step.probability, game.uncovered))  # type: ignore[arg-type]  # a guess has one
            uncover(move.cell)
        moves.append(move)
        if trace is not None:
            trace.append(step)

    return GameRecord(
        won=game.status is Status.WON,
        moves=tuple(moves),
        guesses=tuple(guesses),
        uncovered=game.uncovered,
        bbbv=layout.bbbv(),
        seconds=time.perf_counter() - began,
        analyses=rounds.analyses,
        searches_cut=strategy.searches_cut,
    )


def next_step(position: Position, analysis: Analysis, strategy: Strategy | None = None) -> Step | None:
    """The move :func:`play_game` makes from ``position`` (with its ``analysis``), and why: the
    first step of its round there (:func:`round_steps`).

    A proven-safe cell first, then a proven mine to flag, else the strategy's
    guess (``best`` by default); ``None`` when nothing is left to uncover.

    >>> from minesat.analysis import analyze
    >>> pos = Position.from_rows(["1?", "??"], mines=1)
    >>> step = next_step(pos, analyze(pos))
    >>> str(step.move), step.verdict, step.probability
    ('A2', <Verdict.GUESS: 'guess'>, 0.3333333333333333)
    """
    if not (analysis.safe or analysis.mine or analysis.unknown):
        return None
    if strategy is None and not (analysis.safe or analysis.mine):
        strategy = get_strategy(DEFAULT_STRATEGY)  # made only for a guess
    return round_steps(position, analysis, strategy)[0]


@lru_cache(maxsize=1 << 16)
def _move(cell: Cell, action: Action) -> Move:
    """A move, remembered: a game makes the same few hundred again and again."""
    return Move(cell, action)


@lru_cache(maxsize=1 << 16)
def _safe_step(cell: Cell) -> Step:
    """Uncovering a proven safe cell, remembered as :func:`_move` (a step is frozen)."""
    return Step(_move(cell, Action.UNCOVER), Verdict.SAFE)


@lru_cache(maxsize=1 << 16)
def _mine_step(cell: Cell) -> Step:
    """Flagging a proven mine, remembered."""
    return Step(_move(cell, Action.FLAG), Verdict.MINE)


# --- the oracle ---------------------------------------------------------------------

#: Above this many distinct risky moves to compare, :func:`solve_oracle` only
#: tries the frontier, one cell per zero region, and one other numbered cell.
ORACLE_EXACT_LIMIT = 120


@dataclass(frozen=True)
class RiskyMove:
    """A move the oracle had to take without proof.

    ``probability`` is the mine probability a player who does not know the
    layout sees for the cell; ``uncovers`` counts the cells this move and the
    safe moves it makes possible uncover.
    """

    move: Move
    probability: float
    uncovers: int


def solve_oracle(
    layout: Layout,
    start: Cell,
    rule: FirstClick | str,
    *,
    limit: int = ORACLE_EXACT_LIMIT,
) -> list[RiskyMove]:
    """The risky moves a player who knows the layout must take (docs/commands/solve.md, ``--oracle``).

    The player makes every proven move whenever one exists. When none does,
    it compares every *risky move*: uncovering a covered cell that holds no
    mine but is not proven safe. It plays the one that, with the proven moves
    it makes possible, uncovers the most cells (ties: the first in row-major
    order). The first click counts as a risky move only under the rule ``any``:
    on ``puzzles/mines.dat`` from A1 every later move is proven, so the one
    risky move is the first click itself, which no rule protects in a classic
    ``.dat`` puzzle.

    Exact up to ``limit`` competing moves (cells of one zero region open the
    same cells, so they count once). Above it, only the moves that can start
    a chain are tried: cells next to an uncovered number, one cell per zero
    region, and the first other numbered cell in row-major order; an isolated
    numbered cell far from the frontier uncovers itself alone and rarely
    proves anything.

    Raises :class:`ValueError` when ``start`` is off the board, breaks the
    rule, or (rule ``any``) holds a mine.

    >>> lay = Layout.from_rows(["* ", "  "])
    >>> [(str(r.move), r.uncovers) for r in solve_oracle(lay, (1, 1), "safe")]
    [('A2', 1), ('B1', 1)]
    """
    rule = check_start(layout, start, rule)
    if start in layout.mines:
        raise InvalidValue(f"the oracle cannot start on the mine at {cell_name(start)}")
    analyzer = Analyzer()
    game = Game(layout)
    risky: list[RiskyMove] = []
    game.uncover(start)
    _settle(game, analyzer)
    if rule is FirstClick.ANY and layout.mine_count:  # with no mine the total proves it safe
        p = layout.mine_count / (layout.rows * layout.cols)
        risky.append(RiskyMove(Move(start), p, game.uncovered))

    while not game.over:
        analysis = analyzer.analyze(game.position)
        before = game.uncovered
        best: tuple[int, Cell, Game] | None = None
        for cell in _oracle_candidates(game, layout, limit):
            trial = game.copy()
            trial.uncover(cell)
            _settle(trial, analyzer)
            gain = trial.uncovered - before
            if best is None or gain > best[0]:
                best = (gain, cell, trial)
        assert best is not None  # a covered mine-free cell exists while the game is on
        gain, cell, game = best
        risky.append(RiskyMove(Move(cell), mine_probability(analysis, cell), gain))
    return risky


def _settle(game: Game, analyzer: Analyzer) -> None:
    """Make proven moves until none is left or the game is over: the player's rounds without a guess."""
    for step in Rounds(game, analyzer):
        game.play(step.move)


def _oracle_candidates(game: Game, layout: Layout, limit: int) -> list[Cell]:
    """The risky moves worth comparing, row-major; see :func:`solve_oracle`."""
    rows, cols, counts = layout.rows, layout.cols, layout.counts
    frontier: list[Cell] = []
    zeros: list[Cell] = []
    numbers: list[Cell] = []
    zero_seen: set[Cell] = set()
    for i, state in enumerate(game.state):
        cell = divmod(i, cols)
        if state != COVERED or cell in layout.mines:
            continue
        if counts[i] == 0:
            # Every cell of a zero region opens the same cells: try one.
            if cell not in zero_seen:
                zero_seen.update(_zero_region(cell, layout, game))
                zeros.append(cell)
        elif any(game[n] >= 0 for n in neighbours(cell, rows, cols)):
            frontier.append(cell)
        else:
            numbers.append(cell)
    if len(frontier) + len(zeros) + len(numbers) > limit:
        numbers = numbers[:1]
    return sorted(frontier + zeros + numbers)


def _zero_region(cell: Cell, layout: Layout, game: Game) -> set[Cell]:
    """The covered 8-connected zeros around a zero ``cell`` (itself included)."""
    rows, cols, counts = layout.rows, layout.cols, layout.counts
    region = {cell}
    stack = [cell]
    while stack:
        for n in neighbours(stack.pop(), rows, cols):
            if n not in region and counts[n[0] * cols + n[1]] == 0 and game[n] == COVERED:
                region.add(n)
                stack.append(n)
    return region
