"""CART options a scikit-learn user reaches for, each equal to scikit-learn's on data
where no two splits tie (float32-representable values: scikit-learn casts X to float32)."""

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from treebook import CARTClassifier, CARTRegressor


def _data(n=3000, classes=3, seed=0, weights=None):
    X, y = make_classification(n_samples=n, n_features=6, n_informative=4, n_redundant=0,
                               n_classes=classes, weights=weights, random_state=seed)
    return X.astype(np.float32).astype(np.float64), y


def _same_tree(ours, theirs):
    """Both trees test the same feature at the same threshold (to float32 rounding) at
    every node, in pre-order (both packages number nodes depth-first, left first)."""
    t, s = ours.tree_, theirs.tree_
    assert t.node_count == s.node_count
    assert np.array_equal(np.where(t.is_leaf, -1, t.feature), np.maximum(s.feature, -1))
    inner = ~t.is_leaf
    assert np.allclose(t.threshold[inner], s.threshold[inner], rtol=0, atol=1e-6)


@pytest.mark.parametrize("class_weight", ["balanced", {0: 1.0, 1: 3.0, 2: 0.5}])
def test_class_weight_equals_scikit_learn(class_weight):
    X, y = _data(weights=[0.6, 0.3, 0.1])
    ours = CARTClassifier(class_weight=class_weight, max_depth=3).fit(X, y)
    theirs = DecisionTreeClassifier(class_weight=class_weight, max_depth=3,
                                    random_state=0).fit(X, y)
    _same_tree(ours, theirs)
    assert np.allclose(ours.predict_proba(X), theirs.predict_proba(X))
    assert (ours.predict(X) == theirs.predict(X)).all()


def test_class_weight_refuses_unknown_classes_and_bad_weights():
    X, y = _data()
    with pytest.raises(ValueError, match="class_weight"):
        CARTClassifier(class_weight={7: 1.0}).fit(X, y)
    with pytest.raises(ValueError, match="class_weight"):
        CARTClassifier(class_weight={0: -1.0}).fit(X, y)
    with pytest.raises(ValueError, match="class_weight"):
        CARTClassifier(class_weight="balance").fit(X, y)


@pytest.mark.parametrize("split, leaf", [(0.1, 1), (2, 0.05), (0.2, 0.02)])
def test_fractional_min_samples_equal_scikit_learn(split, leaf):
    X, y = _data()
    ours = CARTClassifier(min_samples_split=split, min_samples_leaf=leaf, max_depth=3).fit(X, y)
    theirs = DecisionTreeClassifier(min_samples_split=split, min_samples_leaf=leaf,
                                    max_depth=3, random_state=0).fit(X, y)
    _same_tree(ours, theirs)
    assert np.allclose(ours.predict_proba(X), theirs.predict_proba(X))


@pytest.mark.parametrize("bad", [0.0, 1.5, -0.1])
def test_fractions_out_of_range_are_refused(bad):
    with pytest.raises(ValueError, match="min_samples_leaf"):
        CARTClassifier(min_samples_leaf=bad).fit(*_data())


def test_feature_importances_equal_scikit_learn():
    X, y = _data()
    ours = CARTClassifier(max_depth=3).fit(X, y)
    theirs = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    _same_tree(ours, theirs)
    assert np.allclose(ours.feature_importances_, theirs.feature_importances_, atol=1e-12)
    assert np.isclose(ours.feature_importances_.sum(), 1.0)
    Xr, yr = make_regression(n_samples=2000, n_features=5, random_state=1)
    Xr = Xr.astype(np.float32).astype(np.float64)
    r_ours = CARTRegressor(max_depth=3).fit(Xr, yr)
    r_theirs = DecisionTreeRegressor(max_depth=3, random_state=0).fit(Xr, yr)
    _same_tree(r_ours, r_theirs)
    assert np.allclose(r_ours.feature_importances_, r_theirs.feature_importances_, atol=1e-9)


def test_log_loss_is_entropy_and_predict_log_proba():
    X, y = _data()
    a = CARTClassifier(criterion="log_loss", max_depth=3).fit(X, y)
    b = CARTClassifier(criterion="entropy", max_depth=3).fit(X, y)
    theirs = DecisionTreeClassifier(criterion="log_loss", max_depth=3, random_state=0).fit(X, y)
    assert np.array_equal(a.predict_proba(X), b.predict_proba(X))
    assert np.allclose(a.predict_proba(X), theirs.predict_proba(X))
    with np.errstate(divide="ignore"):
        assert np.array_equal(a.predict_log_proba(X), np.log(a.predict_proba(X)))
    assert a.n_outputs_ == 1


@pytest.mark.parametrize("grower", ["levelwise", "recursive"])
def test_a_node_of_equal_responses_is_pure(grower):
    # ten copies of 1.1: S2/W - mean² rounds to about 7e-16, which is not spread
    model = CARTRegressor(grower=grower).fit(np.arange(10.0)[:, None], np.full(10, 1.1))
    assert model.get_n_leaves() == 1 and model.tree_.impurity[0] == 0.0
    # a node that does vary (variance 9e-14, above machine epsilon) is still split: two
    # cuts isolate the odd case
    y = np.full(10, 1.1)
    y[7] = 1.1 + 1e-6
    assert CARTRegressor(grower=grower).fit(np.arange(10.0)[:, None], y).get_n_leaves() == 3


@pytest.mark.parametrize("fraction", [0.02, 0.1])
def test_min_weight_fraction_leaf_equals_scikit_learn(fraction):
    X, y = _data()
    w = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    ours = CARTClassifier(min_weight_fraction_leaf=fraction, max_depth=3).fit(X, y, sample_weight=w)
    theirs = DecisionTreeClassifier(min_weight_fraction_leaf=fraction, max_depth=3,
                                    random_state=0).fit(X, y, sample_weight=w)
    _same_tree(ours, theirs)
    assert np.allclose(ours.predict_proba(X), theirs.predict_proba(X))
    both = [CARTClassifier(min_weight_fraction_leaf=fraction, grower=g).fit(X, y, sample_weight=w)
            for g in ("levelwise", "recursive")]
    assert np.array_equal(both[0].tree_.threshold, both[1].tree_.threshold, equal_nan=True)
    leaves = ours.tree_.weighted_n[ours.tree_.is_leaf]
    assert leaves.min() >= fraction * w.sum() - 1e-9
