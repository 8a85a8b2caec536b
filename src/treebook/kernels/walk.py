"""The prediction walks, compiled: each row from the root to the node where it stops.

:func:`walk_tree` walks any tree (``Tree.route(missing="stop")`` in numpy);
:func:`walk_thresholds` walks trees of binary tests (thresholds and category subsets)
with one packed 16-byte record per node, one row at a time
(:func:`treebook.core.tree.apply_binary` in numpy). :mod:`treebook.core.tree` calls them
with the tables each tree builds once (:func:`treebook.core.tree.walk_tables`).
"""

from __future__ import annotations

from numba import njit

__all__ = ["walk_tree", "walk_thresholds"]

@njit(cache=True, nogil=True)
def walk_tree(X, feature, is_threshold, threshold, children_ptr, children, code_ptr,
              branch_of_code, out):
    """The node where each row of ``X`` stops (the rule of ``Tree.route(missing="stop")``).

    At node ``i`` with ``f = feature[i]`` (``-1``: the row stops here — a leaf, or a node
    no training case reached), a threshold test sends the row to branch ``x_f > t``; a
    categorical test sends category code ``c`` to branch ``branch_of_code[code_ptr[i] +
    c]``, and the row stops when that is ``-1``, when ``c`` is not a code of the node, or
    when ``x_f`` is missing (NaN). Branch ``b`` of node ``i`` is node
    ``children[children_ptr[i] + b]``. One row at a time, to its stop: the loop over rows
    has no dependence between rows, so the processor overlaps one row's reads with the
    next one's (grouping rows by hand only added bookkeeping, measured in chapter 8).

    Whatever the tables hold, no read leaves an array: a feature past ``X``'s columns, a
    pointer or child id out of range stops the row at the node that holds it (a
    :class:`~treebook.core.tree.Tree` is validated so that none of this happens); with no
    nodes at all every row gets ``-1``."""
    n_nodes = feature.shape[0]
    n_cols = X.shape[1]
    n_children = children.shape[0]
    n_codes = branch_of_code.shape[0]
    if (n_nodes == 0 or is_threshold.shape[0] < n_nodes or threshold.shape[0] < n_nodes
            or children_ptr.shape[0] <= n_nodes or code_ptr.shape[0] <= n_nodes):
        out[:] = -1
        return
    for r in range(X.shape[0]):
        i = 0
        while True:
            f = feature[i]
            if f < 0 or f >= n_cols:
                break
            x = X[r, f]
            if x != x:  # missing (NaN): the row stops here
                break
            if is_threshold[i]:
                b = 1 if x > threshold[i] else 0
            else:
                width = code_ptr[i + 1] - code_ptr[i]
                if not (x > -1.0 and x < width):  # code int(x), truncated as numpy does
                    break
                at = code_ptr[i] + int(x)
                if at < 0 or at >= n_codes:
                    break
                b = branch_of_code[at]
                if b < 0:
                    break
            at = children_ptr[i] + b
            if at < 0 or at >= n_children or at >= children_ptr[i + 1]:
                break
            nxt = children[at]
            if nxt <= i or nxt >= n_nodes:  # ids grow along edges: the walk always ends
                break
            i = nxt
        out[r] = i


@njit(cache=True, nogil=True)
def walk_thresholds(X, packed, packed_threshold, subset_bits, out):
    """:func:`walk_tree` for a tree of binary tests (CART's) in depth-first pre-order,
    with one packed record per node (:func:`treebook.core.tree.walk_tables`).

    Node ``i``'s record is ``packed[i] = (t, f·2³² + r)``, its threshold read as a float
    through ``packed_threshold`` (the same memory); ``packed[i, 1] < 0``: rows stop here.
    Its left child is ``i + 1``, its right child ``r``. A threshold test sends the row
    right when ``x_f > t``; a subset test (``t`` is NaN) sends category code ``c`` right
    when bit ``c`` of ``subset_bits[i, 1]`` is set, left when only bit ``c`` of
    ``subset_bits[i, 0]`` is, and stops the row when neither is (no branch for ``c``).
    A missing value (NaN) stops the row.

    As in :func:`walk_tree`, no read leaves an array whatever the tables hold: a feature
    past ``X``'s columns, or a next node that is not larger than the current one or past
    the last, stops the row there; with no nodes every row gets ``-1``."""
    n_nodes = packed.shape[0]
    n_cols = X.shape[1]
    if (n_nodes == 0 or packed.shape[1] < 2 or packed_threshold.shape[0] < n_nodes
            or packed_threshold.shape[1] < 1 or subset_bits.shape[0] < n_nodes
            or subset_bits.shape[1] < 2):
        out[:] = -1
        return
    # one row at a time, to its stop; every step moves to a larger node id, so the walk
    # ends, and the record of a node's left child is usually in the same cache line
    for r in range(X.shape[0]):
        i = 0
        while True:
            v = packed[i, 1]
            if v < 0:
                break
            f = v >> 32
            if f >= n_cols:
                break
            x = X[r, f]
            if x != x:
                break
            t = packed_threshold[i, 0]
            right = v & 0xFFFFFFFF
            if t == t:
                nxt = right if x > t else i + 1
            elif x > -1.0 and x < 63.0:  # code int(x), truncated as numpy does
                c = int(x)
                if (subset_bits[i, 0] >> c) & 1:
                    nxt = right if (subset_bits[i, 1] >> c) & 1 else i + 1
                else:
                    break
            else:
                break
            if nxt <= i or nxt >= n_nodes:  # not a tree: ids grow along edges
                break
            i = nxt
        out[r] = i
