"""A game in the browser: one self-contained HTML page that steps through it move by move.

:mod:`.frames` holds the data model (:class:`ViewerFrame`, one per move: the
position the player saw, its analysis, the move and its verdict) and builds it
from our own games; :mod:`.page` draws any list of frames as a page.

>>> from minesat.board import Layout
>>> frames = player_frames(Layout.from_rows(["*  ", "   ", "   "]), (2, 2))
>>> page = render_viewer("tiny", [("moves", len(frames) - 1)], frames)
>>> "game-data" in page and "http://" not in page and "https://" not in page
True
"""

from __future__ import annotations

from minesat.viewer.frames import (
    ENDED,
    KINDS,
    NEEDLESS,
    SHOWN,
    MouseTrack,
    ViewerFrame,
    ViewerMove,
    check_frames,
    display_verdict,
    final_frame,
    game_frames,
    player_frames,
    record_summary,
    review_frames,
)
from minesat.viewer.page import encode_frames, render_viewer, script_json

#: The largest board (in cells) the commands draw as a viewer page: every step keeps its
#: position's full analysis, so building a page costs about the board's cells times its
#: moves. A won 64x64 game with 500 mines (1 360 moves) took 13 s and 380 MB; a 100x100
#: game with 2 000 mines passed 5 GB and ten minutes before it was stopped.
MAX_VIEWER_CELLS = 64 * 64

__all__ = [
    "ENDED",
    "KINDS",
    "MAX_VIEWER_CELLS",
    "NEEDLESS",
    "SHOWN",
    "MouseTrack",
    "ViewerFrame",
    "ViewerMove",
    "check_frames",
    "display_verdict",
    "encode_frames",
    "final_frame",
    "game_frames",
    "player_frames",
    "record_summary",
    "render_viewer",
    "review_frames",
    "script_json",
]
