"""Processes seen through ``/proc`` (Linux): a command's children, whether one still runs, what
it is doing; and a child started as a shell starts it."""

from __future__ import annotations

import os
import platform
import signal
from pathlib import Path

#: The number of the read system call, by machine (``/proc/PID/syscall`` names calls by number).
READ_CALL = {"x86_64": 0, "aarch64": 63}.get(platform.machine())


def _stat(pid: int | str) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name (state first), or None once gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(entry.name)
            if stat is not None and int(stat[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


def cpu_seconds(pid: int) -> float:
    """The CPU time ``pid`` has used (user and system); 0 once it is gone."""
    stat = _stat(pid)
    return 0.0 if stat is None else (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


def reading_stdin(pid: int) -> bool:
    """Whether ``pid`` waits in a read of its standard input."""
    try:
        call = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return False
    return len(call) > 1 and call[0] == str(READ_CALL) and int(call[1], 16) == 0


def sigint_as_from_a_shell() -> None:
    """A ``preexec_fn``: the child gets Ctrl-C as from a shell. A runner started in the
    background ignores SIGINT and a child inherits that, so Python would never see it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def command_line(pid: int) -> str:
    """``pid``'s command line, its words joined by spaces ("" once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""
