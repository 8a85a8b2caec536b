"""Critical-value pruning (Mingers 1987) and the top-down stop rule it mirrors: hand
values of the G statistic and the gain, the horizon effect, and nested paths."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings

from prune_trees import build, grown_problem, is_pruned_subtree
from treebook.prune import (critical_value_path, pre_prune, pre_prune_path,
                            prune_critical_value)
from treebook.prune.critical_value import chi2_critical_values, split_pvalue, split_statistic

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


# ---- the χ² form: each test's own critical value χ²_{1-α}((V-1)(K-1)) ----------------

def _mixed_tree(n_classes=2):
    """root (binary, G = 0) → A: a 3-branch test [4,1] | [1,4] | [2,2], and
    B: a binary test [5,1] | [1,5]. Counts padded with zeros to ``n_classes``."""
    from treebook.core.tree import NodeKind, TreeBuilder

    pad = lambda c: list(c) + [0] * (n_classes - len(c))
    b = TreeBuilder()
    r = b.add_node(-1, pad([13, 13]), 26, 26, 0.0)
    b.set_split(r, 0, NodeKind.THRESHOLD, 0.5)
    a = b.add_node(r, pad([7, 7]), 14, 14, 0.0)
    b.set_split(a, 1, NodeKind.MULTIWAY, branch_of_code=[0, 1, 2])
    for c in ([4, 1], [1, 4], [2, 2]):
        b.add_node(a, pad(c), sum(c), sum(c), 0.0)
    bb = b.add_node(r, pad([6, 6]), 12, 12, 0.0)
    b.set_split(bb, 2, NodeKind.THRESHOLD, 0.5)
    for c in ([5, 1], [1, 5]):
        b.add_node(bb, pad(c), sum(c), sum(c), 0.0)
    return b.build(feature_names=("x0", "x1", "x2")), a, bb


# by hand: A's expected counts are [2.5,2.5],[2.5,2.5],[2,2]; B's are all 3
G_A = 2 * (8 * np.log(4 / 2.5) + 2 * np.log(1 / 2.5))      # 3.855, df (3-1)(2-1) = 2
G_B = 2 * (10 * np.log(5 / 3) + 2 * np.log(1 / 3))         # 5.822, df 1
P_A = np.exp(-G_A / 2)                                     # χ²_2 survival: e^{-x/2}
P_B = math.erfc(math.sqrt(G_B / 2))                        # χ²_1 survival: erfc(√(x/2))


def test_chi2_form_by_hand():
    tree, a, bb = _mixed_tree()
    g = split_statistic(tree, "g")
    assert g[a] == pytest.approx(G_A) and g[bb] == pytest.approx(G_B)
    assert g[0] == pytest.approx(0.0)
    p = split_pvalue(tree)
    assert p[a] == pytest.approx(P_A, rel=1e-9) and p[bb] == pytest.approx(P_B, rel=1e-9)
    assert p[0] == pytest.approx(1.0)
    # 95% points from a printed χ² table: 3.841 (1 df), 5.991 (2 df)
    crit = chi2_critical_values(tree, 0.05)
    assert crit[0] == pytest.approx(3.841, abs=5e-4)
    assert crit[a] == pytest.approx(5.991, abs=5e-4)
    assert crit[bb] == pytest.approx(3.841, abs=5e-4)
    assert np.isnan(crit[tree.is_leaf]).all()
    # Mingers's one critical value 3.84 keeps A (G 3.855 ≥ 3.84); the χ² form at α = 0.05
    # asks A for 5.991 and cuts it; B (5.822 ≥ 3.841) and so the root stay in both
    assert prune_critical_value(tree, 3.84).node_count == 8
    chi = prune_critical_value(tree, significance=0.05)
    assert chi.node_count == 5 and chi.is_leaf[1] and not chi.is_leaf[0]
    # p_B = 0.0158: at α = 0.01 B goes too, and the root with it
    assert prune_critical_value(tree, significance=0.01).node_count == 1


def test_chi2_path_by_hand():
    tree, _, _ = _mixed_tree()
    path = critical_value_path(tree, "g", form="chi2")
    assert path.parameter == "significance level"
    assert np.allclose(path.values, [P_A, P_B, 0.0], rtol=1e-9)
    assert [t.node_count for t in path.trees] == [8, 5, 1]
    for alpha, t in zip(path.values, path.trees):     # values[k] gives trees[k]
        assert prune_critical_value(tree, significance=float(alpha)).node_count == t.node_count


def test_chi2_form_counts_only_classes_present():
    # three classes in the tree, two at A: A's test has (3-1)(2-1) = 2 df, not 4
    tree, a, _ = _mixed_tree(n_classes=3)
    assert chi2_critical_values(tree, 0.05)[a] == pytest.approx(5.991, abs=5e-4)
    assert split_pvalue(tree)[a] == pytest.approx(P_A, rel=1e-9)


def test_chi2_form_bad_input():
    tree, _, _ = _mixed_tree()
    with pytest.raises(TypeError, match="exactly one"):
        prune_critical_value(tree)
    with pytest.raises(TypeError, match="exactly one"):
        prune_critical_value(tree, 3.84, significance=0.05)
    with pytest.raises(ValueError, match="significance"):
        prune_critical_value(tree, significance=1.5)
    with pytest.raises(ValueError, match="significance"):
        prune_critical_value(tree, significance=float("nan"))
    with pytest.raises(TypeError, match="significance"):
        chi2_critical_values(tree, "5%")
    with pytest.raises(ValueError, match="measure='g'"):
        prune_critical_value(tree, measure="gain", significance=0.05)
    with pytest.raises(ValueError, match="form"):
        critical_value_path(tree, form="quantile")


@settings(max_examples=40, deadline=None)
@given(grown_problem(max_depth=5))
def test_chi2_path_is_nested(problem):
    tree, _, _ = problem
    path = critical_value_path(tree, form="chi2")
    assert np.all(np.diff(path.values) < 0)
    sizes = [t.node_count for t in path.trees]
    assert all(a >= b for a, b in zip(sizes, sizes[1:]))
    for a, b in zip(path.trees, path.trees[1:]):
        assert is_pruned_subtree(a, b)
