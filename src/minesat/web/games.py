"""Games played in the browser: the mines stay here, the page sees what a player sees.

A :class:`GameSession` is one game: its size, first-click rule and seed (or a
given layout), and a :class:`~minesat.review.Reviewer` that plays each move
and judges it on the position before it (the same judge as ``minesat
replay``), so the page can say at once what a guess risked. The layout is
drawn at the first uncover, from the seed, as :class:`~minesat.game.Game`
draws it (a no-guess board is made there too, the clicked cell its start).
Flags placed before the first uncover are kept and played just after the
board is drawn.

Until the game is over, nothing it says depends on the hidden layout beyond
what the player sees (docs/commands/serve.md, Play): a flag is judged on the numbers alone
(a proven mine; *wrong* only on a proven-safe cell; else unproven, with its
probability), the layout is sent only at the end, and so is a seed the server
drew (a seed the player gave is theirs). The game keeps its log (each move and
what was said of it) and its clock, so that a page reopening it by its id
shows both.

The automatic player can take over at any move (:meth:`GameSession.auto_step`):
it plays the player's own rounds (:class:`~minesat.player.Rounds`, as
:func:`~minesat.player.play_game` does), every proven move of a round before the
next round, and asks for a guess only when nothing is proven.

A game is kept whole in plain data (:meth:`GameSession.record`, what
:mod:`.keeper` stores) and made again from it (:meth:`GameSession.restore`), its
moves' judgements as they were said, so a restart loses nothing.

>>> game = GameSession(4, 4, 1, rule="opening", seed=7)
>>> game.play("A1").verdict.value, game.state()["status"], "mine_cells" in game.state()
('first', 'playing', False)
>>> game.state()["seed"], [entry["text"] for entry in game.log]
('7', ['A1: first click'])
>>> again = GameSession.restore(game.record())
>>> again.log == game.log, again.state()["cells"] == game.state()["cells"]
(True, True)
"""

from __future__ import annotations

import dataclasses
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from minesat.board import (
    COVERED,
    FLAG,
    Action,
    Cell,
    Layout,
    Move,
    Position,
    cell_name,
    neighbour_table,
    parse_cell,
)
from minesat.errors import InvalidValue
from minesat.stats import percent
from minesat.usecases import FirstClick
from minesat.usecases.session import (
    DEFAULT_STRATEGY,
    REASONS,
    Analyzer,
    ReviewedMove,
    Reviewer,
    Rounds,
    Status,
    Step,
    bbbv_solved,
    check_mine_count,
    default_start,
    describe,
    explain,
    generate_layout,
    kept_clear,
    without_flags,
)
from minesat.verdict import RISKY, Verdict
from minesat.words import plural

__all__ = [
    "AUTO_PLAYER",
    "AUTO_STRATEGY",
    "CHANCES_CELLS",
    "MAX_PLAY_SIDE",
    "MAX_SEED_DIGITS",
    "PREFLAG",
    "PROOF_NODES",
    "AutoStep",
    "GameChanged",
    "GameError",
    "GameSession",
    "check_startable",
    "last_json",
    "log_entry",
    "preflag_json",
    "read_seed",
    "step_json",
]

#: Largest side of a board played in the browser (a bigger grid is no game on a screen).
MAX_PLAY_SIDE = 100

#: Largest board (cells) whose guesses are compared with the best move while the game is played:
#: on bigger ones that search took up to 4 s a guess (a 100x100 endgame); the review at the end
#: has the comparison all the same.
CHANCES_CELLS = 1000

#: The strategy the automatic player guesses with (``minesat solve``'s default).
AUTO_STRATEGY = DEFAULT_STRATEGY

#: Digits a seed may have (a seed the server draws has at most 19).
MAX_SEED_DIGITS = 40

#: The search for the fewest numbers behind a move of the automatic player stops after this many
#: nodes and gives an irreducible proof instead (:func:`~minesat.analysis.explain.explain`): a
#: long chain early in an expert game could otherwise take minutes.
PROOF_NODES = 5000

#: Who chose the move a guess is compared with (``describe``'s ``player``), in the game's words.
AUTO_PLAYER = "the automatic player"


class GameError(ValueError):
    """A move or a game the rules refuse; the message says why (the API answers 409 or 400)."""


class GameChanged(GameError):
    """Another move was played while the automatic player chose its guess."""


def read_seed(value: object) -> int | None:
    """A seed as the page sends it: a string of digits, or a whole number (``None``: none given).

    A seed is sent back as a string: JavaScript's numbers lose digits past 2**53.

    >>> read_seed("8148575614706997442"), read_seed(12), read_seed(None)
    (8148575614706997442, 12, None)
    >>> read_seed("12x")
    Traceback (most recent call last):
    ...
    minesat.web.games.GameError: seed must be a whole number >= 0 (digits), not '12x'
    """
    if value is None:
        return None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= MAX_SEED_DIGITS:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**MAX_SEED_DIGITS:
        return value
    raise GameError(f"seed must be a whole number >= 0 (digits), not {value!r}")


def check_startable(rows: int, cols: int, mines: int, *, rule: FirstClick) -> None:
    """Refuse a game no first click can start: the mines must fit outside what the rule keeps
    clear around some cell (a corner keeps the fewest).

    >>> check_startable(9, 9, 77, rule=FirstClick.OPENING)
    >>> check_startable(9, 9, 80, rule=FirstClick.OPENING)
    Traceback (most recent call last):
    ...
    minesat.web.games.GameError: 80 mines do not fit on a 9x9 board under the opening rule: at most 77 ...
    """
    check_mine_count(rows, cols, mines)
    free = rows * cols - len(kept_clear(rows, cols, start=(0, 0), rule=rule))
    if mines > free:
        where = " (the first click in a corner)" if rule is FirstClick.OPENING else ""
        board = f"a {rows}x{cols} board under the {rule.value} rule"
        raise GameError(f"{mines} mines do not fit on {board}: at most {free}{where}")


@dataclass(frozen=True)
class AutoStep:
    """A move of the automatic player and its verdict (:attr:`Verdict.UNFLAG` for a flag of the
    player's that the numbers do not prove, taken off); for a proven move the fewest numbers that
    force it (``numbers``, cell names) and whether the mine count is needed too; for a guess its
    mine probability."""

    move: Move
    verdict: Verdict
    numbers: tuple[str, ...] = ()
    uses_total: bool = False
    probability: float | None = None

    @classmethod
    def of(cls, step: Step) -> AutoStep:
        return cls(step.move, step.verdict, probability=step.probability)

    @property
    def reason(self) -> str:
        """Why, in the words of ``minesat solve`` (:data:`~minesat.player.REASONS`), or ``unflag``."""
        return REASONS.get(self.verdict, self.verdict.value)


class GameSession:
    """One game in progress: see the module docstring."""

    def __init__(
        self,
        rows: int,
        cols: int,
        mines: int,
        *,
        rule: FirstClick | str = FirstClick.OPENING,
        seed: int | None = None,
        layout: Layout | None = None,
        no_guess: bool = False,
    ) -> None:
        if layout is not None:
            if no_guess:
                raise GameError("no_guess makes its own board: it does not go with a layout")
            rows, cols, mines = layout.rows, layout.cols, layout.mine_count
        if max(rows, cols) > MAX_PLAY_SIDE:
            raise GameError(f"a game in the browser is at most {MAX_PLAY_SIDE}x{MAX_PLAY_SIDE}")
        # A given layout is played as it is: nothing protects its first click.
        self.rule = FirstClick.ANY if layout is not None else FirstClick(rule)
        check_startable(rows, cols, mines, rule=self.rule)
        self.id = secrets.token_urlsafe(16)
        self.rows, self.cols, self.mines = rows, cols, mines
        #: A seed the server drew is the game's secret until it ends (with it, anyone rebuilds the board).
        self.seed_drawn = seed is None and layout is None
        self.seed = secrets.randbelow(2**63) if self.seed_drawn else seed
        self.given = layout is not None
        self.no_guess = no_guess
        #: The rule the moves are judged by (a no-guess board keeps its start clear under any rule).
        self.judged = self.rule
        self.reviewer = self._reviewer(layout, self.rule) if layout is not None else None
        #: Whose game it is: the hash of its maker's client token (:func:`~minesat.web.guard.owner_of`).
        self.owner = ""
        #: Whether its player asked for a hint (a win with hints is counted apart).
        self.hinted = False
        #: The game this one is a copy of (:meth:`fork`), and at how many moves.
        self.copy_of: dict[str, Any] | None = None
        self.made_at = time.time()  # when it was made, and its last move (wall clock: kept across restarts)
        self.moved_at = self.made_at
        #: Each move played and what was said of it (:func:`log_entry`), for a page that reopens the game.
        self.log: list[dict[str, Any]] = []
        self.lock = threading.RLock()  # auto_guess holds it around play, which takes it too
        self.touched = time.monotonic()
        self.start: Cell | None = None  # the first uncover
        self.began: float | None = None  # when it was played (monotonic seconds)
        self.ended: float | None = None
        self.timed_moves = 0  # moves played since the clock started, the one that started it included
        self.preflags: set[Cell] = set()  # flags placed before the first uncover
        #: How a no-guess board was made (``method``, ``tries``, ``seconds``), once it is.
        self.made: dict[str, Any] | None = None
        #: While a no-guess board is being made: ``tries`` so far and ``seconds``.
        self.making: dict[str, Any] | None = None
        # The automatic player: its rounds on the game (steps up to the next guess), valid while
        # no other move was played since; its analyzer; the flags it knows to be proven mines.
        self._rounds: Iterator[Step] | None = None
        self._planned_at = -1
        self._analyzer = Analyzer()
        self._proven_flags: set[Cell] = set()

    # --- moves ---------------------------------------------------------------------------

    def parse(self, text: Move | str) -> Move:
        """A move (or its notation, docs/cells-and-moves.md) on this board, or :class:`GameError`."""
        try:
            move = Move.parse(text) if isinstance(text, str) else text
        except InvalidValue as err:
            raise GameError(str(err)) from None
        r, c = move.cell
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise GameError(f"{text} is off the {self.rows}x{self.cols} board")
        return move

    def board_needed(self, text: Move | str) -> Cell | None:
        """The start cell when ``text`` is the uncover that makes a no-guess board (the app makes it
        in a worker and passes it to :meth:`play`); ``None`` for any other move."""
        move = self.parse(text)
        if self.reviewer is None and self.no_guess and move.action is Action.UNCOVER:
            self._check_first(move)
            return move.cell
        return None

    def _check_first(self, move: Move) -> None:
        if move.cell in self.preflags:
            raise GameError(f"{cell_name(move.cell)} is flagged: take the flag off to uncover it")

    def _reviewer(self, layout: Layout, rule: FirstClick) -> Reviewer:
        """The judge of the moves in play: flags on the numbers alone (the layout is secret)."""
        self.judged = rule
        chances = self.rows * self.cols <= CHANCES_CELLS
        return Reviewer(layout, rule=rule, chances=chances, flags_by_numbers=True)

    def play(
        self,
        text: Move | str,
        layout: Layout | None = None,
        made: dict[str, Any] | None = None,
        step: AutoStep | None = None,
    ) -> ReviewedMove | None:
        """Judge and play one move (or its notation: ``A5``, ``A5*``, ``A5-``, ``A5+``), and log it
        (``step``: the automatic player's move, logged with its reason).

        Before the first uncover a flag is only noted (``None`` is answered); the first
        uncover draws the layout (``layout``, the no-guess board made for it, when given).
        """
        move = self.parse(text)
        with self.lock:
            if self.reviewer is None:
                if move.action in (Action.FLAG, Action.UNFLAG):
                    if move.action is Action.FLAG:
                        self.preflags.add(move.cell)
                    else:
                        self.preflags.discard(move.cell)
                    self.log.append(log_entry(move, preflag_json(move), step))
                    self.moved_at = time.time()
                    return None
                if move.action is not Action.UNCOVER:
                    raise GameError("the first move uncovers a cell (a chord needs a number)")
                self._check_first(move)
                self._begin(move.cell, layout, made)
            assert self.reviewer is not None
            if self.reviewer.game.over:
                raise GameError(f"the game is over ({self.reviewer.game.status.value})")
            reviewed = self.reviewer.play(move)
            if self.began is None and any(state >= 0 for state in self.reviewer.game.state):
                self.began = time.monotonic()  # a given layout's clock: from its first uncover too
            self.timed_moves += self.began is not None
            if self.reviewer.game.over:
                self.ended = time.monotonic()
            self.log.append(log_entry(move, reviewed, step))
            self.moved_at = time.time()
            return reviewed

    def _begin(self, start: Cell, layout: Layout | None, made: dict[str, Any] | None) -> None:
        """The first uncover: draw the layout and play the flags placed before it."""
        if layout is None:
            if self.no_guess:
                raise GameError("a no-guess board is made by the server at the first uncover")
            try:
                layout = generate_layout(self.rows, self.cols, self.mines, start=start, rule=self.rule,
                                         seed=self.seed)
            except InvalidValue as err:  # the mines do not fit around this first click
                raise GameError(str(err)) from None
        # A no-guess board keeps its start mine-free whatever the rule: the first click risks nothing.
        judged = FirstClick.SAFE if self.no_guess and self.rule is FirstClick.ANY else self.rule
        self.reviewer = self._reviewer(layout, judged)
        self.made = made
        self.start, self.began = start, time.monotonic()
        for cell in sorted(self.preflags):
            self.reviewer.play(Move(cell, Action.FLAG))
        self.preflags.clear()

    def fork(self, layout: Layout | None = None, seed: int | None = None) -> GameSession:
        """A copy of this game in progress under an id of its own, to play on apart: the same
        position (its numbers, moves, log and clock), what is hidden drawn afresh. A page opening
        someone's link to a game in progress plays in a copy, never in their game.

        Once the board is drawn the copy's layout is ``layout``, drawn by the caller from the
        public position alone (:func:`~minesat.web.api.fork_request`) with ``seed``, the copy's
        own, kept secret until the copy ends: losing or winning it tells nothing of this game's
        mines. Such a copy is no longer promised to be a no-guess board. Before the first uncover
        nothing is drawn yet: the copy draws its own board from a new seed at its first uncover (a
        no-guess board for a no-guess game).

        >>> game = GameSession(4, 4, 2, rule="opening", seed=1)
        >>> _ = game.play("A1")
        >>> game.state()["cells"][:12]  # the mines: B3 and D1 or D2
        [0, 1, -1, -1, 0, 1, -1, -1, 1, 2, -1, -1]
        >>> twin = game.fork(Layout(4, 4, frozenset({(1, 2), (3, 0)})), seed=9)
        >>> twin.id != game.id, twin.state(log=True)["log"] == game.state(log=True)["log"]
        (True, True)
        >>> twin.state()["seed"], twin.copy_of == {"id": game.id, "moves": 1}
        (None, True)
        >>> game.fork(Layout(4, 4, frozenset({(0, 2), (3, 0)})), seed=9)
        Traceback (most recent call last):
        ...
        ValueError: the copy's layout does not show the number at C2
        >>> _ = twin.play("D4*")
        >>> len(twin.log), len(game.log)
        (2, 1)
        """
        with self.lock:  # not half-way through a move
            if self.reviewer is None:
                twin = GameSession(self.rows, self.cols, self.mines, rule=self.rule, no_guess=self.no_guess)
                twin.preflags = set(self.preflags)
            else:
                if layout is None or seed is None:
                    raise ValueError("a copy of a game under way needs its own layout and seed")
                _check_fits(layout, self.reviewer.game.position)
                twin = GameSession(self.rows, self.cols, self.mines, rule=self.rule, seed=seed)
                twin.reviewer = self.reviewer.copy()
                twin.reviewer.game.layout = layout  # the copy's own secret; the moves' verdicts stand
                twin.judged = self.judged
                twin.start = self.start
                # What the automatic player knows of the flags holds for the same position.
                twin._proven_flags = set(self._proven_flags)
            twin.seed_drawn = True  # the copy's seed is the server's: secret until the copy ends
            twin.log = list(self.log)  # its entries are never changed once logged
            twin.began, twin.ended, twin.timed_moves = self.began, self.ended, self.timed_moves
            twin.hinted = self.hinted
            twin.copy_of = {"id": self.id, "moves": len(self.log)}
            return twin

    # --- kept and made again -----------------------------------------------------------------

    def record(self, since: tuple[int, int] = (0, 0)) -> dict[str, Any]:
        """The whole game as plain data (JSON): what :meth:`restore` makes it again from. It holds
        the secrets (the layout, a drawn seed): it goes to the server's store, never to a page.
        Clock readings are kept as wall-clock times, so a restarted server's clock goes on.

        ``since``: how many of its log's lines and of its judged moves a store holds already;
        ``log`` and ``moves`` then hold only those after them (both only grow), so that a long
        game is not written whole at each move.
        """
        with self.lock:
            reviewer = self.reviewer
            offset = time.time() - time.monotonic()
            layout = None if reviewer is None else reviewer.game.layout
            moves = [] if reviewer is None else reviewer.moves[since[1]:]
            return {
                "version": RECORD_VERSION, "id": self.id, "owner": self.owner,
                "rows": self.rows, "cols": self.cols, "mines": self.mines, "rule": self.rule.value,
                "judged": self.judged.value, "seed": None if self.seed is None else str(self.seed),
                "seed_drawn": self.seed_drawn, "given": self.given, "no_guess": self.no_guess,
                # Row-major indices: a save writes the header at every move (names cost 0.6 ms).
                "layout": None if layout is None else sorted(r * self.cols + c for r, c in layout.mines),
                "moves": [_moved(m) for m in moves], "log": self.log[since[0]:],
                "preflags": sorted(cell_name(c) for c in self.preflags),
                "start": None if self.start is None else cell_name(self.start),
                "began": None if self.began is None else self.began + offset,
                "ended": None if self.ended is None else self.ended + offset,
                "timed_moves": self.timed_moves, "made": self.made,
                "proven_flags": sorted(cell_name(c) for c in self._proven_flags),
                "hinted": self.hinted, "copy_of": self.copy_of,
                "made_at": self.made_at, "moved_at": self.moved_at,
            }

    @classmethod
    def restore(cls, record: dict[str, Any]) -> GameSession:
        """The game :meth:`record` kept, as it was: its moves replayed on the layout with their
        verdicts as they were said (not judged again), its clock going on."""
        if record.get("version") != RECORD_VERSION:
            raise ValueError(f"a game kept in another form ({record.get('version')!r})")
        seed = None if record["seed"] is None else int(record["seed"])
        layout = None
        if record["layout"] is not None:
            mines = frozenset(divmod(index, record["cols"]) for index in record["layout"])
            layout = Layout(record["rows"], record["cols"], mines)
        game = cls(record["rows"], record["cols"], record["mines"], rule=record["rule"], seed=seed,
                   layout=layout if record["given"] else None, no_guess=record["no_guess"])
        offset = time.time() - time.monotonic()
        game.id, game.owner, game.seed = record["id"], record["owner"], seed
        game.seed_drawn = record["seed_drawn"]
        if layout is not None:
            game.reviewer = game._reviewer(layout, FirstClick(record["judged"]))
            for moved in record["moves"]:
                _replay(game.reviewer, moved)
        game.judged = FirstClick(record["judged"])
        game.preflags = {parse_cell(name) for name in record["preflags"]}
        game.log = record["log"]
        game.start = None if record["start"] is None else parse_cell(record["start"])
        game.began = None if record["began"] is None else record["began"] - offset
        game.ended = None if record["ended"] is None else record["ended"] - offset
        game.timed_moves, game.made = record["timed_moves"], record["made"]
        game._proven_flags = {parse_cell(name) for name in record["proven_flags"]}
        game.hinted, game.copy_of = record["hinted"], record["copy_of"]
        game.made_at, game.moved_at = record["made_at"], record["moved_at"]
        return game

    @property
    def over(self) -> bool:
        return self.reviewer is not None and self.reviewer.game.over

    def position_at(self, moves: int | None = None) -> Position | None:
        """What the player sees now, flags included; ``None`` before the first uncover, or when
        ``moves`` is given and the game is no longer at that many moves (another came meanwhile)."""
        with self.lock:  # not half-way through a move
            if self.reviewer is None or (moves is not None and len(self.reviewer.moves) != moves):
                return None
            return self.reviewer.game.position

    # --- the automatic player ------------------------------------------------------------

    def auto_step(self) -> AutoStep | Position:
        """The automatic player's next move when it needs no guess, else the position to guess on.

        The player's rounds (:class:`~minesat.player.Rounds`, without a strategy: they stop
        where a guess is needed): every cell the position proves safe (uncovered in order,
        those a zero has opened meanwhile skipped), then every proven mine flagged; a guess
        only when nothing is proven. Before the first uncover: ``minesat solve``'s start
        cell. A flag the numbers do not prove a mine (the player's own) is taken off first.
        Raises :class:`GameError` once the game is over.
        """
        with self.lock:
            reviewer = self.reviewer
            if reviewer is None:
                start = default_start(self.rows, self.cols)
                if start in self.preflags:
                    return AutoStep(Move(start, Action.UNFLAG), Verdict.UNFLAG)
                guess = self.rule is FirstClick.ANY and not self.no_guess
                p = self.mines / (self.rows * self.cols) if guess else None
                return AutoStep(Move(start), Verdict.GUESS if guess else Verdict.FIRST, probability=p)
            game = reviewer.game
            if game.over:
                raise GameError(f"the game is over ({game.status.value})")
            if self._planned_at != len(reviewer.moves):
                self._rounds = None  # someone else moved: new rounds from what is on the board now
            if self._rounds is None:
                if unproven := self._unproven_flags(game.position):
                    return AutoStep(Move(unproven, Action.UNFLAG), Verdict.UNFLAG)
                self._rounds = iter(Rounds(game, self._analyzer))
                self._planned_at = len(reviewer.moves)
            step = next(self._rounds, None)
            if step is None:
                self._rounds = None
                return game.position
            return self._because(game.position, AutoStep.of(step))

    def auto_play(
        self, step: AutoStep, layout: Layout | None = None, made: dict[str, Any] | None = None
    ) -> ReviewedMove | None:
        """Play a step :meth:`auto_step` gave, keeping the round (``layout``, ``made`` as :meth:`play`)."""
        reviewed = self.play(step.move, layout, made, step)
        with self.lock:
            if self.reviewer is not None:
                if step.verdict is Verdict.MINE:
                    self._proven_flags.add(step.move.cell)
                if self._planned_at == len(self.reviewer.moves) - 1:
                    self._planned_at += 1  # the round goes on
        return reviewed

    def auto_guess(self, position: Position, step: AutoStep) -> ReviewedMove | None:
        """Play the guess ``step`` chosen on ``position`` (:meth:`auto_step`'s answer), unless the
        game has moved on meanwhile (:class:`GameChanged`: ask :meth:`auto_step` again). The check
        and the move are under one hold of the lock, so no other move comes between them."""
        with self.lock:
            if self.reviewer is None or self.reviewer.game.position != position:
                raise GameChanged("the game changed while the guess was chosen")
            return self.play(step.move, step=step)

    def _unproven_flags(self, position: Position) -> Cell | None:
        """The first flag the automatic player did not place and the numbers do not prove a mine."""
        theirs = [c for c in position.cells_in(FLAG) if c not in self._proven_flags]
        if not theirs:
            return None
        proven = set(self._analyzer.proven(without_flags(position))[1])
        for cell in theirs:
            if cell not in proven:
                return cell
            self._proven_flags.add(cell)
        return None

    def _because(self, position: Position, step: AutoStep) -> AutoStep:
        """``step`` with the fewest numbers that force it: one number's own count where it
        does (the common case, read off the board), else the smallest proof
        (:func:`~minesat.analysis.explain.explain`)."""
        move = step.move
        mined = move.action is Action.FLAG
        cells, cols = position.cells, self.cols
        table = neighbour_table(self.rows, cols)
        i = move.cell[0] * cols + move.cell[1]
        for j in table[i]:
            number = cells[j]
            if number <= 0:
                continue
            flags = sum(1 for k in table[j] if cells[k] == FLAG)
            covered = sum(1 for k in table[j] if cells[k] == COVERED)
            if (not mined and number == flags) or (mined and number - flags == covered):
                return AutoStep(move, step.verdict, (cell_name(divmod(j, cols)),))
        why = explain(position, move.cell, mined=mined, max_nodes=PROOF_NODES)
        return AutoStep(move, step.verdict, tuple(cell_name(c) for c in why.numbers), why.uses_total)

    # --- what the page sees ----------------------------------------------------------------

    def state(self, last: ReviewedMove | dict[str, Any] | None = None, log: bool = False) -> dict[str, Any]:
        """What the page may see: the cells as a player sees them, the time since the first uncover
        (``elapsed``); the mines, the seed (when the server drew it) and the figures once the game is
        over. ``log``: with the log of every move (for a page that reopens the game)."""
        reviewer = self.reviewer
        over = reviewer is not None and reviewer.game.over
        if reviewer is None:
            cells = [-1] * (self.rows * self.cols)
            for r, c in self.preflags:
                cells[r * self.cols + c] = FLAG
        else:
            cells = list(reviewer.game.state)
        state: dict[str, Any] = {
            "id": self.id,
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "rule": self.rule.value,
            "seed": None if self.seed is None or (self.seed_drawn and not over) else str(self.seed),
            "seed_drawn": self.seed_drawn,
            "given": self.given,
            "no_guess": self.no_guess,
            "copy_of": self.copy_of,
            "hinted": self.hinted,
            "start": None if self.start is None else cell_name(self.start),
            "status": Status.PLAYING.value if reviewer is None else reviewer.game.status.value,
            "cells": cells,
            "moves": 0 if reviewer is None else len(reviewer.moves),
            "guesses": [] if reviewer is None else [
                {"move": str(m.move), "probability": m.probability, "text": describe(m, AUTO_PLAYER)}
                for m in reviewer.moves if m.verdict in RISKY
            ],
        }
        if self.made is not None:
            state["made"] = self.made
        if self.making is not None:
            state["making"] = self.making
        if isinstance(last, ReviewedMove):
            last = last_json(last)
        if last is not None:
            state["last"] = last
        if log:
            state["log"] = list(self.log)
        if not over:
            state["elapsed"] = None if self.began is None else round(time.monotonic() - self.began, 3)
            return state
        assert reviewer is not None and reviewer.game.layout is not None
        layout = reviewer.game.layout
        state["mine_cells"] = sorted(cell_name(c) for c in layout.mines)
        state["exploded"] = None if reviewer.game.exploded is None else cell_name(reviewer.game.exploded)
        state["bbbv"] = layout.bbbv()
        state["bbbv_done"] = bbbv_solved(layout, reviewer.game.position)
        state["seconds"] = self.seconds
        return state

    @property
    def seconds(self) -> float | None:
        """The game's time, from the first uncover to the last move (``None`` while it is played):
        0 for a game that ended at the uncover that started its clock, as a player's clock says."""
        if self.ended is None:
            return None
        if self.began is None or self.timed_moves <= 1:
            return 0.0
        return round(self.ended - self.began, 3)

    def figures(self) -> list[tuple[str, str]]:
        """Time, 3BV (solved/total on a loss) and 3BV/s of a finished game, for its review; no 3BV/s
        for a game of no measurable time (ended at its first uncover).

        >>> game = GameSession(9, 9, 10, rule="any", layout=Layout.from_rows(["*" + "." * 8] + ["." * 9] * 8))
        >>> game.play("A1").verdict.value, game.figures()
        ('loss', [('Time', '0 s: the game ended at its first uncover'), ('3BV', '0/1')])
        """
        reviewer = self.reviewer
        assert reviewer is not None and reviewer.game.over and reviewer.game.layout is not None
        total = reviewer.game.layout.bbbv()
        solved = bbbv_solved(reviewer.game.layout, reviewer.game.position)
        seconds = self.seconds
        won = reviewer.game.status is Status.WON
        assert seconds is not None
        ended_at_once = self.timed_moves <= 1
        time_taken = "0 s: the game ended at its first uncover" if ended_at_once else f"{seconds:.2f} s"
        pairs = [("Time", time_taken), ("3BV", str(total) if won else f"{solved}/{total}")]
        if seconds:
            pairs.append(("3BV/s", f"{solved / seconds:.2f}"))
        return pairs

    def about(self) -> list[tuple[str, str]]:
        """The (label, value) pairs that head the game's review page."""
        board = f"{self.rows}x{self.cols}, {plural(self.mines, 'mine')}"
        if self.given:
            return [("Board", f"{board} (a given layout)")]
        pairs = [("Board", board), ("First click", f"{self.rule.value} rule"), ("Seed", str(self.seed))]
        if self.copy_of is not None and self.copy_of["moves"] and self.start is not None:
            at = self.copy_of["moves"]
            pairs[-1] = ("Seed", f"{self.seed} (the copy's draw of the cells hidden at move {at})")
            copy = f"of a game at move {at}: the same position, its hidden cells drawn afresh"
            pairs.insert(1, ("Copy", copy))
        if self.made is not None:
            pairs.append(("No guess", f"won from {cell_name(self.start or (0, 0))} by proof alone "
                                      f"({self.made['method']}, {self.made['tries']} layouts tried)"))
        return pairs


def last_json(move: ReviewedMove) -> dict[str, Any]:
    """A played move as the state's ``last``: the move, the verdict and the judge's sentence."""
    return {"move": str(move.move), "verdict": move.verdict.value, "probability": move.probability,
            "text": describe(move, AUTO_PLAYER)}


#: The state's ``last`` for a flag placed or taken off before the first uncover (nothing to judge it by).
PREFLAG = {
    Action.FLAG: {"verdict": "flag", "probability": None, "text": "flag placed before the first click"},
    Action.UNFLAG: {"verdict": "unflag", "probability": None, "text": "flag removed"},
}


def preflag_json(move: Move) -> dict[str, Any]:
    """The state's ``last`` for ``move``, a flag placed (or taken off) before the first uncover."""
    return {"move": str(move), **PREFLAG[move.action]}


def log_entry(move: Move, said: ReviewedMove | dict[str, Any], step: AutoStep | None) -> dict[str, Any]:
    """A line of the game's log: ``text`` as the page lists it (the move and the judge's sentence,
    or the automatic player's reason), the ``verdict`` and whether the automatic player made it.

    >>> log_entry(Move.parse("A1*"), PREFLAG[Action.FLAG], None)
    {'move': 'A1*', 'text': 'A1*: flag placed before the first click', 'verdict': 'flag', 'auto': False}
    """
    reviewed = said if isinstance(said, ReviewedMove) else None
    last = last_json(said) if isinstance(said, ReviewedMove) else said
    text = f"{move}: {last['text']}" if step is None else step_json(step, reviewed)["text"]
    return {"move": str(move), "text": text, "verdict": last["verdict"], "auto": step is not None}


def step_json(step: AutoStep, reviewed: ReviewedMove | None) -> dict[str, Any]:
    """A move of the automatic player and its reason, as the page shows it; ``reviewed`` is the
    move as the judge saw it once played (``None`` for one not played)."""
    out: dict[str, Any] = {"move": str(step.move), "reason": step.reason, "because": list(step.numbers),
                           "uses_total": step.uses_total, "probability": step.probability,
                           "win_probability": None, "best_win_probability": None}
    if reviewed is not None:
        out["verdict"] = reviewed.verdict.value
        out["win_probability"] = reviewed.win_probability
        out["best_win_probability"] = reviewed.best_win_probability
    out["text"] = f"{step.move}: {_reason_text(step, reviewed)}"
    return out


def _reason_text(step: AutoStep, reviewed: ReviewedMove | None) -> str:
    match step.verdict:
        case Verdict.SAFE | Verdict.MINE:
            because = [*step.numbers, *(["the mine count"] if step.uses_total else [])]
            return f"{step.reason} because of {', '.join(because)}"
        case Verdict.FIRST:
            return "first click (the rule keeps it mine-free)"
        case Verdict.GUESS if reviewed is not None:
            return describe(reviewed, AUTO_PLAYER)
        case Verdict.GUESS:
            return "guess" + ("" if step.probability is None else f" at {percent(step.probability)}")
    return "flag taken off: the numbers do not prove a mine there"


#: The form of :meth:`GameSession.record`; a store holding another is not read.
RECORD_VERSION = 1

#: The fields of a :class:`~minesat.review.ReviewedMove` a record keeps (the position before it is
#: made again by playing the moves; no analysis is kept in play).
_MOVE_FIELDS = [f.name for f in dataclasses.fields(ReviewedMove) if f.name not in ("position", "analysis")]


def _moved(move: ReviewedMove) -> dict[str, Any]:
    """A judged move as plain data (:meth:`GameSession.record`)."""
    out: dict[str, Any] = {}
    for name in _MOVE_FIELDS:
        value = getattr(move, name)
        if name == "move" or name == "verdict":
            value = str(value)
        elif name == "best_move" and value is not None:
            value = cell_name(value)
        out[name] = value
    return out


def _replay(reviewer: Reviewer, moved: dict[str, Any]) -> None:
    """Play a kept move again on ``reviewer``'s game, with its verdict as it was said."""
    game = reviewer.game
    move = Move.parse(moved["move"])
    fields = {**moved, "move": move, "verdict": Verdict(moved["verdict"]), "position": game.position}
    if fields.get("best_move") is not None:
        fields["best_move"] = parse_cell(fields["best_move"])
    reviewer.moves.append(ReviewedMove(**fields))
    if fields["verdict"] is not Verdict.NO_EFFECT:  # a move the rules refused changed nothing
        game.play(move)


def _check_fits(layout: Layout, position: Position) -> None:
    """Refuse a copy's layout that does not show the numbers the player sees (a sampler's bug
    would otherwise call a mined cell safe), or that mines an uncovered cell."""
    if (layout.rows, layout.cols) != (position.rows, position.cols):
        raise ValueError(f"a {layout.rows}x{layout.cols} layout for a {position.rows}x{position.cols} game")
    for index, state in enumerate(position.cells):
        if state >= 0:
            cell = divmod(index, position.cols)
            if cell in layout.mines or layout.count(cell) != state:
                raise ValueError(f"the copy's layout does not show the number at {cell_name(cell)}")
