"""Missing values in CART (and the one missing-value rule every learner shares).

Hand-built cases with hand-computed agreements for the surrogate splits (rpart's
``choose_surg.c``), the routing of a case with a missing value, the one missing value
(NaN, None, ``pd.NA``), bad parameters, pickling and cloning.
"""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest

from treebook import C45Classifier, CARTClassifier, CARTRegressor
from treebook.core.base import clone
from treebook.core.splits import NodeKind

# Eight rows with a known primary feature ``a`` (a <= 4.5 separates the classes), a
# numeric surrogate ``b`` and a categorical one ``c``; rows 9-11 miss ``a``.
#   b, sorted with the primary direction:  1L 2L 3L 4R 6L 7R 8R 9R
#   the cut b < 3.5 sends 3 L left and 4 of the 5 others right: 7 of 8 agree
#   c: u = {L, L, L, R}, v = {L, R, R}, w = {R}: u left, v and w right, 6 of 8 agree
HAND = pd.DataFrame({
    "a": [1, 2, 3, 4, 5, 6, 7, 8, np.nan, np.nan, np.nan],
    "b": [1, 2, 3, 6, 4, 7, 8, 9, 2, np.nan, np.nan],
    "c": ["u", "u", "v", "u", "u", "v", "w", "v", "w", "w", None],
})
HAND_Y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1])


def stump(**params):
    return CARTClassifier(missing="surrogate", max_depth=1, **params).fit(HAND, HAND_Y)


def test_surrogate_agreements_by_hand():
    t = stump().tree_
    # rpart sends a < 4.5 left; stored as the largest double below 4.5 (x <= t)
    assert t.feature[0] == 0 and np.nextafter(t.threshold[0], np.inf) == 4.5
    b, c = t.surrogates[0]
    # agreement = agreeing weight / weight with a known primary direction (8);
    # majority baseline = max(4, 4) / 8 = 1/2; adj = (agreement - 1/2) / (1 - 1/2)
    assert (b.feature, b.kind, b.threshold, b.low_branch) == (1, NodeKind.THRESHOLD, 3.5, 0)
    assert b.agreement == 7 / 8 and b.adjusted == 0.75
    assert (c.feature, c.kind) == (2, NodeKind.SUBSET)
    assert c.agreement == 6 / 8 and c.adjusted == 0.5
    assert c.branch_of_code.tolist() == [0, 1, 1]  # u left, v right, w right


def test_max_surrogates_keeps_the_best():
    t = stump(max_surrogates=1).tree_
    assert [s.feature for s in t.surrogates[0]] == [1]
    assert stump(max_surrogates=0).tree_.surrogates == ()


def test_training_cases_follow_their_first_surrogate():
    """Row 9 (b = 2 < 3.5) goes left with b; row 10 (b missing, c = w) goes right with c;
    row 11 has neither: the primary's known weights tie 4 : 4, so it stays at the root
    (rpart's nodesplit), and the children hold 5 rows each."""
    t = stump().tree_
    left, right = t.children_of(0)
    assert t.n_samples.tolist() == [11, 5, 5]
    assert t.value[left].tolist() == [5, 0] and t.value[right].tolist() == [0, 5]


def test_prediction_follows_surrogate_then_majority():
    m = stump()
    new = pd.DataFrame({"a": [np.nan] * 4, "b": [1.0, 5.0, np.nan, np.nan],
                        "c": ["w", "u", "u", None]})
    proba = m.predict_proba(new)
    assert proba[0].tolist() == [1, 0]  # b = 1 < 3.5: left
    assert proba[1].tolist() == [0, 1]  # b = 5: right (c is not asked)
    assert proba[2].tolist() == [1, 0]  # b missing, c = u: left
    # nothing known: the children hold 5 rows each (a tie), so the case stays at the
    # root and gets its distribution (rpart's pred_rpart: lcount == rcount)
    assert np.allclose(proba[3], [5 / 11, 6 / 11])


def test_majority_direction_when_no_surrogate():
    X = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6, 7, np.nan]})
    y = [0, 0, 0, 1, 1, 1, 1, 1]
    m = CARTClassifier(missing="surrogate", max_depth=1).fit(X, y)
    t = m.tree_
    assert t.surrogates == () or t.surrogates[0] == ()
    # 3 rows left, 4 right among the known: the missing row goes right in training,
    # and a missing value at prediction goes to the child with more rows (5 vs 3)
    assert t.n_samples.tolist() == [8, 3, 5]
    assert m.predict(pd.DataFrame({"a": [np.nan]})).tolist() == [1]


def test_no_surrogates_means_the_case_stays_in_training():
    """max_surrogates=0 is rpart's maxsurrogate = 0: surrogate() is never called, the
    node has no default direction, and the row missing ``a`` stays at the root, so the
    children hold the 7 known rows only (3 and 4, as rpart's frame$n counts them; rpart
    itself would drop this row, whose every predictor is missing, before growing). At
    prediction a missing value still goes to the larger child (pred_rpart.c: 4 rows
    against 3)."""
    X = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6, 7, np.nan]})
    y = [0, 0, 0, 1, 1, 1, 1, 1]
    m = CARTClassifier(missing="surrogate", max_surrogates=0, max_depth=1).fit(X, y)
    t = m.tree_
    assert t.n_samples.tolist() == [8, 3, 4]
    assert t.value[0].tolist() == [3, 5]
    assert t.value[1].tolist() == [3, 0] and t.value[2].tolist() == [0, 4]
    assert m.predict_proba(pd.DataFrame({"a": [np.nan]})).tolist() == [[0, 1]]
    # the rows of HAND missing ``a`` (9-11) all stay at the root: 4 + 4 below it
    h = stump(max_surrogates=0).tree_
    assert h.n_samples.tolist() == [11, 4, 4]


def test_unseen_category_routes_like_a_missing_value_with_surrogates():
    X = pd.DataFrame({"c": ["p", "p", "q", "q", "p", "q"], "x": [1, 2, 9, 8, 3, 7.0]})
    y = [0, 0, 1, 1, 0, 1]
    m = CARTClassifier(missing="surrogate", max_depth=1).fit(X, y)
    new = pd.DataFrame({"c": ["r", "r"], "x": [1.5, 8.5]})
    assert m.predict(new).tolist() == [0, 1]
    # the default rule (learn) stops an unseen category at the node, as before
    m = CARTClassifier(max_depth=1).fit(X, y)
    assert np.allclose(m.predict_proba(new), [[0.5, 0.5], [0.5, 0.5]])


def test_learn_sends_missing_rows_to_the_better_side():
    """a <= 2.5 separates 0s from 1s; the two rows missing a are 1s, so scikit-learn's
    rule puts them right (with the 1s), and a NaN at prediction goes right too."""
    X = np.array([[1.0], [2.0], [3.0], [4.0], [np.nan], [np.nan]])
    y = [0, 0, 1, 1, 1, 1]
    m = CARTClassifier().fit(X, y)
    t = m.tree_
    assert t.threshold[0] == 2.5 and t.missing_go[0] == 1
    assert t.n_samples.tolist() == [6, 2, 4]
    assert m.predict([[np.nan]]).tolist() == [1]


def test_learn_only_missing_split_is_a_candidate():
    """When the missing rows are all one class and the known all another, the best
    split is known | missing (threshold +inf), as in scikit-learn."""
    X = np.array([[1.0], [2.0], [3.0], [np.nan], [np.nan]])
    y = [0, 0, 0, 1, 1]
    t = CARTClassifier().fit(X, y).tree_
    assert t.threshold[0] == np.inf and t.missing_go[0] == 1


def test_learn_nan_at_a_node_that_saw_none_goes_to_the_larger_child():
    X = np.arange(10.0)[:, None]
    y = [0, 0, 0, 1, 1, 1, 1, 1, 1, 1]
    m = CARTClassifier(max_depth=1).fit(X, y)
    assert m.tree_.n_samples.tolist() == [10, 3, 7]
    assert m.predict([[np.nan]]).tolist() == [1]
    # a tie goes right
    m = CARTClassifier(max_depth=1).fit(np.arange(4.0)[:, None], [0, 0, 1, 1])
    assert m.tree_.missing_go[0] == 1


def test_error_names_the_column():
    X = pd.DataFrame({"size": [1.0, np.nan, 3.0, 4.0], "z": [1, 2, 3, 4]})
    with pytest.raises(ValueError, match="'size' has missing values.*missing='error'"):
        CARTClassifier(missing="error").fit(X, [0, 1, 0, 1])
    m = CARTRegressor(missing="error").fit(X.fillna(2.0), [0.0, 1.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="'size' has missing values"):
        m.predict(X)


@pytest.mark.parametrize("params, name", [({"missing": "bogus"}, "missing"),
                                          ({"max_surrogates": -1}, "max_surrogates"),
                                          ({"max_surrogates": 2.5}, "max_surrogates"),
                                          ({"missing": "surrogate", "grower": "levelwise"},
                                           "grower")])
@pytest.mark.parametrize("cls", [CARTClassifier, CARTRegressor])
def test_bad_parameters(cls, params, name):
    with pytest.raises((ValueError, TypeError), match=name):
        cls(**params).fit(HAND[["b"]].fillna(0), HAND_Y)


def test_levelwise_grows_nan_as_the_recursive_grower():
    """grower="levelwise" has scikit-learn's rule (missing="learn") and builds the
    recursive grower's tree; missing="surrogate" with it is refused (test_bad_parameters)."""
    X = np.array([[1.0], [np.nan], [3.0], [4.0], [np.nan], [6.0]])
    y = [0, 1, 0, 1, 1, 0]
    a = CARTClassifier(grower="levelwise").fit(X, y).tree_
    b = CARTClassifier(grower="recursive").fit(X, y).tree_
    for name in ("feature", "threshold", "n_samples", "value", "missing_go"):
        assert np.array_equal(getattr(a, name), getattr(b, name), equal_nan=True), name


@pytest.mark.parametrize("missing", ["learn", "surrogate"])
def test_pickle_clone_get_params(missing):
    m = CARTClassifier(missing=missing, max_surrogates=3).fit(HAND, HAND_Y)
    assert m.get_params()["missing"] == missing and m.get_params()["max_surrogates"] == 3
    c = clone(m)
    assert c.missing == missing and not hasattr(c, "tree_")
    back = pickle.loads(pickle.dumps(m))
    assert np.array_equal(back.predict_proba(HAND), m.predict_proba(HAND))
    from sklearn.base import clone as sk_clone
    assert sk_clone(m).get_params() == m.get_params()


# ----------------------------------------------------------------- one missing value
def _variants():
    """The same column with its missing cells as NaN, None and pd.NA, in numeric,
    nullable, object and Categorical columns."""
    num = [1.0, 2.0, np.nan, 4.0, 5.0, np.nan, 7.0, 8.0]
    cat = ["x", "y", None, "x", "y", None, "x", "y"]
    return {
        "float NaN": pd.DataFrame({"v": num}),
        "Float64 NA": pd.DataFrame({"v": pd.array(num, dtype="Float64")}),
        "Int64 NA": pd.DataFrame({"v": pd.array([1, 2, None, 4, 5, None, 7, 8], dtype="Int64")}),
        "object None": pd.DataFrame({"v": pd.Series([1.0, 2.0, None, 4.0, 5.0, None, 7.0, 8.0],
                                                    dtype=object)}),
        "numpy object NaN": np.array(num, dtype=object)[:, None],
        "cat None": pd.DataFrame({"v": cat}),
        "cat NaN": pd.DataFrame({"v": [np.nan if c is None else c for c in cat]}),
        "cat pd.NA": pd.DataFrame({"v": pd.array(cat, dtype="string")}),
        "Categorical": pd.DataFrame({"v": pd.Categorical(cat)}),
    }


Y8 = [0, 0, 1, 0, 1, 1, 1, 0]


@pytest.mark.parametrize("learner", [
    lambda: CARTClassifier(), lambda: CARTClassifier(missing="surrogate"),
    lambda: C45Classifier(pruning=None, min_samples_leaf=1)])
def test_nan_none_and_na_are_one_missing_value(learner):
    groups = {"num": ["float NaN", "Float64 NA", "Int64 NA", "object None",
                      "numpy object NaN"],
              "cat": ["cat None", "cat NaN", "cat pd.NA", "Categorical"]}
    variants = _variants()
    for names in groups.values():
        probas = [learner().fit(variants[n], Y8).predict_proba(variants[n]) for n in names]
        for n, p in zip(names[1:], probas[1:]):
            assert np.allclose(p, probas[0]), n
