"""Pessimistic error pruning (PEP), Quinlan (1987).

The training errors of a tree are an optimistic estimate of its errors on new cases.
Quinlan's correction treats each leaf as if it made half an error more (a continuity
correction for a binomial count). For a node ``t`` with ``N(t)`` training cases of which
``e(t)`` are not of its majority class, and its subtree ``T_t`` with leaves ``L(T_t)``:

    e'(t)   = e(t) + 1/2                                 (t as a leaf)
    e'(T_t) = Σ_{l ∈ L(T_t)} e(l) + |L(T_t)| / 2          (the subtree)
    SE      = sqrt( e'(T_t) · (N(t) - e'(T_t)) / N(t) )   (its standard error)

and replaces ``T_t`` by a leaf when ``e'(t) ≤ e'(T_t) + SE``. The tree is traversed top
down: once a node becomes a leaf its descendants are never examined. Every number comes
from the training class counts the tree stores, so no data is needed.
"""

from __future__ import annotations

import numpy as np

from ..core.base import InstanceOf, validate_params
from ..core.tree import Tree

__all__ = ["pep_statistics", "prune_pessimistic"]


@validate_params({"tree": InstanceOf(Tree, "treebook.core.tree.Tree")})
def pep_statistics(tree: Tree) -> dict:
    """Per node: ``e(t)``, ``e'(t)``, the number of leaves below, ``e'(T_t)``, ``SE`` and
    whether PEP's test ``e'(t) ≤ e'(T_t) + SE`` holds (``prune``; False at leaves).

    Returned as a dict of arrays indexed by node id.
    """
    if tree.is_regression:
        raise ValueError("pessimistic error pruning needs a classification tree")
    n = tree.weighted_n
    e = np.maximum(n - tree.value.max(axis=1), 0.0)
    leaf = tree.is_leaf
    leaves = leaf.astype(float)
    sub_e = np.where(leaf, e, 0.0)
    for i in range(tree.node_count - 1, 0, -1):      # reverse pre-order: children first
        p = tree.parent[i]
        leaves[p] += leaves[i]
        sub_e[p] += sub_e[i]
    e_leaf = e + 0.5
    e_tree = sub_e + leaves / 2
    # with fractional weights e'(T_t) can exceed N(t); the variance is then taken as 0
    var = np.where(n > 0, e_tree * (n - e_tree) / np.where(n > 0, n, 1.0), 0.0)
    se = np.sqrt(np.maximum(var, 0.0))
    prune = ~leaf & (e_leaf <= e_tree + se)
    return {"errors": e, "errors_leaf": e_leaf, "n_leaves": leaves.astype(np.int64),
            "errors_subtree": e_tree, "se": se, "prune": prune}


def prune_pessimistic(tree: Tree) -> Tree:
    """Quinlan's pessimistic error pruning (top-down); returns a new, smaller tree.

    Marking every node whose test holds and cutting the tree there is the same as the
    top-down walk: the statistics of a node depend only on its original subtree, and a
    marked node's marked descendants disappear with it.
    """
    stats = pep_statistics(tree)
    return tree.prune(stats["prune"]) if stats["prune"].any() else tree
