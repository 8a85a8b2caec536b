"""Independent references for the CART tests: brute-force split search and a tie-aware
walk of a treebook tree against a scikit-learn tree.

Nothing here imports treebook's split code: costs are computed from the rows with plain
numpy sums, the way a reader would check a split by hand.
"""

from __future__ import annotations

import itertools

import numpy as np

from treebook.core.tree import NodeKind

FEATURE_THRESHOLD = 1e-7


def side_cost(y, w, criterion):
    """``|D_v| · I(D_v)`` of one side (weighted), ``I`` = gini, entropy (bits) or variance."""
    W = w.sum()
    if W == 0:
        return 0.0
    if criterion == "squared_error":
        mean = (w * y).sum() / W
        return float((w * (y - mean) ** 2).sum())
    p = np.array([w[y == k].sum() for k in np.unique(y)]) / W
    if criterion == "gini":
        return float(W * (1.0 - (p * p).sum()))
    p = p[p > 0]
    return float(-W * (p * np.log2(p)).sum())


def split_cost(y, w, left, criterion):
    """Weighted impurity of the two children, ``Σ_v |D_v|/|D| · I(D_v)``."""
    return (side_cost(y[left], w[left], criterion)
            + side_cost(y[~left], w[~left], criterion)) / w.sum()


def brute_force_threshold_costs(X, y, w, criterion, min_samples_leaf=1):
    """Every admissible cut ``(feature, threshold, cost)`` of a node, by masks."""
    out = []
    for f in range(X.shape[1]):
        vals = np.unique(X[:, f])
        for a, b in zip(vals[:-1], vals[1:]):
            if not b > a + FEATURE_THRESHOLD:
                continue
            left = X[:, f] <= a
            if left.sum() < min_samples_leaf or (~left).sum() < min_samples_leaf:
                continue
            out.append((f, (a, b), split_cost(y, w, left, criterion)))
    return out


def brute_force_subset_costs(codes, y, w, criterion, min_samples_leaf=1):
    """Every binary partition of the categories present, ``(left set, cost)``."""
    present = np.unique(codes)
    out = []
    for r in range(1, len(present)):
        for left_set in itertools.combinations(present, r):
            if present[-1] in left_set:  # each partition once: last category on the right
                continue
            left = np.isin(codes, left_set)
            if left.sum() < min_samples_leaf or (~left).sum() < min_samples_leaf:
                continue
            out.append((frozenset(int(c) for c in left_set), split_cost(y, w, left, criterion)))
    return out


def node_rows(tree, X):
    """For each node, the training rows that reach it (by routing with the tree's tests)."""
    rows = {0: np.arange(X.shape[0])}
    for i in range(tree.node_count):
        if tree.kind[i] == NodeKind.LEAF:
            continue
        r = rows[i]
        x = X[r, tree.feature[i]]
        if tree.kind[i] == NodeKind.THRESHOLD:
            right = x > tree.threshold[i]
        else:
            right = tree.codes_of(i)[x.astype(np.int64)] == 1
        left_child, right_child = tree.children_of(i)
        rows[left_child], rows[right_child] = r[~right], r[right]
    return rows


def walk_against_sklearn(ours, sk_tree, X, y, w, criterion, *, pure_rounding=False):
    """Walk a treebook tree and a scikit-learn ``tree_`` together from the root.

    At a node both split the same way (same rows left) the walk checks the leaf/split
    status, row counts, weights, value and — on the same feature — the exact threshold,
    and goes on into both children. Where the two trees send different rows left, both
    splits must cost the same (a tie broken differently: scikit-learn by a random feature
    order, treebook by column order), and the walk stops there.

    ``pure_rounding=True`` (fractional weights) also accepts one known difference: for a
    pure node scikit-learn computes ``1 - Σ C_k²/|D|²``, which can round to a few times
    ``1e-16`` — above its ``eps`` — and then splits the pure node with zero gain, where
    treebook's ``1 - Σ p_k²`` is exactly 0 and the node is a leaf.

    Returns ``(nodes_compared, ties)``; raises AssertionError on any real difference.
    """
    t = sk_tree
    # impurities are summed in another order: compare to a tolerance on the data's scale
    imp_atol = 1e-12 if not ours.is_regression else 1e-9 * float(np.var(y))
    stack = [(0, 0, np.arange(X.shape[0]))]
    compared = ties = 0
    while stack:
        i, j, rows = stack.pop()
        compared += 1
        o_leaf = ours.kind[i] == NodeKind.LEAF
        s_leaf = t.children_left[j] == -1
        if pure_rounding and o_leaf and not s_leaf and ours.impurity[i] == 0.0:
            assert 0.0 < t.impurity[j] <= 1e-12
            continue
        assert o_leaf == s_leaf, f"node {i} (sklearn {j}): leaf {o_leaf} vs {s_leaf}"
        assert ours.n_samples[i] == t.n_node_samples[j]
        assert np.isclose(ours.weighted_n[i], t.weighted_n_node_samples[j], rtol=1e-12)
        if ours.is_regression:
            assert np.isclose(ours.value[i, 0], t.value[j, 0, 0], rtol=1e-10, atol=1e-12)
        else:
            frac = ours.value[i] / ours.value[i].sum()
            assert np.allclose(frac, t.value[j, 0] / t.value[j, 0].sum(), rtol=1e-12, atol=1e-15)
        assert np.isclose(ours.impurity[i], t.impurity[j], rtol=1e-9, atol=imp_atol)
        if o_leaf:
            continue
        lo = X[rows, ours.feature[i]] <= ours.threshold[i]
        ls = X[rows, t.feature[j]] <= t.threshold[j]
        if np.array_equal(lo, ls):
            if ours.feature[i] == t.feature[j]:
                assert ours.threshold[i] == t.threshold[j], (i, ours.threshold[i], t.threshold[j])
            left_child, right_child = ours.children_of(i)
            stack.append((left_child, t.children_left[j], rows[lo]))
            stack.append((right_child, t.children_right[j], rows[~lo]))
        else:
            a = split_cost(y[rows], w[rows], lo, criterion)
            b = split_cost(y[rows], w[rows], ls, criterion)
            assert np.isclose(a, b, rtol=1e-10, atol=1e-12), f"node {i}: {a} vs sklearn {b}"
            ties += 1
    return compared, ties
