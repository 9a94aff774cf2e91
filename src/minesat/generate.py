"""Seeded random layouts and the first-click rules.

A layout is drawn *after* the first click is known, uniformly among the layouts
that obey the rule: the cells the rule keeps clear are removed from the pool and
the mines are a uniform sample of the rest.

>>> lay = generate_layout(9, 9, 10, start=(3, 3), rule=FirstClick.OPENING, seed=1)
>>> lay.mine_count, any(c in lay.mines for c in opening_area((3, 3), 9, 9))
(10, False)
>>> lay == generate_layout(9, 9, 10, start=(3, 3), rule="opening", seed=1)
True
"""

from __future__ import annotations

import enum
import hashlib
import random

from minesat.board import MAX_SIDE, Cell, Layout, cell_name, check_size, neighbours, on_board
from minesat.errors import InvalidValue
from minesat.words import agree, plural


class FirstClick(enum.StrEnum):
    """Which cells the first click is guaranteed to find mine-free."""

    OPENING = "opening"  # the first cell and all its neighbours
    SAFE = "safe"  # the first cell only
    ANY = "any"  # nothing: the first click may lose

    @classmethod
    def _missing_(cls, value: object) -> FirstClick:
        """An unknown rule is refused with the rules listed.

        >>> FirstClick("openning")
        Traceback (most recent call last):
        ValueError: unknown first-click rule 'openning' (the rules: opening, safe, any)
        """
        raise ValueError(f"unknown first-click rule {value!r} (the rules: {', '.join(r.value for r in cls)})")


def opening_area(start: Cell, rows: int, cols: int) -> list[Cell]:
    """The first cell and its neighbours."""
    return [start, *neighbours(start, rows, cols)]


def kept_clear(start: Cell | None, rows: int, cols: int, rule: FirstClick | str) -> set[Cell]:
    """Cells the rule guarantees to hold no mine."""
    rule = FirstClick(rule)
    if start is None or rule is FirstClick.ANY:
        return set()
    if not on_board(start, rows, cols):
        raise InvalidValue(f"start {start} is off the {rows}x{cols} board")
    if rule is FirstClick.SAFE:
        return {start}
    return set(opening_area(start, rows, cols))


def check_mine_count(
    rows: int, cols: int, mines: int, start: Cell | None, rule: FirstClick | str, limit: int | None = MAX_SIDE
) -> None:
    """Raise :class:`ValueError` when ``mines`` cannot be placed under the rule."""
    check_size(rows, cols, limit)
    free = rows * cols - len(kept_clear(start, rows, cols, rule))
    if mines < 0:
        raise InvalidValue(f"mine count must be >= 0, not {mines}")
    if mines > free:
        at = cell_name(start) if start is not None else ""
        where = f"with the {FirstClick(rule).value} rule at {at} " if free < rows * cols else ""
        fit = f"{plural(mines, 'mine')} {agree(mines, 'does', 'do')} not fit"
        raise InvalidValue(f"{fit} on a {rows}x{cols} board {where}(at most {free})")


def mines_fit(rows: int, cols: int, mines: int, start: Cell | None, rule: FirstClick | str) -> bool:
    """Whether :func:`check_mine_count` accepts these mines around ``start``.

    >>> mines_fit(3, 3, 1, (1, 1), "opening"), mines_fit(3, 3, 0, (1, 1), "opening")
    (False, True)
    """
    try:
        check_mine_count(rows, cols, mines, start, rule)
    except InvalidValue:
        return False
    return True


def generate_layout(
    rows: int,
    cols: int,
    mines: int,
    *,
    start: Cell | None = None,
    rule: FirstClick | str = FirstClick.OPENING,
    seed: int | None = None,
    rng: random.Random | None = None,
) -> Layout:
    """A uniform random layout obeying the first-click rule around ``start``.

    The same ``seed`` gives the same layout on any machine (``random.Random``
    is specified to be reproducible for integer seeds).
    """
    check_mine_count(rows, cols, mines, start, rule)
    rng = rng if rng is not None else random.Random(seed)
    clear = kept_clear(start, rows, cols, rule)
    pool = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in clear]
    return Layout(rows, cols, frozenset(rng.sample(pool, mines)))


def game_seed(
    rows: int, cols: int, mines: int, rule: FirstClick | str, start: Cell, seed: int, index: int
) -> int:
    """The seed of game ``index`` in a run: a pure function of the run's parameters.

    Hashing (instead of ``seed + index``) keeps runs with neighbouring seeds
    from sharing games, and makes game *i* independent of how games are split
    among workers.

    >>> game_seed(16, 30, 99, "opening", (3, 3), 0, 7) == game_seed(16, 30, 99, "opening", (3, 3), 0, 7)
    True
    """
    key = f"minesat/{rows}x{cols}/{mines}/{FirstClick(rule).value}/{start[0]},{start[1]}/{seed}/{index}"
    # 63 bits: fits a signed 64-bit SQLite integer.
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1
