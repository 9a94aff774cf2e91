"""The logistic fit behind a sweep's 50 % crossing: textbook figures, Fieller's interval, separation."""

from __future__ import annotations

import math
import random

import pytest

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
    for x in (low, high):
        se = math.sqrt(fit.var_intercept + 2 * x * fit.cov + x * x * fit.var_slope)
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
