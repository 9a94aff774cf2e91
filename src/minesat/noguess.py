"""No-guess boards: layouts won from the start cell by proof alone, and how to draw them.

:func:`solve_by_proof` is the check. From the start cell it asks the complete
analysis (:class:`~minesat.analysis.Analyzer`, SAT classification and exact
counting with the total mine count) what the position proves, makes *every*
proven move, and repeats until the board is solved or nothing is proven. The
analysis is complete, so the fixed point does not depend on the order of the
moves: a layout it does not solve cannot be won without a guess by anyone.

>>> lay = Layout.from_rows(["*  ", "   ", "   "])
>>> solve_by_proof(lay, (2, 2)).solved
True
>>> solve_by_proof(Layout.from_rows(["* ", "  "]), (1, 1), rule="safe").solved
False

:func:`generate_no_guess` draws such layouts in two ways. **Rejection** draws
uniform layouts under the first-click rule and keeps the first one the check
solves: the result is uniform over no-guess layouts. Where they are too rare
for that (dense boards), **repair** follows Simon Tatham's ``mines.c``: when the
check gets stuck, pick a revealed number whose covered neighbours it would like
to open, move the mines out of them to covered cells elsewhere (far from what
is revealed, when there is room), and check again; the result is no longer
uniform. Generation calls the analysis; the analysis knows nothing of it.

>>> board = generate_no_guess(9, 9, 10, start=(3, 3), rule="opening", seed=5)
>>> board.method.value, solve_by_proof(board.layout, (3, 3)).solved
('rejection', True)
"""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from minesat.analysis import Analysis, Analyzer
from minesat.board import COVERED, FLAG, Cell, Layout, Position, neighbour_table
from minesat.budget import Budget, OverBudget, watching
from minesat.errors import InvalidValue, MinesatError
from minesat.game import Game, Status
from minesat.generate import BoardSpec, FirstClick, check_mine_count, generate_layout, kept_clear
from minesat.words import plural

__all__ = [
    "MAX_TRIES",
    "REJECTION_TRIES",
    "REPAIR_STEPS",
    "GeneratedBoard",
    "Method",
    "NoGuessBoard",
    "NoGuessError",
    "NoGuessTimeout",
    "ProofResult",
    "generate_boards",
    "generate_no_guess",
    "solve_by_proof",
]

#: Layouts drawn by rejection before a board falls back to repair. On expert
#: (opening at 3,3) about one layout in six is no-guess, so 100 tries fail once
#: in 10**8 boards; by 120 mines on 16x30 rejection finds none in hundreds.
REJECTION_TRIES = 100

#: Repairs (moves of mines) allowed on one layout before a fresh one is drawn.
REPAIR_STEPS = 400

#: Layouts checked per board, rejection and repair together, before the request
#: is given up: about a minute on 16x30 when nothing can be found.
MAX_TRIES = 3000


class Method(enum.StrEnum):
    """How a no-guess layout was drawn."""

    REJECTION = "rejection"  # uniform over no-guess layouts
    REPAIR = "repair"  # mines moved until the check passes: not uniform


class NoGuessError(MinesatError, ValueError):
    """No no-guess layout was found within the budget: the request is impossible or too hard;
    ``tries`` layouts were checked."""

    def __init__(self, message: str, tries: int = 0, *, advice: str | None = None) -> None:
        super().__init__(message, advice=advice)
        self.tries = tries


@dataclass(frozen=True)
class ProofResult:
    """How far proof alone gets on a layout.

    ``state`` is the final position's cells (row-major, as :class:`~minesat.game.Game`
    keeps them): what was uncovered and flagged when the check stopped.
    ``rounds`` counts calls to the full analysis (the local rules run in between).
    """

    solved: bool
    state: tuple[int, ...]
    rounds: int


def solve_by_proof(
    layout: Layout,
    start: Cell,
    *,
    rule: FirstClick | str = FirstClick.OPENING,
    analyzer: Analyzer | None = None,
    deadline: float | None = None,
) -> ProofResult:
    """Play ``layout`` from ``start`` making only proven moves; solved means no guess was needed.

    Under the rule ``any`` the start cell itself is not known to be safe, but it
    is where the game begins: a layout with a mine there is not solved.
    ``analyzer`` may be shared between calls (on boards of any size): its cache
    makes re-checking a slightly changed layout cheap. Past ``deadline`` (a
    ``time.monotonic()``, read as the local rules go and within each analysis) it raises
    :class:`TimeoutError`: one check of a 500x500 layout takes seconds.
    """
    analyzer = analyzer if analyzer is not None else Analyzer()
    game = Game(layout)
    table = neighbour_table(layout.rows, layout.cols)
    rounds = 0
    pending: set[int] = set()
    _check_deadline(deadline)  # before the first click reads the layout's numbers: a second on 1000x1000
    _uncover(game, start, table, pending)
    while not game.over:
        # The two local rules first: they are proofs too, and cost far less than an
        # analysis. Making proven moves in any order reaches the same fixed point
        # (a cell proven in a position stays proven once more is uncovered), so
        # they change how fast the check is, never what it says.
        _local_rules(game, table, pending, deadline)
        if game.over:
            break
        _check_deadline(deadline)
        analysis = _analyze(analyzer, game.position, deadline)
        rounds += 1
        if not (analysis.safe or analysis.mine):
            break
        for cell in analysis.safe:
            _uncover(game, cell, table, pending)
        for cell in analysis.mine:
            _flag(game, cell, table, pending)
    return ProofResult(game.status is Status.WON, tuple(game.state), rounds)


def _uncover(game: Game, cell: Cell, table: tuple[tuple[int, ...], ...], pending: set[int]) -> None:
    """Uncover a proven-safe cell; every cell it opens, and the numbers beside them, are re-examined."""
    i = cell[0] * game.cols + cell[1]
    state = game.state
    if state[i] != COVERED:
        return
    game.uncover(cell)
    pending.add(i)
    pending.update(table[i])
    if state[i] == 0:
        # A zero opened its whole region of zeros, all covered until now (a zero beside it
        # would have opened it), and their border: found from the zero, not by comparing the
        # board before and after (a scan of the whole board at every opening).
        region, seen = [i], {i}
        while region:
            for j in table[region.pop()]:
                if j not in seen:
                    seen.add(j)
                    pending.add(j)
                    pending.update(table[j])
                    if state[j] == 0:
                        region.append(j)


def _flag(game: Game, cell: Cell, table: tuple[tuple[int, ...], ...], pending: set[int]) -> None:
    game.flag(cell)
    pending.update(table[cell[0] * game.cols + cell[1]])


def _analyze(analyzer: Analyzer, position: Position, deadline: float | None) -> Analysis:
    """The analysis of ``position``, given up past ``deadline`` (:class:`TimeoutError`) even in the
    middle: one exact count of a 500x500 position takes seconds. The analysis reads the clock at
    every long step (:func:`~minesat.budget.checkpoint`); stopped midway, the analyzer
    forgets what it held (a model half updated must not be read again)."""
    if deadline is None:
        return analyzer.analyze(position)
    left = max(0.0, deadline - time.monotonic())
    try:
        with watching(Budget(time_limit=left).clock()):
            return analyzer.analyze(position)
    except OverBudget:
        analyzer.forget()
        raise TimeoutError from None


def _check_deadline(deadline: float | None) -> None:
    """Raise :class:`TimeoutError` past ``deadline`` (a ``time.monotonic()``; ``None``: no limit)."""
    if deadline is not None and time.monotonic() > deadline:
        raise TimeoutError


#: Numbers the local rules look at between two readings of the clock (a few milliseconds' work).
_RULES_PER_CLOCK = 1024


def _local_rules(
    game: Game, table: tuple[tuple[int, ...], ...], pending: set[int], deadline: float | None = None
) -> None:
    """Apply the local rules to the numbers in ``pending`` until none applies.

    A number whose flags already match it makes its other covered neighbours
    safe; a number that needs every covered neighbour makes them all mines.
    On a large board this is most of a check's work: past ``deadline`` it raises
    :class:`TimeoutError`, the clock read every :data:`_RULES_PER_CLOCK` numbers.
    """
    state, cols = game.state, game.cols
    steps = 0
    while pending and not game.over:
        steps += 1
        if steps % _RULES_PER_CLOCK == 0:
            _check_deadline(deadline)
        i = pending.pop()
        number = state[i]
        if number <= 0:
            continue  # covered, flagged, or a zero (whose neighbours are all open)
        covered = [j for j in table[i] if state[j] == COVERED]
        if not covered:
            continue
        need = number - sum(1 for j in table[i] if state[j] == FLAG)
        if need == 0:
            for j in covered:
                _uncover(game, divmod(j, cols), table, pending)
        elif need == len(covered):
            for j in covered:
                _flag(game, divmod(j, cols), table, pending)


@dataclass(frozen=True)
class NoGuessBoard:
    """A no-guess layout, how it was drawn, and how many layouts were checked to find it."""

    layout: Layout
    method: Method
    tries: int


def generate_no_guess(
    rows: int,
    cols: int,
    mines: int,
    *,
    start: Cell,
    rule: FirstClick | str = FirstClick.OPENING,
    seed: int | None = None,
    rejection_tries: int = REJECTION_TRIES,
    max_tries: int = MAX_TRIES,
    repair_steps: int = REPAIR_STEPS,
    analyzer: Analyzer | None = None,
    seconds: float | None = None,
    progress: Callable[[int], None] | None = None,
    deadline: float | None = None,
) -> NoGuessBoard:
    """A layout won from ``start`` without a guess, by rejection when it finds one, else by repair.

    ``rejection_tries`` layouts are drawn first (0: repair at once; equal to
    ``max_tries``: rejection only). Then layouts are repaired, ``repair_steps``
    at most each, until ``max_tries`` layouts in all have been checked (every
    repair step re-checks its layout and counts as a try). Deterministic: the
    same arguments give the same board. Raises :class:`NoGuessError` when the
    budget runs out, :class:`NoGuessTimeout` past ``seconds`` of wall time (the clock
    is read after every try, as the local rules go within one, and at every long step
    of each analysis; what is left undivided, drawing a layout and reading its numbers,
    takes about a second on 1000x1000).
    ``progress`` is called with the number of layouts checked after each.
    ``deadline``, a ``time.monotonic()``, is when to stop instead of ``seconds`` from now (the
    deadline of a set, shared by its boards); ``seconds`` then names the limit in the message.

    >>> try:
    ...     generate_no_guess(9, 9, 70, start=(4, 4), seed=1, max_tries=5)
    ... except NoGuessError as err:
    ...     print(err)  # doctest: +ELLIPSIS
    no no-guess 9x9 layout ... found in 5 tries; allow more tries (max_tries=) or place fewer mines
    """
    check_mine_count(rows, cols, mines, start=start, rule=rule)
    rule = FirstClick(rule)
    if mines >= rows * cols:  # only under the rule "any": the start cell is a mine in every layout
        raise NoGuessError(
            f"no no-guess {rows}x{cols} layout with {plural(mines, 'mine')}: every cell holds a mine, "
            f"so the first click at {start[0]},{start[1]} loses; place fewer mines"
        )
    rng = random.Random(seed)
    analyzer = analyzer if analyzer is not None else Analyzer()
    budget = _Budget(seconds, progress, rows, cols, mines, deadline)
    tries = 0
    try:
        for _ in range(min(rejection_tries, max_tries)):
            layout = generate_layout(rows, cols, mines, start=start, rule=rule, rng=rng)
            tries += 1
            if solve_by_proof(layout, start, rule=rule, analyzer=analyzer, deadline=budget.deadline).solved:
                return NoGuessBoard(layout, Method.REJECTION, tries)
            budget.check(tries)
        while tries < max_tries:
            layout = generate_layout(rows, cols, mines, start=start, rule=rule, rng=rng)
            found, checked = _repair(
                layout, start, rule, rng, min(repair_steps, max_tries - tries), analyzer, budget, tries
            )
            tries += checked
            if found is not None:
                return NoGuessBoard(found, Method.REPAIR, tries)
    except TimeoutError:  # in the middle of a check: the layouts finished before it are the tries
        raise budget.late(tries) from None
    raise NoGuessError(
        f"no no-guess {rows}x{cols} layout with {plural(mines, 'mine')} from {start[0]},{start[1]} "
        f"({rule.value} first click) found in {plural(tries, 'try')}", tries,
        advice="allow more tries ({max_tries}) or place fewer mines",
    )


class NoGuessTimeout(NoGuessError, OverBudget):
    """No no-guess layout was found within the wall time given (``limit`` seconds, the parameter
    ``seconds``); ``tries`` layouts were checked."""

    what = "time"
    parameter = "seconds"
    templated = False

    def __init__(self, message: str, tries: int, limit: float | None = None) -> None:
        NoGuessError.__init__(self, message, tries)
        self.spent, self.limit = limit, limit


class _Budget:
    """The wall time a search for a no-guess layout may take, and whom to tell of each try."""

    def __init__(
        self, seconds: float | None, progress: Callable[[int], None] | None, rows: int, cols: int, mines: int,
        deadline: float | None = None,
    ) -> None:
        if deadline is None and seconds is not None:
            deadline = time.monotonic() + seconds
        self.deadline = deadline
        self.seconds, self.progress = seconds, progress
        self.board = f"{rows}x{cols} board with {plural(mines, 'mine')}"

    def check(self, tries: int) -> None:
        """After each layout checked: report it, and stop past the deadline."""
        if self.progress is not None:
            self.progress(tries)
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise self.late(tries)

    def late(self, tries: int) -> NoGuessTimeout:
        """The error past the deadline, ``tries`` layouts checked."""
        said = f"no no-guess {self.board} found within {self.seconds:g} s ({plural(tries, 'layout')} tried)"
        return NoGuessTimeout(said, tries, self.seconds)


def _repair(
    layout: Layout,
    start: Cell,
    rule: FirstClick,
    rng: random.Random,
    steps: int,
    analyzer: Analyzer,
    budget: _Budget,
    tried: int,
) -> tuple[Layout | None, int]:
    """Move mines until proof alone solves ``layout``; ``(layout or None, layouts checked)``.

    Each step re-checks from the start: moving a mine changes numbers already
    revealed, so earlier proofs may no longer hold. The shared analyzer's cache
    keeps the parts of the board that did not change cheap. ``budget`` is told of
    each check, ``tried`` the layouts checked before this one.
    """
    rows, cols = layout.rows, layout.cols
    table = neighbour_table(rows, cols)
    clear = {r * cols + c for r, c in kept_clear(rows, cols, start=start, rule=rule)}
    if rule is FirstClick.ANY:
        clear.add(start[0] * cols + start[1])  # the check starts there: it must hold no mine
    mines = {r * cols + c for r, c in layout.mines}
    if mines & clear:
        # Rule "any" with a mine on the start cell: move it, as the first click must survive.
        for i in sorted(mines & clear):
            mines.discard(i)
            mines.add(rng.choice([j for j in range(rows * cols) if j not in mines and j not in clear]))
    for checked in range(1, steps + 1):
        current = Layout(rows, cols, frozenset(divmod(i, cols) for i in mines))
        result = solve_by_proof(current, start, rule=rule, analyzer=analyzer, deadline=budget.deadline)
        if result.solved:
            return current, checked
        budget.check(tried + checked)
        if not _perturb(result.state, mines, clear, table, rng):
            return None, checked
    return None, steps


@dataclass(frozen=True)
class GeneratedBoard:
    """Board ``index`` of a generated set, drawn from ``seed``; ``method`` and ``tries`` for no-guess."""

    index: int  # "game" in the board set's line
    seed: int
    layout: Layout
    method: Method | None = None
    tries: int | None = None

    def record(self) -> dict[str, object]:
        """The extra keys of its board-set line."""
        # The seed as digits: game seeds run past 2^53, where JSON readers round a number.
        extra: dict[str, object] = {"game": self.index, "seed": str(self.seed)}
        if self.method is not None:
            extra.update(method=self.method.value, tries=self.tries)
        return extra


def generate_boards(
    spec: BoardSpec,
    count: int,
    *,
    seed: int = 0,
    no_guess: bool = False,
    rejection_tries: int = REJECTION_TRIES,
    max_tries: int = MAX_TRIES,
    seconds: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[GeneratedBoard]:
    """Boards ``0 .. count-1`` of a seeded set on the board ``spec``, one at a time
    (a board set, docs/boardsets.md).

    Board *i* is drawn from :meth:`BoardSpec.game_seed <minesat.generate.BoardSpec.game_seed>`
    of the run's ``seed`` and *i*, so without ``no_guess`` it is exactly the layout ``simulate``
    plays as game *i* with the same options, and with it, it depends on nothing else.
    With ``no_guess``, ``seconds`` bounds the wall time of the whole set
    (:class:`NoGuessTimeout` past it, a try at most later) and ``progress`` is
    told ``(board, layouts tried for it)`` after each layout checked.

    >>> spec = BoardSpec(9, 9, 10, start="D4")
    >>> [b.layout == spec.layout(seed=b.seed) for b in generate_boards(spec, 2)]
    [True, True]
    """
    spec.check()
    if spec.start is None:
        raise InvalidValue("a board set needs a start: the first click keeps the rule's cells clear",
                           parameter="start")
    analyzer = Analyzer() if no_guess else None
    deadline = None if seconds is None else time.monotonic() + seconds
    for index in range(count):
        board_seed = spec.game_seed(seed, index)
        if not no_guess:
            yield GeneratedBoard(index, board_seed, spec.layout(seed=board_seed))
            continue
        told = None if progress is None else partial(progress, index)
        found = generate_no_guess(
            spec.rows, spec.cols, spec.mines, start=spec.start, rule=spec.rule, seed=board_seed,
            rejection_tries=rejection_tries, max_tries=max_tries, analyzer=analyzer,
            seconds=seconds, deadline=deadline, progress=told,
        )
        yield GeneratedBoard(index, board_seed, found.layout, found.method, found.tries)


def _perturb(
    state: tuple[int, ...],
    mines: set[int],
    clear: set[int],
    table: tuple[tuple[int, ...], ...],
    rng: random.Random,
) -> bool:
    """One repair step on a stuck position (``mines`` is changed in place); False if none is possible.

    Choose a revealed number whose covered neighbours hold the fewest mines (the
    smallest change; ties at random) and *clear* them: its mines go to covered
    cells that touch nothing revealed, so the number becomes its flags and the
    check can open all its neighbours. Without room there, they go to other
    covered cells. Without room at all (a nearly full board), *fill* instead:
    bring mines from elsewhere until every covered neighbour is a mine, which
    the number then proves.
    """
    unknown = [i for i, s in enumerate(state) if s == COVERED]
    revealed = [i for i, s in enumerate(state) if s >= 0]
    touching = {j for i in revealed for j in table[i] if state[j] == COVERED}
    interior = [i for i in unknown if i not in touching and i not in clear]
    best: list[tuple[int, list[int]]] = []
    fewest = None
    for i in revealed:
        around = [j for j in table[i] if state[j] == COVERED]
        if not around:
            continue
        held = sum(1 for j in around if j in mines)
        if fewest is None or held < fewest:
            fewest, best = held, [(i, around)]
        elif held == fewest:
            best.append((i, around))
    if not best:
        return False
    _, around = rng.choice(best)
    targets = set(around)
    moving = [j for j in around if j in mines]
    free_far = [j for j in interior if j not in mines]
    free_near = [
        j for j in unknown if j not in mines and j not in targets and j not in clear and j in touching
    ]
    if len(free_far) + len(free_near) >= len(moving):
        rng.shuffle(free_far)
        rng.shuffle(free_near)
        places = (free_far + free_near)[: len(moving)]
        mines.difference_update(moving)
        mines.update(places)
        return True
    # Fill: every covered neighbour a mine, the mines taken from covered cells elsewhere.
    empty = [j for j in around if j not in mines]
    donors = [j for j in unknown if j in mines and j not in targets and state[j] != FLAG]
    if len(donors) < len(empty):
        return False
    rng.shuffle(donors)
    mines.difference_update(donors[: len(empty)])
    mines.update(empty)
    return True
