"""What every test process shares: a cyclic garbage collector that does not rescan the suite.

A test process holds some 150,000 objects after collection (every module of the suite and of
minesat, the collected tests, the doctests), and what the tests leave alive grows past 300,000
(caches, module fixtures). Every full collection scanned all of them: the automatic ones, and
the one :func:`minesat.analysis.engine.analyze_within` makes past a budget, 100-300 ms each
late in a suite worker, about 17 s of CPU per worker in all. So what is alive when a test
starts is frozen out of the collector (:func:`gc.freeze`): a collection scans only what the
test made. What earlier tests left as garbage is frozen with the rest; a full collection of
everything clears it once a million more objects are frozen than after the last (about once
per worker in a run of the suite, 1 s of CPU): a worker holds at most some 200 MB more.
"""

from __future__ import annotations

import gc
import os

import pytest

#: Frozen objects past those alive after the last full collection that make the next one.
UNCOLLECTED = 1_000_000

#: Tests between two looks at how many objects are frozen (counting them walks them all).
LOOK_EVERY = 20

_state = {"tests": 0, "kept": 0}


#: Modules whose set-up for the module is dear (test_web_browser: a server, a Chromium, two browser
#: contexts, some 3 s of CPU), run first. pytest-xdist's worksteal hands each worker a contiguous
#: half of the collection, and a worker out of tests steals the back half of another's queue: at
#: the back (as its name sorts), the module was split between the two workers and its set-up made
#: twice; at the front of the first worker's half, it runs whole before any stealing begins.
FIRST = ("tests/test_web_browser.py::",)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): one worker more than the cores this process may use.

    About a third of the suite's wall time is waiting (servers, child processes, a browser, the
    time limits under test), so a spare worker fills some of it: on 2 cores, 3 workers took 169,
    171 and 183 s where 2 took 179, 182 and 179 s (load 2 to 4).
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides where it is set, as without this hook.
    """
    if (wanted := os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")) is not None:
        return int(wanted)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(FIRST))  # stable: the rest keep their order


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.freeze()
    _state["kept"] = gc.get_freeze_count()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    """Before the test itself (its fixtures set up): freeze what is alive."""
    _state["tests"] += 1
    if _state["tests"] % LOOK_EVERY == 0 and gc.get_freeze_count() > _state["kept"] + UNCOLLECTED:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        _state["kept"] = gc.get_freeze_count()
    else:
        gc.freeze()
