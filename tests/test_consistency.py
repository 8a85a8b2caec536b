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


# ------------------------------------------------------------ pruners check X's width
def _pruners():
    from treebook.prune import (prune_error_based, prune_optimal, prune_reduced_error,
                                pruning_set_errors)
    from treebook.prune.reduced_error import case_counts

    return [(prune_reduced_error, "X_prune"), (prune_optimal, "X_test"),
            (pruning_set_errors, "X"), (case_counts, "X"), (prune_error_based, "X")]


@pytest.mark.parametrize("width", [0, 1, 3, 5])
@pytest.mark.parametrize("prune, name", _pruners(), ids=lambda v: getattr(v, "__name__", v))
def test_pruners_refuse_an_X_of_another_width(prune, name, width):
    from treebook import C45Classifier

    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 4))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    est = C45Classifier().fit(X, y)
    Xe = est.encoder_.transform(X)
    assert set(est.tree_.feature[~est.tree_.is_leaf]) <= {0, 1}  # x2, x3 never tested
    prune(est.tree_, Xe, y)  # the right width works
    narrow_or_wide = np.hstack([Xe, Xe])[:, :width]
    with pytest.raises(ValueError, match=rf"^{name} has {width} columns, but the tree was "
                                         r"grown on 4 features"):
        prune(est.tree_, narrow_or_wide, y)


# ------------------------------------------------------------ values a column never had at fit
def _bool_int_frame():
    rng = np.random.default_rng(3)
    b = rng.random(80) < 0.5
    i = rng.integers(1, 4, 80)
    y = np.where(b, "yes", "no")
    return pd.DataFrame({"b": b, "i": i}), y


def _with(frame, column, values, dtype=object):
    out = frame.iloc[:len(values)].copy()
    out[column] = pd.Series(list(values), dtype=dtype, index=out.index)
    return out


def _learners_on_bools():
    from treebook import C45Classifier, CLSClassifier, ID3Classifier

    return [ID3Classifier(), C45Classifier(), CARTClassifier(), CLSClassifier()]


@pytest.mark.parametrize("est", _learners_on_bools(), ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("values", [[1, 0, 1, 0], ["True", "False", "True", "False"],
                                    [1.0, 0.0, 1.0, 0.0]], ids=["ints", "strings", "floats"])
def test_a_boolean_column_given_other_types_is_unseen_and_warned(est, values):
    X, y = _bool_int_frame()
    est.fit(X, y)
    assert est.tree_.feature[0] == 0  # the root tests the boolean column
    Xp = _with(X, "b", values)
    with pytest.warns(UserWarning, match=r"X column 'b': 4 of 4 values were never seen"):
        proba = est.predict_proba(Xp)
    # unseen at the root: every row gets what the rows with no branch there get, the
    # answer for a row whose value is missing or unknown, not the True/False branch
    unseen = _with(X, "b", ["never seen"] * 4)
    with pytest.warns(UserWarning, match="never seen"):
        expected = est.predict_proba(unseen)
    assert np.allclose(proba, expected)
    assert np.allclose(proba, proba[0])


def test_an_int_category_given_strings_is_unseen_and_warned():
    from treebook import ID3Classifier

    X, _ = _bool_int_frame()
    y = np.where(X["i"] == 2, "two", "other")
    est = ID3Classifier().fit(X[["i"]], y)
    with pytest.warns(UserWarning, match=r"X column 'i': 3 of 3 values were never seen"):
        pred = est.predict(_with(X[["i"]], "i", ["1", "2", "3"]))
    root = est.classes_[np.argmax(est.tree_.value[0])]
    assert list(pred) == [root] * 3


def test_the_warning_is_once_per_column_per_call_and_only_above_half():
    import warnings

    from treebook import ID3Classifier

    X, y = _bool_int_frame()
    est = ID3Classifier().fit(X, y)
    both = X.iloc[:4].copy().astype(object)
    both["b"] = ["True"] * 4
    both["i"] = ["1"] * 4
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.predict(both)
    messages = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    assert len(messages) == 2
    assert any("'b'" in m for m in messages) and any("'i'" in m for m in messages)
    half = _with(X, "b", [True, False, "True", "False"])  # 2 of 4: not more than half
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est.predict(half)
    missing = _with(X, "b", [None, None, None, "True"])  # missing values do not count
    from treebook import C45Classifier

    c45 = C45Classifier().fit(X, y)
    with pytest.warns(UserWarning, match="1 of 1 values"):
        c45.predict(missing)


def test_a_numeric_category_never_matches_a_boolean():
    from treebook import ID3Classifier

    X = pd.DataFrame({"n": [0, 1] * 20})
    y = np.where(X["n"] == 1, "one", "zero")
    est = ID3Classifier().fit(X, y)
    with pytest.warns(UserWarning, match="4 of 4"):
        proba = est.predict_proba(_with(X, "n", [True, False, True, False]))
    assert np.allclose(proba, est.tree_.value[0] / est.tree_.value[0].sum())


def test_a_categorical_column_with_unseen_levels_warns():
    from treebook import ID3Classifier

    X = pd.DataFrame({"c": pd.Categorical(["a", "b"] * 20)})
    y = np.where(X["c"] == "a", "A", "B")
    est = ID3Classifier().fit(X, y)
    new = pd.DataFrame({"c": pd.Categorical(["x", "y", "a"])})
    with pytest.warns(UserWarning, match="2 of 3"):
        est.predict(new)
