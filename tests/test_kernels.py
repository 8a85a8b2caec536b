"""The compiled kernels build the numpy reference's trees, bit for bit, on every shape.

:mod:`treebook.kernels.cart` re-writes three inner loops of the level-wise grower (the scan of
one attribute list, its partition, the prediction walk) as compiled loops; the numpy
versions (``engine="numpy"``, :func:`treebook.core.tree.apply_binary`) stay the definition.
Both add the same numbers in the same order, so every array of the tree must be equal:
two and K classes, regression, fractional weights, ``max_features``, ``min_samples_leaf``,
``min_weight_fraction_leaf``, and categorical columns (where the level-wise grower must
also equal the recursive grower, which searches the same subsets).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tree_invariants import assert_tree_invariants
from treebook import CARTClassifier, CARTRegressor
from treebook.growers.subsets import MAX_EXHAUSTIVE_CATEGORIES, subset_candidates
from treebook.growers.cart_search import learn_candidates, grow_cart
from treebook.growers.levelwise import grow_levelwise
from treebook.core.tree import apply_binary

FIELDS = ("kind", "feature", "threshold", "children_ptr", "children", "code_ptr",
          "branch_of_code", "parent", "depth", "value", "weighted_n", "n_samples", "impurity")


def assert_identical(a, b):
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype, (name, x.dtype, y.dtype)
        assert x.shape == y.shape, (name, x.shape, y.shape)
        assert np.array_equal(x, y, equal_nan=True), name
    assert a.is_regression == b.is_regression


def _data(seed, shape, n):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    X[:, 1] = np.round(X[:, 1], 1)  # ties
    X[:, 3] = rng.integers(0, 3, size=n) * 1e-8  # values closer than 1e-7
    if shape == "regression":
        y = X[:, 0] ** 2 + rng.normal(size=n)
        return X, y, 0
    k = {"2 classes": 2, "5 classes": 5}[shape]
    y = (rng.integers(0, k, size=n) + (X[:, 0] > 0)) % k
    return X, y, k


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from(["2 classes", "5 classes", "regression"]),
       st.booleans(), st.sampled_from([1, 3]), st.sampled_from([None, 2]),
       st.sampled_from([0.0, 0.05]))
def test_compiled_engine_equals_numpy_reference(seed, shape, weighted, msl, max_features,
                                                mwl):
    X, y, k = _data(seed, shape, int(np.random.default_rng(seed).integers(5, 400)))
    w = (np.random.default_rng(seed + 1).uniform(0.1, 3.0, size=y.shape[0]) if weighted
         else np.ones(y.shape[0]))
    params = dict(n_classes=k, min_samples_leaf=msl, max_features=max_features, seed=seed,
                  min_weight_leaf=mwl * w.sum())
    a = grow_levelwise(X, y, w, engine="numpy", **params)
    b = grow_levelwise(X, y, w, engine="compiled", **params)
    assert_identical(a, b)
    assert_tree_invariants(b)


@pytest.mark.parametrize("criterion", ["entropy", "misclassification"])
def test_other_criteria_take_the_numpy_scan_with_compiled_partition(criterion):
    X, y, k = _data(3, "5 classes", 500)
    w = np.ones(500)
    assert_identical(grow_levelwise(X, y, w, n_classes=k, criterion=criterion, engine="numpy"),
                     grow_levelwise(X, y, w, n_classes=k, criterion=criterion))


def test_engine_is_checked():
    with pytest.raises(ValueError, match="engine"):
        grow_levelwise(np.ones((3, 1)), np.array([0, 1, 0]), np.ones(3), n_classes=2,
                       engine="fortran")


def _mixed(seed, n, k, n_cats=(3, 14)):
    """Two numeric columns and categorical columns of category codes."""
    rng = np.random.default_rng(seed)
    cols = [rng.normal(size=n), np.round(rng.normal(size=n), 1)]
    for L in n_cats:
        cols.append(rng.integers(0, L, size=n).astype(float))
    X = np.stack(cols, axis=1)
    signal = X[:, 0] + (X[:, 2] == 1) + 0.5 * (X[:, -1] % 3 == 0)
    if k == 0:
        y = signal + rng.normal(size=n)
    else:
        y = (np.floor(signal * 2).astype(np.int64) + rng.integers(0, 2, size=n)) % k
    categorical = np.array([False, False] + [True] * len(n_cats))
    return X, y, categorical, [0, 0, *n_cats]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from([0, 2, 3, 5]),
       st.sampled_from(["unit", "integer", "fractional"]), st.sampled_from([1, 4]),
       st.sampled_from([None, 2]), st.sampled_from([(3, 14), (5, 9), (2,)]))
@example(0, 0, "fractional", 1, None, (3, 14))  # a 2-row node where two features tie
def test_levelwise_with_categorical_columns_equals_recursive(seed, k, weights, msl,
                                                            max_features, n_cats):
    n = int(np.random.default_rng(seed).integers(10, 300))
    X, y, categorical, n_cat = _mixed(seed, n, k, n_cats)
    rng = np.random.default_rng(seed + 2)
    w = {"unit": np.ones(n), "integer": rng.integers(0, 3, size=n).astype(float),
         "fractional": rng.uniform(0.2, 2.0, size=n)}[weights]
    if w.sum() == 0:
        w[0] = 1.0
    params = dict(n_classes=k, criterion="squared_error" if k == 0 else "gini",
                  categorical=categorical, n_categories=n_cat, min_samples_leaf=msl,
                  max_features=max_features, seed=seed)
    rec = grow_cart(X, y, w, grower="recursive", **params)
    lev = grow_cart(X, y, w, grower="levelwise", **params)
    # every sum is the recursive grower's, added in its order: the trees are identical
    # with fractional weights and in regression too, where two features that cut a
    # small node's rows alike tie within rounding
    assert_identical(rec, lev)
    numpy = grow_levelwise(X, y, w, subset_split=subset_candidates, engine="numpy",
                           **params)
    assert_identical(numpy, lev)


def test_categorical_only_data_grow_levelwise():
    X, y, categorical, n_cat = _mixed(5, 400, 3)
    X, categorical, n_cat = X[:, 2:], categorical[2:], n_cat[2:]
    w = np.ones(400)
    params = dict(n_classes=3, criterion="gini", categorical=categorical, n_categories=n_cat)
    assert_identical(grow_cart(X, y, w, grower="recursive", **params),
                     grow_cart(X, y, w, grower="levelwise", **params))


def test_estimator_with_pandas_categories_takes_the_levelwise_grower():
    rng = np.random.default_rng(0)
    n = 600
    df = pd.DataFrame({"a": rng.normal(size=n),
                       "c": pd.Categorical(rng.choice(list("pqrstu"), size=n))})
    y = (df["a"] > 0).astype(int) ^ df["c"].isin(["p", "q"]).astype(int)
    a = CARTClassifier(grower="recursive").fit(df, y)
    b = CARTClassifier().fit(df, y)
    assert_identical(a.tree_, b.tree_)
    assert np.array_equal(a.predict(df), b.predict(df))
    r = CARTRegressor(max_depth=4).fit(df, df["a"] * 2 + y)
    assert (r.tree_.kind == 3).any()  # a SUBSET split


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_compiled_walk_equals_numpy_walk(seed):
    X, y, k = _data(seed, "2 classes", 300)
    tree = grow_levelwise(X, y, np.ones(300), n_classes=k, max_depth=6)
    Xt = np.random.default_rng(seed).normal(size=(257, 4))
    assert np.array_equal(tree.apply(Xt), apply_binary(tree, Xt))


def _route_apply(tree, X):
    rows, nodes, _ = tree.route(X, missing="stop")
    out = np.empty(X.shape[0], dtype=np.int64)
    out[rows] = nodes
    return out


def test_compiled_walk_equals_route_on_every_learner_with_missing_and_unseen_values():
    from treebook import C45Classifier, CLSClassifier, ID3Classifier
    from treebook.datasets import load_loan

    Xc, yc = load_loan(return_X_y=True)
    for est in (CARTClassifier(), ID3Classifier(), C45Classifier(), CLSClassifier()):
        tree = est.fit(Xc, yc).tree_
        X = np.asarray(est.encoder_.transform(Xc), dtype=float)
        rng = np.random.default_rng(0)
        X = np.vstack([X, X])
        X[rng.random(X.shape) < 0.2] = np.nan
        X[rng.random(X.shape) < 0.1] = 7.0  # a code no training case had
        X[rng.random(X.shape) < 0.05] = -0.5  # truncates to code 0, as numpy's astype
        assert np.array_equal(tree.apply(X), _route_apply(tree, X)), type(est).__name__
    X, y, k = _data(4, "2 classes", 300)
    tree = grow_levelwise(X, y, np.ones(300), n_classes=k)
    Xt = X.copy()
    Xt[::7, 0] = np.nan
    assert np.array_equal(tree.apply(Xt), _route_apply(tree, Xt))


# ------------------------------------------------------------------ missing values (NaN)
FIELDS_MISSING = FIELDS + ("missing_go",)


def _missing_go(tree):
    return (np.full(tree.node_count, -1, np.int64) if tree.missing_go is None
            else tree.missing_go)


def assert_identical_with_missing(a, b):
    assert_identical(a, b)
    assert np.array_equal(_missing_go(a), _missing_go(b))


def _with_nan(X, seed, frac):
    X = X.copy()
    X[np.random.default_rng(seed + 7).random(X.shape) < frac] = np.nan
    return X


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from(["2 classes", "5 classes", "regression"]),
       st.booleans(), st.sampled_from([1, 3]), st.sampled_from([None, 2]),
       st.sampled_from([0.0, 0.05]), st.sampled_from([0.05, 0.3, 0.7]))
def test_compiled_engine_equals_numpy_reference_with_missing_values(seed, shape, weighted,
                                                                    msl, max_features,
                                                                    mwl, frac):
    """missing="learn": both engines try the same candidates (missing rows right, left,
    known | missing) in the same order, with the same sums."""
    X, y, k = _data(seed, shape, int(np.random.default_rng(seed).integers(5, 400)))
    X = _with_nan(X, seed, frac)
    w = (np.random.default_rng(seed + 1).uniform(0.1, 3.0, size=y.shape[0]) if weighted
         else np.ones(y.shape[0]))
    params = dict(n_classes=k, min_samples_leaf=msl, max_features=max_features, seed=seed,
                  min_weight_leaf=mwl * w.sum(), missing="learn")
    a = grow_levelwise(X, y, w, engine="numpy", **params)
    b = grow_levelwise(X, y, w, engine="compiled", **params)
    assert_identical_with_missing(a, b)
    # the known | missing split has threshold +inf (scikit-learn's); the invariants ask
    # for a finite one, which any number above the known values would be
    assert_tree_invariants(replace(b, threshold=np.where(np.isinf(b.threshold), 1e300,
                                                         b.threshold)))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from([0, 2, 3, 5]),
       st.sampled_from(["unit", "integer", "fractional"]), st.sampled_from([1, 4]),
       st.sampled_from([None, 2]), st.sampled_from([(3, 14), (5, 9), (2,)]),
       st.sampled_from([0.05, 0.3]))
@example(3200, 0, "fractional", 1, None, (3, 14), 0.05)  # features tied within rounding
def test_levelwise_with_missing_values_equals_recursive(seed, k, weights, msl, max_features,
                                                        n_cats, frac):
    """missing="learn" on numeric and categorical columns with NaN: the level-wise tree
    is the recursive grower's (which equals scikit-learn, tests/test_missing_learn.py),
    and the compiled engine's is the numpy one's."""
    n = int(np.random.default_rng(seed).integers(10, 300))
    X, y, categorical, n_cat = _mixed(seed, n, k, n_cats)
    X = _with_nan(X, seed, frac)
    rng = np.random.default_rng(seed + 2)
    w = {"unit": np.ones(n), "integer": rng.integers(0, 3, size=n).astype(float),
         "fractional": rng.uniform(0.2, 2.0, size=n)}[weights]
    if w.sum() == 0:
        w[0] = 1.0
    params = dict(n_classes=k, criterion="squared_error" if k == 0 else "gini",
                  categorical=categorical, n_categories=n_cat, min_samples_leaf=msl,
                  max_features=max_features, seed=seed, missing="learn")
    rec = grow_cart(X, y, w, grower="recursive", **params)
    lev = grow_cart(X, y, w, grower="levelwise", **params)
    assert_identical_with_missing(rec, lev)  # fractional weights and regression too
    del params["missing"]
    numpy = grow_levelwise(X, y, w, subset_split=subset_candidates, engine="numpy",
                           missing="learn", learn_split=learn_candidates,
                           max_exhaustive_categories=MAX_EXHAUSTIVE_CATEGORIES, **params)
    assert_identical_with_missing(numpy, lev)


def test_nan_in_every_row_of_a_column_and_a_constant_known_part():
    """Edge cases of scikit-learn's rule: a column missing everywhere is never split on;
    a node whose known values are all equal skips the column (even the known | missing
    split); the +inf split sends the known rows left."""
    rng = np.random.default_rng(3)
    n = 200
    X = np.stack([np.full(n, np.nan), np.where(rng.random(n) < 0.5, np.nan, 1.0),
                  rng.normal(size=n)], axis=1)
    y = (np.isnan(X[:, 1]) ^ (rng.random(n) < 0.1)).astype(int)
    for engine in ("numpy", "compiled"):
        t = grow_levelwise(X, y, np.ones(n), n_classes=2, engine=engine, missing="learn")
        assert not np.any(t.feature == 0)
        assert not np.any(t.feature == 1)  # known part constant: column 1 is skipped
    X[:, 1] = np.where(np.isnan(X[:, 1]), np.nan, rng.normal(size=n))
    a = grow_levelwise(X, y, np.ones(n), n_classes=2, engine="numpy", missing="learn",
                       max_depth=1)
    b = grow_cart(X, y, np.ones(n), n_classes=2, criterion="gini", grower="recursive",
                  missing="learn", max_depth=1)
    assert_identical_with_missing(a, b)
    assert a.feature[0] == 1 and np.isinf(a.threshold[0]) and a.missing_go[0] == 1


def test_levelwise_refuses_nan_unless_learn():
    X = np.array([[0.0], [np.nan], [1.0], [2.0]])
    y = np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match="NaN only with missing='learn'"):
        grow_levelwise(X, y, np.ones(4), n_classes=2)
    with pytest.raises(ValueError, match="missing must be"):
        grow_levelwise(X, y, np.ones(4), n_classes=2, missing="surrogate")
    with pytest.raises(ValueError, match="no inf"):
        grow_levelwise(np.array([[0.0], [np.inf]]), y[:2], np.ones(2), n_classes=2,
                       missing="learn")
    with pytest.raises(ValueError, match="missing='learn'"):
        grow_cart(X, y, np.ones(4), n_classes=2, criterion="gini", grower="levelwise",
                  missing="surrogate")


def test_estimator_with_nan_takes_the_levelwise_grower():
    """grower="auto" grows data with NaN level by level under missing="learn": the same
    tree as grower="recursive", on a DataFrame with a categorical column too."""
    rng = np.random.default_rng(1)
    n = 800
    a = rng.normal(size=n)
    df = pd.DataFrame({"a": np.where(rng.random(n) < 0.2, np.nan, a),
                       "b": rng.normal(size=n),
                       "c": pd.Categorical(np.where(rng.random(n) < 0.15, None,
                                                    rng.choice(list("pqrs"), size=n)))})
    y = ((a > 0) ^ df["c"].isin(["p"]).to_numpy()).astype(int)
    rec = CARTClassifier(grower="recursive", min_samples_leaf=5).fit(df, y)
    auto = CARTClassifier(min_samples_leaf=5).fit(df, y)
    assert_identical_with_missing(rec.tree_, auto.tree_)
    assert (auto.tree_.missing_go[~auto.tree_.is_leaf] >= 0).all()
    Z = df.copy()
    Z.loc[::3, "b"] = np.nan
    assert np.array_equal(rec.predict_proba(Z), auto.predict_proba(Z))
