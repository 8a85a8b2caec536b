"""Comparing several methods over several data sets (Demšar 2006).

The scores form a table with one row per data set (a *block*) and one column per method
(the mean test error of each method on each data set). Demšar's recipe:

1. **rank** the methods within each data set (1 = best; ties share the mean rank) and
   average the ranks over the ``N`` data sets: ``R_j``;
2. the **Friedman test** of "all methods are equivalent":
   ``χ²_F = 12N / (k(k+1)) · (Σ_j R_j² - k(k+1)²/4)`` with ``k - 1`` degrees of freedom,
   and Iman and Davenport's better-behaved ``F_F = (N-1)χ²_F / (N(k-1) - χ²_F)`` with
   ``(k-1, (k-1)(N-1))`` degrees of freedom;
3. if it rejects, the **Nemenyi** post-hoc test: two methods differ when their mean
   ranks differ by at least the *critical difference*
   ``CD = q_α · sqrt(k(k+1) / (6N))``, ``q_α`` the studentized range quantile over √2
   (Demšar's table 5: 2.343 for k = 3 … 3.164 for k = 10 at α = 0.05) — drawn as a
   critical-difference diagram;
4. for a few planned pairs, the **Wilcoxon signed-rank** test on the paired differences
   over data sets, with **Holm's** step-down correction for the number of pairs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._optional import require_optional

__all__ = ["mean_ranks", "friedman_test", "nemenyi_critical_difference", "wilcoxon_holm",
           "cd_diagram"]


def _scores(scores, allow_missing: bool = False) -> pd.DataFrame:
    if not isinstance(scores, pd.DataFrame):
        raise TypeError(f"scores must be a DataFrame (data sets × methods); got "
                        f"{type(scores).__name__}")
    if scores.shape[0] < 2 or scores.shape[1] < 2:
        raise ValueError(f"scores needs at least 2 data sets and 2 methods; got {scores.shape}")
    if not allow_missing and scores.isna().any().any():
        raise ValueError("scores has missing values")
    return scores.astype(float)


def mean_ranks(scores, lower_is_better: bool = True) -> pd.Series:
    """Average rank of each method (column) over the data sets (rows); 1 is best, ties
    get the mean of the ranks they span."""
    s = _scores(scores)
    ranks = (s if lower_is_better else -s).rank(axis=1, method="average")
    return ranks.mean(axis=0)


def friedman_test(scores, lower_is_better: bool = True) -> dict:
    """Friedman's ``χ²_F`` and Iman–Davenport's ``F_F`` with their p-values."""
    from scipy.stats import chi2, f

    s = _scores(scores)
    N, k = s.shape
    R = mean_ranks(s, lower_is_better).to_numpy()
    chi = 12 * N / (k * (k + 1)) * (np.sum(R ** 2) - k * (k + 1) ** 2 / 4)
    denom = N * (k - 1) - chi
    ff = (N - 1) * chi / denom if denom > 0 else np.inf
    return {"N": N, "k": k, "chi2": float(chi), "p_chi2": float(chi2.sf(chi, k - 1)),
            "F": float(ff), "p_F": float(f.sf(ff, k - 1, (k - 1) * (N - 1))) if denom > 0
            else 0.0}


def nemenyi_critical_difference(k: int, N: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical difference ``q_α sqrt(k(k+1)/(6N))`` for ``k`` methods on
    ``N`` data sets; ``q_α`` = studentized range quantile (``k`` groups, infinite degrees
    of freedom) / √2."""
    from scipy.stats import studentized_range

    for name, v in (("k", k), ("N", N)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 2:
            raise ValueError(f"{name} must be an int >= 2; got {v!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1); got {alpha!r}")
    q = studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    return float(q * np.sqrt(k * (k + 1) / (6 * N)))


def wilcoxon_holm(scores, pairs, alpha: float = 0.05) -> pd.DataFrame:
    """Wilcoxon signed-rank tests (two-sided) of the paired differences ``a - b`` over
    data sets for each ``(a, b)`` in ``pairs``, with Holm's step-down adjusted p-values
    (``p_holm``; ``reject`` at level ``alpha``). Zero differences are dropped (Wilcoxon's
    method), the exact distribution is used when scipy can. A data set where either
    method has no score is left out of that pair (``n`` counts the data sets used)."""
    from scipy.stats import wilcoxon

    s = _scores(scores, allow_missing=True)
    rows = []
    for a, b in pairs:
        if a not in s.columns or b not in s.columns:
            raise ValueError(f"pair {(a, b)!r} names a method not in scores")
        d = (s[a] - s[b]).dropna().to_numpy()
        nz = np.count_nonzero(np.abs(d) > 1e-12)
        if nz == 0:
            stat, p = 0.0, 1.0
        else:
            res = wilcoxon(d[np.abs(d) > 1e-12])
            stat, p = float(res.statistic), float(res.pvalue)
        rows.append({"a": a, "b": b, "n": int(d.size), "median_diff": float(np.median(d)),
                     "a_better": int(np.sum(d < -1e-12)), "b_better": int(np.sum(d > 1e-12)),
                     "W": stat, "p": p})
    out = pd.DataFrame(rows)
    m = len(out)
    order = np.argsort(out["p"].to_numpy(), kind="stable")
    adj = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):             # Holm: (m - rank) · p, made monotone
        running = max(running, min(1.0, (m - rank) * out["p"].iloc[i]))
        adj[i] = running
    out["p_holm"] = adj
    out["reject"] = adj <= alpha
    return out


def cd_diagram(ranks: pd.Series, cd: float, ax=None, title: str | None = None):
    """Demšar's critical-difference diagram: methods on a rank axis (best on the left);
    a thick bar joins groups whose ranks lie within ``cd`` of each other."""
    plt = require_optional("matplotlib.pyplot", "cd_diagram")

    r = ranks.sort_values()
    k = len(r)
    if ax is None:
        _, ax = plt.subplots(figsize=(7.5, 0.9 + 0.28 * k))
    lo, hi = 1, max(k, int(np.ceil(r.max())))
    ax.set_xlim(lo - 0.3, hi + 0.3)
    ax.set_ylim(-(0.6 * ((k + 1) // 2) + 0.4), 1.7)
    ax.hlines(0, lo, hi, color="k", lw=1)
    for t in range(lo, hi + 1):
        ax.vlines(t, 0, 0.15, color="k", lw=1)
        ax.text(t, 0.3, str(t), ha="center", va="bottom", fontsize=9)
    half = (k + 1) // 2
    for i, (name, v) in enumerate(r.items()):
        left = i < half
        y = -(i + 1) * 0.6 if left else -(k - i) * 0.6
        x_text = lo - 0.25 if left else hi + 0.25
        ax.plot([v, v, x_text], [0, y, y], color="k", lw=0.8)
        ax.text(x_text, y, f"{name} ({v:.2f})", ha="right" if left else "left",
                va="center", fontsize=9)
    # cliques: maximal runs of methods within CD of each other
    vals = r.to_numpy()
    cliques = []
    for i in range(k):
        j = i
        while j + 1 < k and vals[j + 1] - vals[i] < cd:
            j += 1
        if j > i and not any(a <= i and j <= b for a, b in cliques):
            cliques.append((i, j))
    for n, (i, j) in enumerate(cliques):
        y = -0.25 - 0.17 * n
        ax.hlines(y, vals[i] - 0.03, vals[j] + 0.03, color="k", lw=3)
    ax.hlines(1.2, lo, lo + cd, color="k", lw=1.5)
    ax.text(lo + cd / 2, 1.3, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=9)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=10)
    return ax
