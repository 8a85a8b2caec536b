"""The forests in a model file (issue 24's JSON export, in issue 22's schema 2): a loaded
forest predicts bit for bit what the fitted one predicts, and a document whose trees do
not fit their forest is the loader's error."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_iris
from sklearn.exceptions import NotFittedError

from treebook.datasets import load_play_tennis
from treebook.ensemble import BaggingClassifier, RandomForestClassifier, RandomForestRegressor
from treebook.io.serialize import MalformedModelError, from_json, to_json


def _fit(cls, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few trees: rows never out of bag
        if cls is RandomForestRegressor:
            X, y = load_diabetes(return_X_y=True)
            return cls(n_estimators=4, max_depth=4, random_state=0, **kw).fit(X, y), X
        X, y = load_iris(return_X_y=True)
        return cls(n_estimators=4, random_state=0, **kw).fit(X, y), X


@pytest.mark.parametrize("cls", [RandomForestClassifier, RandomForestRegressor,
                                 BaggingClassifier])
def test_a_loaded_forest_predicts_what_the_fitted_one_predicts(cls):
    forest, X = _fit(cls, oob_score=True)
    loaded = from_json(forest.to_json(), expected=cls)
    assert type(loaded) is cls and loaded.get_params() == forest.get_params()
    assert len(loaded.estimators_) == 4
    if hasattr(forest, "predict_proba"):
        assert np.array_equal(loaded.predict_proba(X), forest.predict_proba(X))
        assert np.array_equal(loaded.classes_, forest.classes_)
    assert np.array_equal(loaded.predict(X), forest.predict(X))
    assert np.array_equal(loaded.feature_importances_, forest.feature_importances_)
    assert loaded.oob_score_ == forest.oob_score_
    assert np.array_equal(loaded.apply(X), forest.apply(X))


def test_a_forest_on_a_table_keeps_its_labels_and_categories():
    X, y = load_play_tennis(return_X_y=True)
    forest = RandomForestClassifier(n_estimators=3, random_state=2).fit(X, y)
    loaded = from_json(to_json(forest))
    assert list(loaded.classes_) == ["No", "Yes"]
    assert list(loaded.feature_names_in_) == list(X.columns)
    assert np.array_equal(loaded.predict_proba(X), forest.predict_proba(X))


def test_the_draws_are_not_in_the_file_and_say_so():
    forest, _ = _fit(RandomForestClassifier)
    loaded = from_json(forest.to_json())
    with pytest.raises(AttributeError, match="training weights"):
        loaded.estimators_samples_


def test_to_json_before_fit_is_not_fitted():
    with pytest.raises(NotFittedError):
        RandomForestClassifier().to_json()


def _doc(cls=RandomForestClassifier):
    forest, _ = _fit(cls)
    return json.loads(forest.to_json())


def _load(doc):
    return from_json(json.dumps(doc))


def test_a_forest_inside_a_forest_is_refused():
    doc = _doc()
    inner = {k: v for k, v in _doc().items() if k in ("estimator", "params", "fitted")}
    doc["fitted"]["estimators_"][0] = {"type": "estimator", **inner}
    with pytest.raises(MalformedModelError, match="not a treebook estimator that may stand"):
        _load(doc)


def test_a_tree_of_another_learner_is_refused():
    doc = _doc()
    regressor = _doc(RandomForestRegressor)["fitted"]["estimators_"][0]
    doc["fitted"]["estimators_"][1] = regressor
    with pytest.raises(MalformedModelError, match=r"estimators_\[1\]"):
        _load(doc)


def test_trees_that_disagree_with_their_forest_are_refused():
    doc = _doc()
    doc["fitted"]["n_features_in_"] = 3
    with pytest.raises(MalformedModelError, match="features, the forest 3"):
        _load(doc)
    doc = _doc()
    doc["fitted"]["classes_"]["data"] = doc["fitted"]["classes_"]["data"][:2]
    doc["fitted"]["classes_"]["shape"] = [2]
    with pytest.raises(MalformedModelError, match="classes"):
        _load(doc)
    doc = _doc()
    doc["fitted"]["estimators_"] = []
    with pytest.raises(MalformedModelError, match="non-empty list"):
        _load(doc)
    doc = _doc()
    del doc["fitted"]["estimators_"]
    with pytest.raises(MalformedModelError, match="has no 'estimators_'"):
        _load(doc)
