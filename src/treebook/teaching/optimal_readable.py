"""The optimal tree of depth ``d``, readable: the definition the fast solver is tested against.

Chapter 9 shows this module. It takes the same problem as the fast solver
(:class:`treebook.growers.optimal.OptimalProblem`: every CART split as a column of ranks)
and computes

    OPT(D, 0) = C(D) + α'
    OPT(D, d) = min( C(D) + α',  min_{splits s} OPT(D_s,left, d-1) + OPT(D_s,right, d-1) )

with the leaf cost ``C`` from the package's measures (:mod:`treebook.core.impurity`, C4.5's
pessimistic count from :mod:`treebook.prune.error_based`), a memo of solved (rows, depth)
pairs, one bound (a right side costs at least one leaf, so a left side that already
costs as much as the best tree ends the cut), and depth one as a sorted scan. It returns
the same solutions as :func:`treebook.growers.optimal.solve_optimal`: ``None`` for a leaf,
``(column, rank, left, right)`` for a split.
"""

from __future__ import annotations

import numpy as np

from ..core.impurity import entropy, gini, misclassification_error
from ..prune.error_based import estimated_errors

__all__ = ["leaf_costs", "best_split", "best_tree"]


def leaf_costs(problem, counts):
    """``C(D) + α'`` of leaves with class weights ``counts`` ``(..., K)``: the weight
    misclassified, ``|D|·Gini``, ``|D|·H`` (bits) or C4.5's ``N·U_CF(E, N)``."""
    counts = np.maximum(np.asarray(counts, dtype=float), 0.0)  # no -0.0 from subtractions
    W = counts.sum(axis=-1)
    if problem.objective == "pessimistic":
        errors = np.clip(W - counts.max(axis=-1), 0.0, W)
        cost = estimated_errors(np.maximum(W, 1e-300), errors, problem.confidence)
        cost = np.where(W > 0, cost, 0.0)
    else:
        measure = {"misclassification": misclassification_error, "gini": gini,
                   "entropy": entropy}[problem.objective]
        cost = W * measure(counts, check=False)
    return cost + problem.alpha


def best_split(problem, rows):
    """The best tree of depth at most one: ``(cost, solution)`` by one sorted scan per
    column (prefix sums of the class weights give every cut's two leaves at once)."""
    y, w, K = problem.y[rows], problem.w[rows], problem.n_classes
    total = np.bincount(y, weights=w, minlength=K)
    best = (float(leaf_costs(problem, total)), None)
    for c in range(len(problem.columns)):
        rank = problem.rank[c, rows]
        order = np.argsort(rank, kind="stable")
        onehot = np.zeros((rows.size, K))
        onehot[np.arange(rows.size), y[order]] = w[order]
        left = np.cumsum(onehot, axis=0)[:-1]         # left of the cut after position i
        n_left = np.arange(1, rows.size)
        ok = (rank[order][1:] != rank[order][:-1])    # a cut between two distinct ranks
        ok &= (n_left >= problem.min_leaf) & (rows.size - n_left >= problem.min_leaf)
        if not ok.any():
            continue
        cost = leaf_costs(problem, left) + leaf_costs(problem, total - left)
        cost = np.where(ok, cost, np.inf)
        i = int(np.argmin(cost))                     # the first of equal costs
        if cost[i] < best[0]:
            best = (float(cost[i]), (c, int(rank[order][i]), None, None))
    return best


def best_tree(problem, rows, depth: int, memo=None):
    """``(OPT(rows, depth), solution)``: the cheapest tree of depth at most ``depth``
    on ``rows`` (sorted row ids); ties keep the leaf, then the first column and the
    smallest cut."""
    memo = {} if memo is None else memo
    key = (depth, rows.tobytes())
    if key in memo:
        return memo[key]
    if depth == 1:
        memo[key] = best_split(problem, rows)
        return memo[key]
    counts = np.bincount(problem.y[rows], weights=problem.w[rows], minlength=problem.n_classes)
    best = (float(leaf_costs(problem, counts)), None)          # the leaf
    if depth == 0:
        return best
    for c in range(len(problem.columns)):
        rank = problem.rank[c, rows]
        for r in np.unique(rank)[:-1]:                # every cut of this column
            go = rank <= r
            if min(go.sum(), (~go).sum()) < problem.min_leaf:
                continue
            cost_l, sol_l = best_tree(problem, rows[go], depth - 1, memo)
            if cost_l + problem.alpha >= best[0]:    # the right side costs ≥ one leaf
                continue
            cost_r, sol_r = best_tree(problem, rows[~go], depth - 1, memo)
            if cost_l + cost_r < best[0]:
                best = (cost_l + cost_r, (c, int(r), sol_l, sol_r))
    memo[key] = best
    return best
