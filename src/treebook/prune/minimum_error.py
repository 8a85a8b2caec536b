"""Minimum-error pruning (MEP): Niblett and Bratko (1986); the m-estimate of Cestnik and
Bratko (1991).

MEP needs no pruning set. It estimates the error rate a node would have on new cases from
its training counts, shrunk towards a prior. For a node with ``n`` training cases, of
which ``n_c`` belong to the class ``c`` it predicts, the **static** expected error is

    E_s(t) = (n - n_c + (1 - p_c)·m) / (n + m)

with prior class probabilities ``p_k`` and weight ``m ≥ 0`` (Cestnik and Bratko's
*m-estimate* of the probability of error). Niblett and Bratko's original estimate is
Laplace's law of succession, the case ``m = K`` (number of classes) with uniform
priors ``p_k = 1/K``:

    E_s(t) = (n - n_c + K - 1) / (n + K).

The **dynamic** (backed-up) error of an internal node averages its branches' errors,
weighted by the share of training cases each branch holds:

    E_d(t) = Σ_i  n_i / Σ_j n_j · E(t_i),     E(t_i) = min(E_s(t_i), E_d(t_i)).

Bottom-up, ``t`` becomes a leaf when ``E_s(t) ≤ E_d(t)`` (ties to the leaf, the smaller
tree). The predicted class stays the training majority (the tree's own prediction);
with non-uniform priors the class maximising the m-estimate may differ, which the book
discusses. ``m`` is the strength parameter: ``m = 0`` prunes only branches that do not
lower the training error; larger ``m`` trusts small leaves less. Sizes are *not*
guaranteed to shrink as ``m`` grows (the book gives a counterexample), so
:func:`minimum_error_path` returns a sequence that need not be nested.
"""

from __future__ import annotations

import numpy as np

from ..core.tree import Tree
from .reduced_error import _check_tree
from .sequence import PrunedSequence

__all__ = ["expected_error", "minimum_error_statistics", "prune_minimum_error",
           "minimum_error_path"]

_TOL = 1e-12


def _check_m(m, n_classes: int) -> float:
    if m is None:
        return float(n_classes)
    if isinstance(m, bool) or not isinstance(m, (int, float, np.integer, np.floating)):
        raise TypeError(f"m must be a number >= 0 or None; got {m!r}")
    if not np.isfinite(m) or m < 0:
        raise ValueError(f"m must be a finite number >= 0; got {m!r}")
    return float(m)


def _check_prior(prior, tree: Tree, m_given: bool) -> np.ndarray:
    K = tree.n_classes
    if prior is None:
        if not m_given:
            return np.full(K, 1.0 / K)             # Laplace: uniform
        root = tree.value[0]
        return root / root.sum() if root.sum() > 0 else np.full(K, 1.0 / K)
    if isinstance(prior, str):
        if prior == "uniform":
            return np.full(K, 1.0 / K)
        if prior == "training":
            root = tree.value[0]
            return root / root.sum()
        raise ValueError(f"prior must be 'uniform', 'training' or K probabilities; got {prior!r}")
    p = np.asarray(prior, dtype=float)
    if p.shape != (K,) or np.any(~np.isfinite(p)) or np.any(p < 0) or abs(p.sum() - 1) > 1e-9:
        raise ValueError(f"prior must hold {K} probabilities that sum to 1; got {prior!r}")
    return p


def expected_error(counts, predicted, m: float, prior) -> np.ndarray:
    """The m-estimate of the error rate, ``(n - n_c + (1 - p_c) m) / (n + m)``, per row of
    ``counts`` (shape ``(…, K)``) for the class index ``predicted``. With ``n + m = 0``
    (no cases, ``m = 0``) the estimate is ``1 - p_c``."""
    counts = np.asarray(counts, dtype=float)
    prior = np.asarray(prior, dtype=float)
    n = counts.sum(axis=-1)
    c = np.asarray(predicted)
    n_c = np.take_along_axis(counts, c[..., None], axis=-1)[..., 0]
    p_c = prior[c]
    den = n + m
    return np.where(den > 0, (n - n_c + (1 - p_c) * m) / np.where(den > 0, den, 1.0), 1 - p_c)


def minimum_error_statistics(tree: Tree, m=None, prior=None) -> dict:
    """Per node: ``static`` ``E_s(t)``, ``dynamic`` ``E_d(t)`` (NaN at leaves), the
    backed-up ``error`` ``min(E_s, E_d)`` after pruning below, and ``prune`` (MEP's test
    ``E_s ≤ E_d``; False at leaves). ``m=None`` is Niblett and Bratko's Laplace estimate
    (``m = K``, uniform prior); a number is Cestnik and Bratko's m-estimate with
    ``prior`` (default: the class frequencies at the root, i.e. of the training set;
    ``"uniform"``, ``"training"`` or K probabilities)."""
    _check_tree(tree, "minimum-error pruning")
    mm = _check_m(m, tree.n_classes)
    p = _check_prior(prior, tree, m is not None)
    pred = np.argmax(tree.node_prediction(), axis=1)
    static = expected_error(tree.value, pred, mm, p)
    is_leaf = tree.is_leaf
    n = tree.weighted_n
    err = static.copy()
    acc = np.zeros(tree.node_count)      # Σ n_i E(t_i) over the branches seen so far
    wsum = np.zeros(tree.node_count)     # Σ n_i
    dynamic = np.full(tree.node_count, np.nan)
    prune = np.zeros(tree.node_count, dtype=bool)
    for i in range(tree.node_count - 1, -1, -1):   # a node after all its descendants
        if not is_leaf[i]:
            dynamic[i] = acc[i] / wsum[i] if wsum[i] > 0 else static[i]
            prune[i] = static[i] <= dynamic[i] + _TOL
            err[i] = static[i] if prune[i] else dynamic[i]
        par = tree.parent[i]
        if par >= 0:
            acc[par] += n[i] * err[i]
            wsum[par] += n[i]
    return {"static": static, "dynamic": dynamic, "error": err, "prune": prune,
            "m": mm, "prior": p}


def prune_minimum_error(tree: Tree, m=None, prior=None) -> Tree:
    """Minimum-error pruning of ``tree`` (bottom-up, no pruning set): each internal node
    whose static expected error is no larger than its backed-up error becomes a leaf.
    ``m=None``: Niblett and Bratko (Laplace); a number: Cestnik and Bratko's m-estimate."""
    stats = minimum_error_statistics(tree, m, prior)
    return tree.prune(stats["prune"]) if stats["prune"].any() else tree


def minimum_error_path(tree: Tree, ms=(0, 0.5, 1, 2, 4, 8, 16, 32, 64, 128),
                       prior=None) -> PrunedSequence:
    """The tree pruned by the m-estimate at each ``m`` of ``ms`` (sorted, ``≥ 0``), with
    ``prior`` as in :func:`minimum_error_statistics` (default: training frequencies).
    Not necessarily nested: ``nested`` is set from the trees themselves."""
    from .optimal import kept_nodes

    _check_tree(tree, "minimum-error pruning")
    try:
        ms = sorted(float(_check_m(v, tree.n_classes)) for v in ms)
    except TypeError:
        raise TypeError(f"ms must be an iterable of numbers >= 0; got {ms!r}") from None
    if not ms:
        raise ValueError("ms is empty")
    trees = [prune_minimum_error(tree, m, prior) for m in ms]
    nested = all(kept_nodes(a, b) is not None for a, b in zip(trees, trees[1:]))
    return PrunedSequence("m", np.array(ms), trees, nested=nested)
