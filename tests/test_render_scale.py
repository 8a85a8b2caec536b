"""Rendering is linear in the size of its output (issue 22): every internal node's branch
conditions are built once per walk, however deep the tree or many its categories."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import treebook.io.render as render
from treebook import C45Classifier
from treebook.core.splits import Split
from treebook.core.tree import NodeKind
from treebook.growers.recursive import grow_tree


@pytest.fixture
def counted(monkeypatch):
    """Count the calls of ``branch_conditions`` and of the category-label lookup."""
    calls = {"branch_conditions": 0, "_category": 0}
    for name in calls:
        original = getattr(render, name)

        def wrapper(*args, _original=original, _name=name, **kwargs):
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(render, name, wrapper)
    return calls


def _smallest_off(X, y, w, rows, available):
    """Always cut off the smallest value: a chain as deep as the data are long."""
    if rows.size < 2:
        return None
    return Split(feature=0, kind=NodeKind.THRESHOLD, score=1.0,
                 threshold=float(X[rows, 0].min()))


def test_rules_of_a_2000_node_chain_build_each_condition_once(counted):
    n = 1001
    X = np.arange(n, dtype=float)[:, None]
    tree = grow_tree(X, np.arange(n) % 2, np.ones(n), find_split=_smallest_off, n_classes=2)
    assert tree.node_count == 2 * n - 1 and tree.max_depth == n - 1
    rules = render.to_rules(tree)
    assert counted["branch_conditions"] == n - 1  # one per internal node (was Σ depths)
    assert len(rules) == n
    # merged: the deepest rules keep the tightest bound each way, e.g. "x0 > 998 AND x0 <= 999"
    assert [str(c) for c in rules[-2].conditions] == ["x0 > 998", "x0 <= 999"]
    assert [str(c) for c in rules[0].conditions] == ["x0 <= 0"]
    raw = render.to_rules(tree, simplify=False)  # unmerged: the whole path, root first
    assert len(raw[-1].conditions) == n - 1
    assert [str(c) for c in raw[-1].conditions[:2]] == ["x0 > 0", "x0 > 1"]
    assert counted["branch_conditions"] == 2 * (n - 1)


def test_export_text_of_a_10000_level_c45_tree_looks_each_category_up_once(counted):
    rng = np.random.default_rng(0)
    L, n = 10_000, 40_000
    codes = rng.integers(0, L, size=n)
    X = pd.DataFrame({"c": pd.Categorical.from_codes(codes, [f"v{j}" for j in range(L)])})
    y = np.where(codes % 3 == 0, "a", "b")
    tree = C45Classifier(pruning=None).fit(X, y).tree_
    internal = int((tree.kind != NodeKind.LEAF).sum())
    assert tree.kind[0] == NodeKind.MULTIWAY and tree.n_branches(0) >= 0.95 * L
    text = render.export_text(tree)
    assert counted["branch_conditions"] == internal
    # each category of each internal node is named once (was once per branch: L² lookups)
    n_codes = sum(int((tree.codes_of(v) >= 0).sum()) for v in np.flatnonzero(~tree.is_leaf))
    assert counted["_category"] == n_codes
    lines = text.splitlines()
    assert len(lines) == tree.node_count
    assert lines[1].startswith("|--- c = v") and text.count("|--- c = v") == tree.n_branches(0)
    counted["branch_conditions"] = 0
    render.to_graphviz(tree)
    assert counted["branch_conditions"] == internal
