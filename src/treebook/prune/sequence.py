"""A sequence of pruned trees indexed by a strength parameter, and how to pick one.

Every post-pruning method with a strength parameter (cost-complexity's ``α``,
critical-value pruning's critical value, minimum-error pruning's ``m``) has a
``<method>_path(tree, ...)`` function returning a :class:`PrunedSequence`: the parameter
values in the order of increasing strength and the pruned tree at each. :meth:`PrunedSequence.select`
picks one on a pruning set — the least error, or the 1-SE rule of Breiman et al. (1984,
§3.4.3) with the standard error of a test-sample estimate — always the smallest tree on
ties.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.tree import Tree
from .reduced_error import pruning_set_errors

__all__ = ["PrunedSequence", "ccp_sequence"]


@dataclass
class PrunedSequence:
    """``trees[k]`` is the tree pruned at strength ``values[k]`` (``parameter`` names it).

    ``nested`` says whether each tree is a pruned subtree of the one before (true for
    cost-complexity and critical-value pruning; not guaranteed for minimum-error pruning).
    """

    parameter: str
    values: np.ndarray
    trees: list
    nested: bool = True

    def __post_init__(self):
        self.values = np.asarray(self.values, dtype=float)
        if len(self.trees) != self.values.shape[0] or not self.trees:
            raise ValueError("values and trees must be non-empty and of equal length")

    def __len__(self) -> int:
        return len(self.trees)

    def __getitem__(self, k: int) -> Tree:
        return self.trees[k]

    @property
    def n_leaves(self) -> np.ndarray:
        return np.array([t.n_leaves for t in self.trees], dtype=np.int64)

    def errors_on(self, X, y, sample_weight=None, *, missing: str = "stop") -> np.ndarray:
        """The (weighted) number of errors of each tree on ``(X, y)`` (encoded ``X``),
        counted leaf by leaf as in :func:`~treebook.prune.reduced_error.pruning_set_errors`."""
        out = []
        for t in self.trees:
            s = pruning_set_errors(t, X, y, sample_weight, missing=missing)
            out.append(s["subtree"][0])
        return np.array(out)

    def select(self, X, y, sample_weight=None, *, rule: str = "min",
               missing: str = "stop") -> int:
        """Index of the tree chosen on the pruning set ``(X, y)``.

        ``rule="min"``: the least error; ``rule="1se"``: the smallest tree whose error
        rate is at most ``R_min + SE``, ``SE = sqrt(R_min (1 - R_min) / N)``. Ties (equal
        error, or within 1 SE) go to the tree with the fewest leaves, then to the later
        tree of the sequence (the stronger pruning).
        """
        if rule not in ("min", "1se"):
            raise ValueError(f"rule must be 'min' or '1se'; got {rule!r}")
        err = self.errors_on(X, y, sample_weight, missing=missing)
        n = float(len(y) if sample_weight is None else np.sum(sample_weight))
        if n <= 0:
            raise ValueError("the pruning set is empty")
        rate = err / n
        best = rate.min()
        limit = best + 1e-12
        if rule == "1se":
            limit += np.sqrt(best * (1 - best) / n)
        ok = np.flatnonzero(rate <= limit)
        leaves = self.n_leaves[ok]
        ok = ok[leaves == leaves.min()]
        return int(ok[-1])


def ccp_sequence(tree: Tree, risk: str = "impurity") -> PrunedSequence:
    """Breiman's cost-complexity sequence as a :class:`PrunedSequence` over ``α``.

    ``values`` ``α_1 = 0 < α_2 < … < α_K`` are strictly increasing and ``trees[k]`` is the
    smallest subtree minimising ``R_α`` on ``[α_k, α_{k+1})``: every weakest link with the
    same ``α`` is collapsed in one step (Breiman et al. 1984, §3.3), two ``α`` counting as
    tied when they differ by at most ``ALPHA_RTOL · R(root)`` = ``1e-12 · R(root)``
    (:func:`~treebook.prune.cost_complexity.breiman_steps`). ``trees[0]`` is the full tree
    pruned at ``α = 0`` (links that lower the risk not at all are gone) and
    ``prune_ccp(tree, values[k])`` equals ``trees[k]``. scikit-learn's one-node-per-step
    path is :func:`~treebook.prune.cost_complexity.cost_complexity_path`.
    """
    from .cost_complexity import breiman_steps, cost_complexity_path

    path = cost_complexity_path(tree, risk=risk)
    steps, alphas = breiman_steps(path)
    return PrunedSequence("alpha", alphas, [path.subtree(int(k)) for k in steps])
