"""A played game recorded as a replay: plausible mouse events and times for a list of moves.

The inverse of :mod:`minesat.replay`, which turns a replay's mouse events back
into moves. :func:`record_game` plays the moves on the layout and writes down
what a steady human hand would have done for each:

- the pointer **travels** from the last click to a point near the middle of the
  next cell along a slightly bowed path, one ``mv`` event every 8-16 ms (a
  mouse polled at about 100 Hz), taking the time Fitts's law gives a pointing
  movement (about 60 ms plus 100 ms per doubling of the distance in cells);
- before each travel the player **thinks** for 150-400 ms;
- an uncover is a **left click** (``lc``, held 40-100 ms, ``lr``), a flag or
  unflag a **right click** (``rc`` ... ``rr``), a chord **both buttons**
  (``lc``, ``rc`` 5-30 ms later, ``lr`` to fire it, ``rr`` just after).

Every duration is drawn from ``random.Random(seed)``: the same moves and seed
give the same events, to the millisecond. The clock follows the format's
program: Metasweeper (``evf``) records from the first press, at time 0;
Viennasweeper (``rmv``) from the release that starts the game, which is time 0,
so its file has no first press. The replay also carries the board events RMV
stores (a cell pressed, opened, flagged).

>>> from minesat.board import Layout
>>> layout = Layout.from_rows(["*  ", "   ", "   "])
>>> replay = record_game(layout, ["C3"], format="evf", seed=1)
>>> [(e.time, e.kind, e.cell) for e in replay.events]
[(0.0, 'lc', (2, 2)), (0.056, 'lr', (2, 2))]
>>> replay.completed, replay.rtime, replay.bbbv
(True, 0.0, 1)
>>> record_game(layout, ["C3", "A1*"])
Traceback (most recent call last):
...
minesat.errors.InvalidValue: move 2 (A1*): the game is already over

Flags are right clicks and a chord both buttons; :mod:`minesat.replay` reads the
same moves back:

>>> from minesat.replay import play_replay
>>> layout = Layout.from_rows(["*  ", "   ", "  *"])
>>> replay = record_game(layout, ["B2", "A1*", "C3*", "B2+"], format="rmv")
>>> [e.kind for e in replay.events if e.kind != "mv"]
['lr', 'rc', 'rr', 'rc', 'rr', 'lc', 'rc', 'lr']
>>> game = play_replay(replay)
>>> [str(m) for m in game.moves], game.won, game.metrics.cl
(['B2', 'A1*', 'C3*', 'B2+'], True, 4)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from minesat.board import COVERED, Action, Cell, Layout, Move, neighbours
from minesat.errors import InvalidValue
from minesat.formats.replay import BoardEvent, MouseEvent, Replay, cell_of, level_name
from minesat.game import Game, MoveResult

__all__ = ["RECORDED_FORMATS", "record_game"]

#: The formats whose program's clock :func:`record_game` follows (the ones minesat writes).
RECORDED_FORMATS = ("evf", "rmv")

#: Think time before each move, pointer poll interval, button hold, and the delay
#: between a chord's two presses (and its two releases), all in ms.
THINK_MS = (150, 400)
POLL_MS = (8, 16)
HOLD_MS = (40, 100)
CHORD_GAP_MS = (5, 30)


def record_game(
    layout: Layout,
    moves: Iterable[Move | str],
    *,
    format: str = "evf",
    seed: int = 0,
    cell_size: int = 16,
    player: str = "minesat",
    program: str = "minesat",
    version: str | None = None,
    date: datetime | None = None,
    path: str = "<recorded>",
) -> Replay:
    """The moves played on ``layout`` as a :class:`~minesat.formats.replay.Replay` of ``format``.

    ``moves`` are :class:`~minesat.board.Move` values or move strings (``C3``,
    ``A1*``, ``A1-``, ``B2+``); the first must uncover. ``date`` is when the
    game started (now when not given); ``version`` defaults to minesat's.
    Raises :class:`ValueError` for a move the game refuses (the message names
    it), a move after the game ended, or a first move that does not uncover.
    """
    if format not in RECORDED_FORMATS:
        raise InvalidValue(f"cannot record a game as {format!r} (use one of {', '.join(RECORDED_FORMATS)})")
    if version is None:
        from minesat import __version__

        version = __version__
    played = [m if isinstance(m, Move) else Move.parse(m) for m in moves]
    if not played or played[0].action is not Action.UNCOVER:
        raise InvalidValue("a recorded game starts with an uncover")
    hand = _Hand(layout, cell_size, random.Random(seed))
    game = Game(layout)
    for number, move in enumerate(played, 1):
        if game.over:
            raise InvalidValue(f"move {number} ({move}): the game is already over")
        hand.play(game, move, number)

    events, board_events = hand.events, hand.board_events
    if format == "rmv":
        events, board_events = _from_first_release(events, board_events)
    # The game's time, as every program counts it: from the release that starts it to the last move.
    rtime = (hand.last_ms - (hand.first_release or 0)) / 1000
    when = (date or datetime.now(UTC)).astimezone(UTC)
    epoch_us = int(when.timestamp()) * 1_000_000
    flags_on_mines = any(m.action is Action.FLAG and m.cell in layout.mines for m in played)
    metadata = {
        "player": player,
        "program": program,
        "version": version,
        "date": f"{when:%Y-%m-%d %H:%M:%S}",
        "timestamp": str(epoch_us // 1_000_000),
        "start_time": str(epoch_us),
        "end_time": str(epoch_us + round(rtime * 1_000_000)),
        "level": level_name(layout.rows, layout.cols, layout.mine_count),
        "mode": "standard" if format == "evf" else "normal",
        "nf": "false" if flags_on_mines else "true",
    }
    return Replay(
        format=format,
        path=path,
        layout=layout,
        mines=layout.mine_count,
        events=tuple(events),
        rtime=rtime,
        completed=game.status.value == "won",
        bbbv=layout.bbbv(),
        cell_size=cell_size,
        question_marks=False,
        board_events=tuple(board_events),
        metadata=metadata,
    )


class _Hand:
    """The pointer, the clock and the rng: turns one move at a time into mouse and board events."""

    def __init__(self, layout: Layout, size: int, rng: random.Random) -> None:
        self.layout, self.size, self.rng = layout, size, rng
        self.width, self.height = layout.cols * size, layout.rows * size
        self.events: list[MouseEvent] = []
        self.board_events: list[BoardEvent] = []
        self.ms = 0
        self.x = self.y = -1  # no position yet: the first move starts where it clicks
        self.first_release: int | None = None
        self.last_ms = 0

    def play(self, game: Game, move: Move, number: int) -> None:
        refusal = game.refusal(move)
        if refusal is not None:
            raise InvalidValue(f"move {number} ({move}): {refusal}")
        target = self._target(move.cell)
        if self.events:
            self.ms += self.rng.randint(*THINK_MS)
            self._travel(target)
        else:
            self.x, self.y = target
        before = list(game.state)
        match move.action:
            case Action.UNCOVER:
                self._event("lc")
                self._board("pressed", [move.cell])
                self._wait(HOLD_MS)
                result = self._release(game, move, before, "lr")
            case Action.FLAG | Action.UNFLAG:
                self._event("rc")
                result = game.play(move)
                self._board("flag" if move.action is Action.FLAG else "closed", [move.cell])
                self._wait(HOLD_MS)
                self._event("rr")
            case Action.CHORD:
                self._event("lc")
                self._wait(CHORD_GAP_MS)
                self._event("rc")
                around = neighbours(move.cell, game.rows, game.cols)
                self._board("pressed", [n for n in around if game[n] == COVERED])
                self._wait(HOLD_MS)
                result = self._release(game, move, before, "lr")
                if not game.over:  # a recording ends with the game
                    self._wait(CHORD_GAP_MS)
                    self._event("rr")
        if result not in (MoveResult.VALID, MoveResult.SOLVED, MoveResult.BLOWN_UP):
            raise InvalidValue(f"move {number} ({move}): {result.value}")
        if not game.over:
            self.last_ms = self.ms

    def _release(self, game: Game, move: Move, before: list[int], kind: str) -> MoveResult:
        """The release that uncovers: the game's answer as board events (opened cells, the blast)."""
        self._event(kind)
        if self.first_release is None:
            self.first_release = self.ms
        result = game.play(move)
        cols = game.cols
        opened = [divmod(i, cols) for i, (was, now) in enumerate(zip(before, game.state, strict=True))
                  if was != now and now >= 0]
        for cell in opened:
            self.board_events.append(BoardEvent(len(self.events) - 1, f"open_{game[cell]}", *cell))
        if game.exploded is not None:
            self.board_events.append(BoardEvent(len(self.events) - 1, "blast", *game.exploded))
        if game.over:
            self.last_ms = self.ms
        return result

    def _target(self, cell: Cell) -> tuple[int, int]:
        """A point near the middle of ``cell`` (within a quarter of a cell of it)."""
        s, spread = self.size, self.size // 4
        return (cell[1] * s + s // 2 + self.rng.randint(-spread, spread),
                cell[0] * s + s // 2 + self.rng.randint(-spread, spread))

    def _travel(self, target: tuple[int, int]) -> None:
        """Move events along a bowed path to ``target``, timed by Fitts's law."""
        (x0, y0), (x1, y1) = (self.x, self.y), target
        distance = math.hypot(x1 - x0, y1 - y0)
        if distance == 0:
            return
        duration = (60 + 100 * math.log2(1 + distance / self.size)) * self.rng.uniform(0.8, 1.25)
        bow = self.rng.uniform(-0.12, 0.12) * distance
        normal = (-(y1 - y0) / distance, (x1 - x0) / distance)
        elapsed = 0
        while True:
            step = self.rng.randint(*POLL_MS)
            elapsed += step
            self.ms += step
            s = min(1.0, elapsed / duration)
            eased = s * s * (3 - 2 * s)
            off = bow * math.sin(math.pi * s)
            x = round(x0 + (x1 - x0) * eased + normal[0] * off)
            y = round(y0 + (y1 - y0) * eased + normal[1] * off)
            x, y = min(max(x, 0), self.width - 1), min(max(y, 0), self.height - 1)
            if (x, y) != (self.x, self.y):
                self.x, self.y = x, y
                self._event("mv")
            if s >= 1.0:
                break
        self.x, self.y = target

    def _wait(self, span: tuple[int, int]) -> None:
        self.ms += self.rng.randint(*span)

    def _event(self, kind: str) -> None:
        row, col = cell_of(self.x, self.y, self.size, self.layout.rows, self.layout.cols)
        self.events.append(MouseEvent(self.ms / 1000, kind, self.x, self.y, row, col))

    def _board(self, kind: str, cells: Sequence[Cell]) -> None:
        for cell in cells:
            self.board_events.append(BoardEvent(len(self.events) - 1, kind, *cell))


def _from_first_release(
    events: list[MouseEvent], board_events: list[BoardEvent]
) -> tuple[list[MouseEvent], list[BoardEvent]]:
    """Viennasweeper's recording: it starts at the first left release (time 0), without its press.

    The press's board event (the cell shown pressed) moves to the release, as
    Viennasweeper writes it.
    """
    first = next(i for i, e in enumerate(events) if e.kind == "lr")
    zero = events[first].time
    kept = [MouseEvent(round(e.time - zero, 3), e.kind, e.x, e.y, e.row, e.col) for e in events[first:]]
    moved = [BoardEvent(max(b.after - first, 0), b.kind, b.row, b.col) for b in board_events]
    return kept, moved

