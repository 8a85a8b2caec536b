"""The CHAID grower (Kass 1980): at every node, merge each predictor's categories, test
the merged tables, and split multiway on the most significant predictor.

::

    grow(D, depth):
        make a node holding D's class counts
        if D is pure, depth = max_depth or |D| < min_samples_split: it stays a leaf
        for each predictor A:  merge A's categories (with split_merged: re-split merged
                               groups, Kass's step 3); test the merged table   (chaid_merge)
        take A* with the smallest (Bonferroni-adjusted) p-value
        if p(A*) >= alpha_split: it stays a leaf
        one branch per merged group of A*;  grow(D_g, depth + 1) for each group g

Unlike ID3, a predictor is **not** used up on its path: a branch that holds several
merged categories can be split again on the same predictor (Kass 1980; the CHAID package
does the same). Ties between predictors go to the larger statistic, then to the first
column (the CHAID package's rule). Nodes are created in depth-first pre-order, so the
builder's ids are the tree's node ids and the per-node tests line up with them.

Input: category codes (a numeric column already binned by the learner), NaN for a
missing value; ``ordinal[f]`` says whether predictor ``f`` is monotonic (adjacent merges
only).

**Missing values.** At a node, the cases missing predictor ``f`` form one more category
(code ``n_categories[f]`` in the merge, :mod:`~treebook.growers.chaid_merge`): nominal, a
category like any other; ordinal, Kass's floating category. They go down the branch of
the group their category merged into. The tree records, per split node, the branch a
missing value takes (``Tree.missing_go``): that group's branch where the node's training
cases had missing values, otherwise the branch with the most training weight (ties to
the first) — the "most popular node" rule of SAS's HPSPLIT (``ASSIGNMISSING=POPULAR``,
and its fallback when training had no missing values at a split), and partykit's
``majority = TRUE``. Prediction reads it (``Tree.route``), so a loaded model file routes
the same way.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core import impurity as imp
from ..core.splits import NodeKind, categorical_table
from ..core.tree import Tree, TreeBuilder
from .chaid_merge import PredictorTest, predictor_test
from .recursive import node_counts

__all__ = ["NodeTests", "best_predictor", "grow_chaid", "missing_branch"]


class NodeTests(NamedTuple):
    """Per node of the grown tree (index = node id): the best predictor's
    ``statistic``, ``dof``, ``p_value`` and ``adjusted_p_value`` where the predictors
    were tested (NaN where no test was run: a pure node, ``max_depth``,
    ``min_samples_split``, or no predictor with two groups), ``feature`` (that
    predictor, -1 for none); and ``root``, the root's :class:`PredictorTest` of every
    predictor (None where it has fewer than two groups, or was not tested)."""

    statistic: np.ndarray
    dof: np.ndarray
    p_value: np.ndarray
    adjusted_p_value: np.ndarray
    feature: np.ndarray
    root: tuple


def best_predictor(tests, bonferroni: bool = True) -> int:
    """Index of the predictor to split on among ``tests`` (:class:`PredictorTest` or
    None): the smallest adjusted p-value (plain p-value without ``bonferroni``), ties to
    the larger statistic, then to the first; -1 when none can split."""
    best, key = -1, None
    for f, t in enumerate(tests):
        if t is None:
            continue
        k = (t.adjusted_p_value if bonferroni else t.p_value, -t.statistic)
        if key is None or k < key:
            best, key = f, k
    return best


def node_tests(X, y, w, n_categories, ordinal, n_classes, *, alpha_merge, statistic,
               bonferroni, min_samples_leaf, split_merged=False) -> list[PredictorTest | None]:
    """Every predictor's :class:`~treebook.growers.chaid_merge.PredictorTest` on the
    cases ``X`` (codes), ``y``, ``w`` of one node."""
    out = []
    for f in range(X.shape[1]):
        table, missing = categorical_table(X[:, f], y, w, n_categories[f], n_classes)
        # the missing cases as the last row: one more category (code n_categories[f])
        table = np.vstack([table, missing[None, :]])
        out.append(predictor_test(table, ordinal=bool(ordinal[f]), alpha_merge=alpha_merge,
                                  statistic=statistic, bonferroni=bonferroni,
                                  min_samples_leaf=min_samples_leaf, missing=True,
                                  split_merged=split_merged))
    return out


def missing_branch(groups, n_codes: int, branch_weight) -> int:
    """The branch a case missing the split variable takes: that of the group holding the
    missing category (code ``n_codes``), else the one with the most training weight
    ``branch_weight`` (ties to the first)."""
    for b, g in enumerate(groups):
        if n_codes in g:
            return b
    return int(np.argmax(branch_weight))


def grow_chaid(X, y, sample_weight, *, n_categories, ordinal, n_classes: int,
               alpha_merge: float, alpha_split: float, statistic: str = "pearson",
               bonferroni: bool = True, max_depth: int | None = None,
               min_samples_split: int = 2, min_samples_leaf: float = 1.0,
               split_merged: bool = False,
               metadata: dict | None = None) -> tuple[Tree, NodeTests]:
    """Grow a CHAID tree on category codes ``X`` (``n_categories[f]`` codes per column,
    NaN where a value is missing), class codes ``y`` and weights ``sample_weight``.

    The options are :class:`treebook.chaid.CHAIDClassifier`'s. Returns the tree (node
    impurity: entropy, in bits) and its :class:`NodeTests`.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=np.int64)
    w0 = np.asarray(sample_weight, dtype=float)
    max_depth = np.inf if max_depth is None else max_depth
    builder = TreeBuilder(is_regression=False)
    stats: list[tuple] = []
    root_tests: tuple = ()
    nan4 = (np.nan, np.nan, np.nan, np.nan, -1)
    # tasks (parent, rows, depth): popped in pre-order, so builder ids are pre-order ids
    stack = [(-1, np.arange(X.shape[0]), 0)]
    while stack:
        parent, rows, depth = stack.pop()
        w = w0[rows]
        value = node_counts(y[rows], w, n_classes)
        n_pos = int(np.count_nonzero(w > 0))
        node = builder.add_node(parent, value, w.sum(), n_pos,
                                float(imp.entropy(value, check=False)))
        evaluate = np.count_nonzero(value > 0) > 1 and n_pos >= min_samples_split
        if not evaluate or (depth >= max_depth and node > 0):
            stats.append(nan4)
            continue
        tests = node_tests(X[rows], y[rows], w, n_categories, ordinal, n_classes,
                           alpha_merge=alpha_merge, statistic=statistic,
                           bonferroni=bonferroni, min_samples_leaf=min_samples_leaf,
                           split_merged=split_merged)
        if node == 0:
            root_tests = tuple(tests)
            if depth >= max_depth:  # the root's tests are kept even with max_depth=0
                stats.append(nan4)
                continue
        f = best_predictor(tests, bonferroni)
        if f < 0:
            stats.append(nan4)
            continue
        t = tests[f]
        stats.append((t.statistic, t.dof, t.p_value, t.adjusted_p_value, f))
        if not (t.adjusted_p_value if bonferroni else t.p_value) < alpha_split:
            continue
        n_codes = n_categories[f]
        branch_of_code = np.full(n_codes + 1, -1, dtype=np.int64)  # + the missing code
        for b, g in enumerate(t.groups):
            branch_of_code[list(g)] = b
        builder.set_split(node, f, NodeKind.MULTIWAY, branch_of_code=branch_of_code[:n_codes])
        x = X[rows, f]
        branch = branch_of_code[np.where(np.isnan(x), n_codes, x).astype(np.int64)]
        go = missing_branch(t.groups, n_codes, np.bincount(branch, weights=w,
                                                           minlength=len(t.groups)))
        builder.set_missing_rule(node, go)
        stack.extend((node, rows[branch == b], depth + 1)
                     for b in reversed(range(len(t.groups))))
    tree = builder.build(**(metadata or {}))
    s = list(zip(*stats))
    tests = NodeTests(np.array(s[0], float), np.array(s[1], float), np.array(s[2], float),
                      np.array(s[3], float), np.array(s[4], np.int64), root_tests)
    return tree, tests
