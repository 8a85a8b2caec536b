"""Pessimistic error pruning (Quinlan 1987) on hand-built trees and against a direct,
top-down reference implementation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treebook import C45Classifier
from treebook.prune.pessimistic import pep_statistics, prune_pessimistic
from treebook.core.tree import NodeKind, TreeBuilder


def _stump(root, leaves):
    b = TreeBuilder()
    r = b.add_node(-1, root, sum(root), sum(root), 0.0)
    b.set_split(r, 0, NodeKind.MULTIWAY, branch_of_code=list(range(len(leaves))))
    for c in leaves:
        b.add_node(r, c, sum(c), sum(c), 0.0)
    return b.build()


def test_statistics_by_hand():
    tree = _stump([15, 1], [[6, 0], [9, 0], [0, 1]])
    s = pep_statistics(tree)
    assert s["errors"][0] == 1 and s["errors_leaf"][0] == 1.5
    assert s["n_leaves"][0] == 3 and s["errors_subtree"][0] == 0 + 3 / 2
    assert s["se"][0] == pytest.approx(np.sqrt(1.5 * (16 - 1.5) / 16))
    # e'(t) = 1.5 <= e'(T_t) + SE = 1.5 + 1.166: the subtree goes
    assert s["prune"][0] and prune_pessimistic(tree).node_count == 1


def test_a_useful_split_is_kept():
    tree = _stump([50, 50], [[50, 0], [0, 50]])
    s = pep_statistics(tree)
    # e'(t) = 50.5 > e'(T_t) + SE = 1 + sqrt(1 · 99 / 100)
    assert s["errors_leaf"][0] == 50.5
    assert s["errors_subtree"][0] + s["se"][0] == pytest.approx(1 + np.sqrt(0.99))
    assert not s["prune"][0] and prune_pessimistic(tree).node_count == 3


def test_top_down_the_highest_prunable_node_wins():
    # root [8, 4] splits into a mixed node [6, 2] (itself split into [6, 0], [0, 2]) and
    # a leaf [2, 2]. Root: e' = 4.5; subtree: 0 + 0 + 2 + 3/2 = 3.5, SE = sqrt(3.5·8.5/12)
    b = TreeBuilder()
    r = b.add_node(-1, [8, 4], 12, 12, 0.0)
    b.set_split(r, 0, NodeKind.THRESHOLD, 0.5)
    m = b.add_node(r, [6, 2], 8, 8, 0.0)
    b.add_node(r, [2, 2], 4, 4, 0.0)
    b.set_split(m, 1, NodeKind.THRESHOLD, 0.5)
    b.add_node(m, [6, 0], 6, 6, 0.0)
    b.add_node(m, [0, 2], 2, 2, 0.0)
    tree = b.build()
    s = pep_statistics(tree)
    se = np.sqrt(3.5 * 8.5 / 12)
    assert s["se"][0] == pytest.approx(se)
    assert 4.5 <= 3.5 + se and s["prune"][0]
    assert prune_pessimistic(tree).node_count == 1
    # the node [6, 2] alone would be kept: e' = 2.5 > 1 + sqrt(1 · 7 / 8)
    assert not s["prune"][1]


def test_input_is_checked():
    with pytest.raises(TypeError, match="Tree"):
        prune_pessimistic([1, 2])


def _reference(tree):
    """Quinlan's walk, written recursively and directly from the definitions."""
    make_leaf = []

    def leaves(i):
        return [i] if tree.kind[i] == NodeKind.LEAF else [l for c in tree.children_of(i)
                                                          for l in leaves(c)]

    def errors(i):
        return tree.weighted_n[i] - tree.value[i].max()

    def visit(i):
        if tree.kind[i] == NodeKind.LEAF:
            return
        ls = leaves(i)
        e_sub = sum(errors(l) for l in ls) + len(ls) / 2
        n = tree.weighted_n[i]
        se = np.sqrt(max(e_sub * (n - e_sub) / n, 0.0))
        if errors(i) + 0.5 <= e_sub + se:
            make_leaf.append(i)
            return
        for c in tree.children_of(i):
            visit(c)

    visit(0)
    return tree.prune(make_leaf)


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=8, max_value=60).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from(["a", "b", "c", None]), min_size=n, max_size=n),
    st.lists(st.one_of(st.none(), st.integers(0, 9)), min_size=n, max_size=n),
    st.lists(st.sampled_from([0, 1, 2]), min_size=n, max_size=n))))
def test_matches_the_top_down_reference_and_never_grows(data):
    cat, num, y = data
    cat[0] = cat[0] or "a"
    num[0] = 0 if num[0] is None else num[0]
    X = pd.DataFrame({"cat": pd.Series(cat, dtype=object),
                      "num": [np.nan if v is None else float(v) for v in num]})
    tree = C45Classifier(min_samples_leaf=1, pruning=None, mdl_correction=False).fit(X, y).tree_
    ours, ref = prune_pessimistic(tree), _reference(tree)
    np.testing.assert_array_equal(ours.kind, ref.kind)
    np.testing.assert_array_equal(ours.feature, ref.feature)
    assert ours.node_count <= tree.node_count
