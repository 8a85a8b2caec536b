"""rpart's complexity table (``printcp``): CP, nsplit, rel error, xerror, xstd.

rpart (Therneau & Atkinson) labels every node ``t`` of a grown tree with a *complexity*
``c(t)``: the cost-complexity ``α`` at which ``t``'s split stops paying for itself, in
units of the root's risk. Its ``partition.c`` computes it bottom-up while growing: with
``s_L, s_R`` the splits kept below the two children and ``R_L, R_R`` the risks of their
subtrees,

.. math:: c(t) = \\frac{R(t) - (R_L + R_R)}{s_L + s_R + 1},

where a child whose own complexity is below ``c(t)`` collapses first (its subtree counts
as the leaf it would become: ``s = 0``, risk ``R(child)``) and ``c(t)`` is recomputed;
a node with ``c(t) <= α`` (rpart's ``cp`` times the root risk) is not split after all.
``fix_cp`` then caps each node's complexity by its parent's. The risk ``R(t)`` is the
weight of the cases at ``t`` outside its predicted class (classification, unit losses,
priors from the data) or the sum of squared deviations from the mean (regression).

The table has one row per distinct complexity, largest first: ``CP`` = ``c / R(root)``,
``nsplit`` = the splits of the subtree that keeps every node with ``c(t) > c``,
``rel error`` = that subtree's risk over ``R(root)``. With fold ids, ``xerror`` and
``xstd`` are rpart's cross-validated risk (``xval.c``): for each fold a tree is grown on
the other folds, its complexities computed the same way, and every held-out case is run
down it once for each row, at the geometric mean of the row's CP and the one above (ten
times the top CP for the first row), scaled to the fold's weight; a case stops at the
first node whose complexity does not exceed that value and is charged its loss there
(0–1 for classes, the squared error for regression). ``xerror`` is the sum of those
losses over ``R(root)``, ``xstd`` is ``sqrt(Σ w e² − (Σ w e)²/Σ w) / R(root)``. A
held-out case missing a split's feature (``missing="surrogate"``) is routed as rpart's
cross-validation routes it (``branch.c``, :func:`rpart_xval_tree`), not by ``predict``'s
rule.

rpart's own table (``rpart(..., control = rpart.control(cp = 0, minsplit = 2,
minbucket = 1, maxcompete = 0, maxsurrogate = 0, xval = folds))``) equals this one on
the same tree and folds (``make crosscheck``, ``tests/oracles/test_rpart.py``).
"""

from __future__ import annotations

import sys

import numpy as np

from ..core.base import InstanceOf, Interval, TreeEstimator, validate_params
from ..core.tree import NodeKind, Tree

__all__ = ["node_risk_rpart", "rpart_complexity", "rpart_xval_tree", "cp_table",
           "prune_rpart_cp"]


def node_risk_rpart(tree: Tree) -> np.ndarray:
    """rpart's risk of each node as a leaf, in absolute units: the misclassified weight
    (classification) or the sum of squared deviations from the node mean (regression)."""
    if tree.is_regression:
        return tree.weighted_n * tree.impurity        # sum of squared deviations
    return tree.weighted_n - tree.value.max(axis=1)  # misclassified weight


@validate_params({"tree": InstanceOf(Tree, "treebook Tree"), "alpha": Interval(float, 0.0, None)})
def rpart_complexity(tree: Tree, alpha: float = 0.0):
    """``(complexity, kept)``: each node's rpart complexity ``c(t)`` in absolute risk units,
    capped by its parent's (``fix_cp``), and the mask of nodes that rpart would split
    (``c(t) > alpha``) on this grown tree. Binary trees only (rpart's)."""
    if np.any(tree.children_ptr[1:] - tree.children_ptr[:-1] > 2):
        raise ValueError("rpart's complexity is defined for binary trees; this tree has a "
                         "multiway split")
    risk = node_risk_rpart(tree)
    n = tree.node_count
    comp = np.full(n, float(alpha))
    split = np.zeros(n, dtype=bool)

    def visit(node: int, passed: float):
        r = float(risk[node])
        tempcp = r if node == 0 else min(r, passed)
        if tree.kind[node] == NodeKind.LEAF or tempcp <= alpha:
            return 0, r
        left, right = (int(c) for c in tree.children_of(node))
        ls, lr = visit(left, tempcp - alpha)
        cap = r if node == 0 else passed
        t = min(max((r - lr) / (ls + 1), r - float(risk[left])), cap)
        rs, rr = visit(right, t - alpha)
        t = (r - (lr + rr)) / (ls + rs + 1)
        # whichever child would collapse before this node does, collapses first
        if comp[right] > comp[left]:
            if t > comp[left]:
                ls, lr = 0, float(risk[left])
                t = (r - (lr + rr)) / (ls + rs + 1)
                if t > comp[right]:
                    rs, rr = 0, float(risk[right])
        elif t > comp[right]:
            rs, rr = 0, float(risk[right])
            t = (r - (lr + rr)) / (ls + rs + 1)
            if t > comp[left]:
                ls, lr = 0, float(risk[left])
        comp[node] = (r - (lr + rr)) / (ls + rs + 1)
        if comp[node] <= alpha:  # "all was in vain": the node is not split after all
            comp[node] = alpha
            return 0, r
        split[node] = True
        return ls + rs + 1, lr + rr

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * int(tree.depth.max(initial=0)) + 1000))
    try:
        visit(0, float(risk[0]))
    finally:
        sys.setrecursionlimit(old)
    # a node under an unsplit node is gone; the rest are capped by their parent (fix_cp)
    kept = split.copy()
    for i in range(1, n):
        p = tree.parent[i]
        if not kept[p]:
            kept[i] = False
            comp[i] = alpha
        else:
            comp[i] = min(comp[i], comp[p])
    return comp, kept


def _table(tree: Tree, comp: np.ndarray, kept: np.ndarray, alpha: float):
    """Distinct complexities (descending) and, per row, the splits and risk kept."""
    risk = node_risk_rpart(tree)
    # fix_cp caps every kept complexity by the root's, so these are the table's rows
    values = np.unique(np.concatenate([comp[kept], [alpha]]))[::-1]
    rows = []
    for c in values:
        internal = kept & (comp > c)
        # leaves of the subtree: kept nodes whose parent is split at this c, and the root
        alive = np.zeros(tree.node_count, dtype=bool)
        alive[0] = True
        for i in range(1, tree.node_count):
            alive[i] = alive[tree.parent[i]] and internal[tree.parent[i]]
        leaves = alive & ~internal
        rows.append((c, int(internal.sum()), float(risk[leaves].sum())))
    return rows


def _rundown(path, comp: np.ndarray, kept: np.ndarray, thresholds) -> np.ndarray:
    """For each case (a row of the decision-path matrix) and each threshold, the node where
    it stops: the first node on its path that is not split at that threshold."""
    stops = np.empty((path.shape[0], len(thresholds)), dtype=np.int64)
    for i in range(path.shape[0]):
        nodes = path.indices[path.indptr[i]:path.indptr[i + 1]]  # root first
        for j, c in enumerate(thresholds):
            split_here = kept[nodes] & (comp[nodes] > c)
            stops[i, j] = nodes[np.argmin(split_here)] if not split_here.all() else nodes[-1]
    return stops


def rpart_xval_tree(tree: Tree, X, y, sample_weight, max_surrogates: int) -> Tree:
    """``tree`` (grown with ``missing="surrogate"`` on the encoded ``X``, target ``y`` —
    class codes or values — and weights) with the missing-value rule that rpart's
    cross-validation uses for a held-out case (``branch.c``), not ``predict``'s.

    A case with no branch for the primary split (missing, or a category the node never
    saw) follows the first surrogate it has, else the node's ``lastsurrogate``: the
    branch with more weight among the training rows whose primary is known
    (``surrogate.c``). Where that is 0 — a tie, or ``maxsurrogate = 0`` (no surrogate
    pass at all) — ``branch.c`` still sends the case on, to rpart's *right* son (its
    ``dir == LEFT ? leftson : rightson``), while training (``nodesplit.c``) kept such
    cases at the node and ``predict`` (``pred_rpart.c``) sends them to the larger child.
    rpart's left son is the branch with the smaller mean class code or response of the
    known rows (``treebook.growers.surrogates.rpart_left_branch``).

    The training rows are replayed down the tree with the training rule (first surrogate,
    else the known-weight majority, else stay) to recover each node's known rows; the
    replay must give every node its grown size, or a ``RuntimeError`` says it did not.
    """
    from dataclasses import replace

    from ..core.splits import resolve_missing
    from ..growers.surrogates import rpart_left_branch

    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    w = np.asarray(sample_weight, dtype=float)
    go = np.full(tree.node_count, -1, dtype=np.int64)
    rows_at = {0: np.arange(X.shape[0])}
    for i in range(tree.node_count):           # pre-order: a parent comes first
        rows = rows_at.pop(i)
        if np.count_nonzero(w[rows] > 0) != tree.n_samples[i]:
            raise RuntimeError(f"replaying the training rows gave node {i} "
                               f"{np.count_nonzero(w[rows] > 0)} rows; it was grown with "
                               f"{tree.n_samples[i]}")
        if tree.is_leaf[i]:
            continue
        raw = tree._branch(np.full(rows.shape[0], i), X[rows, tree.feature[i]])
        known = raw >= 0
        t_b = np.array([w[rows][known & (raw == b)].sum() for b in (0, 1)])
        train_go = (-1 if max_surrogates == 0 or t_b[0] == t_b[1] else int(np.argmax(t_b)))
        left = rpart_left_branch(raw[known] == 1, y[rows][known], w[rows][known],
                                 tree.n_classes)
        go[i] = train_go if train_go >= 0 else 1 - left
        sur = tree.surrogates[i] if tree.surrogates else ()
        branch = resolve_missing(raw, X[rows], sur, train_go, tree.unseen_as_missing)
        for b, child in enumerate(tree.children_of(i)):
            rows_at[int(child)] = rows[branch == b]
    return replace(tree, missing_go=go)


@validate_params({"estimator": InstanceOf(TreeEstimator, "treebook tree estimator")})
def cp_table(estimator, X, y, folds=None, sample_weight=None):
    """rpart's ``printcp`` table for ``estimator`` (a treebook CART estimator) grown on
    ``X, y``, as a :class:`pandas.DataFrame` with columns ``CP``, ``nsplit``,
    ``rel error`` and, when ``folds`` (one fold id per row) is given, ``xerror`` and
    ``xstd``. See the module docstring for the definitions."""
    import pandas as pd
    from sklearn.base import clone

    fitted = clone(estimator).fit(X, y, sample_weight=sample_weight)
    tree = fitted.tree_
    comp, kept = rpart_complexity(tree)
    risk0 = float(node_risk_rpart(tree)[0])
    if risk0 <= 0:
        raise ValueError("y is constant: the root has no risk, so there is no CP table")
    rows = _table(tree, comp, kept, 0.0)
    table = pd.DataFrame(rows, columns=["CP", "nsplit", "rel error"])
    table["CP"] /= risk0
    table["rel error"] /= risk0
    if folds is None:
        return table
    folds = np.asarray(folds)
    n = folds.shape[0]
    if folds.ndim != 1 or n != fitted.tree_.weighted_n.shape[0] and n != len(y):
        raise ValueError(f"folds must hold one fold id per row of X ({len(y)}); "
                         f"got shape {folds.shape}")
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    cps = np.array([r[0] for r in rows])
    # rpart compares against 10 × the top CP, then geometric means of adjacent CPs
    xcp = np.concatenate([[10 * cps[0]], np.sqrt(cps[1:] * cps[:-1])])
    total = w.sum()
    xrisk = np.zeros(len(rows))
    xsq = np.zeros(len(rows))
    Xa = X.iloc if hasattr(X, "iloc") else X
    ya = np.asarray(y)
    for g in np.unique(folds):
        out = folds == g
        model = clone(estimator).fit(Xa[~out], ya[~out], sample_weight=w[~out])
        t = model.tree_
        c, k = rpart_complexity(t)
        scale = w[~out].sum() / total
        if getattr(model, "missing", None) == "surrogate":
            # rpart's cross-validation routes a held-out case by branch.c, not predict
            Xe = model._encode(Xa[~out])
            yc = (ya[~out] if t.is_regression
                  else np.searchsorted(model.classes_, ya[~out]))
            walk = rpart_xval_tree(t, Xe, yc, w[~out], model.max_surrogates)
            path = walk.decision_path(model._encode(Xa[out]))
        else:
            path = model.decision_path(Xa[out])
        stops = _rundown(path.tocsr(), c, k, xcp * scale)
        if t.is_regression:
            pred = t.value[stops, 0]
            loss = (ya[out][:, None] - pred) ** 2
        else:
            pred = model.classes_[np.argmax(t.value[stops], axis=2)]
            loss = (pred != ya[out][:, None]).astype(float)
        xrisk += (loss * w[out][:, None]).sum(axis=0)
        xsq += (loss ** 2 * w[out][:, None]).sum(axis=0)
    table["xerror"] = xrisk / risk0
    table["xstd"] = np.sqrt(np.maximum(xsq - xrisk ** 2 / total, 0)) / risk0
    return table


def prune_rpart_cp(tree, cp: float):
    """rpart's use of ``cp`` (``partition.c``): every node whose split does not lower the
    risk by more than ``cp · R(root)`` per split of its subtree is a leaf — decided after
    the children are grown, so a weak split with strong splits below it stays."""
    _, kept = rpart_complexity(tree, alpha=cp * float(node_risk_rpart(tree)[0]))
    drop = ~tree.is_leaf & ~kept
    return tree.prune(drop) if drop.any() else tree
