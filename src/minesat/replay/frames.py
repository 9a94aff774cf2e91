"""A replay in the game viewer (:mod:`minesat.viewer`): its frames with the running figures, and
the pointer's track.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from minesat.formats.replay import Replay
from minesat.game import Game
from minesat.replay.clicks import ReplayMetrics, no_clicks
from minesat.replay.mouse import ReplayGame
from minesat.replay.reviewed import ReplayReview
from minesat.viewer import ENDED, MouseTrack, ViewerFrame, ViewerMove, render_viewer, review_frames

__all__ = ["mouse_track", "replay_frames", "unjudged_frames", "viewer_page"]


def viewer_page(result: ReplayReview, link_tip: bool = True) -> str:
    """The game as a step-through page (:mod:`minesat.viewer`); review with ``keep_analyses=True``.
    ``link_tip`` false: without the tip about the page's address (a page shown inside another)."""
    frames, mouse = replay_frames(result)
    return render_viewer(result.title(), result.summary(), frames, result.review.layout, mouse,
                         link_tip=link_tip)


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
        frames.append(ViewerFrame(played.position, move=ViewerMove.of(move.move), time=move.time,
                                  text="analysis on its way", figures=running(k)))
        played.play(move.move)
    ended = ENDED[played.status]
    frames.append(ViewerFrame(
        played.position, verdict=ended, text=ended,
        mines=frozenset(replay.layout.mines) if played.over else frozenset(), exploded=played.exploded,
        figures=running(len(frames)),
    ))
    return frames, played


def _running_figures(replay: Replay, game: ReplayGame) -> Callable[[int], tuple[tuple[str, str], ...]]:
    """The figures shown with frame ``k``: those just after move ``k - 1`` (the last past the end)."""
    size = (replay.rows, replay.cols, replay.mines)
    running = [ReplayMetrics.of(size, game.metrics.bbbv, 0, None, no_clicks(), 0.0), *game.figures]
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
