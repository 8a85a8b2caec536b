"""The level-wise grower builds the recursive grower's tree; the fast walk finds its leaves.

The recursive grower is the textbook algorithm (chapter 2's ``grow_tree`` with CART's
split finder); the level-wise grower scores all nodes of a depth from presorted attribute
lists. The two trees must be identical array for array (values, dtypes, node order),
ties included: with integer weights every count is an exact integer in both, and with
fractional weights or in regression the level-wise scan adds each node's numbers from
zero in the recursive grower's order, so every score rounds alike (issue 23).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_diabetes, load_iris, make_classification

from tree_invariants import assert_tree_invariants
from treebook import CARTClassifier, CARTRegressor
from treebook.growers.cart_search import grow_cart
from treebook.growers.levelwise import apply_binary, grow_levelwise

FIELDS = ("kind", "feature", "threshold", "children_ptr", "children", "code_ptr",
          "branch_of_code", "parent", "depth", "value", "weighted_n", "n_samples", "impurity")


def assert_identical(a, b):
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype, (name, x.dtype, y.dtype)
        assert np.array_equal(x, y, equal_nan=True), name
    assert a.is_regression == b.is_regression and a.extra == b.extra
    assert a.feature_names == b.feature_names


def both(X, y, w, **params):
    rec = grow_cart(X, y, w, grower="recursive", **params)
    lev = grow_cart(X, y, w, grower="levelwise", **params)
    return rec, lev


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(2, 4), st.sampled_from(["gini", "entropy"]),
       st.integers(1, 4), st.sampled_from([None, 2, 4]), st.sampled_from([0.0, 0.01]),
       st.sampled_from([2, 6]))
def test_growers_identical_with_integer_weights(seed, n_classes, criterion, msl, depth,
                                                 mid, mss):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 120))
    m = int(rng.integers(1, 5))
    # few distinct values: ties between cuts and features everywhere
    X = rng.integers(0, 5, size=(n, m)).astype(float) * rng.choice([1.0, 0.3, -2.5])
    y = rng.integers(0, n_classes, size=n)
    w = rng.integers(0, 4, size=n).astype(float)
    if w.sum() == 0:
        w[0] = 1.0
    rec, lev = both(X, y, w, n_classes=n_classes, criterion=criterion, max_depth=depth,
                    min_samples_leaf=msl, min_samples_split=mss, min_impurity_decrease=mid,
                    metadata={"feature_names": tuple(f"x{j}" for j in range(m))})
    assert_identical(rec, lev)
    assert_tree_invariants(lev)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from([0, 2, 3, 9]), st.booleans(),
       st.sampled_from(["numpy", "compiled"]))
def test_growers_identical_with_fractional_weights_and_in_regression(seed, n_classes,
                                                                     weighted, engine):
    """Fractional weights or regression, on data full of ties (few distinct values,
    duplicated columns: two features that cut a node's rows alike tie within rounding):
    the same tree, bit for bit, with either engine."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 300))
    X = np.round(rng.normal(size=(n, 3)), 1)
    X = np.concatenate([X, X[:, :1] * 3.0], axis=1)  # cuts the rows column 0 cuts
    w = rng.uniform(0.1, 2.0, size=n) if weighted else np.ones(n)
    if n_classes == 0:
        y = X[:, 0] ** 2 + np.round(rng.normal(size=n), 2) / 3.0
        params = dict(n_classes=0, criterion="squared_error")
    else:
        y = (rng.integers(0, n_classes, size=n) + (X[:, 0] > 0)) % n_classes
        params = dict(n_classes=n_classes, criterion="gini")
    rec = grow_cart(X, y, w, grower="recursive", **params)
    lev = grow_levelwise(X, y, w, engine=engine, **params)
    assert_identical(rec, lev)


@pytest.mark.parametrize("case", ["fractional", "regression"])
def test_every_node_equal_on_a_fully_grown_10k_row_tree(case):
    """Issue 23: one running sum over the whole attribute list (minus an offset per node)
    made the level-wise grower choose other features than the recursive one in small
    nodes deep in fully grown trees (pre-order node 949 of such a tree with fractional
    weights, 9,416 in regression). Every node's feature, threshold and counts must be the
    recursive grower's."""
    rng = np.random.default_rng(23)
    n = 10_000
    # values on grids (ties inside nodes); the old scan chose another feature than the
    # recursive grower in this regression tree
    X = np.stack([np.round(rng.normal(size=n), 2), np.round(rng.normal(size=n), 1),
                  np.round(rng.normal(size=n), 2)], axis=1)
    w = rng.uniform(0.2, 2.0, size=n)
    if case == "regression":
        y = X[:, 0] ** 2 + np.sin(3 * X[:, 1]) + rng.normal(size=n)
        params = dict(n_classes=0, criterion="squared_error")
    else:
        y = (rng.integers(0, 3, size=n) + (X[:, 0] > 0)) % 3
        params = dict(n_classes=3, criterion="gini")
    rec, lev = both(X, y, w, **params)
    assert rec.node_count > 1000  # fully grown: small nodes at the bottom
    for name in ("feature", "threshold", "children", "n_samples", "weighted_n", "value"):
        assert np.array_equal(getattr(rec, name), getattr(lev, name), equal_nan=True), name
    assert_identical(rec, lev)


@pytest.mark.parametrize("params", [{}, {"criterion": "entropy"}, {"max_depth": 3},
                                    {"min_samples_leaf": 5, "min_impurity_decrease": 0.01}])
def test_estimator_growers_identical_on_iris(params):
    X, y = load_iris(return_X_y=True)
    a = CARTClassifier(grower="recursive", **params).fit(X, y).tree_
    b = CARTClassifier(grower="levelwise", **params).fit(X, y).tree_
    assert_identical(a, b)
    assert_identical(CARTClassifier(**params).fit(X, y).tree_, b)  # "auto" is level-wise


def test_estimator_growers_identical_on_make_classification():
    X, y = make_classification(n_samples=3000, n_features=6, n_informative=4,
                               random_state=0)
    assert_identical(CARTClassifier(grower="recursive").fit(X, y).tree_,
                     CARTClassifier(grower="levelwise").fit(X, y).tree_)


def test_regression_growers_agree_on_diabetes():
    X, y = load_diabetes(return_X_y=True)
    a = CARTRegressor(grower="recursive", min_samples_leaf=3).fit(X, y).tree_
    b = CARTRegressor(grower="levelwise", min_samples_leaf=3).fit(X, y).tree_
    for name in ("kind", "feature", "threshold", "children", "n_samples"):
        assert np.array_equal(getattr(a, name), getattr(b, name), equal_nan=True), name
    assert np.array_equal(a.value, b.value) and np.array_equal(a.impurity, b.impurity)


def test_close_values_follow_the_1e_7_rule_at_every_node():
    """Three values 0, 0.6e-7, 1.2e-7: no cut at the root (each gap <= 1e-7), but a node
    holding only 0 and 1.2e-7 may cut between them (gap > 1e-7). Both growers agree."""
    x = np.array([0.0, 0.6e-7, 1.2e-7, 0.0, 1.2e-7, 5.0, 5.0, 0.6e-7])
    z = np.array([0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0])  # sends the 0.6e-7 rows away
    X = np.stack([z, x], axis=1)
    y = np.array([0, 1, 1, 0, 1, 0, 1, 1])
    w = np.ones(8)
    rec, lev = both(X, y, w, n_classes=2, criterion="gini")
    assert_identical(rec, lev)
    cuts = lev.threshold[lev.feature == 1]
    assert np.any(np.isclose(cuts, 0.6e-7, rtol=0, atol=1e-12))  # between 0 and 1.2e-7


def test_level_wise_grower_rejects_what_it_cannot_grow():
    X = np.array([[0.0, np.nan], [1.0, 2.0]])
    with pytest.raises(ValueError, match="finite"):
        grow_levelwise(X, np.array([0, 1]), np.ones(2), n_classes=2)
    with pytest.raises(ValueError, match="criterion"):
        grow_levelwise(np.ones((2, 1)), np.array([0, 1]), np.ones(2), n_classes=2,
                       criterion="no_such_criterion")
    with pytest.raises(ValueError, match="criterion"):
        grow_levelwise(np.ones((2, 1)), np.array([0.0, 1.0]), np.ones(2), n_classes=0,
                       criterion="gini")


def test_single_row_and_constant_data():
    t = grow_levelwise(np.zeros((1, 2)), np.array([1]), np.ones(1), n_classes=2)
    assert t.node_count == 1 and list(t.value[0]) == [0.0, 1.0]
    t = grow_levelwise(np.zeros((5, 2)), np.array([0, 1, 0, 1, 0]), np.ones(5), n_classes=2)
    assert t.node_count == 1  # nothing to cut between


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 5))
def test_fast_walk_equals_the_general_walk(seed, steps):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(300, 4)).round(1)
    y = rng.integers(0, 3, size=300)
    tree = CARTClassifier(max_depth=int(rng.integers(1, 12))).fit(X, y).tree_
    Xt = rng.normal(size=(500, 4)).round(1)
    assert np.array_equal(apply_binary(tree, Xt, steps=steps), tree.apply(Xt))


def test_estimator_prediction_uses_the_same_leaves():
    X, y = make_classification(n_samples=2000, n_features=5, random_state=4)
    model = CARTClassifier(max_depth=8).fit(X, y)
    leaf = model.tree_.apply(X)
    assert np.array_equal(model.apply(X), leaf)
    proba = model.tree_.value[leaf] / model.tree_.value[leaf].sum(axis=1, keepdims=True)
    assert np.allclose(model.predict_proba(X), proba)
    assert np.array_equal(model.predict(X), model.classes_[np.argmax(proba, axis=1)])
