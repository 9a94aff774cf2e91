"""The engine's caches: bounded dictionaries of answers that depend only on their keys.

>>> cache: dict[object, int] = {}
>>> remember(cache, "a", 1), cache
(1, {'a': 1})
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["CACHE_LIMIT", "remember"]

T = TypeVar("T")

#: Component results kept per Analyzer; a game never needs more than a few hundred.
CACHE_LIMIT = 4096


def remember(cache: dict[object, T], key: object, value: T) -> T:
    """Keep ``value`` under ``key`` (a full cache starts again empty) and return it."""
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value
