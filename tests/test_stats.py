"""The Wilson score interval against published values and its defining equation."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesat.stats import mcnemar_exact, wilson


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


# Reference values from scipy.stats.binomtest(k, n, 0.5).pvalue (two-sided), SciPy 1.x.
@pytest.mark.parametrize(
    ("only_a", "only_b", "expected"),
    [
        (1, 9, 0.021484375),
        (0, 5, 0.0625),
        (5, 15, 0.04138946533203125),
        (42, 30, 0.1945051658673991),
        (100, 150, 0.0018833009350761602),
        (409, 329, 0.0036086406581774446),
    ],
)
def test_mcnemar_exact_known_values(only_a, only_b, expected):
    assert mcnemar_exact(only_a, only_b) == pytest.approx(expected, rel=1e-12)
    assert mcnemar_exact(only_b, only_a) == mcnemar_exact(only_a, only_b)


def test_mcnemar_exact_edges():
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(7, 7) == 1.0  # a tie: capped at 1, never above
    # Far past where floats of 2**-n underflow to 0, the exact ratio still comes out right.
    assert mcnemar_exact(0, 1100) == 0.0 and mcnemar_exact(0, 1000) == pytest.approx(2 * 2.0**-1000)
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 3)
