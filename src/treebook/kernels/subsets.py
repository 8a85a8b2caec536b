"""CART's categorical subset search, compiled, for every open node of one level at once
(:func:`treebook.growers.subsets.subset_candidates` node by node in numpy)."""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["scan_subsets"]

@njit(cache=True, nogil=True)
def _stable_order(present, key, L):
    """``present[:L]`` sorted by ``key`` (stable, as ``np.argsort(kind="stable")``)."""
    out = present[:L].copy()
    for a in range(1, L):
        c = out[a]
        b = a - 1
        while b >= 0 and key[out[b]] > key[c]:
            out[b + 1] = out[b]
            b -= 1
        out[b + 1] = c
    return out


@njit(cache=True, nogil=True)
def _left_set(q, exhaustive, L, present, table, K, key, in_left):
    """Fill ``in_left`` with candidate ``q``'s left categories (see :func:`scan_subsets`)."""
    in_left[:] = False
    if exhaustive:
        for b in range(L - 1):
            if ((q + 1) >> b) & 1:
                in_left[present[b]] = True
        return
    by = q // (L - 1)  # which ordering (K >= 3: by class ``by``)
    for a in range(L):
        c = present[a]
        if K == 0:  # regression: the mean response
            key[c] = table[c, 1] / table[c, 0] if table[c, 0] > 0 else 0.0
        else:
            tot = 0.0
            for k in range(K):
                tot += table[c, k]
            key[c] = table[c, 1 if K == 2 else by] / tot
    order = _stable_order(present, key, L)
    for a in range(q % (L - 1) + 1):
        in_left[order[a]] = True


@njit(cache=True, nogil=True)
def scan_subsets(rows, codes, starts, seg_len, labels, response, w, n_classes, n_categories,
                 value, W, msl, mwl, max_exhaustive, allowed, feature, best_val, best_f,
                 branch_of_code):
    """CART's subset search on one categorical feature for every open node (Gini, or
    squared error when ``n_classes = 0``): the search of ``growers.subsets.subset_candidates``.

    Node ``j``'s rows are ``rows[starts[j]: starts[j] + seg_len[j]]`` (increasing), their
    category codes ``codes[row]``. Per node: the class weights (regression: ``Σ w`` and
    ``Σ w y``) of each category, summed in row order; the candidate left sets — the cuts
    along Breiman's order (by the proportion of class 1, or the mean response), or, with
    ``K ≥ 3``, every subset when at most ``max_exhaustive`` categories are present, else
    the cuts along the order by each class in turn; each left side summed over its
    categories in code order and scored as :func:`scan_feature` does. The first set whose
    score ties with the node's maximum ``s*`` wins, if ``s* - 1e-12·|s*|`` beats
    ``best_val[j]``: then ``best_f[j] = feature`` and ``branch_of_code[j]`` is 0 (left),
    1 (right) or -1 (absent) per category."""
    K = n_classes
    Kt = max(K, 2)
    table = np.zeros((n_categories, Kt))
    n_cat = np.zeros(n_categories, dtype=np.int64)
    key = np.zeros(n_categories)
    present = np.zeros(n_categories, dtype=np.int64)
    in_left = np.zeros(n_categories, dtype=np.bool_)
    side = np.zeros(Kt)
    scores = np.empty(max(2 ** min(max_exhaustive, n_categories), K * n_categories))
    for j in range(starts.shape[0]):
        if not allowed[j]:
            continue
        s = starts[j]
        n_j = seg_len[j]
        table[:, :] = 0.0
        n_cat[:] = 0
        for p in range(s, s + n_j):
            r = rows[p]
            c = int(codes[r])
            n_cat[c] += 1
            if K == 0:
                table[c, 0] += w[r]
                table[c, 1] += w[r] * response[r]
            else:
                table[c, labels[r]] += w[r]
        L = 0
        for c in range(n_categories):
            if n_cat[c] > 0:
                present[L] = c
                L += 1
        if L < 2:
            continue
        exhaustive = K >= 3 and L <= max_exhaustive
        n_sets = (2 ** (L - 1) - 1) if exhaustive else (1 if K <= 2 else K) * (L - 1)
        top = -np.inf
        for q in range(n_sets):
            _left_set(q, exhaustive, L, present, table, K, key, in_left)
            n_left = 0
            for k in range(Kt):
                side[k] = 0.0
            for c in range(n_categories):
                if in_left[c]:
                    n_left += n_cat[c]
                    for k in range(Kt):
                        side[k] += table[c, k]
            scores[q] = -np.inf
            if n_left < msl or n_j - n_left < msl:
                continue
            if K == 0:
                w_left = side[0]
            else:
                w_left = 0.0
                for k in range(K):
                    w_left += side[k]
            w_right = W[j] - w_left
            if mwl > 0.0 and (w_left < mwl or w_right < mwl):
                continue
            if K == 0:
                s_left = side[1] - w_left * value[j, 0]
                sc = s_left * s_left * (1.0 / w_left + 1.0 / w_right)
            elif K == 2:
                l1 = side[1]
                r1 = value[j, 1] - l1
                sc = l1 * l1 / w_left + r1 * r1 / w_right
            else:
                s_l = 0.0
                s_r = 0.0
                for k in range(K):
                    c_r = value[j, k] - side[k]
                    s_l += side[k] * side[k]
                    s_r += c_r * c_r
                sc = s_l / w_left + s_r / w_right
            scores[q] = sc
            if sc > top:
                top = sc
        if top == -np.inf:
            continue
        floor = top - 1e-12 * abs(top)
        if not floor > best_val[j]:
            continue
        for q in range(n_sets):
            if scores[q] >= floor:
                _left_set(q, exhaustive, L, present, table, K, key, in_left)
                break
        best_val[j] = top
        best_f[j] = feature
        for c in range(n_categories):
            branch_of_code[j, c] = -1
        for a in range(L):
            branch_of_code[j, present[a]] = 0 if in_left[present[a]] else 1
