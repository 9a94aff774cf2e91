"""Games played in the browser: the mines stay here, the page sees what a player sees.

A :class:`GameSession` is one game: its size, first-click rule and seed (or a
given layout), and a :class:`~minesat.review.Reviewer` that plays each move
and judges it on the position before it (the same judge as ``minesat
replay``), so the page can say at once what a guess risked. The layout is
drawn at the first uncover, from the seed, as :class:`~minesat.game.Game`
draws it; it is sent to the page only once the game is over.

:class:`GameSessions` keeps a bounded number of them under random ids: past
the bound, the game touched longest ago is dropped.

>>> games = GameSessions(limit=2)
>>> game = games.new(4, 4, 1, rule="opening", seed=7)
>>> game.play("A1").verdict.value, game.state()["status"], "mine_cells" in game.state()
('first', 'playing', False)
>>> games.get(game.id) is game
True
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from typing import Any

from minesat.board import MAX_SIDE, Action, Layout, Move, cell_name
from minesat.game import Status
from minesat.generate import FirstClick, check_mine_count, generate_layout
from minesat.review import ReviewedMove, Reviewer, describe
from minesat.words import plural

#: Largest side of a board played in the browser (a bigger grid is no game on a screen).
MAX_PLAY_SIDE = 100

#: Games kept at once; past it, the game touched longest ago is dropped.
MAX_GAMES = 200


class GameError(ValueError):
    """A move or a game the rules refuse; the message says why (the API answers 409 or 400)."""


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
    ) -> None:
        if layout is not None:
            rows, cols, mines = layout.rows, layout.cols, layout.mine_count
        if max(rows, cols) > MAX_PLAY_SIDE:
            raise GameError(f"a game in the browser is at most {MAX_PLAY_SIDE}x{MAX_PLAY_SIDE}")
        check_mine_count(rows, cols, mines, None, FirstClick.ANY, MAX_SIDE)
        self.id = secrets.token_urlsafe(16)
        self.rows, self.cols, self.mines = rows, cols, mines
        # A given layout is played as it is: nothing protects its first click.
        self.rule = FirstClick.ANY if layout is not None else FirstClick(rule)
        self.seed = seed if seed is not None or layout is not None else secrets.randbelow(2**63)
        self.given = layout is not None
        self.reviewer = Reviewer(layout, rule=self.rule) if layout is not None else None
        self.lock = threading.Lock()
        self.touched = time.monotonic()

    def play(self, text: str) -> ReviewedMove:
        """Judge and play one move in SPEC notation (``A5``, ``A5*``, ``A5-``, ``A5+``)."""
        try:
            move = Move.parse(text)
        except ValueError as err:
            raise GameError(str(err)) from None
        r, c = move.cell
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise GameError(f"{text} is off the {self.rows}x{self.cols} board")
        with self.lock:
            if self.reviewer is None:
                if move.action is not Action.UNCOVER:
                    raise GameError("the first move uncovers a cell: the mines are placed then")
                try:
                    layout = generate_layout(
                        self.rows, self.cols, self.mines, start=move.cell, rule=self.rule, seed=self.seed
                    )
                except ValueError as err:  # the mines do not fit around this first click
                    raise GameError(str(err)) from None
                self.reviewer = Reviewer(layout, rule=self.rule)
            if self.reviewer.game.over:
                raise GameError(f"the game is over ({self.reviewer.game.status.value})")
            return self.reviewer.play(move)

    @property
    def over(self) -> bool:
        return self.reviewer is not None and self.reviewer.game.over

    def state(self, last: ReviewedMove | None = None) -> dict[str, Any]:
        """What the page may see: the cells as a player sees them; the mines once the game is over."""
        reviewer = self.reviewer
        state: dict[str, Any] = {
            "id": self.id,
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "rule": self.rule.value,
            "seed": self.seed,
            "status": Status.PLAYING.value if reviewer is None else reviewer.game.status.value,
            "cells": [-1] * (self.rows * self.cols) if reviewer is None else list(reviewer.game.state),
            "moves": 0 if reviewer is None else len(reviewer.moves),
            "guesses": [] if reviewer is None else [
                {"move": m.move, "probability": m.probability, "text": describe(m)}
                for m in reviewer.moves if m.verdict.value in ("guess", "loss")
            ],
        }
        if last is not None:
            state["last"] = {"move": last.move, "verdict": last.verdict.value,
                             "probability": last.probability, "text": describe(last)}
        if reviewer is not None and reviewer.game.over:
            layout = reviewer.game.layout
            assert layout is not None
            state["mine_cells"] = sorted(cell_name(c) for c in layout.mines)
            state["exploded"] = None if reviewer.game.exploded is None else cell_name(reviewer.game.exploded)
        return state

    def about(self) -> list[tuple[str, str]]:
        """The (label, value) pairs that head the game's review page."""
        board = f"{self.rows}x{self.cols}, {plural(self.mines, 'mine')}"
        if self.given:
            return [("Board", f"{board} (a given layout)")]
        return [("Board", board), ("First click", f"{self.rule.value} rule"), ("Seed", str(self.seed))]


class GameSessions:
    """The games in progress, by id, at most ``limit`` of them (the oldest touched dropped first)."""

    def __init__(self, limit: int = MAX_GAMES) -> None:
        self.limit = limit
        self._games: OrderedDict[str, GameSession] = OrderedDict()
        self._lock = threading.Lock()

    def new(self, rows: int, cols: int, mines: int, **options: Any) -> GameSession:
        game = GameSession(rows, cols, mines, **options)
        with self._lock:
            self._games[game.id] = game
            while len(self._games) > self.limit:
                self._games.popitem(last=False)
        return game

    def get(self, game_id: str) -> GameSession:
        """The game, marked as just used; :class:`KeyError` for an unknown (or dropped) id."""
        with self._lock:
            game = self._games[game_id]
            self._games.move_to_end(game_id)
        game.touched = time.monotonic()
        return game

    def __len__(self) -> int:
        return len(self._games)
