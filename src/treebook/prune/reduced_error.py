"""Reduced-error pruning (REP), Quinlan (1987): prune on a separate pruning set.

The cases of a *pruning set*, never seen by the grower, are sent down the tree. For a
node ``t`` let ``r(t)`` be the pruning-set errors ``t`` would make as a leaf (the cases
that pass through ``t`` and are not of the class ``t`` predicts), and ``R(T_t)`` the
errors of its subtree. Visiting the tree bottom-up, REP replaces ``T_t`` by a leaf when

    r(t) ≤ R(T_t)          (the pruning-set error does not increase),

where ``R(T_t)`` is taken *after* ``t``'s own branches have been pruned. Errors add up
over the leaves of a tree, so this is a dynamic programme: ``R(T_t)`` after pruning is
the least error of any pruned subtree rooted at ``t``, and because ties go to the leaf
the result is the **smallest** pruned subtree with the **least** pruning-set error
(a property Esposito et al. 1997 state; tested by brute force in
``tests/test_prune_rep.py``).

Decisions, documented:

* a subtree that no pruning case reaches has ``r(t) = R(T_t) = 0`` and is pruned to a
  leaf (its error cannot rise);
* a case that stops at an internal node (a missing value, or a category with no branch)
  is counted as an error of that node whenever the node's prediction is wrong, whether
  or not its subtree is pruned;
* with ``missing="distribute"`` (C4.5's fractional cases) errors are still counted leaf
  by leaf, each piece of a case with its weight — the count C4.5 itself makes, which
  keeps the errors additive; the tree's prediction for such a case averages its leaves,
  so the count is then an approximation of the 0/1 error.

``X`` is the *encoded* matrix (``estimator.encoder_.transform(X)``: numbers as floats,
categories as their codes), ``y`` the class labels (mapped through ``tree.classes``) or,
for a tree that records no classes, the codes ``0 … K-1``.
"""

from __future__ import annotations

import numpy as np

from ..core.tree import Tree, check_tree

__all__ = ["case_counts", "pruning_set_errors", "prune_reduced_error"]

_TOL = 1e-9


def _check_tree(tree, method: str) -> None:
    check_tree(tree)
    if tree.is_regression:
        raise ValueError(f"{method} needs a classification tree")
    if tree.node_count == 0:
        raise ValueError("tree has no nodes")


def check_pruning_X(tree: Tree, X, name: str = "X") -> np.ndarray:
    """``X`` as a float matrix with one column per feature the tree was grown on, else a
    ``ValueError`` naming ``name``. The width is ``len(tree.feature_names)`` when the tree
    records its features (every learner's tree does); otherwise ``X`` must at least have
    a column for every feature the tree tests. A narrower X would be walked on the wrong
    columns, or silently when the tree does not test the missing ones."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-D encoded matrix; got shape {X.shape}")
    n_features = len(tree.feature_names)
    tested = tree.feature[~tree.is_leaf]
    if n_features:
        if X.shape[1] != n_features:
            raise ValueError(f"{name} has {X.shape[1]} columns, but the tree was grown on "
                             f"{n_features} features; pass the encoded matrix with the "
                             "same columns")
    elif tested.size and X.shape[1] <= int(tested.max()):
        raise ValueError(f"{name} has {X.shape[1]} columns, but the tree tests feature "
                         f"{int(tested.max())}; pass the encoded matrix with the same columns")
    return X


def class_codes(tree: Tree, y) -> np.ndarray:
    """``y`` as class codes ``0 … K-1``: labels are looked up in ``tree.classes``; a tree
    that records no classes takes codes directly."""
    y = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
    if y.ndim != 1:
        raise ValueError(f"y must be one-dimensional; got shape {y.shape}")
    K = tree.n_classes
    if tree.classes is not None and len(tree.classes) == K:
        lookup = {c: k for k, c in enumerate(np.asarray(tree.classes).tolist())}
        try:
            return np.fromiter((lookup[v] for v in y.tolist()), np.int64, count=y.shape[0])
        except KeyError as exc:
            raise ValueError(f"y holds a label {exc.args[0]!r} that is not one of the "
                             f"tree's classes {list(lookup)}") from None
    if y.dtype.kind not in "iu" or (y.size and (y.min() < 0 or y.max() >= K)):
        raise ValueError(f"y must hold class codes 0 … {K - 1} (the tree records no classes)")
    return y.astype(np.int64)


def case_counts(tree: Tree, X, y, sample_weight=None, *, missing: str = "stop"):
    """Class counts of a data set at every node.

    Returns ``(through, stopped)``, both of shape ``(n_nodes, K)``: ``through[t, k]`` is
    the weight of the cases of class ``k`` that pass through node ``t`` (reach it), and
    ``stopped[t, k]`` the part of it that ends at ``t`` (at a leaf: all of it; at an
    internal node: the cases with no branch there). Routing is
    :meth:`treebook.core.tree.Tree.route` with ``missing``.
    """
    _check_tree(tree, "case_counts")
    X = check_pruning_X(tree, X)
    codes = class_codes(tree, y)
    if codes.shape[0] != X.shape[0]:
        raise ValueError(f"y has {codes.shape[0]} labels but X has {X.shape[0]} rows")
    w = np.ones(X.shape[0]) if sample_weight is None else np.asarray(sample_weight, float)
    if w.shape != (X.shape[0],) or np.any(~np.isfinite(w)) or np.any(w < 0):
        raise ValueError(f"sample_weight must hold {X.shape[0]} finite weights >= 0")
    K = tree.n_classes
    stopped = np.zeros((tree.node_count, K))
    if X.shape[0]:      # (Tree.route needs at least one row)
        rows, nodes, share = tree.route(X, missing=missing)
        np.add.at(stopped, (nodes, codes[rows]), w[rows] * share)
    elif missing not in ("stop", "distribute"):
        raise ValueError(f"missing must be 'stop' or 'distribute'; got {missing!r}")
    through = stopped.copy()
    for i in range(tree.node_count - 1, 0, -1):     # reverse pre-order: children first
        through[tree.parent[i]] += through[i]
    return through, stopped


def pruning_set_errors(tree: Tree, X, y, sample_weight=None, *, missing: str = "stop") -> dict:
    """Per node, REP's quantities on the cases ``(X, y)``.

    ``leaf``: ``r(t)``, the errors of ``t`` as a leaf; ``stopped``: the errors of the
    cases that end at ``t`` itself; ``subtree``: ``R(T_t)`` of the unpruned subtree;
    ``pruned_subtree``: ``R(T_t)`` after REP has pruned below ``t`` (the least error of a
    pruned subtree rooted at ``t``); ``prune``: REP's test ``r(t) ≤ R(T_t)`` (False at
    leaves); ``cases``: the weight through ``t``. Arrays indexed by node id.
    """
    through, stopped_counts = case_counts(tree, X, y, sample_weight, missing=missing)
    pred = np.argmax(tree.node_prediction(), axis=1)   # what each node predicts
    idx = np.arange(tree.node_count)
    cases = through.sum(axis=1)
    leaf_err = cases - through[idx, pred]
    stop_err = stopped_counts.sum(axis=1) - stopped_counts[idx, pred]
    is_leaf = tree.is_leaf
    sub = np.where(is_leaf, leaf_err, stop_err)        # unpruned R(T_t)
    best = np.where(is_leaf, leaf_err, stop_err)       # pruned R(T_t)
    prune = np.zeros(tree.node_count, dtype=bool)
    for i in range(tree.node_count - 1, -1, -1):       # a node after all its descendants
        if not is_leaf[i]:
            prune[i] = leaf_err[i] <= best[i] + _TOL * max(1.0, cases[i])
            if prune[i]:
                best[i] = leaf_err[i]
        p = tree.parent[i]
        if p >= 0:
            sub[p] += sub[i]
            best[p] += best[i]
    return {"leaf": leaf_err, "stopped": stop_err, "subtree": sub,
            "pruned_subtree": best, "prune": prune, "cases": cases}


def prune_reduced_error(tree: Tree, X_prune, y_prune, sample_weight=None, *,
                        missing: str = "stop") -> Tree:
    """Quinlan's reduced-error pruning on the pruning set ``(X_prune, y_prune)``.

    Bottom-up, each internal node becomes a leaf when its pruning-set error as a leaf is
    no larger than that of its (already pruned) subtree. The result is the smallest
    pruned subtree of ``tree`` with the least pruning-set error. A node's prediction is
    unchanged by pruning (its training majority), so only the shape changes.
    """
    _check_tree(tree, "prune_reduced_error")
    X_prune = check_pruning_X(tree, X_prune, "X_prune")
    stats = pruning_set_errors(tree, X_prune, y_prune, sample_weight, missing=missing)
    return tree.prune(stats["prune"]) if stats["prune"].any() else tree


__all__ += ["class_codes", "check_pruning_X"]
