"""The exact solver (treebook.optimal, growers/optimal, kernels/optimal) against its readable
definition (teaching/optimal_readable) and against cases worked by hand."""

import numpy as np
import pandas as pd
import pytest

from treebook import CARTClassifier, OptimalTreeClassifier
from treebook.growers.optimal import (OptimalProblem, greedy_solution, solution_cost,
                                      solve_optimal)
from treebook.kernels.optimal import pessimistic_added
from treebook.prune.cost_complexity import node_risk
from treebook.prune.error_based import added_errors, confidence_z
from treebook.teaching.optimal_readable import best_tree
from treebook.io.serialize import from_json

OBJECTIVES = ("misclassification", "gini", "entropy", "pessimistic")


def _random_problem(rng, objective, alpha=0.0, min_leaf=1, weights=False):
    n = int(rng.integers(6, 30))
    F = int(rng.integers(1, 4))
    K = int(rng.integers(2, 4))
    X = rng.integers(0, 5, size=(n, F)).astype(float)
    y = rng.integers(0, K, size=n)
    w = rng.uniform(0.5, 2.0, size=n) if weights else np.ones(n)
    return OptimalProblem.build(X, y, w, K, objective=objective, alpha=alpha,
                                min_leaf=min_leaf)


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_compiled_search_equals_readable_definition(objective):
    rng = np.random.default_rng(7)
    for trial in range(12):
        alpha = (0.0, 0.03)[trial % 2]
        min_leaf = 1 if trial % 3 else 2
        prob = _random_problem(rng, objective, alpha, min_leaf, weights=trial % 4 == 1)
        rows = np.arange(prob.y.shape[0])
        for depth in (1, 2, 3):
            want, sol = best_tree(prob, rows, depth)
            got = solve_optimal(prob, depth)
            assert got.complete
            assert got.cost == pytest.approx(want, rel=1e-9, abs=1e-9)
            assert solution_cost(prob, rows, got.solution) == pytest.approx(want, rel=1e-9,
                                                                            abs=1e-9)
            no_bounds = solve_optimal(prob, depth, use_bounds=False)
            assert no_bounds.cost == pytest.approx(want, rel=1e-9, abs=1e-9)


def test_same_tree_as_readable_when_nothing_ties():
    # continuous features with distinct values: no two trees cost the same
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] + 0.5 * X[:, 1] ** 2 > 0.3).astype(int)
    prob = OptimalProblem.build(X, y, np.ones(40), 2, objective="gini")
    want_cost, want = best_tree(prob, np.arange(40), 2)
    got = solve_optimal(prob, 2)
    assert got.solution == want


def test_pessimistic_kernel_equals_error_based_pruning():
    z = confidence_z(0.25)
    for n in (1.0, 1.5, 2.0, 3.0, 7.0, 40.0):
        for e in np.linspace(0, n, 9):
            assert pessimistic_added(n, e, 0.25, z, 1.0) == pytest.approx(
                added_errors(n, e, 0.25), rel=1e-12, abs=1e-12)


def test_xor_greedy_fails_optimal_succeeds():
    # XOR on two features, plus a third feature that splits a few rows off: Gini's best
    # root split is the useless third feature, so greedy depth 2 misclassifies; the
    # optimal depth-2 tree splits x0 then x1 and is perfect
    x0 = np.repeat([0.0, 0.0, 1.0, 1.0], 10)
    x1 = np.tile(np.repeat([0.0, 1.0], 10), 2)
    y = (x0 != x1).astype(int)
    x2 = np.zeros(40)
    x2[[0, 1, 2, 3, 4, 5]] = 1.0         # six rows of class 0 (x0 = x1 = 0)
    X = np.column_stack([x0, x1, x2])
    cart = CARTClassifier(max_depth=2).fit(X, y)
    assert cart.tree_.feature[0] == 2
    assert cart.score(X, y) < 1.0
    opt = OptimalTreeClassifier(max_depth=2).fit(X, y)
    assert opt.objective_ == 0.0 and opt.optimal_
    assert opt.score(X, y) == 1.0
    assert set(opt.tree_.feature[~opt.tree_.is_leaf]) == {0, 1}


def test_hand_worked_depth_one():
    # x = 1..6, y = 0 0 1 0 1 1: the best cut is x <= 2.5 or x <= 3.5 (one error); ties go
    # to the smallest threshold, and the threshold is CART's midpoint
    X = np.arange(1.0, 7.0)[:, None]
    y = np.array([0, 0, 1, 0, 1, 1])
    m = OptimalTreeClassifier(max_depth=1).fit(X, y)
    assert m.objective_ == pytest.approx(1 / 6)
    assert m.tree_.threshold[0] == 2.5
    g = OptimalTreeClassifier(max_depth=1, criterion="gini").fit(X, y)
    # x <= 3.5: two leaves of 3 with Gini 4/9 each -> (3·4/9 + 3·4/9)/6 = 4/9;
    # x <= 2.5: 0 + 4·(1 - (1/16 + 9/16))/6 = 0.25
    assert g.objective_ == pytest.approx(0.25)
    assert g.tree_.threshold[0] == 2.5


def test_objective_matches_the_tree_it_returns():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 4))
    y = (X[:, 0] * X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
    for crit in ("misclassification", "gini", "entropy"):
        m = OptimalTreeClassifier(max_depth=3, criterion=crit, ccp_alpha=0.005).fit(X, y)
        risk = node_risk(m.tree_, crit)[m.tree_.is_leaf].sum()
        assert m.objective_ == pytest.approx(risk + 0.005 * m.tree_.n_leaves, rel=1e-12)
        assert m.optimal_ and m.gap_ == 0.0
        if crit == "misclassification":
            assert m.objective_ - 0.005 * m.tree_.n_leaves == pytest.approx(1 - m.score(X, y))


def test_greedy_upper_bound_is_cart():
    # the Gini-greedy solution the search starts from is CART's depth-d tree
    rng = np.random.default_rng(5)
    X = rng.normal(size=(80, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    prob = OptimalProblem.build(X, y, np.ones(80), 2, objective="gini")
    g = greedy_solution(prob, prob.order, 2, "gini")
    cart = CARTClassifier(max_depth=2).fit(X, y)
    gini_cart = node_risk(cart.tree_, "gini")[cart.tree_.is_leaf].sum() * 80
    assert solution_cost(prob, np.arange(80), g) == pytest.approx(gini_cart, rel=1e-12)
    opt = OptimalTreeClassifier(max_depth=2, criterion="gini").fit(X, y)
    assert opt.objective_ <= gini_cart / 80 + 1e-12


def test_categorical_subsets():
    # the best split puts categories {a, d} against {b, c}: not one-against-rest
    X = pd.DataFrame({"c": list("abcd" * 6)})
    y = np.array([0, 1, 1, 0] * 6)
    m = OptimalTreeClassifier(max_depth=1).fit(X, y)
    assert m.objective_ == 0.0 and m.full_space_
    assert m.export_text().count("∈") >= 1
    # with more categories than max_subset_categories only ordered cuts are searched
    X2 = pd.DataFrame({"c": list("abcdefghij" * 3)})
    y2 = np.arange(30) % 2
    m2 = OptimalTreeClassifier(max_depth=1, max_subset_categories=4).fit(X2, y2)
    assert not m2.full_space_


def test_time_limit_returns_a_bound():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 8))
    y = ((X[:, 0] > 0) ^ (X[:, 1] > 0.3) ^ (X[:, 2] > -0.2)).astype(int)
    full = OptimalTreeClassifier(max_depth=3).fit(X, y)
    quick = OptimalTreeClassifier(max_depth=3, time_limit=1e-4).fit(X, y)
    assert not quick.optimal_
    assert quick.lower_bound_ <= full.objective_ + 1e-12 <= quick.objective_ + 1e-12
    assert quick.gap_ == pytest.approx(quick.objective_ - quick.lower_bound_)


def test_the_tree_works_like_any_other():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True, as_frame=True)
    m = OptimalTreeClassifier(max_depth=2).fit(X, y)
    back = from_json(m.to_json(), expected=OptimalTreeClassifier)
    assert (back.predict(X) == m.predict(X)).all()
    assert "petal" in m.export_text()
    assert len(m.to_rules()) == m.tree_.n_leaves
    assert m.tree_.prune([0]).n_leaves == 1
    assert m.predict_proba(X).shape == (150, 3)


@pytest.mark.parametrize("params, error", [
    (dict(max_depth=5), ValueError), (dict(max_depth=-1), ValueError),
    (dict(max_depth=2.0), TypeError), (dict(criterion="log_loss"), ValueError),
    (dict(time_limit=0.0), ValueError), (dict(ccp_alpha=-1.0), ValueError),
    (dict(min_samples_leaf=0), ValueError), (dict(confidence=0.9), ValueError)])
def test_bad_parameters(params, error):
    with pytest.raises(error, match=next(iter(params))):
        OptimalTreeClassifier(**params).fit(np.eye(4), [0, 1, 0, 1])


def test_missing_values_refused():
    X = np.array([[1.0], [np.nan], [3.0], [4.0]])
    with pytest.raises(ValueError, match="missing|NaN"):
        OptimalTreeClassifier(max_depth=1).fit(X, [0, 1, 0, 1])
