"""The level-wise grower for multiway learners: ID3, CLS and the criterion trees.

:func:`treebook.growers.recursive.grow_tree` visits one node at a time: for every node and every
feature it gathers the node's rows, builds a contingency table with ``np.bincount`` (a
categorical feature) or sorts the values and takes a prefix sum (a numeric one), then
scores it. This grower does the same work one *depth* at a time:

1. **Nodes as segments.** The open nodes of a depth hold their rows as consecutive
   segments of one row list, each segment in increasing row order (the order the
   recursive grower keeps them in). A numeric feature has its own list, presorted once
   by value (stable, so ties stay in row order), partitioned with the same segments.
2. **One pass per feature.** :func:`contingency_tables` walks the row list once and adds
   every row's weight into the ``(node, category, class)`` table; :func:`prefix_counts`
   walks a numeric feature's list once and writes each node's running class counts.
3. **The learner chooses.** Each node's tables go to the learner's own choice of test,
   the function its recursive split finder calls too (``finder.choose``), which scores
   them with :mod:`treebook.core.impurity`'s measures.
4. **Partition.** :func:`route_rows` sends each row to its child; :func:`group_rows`
   regroups every list by child, stably, so every segment stays in order.

Why the trees are identical to the recursive grower's: both add the same weights in the
same order (a node's rows in increasing row order, a numeric feature's rows sorted by
value with ties in row order; every sum sequential, as ``np.bincount`` and ``np.cumsum``
are), hand the same tables to the same choice function, and record each node's
statistics with the same calls (``w.sum()`` over the node's weights, the learner's node
impurity). Equality is tested on categorical and numeric data, fractional weights and
every stopping option (``tests/test_multiway_fast.py``).

Each kernel is one job, written as the plain loop it is, compiled by numba
(``cache=True``, ``nogil=True``, no ``parallel=True``); the Python loop runs over depths,
features and nodes, never over rows.
"""

from __future__ import annotations

import numpy as np

from ..core.tree import NodeKind, Tree, TreeBuilder
from ..kernels.multiway import (contingency_tables, group_rows, node_class_counts, prefix_counts,
                               route_rows)

__all__ = ["contingency_tables", "prefix_counts", "node_class_counts", "route_rows",
           "group_rows", "grow_multiway"]


def _level_cuts(xs, prefix, starts):
    """Every cut of every node of a numeric feature: ``(tables, lower, cut_starts)``.

    A cut lies between two adjacent sorted values ``xs[p] < xs[p + 1]`` of one node; its
    table is ``[left, known - left]`` with ``left = prefix[p]`` and ``known`` the node's
    last prefix row (what :func:`treebook.core.splits.threshold_tables` computes per node).
    Node ``s``'s cuts are ``cut_starts[s]:cut_starts[s + 1]``.
    """
    gt = xs[1:] > xs[:-1]
    gt[starts[1:-1] - 1] = False  # no cut across two nodes
    cut = np.flatnonzero(gt)
    node_of_cut = np.searchsorted(starts, cut, side="right") - 1
    left = prefix[cut]
    known = prefix[starts[1:] - 1]
    tables = np.stack([left, known[node_of_cut] - left], axis=1)
    return tables, xs[cut], np.searchsorted(cut, starts)


def grow_multiway(X, y, sample_weight, *, finder, is_categorical, n_categories, n_classes,
                  node_impurity, max_depth=None, min_samples_split=2, min_gain=0.0,
                  metadata=None) -> Tree:
    """Grow, depth by depth, the tree :func:`treebook.growers.recursive.grow_tree` grows with ``finder``.

    ``finder`` is a split finder of :func:`treebook.id3.id3_split_finder` or
    :func:`treebook.cls.cls_split_finder`: its ``finder.choose(candidates, class_counts,
    scores)`` picks the test from the tables of the node (a list of ``(feature, table,
    None)`` for a categorical feature, ``(feature, tables, lower)`` for a numeric one:
    every cut's ``(n_cuts, 2, K)`` tables and the value below each cut). When
    ``finder.batchable`` (the package's own measures), ``finder.score_tables`` scores
    the tables of all nodes of a depth in one call and ``scores`` passes them on;
    otherwise ``choose`` scores each node's tables itself. The other arguments are those
    of :func:`~treebook.growers.recursive.grow_tree`; data must have no missing values.
    """
    X = np.ascontiguousarray(X, dtype=float)
    n, m = X.shape
    y = np.ascontiguousarray(y, dtype=np.int64)
    w = np.ascontiguousarray(sample_weight, dtype=float)
    if np.isnan(X).any():
        raise ValueError("X has missing values; the level-wise multiway grower has no "
                         "rule for them (grower='recursive' reports where they are)")
    if hasattr(node_impurity, "node_impurity"):  # a criterion object
        criterion = node_impurity

        def node_impurity(counts, check=False):
            return criterion.node_impurity(counts)
    is_categorical = np.asarray(is_categorical, dtype=bool)
    # this package's measures score a stack of tables as they score each table alone, so
    # all nodes' tables are scored in one call (not when a total could overflow: then
    # the measures rescale the whole stack)
    batch = bool(getattr(finder, "batchable", False)) and float(w.sum()) < 1e300
    batch_impurity = batch and getattr(node_impurity, "__module__", "") == "treebook.core.impurity"
    max_depth = np.inf if max_depth is None else max_depth
    codes = {f: X[:, f].astype(np.int64) for f in range(m) if is_categorical[f]}
    builder = TreeBuilder(is_regression=False)
    child_of_row = np.full(n, -1, dtype=np.int64)

    def add(parent, rows_c, starts_c, depth, avail_of):
        """Record every child node; return the open ones' (builder id, depth, avail,
        counts) and their new group number per child (-1: a leaf)."""
        counts, n_pos = node_class_counts(y, w, rows_c, starts_c, n_classes)
        if batch_impurity:
            impurity = np.array(node_impurity(counts, check=False), dtype=float, ndmin=1)
        open_nodes, new_id = [], np.full(len(parent), -1, dtype=np.int64)
        for c in range(len(parent)):
            value = counts[c].copy()
            wsum = w[rows_c[starts_c[c]:starts_c[c + 1]]].sum()
            node_imp = (impurity[c] if batch_impurity
                        else node_impurity(value, check=False))
            node = builder.add_node(parent[c], value, wsum, int(n_pos[c]), float(node_imp))
            avail = avail_of[c]
            pure = np.count_nonzero(value > 0) <= 1
            if (pure or depth >= max_depth or n_pos[c] < min_samples_split
                    or not avail.any()):
                continue
            new_id[c] = len(open_nodes)
            open_nodes.append((node, avail, value))
        return open_nodes, new_id

    rows = np.arange(n, dtype=np.int64)
    starts = np.array([0, n], dtype=np.int64)
    nodes, new_id = add([-1], rows, starts, 0, [np.ones(m, dtype=bool)])
    orders = {f: np.argsort(X[:, f], kind="stable").astype(np.int64)
              for f in range(m) if not is_categorical[f]}
    depth = 0
    while nodes:
        n_nodes = len(nodes)
        needed = np.zeros(m, dtype=bool)
        for _, avail, _ in nodes:
            needed |= avail
        tables, scores, cuts = {}, {}, {}
        for f in np.flatnonzero(needed):
            if is_categorical[f]:
                tables[f] = contingency_tables(codes[f], y, w, rows, starts,
                                               int(n_categories[f]), n_classes)
                if batch:
                    scores[f] = np.array(finder.score_tables(tables[f]), dtype=float, ndmin=1)
            else:
                cuts[f] = _level_cuts(*prefix_counts(X[:, f], y, w, orders[f], starts,
                                                     n_classes), starts)
                if batch and cuts[f][0].shape[0]:
                    scores[f] = np.array(finder.score_tables(cuts[f][0]), dtype=float,
                                         ndmin=1)
        feature = np.full(n_nodes, -1, dtype=np.int64)
        is_thr = np.zeros(n_nodes, dtype=bool)
        threshold = np.zeros(n_nodes)
        child_start = np.zeros(n_nodes, dtype=np.int64)
        boc_parts, code_start, n_children = [], np.zeros(n_nodes, dtype=np.int64), 0
        parent_of_child, avail_of_child, boc_len = [], [], 0
        for s, (node, avail, value) in enumerate(nodes):
            candidates, given = [], []
            for f in np.flatnonzero(avail):
                if is_categorical[f]:
                    candidates.append((int(f), tables[f][s].copy(), None))
                    given.append(scores[f][s] if batch else None)
                else:
                    all_tables, lower, cut_starts = cuts[f]
                    a, b = cut_starts[s], cut_starts[s + 1]
                    candidates.append((int(f), all_tables[a:b].copy(), lower[a:b]))
                    given.append(scores[f][a:b] if batch and b > a else None)
            split = finder.choose(candidates, value, given if batch else None)
            if split is None or not split.score >= min_gain:
                continue
            feature[s] = split.feature
            child_start[s] = n_children
            n_children += split.n_branches
            if split.kind == NodeKind.THRESHOLD:
                is_thr[s] = True
                threshold[s] = split.threshold
                child_avail = avail
            else:
                code_start[s] = boc_len
                boc_parts.append(split.branch_of_code)
                boc_len += split.branch_of_code.shape[0]
                child_avail = avail.copy()
                child_avail[split.feature] = False  # a categorical attribute is used up
            builder.set_split(node, split.feature, split.kind, split.threshold,
                              split.branch_of_code)
            parent_of_child += [node] * split.n_branches
            avail_of_child += [child_avail] * split.n_branches
        if n_children == 0:
            break
        boc = np.concatenate(boc_parts) if boc_parts else np.zeros(1, dtype=np.int64)
        route_rows(X, rows, starts, feature, is_thr, threshold, boc.astype(np.int64),
                   code_start, child_start, child_of_row)
        rows_c, starts_c = group_rows(child_of_row, rows, n_children)
        depth += 1
        nodes, new_id = add(parent_of_child, rows_c, starts_c, depth, avail_of_child)
        if not nodes:
            break
        # the open children's groups, in order; every list is regrouped the same way
        child_of_row[rows] = -1
        child_of_row[rows_c] = np.repeat(new_id, np.diff(starts_c))
        rows, starts = group_rows(child_of_row, rows_c, len(nodes))
        orders = {f: group_rows(child_of_row, o, len(nodes))[0] for f, o in orders.items()}
        child_of_row[rows_c] = -1
    return builder.build(**(metadata or {}))
