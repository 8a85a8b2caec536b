"""The recursive grower: stopping rules, attribute use, missing values, regression, depth."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tree_invariants import assert_tree_invariants
from treebook.core import impurity as imp
from treebook.growers.recursive import grow_tree, node_counts
from treebook.id3 import id3_split_finder
from treebook.core.splits import Split
from treebook.core.tree import NodeKind


def random_table(seed, n=60, m=4, levels=3, classes=3):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, levels, size=(n, m)).astype(float)
    y = rng.integers(0, classes, size=n)
    return X, y


def grow_id3(X, y, w=None, **kw):
    n_cat = [int(np.nanmax(X[:, j])) + 1 for j in range(X.shape[1])]
    k = int(y.max()) + 1
    return grow_tree(X, y, np.ones(len(y)) if w is None else w,
                     find_split=id3_split_finder(n_cat, k), n_classes=k, **kw)


def split_gain(tree, node):
    return imp.information_gain(tree.value[tree.children_of(node)])


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 4))
def test_max_depth_is_respected_and_equals_truncation(seed, depth):
    X, y = random_table(seed)
    full = grow_id3(X, y)
    cut = grow_id3(X, y, max_depth=depth)
    assert_tree_invariants(cut)
    assert cut.max_depth <= depth
    same = full.truncate(depth)
    assert same.node_count == cut.node_count
    assert np.array_equal(same.feature, cut.feature) and np.allclose(same.value, cut.value)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 30))
def test_min_samples_split(seed, m):
    X, y = random_table(seed)
    t = grow_id3(X, y, min_samples_split=m)
    assert_tree_invariants(t)
    internal = t.kind != NodeKind.LEAF
    assert np.all(t.n_samples[internal] >= m)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([0.0, 0.05, 0.2, 0.5]))
def test_every_split_clears_min_gain_and_uses_an_attribute_once_per_path(seed, eps):
    X, y = random_table(seed)
    t = grow_id3(X, y, min_gain=eps)
    assert_tree_invariants(t)
    for node in np.flatnonzero(t.kind != NodeKind.LEAF):
        assert split_gain(t, node) >= eps - 1e-12
        # a multiway attribute never reappears below itself
        a = t.parent[node]
        while a >= 0:
            assert t.feature[a] != t.feature[node]
            a = t.parent[a]


def test_min_gain_stops_a_split_the_default_makes():
    # XOR: zero gain at the root for both features, yet two levels classify perfectly
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    y = np.array([0, 1, 1, 0])
    assert grow_id3(X, y).n_leaves == 4
    assert grow_id3(X, y, min_gain=1e-5).n_leaves == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_leaves_are_pure_or_have_nothing_left_to_ask(seed):
    X, y = random_table(seed, n=80, m=3, levels=2)
    t = grow_id3(X, y)
    internal = t.kind != NodeKind.LEAF
    assert np.all(np.count_nonzero(t.value[internal], axis=1) >= 2), "a pure node was split"
    end = t.apply(X)
    for leaf in np.flatnonzero(~internal):
        if np.count_nonzero(t.value[leaf]) <= 1:
            continue
        used, a = set(), t.parent[leaf]
        while a >= 0:
            used.add(int(t.feature[a]))
            a = t.parent[a]
        rows = end == leaf
        for f in set(range(X.shape[1])) - used:
            assert np.unique(X[rows, f]).size == 1, "an impure leaf could still be split"
    # a single attribute can be used once: depth at most 1
    assert grow_id3(X[:, :1], y).max_depth <= 1


def test_available_mask_and_weights():
    X, y = random_table(5)
    t = grow_id3(X, y, available=np.array([False, True, True, False]))
    used = set(t.feature[t.feature >= 0].tolist())
    assert used <= {1, 2}
    # integer weights act like repeated rows
    w = np.random.default_rng(1).integers(1, 4, size=len(y)).astype(float)
    weighted = grow_id3(X, y, w=w)
    rep = np.repeat(np.arange(len(y)), w.astype(int))
    repeated = grow_id3(X[rep], y[rep])
    assert np.array_equal(weighted.feature, repeated.feature)
    assert np.allclose(weighted.value, repeated.value)
    # zero-weight rows do not count as samples
    w0 = np.ones(len(y))
    w0[:10] = 0
    t0 = grow_id3(X, y, w=w0)
    assert t0.n_samples[0] == len(y) - 10 and np.isclose(t0.weighted_n[0], len(y) - 10)


def test_missing_values_error_or_distribute():
    X, y = random_table(7, n=40, m=2, levels=2, classes=2)
    X[::5, 0] = np.nan
    with pytest.raises(ValueError, match="missing"):
        grow_id3(X, y, missing="error")
    t = grow_id3(X, y, missing="distribute")
    assert_tree_invariants(t, exact_samples=False)
    assert np.isclose(t.weighted_n[0], 40)
    with pytest.raises(ValueError, match="missing must be"):
        grow_id3(X, y, missing="ignore")


def _threshold_finder(X, y, w, rows, available):
    """Always cut off the smallest value: a chain as deep as the data are long."""
    if rows.size < 2:
        return None
    x = X[rows, 0]
    return Split(feature=0, kind=NodeKind.THRESHOLD, score=1.0, threshold=float(x.min()))


def test_deep_chain_needs_no_recursion():
    n = 1500  # deeper than Python's default recursion limit of 1000
    X = np.arange(n, dtype=float)[:, None]
    y = np.arange(n) % 2
    t = grow_tree(X, y, np.ones(n), find_split=_threshold_finder, n_classes=2)
    assert t.max_depth == n - 1 and t.n_leaves == n


def test_a_split_that_separates_nothing_leaves_a_leaf():
    X = np.zeros((6, 1))
    y = np.array([0, 1, 0, 1, 0, 1])

    def useless(X, y, w, rows, available):
        return Split(feature=0, kind=NodeKind.THRESHOLD, score=1.0, threshold=1.0)

    t = grow_tree(X, y, np.ones(6), find_split=useless, n_classes=2)
    assert t.node_count == 1


def test_regression_growth():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(50, 1)).astype(float)
    yv = np.where(X[:, 0] == 0, 1.0, 5.0) + 0.0

    def finder(X, y, w, rows, available):
        return Split(feature=0, kind=NodeKind.THRESHOLD, score=1.0, threshold=0.5)

    t = grow_tree(X, yv, np.ones(50), find_split=finder, n_classes=0)
    assert_tree_invariants(t)
    assert t.is_regression and t.node_count == 3
    assert sorted(t.value[1:, 0].tolist()) == [1.0, 5.0]
    assert np.all(t.impurity[1:] == 0)        # children are pure: zero variance
    assert np.isclose(t.value[0, 0], yv.mean())


def test_node_counts_is_a_weighted_bincount():
    assert node_counts(np.array([0, 2, 2]), np.array([1.0, 0.5, 2.0]), 4).tolist() == \
        [1.0, 0.0, 2.5, 0.0]
