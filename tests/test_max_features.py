"""Random features per node: both growers draw alike, the seed decides, None changes nothing."""

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression

from treebook import CARTClassifier, CARTRegressor
from treebook.core.feature_draw import features_to_consider, resolve_max_features

from tree_invariants import assert_tree_invariants

X, y = make_classification(n_samples=600, n_features=10, n_informative=5, n_classes=3,
                           random_state=3)


def _arrays(tree):
    return [tree.kind, tree.feature, tree.threshold, tree.value, tree.children]


@pytest.mark.parametrize("max_features", [1, 3, 0.5, "sqrt", "log2"])
def test_both_growers_draw_the_same_features(max_features):
    a = CARTClassifier(max_features=max_features, random_state=7, grower="levelwise").fit(X, y)
    b = CARTClassifier(max_features=max_features, random_state=7, grower="recursive").fit(X, y)
    for u, v in zip(_arrays(a.tree_), _arrays(b.tree_)):
        assert np.array_equal(u, v, equal_nan=True)
    assert_tree_invariants(a.tree_)


def test_regression_growers_agree_too():
    Xr, yr = make_regression(n_samples=400, n_features=8, random_state=2)
    a = CARTRegressor(max_features=3, random_state=1, grower="levelwise", max_depth=6).fit(Xr, yr)
    b = CARTRegressor(max_features=3, random_state=1, grower="recursive", max_depth=6).fit(Xr, yr)
    for u, v in zip(_arrays(a.tree_), _arrays(b.tree_)):
        assert np.array_equal(u, v, equal_nan=True)


def test_the_seed_decides():
    t1 = CARTClassifier(max_features=2, random_state=1).fit(X, y).tree_
    t1b = CARTClassifier(max_features=2, random_state=1).fit(X, y).tree_
    t2 = CARTClassifier(max_features=2, random_state=2).fit(X, y).tree_
    assert np.array_equal(t1.feature, t1b.feature) and np.array_equal(t1.threshold, t1b.threshold,
                                                                      equal_nan=True)
    assert not (t1.node_count == t2.node_count and np.array_equal(t1.feature, t2.feature))


def test_all_features_is_the_deterministic_tree():
    full = CARTClassifier().fit(X, y).tree_
    for mf in (None, 10, 1.0):
        t = CARTClassifier(max_features=mf, random_state=5).fit(X, y).tree_
        assert np.array_equal(t.feature, full.feature)
        assert np.array_equal(t.threshold, full.threshold, equal_nan=True)


def test_one_feature_per_node_splits_on_varied_features():
    # with k = 1 the root draws one feature; features are not all the same across nodes
    t = CARTClassifier(max_features=1, random_state=0, max_depth=4).fit(X, y).tree_
    assert len(set(t.feature[~t.is_leaf].tolist())) > 2


def test_constant_features_are_skipped():
    perm = np.array([[2, 0, 1, 3]])
    varies = np.array([[True, True, False, True]])  # feature 2 is constant
    # along the order 2, 0, 1, 3 feature 2 does not vary, so k = 2 takes 0 and 1
    assert features_to_consider(perm, varies, 2).tolist() == [[True, True, False, False]]
    assert features_to_consider(perm, varies, 3).tolist() == [[True, True, False, True]]


@pytest.mark.parametrize("bad, err", [(0, ValueError), (11, ValueError), (1.5, ValueError),
                                      ("half", ValueError), (True, ValueError)])
def test_bad_max_features(bad, err):
    with pytest.raises((TypeError, ValueError), match="max_features"):
        CARTClassifier(max_features=bad).fit(X, y)


def test_resolve():
    assert resolve_max_features("sqrt", 10) == 3 and resolve_max_features("log2", 10) == 3
    assert resolve_max_features(0.25, 10) == 2 and resolve_max_features(None, 10) is None


def test_random_tie_break_picks_among_tied_features_by_the_seed():
    # columns 0 and 1 are copies: every cut of one ties with the same cut of the other
    rng = np.random.default_rng(0)
    x = rng.random(200)
    Xt = np.column_stack([x, x, rng.random(200)])
    yt = (x > 0.5).astype(int)
    column = CARTClassifier(max_depth=1).fit(Xt, yt)
    assert column.tree_.feature[0] == 0                       # column order: the first copy
    roots = {CARTClassifier(max_depth=1, tie_break="random", random_state=s).fit(Xt, yt)
             .tree_.feature[0] for s in range(20)}
    assert roots == {0, 1}                                    # a random order: either copy
    for s in range(5):   # both growers scan in the same order
        a = CARTClassifier(tie_break="random", random_state=s, grower="levelwise").fit(X, y)
        b = CARTClassifier(tie_break="random", random_state=s, grower="recursive").fit(X, y)
        for u, v in zip(_arrays(a.tree_), _arrays(b.tree_)):
            assert np.array_equal(u, v, equal_nan=True)
    with pytest.raises(ValueError, match="tie_break"):
        CARTClassifier(tie_break="first").fit(X, y)
