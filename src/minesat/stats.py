"""Small statistics shared by simulation summaries and reports.

>>> lo, hi = wilson(5, 10)
>>> round(lo, 4), round(hi, 4)
(0.2366, 0.7634)
"""

from __future__ import annotations

import math

__all__ = [
    "EXACT_BINOMIAL_BITS",
    "Z95",
    "WinShare",
    "approximate",
    "approximate_binomial",
    "binomial_bits",
    "chi2_sf",
    "mcnemar_exact",
    "mean_interval",
    "newcombe_independent",
    "newcombe_paired",
    "normal_two_sided_p",
    "percent",
    "regularized_beta",
    "regularized_gamma_q",
    "t_quantile",
    "wilson",
]


class WinShare:
    """Mixed into a result that counts ``wins`` of ``layouts``: the share won, 0 of none.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Count(WinShare):
    ...     wins: int
    ...     layouts: int
    >>> Count(1, 4).win_probability, Count(0, 0).win_probability
    (0.25, 0.0)
    """

    wins: int
    layouts: int

    @property
    def win_probability(self) -> float:
        return self.wins / self.layouts if self.layouts else 0.0


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


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """The exact two-sided McNemar p-value for paired wins: ``only_a`` pairs won by A alone,
    ``only_b`` by B alone.

    Under "A and B are equally strong" each discordant pair goes either way with
    probability 1/2, so the p-value is a two-sided binomial test at 1/2: twice
    the smaller tail, capped at 1. Counted exactly with integers (a
    :class:`~fractions.Fraction` until the last step), so it stays right where
    the normal approximation fails: few discordant pairs, or p-values of 1e-300.

    >>> mcnemar_exact(0, 0), mcnemar_exact(3, 3)
    (1.0, 1.0)
    >>> mcnemar_exact(0, 5)  # 2 * (1/2)**5
    0.0625
    >>> round(mcnemar_exact(1, 9), 6)  # 2 * (1 + 10) / 1024
    0.021484
    """
    if only_a < 0 or only_b < 0:
        raise ValueError(f"need counts >= 0, not {only_a} and {only_b}")
    n = only_a + only_b
    k = min(only_a, only_b)
    # sum of C(n, i) for i <= k, each term from the last: C(n, i+1) = C(n, i) (n-i) / (i+1)
    term = tail = 1
    for i in range(k):
        term = term * (n - i) // (i + 1)
        tail += term
    from fractions import Fraction  # here: it imports decimal, which no command needs at start

    return float(min(Fraction(1), Fraction(2 * tail, 2**n)))


#: The two-sided 95 % normal quantile, to six decimals (1.96 rounds it).
Z95 = 1.959964


def newcombe_paired(both: int, only_a: int, only_b: int, neither: int, z: float = Z95) -> tuple[float, float]:
    """The 95 % interval of p1 - p2 for paired wins: Newcombe's score method for paired data.

    Newcombe (1998, "Improved confidence intervals for the difference between binomial
    proportions based on paired data", method 10), as Altman et al., *Statistics with
    Confidence*, give it. ``both``, ``only_a``, ``only_b``, ``neither`` count the pairs
    won by both, by A alone, by B alone, by neither; p1 is A's win rate, p2 B's.
    Each rate's Wilson interval is combined with the correlation of the two runs'
    outcomes (phi, continuity-corrected as Newcombe does), so the interval is
    narrower than two independent ones when the runs win and lose the same boards.

    >>> [round(x, 6) for x in newcombe_paired(36, 12, 2, 0)]  # Newcombe's Table II example
    [0.05693, 0.340428]
    >>> [round(x, 6) for x in newcombe_paired(40, 10, 3, 47)]
    [-0.001676, 0.139822]
    >>> newcombe_paired(0, 0, 0, 0)  # no pairs: nothing is known
    (-1.0, 1.0)
    """
    counts = (both, only_a, only_b, neither)
    if min(counts) < 0:
        raise ValueError(f"need counts >= 0, not {counts}")
    n = both + only_a + only_b + neither
    if n == 0:
        return -1.0, 1.0
    p1, p2 = (both + only_a) / n, (both + only_b) / n
    l1, u1 = wilson(both + only_a, n, z)
    l2, u2 = wilson(both + only_b, n, z)
    # phi, the correlation of the two outcomes, with Newcombe's continuity correction on B.
    b = both * neither - only_a * only_b
    c = b - n / 2 if b > n / 2 else b if b < 0 else 0.0
    product = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = c / math.sqrt(product) if product else 0.0
    d = p1 - p2
    low = d - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    high = d + math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return low, high


def newcombe_independent(wins_a: int, n_a: int, wins_b: int, n_b: int, z: float = Z95) -> tuple[float, float]:
    """The 95 % interval of p1 - p2 for two independent runs: Newcombe's hybrid score interval.

    Newcombe (1998, "Interval estimation for the difference between independent
    proportions", method 10): each run's Wilson interval, over its own games,
    combined as ``D -/+ sqrt(...)``. With no games in a run nothing is known of it.

    >>> [round(x, 4) for x in newcombe_independent(56, 70, 48, 80)]  # Newcombe's example (a)
    [0.0524, 0.3339]
    """
    if n_a == 0 or n_b == 0:
        return -1.0, 1.0
    p1, p2 = wins_a / n_a, wins_b / n_b
    l1, u1 = wilson(wins_a, n_a, z)
    l2, u2 = wilson(wins_b, n_b, z)
    d = p1 - p2
    return d - math.hypot(p1 - l1, u2 - p2), d + math.hypot(u1 - p1, p2 - l2)


def normal_two_sided_p(z: float) -> float:
    """The two-sided p-value of a standard normal score: P(|Z| >= |z|).

    >>> round(normal_two_sided_p(1.959964), 4), normal_two_sided_p(0.0)
    (0.05, 1.0)
    """
    return math.erfc(abs(z) / math.sqrt(2))


def percent(p: float, *, precise: bool = False) -> str:
    """A probability for people, one way everywhere (commands, replays, the viewer): ``12.5%``.

    Never 0 % or 100 % unless exact. Within 0.1 % of either, ``precise`` gives
    two significant digits of the small chance (of a mine, or of none) instead
    of ``<0.1%``: where that chance is the point of the sentence.

    >>> percent(0.125), percent(0.0004), percent(1.0)
    ('12.5%', '<0.1%', '100.0%')
    >>> percent(0.000412, precise=True), percent(0.99996, precise=True), percent(0.5, precise=True)
    ('0.041%', '99.9960%', '50.0%')
    """
    small = min(p, 1.0 - p)
    if precise and 0.0 < small < 0.001:
        digits = 1 - math.floor(math.log10(small * 100))
        return f"{p * 100:.{digits}f}%"
    if 0.0 < p < 0.001:
        return "<0.1%"
    if 0.999 < p < 1.0:
        return ">99.9%"
    return f"{p:.1%}"


def approximate(count: int) -> str:
    """A count for people: exact up to ten million, else two significant figures (``1.1e12``).

    Exact counts of layouts run to hundreds of digits; a message says how large, not every digit.
    Works on counts too large for a float.

    >>> approximate(3_838_380), approximate(1_073_345_359_960), approximate(97 * 10**400)
    ('3838380', '1.1e12', '9.7e401')
    """
    if count < 10_000_000:
        return str(count)
    exponent = int((count.bit_length() - 1) * math.log10(2))
    while 10 ** (exponent + 1) <= count:
        exponent += 1
    while 10**exponent > count:
        exponent -= 1
    mantissa = round(count // 10 ** (exponent - 3) / 1000, 1)
    if mantissa >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.1f}e{exponent}"


#: Past this many bits a binomial is not worked out to say how large it is: ``math.comb`` of a
#: 1000x1000 board's cells and half as many mines takes seconds, in one call no clock can stop.
EXACT_BINOMIAL_BITS = 50_000


def approximate_binomial(n: int, k: int) -> str:
    """``approximate(comb(n, k))``, at once however large: past :data:`EXACT_BINOMIAL_BITS`
    bits the two figures come from logarithms of the factorials (``lgamma``), whose error
    (some 1e-9 of the mantissa) is far below the one decimal shown.

    >>> approximate_binomial(30, 5), approximate_binomial(40_000, 3)
    ('142506', '1.1e13')
    >>> approximate_binomial(470_886, 235_445)          # 961x490, a corner start: instant
    '7.5e141747'
    """
    if not 0 <= k <= n:
        return "0"
    if binomial_bits(n, k) <= EXACT_BINOMIAL_BITS:
        return approximate(math.comb(n, k))
    log10 = _ln_binomial(n, k) / math.log(10)
    exponent = math.floor(log10)
    mantissa = round(math.floor(10 ** (log10 - exponent + 3)) / 1000, 1)  # four digits, as approximate
    if mantissa >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.1f}e{exponent}"


def binomial_bits(n: int, k: int) -> float:
    """About how many bits ``comb(n, k)`` has (its base-2 logarithm), at once.

    >>> round(binomial_bits(64, 32), 1), (2**60).bit_length()
    (60.7, 61)
    """
    return _ln_binomial(n, k) / math.log(2)


def _ln_binomial(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


# --- the t and chi-square distributions ----------------------------------------------------
# Textbook continued fractions (Press et al., Numerical Recipes, 6.2 and 6.4), so that no
# statistics package is needed to turn a t or chi-square statistic into a probability.

_EPS = 1e-15
_TINY = 1e-300


def regularized_gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), for a > 0, x >= 0.

    The series of P = 1 - Q below ``x = a + 1``, Legendre's continued fraction of Q above.

    >>> round(regularized_gamma_q(1, 2), 12) == round(math.exp(-2), 12)   # Q(1, x) = e^-x
    True
    """
    if a <= 0 or x < 0:
        raise ValueError(f"need a > 0 and x >= 0, not a={a}, x={x}")
    if x == 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * _EPS:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Modified Lentz on Q's fraction: 1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - ...)).
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    i = 0
    while True:
        i += 1
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS or i > 10_000:
            break
    return math.exp(log_front) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square on ``df`` degrees of freedom: Q(df/2, x/2).

    >>> round(chi2_sf(3.841459, 1), 6), round(chi2_sf(11.0705, 5), 5)   # the 5 % points
    (0.05, 0.05)
    """
    if df <= 0:
        raise ValueError(f"need df >= 1, not {df}")
    return regularized_gamma_q(df / 2, max(0.0, x) / 2)


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1, a - 1
    c = 1.0
    d = 1 - qab * x / qap
    d = _TINY if abs(d) < _TINY else d
    d = 1 / d
    h = d
    for m in range(1, 10_001):
        m2 = 2 * m
        even = m * (b - m) * x / ((qam + m2) * (a + m2))
        odd = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        for an in (even, odd):
            d = 1 + an * d
            d = _TINY if abs(d) < _TINY else d
            c = 1 + an / c
            c = _TINY if abs(c) < _TINY else c
            d = 1 / d
            delta = d * c
            h *= delta
        if abs(delta - 1) < _EPS:
            break
    return h


def regularized_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1.

    >>> regularized_beta(2, 3, 0.0), regularized_beta(2, 3, 1.0), round(regularized_beta(1, 1, 0.3), 12)
    (0.0, 1.0, 0.3)
    """
    if not 0 <= x <= 1:
        raise ValueError(f"need 0 <= x <= 1, not {x}")
    if x in (0, 1):
        return float(x)
    log_beta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(log_beta + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's T on ``df`` degrees of freedom."""
    tail = 0.5 * regularized_beta(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t > 0 else tail


def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile of Student's t on ``df`` degrees of freedom (q = 0.975 for a 95 % interval).

    Bisection on the distribution function, to the last bits of a float.

    >>> [round(t_quantile(0.975, df), 3) for df in (1, 2, 5, 30)]     # the tables' 2.5 % points
    [12.706, 4.303, 2.571, 2.042]
    """
    if not 0 < q < 1 or df <= 0:
        raise ValueError(f"need 0 < q < 1 and df > 0, not q={q}, df={df}")
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -t_quantile(1 - q, df)
    high = 1.0
    while _t_cdf(high, df) < q:
        high *= 2
    low = 0.0
    for _ in range(200):
        mid = (low + high) / 2
        if mid in (low, high):
            break
        if _t_cdf(mid, df) < q:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def mean_interval(total: float, squares: float, n: int) -> tuple[float, float] | None:
    """The 95 % interval of a mean of ``n`` counts from their sum and sum of squares, or ``None``.

    Student's t interval, mean ± t(0.975, n - 1) s / √n with s the sample standard deviation:
    on a few values the normal's 1.96 would claim more than they hold (with 2 values t is 12.7).
    Under 2 values there is no spread to measure and so no interval. The low end is cut at 0,
    below which no mean of counts lies.

    >>> lo, hi = mean_interval(6, 14, 4)  # 0, 1, 2, 3: mean 1.5, sample variance 5/3, t(3) = 3.182
    >>> round(lo, 4), round(hi, 4)
    (0.0, 3.5543)
    >>> mean_interval(6, 36, 1) is None
    True
    """
    if n < 2:
        return None
    mean = total / n
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = t_quantile(0.975, n - 1) * math.sqrt(var / n)
    return max(0.0, mean - half), mean + half
