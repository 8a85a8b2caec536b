"""Compiled loops of the exact solver for shallow trees (:mod:`treebook.growers.optimal`).

The solver sees every split as a *column* of ranks: a numeric feature's column holds the
rank of each row's value among the feature's distinct values (the split "rank <= r" is
CART's cut between the values of ranks ``r`` and ``r + 1``), a category subset's column
holds 0 (in the subset) or 1. ``order[c]`` lists a node's rows sorted by the rank of
column ``c``; ``rank[c, i]`` is row ``i``'s rank.

* :func:`leaf_cost` — the cost of one leaf from its class weights ``C_k`` (total ``W``):
  misclassification ``W - max_k C_k``, Gini ``W - Σ_k C_k²/W``, entropy
  ``-Σ_k C_k log2(C_k/W)`` (bits), or C4.5's pessimistic error ``E + AddErrs(W, E)``
  (:func:`pessimistic_added`, ``E = W - max_k C_k``);
* :func:`best_splits_of_sides` — one pass over every column: the best single split of
  the rows marked left and, in the same pass, of the rows marked right;
* :func:`depth_two` — MurTree's special case for depth two (Demirović et al. 2022, as
  ConTree does it for thresholds, Briţa et al. 2025): for every root cut of the given
  columns, in sorted order, the rows that cross the cut change sides and the best split
  of each side is one more pass — ``O(m · C)`` per root cut instead of a recursion.
  Consecutive root cuts differ by a few rows, which bounds how much better the next cut
  can be (the similarity bound, below), so most cuts are skipped without a pass.

Costs are added in the order written, with ``+ - * /``, ``log`` and ``sqrt`` only.
This module imports only numpy and numba.

**The similarity bound.** Moving rows of weight ``Δ`` from the right side of a cut to its
left cannot lower the left side's optimum (a subset's optimum is never larger:
the impurities are concave, so ``W·I`` is superadditive), and lowers the right side's by
at most ``λ·Δ``: ``λ = 1`` for misclassification, ``λ = 2`` for Gini (adding weight ``w``
of one class to a leaf raises ``W − Σ C_k²/W`` by at most ``2w``). So after a cut with
optimal sides ``(a, b)``, every later cut costs at least ``a + b − λ·Δ``. Entropy has no
such constant (``λ`` grows as ``log W``): only the left side's bound is used.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["MISCLASSIFICATION", "GINI", "ENTROPY", "PESSIMISTIC", "leaf_cost",
           "pessimistic_added", "best_splits_of_sides", "best_split", "depth_two"]

#: criterion codes of :func:`leaf_cost`
MISCLASSIFICATION = 0
GINI = 1
ENTROPY = 2
PESSIMISTIC = 3

_LOG2 = np.log(2.0)


@njit(cache=True, nogil=True)
def pessimistic_added(n, e, cf, z, top):
    """C4.5's ``AddErrs(N, E)`` (:func:`treebook.prune.error_based.added_errors`, the
    same branches): ``N(1 − CF^(1/N))`` at ``E = 0``, linear to ``E = 1``, ``top·(N − E)``
    when ``E + ½ ≥ N``, else ``N·U − E`` with the normal upper limit ``U``."""
    base = n * (1.0 - cf ** (1.0 / n))
    if e < 1e-6:
        return base
    if e < 0.9999:
        # the value at E = 1 (the general branch with e = 1)
        if 1.0 + 0.5 >= n:
            one = top * max(n - 1.0, 0.0)
        else:
            f = 1.5 / n
            u = (f + z * z / (2 * n) + z * np.sqrt(f / n - f * f / n + z * z / (4 * n * n))) \
                / (1 + z * z / n)
            one = u * n - 1.0
        return base + e * (one - base)
    if e + 0.5 >= n:
        return top * max(n - e, 0.0)
    f = (e + 0.5) / n
    u = (f + z * z / (2 * n) + z * np.sqrt(f / n - f * f / n + z * z / (4 * n * n))) \
        / (1 + z * z / n)
    return u * n - e


@njit(cache=True, nogil=True)
def leaf_cost(counts, total, crit, cf, z, top):
    """The cost of one leaf with class weights ``counts`` summing to ``total`` under
    criterion ``crit`` (see the module docstring); 0 for an empty leaf."""
    if total <= 0.0:
        return 0.0
    K = counts.shape[0]
    if crit == GINI:
        s = 0.0
        for k in range(K):
            s += counts[k] * counts[k]
        return total - s / total
    if crit == ENTROPY:
        s = 0.0
        for k in range(K):
            c = counts[k]
            if c > 0.0:
                s -= c * np.log(c / total)
        return s / _LOG2
    top_k = 0.0
    for k in range(K):
        if counts[k] > top_k:
            top_k = counts[k]
    e = total - top_k
    if crit == MISCLASSIFICATION:
        return e
    return e + pessimistic_added(total, e, cf, z, top)


@njit(cache=True, nogil=True)
def _cost_of_cut(prefix, totals, W_prefix, W_total, rest, crit, cf, z, top):
    """Cost of the two leaves ``prefix`` and ``totals − prefix``."""
    for k in range(prefix.shape[0]):
        rest[k] = totals[k] - prefix[k]
    return (leaf_cost(prefix, W_prefix, crit, cf, z, top)
            + leaf_cost(rest, W_total - W_prefix, crit, cf, z, top))


@njit(cache=True, nogil=True)
def best_splits_of_sides(order, rank, y, w, is_left, tot_L, W_L, n_L, tot_R, W_R, n_R,
                         crit, cf, z, top, alpha, min_leaf, lam, out):
    """The best single split (or leaf) of each side of a node, in one pass per column.

    ``order`` ``(C, m)``: the node's rows sorted by each column's rank; ``is_left[i]``
    marks the rows of the left side (global row ids); ``tot_*``, ``W_*``, ``n_*``: each
    side's class weights, weight and row count. ``alpha``: the cost of one leaf.
    Writes ``out = [cost_L, column_L, rank_L, cost_R, column_R, rank_R]``: a side's
    column is -1 when its best is a leaf, else its split is "rank <= rank_side".
    Ties keep the first column, then the smallest rank.

    With ``0 < lam < inf`` (λ of the similarity bound), moving weight ``Δ`` across a cut
    lowers the cost of the two leaves by at most ``λ·Δ``, so after a cut that costs ``δ``
    more than the side's best, the cuts within weight ``δ/λ`` after it are not scored
    (ConTree's skip; they cannot be better, and equal ones would not replace the best).
    """
    C, m = order.shape
    K = tot_L.shape[0]
    best_L = leaf_cost(tot_L, W_L, crit, cf, z, top) + alpha
    best_R = leaf_cost(tot_R, W_R, crit, cf, z, top) + alpha
    col_L, r_L, col_R, r_R = -1, -1, -1, -1
    c_L = np.zeros(K)
    c_R = np.zeros(K)
    rest = np.zeros(K)
    can_L = n_L >= 2 * min_leaf and n_L >= 2
    can_R = n_R >= 2 * min_leaf and n_R >= 2
    floor = 2.0 * alpha
    skip = 0.0 < lam < np.inf
    for c in range(C):
        if not ((can_L and best_L > floor) or (can_R and best_R > floor)):
            break  # neither side can improve on two pure leaves
        c_L[:] = 0.0
        c_R[:] = 0.0
        w_L = 0.0
        w_R = 0.0
        seen_L = 0
        seen_R = 0
        prev_L = -1
        prev_R = -1
        until_L = -1.0  # no cut is scored while the side's weight seen is below this
        until_R = -1.0
        for p in range(m):
            i = order[c, p]
            rk = rank[c, i]
            if is_left[i]:
                if (can_L and seen_L >= min_leaf and rk != prev_L and w_L > until_L
                        and n_L - seen_L >= min_leaf):
                    cost = _cost_of_cut(c_L, tot_L, w_L, W_L, rest, crit, cf, z, top) \
                        + 2.0 * alpha
                    if cost < best_L - 1e-12 * abs(best_L):
                        best_L, col_L, r_L = cost, c, prev_L
                    elif skip:
                        until_L = w_L + (cost - best_L) / lam * (1.0 - 1e-9)
                c_L[y[i]] += w[i]
                w_L += w[i]
                seen_L += 1
                prev_L = rk
            else:
                if (can_R and seen_R >= min_leaf and rk != prev_R and w_R > until_R
                        and n_R - seen_R >= min_leaf):
                    cost = _cost_of_cut(c_R, tot_R, w_R, W_R, rest, crit, cf, z, top) \
                        + 2.0 * alpha
                    if cost < best_R - 1e-12 * abs(best_R):
                        best_R, col_R, r_R = cost, c, prev_R
                    elif skip:
                        until_R = w_R + (cost - best_R) / lam * (1.0 - 1e-9)
                c_R[y[i]] += w[i]
                w_R += w[i]
                seen_R += 1
                prev_R = rk
    out[0] = best_L
    out[1] = col_L
    out[2] = r_L
    out[3] = best_R
    out[4] = col_R
    out[5] = r_R


@njit(cache=True, nogil=True)
def _side_totals(order, y, w, is_left, K):
    tot_L = np.zeros(K)
    tot_R = np.zeros(K)
    W_L = 0.0
    W_R = 0.0
    n_L = 0
    n_R = 0
    for p in range(order.shape[1]):
        i = order[0, p]
        if is_left[i]:
            tot_L[y[i]] += w[i]
            W_L += w[i]
            n_L += 1
        else:
            tot_R[y[i]] += w[i]
            W_R += w[i]
            n_R += 1
    return tot_L, W_L, n_L, tot_R, W_R, n_R


@njit(cache=True, nogil=True)
def best_split(order, rank, y, w, K, crit, cf, z, top, alpha, min_leaf, lam, is_left, out):
    """The best tree of depth at most one of a node: ``out = [cost, column, rank]``
    (column -1: a leaf). ``is_left``: scratch of one flag per global row."""
    m = order.shape[1]
    for p in range(m):
        is_left[order[0, p]] = True
    tot_L, W_L, n_L, tot_R, W_R, n_R = _side_totals(order, y, w, is_left, K)
    res = np.empty(6)
    best_splits_of_sides(order, rank, y, w, is_left, tot_L, W_L, n_L, tot_R, W_R, n_R,
                         crit, cf, z, top, alpha, min_leaf, lam, res)
    for p in range(m):
        is_left[order[0, p]] = False
    out[0] = res[0]
    out[1] = res[1]
    out[2] = res[2]


@njit(cache=True, nogil=True)
def depth_two(order, rank, y, w, K, crit, cf, z, top, alpha, min_leaf, lam, upper,
              c_lo, c_hi, is_left, out):
    """The best tree of depth two whose root splits one of the columns ``c_lo … c_hi-1``,
    if one costs less than ``upper``.

    For each root column, its cuts are visited in sorted order; crossing a cut moves the
    rows of one rank from the right side to the left (``is_left``: scratch of one flag per
    global row), and :func:`best_splits_of_sides` gives both sides' best split. A cut is
    skipped when the similarity bound from the last evaluated cut (``lam``: λ, ``inf``
    for none on the right side; negative: no bound at all) reaches the incumbent.
    Writes ``out = [cost, root column, root rank, cost_L, column_L, rank_L, cost_R,
    column_R, rank_R, evaluated cuts]``; ``root column`` is -1 when no tree beats
    ``upper`` (``cost`` is then ``upper``).
    """
    C, m = order.shape
    best = upper
    out[0] = upper
    out[1] = -1
    out[9] = 0
    res = np.empty(6)
    n_eval = 0
    for f in range(c_lo, c_hi):
        for p in range(m):
            is_left[order[f, p]] = False
        tot_L = np.zeros(K)
        tot_R = np.zeros(K)
        W_R = 0.0
        for p in range(m):
            i = order[f, p]
            tot_R[y[i]] += w[i]
            W_R += w[i]
        W_L = 0.0
        have_anchor = False
        a_L = 0.0
        a_R = 0.0
        a_W = 0.0
        for p in range(1, m):
            i = order[f, p - 1]
            is_left[i] = True
            tot_L[y[i]] += w[i]
            tot_R[y[i]] -= w[i]
            W_L += w[i]
            W_R -= w[i]
            if rank[f, order[f, p]] == rank[f, i]:
                continue
            if p < min_leaf or m - p < min_leaf:
                continue
            if have_anchor and lam >= 0.0:
                right = alpha
                if lam < np.inf:
                    right = max(a_R - lam * (W_L - a_W), alpha)
                if a_L + right >= best - 1e-12 * abs(best):
                    continue
            best_splits_of_sides(order, rank, y, w, is_left, tot_L, W_L, p, tot_R, W_R,
                                 m - p, crit, cf, z, top, alpha, min_leaf, lam, res)
            n_eval += 1
            have_anchor = True
            a_L = res[0]
            a_R = res[3]
            a_W = W_L
            cost = res[0] + res[3]
            if cost < best - 1e-12 * abs(best):
                best = cost
                out[0] = cost
                out[1] = f
                out[2] = rank[f, i]
                for k in range(6):
                    out[3 + k] = res[k]
        for p in range(m):
            is_left[order[f, p]] = False
    out[9] = n_eval
