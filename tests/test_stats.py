"""The Wilson score interval against published values and its defining equation."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesat.stats import (
    chi2_sf,
    mcnemar_exact,
    mean_interval,
    newcombe_independent,
    newcombe_paired,
    normal_two_sided_p,
    t_quantile,
    wilson,
)


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


# --- differences of two win rates: Newcombe's intervals (SPEC section 18) -------------------

Z = 1.959964


def textbook_wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's score interval as the textbooks write it, with no shortcut at 0 or n."""
    p = k / n
    centre = 2 * n * p + Z * Z
    half = Z * math.sqrt(Z * Z + 4 * n * p * (1 - p))
    return (centre - half) / (2 * (n + Z * Z)), (centre + half) / (2 * (n + Z * Z))


def textbook_paired(both: int, only_a: int, only_b: int, neither: int) -> tuple[float, float]:
    """Newcombe (1998) method 10, written out from SPEC section 18 line by line."""
    n = both + only_a + only_b + neither
    p1, p2 = (both + only_a) / n, (both + only_b) / n
    l1, u1 = textbook_wilson(both + only_a, n)
    l2, u2 = textbook_wilson(both + only_b, n)
    b = both * neither - only_a * only_b
    if b > n / 2:
        c = b - n / 2
    elif b < 0:
        c = b
    else:
        c = 0
    product = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = c / math.sqrt(product) if product else 0.0
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2)
    return low, high


@pytest.mark.parametrize(
    ("counts", "expected"),
    [((36, 12, 2, 0), (0.056930, 0.340428)), ((40, 10, 3, 47), (-0.001676, 0.139822))],
)
def test_newcombe_paired_spec_vectors(counts, expected) -> None:
    assert newcombe_paired(*counts) == pytest.approx(expected, abs=1e-6)
    assert textbook_paired(*counts) == pytest.approx(expected, abs=1e-6)


@given(st.lists(st.integers(0, 3000), min_size=4, max_size=4).filter(lambda c: sum(c) > 0))
def test_newcombe_paired_is_the_textbook_formula(counts: list[int]) -> None:
    low, high = newcombe_paired(*counts)
    assert (low, high) == pytest.approx(textbook_paired(*counts), abs=1e-6)
    _, only_a, only_b, _ = counts
    d = (only_a - only_b) / sum(counts)
    assert -1.0 - 1e-9 <= low <= d + 1e-12 and d - 1e-12 <= high <= 1.0 + 1e-9


def test_newcombe_independent_published_examples() -> None:
    # Newcombe (1998), "Interval estimation for the difference between independent proportions",
    # Table II, method 10: examples (a) 56/70 - 48/80 and (b) 9/10 - 3/10.
    assert newcombe_independent(56, 70, 48, 80) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    assert newcombe_independent(9, 10, 3, 10) == pytest.approx((0.1705, 0.8090), abs=1e-4)


@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
       st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))  # fmt: skip
def test_newcombe_independent_is_the_textbook_formula(a: tuple[int, int], b: tuple[int, int]) -> None:
    (ka, na), (kb, nb) = a, b
    p1, p2 = ka / na, kb / nb
    l1, u1 = textbook_wilson(ka, na)
    l2, u2 = textbook_wilson(kb, nb)
    expected = (p1 - p2 - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
                p1 - p2 + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))  # fmt: skip
    assert newcombe_independent(ka, na, kb, nb) == pytest.approx(expected, abs=1e-6)


def test_normal_two_sided_p() -> None:
    assert normal_two_sided_p(1.959964) == pytest.approx(0.05, abs=1e-6)
    assert normal_two_sided_p(-2.575829) == pytest.approx(0.01, abs=1e-6)
    assert normal_two_sided_p(0.0) == 1.0


@pytest.mark.parametrize(
    ("df", "t"),
    # The two-sided 5 % points of Student's t, as every table gives them (Fisher and Yates).
    [(1, 12.7062), (2, 4.3027), (3, 3.1824), (4, 2.7764), (9, 2.2622), (29, 2.0452), (120, 1.9799)],
)
def test_t_quantiles_are_the_tables(df: int, t: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(t, abs=1e-4)


@pytest.mark.parametrize(
    ("df", "x", "p"),
    # The 5 % and 1 % points of chi-square (the tables of Pearson and Hartley).
    [(1, 3.8415, 0.05), (2, 5.9915, 0.05), (5, 11.0705, 0.05), (10, 18.3070, 0.05), (1, 6.6349, 0.01),
     (6, 16.8119, 0.01)],
)
def test_chi_square_tail_at_the_tables_points(df: int, x: float, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, abs=2e-5)


def test_mean_interval_is_students_and_none_under_two_values() -> None:
    assert mean_interval(6, 36, 1) is None and mean_interval(0, 0, 0) is None
    # 6 and 6: no spread, the interval is the mean; 2 and 4: mean 3, s = sqrt(2), t(1) = 12.706.
    assert mean_interval(12, 72, 2) == (6.0, 6.0)
    lo, hi = mean_interval(6, 20, 2)
    assert hi == pytest.approx(3 + 12.7062 * math.sqrt(2) / math.sqrt(2), abs=1e-3) and lo == 0.0
