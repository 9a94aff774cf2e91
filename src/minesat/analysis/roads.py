"""What a road of the analysis reads of the Analyzer that holds it.

An :class:`~minesat.analysis.engine.Analyzer` sends a position down a shorter road
where one answers it: the small road (:mod:`.smallroad`) for boards read whole as bit
masks, the big road (:mod:`.bigroad`) for boards read whole as arrays. Each road is
made by its Analyzer and reads the Analyzer's settings at every call, and the big road
counts and weighs its parts with the Analyzer's own cached code, so both roads give the
general road's answer. The roads stand below the engine: they know the Analyzer only
as these protocols, which it satisfies, and never import it.
"""

from __future__ import annotations

from typing import Protocol

from minesat.analysis.combine import Split, Weighed
from minesat.analysis.constraints import Component
from minesat.analysis.counting import ComponentCount

__all__ = ["PartWeigher", "RoadSettings"]


class RoadSettings(Protocol):
    """The settings of an Analyzer a road honours, read at every call.

    The state budget, the local rules and the small road are fixed for the Analyzer's
    life; the work budget may be raised between calls, so an answer a road keeps keys on it.
    """

    @property
    def state_budget(self) -> int:
        """Most states exact counting may hold per part."""
        ...

    @property
    def use_local_rules(self) -> bool:
        """Whether the local rules run before counting and SAT."""
        ...

    @property
    def small_boards(self) -> bool:
        """Whether small boards take the small road."""
        ...

    @property
    def work_budget(self) -> int:
        """The work one call may spend weighing parts exactly, and on solver calls."""
        ...


class PartWeigher(RoadSettings, Protocol):
    """An Analyzer's settings, and its counting and weighing of the parts a road finds:
    what the big road leaves to the general road's code, so that both answer alike."""

    def part_count(self, part: Component) -> ComponentCount | None:
        """A part's exact count by mine count (cached), or ``None`` past the state budget."""
        ...

    def weigh(self, split: Split, interior: int, left: int) -> Weighed:
        """The parts of ``split`` weighed with ``interior`` cells under ``left`` mines."""
        ...

    def without_total(self, split: Split) -> Weighed:
        """What the parts of ``split`` prove on their own, the total unknown."""
        ...
