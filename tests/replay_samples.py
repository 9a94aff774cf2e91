"""The sample replays in ``../shared/replays`` and what ms-toollib reads from them.

The samples live beside the repository (``<repo>/../shared/replays``, or where the
environment variable ``MINESAT_SAMPLE_REPLAYS`` says, e.g. from a git worktree), with a
README whose table says what ms-toollib 1.5.20 reads from each file. Tests that
need them skip when the folder is absent.

ms-toollib is not a dependency: where it is installed, :func:`ms_toollib_reading`
runs it in a subprocess (it aborts the whole process on some files, and writes
a ``crash.log`` into its working directory) and returns what it read.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

BESIDE = Path(__file__).resolve().parent.parent.parent / "shared" / "replays"
SAMPLES = Path(os.environ.get("MINESAT_SAMPLE_REPLAYS") or BESIDE)
NO_SAMPLES = f"the sample replays are not there ({SAMPLES})"
NO_MS_TOOLLIB = "ms-toollib is not installed (pip install ms-toollib to compare with it)"

#: The README table's columns after file, format and size.
COLUMNS = (
    "mines",
    "placed",
    "bbbv",
    "rtime",
    "completed",
    "events",
    "left",
    "right",
    "double",
    "cl",
    "ce",
    "ioe",
    "corr",
)


def sample_files() -> list[Path]:
    """Every replay in the samples folder (empty when it is absent)."""
    if not SAMPLES.is_dir():
        return []
    return sorted(p for p in SAMPLES.iterdir() if p.suffix.lower() in (".avf", ".rmv", ".mvf", ".evf"))


def sample_params() -> list[Any]:
    """Parameters for a test over every sample: one skipped parameter when there are none."""
    files = sample_files()
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(reason=NO_SAMPLES))]
    return [pytest.param(p, id=p.name) for p in files]


@functools.lru_cache(maxsize=1)
def readme_table() -> dict[str, dict[str, str] | None]:
    """The README's row per file: column -> text, or ``None`` where ms-toollib aborts."""
    table: dict[str, dict[str, str] | None] = {}
    for line in (SAMPLES / "README.md").read_text(encoding="utf-8").splitlines():
        if re.match(r"\| `[^`]+` \| \w+ \| ms-toollib .* aborts", line):
            table[line.split("`")[1]] = None
            continue
        m = re.match(r"\| `([^`]+)` \| (\w+) \| (\d+)x(\d+) \|(.*)", line)
        if not m:
            continue
        name, fmt, rows, cols, rest = m.groups()
        cells = [c.strip() for c in rest.split("|")][: len(COLUMNS)]
        table[name] = {"format": fmt, "rows": rows, "cols": cols, **dict(zip(COLUMNS, cells, strict=True))}
    return table


def have_ms_toollib() -> bool:
    return importlib.util.find_spec("ms_toollib") is not None


# Run in a fresh interpreter: reads each file, prints one JSON object per file, and
# (unless the output folder is "-") writes ms-toollib's EVF transcodings of the first
# AVF, RMV and MVF file it is given.
_SCRIPT = r"""
import json, sys
import ms_toollib as ms

out_dir = sys.argv[1]
classes = {"avf": ms.AvfVideo, "rmv": ms.RmvVideo, "mvf": ms.MvfVideo, "evf": ms.EvfVideo}
transcoded = set()
for path in sys.argv[2:]:
    fmt = path.rsplit(".", 1)[1].lower()
    v = classes[fmt](path)
    v.parse()
    v.analyse()
    v.current_time = 1e9
    events = []
    for e in v.events:
        if e.event.is_mouse:
            m = e.event.unwrap_mouse()
            events.append([e.time, m.mouse, m.x, m.y])
    mines = [[r, c] for r, row in enumerate(v.board) for c, n in enumerate(row) if n == -1]
    print(json.dumps(dict(
        file=path.replace("\\", "/").rsplit("/", 1)[1], rows=v.row, cols=v.column, mines=v.mine_num,
        mine_cells=mines, cell_size=v.pix_size, rtime=v.rtime, completed=v.is_completed, bbbv=v.bbbv,
        left=v.left, right=v.right, double=v.double, cl=v.cl, ce=v.ce, ioe=v.ioe, corr=v.corr,
        bbbv_solved=v.bbbv_solved, software=v.software,
        player=v.player_identifier, events=events)))
    if out_dir != "-" and fmt != "evf" and fmt not in transcoded:
        transcoded.add(fmt)
        for version in (0, 2, 3, 4):
            w = classes[fmt](path)
            w.parse()
            w.analyse()
            getattr(w, f"generate_evf_v{version}_raw_data")()
            name = path.replace("\\", "/").rsplit("/", 1)[1]
            with open(f"{out_dir}/v{version}-{name}.evf", "wb") as f:
                f.write(bytes(w.raw_data))
"""


@functools.lru_cache(maxsize=1)
def ms_toollib_reading() -> tuple[dict[str, dict[str, Any]], dict[str, bytes]]:
    """What ms-toollib reads from every sample it does not abort on, by file name, and
    its EVF transcodings (``v<version>-<sample>.evf`` -> bytes).

    Call only when :func:`have_ms_toollib` is true and the samples are there.
    """
    table = readme_table()
    files = [p for p in sample_files() if table.get(p.name) is not None]
    with tempfile.TemporaryDirectory() as work:
        readings = _run_ms_toollib(files, work)
        transcodings = {p.name: p.read_bytes() for p in Path(work).glob("*.evf")}
    return readings, transcodings


# Reads each file, then the figures at each asked time (seconds into the game):
# stdin {"path": [time, ...]}, stdout one [path, [[time, 3BV solved, cl, ce, path, stnb], ...]] per file,
# then one [path, {"rqp", "stnb", "path", "bbbv_s"}] line per file with the figures at the end.
_RUNNING = r"""
import json, sys
import ms_toollib as ms

classes = {"avf": ms.AvfVideo, "rmv": ms.RmvVideo, "mvf": ms.MvfVideo, "evf": ms.EvfVideo}
for path, times in json.loads(sys.stdin.read()).items():
    v = classes[path.rsplit(".", 1)[1].lower()](path)
    v.parse()
    v.analyse()
    rows = []
    for t in times:
        v.current_time = t
        rows.append([v.time, v.bbbv_solved, v.cl, v.ce, v.path, v.stnb])
    v.current_time = 1e9
    end = dict(rqp=v.rqp, stnb=v.stnb, path=v.path, bbbv_s=v.bbbv_s, ioe=v.ioe, time=v.time)
    print(json.dumps([path, rows, end]))
"""


Running = dict[str, tuple[list[list[float]], dict[str, float]]]


def ms_toollib_running(times: dict[str, list[float]]) -> Running:
    """ms-toollib's running figures of each file at the given times into the game (a fresh
    interpreter, as above): per file, rows of ``[time, bbbv_solved, cl, ce, path, stnb]`` and
    the figures at the end."""
    with tempfile.TemporaryDirectory() as work:
        done = subprocess.run(
            [sys.executable, "-c", _RUNNING],
            input=json.dumps(times), capture_output=True, text=True, cwd=work, timeout=300,
        )  # fmt: skip
    if done.returncode != 0:
        raise AssertionError(f"ms-toollib failed (status {done.returncode}): {done.stderr[-2000:]}")
    return {path: (rows, end) for path, rows, end in map(json.loads, done.stdout.splitlines())}


def ms_toollib_read(files: list[Path]) -> dict[str, dict[str, Any]]:
    """What ms-toollib reads from each of ``files`` (any replays), by file name.

    Call only when :func:`have_ms_toollib` is true. Raises :class:`AssertionError`
    when ms-toollib fails or aborts on any of them.
    """
    with tempfile.TemporaryDirectory() as work:
        return _run_ms_toollib(files, work, transcode=False)


def _run_ms_toollib(files: list[Path], work: str, transcode: bool = True) -> dict[str, dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, work if transcode else "-", *map(str, files)],
        capture_output=True,
        text=True,
        cwd=work,
        timeout=300,
    )
    if done.returncode != 0:
        raise AssertionError(f"ms-toollib failed (status {done.returncode}): {done.stderr[-2000:]}")
    return {d["file"]: d for d in map(json.loads, done.stdout.splitlines())}
