"""Files: boards read for a command and converted, board sets, replays of real games reviewed (at
once, before any move is judged, and whole), and outputs written whole or not at all.

>>> board_from_content("1?\\n", "board", "text", "position", "analyze").to_rows()
['1?']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from minesat.board import Layout
from minesat.formats import (
    EXTENSIONS,
    FORMATS,
    MAX_BYTES,
    BoardFormatError,
    UnsupportedFormatError,
    format_for,
    format_layout,
    format_position,
    open_atomic,
    open_text_atomic,
    write_text_atomically,
)
from minesat.formats.boardset import iter_boardset
from minesat.formats.replay import (
    MAX_REPLAY_BYTES,
    MAX_WRITTEN_SIDE,
    Replay,
    parse_replay,
    read_replay,
    replay_format_for,
    written_choice,
    written_format_for,
)
from minesat.formats.wanted import InputError, board_from_content, read_board
from minesat.game import LEGEND, render_grid, render_position

if TYPE_CHECKING:
    from minesat.replay import ReplayReview
    from minesat.review import ReviewedMove

__all__ = [
    "BOARD_SET_EXTENSIONS",
    "EXTENSIONS",
    "FORMATS",
    "LEGEND",
    "MAX_BYTES",
    "MAX_REPLAY_BYTES",
    "MAX_WRITTEN_SIDE",
    "BoardFormatError",
    "InputError",
    "Replay",
    "UnsupportedFormatError",
    "board_from_content",
    "describe_move",
    "format_for",
    "format_layout",
    "format_position",
    "iter_boardset",
    "open_atomic",
    "open_text_atomic",
    "parse_replay",
    "read_board",
    "read_layouts",
    "read_replay",
    "render_grid",
    "render_position",
    "replay_at_once",
    "replay_format_for",
    "replay_page",
    "review_replay",
    "sample_page",
    "viewer_too_large",
    "write_text_atomically",
    "written_choice",
    "written_format_for",
]

#: Extensions read as board sets (one layout per line); others are single layout files.
BOARD_SET_EXTENSIONS = (".jsonl", ".ndjson")


def read_layouts(path: Path, command: str) -> Iterator[tuple[int | None, Layout]]:
    """``(line, layout)`` per board of a board set, or ``(None, layout)`` for a layout file or
    ``-`` (standard input, in the text format, as every command reads it)."""
    from minesat.errors import InvalidValue

    if path.is_dir():
        raise InvalidValue(f"{path}: is a directory, not a board file")
    if path.suffix.lower() in BOARD_SET_EXTENSIONS:
        yield from iter_boardset(path)
    else:
        layout = read_board(path, None, "layout", command)
        assert isinstance(layout, Layout)
        yield None, layout


def review_replay(
    replay: Replay, *, keep_analyses: bool = False, progress: Callable[[int, int], None] | None = None
) -> ReplayReview:
    """A real game replayed through minesat's rules, every move judged on the position the
    player saw (``progress(done, total)`` over its moves); ``keep_analyses`` for its viewer page."""
    from minesat.replay import review_replay as review  # start-up: the judge loads numpy

    return review(replay, keep_analyses=keep_analyses, progress=progress)


def replay_page(result: ReplayReview, link_tip: bool = True) -> str:
    """A reviewed replay as a viewer page (docs/viewer.md)."""
    from minesat.replay import viewer_page  # start-up: the viewer loads Jinja2

    return viewer_page(result, link_tip=link_tip)


def replay_at_once(
    replay: Replay, judged_rows: tuple[str, ...]
) -> tuple[str, list[tuple[str, str]], int, str]:
    """A replay's game before any move is judged: its title, its summary without the rows that
    need every move judged (``judged_rows``), its number of moves, and its viewer page stepping
    through its moves (and its pointer) without their analysis (no "open ?step=N" tip)."""
    from minesat.replay import ReplayReview, mouse_track, play_replay, unjudged_frames  # start-up: numpy
    from minesat.review import GameReview
    from minesat.viewer import render_viewer

    played = play_replay(replay)
    frames, game = unjudged_frames(replay, played)
    unjudged = GameReview(replay.layout, (), game.status, game.position, game.exploded)
    result = ReplayReview(replay, played, unjudged)
    summary = [pair for pair in result.summary() if pair[0] not in judged_rows]
    summary.append(("Guesses", "each move is being analysed"))
    page = render_viewer(result.title(), summary, frames, replay.layout, mouse_track(replay, played),
                         link_tip=False)
    return result.title(), summary, len(played.moves), page


def describe_move(move: ReviewedMove, player: str | None = None) -> str:
    """A judged move in a sentence, as ``minesat replay`` says it (``player``: who chose the move a
    guess is compared with)."""
    from minesat.review import describe  # start-up: the judge loads numpy

    return describe(move) if player is None else describe(move, player)


def sample_page() -> str:
    """A small viewer page, as every page the web app answers is made: the app allows the inline
    script and style they all share by their hashes."""
    from minesat.board import Move
    from minesat.viewer import game_frames, render_viewer  # start-up: the viewer loads Jinja2

    layout = Layout.from_rows(["* "])
    return render_viewer("sample", {}, game_frames(layout, [Move.parse("A2")]), layout, link_tip=False)


def viewer_too_large(rows: int, cols: int, option: str = "--html") -> str | None:
    """Why a ``rows`` x ``cols`` board is too large for a viewer page, or ``None`` when it is not
    (:data:`~minesat.viewer.MAX_VIEWER_CELLS`)."""
    from minesat.viewer import MAX_VIEWER_CELLS  # start-up: the viewer loads Jinja2

    if rows * cols <= MAX_VIEWER_CELLS:
        return None
    return (f"{option} draws boards of up to {MAX_VIEWER_CELLS} cells (64x64), not {rows}x{cols}: "
            "each step keeps its whole analysis; leave out " + option)
