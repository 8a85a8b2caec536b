"""JSON export and import (treebook.io.serialize): round trips, versions, malformed input."""

import json
import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_diabetes, load_iris

from treebook import (C45Classifier, CARTClassifier, CARTRegressor, CLSClassifier,
                      ID3Classifier)
from treebook import datasets
from treebook.chaid import CHAIDClassifier
from treebook.io.serialize import SCHEMA_VERSION, from_json, to_json
from treebook.core.tree import NodeKind

LEARNERS = [ID3Classifier, C45Classifier, CLSClassifier, CARTClassifier, CHAIDClassifier]


def _bundled():
    """Every bundled table, cut to a few hundred rows (the round trip does not depend on n)."""
    out = {name: load(return_X_y=True) for name, load in datasets.DATASETS.items()}
    for name in ("load_hmda", "load_credit", "load_monica", "load_adult"):
        X, y = getattr(datasets, name)(return_X_y=True)
        out[name[5:]] = (X.iloc[:400], y.iloc[:400])
    return out


DATA = _bundled()


def _same_predictions(a, b, X):
    assert np.array_equal(a.predict(X), b.predict(X))
    if hasattr(a, "predict_proba"):
        assert np.array_equal(a.predict_proba(X), b.predict_proba(X))
    assert a.export_text() == b.export_text()
    assert a.to_rules() == b.to_rules()
    assert np.array_equal(a.apply(X), b.apply(X))


def _same_tree(t, u):
    for f in ("kind", "feature", "children_ptr", "children", "code_ptr", "branch_of_code",
              "parent", "depth", "n_samples"):
        assert np.array_equal(getattr(t, f), getattr(u, f)), f
    for f in ("threshold", "value", "weighted_n", "impurity"):
        assert np.array_equal(getattr(t, f), getattr(u, f), equal_nan=True), f
    assert t.feature_names == u.feature_names and t.is_regression == u.is_regression


@pytest.mark.parametrize("name", sorted(DATA))
@pytest.mark.parametrize("learner", LEARNERS, ids=lambda c: c.__name__)
def test_round_trip_on_every_bundled_table(name, learner):
    X, y = DATA[name]
    if learner is not C45Classifier and X.isna().any().any():
        X = X.fillna(X.mode().iloc[0])  # only C4.5 takes missing values
    if learner is ID3Classifier and len(X) > 100:
        # ID3 makes every distinct number a branch (a slow drawing): categories only
        X = X.select_dtypes(exclude="number")
    model = learner().fit(X, y)
    text = model.to_json()
    back = from_json(text, expected=learner)
    assert type(back) is learner and back.get_params() == model.get_params()
    _same_tree(model.tree_, back.tree_)
    _same_predictions(model, back, X)
    assert back.to_json() == text  # and writing it again gives the same document


def test_round_trip_of_every_node_kind():
    X, y = DATA["play_tennis"]
    kinds = {int(k) for m in (ID3Classifier().fit(X, y), CARTClassifier().fit(X, y),
                              C45Classifier().fit(*DATA["golf"]))
             for k in m.tree_.kind}
    assert kinds == {int(k) for k in NodeKind}  # leaf, threshold, multiway, subset
    doc = json.loads(CARTClassifier().fit(X, y).to_json())
    assert {n["kind"] for n in doc["fitted"]["tree_"]["nodes"]} == {"leaf", "subset"}
    assert doc["schema_version"] == SCHEMA_VERSION == 2


def test_numeric_data_regression_and_pruned_trees():
    Xi, yi = load_iris(return_X_y=True)
    labels = np.array(["setosa", "versicolor", "virginica"])[yi]
    for model in (CARTClassifier(ccp_alpha=0.01).fit(Xi, labels),
                  CARTClassifier(criterion="entropy", grower="recursive").fit(Xi, yi),
                  C45Classifier(binary_splits=True).fit(Xi, yi)):
        back = from_json(to_json(model))
        _same_predictions(model, back, Xi)
        assert back.classes_.dtype == model.classes_.dtype
    Xd, yd = load_diabetes(return_X_y=True)
    reg = CARTRegressor(max_depth=5, ccp_alpha=10.0).fit(Xd, yd)
    back = from_json(reg.to_json(indent=1), expected=CARTRegressor)
    assert np.array_equal(back.predict(Xd), reg.predict(Xd))
    _same_tree(reg.full_tree_, back.full_tree_)


def test_unseen_categories_and_boolean_labels_survive():
    X = pd.DataFrame({"a": ["p", "q", "r", "p", "q", "r"], "b": [1.0, 2, 3, 4, 5, 6]})
    y = np.array([True, False, True, False, False, False])
    model = CARTClassifier().fit(X, y)
    back = from_json(model.to_json())
    X_new = pd.DataFrame({"a": ["s", "p"], "b": [0.5, 9.0]})
    assert list(back.predict(X_new)) == list(model.predict(X_new))
    assert back.classes_.dtype == bool and list(back.classes_) == [False, True]


def test_a_newer_schema_is_refused():
    doc = json.loads(ID3Classifier().fit(*DATA["loan"]).to_json())
    doc["schema_version"] = SCHEMA_VERSION + 1
    with pytest.raises(ValueError, match=r"schema_version 3.*newer.*\(2\).*upgrade"):
        from_json(json.dumps(doc))


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.pop("fitted"), r"missing the key 'fitted'"),
    (lambda d: d.update(format="other"), r"not a treebook model"),
    (lambda d: d.update(estimator="os.system"), r"not a treebook estimator"),
    (lambda d: d.update(estimator="treebook.core.tree.Tree"), r"not a treebook estimator"),
    (lambda d: d["fitted"]["tree_"]["nodes"][0].update(kind="oblique"),
     r"nodes\[0\]: kind must be one of"),
    (lambda d: d["fitted"]["tree_"]["nodes"][0].pop("children"),
     r"nodes\[0\]: missing the key 'children'"),
    (lambda d: d["fitted"]["tree_"]["nodes"][0].update(children=[0, 0, 0]),
     r"nodes\[0\]: child 0 is not a new node id"),
    (lambda d: d["fitted"]["tree_"]["nodes"][1].update(value=[1.0]),
     r"nodes\[1\]: 'value' must have n_outputs = 2"),
    (lambda d: d["fitted"]["tree_"]["nodes"][0].update(branch_of_code=[7, 0, 1]),
     r"nodes\[0\]: 'branch_of_code' entries"),
    (lambda d: d["params"].update(max_depth=-3), r"'params': max_depth"),
    (lambda d: d["fitted"]["tree_"].update(nodes=d["fitted"]["tree_"]["nodes"][::-1]),
     r"not one tree listed in depth-first pre-order"),
])
def test_malformed_documents_say_what_is_wrong(edit, message):
    doc = json.loads(ID3Classifier().fit(*DATA["loan"]).to_json())
    edit(doc)
    with pytest.raises(ValueError, match=message):
        from_json(json.dumps(doc))


def test_bad_arguments():
    with pytest.raises(ValueError, match="not valid JSON"):
        from_json("{not json")
    with pytest.raises(TypeError, match="text must be a JSON string"):
        from_json({"format": "treebook-model"})
    with pytest.raises(ValueError, match="not fitted"):
        to_json(CARTClassifier())
    with pytest.raises(TypeError, match="treebook estimator"):
        to_json(object())
    text = ID3Classifier().fit(*DATA["loan"]).to_json()
    with pytest.raises(TypeError, match="holds a ID3Classifier, not a CARTClassifier"):
        from_json(text, expected=CARTClassifier)


def test_the_document_is_strict_json_and_a_parameter_that_cannot_be_written_is_named():
    X, y = load_iris(return_X_y=True)
    text = CARTClassifier(max_depth=2).fit(X, y).to_json()
    json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard literal {c}"))
    model = CARTClassifier(random_state=np.random.default_rng(0)).fit(X, y)
    with pytest.raises(TypeError, match="parameter 'random_state'"):
        model.to_json()


@pytest.mark.parametrize("learner", LEARNERS + [CARTRegressor], ids=lambda c: c.__name__)
def test_pickle_still_works(learner):
    X, y = DATA["play_tennis"]
    if learner is CARTRegressor:
        y = np.arange(len(y), dtype=float)
    model = learner().fit(X, y)
    back = pickle.loads(pickle.dumps(model))
    assert np.array_equal(back.predict(X), model.predict(X))
    assert back.export_text() == model.export_text()


@pytest.mark.parametrize("missing", ["learn", "surrogate"])
def test_cart_missing_value_rule_survives_the_round_trip(missing):
    # CART's prediction-time rule for NaN (missing_go, surrogates) is part of the model:
    # without it a loaded tree sends missing values elsewhere and predicts differently
    from treebook import CARTClassifier
    from treebook.io.serialize import from_json

    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 4))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    X[rng.random(X.shape) < 0.2] = np.nan
    model = CARTClassifier(max_depth=4, missing=missing).fit(X, y)
    back = from_json(model.to_json())
    assert np.array_equal(back.tree_.missing_go, model.tree_.missing_go)
    assert len(back.tree_.surrogates) == len(model.tree_.surrogates)
    assert back.tree_.unseen_as_missing == model.tree_.unseen_as_missing
    assert np.array_equal(back.predict_proba(X), model.predict_proba(X))
    if missing == "surrogate":
        assert any(len(s) for s in back.tree_.surrogates)
