"""What a move was: the one vocabulary of the player, the review, the viewer and the web app.

The automatic player says why it makes a move (:class:`~minesat.player.Step`);
the review judges a move someone made (:class:`~minesat.review.ReviewedMove`);
the viewer colours a frame by it and the web app reports it. They all speak of
the same things, so they share one :class:`Verdict`; each face keeps only its
own words for it (``minesat solve``'s ``proven safe``, the viewer's CSS classes).

>>> Verdict.GUESS in RISKY, Verdict("no effect")
(True, <Verdict.NO_EFFECT: 'no effect'>)
"""

from __future__ import annotations

import enum

__all__ = ["NOTABLE", "RISKY", "Verdict"]


class Verdict(enum.StrEnum):
    """What a move was, judged on the position before it (the value is the word the JSON carries)."""

    FIRST = "first"  # the first uncover of the game, safe by the first-click rule
    SAFE = "safe"  # opened only cells the numbers prove mine-free
    GUESS = "guess"  # risked a mine (and, in a review, survived)
    LOSS = "loss"  # risked a mine and hit one
    MINE = "mine"  # a flag on a proven mine
    UNPROVEN = "unproven"  # a flag on a mine the numbers do not prove yet
    WRONG = "wrong"  # a flag on a safe cell
    UNFLAG = "unflag"  # a flag taken off
    NO_EFFECT = "no effect"  # refused by the rules: changes nothing


#: Verdicts of moves that risked a mine.
RISKY = (Verdict.GUESS, Verdict.LOSS)

#: Verdicts of the moves a review lists (``minesat replay``, a notebook): the risky ones and wrong flags.
NOTABLE = (*RISKY, Verdict.WRONG)
