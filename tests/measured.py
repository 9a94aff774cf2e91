"""``minesat`` in a fresh process, as a user runs it: its exit status, output, and the most memory
it held, optionally under a cap on its address space.

A small process of its own starts the command and reports, on its last stderr line, the peak
resident set of its child (KB on Linux): a child forked from the test process would count the
test process's memory as its own (the peak survives the exec).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

_LAUNCHER = """
import resource, subprocess, sys
cap = int(sys.argv[1])
limit = (lambda: resource.setrlimit(resource.RLIMIT_AS, (cap, cap))) if cap else None
done = subprocess.run(sys.argv[2:], capture_output=True, preexec_fn=limit)
sys.stdout.buffer.write(done.stdout)
sys.stderr.buffer.write(done.stderr)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
sys.exit(done.returncode)
"""


def run_minesat(*args: str, seconds: float, cap_mb: int | None = None) -> tuple[int, str, str, int]:
    """``minesat ARGS`` killed past ``seconds`` (the test fails), its address space capped at
    ``cap_mb`` MB when given: (exit status, stdout, stderr, the most memory it held in KB)."""
    cap = str(cap_mb * 10**6 if cap_mb else 0)
    command = [sys.executable, "-c", _LAUNCHER, cap, sys.executable, "-m", "minesat", *args]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the command too, not only the process starting it
        proc.communicate()
        pytest.fail(f"minesat {' '.join(args)} still running after {seconds} s")
    *lines, held = err.splitlines()
    return proc.returncode, out, "".join(line + "\n" for line in lines), int(held)
