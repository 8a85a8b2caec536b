"""Error-based pruning: the confidence limit, Quinlan's 16-case example, subtree raising.

Published numbers: Quinlan (1993), ch. 4 — a subtree of 16 training cases with leaves of
6, 9 and 1 cases and no errors has estimated errors 6 × 0.206 + 9 × 0.143 + 1 × 0.750 =
3.273; as a leaf (1 error in 16) 16 × 0.157 = 2.512, so it is replaced by the leaf.
C4.5's code (stats.c) interpolates z = 0.6925 at CF = 0.25 from its table; the exact
normal quantile is 0.6745, and only the table reproduces U(1, 16) = 0.157.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treebook import C45Classifier
from treebook.prune.error_based import (
    CF_TABLE,
    Z_TABLE,
    added_errors,
    confidence_z,
    estimated_errors,
    prune_error_based,
    upper_error_rate,
)
from treebook.core.tree import NodeKind, TreeBuilder


# ----------------------------------------------------------------------------- z
def test_z_from_the_table_and_from_the_normal_quantile():
    assert confidence_z(0.25, "table") == pytest.approx(0.84 + (0.25 - 0.84) * 0.05 / 0.20)
    assert confidence_z(0.25, "table") == pytest.approx(0.6925, abs=1e-12)
    assert confidence_z(0.25, "normal") == pytest.approx(0.6744897501960817, abs=1e-12)
    for cf, z in zip(CF_TABLE[1:6], Z_TABLE[1:6]):   # the grid points themselves
        assert confidence_z(cf, "table") == pytest.approx(z, abs=1e-12)
    # the table is a coarse copy of the normal quantiles
    for cf in (0.01, 0.05, 0.10, 0.20):
        assert confidence_z(cf, "table") == pytest.approx(
            NormalDist().inv_cdf(1 - cf), abs=0.01)


@pytest.mark.parametrize("bad", [0.0, -0.1, 0.6, 1.0])
def test_confidence_outside_range_is_rejected(bad):
    with pytest.raises(ValueError, match="confidence"):
        confidence_z(bad)
    with pytest.raises(ValueError, match="confidence"):
        added_errors(10, 1, bad)


def test_z_source_is_checked():
    with pytest.raises(ValueError, match="z_source"):
        confidence_z(0.25, "exact")


# ----------------------------------------------------------------------------- U_CF
@pytest.mark.parametrize("z_source", ["normal", "table"])
def test_upper_limit_solves_the_quadratic(z_source):
    z = confidence_z(0.25, z_source)
    for n, e in [(16, 1), (20, 3), (100, 10), (7.5, 2.25)]:
        u = upper_error_rate(n, e, 0.25, z_source)
        f = (e + 0.5) / n
        assert (f - u) ** 2 == pytest.approx(z * z * u * (1 - u) / n, rel=1e-10)
        assert u > f


def test_zero_errors_use_the_exact_binomial_limit():
    for n in (1, 6, 9, 16, 40):
        # P(0 errors | U) = (1 - U)^n = CF  <=>  U = 1 - CF^(1/n)
        assert upper_error_rate(n, 0) == pytest.approx(1 - 0.25 ** (1 / n), abs=1e-15)
        assert (1 - upper_error_rate(n, 0)) ** n == pytest.approx(0.25)


def test_fractional_errors_below_one_interpolate_linearly():
    base, one = added_errors(10, 0.0), added_errors(10, 1.0)
    assert added_errors(10, 0.4) == pytest.approx(base + 0.4 * (one - base))


def test_the_high_end_differs_between_c45_and_j48():
    # E + 1/2 >= N: J48 adds N - E, C4.5 0.67 (N - E)
    assert added_errors(3.0, 2.6, z_source="normal") == pytest.approx(0.4)
    assert added_errors(3.0, 2.6, z_source="table") == pytest.approx(0.67 * 0.4)


def test_added_errors_broadcasts_and_checks_input():
    out = added_errors(np.array([6, 9, 1]), 0)
    assert out.shape == (3,)
    with pytest.raises(ValueError, match="n must be positive"):
        added_errors(0, 0)
    with pytest.raises(ValueError, match="errors"):
        added_errors(5, 6)


def test_quinlan_16_case_example_numbers():
    n_leaf = [6, 9, 1]
    u = [upper_error_rate(n, 0) for n in n_leaf]
    assert [round(x, 3) for x in u] == [0.206, 0.143, 0.750]        # Quinlan (1993), ch. 4
    subtree = sum(n * x for n, x in zip(n_leaf, u))
    assert round(subtree, 3) == 3.273
    u_table = upper_error_rate(16, 1, z_source="table")
    u_normal = upper_error_rate(16, 1, z_source="normal")
    assert round(u_table, 3) == 0.157                                # the book's value …
    assert round(u_normal, 3) == 0.155                               # … not the exact z's
    assert 16 * 0.157 == pytest.approx(2.512)
    assert estimated_errors(16, 1, z_source="table") == pytest.approx(16 * u_table)


# ----------------------------------------------------------------------------- trees
def _quinlan_subtree():
    """education spending: n → democrat (6), y → democrat (9), u → republican (1)."""
    b = TreeBuilder()
    r = b.add_node(-1, [15, 1], 16, 16, 0.0)
    b.set_split(r, 0, NodeKind.MULTIWAY, branch_of_code=[0, 1, 2])
    for counts in ([6, 0], [9, 0], [0, 1]):
        b.add_node(r, counts, sum(counts), sum(counts), 0.0)
    return b.build(feature_names=("education spending",),
                   categories=(np.array(["n", "y", "u"], dtype=object),),
                   classes=np.array(["democrat", "republican"], dtype=object))


@pytest.mark.parametrize("z_source", ["normal", "table"])
def test_quinlan_subtree_is_replaced_by_a_leaf(z_source):
    tree = _quinlan_subtree()
    pruned = prune_error_based(tree, subtree_raising=False, z_source=z_source)
    assert pruned.node_count == 1
    np.testing.assert_array_equal(pruned.value[0], [15, 1])


def test_a_useful_split_is_kept():
    b = TreeBuilder()
    r = b.add_node(-1, [50, 50], 100, 100, 1.0)
    b.set_split(r, 0, NodeKind.THRESHOLD, 0.5)
    b.add_node(r, [50, 0], 50, 50, 0.0)
    b.add_node(r, [0, 50], 50, 50, 0.0)
    tree = b.build()
    assert prune_error_based(tree, subtree_raising=False).node_count == 3


def _raising_case():
    """Root tests A (20 vs 4 cases); both branches then test B, which decides the class."""
    A = np.r_[np.zeros(20), np.ones(4)]
    B = np.r_[np.zeros(10), np.ones(10), [0, 0, 1, 1]]
    X = np.c_[A, B]
    y = B.astype(int)
    b = TreeBuilder()
    r = b.add_node(-1, [12, 12], 24, 24, 1.0)
    b.set_split(r, 0, NodeKind.THRESHOLD, 0.0)
    left = b.add_node(r, [10, 10], 20, 20, 1.0)
    b.set_split(left, 1, NodeKind.THRESHOLD, 0.0)
    b.add_node(left, [10, 0], 10, 10, 0.0)
    b.add_node(left, [0, 10], 10, 10, 0.0)
    right = b.add_node(r, [2, 2], 4, 4, 1.0)
    b.set_split(right, 1, NodeKind.THRESHOLD, 0.0)
    b.add_node(right, [2, 0], 2, 2, 0.0)
    b.add_node(right, [0, 2], 2, 2, 0.0)
    return b.build(feature_names=("A", "B")), X, y


def test_subtree_raising_by_hand():
    tree, X, y = _raising_case()
    # without raising every test stays: the subtree's 2.59 + 2.00 estimated errors beat
    # the root as a leaf (12 errors in 24) and each branch beats its own leaf
    assert prune_error_based(tree, X, y, subtree_raising=False).node_count == 7
    # raising: sending all 24 cases down the larger branch (the test on B) gives leaves
    # of 12 and 12 with no errors, 2 · 12 (1 - 0.25^(1/12)) = 2.62 <= 4.59 + 0.1
    tree_errors = 2 * 10 * (1 - 0.25 ** (1 / 10)) + 2 * 2 * (1 - 0.25 ** (1 / 2))
    branch_errors = 2 * 12 * (1 - 0.25 ** (1 / 12))
    assert branch_errors <= tree_errors + 0.1
    raised = prune_error_based(tree, X, y)
    assert raised.node_count == 3 and raised.feature[0] == 1
    np.testing.assert_array_equal(raised.value, [[12, 12], [12, 0], [0, 12]])
    np.testing.assert_array_equal(raised.n_samples, [24, 12, 12])


def test_raising_needs_the_training_data():
    tree, X, y = _raising_case()
    with pytest.raises(ValueError, match="pass X and y"):
        prune_error_based(tree)
    with pytest.raises(ValueError, match="reproduce"):
        prune_error_based(tree, X[:20], y[:20])
    with pytest.raises(ValueError, match="class codes"):
        prune_error_based(tree, X, y + 5)
    with pytest.raises(TypeError, match="Tree"):
        prune_error_based("tree")


# ----------------------------------------------------------------------------- properties
def _reference_without_raising(tree, cf, z_source):
    """Bottom-up subtree replacement written directly on the arrays."""
    leaf = np.zeros(tree.node_count, bool)

    def est(i):
        n = tree.weighted_n[i]
        return 0.0 if n <= 0 else estimated_errors(n, n - tree.value[i].max(), cf, z_source)

    def visit(i):
        if tree.kind[i] == NodeKind.LEAF:
            return est(i)
        sub = sum(visit(c) for c in tree.children_of(i))
        if est(i) <= sub + 0.1 + 1e-6:
            leaf[i] = True
            return est(i)
        return sub

    visit(0)
    return tree.prune(leaf)


frames = st.integers(min_value=8, max_value=60).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from(["a", "b", "c", None]), min_size=n, max_size=n),
    st.lists(st.one_of(st.none(), st.integers(0, 9)), min_size=n, max_size=n),
    st.lists(st.sampled_from([0, 1, 2]), min_size=n, max_size=n)))


def _fit_unpruned(data):
    cat, num, y = data
    cat[0] = cat[0] or "a"
    num[0] = 0 if num[0] is None else num[0]
    X = pd.DataFrame({"cat": pd.Series(cat, dtype=object),
                      "num": [np.nan if v is None else float(v) for v in num]})
    clf = C45Classifier(min_samples_leaf=1, pruning=None, mdl_correction=False).fit(X, y)
    return clf, clf.encoder_.transform(X, allow_missing=True), np.searchsorted(clf.classes_, y)


@settings(max_examples=60, deadline=None)
@given(frames, st.sampled_from([0.05, 0.25, 0.5]), st.sampled_from(["normal", "table"]))
def test_replacement_matches_a_direct_reference(data, cf, z_source):
    clf, _, _ = _fit_unpruned(data)
    ours = prune_error_based(clf.tree_, confidence=cf, subtree_raising=False, z_source=z_source)
    ref = _reference_without_raising(clf.tree_, cf, z_source)
    np.testing.assert_array_equal(ours.kind, ref.kind)
    np.testing.assert_array_equal(ours.feature, ref.feature)
    np.testing.assert_allclose(ours.value, ref.value)


@settings(max_examples=60, deadline=None)
@given(frames)
def test_raised_trees_hold_the_counts_of_their_training_cases(data):
    clf, Xe, yc = _fit_unpruned(data)
    pruned = prune_error_based(clf.tree_, Xe, yc)
    assert pruned.node_count <= clf.tree_.node_count
    # every leaf's class counts are the training cases routed to it (fractionally)
    rows, nodes, w = pruned.route(Xe, missing="distribute")
    counts = np.zeros_like(pruned.value)
    np.add.at(counts, (nodes, yc[rows]), w)
    leaves = pruned.is_leaf
    np.testing.assert_allclose(counts[leaves], pruned.value[leaves], atol=1e-9)
