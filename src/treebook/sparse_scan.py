"""CART on ``scipy.sparse`` input: the sorted scan over the nonzeros only.

A sparse matrix stores, per row, only its nonzero entries. Densifying a 10⁵ × 10⁴
matrix of 1 % density turns 10⁷ stored numbers into 10⁹; this module never does. The
grower (:func:`grow_sparse_cart`) is CART's recursive grower on a CSR matrix, with the
numeric split search of :func:`treebook.cart.cart_split_finder` rewritten so that every
cost is in nonzeros, as scikit-learn's ``BestSparseSplitter`` does:

1. **Gather** (:func:`node_nonzeros`). The node's rows are a sorted list; their stored
   entries, read row by row from the CSR arrays, are bucketed by feature (a counting
   sort on the column index): ``O(nnz_t + m)`` for a node with ``nnz_t`` stored entries.
   A feature with no stored entry at the node is zero there: it cannot split and costs
   nothing more.
2. **Sort only the nonzeros**, per feature. In sorted order the feature's values are
   the negative entries, then a *block of zeros* (the node's rows that store nothing for
   it), then the positive entries. The zero block's class counts need no rows: they are
   the node's totals minus the stored entries' counts.
3. **Scan** the distinct values in that order with running class counts (or weight and
   ``Σ w·y`` for regression), emitting a candidate cut between neighbours ``v < v'``
   with ``v' > v + 1e-7`` that leaves ``min_samples_leaf`` rows on either side.

The candidates of all features are scored at once by the criterion's own numpy
functions, in the arrangement the dense CART scan uses, and chosen with the same tie
rule (scores within ``1e-12`` relative tie; first feature in column order, then the
smallest threshold). Node statistics are :func:`treebook.splits.node_summaries` on the
node's rows in row order, as the dense recursive grower computes them. With integer
weights (or none) every count is an exact integer, so the tree equals the dense tree
bit for bit; with fractional weights the zero block's counts are a difference of sums
and may round differently, as the level-wise grower's do.

Prediction (:func:`sparse_apply`) reads only the columns the tree tests, a block of
rows at a time, and walks them with :meth:`treebook.tree.Tree.apply`.

The kernels are ``numba`` functions (``cache=True``), written as the plain loops they are.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .criteria import get_criterion
from .splits import FEATURE_THRESHOLD, IMPURITY_TOLERANCE, SCORE_RTOL, midpoint_threshold, \
    node_summaries
from .tree import NodeKind, Tree, TreeBuilder

__all__ = ["is_sparse", "check_sparse_X", "presort_columns", "sparse_candidates",
           "partition_entries", "grow_sparse_cart", "sparse_apply"]


def is_sparse(X) -> bool:
    """True for a ``scipy.sparse`` matrix or array."""
    return type(X).__module__.startswith("scipy.sparse")


def check_sparse_X(X, *, n_features: int | None = None, name: str = "X"):
    """``X`` as a canonical CSR matrix of float64 (sorted indices, no duplicates, no
    stored zeros), checked: 2-D, real, finite, at least one row, and ``n_features``
    columns when given. Never densifies."""
    import scipy.sparse as sp

    if not is_sparse(X):
        raise TypeError(f"{name} must be a scipy.sparse matrix; got {type(X).__name__}")
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-D (rows × features); got {X.ndim} dimension(s)")
    if X.dtype.kind == "c":
        raise ValueError(f"{name} holds complex numbers; features must be real")
    if X.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold numbers; got dtype {X.dtype}")
    n, m = X.shape
    if n == 0:
        raise ValueError(f"{name} has no rows (shape={X.shape})")
    if m == 0:
        raise ValueError(f"{name} has no columns: 0 feature(s) (shape={X.shape}) while a "
                         "minimum of 1 is required.")
    if n_features is not None and m != n_features:
        raise ValueError(f"{name} has {m} features, but the model is expecting "
                         f"{n_features} features as input")
    X = sp.csr_matrix(X, dtype=np.float64)  # a copy only if the format or dtype differ
    if X is not None and not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    if not np.isfinite(X.data).all():
        bad = "missing values (NaN)" if np.isnan(X.data).any() else "infinite values"
        raise ValueError(f"{name} has {bad}; a sparse matrix must store finite numbers "
                         "(CART here has no rule for missing values)")
    if np.any(X.data == 0):
        X = X.copy()
        X.eliminate_zeros()
    return X


# ------------------------------------------------------------------------------ kernels
@njit(cache=True)
def presort_columns(indptr, indices, data, n_features):
    """The stored entries grouped by feature and sorted by value within each feature
    (the CSR arrays read column by column): returns ``(start, rows, vals)``, feature
    ``f``'s entries being ``rows[start[f]:start[f+1]]`` / ``vals[...]``. Done once per fit:
    ``O(nnz log nnz)``."""
    n = indptr.shape[0] - 1
    count = np.zeros(n_features + 1, np.int64)
    for p in range(indptr[n]):
        count[indices[p] + 1] += 1
    start = np.cumsum(count)
    fill = start[:-1].copy()
    rows = np.empty(indptr[n], np.int64)
    vals = np.empty(indptr[n], np.float64)
    for r in range(n):
        for p in range(indptr[r], indptr[r + 1]):
            q = fill[indices[p]]
            rows[q] = r
            vals[q] = data[p]
            fill[indices[p]] = q + 1
    for f in range(n_features):
        a, b = start[f], start[f + 1]
        if b - a > 1:
            order = np.argsort(vals[a:b])
            rows[a:b] = rows[a:b][order]
            vals[a:b] = vals[a:b][order]
    return start, rows, vals


@njit(cache=True)
def sparse_candidates(start, rows, vals, yk, yv, w, regression, total, n_rows,
                      min_samples_leaf):
    """Every admissible cut of every feature at one node, from its stored entries.

    ``start``/``rows``/``vals``: the node's entries, grouped by feature and sorted by
    value (``rows`` are row ids into ``yk``, ``yv`` and ``w``: class codes, responses
    and weights; a classification tree reads ``yk``, a regression tree ``yv``). ``total``: the node's class counts,
    or for regression ``[Σ w, Σ w·y]`` (the two running sums of a regression scan). Per
    feature the walk is: the negative entries, then the zero block (its counts are
    ``total`` minus the stored entries'), then the positive ones, one group per distinct
    value; a cut between neighbours ``v < v'`` is emitted when ``v' > v + 1e-7`` and both
    sides keep ``min_samples_leaf`` rows. Returns ``(feature, lower, upper, n_left,
    left)``, ``left`` of shape ``(n_candidates, K)``: the left class counts (regression:
    ``Σ w, Σ w·y`` on the left).
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
        if b == a:
            continue  # zero at every row of the node: no cut
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
def _choose(feat, score, rtol):
    """Index of the chosen candidate: per feature the first whose score ties with the
    feature's best; across features, in column order, a later feature wins only when its
    score's tie floor exceeds the best so far (:func:`treebook.cart.cart_split_finder`)."""
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


# ------------------------------------------------------------------------------ grower
def _scores(crit, n_classes, left, W, value, n_candidates, min_weight_leaf):
    """The dense CART scan's scores (``treebook.cart``), on the emitted candidates."""
    if n_classes == 0:
        w_left = left[:, 0]
        s_left = left[:, 1] - w_left * value[0]
    else:
        w_left = left.sum(axis=1)
    w_right = W - w_left
    ok = np.ones(n_candidates, bool)
    if min_weight_leaf > 0:
        ok &= (w_left >= min_weight_leaf) & (w_right >= min_weight_leaf)
    with np.errstate(divide="ignore", invalid="ignore"):
        if n_classes == 0:
            score = crit.split_proxy(s_left, w_left, w_right)
        elif n_classes == 2:
            l1 = left[:, 1]
            score = crit.two_class_score(l1, value[1] - l1, w_left, w_right)
        else:
            lk = [left[:, k] for k in range(n_classes)]
            score = crit.split_proxy(lk, [value[k] - lk[k] for k in range(n_classes)],
                                     w_left, w_right)
    return np.where(ok, score, -np.inf)


def grow_sparse_cart(X, y, sample_weight, *, n_classes: int, criterion, max_depth=None,
                     min_samples_split: int = 2, min_samples_leaf: int = 1,
                     min_impurity_decrease: float = 0.0, min_weight_leaf: float = 0.0,
                     metadata: dict | None = None) -> Tree:
    """CART's tree on a sparse matrix ``X`` (any ``scipy.sparse`` format), equal to
    :func:`treebook.cart.grow_cart` on ``X.toarray()`` (see the module docstring), without
    densifying. ``y``: class codes (``n_classes >= 2``) or floats (``n_classes=0``);
    ``sample_weight`` positive. Depth-first, like the recursive grower; each node holds
    its stored entries grouped by feature and sorted by value, split stably between its
    children (sorted once, at the root)."""
    X = check_sparse_X(X)
    crit = get_criterion(criterion, regression=n_classes == 0)
    w = np.asarray(sample_weight, dtype=float)
    regression = n_classes == 0
    y = np.asarray(y, dtype=float if regression else np.int64)
    n, m = X.shape
    builder = TreeBuilder(is_regression=regression)
    max_depth = np.inf if max_depth is None else max_depth
    min_split = max(min_samples_split, 2 * min_samples_leaf)
    zeros = np.zeros(n, np.intp)
    yk = np.zeros(n, np.int64) if regression else y
    yv = y if regression else np.zeros(n)
    go_right = np.zeros(n, dtype=np.bool_)

    def stats(rows):
        wr = w[rows]
        value, W, _, imp = node_summaries(zeros[:rows.size], y[rows], wr, 1, n_classes, crit)
        total = (np.array([W[0], np.bincount(zeros[:rows.size], weights=wr * y[rows],
                                             minlength=1)[0]])
                 if regression else value[0].astype(float))
        return value[0], float(W[0]), float(imp[0]), total

    all_rows = np.arange(n, dtype=np.int64)
    entries = presort_columns(X.indptr.astype(np.int64), X.indices.astype(np.int64),
                              X.data, m)
    root_value, root_W, root_imp, root_total = stats(all_rows)
    root = builder.add_node(-1, root_value, root_W, n, root_imp)
    stack = [(root, all_rows, entries, 0, root_value, root_W, root_imp, root_total)]
    while stack:
        node, rows, (start, e_rows, e_vals), depth, value, W, imp, total = stack.pop()
        n_t = rows.size
        if imp <= IMPURITY_TOLERANCE or depth >= max_depth or n_t < min_split \
                or W < 2 * min_weight_leaf:
            continue
        feat, lower, upper, n_left, left = sparse_candidates(
            start, e_rows, e_vals, yk, yv, w, regression, total, n_t, min_samples_leaf)
        if feat.size == 0:
            continue
        score = _scores(crit, n_classes, left, W, value, feat.size, min_weight_leaf)
        i = _choose(feat, score, SCORE_RTOL)
        if i < 0:
            continue
        f = int(feat[i])
        t = float(midpoint_threshold(lower[i], upper[i]))
        go_right[rows] = 0.0 > t  # rows that store nothing for f hold 0
        a, b = start[f], start[f + 1]
        go_right[e_rows[a:b]] = e_vals[a:b] > t
        right = go_right[rows]
        _, cW, _, c_imp = node_summaries(right.astype(np.intp), y[rows], w[rows], 2,
                                         n_classes, crit)
        improvement = (W / root_W) * (imp - cW[1] / W * c_imp[1] - cW[0] / W * c_imp[0])
        if improvement + IMPURITY_TOLERANCE < min_impurity_decrease:
            continue
        builder.set_split(node, f, NodeKind.THRESHOLD, t)
        s_l, rl, vl, s_r, rr, vr = partition_entries(start, e_rows, e_vals, go_right)
        kids = []
        for side, ent in ((rows[~right], (s_l, rl, vl)), (rows[right], (s_r, rr, vr))):
            v, cw, ci, tot = stats(side)
            kid = builder.add_node(node, v, cw, side.size, ci)
            kids.append((kid, side, ent, depth + 1, v, cw, ci, tot))
        stack.extend(reversed(kids))
    return builder.build(**(metadata or {}))


# ------------------------------------------------------------------------------ predict
def sparse_apply(tree: Tree, X, *, block_rows: int = 8192) -> np.ndarray:
    """:meth:`treebook.tree.Tree.apply` on a sparse ``X``: only the columns the tree
    tests are read (densified ``block_rows`` rows at a time), the tree's feature ids
    renumbered to those columns, and the blocks walked by ``Tree.apply``."""
    from dataclasses import replace

    X = check_sparse_X(X)
    used = np.unique(tree.feature[tree.feature >= 0])
    if used.size == 0:
        return np.zeros(X.shape[0], dtype=np.int64)
    new_id = np.full(X.shape[1], -1, np.int64)
    new_id[used] = np.arange(used.size)
    small = replace(tree, feature=np.where(tree.feature >= 0,
                                           new_id[np.maximum(tree.feature, 0)], -1))
    cols = X[:, used].tocsr()
    out = np.empty(X.shape[0], dtype=np.int64)
    for a in range(0, X.shape[0], block_rows):
        out[a:a + block_rows] = small.apply(cols[a:a + block_rows].toarray())
    return out
