"""Issue 22, "concurrency, labels, consistency": fit never writes a parameter; odd labels
draw; the forest's classes and score; pruners check X's width; values a column never had
at fit are unseen (and said so); ``max_depth=0`` is one leaf everywhere; ``to_json``
before fit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from treebook import CARTClassifier

RNG = np.random.default_rng(22)
X2 = RNG.normal(size=(60, 2))
Y2 = (X2[:, 0] > 0).astype(int)


# ------------------------------------------------------------ odd labels in the drawing
ODD_TEXT = ["", " ", "\t", "\n", "\x00", "\x7f", "]", "]]>", "<B>", "&", '"', "\\", "é"]


@pytest.mark.parametrize("text", ODD_TEXT)
def test_odd_class_labels_and_feature_names_draw(text):
    by_label = CARTClassifier(max_depth=1).fit(X2, np.where(Y2 == 1, text, "x"))
    by_name = CARTClassifier(max_depth=1).fit(pd.DataFrame(X2, columns=[text, "b"]), Y2)
    for est in (by_label, by_name):
        g = est.to_graphviz()
        assert "<B></B>" not in g.source
        svg = g.pipe(format="svg", encoding="utf-8")  # dot accepts the source
        assert svg.count('class="node"') == 3


def test_an_empty_name_is_shown_as_two_quotes():
    est = CARTClassifier(max_depth=1).fit(pd.DataFrame(X2, columns=["", "b"]), Y2)
    root = next(line for line in est.to_graphviz().source.splitlines() if "n0 [" in line)
    assert "<B>&quot;&quot;</B>" in root


# ------------------------------------------------------------ fit never writes a parameter
def _learners():
    from treebook import (C45Classifier, CARTRegressor, CLSClassifier, ID3Classifier,
                          OptimalTreeClassifier)
    from treebook.ensemble import (BaggingClassifier, RandomForestClassifier,
                                   RandomForestRegressor)
    from treebook.hist import HistCARTClassifier, HistCARTRegressor

    Xc = np.digitize(X2, [-0.5, 0.5]).astype(str)
    big = X2[:, 0] * 2.0 ** 40 + X2[:, 1]  # responses far from [0.5, 1): fit scales them
    return [
        (ID3Classifier(max_depth=3), Xc, Y2),
        (C45Classifier(), X2, Y2),
        (CARTClassifier(min_impurity_decrease=0.01, ccp_alpha=0.01), X2, Y2),
        (CARTRegressor(min_impurity_decrease=2.0 ** 60, ccp_alpha=2.0 ** 70), X2, big),
        (CLSClassifier(max_depth=3), X2, Y2),
        (HistCARTClassifier(min_impurity_decrease=0.01), X2, Y2),
        (HistCARTRegressor(min_impurity_decrease=2.0 ** 60), X2, big),
        (RandomForestClassifier(5, random_state=0, ccp_alpha=0.01), X2, Y2),
        (RandomForestRegressor(5, random_state=0, min_impurity_decrease=2.0 ** 60), X2, big),
        (BaggingClassifier(3, random_state=0), X2, Y2),
        (OptimalTreeClassifier(max_depth=2, ccp_alpha=0.01), Xc, Y2),
    ]


def _guarded(est):
    """``est`` as an instance of a subclass that refuses, once armed, any write of one of
    its constructor parameters."""
    names = set(type(est)._get_param_names())

    class Guarded(type(est)):
        def __setattr__(self, name, value):
            if name in names and self.__dict__.get("_armed", False):
                raise AssertionError(f"fit wrote the parameter {name}={value!r}")
            super().__setattr__(name, value)

    Guarded.__name__ = type(est).__name__
    out = Guarded(**est.get_params(deep=False))
    out.__dict__["_armed"] = True
    return out


@pytest.mark.parametrize("est, X, y", _learners(),
                         ids=[type(case[0]).__name__ for case in _learners()])
def test_fit_never_writes_a_parameter(est, X, y):
    before = est.get_params(deep=False)
    guarded = _guarded(est)
    guarded.fit(X, y)  # the guard raises at the first write of a parameter
    guarded.predict(X)
    assert guarded.get_params(deep=False) == before
    est.fit(X, y)
    assert est.get_params(deep=False) == before


def test_concurrent_fits_of_one_estimator_keep_its_parameters():
    from concurrent.futures import ThreadPoolExecutor

    from treebook import CARTRegressor
    from treebook.hist import HistCARTRegressor

    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=400)) * 2.0 ** 30
    for est in (CARTRegressor(min_impurity_decrease=2.0 ** 50, ccp_alpha=2.0 ** 52),
                HistCARTRegressor(min_impurity_decrease=2.0 ** 50)):
        before = est.get_params(deep=False)
        serial = type(est)(**before).fit(X, y).predict(X)
        with ThreadPoolExecutor(max_workers=8) as pool:
            list(pool.map(lambda _: est.fit(X, y), range(64)))
        assert est.get_params(deep=False) == before
        assert np.array_equal(est.predict(X), serial)


# ------------------------------------------------------------ the forest's classes and score
@pytest.mark.parametrize("class_weight", [None, "balanced", "balanced_subsample"])
def test_forest_keeps_an_unused_middle_category_as_a_class(class_weight):
    from treebook.ensemble import RandomForestClassifier

    y = pd.Categorical(np.where(Y2 == 1, "a", "c"), categories=["a", "b", "c"])  # b unused
    f = RandomForestClassifier(5, random_state=0, class_weight=class_weight).fit(X2, y)
    assert list(f.classes_) == ["a", "b", "c"]
    proba = f.predict_proba(X2)
    assert proba.shape == (len(X2), 3) and np.all(proba[:, 1] == 0)
    assert np.allclose(proba.sum(axis=1), 1)
    assert set(f.predict(X2)) <= {"a", "c"}
    assert f.score(X2, y) == np.mean(f.predict(X2) == np.asarray(y))


def test_forest_with_tuple_labels_scores_like_its_predictions():
    from treebook.ensemble import RandomForestClassifier

    labels = [("yes", 1) if v else ("no", 0) for v in Y2]   # a plain list of tuples
    f = RandomForestClassifier(5, random_state=0).fit(X2, labels)
    pred = f.predict(X2)
    expected = np.mean([tuple(p) == t for p, t in zip(pred, labels)])
    assert f.score(X2, labels) == expected and expected > 0.9


# ------------------------------------------------------------ to_json before fit
@pytest.mark.parametrize("make", [case[0] for case in _learners()
                                  if hasattr(case[0], "to_json")],
                         ids=[type(case[0]).__name__ for case in _learners()
                              if hasattr(case[0], "to_json")])
def test_to_json_before_fit_is_not_fitted_error(make):
    from sklearn.base import clone as sk_clone
    from sklearn.exceptions import NotFittedError

    from treebook.io.serialize import to_json

    est = sk_clone(make)
    with pytest.raises(NotFittedError, match="not fitted"):
        est.to_json()
    with pytest.raises(NotFittedError, match="not fitted"):
        to_json(est)


# ------------------------------------------------------------ max_depth=0: one leaf everywhere
@pytest.mark.parametrize("est, X, y", _learners(),
                         ids=[type(case[0]).__name__ for case in _learners()])
def test_max_depth_zero_is_a_single_leaf(est, X, y):
    from sklearn.base import clone as sk_clone

    fitted = sk_clone(est).set_params(max_depth=0).fit(X, y)
    trees = getattr(fitted, "estimators_", [fitted])
    for t in trees:
        assert t.tree_.node_count == 1 and t.get_depth() == 0
    pred = fitted.predict(X)
    assert np.all(pred == pred[0])  # every row gets the root's answer
    if hasattr(fitted, "classes_") and len(trees) == 1:  # a single tree: the majority class
        values, counts = np.unique(np.asarray(y), return_counts=True)
        assert pred[0] == values[np.argmax(counts)]


@pytest.mark.parametrize("params", [dict(grower="recursive"), dict(grower="levelwise"),
                                    dict(max_leaf_nodes=4), dict(missing="surrogate")])
def test_cart_max_depth_zero_with_every_grower(params):
    est = CARTClassifier(max_depth=0, **params).fit(X2, Y2)
    assert est.tree_.node_count == 1
    assert np.allclose(est.predict_proba(X2), np.bincount(Y2) / len(Y2))
