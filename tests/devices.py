"""Device nodes for the tests of outputs, made in a temporary folder: no test writes to a system path
(``/dev/full``, ``/dev/null``), which a writer that replaced what is at its path would destroy."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

#: Minor numbers of the memory driver's devices (major 1) on Linux.
NULL, FULL = 3, 7


def device(path: Path, minor: int) -> Path:
    """A character device of the memory driver at ``path`` (:data:`NULL` or :data:`FULL`); the test
    is skipped, saying why, where one cannot be made (not root, not Linux)."""
    if not (hasattr(os, "geteuid") and os.geteuid() == 0 and Path("/proc/self/maps").exists()):
        pytest.skip("making a device node (mknod) needs root on Linux; no test writes to /dev itself")
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    return path
