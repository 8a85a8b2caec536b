"""``missing="learn"``: CART equals scikit-learn 1.9's NaN routing (``_splitter.pyx``).

On float32-representable data (scikit-learn grows on float32 copies of X) with 10–30 %
NaN injected, and leaves large enough that no two candidate splits tie, both packages
grow the same tree: the same feature, threshold and side for missing values at every
node, the same values, and the same predictions on the training rows and on new rows
with NaN (including NaN at nodes that saw none in training).
"""

from __future__ import annotations

import numpy as np
import pytest
import sklearn
from sklearn.datasets import load_diabetes, load_breast_cancer, make_classification, make_regression
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from treebook import CARTClassifier, CARTRegressor

PARAMS = dict(min_samples_leaf=20, min_impurity_decrease=0.001)


def f32(X):
    return np.asarray(X, dtype=np.float32).astype(np.float64)


def inject(X, frac, seed):
    X = X.copy()
    X[np.random.default_rng(seed).random(X.shape) < frac] = np.nan
    return X


def assert_same_tree(ours, sk):
    t = sk.tree_
    assert ours.tree_.node_count == t.node_count
    o = ours.tree_
    internal = t.children_left >= 0
    assert np.array_equal(o.feature, np.where(internal, t.feature, -1))
    assert np.array_equal(o.threshold[internal], t.threshold[internal])
    # scikit-learn's missing_go_to_left (1: left) against treebook's missing_go (0: left)
    assert np.array_equal(o.missing_go[internal] == 0, t.missing_go_to_left[internal] == 1)
    assert np.array_equal(o.n_samples, t.n_node_samples)


def _classification(seed, frac):
    X, y = make_classification(n_samples=2000, n_features=8, n_informative=5, n_classes=3,
                               random_state=seed)
    return inject(f32(X), frac, seed), y


def _regression(seed, frac):
    X, y = make_regression(n_samples=1500, n_features=6, n_informative=4, noise=10.0,
                           random_state=seed)
    return inject(f32(X), frac, seed), y


#: breast cancer without the columns that are monotone in one another (radius, perimeter
#: and area cut the same rows, so their splits tie)
CANCER_COLUMNS = [1, 4, 8, 9, 11, 14, 18, 19, 21, 24]


def _breast_cancer(seed, frac):
    X, y = load_breast_cancer(return_X_y=True)
    return inject(f32(X[:, CANCER_COLUMNS]), frac, seed), y


def _diabetes(seed, frac):
    X, y = load_diabetes(return_X_y=True)
    return inject(f32(X), frac, seed), y


CASES = [(_classification, s, f, PARAMS) for s, f in [(0, 0.1), (1, 0.2), (2, 0.3)]] + \
        [(_breast_cancer, s, 0.15, dict(PARAMS, min_samples_leaf=25)) for s in (3, 4, 5)]
REG_CASES = [(_regression, s, f) for s, f in [(0, 0.1), (1, 0.2), (2, 0.3)]] + \
            [(_diabetes, 4, 0.1)]


def test_scikit_learn_version():
    assert sklearn.__version__.startswith("1.9")


@pytest.mark.parametrize("make, seed, frac, params", CASES)
def test_classifier_equals_sklearn_with_nan(make, seed, frac, params):
    X, y = make(seed, frac)
    ours = CARTClassifier(**params).fit(X, y)
    X_new = inject(f32(np.random.default_rng(seed).normal(size=(500, X.shape[1]))),
                   0.5, seed + 1)
    for rs in range(3):
        sk = DecisionTreeClassifier(random_state=rs, **params).fit(X, y)
        assert_same_tree(ours, sk)
        for Z in (X, X_new):
            assert np.allclose(ours.predict_proba(Z), sk.predict_proba(Z), rtol=0, atol=1e-12)
            assert np.array_equal(ours.predict(Z), sk.predict(Z))


@pytest.mark.parametrize("make, seed, frac", REG_CASES)
def test_regressor_equals_sklearn_with_nan(make, seed, frac):
    X, y = make(seed, frac)
    params = dict(min_samples_leaf=15)
    ours = CARTRegressor(**params).fit(X, y)
    X_new = inject(f32(np.random.default_rng(seed).normal(size=(500, X.shape[1]))
                       * np.nanstd(X, axis=0)), 0.5, seed + 1)
    for rs in range(3):
        sk = DecisionTreeRegressor(random_state=rs, **params).fit(X, y)
        assert_same_tree(ours, sk)
        for Z in (X, X_new):
            assert np.allclose(ours.predict(Z), sk.predict(Z), rtol=1e-12, atol=1e-9)


def test_nan_only_at_prediction_goes_to_the_larger_child():
    """A tree grown without NaN (the level-wise grower) sends NaN to the child with more
    training rows, ties to the right, as scikit-learn does."""
    X, y = make_classification(n_samples=600, n_features=5, random_state=7)
    X = f32(X)
    ours = CARTClassifier(**PARAMS).fit(X, y)
    sk = DecisionTreeClassifier(random_state=0, **PARAMS).fit(X, y)
    assert_same_tree(ours, sk)
    Z = inject(X, 0.4, 9)
    assert np.allclose(ours.predict_proba(Z), sk.predict_proba(Z), rtol=0, atol=1e-12)


# ------------------------------------------------------------------ the two growers
# grower="auto" grows NaN data level by level (treebook.growers.levelwise, compiled kernels);
# the readable recursive grower must build the same tree, and both scikit-learn's.
TREE_FIELDS = ("kind", "feature", "threshold", "children", "n_samples", "weighted_n",
               "value", "impurity", "missing_go")


def assert_same_growers(a, b, exact=True):
    for name in TREE_FIELDS:
        x, y = getattr(a.tree_, name), getattr(b.tree_, name)
        if exact or x.dtype.kind in "iu":
            assert np.array_equal(x, y, equal_nan=True), name
        else:
            assert np.allclose(x, y, rtol=1e-9, atol=1e-9, equal_nan=True), name


@pytest.mark.parametrize("make, seed, frac, params", CASES)
def test_levelwise_and_recursive_classifiers_agree_with_nan(make, seed, frac, params):
    X, y = make(seed, frac)
    lev = CARTClassifier(grower="levelwise", **params).fit(X, y)
    rec = CARTClassifier(grower="recursive", **params).fit(X, y)
    assert_same_growers(lev, rec)
    assert_same_tree(lev, DecisionTreeClassifier(random_state=0, **params).fit(X, y))


@pytest.mark.parametrize("make, seed, frac", REG_CASES)
def test_levelwise_and_recursive_regressors_agree_with_nan(make, seed, frac):
    X, y = make(seed, frac)
    lev = CARTRegressor(grower="levelwise", min_samples_leaf=15).fit(X, y)
    rec = CARTRegressor(grower="recursive", min_samples_leaf=15).fit(X, y)
    assert_same_growers(lev, rec, exact=False)  # centred vs plain sums: same splits
    assert_same_tree(lev, DecisionTreeRegressor(random_state=0, min_samples_leaf=15).fit(X, y))


@pytest.mark.parametrize("seed", [0, 1])
def test_two_classes_with_integer_weights_and_nan_equal_sklearn(seed):
    X, y = make_classification(n_samples=3000, n_features=8, n_informative=5,
                               random_state=seed)
    X = inject(f32(X), 0.2, seed)
    w = np.random.default_rng(seed).integers(0, 4, size=y.shape[0]).astype(float)
    lev = CARTClassifier(**PARAMS).fit(X, y, sample_weight=w)
    rec = CARTClassifier(grower="recursive", **PARAMS).fit(X, y, sample_weight=w)
    assert_same_growers(lev, rec)
    sk = DecisionTreeClassifier(random_state=0, **PARAMS).fit(X, y, sample_weight=w)
    assert_same_tree(lev, sk)
    assert np.allclose(lev.predict_proba(X), sk.predict_proba(X), rtol=0, atol=1e-12)


def test_categorical_column_with_nan_grows_levelwise_as_recursive():
    import pandas as pd

    rng = np.random.default_rng(2)
    n = 1500
    x = rng.normal(size=n)
    c = rng.choice(list("abcdef"), size=n)
    y = ((x > 0.3) ^ np.isin(c, ["a", "d"]) ^ (rng.random(n) < 0.1)).astype(int)
    df = pd.DataFrame({"x": np.where(rng.random(n) < 0.2, np.nan, x),
                       "c": pd.Categorical(np.where(rng.random(n) < 0.2, None, c))})
    lev = CARTClassifier(min_samples_leaf=10).fit(df, y)
    rec = CARTClassifier(grower="recursive", min_samples_leaf=10).fit(df, y)
    assert_same_growers(lev, rec)
    assert (lev.tree_.kind == 3).any()
    internal = ~lev.tree_.is_leaf
    assert set(lev.tree_.missing_go[internal].tolist()) == {0, 1}
