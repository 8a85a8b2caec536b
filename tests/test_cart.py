"""CARTClassifier / CARTRegressor: published numbers, scikit-learn, brute force, the API.

References that share no code with the package under test:

* Li Hang, *Statistical Learning Methods* (2nd ed., 2019): example 5.4 (Gini indices on
  the loan table, printed to 2 decimals) and exercise 5.2 (a least-squares regression
  tree on ten points; the split costs are recomputed here with plain sums);
* scikit-learn 1.9's ``DecisionTreeClassifier``/``Regressor``, walked node by node
  against ours (``cart_reference.walk_against_sklearn``): where the two trees split the
  same rows left they must agree exactly; where they do not, both splits must cost the
  same (a tie that scikit-learn breaks by a random feature order);
* brute force: every cut of every feature at every node, scored from masks.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import (load_breast_cancer, load_diabetes, load_iris, load_wine,
                              make_classification)
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from cart_reference import (brute_force_subset_costs, brute_force_threshold_costs,
                            node_rows, split_cost, walk_against_sklearn)
from tree_invariants import assert_tree_invariants
from treebook import CARTClassifier, CARTRegressor
from treebook.teaching.cart_readable import naive_best_threshold
from treebook.datasets import load_loan
from treebook.core.impurity import gini_index
from treebook.core.tree import NodeKind

PROPS = settings(max_examples=40, deadline=None)


def f32(X):
    """scikit-learn grows on float32 copies of X: give both packages the same numbers."""
    return np.asarray(X, dtype=np.float32).astype(np.float64)


# ----------------------------------------------------------------- published examples
def test_li_hang_example_5_4_gini_of_the_loan_table():
    """Li Hang ex. 5.4: Gini(D, A3 = yes) = 0.27 is the smallest, so CART's root tests
    owns_house; the other printed values are recomputed to the same 2 decimals."""
    X, y = load_loan(return_X_y=True)
    printed = {("age", "youth"): 0.44, ("age", "middle"): 0.48, ("age", "old"): 0.44,
               ("has_job", "yes"): 0.32, ("owns_house", "yes"): 0.27,
               ("credit", "fair"): 0.32, ("credit", "good"): 0.47,
               ("credit", "excellent"): 0.36}
    for (col, val), g in printed.items():
        left = (X[col] == val).to_numpy()
        table = [[np.sum(y[left] == c) for c in ("no", "yes")],
                 [np.sum(y[~left] == c) for c in ("no", "yes")]]
        assert round(gini_index(table), 2) == g, (col, val)
    model = CARTClassifier().fit(X, y)
    t = model.tree_
    assert model.feature_names_in_[t.feature[0]] == "owns_house"
    assert t.kind[0] == NodeKind.SUBSET
    # the root's improvement is Gini(D) - Gini(D, A3) (root weight = |D|)
    assert t.kind[0] == NodeKind.SUBSET
    root_gini = 1 - (6 / 15) ** 2 - (9 / 15) ** 2
    left, right = t.children_of(0)
    children = (t.weighted_n[left] * t.impurity[left] + t.weighted_n[right] * t.impurity[right]) / 15
    assert round(children, 2) == 0.27 and np.isclose(t.impurity[0], root_gini)
    # the tree separates the table perfectly (Li Hang's tree: owns_house, then has_job)
    assert model.score(X, y) == 1.0
    assert model.feature_names_in_[t.feature[t.children_of(0)[1 - int(t.codes_of(0)[1])]]] \
        == "has_job" or t.n_leaves == 3


def test_li_hang_exercise_5_2_regression_tree():
    """x = 1..10: the least-squares cut s minimises m(s) = SSE(x <= s) + SSE(x > s);
    m(5) = 3.36 is the minimum (published), then 3 on the left and 7 on the right, with
    leaf means 4.72, 5.57, 7.475, 8.64."""
    x = np.arange(1, 11, dtype=float)
    y = np.array([4.50, 4.75, 4.91, 5.34, 5.80, 7.05, 7.90, 8.23, 8.70, 9.00])

    def sse(v):
        return float(((v - v.mean()) ** 2).sum()) if v.size else 0.0

    m = [sse(y[x <= s]) + sse(y[x > s]) for s in range(1, 10)]
    assert int(np.argmin(m)) + 1 == 5 and round(m[4], 2) == 3.36
    t = CARTRegressor(max_depth=2).fit(x[:, None], y).tree_
    assert list(t.threshold[~np.isnan(t.threshold)]) == [5.5, 3.5, 7.5]
    leaves = t.value[t.is_leaf, 0]
    assert np.allclose(leaves, [4.72, 5.57, 7.475, 8.6433333], atol=5e-6)
    assert np.isclose(t.impurity[0] * 10, sse(y))
    left, right = t.children_of(0)
    assert np.isclose(t.impurity[left] * 5 + t.impurity[right] * 5, m[4])


# ----------------------------------------------------------------- against scikit-learn
@pytest.mark.parametrize("loader", [load_iris, load_wine, load_breast_cancer])
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_classifier_matches_sklearn_up_to_ties(loader, criterion):
    X, y = loader(return_X_y=True)
    X = f32(X)
    ours = CARTClassifier(criterion=criterion).fit(X, y).tree_
    assert_tree_invariants(ours)
    w = np.ones(len(y))
    covered = []
    for seed in range(3):
        sk = DecisionTreeClassifier(criterion=criterion, random_state=seed).fit(X, y)
        compared, _ = walk_against_sklearn(ours, sk.tree_, X, y, w, criterion)
        covered.append(compared / ours.node_count)
    assert max(covered) >= 0.5  # ties stop a walk, but not all seeds stop early


@pytest.mark.parametrize("params", [
    {}, {"criterion": "entropy", "min_samples_leaf": 5}, {"min_samples_split": 30},
    {"max_depth": 6}, {"min_impurity_decrease": 0.002}, {"min_samples_leaf": 3, "max_depth": 9},
])
def test_classifier_matches_sklearn_on_make_classification(params):
    X, y = make_classification(n_samples=1500, n_features=8, n_informative=5,
                               random_state=1)
    X = f32(X)
    ours = CARTClassifier(**params).fit(X, y).tree_
    crit = params.get("criterion", "gini")
    for seed in range(2):
        sk = DecisionTreeClassifier(random_state=seed, **params).fit(X, y)
        walk_against_sklearn(ours, sk.tree_, X, y, np.ones(len(y)), crit)


def test_classifier_equals_sklearn_exactly_where_nothing_ties():
    """Large leaves on continuous data: no two candidate splits tie anywhere, so every
    seed of scikit-learn grows our tree — same features, thresholds and values."""
    X, y = make_classification(n_samples=3000, n_features=10, n_informative=5,
                               n_classes=3, random_state=0)
    X = f32(X)
    # min_impurity_decrease keeps nearly pure nodes (where many cuts peel off the same
    # few rows) from splitting; min_samples_leaf keeps the leaves large
    params = dict(min_samples_leaf=20, min_impurity_decrease=0.001)
    ours = CARTClassifier(**params).fit(X, y).tree_
    for seed in range(4):
        sk = DecisionTreeClassifier(random_state=seed, **params).fit(X, y).tree_
        compared, ties = walk_against_sklearn(ours, sk, X, y, np.ones(len(y)), "gini")
        assert ties == 0 and compared == sk.node_count == ours.node_count
        assert np.array_equal(ours.feature, np.where(sk.feature >= 0, sk.feature, -1))
        internal = sk.feature >= 0
        assert np.array_equal(ours.threshold[internal], sk.threshold[internal])
        assert np.allclose(ours.value / ours.weighted_n[:, None], sk.value[:, 0], atol=1e-15)


@pytest.mark.parametrize("fractional", [False, True])
def test_classifier_matches_sklearn_with_sample_weights(fractional):
    X, y = make_classification(n_samples=800, n_features=6, n_informative=4, random_state=3)
    X = f32(X)
    rng = np.random.default_rng(0)
    w = rng.uniform(0.2, 3.0, size=len(y)) if fractional else rng.integers(1, 4, len(y)) * 1.0
    w[::17] = 0.0  # zero weights: those rows take no part, in both packages
    ours = CARTClassifier(min_samples_leaf=2).fit(X, y, sample_weight=w).tree_
    keep = w > 0
    for seed in range(2):
        sk = DecisionTreeClassifier(min_samples_leaf=2, random_state=seed).fit(
            X, y, sample_weight=w)
        walk_against_sklearn(ours, sk.tree_, X[keep], y[keep], w[keep], "gini",
                             pure_rounding=fractional)


@pytest.mark.parametrize("params", [{}, {"max_depth": 5}, {"min_samples_leaf": 4}])
def test_regressor_matches_sklearn_on_diabetes(params):
    X, y = load_diabetes(return_X_y=True)
    X = f32(X)
    ours = CARTRegressor(**params).fit(X, y).tree_
    assert_tree_invariants(ours)
    for seed in range(2):
        sk = DecisionTreeRegressor(random_state=seed, **params).fit(X, y)
        walk_against_sklearn(ours, sk.tree_, X, y, np.ones(len(y)), "squared_error")


def test_predictions_match_sklearn():
    X, y = load_breast_cancer(return_X_y=True)
    X = f32(X)
    Xtr, Xte, ytr = X[::2], X[1::2], y[::2]
    ours = CARTClassifier(max_depth=4).fit(Xtr, ytr)
    sk = DecisionTreeClassifier(max_depth=4, random_state=0).fit(Xtr, ytr)
    if ours.tree_.node_count == sk.tree_.node_count:
        assert np.array_equal(ours.predict(Xte), sk.predict(Xte))
        assert np.allclose(ours.predict_proba(Xte), sk.predict_proba(Xte))


# ----------------------------------------------------------------- optimal splits
def _assert_every_split_optimal(model, X, y, w, criterion, msl=1, categorical=()):
    t = model.tree_
    Xe = model._encode(X) if not isinstance(X, np.ndarray) else X
    rows = node_rows(t, Xe)
    for i in np.flatnonzero(~t.is_leaf):
        r = rows[i]
        Xi, yi, wi = Xe[r], y[r], w[r]
        num = [f for f in range(Xe.shape[1]) if f not in categorical]
        costs = [c for f, _, c in brute_force_threshold_costs(Xi[:, num], yi, wi, criterion, msl)]
        for f in categorical:
            costs += [c for _, c in brute_force_subset_costs(Xi[:, f].astype(int), yi, wi,
                                                             criterion, msl)]
        if t.kind[i] == NodeKind.THRESHOLD:
            left = Xi[:, t.feature[i]] <= t.threshold[i]
        else:
            left = t.codes_of(i)[Xi[:, t.feature[i]].astype(int)] == 0
        ours = split_cost(yi, wi, left, criterion)
        assert ours <= min(costs) + 1e-12, (i, ours, min(costs))


@PROPS
@given(st.integers(0, 2**31 - 1), st.sampled_from(["gini", "entropy"]), st.integers(2, 3),
       st.integers(1, 3))
def test_every_split_is_optimal_by_brute_force(seed, criterion, n_classes, msl):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(8, 40))
    X = rng.integers(0, 6, size=(n, 3)).astype(float) + rng.normal(0, 1, size=(n, 3)) * (seed % 2)
    y = rng.integers(0, n_classes, size=n)
    w = rng.choice([1.0, 2.0, 0.5], size=n)
    model = CARTClassifier(criterion=criterion, min_samples_leaf=msl).fit(X, y, sample_weight=w)
    assert_tree_invariants(model.tree_)
    _assert_every_split_optimal(model, X, y, w, criterion, msl)


@PROPS
@given(st.integers(0, 2**31 - 1))
def test_every_regression_split_is_optimal_by_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 40))
    X = rng.normal(size=(n, 2)).round(1)
    y = rng.normal(size=n) * 3 + X[:, 0]
    w = np.ones(n)
    model = CARTRegressor(min_samples_leaf=2).fit(X, y)
    _assert_every_split_optimal(model, X, y, w, "squared_error", 2)


@PROPS
@given(st.integers(0, 2**31 - 1), st.sampled_from([2, 3, 0]))
def test_category_subsets_are_optimal(seed, n_classes):
    """Two classes and regression: Breiman's ordering finds the best of all subsets;
    three classes: every subset is tried (at most 12 categories)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 50))
    cats = np.array(list("abcdefg"))[rng.integers(0, 7, size=n)]
    X = pd.DataFrame({"c": pd.Series(cats, dtype=object), "x": rng.normal(size=n).round(1)})
    if n_classes:
        y = rng.integers(0, n_classes, size=n)
        model = CARTClassifier(max_depth=3).fit(X, y)
        crit = "gini"
    else:
        y = rng.normal(size=n) + (cats == "a") * 2
        model = CARTRegressor(max_depth=3).fit(X, y)
        crit = "squared_error"
    assert_tree_invariants(model.tree_)
    _assert_every_split_optimal(model, X, y, np.ones(n), crit, categorical=(0,))


def test_naive_scan_agrees_with_the_package():
    rng = np.random.default_rng(5)
    x = rng.normal(size=300).round(2)
    y = (x + rng.normal(size=300) > 0.3).astype(int)
    t, g = naive_best_threshold(x, y, 2)
    stump = CARTClassifier(max_depth=1).fit(x[:, None], y).tree_
    assert t == stump.threshold[0]
    left = x <= t
    assert np.isclose(g, split_cost(y, np.ones_like(x), left, "gini"))


# ----------------------------------------------------------------- behaviour
def test_sample_weights_equal_duplicated_rows():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 3)).round(1)
    y = rng.integers(0, 2, size=60)
    w = rng.integers(1, 4, size=60).astype(float)
    a = CARTClassifier().fit(X, y, sample_weight=w).tree_
    idx = np.repeat(np.arange(60), w.astype(int))
    b = CARTClassifier().fit(X[idx], y[idx]).tree_
    for name in ("kind", "feature", "threshold", "children", "value", "weighted_n", "impurity"):
        assert np.array_equal(getattr(a, name), getattr(b, name), equal_nan=True), name


def test_zero_weight_rows_are_dropped():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 3))
    y = rng.integers(0, 2, size=80)
    w = np.where(np.arange(80) % 5 == 0, 0.0, 1.0)
    a = CARTClassifier().fit(X, y, sample_weight=w).tree_
    b = CARTClassifier().fit(X[w > 0], y[w > 0]).tree_
    for name in ("feature", "threshold", "value", "n_samples"):
        assert np.array_equal(getattr(a, name), getattr(b, name), equal_nan=True), name


def test_leaf_conditions_hold():
    X, y = make_classification(n_samples=500, n_features=5, random_state=0)
    t = CARTClassifier(min_samples_leaf=7, max_depth=5).fit(X, y).tree_
    assert t.n_samples[t.is_leaf].min() >= 7 and t.max_depth <= 5
    t = CARTClassifier(min_samples_split=50).fit(X, y).tree_
    assert t.n_samples[~t.is_leaf].min() >= 50


def test_ties_go_to_the_first_column_then_the_smallest_threshold():
    X = np.array([[0, 0], [1, 1], [2, 2], [3, 3]], dtype=float)
    y = np.array([0, 0, 1, 1])
    t = CARTClassifier().fit(X, y).tree_
    assert t.feature[0] == 0 and t.threshold[0] == 1.5
    # one feature, two equally good cuts (0.5 and 2.5): the smaller threshold wins
    x = np.array([[0.0], [1.0], [2.0], [3.0]])
    t = CARTClassifier(max_depth=1).fit(x, [0, 1, 1, 0]).tree_
    assert t.threshold[0] == 0.5


def test_values_closer_than_1e_7_are_not_cut_apart():
    X = np.array([[0.0], [0.5e-7], [1.0], [1.0 + 2e-7]])
    y = np.array([0, 1, 0, 1])
    t = CARTClassifier().fit(X, y).tree_
    # 0 and 0.5e-7 are one value (no cut between them); 1 and 1 + 2e-7 are two
    cuts = sorted(t.threshold[~t.is_leaf])
    assert cuts == [0.5e-7 / 2 + 0.5, 1.0 / 2 + (1.0 + 2e-7) / 2]
    assert t.n_leaves == 3
    assert DecisionTreeClassifier(random_state=0).fit(X, y).tree_.n_leaves == 3


def test_midpoint_that_rounds_up_uses_the_lower_value():
    a = 1e16
    b = np.nextafter(a, np.inf)  # 1e16 + 2: the midpoint rounds to b
    X = np.array([[a], [b]])
    t = CARTClassifier().fit(X, [0, 1]).tree_
    assert t.threshold[0] == a
    assert list(CARTClassifier().fit(X, [0, 1]).predict(X)) == [0, 1]


def test_pandas_categorical_and_unseen_categories():
    X, y = load_loan(return_X_y=True)
    model = CARTClassifier().fit(X, y)
    assert model.grower == "auto" and model.tree_.kind[0] == NodeKind.SUBSET
    new = pd.DataFrame({"age": ["child"], "has_job": ["yes"], "owns_house": ["maybe"],
                        "credit": ["fair"]})
    proba = model.predict_proba(new)
    root = model.tree_.value[0] / model.tree_.value[0].sum()
    assert np.allclose(proba[0], root)  # an unseen root category stops at the root
    assert np.allclose(model.predict_proba(X).sum(axis=1), 1.0)


def test_string_classes_and_dataframe_columns():
    X, y = load_iris(return_X_y=True, as_frame=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    model = CARTClassifier(max_depth=2).fit(X, names)
    assert list(model.classes_) == ["setosa", "versicolor", "virginica"]
    assert set(model.predict(X)) <= set(model.classes_)
    assert model.feature_names_in_[model.tree_.feature[0]].startswith("petal")
    assert "CARTClassifier(max_depth=2)" == repr(model)


def test_regressor_predicts_leaf_means():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=200)
    model = CARTRegressor(max_depth=3).fit(X, y)
    leaf = model.apply(X)
    for node in np.unique(leaf):
        assert np.isclose(model.predict(X[leaf == node])[0], y[leaf == node].mean())
    assert 0.5 < model.score(X, y) <= 1.0


def test_get_and_set_params():
    m = CARTClassifier(max_depth=3)
    p = m.get_params()
    assert p["max_depth"] == 3 and p["criterion"] == "gini" and "ccp_alpha" in p
    m.set_params(criterion="entropy")
    assert m.criterion == "entropy"


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize("params, err, match", [
    ({"criterion": "gain"}, ValueError, "criterion"),
    ({"max_depth": -1}, ValueError, "max_depth"),  # 0 is one leaf (test_consistency)
    ({"max_depth": 2.5}, TypeError, "max_depth"),
    ({"min_samples_split": 1}, ValueError, "min_samples_split"),
    ({"min_samples_leaf": 0}, ValueError, "min_samples_leaf"),
    ({"min_impurity_decrease": -1.0}, ValueError, "min_impurity_decrease"),
    ({"ccp_alpha": -0.1}, ValueError, "ccp_alpha"),
    ({"ccp_risk": "error"}, ValueError, "ccp_risk"),
    ({"grower": "fast"}, ValueError, "grower"),
    ({"random_state": "seed"}, TypeError, "random_state"),
])
def test_bad_parameters(params, err, match):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(err, match=match):
        CARTClassifier(**params).fit(X, y)


def test_bad_input_has_clear_errors():
    X, y = load_iris(return_X_y=True)
    Xn = X.copy()
    Xn[3, 1] = np.nan
    with pytest.raises(ValueError, match="x1' has missing values.*missing='error'.*impute"):
        CARTClassifier(missing="error").fit(Xn, y)
    with pytest.raises(ValueError, match="not fitted"):
        CARTClassifier().predict(X)
    model = CARTClassifier(missing="error").fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :3])
    with pytest.raises(ValueError, match="missing"):
        model.predict(Xn)
    with pytest.raises(ValueError, match="y has 10 labels"):
        CARTClassifier().fit(X, y[:10])
    with pytest.raises(ValueError, match="regression"):
        CARTRegressor(ccp_risk="misclassification").fit(X, y.astype(float))
    with pytest.raises(ValueError, match="criterion"):
        CARTRegressor(criterion="gini").fit(X, y.astype(float))
    with pytest.raises(ValueError, match="grower"):
        CARTClassifier(grower="sideways").fit(X, y)
    # categorical columns grow level-wise too (issue 14), the recursive grower's tree
    Xc, yc = load_loan(return_X_y=True)
    a = CARTClassifier(grower="levelwise").fit(Xc, yc).tree_
    b = CARTClassifier(grower="recursive").fit(Xc, yc).tree_
    assert np.array_equal(a.kind, b.kind) and np.array_equal(a.branch_of_code, b.branch_of_code)
    assert np.array_equal(a.value, b.value)
