"""The walk tables (``Tree.tables``): built once per tree, read-only, and predicting
exactly what the numpy definitions predict (issue 26).

The references are the readable walks the compiled one replaced: ``Tree.route(X,
missing="stop")`` for the end node of every row (the path ``Tree.apply`` took for every
row of a tree with a missing-value rule before the tables), ``apply_binary`` for
threshold trees, and ``Tree.node_prediction`` recomputed for the class frequencies.
"""

from __future__ import annotations

import pickle
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_classification

import treebook.core.tree as tree_module
from treebook import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier
from treebook.core.tree import apply_binary, walk_tables
from treebook.io.serialize import from_json

RNG = np.random.default_rng(0)
X, y = make_classification(n_samples=1500, n_features=6, n_informative=4, n_classes=3,
                           flip_y=0.05, random_state=0)


def _with_nan(A, share=0.1, seed=1):
    A = A.copy()
    A[np.random.default_rng(seed).random(A.shape) < share] = np.nan
    return A


def _categorical_frame(n=1200, seed=2):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"a": pd.Categorical(rng.choice(list("abcdefgh"), n)),
                       "b": rng.normal(size=n),
                       "c": pd.Categorical(rng.choice([f"k{i}" for i in range(20)], n))})
    target = np.where((df["a"].isin(list("abd"))) ^ (df["b"] > 0.3), "yes", "no")
    return df, target


def _reference_nodes(tree, Xe):
    rows, nodes, _ = tree.route(Xe, missing="stop")
    out = np.full(Xe.shape[0], -1, dtype=np.int64)
    out[rows] = nodes
    return out


CASES = {
    "cart numeric": (lambda: CARTClassifier(), X, y),
    "cart nan learn": (lambda: CARTClassifier(), _with_nan(X), y),
    "cart nan surrogate": (lambda: CARTClassifier(missing="surrogate", max_surrogates=3),
                           _with_nan(X), y),
    "cart categorical subsets": (lambda: CARTClassifier(), *_categorical_frame()),
    "cart regression": (lambda: CARTRegressor(min_samples_leaf=3), X, X[:, 0] + y),
    "c45": (lambda: C45Classifier(), X, y),
    "id3 multiway": (lambda: ID3Classifier(max_depth=5),
                     np.digitize(X, [-1, 0, 1]).astype(str), y),
}


@pytest.mark.parametrize("case", list(CASES), ids=str)
def test_predictions_equal_the_numpy_definitions(case):
    make, data, target = CASES[case]
    est = make().fit(data, target)
    tree = est.tree_
    # fresh rows with unseen categories and missing values where the learner takes them
    new = data
    if isinstance(data, pd.DataFrame):
        new = data.copy()
        new["a"] = new["a"].cat.add_categories(["zz"])
        new.loc[new.index[:40], "a"] = "zz"
    Xe = est._encode(new)
    nodes = _reference_nodes(tree, Xe)
    assert np.array_equal(tree.apply(Xe), nodes)
    if tree._threshold_only() and not np.isnan(Xe).any():
        assert np.array_equal(tree.apply(Xe), apply_binary(tree, Xe))
    if est._route_missing == "stop":
        assert np.array_equal(est.apply(new), nodes)
        value = tree.node_prediction()
        if tree.is_regression:
            assert np.array_equal(est.predict(new), value[nodes])
        else:
            assert np.array_equal(est.predict_proba(new), value[nodes])
            assert np.array_equal(est.predict(new),
                                  est.classes_[np.argmax(value, axis=1)[nodes]])
    else:  # C4.5: fractional routing, averaged node frequencies
        rows, ends, w = tree.route(Xe, missing="distribute")
        expect = np.zeros((Xe.shape[0], tree.value.shape[1]))
        np.add.at(expect, rows, tree.node_prediction(laplace=est._laplace)[ends] * w[:, None])
        assert np.allclose(est.predict_proba(new), expect, rtol=0, atol=1e-15)


def test_the_tables_are_those_of_the_tree_and_read_only():
    est = CARTClassifier().fit(*_categorical_frame())
    tables = est.tree_.tables
    assert tables.packed is not None  # binary tests in pre-order: the packed walk
    assert np.array_equal(tables.node_value, est.tree_.node_prediction())
    assert np.array_equal(tables.majority, np.argmax(est.tree_.node_prediction(), axis=1))
    for name in ("feature", "packed", "packed_threshold", "subset_bits", "node_value",
                 "node_value_laplace", "majority", "is_threshold"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(tables, name)[...] = 0
    # a multiway tree takes the general walk
    id3 = ID3Classifier(max_depth=4).fit(np.digitize(X, [-1, 0, 1]).astype(str), y)
    assert id3.tree_.tables.packed is None


@pytest.fixture
def count_builds(monkeypatch):
    """The number of walk-table builds since the fixture started."""
    calls = []

    def counting(tree):
        calls.append(tree)
        return walk_tables(tree)

    monkeypatch.setattr(tree_module, "walk_tables", counting)
    return calls


def test_the_tables_are_built_once_per_tree_not_per_call(count_builds):
    Xs = sp.csr_matrix(np.where(np.abs(X) > 1, X, 0.0))
    df = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    models = [(CARTClassifier().fit(X, y), X), (CARTClassifier().fit(df, y), df),
              (CARTClassifier().fit(Xs, y), Xs), (CARTRegressor().fit(X, X[:, 1]), X),
              (CARTClassifier().fit(_with_nan(X), y), _with_nan(X, seed=5)),
              (C45Classifier().fit(X, y), X)]
    for est, data in models:
        est.predict(data[:3])  # the sparse path makes its renumbered tree once, here
    built = len(count_builds)
    for est, data in models:
        for _ in range(5):
            est.predict(data)
            est.predict(data[:1])
            est.apply(data)
            est.decision_path(data)
            est.score(data, est.predict(data))
            if hasattr(est, "predict_proba"):
                est.predict_proba(data)
    assert len(count_builds) == built  # not one build per call
    # a loaded or unpickled tree is a new tree: its tables are built once, when it is made
    est = models[0][0]
    loaded = from_json(est.to_json())
    assert len(count_builds) > built and count_builds[-1] is loaded.tree_
    copied = pickle.loads(pickle.dumps(est))
    assert count_builds[-1] is copied.tree_
    built = len(count_builds)
    for _ in range(3):
        assert np.array_equal(loaded.predict_proba(X), est.predict_proba(X))
        assert np.array_equal(copied.predict_proba(X), est.predict_proba(X))
    assert len(count_builds) == built
    assert "tables" not in pickle.loads(pickle.dumps(est.tree_)).__getstate__()


def test_the_tables_follow_a_pruned_tree():
    est = CARTClassifier().fit(X, y)
    small = est.tree_.truncate(3)
    assert small.tables is not est.tree_.tables
    Xe = est._encode(X)
    assert np.array_equal(est.predict_with(small, X),
                          est.classes_[np.argmax(small.node_prediction(), axis=1)
                                       [_reference_nodes(small, Xe)]])


def test_threads_share_the_tables_and_get_the_serial_answers():
    est = CARTClassifier(missing="surrogate").fit(_with_nan(X), y)
    data = _with_nan(X, seed=7)
    expected = est.predict_proba(data)
    tables = est.tree_.tables
    chunks = np.array_split(np.arange(len(data)), 24)
    with ThreadPoolExecutor(max_workers=6) as pool:
        parts = list(pool.map(lambda idx: est.predict_proba(data[idx]), chunks * 3))
    for idx, part in zip(chunks * 3, parts):
        assert np.array_equal(part, expected[idx])
    assert est.tree_.tables is tables


def test_bad_input_still_names_the_argument():
    est = CARTClassifier().fit(X, y)
    with pytest.raises(ValueError, match="X has 5 features"):
        est.predict(X[:, :5])
    with pytest.raises(ValueError, match="X column 'x2' has infinite"):
        est.predict(np.where(np.arange(X.shape[1]) == 2, np.inf, X))
    with pytest.raises(ValueError, match="X must be 2-D"):
        est.tree_.apply(X[:, :2])
    df = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    est_df = CARTClassifier().fit(df, y)
    bad = df.copy()
    bad.iloc[3, 1] = np.inf
    with pytest.raises(ValueError, match="X column 'f1' has infinite"):
        est_df.predict(bad)
    strict = CARTClassifier(missing="error").fit(df, y)
    bad.iloc[3, 1] = np.nan
    with pytest.raises(ValueError, match="X column 'f1' has missing"):
        strict.predict(bad)
