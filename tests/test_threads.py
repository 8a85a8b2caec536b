"""Fitted trees are read-only: many threads may predict at once, and fits share nothing."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from sklearn.datasets import make_classification

from treebook import C45Classifier, CARTClassifier, ID3Classifier

X, y = make_classification(n_samples=2000, n_features=8, n_informative=5, n_classes=3,
                           random_state=0)
XC = np.digitize(X, [-1, 0, 1]).astype(str)  # categorical copy for ID3


@pytest.mark.parametrize("make, data", [(CARTClassifier, X), (C45Classifier, X),
                                        (ID3Classifier, XC)])
def test_concurrent_predictions_equal_the_serial_ones(make, data):
    model = make().fit(data, y)
    expected = model.predict_proba(data)
    before = {k: v.copy() for k, v in vars(model.tree_).items() if isinstance(v, np.ndarray)}
    chunks = np.array_split(np.arange(len(data)), 32)
    with ThreadPoolExecutor(max_workers=8) as pool:
        parts = list(pool.map(lambda idx: model.predict_proba(data[idx]), chunks * 4))
    for idx, part in zip(chunks * 4, parts):
        assert np.array_equal(part, expected[idx])
    for k, v in before.items():  # prediction wrote nothing into the tree
        assert np.array_equal(getattr(model.tree_, k), v, equal_nan=True)


def test_concurrent_fits_share_no_state():
    seeds = list(range(8))
    halves = [np.random.default_rng(s).permutation(len(X))[:1000] for s in seeds]
    serial = [CARTClassifier(max_depth=6).fit(X[h], y[h]).predict(X) for h in halves]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(lambda h: CARTClassifier(max_depth=6).fit(X[h], y[h])
                                 .predict(X), halves))
    for a, b in zip(serial, threaded):
        assert np.array_equal(a, b)


def test_every_learner_predicts_concurrently_also_sparse_and_loaded_models():
    import scipy.sparse as sparse

    from treebook import CARTRegressor, CLSClassifier
    from treebook.io.serialize import from_json

    XS = sparse.csr_matrix(np.where(np.abs(X) > 1, np.round(X, 1), 0.0))
    models = [(CLSClassifier(max_depth=6).fit(X, y), X, "predict_proba"),
              (CARTRegressor(max_depth=8).fit(X, X[:, 0] + y), X, "predict"),
              (CARTClassifier(max_depth=8).fit(XS, y), XS, "predict_proba")]
    models.append((from_json(models[0][0].to_json()), X, "predict_proba"))
    chunks = np.array_split(np.arange(X.shape[0]), 16)
    for model, data, method in models:
        call = getattr(model, method)
        expected = call(data)
        with ThreadPoolExecutor(max_workers=8) as pool:
            parts = list(pool.map(lambda idx: call(data[idx]), chunks * 3))
        for idx, part in zip(chunks * 3, parts):
            assert np.array_equal(part, expected[idx])


@pytest.mark.parametrize("make", [C45Classifier, ID3Classifier, CARTClassifier],
                         ids=lambda c: c.__name__)
def test_concurrent_fits_of_every_learner_equal_serial_fits(make):
    data = XC if make is ID3Classifier else X
    halves = [np.random.default_rng(s).permutation(len(X))[:600] for s in range(6)]
    serial = [make(max_depth=4).fit(data[h], y[h]).tree_ for h in halves]
    with ThreadPoolExecutor(max_workers=6) as pool:
        threaded = list(pool.map(lambda h: make(max_depth=4).fit(data[h], y[h]).tree_, halves))
    for a, b in zip(serial, threaded):
        for k in ("kind", "feature", "children", "value"):
            assert np.array_equal(getattr(a, k), getattr(b, k))
        assert np.array_equal(a.threshold, b.threshold, equal_nan=True)
