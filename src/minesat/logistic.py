"""Logistic regression of wins on one variable, and where the fitted curve crosses a rate.

A sweep asks at which mine density a player wins half its games. Reading it off
the grid (the first point below 50 %) is as coarse as the grid; joining two
points by a line ignores every other point. The fit here uses every game of the
curve: the maximum-likelihood logistic curve ``logit P(win) = b0 + b1 x``, its
crossing ``x50 = -b0 / b1`` and Fieller's 95 % interval for that ratio.

Data come grouped, ``(x, wins, games)`` per point, which has the same
likelihood as the games one by one:

>>> fit = fit_logistic([(0.1, 9, 10), (0.2, 6, 10), (0.3, 2, 10)])
>>> round(fit.crossing(), 4)
0.2226
>>> low, high = fit.fieller()
>>> low < fit.crossing() < high
True

The maximum likelihood is reached at infinity, and no fit exists, when the
games separate: every win at a lower x than every loss (or the reverse), or all
games won, or all lost.

>>> fit_logistic([(0.1, 10, 10), (0.2, 10, 10), (0.3, 0, 10)]) is None
True

Each fit says how well it fits: the deviance on ``points - 2`` degrees of freedom and its
chi-square p-value, and the dispersion (Pearson's X² over its degrees of freedom). Games
that vary more than a binomial allows (a dispersion above 1) widen the covariance, and so the
crossing's interval, by the dispersion: the quasi-binomial fit.

>>> fit = fit_logistic([(0.1, 9, 10), (0.2, 4, 10), (0.3, 2, 10)])
>>> round(fit.deviance, 4), fit.df, round(fit.p_value, 4), round(fit.dispersion, 4)
(0.8014, 1, 0.3707, 0.7922)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from minesat.stats import chi2_sf

__all__ = [
    "MAX_ITERATIONS", "POOR_FIT", "TOLERANCE", "Z95", "LogisticFit", "Point", "fit_logistic", "separates",
]  # fmt: skip

#: The two-sided 95 % normal quantile, to six decimals (as :data:`minesat.stats.Z95`).
Z95 = 1.959964

#: Newton-Raphson stops when no coefficient moves more than this (on the scaled x).
TOLERANCE = 1e-12
MAX_ITERATIONS = 100

#: A point of a fit: (x, wins, games).
Point = tuple[float, int, int]

#: Below this goodness-of-fit p-value a curve is called a poor fit: its points stray from any
#: logistic curve more than chance would have them, so its crossing is a model's, not the data's.
POOR_FIT = 0.05


@dataclass(frozen=True)
class LogisticFit:
    """``logit P(win) = intercept + slope * x`` and the covariance of ``(intercept, slope)``.

    ``var_intercept``, ``cov`` and ``var_slope`` are the binomial covariance: the inverse
    of the observed (= expected, for the logit link) information at the maximum.
    :meth:`covariance` scales it by :attr:`scale` (quasi-binomial), and Wald tests and
    Fieller's interval use that.

    How well the curve fits: ``deviance`` (twice the log-likelihood ratio of the
    saturated model, one rate per point, to this one) on ``df`` = points - 2 degrees
    of freedom, and ``pearson``, Pearson's X² = sum (k - n p)² / (n p (1 - p)).
    """

    intercept: float
    slope: float
    var_intercept: float
    cov: float
    var_slope: float
    log_likelihood: float
    iterations: int
    deviance: float = 0.0
    pearson: float = 0.0
    df: int = 0

    @property
    def p_value(self) -> float | None:
        """The chance of a deviance at least this large from points that do lie on a logistic
        curve (chi-square on :attr:`df`); ``None`` with no degree of freedom left (two points)."""
        return chi2_sf(self.deviance, self.df) if self.df > 0 else None

    @property
    def dispersion(self) -> float | None:
        """Pearson's X² over :attr:`df`: about 1 when the games vary as binomial counts do,
        above when they vary more; ``None`` with no degree of freedom left."""
        return self.pearson / self.df if self.df > 0 else None

    @property
    def scale(self) -> float:
        """What the binomial covariance is multiplied by: the dispersion where it exceeds 1."""
        return max(1.0, self.dispersion or 1.0)

    @property
    def poor_fit(self) -> bool:
        """True when the goodness-of-fit p-value is below :data:`POOR_FIT`."""
        return self.p_value is not None and self.p_value < POOR_FIT

    def covariance(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The covariance of ``(intercept, slope)``: the binomial one times :attr:`scale`."""
        k = self.scale
        return ((k * self.var_intercept, k * self.cov), (k * self.cov, k * self.var_slope))

    def probability(self, x: float) -> float:
        """The fitted chance of a win at ``x``."""
        return _sigmoid(self.intercept + self.slope * x)

    def crossing(self, rate: float = 0.5) -> float:
        """The ``x`` where the fitted curve passes ``rate`` (the 50 % crossing by default)."""
        return (math.log(rate / (1 - rate)) - self.intercept) / self.slope

    def fieller(self, rate: float = 0.5, z: float = Z95) -> tuple[float | None, float | None]:
        """Fieller's interval for :meth:`crossing`: ``(low, high)``, a bound ``None`` when unbounded.

        With ``c = logit(rate)``, the crossing ``x`` solves ``b0 - c + b1 x = 0``;
        the interval is every ``x`` at which that hypothesis is not rejected by
        the Wald test: ``(b0 - c + b1 x)² <= z² Var(b0 + b1 x)``, a quadratic
        ``A x² + B x + C <= 0``, with the variances of :meth:`covariance` (scaled by
        the dispersion where it exceeds 1). When the slope is significant (``A > 0``)
        that is the segment between the roots; otherwise the set is unbounded
        (the whole line, or two rays) and both bounds are ``None``.
        """
        a0 = self.intercept - math.log(rate / (1 - rate))
        z2 = z * z * self.scale
        a = self.slope**2 - z2 * self.var_slope
        b = 2 * (a0 * self.slope - z2 * self.cov)
        c = a0**2 - z2 * self.var_intercept
        if a <= 0:
            return None, None
        # The crossing itself satisfies the inequality, so the discriminant is >= 0 (up to rounding).
        root = math.sqrt(max(0.0, b * b - 4 * a * c))
        # The two roots without cancellation: q has the sign of -b.
        q = -0.5 * (b + math.copysign(root, b))
        if q == 0:  # b = 0 and a touching root: symmetric about 0
            half = math.sqrt(max(0.0, -c / a))
            return -half, half
        pair = (q / a, c / q)
        return min(pair), max(pair)


def _sigmoid(eta: float) -> float:
    if eta >= 0:
        return 1 / (1 + math.exp(-eta))
    e = math.exp(eta)
    return e / (1 + e)


def _log_likelihood(points: Sequence[Point], a: float, b: float) -> float:
    """Sum of ``k log p + (n - k) log (1 - p)``, with ``log p = -log(1 + e^-eta)`` kept stable."""
    total = 0.0
    for x, k, n in points:
        eta = a + b * x
        log_p = -_softplus(-eta)
        log_q = -_softplus(eta)
        total += k * log_p + (n - k) * log_q
    return total


def _softplus(t: float) -> float:
    """``log(1 + e^t)`` without overflow."""
    return t + math.log1p(math.exp(-t)) if t > 0 else math.log1p(math.exp(t))


def _goodness(points: Sequence[Point], a: float, b: float) -> tuple[float, float]:
    """The deviance and Pearson's X² of the fit ``logit p = a + b x`` to grouped points."""
    deviance = pearson = 0.0
    for x, k, n in points:
        p = _sigmoid(a + b * x)
        mean = n * p
        # k log(k / mu) + (n - k) log((n - k) / (n - mu)), each term 0 where its count is 0.
        if k:
            deviance += k * math.log(k / mean)
        if n - k:
            deviance += (n - k) * math.log((n - k) / (n - mean))
        variance = mean * (1 - p)
        if variance > 0:
            pearson += (k - mean) ** 2 / variance
    return 2 * deviance, pearson


def separates(points: Sequence[Point]) -> bool:
    """True when no finite maximum-likelihood fit exists.

    With one variable and an intercept the maximum is finite exactly when wins
    and losses overlap: some loss lies below the highest win and some win lies
    above the lowest loss, each strictly (a single x holding both, with every
    other win on one side and every loss on the other, is quasi-separation: the
    maximum is still at infinity).

    >>> separates([(1, 1, 2), (2, 0, 2)]), separates([(1, 1, 2), (2, 1, 2)])
    (True, False)
    """
    won = [x for x, k, n in points if k > 0]
    lost = [x for x, k, n in points if n - k > 0]
    if not won or not lost:
        return True
    return max(won) <= min(lost) or max(lost) <= min(won)


def fit_logistic(points: Sequence[Point]) -> LogisticFit | None:
    """The maximum-likelihood fit of ``logit P(win) = b0 + b1 x`` to ``(x, wins, games)`` points.

    ``None`` when the games separate (:func:`separates`): the likelihood then
    grows without bound as the curve steepens. Points with no games are left
    out. Newton-Raphson on x centred and scaled (so the two coefficients are of
    one size and the information matrix well conditioned), halving a step that
    would lower the likelihood, from the flat curve through the overall rate.
    """
    pts = [(float(x), int(k), int(n)) for x, k, n in points if n > 0]
    if any(not 0 <= k <= n for _, k, n in pts) or any(not math.isfinite(x) for x, _, _ in pts):
        raise ValueError("each point needs a finite x and 0 <= wins <= games")
    if separates(pts):
        return None
    games = sum(n for _, _, n in pts)
    centre = sum(x * n for x, _, n in pts) / games
    scale = max(abs(x - centre) for x, _, _ in pts)  # > 0: separates() refused a single x
    scaled = [((x - centre) / scale, k, n) for x, k, n in pts]
    wins = sum(k for _, k, _ in pts)
    a, b = math.log(wins / (games - wins)), 0.0
    ll = _log_likelihood(scaled, a, b)
    iterations = 0
    while True:
        iterations += 1
        if iterations > MAX_ITERATIONS:
            return None  # did not settle: no fit rather than a half-way answer
        # Gradient g and information I = X' W X of the grouped binomial likelihood.
        g0 = g1 = i00 = i01 = i11 = 0.0
        for u, k, n in scaled:
            p = _sigmoid(a + b * u)
            r = k - n * p
            w = n * p * (1 - p)
            g0, g1 = g0 + r, g1 + r * u
            i00, i01, i11 = i00 + w, i01 + w * u, i11 + w * u * u
        det = i00 * i11 - i01 * i01
        if not det > 0:
            return None  # no curvature left: the curve is as steep as floats allow
        da = (i11 * g0 - i01 * g1) / det
        db = (i00 * g1 - i01 * g0) / det
        step = 1.0
        while True:
            na, nb = a + step * da, b + step * db
            new = _log_likelihood(scaled, na, nb)
            if new >= ll - 1e-12 * abs(ll) or step < 1e-10:
                break
            step /= 2
        a, b, ll = na, nb, new
        if max(abs(step * da), abs(step * db)) < TOLERANCE:
            break
    # Covariance at the maximum, information recomputed there.
    i00 = i01 = i11 = 0.0
    for u, _k, n in scaled:
        p = _sigmoid(a + b * u)
        w = n * p * (1 - p)
        i00, i01, i11 = i00 + w, i01 + w * u, i11 + w * u * u
    det = i00 * i11 - i01 * i01
    if not det > 0:
        return None
    va, vab, vb = i11 / det, -i01 / det, i00 / det
    # Back to x: b1 = b / s, b0 = a - b c / s; the covariance maps through J = [[1, -c/s], [0, 1/s]].
    m = centre / scale
    slope = b / scale
    intercept = a - b * m
    var_intercept = va - 2 * m * vab + m * m * vb
    cov = (vab - m * vb) / scale
    var_slope = vb / (scale * scale)
    deviance, pearson = _goodness(scaled, a, b)
    return LogisticFit(intercept, slope, var_intercept, cov, var_slope, ll, iterations,
                       deviance=max(0.0, deviance), pearson=pearson, df=len(pts) - 2)  # fmt: skip
