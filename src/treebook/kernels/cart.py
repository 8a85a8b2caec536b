"""Compiled kernels: the inner loops of exact CART's level-wise growth, written as the plain loops they are.

Each function here is one job, compiled by numba (``cache=True``: compiled once per
machine and kept in ``__pycache__``; no ``parallel=True``, so a kernel adds its numbers
in exactly the order written):

* :func:`scan_feature` — one feature's attribute list at one depth: the left class
  weights (or the left sum of centred responses) at every position, the score of every
  admissible cut, and each node's best cut; the job of
  ``levelwise_scan.cut_scores`` + ``levelwise_scan.keep_best`` in numpy;
* :func:`scan_feature_missing` — the same scan for a column with missing values
  (scikit-learn's candidates: the missing rows on either side of every cut, and the
  split known | missing), ``levelwise_scan.cut_scores`` + ``levelwise_scan.keep_best_missing``;
* :func:`treebook.kernels.subsets.scan_subsets` — CART's subset search on one categorical
  feature for every open node (``growers.subsets.subset_candidates`` node by node in numpy);
* :func:`mark_right` and :func:`partition_list` — which rows go right, and the stable partition of one attribute list into the open
  children's segments (``attribute_lists.partition_lists``);
* the prediction walks are in :mod:`treebook.kernels.walk`.

The numpy versions stay the reference: the tests grow every shape with both and compare
the trees array for array, and both equal the recursive grower's. Bit-identity needs the
same arithmetic in the same order, so :func:`scan_feature` adds what the recursive
grower's scan of one node adds (:func:`treebook.core.splits.threshold_tables`): every
running sum starts from zero at the node's first row and adds its rows in list order
(``np.cumsum`` adds sequentially); the scores are the same expressions as
:func:`treebook.core.cart_scores.gini_split_score` and
:func:`treebook.core.cart_scores.squared_error_split_score`. Only ``+ - * /`` are used, which IEEE
754 rounds identically everywhere (numba does not fuse them unless asked to).

This module imports only numpy and numba; :mod:`treebook.core.tree` and
:mod:`treebook.growers.levelwise` build on it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["scan_feature", "scan_feature_missing", "mark_right", "partition_list", "pack_list",
           "partition_packed", "child_sums", "advance_rows", "preorder", "GINI_SCAN",
           "SQUARED_ERROR_SCAN"]

#: ``scan_feature``'s criterion codes
GINI_SCAN = 0
SQUARED_ERROR_SCAN = 1

_ROW = np.int64(0xFFFFFFFF)


@njit(cache=True, nogil=True)
def scan_feature(P, class_bit, starts, seg_len, labels, response, w, unit, criterion, n_classes,
                 value, W, msl, mwl, x, near, allowed, feature, best_val, best_f,
                 best_p, score, left):
    """Score every cut of one feature's attribute list ``P`` and keep each node's best.

    ``P`` holds the open nodes as consecutive segments (node ``j``: ``starts[j]``,
    ``seg_len[j]`` positions, sorted by value, equal values in row order; ``labels``:
    each row's class, ``response``: its ``y`` in regression); an entry is the ``uint32``
    ``(row << 3) | (new << 2) | (close << 1) | class`` of :func:`pack_list` (``class``
    only when ``class_bit``). A cut after position ``p`` of node ``j`` is admissible when
    ``p`` is not the segment's last position, the next entry starts a new value
    (``new``; after a ``close`` value also ``x[next row] > x[row] + near``), each side
    keeps ``msl`` rows and ``mwl`` weight, and ``allowed[j]``.

    The sums start from zero at each node and add its rows in list order, as the
    recursive grower's prefix sums of the node do: ``C_{1k}`` (class weights left of the
    cut), ``|D_1| = Σ_k C_{1k}`` in class order (:func:`treebook.core.cart_scores.side_weight`;
    the position with unit weights), and in regression ``|D_1| = Σ_left w_i``,
    ``S_1 = Σ_left w_i y_i``. With ``|D_2| = W_j - |D_1|`` the score is

    * Gini (``criterion = GINI_SCAN``): ``Σ_k C_{1k}²/|D_1| + Σ_k C_{2k}²/|D_2|`` (two
      classes: class 1 only, ``C_{11}²/|D_1| + C_{21}²/|D_2|``);
    * squared error: ``s_1² (1/|D_1| + 1/|D_2|)``, ``s_1 = S_1 - |D_1|·ȳ_j``
      (``value[j, 0] = ȳ_j``).

    Where node ``j``'s best score ``s*`` beats ``best_val[j]`` by more than a tie
    (``s* - 1e-12·|s*| > best_val[j]``), the first position whose score is at least
    ``s* - 1e-12·|s*|`` becomes ``best_p[j]`` and ``best_f[j] = feature``.
    ``score`` (one per position) and ``left`` (``n_classes``) are scratch space.
    """
    J = starts.shape[0]
    for j in range(J):
        s = starts[j]
        e = s + seg_len[j]
        L = seg_len[j]
        W_j = W[j]
        run_w = 0.0
        run_s = 0.0
        for k in range(n_classes):
            left[k] = 0.0
        for p in range(s, e):
            ent = np.int64(P[p])
            row = ent >> 3
            # ---- the left side after position p
            if criterion == SQUARED_ERROR_SCAN:
                if unit:
                    run_w = float(p + 1) - float(s)
                    run_s += response[row]
                else:
                    run_w += w[row]
                    run_s += w[row] * response[row]
                w_left = run_w
            else:
                if class_bit:
                    k = ent & 1
                else:
                    k = labels[row]
                if unit:  # counts: exact integers
                    left[k] += 1.0
                    w_left = float(p + 1) - float(s)
                else:
                    left[k] += w[row]
                    w_left = left[0]
                    for q in range(1, n_classes):
                        w_left += left[q]
            w_right = W_j - w_left
            # ---- admissible?
            ok = p < e - 1 and p - s >= msl - 1 and L - (p - s) - 1 >= msl
            if ok:
                e1 = np.int64(P[p + 1])
                if (e1 & 4) == 0:  # the same value: no cut between them
                    ok = False
                elif (ent & 2) != 0 and x[e1 >> 3] <= x[row] + near:
                    ok = False  # a larger value, but too close to cut between
            if ok and mwl > 0.0 and (w_left < mwl or w_right < mwl):
                ok = False
            if not ok or not allowed[j]:
                score[p] = -np.inf
                continue
            if criterion == SQUARED_ERROR_SCAN:
                s_left = run_s - run_w * value[j, 0]
                score[p] = s_left * s_left * (1.0 / w_left + 1.0 / w_right)
            elif n_classes == 2:
                l1 = left[1]
                r1 = value[j, 1] - l1
                score[p] = l1 * l1 / w_left + r1 * r1 / w_right
            else:
                s_l = 0.0
                s_r = 0.0
                for q in range(n_classes):
                    c_l = left[q]
                    c_r = value[j, q] - c_l
                    s_l += c_l * c_l
                    s_r += c_r * c_r
                score[p] = s_l / w_left + s_r / w_right
        # ---- the node's best cut of this feature
        if not allowed[j]:
            continue
        top = -np.inf
        for p in range(s, e):
            if score[p] > top:
                top = score[p]
        if top == -np.inf:
            continue
        floor = top - 1e-12 * abs(top)
        if floor > best_val[j]:
            for p in range(s, e):
                if score[p] >= floor:
                    best_val[j] = top
                    best_f[j] = feature
                    best_p[j] = p
                    break


@njit(cache=True, nogil=True)
def scan_feature_missing(P, shift, missing_rank, x, feature_threshold, starts, seg_len,
                         labels, response, w, unit, criterion, n_classes, value, W, msl,
                         mwl, close_ranks, first_far, allowed, feature, best_val, best_f,
                         best_p, best_go, score, score_left, left, miss):
    """:func:`scan_feature` for a column with missing values: scikit-learn's candidates.

    In every node's segment the missing rows (rank ``missing_rank``) are the last block,
    in row order. Node ``j`` with missing rows (and known values ``x`` that are not all
    within ``feature_threshold``) scores each cut of its known values with the missing
    block on the right (``score``) and on the left (``score_left``: the missing block's
    sums, added from zero in row order as the recursive grower's ``np.bincount`` adds
    them, joined to the left side's), and the split known | missing (the cut after its
    last known position, stored in ``score_left`` there). A node without missing rows
    scores as :func:`scan_feature`. The first candidate tying with the node's maximum,
    in that order (right, left, known | missing), wins as in :func:`scan_feature`;
    ``best_go[j]`` is where the missing rows go (1 right, 0 left, -1 none). ``miss``
    (``n_classes``) is scratch space too."""
    J = starts.shape[0]
    for j in range(J):
        s = starts[j]
        e = s + seg_len[j]
        L = seg_len[j]
        W_j = W[j]
        mean = value[j, 0]
        q_end = e
        while q_end > s and ((P[q_end - 1] >> shift) >> 1) == missing_rank:
            q_end -= 1
        last = q_end - 1
        n_miss = e - q_end
        has = n_miss > 0
        varies = True
        if has:
            varies = last >= s and x[P[last] & _ROW] > x[P[s] & _ROW] + feature_threshold
        # the missing block's sums, from zero in row order
        w_miss = 0.0
        s_miss = 0.0
        for k in range(n_classes):
            miss[k] = 0.0
        for p in range(q_end, e):
            row = P[p] & _ROW
            wv = 1.0 if unit else w[row]
            if criterion == SQUARED_ERROR_SCAN:
                w_miss += wv
                s_miss += response[row] if unit else wv * response[row]
            else:
                k = (P[p] >> 32) & 1 if shift == 33 else labels[row]
                miss[k] += wv
        # pass 0: the missing block on the right (the usual scan); pass 1: the same sums
        # again from zero, the missing block on the left
        for rep in range(2):
            stop = e
            if rep == 1:
                if not (has and varies and allowed[j]):
                    break
                stop = last
            run_w = 0.0
            run_s = 0.0
            for k in range(n_classes):
                left[k] = 0.0
            for p in range(s, stop):
                # ---- the left side after position p (scan_feature's sums)
                row = P[p] & _ROW
                if criterion == SQUARED_ERROR_SCAN:
                    if unit:
                        run_w = float(p + 1) - float(s)
                        run_s += response[row]
                    else:
                        run_w += w[row]
                        run_s += w[row] * response[row]
                    w_left = run_w
                else:
                    if shift == 33:
                        k = (P[p] >> 32) & 1
                    else:
                        k = labels[row]
                    if unit:
                        left[k] += 1.0
                        w_left = float(p + 1) - float(s)
                    else:
                        left[k] += w[row]
                        w_left = left[0]
                        for q in range(1, n_classes):
                            w_left += left[q]
                if rep == 0:
                    score_left[p] = -np.inf
                    ok = p < e - 1 and p - s >= msl - 1 and L - (p - s) - 1 >= msl
                    wl = w_left
                else:  # the missing block joins the left side
                    ok = p - s + 1 + n_miss >= msl and last - p >= msl
                    if criterion == SQUARED_ERROR_SCAN:
                        wl = w_left + w_miss
                    elif unit:
                        wl = w_left + float(n_miss)
                    else:  # Σ_k (C_1k + M_k), in class order
                        wl = left[0] + miss[0]
                        for q in range(1, n_classes):
                            wl += left[q] + miss[q]
                wr = W_j - wl
                # ---- admissible?
                if ok:
                    g0 = P[p] >> shift
                    g1 = P[p + 1] >> shift
                    if g0 == g1:
                        ok = False
                    elif (g0 & 1) == 1:
                        i = np.searchsorted(close_ranks, g0 >> 1)
                        if (g1 >> 1) < first_far[i]:
                            ok = False
                if ok and mwl > 0.0 and (wl < mwl or wr < mwl):
                    ok = False
                if not ok or not allowed[j] or (has and not varies):
                    if rep == 0:
                        score[p] = -np.inf
                    continue
                # ---- its score (missing right: scan_feature's; left: plus the block)
                if criterion == SQUARED_ERROR_SCAN:
                    if rep == 1:
                        s_l1 = (run_s + s_miss) - wl * mean
                    else:
                        s_l1 = run_s - wl * mean
                    sc = s_l1 * s_l1 * (1.0 / wl + 1.0 / wr)
                elif n_classes == 2:
                    l1 = left[1]
                    if rep == 1:
                        l1 = l1 + miss[1]
                    r1 = value[j, 1] - l1
                    sc = l1 * l1 / wl + r1 * r1 / wr
                else:
                    s_l = 0.0
                    s_r = 0.0
                    for q in range(n_classes):
                        c_l = left[q]
                        if rep == 1:
                            c_l = c_l + miss[q]
                        c_r = value[j, q] - c_l
                        s_l += c_l * c_l
                        s_r += c_r * c_r
                    sc = s_l / wl + s_r / wr
                if rep == 1:
                    score_left[p] = sc
                elif has and p == last:  # known | missing: tried last
                    score_left[p] = sc
                    score[p] = -np.inf
                else:
                    score[p] = sc
        # ---- the node's best candidate of this feature
        if not allowed[j]:
            continue
        top = -np.inf
        for p in range(s, e):
            if score[p] > top:
                top = score[p]
            if score_left[p] > top:
                top = score_left[p]
        if top == -np.inf:
            continue
        floor = top - 1e-12 * abs(top)
        if floor > best_val[j]:
            found = False
            for p in range(s, e):
                if score[p] >= floor:
                    best_p[j] = p
                    best_go[j] = 1 if has else -1
                    found = True
                    break
            if not found:
                for p in range(s, e):
                    if score_left[p] >= floor:
                        best_p[j] = p
                        best_go[j] = 1 if p == last else 0
                        break
            best_val[j] = top
            best_f[j] = feature


@njit(cache=True, nogil=True)
def partition_list(P, go_right, starts, seg_len, slot_base, slot_open, out):
    """Stable partition of one attribute list: the entries of node ``j``'s segment whose
    row has ``go_right[row] = b`` go, in list order, to the region of slot ``2j + b`` of
    ``out`` that starts at ``slot_base[2j + b]`` (only slots with ``slot_open``). Every
    child's entries stay sorted by value, so no list is sorted again."""
    cursor = slot_base.copy()
    for j in range(starts.shape[0]):
        for p in range(starts[j], starts[j] + seg_len[j]):
            slot = 2 * j + go_right[P[p] & _ROW]
            if slot_open[slot]:
                out[cursor[slot]] = P[p]
                cursor[slot] += 1


@njit(cache=True, nogil=True)
def pack_list(order, x, labels, class_bit, near, out):
    """One feature's attribute list, packed: ``out[i]`` describes row ``r = order[i]``
    (``order`` sorts ``x``) in one ``uint32``, ``(r << 3) | (new << 2) | (close << 1) |
    class``: ``new`` when ``x[r]`` is larger than the value before it (or ``i = 0``),
    ``close`` when the next larger value of ``x`` is at most ``x[r] + near`` (only then
    can two distinct neighbours be too close to cut between), and the row's class when
    ``class_bit`` (two classes)."""
    n = order.shape[0]
    i = 0
    while i < n:
        v = x[order[i]]
        e = i + 1
        while e < n and not x[order[e]] > v:
            e += 1
        close = 2 if (e < n and x[order[e]] <= v + near) else 0
        for q in range(i, e):
            r = order[q]
            c = labels[r] if class_bit else 0
            out[q] = np.uint32((r << 3) | (4 if q == i else 0) | close | c)
        i = e


@njit(cache=True, nogil=True)
def partition_packed(P, go_right, starts, seg_len, slot_base, slot_open, out):
    """:func:`partition_list` for the packed lists of :func:`pack_list`: the same stable
    partition, and each moved entry's ``new`` bit made true of its new neighbour: set
    when a value change lay between it and the entry before it on the same side."""
    cursor = slot_base.copy()
    for j in range(starts.shape[0]):
        change = 3  # bit b: a value changed since side b's last entry (none yet: set)
        for p in range(starts[j], starts[j] + seg_len[j]):
            e = np.int64(P[p])
            change |= ((e >> 2) & 1) * 3  # a new value: changed for both sides
            b = np.int64(go_right[e >> 3])
            new = (change >> b) & 1
            change &= 2 >> b  # side b has its entry
            slot = 2 * j + b
            if slot_open[slot]:
                out[cursor[slot]] = np.uint32((e & 0xFFFFFFFB) | (new << 2))
                cursor[slot] += 1


@njit(cache=True, nogil=True)
def child_sums(alive, n_alive, node_of_row, go_right, has_cut, labels, response, w, unit,
               n_classes, counts, W, S1, S2, flat):
    """The children's sums of one level, rows in increasing order (as ``np.bincount``
    adds them in :func:`treebook.core.splits.node_summaries`).

    ``alive[:n_alive]``: the rows of the open nodes, increasing; row ``r`` is in open node
    ``j = node_of_row[r]`` and goes to its child ``2j + go_right[r]``. Rows of nodes
    without a cut (``has_cut[j]`` false) are dropped: ``alive`` is compacted in place and
    the number kept is returned. Per child: ``counts`` (rows), ``W`` (weight; not
    written with unit weights, where it is the count), and ``S1 = Σ w y``, ``S2 = Σ (w
    y) y`` (regression, ``n_classes = 0``) or ``flat[child·K + class] = Σ w``."""
    k = 0
    for a in range(n_alive):
        r = alive[a]
        j = node_of_row[r]
        if not has_cut[j]:
            continue
        alive[k] = r
        k += 1
        c = 2 * j + go_right[r]
        counts[c] += 1
        if not unit:
            W[c] += w[r]
        if n_classes == 0:
            wy = response[r] if unit else w[r] * response[r]
            S1[c] += wy
            S2[c] += wy * response[r]
        else:
            flat[c * n_classes + labels[r]] += 1.0 if unit else w[r]
    return k


@njit(cache=True, nogil=True)
def advance_rows(alive, n_alive, node_of_row, go_right, new_index):
    """Move every row of ``alive[:n_alive]`` to its child's index at the next level
    (``new_index[2j + go_right[r]]``, -1 when the child is closed) and keep, in place and
    in order, the rows whose child is open; returns how many."""
    k = 0
    for a in range(n_alive):
        r = alive[a]
        i = new_index[2 * node_of_row[r] + go_right[r]]
        node_of_row[r] = i
        if i >= 0:
            alive[k] = r
            k += 1
    return k


@njit(cache=True, nogil=True)
def preorder(left, pre, stack):
    """The depth-first pre-order id (left before right) of every node of a tree whose
    nodes are numbered level by level: ``left[i]`` is node ``i``'s left child (its right
    child is ``left[i] + 1``; -1 at a leaf), the root is 0. ``pre`` receives the ids;
    ``stack`` holds at least the depth plus 2 entries."""
    stack[0] = 0
    top = 1
    k = 0
    while top > 0:
        top -= 1
        i = stack[top]
        pre[i] = k
        k += 1
        if left[i] >= 0:
            stack[top] = left[i] + 1  # the right subtree after the whole left one
            stack[top + 1] = left[i]
            top += 2


@njit(cache=True, nogil=True)
def mark_right(P, starts, seg_len, nodes, cut_after, go_right):
    """For each node ``j`` of ``nodes``, cut after position ``cut_after[j]`` of its segment
    of the attribute list ``P``: ``go_right[row] = 1`` for the rows after the cut, 0 for
    those up to it (an ``int64`` list holds the row in its low 32 bits, a packed
    ``uint32`` one above its 3 flag bits)."""
    packed = P.itemsize == 4
    for j in nodes:
        for p in range(starts[j], starts[j] + seg_len[j]):
            row = np.int64(P[p] >> 3) if packed else np.int64(P[p] & _ROW)
            go_right[row] = 1 if p > cut_after[j] else 0


