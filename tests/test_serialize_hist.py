"""The binned learners in a model file: ``bin_mapper_`` written and read back, a loaded
``HistCART*`` predicting bit for bit what the fitted one predicts, bad bins refused."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_diabetes, load_iris

from treebook.hist import HistCARTClassifier, HistCARTRegressor
from treebook.io.serialize import MalformedModelError, from_json


def _table():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=300), "c": pd.Categorical(rng.choice(list("pqrs"), 300))})
    X.loc[::9, "a"] = np.nan
    y = ((X["a"].fillna(0) > 0) ^ (X["c"] == "q")).astype(int)
    return X, y


@pytest.mark.parametrize("make", [
    lambda: (HistCARTClassifier(max_bins=16), *load_iris(return_X_y=True)),
    lambda: (HistCARTRegressor(), *load_diabetes(return_X_y=True)),
    lambda: (HistCARTClassifier(), *_table()),
])
def test_a_loaded_binned_tree_predicts_what_the_fitted_one_predicts(make):
    est, X, y = make()
    est.fit(X, y)
    loaded = from_json(est.to_json(), expected=type(est))
    out = "predict_proba" if hasattr(est, "predict_proba") else "predict"
    assert np.array_equal(getattr(loaded, out)(X), getattr(est, out)(X))
    for part in ("edges", "lo", "hi"):
        for a, b in zip(getattr(loaded.bin_mapper_, part), getattr(est.bin_mapper_, part)):
            assert np.array_equal(a, b)
    assert loaded.bin_mapper_.categorical == est.bin_mapper_.categorical
    assert loaded.levels_ == est.levels_
    if isinstance(X, np.ndarray):
        assert np.array_equal(loaded.bin_mapper_.transform(X), est.bin_mapper_.transform(X))


def _doc():
    X, y = load_iris(return_X_y=True)
    return json.loads(HistCARTClassifier(max_bins=8).fit(X, y).to_json())


def _load(doc):
    return from_json(json.dumps(doc))


def test_bins_that_do_not_fit_are_refused():
    doc = _doc()
    edges = doc["fitted"]["bin_mapper_"]["edges"][0]
    edges["data"] = edges["data"][::-1]
    with pytest.raises(MalformedModelError, match="increase strictly"):
        _load(doc)
    doc = _doc()
    doc["fitted"]["bin_mapper_"]["lo"] = doc["fitted"]["bin_mapper_"]["lo"][:3]
    with pytest.raises(MalformedModelError, match="one entry per feature"):
        _load(doc)
    doc = _doc()
    doc["fitted"]["bin_mapper_"]["hi"][1]["data"].append(9.0)
    doc["fitted"]["bin_mapper_"]["hi"][1]["shape"] = [len(doc["fitted"]["bin_mapper_"]["hi"][1]["data"])]
    with pytest.raises(MalformedModelError, match=r"lo\[1\]/hi\[1\]"):
        _load(doc)
    doc = _doc()
    doc["fitted"]["bin_mapper_"]["edges"][2] = {"type": "array", "dtype": "float64",
                                                "shape": [1], "data": [{"type": "float",
                                                                        "value": "nan"}]}
    with pytest.raises(MalformedModelError, match="finite"):
        _load(doc)
    doc = _doc()
    for part in ("edges", "lo", "hi"):
        doc["fitted"]["bin_mapper_"][part] = doc["fitted"]["bin_mapper_"][part][:3]
    doc["fitted"]["bin_mapper_"]["categorical"] = doc["fitted"]["bin_mapper_"]["categorical"][:3]
    with pytest.raises(MalformedModelError, match="bins of 3 features"):
        _load(doc)
