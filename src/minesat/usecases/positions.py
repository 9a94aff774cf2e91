"""What a position proves, and what to do on it: the analysis within a budget, a cell explained,
the marks players use, the automatic player's move, a hint, perfect play, a copy's hidden cells.

The command line and the web app analyse alike (:func:`analyse_within`): one analyzer for every
board size, within a time and memory budget, past it what propagation proves and estimates.

>>> from minesat.board import Position
>>> position = Position.from_rows(["1?", "??"], mines=1)
>>> analyse_within(position, budget=Budget(time_limit=10.0)).probability[1]
(0.3333333333333333, 0.3333333333333333)
>>> best_step(position, analyse(position)).move.cell
(0, 1)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from minesat.analysis import Analysis, Analyzer, InconsistentPositionError, explain
from minesat.analysis.combine import LINEAR_WORK_PER_CELL
from minesat.analysis.engine import analyze_within, seconds_needed
from minesat.analysis.explain import Explanation, explain_json
from minesat.analysis.result import json_chunks
from minesat.board import FLAG, Action, Cell, Layout, Move, Position, cell_name
from minesat.errors import InvalidValue
from minesat.usecases.limits import SEARCH_BUDGET, Budget, resident_bytes
from minesat.verdict import Verdict

if TYPE_CHECKING:
    from minesat.perfect import PerfectResult, PositionResult, RankingCut, StrategyCount
    from minesat.player import Step

__all__ = [
    "BEST_GUESS_CELLS",
    "BYTES_PER_CELL",
    "MARKS_SECONDS",
    "Analysis",
    "Analyzer",
    "Explanation",
    "GuessRefused",
    "InconsistentPositionError",
    "analyse",
    "analyse_within",
    "analysis_json_chunks",
    "analysis_svg",
    "auto_guess",
    "best_step",
    "budget_analyzer",
    "budget_too_small",
    "explain",
    "explanation_json",
    "fork_layout",
    "hint",
    "marks",
    "move_answer",
    "perfect_from_position",
    "perfect_play",
    "ranking_cut",
    "strategy_wins",
    "unflagged_guess",
]

#: The fewest numbers behind a cell, and the object ``analyze --explain --json`` prints.
explanation_json = explain_json
#: The analysis as ``analyze --json`` writes it, a piece at a time.
analysis_json_chunks = json_chunks


# --- the analysis -----------------------------------------------------------------------------


def analyse(position: Position, mines: int | None = None, analyzer: Analyzer | None = None) -> Analysis:
    """The exact analysis of ``position`` (``mines``: the total, over the position's own), with
    ``analyzer``'s cache when given; :class:`InconsistentPositionError` when no layout fits."""
    return (analyzer or Analyzer()).analyze(position, mines)


def budget_analyzer() -> Analyzer:
    """The analyzer a budget is kept with, shared by the positions of one command: its exact
    integers give way to the close road (within 1e-9) where they would cost more than the
    board's size allows, so that the largest boards are weighed in time."""
    return Analyzer(exact_work_per_cell=LINEAR_WORK_PER_CELL)


def analyse_within(
    position: Position,
    mines: int | None = None,
    budget: Budget | None = None,
    *,
    analyzer: Analyzer | None = None,
    began: float | None = None,
    read: float | None = None,
) -> Analysis:
    """``position`` analysed within ``budget``'s time and memory (docs/commands/analyze.md, Past a
    budget), by ``analyzer`` (:func:`budget_analyzer` when none): past it, what propagation proves
    and estimated probabilities, ``exact`` false. ``began`` (a ``time.perf_counter()``): when
    the time started counting; ``read``: when the position's reading began."""
    return analyze_within(analyzer or budget_analyzer(), position, mines, budget, began, read)


#: About how many bytes an answer past a budget holds per cell of the board (the position, the
#: arrays of propagation and beliefs, the grid of probabilities and its JSON line), measured on
#: 1000x1000 positions: what a --max-memory must leave beside what the process already holds.
BYTES_PER_CELL = 400


def budget_too_small(budget: Budget, position: Position) -> str | None:
    """Why ``budget`` cannot hold even the answer past a budget for ``position`` (docs/commands/analyze.md:
    such a budget is refused, exit 2); ``None`` when it can.

    One rule for every size: the limit itself must hold what reading the board, propagating
    and writing the answer take (:func:`~minesat.analysis.engine.seconds_needed`); the 10 % +
    1 s allowed past it is for a busy machine, not part of the plan.

    >>> budget_too_small(Budget(max_memory=10**6), Position.from_rows(["1?"]))  # doctest: +ELLIPSIS
    'a 1x2 board needs more than the --max-memory of 1 MB (some ... MB)'
    >>> budget_too_small(Budget(time_limit=1.0), Position(1000, 1000, (-1,) * 10**6))
    'a 1000x1000 board needs a --time-limit of at least 5.2 s (to read it, propagate and write the answer)'
    >>> budget_too_small(Budget(time_limit=0.001), Position(160, 160, (-1,) * 25600))
    'a 160x160 board needs a --time-limit of at least 0.14 s (to read it, propagate and write the answer)'
    >>> budget_too_small(Budget(time_limit=0.01), Position(16, 30, (-1,) * 480)) is None
    True
    """
    cells = position.rows * position.cols
    board = f"a {position.rows}x{position.cols} board"
    if budget.time_limit is not None and budget.time_limit < (needed := seconds_needed(cells)):
        least = _rounded_up(needed)
        why = "to read it, propagate and write the answer"
        return f"{board} needs a --time-limit of at least {least:g} s ({why})"
    if budget.max_memory is None:
        return None
    needed = resident_bytes() + BYTES_PER_CELL * cells
    if needed <= budget.max_memory:
        return None
    return (f"{board} needs more than the --max-memory of "
            f"{budget.max_memory / 10**6:g} MB (some {needed / 10**6:.0f} MB)")


def _rounded_up(seconds: float) -> float:
    """``seconds`` rounded up to two significant digits (what a refusal names as the least limit).

    >>> _rounded_up(5.2), _rounded_up(0.1331), _rounded_up(0.0025)
    (5.2, 0.14, 0.0025)
    """
    scale = 10.0 ** (1 - math.floor(math.log10(seconds)))
    return math.ceil(round(seconds * scale, 6)) / scale


def analysis_svg(position: Position, analysis: Analysis, title: str) -> str:
    """The position with its analysis drawn in, as an SVG picture."""
    from minesat.svg import position_svg  # start-up: only --svg draws

    return position_svg(position, analysis, title=title)


# --- the marks and the automatic player's move --------------------------------------------------

#: Seconds the marks may spend looking for dead cells (beside the numbers first); past them the
#: answer says it is not complete.
MARKS_SECONDS = 2.0


def marks(
    position: Position,
    analysis: Analysis,
    analyzer: Analyzer,
    seconds: float = MARKS_SECONDS,
    cost: float = 0.0,
) -> dict[str, Any]:
    """The marks players use on a position: ``dead`` cells (undecided, and whatever they show
    teaches nothing: :func:`~minesat.guess.outcomes.dead_cells`), the ``fifty`` groups no play
    can avoid guessing (:func:`~minesat.guess.fifty.unavoidable_guesses`), and the ``safest``
    undecided cells (the lowest mine probability, ``safest_probability``; none without the total).
    ``complete`` is false when the search for dead cells stopped at its time limit (``cost``: the
    seconds the position's analysis took, what a first look at a cell may take).

    >>> position = Position.from_rows(["1??", "???"], mines=1)
    >>> analyzer = Analyzer()
    >>> found = marks(position, analyzer.analyze(position), analyzer)
    >>> found["dead"], found["safest"], found["safest_probability"], found["complete"]
    ([[0, 1], [1, 0], [1, 1]], [[0, 1], [1, 0], [1, 1]], 0.3333333333333333, True)
    """
    from minesat.guess import TIE  # start-up: the guessing code loads numpy
    from minesat.guess.fifty import unavoidable_guesses
    from minesat.guess.outcomes import dead_cells

    deadline = time.monotonic() + seconds
    dead, complete = dead_cells(analyzer, position, analysis, deadline=deadline, cost=cost)
    grid = analysis.probability
    known = [(p, cell) for cell in analysis.unknown if (p := grid[cell[0]][cell[1]]) is not None]
    low = min((p for p, _ in known), default=None)
    safest = [] if low is None else [list(cell) for p, cell in known if p <= low + TIE]
    fifty = unavoidable_guesses(position, analysis) if analysis.unknown else []
    return {"dead": [list(c) for c in dead], "fifty": [[list(c) for c in group] for group in fifty],
            "safest": safest, "safest_probability": low, "complete": complete}


#: Largest board (cells) on which the automatic player's guess is chosen for one position: its
#: look-ahead and long-term scan read every cell (7.5 s on a covered 300x300 board here, 104 s
#: on 1000x1000).
BEST_GUESS_CELLS = 100_000


class GuessRefused(InvalidValue):
    """A guess not chosen on a board past :data:`BEST_GUESS_CELLS` cells."""


def best_step(position: Position, analysis: Analysis) -> Step | None:
    """The automatic player's next move (:func:`~minesat.player.next_step`, its exact play held to
    :func:`~minesat.guess.best.best_within`'s limits, as for one move while a person waits);
    ``None`` when nothing is covered, or when a guess is needed and the total is unknown.
    :class:`GuessRefused` for a guess past :data:`BEST_GUESS_CELLS` cells.

    >>> big = Position.from_rows(["?" * 320] * 320, mines=1)
    >>> best_step(big, Analyzer().analyze(big))
    Traceback (most recent call last):
    ...
    minesat.usecases.positions.GuessRefused: a guess on a board of 102 400 cells is not chosen here ...
    """
    from minesat.guess.best import best_within  # start-up: the player loads numpy
    from minesat.player import next_step

    if not (analysis.safe or analysis.mine) and analysis.unknown:
        if analysis.mines is None:
            return None
        cells = position.rows * position.cols
        if cells > BEST_GUESS_CELLS:
            raise GuessRefused(f"a guess on a board of {_grouped(cells)} cells is not chosen here (the "
                               f"player reads every cell, up to {_grouped(BEST_GUESS_CELLS)}): the safest "
                               "cells are those of lowest mine probability")
    return next_step(position, analysis, best_within())


def _grouped(n: int) -> str:
    return f"{n:,}".replace(",", " ")


def move_answer(step: Step | None, analysis: Analysis) -> dict[str, Any]:
    """A step of the player as the API's object (``move``, ``reason``, ``probability``, ``text``), or
    why there is none (``move`` null) on the position ``analysis`` is of."""
    if step is None:
        why = "a guess is needed: give the total number of mines to choose one" if analysis.unknown else \
            "nothing is covered"
        return {"move": None, "reason": why, "probability": None}
    return {"move": str(step.move), "reason": step.reason, "probability": step.probability,
            "text": f"{step.move}: {step.describe() if step.verdict is Verdict.GUESS else step.reason}"}


def hint(
    position: Position, marks_seconds: float | None = None
) -> tuple[Analysis, dict[str, Any], dict[str, Any] | None]:
    """A game's hint: the analysis of what the player sees, flags read as notes, the best move (as
    :func:`move_answer` says it), and with ``marks_seconds`` the marks (:func:`marks`, its search
    for dead cells held to that many seconds; ``None`` without).

    The move is the player's from there, minus what the player's flags have done
    already: a proven mine flagged is not flagged again, a proven-safe cell under a
    flag is unflagged first, and a guess never goes to a flagged cell
    (:func:`unflagged_guess`).

    >>> analysis, best, _ = hint(Position.from_rows(["*1?", "11*"], mines=1))
    >>> analysis.mine, analysis.safe, best["move"]
    (((0, 0),), ((0, 2), (1, 2)), 'A3')
    >>> hint(Position.from_rows(["*1.", "11*"], mines=1))[1]["move"]
    'B3-'
    """
    from minesat.review import without_flags  # start-up: the judge loads numpy

    blank = without_flags(position)
    analyzer = Analyzer()
    began = time.monotonic()
    analysis = analyse(blank, None, analyzer)
    cost = time.monotonic() - began
    flagged = set(position.cells_in(FLAG))
    todo = replace(analysis, mine=tuple(c for c in analysis.mine if c not in flagged))
    step = best_step(blank, todo)
    best = move_answer(step, todo)
    if step is not None and step.move.cell in flagged:
        if step.verdict is Verdict.SAFE:
            unflag = str(Move(step.move.cell, Action.UNFLAG))
            best = {**best, "move": unflag, "text": f"{unflag}: proven safe, take the flag off"}
        else:
            best = unflagged_guess(blank, todo, flagged)
    if marks_seconds is None:
        return analysis, best, None
    return analysis, best, marks(blank, analysis, analyzer, seconds=marks_seconds, cost=cost)


def unflagged_guess(position: Position, analysis: Analysis, flagged: set[Cell]) -> dict[str, Any]:
    """The guess a hint names when the best one is on a cell the player flagged: the best of the
    cells not flagged (the player's choice among them, else the safest of them); none when every
    undecided cell is flagged.

    >>> position = Position.from_rows(["1?", "??"], mines=1)
    >>> analysis = Analyzer().analyze(position)
    >>> unflagged_guess(position, analysis, {(0, 1)})["move"]
    'B1'
    >>> unflagged_guess(position, analysis, {(0, 1), (1, 0), (1, 1)})["move"] is None
    True
    """
    from minesat.guess import mine_probability  # start-up: the guessing code loads numpy
    from minesat.player import REASONS

    left = tuple(c for c in analysis.unknown if c not in flagged)
    if not left:
        return {"move": None, "reason": "every undecided cell is flagged: take a flag off to go on",
                "probability": None}
    narrowed = replace(analysis, unknown=left)
    step = best_step(position, narrowed)
    if step is not None and step.move.cell not in flagged:
        return move_answer(step, narrowed)
    p, cell = min((mine_probability(analysis, c), c) for c in left)
    move = cell_name(cell)
    return {"move": move, "reason": REASONS[Verdict.GUESS], "probability": p,
            "text": f"{move}: guess, mine probability {p:.4g} (the safest cell not flagged)"}


def auto_guess(position: Position, strategy: str, limited: bool = False) -> tuple[Cell, float | None]:
    """The guess the automatic player makes on ``position`` (nothing proven there) with
    ``strategy``, and its mine probability, chosen as :func:`~minesat.player.play_game` chooses
    it. ``limited``: with its exact play held to :func:`~minesat.guess.best.best_within`'s limits.

    >>> auto_guess(Position.from_rows(["1?", "??"], mines=1), "best")
    ((0, 1), 0.3333333333333333)
    """
    from minesat.guess.best import best_within  # start-up: the player loads numpy
    from minesat.player import get_strategy, guess_step

    analysis = analyse(position)
    step = guess_step(position, analysis, best_within() if limited else get_strategy(strategy))
    return step.move.cell, step.probability


# --- perfect play --------------------------------------------------------------------------------


def perfect_from_position(
    position: Position,
    *,
    strategies: Sequence[str] = ("best",),
    budget: Budget = SEARCH_BUDGET,
    progress: Callable[[int, int, int], None] | None = None,
) -> PositionResult:
    """Perfect play from ``position`` (its total known): the exact chance to win, every move
    ranked, each strategy's move (:func:`minesat.perfect.perfect_from_position`). Past
    ``budget``, a :class:`~minesat.errors.PastBudget` (:func:`ranking_cut` says what was done)."""
    from minesat.perfect import perfect_from_position as search  # start-up: the search loads numpy

    return search(position, strategies=strategies, budget=budget, progress=progress)


def ranking_cut(err: BaseException) -> RankingCut | None:
    """What a search from a position had done when its budget ran out (the exact chance, the moves
    ranked), when ``err`` says; ``None`` for any other error."""
    from minesat.perfect import RankingCut  # start-up: the search loads numpy

    return err if isinstance(err, RankingCut) else None


def perfect_play(
    rows: int,
    cols: int,
    mines: int,
    *,
    rule: str,
    start: Cell | None,
    budget: Budget = SEARCH_BUDGET,
    progress: Callable[[int, int, int], None] | None = None,
    workers: int = 1,
    scheduler: str | None = None,
) -> PerfectResult:
    """Perfect play on a board from its first click (every start tried when ``start`` is
    ``None``): :func:`minesat.perfect.perfect_play`."""
    from minesat.perfect import perfect_play as search  # start-up: the search loads numpy

    return search(rows, cols, mines, rule=rule, start=start, budget=budget, progress=progress,
                  workers=workers, scheduler=scheduler)


def strategy_wins(
    rows: int,
    cols: int,
    mines: int,
    *,
    rule: str,
    start: Cell,
    strategy: str,
    budget: Budget,
    progress: Callable[[int, int, int], None] | None = None,
    began: float | None = None,
) -> StrategyCount:
    """How many of the board's layouts ``strategy`` wins from ``start``, counted exactly."""
    from minesat.perfect import strategy_wins as count  # start-up: the search loads numpy

    return count(rows, cols, mines, rule=rule, start=start, strategy=strategy, progress=progress,
                 budget=budget, began=began)


# --- a copy of a game ---------------------------------------------------------------------------


def fork_layout(
    position: Position, mines: int, seed: int, safe: Sequence[Cell], seconds: float | None = None
) -> Layout:
    """The hidden layout of a copy of a game in progress: drawn uniformly from every layout of
    ``mines`` mines that shows ``position``'s numbers and leaves the ``safe`` cells (what the
    first-click rule kept clear) unmined, the player's flags read as nothing, from ``seed``
    (:func:`~minesat.analysis.sample.sample_layout`), within ``seconds``. Nothing of the game's own
    layout goes in: the copy tells nothing of it.

    >>> fork_layout(Position.from_rows(["1?", "??"]), 1, 3, []).mines <= {(0, 1), (1, 0), (1, 1)}
    True
    """
    from minesat.analysis.sample import sample_layout  # start-up: only a copy draws

    return sample_layout(position, mines, seed=seed, safe=safe, budget=Budget(time_limit=seconds))
