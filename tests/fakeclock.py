"""A clock for the tests of time budgets: each reading is ``step`` seconds after the one before, so
a time limit is reached after a known number of readings (a known amount of work), however busy the
machine. No test asserts how long something took on the real clock (timings are benchmarks/).

>>> clock = FakeClock(step=0.5)
>>> clock(), clock(), clock.readings
(1000.5, 1001.0, 2)
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any

import pytest


class FakeClock:
    """``time.perf_counter`` and ``time.monotonic`` for a test; ``step`` may be changed as it goes
    (0: time stands still)."""

    def __init__(self, step: float = 0.001, start: float = 1000.0) -> None:
        self.now, self.step, self.readings = start, step, 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now

    def install(self, monkeypatch: pytest.MonkeyPatch, *modules: ModuleType) -> FakeClock:
        """Let ``modules`` read this clock through their ``time`` (the rest of ``time`` is the real one)."""
        for module in modules:
            monkeypatch.setattr(module, "time", _Time(self), raising=False)
        return self


class _Time:
    """The ``time`` module with its two clocks replaced."""

    def __init__(self, clock: FakeClock) -> None:
        self.perf_counter = self.monotonic = clock

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)
