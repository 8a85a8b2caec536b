"""C4.5's fast grower: the readable recursion, with each numeric column sorted once.

The readable grower (:func:`treebook.growers.recursive.grow_tree` with
:func:`treebook.growers.c45_search.c45_split_finder`) sorts the cases of every node on every numeric
attribute and scores every cut with numpy. This grower makes the same tree, node for
node, with three changes:

* each numeric column is sorted once, at the root; a node keeps, per numeric attribute,
  the list of its cases by value, and a split hands each child its part of every list
  (:func:`treebook.kernels.c45.partition_sorted_lists`), fractional cases included;
* one compiled pass per node scans all the lists
  (:func:`treebook.kernels.c45.scan_thresholds`): prefix sums, the admissible cuts, and
  the short list of cuts that can be the best; the readable arithmetic
  (:func:`treebook.growers.c45_search.threshold_candidate`'s numpy code, shared through
  :func:`treebook.growers.c45_search.threshold_at`) scores the short list and makes the candidate.

* the multiway candidates of all categorical attributes are scored in one numpy call per
  number of categories (:func:`_categorical_candidates`: the contingency tables of
  :func:`treebook.core.splits.categorical_table`, the entropies of
  :func:`treebook.growers.c45_search.categorical_candidate`, row by row the same arithmetic).

Everything else is the readable code itself: binary categorical candidates
(:func:`treebook.growers.c45_search.binary_categorical_candidate`), the choice (:func:`treebook.growers.c45_search.choose_candidate`), the routing of the cases
(:meth:`treebook.core.splits.Split.route_cases`) and the node statistics. Cases are kept in
the readable grower's order at every node (a child: its branch's cases, then the fanned
ones), and ties in a sorted list in that order, so every sum is added in the same order
and the trees are equal array for array (``tests/test_c45_fast.py``).
"""

from __future__ import annotations

import numpy as np

from ..core import impurity as imp
from .c45_search import (MIN_CUT_GAP, SMALL, C45Context, Candidate, _ratio, _with_unknown_row,
                  binary_categorical_candidate, categorical_candidate, choose_candidate,
                  threshold_at)
from ..kernels.c45 import partition_sorted_lists, scan_thresholds
from .recursive import branch_cases, node_counts
from ..core.splits import FAN, best_index, categorical_table, get_routing
from ..core.tree import NodeKind, TreeBuilder

__all__ = ["grow_c45", "SHORTLIST_MARGIN"]

#: the kernel keeps every cut whose (C-library) gain is within this, relative to the best
#: (absolute below 1), for numpy to score again: far above the last-bit differences of the
#: two ``log2`` and above :func:`treebook.core.splits.best_index`'s tie tolerance 1e-12
SHORTLIST_MARGIN = 1e-9


def _sorted_lists(X, numeric):
    """Each numeric column's known rows, by value (ties by row): the root's lists."""
    lists = []
    for f in numeric:
        idx = np.flatnonzero(~np.isnan(X[:, f]))
        lists.append(idx[np.argsort(X[idx, f], kind="stable")])
    ptr = np.zeros(len(lists) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([a.shape[0] for a in lists])
    order = np.concatenate(lists) if lists else np.empty(0, np.int64)
    return order.astype(np.int64), ptr


def _numeric_candidates(ctx, X, y_node, w, rows, order, ptr, numeric, total):
    """The threshold candidate of every numeric attribute at a node (None: none)."""
    K = ctx.n_classes
    n_lists = numeric.shape[0]
    left = np.empty((max(order.shape[0], 1), K))
    lower = np.empty(left.shape[0])
    upper = np.empty(left.shape[0])
    score = np.empty(left.shape[0])
    short_ptr = np.zeros(n_lists + 1, dtype=np.int64)
    n_cuts = np.zeros(n_lists, dtype=np.int64)
    known = np.empty((n_lists, K))
    missing = np.empty((n_lists, K))
    scan_thresholds(order, ptr, numeric, X, rows, y_node, w, K, total,
                    ctx.min_samples_leaf, MIN_CUT_GAP, SMALL, SHORTLIST_MARGIN,
                    left, lower, upper, score, short_ptr, n_cuts, known, missing)
    # The kernel skipped the attributes threshold_candidate rejects (too few known cases,
    # no admissible cut), so the short lists of the others fill left[:short_ptr[-1]], in
    # attribute order. numpy scores them all in one call, with threshold_candidate's
    # expressions (row by row the same arithmetic).
    out = [None] * n_lists
    length = np.diff(short_ptr)
    live = np.flatnonzero(length)
    if live.size == 0:
        return out
    known_w = known.sum(axis=1)
    if not np.isfinite(total):
        return _numeric_one_by_one(ctx, live, known_w, left, lower, upper, short_ptr, n_cuts,
                                   known, missing, numeric, total, out)
    end = short_ptr[-1]
    seg = np.repeat(np.arange(n_lists), length)
    lt = left[:end]
    tables = np.stack([lt, known[seg] - lt], axis=1)
    gains = (known_w / total)[seg] * imp.information_gain(tables, check=False)
    pick = [short_ptr[i] if length[i] == 1
            else short_ptr[i] + best_index(gains[short_ptr[i]:short_ptr[i + 1]])
            for i in live]
    full = np.concatenate([tables[pick], missing[live][:, None, :]], axis=1)
    split_info = imp.split_information(full, check=False)
    for i, j, si in zip(live, pick, split_info):
        out[i] = threshold_at(tables[j], missing[i].copy(), lower[j], upper[j],
                              float(gains[j]), int(n_cuts[i]), total, feature=int(numeric[i]),
                              mdl_correction=ctx.mdl_correction, values=ctx.values[numeric[i]],
                              split_info=float(si))
    return out


def _numeric_one_by_one(ctx, live, known_w, left, lower, upper, short_ptr, n_cuts, known,
                        missing, numeric, total, out):
    """The same, one attribute at a time (a total weight that overflows: numpy rescales
    each table on its own)."""
    for i in live:
        s, e = short_ptr[i], short_ptr[i + 1]
        lt = left[s:e]
        tables = np.stack([lt, known[i] - lt], axis=1)
        gains = float(known_w[i]) / total * imp.information_gain(tables, check=False)
        j = best_index(gains)
        out[i] = threshold_at(tables[j], missing[i].copy(), lower[s + j], upper[s + j],
                              float(gains[j]), int(n_cuts[i]), total, feature=int(numeric[i]),
                              mdl_correction=ctx.mdl_correction, values=ctx.values[numeric[i]])
    return out


#: numpy adds fewer than 8 numbers one after another (its pairwise summation starts at 8):
#: the largest table (with its unknown row) that zero rows can pad exactly
_SEQUENTIAL = 7


def _categorical_candidates(ctx, X, rows, y_node, w, feats):
    """The multiway candidate of every categorical attribute in ``feats`` at a node:
    :func:`treebook.growers.c45_search.categorical_candidate`'s, with its two entropy
    computations done in one numpy call per number of categories (row by row the same
    arithmetic; the per-table sums stay per table; tables of at most six categories share
    one call, padded with zero rows, which leave numpy's sums of up to seven numbers as
    they are). A node whose weight overflows takes
    the readable function one attribute at a time (numpy rescales each table alone)."""
    K = ctx.n_classes
    out = {}
    if not np.isfinite(w.sum()):
        for f in feats:
            out[f] = categorical_candidate(X[rows, f], y_node, w, feature=f,
                                           n_categories=ctx.n_categories[f], n_classes=K,
                                           min_samples_leaf=ctx.min_samples_leaf)
        return out
    groups: dict[int, list] = {}
    for f in feats:
        table, missing = categorical_table(X[rows, f], y_node, w, ctx.n_categories[f], K)
        sizes = table.sum(axis=1)
        if sizes.sum() <= 0:
            out[f] = None
            continue
        full = _with_unknown_row(table, missing)  # c45_gain's and c45_split_information's
        V = table.shape[0]
        groups.setdefault(V if V + 1 > _SEQUENTIAL else 0, []).append(
            (f, table, missing, sizes, full, full[:-1].sum(), full.sum()))
    for key, members in groups.items():
        if key == 0:
            # Sums of fewer than 8 numbers are added one by one, so zero rows appended
            # to a table (before its unknown row) change none of them: the small tables
            # share one call.
            fulls = np.zeros((len(members), _SEQUENTIAL, K))
            for i, m in enumerate(members):
                fulls[i, :m[4].shape[0] - 1] = m[4][:-1]
                fulls[i, -1] = m[4][-1]
        else:
            fulls = np.stack([m[4] for m in members])
        gains = imp.information_gain(fulls[:, :-1], check=False)
        split_infos = imp.split_information(fulls, check=False)
        for (f, table, missing, sizes, _, known, total), g, si in zip(members, gains,
                                                                     split_infos):
            gain = float(known / total * g)
            si = float(si)
            out[f] = Candidate(f, NodeKind.MULTIWAY, gain, si, _ratio(gain, si), table,
                               missing, gain, admissible=np.count_nonzero(
                                   sizes >= ctx.min_samples_leaf - SMALL) >= 2)
    return out


def grow_c45(X, y, sample_weight, *, ctx: C45Context, node_impurity=imp.entropy,
             max_depth=None, missing="distribute", metadata=None):
    """Grow C4.5's tree: the tree of :func:`treebook.growers.recursive.grow_tree` with
    :func:`treebook.growers.c45_search.c45_split_finder`, from presorted lists.

    ``X``: the encoded training data (categorical codes, NaN unknown); ``y``: class
    codes; ``ctx``: the fit's :class:`treebook.growers.c45_search.C45Context`; ``missing``: the routing
    policy (name or object) for unknown values, as in ``grow_tree``; ``node_impurity``:
    the impurity of class counts, applied row by row to a ``(V, K)`` array of a split's
    children (as :func:`treebook.core.impurity.entropy` is).
    """
    X = np.ascontiguousarray(X, dtype=float)
    y = np.asarray(y, dtype=np.int64)
    policy = get_routing(missing)
    n, m = X.shape
    K = ctx.n_classes
    builder = TreeBuilder(is_regression=False)
    max_depth = np.inf if max_depth is None else max_depth
    numeric = np.array([f for f in range(m) if not ctx.categorical[f]], dtype=np.int64)
    cats = [f for f in range(m) if ctx.categorical[f]]

    def add(parent, rows, w):
        value = node_counts(y[rows], w, K)
        node = builder.add_node(parent, value, w.sum(), np.count_nonzero(w > 0),
                                float(node_impurity(value, check=False)))
        return node, np.count_nonzero(value > 0) <= 1

    def find(rows, w, avail, order, ptr):
        if w.sum() < 2 * ctx.min_samples_leaf:  # too little weight to make two branches
            return None
        total = float(w.sum())
        y_node = y[rows]
        cands = [None] * m
        for f, c in zip(numeric, _numeric_candidates(ctx, X, y_node, w, rows, order, ptr,
                                                     numeric, total)):
            cands[f] = c
        live = [f for f in cats if avail[f]]
        if ctx.binary_splits:
            found = {f: binary_categorical_candidate(
                X[rows, f], y_node, w, feature=f, n_categories=ctx.n_categories[f],
                n_classes=K, min_samples_leaf=ctx.min_samples_leaf) for f in live}
        else:
            found = _categorical_candidates(ctx, X, rows, y_node, w, live)
        for f in live:
            c = found[f]
            if c is not None:
                c.many_valued = ctx.many_valued[f]
            cands[f] = c
        best, _ = choose_candidate(cands)
        return None if best is None else best.to_split()

    rows0 = np.arange(n)
    w0 = np.asarray(sample_weight, dtype=float)
    order0, ptr0 = _sorted_lists(X, numeric)
    root, pure0 = add(-1, rows0, w0)
    stack = [(root, rows0, w0, 0, np.ones(m, dtype=bool), pure0, order0, ptr0)]
    while stack:
        node, rows, w, depth, avail, pure, order, ptr = stack.pop()
        if pure or depth >= max_depth or np.count_nonzero(w > 0) < 2 or not avail.any():
            continue
        split = find(rows, w, avail, order, ptr)
        if split is None or not split.score >= 0.0:
            continue
        branch, share, known_w = split.route_cases(X[rows, split.feature], w, policy)
        nb = split.n_branches
        is_missing = branch == FAN
        if np.count_nonzero(known_w > 0) < 2:
            continue
        builder.set_split(node, split.feature, split.kind, split.threshold, split.branch_of_code)
        child_avail = avail
        if split.kind == NodeKind.MULTIWAY:
            child_avail = avail.copy()
            child_avail[split.feature] = False
        out_ptr = np.zeros((nb, numeric.shape[0] + 1), dtype=np.int64)
        # a fanned case is in every child's lists
        n_fanned = int(np.count_nonzero(is_missing[order])) if np.any(is_missing) else 0
        out = np.empty(order.shape[0] + (nb - 1) * n_fanned, dtype=np.int64)
        partition_sorted_lists(order, ptr, numeric, X, rows, branch.astype(np.int64), nb,
                               out, out_ptr)
        parts = []
        for b in range(nb):
            parts.append(branch_cases(rows, w, branch, b, is_missing, share))
        # the children's statistics: each row of counts as grow_tree computes it, the
        # entropies in one numpy call (row by row the same arithmetic)
        values = np.stack([node_counts(y[c_rows], c_w, K) for c_rows, c_w in parts])
        impurity = node_impurity(values, check=False)
        children = []
        for b, (c_rows, c_w) in enumerate(parts):
            child = builder.add_node(node, values[b], c_w.sum(), np.count_nonzero(c_w > 0),
                                     float(impurity[b]))
            c_order = out[out_ptr[b, 0]:out_ptr[b, -1]]
            children.append((child, c_rows, c_w, depth + 1, child_avail,
                             np.count_nonzero(values[b] > 0) <= 1, c_order,
                             out_ptr[b] - out_ptr[b, 0]))
        stack.extend(reversed(children))
    return builder.build(**(metadata or {}))
