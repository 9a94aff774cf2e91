"""A replay's mouse events turned into moves, played by minesat's rules.

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

As it goes it counts the clicks and the pointer's path (:mod:`.clicks`), and the
3BV solved (:class:`~minesat.metrics.SolvedBbbv`): :attr:`ReplayGame.figures`
holds the figures after every move, as a player's viewer shows them running.

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
from collections.abc import Iterator
from dataclasses import dataclass

from minesat.board import COVERED, FLAG, Action, Cell, Move, Position, cell_name
from minesat.formats.replay import MouseEvent, Replay
from minesat.game import Game, MoveResult, Status
from minesat.metrics import SolvedBbbv
from minesat.replay.clicks import ReplayMetrics, no_clicks

__all__ = [
    "MOVE_KINDS",
    "ReplayGame",
    "ReplayMove",
    "ReplayStep",
    "play_replay",
    "replay_metrics",
    "replay_moves",
    "replay_steps",
]

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

    def __repr__(self) -> str:
        seconds = "" if self.seconds is None else f" in {self.seconds:.2f} s"
        moves = f"{len(self.moves)} move{'' if len(self.moves) == 1 else 's'}"
        return f"<ReplayGame: {self.status.value}{seconds}, {moves}, 3BV {self.metrics.bbbv}>"


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
    >>> from minesat.board import Layout
    >>> events = (MouseEvent(0.0, "lc", 40, 8, 0, 2), MouseEvent(0.1, "lr", 40, 8, 0, 2))
    >>> replay = Replay("avf", "x.avf", Layout.from_rows(["*  "]), 1, events, 0.1, None)
    >>> [(s.position.to_rows(), str(s.move), s.result.value) for s in replay_steps(replay)]
    [(['???'], 'A3', 'solved')]
    """
    game = Game(replay.layout)
    for move in replay_moves(replay) if moves is None else moves:
        before = game.position
        yield ReplayStep(before, move, game.play(move.move))


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
        self.count = no_clicks()
        self.cleared = SolvedBbbv(replay.layout)
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
                    self.count = no_clicks()
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
            tuple(self.moves), game.status, seconds, game.position, metrics, tuple(self.figures),
            self.start, end,
        )


