"""The optimally pruned subtree (the yardstick of Esposito et al. 1997), the distance to
it, and selecting a tree on a pruning set along a path."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from prune_trees import build, errors, grown_problem, pruned_subtrees
from treebook import C45Classifier
from treebook.prune import (PrunedSequence, ccp_sequence, distance_to_optimal, kept_nodes,
                            prune_error_based, prune_optimal)

SPEC = (0, 0.5, [9, 4], [
    (1, 0.5, [6, 2], [[6, 0], [0, 2]]),
    (1, 0.5, [3, 2], [(2, 0.5, [3, 1], [[2, 0], [1, 1]]), [0, 1]]),
])


def test_distance_by_hand():
    tree = build(SPEC)
    full = tree
    only_left = tree.prune([4])          # right subtree cut: 2 tests fewer
    root = tree.prune([0])
    d = distance_to_optimal(tree, only_left, full)
    assert d == {"leaves_diff": -2, "over": 2, "under": 0, "distance": 2}
    d = distance_to_optimal(tree, full, only_left)
    assert d == {"leaves_diff": 2, "over": 0, "under": 2, "distance": 2}
    d = distance_to_optimal(tree, tree.prune([1]), only_left)
    assert (d["over"], d["under"]) == (1, 2)
    assert distance_to_optimal(tree, root, root)["distance"] == 0


def test_kept_nodes():
    tree = build(SPEC)
    k = kept_nodes(tree, tree.prune([5]))
    assert k.tolist() == [True, True, True, True, True, True, False, False, True]
    other = build((1, 0.5, [9, 4], [[6, 2], [3, 2]]))
    assert kept_nodes(tree, other) is None


def test_subtree_raising_is_not_a_pruned_subtree():
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    model = C45Classifier(pruning=None).fit(X, y)
    Xe = model.encoder_.transform(X)
    raised = prune_error_based(model.tree_, Xe, y, confidence=0.25)
    plain = prune_error_based(model.tree_, confidence=0.25, subtree_raising=False)
    assert kept_nodes(model.tree_, plain) is not None
    opt = prune_optimal(model.tree_, Xe, y)
    d = distance_to_optimal(model.tree_, raised, opt)
    if kept_nodes(model.tree_, raised) is None:
        assert np.isnan(d["distance"])
    # on its own training data the optimal subtree is the (collapsed) tree itself
    assert opt.node_count == model.tree_.node_count


def test_select_on_a_pruning_set():
    tree = build(SPEC)
    seq = PrunedSequence("k", [0, 1, 2], [tree, tree.prune([4]), tree.prune([0])])
    X = np.array([[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], float)
    y = np.array([0, 1, 0, 1, 1])
    # full tree: wrong only at [1, 0, 1] (RLR [1, 1] ties to class 0); right cut ([3, 2]
    # predicts 0) also wrong at [1, 1, 0]; the root (0) wrong on the three 1s
    assert seq.errors_on(X, y).tolist() == [1, 2, 3]
    assert seq.select(X, y) == 0
    # two cases every tree gets wrong: errors 3, 4, 5 of 7; R_min = 3/7,
    # SE = sqrt(3/7 · 4/7 / 7) = 0.187: 4/7 = 0.571 <= 0.616 < 5/7
    Xb, yb = np.vstack([X, [[0, 0, 0], [0, 0, 0]]]), np.append(y, [1, 1])
    assert seq.errors_on(Xb, yb).tolist() == [3, 4, 5]
    assert seq.select(Xb, yb) == 0
    assert seq.select(Xb, yb, rule="1se") == 1
    # equal errors: the smaller tree
    same = PrunedSequence("k", [0, 1], [tree, tree.prune([5])])
    assert same.errors_on(X, y).tolist() == [1, 1] and same.select(X, y) == 1
    with pytest.raises(ValueError, match="rule"):
        seq.select(X, y, rule="best")


def test_ccp_sequence_is_breimans():
    # SPEC by hand (misclassified cases, over 13): node 5 ([3, 1] -> [2, 0], [1, 1]) lowers
    # no error, α = 0; without it node 4 has α = (2 - 1)/1 = 1 and the root (4 - 1)/3 = 1:
    # tied, so Breiman prunes both at once and the sequence is T(0), then the root
    tree = build(SPEC)
    seq = ccp_sequence(tree, risk="misclassification")
    assert np.allclose(seq.values, [0, 1 / 13], rtol=1e-12, atol=0)
    assert [t.node_count for t in seq.trees] == [7, 1]
    assert seq.trees[0].node_count == tree.prune([5]).node_count


@settings(max_examples=40, deadline=None)
@given(grown_problem(max_depth=4))
def test_optimal_is_the_best_subtree_on_test_data(problem):
    tree, X, y = problem
    opt = prune_optimal(tree, X, y)
    best = min(errors(tree.prune(sorted(c)) if c else tree, X, y) for c in pruned_subtrees(tree))
    assert errors(opt, X, y) == best
    assert distance_to_optimal(tree, opt, opt)["distance"] == 0
