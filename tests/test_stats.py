"""The Wilson score interval against published values and its defining equation."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesat.stats import wilson


@pytest.mark.parametrize(
    ("wins", "n", "lo", "hi"),
    [
        # Textbook values (e.g. Newcombe 1998, Table I; Brown, Cai & DasGupta 2001).
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 29, 0.0061, 0.1718),
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
    ],
)
def test_known_values(wins: int, n: int, lo: float, hi: float) -> None:
    got = wilson(wins, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_no_trials_knows_nothing() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_wider_z_wider_interval() -> None:
    lo95, hi95 = wilson(40, 100)
    lo99, hi99 = wilson(40, 100, z=2.576)
    assert lo99 < lo95 < 0.4 < hi95 < hi99


@pytest.mark.parametrize(("wins", "n"), [(-1, 10), (11, 10), (0, -1)])
def test_rejects_impossible_counts(wins: int, n: int) -> None:
    with pytest.raises(ValueError):
        wilson(wins, n)


@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_bounds_solve_the_score_equation(case: tuple[int, int]) -> None:
    """Each bound p0 is where the observed rate is exactly z standard errors (at p0) away."""
    wins, n = case
    z = 1.96
    p = wins / n
    lo, hi = wilson(wins, n, z)
    assert 0.0 <= lo <= p <= hi <= 1.0
    for p0 in (lo, hi):
        if p0 in (0.0, 1.0) and p0 == p:
            continue  # the degenerate bound of an all-or-nothing record
        assert abs(p - p0) == pytest.approx(z * math.sqrt(p0 * (1 - p0) / n), abs=1e-9)
