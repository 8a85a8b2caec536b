"""Cross-validated choice of C4.5's confidence factor (treebook.teaching.c45_tuning)."""

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import RepeatedStratifiedKFold

from treebook import C45Classifier
from treebook.teaching.c45_tuning import cross_validate_confidence


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    rng = np.random.default_rng(0)
    X = X + rng.normal(scale=0.3, size=X.shape)   # noise, so that CF matters
    return X, y


def test_each_row_equals_a_fresh_fit_at_that_confidence(iris):
    X, y = iris
    cfs = (0.05, 0.25, 0.5)
    table = cross_validate_confidence(C45Classifier(), X, y, confidences=cfs,
                                      n_splits=3, n_repeats=2, random_state=1)
    assert len(table) == 3 * 2 * len(cfs)
    folds = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=1)
    for k, (fit, held) in enumerate(folds.split(X, y)):
        for cf in cfs:
            row = table[(table.repeat == k // 3) & (table.fold == k % 3)
                        & (table.confidence == cf)].iloc[0]
            fresh = C45Classifier(confidence=cf).fit(X[fit], y[fit])
            assert row.accuracy == pytest.approx(fresh.score(X[held], y[held]), abs=1e-12)
            assert row.leaves == fresh.tree_.n_leaves


def test_the_estimator_is_not_changed(iris):
    X, y = iris
    est = C45Classifier(confidence=0.1, pruning="pep")
    cross_validate_confidence(est, X, y, confidences=(0.25,), n_splits=2, n_repeats=1)
    assert est.get_params()["pruning"] == "pep" and not hasattr(est, "tree_")


@pytest.mark.parametrize("kwargs, error", [
    (dict(confidences=()), ValueError),
    (dict(confidences=(0.0,)), ValueError),
    (dict(confidences=(0.7,)), ValueError),
    (dict(confidences=("a",)), TypeError),
    (dict(n_splits=1), ValueError),
    (dict(n_repeats=0), ValueError),
    (dict(n_splits=2.5), ValueError),
])
def test_bad_arguments_are_named(iris, kwargs, error):
    X, y = iris
    with pytest.raises(error, match=next(iter(kwargs))):
        cross_validate_confidence(C45Classifier(), X, y, **kwargs)


def test_needs_a_c45_estimator(iris):
    X, y = iris
    with pytest.raises(TypeError, match="estimator"):
        cross_validate_confidence(object(), X, y)
    with pytest.raises(ValueError, match="y must"):
        cross_validate_confidence(C45Classifier(), X, y[:-1])
