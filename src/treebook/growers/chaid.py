"""The CHAID grower (Kass 1980): at every node, merge each predictor's categories, test
the merged tables, and split multiway on the most significant predictor.

::

    grow(D, depth):
        make a node holding D's class counts
        if D is pure, depth = max_depth or |D| < min_samples_split: it stays a leaf
        for each predictor A:  merge A's categories; test the merged table   (chaid_merge)
        take A* with the smallest (Bonferroni-adjusted) p-value
        if p(A*) >= alpha_split: it stays a leaf
        one branch per merged group of A*;  grow(D_g, depth + 1) for each group g

Unlike ID3, a predictor is **not** used up on its path: a branch that holds several
merged categories can be split again on the same predictor (Kass 1980; the CHAID package
does the same). Ties between predictors go to the larger statistic, then to the first
column (the CHAID package's rule). Nodes are created in depth-first pre-order, so the
builder's ids are the tree's node ids and the per-node tests line up with them.

Input: category codes (a numeric column already binned by the learner), no missing
values; ``ordinal[f]`` says whether predictor ``f`` is monotonic (adjacent merges only).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core import impurity as imp
from ..core.splits import NodeKind, categorical_table
from ..core.tree import Tree, TreeBuilder
from .chaid_merge import PredictorTest, predictor_test
from .recursive import node_counts

__all__ = ["NodeTests", "best_predictor", "grow_chaid"]


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
               bonferroni, min_samples_leaf) -> list[PredictorTest | None]:
    """Every predictor's :class:`~treebook.growers.chaid_merge.PredictorTest` on the
    cases ``X`` (codes), ``y``, ``w`` of one node."""
    out = []
    for f in range(X.shape[1]):
        table, _ = categorical_table(X[:, f], y, w, n_categories[f], n_classes)
        out.append(predictor_test(table, ordinal=bool(ordinal[f]), alpha_merge=alpha_merge,
                                  statistic=statistic, bonferroni=bonferroni,
                                  min_samples_leaf=min_samples_leaf))
    return out


def grow_chaid(X, y, sample_weight, *, n_categories, ordinal, n_classes: int,
               alpha_merge: float, alpha_split: float, statistic: str = "pearson",
               bonferroni: bool = True, max_depth: int | None = None,
               min_samples_split: int = 2, min_samples_leaf: float = 1.0,
               metadata: dict | None = None) -> tuple[Tree, NodeTests]:
    """Grow a CHAID tree on category codes ``X`` (``n_categories[f]`` codes per column,
    no missing value), class codes ``y`` and weights ``sample_weight``.

    The options are :class:`treebook.chaid.CHAIDClassifier`'s. Returns the tree (node
    impurity: entropy, in bits) and its :class:`NodeTests`.
    """
    X = np.asarray(X, dtype=float)
    if np.isnan(X).any():
        raise ValueError("X has missing values; the CHAID grower has no rule for them")
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
                           bonferroni=bonferroni, min_samples_leaf=min_samples_leaf)
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
        branch_of_code = np.full(n_categories[f], -1, dtype=np.int64)
        for b, g in enumerate(t.groups):
            branch_of_code[list(g)] = b
        builder.set_split(node, f, NodeKind.MULTIWAY, branch_of_code=branch_of_code)
        branch = branch_of_code[X[rows, f].astype(np.int64)]
        stack.extend((node, rows[branch == b], depth + 1)
                     for b in reversed(range(len(t.groups))))
    tree = builder.build(**(metadata or {}))
    s = list(zip(*stats))
    tests = NodeTests(np.array(s[0], float), np.array(s[1], float), np.array(s[2], float),
                      np.array(s[3], float), np.array(s[4], np.int64), root_tests)
    return tree, tests
