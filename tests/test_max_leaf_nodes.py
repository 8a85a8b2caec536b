"""``max_leaf_nodes``: best-first growth, equal to scikit-learn's ``BestFirstTreeBuilder``.

scikit-learn numbers a best-first tree's nodes in the order it creates them, treebook in
pre-order, so the trees are compared by walking both from the root. Data are
float32-representable (scikit-learn casts X to float32) and continuous, so that no two
candidate splits tie; the leaf budgets stay where the nodes still hold enough rows for
that to be true (in nodes of a dozen rows, two features often cut the same rows, and
scikit-learn's random feature order then decides).
"""

import heapq

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from treebook import CARTClassifier, CARTRegressor
from treebook.growers.bestfirst import Frontier
from treebook.core.tree import NodeKind


def _classes(n, classes, seed, features=6):
    X, y = make_classification(n_samples=n, n_features=features, n_informative=4,
                               n_redundant=0, n_classes=classes, n_clusters_per_class=1,
                               random_state=seed)
    return X.astype(np.float32).astype(np.float64), y


def _numbers(n, seed, features=5):
    X, y = make_regression(n_samples=n, n_features=features, n_informative=4, noise=5.0,
                           random_state=seed)
    return X.astype(np.float32).astype(np.float64), y


def _same_tree(ours, theirs, X):
    """Walk both trees from the root: the same rows reach every node and are split into
    the same two sets, at the same threshold (to float32 rounding) when the feature is
    the same; the same leaf or split status, row counts and weights. Two features may
    cut the same rows, even with the sides swapped (one row isolated as the smallest
    value of one feature and the largest of another): a tie that changes no node, which
    scikit-learn breaks by its random feature order. Returns the number of nodes."""
    t, s = ours.tree_, theirs.tree_
    stack, seen = [(0, 0, np.arange(X.shape[0]))], 0
    while stack:
        i, j, rows = stack.pop()
        seen += 1
        assert t.is_leaf[i] == (s.children_left[j] == -1), f"node {i} (sklearn {j})"
        assert t.n_samples[i] == s.n_node_samples[j]
        assert np.isclose(t.weighted_n[i], s.weighted_n_node_samples[j], rtol=1e-12)
        if t.is_leaf[i]:
            continue
        go_left = X[rows, t.feature[i]] <= t.threshold[i]
        sk_left = X[rows, s.feature[j]] <= s.threshold[j]
        sk_kids = [s.children_left[j], s.children_right[j]]
        if t.feature[i] == s.feature[j]:
            assert abs(t.threshold[i] - s.threshold[j]) <= 1e-6, f"node {i} (sklearn {j})"
        elif np.array_equal(go_left, ~sk_left):
            sk_kids.reverse()
        assert np.array_equal(go_left, sk_left) or sk_kids[0] == s.children_right[j], \
            f"node {i} (sklearn {j})"
        left, right = t.children_of(i)
        stack += [(left, sk_kids[0], rows[go_left]), (right, sk_kids[1], rows[~go_left])]
    assert seen == t.node_count == s.node_count
    return seen


@pytest.mark.parametrize("classes, criterion, seed", [
    (2, "gini", 0), (2, "entropy", 1), (5, "gini", 2), (5, "entropy", 3), (2, "gini", 4),
    (5, "gini", 5)])
def test_classification_equals_scikit_learn(classes, criterion, seed):
    X, y = _classes(1500, classes, seed)
    for k in (2, 3, 4, 7, 12, 20):
        ours = CARTClassifier(criterion=criterion, max_leaf_nodes=k).fit(X, y)
        theirs = DecisionTreeClassifier(criterion=criterion, max_leaf_nodes=k,
                                        random_state=0).fit(X, y)
        assert _same_tree(ours, theirs, X) == 2 * k - 1 == ours.tree_.node_count
        assert ours.get_n_leaves() == k
        assert np.allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)


@pytest.mark.parametrize("seed, n, m", [(0, 800, 3), (1, 2000, 8), (2, 400, 5)])
def test_regression_equals_scikit_learn(seed, n, m):
    X, y = _numbers(n, seed, m)
    for k in (2, 5, 17, 60):
        ours = CARTRegressor(max_leaf_nodes=k).fit(X, y)
        theirs = DecisionTreeRegressor(max_leaf_nodes=k, random_state=0).fit(X, y)
        _same_tree(ours, theirs, X)
        assert np.allclose(ours.predict(X), theirs.predict(X), rtol=1e-10)


def test_sample_weights_equal_scikit_learn():
    X, y = _classes(1500, 3, 7)
    rng = np.random.default_rng(0)
    w = rng.uniform(0.2, 3.0, len(y))
    w[rng.choice(len(y), 100, replace=False)] = 0.0  # zero-weight rows take no part
    ours = CARTClassifier(max_leaf_nodes=15).fit(X, y, sample_weight=w)
    theirs = DecisionTreeClassifier(max_leaf_nodes=15, random_state=0).fit(X, y, sample_weight=w)
    _same_tree(ours, theirs, X)
    assert np.allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
    Xr, yr = _numbers(1000, 3)
    ours = CARTRegressor(max_leaf_nodes=25).fit(Xr, yr, sample_weight=w[:1000])
    theirs = DecisionTreeRegressor(max_leaf_nodes=25, random_state=0).fit(
        Xr, yr, sample_weight=w[:1000])
    _same_tree(ours, theirs, Xr)


@pytest.mark.parametrize("params, ks", [
    (dict(max_depth=3), (4, 10)), (dict(max_depth=5), (10, 25)),
    (dict(min_samples_leaf=40), (4, 20)), (dict(min_samples_split=200), (10, 25)),
    (dict(min_impurity_decrease=0.004), (10, 25)), (dict(min_weight_fraction_leaf=0.05), (4, 10)),
    (dict(min_samples_leaf=0.02, max_depth=4), (10, 25))])
def test_other_stopping_rules_still_apply_as_in_scikit_learn(params, ks):
    # (larger budgets reach nodes of one odd row, where splits tie)
    X, y = _classes(2000, 3, 11)
    for k in ks:
        ours = CARTClassifier(max_leaf_nodes=k, **params).fit(X, y)
        theirs = DecisionTreeClassifier(max_leaf_nodes=k, random_state=0, **params).fit(X, y)
        _same_tree(ours, theirs, X)
        assert ours.get_n_leaves() <= k


@pytest.mark.parametrize("y, ks", [
    # tied improvements between nodes: the frontier pops them as scikit-learn's
    # std::pop_heap does (first-in-first-out would fail the first, last-in-first-out the
    # second)
    ("01001110101111001011", (9, 10, 11)),
    ("1101100100", (3, 4, 5)),
])
def test_ties_between_nodes_are_broken_as_scikit_learn_breaks_them(y, ks):
    y = np.array([int(c) for c in y])
    X = np.arange(len(y), dtype=float)[:, None]
    for k in ks:
        _same_tree(CARTClassifier(max_leaf_nodes=k).fit(X, y),
                   DecisionTreeClassifier(max_leaf_nodes=k, random_state=0).fit(X, y), X)


def test_frontier_is_a_max_heap():
    f = Frontier()
    rng = np.random.default_rng(0)
    values = rng.permutation(50).astype(float)
    for i, v in enumerate(values):
        f.push(v, i)
    out = [f.pop() for _ in range(len(f))]
    assert [p for p, _ in out] == sorted(values, reverse=True)
    assert sorted(i for _, i in out) == list(range(50))
    with pytest.raises(IndexError):
        f.pop()


def test_a_budget_above_the_full_tree_grows_the_full_tree():
    X, y = _classes(300, 3, 0)
    full = CARTClassifier(grower="recursive").fit(X, y).tree_
    big = CARTClassifier(max_leaf_nodes=10_000).fit(X, y).tree_
    for name in ("kind", "feature", "threshold", "children", "value", "impurity",
                 "weighted_n", "n_samples"):
        assert np.array_equal(getattr(full, name), getattr(big, name), equal_nan=True), name


# --------------------------------------------------------- categorical: brute force
def _greedy_prune(tree, k):
    """The full tree pruned to the ``k - 1`` splits a greedy reader would choose: from
    the root, repeatedly split the frontier node whose split lowers the total leaf
    impurity ``Σ |D_t|/|D|·I(t)`` most (computed here from the tree's arrays)."""
    W = tree.weighted_n[0]

    def gain(i):
        if tree.is_leaf[i]:
            return None
        kids = tree.children_of(i)
        return (tree.weighted_n[i] * tree.impurity[i]
                - sum(tree.weighted_n[c] * tree.impurity[c] for c in kids)) / W

    keep = np.zeros(tree.node_count, bool)
    heap = [(-gain(0), 0)] if gain(0) is not None else []
    for _ in range(k - 1):
        if not heap:
            break
        _, i = heapq.heappop(heap)
        keep[i] = True
        for c in tree.children_of(i):
            if gain(c) is not None:
                heapq.heappush(heap, (-gain(c), int(c)))
    drop = ~tree.is_leaf & ~keep
    return tree.prune(drop) if drop.any() else tree


def _mixed_frame(n, seed):
    rng = np.random.default_rng(seed)
    colour = rng.choice(list("abcdefg"), n)
    size = rng.choice(["S", "M", "L", "XL"], n)
    x = rng.normal(size=n)
    z = rng.uniform(size=n)
    score = (np.isin(colour, list("abc")) * 1.3 + (size == "XL") * 0.9 + x
             + 0.5 * z + rng.normal(scale=0.6, size=n))
    X = pd.DataFrame({"colour": pd.Categorical(colour), "size": pd.Categorical(size),
                      "x": x, "z": z})
    return X, score


@pytest.mark.parametrize("task", ["two classes", "three classes", "regression"])
def test_categorical_best_first_is_the_greedily_pruned_full_tree(task):
    X, score = _mixed_frame(600, {"two classes": 0, "three classes": 1, "regression": 2}[task])
    if task == "regression":
        est, y = CARTRegressor, score
    else:
        cuts = [np.median(score)] if task == "two classes" else np.quantile(score, [0.3, 0.7])
        est, y = CARTClassifier, np.digitize(score, cuts)
    full = est().fit(X, y).tree_
    for k in (2, 3, 6, 11, 25):
        ours = est(max_leaf_nodes=k).fit(X, y).tree_
        expected = _greedy_prune(full, k)
        assert ours.node_count == expected.node_count == 2 * k - 1
        for name in ("kind", "feature", "threshold", "branch_of_code", "weighted_n"):
            assert np.array_equal(getattr(ours, name), getattr(expected, name),
                                  equal_nan=True), (k, name)
        assert np.allclose(ours.value, expected.value)
    assert (ours.kind == NodeKind.SUBSET).any()  # the categories were split into subsets


# --------------------------------------------------------- parameters and interop
@pytest.mark.parametrize("bad", [1, 0, -3, 2.5, "10", True])
def test_bad_max_leaf_nodes_is_refused(bad):
    X, y = _classes(100, 2, 0)
    for est in (CARTClassifier, CARTRegressor):
        with pytest.raises((ValueError, TypeError), match="max_leaf_nodes"):
            est(max_leaf_nodes=bad).fit(X, y)


def test_levelwise_grower_with_max_leaf_nodes_is_refused():
    X, y = _classes(100, 2, 0)
    with pytest.raises(ValueError, match="max_leaf_nodes"):
        CARTClassifier(max_leaf_nodes=5, grower="levelwise").fit(X, y)
    assert CARTClassifier(max_leaf_nodes=5, grower="recursive").fit(X, y).get_n_leaves() == 5


def test_clone_and_get_params():
    model = CARTClassifier(max_leaf_nodes=7)
    assert model.get_params()["max_leaf_nodes"] == 7
    assert clone(model).max_leaf_nodes == 7
    assert CARTRegressor().get_params()["max_leaf_nodes"] is None
    assert CARTRegressor().set_params(max_leaf_nodes=3).max_leaf_nodes == 3


def test_cost_complexity_pruning_path_equals_scikit_learn():
    X, y = _classes(1500, 3, 5)
    ours = CARTClassifier(max_leaf_nodes=20).cost_complexity_pruning_path(X, y)
    theirs = DecisionTreeClassifier(max_leaf_nodes=20, random_state=0).cost_complexity_pruning_path(X, y)
    assert np.allclose(ours.ccp_alphas, theirs.ccp_alphas, rtol=1e-9, atol=1e-15)
    assert np.allclose(ours.impurities, theirs.impurities, rtol=1e-9)
    pruned = CARTClassifier(max_leaf_nodes=20, ccp_alpha=float(ours.ccp_alphas[-3])).fit(X, y)
    assert pruned.get_n_leaves() < 20 and pruned.full_tree_.is_leaf.sum() == 20
