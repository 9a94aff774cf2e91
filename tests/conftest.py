"""What every test process shares.

After collection a test process holds some 150,000 objects (every module of the suite and
of minesat, the collected tests, the doctests) that live as long as it does. They are frozen
out of the cyclic garbage collector, so that each full collection (the automatic ones, and
the one :func:`minesat.analysis.engine.analyze_within` makes past a budget) scans only what
the tests made since: about 70 ms less each time, on a machine at load 3.
"""

from __future__ import annotations

import gc

import pytest


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.freeze()
