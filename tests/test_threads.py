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
