"""Real games from replay files: the mouse events turned into moves, the click metrics, the review.

Each concern has its module:

- :mod:`.mouse`: the mouse state machine, which decides what each press and release
  meant and plays the moves through :class:`~minesat.game.Game` (:func:`play_replay`);
- :mod:`.clicks`: the community's figures from the clicks it counted
  (:class:`ReplayMetrics`: 3BV/s, IOE, RQP, STNB, path; the 3BV solved is
  :class:`minesat.metrics.SolvedBbbv`'s);
- :mod:`.reviewed`: every move judged by :mod:`minesat.review`, and ``minesat replay
  --json``'s object (:func:`review_replay`, :class:`ReplayReview`);
- :mod:`.frames`: the game in the viewer, with the running figures and the pointer's track.

>>> from minesat.formats.replay import MouseEvent, Replay
>>> from minesat.board import Layout
>>> events = (MouseEvent(0.0, "lc", 40, 8, 0, 2), MouseEvent(0.1, "lr", 40, 8, 0, 2))
>>> game = play_replay(Replay("avf", "x.avf", Layout.from_rows(["*  "]), 1, events, 0.1, None))
>>> [str(m) for m in game.moves], game.won, game.metrics.cl
(['A3'], True, 1)
"""

from __future__ import annotations

from minesat.metrics import bbbv_solved
from minesat.replay.clicks import STNB_CONSTANTS, ReplayMetrics
from minesat.replay.frames import mouse_track, replay_frames, unjudged_frames, viewer_page
from minesat.replay.mouse import (
    MOVE_KINDS,
    ReplayGame,
    ReplayMove,
    ReplayStep,
    play_replay,
    replay_metrics,
    replay_moves,
    replay_steps,
)
from minesat.replay.reviewed import ReplayReview, review_replay

__all__ = [
    "MOVE_KINDS",
    "STNB_CONSTANTS",
    "ReplayGame",
    "ReplayMetrics",
    "ReplayMove",
    "ReplayReview",
    "ReplayStep",
    "bbbv_solved",
    "mouse_track",
    "play_replay",
    "replay_frames",
    "replay_metrics",
    "replay_moves",
    "replay_steps",
    "review_replay",
    "unjudged_frames",
    "viewer_page",
]
