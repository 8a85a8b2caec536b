"""Every learner works inside scikit-learn's model selection: clone, cross_val_score,
GridSearchCV. (scikit-learn is a dependency of the package.)"""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_diabetes, load_iris
from sklearn.model_selection import GridSearchCV, cross_val_score

import treebook

CLASSIFIERS = [
    name for name in ("ID3Classifier", "C45Classifier", "CARTClassifier", "CLSClassifier")
    if hasattr(treebook, name)
]


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_classifier_in_model_selection(name):
    X, y = load_iris(return_X_y=True)
    est = getattr(treebook, name)(max_depth=2)
    twin = clone(est)
    assert type(twin) is type(est) and twin.get_params() == est.get_params()
    scores = cross_val_score(est, X, y, cv=3)
    # a depth-2 tree on iris is far better than the 1/3 of guessing
    assert scores.shape == (3,) and scores.min() > 0.6
    grid = GridSearchCV(est, {"max_depth": [1, 3]}, cv=3).fit(X, y)
    # the grid refits clones with each parameter on the same folds as cross_val_score
    for depth, mean in zip([1, 3], grid.cv_results_["mean_test_score"]):
        direct = cross_val_score(clone(est).set_params(max_depth=depth), X, y, cv=3)
        assert mean == pytest.approx(direct.mean())
    assert grid.best_estimator_.get_params()["max_depth"] == grid.best_params_["max_depth"]


def test_regressor_in_model_selection():
    if not hasattr(treebook, "CARTRegressor"):
        pytest.fail("CARTRegressor is missing from treebook")
    X, y = load_diabetes(return_X_y=True)
    scores = cross_val_score(treebook.CARTRegressor(max_depth=3), X, y, cv=3, scoring="r2")
    assert scores.shape == (3,) and np.all(scores > 0.0)
