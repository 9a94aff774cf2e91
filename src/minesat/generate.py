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
from dataclasses import KW_ONLY, dataclass

from minesat.board import (
    MAX_SIDE,
    PRESETS,
    Cell,
    Layout,
    as_cell,
    cell_name,
    check_size,
    neighbours,
    on_board,
)
from minesat.errors import InvalidValue
from minesat.words import agree, plural

__all__ = [
    "BoardSpec",
    "FirstClick",
    "check_mine_count",
    "game_seed",
    "generate_layout",
    "kept_clear",
    "mines_fit",
    "opening_area",
]


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
        minesat.errors.InvalidValue: rule: unknown first-click rule 'openning' (the rules: opening, safe, any)
        """
        rules = tuple(r.value for r in cls)
        said = f"unknown first-click rule {value!r} (the rules: {', '.join(rules)})"
        raise InvalidValue(said, parameter="rule", value=value, choices=rules)


@dataclass(frozen=True, init=False)
class BoardSpec:
    """A board to play: its size and mines, the first-click rule and the first click.

    The one value for what game *i* of a run, a board set or a perfect-play search is
    drawn on; everything past the board size is a keyword. ``rule`` is a
    :class:`FirstClick` or its name, ``start`` a cell or its name (``None``: not chosen yet).

    >>> spec = BoardSpec(16, 30, 99, rule="opening", start="D4")
    >>> spec
    BoardSpec(16, 30, 99, rule='opening', start='D4')
    >>> spec.start, spec.free, str(spec)
    ((3, 3), 471, '16x30/99 opening at D4')
    >>> spec.layout(seed=spec.game_seed(0, 7)) == spec.layout(seed=game_seed(16, 30, 99, rule="opening",
    ...                                                                        start=(3, 3), seed=0, index=7))
    True
    >>> BoardSpec.preset("expert", start=(3, 3)) == spec
    True
    """

    rows: int
    cols: int
    mines: int
    _: KW_ONLY
    rule: FirstClick = FirstClick.OPENING
    start: Cell | None = None

    def __init__(self, rows: int, cols: int, mines: int, *, rule: FirstClick | str = FirstClick.OPENING,
                 start: Cell | str | None = None) -> None:
        # Written out rather than generated: the rule and the start may come as names, and the
        # fields hold them as values, so the types say what each side is.
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "mines", mines)
        object.__setattr__(self, "rule", FirstClick(rule))
        object.__setattr__(self, "start", None if start is None else as_cell(start, "start"))

    @classmethod
    def preset(cls, name: str, *, rule: FirstClick | str = FirstClick.OPENING,
               start: Cell | str | None = None) -> BoardSpec:
        """The board of a preset (``beginner``, ``intermediate``, ``expert``)."""
        if name not in PRESETS:
            said = f"unknown preset {name!r} (the presets: {', '.join(PRESETS)})"
            raise InvalidValue(said, parameter="name", value=name, choices=tuple(PRESETS))
        return cls(*PRESETS[name], rule=rule, start=start)

    def __repr__(self) -> str:
        start = "" if self.start is None else f", start={cell_name(self.start)!r}"
        return f"BoardSpec({self.rows}, {self.cols}, {self.mines}, rule={self.rule.value!r}{start})"

    def __str__(self) -> str:
        at = "" if self.start is None else f" at {cell_name(self.start)}"
        return f"{self.rows}x{self.cols}/{self.mines} {self.rule.value}{at}"

    def kept_clear(self) -> set[Cell]:
        """The cells the rule keeps free of mines around the start (none before there is one)."""
        return kept_clear(self.rows, self.cols, start=self.start, rule=self.rule)

    @property
    def free(self) -> int:
        """The cells a mine may be drawn on."""
        return self.rows * self.cols - len(self.kept_clear())

    def check(self, limit: int | None = MAX_SIDE) -> None:
        """Raise :class:`ValueError` when the mines cannot be placed (:func:`check_mine_count`)."""
        check_mine_count(self.rows, self.cols, self.mines, start=self.start, rule=self.rule, limit=limit)

    def game_seed(self, seed: int, index: int) -> int:
        """The seed of game ``index`` of a run seeded ``seed`` on this board (:func:`game_seed`)."""
        if self.start is None:
            raise InvalidValue("a game's seed depends on its start: give the spec a start", parameter="start")
        return game_seed(self.rows, self.cols, self.mines, rule=self.rule, start=self.start, seed=seed,
                         index=index)

    def layout(self, *, seed: int | None = None, rng: random.Random | None = None) -> Layout:
        """A uniform random layout on this board (:func:`generate_layout`)."""
        return generate_layout(self.rows, self.cols, self.mines, start=self.start, rule=self.rule,
                               seed=seed, rng=rng)


def opening_area(start: Cell, rows: int, cols: int) -> list[Cell]:
    """The first cell and its neighbours."""
    return [start, *neighbours(start, rows, cols)]


def kept_clear(rows: int, cols: int, *, start: Cell | None, rule: FirstClick | str) -> set[Cell]:
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
    rows: int,
    cols: int,
    mines: int,
    *,
    start: Cell | None = None,
    rule: FirstClick | str = FirstClick.ANY,
    limit: int | None = MAX_SIDE,
) -> None:
    """Raise :class:`ValueError` when ``mines`` cannot be placed under the rule."""
    check_size(rows, cols, limit)
    free = rows * cols - len(kept_clear(rows, cols, start=start, rule=rule))
    if mines < 0:
        raise InvalidValue(f"mine count must be >= 0, not {mines}")
    if mines > free:
        at = cell_name(start) if start is not None else ""
        where = f"with the {FirstClick(rule).value} rule at {at} " if free < rows * cols else ""
        fit = f"{plural(mines, 'mine')} {agree(mines, 'does', 'do')} not fit"
        raise InvalidValue(f"{fit} on a {rows}x{cols} board {where}(at most {free})")


def mines_fit(rows: int, cols: int, mines: int, *, start: Cell | None, rule: FirstClick | str) -> bool:
    """Whether :func:`check_mine_count` accepts these mines around ``start``.

    >>> mines_fit(3, 3, 1, start=(1, 1), rule="opening"), mines_fit(3, 3, 0, start=(1, 1), rule="opening")
    (False, True)
    """
    try:
        check_mine_count(rows, cols, mines, start=start, rule=rule)
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
    check_mine_count(rows, cols, mines, start=start, rule=rule)
    rng = rng if rng is not None else random.Random(seed)
    clear = kept_clear(rows, cols, start=start, rule=rule)
    pool = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in clear]
    return Layout(rows, cols, frozenset(rng.sample(pool, mines)))


def game_seed(
    rows: int, cols: int, mines: int, *, rule: FirstClick | str, start: Cell, seed: int, index: int
) -> int:
    """The seed of game ``index`` in a run: a pure function of the run's parameters.

    Hashing (instead of ``seed + index``) keeps runs with neighbouring seeds
    from sharing games, and makes game *i* independent of how games are split
    among workers.

    >>> a = game_seed(16, 30, 99, rule="opening", start=(3, 3), seed=0, index=7)
    >>> a == game_seed(16, 30, 99, rule="opening", start=(3, 3), seed=0, index=7), a == BoardSpec.preset(
    ...     "expert", start="D4").game_seed(0, 7)
    (True, True)
    """
    key = f"minesat/{rows}x{cols}/{mines}/{FirstClick(rule).value}/{start[0]},{start[1]}/{seed}/{index}"
    # 63 bits: fits a signed 64-bit SQLite integer.
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1
