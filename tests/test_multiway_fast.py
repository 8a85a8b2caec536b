"""The level-wise multiway grower (treebook.growers.multiway) builds the recursive grower's tree.

ID3, CLS and the criterion trees grow with ``grower="levelwise"`` by default; the readable
:func:`treebook.growers.recursive.grow_tree` (``grower="recursive"``) is the definition. Every tree
array must be equal, bit for bit, on categorical and numeric data, fractional weights,
the stopping options, ties and the chapters' worked examples; the kernels are checked
against numpy written independently of them.
"""

import numpy as np
import pytest

from treebook.core import impurity as imp
from treebook.cls import CLSClassifier, CriterionTreeClassifier
from treebook.datasets import load_golf, load_loan, load_play_tennis
from treebook.id3 import ID3Classifier
from treebook.growers.multiway import contingency_tables, group_rows, prefix_counts

FIELDS = ("kind", "feature", "threshold", "children_ptr", "children", "code_ptr",
          "branch_of_code", "parent", "depth", "value", "weighted_n", "n_samples",
          "impurity")


def assert_same_tree(a, b):
    for field in FIELDS:
        np.testing.assert_array_equal(getattr(a.tree_, field), getattr(b.tree_, field),
                                      err_msg=field)


def fit_both(est, X, y, sample_weight=None, **params):
    slow = est(grower="recursive", **params).fit(X, y, sample_weight=sample_weight)
    fast = est(grower="levelwise", **params).fit(X, y, sample_weight=sample_weight)
    assert_same_tree(slow, fast)
    np.testing.assert_array_equal(slow.predict_proba(X), fast.predict_proba(X))
    return slow, fast


def categorical_data(n, seed=0, n_features=5, n_values=4):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, n_values, (n, n_features)).astype(str).astype(object)
    signal = (X[:, 0] == "1").astype(int) + (X[:, 1] == "2")
    y = np.where(rng.random(n) < 0.7, signal, rng.integers(0, 3, n))
    return X, y


def numeric_data(n, seed=0):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=n).round(1),          # many ties
                         rng.integers(0, 5, n).astype(float),  # few values
                         rng.normal(size=n)])
    y = ((X[:, 0] > 0.2) ^ (X[:, 1] > 2)).astype(int)
    y = np.where(rng.random(n) < 0.15, 1 - y, y)
    return X, y


WORKED = [load_play_tennis, load_golf, load_loan]


@pytest.mark.parametrize("load", WORKED)
@pytest.mark.parametrize("est", [ID3Classifier, CLSClassifier, CriterionTreeClassifier])
def test_worked_examples(load, est):
    X, y = load(return_X_y=True)
    fit_both(est, X, y)


@pytest.mark.parametrize("params", [{}, {"max_depth": 2}, {"min_samples_split": 40},
                                    {"min_gain": 0.05}])
@pytest.mark.parametrize("weights", [False, True])
def test_id3_categorical(params, weights):
    X, y = categorical_data(1500)
    w = np.random.default_rng(1).random(len(y)) if weights else None
    slow, _ = fit_both(ID3Classifier, X, y, w, **params)
    assert slow.tree_.node_count > 5  # the comparison covers a real tree


@pytest.mark.parametrize("params", [{}, {"max_depth": 3}, {"min_samples_split": 40},
                                    {"significance": 0.01},
                                    {"score": "positive_class", "max_depth": 4}])
@pytest.mark.parametrize("weights", [False, True])
def test_cls_categorical_and_numeric(params, weights):
    Xc, y = categorical_data(1200, seed=2)
    Xn, yn = numeric_data(1200, seed=3)
    X = np.column_stack([Xn, Xc[:, :2]]).astype(object)
    w = np.random.default_rng(4).random(len(y)) if weights else None
    if params.get("score") == "positive_class":
        y = (y > 0).astype(int)
    slow, _ = fit_both(CLSClassifier, X, y, w, **params)
    assert slow.tree_.node_count > 5
    slow, _ = fit_both(CLSClassifier, Xn, yn, w, **params)
    assert (slow.tree_.kind == 1).any()  # numeric thresholds were chosen


@pytest.mark.parametrize("criterion", [imp.information_gain, imp.gain_ratio,
                                       imp.gini_gain, "gini", "entropy"])
def test_criterion_trees(criterion):
    Xn, y = numeric_data(800, seed=5)
    Xc, _ = categorical_data(800, seed=6, n_features=2)
    X = np.column_stack([Xn, Xc]).astype(object)
    w = np.random.default_rng(7).random(len(y))
    fit_both(CriterionTreeClassifier, X, y, w, criterion=criterion, max_depth=6)


def test_ties_go_to_the_first_feature_and_lowest_cut():
    # duplicated columns tie exactly everywhere: both growers must take the first copy
    X, y = categorical_data(600, seed=8, n_features=2)
    X = np.column_stack([X[:, 1], X[:, 1], X[:, 0]])
    slow, fast = fit_both(ID3Classifier, X, y)
    assert not (fast.tree_.feature == 1).any()
    Xn, yn = numeric_data(600, seed=9)
    Xn = np.column_stack([Xn[:, 0], Xn[:, 0]])
    slow, fast = fit_both(CLSClassifier, Xn, yn)
    assert not (fast.tree_.feature == 1).any()


def test_zero_weights_and_integer_weights():
    X, y = categorical_data(800, seed=10)
    w = np.random.default_rng(11).integers(0, 4, len(y)).astype(float)
    w[w == 0] = 1e-300  # tiny positive weights still count as cases
    fit_both(ID3Classifier, X, y, w)
    Xn, yn = numeric_data(800, seed=12)
    w = np.random.default_rng(13).integers(0, 3, len(yn)).astype(float)
    fit_both(CLSClassifier, Xn, yn, w)


def test_single_node_trees():
    X = np.array([["a"], ["b"], ["a"]], dtype=object)
    fit_both(ID3Classifier, X, np.array([1, 1, 1]))
    fit_both(ID3Classifier, X, np.array([0, 1, 0]), max_depth=0)


def test_bad_grower_is_named():
    X, y = load_play_tennis(return_X_y=True)
    for est in (ID3Classifier, CLSClassifier, CriterionTreeClassifier):
        with pytest.raises(ValueError, match="grower"):
            est(grower="fast").fit(X, y)


def test_contingency_kernel_against_bincount():
    rng = np.random.default_rng(14)
    codes = rng.integers(0, 3, 50)
    y = rng.integers(0, 2, 50)
    w = rng.random(50)
    rows = np.array([3, 7, 8, 20, 1, 2, 40, 41, 49])
    starts = np.array([0, 4, 9])
    t = contingency_tables(codes, y, w, rows, starts, 3, 2)
    for s in range(2):
        r = rows[starts[s]:starts[s + 1]]
        expect = np.bincount(codes[r] * 2 + y[r], weights=w[r], minlength=6).reshape(3, 2)
        np.testing.assert_array_equal(t[s], expect)


def test_prefix_and_group_kernels():
    x = np.array([0.5, 0.1, 0.5, 0.3, 0.2])
    y = np.array([0, 1, 1, 0, 1])
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    order = np.array([1, 3, 0, 2, 4])  # node 0: rows 1, 3, 0, 2 by value; node 1: row 4
    xs, prefix = prefix_counts(x, y, w, order, np.array([0, 4, 5]), 2)
    np.testing.assert_array_equal(xs, [0.1, 0.3, 0.5, 0.5, 0.2])
    np.testing.assert_array_equal(prefix, [[0, 2], [4, 2], [5, 2], [5, 5], [0, 5]])
    out, starts = group_rows(np.array([1, -1, 0, 1, 0]), np.array([4, 3, 2, 1, 0]), 2)
    np.testing.assert_array_equal(out, [4, 2, 3, 0])
    np.testing.assert_array_equal(starts, [0, 2, 4])


def test_own_criterion_is_scored_node_by_node():
    # a criterion written outside the package is not batched: choose scores each node
    def penalised_gain(tables, check=False):
        return (imp.information_gain(tables, check=False)
                - 0.01 * imp.split_information(tables, check=False))

    Xn, y = numeric_data(700, seed=15)
    Xc, _ = categorical_data(700, seed=16, n_features=2)
    X = np.column_stack([Xn, Xc]).astype(object)
    w = np.random.default_rng(17).random(len(y))
    slow, _ = fit_both(CriterionTreeClassifier, X, y, w, criterion=penalised_gain,
                       max_depth=5)
    assert slow.tree_.node_count > 5


def test_huge_weights_take_the_unbatched_path():
    # totals near overflow make the measures rescale a whole stack: scored node by node
    X, y = categorical_data(300, seed=18)
    w = np.full(len(y), 1e299)
    fit_both(ID3Classifier, X, y, w)
