"""The lists a sweep is given, read and written back: sizes, mine counts and densities.

``--size``, ``--mines`` and ``--density`` take lists and ranges (``40,60,99``,
``40:120:20``, ``0.1:0.2:0.05``, ``9x9,16x30``); these functions read them into
exact values (densities as fractions of the decimal written) and write the
shortest text back for a report's command line (docs/commands/sweep.md).

>>> parse_mines("40,60,99"), parse_mines("40:120:20")  # the end is included when the steps reach it
([40, 60, 99], [40, 60, 80, 100, 120])
>>> mines_text([40, 60, 80, 100, 120])
'40:120:20'
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from minesat.board import PRESETS, check_size
from minesat.errors import InvalidValue

__all__ = [
    "MAX_POINTS", "density_text", "mines_text", "parse_densities", "parse_mines", "parse_sizes",
    "preset_sizes", "split_list",
]  # fmt: skip

#: At most this many values in one ``--mines`` or ``--density`` list: a typo like
#: 1:100000 should not start a week of work.
MAX_POINTS = 1000

_ITEM = re.compile(r"\s*(\d+)\s*(?::\s*(\d+)\s*(?::\s*(\d+)\s*)?)?")
_SIZE = re.compile(r"\s*(\d+)\s*[xX]\s*(\d+)\s*")


# --- reading the options -----------------------------------------------------------


def parse_mines(text: str) -> list[int]:
    """Mine counts from ``N,N,...`` and ``START:STOP[:STEP]`` items (STOP included), ascending, unique.

    >>> parse_mines("10, 5:7")
    [5, 6, 7, 10]
    >>> parse_mines("5:x")
    Traceback (most recent call last):
    ...
    minesat.errors.InvalidValue: --mines: '5:x' is not a count or START:STOP[:STEP] (as in 40,60,99 ...)
    """
    counts: set[int] = set()
    for item in text.split(","):
        match = _ITEM.fullmatch(item)
        if match is None or not item.strip():
            raise InvalidValue(
                f"--mines: {item.strip()!r} is not a count or START:STOP[:STEP] (as in 40,60,99 or 40:120:10)"
            )
        start, stop, step = match.groups()
        if stop is None:
            counts.add(int(start))
            continue
        _add_range(counts, "--mines", item, int(start), int(stop), int(step or 1))
    return sorted(counts)


def parse_densities(text: str) -> list[Fraction]:
    """Densities from ``D,D,...`` and ``START:STOP:STEP`` items, each a decimal in [0, 1], ascending, unique.

    Read exactly (``0.1`` is one tenth, not the float nearest it), so a range
    such as ``0.1:0.3:0.05`` reaches its end and ``round(d x cells)`` never
    falls on the wrong side of a half.

    >>> [float(d) for d in parse_densities("0.3, 0.1:0.2:0.05")]
    [0.1, 0.15, 0.2, 0.3]
    >>> parse_densities("1.5")
    Traceback (most recent call last):
    ...
    minesat.errors.InvalidValue: --density: 1.5 is not a share of the cells between 0 and 1
    """
    found: set[Fraction] = set()
    for item in text.split(","):
        parts = [part.strip() for part in item.split(":")]
        if len(parts) not in (1, 3) or not all(parts):
            raise InvalidValue(
                f"--density: {item.strip()!r} is not a density or START:STOP:STEP "
                "(as in 0.1,0.15 or 0.1:0.3:0.02)"
            )
        values = [_fraction(part) for part in parts]
        if len(values) == 1:
            found.add(values[0])
            continue
        lo, hi, by = values
        if by <= 0:
            raise InvalidValue(f"--density: the step of {item.strip()!r} must be more than 0")
        _add_range(found, "--density", item, lo, hi, by)
    return sorted(found)


def _fraction(text: str) -> Fraction:
    try:
        value = Fraction(Decimal(text))
    except (InvalidOperation, ValueError, OverflowError):  # not a number, nan, inf
        raise InvalidValue(f"--density: {text!r} is not a number (as in 0.15)") from None
    if not 0 <= value <= 1:
        raise InvalidValue(f"--density: {text} is not a share of the cells between 0 and 1")
    return value


def _add_range(into: set[Any], option: str, item: str, lo: Any, hi: Any, by: Any) -> None:
    """Add ``lo, lo + by, ...`` up to ``hi`` (included when reached) to ``into``, at most
    :data:`MAX_POINTS` in all."""
    if by <= 0:
        raise InvalidValue(f"{option}: the step of {item.strip()!r} must be at least 1")
    if hi < lo:
        raise InvalidValue(f"{option}: {item.strip()!r} runs backwards ({lo} > {hi})")
    steps = math.floor((hi - lo) / by)
    if steps + 1 + len(into) > MAX_POINTS:
        raise InvalidValue(f"{option}: more than {MAX_POINTS} points; use a larger step")
    into.update(lo + k * by for k in range(steps + 1))


def parse_sizes(texts: Iterable[str]) -> list[tuple[int, int]]:
    """Board sizes from ``RxC`` items (each text may hold several, joined by commas), in order, unique.

    >>> parse_sizes(["9x9", "16x30,9x9"])
    [(9, 9), (16, 30)]
    """
    sizes: list[tuple[int, int]] = []
    for text in texts:
        for item in text.split(","):
            match = _SIZE.fullmatch(item)
            if match is None:
                raise InvalidValue(f"--size: {item.strip()!r} is not ROWSxCOLS (as in 16x30)")
            size = (int(match[1]), int(match[2]))
            try:
                check_size(*size)
            except InvalidValue as err:
                raise InvalidValue(f"--size {item.strip()}: {err}") from None
            if size not in sizes:
                sizes.append(size)
    return sizes


def preset_sizes(text: str) -> list[tuple[int, int]]:
    """The board sizes of presets named in a comma list (their mine counts are not used).

    >>> preset_sizes("beginner,expert")
    [(9, 9), (16, 30)]
    """
    sizes = []
    for name in split_list(text, "--preset"):
        if name.lower() not in PRESETS:
            raise InvalidValue(f"--preset: unknown preset {name!r} (known: {', '.join(PRESETS)})")
        rows, cols, _ = PRESETS[name.lower()]
        if (rows, cols) not in sizes:
            sizes.append((rows, cols))
    return sizes


def split_list(text: str, option: str) -> list[str]:
    """The items of a comma list, stripped, each once, in order; an empty item is refused.

    >>> split_list("best, safest,best", "--strategy")
    ['best', 'safest']
    """
    items = [item.strip() for item in text.split(",")]
    if not all(items):
        raise InvalidValue(f"{option}: {text!r} has an empty item")
    return list(dict.fromkeys(items))


def mines_text(mines: Sequence[int]) -> str:
    """The shortest ``--mines`` text for these counts: a range when they are evenly spaced.

    >>> mines_text([40, 50, 60, 70]), mines_text([10, 40, 99]), mines_text([7])
    ('40:70:10', '10,40,99', '7')
    """
    steps = {b - a for a, b in itertools.pairwise(mines)}
    if len(mines) > 2 and len(steps) == 1:
        return f"{mines[0]}:{mines[-1]}:{steps.pop()}"
    return ",".join(map(str, mines))


def density_text(densities: Sequence[Fraction]) -> str:
    """The ``--density`` text for these densities, as decimals: a range when evenly spaced.

    >>> density_text(parse_densities("0.1:0.3:0.05")), density_text(parse_densities("0.125,0.3"))
    ('0.1:0.3:0.05', '0.125,0.3')
    """

    def decimal(d: Fraction) -> str:
        text = str(Decimal(d.numerator) / Decimal(d.denominator))
        return text.rstrip("0").rstrip(".") if "." in text else text

    steps = {b - a for a, b in itertools.pairwise(densities)}
    if len(densities) > 2 and len(steps) == 1:
        return f"{decimal(densities[0])}:{decimal(densities[-1])}:{decimal(steps.pop())}"
    return ",".join(map(decimal, densities))
