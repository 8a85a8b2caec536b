"""Conditional inference: Strasser & Weber's linear statistics and their permutation moments.

The test of independence of a covariate ``X`` and a response ``Y`` that conditional
inference trees (Hothorn, Hornik & Zeileis 2006; R's ``partykit::ctree`` through
``libcoin``) use to choose a node's variable and then its split. With case weights
``w_i``, a transformation ``g`` of the covariate (the value itself for a numeric
variable, the score for an ordered one, the indicator vector of the category for a
nominal one) and ``h`` of the response (the class indicators, or the value of a numeric
response), the *linear statistic* is

.. math::

    T = \\operatorname{vec}\\Big(\\sum_i w_i\\, g(X_i)\\, h(Y_i)^\\top\\Big) \\in \\mathbb{R}^{pq}.

Under the null hypothesis of independence, conditional on all permutations of the
responses (Strasser & Weber 1999), with ``w = Σ w_i``,
``E(h) = Σ w_i h(Y_i) / w`` and
``V(h) = Σ w_i (h(Y_i) - E(h))(h(Y_i) - E(h))ᵀ / w``:

.. math::

    \\mu = \\operatorname{vec}\\Big(\\big(\\textstyle\\sum_i w_i g(X_i)\\big) E(h)^\\top\\Big),

    \\Sigma = \\frac{w}{w-1}\\, V(h) \\otimes \\Big(\\sum_i w_i g(X_i) g(X_i)^\\top\\Big)
             - \\frac{1}{w-1}\\, V(h) \\otimes \\Big(\\sum_i w_i g(X_i)\\Big)
               \\Big(\\sum_i w_i g(X_i)\\Big)^\\top.

The quadratic form ``c_quad = (T - μ)ᵀ Σ⁺ (T - μ)`` (``Σ⁺`` the Moore–Penrose inverse)
is asymptotically χ² with ``rank(Σ)`` degrees of freedom; the Monte-Carlo alternative
permutes the responses. Here the vectorisation is row-major, ``T[j·q + k] = Σ w_i
g_j(X_i) h_k(Y_i)``, so the Kronecker products above are ``np.kron(G, V(h))`` with ``G``
the covariate's ``p × p`` matrix.

For a 2 × 2 table (``g`` and ``h`` both indicators) ``c_quad = (n - 1)/n · X²``, ``X²``
Pearson's statistic: the permutation variance of a cell is the hypergeometric one,
``n₁n₂m₁m₂ / (n²(n - 1))``.

The *maximally selected* statistics (:func:`ordered_cut_statistics`,
:func:`subset_statistics`) are the same quadratic form for the binary covariate
``g(X) = 1(X in left)``, one per candidate split: ``ctree``'s rule for the split point
of the chosen variable (its ``splitstat = "quadratic"``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import stats

__all__ = ["TOLERANCE", "LinearStatistic", "linear_statistic", "influence_moments",
           "pseudo_inverse", "quadratic_form", "chi2_pvalue", "permutation_pvalue",
           "sidak", "ordered_cut_statistics", "subset_statistics"]

#: libcoin's ``tol = sqrt(.Machine$double.eps)``: an eigenvalue of Σ below ``TOLERANCE``
#: times the largest is taken as zero (the rank, the degrees of freedom); a test whose
#: variances are all below it has no statistic
TOLERANCE = float(np.sqrt(np.finfo(float).eps))


class LinearStatistic(NamedTuple):
    """``T``, its conditional expectation ``mu`` and covariance ``sigma`` (see the
    module docstring), and the total weight ``w``."""

    t: np.ndarray
    mu: np.ndarray
    sigma: np.ndarray
    w: float


def _as_2d(a, name):
    a = np.asarray(a, dtype=float)
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2:
        raise ValueError(f"{name} must be 1-D or 2-D; got shape {a.shape}")
    return a


def influence_moments(h, w):
    """``(w, E(h), V(h))`` of the response's transformation ``h`` (rows: cases) under the
    case weights ``w``: ``E(h) = Σ w_i h_i / w`` and ``V(h) = Σ w_i (h_i - E(h))(h_i -
    E(h))ᵀ / w`` (divisor ``w``, as Strasser & Weber)."""
    h = _as_2d(h, "h")
    w = np.asarray(w, dtype=float)
    total = float(w.sum())
    eh = w @ h / total
    hc = h - eh
    return total, eh, (hc * w[:, None]).T @ hc / total


def linear_statistic(g, h, w) -> LinearStatistic:
    """``T``, ``μ`` and ``Σ`` of the covariate transformation ``g`` (``n × p``) and the
    response transformation ``h`` (``n × q``) under case weights ``w`` (formulas in the
    module docstring). Needs ``Σ w_i > 1``."""
    g, h = _as_2d(g, "g"), _as_2d(h, "h")
    w = np.asarray(w, dtype=float)
    if not (g.shape[0] == h.shape[0] == w.shape[0]):
        raise ValueError(f"g, h and w must have one row per case; got {g.shape[0]}, "
                         f"{h.shape[0]} and {w.shape[0]}")
    total, eh, vh = influence_moments(h, w)
    if not total > 1:
        raise ValueError(f"the weights must sum to more than 1; got {total}")
    gw = g * w[:, None]
    t = (gw.T @ h).ravel()
    sg = gw.sum(axis=0)
    mu = np.outer(sg, eh).ravel()
    sigma = (total / (total - 1.0)) * np.kron(gw.T @ g, vh) \
        - (1.0 / (total - 1.0)) * np.kron(np.outer(sg, sg), vh)
    return LinearStatistic(t, mu, sigma, total)


def pseudo_inverse(sigma, tol: float = TOLERANCE):
    """``(Σ⁺, rank)``: the Moore–Penrose inverse of the symmetric ``Σ`` from its
    eigen-decomposition, eigenvalues at or below ``tol · λ_max`` taken as zero."""
    sigma = np.atleast_2d(np.asarray(sigma, dtype=float))
    vals, vecs = np.linalg.eigh((sigma + sigma.T) / 2.0)
    top = vals.max() if vals.size else 0.0
    keep = vals > tol * top if top > 0 else np.zeros(vals.shape, bool)
    inv = (vecs[:, keep] / vals[keep]) @ vecs[:, keep].T
    return inv, int(keep.sum())


def quadratic_form(t, mu, sigma, tol: float = TOLERANCE):
    """``(c_quad, df)``: ``c_quad = (T - μ)ᵀ Σ⁺ (T - μ)`` and ``df = rank(Σ)``; ``(nan,
    0)`` when every variance ``Σ_jj`` is below ``tol`` (a constant covariate or response:
    no test, as libcoin)."""
    sigma = np.atleast_2d(np.asarray(sigma, dtype=float))
    if not np.any(np.diag(sigma) >= tol):
        return float("nan"), 0
    inv, rank = pseudo_inverse(sigma, tol)
    d = np.asarray(t, dtype=float) - np.asarray(mu, dtype=float)
    return float(d @ inv @ d), rank


def chi2_pvalue(statistic: float, df: int) -> float:
    """The asymptotic p-value ``P(χ²_df ≥ c_quad)`` (NaN for no test)."""
    if not df > 0 or not np.isfinite(statistic):
        return float("nan")
    return float(stats.chi2.sf(statistic, df))


def permutation_pvalue(g, h, w, statistic: float, n_resamples: int, rng,
                       tol: float = TOLERANCE) -> float:
    """The Monte-Carlo permutation p-value of ``c_quad``: the share of ``n_resamples``
    random permutations of the responses whose ``c_quad`` is at least the observed
    ``statistic`` (libcoin's estimate, without a +1). ``μ`` and ``Σ`` are the same for
    every permutation (they are conditional on the observed values), so only ``T``
    changes. Case weights are counts: a case of weight 3 is three cases, so the weights
    must be whole numbers (a ``ValueError`` otherwise)."""
    g, h = _as_2d(g, "g"), _as_2d(h, "h")
    w = np.asarray(w, dtype=float)
    if not np.isfinite(statistic):
        return float("nan")
    if np.any(w != np.round(w)):
        raise ValueError("sample_weight must hold whole numbers (counts of cases) for the "
                         "permutation p-value; use pvalue='asymptotic' for other weights")
    lin = linear_statistic(g, h, w)
    inv, _ = pseudo_inverse(lin.sigma, tol)
    idx = np.repeat(np.arange(g.shape[0]), w.astype(np.int64))
    ge, he = g[idx], h[idx]
    hits = 0
    block = max(1, int(2_000_000 // max(1, idx.size)))
    done = 0
    while done < n_resamples:
        b = min(block, n_resamples - done)
        perms = np.argsort(rng.random((b, idx.size)), axis=1)
        # T of each permutation: Σ g_i h_π(i), as a (b, p·q) stack
        ts = np.einsum("ip,biq->bpq", ge, he[perms]).reshape(b, -1)
        d = ts - lin.mu
        c = np.einsum("bi,ij,bj->b", d, inv, d)
        hits += int(np.count_nonzero(c >= statistic * (1 - 1e-10)))
        done += b
    return hits / n_resamples


def sidak(p: float, k: int) -> float:
    """``1 - (1 - p)^k``: the adjustment ``ctree`` calls "Bonferroni" (it multiplies the
    log of ``1 - p`` by the number ``k`` of variables tested), computed without
    cancellation."""
    if not np.isfinite(p):
        return float("nan")
    return float(-np.expm1(k * np.log1p(-p))) if p < 1 else 1.0


def _binary_quadratic(wl, sl, total, eh, vh_inv):
    """``c_quad`` of the binary covariates ``1(X in left)`` whose left weights are ``wl``
    and left response sums ``sl`` (rows: candidates): ``d = sl - wl·E(h)``,
    ``Var = V(h)·wl(w - wl)/(w - 1)``."""
    d = sl - wl[:, None] * eh
    scale = wl * (total - wl) / (total - 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.einsum("bi,ij,bj->b", d, vh_inv, d) / scale
    return np.where(scale > 0, c, np.nan)


def ordered_cut_statistics(level_w, level_h, vh, min_bucket: float, tol: float = TOLERANCE):
    """The maximally selected quadratic statistic over the cuts of an ordered covariate.

    ``level_w[l]``: the weight of the cases at the ``l``-th distinct value (in order),
    ``level_h[l]``: their summed ``w·h``; ``vh``: ``V(h)`` of these cases
    (:func:`influence_moments`). Cut ``k`` sends the values ``0 … k`` left; its
    ``c_quad`` is that of ``g = 1(X ≤ x_k)``. A cut leaving less than ``min_bucket`` weight
    on a side is not a candidate (NaN). Returns the statistics of the ``L - 1`` cuts."""
    level_w = np.asarray(level_w, dtype=float)
    level_h = _as_2d(level_h, "level_h")
    total = float(level_w.sum())
    eh = level_h.sum(axis=0) / total
    inv, _ = pseudo_inverse(vh, tol)
    wl = np.cumsum(level_w)[:-1]
    sl = np.cumsum(level_h, axis=0)[:-1]
    c = _binary_quadratic(wl, sl, total, eh, inv)
    ok = (wl >= min_bucket) & (total - wl >= min_bucket)
    return np.where(ok, c, np.nan)


def subset_statistics(level_w, level_h, vh, min_bucket: float, tol: float = TOLERANCE,
                      max_exhaustive: int = 16):
    """The maximally selected quadratic statistic over the binary partitions of a
    nominal covariate's levels present at the node.

    ``level_w``, ``level_h``, ``vh`` as for :func:`ordered_cut_statistics` (one row per present
    level). With ``L ≤ max_exhaustive`` levels every partition with the first level on
    the left is scored (``2^(L-1) - 1`` of them, as libcoin); with more, the levels are
    ordered by their mean of the first response column and only the ``L - 1`` cuts of that
    order are scored (Breiman et al.'s ordering, exact for a binary class with the Gini
    criterion, a heuristic here). Returns ``(left_masks, statistics)``: a boolean
    ``(n_candidates, L)`` array and the candidates' ``c_quad`` (NaN where a side holds less
    than ``min_bucket``)."""
    level_w = np.asarray(level_w, dtype=float)
    level_h = _as_2d(level_h, "level_h")
    n_lev = level_w.size
    total = float(level_w.sum())
    eh = level_h.sum(axis=0) / total
    if n_lev < 2:
        return np.zeros((0, n_lev), bool), np.zeros(0)
    inv, _ = pseudo_inverse(vh, tol)
    if n_lev <= max_exhaustive:
        # bit l of m puts level l on the left; level 0 is always left (m odd)
        m = np.arange(1, 2 ** n_lev, 2)[: 2 ** (n_lev - 1) - 1] if n_lev > 1 else np.zeros(0)
        masks = ((m[:, None] >> np.arange(n_lev)) & 1).astype(bool)
    else:
        order = np.argsort(level_h[:, 0] / level_w, kind="stable")
        masks = np.zeros((n_lev - 1, n_lev), bool)
        for k in range(n_lev - 1):
            masks[k, order[: k + 1]] = True
    wl = masks.astype(float) @ level_w
    sl = masks.astype(float) @ level_h
    c = _binary_quadratic(wl, sl, total, eh, inv)
    ok = (wl >= min_bucket) & (total - wl >= min_bucket)
    return masks, np.where(ok, c, np.nan)
