"""Tests of treebook.cls: CLSClassifier and CriterionTreeClassifier.

Expected trees come from places other than the code under test: ID3 (a separate learner
whose criterion is information gain, which the likelihood score must reproduce), a
brute-force split search written here with boolean masks and plain-Python entropies, and
the G-test recomputed from each fitted node's children.
"""

from __future__ import annotations

import math
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

from treebook import CLSClassifier, ID3Classifier
from treebook.core import impurity as imp
from treebook.cls import CriterionTreeClassifier, cls_split_finder
from treebook.datasets import load_golf, load_hmda, load_loan, load_play_tennis
from treebook.core.tree import NodeKind


def same_structure(a, b) -> bool:
    ta, tb = a.tree_, b.tree_
    return (np.array_equal(ta.kind, tb.kind) and np.array_equal(ta.feature, tb.feature)
            and np.array_equal(ta.children, tb.children)
            and np.allclose(ta.value, tb.value)
            and np.array_equal(np.nan_to_num(ta.threshold, nan=-7.0),
                               np.nan_to_num(tb.threshold, nan=-7.0)))


def ref_cond_entropy(y_parts) -> float:
    n = sum(len(p) for p in y_parts)
    h = 0.0
    for part in y_parts:
        if len(part) == 0:
            continue
        _, counts = np.unique(part, return_counts=True)
        p = counts / len(part)
        h += len(part) / n * -sum(q * math.log2(q) for q in p)
    return h


def make_numeric(n=120, m=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 25, size=(n, m)).astype(float)  # ties, so cuts fall between values
    y = ((X[:, 0] + 2 * X[:, 1] + rng.normal(0, 8, n)) > 36).astype(int)
    return X, y


# ----------------------------------------------------------------- what the tree is
@pytest.mark.parametrize("load", [load_loan, load_play_tennis])
def test_likelihood_score_grows_the_id3_tree(load):
    X, y = load(return_X_y=True)
    assert same_structure(CLSClassifier().fit(X, y), ID3Classifier().fit(X, y))


@pytest.mark.parametrize("seed", range(5))
def test_root_split_matches_brute_force_search(seed):
    X, y = make_numeric(seed=seed)
    best = None
    for f in range(X.shape[1]):
        for t in np.unique(X[:, f])[:-1]:  # C4.5: the threshold is a training value
            left = X[:, f] <= t
            score = -ref_cond_entropy([y[left], y[~left]])
            if best is None or score > best[0] + 1e-12:
                best = (score, f, t)
    clf = CLSClassifier(max_depth=1).fit(X, y)
    assert clf.tree_.kind[0] == NodeKind.THRESHOLD
    assert (clf.tree_.feature[0], clf.tree_.threshold[0]) == (best[1], best[2])


def test_numeric_and_categorical_features_together():
    X, y = load_golf(return_X_y=True)
    clf = CLSClassifier().fit(X, y)
    kinds = {clf.feature_names_in_[f]: NodeKind(k) for f, k in
             zip(clf.tree_.feature, clf.tree_.kind) if f >= 0}
    assert kinds["outlook"] == NodeKind.MULTIWAY
    assert kinds["humidity"] == NodeKind.THRESHOLD
    # thresholds are training values (C4.5's convention), not midpoints
    thr = clf.tree_.threshold[clf.tree_.kind == NodeKind.THRESHOLD]
    assert set(thr) <= set(X["humidity"]) | set(X["temperature"])
    assert clf.score(X, y) == 1.0
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_multiway_feature_is_used_once_per_path():
    X, y = load_play_tennis(return_X_y=True)
    t = CLSClassifier().fit(X, y).tree_
    for leaf in np.flatnonzero(t.is_leaf):
        path, node = [], t.parent[leaf]
        while node >= 0:
            path.append(t.feature[node])
            node = t.parent[node]
        assert len(path) == len(set(path))


def test_criterion_tree_reproduces_cls_and_information_gain():
    X, y = load_hmda(return_X_y=True)
    X, y = X.iloc[:600], y.iloc[:600]
    cls = CLSClassifier(max_depth=3).fit(X, y)
    via_hook = CriterionTreeClassifier(imp.conditional_log_likelihood, max_depth=3).fit(X, y)
    via_gain = CriterionTreeClassifier(imp.information_gain, max_depth=3).fit(X, y)
    assert same_structure(cls, via_hook) and same_structure(cls, via_gain)
    gini = CriterionTreeClassifier(imp.gini_gain, max_depth=3).fit(X, y)
    assert gini.n_leaves_ >= 2


def test_criterion_must_be_callable_or_registered():
    X, y = load_loan(return_X_y=True)
    with pytest.raises(TypeError, match="criterion must be a callable"):
        CriterionTreeClassifier(42).fit(X, y)
    with pytest.raises(ValueError, match="criterion must be one of"):
        CriterionTreeClassifier("no_such_measure").fit(X, y)


def test_registered_criterion_scores_tables_by_its_gain():
    from treebook.core.impurity import gini_gain

    X, y = load_loan(return_X_y=True)
    by_name = CriterionTreeClassifier("gini").fit(X, y).tree_
    by_function = CriterionTreeClassifier(gini_gain).fit(X, y).tree_
    assert by_name.node_count == by_function.node_count
    assert np.array_equal(by_name.feature, by_function.feature)
    assert np.array_equal(by_name.value, by_function.value)


# ----------------------------------------------------------------- significance stop
def split_tables(tree):
    """The contingency table of every split, read back from its children's counts."""
    return {node: tree.value[tree.children_of(node)]
            for node in np.flatnonzero(~tree.is_leaf)}


def test_significance_stop_prunes_more_as_alpha_decreases():
    X, y = load_hmda(return_X_y=True)
    leaves = []
    for alpha in (None, 0.5, 0.1, 0.01, 0.001, 1e-6):
        clf = CLSClassifier(significance=alpha, max_depth=6).fit(X, y)
        leaves.append(clf.n_leaves_)
        if alpha is not None:
            for node, table in split_tables(clf.tree_).items():
                assert imp.g_test_pvalue(table) < alpha, node
    assert leaves == sorted(leaves, reverse=True)
    assert leaves[0] > leaves[-1] >= 1
    assert len(set(leaves)) >= 4  # the stop really bites, level after level


def test_significance_stop_on_small_tables():
    # PlayTennis: the best root split (Outlook) has G = 4.79, p = 0.091 with 2 dof
    X, y = load_play_tennis(return_X_y=True)
    assert CLSClassifier(significance=0.05).fit(X, y).n_leaves_ == 1
    assert CLSClassifier(significance=0.1).fit(X, y).tree_.feature[0] == 0
    # loan: owns_house at the root has p = 0.0031
    X, y = load_loan(return_X_y=True)
    clf = CLSClassifier(significance=0.01).fit(X, y)
    assert clf.feature_names_in_[clf.tree_.feature[0]] == "owns_house"


# ----------------------------------------------------------------- positive-class score
def test_positive_class_default_and_declared():
    X, y = load_play_tennis(return_X_y=True)
    clf = CLSClassifier(score="positive_class").fit(X, y)
    assert clf.positive_class_ == "Yes"
    clf0 = CLSClassifier(score="positive_class", positive_class="No").fit(X, y)
    assert clf0.positive_class_ == "No"


def test_positive_class_root_is_what_the_score_says():
    X, y = load_play_tennis(return_X_y=True)
    scores = {a: imp.positive_class_score(imp.contingency_table(X[a], y)[2], positive=1)
              for a in X.columns}
    clf = CLSClassifier(score="positive_class", max_depth=1).fit(X, y)
    assert clf.feature_names_in_[clf.tree_.feature[0]] == max(scores, key=scores.get)


def test_positive_class_node_without_positives_is_a_leaf():
    X = np.array([[0.0], [1.0], [0.0], [1.0]])
    y = np.array([0, 1, 0, 1])  # classes 0 and 1 only; class 2 is "positive"
    w, rows, avail = np.ones(4), np.arange(4), np.array([True])
    args = ([True], [2], 3, imp.conditional_log_likelihood)
    assert cls_split_finder(*args)(X, y, w, rows, avail) is not None
    assert cls_split_finder(*args, required_class=2)(X, y, w, rows, avail) is None
    # in a fitted tree, every split node holds a positive case
    Xf = pd.DataFrame({"a": list("xxyyzz"), "b": list("pqpqpq")})
    yf = pd.Series(["r", "s", "r", "s", "t", "t"])
    t = CLSClassifier(score="positive_class", positive_class="t").fit(Xf, yf).tree_
    assert np.all(t.value[~t.is_leaf, 2] > 0)


def test_positive_class_with_zero_smoothing_still_grows():
    X, y = load_loan(return_X_y=True)
    clf = CLSClassifier(score="positive_class", smoothing=0).fit(X, y)
    assert clf.n_leaves_ >= 2 and clf.score(X, y) > 0.5


@pytest.mark.parametrize("y, kwargs, words", [
    (["a", "b", "c"] * 5, {}, "declare one with positive_class"),
    (["no"] * 15, {}, "there is no positive class"),
    (["no", "yes", "no"] * 5, {"positive_class": "maybe"}, "does not occur in y"),
    (["no"] * 15, {"positive_class": "yes"}, "does not occur in y"),
])
def test_positive_class_bad_labels(y, kwargs, words):
    X, _ = load_loan(return_X_y=True)
    with pytest.raises(ValueError, match=words):
        CLSClassifier(score="positive_class", **kwargs).fit(X, y)


# ----------------------------------------------------------------- the API
def test_score_parameter_and_score_method_coexist():
    X, y = load_loan(return_X_y=True)
    clf = CLSClassifier(score="positive_class", max_depth=2)
    assert clf.get_params()["score"] == "positive_class"
    assert repr(clf) == "CLSClassifier(score='positive_class', max_depth=2)"
    clf.set_params(score="likelihood", significance=0.2)
    assert clf.get_params()["score"] == "likelihood" and clf.significance == 0.2
    assert repr(clf) == "CLSClassifier(significance=0.2, max_depth=2)"
    clf.fit(X, y)
    assert 0.0 <= clf.score(X, y) <= 1.0  # the method still works


def test_sklearn_clone():
    from sklearn.base import clone

    proto = CLSClassifier(score="positive_class", smoothing=0.5, max_depth=2)
    copy = clone(proto)
    assert copy.get_params() == proto.get_params() and copy is not proto
    assert copy.split_score == "positive_class"


@pytest.mark.parametrize("params, exc, words", [
    ({"score": "gini"}, ValueError, "score must be one of"),
    ({"significance": 0.0}, ValueError, "significance"),
    ({"significance": 1.5}, ValueError, "significance"),
    ({"significance": "0.05"}, TypeError, "significance"),
    ({"smoothing": -1.0}, ValueError, "smoothing"),
    ({"max_depth": -1}, ValueError, "max_depth"),
    ({"min_samples_split": 1}, ValueError, "min_samples_split"),
])
def test_bad_parameters(params, exc, words):
    X, y = load_loan(return_X_y=True)
    with pytest.raises(exc, match=words):
        CLSClassifier(**params).fit(X, y)


def test_missing_values_get_a_clear_error():
    X, y = load_golf(return_X_y=True)
    X = X.copy()
    X.loc[3, "humidity"] = np.nan
    with pytest.raises(ValueError, match="missing values.*C45Classifier"):
        CLSClassifier().fit(X, y)


def test_sparse_input_is_rejected_with_advice():
    import scipy.sparse as sparse  # scipy is a package dependency
    X, y = make_numeric(n=40)
    with pytest.raises(TypeError, match=r"scipy.sparse.*toarray\(\)"):
        CLSClassifier().fit(sparse.csr_matrix(X), y)
    clf = CLSClassifier().fit(X, y)
    with pytest.raises(TypeError, match="scipy.sparse"):
        clf.predict(sparse.csr_array(X))
    # the advice works
    np.testing.assert_array_equal(
        CLSClassifier().fit(sparse.csr_matrix(X).toarray(), y).predict(X), clf.predict(X))


def test_unseen_category_stops_at_the_node():
    X, y = load_play_tennis(return_X_y=True)
    clf = CLSClassifier().fit(X, y)
    Xn = X.iloc[:1].copy()
    Xn.loc[Xn.index[0], "Outlook"] = "Snow"
    np.testing.assert_allclose(clf.predict_proba(Xn)[0], [5 / 14, 9 / 14])


def test_concurrent_predict_is_read_only_and_consistent():
    X, y = load_hmda(return_X_y=True)
    clf = CLSClassifier(max_depth=5).fit(X, y)
    # freeze every array of the fitted tree: predict must never write to them
    for name, value in vars(clf.tree_).items():
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
    expected = clf.predict_proba(X)
    chunks = np.array_split(np.arange(len(X)), 4)
    barrier = threading.Barrier(len(chunks))  # all threads predict at the same moment

    def work(rows):
        barrier.wait(timeout=30)
        return clf.predict_proba(X.iloc[rows])

    with ThreadPoolExecutor(max_workers=len(chunks)) as pool:
        parts = list(pool.map(work, chunks))
    np.testing.assert_array_equal(np.vstack(parts), expected)
