"""What made a set of games: the player's fingerprint and the machine, for reports a reader can trust.

A version string does not say which code played: it stayed ``0.1.0`` through
every change of ``best``. The *player fingerprint* does (docs/commands/report.md): the
SHA-256 over the source of every minesat module the strategy imports (read from
the installed files, line endings normalised, so a checkout and a wheel agree),
the python-sat version and Python's major.minor. Whatever could change a move
changes it; a report, a comment or a docstring elsewhere in the package does not.

A *session* is one ``minesat simulate`` (or sweep point) playing into a store:
the player, the machine, the workers, when it started and when its last batch
was stored. The store keeps its sessions; a report reads them back as each
run's ``provenance``.

>>> fp = player_fingerprint("safest")
>>> len(fp), fp == player_fingerprint("safest")
(64, True)
>>> "minesat.player" in player_modules("safest") and "minesat.report" not in player_modules("safest")
True
>>> short(fp) == fp[:12]
True
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import os
import platform as _platform
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

__all__ = [
    "Session",
    "describe_provenance",
    "machine",
    "new_session",
    "now",
    "player_fingerprint",
    "player_modules",
    "pysat_version",
    "run_provenance",
    "short",
]

#: Where minesat's modules live: this file's package folder, as installed.
_PACKAGE = Path(__file__).resolve().parent

#: ``import minesat.x`` and ``from minesat.x import a, b`` (names in parentheses may span lines),
#: anywhere in a module: imports inside functions decide moves as much as those at the top.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(minesat(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)"
    r"|import[ \t]+(minesat(?:\.\w+)*))",
    re.M,
)


def _module_file(name: str, package: Path = _PACKAGE) -> Path | None:
    """The source file of the minesat module ``name`` (a package's ``__init__.py``), or None."""
    parts = name.split(".")[1:]
    base = package.joinpath(*parts)
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    file = base.with_suffix(".py")
    return file if parts and file.is_file() else None


def _imports(name: str, source: str, package: Path) -> set[str]:
    """The minesat modules ``source`` (module ``name``) imports, with the packages around them."""
    found: set[str] = set()
    for module, names, plain in _IMPORT.findall(source):
        if plain:
            found.add(plain)
            continue
        found.add(module)
        for item in names.strip("() \t\n").split(","):
            word = item.split("#")[0].split(" as ")[0].strip()
            if word and _module_file(f"{module}.{word}", package) is not None:  # a submodule, not a name
                found.add(f"{module}.{word}")
    # Importing a.b.c runs a/__init__ and a/b/__init__ first.
    for module in list(found):
        parts = module.split(".")
        found.update(".".join(parts[:i]) for i in range(2, len(parts)))
    found.discard(name)
    return found


def _start_modules(strategy: str) -> list[str]:
    """Where a strategy's code starts: the game loop, and the module that defines the strategy."""
    from minesat.player import get_strategy

    return ["minesat.player", type(get_strategy(strategy)).__module__]


@functools.cache
def _closure(starts: tuple[str, ...], package: Path = _PACKAGE) -> tuple[tuple[str, bytes], ...]:
    """Every minesat module reachable from ``starts`` by imports, with its normalised source, read
    from the package folder ``package``."""
    sources: dict[str, bytes] = {}
    todo = list(starts)
    while todo:
        name = todo.pop()
        if name in sources:
            continue
        file = _module_file(name, package)
        if file is None:
            continue
        raw = file.read_bytes().replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        sources[name] = raw
        todo.extend(_imports(name, raw.decode("utf-8", "replace"), package) - sources.keys())
    # The package's own __init__ runs before any of its modules: its source counts, but its
    # imports are the public names (already reached) and, in IPython only, the display hooks,
    # none of which decides a move, so they are not followed.
    init = package / "__init__.py"
    sources["minesat"] = init.read_bytes().replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return tuple(sorted(sources.items()))


def player_modules(strategy: str) -> tuple[str, ...]:
    """The minesat modules whose source the fingerprint of ``strategy`` covers, sorted."""
    return tuple(name for name, _ in _closure(tuple(_start_modules(strategy))))


def pysat_version() -> str:
    """The installed python-sat's version (the SAT solver decides what is proven)."""
    try:
        return metadata.version("python-sat")
    except metadata.PackageNotFoundError:  # pragma: no cover - a dependency
        return "unknown"


@functools.cache
def player_fingerprint(strategy: str, package: Path = _PACKAGE) -> str:
    """The SHA-256 (hex) of the code that decides the moves of ``strategy`` (docs/commands/report.md).

    Hashed, in order: each module's name and normalised source (sorted by name),
    then ``python-sat <version>`` and ``python <major>.<minor>``, each part
    followed by a NUL byte. Worked out once per process (a few milliseconds).
    ``package`` is the minesat folder whose files are read: this installation's
    by default (another copy's, to see what a change does to the fingerprint).
    """
    digest = hashlib.sha256()
    for name, source in _closure(tuple(_start_modules(strategy)), Path(package)):
        digest.update(name.encode() + b"\0" + source + b"\0")
    digest.update(f"python-sat {pysat_version()}".encode() + b"\0")
    digest.update(f"python {sys.version_info.major}.{sys.version_info.minor}".encode() + b"\0")
    return digest.hexdigest()


def short(fingerprint: str | None) -> str:
    """A fingerprint as people read it: its first 12 hex digits, or ``unknown``."""
    return fingerprint[:12] if fingerprint else "unknown"


def now() -> str:
    """The time now, UTC, ISO 8601 to the second: ``2026-05-01T12:00:00Z``."""
    return _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _version() -> str:
    from minesat.version import __version__

    return __version__


@dataclass(frozen=True)
class Session:
    """One run of games into a store: who played them, on what, and when.

    ``workers`` is the number of local processes, or the Dask scheduler's address.
    ``finished`` is set by the store as batches arrive.
    """

    player: str
    minesat: str
    python: str
    platform: str
    cpus: int
    workers: int | str
    started: str
    finished: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player, "minesat": self.minesat, "python": self.python,
            "platform": self.platform, "cpus": self.cpus, "workers": self.workers,
            "started": self.started, "finished": self.finished,
        }  # fmt: skip


def machine() -> dict[str, Any]:
    """This process's minesat version, Python, platform and cores."""
    return {
        "minesat": _version(),
        "python": _platform.python_version(),
        "platform": _platform.platform(),
        "cpus": os.cpu_count() or 1,
    }


def new_session(strategy: str, workers: int | str) -> Session:
    """A session starting now, played by this process's ``strategy`` on ``workers``."""
    return Session(player=player_fingerprint(strategy), workers=workers, started=now(), **machine())


def run_provenance(sessions: Iterable[Session], **extra: Any) -> dict[str, Any]:
    """The ``provenance`` object of a run (docs/commands/report.md) from the sessions that played it.

    A field on which the sessions agree is their value; one on which they differ is
    the list of the values, in the order the sessions ran. ``started`` is the first
    session's start, ``finished`` the last batch stored. With no session (games stored
    before minesat recorded them) every field is null. ``extra`` adds keys
    (``command``, ``games_sha256``, ``player``).

    >>> a = Session("f" * 64, "0.1.0", "3.11.7", "Linux", 2, 2, "2026-01-01T00:00:00Z",
    ...             "2026-01-01T00:10:00Z")
    >>> p = run_provenance([a, Session(**{**a.to_dict(), "workers": 1, "started": "2026-01-02T00:00:00Z",
    ...                                   "finished": "2026-01-02T00:01:00Z"})])
    >>> p["workers"], p["started"], p["finished"], p["sessions"]
    ([2, 1], '2026-01-01T00:00:00Z', '2026-01-02T00:01:00Z', 2)
    """
    sessions = list(sessions)
    out: dict[str, Any] = {}
    for key in ("minesat", "player", "python", "platform", "cpus", "workers"):
        values: list[Any] = []
        for s in sessions:
            if getattr(s, key) not in values:
                values.append(getattr(s, key))
        out[key] = None if not values else values[0] if len(values) == 1 else values
    out["started"] = min((s.started for s in sessions), default=None)
    out["finished"] = max((s.finished or s.started for s in sessions), default=None)
    out["sessions"] = len(sessions)
    out.update(extra)
    return out


def describe_provenance(provenance: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The provenance as (name, value) rows for Markdown and HTML, in docs/commands/report.md's order."""

    def text(value: Any) -> str:
        if value is None:
            return "unknown"
        if isinstance(value, list):
            return "; ".join(text(v) for v in value)
        return str(value)

    names = (
        ("minesat", "minesat"), ("player", "Player (code fingerprint)"), ("python", "Python"),
        ("platform", "Platform"), ("cpus", "Cores"), ("workers", "Workers"), ("started", "Started (UTC)"),
        ("finished", "Finished (UTC)"), ("command", "Command"), ("games_sha256", "Games (SHA-256)"),
    )  # fmt: skip
    return [(label, text(provenance.get(key))) for key, label in names if key in provenance]
