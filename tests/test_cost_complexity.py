"""Minimal cost-complexity pruning: scikit-learn's path, Breiman's risk, optimality,
nesting, and choosing α by cross-validation with the 1-SE rule.

The optimality test enumerates *every* pruned subtree of small trees and checks that the
subtree ``prune_ccp`` returns minimises ``R_α(T) = R(T) + α|T̃|`` — the theorem behind
weakest-link pruning, checked by brute force rather than assumed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris, load_wine
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from tree_invariants import assert_tree_invariants
from treebook import CARTClassifier, CARTRegressor, ID3Classifier
from treebook.datasets import load_loan
from treebook.prune.cost_complexity import (ALPHA_RTOL, PruningPath, alpha_candidates,
                                            breiman_steps, choose_alpha,
                                            cost_complexity_path, node_risk, prune_ccp,
                                            select_alpha_cv)
from treebook.core.tree import NodeKind

PROPS = settings(max_examples=40, deadline=None)


# ----------------------------------------------------------------- scikit-learn's path
@pytest.mark.parametrize("loader", [load_iris, load_wine, load_breast_cancer])
def test_path_equals_sklearn(loader):
    X, y = loader(return_X_y=True)
    ours = CARTClassifier().cost_complexity_pruning_path(X, y)
    for seed in range(3):
        sk = DecisionTreeClassifier(random_state=seed).cost_complexity_pruning_path(X, y)
        assert ours.ccp_alphas.shape == sk.ccp_alphas.shape
        assert np.allclose(ours.ccp_alphas, sk.ccp_alphas, rtol=1e-12, atol=1e-15)
        assert np.allclose(ours["impurities"], sk["impurities"], rtol=1e-12, atol=1e-15)


def test_regression_path_equals_sklearn_on_diabetes():
    X, y = load_diabetes(return_X_y=True)
    ours = CARTRegressor(max_depth=6).cost_complexity_pruning_path(X, y)
    sk = DecisionTreeRegressor(max_depth=6, random_state=0).cost_complexity_pruning_path(X, y)
    assert np.allclose(ours.ccp_alphas, sk.ccp_alphas, rtol=1e-9)
    assert np.allclose(ours.impurities, sk.impurities, rtol=1e-9)


@pytest.mark.parametrize("alpha", [0.0, 0.004, 0.01, 0.02, 0.05, 0.3, 1.0])
def test_ccp_alpha_at_fit_equals_sklearn(alpha):
    X, y = load_breast_cancer(return_X_y=True)
    X = X.astype(np.float32).astype(float)
    ours = CARTClassifier(ccp_alpha=alpha).fit(X, y)
    sk = DecisionTreeClassifier(ccp_alpha=alpha, random_state=0).fit(X, y)
    assert ours.n_leaves_ == sk.get_n_leaves()
    assert np.array_equal(ours.predict(X), sk.predict(X))
    assert_tree_invariants(ours.tree_)
    assert ours.full_tree_.n_leaves >= ours.n_leaves_


# ----------------------------------------------------------------- Breiman's risk, by hand
def test_misclassification_risk_by_hand():
    """A root (6 no / 9 yes) over two leaves (6/3 and 0/6): R(root) = 6/15, the leaves
    misclassify 3/15 + 0; g(root) = (6/15 - 3/15) / (2 - 1) = 0.2."""
    X, y = load_loan(return_X_y=True)
    tree = CARTClassifier(max_depth=1).fit(X, y).tree_
    r = node_risk(tree, "misclassification")
    assert np.allclose(r, [6 / 15, 3 / 15, 0.0])
    path = cost_complexity_path(tree, risk="misclassification")
    assert np.allclose(path.ccp_alphas, [0.0, 0.2]) and np.allclose(path.impurities, [0.2, 0.4])
    # impurity risk: Gini(root) - weighted Gini(children) = 0.48 - 0.2667
    path = cost_complexity_path(tree)
    assert np.isclose(path.ccp_alphas[1], 0.48 - 9 / 15 * (1 - (1 / 3) ** 2 - (2 / 3) ** 2))


def test_rpart_style_pruning_is_coarser_on_noise():
    """With misclassification risk a split that does not change any leaf's majority has
    g(t) = 0 and is pruned at once; impurity risk keeps it for small α."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = (X[:, 0] + rng.normal(size=300) > 0).astype(int)
    full = CARTClassifier(min_samples_leaf=8).fit(X, y).tree_
    mis = prune_ccp(full, 0.0, risk="misclassification")
    assert mis.n_leaves < full.n_leaves == prune_ccp(full, 0.0).n_leaves
    assert np.array_equal(np.argmax(mis.value[mis.apply(X)], 1), np.argmax(full.value[full.apply(X)], 1))


# ----------------------------------------------------------------- optimality by brute force
def _all_prunings(tree):
    """Every pruned subtree of ``tree``, as the set of internal nodes kept."""
    internal = [int(i) for i in np.flatnonzero(~tree.is_leaf)]

    def rec(node):
        if tree.kind[node] == NodeKind.LEAF:
            return [frozenset()]
        out = [frozenset()]  # node collapsed
        kids = [rec(int(c)) for c in tree.children_of(node)]
        combos = [frozenset()]
        for options in kids:
            combos = [a | b for a in combos for b in options]
        out += [c | {node} for c in combos]
        return out

    assert len(internal) <= 10
    return rec(0)


def _cost(tree, kept, alpha, R):
    leaves = [i for i in range(tree.node_count)
              if (tree.parent[i] < 0 or tree.parent[i] in kept) and i not in kept]
    return sum(R[i] for i in leaves) + alpha * len(leaves), len(leaves)


@PROPS
@given(st.integers(0, 2**31 - 1), st.sampled_from(["impurity", "misclassification"]))
def test_prune_ccp_minimises_the_cost_over_all_subtrees(seed, risk):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 60))
    X = rng.normal(size=(n, 2)).round(1)
    y = rng.integers(0, 3, size=n)
    tree = CARTClassifier(max_depth=3, min_samples_leaf=2).fit(X, y).tree_
    R = node_risk(tree, risk)
    subtrees = _all_prunings(tree)
    path = cost_complexity_path(tree, risk=risk)
    # a branch that lowers no risk has g(t) = 0, which rounding may put a hair below 0
    alphas = np.maximum(path.ccp_alphas, 0.0)
    for alpha in np.unique(np.concatenate([alphas, alphas * 1.5 + 1e-4])):
        best = min(_cost(tree, k, alpha, R)[0] for k in subtrees)
        pruned = prune_ccp(tree, float(alpha), risk)
        got = node_risk(pruned, risk)
        cost = got[pruned.is_leaf].sum() + alpha * pruned.n_leaves
        assert cost <= best + 1e-12


# ----------------------------------------------------------------- path properties
@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31 - 1), st.booleans())
def test_path_properties(seed, regression):
    """α non-decreasing, total leaf risk non-decreasing, leaves decreasing, and the
    subtrees nested: each T_{k+1} merges leaves of T_k (checked on the training rows)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 80))
    X = rng.normal(size=(n, 3))
    if regression:
        y = X[:, 0] + rng.normal(size=n)
        est = CARTRegressor()
    else:
        y = rng.integers(0, 3, size=n)
        est = CARTClassifier(criterion=["gini", "entropy"][seed % 2])
    path = est.cost_complexity_pruning_path(X, y)
    assert path.ccp_alphas[0] == 0.0
    assert np.all(np.diff(path.ccp_alphas) >= -1e-15)
    assert np.all(np.diff(path.impurities) >= -1e-12)
    assert np.all(np.diff(path.n_leaves) < 0) and path.n_leaves[-1] == 1
    prev = None
    for k in range(len(path)):
        t = path.subtree(k)
        assert t.n_leaves == path.n_leaves[k]
        assert np.isclose(node_risk(t)[t.is_leaf].sum(), path.impurities[k])
        leaf = t.apply(X)
        if prev is not None:  # every old leaf's rows land in one new leaf
            pairs = pd.DataFrame({"old": prev, "new": leaf}).drop_duplicates()
            assert pairs["old"].is_unique
        prev = leaf


def test_path_works_for_multiway_trees():
    X, y = load_loan(return_X_y=True)
    tree = ID3Classifier().fit(X, y).tree_
    path = cost_complexity_path(tree, risk="misclassification")
    assert path.n_leaves[0] == tree.n_leaves and path.n_leaves[-1] == 1
    assert_tree_invariants(prune_ccp(tree, 0.05, risk="misclassification"))


# ----------------------------------------------------------------- Breiman's sequence
# Two branches with the same α (misclassified cases over 16, by hand): node 5
# ([2, 1] -> [1, 0], [1, 1]) lowers no error, α = 0; then node 1 ([6, 2] -> [6, 1], [0, 1])
# has α = (2 - 1)/1 = 1, node 4 ([2, 6] -> [2, 1], [0, 5]) α = (2 - 1)/1 = 1 and the root
# (8 - 2)/3 = 2; with both cut, the root's α = (8 - 4)/1 = 4.
TIED = (0, 0.5, [8, 8], [
    (1, 0.5, [6, 2], [[6, 1], [0, 1]]),
    (1, 0.5, [2, 6], [(2, 0.5, [2, 1], [[1, 0], [1, 1]]), [0, 5]]),
])


def test_ccp_sequence_prunes_tied_links_in_one_step():
    from prune_trees import build

    from treebook.prune import ccp_sequence

    tree = build(TIED)
    # scikit-learn's path: one node per step, so the 3-leaf tree between the ties
    path = cost_complexity_path(tree, risk="misclassification")
    assert np.allclose(path.ccp_alphas, [0, 0, 1 / 16, 1 / 16, 4 / 16], rtol=1e-12, atol=0)
    assert path.n_leaves.tolist() == [5, 4, 3, 2, 1]
    # Breiman's: T(0) (node 5 cut), both tied links at once, the root
    seq = ccp_sequence(tree, risk="misclassification")
    assert np.allclose(seq.values, [0, 1 / 16, 4 / 16], rtol=1e-12, atol=0)
    assert seq.n_leaves.tolist() == [4, 2, 1]
    expected = [tree.prune([5]), tree.prune([1, 4]), tree.prune([0])]
    for t, e, a in zip(seq.trees, expected, seq.values):
        assert np.array_equal(t.kind, e.kind) and np.array_equal(t.value, e.value)
        assert np.array_equal(prune_ccp(tree, float(a), "misclassification").kind, e.kind)
    steps, alphas = breiman_steps(path)
    assert steps.tolist() == [1, 3, 4] and np.array_equal(alphas, seq.values)


def _path(alphas, root_risk):
    a = np.asarray(alphas, float)
    return PruningPath(a, np.linspace(0.0, root_risk, a.size), np.arange(a.size, 0, -1),
                       np.arange(a.size) - 1, tree=None)


def test_breiman_tie_tolerance_is_relative_to_the_root_risk():
    assert ALPHA_RTOL == 1e-12
    # R(root) = 0.5: tolerance 5e-13. Noise of 1e-17 (and a negative zero) ties, 1e-11 not
    steps, alphas = breiman_steps(_path([0, -1e-17, 0.1, 0.1 + 1e-17, 0.1 + 1e-11, 0.3],
                                        0.5))
    assert steps.tolist() == [1, 3, 4, 5]
    assert alphas.tolist() == [0.0, 0.1 + 1e-17, 0.1 + 1e-11, 0.3]
    assert np.all(np.diff(alphas) > 0)
    # the same gaps on a 10⁶ times smaller scale (risk and α): the same groups
    steps, _ = breiman_steps(_path(np.array([0, 0.1, 0.1 + 1e-17, 0.1 + 1e-11, 0.3]) * 1e-6,
                                   0.5e-6))
    assert steps.tolist() == [0, 2, 3, 4]


def test_alpha_explorer_shows_breimans_sequence():
    from treebook.io.explorers import alpha_explorer

    X, y = load_breast_cancer(return_X_y=True)
    half = slice(0, None, 2), slice(1, None, 2)
    # on breast cancer with misclassification risk the one-node path repeats an α
    tree = CARTClassifier().fit(X[half[0]], y[half[0]]).tree_
    raw = np.maximum(cost_complexity_path(tree, "misclassification").ccp_alphas, 0)
    assert np.unique(raw).size < raw.size
    slider = alpha_explorer(CARTClassifier(ccp_risk="misclassification"), X[half[0]],
                            y[half[0]], X[half[1]], y[half[1]], max_frames=100)
    res = slider.results
    assert np.all(np.diff(res["alpha"]) > 0) and np.all(np.diff(res["leaves"]) < 0)
    assert res["alpha"].tolist() == breiman_steps(slider.path)[1].tolist()


# ----------------------------------------------------------------- choosing α by CV
def test_alpha_candidates_by_hand():
    from prune_trees import build

    # TIED: Breiman's α 0 < 1/16 < 4/16, R(root) = 8/16; the root's interval [4/16, ∞) is
    # represented by (8/16 + 4/16)/2 = 6/16 (rpart's (1 + cp)/2 with cp = 1/2)
    low, high, beta = alpha_candidates(build(TIED), "misclassification")
    assert np.allclose(low, [0, 1 / 16, 4 / 16]) and np.array_equal(high[-1:], [np.inf])
    assert np.allclose(beta, [0, np.sqrt(1 / 16 * 4 / 16), 6 / 16], rtol=1e-12, atol=0)
    # a single leaf: one candidate, 0
    leaf = build([3, 1])
    assert alpha_candidates(leaf, "misclassification")[2].tolist() == [0.0]


def test_choose_alpha_tie_rule():
    e = [0.3, 0.2, 0.2, 0.25, 0.5]
    # least error tied at rows 1 and 2: the larger α (row 2); 1-SE limit 0.2 + 0.03
    assert choose_alpha(e, [0.01, 0.02, 0.03, 0.04, 0.05]) == (2, 2, pytest.approx(0.23))
    assert choose_alpha(e, [0.01, 0.02, 0.06, 0.04, 0.05])[:2] == (2, 3)
    assert choose_alpha(e, [0.01, 0.02, 0.06, 0.04, 0.05], "min")[:2] == (2, 2)
    # equal up to rounding (1e-14 relative) is a tie; 1e-9 is not
    assert choose_alpha([0.2, 0.2 * (1 + 1e-14)], [0, 0], "min")[0] == 1
    assert choose_alpha([0.2, 0.2 * (1 + 1e-9)], [0, 0], "min")[0] == 0
    with pytest.raises(ValueError, match="rule"):
        choose_alpha(e, e, "2se")
    with pytest.raises(ValueError, match="cv_error"):
        choose_alpha([], [])


def test_select_alpha_cv_root_row_is_the_majority_rule():
    """The root's row is scored with every fold tree collapsed to its root: the error of
    predicting each fold's training majority (the bug: at α_M the fold trees were stumps)."""
    from treebook.prune.cost_complexity import _fold_ids

    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:200], y[:200]
    res = select_alpha_cv(CARTClassifier(), X, y, cv=5, random_state=3)
    folds = _fold_ids(y, 5, np.random.default_rng(3), True)
    wrong = 0
    for k in range(5):
        majority = np.bincount(y[folds != k]).argmax()
        wrong += np.sum(y[folds == k] != majority)
    t = res.table
    assert t["n_leaves"].iloc[-1] == 1
    assert t["cv_error"].iloc[-1] == pytest.approx(wrong / len(y), abs=1e-15)
    p = np.bincount(y) / len(y)
    assert t["alpha"].iloc[-1] == pytest.approx(((1 - p @ p) + t["alpha_low"].iloc[-1]) / 2)
    # and the 1-SE choice is not the root here
    assert prune_ccp(CARTClassifier().fit(X, y).tree_, res.alpha).n_leaves > 1


def test_select_alpha_cv_table_and_one_se_rule():
    X, y = load_breast_cancer(return_X_y=True)
    res = select_alpha_cv(CARTClassifier(), X, y, cv=5, random_state=0)
    t = res.table
    assert list(t.columns) == ["alpha", "alpha_low", "alpha_high", "n_leaves", "cv_error",
                               "std_error", "within_1se"]
    assert np.all(np.diff(t["alpha"]) > 0) and np.all(np.diff(t["n_leaves"]) < 0)
    assert t["alpha"].iloc[0] == 0.0 and t["n_leaves"].iloc[-1] == 1
    inner = t.iloc[1:-1]
    assert np.allclose(inner["alpha"], np.sqrt(inner["alpha_low"] * inner["alpha_high"]))
    # the 1-SE rule, recomputed from the table
    k = t["cv_error"].to_numpy()
    best = np.flatnonzero(k == k.min())[-1]
    limit = k[best] + t["std_error"].iloc[best]
    assert res.alpha == t["alpha"][np.flatnonzero(k <= limit)[-1]]
    assert res.alpha >= res.alpha_min
    # reproducible with the seed
    again = select_alpha_cv(CARTClassifier(), X, y, cv=5, random_state=0)
    pd.testing.assert_frame_equal(res.table, again.table)


def test_select_alpha_cv_error_is_the_held_out_error():
    """cv_error of the full tree (α = 0) is the mean 0/1 loss of trees grown without the
    held-out fold: recomputed here with the same folds."""
    X, y = load_iris(return_X_y=True)
    res = select_alpha_cv(CARTClassifier(), X, y, cv=3, random_state=1)
    assert 0.0 <= res.table["cv_error"].min() < 0.15
    assert res.table["cv_error"].iloc[-1] > 0.5  # the root alone guesses one class of 3
    se = res.table["std_error"].to_numpy()
    p = res.table["cv_error"].to_numpy()
    assert np.allclose(se, np.sqrt(p * (1 - p) / len(y)))  # 0/1 losses: sd = √(p(1-p))


def test_select_alpha_cv_regression():
    X, y = load_diabetes(return_X_y=True)
    res = select_alpha_cv(CARTRegressor(min_samples_leaf=10), X, y, cv=4, random_state=0)
    assert res.table["cv_error"].min() < np.var(y)
    assert res.table["n_leaves"].iloc[-1] == 1


# ----------------------------------------------------------------- bad input
def test_bad_input():
    X, y = load_iris(return_X_y=True)
    tree = CARTClassifier().fit(X, y).tree_
    with pytest.raises(ValueError, match="alpha"):
        prune_ccp(tree, -1.0)
    with pytest.raises(TypeError, match="alpha"):
        prune_ccp(tree, "big")
    with pytest.raises(ValueError, match="risk"):
        cost_complexity_path(tree, risk="error")
    with pytest.raises(TypeError, match="Tree"):
        cost_complexity_path("tree")
    reg = CARTRegressor().fit(X, y.astype(float)).tree_
    with pytest.raises(ValueError, match="classification"):
        node_risk(reg, "misclassification")
    with pytest.raises(ValueError, match="cv"):
        select_alpha_cv(CARTClassifier(), X, y, cv=1)
    with pytest.raises(TypeError, match="CART"):
        select_alpha_cv(ID3Classifier(), X, y)
    with pytest.raises(IndexError):
        cost_complexity_path(tree).subtree(99)


# ----------------------------------------------------------------- the α slider
def test_alpha_explorer_frames_follow_the_path():
    import re

    from treebook.io.explorers import alpha_explorer

    X, y = load_breast_cancer(return_X_y=True)
    Xtr, Xte, ytr, yte = X[::2], X[1::2], y[::2], y[1::2]
    slider = alpha_explorer(CARTClassifier(), Xtr, ytr, Xte, yte, max_frames=8)
    res = slider.results
    path = slider.path
    assert len(res) == min(8, np.unique(path.ccp_alphas).size)
    assert res["alpha"].iloc[0] == 0.0 and res["leaves"].iloc[-1] == 1
    full = slider.model.tree_
    for a, leaves, test in zip(res["alpha"], res["leaves"], res["test"]):
        t = prune_ccp(full, a)
        assert t.n_leaves == leaves
        assert np.isclose(test, np.mean(np.argmax(t.value[t.apply(Xte)], 1) == yte))
    # the best test accuracy is shown first (the simplest tree among equals)
    best = res["test"].max()
    assert slider.values[slider.index] == res["alpha"][res["test"] == best].iloc[-1]
    html = slider.to_html()
    assert f'data-frame-count="{len(res)}"' in html
    frames = re.findall(r'<div class="tb-slider-frame"[^>]*>', html)
    assert len(frames) == len(res) and sum("hidden" not in f for f in frames) == 1
    with pytest.raises(TypeError, match="CART"):
        alpha_explorer(ID3Classifier(), Xtr, ytr, Xte, yte)
    with pytest.raises(ValueError, match="max_frames"):
        alpha_explorer(CARTClassifier(), Xtr, ytr, Xte, yte, max_frames=1)
