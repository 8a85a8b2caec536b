"""The learners are scikit-learn estimators by inheritance (issue 25): BaseEstimator with the
classifier / regressor mixins, so metadata routing (``set_fit_request``), the HTML display
and scikit-learn's printed form come from scikit-learn itself."""

import re

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator, clone, is_classifier, is_regressor
from sklearn.datasets import load_iris
from sklearn.exceptions import UnsetMetadataPassedError
from sklearn.metrics import accuracy_score, r2_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline

from treebook import C45Classifier, CARTClassifier, CARTRegressor, CLSClassifier, ID3Classifier
from treebook.ensemble import RandomForestClassifier
from treebook.hist import HistCARTClassifier, HistCARTRegressor

CLASSIFIERS = [ID3Classifier, C45Classifier, CARTClassifier, CLSClassifier, HistCARTClassifier]
REGRESSORS = [CARTRegressor, HistCARTRegressor]


@pytest.fixture(scope="module")
def iris_weighted():
    X, y = load_iris(return_X_y=True)
    # ten times the weight on virginica moves CART's root from x2 <= 2.45 to x2 <= 4.75
    return X, y, np.where(y == 2, 10.0, 1.0)


@pytest.mark.parametrize("cls", CLASSIFIERS + REGRESSORS)
def test_learners_are_scikit_learn_estimators(cls):
    est = cls()
    assert isinstance(est, BaseEstimator)
    assert is_classifier(est) == (cls in CLASSIFIERS)
    assert is_regressor(est) == (cls in REGRESSORS)
    # the estimator type the package itself reads agrees with scikit-learn's tags
    assert est._estimator_type == est.__sklearn_tags__().estimator_type


def test_the_weights_change_the_tree(iris_weighted):
    # the premise of the routing tests below: a tree that did not see the weights differs
    X, y, w = iris_weighted
    plain = CARTClassifier(max_depth=1).fit(X, y).export_text()
    weighted = CARTClassifier(max_depth=1).fit(X, y, sample_weight=w).export_text()
    assert plain != weighted and "x2 <= 4.75" in weighted


def test_set_fit_request_routes_sample_weight_through_a_pipeline(iris_weighted):
    X, y, w = iris_weighted
    direct = CARTClassifier(max_depth=1).fit(X, y, sample_weight=w).export_text()
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(CARTClassifier(max_depth=1).set_fit_request(sample_weight=True))
        pipe.fit(X, y, sample_weight=w)
        assert pipe[-1].export_text() == direct
        # a weight the estimator did not ask for is refused, not silently dropped
        with pytest.raises(UnsetMetadataPassedError, match="sample_weight"):
            make_pipeline(CARTClassifier(max_depth=1)).fit(X, y, sample_weight=w)


def test_set_fit_request_routes_sample_weight_through_grid_search(iris_weighted):
    X, y, w = iris_weighted
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    with sklearn.config_context(enable_metadata_routing=True):
        est = (CARTClassifier().set_fit_request(sample_weight=True)
               .set_score_request(sample_weight=True))
        grid = GridSearchCV(est, {"max_depth": [1, 2]}, cv=cv).fit(X, y, sample_weight=w)
    # each fold's score recomputed by hand: fit on the fold's weighted rows, score with
    # the held-out rows' weights
    for k, depth in enumerate(grid.cv_results_["param_max_depth"]):
        for i, (train, test) in enumerate(cv.split(X, y)):
            fold = CARTClassifier(max_depth=depth).fit(X[train], y[train], sample_weight=w[train])
            expected = accuracy_score(y[test], fold.predict(X[test]), sample_weight=w[test])
            assert grid.cv_results_[f"split{i}_test_score"][k] == pytest.approx(expected)
    # the refit saw every weight
    assert grid.best_estimator_.export_text() == CARTClassifier(
        max_depth=grid.best_params_["max_depth"]).fit(X, y, sample_weight=w).export_text()


def test_forest_routes_sample_weight(iris_weighted):
    X, y, w = iris_weighted
    direct = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y, sample_weight=w)
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(RandomForestClassifier(n_estimators=3, random_state=0)
                             .set_fit_request(sample_weight=True)).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(pipe.predict_proba(X), direct.predict_proba(X))


def test_html_display_shows_the_parameters():
    est = CARTClassifier(max_depth=2, criterion="entropy")
    bundle = est._repr_mimebundle_()
    html = bundle["text/html"]
    assert bundle["text/plain"] == repr(est)
    # the parameter table lists every parameter, the changed ones with their values
    for name in est.get_params():
        assert name in html
    assert "&#x27;entropy&#x27;" in html or "'entropy'" in html
    # the display links to no page off this machine (no documentation URL is known; the
    # book works offline): no href to any host, scikit-learn's documentation included
    assert not re.search(r'href="(?:https?:)?//', html)


def test_printed_form_is_scikit_learns():
    assert repr(CARTClassifier()) == "CARTClassifier()"
    assert repr(C45Classifier(pruning="pep", confidence=0.1)) == \
        "C45Classifier(confidence=0.1, pruning='pep')"
    # CLS's `score` parameter (kept as `split_score`) prints under its own name
    assert repr(CLSClassifier(score="positive_class")) == "CLSClassifier(score='positive_class')"


def test_clone_keeps_parameters_and_cls_score():
    twin = clone(CLSClassifier(score="positive_class", max_depth=2))
    assert twin.get_params()["score"] == "positive_class" and twin.max_depth == 2
    assert callable(twin.score)


def test_score_is_accuracy_and_r2(iris_weighted):
    X, y, w = iris_weighted
    clf = CARTClassifier(max_depth=2).fit(X, y)
    assert clf.score(X, y, sample_weight=w) == pytest.approx(
        accuracy_score(y, clf.predict(X), sample_weight=w))
    reg = CARTRegressor(max_depth=2).fit(X[:, :3], X[:, 3])
    assert reg.score(X[:, :3], X[:, 3], sample_weight=w) == pytest.approx(
        r2_score(X[:, 3], reg.predict(X[:, :3]), sample_weight=w))
    # the package's own checks of y remain (a column would broadcast against predictions)
    with pytest.raises(ValueError, match="one-dimensional"):
        clf.score(X, y[:, None])
