"""The automatic player: proven moves first, the best guess when none exists.

(Skeleton: the value types are fixed here so simulation and reports can rely on them.)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Guess:
    """A move made without proof, with the mine probability the player saw."""

    move: str
    probability: float


@dataclass(frozen=True)
class GameRecord:
    """How one game went. ``moves`` are in SPEC notation, first click included."""

    won: bool
    moves: tuple[str, ...]
    guesses: tuple[Guess, ...]
    uncovered: int  # mine-free cells uncovered when the game ended
    bbbv: int  # 3BV of the layout
    seconds: float  # wall time of the game (not part of any determinism promise)

    @property
    def fatal_guess(self) -> int | None:
        """1-based number of the guess that lost the game (the player only loses on a guess)."""
        return len(self.guesses) if not self.won and self.guesses else None
