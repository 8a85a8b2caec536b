"""The sparse grower's compiled loops: presorting the stored entries of a CSC matrix,
scoring candidate cuts among them, partitioning them into the children, and drawing a
node's features (:mod:`treebook.growers.sparse`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from . import FEATURE_THRESHOLD

__all__ = ["presort_positions", "sparse_candidates", "partition_entries", "choose_candidate",
           "drawn_entries"]

@njit(cache=True)
def presort_positions(indptr, indices, data, n_features):
    """CSR positions grouped by feature and sorted by value within each feature, and the
    group boundaries: ``(start, pos)``."""
    n = indptr.shape[0] - 1
    count = np.zeros(n_features + 1, np.int64)
    for p in range(indptr[n]):
        count[indices[p] + 1] += 1
    start = np.cumsum(count)
    fill = start[:-1].copy()
    pos = np.empty(indptr[n], np.int64)
    for r in range(n):
        for p in range(indptr[r], indptr[r + 1]):
            q = fill[indices[p]]
            pos[q] = p
            fill[indices[p]] = q + 1
    for f in range(n_features):
        a, b = start[f], start[f + 1]
        if b - a > 1:
            order = np.argsort(data[pos[a:b]])
            pos[a:b] = pos[a:b][order]
    return start, pos


@njit(cache=True)
def sparse_candidates(start, rows, vals, yk, yv, w, regression, total, n_rows,
                      min_samples_leaf, allowed):
    """Every admissible cut of every feature at one node, from its stored entries.

    ``start``/``rows``/``vals``: the node's entries, grouped by feature and sorted by
    value (``rows`` are row ids into ``yk``, ``yv`` and ``w``: class codes, responses
    and weights; a classification tree reads ``yk``, a regression tree ``yv``). ``total``: the node's class counts,
    or for regression ``[Σ w, Σ w·y]`` (the two running sums of a regression scan). Per
    feature the walk is: the negative entries, then the zero block (its counts are
    ``total`` minus the stored entries'), then the positive ones, one group per distinct
    value; a cut between neighbours ``v < v'`` is emitted when ``v' > v + 1e-7`` and both
    sides keep ``min_samples_leaf`` rows. ``allowed[f]``: whether feature ``f`` is
    scanned at all (``max_features`` draws a few per node). Returns ``(feature, lower,
    upper, n_left, left)``, ``left`` of shape ``(n_candidates, K)``: the left class
    counts (regression: ``Σ w, Σ w·y`` on the left).
    """
    n_features = start.shape[0] - 1
    K = total.shape[0]
    cap = start[n_features] - start[0] + n_features
    c_feat = np.empty(cap, np.int64)
    c_lo = np.empty(cap, np.float64)
    c_hi = np.empty(cap, np.float64)
    c_nl = np.empty(cap, np.int64)
    c_left = np.empty((cap, K), np.float64)
    nc = 0
    acc = np.empty(K, np.float64)
    zero = np.empty(K, np.float64)
    for f in range(n_features):
        a, b = start[f], start[f + 1]
        if b == a or not allowed[f]:
            continue  # zero at every row of the node (no cut), or not drawn
        zero[:] = total
        for p in range(a, b):
            r = rows[p]
            if regression:
                zero[0] -= w[r]
                zero[1] -= w[r] * yv[r]
            else:
                zero[yk[r]] -= w[r]
        n_zero = n_rows - (b - a)
        acc[:] = 0.0
        n_left = 0
        prev = 0.0
        p = a
        zero_done = n_zero == 0
        first = True
        while p < b or not zero_done:
            take_zero = not zero_done and (p >= b or vals[p] > 0.0)
            x = 0.0 if take_zero else vals[p]
            if not first and x > prev + FEATURE_THRESHOLD and n_left >= min_samples_leaf \
                    and n_rows - n_left >= min_samples_leaf:
                c_feat[nc] = f
                c_lo[nc] = prev
                c_hi[nc] = x
                c_nl[nc] = n_left
                c_left[nc, :] = acc
                nc += 1
            if take_zero:
                for k in range(K):
                    acc[k] += zero[k]
                n_left += n_zero
                zero_done = True
            else:
                while p < b and vals[p] == x:
                    r = rows[p]
                    if regression:
                        acc[0] += w[r]
                        acc[1] += w[r] * yv[r]
                    else:
                        acc[yk[r]] += w[r]
                    n_left += 1
                    p += 1
            prev = x
            first = False
    return c_feat[:nc], c_lo[:nc], c_hi[:nc], c_nl[:nc], c_left[:nc]


@njit(cache=True)
def partition_entries(start, rows, vals, go_right):
    """Split a node's entries (grouped by feature, sorted by value) into its children's,
    keeping both orders: a stable partition by ``go_right[row]``. Returns the left and
    right children's ``(start, rows, vals)``; no entry is sorted again."""
    m = start.shape[0] - 1
    s_l = np.zeros(m + 1, np.int64)
    s_r = np.zeros(m + 1, np.int64)
    for f in range(m):
        nl = 0
        for p in range(start[f], start[f + 1]):
            if not go_right[rows[p]]:
                nl += 1
        s_l[f + 1] = s_l[f] + nl
        s_r[f + 1] = s_r[f] + (start[f + 1] - start[f] - nl)
    rl = np.empty(s_l[m], np.int64)
    vl = np.empty(s_l[m], np.float64)
    rr = np.empty(s_r[m], np.int64)
    vr = np.empty(s_r[m], np.float64)
    il, ir = 0, 0
    for p in range(start[0], start[m]):
        if go_right[rows[p]]:
            rr[ir] = rows[p]
            vr[ir] = vals[p]
            ir += 1
        else:
            rl[il] = rows[p]
            vl[il] = vals[p]
            il += 1
    return s_l, rl, vl, s_r, rr, vr


@njit(cache=True)
def choose_candidate(feat, score, rtol):
    """Index of the chosen candidate: per feature the first whose score ties with the
    feature's best; across features, in column order, a later feature wins only when its
    score's tie floor exceeds the best so far (:func:`treebook.growers.cart_search.cart_split_finder`)."""
    best_i, best_s = -1, -np.inf
    n = feat.shape[0]
    a = 0
    while a < n:
        b = a
        top = -np.inf
        while b < n and feat[b] == feat[a]:
            if score[b] > top:
                top = score[b]
            b += 1
        if top > -np.inf:
            floor = top - rtol * abs(top) if np.isfinite(top) else top
            i = a
            while score[i] < floor:
                i += 1
            if best_i < 0 or floor > best_s:
                best_i, best_s = i, top
        a = b
    return best_i


@njit(cache=True)
def drawn_entries(indptr, rows, vals, in_node, perm, k, n_rows):
    """``max_features = k`` at one node, read from the matrix column by column (CSC
    arrays ``indptr``/``rows``/``vals``): along the node's feature permutation ``perm``,
    each feature's entries at the node (those whose row has ``in_node``) decide whether
    it varies there — its values at the node are the stored ones, plus 0 when fewer than
    ``n_rows`` are stored, and it varies when ``max > min + FEATURE_THRESHOLD`` — until
    ``k`` features vary (the rule of :func:`treebook.core.feature_draw.features_to_consider`).
    Returns ``(allowed, start, rows, vals)``: the drawn features and their entries at
    the node, grouped by feature and sorted by value. Cost: the columns read, and a sort
    of the drawn features' entries at the node — as scikit-learn's sparse splitter, which
    reads only the features it draws."""
    m = indptr.shape[0] - 1
    count = np.zeros(m, np.int64)
    allowed = np.zeros(m, np.bool_)
    taken = 0
    for i in range(m):
        if taken == k:
            break
        f = perm[i]
        c = 0
        lo = np.inf
        hi = -np.inf
        for p in range(indptr[f], indptr[f + 1]):
            if in_node[rows[p]]:
                lo = min(lo, vals[p])
                hi = max(hi, vals[p])
                c += 1
        if c == 0:
            continue
        if c < n_rows:
            lo = min(lo, 0.0)
            hi = max(hi, 0.0)
        if hi > lo + FEATURE_THRESHOLD:
            allowed[f] = True
            count[f] = c
            taken += 1
    s = np.zeros(m + 1, np.int64)
    for f in range(m):
        s[f + 1] = s[f] + count[f]
    out_rows = np.empty(s[m], np.int64)
    out_vals = np.empty(s[m], np.float64)
    for f in range(m):
        if allowed[f]:
            q = s[f]
            for p in range(indptr[f], indptr[f + 1]):
                if in_node[rows[p]]:
                    out_rows[q] = rows[p]
                    out_vals[q] = vals[p]
                    q += 1
            order = np.argsort(out_vals[s[f]:q])
            out_rows[s[f]:q] = out_rows[s[f]:q][order]
            out_vals[s[f]:q] = out_vals[s[f]:q][order]
    return allowed, s, out_rows, out_vals
