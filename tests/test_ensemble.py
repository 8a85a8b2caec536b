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


# ---------------------------------------------------------- against scikit-learn, statistically
#: the equivalence margin: the forests count as equally accurate when the 90 % confidence
#: interval of the mean paired difference of test accuracy lies inside ±EQUIVALENCE
EQUIVALENCE = 0.03
SEEDS = range(10)


def _datasets():
    from sklearn.datasets import load_breast_cancer, load_wine

    bc_X, bc_y = load_breast_cancer(return_X_y=True)
    wine_X, wine_y = load_wine(return_X_y=True)
    return {"synthetic (3 classes)": (X[:300], y[:300]), "breast cancer": (bc_X[::2], bc_y[::2]),
            "wine": (wine_X, wine_y)}


def paired_accuracies(make_a, make_b, Xd, yd, seeds=SEEDS):
    """Test accuracy of two learners on the same stratified 70/30 split for each seed."""
    from sklearn.model_selection import train_test_split

    a, b = [], []
    for seed in seeds:
        X_tr, X_te, y_tr, y_te = train_test_split(Xd, yd, test_size=0.3, stratify=yd,
                                                  random_state=seed)
        a.append(make_a(seed).fit(X_tr, y_tr).score(X_te, y_te))
        b.append(make_b(seed).fit(X_tr, y_tr).score(X_te, y_te))
    return np.array(a), np.array(b)


def equivalence_interval(a, b, level=0.90):
    """The two one-sided tests (TOST) as an interval: the ``level`` confidence interval of
    the mean paired difference ``a - b`` (Student t, n - 1 degrees of freedom)."""
    from scipy import stats

    d = np.asarray(a) - np.asarray(b)
    se = d.std(ddof=1) / np.sqrt(d.size)
    half = stats.t.ppf(0.5 + level / 2, d.size - 1) * se
    return d.mean() - half, d.mean() + half


def _equivalent(a, b):
    lo, hi = equivalence_interval(a, b)
    return -EQUIVALENCE < lo and hi < EQUIVALENCE


@pytest.mark.parametrize("max_features", ["sqrt", None], ids=["forest", "bagging"])
def test_accuracy_matches_scikit_learns_forest_within_noise(max_features):
    # same settings (10 trees, grown to purity, bootstrap, the same max_features), 10 seeds,
    # 3 data sets: on each data set the paired differences are equivalent within ±3 points,
    # and neither is significantly better by Welch's test at the 1 % level
    from scipy import stats

    for name, (Xd, yd) in _datasets().items():
        ours, theirs = paired_accuracies(
            lambda s: RandomForestClassifier(n_estimators=10, max_features=max_features,
                                             random_state=s),
            lambda s: SkForest(n_estimators=10, max_features=max_features, random_state=s),
            Xd, yd)
        welch = stats.ttest_ind(ours, theirs, equal_var=False).pvalue
        assert _equivalent(ours, theirs), (name, ours.mean(), theirs.mean(),
                                           equivalence_interval(ours, theirs))
        assert welch > 0.01, (name, ours.mean(), theirs.mean(), welch)


def test_the_equivalence_check_can_fail():
    # a forest of stumps is not "within noise" of a forest: the check has power
    Xd, yd = _datasets()["synthetic (3 classes)"]
    full, stumps = paired_accuracies(lambda s: SkForest(n_estimators=10, random_state=s),
                                     lambda s: SkForest(n_estimators=10, max_depth=1,
                                                        random_state=s), Xd, yd)
    assert not _equivalent(full, stumps)


def test_bagging_is_a_forest_of_every_feature():
    from treebook.ensemble import BaggingClassifier

    a = BaggingClassifier(n_estimators=4, random_state=2).fit(X, y)
    b = RandomForestClassifier(n_estimators=4, max_features=None, random_state=2).fit(X, y)
    assert a.max_features is None and np.array_equal(a.predict_proba(X), b.predict_proba(X))
    assert BaggingClassifier(n_estimators=3, max_features=2).get_params()["max_features"] == 2


def test_categorical_forest_predicts_as_its_trees():
    import pandas as pd

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"colour": rng.choice(["red", "green", "blue"], 200).astype(object),
                          "x": rng.random(200)})
    target = np.where((frame["colour"] == "red") ^ (frame["x"] > 0.7), "a", "b")
    f = RandomForestClassifier(n_estimators=5, random_state=0, oob_score=True).fit(frame, target)
    mean = np.mean([t.predict_proba(frame) for t in f.estimators_], axis=0)
    assert np.allclose(f.predict_proba(frame), mean) and f.oob_score_ > 0.8


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
