"""What the faces list: strategies, board formats, replay formats, presets and first-click rules.

Each list has one home in the library, and every help text, message and page list is read from
there through this module: ``--help``, the web page (``GET /api/meta``: :func:`meta`) and the
docs. A new one is registered in its home and appears everywhere at once:

- a strategy: :data:`minesat.player.STRATEGIES` (a class with ``name`` and ``choose``);
- a replay format: :func:`minesat.formats.replay.register_replay_format` (in
  :mod:`minesat.formats`, beside the four the package reads);
- a board format: :data:`minesat.formats.FORMATS` and its module; a preset:
  :data:`minesat.board.PRESETS`; a first-click rule: :class:`minesat.generate.FirstClick`.

>>> [f["name"] for f in replay_formats()]
['avf', 'rmv', 'mvf', 'evf']
>>> replay_help()
'.avf (Minesweeper Arbiter), .rmv (Viennasweeper), .mvf (Minesweeper Clone), .evf (Metasweeper)'
>>> FIRST_CLICK_HELP
'opening: the first cell and its neighbours are mine-free; safe: the first cell only; any: no rule.'
"""

from __future__ import annotations

from typing import Any

from minesat.board import PRESETS
from minesat.formats import EXTENSIONS, FORMATS
from minesat.formats.replay import REPLAY_FORMATS, written_formats
from minesat.generate import FirstClick

__all__ = [
    "BOARD_FORMATS",
    "FIRST_CLICK_HELP",
    "FIRST_CLICK_RULES",
    "LAYOUT_FORMATS",
    "PRESET_HELP",
    "STORE_EXTENSIONS",
    "STRATEGY_NOTES",
    "FirstClick",
    "base_strategies",
    "check_strategy",
    "is_strategy",
    "meta",
    "presets",
    "replay_formats",
    "replay_help",
    "strategy_help",
    "written_replay_help",
]

#: What each first-click rule keeps clear, in the words of ``--first-click``'s help and of the page.
FIRST_CLICK_RULES: dict[FirstClick, tuple[str, str]] = {
    FirstClick.OPENING: ("the first cell and its neighbours are mine-free", "opens an area"),
    FirstClick.SAFE: ("the first cell only", "is safe"),
    FirstClick.ANY: ("no rule", "may be a mine"),
}

#: ``--first-click``'s help, every rule and what it keeps clear.
FIRST_CLICK_HELP = "; ".join(f"{rule.value}: {means}" for rule, (means, _) in FIRST_CLICK_RULES.items()) + "."

#: ``--preset``'s help.
PRESET_HELP = f"Board preset: {', '.join(PRESETS)}."

#: The board formats a position is read in (an MBF file holds a layout only), and a layout.
BOARD_FORMATS = tuple(name for name in FORMATS if name != "mbf")
LAYOUT_FORMATS = FORMATS

#: The extensions a simulation database is opened by, on the page.
STORE_EXTENSIONS = (".sqlite", ".db", ".sqlite3")

#: A word on a strategy where its name says too little (the default is said to be the default).
STRATEGY_NOTES = {"safest": "the baseline"}


def presets() -> dict[str, tuple[int, int, int]]:
    """Every preset's rows, columns and mines.

    >>> presets()["expert"]
    (16, 30, 99)
    """
    return dict(PRESETS)


def replay_formats() -> list[dict[str, Any]]:
    """Every replay format: its name (and extension), the program that writes it, whether minesat
    writes it too."""
    return [{"name": fmt.name, "program": fmt.program, "written": fmt.write is not None}
            for fmt in REPLAY_FORMATS.values()]


def replay_help() -> str:
    """The replay formats read, for a help text: ``.avf (Minesweeper Arbiter), ...``."""
    return ", ".join(f".{fmt.name} ({fmt.program})" for fmt in REPLAY_FORMATS.values())


def written_replay_help() -> str:
    """The replay formats written, for a help text: ``.evf Metasweeper, .rmv Viennasweeper``.

    >>> written_replay_help()
    '.evf Metasweeper, .rmv Viennasweeper'
    """
    return ", ".join(f".{name} {REPLAY_FORMATS[name].program}" for name in written_formats())


def base_strategies() -> list[tuple[str, str]]:
    """The strategies by name, the default first, each with its note (``""`` when its name says
    enough); ``best``'s variants with pieces switched (``best-no-PIECE``) are left out: the help
    says how they are named.

    >>> base_strategies()[:2]
    [('best', 'default'), ('safest', 'the baseline')]
    """
    from minesat.player import DEFAULT_STRATEGY, STRATEGIES  # start-up: the player loads numpy

    names = [name for name in STRATEGIES if not name.startswith(("best-no-", "best-with-"))]
    names.sort(key=lambda name: name != DEFAULT_STRATEGY)  # stable: the rest in their order
    return [(name, "default" if name == DEFAULT_STRATEGY else STRATEGY_NOTES.get(name, "")) for name in names]


def strategy_help() -> str:
    """Help for every ``--strategy`` option: the strategies, and how ``best``'s pieces are switched.

    >>> strategy_help()[:60]
    'Guessing strategy: best (default), safest (the baseline), sa'
    """
    from minesat.guess.best import DEFAULT_PIECES  # start-up: only the commands with --strategy

    named = [f"{name} ({note})" if note else name for name, note in base_strategies()]
    return (
        f"Guessing strategy: {', '.join(named)}, or best "
        "with pieces switched: best-no-PIECE turns one of best's pieces ("
        + ", ".join(p for p, on in DEFAULT_PIECES.items() if on)
        + ") off, best-with-PIECE another ("
        + ", ".join(p for p, on in DEFAULT_PIECES.items() if not on)
        + ") on, and they chain: best-no-endgame-with-pseudo. See docs/strategies.md."
    )


def is_strategy(name: str) -> bool:
    """True when the player knows the strategy ``name`` (a variant of ``best`` included)."""
    from minesat.player import is_strategy as known  # start-up: the player loads numpy

    return known(name)


def check_strategy(name: str) -> None:
    """Raise :class:`~minesat.errors.InvalidValue` naming the known strategies unless ``name`` is one."""
    from minesat.player import get_strategy  # start-up: the player loads numpy

    get_strategy(name)


def meta() -> dict[str, Any]:
    """What the web page lists, as ``GET /api/meta`` answers it: the strategies (the automatic
    player's), the presets, the first-click rules, the board formats and extensions, the replay
    formats and a database's extensions.

    >>> sorted(meta())
    ['board_formats', 'extensions', 'first_click', 'layout_formats', 'presets', 'replay_formats', \
'store_extensions', 'strategies']
    >>> meta()["first_click"][0]
    {'name': 'opening', 'means': 'the first cell and its neighbours are mine-free', 'page': 'opens an area'}
    """
    return {
        "strategies": [{"name": name, "note": note} for name, note in base_strategies()],
        "presets": {name: list(size) for name, size in PRESETS.items()},
        "first_click": [{"name": rule.value, "means": means, "page": page}
                        for rule, (means, page) in FIRST_CLICK_RULES.items()],
        "board_formats": list(BOARD_FORMATS),
        "layout_formats": list(LAYOUT_FORMATS),
        "extensions": dict(EXTENSIONS),
        "replay_formats": replay_formats(),
        "store_extensions": list(STORE_EXTENSIONS),
    }
