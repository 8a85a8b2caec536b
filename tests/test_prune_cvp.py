"""Critical-value pruning (Mingers 1987) and the top-down stop rule it mirrors: hand
values of the G statistic and the gain, the horizon effect, and nested paths."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from prune_trees import build, grown_problem, is_pruned_subtree
from treebook.prune import (critical_value_path, pre_prune, pre_prune_path,
                            prune_critical_value)
from treebook.prune.critical_value import split_statistic

# XOR: the root's test separates nothing, the tests below it separate perfectly
XOR = (0, 0.5, [4, 4], [(1, 0.5, [2, 2], [[2, 0], [0, 2]]),
                        (1, 0.5, [2, 2], [[0, 2], [2, 0]])])


def test_statistics_by_hand():
    tree = build((0, 0.5, [6, 2], [[6, 0], [0, 2]]))
    # G = 2 Σ O ln(O/E): E = [[4.5, 1.5], [1.5, 0.5]]
    g = 2 * (6 * np.log(6 / 4.5) + 2 * np.log(2 / 0.5))
    assert split_statistic(tree, "g")[0] == pytest.approx(g)
    h = -(0.75 * np.log2(0.75) + 0.25 * np.log2(0.25))     # all of H(D) is gained
    assert split_statistic(tree, "gain")[0] == pytest.approx(h)
    assert np.isnan(split_statistic(tree)[1])


def test_a_weak_test_above_a_strong_one_survives():
    tree = build(XOR)
    s = split_statistic(tree, "gain")
    assert s[0] == pytest.approx(0.0) and s[1] == pytest.approx(1.0)
    assert prune_critical_value(tree, 0.5, "gain").node_count == 7
    # the stop rule cuts the root and never sees the perfect tests below: horizon effect
    assert pre_prune(tree, 0.5, "gain").node_count == 1
    assert prune_critical_value(tree, 1.01, "gain").node_count == 1


def test_path_by_hand():
    tree = build(XOR)
    path = critical_value_path(tree, "g")
    g = 2 * 4 * np.log(2)                # each lower test: G = 2·4·ln 2
    # the root scores 0 but lives as long as the tests below it: its subtree's maximum is g
    assert np.allclose(path.values, [g, np.inf])
    assert [t.node_count for t in path.trees] == [7, 1]
    assert path.nested


def test_bad_input():
    tree = build(XOR)
    with pytest.raises(ValueError, match="measure"):
        prune_critical_value(tree, 1.0, "gini")
    with pytest.raises(TypeError, match="critical_value"):
        prune_critical_value(tree, "high")
    with pytest.raises(ValueError, match="NaN"):
        pre_prune(tree, float("nan"))


@settings(max_examples=60, deadline=None)
@given(grown_problem(max_depth=5))
def test_paths_are_nested_and_shrink(problem):
    tree, _, _ = problem
    for path in (critical_value_path(tree, "g"), critical_value_path(tree, "gain"),
                 pre_prune_path(tree, "gain")):
        sizes = [t.node_count for t in path.trees]
        assert sizes[0] <= tree.node_count and sizes[-1] == 1
        assert all(a >= b for a, b in zip(sizes, sizes[1:]))
        assert np.all(np.diff(path.values) > 0)
        for a, b in zip(path.trees, path.trees[1:]):
            assert is_pruned_subtree(a, b)
    # CVP keeps at least what the stop rule keeps, at the same critical value
    stat = split_statistic(tree, "gain")
    for c in np.unique(stat[~np.isnan(stat)]):
        cvp = prune_critical_value(tree, float(c), "gain")
        pre = pre_prune(tree, float(c), "gain")
        assert is_pruned_subtree(cvp, pre)
        assert is_pruned_subtree(tree, cvp)
