"""Forests from treebook's own CART: reproducible, OOB right, and as good as scikit-learn's."""

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.ensemble import RandomForestClassifier as SkForest
from sklearn.ensemble import RandomForestRegressor as SkForestRegressor
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import cross_val_score

from treebook import CARTClassifier
from treebook.ensemble import RandomForestClassifier, RandomForestRegressor

X, y = make_classification(n_samples=600, n_features=12, n_informative=5, n_classes=3,
                           random_state=0)


def test_a_seed_reproduces_the_forest():
    a = RandomForestClassifier(n_estimators=10, random_state=3).fit(X, y)
    b = RandomForestClassifier(n_estimators=10, random_state=3, n_jobs=2).fit(X, y)
    assert np.array_equal(a.predict_proba(X), b.predict_proba(X))
    c = RandomForestClassifier(n_estimators=10, random_state=4).fit(X, y)
    assert not np.array_equal(a.predict_proba(X), c.predict_proba(X))


def test_predictions_are_the_mean_of_the_trees():
    f = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    mean = np.mean([t.predict_proba(X) for t in f.estimators_], axis=0)
    assert np.allclose(f.predict_proba(X), mean) and np.allclose(mean.sum(axis=1), 1)
    assert (f.predict(X) == f.classes_[np.argmax(mean, axis=1)]).all()


def test_each_tree_weights_its_bootstrap_counts():
    f = RandomForestClassifier(n_estimators=3, random_state=0, max_features=None).fit(X, y)
    for tree, rows in zip(f.estimators_, f.estimators_samples_):
        # the root's weight is n (the bootstrap draws n rows); OOB rows carry none
        assert tree.tree_.weighted_n[0] == len(X)
        assert 0.55 < len(rows) / len(X) < 0.70   # about 1 - 1/e = 0.632 distinct rows


def test_bagging_is_max_features_none():
    f = RandomForestClassifier(n_estimators=1, bootstrap=False, max_features=None).fit(X, y)
    single = CARTClassifier().fit(X, y)
    assert np.array_equal(f.predict_proba(X), single.predict_proba(X))


def test_oob_score_by_hand():
    f = RandomForestClassifier(n_estimators=15, random_state=1, oob_score=True).fit(X, y)
    right, seen = 0, 0
    for i in range(len(X)):
        trees = [t for t, s in zip(f.estimators_, f.estimators_samples_) if i not in set(s)]
        if trees:
            p = np.mean([t.predict_proba(X[i:i + 1])[0] for t in trees], axis=0)
            right += int(np.argmax(p) == y[i])
            seen += 1
    assert np.isclose(f.oob_score_, right / seen)


def test_accuracy_matches_scikit_learns_forest_within_noise():
    # same settings, 5 seeds each, 3-fold CV: the mean accuracies differ by less than
    # three standard errors of the difference
    ours, theirs = [], []
    for seed in range(5):
        ours.append(cross_val_score(RandomForestClassifier(n_estimators=30, random_state=seed),
                                    X, y, cv=3).mean())
        theirs.append(cross_val_score(SkForest(n_estimators=30, random_state=seed),
                                      X, y, cv=3).mean())
    d = np.array(ours) - np.array(theirs)
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert abs(d.mean()) < max(3 * se, 0.01), (np.mean(ours), np.mean(theirs))


def test_regressor_oob_and_accuracy():
    Xr, yr = make_regression(n_samples=400, n_features=6, noise=10, random_state=0)
    f = RandomForestRegressor(n_estimators=30, random_state=0, oob_score=True).fit(Xr, yr)
    sk = SkForestRegressor(n_estimators=30, random_state=0, oob_score=True).fit(Xr, yr)
    assert abs(f.oob_score_ - sk.oob_score_) < 0.05
    assert np.allclose(f.predict(Xr), np.mean([t.predict(Xr) for t in f.estimators_], axis=0))


def test_importances_sum_to_one_and_find_the_informative_features():
    f = RandomForestClassifier(n_estimators=30, random_state=0).fit(X, y)
    imp = f.feature_importances_
    assert np.isclose(imp.sum(), 1.0)
    sk = SkForest(n_estimators=30, random_state=0).fit(X, y).feature_importances_
    assert set(np.argsort(imp)[-3:]) & set(np.argsort(sk)[-3:])


@pytest.mark.parametrize("params, match", [({"n_estimators": 0}, "n_estimators"),
                                           ({"oob_score": True, "bootstrap": False}, "bootstrap"),
                                           ({"max_features": 0}, "max_features")])
def test_bad_parameters(params, match):
    with pytest.raises((TypeError, ValueError), match=match):
        RandomForestClassifier(**{"n_estimators": 2, **params}).fit(X, y)


def test_unfitted():
    with pytest.raises(NotFittedError):
        RandomForestClassifier().predict(X)
