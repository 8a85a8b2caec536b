"""Critical-value pruning (CVP), Mingers (1987); and the pre-pruning stop rule it mirrors.

Mingers's rule (Mingers 1987, *J. Opl Res. Soc.* 38, 39–47; restated in his comparison
of pruning methods, Mingers 1989, *Machine Learning* 4, 227–243, §2), in paraphrase: a
critical value is specified for the selection measure, and a node is pruned when its
test does not reach the critical value, unless a test further along the branch does.
One critical value serves the whole tree; its size sets how hard the tree is pruned.
(A paraphrase, not a quotation: neither paper's text was at hand to quote with its page.)

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

**The method is the one fixed critical value** (``prune_critical_value(tree, c)``). One
value of ``G`` treats every test alike, whatever its number of branches, although under
independence ``G`` grows with its degrees of freedom (``E[χ²_df] = df``): a 51-branch
test clears a critical value that a binary test of the same strength of association
does not. The option ``significance=α`` (with ``measure="g"``) is the form that corrects
this: each test has its own critical value, the ``χ²`` quantile::

    c(t) = χ²_{1-α}((V_t - 1)(K_t - 1)),

``V_t`` the branches of ``t`` that hold training cases and ``K_t`` the classes present
at ``t`` (:func:`treebook.core.impurity.g_test_dof`: an empty row or column of the
table adds no free parameter), and ``t``'s test reaches it when ``G(t) ≥ c(t)``, i.e.
when its p-value ``P(χ²_df ≥ G(t))`` is at most ``α``. A test with 0 degrees of freedom
(one non-empty branch, or one class) has nothing to test and never reaches it. The
bottom-up rule is unchanged: ``t`` is pruned when no internal node of ``T_t`` reaches
its own critical value.

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

__all__ = ["MEASURES", "FORMS", "split_statistic", "split_pvalue", "chi2_critical_values",
           "subtree_maximum", "cut_below", "threshold_path", "prune_critical_value",
           "critical_value_path", "pre_prune", "pre_prune_path"]

MEASURES = ("g", "gain")
FORMS = ("fixed", "chi2")


def _branch_tables(tree: Tree):
    """The internal nodes and one (branches × classes) table of training counts for each,
    padded with empty branches (an empty row adds nothing to G, to the gain, or to the
    degrees of freedom), so that every node is scored in one vectorised call."""
    _check_tree(tree, "critical-value pruning")
    internal = np.flatnonzero(~tree.is_leaf)
    if internal.size == 0:
        return internal, np.zeros((0, 1, tree.n_classes))
    nb = tree.children_ptr[internal + 1] - tree.children_ptr[internal]
    tables = np.zeros((internal.size, int(nb.max()), tree.n_classes))
    for b in range(int(nb.max())):
        has = nb > b
        tables[has, b] = tree.value[tree.children[tree.children_ptr[internal[has]] + b]]
    return internal, tables


def split_statistic(tree: Tree, measure: str = "g") -> np.ndarray:
    """The selection measure of each internal node's test from the training counts of
    its branches (NaN at leaves): ``"g"`` the G statistic, ``"gain"`` information gain
    in bits. A test whose branches hold no cases scores 0."""
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {list(MEASURES)}; got {measure!r}")
    internal, tables = _branch_tables(tree)
    fn = imp.g_statistic if measure == "g" else imp.information_gain
    out = np.full(tree.node_count, np.nan)
    if internal.size == 0:
        return out
    scores = np.atleast_1d(fn(tables, check=False))
    out[internal] = np.where(tables.sum(axis=(1, 2)) > 0, scores, 0.0)
    return out


def split_pvalue(tree: Tree) -> np.ndarray:
    """The p-value ``P(χ²_df ≥ G(t))`` of each internal node's G-test of independence of
    branch and class, with ``df = (V_t - 1)(K_t - 1)`` (:func:`treebook.core.impurity.g_test_pvalue`;
    1 when ``df = 0``); NaN at leaves. ``G(t) ≥ χ²_{1-α}(df)`` exactly when this is
    at most ``α``. (Below about 1e-308 the p-value rounds to 0.)"""
    internal, tables = _branch_tables(tree)
    out = np.full(tree.node_count, np.nan)
    if internal.size:
        out[internal] = np.atleast_1d(imp.g_test_pvalue(tables, check=False))
    return out


def chi2_critical_values(tree: Tree, significance: float) -> np.ndarray:
    """Each internal node's own critical value of G at level ``α = significance``: the
    ``χ²`` quantile ``c(t) = χ²_{1-α}((V_t - 1)(K_t - 1))`` (``inf`` when the test has
    0 degrees of freedom: nothing to test), NaN at leaves. For display; pruning compares
    p-values (:func:`split_pvalue`), which is the same test without a quantile's rounding."""
    from scipy.stats import chi2  # scipy is a package dependency; imported when used

    a = _check_significance(significance)
    internal, tables = _branch_tables(tree)
    out = np.full(tree.node_count, np.nan)
    if internal.size:
        dof = np.atleast_1d(imp.g_test_dof(tables, check=False))
        out[internal] = np.where(dof > 0, chi2.isf(a, np.maximum(dof, 1)), np.inf)
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


def _check_significance(significance) -> float:
    if isinstance(significance, bool) or not isinstance(
            significance, (int, float, np.integer, np.floating)):
        raise TypeError(f"significance must be a number; got {significance!r}")
    if not 0.0 <= significance <= 1.0:     # also rejects NaN
        raise ValueError(f"significance must be in [0, 1]; got {significance!r}")
    return float(significance)


def prune_critical_value(tree: Tree, critical_value: float | None = None, measure: str = "g",
                         *, significance: float | None = None) -> Tree:
    """Mingers' critical-value pruning: a node becomes a leaf when its test and every test
    below it fall short of the critical value.

    Parameters
    ----------
    tree : Tree
        A fitted tree (any learner's; the measure is computed from its class counts).
    critical_value : float, optional
        Mingers's method: one critical value ``c`` for every test; ``t``'s test reaches
        it when ``s(t) ≥ c`` on ``measure`` (see :func:`split_statistic`).
    measure : {"g", "gain"}
        The selection measure ``s``.
    significance : float in [0, 1], optional
        Instead of ``critical_value``: the level ``α`` of the ``χ²`` form, where each
        test has its own critical value ``χ²_{1-α}((V_t - 1)(K_t - 1))`` of G and
        reaches it when its p-value is at most ``α`` (:func:`split_pvalue`). Needs
        ``measure="g"``.

    Returns
    -------
    Tree
        ``tree`` with every node ``t`` such that no internal node of ``T_t`` reaches its
        critical value made a leaf.
    """
    if (critical_value is None) == (significance is None):
        raise TypeError("give exactly one of critical_value (Mingers's one critical value) "
                        "and significance (the χ² form)")
    if significance is None:
        c = _check_critical(critical_value)
        return cut_below(tree, subtree_maximum(tree, split_statistic(tree, measure)), c)
    a = _check_significance(significance)
    _check_chi2_measure(measure)
    # reaching c(t) ⇔ p(t) ≤ α ⇔ −p(t) ≥ −α: the fixed-threshold rule on −p
    return cut_below(tree, subtree_maximum(tree, -split_pvalue(tree)), -a)


def _check_chi2_measure(measure):
    if measure != "g":
        raise ValueError(f"the χ² form (significance=..., form='chi2') needs measure='g'; "
                         f"got {measure!r}")


def critical_value_path(tree: Tree, measure: str = "g", *, form: str = "fixed") -> PrunedSequence:
    """Every distinct tree CVP can give, as pruning gets stronger. Nested, and shrinking.

    ``form="fixed"`` (Mingers's one critical value): ``values[k]`` is the smallest
    critical value giving ``trees[k]`` (``values[0]`` gives the full tree, the last,
    ``inf``, the root alone). ``form="chi2"`` (``measure="g"`` only): ``values[k]`` is
    the largest significance level ``α`` giving ``trees[k]``, decreasing; the last, 0,
    gives the root alone (unless a test's p-value rounds to 0, when that test stays in
    every tree and no root-alone entry is added).
    """
    if form not in FORMS:
        raise ValueError(f"form must be one of {list(FORMS)}; got {form!r}")
    if form == "fixed":
        return threshold_path(tree, subtree_maximum(tree, split_statistic(tree, measure)))
    _check_chi2_measure(measure)
    score = subtree_maximum(tree, -split_pvalue(tree))
    cuts = np.unique(score[~tree.is_leaf])
    trees = [cut_below(tree, score, c) for c in cuts]
    alphas = list(-cuts)
    if not (cuts.size and cuts[-1] == 0.0):
        trees.append(cut_below(tree, score, np.inf))
        alphas.append(0.0)
    return PrunedSequence("significance level", alphas, trees, nested=True)


def pre_prune(tree: Tree, critical_value: float, measure: str = "gain") -> Tree:
    """The pre-pruning stop rule applied to a grown tree: walking down from the root, the
    first node whose test scores below ``critical_value`` becomes a leaf, whatever lies
    below it."""
    c = _check_critical(critical_value)
    return cut_below(tree, split_statistic(tree, measure), c)


def pre_prune_path(tree: Tree, measure: str = "gain") -> PrunedSequence:
    """:func:`pre_prune` at every critical value that changes the tree (nested)."""
    return threshold_path(tree, split_statistic(tree, measure))
