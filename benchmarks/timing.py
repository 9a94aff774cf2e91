"""What several benchmark scripts share: the best of repeated timings, and the sample replays.

Imported by the scripts beside it (``python benchmarks/replay.py`` puts this folder on the path).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

#: The shared sample replays, beside the repository (not part of it).
SAMPLES = Path(__file__).resolve().parent.parent.parent / "shared" / "replays"

REPLAY_SUFFIXES = (".avf", ".rmv", ".mvf", ".evf")


def best(repeat: int, work: Callable[[], object]) -> float:
    """The shortest wall time of ``repeat`` runs of ``work``, in seconds (the least disturbed run)."""
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return min(times)


def replay_files(given: list[Path]) -> list[Path]:
    """The files given, or every sample replay; prints why when there are none."""
    files = given or sorted(p for p in SAMPLES.glob("*") if p.suffix in REPLAY_SUFFIXES)
    if not files:
        print(f"no replay files given, and none in {SAMPLES}")
    return files


def read_replays(files: list[Path]) -> Iterator[tuple[Path, Any]]:
    """Each file and its replay; a file that cannot be read is one line here too, and skipped."""
    from minesat.formats import read_replay

    for path in files:
        try:
            yield path, read_replay(path)
        except (ValueError, OSError) as exc:
            print(f"{path.name:40} cannot be read: {exc}")
