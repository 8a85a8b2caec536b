"""The optimally pruned subtree on test data, and how far another pruning is from it.

Esposito, Malerba and Semeraro (1997) judge a pruning method by comparing its tree with
the *optimally pruned tree*: the pruned subtree of the same grown tree that makes the
fewest errors on the **test** set (the smallest such subtree on ties). Errors add up over
leaves, so it is found by the dynamic programme of reduced-error pruning with the test set
in place of the pruning set (Bohanec and Bratko 1994 give the general algorithm). It is a
yardstick, never a method: it looks at the test set.

A method's tree that keeps fewer tests than the optimum *over-prunes*; one that keeps
tests the optimum removes *under-prunes*. :func:`distance_to_optimal` counts both, on
the internal nodes of the original tree (which is why it needs pruned subtrees:
subtree raising, which grafts a branch in its parent's place, has no such count and
is compared by size only).
"""

from __future__ import annotations

import numpy as np

from ..core.tree import NodeKind, Tree
from .reduced_error import _check_tree, check_pruning_X, prune_reduced_error

__all__ = ["prune_optimal", "kept_nodes", "distance_to_optimal"]


def prune_optimal(tree: Tree, X_test, y_test, sample_weight=None, *,
                  missing: str = "stop") -> Tree:
    """The smallest pruned subtree of ``tree`` with the least error on ``(X_test, y_test)``
    (encoded ``X_test``, as for :func:`~treebook.prune.reduced_error.prune_reduced_error`,
    which computes it)."""
    _check_tree(tree, "prune_optimal")
    X_test = check_pruning_X(tree, X_test, "X_test")
    return prune_reduced_error(tree, X_test, y_test, sample_weight, missing=missing)


def _same_test(a: Tree, i: int, b: Tree, j: int) -> bool:
    if a.kind[i] != b.kind[j] or a.feature[i] != b.feature[j]:
        return False
    if a.kind[i] == NodeKind.THRESHOLD:
        return bool(a.threshold[i] == b.threshold[j])
    return bool(np.array_equal(a.codes_of(i), b.codes_of(j)))


def kept_nodes(tree: Tree, pruned: Tree):
    """Which nodes of ``tree`` survive in ``pruned``, as a boolean mask over ``tree``'s
    node ids — or ``None`` if ``pruned`` is not a pruned subtree of ``tree`` (same root,
    same tests, each node either kept with all its branches or turned into a leaf)."""
    _check_tree(tree, "kept_nodes")
    _check_tree(pruned, "kept_nodes")
    keep = np.zeros(tree.node_count, dtype=bool)
    stack = [(0, 0)]
    while stack:
        i, j = stack.pop()
        keep[i] = True
        if pruned.kind[j] == NodeKind.LEAF:
            continue
        if tree.kind[i] == NodeKind.LEAF or not _same_test(tree, i, pruned, j):
            return None
        ci, cj = tree.children_of(i), pruned.children_of(j)
        if ci.shape != cj.shape:
            return None
        stack.extend(zip(ci.tolist(), cj.tolist()))
    if int(keep.sum()) != pruned.node_count:
        return None
    return keep


def distance_to_optimal(tree: Tree, pruned: Tree, optimal: Tree) -> dict:
    """How a pruned tree differs from the optimally pruned one (both pruned from ``tree``).

    ``leaves_diff``: leaves of ``pruned`` minus leaves of ``optimal`` (negative: smaller
    than the optimum). ``over``: tests (internal nodes) the optimum keeps and ``pruned``
    removes; ``under``: tests ``pruned`` keeps and the optimum removes; ``distance`` =
    ``over + under``. ``over``/``under``/``distance`` are NaN when ``pruned`` is not a
    pruned subtree of ``tree`` (e.g. after subtree raising).
    """
    out = {"leaves_diff": int(pruned.n_leaves - optimal.n_leaves)}
    k_opt = kept_nodes(tree, optimal)
    if k_opt is None:
        raise ValueError("optimal is not a pruned subtree of tree")
    k_m = kept_nodes(tree, pruned)
    if k_m is None:
        out.update(over=np.nan, under=np.nan, distance=np.nan)
        return out
    # a kept node is a test of the pruned tree when it is internal there: a kept node
    # whose children are kept too
    def tests(keep):
        internal = np.zeros(tree.node_count, dtype=bool)
        child_kept = keep[np.clip(tree.children, 0, None)] if tree.children.size else keep[:0]
        for i in np.flatnonzero(keep & ~tree.is_leaf):
            a, b = tree.children_ptr[i], tree.children_ptr[i + 1]
            internal[i] = bool(child_kept[a:b].all())
        return internal

    t_opt, t_m = tests(k_opt), tests(k_m)
    over = int(np.count_nonzero(t_opt & ~t_m))
    under = int(np.count_nonzero(t_m & ~t_opt))
    out.update(over=over, under=under, distance=over + under)
    return out
