"""A game played with a judge beside it, one move at a time: what the web app's games are made of.

A game of the web app (:class:`minesat.web.games.GameSession`) draws its layout when the first
click is known (:func:`generate_layout`), judges each move as it is played
(:class:`Reviewer`: the position the player saw analysed, the move named safe, a mine or a
guess), plays the automatic player's rounds on request (:class:`Rounds`), explains a proven
cell (:func:`explain`) and counts what was solved (:func:`bbbv_solved`). They are gathered
here, apart from the package: importing them loads the judge (numpy), which the command line's
quick commands never need (tests/test_cli_startup.py).

>>> from minesat.board import Layout, Move
>>> judge = Reviewer(Layout.from_rows(["*  ", "   "]), rule="safe")
>>> judge.play(Move.parse("B3")).verdict.value, judge.game.status.value
('first', 'playing')
"""

from __future__ import annotations

from minesat.analysis import Analyzer
from minesat.analysis.explain import explain
from minesat.game import Status
from minesat.generate import check_mine_count, generate_layout, kept_clear
from minesat.metrics import bbbv_solved
from minesat.player import DEFAULT_STRATEGY, REASONS, Rounds, Step, default_start
from minesat.review import ReviewedMove, Reviewer, describe, without_flags

__all__ = [
    "DEFAULT_STRATEGY",
    "REASONS",
    "Analyzer",
    "ReviewedMove",
    "Reviewer",
    "Rounds",
    "Status",
    "Step",
    "bbbv_solved",
    "check_mine_count",
    "default_start",
    "describe",
    "explain",
    "generate_layout",
    "kept_clear",
    "without_flags",
]
