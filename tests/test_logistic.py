"""The logistic fit behind a sweep's 50 % crossing: textbook figures, Fieller's interval, separation."""

from __future__ import annotations

import math
import random

import pytest

from glm import chi2_sf, irls
from minesat.logistic import Z95, fit_logistic, separates

#: Bliss's beetle mortality (1935) as Dobson and Barnett give it (An Introduction to Generalized
#: Linear Models, 3rd ed., table 7.2): dose (log10 CS2 mg/l), beetles killed, beetles. The logistic
#: fit in their table 7.3: b1 = -60.72 (s.e. 5.18), b2 = 34.27 (s.e. 2.91).
BEETLES = [(1.6907, 6, 59), (1.7242, 13, 60), (1.7552, 18, 62), (1.7842, 28, 56),
           (1.8113, 52, 63), (1.8369, 53, 59), (1.8610, 61, 62), (1.8839, 60, 60)]  # fmt: skip


def test_the_textbook_fit():
    fit = fit_logistic(BEETLES)
    assert fit is not None
    assert fit.intercept == pytest.approx(-60.72, abs=0.005)
    assert fit.slope == pytest.approx(34.27, abs=0.005)
    assert math.sqrt(fit.var_intercept) == pytest.approx(5.18, abs=0.005)
    assert math.sqrt(fit.var_slope) == pytest.approx(2.91, abs=0.005)
    assert fit.crossing() == pytest.approx(60.72 / 34.27, abs=2e-4)  # the LD50


def test_fiellers_bounds_are_where_the_wald_test_of_the_crossing_reaches_z():
    fit = fit_logistic(BEETLES)
    assert fit is not None
    low, high = fit.fieller()
    assert low is not None and high is not None and low < fit.crossing() < high
    (v0, c), (_, v1) = fit.covariance()  # the dispersion-scaled covariance
    for x in (low, high):
        se = math.sqrt(v0 + 2 * x * c + x * x * v1)
        assert abs(fit.intercept + fit.slope * x) / se == pytest.approx(Z95, rel=1e-9)
    # Another rate: the 90 % crossing and its interval.
    low, high = fit.fieller(0.9)
    assert low is not None and high is not None and low < fit.crossing(0.9) < high
    assert fit.probability(fit.crossing(0.9)) == pytest.approx(0.9)


def test_a_slope_not_clearly_away_from_zero_leaves_the_crossing_unbounded():
    fit = fit_logistic([(0.1, 6, 10), (0.2, 5, 10), (0.3, 5, 10)])
    assert fit is not None and fit.slope < 0
    assert fit.fieller() == (None, None)


@pytest.mark.parametrize(
    ("points", "separated"),
    [
        ([(0.1, 10, 10), (0.2, 10, 10), (0.3, 0, 10)], True),  # wins below, losses above
        ([(0.1, 0, 10), (0.2, 10, 10)], True),  # the reverse
        ([(0.1, 10, 10), (0.2, 5, 10), (0.3, 0, 10)], True),  # quasi: both only at 0.2
        ([(0.1, 10, 10), (0.2, 5, 10), (0.3, 1, 10)], False),
        ([(0.1, 5, 10)], True),  # one density: no slope to fit
        ([(0.1, 10, 10), (0.3, 10, 10)], True),  # all won
        ([(0.1, 0, 10), (0.3, 0, 10)], True),  # all lost
    ],
)
def test_separated_games_have_no_fit(points, separated):
    assert separates(points) is separated
    assert (fit_logistic(points) is None) is separated


def test_points_with_no_games_are_left_out_and_bad_points_refused():
    with_empty = fit_logistic([(0.1, 9, 10), (0.15, 0, 0), (0.2, 6, 10), (0.3, 2, 10)])
    without = fit_logistic([(0.1, 9, 10), (0.2, 6, 10), (0.3, 2, 10)])
    assert with_empty == without
    with pytest.raises(ValueError):
        fit_logistic([(0.1, 11, 10), (0.2, 1, 10)])
    with pytest.raises(ValueError):
        fit_logistic([(math.nan, 1, 10), (0.2, 1, 10)])


def test_the_fit_agrees_with_scipy_on_random_curves():
    optimize = pytest.importorskip("scipy.optimize", reason="scipy is not installed")
    rng = random.Random(7)
    for _ in range(20):
        b0, b1 = rng.uniform(1, 6), -rng.uniform(5, 40)
        points = []
        for k in range(rng.randint(3, 9)):
            x = 0.05 + 0.04 * k
            n = rng.randint(5, 80)
            p = 1 / (1 + math.exp(-(b0 + b1 * x)))
            points.append((x, sum(rng.random() < p for _ in range(n)), n))
        fit = fit_logistic(points)
        if fit is None:
            assert separates(points)
            continue

        def nll(b, points=points):
            etas = [(b[0] + b[1] * x, k, n) for x, k, n in points]
            return -sum(k * eta - n * math.log1p(math.exp(eta)) for eta, k, n in etas)

        best = optimize.minimize(nll, [0.0, 0.0], method="BFGS", options={"gtol": 1e-10})
        assert fit.intercept == pytest.approx(best.x[0], abs=1e-3 * max(1, abs(best.x[0])))
        assert fit.slope == pytest.approx(best.x[1], abs=1e-3 * max(1, abs(best.x[1])))
        assert fit.log_likelihood >= -best.fun - 1e-9


def test_the_textbook_goodness_of_fit():
    # Dobson and Barnett, section 7.3: for the logistic model of the beetles, Pearson's
    # X² = 10.03 and the deviance D = 11.23, on 8 - 2 = 6 degrees of freedom.
    fit = fit_logistic(BEETLES)
    assert fit is not None
    assert fit.df == 6
    assert fit.deviance == pytest.approx(11.23, abs=0.005)
    assert fit.pearson == pytest.approx(10.03, abs=0.005)
    assert fit.dispersion == pytest.approx(10.03 / 6, abs=0.001)
    assert fit.p_value == pytest.approx(chi2_sf(11.23, 6), abs=2e-4)  # about 0.082: not a poor fit
    assert not fit.poor_fit
    # Overdispersed: the covariance and so Fieller's interval are widened by the dispersion.
    assert fit.scale == fit.dispersion
    assert fit.covariance()[1][1] == pytest.approx(fit.dispersion * fit.var_slope)


def test_the_fit_agrees_with_an_independent_glm():
    """deviance, df, p_value and dispersion as a numpy IRLS gives them, within 1e-3, and the
    covariance the binomial one times max(1, dispersion), on binomial and overdispersed curves."""
    rng = random.Random(53)
    checked = overdispersed = 0
    while checked < 40:
        b0, b1 = rng.uniform(2, 6), -rng.uniform(10, 40)
        points = []
        spread = rng.choice([0.0, 0.0, 0.15, 0.3])  # beta-binomial jitter of each point's rate
        for i in range(rng.randint(3, 9)):
            x = 0.05 + 0.03 * i
            n = rng.randint(20, 200)
            p = 1 / (1 + math.exp(-(b0 + b1 * x)))
            if spread:
                p = min(max(p + rng.gauss(0, spread * p * (1 - p) * 4), 0.001), 0.999)
            points.append((x, sum(rng.random() < p for _ in range(n)), n))
        fit = fit_logistic(points)
        if fit is None:
            continue
        beta, cov, deviance, pearson, df = irls(points)
        assert fit.intercept == pytest.approx(beta[0], rel=1e-6, abs=1e-6)
        assert fit.slope == pytest.approx(beta[1], rel=1e-6, abs=1e-6)
        assert fit.df == df
        assert fit.deviance == pytest.approx(deviance, abs=1e-3)
        if df:
            assert fit.dispersion == pytest.approx(pearson / df, abs=1e-3)
            assert fit.p_value == pytest.approx(chi2_sf(deviance, df), abs=1e-3)
        else:
            assert fit.dispersion is None and fit.p_value is None
        scale = max(1.0, pearson / df) if df else 1.0
        overdispersed += scale > 1.5
        got = fit.covariance()
        for i in range(2):
            for j in range(2):
                assert got[i][j] == pytest.approx(cov[i][j] * scale, rel=1e-6)
        checked += 1
    assert overdispersed >= 5  # the scaling was exercised, not only the binomial case
