"""CART on ``scipy.sparse`` input: the sorted scan over the nonzeros only.

A sparse matrix stores, per row, only its nonzero entries. Densifying a 10⁵ × 10⁴
matrix of 1 % density turns 10⁷ stored numbers into 10⁹; this module never does. The
grower (:func:`grow_sparse_cart`) is CART's recursive grower on a sparse matrix, with the
numeric split search of :func:`treebook.growers.cart_search.cart_split_finder` rewritten so that every
cost is in nonzeros, as scikit-learn's ``BestSparseSplitter`` does:

1. **Sorted entries per node.** The stored entries are grouped by feature and sorted
   by value once, at the root (:func:`presort_columns`); a split partitions them stably
   between the children (:func:`partition_entries`), so every node's lists stay sorted
   and cost ``O(nnz_t + m)`` for ``nnz_t`` entries. A feature with no stored entry at
   the node is zero there: it cannot split and costs nothing more. In sorted order a
   feature's values are the negative entries, then a *block of zeros* (the node's rows
   that store nothing for it), then the positive entries. The zero block's class counts
   need no rows: they are the node's totals minus the stored entries' counts.
2. **Scan** the distinct values in that order with running class counts (or weight and
   ``Σ w·y`` for regression), emitting a candidate cut between neighbours ``v < v'``
   with ``v' > v + 1e-7`` that leaves ``min_samples_leaf`` rows on either side
   (:func:`sparse_candidates`).

With ``max_features`` a node considers a few features drawn as the dense growers draw
them (:mod:`treebook.core.feature_draw`: from the seed and the node's set of rows, skipping
features constant at the node); then no lists are kept, and each node reads and sorts
its drawn columns' entries (:func:`drawn_entries`, CSC), as scikit-learn's splitter
does. With ``max_leaf_nodes`` the tree grows best-first
(:func:`treebook.growers.bestfirst.grow_best_first` with this scan as its split search; each
frontier leaf keeps its partitioned lists).

The candidates of all features are scored at once by the criterion's own numpy
functions, in the arrangement the dense CART scan uses, and chosen with the same tie
rule (scores within ``1e-12`` relative tie; first feature in column order, then the
smallest threshold). Node statistics are :func:`treebook.core.splits.node_summaries` on the
node's rows in row order, as the dense recursive grower computes them. With integer
weights (or none) every count is an exact integer, so the tree equals the dense tree
bit for bit; with fractional weights the zero block's counts are a difference of sums
and may round differently, as the level-wise grower's do.

Prediction (:func:`sparse_apply`) reads only the columns the tree tests, a block of
rows at a time, and walks them with :meth:`treebook.core.tree.Tree.apply`.

The kernels are ``numba`` functions (``cache=True``), written as the plain loops they are.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

from ..core.criteria import get_criterion
from ..core.feature_draw import node_permutation
from ..core.cart_scores import IMPURITY_TOLERANCE, SCORE_RTOL, class_split_score, midpoint_threshold
from ..core.splits import node_summaries
from ..core.tree import NodeKind, Tree, TreeBuilder
from ..kernels.sparse import (choose_candidate, drawn_entries, partition_entries,
                             presort_positions, sparse_candidates)

__all__ = ["is_sparse", "check_sparse_X", "presort_columns", "sparse_candidates",
           "partition_entries", "drawn_entries",
           "grow_sparse_cart", "sparse_apply", "sparse_decision_path"]


def is_sparse(X) -> bool:
    """True for a ``scipy.sparse`` matrix or array."""
    return type(X).__module__.startswith("scipy.sparse")


def check_sparse_X(X, *, n_features: int | None = None, name: str = "X",
                   format: str = "csr"):
    """``X`` as a canonical CSR (``format="csr"``) or CSC (``"csc"``) matrix of float64
    (sorted indices, no duplicates, no stored zeros), checked: 2-D, real, finite, at
    least one row, and ``n_features`` columns when given. Never densifies."""
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
    if format not in ("csr", "csc"):
        raise ValueError(f"format must be 'csr' or 'csc'; got {format!r}")
    # a copy only if the format or dtype differ
    X = (sp.csr_matrix if format == "csr" else sp.csc_matrix)(X, dtype=np.float64)
    if X is not None and not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    if not np.isfinite(X.data).all():
        bad = "missing values (NaN)" if np.isnan(X.data).any() else "infinite values"
        raise ValueError(
            f"{name} has {bad}; a sparse matrix must store finite numbers (scikit-learn "
            "1.9 refuses NaN in sparse X too: its trees learn missing values from dense X "
            "only); pass X.toarray() to use CART's missing='learn'")
    if np.any(X.data == 0):
        X = X.copy()
        X.eliminate_zeros()
    return X


# ------------------------------------------------------------------------------ kernels


def presort_columns(indptr, indices, data, n_features):
    """The stored entries grouped by feature and sorted by value within each feature
    (the CSR arrays read column by column): returns ``(start, rows, vals)``, feature
    ``f``'s entries being ``rows[start[f]:start[f+1]]`` / ``vals[...]``. Done once per fit:
    ``O(nnz log nnz)``."""
    indptr = np.asarray(indptr, np.int64)
    start, pos = presort_positions(indptr, np.asarray(indices, np.int64), data, n_features)
    row_of = np.repeat(np.arange(indptr.size - 1, dtype=np.int64), np.diff(indptr))
    return start, row_of[pos], np.asarray(data, np.float64)[pos]


# ------------------------------------------------------------------------------ grower
def _scores(crit, n_classes, left, W, value, n_candidates, min_weight_leaf):
    """The dense CART scan's scores (:func:`treebook.core.cart_scores.class_split_score` for
    classes), on the emitted candidates."""
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
        else:
            score = class_split_score(left, value, w_left, w_right, n_classes, crit)
    return np.where(ok, score, -np.inf)


class _SparseScan:
    """The split search of one node on its stored entries, shared by the depth-first
    and the best-first sparse grower: the candidates (:func:`sparse_candidates`), the
    random features of ``max_features`` (:mod:`treebook.core.feature_draw`, drawn as the dense
    growers draw them: from the seed and the node's set of rows), the choice
    (:func:`treebook.kernels.sparse.choose_candidate`) and the weighted impurity improvement."""

    def __init__(self, X, y, w, n_classes, crit, min_samples_leaf, min_impurity_decrease,
                 min_weight_leaf, max_features, seed):
        self.X, self.y, self.w, self.n_classes, self.crit = X, y, w, n_classes, crit
        self.regression = n_classes == 0
        n, self.m = X.shape
        self.yk = np.zeros(n, np.int64) if self.regression else y
        self.yv = y if self.regression else np.zeros(n)
        self.msl, self.mid, self.mwl = min_samples_leaf, min_impurity_decrease, min_weight_leaf
        self.max_features, self.seed = max_features, seed
        self.zeros = np.zeros(n, np.intp)
        self.go_right = np.zeros(n, dtype=np.bool_)
        self.every_feature = np.ones(self.m, dtype=np.bool_)
        self.in_node = np.zeros(n, dtype=np.bool_)
        self.entries = None
        if max_features is None:  # every feature at every node: presorted lists (X: CSR)
            indptr = X.indptr.astype(np.int64)
            start, pos = presort_positions(indptr, X.indices.astype(np.int64), X.data,
                                            self.m)
            row_of = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
            self.entries = (start, row_of[pos], X.data[pos])  # = presort_columns(...)
        else:  # a few drawn features per node: read their columns (X: CSC)
            self.columns = (X.indptr.astype(np.int64), X.indices.astype(np.int64), X.data)
        self.root_W = self.stats(np.arange(n, dtype=np.int64))[1]

    def stats(self, rows):
        """``(value, W, impurity, total)`` of a node (:func:`node_summaries` in row
        order); ``total``: class counts, or ``[Σ w, Σ w·y]``."""
        y, w = self.y, self.w
        wr = w[rows]
        value, W, _, imp = node_summaries(self.zeros[:rows.size], y[rows], wr, 1,
                                          self.n_classes, self.crit)
        total = (np.array([W[0], np.bincount(self.zeros[:rows.size], weights=wr * y[rows],
                                             minlength=1)[0]])
                 if self.regression else value[0].astype(float))
        return value[0], float(W[0]), float(imp[0]), total

    def best(self, rows, entries, value, W, imp, total):
        """The node's split ``(feature, threshold, right, improvement)`` (``right``: the
        rows going right), or None. ``entries``: the node's entries (not used, and may
        be None, with ``max_features``: the drawn features' entries are read from the
        matrix's columns, :func:`drawn_entries`)."""
        n_t = rows.size
        if W < 2 * self.mwl:
            return None
        if self.max_features is None:
            allowed = self.every_feature
            start, e_rows, e_vals = entries
        else:  # the dense growers' draw: from the seed and the node's set of rows
            perm = node_permutation(self.seed, n_t, rows.min(), rows.sum(), self.m)
            self.in_node[rows] = True
            allowed, start, e_rows, e_vals = drawn_entries(*self.columns, self.in_node,
                                                           perm, self.max_features, n_t)
            self.in_node[rows] = False
        feat, lower, upper, n_left, left = sparse_candidates(
            start, e_rows, e_vals, self.yk, self.yv, self.w, self.regression, total, n_t,
            self.msl, allowed)
        if feat.size == 0:
            return None
        score = _scores(self.crit, self.n_classes, left, W, value, feat.size, self.mwl)
        i = choose_candidate(feat, score, SCORE_RTOL)
        if i < 0:
            return None
        f = int(feat[i])
        t = float(midpoint_threshold(lower[i], upper[i]))
        go_right = self.go_right
        go_right[rows] = 0.0 > t  # rows that store nothing for f hold 0
        a, b = start[f], start[f + 1]
        go_right[e_rows[a:b]] = e_vals[a:b] > t
        right = go_right[rows]
        _, cW, _, c_imp = node_summaries(right.astype(np.intp), self.y[rows], self.w[rows],
                                         2, self.n_classes, self.crit)
        improvement = (W / self.root_W) * (imp - cW[1] / W * c_imp[1] - cW[0] / W * c_imp[0])
        if improvement + IMPURITY_TOLERANCE < self.mid:
            return None
        return f, t, right, float(improvement)

    def column(self, rows, feature):
        """The values of one feature at the given rows (dense, ``rows.size`` long)."""
        start, e_rows, e_vals = self.entries if self.entries is not None else self.columns
        col = np.zeros(self.X.shape[0])
        a, b = start[feature], start[feature + 1]
        col[e_rows[a:b]] = e_vals[a:b]
        return col[rows]


def grow_sparse_cart(X, y, sample_weight, *, n_classes: int, criterion, max_depth=None,
                     min_samples_split: int = 2, min_samples_leaf: int = 1,
                     min_impurity_decrease: float = 0.0, min_weight_leaf: float = 0.0,
                     max_features: int | None = None, seed: int = 0,
                     max_leaf_nodes: int | None = None, metadata: dict | None = None) -> Tree:
    """CART's tree on a sparse matrix ``X`` (any ``scipy.sparse`` format), equal to
    :func:`treebook.growers.cart_search.grow_cart` on ``X.toarray()`` (see the module docstring), without
    densifying. ``y``: class codes (``n_classes >= 2``) or floats (``n_classes=0``);
    ``sample_weight`` >= 0 (rows of weight 0 take no part, as in the dense growers).
    ``max_features`` (a count) and ``seed``: the random features per node of
    :mod:`treebook.core.feature_draw`, the dense growers' draw. ``max_leaf_nodes``: grow
    best-first with :func:`treebook.growers.bestfirst.grow_best_first`, this scan as its split
    search. Otherwise depth-first, like the recursive grower; each node holds its stored
    entries grouped by feature and sorted by value, split stably between its children
    (sorted once, at the root)."""
    # every feature at every node: rows (CSR) for the presorted lists; a few drawn
    # features per node: columns (CSC), read per node
    X = check_sparse_X(X, format="csr" if max_features is None else "csc")
    crit = get_criterion(criterion, regression=n_classes == 0)
    w = np.asarray(sample_weight, dtype=float)
    regression = n_classes == 0
    y = np.asarray(y, dtype=float if regression else np.int64)
    if np.any(w == 0):  # zero-weight rows take no part (as in the dense growers)
        keep = np.flatnonzero(w > 0)
        X, y, w = X[keep], y[keep], w[keep]
    n, m = X.shape
    scan = _SparseScan(X, y, w, n_classes, crit, min_samples_leaf, min_impurity_decrease,
                       min_weight_leaf, max_features, seed)
    max_depth = np.inf if max_depth is None else max_depth
    min_split = max(min_samples_split, 2 * min_samples_leaf)
    if max_leaf_nodes is not None:
        return _grow_sparse_best_first(scan, max_leaf_nodes, max_depth, min_split, metadata)
    builder = TreeBuilder(is_regression=regression)
    all_rows = np.arange(n, dtype=np.int64)
    root_value, root_W, root_imp, root_total = scan.stats(all_rows)
    root = builder.add_node(-1, root_value, root_W, n, root_imp)
    stack = [(root, all_rows, scan.entries, 0, root_value, root_W, root_imp, root_total)]
    while stack:
        node, rows, ent, depth, value, W, imp, total = stack.pop()
        if imp <= IMPURITY_TOLERANCE or depth >= max_depth or rows.size < min_split:
            continue
        found = scan.best(rows, ent, value, W, imp, total)
        if found is None:
            continue
        f, t, right, _ = found
        builder.set_split(node, f, NodeKind.THRESHOLD, t)
        if max_features is None:
            s_l, rl, vl, s_r, rr, vr = partition_entries(*ent, scan.go_right)
            sides = (rows[~right], (s_l, rl, vl)), (rows[right], (s_r, rr, vr))
        else:  # each node reads its drawn features' entries itself
            sides = (rows[~right], None), (rows[right], None)
        kids = []
        for side, e in sides:
            v, cw, ci, tot = scan.stats(side)
            kid = builder.add_node(node, v, cw, side.size, ci)
            kids.append((kid, side, e, depth + 1, v, cw, ci, tot))
        stack.extend(reversed(kids))
    return builder.build(**(metadata or {}))


def _grow_sparse_best_first(scan: _SparseScan, max_leaf_nodes, max_depth, min_split,
                            metadata):
    """:func:`treebook.growers.bestfirst.grow_best_first` with the sparse scan as its split
    search. A node's entries come from its parent's, partitioned when the parent's split
    is found, and kept under the node's smallest row (the leaves of a tree hold disjoint
    rows, so that names a frontier node)."""
    pending: dict[int, tuple] = {}
    from .bestfirst import grow_best_first
    from .recursive import NodeStats
    from ..core.splits import Split

    def node_stats(rows, w_rows):
        value, W, imp, _ = scan.stats(rows)
        return NodeStats(value, W, imp, bool(imp <= IMPURITY_TOLERANCE))

    def find_split(X, y, w, rows, available):
        value, W, imp, total = scan.stats(rows)
        kept = pending.pop(int(rows[0]), None)
        if scan.max_features is not None:
            ent = None  # read per node (drawn_entries)
        elif rows.size == X.shape[0]:
            ent = scan.entries
        elif kept is not None and kept[0] == rows.size:
            ent = kept[1]
        else:
            raise RuntimeError("the sparse best-first grower lost a node's entries")
        found = scan.best(rows, ent, value, W, imp, total)
        if found is None:
            return None
        f, t, right, improvement = found
        if ent is not None:
            s_l, rl, vl, s_r, rr, vr = partition_entries(*ent, scan.go_right)
            left_rows, right_rows = rows[~right], rows[right]
            pending[int(left_rows[0])] = (left_rows.size, (s_l, rl, vl))
            pending[int(right_rows[0])] = (right_rows.size, (s_r, rr, vr))
        return Split(feature=f, kind=NodeKind.THRESHOLD, score=improvement, threshold=t)

    return grow_best_first(scan.X, scan.y, scan.w, max_leaf_nodes=int(max_leaf_nodes),
                           find_split=find_split, node_stats=node_stats,
                           n_classes=scan.n_classes,
                           max_depth=None if max_depth == np.inf else max_depth,
                           min_samples_split=min_split, min_gain=-np.inf,
                           metadata=metadata, column=scan.column)


# ------------------------------------------------------------------------------ predict
#: per tree, the tree renumbered to the columns it tests and those columns' ids: made on
#: the first sparse prediction and kept while the tree lives, so its walk tables are
#: built once, not on every call (the lock makes concurrent first calls make one)
_RENUMBERED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_RENUMBERED_LOCK = threading.Lock()


def _used_columns(tree: Tree, X):
    """The tree with its feature ids renumbered to the columns it tests, and those
    columns of the checked sparse ``X`` (CSR)."""
    from dataclasses import replace

    with _RENUMBERED_LOCK:
        if tree not in _RENUMBERED:
            used = np.unique(tree.feature[tree.feature >= 0])
            new_id = np.full(int(used.max()) + 1 if used.size else 1, -1, np.int64)
            new_id[used] = np.arange(used.size)
            small = replace(tree, feature=np.where(tree.feature >= 0,
                                                   new_id[np.maximum(tree.feature, 0)], -1))
            _RENUMBERED[tree] = (small, used)
        small, used = _RENUMBERED[tree]
    return small, X[:, used].tocsr()


def sparse_apply(tree: Tree, X, *, block_rows: int = 8192) -> np.ndarray:
    """:meth:`treebook.core.tree.Tree.apply` on a sparse ``X``: only the columns the tree
    tests are read (densified ``block_rows`` rows at a time), the tree's feature ids
    renumbered to those columns, and the blocks walked by ``Tree.apply``."""
    X = check_sparse_X(X)
    if tree.node_count == 1:
        return np.zeros(X.shape[0], dtype=np.int64)
    small, cols = _used_columns(tree, X)
    out = np.empty(X.shape[0], dtype=np.int64)
    for a in range(0, X.shape[0], block_rows):
        out[a:a + block_rows] = small.apply(cols[a:a + block_rows].toarray())
    return out


def sparse_decision_path(tree: Tree, X, *, block_rows: int = 8192):
    """:meth:`treebook.core.tree.Tree.decision_path` on a sparse ``X`` (rows × nodes CSR
    indicator), read as :func:`sparse_apply` reads: the tested columns only, a block of
    rows at a time."""
    import scipy.sparse as sp

    X = check_sparse_X(X)
    small, cols = _used_columns(tree, X)
    if cols.shape[1] == 0:
        cols = sp.csr_matrix((X.shape[0], 1))
    return sp.vstack([small.decision_path(cols[a:a + block_rows].toarray())
                      for a in range(0, X.shape[0], block_rows)], format="csr")
