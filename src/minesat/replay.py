"""A replay's mouse events turned into moves, played by minesat's rules, and the click metrics.

A replay file (:mod:`minesat.formats.replay`) records what the mouse did; the
game software decided what each press and release meant. :func:`play_replay`
makes the same decisions, the way Minesweeper programs share them:

- a **left release** (not part of a chord) is a left click: it uncovers the
  covered, unflagged cell under the pointer, wherever the button went down;
- a **right press** (the left button up) is a right click: it flags a covered
  cell, or unflags a flagged one (with question marks on, the flag becomes a
  ``?`` and the next right click clears it);
- **both buttons down** arm a chord, which fires at the first release, on the
  cell under the pointer; the other button's release then does nothing, unless
  the first button goes down again (another chord). The **middle button's**
  release chords too. A chord on a number with as many flags around it
  uncovers its other covered neighbours;
- a flag placed before the game began (``pf``) is a right click on its cell;
- the game starts at the first uncover and ends when it is won or lost;
  events after that are ignored.

Each move is played through :class:`minesat.game.Game` on the file's layout,
so the result is minesat's, not the file's.

The clicks are counted as the community counts them (ms-toollib's
conventions): **left** every left click (also off the board, or on an
uncovered cell), **right** every right click (but not a right press that
ends up part of a chord when it had nothing to flag), **double** every chord
on the board; **cl** = left + right + double; **ce** (effective clicks) the
left clicks that uncover, the flags put on a mine not flagged before, and the
chords that uncover; **ioe** = 3BV solved / cl, **corr** = ce / cl. Clicks
before the game starts count only while a flag stands: a player who flags and
unflags again before starting has made no clicks.

The speed figures follow ms-toollib 1.5.20 (checked against it on the sample
replays): **3BV/s** = 3BV solved / time; **RQP** = time² / 3BV solved;
**STNB** = C × 3BV solved / time^1.7 × √(3BV solved / 3BV), with C = 36 for
beginner (8x8, 10 mines), 162 for intermediate (16x16, 40) and 435 for expert
(16x30, 99), and no STNB on other boards; **path** the distance the pointer
travelled from the game's start, in pixels of 16-pixel cells (events off the
board skipped). :attr:`ReplayGame.figures` holds them after every move, as a
player's viewer shows them running.

>>> from minesat.formats.replay import MouseEvent, Replay
>>> from minesat.board import Layout
>>> press = lambda t, kind, row, col: MouseEvent(t, kind, col * 16, row * 16, row, col)
>>> events = (press(0.0, "lc", 0, 2), press(0.0, "lr", 0, 2),    # left click on A3
...           press(1.5, "rc", 0, 0), press(1.6, "rr", 0, 0),    # right click on A1
...           press(1.8, "rc", 2, 0), press(1.9, "rr", 2, 0),    # right click on C1
...           press(2.0, "lc", 1, 1), press(2.1, "rc", 1, 1), press(2.5, "lr", 1, 1))  # chord on B2
>>> replay = Replay("rmv", "x.rmv", Layout.from_rows(["*   ", "    ", "*   "]), 2, events, 2.5, True)
>>> game = play_replay(replay)
>>> [str(m) for m in game.moves], game.won, game.seconds
(['A3', 'A1*', 'C1*', 'B2+'], True, 2.5)
>>> m = game.metrics
>>> m.bbbv, m.left, m.right, m.double, m.cl, m.ce, m.ioe, m.corr
(2, 1, 2, 1, 4, 4, 0.5, 1.0)
>>> m.rqp, m.stnb, round(m.path, 1)    # 2.5 s squared over 2; no STNB off the three levels
(3.125, None, 86.6)
>>> [(f.seconds, f.bbbv_solved, f.cl) for f in game.figures]    # after each move
[(0.0, 1, 1), (1.5, 1, 2), (1.8, 1, 3), (2.5, 2, 4)]
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from minesat.board import COVERED, FLAG, Action, Cell, Layout, Move, Position, cell_name, neighbour_table
from minesat.formats.replay import MouseEvent, Replay, program_text, read_replay
from minesat.game import Game, MoveResult, Status
from minesat.generate import FirstClick
from minesat.metrics import opening_regions
from minesat.review import GameReview, PlayedMove, ReviewedMove, describe, review_game
from minesat.stats import percent
from minesat.viewer import MouseTrack, Verdict, ViewerFrame, ViewerMove, render_viewer, review_frames
from minesat.words import plural

#: Move kinds, and the :class:`~minesat.board.Action` each is.
MOVE_KINDS = {"uncover": Action.UNCOVER, "flag": Action.FLAG, "unflag": Action.UNFLAG, "chord": Action.CHORD}
_CHANGED = (MoveResult.VALID, MoveResult.SOLVED, MoveResult.BLOWN_UP)


@dataclass(frozen=True)
class ReplayMove:
    """A move the player made: ``kind`` (uncover/flag/unflag/chord) on ``cell``.

    ``time`` is in seconds since the game started (the first uncover), 0.0 for
    flags placed before it; ``event`` is the index in ``replay.events`` of the
    mouse event that made the move.

    >>> m = ReplayMove(3.25, "flag", (0, 4), 17)
    >>> str(m), m.move
    ('A5*', Move(cell=(0, 4), action=<Action.FLAG: '*'>))
    """

    time: float
    kind: str
    cell: Cell
    event: int

    @property
    def move(self) -> Move:
        return Move(self.cell, MOVE_KINDS[self.kind])

    def __str__(self) -> str:
        return str(self.move)

    def to_json(self) -> dict[str, object]:
        return {"cell": cell_name(self.cell), "kind": self.kind, "time": self.time, "event": self.event}


#: STNB's constant per level (rows, cols, mines), as ms-toollib 1.5.20 has them.
STNB_CONSTANTS = {(8, 8, 10): 36.0, (16, 16, 40): 162.0, (16, 30, 99): 435.0}


@dataclass(frozen=True)
class ReplayMetrics:
    """The community's figures for one replayed game, or for the game so far (see the module's notes).

    ``seconds`` is the game's time by the replay (from the first uncover to the
    move that ended the game, or to the last event; for a game so far, to its
    last move); ``bbbv_per_second`` is 3BV solved per second; ``path`` is in
    pixels of 16-pixel cells. A figure that would divide by zero is ``None``.
    """

    bbbv: int
    bbbv_solved: int
    seconds: float | None
    bbbv_per_second: float | None
    left: int
    right: int
    double: int
    cl: int
    ce: int
    ioe: float | None
    corr: float | None
    rqp: float | None
    stnb: float | None
    path: float

    @classmethod
    def of(
        cls, size: tuple[int, int, int], bbbv: int, solved: int, seconds: float | None,
        clicks: dict[str, int], path: float,
    ) -> ReplayMetrics:
        """The figures from the counts: ``size`` is (rows, cols, mines), ``clicks`` the
        left/right/double counts and their effective parts (lce, rce, dce)."""
        cl = clicks["left"] + clicks["right"] + clicks["double"]
        ce = clicks["lce"] + clicks["rce"] + clicks["dce"]
        timed = bool(seconds)  # neither None nor 0
        constant = STNB_CONSTANTS.get(size)
        stnb = None
        if timed and constant is not None and bbbv:
            stnb = constant * solved / seconds**1.7 * math.sqrt(solved / bbbv)  # type: ignore[operator]
        return cls(
            bbbv=bbbv,
            bbbv_solved=solved,
            seconds=seconds,
            bbbv_per_second=solved / seconds if timed else None,  # type: ignore[operator]
            left=clicks["left"],
            right=clicks["right"],
            double=clicks["double"],
            cl=cl,
            ce=ce,
            ioe=solved / cl if cl else None,
            corr=ce / cl if cl else None,
            rqp=seconds**2 / solved if seconds is not None and solved else None,
            stnb=stnb,
            path=path,
        )

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    def labelled(self) -> list[tuple[str, str]]:
        """(label, text) pairs as the viewer shows them running.

        >>> ReplayMetrics.of((8, 8, 10), 20, 10, 5.0, dict(left=12, right=2, double=1, lce=8, rce=2,
        ...                  dce=1), 800.4).labelled()  # doctest: +NORMALIZE_WHITESPACE
        [('Time', '5.00 s'), ('3BV', '10/20'), ('3BV/s', '2.000'), ('Clicks', '15 (11 effective)'),
         ('IOE', '0.667'), ('RQP', '2.500'), ('STNB', '16.5'), ('Path', '800 px')]
        """
        def number(value: float | None, digits: int) -> str:
            return "-" if value is None else f"{value:.{digits}f}"

        return [
            ("Time", "-" if self.seconds is None else f"{self.seconds:.2f} s"),
            ("3BV", f"{self.bbbv_solved}/{self.bbbv}"),
            ("3BV/s", number(self.bbbv_per_second, 3)),
            ("Clicks", f"{self.cl} ({self.ce} effective)"),
            ("IOE", number(self.ioe, 3)),
            ("RQP", number(self.rqp, 3)),
            ("STNB", number(self.stnb, 1)),
            ("Path", f"{self.path:.0f} px"),
        ]


@dataclass(frozen=True)
class ReplayGame:
    """A replay played through :class:`~minesat.game.Game`: the moves, how it ended, the metrics.

    ``figures[i]`` are the metrics of the game so far just after ``moves[i]``,
    at its time; ``start`` is the file's clock when the game started (the
    first uncover), so that ``event.time - start`` is an event's time in the
    game; ``end_event`` the index in ``replay.events`` of the last event played
    (the move that ended the game, or the last event of an unfinished one).
    """

    moves: tuple[ReplayMove, ...]
    status: Status
    seconds: float | None
    position: Position
    metrics: ReplayMetrics
    figures: tuple[ReplayMetrics, ...] = ()
    start: float | None = None
    end_event: int = -1

    @property
    def won(self) -> bool:
        return self.status is Status.WON


@dataclass(frozen=True)
class ReplayStep:
    """One move of a replayed game, with the position the player saw before it."""

    position: Position
    move: ReplayMove
    result: MoveResult


def play_replay(replay: Replay) -> ReplayGame:
    """Turn the replay's mouse events into moves and play them on the file's layout."""
    return _Player(replay).run()


def replay_moves(replay: Replay) -> list[ReplayMove]:
    """The moves the player made, in order (only those that changed the game)."""
    return list(play_replay(replay).moves)


def replay_metrics(replay: Replay) -> ReplayMetrics:
    """3BV, 3BV/s and the click counts of the replayed game."""
    return play_replay(replay).metrics


def replay_steps(replay: Replay, moves: list[ReplayMove] | None = None) -> Iterator[ReplayStep]:
    """Step a fresh game through the moves: the position before each move, the move, the result.

    >>> from minesat.formats.replay import MouseEvent, Replay
    >>> events = (MouseEvent(0.0, "lc", 40, 8, 0, 2), MouseEvent(0.1, "lr", 40, 8, 0, 2))
    >>> replay = Replay("avf", "x.avf", Layout.from_rows(["*  "]), 1, events, 0.1, None)
    >>> [(s.position.to_rows(), str(s.move), s.result.value) for s in replay_steps(replay)]
    [(['???'], 'A3', 'solved')]
    """
    game = Game(replay.layout)
    for move in replay_moves(replay) if moves is None else moves:
        before = game.position()
        yield ReplayStep(before, move, game.play(move.move))


def bbbv_solved(layout: Layout, position: Position) -> int:
    """The 3BV units the position has cleared: openings whose zeros are all
    uncovered, and uncovered numbers that border no opening.

    >>> lay = Layout.from_rows(["*  ", "   ", "  *"])    # two openings, 3BV 2
    >>> bbbv_solved(lay, Position.from_rows(["?1 ", "?21", "???"])), lay.bbbv()
    (1, 2)
    """
    regions = opening_regions(layout)
    counts = layout.counts
    cells = position.cells
    mined = {r * layout.cols + c for r, c in layout.mines}
    cleared: dict[int, bool] = {}
    lone = 0
    border = _opening_borders(layout, regions)
    for i, region in enumerate(regions):
        if region:
            cleared[region] = cleared.get(region, True) and cells[i] == 0
        elif i not in mined and counts[i] and not border[i] and cells[i] >= 0:
            lone += 1
    return lone + sum(cleared.values())


def _opening_borders(layout: Layout, regions: list[int]) -> list[bool]:
    """Per cell: does it border an opening (so the opening's click reveals it)?"""
    table = neighbour_table(layout.rows, layout.cols)
    return [any(regions[j] for j in table[i]) for i in range(len(regions))]


class _Player:
    """The mouse state machine, the game it drives, and the click counts."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.game = Game(replay.layout)
        self.marks = bool(replay.question_marks)
        self.moves: list[ReplayMove] = []
        # Buttons held, and the chord gesture: ``armed`` when both are down (the
        # first release chords), ``left_after_chord`` when the right release
        # chorded and the left button is still down (its release does nothing).
        self.left = self.right = self.middle = False
        self.armed = self.left_after_chord = False
        self.right_unflaggable = False  # the right press began off the board or on a number
        self.seen_button = False
        self.questioned: set[Cell] = set()
        self.ever_flagged: set[Cell] = set()
        self.start: float | None = None
        self.index = 0
        self.count = {"left": 0, "right": 0, "double": 0, "lce": 0, "rce": 0, "dce": 0}
        self.cleared = _Cleared(replay.layout)
        self.path = 0.0
        self.figures: list[ReplayMetrics] = []

    # --- the events -----------------------------------------------------------

    def run(self) -> ReplayGame:
        last_time = None
        end = -1
        # The pointer's path after the event that started the game, in pixels of 16-pixel
        # cells, skipping events off the board, as ms-toollib measures it. (Inline: this
        # loop runs over every mouse event, 56 659 in the 36x60 sample.)
        scale = 16 / self.replay.cell_size
        pointer: tuple[int, int] | None = None
        for index, event in enumerate(self.replay.events):
            self.index = index
            if self.game.over:
                break
            last_time, end = event.time, index
            kind = event.kind
            made, started = len(self.moves), self.start is not None
            if kind != "mv":
                self.handle(event)
                if self.start is None and not self._flags():
                    # Before the game starts, clicks count only while a flag stands.
                    self.count = dict.fromkeys(self.count, 0)
            # A flag placed before the game (pf) is not where the pointer was.
            if event.row is not None and event.col is not None and kind != "pf":
                if started and pointer is not None:
                    self.path += math.hypot(event.x - pointer[0], event.y - pointer[1]) * scale
                pointer = (event.x, event.y)
            if len(self.moves) > made:
                self.figures.extend(self._figures(move.time) for move in self.moves[made:])
        return self._result(last_time, end)

    def handle(self, event: MouseEvent) -> None:
        kind, cell = event.kind, event.cell
        # Ambiguous codes (EVF's l, r, m): a press if the button is up, else a release.
        if kind in ("l", "r", "m"):
            down = {"l": self.left, "r": self.right, "m": self.middle}[kind]
            kind += "r" if down else "c"
        match kind:
            case "lc":
                self.press_left()
            case "rc":
                self.press_right(event, cell)
            case "cc":  # the button that was up went down: both are down now
                if not self.left:
                    self.press_left()
                if not self.right:
                    self.press_right(event, cell)
                self.armed, self.left_after_chord = True, False
            case "lr":
                self.release_left(event, cell)
            case "rr":
                self.release_right(event, cell)
            case "mc":
                self.middle = True
            case "mr":
                if self.middle:
                    self.middle = False
                    self.chord(event, cell, both=False)
            case "pf":
                self.right_click(event, cell)
                return  # not a button: the recording's first button event is still to come
        self.seen_button = True

    def press_left(self) -> None:
        if self.left:
            return
        self.left = True
        if self.right:
            self.armed, self.left_after_chord = True, False

    def press_right(self, event: MouseEvent, cell: Cell | None) -> None:
        if self.right:
            return
        self.right = True
        if self.left:
            self.armed, self.left_after_chord = True, False
            self.right_unflaggable = False
        else:
            self.right_click(event, cell)

    def release_left(self, event: MouseEvent, cell: Cell | None) -> None:
        if not self.left:
            # A recording may start with the button already down (Viennasweeper's
            # first event is the release of the click that starts the game).
            if self.seen_button:
                return
            self.left = True
        self.left = False
        if self.armed:
            self.armed = False
            self.chord(event, cell)
        elif self.left_after_chord:
            self.left_after_chord = False
        else:
            self.left_click(event, cell)

    def release_right(self, event: MouseEvent, cell: Cell | None) -> None:
        if not self.right:
            return
        self.right = False
        if self.armed:
            self.armed = False
            self.left_after_chord = True
            self.chord(event, cell)
        self.right_unflaggable = False

    # --- clicks: counts and moves --------------------------------------------

    def left_click(self, event: MouseEvent, cell: Cell | None) -> None:
        self.count["left"] += 1
        if cell is None or self.game[cell] != COVERED:
            return
        result = self.play(event, "uncover", cell)
        self.questioned.discard(cell)
        if result in (MoveResult.VALID, MoveResult.SOLVED):
            self.count["lce"] += 1

    def right_click(self, event: MouseEvent, cell: Cell | None) -> None:
        self.count["right"] += 1
        state = self.game[cell] if cell is not None else 0
        self.right_unflaggable = state >= 0
        if cell is None or state >= 0:
            return
        if state == FLAG:
            self.play(event, "unflag", cell)
            if self.marks:
                self.questioned.add(cell)
        elif cell in self.questioned:
            self.questioned.discard(cell)  # ? back to covered: no move
        else:
            self.play(event, "flag", cell)
            if cell in self.replay.layout.mines and cell not in self.ever_flagged:
                self.count["rce"] += 1
            self.ever_flagged.add(cell)

    def chord(self, event: MouseEvent, cell: Cell | None, both: bool = True) -> None:
        if both and self.right_unflaggable:
            # The right press flagged nothing and turned out to be half of a chord:
            # it was never a right click.
            self.count["right"] -= 1
            self.right_unflaggable = False
        if cell is None:
            return
        self.count["double"] += 1
        if self.game.refusal(Move(cell, Action.CHORD)) is None:
            self.count["dce"] += 1
            self.play(event, "chord", cell)

    def play(self, event: MouseEvent, kind: str, cell: Cell) -> MoveResult:
        result = self.game.play(Move(cell, MOVE_KINDS[kind]))
        if result not in _CHANGED:
            return result
        if kind in ("uncover", "chord"):
            self.cleared.update(self.game.state, cell)
        if kind in ("uncover", "chord") and self.start is None:
            self.start = event.time
        time = 0.0 if self.start is None else max(0.0, round(event.time - self.start, 3))
        self.moves.append(ReplayMove(time, kind, cell, self.index))
        return result

    # --- the end --------------------------------------------------------------

    def _flags(self) -> int:
        return self.game.state.count(FLAG)

    def _figures(self, seconds: float | None) -> ReplayMetrics:
        layout = self.replay.layout
        size = (layout.rows, layout.cols, self.replay.mines)
        return ReplayMetrics.of(size, self.cleared.bbbv, self.cleared.solved, seconds, self.count, self.path)

    def _result(self, last_time: float | None, end: int) -> ReplayGame:
        game = self.game
        seconds = None
        if self.start is not None:
            seconds = self.moves[-1].time if game.over else round((last_time or self.start) - self.start, 3)
        metrics = self._figures(seconds)
        return ReplayGame(
            tuple(self.moves), game.status, seconds, game.position(), metrics, tuple(self.figures),
            self.start, end,
        )


class _Cleared:
    """3BV solved as the game goes, kept up to date cell by cell: what :func:`bbbv_solved` counts.

    An opening counts once all its zeros are uncovered: a flag on one of them
    stops the flood there, and the opening is not cleared until that zero is
    (ms-toollib counts it so too).
    """

    def __init__(self, layout: Layout) -> None:
        regions = opening_regions(layout)
        border = _opening_borders(layout, regions)
        mined = {r * layout.cols + c for r, c in layout.mines}
        counts = layout.counts
        # Per cell: its opening, -1 a number that is a 3BV unit of its own, 0 neither.
        self.unit = [
            region or (-1 if i not in mined and counts[i] and not border[i] else 0)
            for i, region in enumerate(regions)
        ]
        self.zeros_left: dict[int, int] = {}
        for region in regions:
            if region:
                self.zeros_left[region] = self.zeros_left.get(region, 0) + 1
        self.bbbv = layout.bbbv()
        self.solved = 0
        self.seen = [False] * len(self.unit)
        self.cols = layout.cols
        self.table = neighbour_table(layout.rows, layout.cols)
        self.zero = [not counts[i] and i not in mined for i in range(len(counts))]

    def update(self, state: list[int], cell: Cell) -> None:
        """Count what an uncover or chord on ``cell`` opened: the cell and its neighbours, and
        the flood from each zero among them (only the cells that changed are visited)."""
        start = cell[0] * self.cols + cell[1]
        todo = [start, *self.table[start]]
        while todo:
            i = todo.pop()
            if self.seen[i] or state[i] < 0:
                continue
            self.seen[i] = True
            unit = self.unit[i]
            if unit == -1:
                self.solved += 1
            elif unit:
                self.zeros_left[unit] -= 1
                if not self.zeros_left[unit]:
                    self.solved += 1
            if self.zero[i]:
                todo.extend(self.table[i])


# --- every move analysed --------------------------------------------------------------


@dataclass(frozen=True)
class ReplayReview:
    """A replay, the game it replays to, and every move judged on the position before it.

    The judging is :func:`minesat.review.review_game`'s (the first click is the
    program's safe start: every program these files come from keeps it off a mine).
    """

    replay: Replay
    game: ReplayGame
    review: GameReview

    def title(self) -> str:
        """``arbiter-expert-49s.avf: 16x30, 99 mines, Name`` for a viewer page."""
        player = self.replay.metadata.get("player")
        board = f"{self.replay.rows}x{self.replay.cols}, {plural(self.replay.mines, 'mine')}"
        return f"{Path(self.replay.path).name}: {board}" + (f", {player}" if player else "")

    def summary(self) -> list[tuple[str, str]]:
        """(label, value) pairs: the game, its metrics and what its moves risked, in words."""
        replay, metrics, review = self.replay, self.game.metrics, self.review
        data = self.replay.metadata
        pairs = [("Board", f"{replay.rows}x{replay.cols}, {plural(replay.mines, 'mine')} ({replay.format})")]
        about = ", ".join(x for x in (data.get("player"), program_text(data), data.get("date")) if x)
        if about:
            pairs.append(("Game", about))
        seconds = "" if metrics.seconds is None else f" in {metrics.seconds:.3f} s"
        pairs.append(("Result", ("won" if self.game.won else "lost") + seconds))
        speed = "" if metrics.bbbv_per_second is None else f", {metrics.bbbv_per_second:.3f}/s"
        pairs.append(("3BV", f"{metrics.bbbv_solved}/{metrics.bbbv}{speed}"))
        pairs.append((
            "Clicks",
            f"{metrics.cl} (left {metrics.left}, right {metrics.right}, double {metrics.double}), "
            f"{metrics.ce} effective" + ("" if metrics.ioe is None else f"; IOE {metrics.ioe:.3f}")
            + ("" if metrics.corr is None else f", correctness {metrics.corr:.3f}"),
        ))
        speed = [f"RQP {metrics.rqp:.3f}"] if metrics.rqp is not None else []
        speed += [f"STNB {metrics.stnb:.1f}"] if metrics.stnb is not None else []
        pairs.append(("Speed", ", ".join([*speed, f"path {metrics.path:.0f} px"])))
        pairs.append(("Guesses", f"{review.guesses} ({review.needless_guesses} needless)"))
        if review.guesses and review.survival is not None:
            chance = f"{percent(review.survival)}"
            if review.safest_survival is not None:
                chance += f" (with the safest choices {percent(review.safest_survival)})"
            pairs.append(("Chance the guesses all survive", chance))
        return pairs

    def viewer_page(self, link_tip: bool = True) -> str:
        """The game as a step-through page (:mod:`minesat.viewer`); review with ``keep_analyses=True``.
        ``link_tip`` false: without the tip about the page's address (a page shown inside another)."""
        frames, mouse = replay_frames(self)
        return render_viewer(self.title(), self.summary(), frames, self.review.layout, mouse,
                             link_tip=link_tip)

    def to_json(self) -> dict[str, object]:
        """The object ``minesat replay --json`` prints for the file (without its ``file`` key)."""
        replay, metrics, review = self.replay, self.game.metrics, self.review
        return {
            "format": replay.format,
            "rows": replay.rows,
            "cols": replay.cols,
            "mines": replay.mines,
            "bbbv": metrics.bbbv,
            "bbbv_solved": metrics.bbbv_solved,
            "won": self.game.won,
            "seconds": metrics.seconds,
            "bbbv_per_second": metrics.bbbv_per_second,
            "guesses": review.guesses,
            "needless_guesses": review.needless_guesses,
            "survival": review.survival,
            "safest_survival": review.safest_survival,
            "clicks": {key: getattr(metrics, key) for key in ("left", "right", "double", "cl", "ce")},
            "ioe": metrics.ioe,
            "corr": metrics.corr,
            "rqp": metrics.rqp,
            "stnb": metrics.stnb,
            "path": metrics.path,
            "file_time": replay.rtime,
            "file_completed": replay.completed,
            "metadata": dict(replay.metadata),
            "moves": [
                {**_move_json(m), "figures": _running_json(f)}
                for m, f in zip(review.moves, self.game.figures, strict=True)
            ],
        }


def _running_json(figures: ReplayMetrics) -> dict[str, object]:
    """A move's ``figures``: the game so far, just after it (``bbbv`` is the game's, left out)."""
    out = figures.to_json()
    del out["bbbv"]
    return out


def _move_json(move: ReviewedMove) -> dict[str, object]:
    return {
        "cell": cell_name(move.cell),
        "kind": move.kind,
        "time": move.time,
        "verdict": move.verdict.value,
        "probability": move.probability,
        "safest": move.safest,
        "needless": move.needless,
        "text": describe(move),
        **_chances_json(move),
    }


def _chances_json(move: ReviewedMove) -> dict[str, object]:
    """For a risky uncover: the chance to win it kept and the best move's (exact, or ``None`` where the
    position was too large to search), and the best move, with who chose it (docs/commands/replay.md)."""
    if move.best_move is None:
        return {}
    return {
        "win_probability": move.win_probability,
        "best_win_probability": move.best_win_probability,
        "best_move": cell_name(move.best_move),
        "best_move_by": move.best_move_by,
    }


def review_replay(
    replay: Replay | str | os.PathLike[str],
    format: str | None = None,
    *,
    keep_analyses: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> ReplayReview:
    """Read (if given a path), replay and review a game; ``progress(done, total)`` over its moves.

    Raises :class:`~minesat.formats.ReplayFormatError` for a file that cannot be read.
    """
    if not isinstance(replay, Replay):
        replay = read_replay(replay, format)
    game = play_replay(replay)
    played = [PlayedMove(m.move, m.time) for m in game.moves]
    review = review_game(
        replay.layout,
        played,
        rule=FirstClick.SAFE,
        keep_analyses=keep_analyses,
        progress=None if progress is None else lambda done: progress(done, len(played)),
    )
    return ReplayReview(replay, game, review)


# --- a replay in the game viewer ---------------------------------------------------------


def replay_frames(result: ReplayReview) -> tuple[list[ViewerFrame], MouseTrack]:
    """A reviewed replay as frames, each with the running figures up to the position it
    shows, and the pointer's track from the first event to the end of the game.

    The figures of frame ``k`` are those just after move ``k - 1``
    (:attr:`ReplayGame.figures`): the game so far as the board shows it.
    """
    game, replay = result.game, result.replay
    running = _running_figures(replay, game)
    frames = [replace(frame, figures=running(k)) for k, frame in enumerate(review_frames(result.review))]
    return frames, mouse_track(replay, game)


def unjudged_frames(replay: Replay, game: ReplayGame) -> tuple[list[ViewerFrame], Game]:
    """The replayed game as frames before any move is judged (the moves, their times and the running
    figures, no analysis), and the game at its end: what a viewer shows while the review is made."""
    running = _running_figures(replay, game)
    played = Game(replay.layout)
    frames = []
    for k, move in enumerate(game.moves):
        frames.append(ViewerFrame(played.position(), move=ViewerMove.of(move.move), time=move.time,
                                  text="analysis on its way", figures=running(k)))
        played.play(move.move)
    verdict = Verdict.WON if game.won else Verdict.LOST if played.exploded is not None else Verdict.UNFINISHED
    frames.append(ViewerFrame(
        played.position(), verdict=verdict.value, text=verdict.value,
        mines=frozenset(replay.layout.mines) if played.over else frozenset(), exploded=played.exploded,
        figures=running(len(frames)),
    ))
    return frames, played


def _running_figures(replay: Replay, game: ReplayGame) -> Callable[[int], tuple[tuple[str, str], ...]]:
    """The figures shown with frame ``k``: those just after move ``k - 1`` (the last past the end)."""
    size = (replay.rows, replay.cols, replay.mines)
    clicks = dict.fromkeys(("left", "right", "double", "lce", "rce", "dce"), 0)
    running = [ReplayMetrics.of(size, game.metrics.bbbv, 0, None, clicks, 0.0), *game.figures]
    return lambda k: tuple(running[min(k, len(running) - 1)].labelled())


def mouse_track(replay: Replay, game: ReplayGame) -> MouseTrack:
    """The pointer's events up to the end of the game (flags placed before it left out)."""
    start = game.start if game.start is not None else (replay.events[0].time if replay.events else 0.0)
    size = replay.cell_size
    down = {"l": False, "r": False, "m": False}
    times: list[float] = []
    xs: list[float] = []
    ys: list[float] = []
    codes = []
    for event in replay.events[: game.end_event + 1]:
        kind = event.kind
        if kind == "pf":
            continue
        if kind in down:  # EVF's l, r, m: a press if the button is up, else a release
            kind += "r" if down[kind] else "c"
        if kind == "cc":
            down["l"] = down["r"] = True
            code = "c"
        elif kind == "mv":
            code = "."
        else:
            button, pressed = kind[0], kind[1] == "c"
            down[button] = pressed
            code = button if pressed else button.upper()
        times.append(round(event.time - start, 3))
        xs.append(event.x / size)
        ys.append(event.y / size)
        codes.append(code)
    return MouseTrack(tuple(times), tuple(xs), tuple(ys), "".join(codes))
