"""The click metrics of a replayed game: the community's figures, from the counts the mouse made.

The clicks are counted as the community counts them (ms-toollib's
conventions): **left** every left click (also off the board, or on an
uncovered cell), **right** every right click (but not a right press that
ends up part of a chord when it had nothing to flag), **double** every chord
on the board; **cl** = left + right + double; **ce** (effective clicks) the
left clicks that uncover, the flags put on a mine not flagged before, and the
chords that uncover; **ioe** = 3BV solved / cl, **corr** = ce / cl. Clicks
before the game starts count only while a flag stands: a player who flags and
unflags again before starting has made no clicks (:mod:`.mouse` counts them).

The speed figures follow ms-toollib 1.5.20 (checked against it on the sample
replays): **3BV/s** = 3BV solved / time; **RQP** = time² / 3BV solved;
**STNB** = C × 3BV solved / time^1.7 × √(3BV solved / 3BV), with C = 36 for
beginner (8x8, 10 mines), 162 for intermediate (16x16, 40) and 435 for expert
(16x30, 99), and no STNB on other boards; **path** the distance the pointer
travelled from the game's start, in pixels of 16-pixel cells (events off the
board skipped). The 3BV solved is :class:`minesat.metrics.SolvedBbbv`'s count.

>>> m = ReplayMetrics.of((16, 30, 99), 120, 60, 30.0, dict(no_clicks(), left=70, lce=60), 3000.0)
>>> m.cl, m.ce, m.ioe, m.bbbv_per_second, round(m.stnb, 2)
(70, 60, 0.8571428571428571, 2.0, 56.89)
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

__all__ = ["CLICKS", "STNB_CONSTANTS", "ReplayMetrics", "no_clicks"]

#: The click counts a game keeps: left, right and double clicks, and the effective part of each.
CLICKS = ("left", "right", "double", "lce", "rce", "dce")


def no_clicks() -> dict[str, int]:
    """Every count of :data:`CLICKS` at 0: a game before its first click."""
    return dict.fromkeys(CLICKS, 0)


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
        constant = STNB_CONSTANTS.get(size)
        stnb = None
        if seconds and constant is not None and bbbv:  # timed: neither None nor 0
            stnb = constant * solved / seconds**1.7 * math.sqrt(solved / bbbv)
        return cls(
            bbbv=bbbv,
            bbbv_solved=solved,
            seconds=seconds,
            bbbv_per_second=solved / seconds if seconds else None,
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

