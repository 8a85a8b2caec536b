"""CART on scipy.sparse input: the same trees as on the dense matrix, never densified."""

import numpy as np
import pytest
import scipy.sparse as sp

from treebook import C45Classifier, CARTClassifier, CARTRegressor
from treebook.growers.sparse import check_sparse_X, sparse_apply

ARRAYS = ("kind", "feature", "threshold", "children_ptr", "children", "parent", "depth",
          "value", "weighted_n", "n_samples", "impurity")


def _same_tree(a, b):
    for f in ARRAYS:
        assert np.array_equal(getattr(a, f), getattr(b, f), equal_nan=True), f


def _data(n, m, density, seed):
    """Small-integer entries (negative and positive) so that many values tie and every
    sum of integer weights is exact."""
    rng = np.random.default_rng(seed)
    X = sp.random(n, m, density=density, random_state=seed, format="csr",
                  data_rvs=lambda k: rng.integers(-3, 4, k).astype(float))
    X.eliminate_zeros()
    D = X.toarray()
    y2 = (D[:, 0] - D[:, 1] + rng.normal(size=n) > 0).astype(int)
    y3 = np.where(D[:, 2] > 0, 2, rng.integers(0, 2, n))
    yr = np.round(3 * D[:, 0] + D[:, 3] + rng.normal(size=n))  # integers: exact sums
    w = rng.integers(1, 4, n).astype(float)
    return X, D, y2, y3, yr, w


SHAPES = [(120, 4, 0.5, 0), (300, 12, 0.15, 1), (400, 30, 0.05, 2), (150, 80, 0.03, 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}@{s[2]}")
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_sparse_trees_equal_dense_trees(shape, fmt):
    X, D, y2, y3, yr, w = _data(*shape)
    Xs = X.asformat(fmt)
    cases = [(CARTClassifier, y2, {}), (CARTClassifier, y3, {"criterion": "entropy"}),
             (CARTClassifier, y2, {"max_depth": 3, "min_samples_leaf": 4}),
             (CARTClassifier, y3, {"min_weight_fraction_leaf": 0.05}),
             (CARTClassifier, y2, {"min_impurity_decrease": 0.002, "class_weight": "balanced"}),
             (CARTRegressor, yr, {}), (CARTRegressor, yr, {"min_samples_split": 10}),
             (CARTClassifier, y2, {"ccp_alpha": 0.01})]
    for learner, y, params in cases:
        for weights in (None, w):
            # regression: the readable recursive grower is the definition (the level-wise
            # one may break an exact tie differently when its sums round)
            grower = "recursive" if learner is CARTRegressor else "auto"
            dense = learner(grower=grower, **params).fit(D, y, sample_weight=weights)
            sparse = learner(**params).fit(Xs, y, sample_weight=weights)
            _same_tree(dense.tree_, sparse.tree_)
            assert np.array_equal(sparse.predict(Xs), dense.predict(D))
            assert np.array_equal(sparse.apply(Xs), dense.apply(D))
            if learner is CARTClassifier:
                assert np.array_equal(sparse.predict_proba(Xs), dense.predict_proba(D))


def test_dense_model_predicts_sparse_rows_and_back():
    X, D, y2, *_ = _data(400, 15, 0.15, 4)
    model = CARTClassifier().fit(D, y2)
    assert np.array_equal(model.predict(X), model.predict(D))
    assert np.array_equal(model.predict(sp.csc_array(X)), model.predict(D))
    assert np.array_equal(sparse_apply(model.tree_, X, block_rows=7), model.apply(D))
    sparse_model = CARTClassifier().fit(X, y2)
    assert np.array_equal(sparse_model.predict(D), model.predict(D))
    assert sparse_model.score(X, y2) == model.score(D, y2)


def test_nonzeros_that_are_stored_zeros_or_duplicates_count_as_their_values():
    # a stored 0 and two entries summing at one position: the matrix's values decide
    rows, cols = np.array([0, 1, 1, 2, 3, 3]), np.array([0, 0, 0, 0, 0, 0])
    vals = np.array([0.0, 1.0, 1.0, 5.0, 2.0, -1.0])
    X = sp.coo_matrix((vals, (rows, cols)), shape=(6, 1))
    y = np.array([0, 1, 1, 1, 0, 0])
    assert np.array_equal(CARTClassifier().fit(X, y).tree_.threshold,
                          CARTClassifier().fit(X.toarray(), y).tree_.threshold,
                          equal_nan=True)


def test_the_matrix_is_not_densified(monkeypatch):
    X, D, y2, *_ = _data(300, 20, 0.1, 5)

    def refuse(*args, **kwargs):
        raise AssertionError("densified")

    for cls in (sp.csr_matrix, sp.csc_matrix):
        monkeypatch.setattr(cls, "toarray", refuse)
        monkeypatch.setattr(cls, "todense", refuse)
    CARTClassifier(max_depth=4).fit(X, y2)


@pytest.mark.parametrize("bad, kind, message", [
    (lambda X: sp.csr_matrix(np.full((3, 2), np.nan)), ValueError,
     r"X has missing values \(NaN\).*scikit-learn 1.9 refuses.*X.toarray\(\)"),
    (lambda X: sp.csr_matrix(np.full((3, 2), np.inf)), ValueError, r"X has infinite values"),
    (lambda X: sp.csr_matrix((0, 4)), ValueError, r"X has no rows"),
    (lambda X: sp.csr_matrix(np.ones((3, 2), complex)), ValueError, r"complex"),
])
def test_bad_sparse_X(bad, kind, message):
    with pytest.raises(kind, match=message):
        CARTClassifier().fit(bad(None), [0, 1, 0][: bad(None).shape[0]] or [0])


def test_sparse_y_wrong_shapes_and_other_learners_are_refused_clearly():
    X, D, y2, *_ = _data(100, 5, 0.3, 6)
    with pytest.raises(TypeError, match=r"y must be dense"):
        CARTClassifier().fit(X, sp.csr_matrix(y2[:, None]))
    with pytest.raises(ValueError, match=r"y has 99|inconsistent|99"):
        CARTClassifier().fit(X, y2[:99])
    model = CARTClassifier().fit(X, y2)
    with pytest.raises(ValueError, match=r"X has 6 features, but the model is expecting 5"):
        model.predict(sp.csr_matrix(np.ones((2, 6))))
    with pytest.raises(ValueError, match=r"missing='surrogate' is not supported with sparse"):
        CARTClassifier(missing="surrogate").fit(X, y2)
    with pytest.raises(TypeError, match=r"scipy.sparse.*toarray"):
        C45Classifier().fit(X, y2)  # only CART takes sparse input
    with pytest.raises(TypeError, match="must be a scipy.sparse matrix"):
        check_sparse_X(D)


# ---------------------------------------------------------------- max_features, max_leaf_nodes
def _cases(y2, y3, yr):
    """(learner, y, dense grower): two classes, three classes (entropy), regression.
    Regression compares with the readable recursive grower (see above)."""
    return [(CARTClassifier, y2, {}, "auto"),
            (CARTClassifier, y3, {"criterion": "entropy"}, "auto"),
            (CARTRegressor, yr, {}, "recursive")]


NEW_OPTIONS = [
    {"max_features": 3, "random_state": 0},
    {"max_features": "sqrt", "random_state": 11, "min_samples_leaf": 3},
    {"max_features": 0.5, "random_state": 5, "max_depth": 4},
    {"max_leaf_nodes": 2},
    {"max_leaf_nodes": 7},
    {"max_leaf_nodes": 25, "min_samples_leaf": 2, "max_depth": 5},
    {"max_leaf_nodes": 10, "max_features": 4, "random_state": 3},
    {"max_leaf_nodes": 12, "min_weight_fraction_leaf": 0.03, "min_impurity_decrease": 0.001},
]


@pytest.mark.parametrize("params", NEW_OPTIONS,
                         ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
@pytest.mark.parametrize("shape", SHAPES[1:3], ids=lambda s: f"{s[0]}x{s[1]}")
def test_max_features_and_max_leaf_nodes_sparse_equal_dense(params, shape):
    X, D, y2, y3, yr, w = _data(*shape)
    w0 = w.copy()
    w0[::17] = 0.0  # zero-weight rows take no part, and must not shift the draws
    for learner, y, extra, grower in _cases(y2, y3, yr):
        for weights in (None, w, w0):
            kw = {**params, **extra}
            dense = learner(grower=grower, **kw).fit(D, y, sample_weight=weights)
            sparse = learner(**kw).fit(X.tocsc(), y, sample_weight=weights)
            _same_tree(dense.tree_, sparse.tree_)
            if "max_leaf_nodes" in params:
                assert sparse.get_n_leaves() <= params["max_leaf_nodes"]
            assert np.array_equal(sparse.predict(X), dense.predict(D))


def test_max_features_draws_differ_between_seeds_and_are_used():
    # the option is not ignored: other seeds give other trees, and k = 1 a different tree
    X, D, y2, *_ = _data(300, 12, 0.15, 1)
    trees = {CARTClassifier(max_features=2, random_state=s).fit(X, y2).tree_.feature.tobytes()
             for s in range(6)}
    assert len(trees) > 1
    full = CARTClassifier().fit(X, y2).tree_
    assert CARTClassifier(max_leaf_nodes=4).fit(X, y2).get_n_leaves() == 4
    assert full.node_count > 7


def test_every_output_of_a_sparse_fit_equals_the_dense_one():
    from treebook.io.serialize import from_json, to_json, tree_to_dict

    X, D, y2, y3, yr, w = _data(300, 12, 0.15, 1)
    for learner, y, extra, grower in _cases(y2, y3, yr):
        for params in ({}, {"max_leaf_nodes": 9}, {"ccp_alpha": 0.004},
                       {"max_features": 5, "random_state": 2, "ccp_alpha": 0.002}):
            kw = {**params, **extra}
            dense = learner(grower=grower, **kw).fit(D, y, sample_weight=w)
            sparse = learner(**kw).fit(X, y, sample_weight=w)
            _same_tree(dense.tree_, sparse.tree_)
            _same_tree(dense.full_tree_, sparse.full_tree_)
            assert np.array_equal(sparse.apply(X), dense.apply(D))
            path_s, path_d = sparse.decision_path(X), dense.decision_path(D)
            assert path_s.format == "csr" and path_s.shape == path_d.shape
            assert (path_s != path_d).nnz == 0
            assert np.array_equal(sparse.decision_path(X[:1]).toarray(),
                                  dense.decision_path(D[:1]).toarray())
            assert np.array_equal(sparse.feature_importances_, dense.feature_importances_)
            if learner is CARTClassifier:
                assert np.array_equal(sparse.predict_proba(X), dense.predict_proba(D))
            p_s = sparse.cost_complexity_pruning_path(X, y, sample_weight=w)
            p_d = dense.cost_complexity_pruning_path(D, y, sample_weight=w)
            assert np.array_equal(p_s.ccp_alphas, p_d.ccp_alphas)
            assert np.array_equal(p_s.impurities, p_d.impurities)
            assert tree_to_dict(sparse.tree_) == tree_to_dict(dense.tree_)
            back = from_json(to_json(sparse))
            _same_tree(back.tree_, dense.tree_)
            assert np.array_equal(back.predict(X), dense.predict(D))


def test_a_stump_decision_path_on_sparse_rows():
    X, D, y2, *_ = _data(50, 4, 0.3, 8)
    model = CARTClassifier(max_depth=1).fit(X, np.zeros(50, int))  # one node
    assert model.tree_.node_count == 1
    assert np.array_equal(model.decision_path(X).toarray(), np.ones((50, 1)))
    assert np.array_equal(model.apply(X), np.zeros(50))
