"""CART's categorical subset search, compiled, for every open node of one level at once
(:func:`treebook.growers.subsets.subset_candidates` node by node in numpy)."""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["scan_subsets"]


@njit(cache=True, nogil=True)
def _ordering(pos, n_pos, table, K, by):
    """The categories ``pos[:n_pos]`` (increasing codes, positive weight) sorted by their
    key — the mean response (``K = 0``), the proportion of class 1 (``K = 2``) or of class
    ``by`` — stably, as :func:`treebook.core.cart_scores.category_order` does."""
    key = np.empty(n_pos)
    for a in range(n_pos):
        c = pos[a]
        if K == 0:
            key[a] = table[c, 1] / table[c, 0]
        else:
            tot = 0.0
            for k in range(K):
                tot += table[c, k]
            key[a] = table[c, 1 if K == 2 else by] / tot
    return pos[:n_pos][np.argsort(key, kind="mergesort")]


@njit(cache=True, nogil=True)
def _score(side, n_left, n_j, W_j, value_j, K, Kt, msl, mwl):
    """The scan score of one left side (sums ``side``, ``n_left`` rows), or -inf when a
    side has fewer than ``msl`` rows or less than ``mwl`` weight."""
    if n_left < msl or n_j - n_left < msl:
        return -np.inf
    if K == 0:
        w_left = side[0]
    else:
        w_left = 0.0
        for k in range(K):
            w_left += side[k]
    w_right = W_j - w_left
    if mwl > 0.0 and (w_left < mwl or w_right < mwl):
        return -np.inf
    if K == 0:
        s_left = side[1] - w_left * value_j[0]
        return s_left * s_left * (1.0 / w_left + 1.0 / w_right)
    if K == 2:
        l1 = side[1]
        r1 = value_j[1] - l1
        return l1 * l1 / w_left + r1 * r1 / w_right
    s_l = 0.0
    s_r = 0.0
    for k in range(K):
        c_r = value_j[k] - side[k]
        s_l += side[k] * side[k]
        s_r += c_r * c_r
    return s_l / w_left + s_r / w_right


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
    the cuts along the order by each class in turn (categories of zero weight in no order,
    right). Along an order the left sums are prefix sums in the order's sequence (each
    cut one addition: ``O(n_j + K·L log L)`` per node); an exhaustive subset is summed over
    its categories in code order. Each is scored as :func:`scan_feature` does. The first
    set whose score ties with the node's maximum ``s*`` wins, if ``s* - 1e-12·|s*|`` beats
    ``best_val[j]``: then ``best_f[j] = feature`` and ``branch_of_code[j]`` is 0 (left),
    1 (right) or -1 (absent) per category."""
    K = n_classes
    Kt = max(K, 2)
    table = np.zeros((n_categories, Kt))
    n_cat = np.zeros(n_categories, dtype=np.int64)
    present = np.zeros(n_categories, dtype=np.int64)
    pos = np.zeros(n_categories, dtype=np.int64)
    in_left = np.zeros(n_categories, dtype=np.bool_)
    side = np.zeros(Kt)
    scores = np.empty(max(2 ** min(max_exhaustive, n_categories), max(K, 1) * n_categories))
    L = 0
    for j in range(starts.shape[0]):
        # clear the previous node's categories only: O(L), not O(n_categories), per node
        for a in range(L):
            c = present[a]
            n_cat[c] = 0
            for k in range(Kt):
                table[c, k] = 0.0
        L = 0
        if not allowed[j]:
            continue
        s = starts[j]
        n_j = seg_len[j]
        for p in range(s, s + n_j):
            r = rows[p]
            c = int(codes[r])
            if n_cat[c] == 0:
                present[L] = c
                L += 1
            n_cat[c] += 1
            if K == 0:
                table[c, 0] += w[r]
                table[c, 1] += w[r] * response[r]
            else:
                table[c, labels[r]] += w[r]
        if L < 2:
            continue
        present[:L] = np.sort(present[:L])
        exhaustive = K >= 3 and L <= max_exhaustive
        n_pos = 0
        n_ord = 1 if K <= 2 else K
        n_cuts = 0
        if exhaustive:
            n_sets = 2 ** (L - 1) - 1
        else:
            for a in range(L):
                c = present[a]
                tot = 0.0
                for k in range(K if K > 0 else 1):
                    tot += table[c, k]
                if tot > 0:
                    pos[n_pos] = c
                    n_pos += 1
            n_cuts = max(n_pos - 1, 0)
            n_sets = n_ord * n_cuts
        top = -np.inf
        if exhaustive:
            for q in range(n_sets):
                n_left = 0
                for k in range(Kt):
                    side[k] = 0.0
                for b in range(L - 1):
                    if ((q + 1) >> b) & 1:
                        c = present[b]
                        n_left += n_cat[c]
                        for k in range(Kt):
                            side[k] += table[c, k]
                sc = _score(side, n_left, n_j, W[j], value[j], K, Kt, msl, mwl)
                scores[q] = sc
                if sc > top:
                    top = sc
        else:
            for o in range(n_ord):
                order = _ordering(pos, n_pos, table, K, o)
                n_left = 0
                for k in range(Kt):
                    side[k] = 0.0
                for a in range(n_cuts):
                    c = order[a]
                    n_left += n_cat[c]
                    for k in range(Kt):
                        side[k] += table[c, k]
                    sc = _score(side, n_left, n_j, W[j], value[j], K, Kt, msl, mwl)
                    scores[o * n_cuts + a] = sc
                    if sc > top:
                        top = sc
        if top == -np.inf:
            continue
        floor = top - 1e-12 * abs(top)
        if not floor > best_val[j]:
            continue
        for a in range(L):
            in_left[present[a]] = False
        for q in range(n_sets):
            if scores[q] >= floor:
                if exhaustive:
                    for b in range(L - 1):
                        if ((q + 1) >> b) & 1:
                            in_left[present[b]] = True
                else:
                    order = _ordering(pos, n_pos, table, K, q // n_cuts)
                    for a in range(q % n_cuts + 1):
                        in_left[order[a]] = True
                break
        best_val[j] = top
        best_f[j] = feature
        for c in range(n_categories):
            branch_of_code[j, c] = -1
        for a in range(L):
            branch_of_code[j, present[a]] = 0 if in_left[present[a]] else 1
