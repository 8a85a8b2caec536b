"""Structural invariants every fitted :class:`treebook.core.tree.Tree` must satisfy.

Shared by the tests of every learner::

    from tree_invariants import assert_tree_invariants, assert_predictions_follow_leaves
    assert_tree_invariants(model.tree_)
    assert_predictions_follow_leaves(model, X)

(``tests/`` is on ``sys.path`` when pytest runs the test files in it.)
"""

from __future__ import annotations

import numpy as np

from treebook.core.tree import NodeKind, Tree


def assert_tree_invariants(tree: Tree, *, exact_samples: bool = True, atol: float = 1e-9) -> None:
    """Check the flat arrays describe a well-formed tree.

    * shapes agree; the root is node 0 (parent -1, depth 0); ids are a depth-first
      pre-order (a node's first child is the next id, parents come before children);
    * leaves have no children and feature -1; a threshold test has two branches and a
      finite threshold; a category test maps codes to branches, every branch has at
      least one code, subsets have two branches;
    * the children's class counts sum to the parent's (classification), the children's
      weights to the parent's weight, and a regression node's value is the weighted mean
      of its children's values;
    * ``n_samples`` of the children add up to the parent's (``exact_samples``; with
      C4.5's fractional cases a row may reach several children, so then only ``>=``);
    * ``n_leaves``, ``node_count`` and ``max_depth`` agree with the arrays.
    """
    n = tree.node_count
    assert n >= 1, "a tree has at least its root"
    for name in ("kind", "feature", "threshold", "parent", "depth", "weighted_n", "n_samples",
                 "impurity"):
        assert getattr(tree, name).shape == (n,), f"{name} has shape {getattr(tree, name).shape}"
    assert tree.value.shape[0] == n
    assert tree.children_ptr.shape == (n + 1,) and tree.code_ptr.shape == (n + 1,)
    assert tree.children_ptr[0] == 0 and tree.children_ptr[-1] == tree.children.shape[0]
    assert np.all(np.diff(tree.children_ptr) >= 0) and np.all(np.diff(tree.code_ptr) >= 0)
    assert tree.parent[0] == -1 and tree.depth[0] == 0
    assert np.all(np.isfinite(tree.weighted_n)) and np.all(tree.weighted_n >= 0)
    assert np.all(np.isfinite(tree.impurity)) and np.all(tree.impurity >= -atol)
    if tree.is_regression:
        assert tree.value.shape == (n, 1)
    else:
        assert np.all(tree.value >= -atol), "class counts are non-negative"
        assert np.allclose(tree.value.sum(axis=1), tree.weighted_n, atol=atol, rtol=1e-9)

    for i in range(1, n):
        p = tree.parent[i]
        assert 0 <= p < i, f"node {i}: parent {p} must come before it in pre-order"
        assert tree.depth[i] == tree.depth[p] + 1
        assert i in tree.children_of(p)

    for i in range(n):
        kind = NodeKind(tree.kind[i])
        kids = tree.children_of(i)
        codes = tree.codes_of(i)
        if kind == NodeKind.LEAF:
            assert kids.size == 0 and tree.feature[i] == -1, f"leaf {i} has children or a feature"
            assert codes.size == 0
            continue
        assert tree.feature[i] >= 0
        assert kids.size >= 2, f"node {i} splits into {kids.size} branch(es)"
        assert kids[0] == i + 1, "pre-order: the first child follows its parent"
        assert np.all(tree.parent[kids] == i)
        assert np.all(np.diff(kids) > 0), "branches are numbered in order"
        if kind == NodeKind.THRESHOLD:
            assert kids.size == 2 and np.isfinite(tree.threshold[i]) and codes.size == 0
        else:
            assert np.isnan(tree.threshold[i])
            assert codes.size > 0
            assert np.all((codes == -1) | ((codes >= 0) & (codes < kids.size)))
            assert set(codes[codes >= 0].tolist()) == set(range(kids.size)), \
                f"node {i}: a branch no category reaches"
            if kind == NodeKind.SUBSET:
                assert kids.size == 2
        # the children partition the parent's cases
        assert np.isclose(tree.weighted_n[kids].sum(), tree.weighted_n[i], atol=atol, rtol=1e-9)
        if tree.is_regression:
            mean = np.dot(tree.weighted_n[kids], tree.value[kids, 0]) / tree.weighted_n[kids].sum()
            assert np.isclose(mean, tree.value[i, 0], atol=1e-9, rtol=1e-9)
        else:
            assert np.allclose(tree.value[kids].sum(axis=0), tree.value[i], atol=atol, rtol=1e-9), \
                f"node {i}: children's counts do not sum to the parent's"
        if exact_samples:
            assert tree.n_samples[kids].sum() == tree.n_samples[i]
        else:
            assert tree.n_samples[kids].sum() >= tree.n_samples[i]
        # a subtree is a contiguous block of deeper nodes
        block = tree.subtree(i)
        assert block[0] == i and np.all(tree.depth[block[1:]] > tree.depth[i])

    assert tree.n_leaves == int(np.count_nonzero(tree.kind == NodeKind.LEAF))
    assert tree.max_depth == int(tree.depth.max())
    assert tree.children.shape[0] == n - 1, "every node but the root is someone's child"


def assert_predictions_follow_leaves(model, X) -> None:
    """A classifier predicts, for each row, the argmax of the counts where the row stops,
    and ``predict_proba`` is those counts normalised (rows that stop at one node)."""
    tree = model.tree_
    end = model.apply(X)
    counts = tree.value[end]
    proba = model.predict_proba(X)
    assert np.allclose(proba, counts / counts.sum(axis=1, keepdims=True))
    assert np.allclose(proba.sum(axis=1), 1.0)
    expected = model.classes_[np.argmax(counts, axis=1)]
    assert np.array_equal(model.predict(X), expected)
