"""Compiled kernels of C4.5's fast grower: the sorted scan and the list partition.

C4.5 scores a numeric attribute at a node from one sorted scan: the class weights left
of every cut are prefix sums over the cases sorted by value (the readable
:func:`treebook.growers.c45_search.numeric_candidate` sorts the node's cases each time). The fast
grower (:func:`treebook.growers.c45.grow_c45`) sorts each numeric column once, at the root,
and hands every child its part of each sorted list. These kernels do the two jobs that
takes, each as the plain loop it is (numba, ``cache=True``, ``nogil=True``, no
``parallel=True``, so sums are added in exactly the order written):

* :func:`scan_thresholds` — for every numeric attribute of one node: the class weights
  of its known and unknown cases, how many cuts are admissible, and the short list of
  cuts that can be the best (their left class weights, the values either side);
* :func:`partition_sorted_lists` — the children's sorted lists from the node's, for a
  multiway or binary split whose unknown cases go down every branch with a fraction of
  their weight (C4.5's fractional cases).

Identical trees need identical numbers. The sums are: the running class weights are
``np.cumsum``'s sequential sums, the unknown cases' weights ``np.bincount``'s, in the
same order, and a row of class weights is added as numpy adds it (:func:`numpy_sum`,
pairwise in blocks of 8). The logarithms are not: numba calls the C library's ``log2``,
numpy its own vectorised one (SVML on AVX-512 machines), and they differ in the last bit
for about 0.2 % of arguments. So the kernel's gains only pick the short list (every cut
within a relative ``1e-9`` of the best), and the readable code's numpy arithmetic
(:func:`treebook.growers.c45_search.threshold_candidate`'s) scores it again and chooses.

This module imports only numpy and numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["scan_thresholds", "partition_sorted_lists", "numpy_sum", "FAN_CODE"]

#: the branch code of a case that goes down every branch (``treebook.core.splits.FAN``)
FAN_CODE = -2


@njit(cache=True, nogil=True)
def numpy_sum(a):
    """``a.sum()`` of a contiguous 1-d array, added as numpy adds it (its
    ``pairwise_sum``): up to 8 values one after another; up to 128 in 8 running sums,
    combined pairwise, then the rest; longer arrays split in two halves (a multiple of 8)
    summed the same way. So a row of class weights sums to numpy's value, to the bit."""
    n = a.shape[0]
    if n <= 128:
        return _block_sum(a, 0, n)
    # numpy recurses; here the same halving runs on an explicit stack
    seg_s = np.empty(128, dtype=np.int64)
    seg_n = np.empty(128, dtype=np.int64)
    phase = np.empty(128, dtype=np.int64)
    vals = np.empty(128)
    top = 0
    nv = 0
    seg_s[0], seg_n[0], phase[0] = 0, n, 0
    top = 1
    while top > 0:
        top -= 1
        s, m, ph = seg_s[top], seg_n[top], phase[top]
        if m <= 128:
            vals[nv] = _block_sum(a, s, m)
            nv += 1
        elif ph == 0:
            h = m // 2
            h -= h % 8
            seg_s[top], seg_n[top], phase[top] = s, m, 1
            seg_s[top + 1], seg_n[top + 1], phase[top + 1] = s + h, m - h, 0
            seg_s[top + 2], seg_n[top + 2], phase[top + 2] = s, h, 0
            top += 3
        else:
            # the left half was pushed last, so it was summed first
            nv -= 1
            right = vals[nv]
            nv -= 1
            vals[nv] = vals[nv] + right
            nv += 1
    return vals[0]


@njit(cache=True, nogil=True)
def _block_sum(a, s, n):
    if n < 8:
        res = -0.0
        for i in range(n):
            res += a[s + i]
        return res
    r0, r1, r2, r3 = a[s], a[s + 1], a[s + 2], a[s + 3]
    r4, r5, r6, r7 = a[s + 4], a[s + 5], a[s + 6], a[s + 7]
    i = 8
    while i < n - n % 8:
        r0 += a[s + i]
        r1 += a[s + i + 1]
        r2 += a[s + i + 2]
        r3 += a[s + i + 3]
        r4 += a[s + i + 4]
        r5 += a[s + i + 5]
        r6 += a[s + i + 6]
        r7 += a[s + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[s + i]
        i += 1
    return res


@njit(cache=True, nogil=True)
def _entropy_bits(c, total):
    h = 0.0
    if total > 0:
        for k in range(c.shape[0]):
            if c[k] > 0:
                p = c[k] / total
                h -= p * np.log2(p)
    return h


@njit(cache=True, nogil=True)
def scan_thresholds(order, list_ptr, features, X, rows, y, w, n_classes, total,
                    min_samples_leaf, min_gap, small, margin,
                    left, lower, upper, score, short_ptr, n_cuts, known, missing):
    """C4.5's threshold scan of every numeric attribute of one node, in one pass each.

    The node holds the cases ``rows`` (row numbers into ``X``, in the node's order) with
    classes ``y``, weights ``w`` (aligned with ``rows``) and total weight ``total``.
    Attribute ``i`` (column ``features[i]`` of ``X``) has the sorted list
    ``order[list_ptr[i]:list_ptr[i+1]]``: the node positions of its known values, by
    value, ties in node order. Walking it, the known class weights ``C_k`` are summed one
    case at a time (``np.cumsum``'s order); ``known[i]`` gets the totals and
    ``missing[i]`` the class weights of the cases whose value is unknown, summed in node
    order (``np.bincount``'s). A cut after a case whose next value is larger is
    admissible when the values are more than ``min_gap`` apart and each side holds at
    least ``minSplit - small`` known weight, ``minSplit = clip(0.1·|D_k|/K, M, 25)``
    (``M = min_samples_leaf``); ``n_cuts[i]`` counts them.

    Each admissible cut is scored by ``F · g`` with the C library's ``log2``; the cuts
    within ``margin`` (relative, at least absolute) of attribute ``i``'s best form its
    shortlist, rows ``short_ptr[i]:short_ptr[i+1]`` of ``left`` (their left ``C_k``),
    ``lower`` and ``upper`` (the values either side) and ``score`` (that gain), in
    sorted order. The caller
    scores the shortlist again with numpy: only the shortlist can hold the cut numpy
    finds best. ``left`` needs a row per list entry; ``short_ptr[0]`` is set by the
    caller. An attribute with too few known cases (fewer than ``2·minSplit``) gets no
    cut.
    """
    n_lists = features.shape[0]
    run = np.zeros(n_classes)
    right = np.zeros(n_classes)
    c = short_ptr[0]
    for i in range(n_lists):
        f = features[i]
        s = list_ptr[i]
        e = list_ptr[i + 1]
        for k in range(n_classes):
            known[i, k] = 0.0
            missing[i, k] = 0.0
            run[k] = 0.0
        for q in range(s, e):
            p = order[q]
            known[i, y[p]] += w[p]
        if e - s < rows.shape[0]:  # some value is unknown
            for p in range(rows.shape[0]):
                if np.isnan(X[rows[p], f]):
                    missing[i, y[p]] += w[p]
        known_w = numpy_sum(known[i])
        m = 0.1 * known_w / n_classes
        min_split = float(min_samples_leaf) if m <= min_samples_leaf else min(m, 25.0)
        n_cuts[i] = 0
        short_ptr[i + 1] = c
        if e - s < 2 * min_split:
            continue
        frac = known_w / total
        parent = _entropy_bits(known[i], known_w)
        exact = np.isfinite(known_w)
        best = -np.inf
        first = c  # this attribute's shortlist starts here
        for q in range(s, e - 1):
            p = order[q]
            run[y[p]] += w[p]
            here = X[rows[p], f]
            after = X[rows[order[q + 1]], f]
            if not after > here:
                continue
            if not here + min_gap < after:
                continue
            # numpy's sum of the left row (exact: it decides admissibility as the
            # readable code does)
            w1 = _block_sum(run, 0, n_classes) if n_classes <= 128 else numpy_sum(run)
            if not (w1 >= min_split - small and known_w - w1 >= min_split - small):
                continue
            n_cuts[i] += 1
            for k in range(n_classes):
                right[k] = known[i, k] - run[k]
            w2 = known_w - w1  # (only for the kernel's own gain)
            g = parent - (w1 / known_w * _entropy_bits(run, w1)
                          + w2 / known_w * _entropy_bits(right, w2))
            g = frac * max(g, 0.0)
            if not exact:
                g = 0.0  # a total that overflows: keep every cut, numpy decides
            if g < best - margin * max(1.0, abs(best)):
                continue
            if g > best:
                best = g
                # drop the shortlisted cuts that fell out of the new best's margin
                keep = first
                for r in range(first, c):
                    if score[r] >= best - margin * max(1.0, abs(best)):
                        for k in range(n_classes):
                            left[keep, k] = left[r, k]
                        lower[keep] = lower[r]
                        upper[keep] = upper[r]
                        score[keep] = score[r]
                        keep += 1
                c = keep
            for k in range(n_classes):
                left[c, k] = run[k]
            lower[c] = here
            upper[c] = after
            score[c] = g
            c += 1
        short_ptr[i + 1] = c


@njit(cache=True, nogil=True)
def partition_sorted_lists(order, list_ptr, features, X, rows, go, n_branches, out, out_ptr):
    """Give every child of a node its part of each sorted list, still sorted.

    ``go[p]`` is the branch (``0 … n_branches-1``) of the case at node position ``p``,
    ``FAN_CODE`` for a case that goes down every branch, or another negative code for one
    that stays at the node. Child ``b`` holds its branch's cases in the node's order,
    then the fanned cases (as :func:`treebook.growers.recursive.grow_tree` builds it), so a case of
    the branch with rank ``r`` sits at position ``r`` and a fanned case of rank ``r``
    among the fanned ones at ``count_b + r``. Where values tie, the branch's own cases
    therefore come first: within each run of equal values the kernel writes them, then
    the fanned ones, each in the node's order, which is the order a stable sort of the
    child would give.

    Output: child ``b``'s list of attribute ``i`` is ``out[out_ptr[b, i]:out_ptr[b,
    i+1]]`` (children one after another; ``out_ptr`` has shape ``(n_branches, n_lists +
    1)``); ``out`` must hold the children's lists together.
    """
    n = go.shape[0]
    n_lists = features.shape[0]
    # each case's position in its child (fanned cases: after the branch's own)
    child_pos = np.empty(n, dtype=np.int64)
    branch_count = np.zeros(n_branches, dtype=np.int64)
    n_fan = 0
    for p in range(n):
        g = go[p]
        if g >= 0:
            child_pos[p] = branch_count[g]
            branch_count[g] += 1
        elif g == FAN_CODE:
            child_pos[p] = n_fan
            n_fan += 1
    # pass 1: how long each child's list of each attribute is
    count = np.zeros((n_branches, n_lists), dtype=np.int64)
    for i in range(n_lists):
        fans = 0
        for q in range(list_ptr[i], list_ptr[i + 1]):
            g = go[order[q]]
            if g >= 0:
                count[g, i] += 1
            elif g == FAN_CODE:
                fans += 1
        for b in range(n_branches):
            count[b, i] += fans
    at = 0
    for b in range(n_branches):
        for i in range(n_lists):
            out_ptr[b, i] = at
            at += count[b, i]
        out_ptr[b, n_lists] = at
    # pass 2: fill, one run of equal values at a time
    fill = np.zeros(n_branches, dtype=np.int64)
    for i in range(n_lists):
        f = features[i]
        for b in range(n_branches):
            fill[b] = out_ptr[b, i]
        s = list_ptr[i]
        e = list_ptr[i + 1]
        r = s
        while r < e:
            v = X[rows[order[r]], f]
            t = r + 1
            while t < e and X[rows[order[t]], f] == v:
                t += 1
            for q in range(r, t):          # the branch's own cases of this run
                p = order[q]
                g = go[p]
                if g >= 0:
                    out[fill[g]] = child_pos[p]
                    fill[g] += 1
            for q in range(r, t):          # then the fanned ones, in every child
                p = order[q]
                if go[p] == FAN_CODE:
                    for b in range(n_branches):
                        out[fill[b]] = branch_count[b] + child_pos[p]
                        fill[b] += 1
            r = t
