"""A replay reviewed: the game it replays to, every move judged, and ``minesat replay --json``'s object.

>>> from minesat.formats.replay import MouseEvent
>>> from minesat.board import Layout
>>> events = (MouseEvent(0.0, "lc", 40, 8, 0, 2), MouseEvent(0.1, "lr", 40, 8, 0, 2))
>>> result = review_replay(Replay("avf", "x.avf", Layout.from_rows(["*  "]), 1, events, 0.1, None))
>>> result.title(), result.to_json()["moves"][0]["verdict"]
('x.avf: 1x3, 1 mine', 'first')
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from minesat.board import cell_name
from minesat.formats.replay import Replay, program_text, read_replay
from minesat.generate import FirstClick
from minesat.replay.clicks import ReplayMetrics
from minesat.replay.mouse import ReplayGame, play_replay
from minesat.review import GameReview, PlayedMove, ReviewedMove, describe, review_game
from minesat.stats import percent
from minesat.words import plural

__all__ = ["ReplayReview", "review_replay"]


@dataclass(frozen=True)
class ReplayReview:
    """A replay, the game it replays to, and every move judged on the position before it.

    The judging is :func:`minesat.review.review_game`'s (the first click is the
    program's safe start: every program these files come from keeps it off a mine).
    """

    replay: Replay
    game: ReplayGame
    review: GameReview

    def __repr__(self) -> str:
        return f"<ReplayReview of {self.replay!r}: {self.review.outline()}>"

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
        rates = [f"RQP {metrics.rqp:.3f}"] if metrics.rqp is not None else []
        rates += [f"STNB {metrics.stnb:.1f}"] if metrics.stnb is not None else []
        pairs.append(("Speed", ", ".join([*rates, f"path {metrics.path:.0f} px"])))
        pairs.append(("Guesses", f"{review.guesses} ({review.needless_guesses} needless)"))
        if review.guesses and review.survival is not None:
            chance = f"{percent(review.survival)}"
            if review.safest_survival is not None:
                chance += f" (with the safest choices {percent(review.safest_survival)})"
            pairs.append(("Chance the guesses all survive", chance))
        return pairs

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


