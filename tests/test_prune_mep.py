"""Minimum-error pruning (Niblett and Bratko 1986; Cestnik and Bratko 1991): a hand
computation, the m-estimate, and properties on random grown trees."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prune_trees import build, grown_problem, is_pruned_subtree
from treebook.prune import minimum_error_path, prune_minimum_error
from treebook.prune.minimum_error import expected_error, minimum_error_statistics

# root [9, 4]: left [6, 2] -> [6, 0], [0, 2]; right [3, 2] -> RL [3, 1] (-> [2, 0], [1, 1]),
# RR [0, 1]. Pre-order ids: 0 root, 1 left, 2 LL, 3 LR, 4 right, 5 RL, 6 RLL, 7 RLR, 8 RR.
SPEC = (0, 0.5, [9, 4], [
    (1, 0.5, [6, 2], [[6, 0], [0, 2]]),
    (1, 0.5, [3, 2], [(2, 0.5, [3, 1], [[2, 0], [1, 1]]), [0, 1]]),
])


def laplace(n0, n1):
    """Niblett and Bratko's E = (n - n_c + K - 1) / (n + K), K = 2, by hand."""
    n = n0 + n1
    return (n - max(n0, n1) + 1) / (n + 2)


def test_laplace_by_hand():
    tree = build(SPEC)
    s = minimum_error_statistics(tree)
    # RL [3, 1]: static 2/6; dynamic 2/4 * 1/4 + 2/4 * 2/4 = 3/8 > 1/3 -> pruned
    assert s["static"][5] == pytest.approx(1 / 3)
    assert s["dynamic"][5] == pytest.approx(0.5 * 0.25 + 0.5 * 0.5)
    assert s["prune"][5]
    # right [3, 2]: static 3/7; dynamic 4/5 * 1/3 + 1/5 * 1/3 = 1/3 -> kept
    assert s["static"][4] == pytest.approx(3 / 7)
    assert s["dynamic"][4] == pytest.approx(1 / 3) and not s["prune"][4]
    # left [6, 2]: static 3/10; dynamic 6/8 * 1/8 + 2/8 * 1/4 = 0.15625 -> kept
    assert s["dynamic"][1] == pytest.approx(0.15625) and not s["prune"][1]
    # root: static 5/15, dynamic 8/13 * 0.15625 + 5/13 * 1/3
    assert s["dynamic"][0] == pytest.approx(8 / 13 * 0.15625 + 5 / 13 / 3)
    assert not s["prune"][0]
    for i, counts in enumerate([[9, 4], [6, 2], [6, 0], [0, 2], [3, 2], [3, 1]]):
        assert s["static"][i] == pytest.approx(laplace(*counts))
    pruned = prune_minimum_error(tree)
    assert pruned.node_count == tree.node_count - 2 and is_pruned_subtree(tree, pruned)


def test_m_estimate_by_hand():
    tree = build(SPEC)
    p = np.array([9, 4]) / 13           # the training prior
    m = 8.0
    s = minimum_error_statistics(tree, m=m)
    # right [3, 2]: (5 - 3 + (1 - 9/13) 8) / (5 + 8)
    assert s["static"][4] == pytest.approx((5 - 3 + (1 - p[0]) * m) / 13)
    # RR [0, 1] predicts class 1, prior 4/13
    assert s["static"][8] == pytest.approx((1 - 1 + (1 - p[1]) * m) / 9)
    # Laplace is the m-estimate with m = K and a uniform prior
    a = minimum_error_statistics(tree)["static"]
    b = minimum_error_statistics(tree, m=2, prior="uniform")["static"]
    assert np.allclose(a, b)


def test_m_zero_prunes_only_splits_that_do_not_help():
    # [3, 1] -> [2, 1], [1, 0]: training errors 1 = 1 + 0: a useless split
    tree = build((0, 0.5, [3, 1], [[2, 1], [1, 0]]))
    assert prune_minimum_error(tree, m=0).node_count == 1
    tree = build((0, 0.5, [3, 1], [[3, 0], [0, 1]]))
    assert prune_minimum_error(tree, m=0).node_count == 3


def test_expected_error_of_an_empty_node():
    assert expected_error([[0.0, 0.0]], [0], 0.0, [0.7, 0.3])[0] == pytest.approx(0.3)


def test_bad_input():
    tree = build(SPEC)
    with pytest.raises(ValueError, match="m must be"):
        prune_minimum_error(tree, m=-1)
    with pytest.raises(TypeError, match="m must be"):
        prune_minimum_error(tree, m="big")
    with pytest.raises(ValueError, match="prior"):
        prune_minimum_error(tree, m=2, prior=[0.5, 0.6])
    with pytest.raises(TypeError, match="tree"):
        prune_minimum_error(None)
    with pytest.raises(ValueError, match="ms is empty"):
        minimum_error_path(tree, ms=[])


def test_larger_m_is_not_always_smaller():
    """Sizes need not shrink as m grows (the chapter's counterexample). Root [4, 3]:
    A [2, 3] (-> [0, 1], [2, 2]) and a leaf [2, 0]; training prior (4/7, 3/7)."""
    tree = build(NON_MONOTONE)
    p = np.array([4, 3]) / 7

    def est(n, n_c, c, m):
        return (n - n_c + (1 - p[c]) * m) / (n + m)

    for m, keep_a in ((2.0, False), (4.0, True)):
        static = est(5, 3, 1, m)                          # A predicts class 1
        dynamic = 1 / 5 * est(1, 1, 1, m) + 4 / 5 * est(4, 2, 0, m)   # [2, 2] ties to 0
        assert (static > dynamic) == keep_a
        s = minimum_error_statistics(tree, m=m)
        assert s["static"][1] == pytest.approx(static)
        assert s["dynamic"][1] == pytest.approx(dynamic)
    path = minimum_error_path(tree, ms=(0, 1, 2, 4, 8, 16))
    assert [t.node_count for t in path.trees] == [3, 3, 3, 5, 1, 1]
    assert not path.nested


NON_MONOTONE = (0, 0.5, [4, 3], [(1, 0.5, [2, 3], [[0, 1], [2, 2]]), [2, 0]])


@settings(max_examples=60, deadline=None)
@given(grown_problem(max_depth=5), st.floats(0, 50))
def test_result_is_a_pruned_subtree(problem, m):
    tree, _, _ = problem
    pruned = prune_minimum_error(tree, m=m)
    assert is_pruned_subtree(tree, pruned)
    # every kept internal node fails the test, every leaf of the result that was internal
    # in the tree passes it
    s = minimum_error_statistics(tree, m=m)
    assert pruned.node_count <= tree.node_count
    assert np.all(s["error"] <= s["static"] + 1e-12)
