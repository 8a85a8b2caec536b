"""Reduced-error pruning (Quinlan 1987): hand-built trees with known answers, and its
defining property by brute force: the smallest pruned subtree with the least
pruning-set error."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from prune_trees import build, errors, grown_problem, is_pruned_subtree, pruned_subtrees
from treebook.prune import prune_reduced_error, pruning_set_errors

# root x0 <= 0.5 [8, 4]: left x1 <= 0.5 [6, 2] -> [6, 0], [0, 2]; right leaf [2, 2]
SPEC = (0, 0.5, [8, 4], [(1, 0.5, [6, 2], [[6, 0], [0, 2]]), [2, 2]])


def test_ties_go_to_the_smaller_tree():
    tree = build(SPEC)
    # left: as a leaf 1 error (the one class-1 case), as a subtree 2 (LR predicts 1 wrongly
    # twice) -> pruned. Root: as a leaf 2 errors, subtree 1 + 1 = 2 -> tie -> pruned.
    X = [[0, 0], [0, 1], [0, 1], [0, 1], [1, 0], [1, 1]]
    y = [0, 0, 0, 1, 1, 0]
    X = np.array([r + [0] for r in X], float)
    s = pruning_set_errors(tree, X, y)
    assert s["leaf"].tolist()[:2] == [2, 1]
    assert s["subtree"][1] == 2 and s["pruned_subtree"][0] == 2
    assert s["prune"][0] and s["prune"][1]
    assert prune_reduced_error(tree, X, y).node_count == 1


def test_a_useful_subtree_is_kept():
    tree = build(SPEC)
    X = np.array([[0, 0, 0], [0, 0, 0], [0, 1, 0], [0, 1, 0], [1, 0, 0]], float)
    y = [0, 0, 1, 1, 0]
    pruned = prune_reduced_error(tree, X, y)
    assert pruned.node_count == tree.node_count
    assert errors(pruned, X, y) == 0


def test_a_subtree_no_case_reaches_becomes_a_leaf():
    tree = build(SPEC)
    X = np.array([[1, 0, 0], [1, 1, 0], [1, 1, 0]], float)   # all go right
    y = [1, 1, 0]
    s = pruning_set_errors(tree, X, y)
    assert s["cases"][1] == 0 and s["leaf"][1] == 0 and s["prune"][1]
    # root: leaf 2 errors, subtree 0 + 2 = 2 -> pruned as well
    assert prune_reduced_error(tree, X, y).node_count == 1


def test_empty_pruning_set_prunes_to_the_root():
    tree = build(SPEC)
    assert prune_reduced_error(tree, np.empty((0, 3)), np.empty(0, int)).node_count == 1


def test_labels_are_mapped_through_the_tree_classes():
    from sklearn.datasets import load_iris
    from treebook import CARTClassifier

    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    model = CARTClassifier(random_state=0).fit(X, names)
    codes = CARTClassifier(random_state=0).fit(X, y)        # the same tree, labelled by codes
    a = prune_reduced_error(model.tree_, X[::3], names[::3])
    b = prune_reduced_error(codes.tree_, X[::3], y[::3])
    assert a.node_count == b.node_count < model.tree_.node_count
    with pytest.raises(ValueError, match="label 'daisy'"):
        prune_reduced_error(model.tree_, X[:2], ["setosa", "daisy"])


def test_bad_input():
    tree = build(SPEC)
    with pytest.raises(TypeError, match="tree"):
        prune_reduced_error("tree", np.zeros((1, 3)), [0])
    with pytest.raises(ValueError, match="y has 2 labels"):
        prune_reduced_error(tree, np.zeros((1, 3)), [0, 1])
    with pytest.raises(ValueError, match="X_prune must be a 2-D"):
        prune_reduced_error(tree, np.zeros(3), [0])
    with pytest.raises(ValueError, match="sample_weight"):
        prune_reduced_error(tree, np.zeros((1, 3)), [0], sample_weight=[-1.0])
    with pytest.raises(ValueError, match="missing"):
        prune_reduced_error(tree, np.zeros((1, 3)), [0], missing="drop")


@settings(max_examples=60, deadline=None)
@given(grown_problem(max_depth=4))
def test_rep_is_the_smallest_most_accurate_subtree(problem):
    tree, X, y = problem
    pruned = prune_reduced_error(tree, X, y)
    assert is_pruned_subtree(tree, pruned)
    # brute force over every pruned subtree, errors counted from predictions
    scored = []
    for cut in pruned_subtrees(tree):
        t = tree.prune(sorted(cut)) if cut else tree
        scored.append((errors(t, X, y), t.node_count))
    best_err = min(e for e, _ in scored)
    best_size = min(n for e, n in scored if e == best_err)
    assert errors(pruned, X, y) == best_err
    assert pruned.node_count == best_size
