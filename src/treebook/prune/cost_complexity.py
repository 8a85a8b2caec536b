"""Minimal cost-complexity pruning (代价复杂度剪枝; Breiman et al. 1984, ch. 3).

For a tree ``T`` with leaves ``T̃`` and a complexity parameter ``α ≥ 0`` the cost is

.. math:: R_α(T) = R(T) + α |T̃|,   R(T) = Σ_{t ∈ T̃} R(t),

where ``R(t)`` is the *risk* of node ``t`` as a leaf, relative to the root's weight
``|D|``. Two risks are offered:

* ``risk="impurity"`` (scikit-learn): ``R(t) = |D_t|/|D| · I(t)`` with ``I`` the
  impurity that grew the tree (Gini, entropy, or the variance for regression), so
  ``R(T) = Σ_t |D_t|/|D|·Gini(D_t)`` — the loss ``Σ|X_i|/|X|·Gini(X_i) + α|N|``;
* ``risk="misclassification"`` (Breiman et al., rpart): ``R(t)`` = the weight of the
  cases at ``t`` outside its majority class, over ``|D|`` (classification only);
* ``risk=<name>``: any criterion of ``treebook.core.criteria.CRITERIA``, its
  ``node_risk`` over ``|D|`` (``"misclassification"``
  is one of them).

Collapsing the branch ``T_t`` below an internal node ``t`` into a leaf changes the cost by
``R(t) - R(T_t) - α(|T̃_t| - 1)``, so it pays as soon as ``α`` reaches

.. math:: α(t) = \\frac{R(t) - R(T_t)}{|T̃_t| - 1}

(Li Hang writes ``g(t)``; this book keeps ``g`` for information gain).
**Weakest-link pruning** repeatedly collapses the internal node with the smallest
``α(t)`` (the weakest link). Two sequences come out of it:

* :func:`cost_complexity_path` is scikit-learn's: one node per step (ties to the lowest
  node id), so tied links give several steps with the same ``α``;
* :func:`breiman_steps` groups them into **Breiman's sequence** (Breiman et al. 1984,
  §3.3): *all* weakest links with the same ``α`` are collapsed in one step, so
  ``α_1 < α_2 < … < α_K`` strictly and ``T_1 ⊃ T_2 ⊃ … ⊃ {root}``, where ``T_k`` is the
  smallest subtree minimising ``R_α`` for ``α_k ≤ α < α_{k+1}`` (``T_1`` is the full tree
  pruned at ``α = 0``). Collapsing a link of ``α(t) = α*`` leaves every ancestor's
  ``α(a) ≥ α*`` (and ``= α*`` only if it was), so the steps of one Breiman step are
  consecutive on scikit-learn's path. **Tie tolerance:** two ``α`` count as equal when
  they differ by at most :data:`ALPHA_RTOL` ``= 1e-12`` times the root's risk ``R(root)``
  (every ``α(t) ≤ R(root)``), i.e. when their rpart ``cp = α/R(root)`` differ by at most
  ``1e-12``: rounding in the branch sums leaves ties ``~1e-17`` apart, while distinct
  misclassification ``α`` of ``n`` unit-weight cases differ by at least
  ``1/(n |T̃|²)`` in cp units.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.base import InstanceOf, Interval, Registered, clone, validate_params
from ..core.criteria import CRITERIA, get_criterion
from ..core.tree import Tree

__all__ = [
    "PruningPath",
    "AlphaCV",
    "node_risk",
    "cost_complexity_path",
    "prune_ccp",
    "breiman_steps",
    "ALPHA_RTOL",
    "alpha_candidates",
    "choose_alpha",
    "CV_ERROR_RTOL",
    "select_alpha_cv",
]

#: two α tie when they differ by at most ``ALPHA_RTOL · R(root)`` (module docstring)
ALPHA_RTOL = 1e-12

#: ``risk`` values: ``"impurity"`` (the tree's own) or the name of a criterion
RISK = Registered(lambda: tuple(CRITERIA), "impurity")
TREE = InstanceOf(Tree, "treebook Tree")


@validate_params({"tree": TREE, "risk": RISK})
def node_risk(tree: Tree, risk: str = "impurity") -> np.ndarray:
    """``R(t)`` for every node: see the module docstring."""
    if tree.node_count == 0:
        raise ValueError("tree has no nodes")
    total = tree.weighted_n[0]
    if risk == "impurity":
        return tree.weighted_n * tree.impurity / total
    crit = get_criterion(risk)
    if tree.is_regression != crit.is_regression:
        raise ValueError(f"risk={risk!r} needs a "
                         f"{'regression' if crit.is_regression else 'classification'} tree; "
                         "a regression tree prunes on its squared error (risk='impurity')")
    return crit.node_risk(tree) / total


@dataclass
class PruningPath:
    """The weakest-link path of a tree.

    ``ccp_alphas[k]`` and ``impurities[k]`` (the total leaf risk ``R(T_k)``) after ``k``
    prunings (``k = 0``: the full tree, ``α = 0``); ``n_leaves[k]``; ``pruned[k]`` the node
    collapsed at step ``k`` (-1 for ``k = 0``). :meth:`subtree` gives ``T_k``. Indexing by
    name (``path["ccp_alphas"]``) works as on scikit-learn's ``Bunch``.

    As in scikit-learn, a branch that lowers the risk not at all has ``α(t) = 0``, which
    rounding can put a hair below zero (``-1e-17``); ``prune_ccp(tree, 0)`` removes it.
    """

    ccp_alphas: np.ndarray
    impurities: np.ndarray
    n_leaves: np.ndarray
    pruned: np.ndarray
    tree: Tree = field(repr=False)
    risk: str = "impurity"

    def __getitem__(self, key):
        if key not in ("ccp_alphas", "impurities", "n_leaves", "pruned"):
            raise KeyError(key)
        return getattr(self, key)

    def keys(self):
        return ["ccp_alphas", "impurities", "n_leaves", "pruned"]

    def __len__(self) -> int:
        return int(self.ccp_alphas.shape[0])

    def subtree(self, k: int) -> Tree:
        """``T_k``: the tree after the first ``k`` prunings."""
        if not 0 <= k < len(self):
            raise IndexError(f"k must be in [0, {len(self) - 1}]; got {k}")
        return self.tree.prune(self.pruned[1 : k + 1])


def breiman_steps(path: PruningPath) -> tuple[np.ndarray, np.ndarray]:
    """Breiman's sequence on scikit-learn's path: ``(steps, alphas)``.

    ``steps[k]`` is the last step of ``path`` whose ``α`` ties (within
    ``ALPHA_RTOL · R(root)``, see the module docstring) with the first step of its group,
    so ``path.subtree(steps[k])`` is Breiman's ``T_{k+1}``; ``alphas[k]`` is the largest
    ``max(α, 0)`` of the group, so ``prune_ccp(tree, alphas[k])`` gives the same tree.
    ``alphas`` is strictly increasing and starts with the group of ``α = 0`` (the full
    tree and every link that lowers the risk not at all).
    """
    a = np.maximum(np.asarray(path.ccp_alphas, dtype=float), 0.0)
    tol = ALPHA_RTOL * max(float(path.impurities[-1]), float(a.max(initial=0.0)))
    steps, alphas = [], []
    first = 0  # the first step of the current group
    for k in range(1, a.size + 1):
        if k == a.size or a[k] - a[first] > tol:
            steps.append(k - 1)
            # the group's largest α (its first is the noise-free value, but prune_ccp
            # needs every link of the group to satisfy α(t) <= α)
            alphas.append(float(a[first:k].max()))
            first = k
    return np.array(steps, dtype=np.int64), np.array(alphas)


def _weakest_link(tree: Tree, risk: str, stop_alpha: float | None):
    """Run weakest-link pruning; stop before a step whose ``α(t) > stop_alpha``."""
    R = node_risk(tree, risk)
    N = tree.node_count
    leaf = tree.is_leaf
    parent = tree.parent
    # R(T_t) and |T̃_t| of every branch, summed bottom-up one depth at a time; size[t]
    # is the number of nodes of T_t, which occupies ids t … t + size[t] - 1 (pre-order)
    R_branch = np.where(leaf, R, 0.0)
    n_leaves = leaf.astype(np.int64)
    size = np.ones(N, dtype=np.int64)
    for d in range(tree.max_depth, 0, -1):
        ids = np.flatnonzero(tree.depth == d)
        np.add.at(R_branch, parent[ids], R_branch[ids])
        np.add.at(n_leaves, parent[ids], n_leaves[ids])
        np.add.at(size, parent[ids], size[ids])
    internal = ~leaf
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha_t = np.where(internal, (R - R_branch) / (n_leaves - 1), np.inf)
    alphas, impurities, counts, pruned = [0.0], [R_branch[0]], [int(n_leaves[0])], [-1]
    while internal[0]:
        t = int(np.argmin(alpha_t))  # the weakest link; ties: the lowest node id
        alpha = float(alpha_t[t])
        if stop_alpha is not None and stop_alpha < alpha:
            break
        # T_t collapses into the leaf t: its internal nodes are gone
        internal[t : t + size[t]] = False
        alpha_t[t : t + size[t]] = np.inf
        dR, dleaves = R[t] - R_branch[t], n_leaves[t] - 1
        R_branch[t], n_leaves[t] = R[t], 1
        a = parent[t]
        while a >= 0:  # every ancestor's branch changes, and so does its α(a)
            R_branch[a] += dR
            n_leaves[a] -= dleaves
            alpha_t[a] = (R[a] - R_branch[a]) / (n_leaves[a] - 1)
            a = parent[a]
        alphas.append(alpha)
        impurities.append(R_branch[0])
        counts.append(int(n_leaves[0]))
        pruned.append(t)
    return (np.array(alphas), np.array(impurities), np.array(counts, dtype=np.int64),
            np.array(pruned, dtype=np.int64))


@validate_params({"tree": TREE, "risk": RISK})
def cost_complexity_path(tree: Tree, risk: str = "impurity") -> PruningPath:
    """The weakest-link pruning path of ``tree`` (any tree of the package: binary or
    multiway, classification or regression)."""
    alphas, impurities, counts, pruned = _weakest_link(tree, risk, None)
    return PruningPath(alphas, impurities, counts, pruned, tree, risk)


@validate_params({"tree": TREE, "alpha": Interval(float, 0.0, None), "risk": RISK})
def prune_ccp(tree: Tree, alpha: float, risk: str = "impurity") -> Tree:
    """The subtree minimising ``R_α``: weakest links are collapsed while ``α(t) <= α``
    (scikit-learn's ``ccp_alpha`` rule)."""
    *_, pruned = _weakest_link(tree, risk, float(alpha))
    return tree.prune(pruned[1:]) if pruned.size > 1 else tree


# ------------------------------------------------------------------ choosing α by CV
@dataclass
class AlphaCV:
    """Result of :func:`select_alpha_cv`.

    ``table`` — one row per subtree of the full-data path: ``alpha`` (the α used for it,
    the geometric mean of its interval ``[alpha_low, alpha_high)``), ``n_leaves``,
    ``cv_error`` and its standard error ``std_error``, and ``within_1se``.
    ``alpha`` is the 1-SE choice, ``alpha_min`` the α of the smallest CV error.
    """

    alpha: float
    alpha_min: float
    table: "object"
    cv: int
    risk: str


def alpha_candidates(tree: Tree, risk: str = "impurity"):
    """The α at which cross-validation scores each tree of Breiman's sequence of ``tree``.

    Returns ``(alpha_low, alpha_high, beta)``: tree ``T_k`` of the sequence
    (:func:`breiman_steps`; ``α_0 = 0 < α_1 < … < α_M``, ``T_M`` the root) is optimal on
    ``[alpha_low[k], alpha_high[k]) = [α_k, α_{k+1})`` (``α_{M+1} = ∞``), and is scored
    at rpart's representative point of that interval (``xpred.rpart``):

    .. math:: β_k = \\sqrt{α_k α_{k+1}} \\ (0 ≤ k < M), \\qquad
              β_M = \\frac{R(\\text{root}) + α_M}{2},

    the geometric mean of the ends, and for the root's interval ``[α_M, ∞)`` rpart's
    ``(1 + cp_M)/2`` in cp units (``cp = α/R(root)``), the midpoint between ``α_M`` and
    ``R(root)``, which no ``α(t)`` exceeds. Representing the root's interval by ``α_M``
    itself would score a tree that is not yet the root in folds whose trees' last link
    is ``α_M`` or larger. ``β_0 = 0``: the full tree; a tree that is a single leaf has the
    one candidate ``β_0 = 0``.
    """
    path = cost_complexity_path(tree, risk=risk)
    _, alphas = breiman_steps(path)
    high = np.concatenate([alphas[1:], [np.inf]])
    beta = np.sqrt(alphas[:-1] * alphas[1:])
    if alphas.size > 1:
        root = float(path.impurities[-1])
        beta = np.concatenate([beta, [(root + alphas[-1]) / 2]])
    else:
        beta = np.zeros(1)
    return alphas, high, beta


#: relative tolerance at which two CV errors count as equal (sums of the same weights
#: in different orders)
CV_ERROR_RTOL = 1e-12


def choose_alpha(cv_error, std_error, rule: str = "1se") -> tuple[int, int, float]:
    """The row chosen from a CV table ordered by increasing α: ``(best, chosen, limit)``.

    ``best`` is the row of the least CV error; **ties go to the largest α** (the simplest
    tree, as rpart's ``which.min`` on its cp table, ordered by decreasing cp, takes the
    first). Two errors tie when they differ by at most ``CV_ERROR_RTOL = 1e-12`` times the
    least error. ``rule="1se"`` (Breiman et al. 1984, §3.4.3): ``chosen`` is the largest
    α whose error is at most ``limit = cv_error[best] + std_error[best]``;
    ``rule="min"``: ``chosen = best`` (``limit`` is then the tie bound).
    """
    if rule not in ("1se", "min"):
        raise ValueError(f"rule must be '1se' or 'min'; got {rule!r}")
    cv_error = np.asarray(cv_error, dtype=float)
    std_error = np.asarray(std_error, dtype=float)
    if cv_error.ndim != 1 or cv_error.size == 0 or std_error.shape != cv_error.shape:
        raise ValueError("cv_error and std_error must be non-empty 1-d arrays of one length")
    least = float(cv_error.min())
    tie = CV_ERROR_RTOL * abs(least)
    best = int(np.flatnonzero(cv_error <= least + tie)[-1])
    limit = cv_error[best] + (std_error[best] if rule == "1se" else 0.0) + tie
    chosen = int(np.flatnonzero(cv_error <= limit)[-1])
    return best, chosen, float(limit)


def _fold_ids(y, n_folds, rng, stratify):
    n = y.shape[0]
    folds = np.empty(n, dtype=np.int64)
    if stratify:
        # deal each class's shuffled cases round-robin, so every fold sees every class
        _, codes = np.unique(y, return_inverse=True)
        offset = 0
        for k in range(codes.max() + 1):
            idx = rng.permutation(np.flatnonzero(codes == k))
            folds[idx] = (np.arange(idx.size) + offset) % n_folds
            offset += idx.size
    else:
        folds[rng.permutation(n)] = np.arange(n) % n_folds
    return folds


@validate_params({"cv": Interval(int, 2, None)})
def select_alpha_cv(estimator, X, y, *, cv: int = 10, random_state=None,
                    risk: str | None = None, sample_weight=None) -> AlphaCV:
    """Choose ``ccp_alpha`` by ``cv``-fold cross-validation with the 1-SE rule.

    1. Grow the full tree on all data; Breiman's sequence of it gives
       ``α_0 = 0 < α_1 < … < α_M`` and subtrees ``T_0 ⊃ … ⊃ T_M``. ``T_k`` is optimal on
       ``[α_k, α_{k+1})``; like rpart's ``xpred.rpart``, the interval is represented by
       the geometric mean ``β_k = √(α_k α_{k+1})`` (``β_0 = 0`` for the full tree) and
       the root's ``[α_M, ∞)`` by ``β_M = (R(root) + α_M)/2`` (:func:`alpha_candidates`).
    2. For each fold, grow on the other folds, prune at every ``β_k``, and record the loss
       of each held-out case (0/1 misclassification, or squared error for regression).
    3. ``cv_error[k]`` is the (weighted) mean loss over all cases; its standard error is
       ``sd(loss)/√n`` (rpart's ``xstd``).
    4. **1-SE rule:** the largest ``β_k`` (the simplest tree) whose CV error is at most
       ``min cv_error + std_error`` at the minimum; ties of the least error go to the
       largest ``β`` (:func:`choose_alpha`).

    ``estimator`` is a CART estimator (its parameters are used; ``ccp_alpha`` is ignored).
    Folds are stratified by class for a classifier and seeded by ``random_state``.
    """
    import pandas as pd

    from ..core.targets import check_sample_weight

    if not hasattr(estimator, "ccp_alpha") or not hasattr(estimator, "predict_with"):
        raise TypeError("estimator must be a treebook CART estimator (CARTClassifier or "
                        f"CARTRegressor); got {type(estimator).__name__}")
    risk = risk or estimator.ccp_risk
    RISK.check("risk", risk)
    y_arr = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
    if y_arr.ndim != 1:
        raise ValueError(f"y must be one-dimensional; got shape {y_arr.shape}")
    n = y_arr.shape[0]
    if cv > n:
        raise ValueError(f"cv={cv} folds need at least {cv} cases; got {n}")
    full = clone(estimator, ccp_alpha=0.0).fit(X, y, sample_weight=sample_weight)
    alphas, alpha_high, betas = alpha_candidates(full.tree_, risk)
    n_leaves = np.array([prune_ccp(full.tree_, float(b), risk).n_leaves for b in betas])

    classifier = getattr(estimator, "_estimator_type", "") == "classifier"
    w = check_sample_weight(sample_weight, y_arr.shape[0])
    rng = np.random.default_rng(random_state)
    folds = _fold_ids(y_arr if classifier else np.zeros(n), cv, rng, classifier)
    losses = np.empty((betas.shape[0], n))
    take = (lambda A, idx: A.iloc[idx]) if hasattr(X, "iloc") else (lambda A, idx: np.asarray(A)[idx])
    y_take = (lambda idx: y.iloc[idx]) if hasattr(y, "iloc") else (lambda idx: y_arr[idx])
    for k in range(cv):
        test = np.flatnonzero(folds == k)
        train = np.flatnonzero(folds != k)
        est = clone(estimator, ccp_alpha=0.0).fit(
            take(X, train), y_take(train),
            sample_weight=None if sample_weight is None else w[train])
        X_test = take(X, test)
        for j, b in enumerate(betas):
            pred = est.predict_with(prune_ccp(est.tree_, float(b), risk), X_test)
            if classifier:
                losses[j, test] = pred != y_arr[test]
            else:
                losses[j, test] = (pred - y_arr[test].astype(float)) ** 2
    cv_error = losses @ w / w.sum()
    std_error = np.sqrt((((losses - cv_error[:, None]) ** 2) @ w) / w.sum() / n)
    best, chosen, limit = choose_alpha(cv_error, std_error, "1se")
    table = pd.DataFrame({
        "alpha": betas,
        "alpha_low": alphas,
        "alpha_high": alpha_high,
        "n_leaves": n_leaves,
        "cv_error": cv_error,
        "std_error": std_error,
        "within_1se": cv_error <= limit,
    })
    return AlphaCV(alpha=float(betas[chosen]), alpha_min=float(betas[best]), table=table,
                   cv=int(cv), risk=risk)
