"""Critical-value pruning (CVP), Mingers (1987); and the pre-pruning stop rule it mirrors.

When a tree is grown, each test was chosen because a *selection measure* scored it
highest. CVP sets a threshold on that score, the **critical value** ``c``, and removes
the tests that do not reach it — but only from the bottom: a test below ``c`` is kept if
any test *below it* reaches ``c``, because a weak split may be what makes a strong one
possible. Bottom-up,

    t becomes a leaf  ⇔  s(t) < c  and every internal node of T_t became a leaf,

so ``t`` is pruned exactly when ``max_{u ∈ T_t internal} s(u) < c``: as ``c`` grows the
trees are nested and shrink, from the full tree to the root. The measure ``s`` is
computed from the training class counts of the node's branches (the tree stores them),
so any learner's tree can be pruned whatever measure grew it. This book's choice,
documented in the chapter:

* ``measure="g"`` (default): the G statistic ``G = 2 Σ O ln(O/E)`` of independence of
  branch and class (:func:`treebook.core.impurity.g_statistic`) — a log-likelihood ratio that
  grows with the number of cases, so a critical value is a significance level in
  disguise (``χ²`` quantiles with ``(V-1)(K-1)`` degrees of freedom);
* ``measure="gain"``: the information gain in bits
  (:func:`treebook.core.impurity.information_gain`), the measure ID3 selects by; note
  ``G = 2 N ln 2 · gain``, so the two differ by the node's size ``N``.

:func:`pre_prune` applies the same threshold **top-down** without looking below — the
stop rule "split only if ``s ≥ c``" of pre-pruning (chapter 5's G-test stop, a minimum
gain). For a top-down grower whose choice of test at a node does not depend on the
stop rule, growing with the rule gives exactly this tree. The difference between the two
is the *horizon effect* that made Mingers prefer the bottom-up version.
"""

from __future__ import annotations

import numpy as np

from ..core import impurity as imp
from ..core.tree import Tree
from .reduced_error import _check_tree
from .sequence import PrunedSequence

__all__ = ["MEASURES", "split_statistic", "subtree_maximum", "cut_below", "threshold_path",
           "prune_critical_value", "critical_value_path", "pre_prune", "pre_prune_path"]

MEASURES = ("g", "gain")


def split_statistic(tree: Tree, measure: str = "g") -> np.ndarray:
    """The selection measure of each internal node's test from the training counts of
    its branches (NaN at leaves): ``"g"`` the G statistic, ``"gain"`` information gain
    in bits. A test whose branches hold no cases scores 0."""
    _check_tree(tree, "critical-value pruning")
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {list(MEASURES)}; got {measure!r}")
    fn = imp.g_statistic if measure == "g" else imp.information_gain
    out = np.full(tree.node_count, np.nan)
    internal = np.flatnonzero(~tree.is_leaf)
    if internal.size == 0:
        return out
    # one (branches × classes) table per internal node, padded with empty branches (an
    # empty row adds nothing to either measure), all nodes scored in one call
    nb = tree.children_ptr[internal + 1] - tree.children_ptr[internal]
    tables = np.zeros((internal.size, int(nb.max()), tree.n_classes))
    for b in range(int(nb.max())):
        has = nb > b
        tables[has, b] = tree.value[tree.children[tree.children_ptr[internal[has]] + b]]
    scores = np.atleast_1d(fn(tables, check=False))
    out[internal] = np.where(tables.sum(axis=(1, 2)) > 0, scores, 0.0)
    return out


def subtree_maximum(tree: Tree, score: np.ndarray) -> np.ndarray:
    """``max`` of a per-node ``score`` over the internal nodes of each node's subtree
    (−inf at leaves): the largest score CVP must beat to remove the subtree."""
    out = np.where(tree.is_leaf, -np.inf, score)
    for i in range(tree.node_count - 1, 0, -1):     # reverse pre-order: children first
        p = tree.parent[i]
        out[p] = max(out[p], out[i])
    return out


def cut_below(tree: Tree, score: np.ndarray, critical_value: float) -> Tree:
    """Make every internal node whose ``score`` is below ``critical_value`` a leaf (a
    node cut this way takes its whole subtree with it)."""
    mask = ~tree.is_leaf & (np.asarray(score) < critical_value)
    return tree.prune(mask) if mask.any() else tree


def threshold_path(tree: Tree, score: np.ndarray) -> PrunedSequence:
    """:func:`cut_below` at every critical value that changes the tree: each distinct
    score of an internal node, then ``inf`` (the root alone). Nested and shrinking."""
    cuts = np.unique(np.asarray(score)[~tree.is_leaf])
    values = np.concatenate([cuts, [np.inf]])
    return PrunedSequence("critical value", values,
                          [cut_below(tree, score, c) for c in values], nested=True)


def _check_critical(critical_value) -> float:
    if isinstance(critical_value, bool) or not isinstance(
            critical_value, (int, float, np.integer, np.floating)):
        raise TypeError(f"critical_value must be a number; got {critical_value!r}")
    if np.isnan(critical_value):
        raise ValueError("critical_value must not be NaN")
    return float(critical_value)


def prune_critical_value(tree: Tree, critical_value: float, measure: str = "g") -> Tree:
    """Mingers' critical-value pruning: a node becomes a leaf when its test and every test
    below it score below ``critical_value`` on ``measure`` (see :func:`split_statistic`)."""
    c = _check_critical(critical_value)
    return cut_below(tree, subtree_maximum(tree, split_statistic(tree, measure)), c)


def critical_value_path(tree: Tree, measure: str = "g") -> PrunedSequence:
    """Every distinct tree CVP can give, as the critical value rises: ``values[k]`` is the
    smallest critical value giving ``trees[k]`` (``values[0]`` gives the full tree, the
    last, ``inf``, the root alone). Nested, and shrinking."""
    return threshold_path(tree, subtree_maximum(tree, split_statistic(tree, measure)))


def pre_prune(tree: Tree, critical_value: float, measure: str = "gain") -> Tree:
    """The pre-pruning stop rule applied to a grown tree: walking down from the root, the
    first node whose test scores below ``critical_value`` becomes a leaf, whatever lies
    below it."""
    c = _check_critical(critical_value)
    return cut_below(tree, split_statistic(tree, measure), c)


def pre_prune_path(tree: Tree, measure: str = "gain") -> PrunedSequence:
    """:func:`pre_prune` at every critical value that changes the tree (nested)."""
    return threshold_path(tree, split_statistic(tree, measure))
