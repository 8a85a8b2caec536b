"""The multiway grower's compiled loops (ID3, CLS, C4.5-style learners): per-level
contingency tables, class counts, prefix counts for thresholds, and the routing of rows
to their branches (:mod:`treebook.growers.multiway`)."""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["contingency_tables", "prefix_counts", "node_class_counts", "route_rows",
           "group_rows"]

@njit(cache=True, nogil=True)
def contingency_tables(codes, y, w, rows, starts, n_categories, n_classes):
    """The weighted ``(node, category, class)`` contingency table of one feature.

    ``rows[starts[s]:starts[s + 1]]`` are the rows of node ``s``; ``table[s, c, k]`` is
    the sum of ``w[i]`` over its rows ``i`` with ``codes[i] == c`` and ``y[i] == k``,
    added in the order of ``rows`` (as ``np.bincount`` adds them).
    """
    n_nodes = starts.shape[0] - 1
    table = np.zeros((n_nodes, n_categories, n_classes))
    for s in range(n_nodes):
        for p in range(starts[s], starts[s + 1]):
            i = rows[p]
            table[s, codes[i], y[i]] += w[i]
    return table


@njit(cache=True, nogil=True)
def prefix_counts(x, y, w, order, starts, n_classes):
    """Running class counts along each node's value-sorted rows (a numeric feature).

    ``order[starts[s]:starts[s + 1]]`` are node ``s``'s rows sorted by ``x``. Returns
    ``xs[p] = x[order[p]]`` and ``prefix[p, k]``, the weight of class ``k`` among node
    ``s``'s rows up to and including position ``p`` (``np.cumsum`` of one-hot weights).
    """
    m = order.shape[0]
    xs = np.empty(m)
    prefix = np.empty((m, n_classes))
    for s in range(starts.shape[0] - 1):
        acc = np.zeros(n_classes)
        for p in range(starts[s], starts[s + 1]):
            i = order[p]
            xs[p] = x[i]
            acc[y[i]] += w[i]
            for k in range(n_classes):
                prefix[p, k] = acc[k]
    return xs, prefix


@njit(cache=True, nogil=True)
def node_class_counts(y, w, rows, starts, n_classes):
    """Each node's weighted class counts and its number of rows with positive weight."""
    n_nodes = starts.shape[0] - 1
    counts = np.zeros((n_nodes, n_classes))
    n_pos = np.zeros(n_nodes, dtype=np.int64)
    for s in range(n_nodes):
        for p in range(starts[s], starts[s + 1]):
            i = rows[p]
            counts[s, y[i]] += w[i]
            if w[i] > 0:
                n_pos[s] += 1
    return counts, n_pos


@njit(cache=True, nogil=True)
def route_rows(X, rows, starts, feature, is_threshold, threshold, branch_of_code,
               code_start, child_start, child_of_row):
    """Write each row's child into ``child_of_row`` (-1: its node was not split).

    Node ``s`` tests ``feature[s]`` (-1: no split): a threshold test sends ``x > t`` to
    branch 1 and the rest to branch 0; a multiway test sends code ``c`` to
    ``branch_of_code[code_start[s] + c]`` (-1: no branch, the row stays). The child is
    ``child_start[s] + branch``.
    """
    for s in range(starts.shape[0] - 1):
        f = feature[s]
        for p in range(starts[s], starts[s + 1]):
            i = rows[p]
            if f < 0:
                child_of_row[i] = -1
            elif is_threshold[s]:
                child_of_row[i] = child_start[s] + (1 if X[i, f] > threshold[s] else 0)
            else:
                b = branch_of_code[code_start[s] + np.int64(X[i, f])]
                child_of_row[i] = child_start[s] + b if b >= 0 else -1


@njit(cache=True, nogil=True)
def group_rows(group_of_row, items, n_groups):
    """Regroup a row list by ``group_of_row[row]``, stably; rows of group -1 are dropped.

    Returns the new list and its segment starts (a counting sort: each group's rows keep
    their order in ``items``).
    """
    counts = np.zeros(n_groups + 1, dtype=np.int64)
    for p in range(items.shape[0]):
        g = group_of_row[items[p]]
        if g >= 0:
            counts[g + 1] += 1
    for g in range(n_groups):
        counts[g + 1] += counts[g]
    out = np.empty(counts[n_groups], dtype=items.dtype)
    fill = counts[:n_groups].copy()
    for p in range(items.shape[0]):
        g = group_of_row[items[p]]
        if g >= 0:
            out[fill[g]] = items[p]
            fill[g] += 1
    return out, counts
