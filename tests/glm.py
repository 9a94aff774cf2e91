"""An independent binomial GLM for the tests: IRLS in numpy, and the chi-square tail by the
textbooks' closed forms, written apart from minesat's own fit and continued fractions."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["chi2_sf", "irls"]


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for chi-square on an integer ``df``, by the closed forms of the textbooks
    (Abramowitz and Stegun 26.4.4 and 26.4.5), not by minesat's continued fractions."""
    h = x / 2
    if df % 2 == 0:
        return math.exp(-h) * sum(h**j / math.factorial(j) for j in range(df // 2))
    return math.erfc(math.sqrt(h)) + math.exp(-h) * sum(
        h ** (j - 0.5) / math.gamma(j + 0.5) for j in range(1, (df - 1) // 2 + 1)
    )


def irls(points):
    """The binomial GLM with the logit link by iteratively reweighted least squares, in numpy:
    coefficients, binomial covariance, deviance, Pearson's X², residual df (McCullagh and Nelder 2.5)."""
    x = np.array([p[0] for p in points], dtype=float)
    k = np.array([p[1] for p in points], dtype=float)
    n = np.array([p[2] for p in points], dtype=float)
    design = np.column_stack([np.ones_like(x), x])
    y = k / n
    mu = (k + 0.5) / (n + 1)
    eta = np.log(mu / (1 - mu))
    for _ in range(100):
        w = n * mu * (1 - mu)
        z = eta + (y - mu) / (mu * (1 - mu))
        beta = np.linalg.solve(design.T @ (w[:, None] * design), design.T @ (w * z))
        new = design @ beta
        done = np.max(np.abs(new - eta)) < 1e-13
        eta = new
        mu = 1 / (1 + np.exp(-eta))
        if done:
            break
    w = n * mu * (1 - mu)
    cov = np.linalg.inv(design.T @ (w[:, None] * design))
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(k > 0, k * np.log(k / (n * mu)), 0.0) + np.where(
            n - k > 0, (n - k) * np.log((n - k) / (n - n * mu)), 0.0
        )
    deviance = 2 * terms.sum()
    pearson = float(((k - n * mu) ** 2 / w).sum())
    return beta, cov, float(deviance), pearson, len(points) - 2
