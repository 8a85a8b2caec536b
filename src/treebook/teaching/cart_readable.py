"""CART in one page: the textbook recursion that chapter 4 reads.

:class:`treebook.CARTClassifier` and :class:`treebook.CARTRegressor` grow their trees
with production machinery (flat arrays, a level-wise grower over presorted attribute
lists, scikit-learn's tolerances; see the appendix "How the package is built"). This
module grows the same binary trees on numeric features in the fewest lines that show the
idea, so that a reader can follow CART from its definition:

* :func:`best_cut` — the best cut ``x <= t`` of one feature, by the sorted scan: one
  sort, one prefix sum, every candidate threshold scored at once;
* :func:`grow_binary` — the recursion: split the node by the best cut over all features,
  then grow each side;
* :func:`predict_binary` — walk a row down to its leaf.

The tree is a nested ``dict``. The tests check that on numeric data where no two
candidate splits tie it equals the package's tree (same features, thresholds, leaves).
What is left out: sample weights, categorical subsets, scikit-learn's ``1e-7`` rule for
values too close to cut apart, and ``min_impurity_decrease``.
"""

from __future__ import annotations

import numpy as np

from ..core.impurity import gini_index
from ..core.cart_scores import midpoint_threshold
from ..core.splits import threshold_moments, threshold_tables

__all__ = ["best_cut", "grow_binary", "predict_binary", "naive_best_threshold"]


def _check_xy(x, y, n_classes):
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or x.shape[0] == 0:
        raise ValueError(f"x must be a non-empty 1-D array; got shape {x.shape}")
    if np.isnan(x).any():
        raise ValueError("x has missing values (NaN); CART here needs complete data")
    y = np.asarray(y)
    if y.shape != x.shape:
        raise ValueError(f"y must have the shape of x {x.shape}; got {y.shape}")
    if n_classes is not None:
        if isinstance(n_classes, bool) or not isinstance(n_classes, (int, np.integer)) \
                or n_classes < 2:
            raise ValueError(f"n_classes must be an int >= 2, or None for regression; "
                             f"got {n_classes!r}")
        if not np.issubdtype(y.dtype, np.integer) or y.min() < 0 or y.max() >= n_classes:
            raise ValueError(f"y must hold class codes 0 … {n_classes - 1}")
    return x, y


def best_cut(x, y, n_classes=None, min_samples_leaf: int = 1):
    """The best binary cut of one numeric feature: ``(threshold, cost)`` or ``None``.

    Classification (``n_classes`` = K, ``y`` class codes ``0 … K-1``): the cost of the
    cut ``x <= t`` is ``|D| Gini(D, A) = |D_1| Gini(D_1) + |D_2| Gini(D_2)``.
    Regression (``n_classes=None``): ``SSE(D_1) + SSE(D_2) = SSE(D) - s_1²(1/|D_1| +
    1/|D_2|)``, with ``s_1`` the sum of the left residuals from the node's mean.

    Every cut between two adjacent distinct values is scored from one sorted scan
    (:func:`treebook.core.splits.threshold_tables` / ``threshold_moments``); the threshold is
    the midpoint ``v_i/2 + v_{i+1}/2``. Cuts that leave fewer than ``min_samples_leaf``
    cases on a side are skipped; ``None`` when none is left. Ties: the smallest threshold.
    """
    x, y = _check_xy(x, y, n_classes)
    if np.all(x == x[0]):
        return None                               # one value: nothing to cut
    ones = np.ones(x.shape[0])
    if n_classes is None:
        r = y - y.mean()                          # residuals from the node's mean
        scan = threshold_moments(x, r, ones)
        n1, s1 = scan["W"], scan["S1"]           # left counts and left residual sums
        n2 = x.shape[0] - n1
        cost = (r ** 2).sum() - s1 ** 2 * (1 / n1 + 1 / n2)
    else:
        scan = threshold_tables(x, y, ones, n_classes)
        tables = scan["tables"]                   # (cuts, 2 sides, K classes)
        n1, n2 = tables[:, 0].sum(axis=1), tables[:, 1].sum(axis=1)
        cost = x.shape[0] * gini_index(tables)
    ok = (n1 >= min_samples_leaf) & (n2 >= min_samples_leaf)
    if not ok.any():
        return None
    i = np.flatnonzero(ok)[np.argmin(cost[ok])]
    return scan["lower"][i] / 2 + scan["upper"][i] / 2, float(cost[i])


def grow_binary(X, y, n_classes=None, *, max_depth=None, min_samples_leaf: int = 1,
                depth: int = 0) -> dict:
    """Grow a CART tree on numeric ``X`` by the textbook recursion (no pruning).

    A node is a leaf when it is pure (or all its ``y`` are equal), when it is at
    ``max_depth``, or when no cut keeps ``min_samples_leaf`` cases on each side.
    Otherwise it is split by the cut of smallest cost over all features (ties: the first
    feature), and both sides are grown. Returns a nested dict: every node has ``n`` and
    ``value`` (class counts, or the mean of ``y``); an internal node also ``feature``,
    ``threshold``, ``left`` (``x <= threshold``) and ``right``. ``depth`` is the depth
    of this node (the recursion passes it).
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (cases × features); got shape {X.shape}")
    y = np.asarray(y)
    value = (np.bincount(y, minlength=n_classes) if n_classes is not None
             else float(y.mean()))
    node = {"n": int(y.shape[0]), "value": value}
    pure = np.all(y == y[0])
    if pure or depth == max_depth or y.shape[0] < 2 * min_samples_leaf:
        return node
    best = None                                   # (cost, feature, threshold)
    for j in range(X.shape[1]):
        cut = best_cut(X[:, j], y, n_classes, min_samples_leaf)
        if cut is not None and (best is None or cut[1] < best[0]):
            best = (cut[1], j, cut[0])
    if best is None:
        return node
    _, j, t = best
    left = X[:, j] <= t
    grow = dict(n_classes=n_classes, max_depth=max_depth,
                min_samples_leaf=min_samples_leaf, depth=depth + 1)
    node.update(feature=j, threshold=float(t),
                left=grow_binary(X[left], y[left], **grow),
                right=grow_binary(X[~left], y[~left], **grow))
    return node


def predict_binary(tree: dict, X) -> np.ndarray:
    """Each row of ``X`` walked down ``tree`` (from :func:`grow_binary`): the majority
    class of its leaf (classification) or the leaf's mean (regression)."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (cases × features); got shape {X.shape}")
    out = []
    for row in X:
        node = tree
        while "feature" in node:
            node = node["left"] if row[node["feature"]] <= node["threshold"] else node["right"]
        v = node["value"]
        out.append(int(np.argmax(v)) if np.ndim(v) else v)
    return np.array(out)


def naive_best_threshold(x, y, n_classes: int):
    """The O(n²) split search the sorted scan replaces, for comparison only.

    For every midpoint ``t`` between distinct values it builds the mask ``x <= t``,
    counts the classes on each side and computes the weighted Gini index
    ``Gini(D, t) = |D_1|/|D|·Gini(D_1) + |D_2|/|D|·Gini(D_2)``: ``O(n)`` work for each of
    up to ``n - 1`` thresholds. Returns ``(threshold, gini_index)`` of the first best.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y)
    values = np.unique(x)
    best_t, best_g = np.nan, np.inf
    for t in midpoint_threshold(values[:-1], values[1:]):
        left = x <= t
        table = np.stack([np.bincount(y[left], minlength=n_classes),
                          np.bincount(y[~left], minlength=n_classes)])
        g = gini_index(table, check=False)
        if g < best_g:
            best_t, best_g = float(t), float(g)
    return best_t, best_g
