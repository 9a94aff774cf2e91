"""Small statistics shared by simulation summaries and reports.

>>> lo, hi = wilson(5, 10)
>>> round(lo, 4), round(hi, 4)
(0.2366, 0.7634)
"""

from __future__ import annotations

import math


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval ``(lo, hi)`` for ``wins`` successes in ``n`` trials.

    Chosen over the normal ("Wald") interval because it stays inside [0, 1] and
    keeps its coverage when the rate is near 0 or 1 or ``n`` is small, which is
    where win rates of tiny boards and short runs live. ``z=1.96`` gives 95 %.
    With no trials nothing is known: ``(0.0, 1.0)``.

    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> round(wilson(0, 10)[1], 4)
    0.2775
    """
    if n < 0 or not 0 <= wins <= n:
        raise ValueError(f"need 0 <= wins <= n, not wins={wins}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # At p = 0 or 1 one bound is exactly 0 or 1; rounding would leave it a hair off.
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == n else min(1.0, centre + half)
    return lo, hi
