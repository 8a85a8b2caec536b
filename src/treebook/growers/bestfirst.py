"""Best-first growth: expand the most improving leaf first, up to ``max_leaf_nodes`` leaves.

The top-down grower (:func:`treebook.growers.recursive.grow_tree`) expands nodes depth-first: every
node that may be split is split. Growth limited to ``k`` leaves needs an order instead,
and the order scikit-learn uses (its ``BestFirstTreeBuilder``) is greedy::

    grow_best_first(D, k):
        root := a node holding D; find its best split and its improvement
        frontier := {root}                    (a priority queue by improvement)
        leaves := 1
        while the frontier is not empty and leaves < k:
            take the node t of largest improvement out of the frontier
            if t has no admissible split: it stays a leaf
            else: split t (leaves += 1); for each child: find its best split and
                  its improvement, and put it into the frontier
        every node left in the frontier stays a leaf

The *improvement* of a node's best split is the weighted impurity decrease
``(|D_t|/|D|)·(I(t) - |D_L|/|D_t|·I(L) - |D_R|/|D_t|·I(R))`` that CART's split finder
already reports as ``Split.score`` (:func:`treebook.growers.cart_search.cart_split_finder`); a node
that may not be split (pure, at ``max_depth``, fewer than ``min_samples_split`` rows,
no cut keeping ``min_samples_leaf`` rows each side, improvement below
``min_impurity_decrease``) enters the frontier with improvement 0 and stays a leaf. The
stopping rules are those of the depth-first grower, so with ``k`` at least the number
of leaves of the full tree, best-first growth builds the full tree.

Because the improvement is weighted by ``|D_t|/|D|``, improvements of nodes in different
branches are comparable: the total impurity of the leaves, ``Σ_t |D_t|/|D|·I(t)``,
drops by exactly the improvement at each expansion, so each step takes the largest
drop available. The ``k``-leaf tree is the full tree pruned back to the ``k - 1``
splits chosen greedily in that order (``tests/test_max_leaf_nodes.py`` checks exactly
this, against a brute-force pruning of the full tree).

**Ties.** scikit-learn keeps the frontier in a binary heap (C++ ``std::push_heap`` and
``std::pop_heap``, comparing improvements with ``<``); when two frontier nodes have
exactly the same improvement, which one the heap gives first depends on the heap's
layout. :class:`Frontier` is the same heap, operation for operation, as the GNU C++
library implements it (the library of scikit-learn's Linux wheels), so ties are broken
as scikit-learn breaks them there. Children are pushed left, then right.

Splits with more than two branches (a multiway split adds ``V - 1`` leaves) are allowed:
a node whose split would take the tree past ``k`` leaves stays a leaf. Missing values
are routed as in :func:`treebook.growers.recursive.grow_tree` (``missing=``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .recursive import NodeStats, SplitFinder
from ..core.splits import FAN, Split, get_routing
from ..core.tree import NodeKind, Tree, TreeBuilder

__all__ = ["grow_best_first", "Frontier"]


class Frontier:
    """A max-priority queue of ``(priority, item)`` laid out exactly as the GNU C++
    library's ``std::push_heap`` / ``std::pop_heap`` lay out a binary heap with the
    comparison ``a < b`` (libstdc++ ``bits/stl_heap.h``): ties between equal priorities
    come out in the same order as in scikit-learn's best-first builder.

    >>> f = Frontier()
    >>> for p, name in [(1.0, "a"), (3.0, "b"), (2.0, "c")]:
    ...     f.push(p, name)
    >>> [f.pop()[1] for _ in range(len(f))]
    ['b', 'c', 'a']
    """

    def __init__(self):
        self._heap: list[tuple[float, object]] = []

    def __len__(self) -> int:
        return len(self._heap)

    def _sift_up(self, hole: int, top: int, entry) -> None:
        # libstdc++ __push_heap: move the parent down while parent < entry
        h = self._heap
        parent = (hole - 1) // 2
        while hole > top and h[parent][0] < entry[0]:
            h[hole] = h[parent]
            hole = parent
            parent = (hole - 1) // 2
        h[hole] = entry

    def push(self, priority: float, item) -> None:
        """``heap.push_back(entry); std::push_heap(begin, end, less)``."""
        self._heap.append(None)
        self._sift_up(len(self._heap) - 1, 0, (float(priority), item))

    def pop(self):
        """``std::pop_heap(begin, end, less); entry = heap.back(); heap.pop_back()``:
        the entry of largest priority, as ``(priority, item)``."""
        h = self._heap
        if not h:
            raise IndexError("pop from an empty Frontier")
        n = len(h)
        if n > 1:
            # __pop_heap: the last entry is re-inserted from the root's hole
            value, h[n - 1] = h[n - 1], h[0]
            length, hole = n - 1, 0
            second = 0
            while second < (length - 1) // 2:  # __adjust_heap
                second = 2 * (second + 1)
                if h[second][0] < h[second - 1][0]:
                    second -= 1
                h[hole] = h[second]
                hole = second
            if length % 2 == 0 and second == (length - 2) // 2:
                second = 2 * (second + 1)
                h[hole] = h[second - 1]
                hole = second - 1
            self._sift_up(hole, 0, value)
        return h.pop()


@dataclass
class _Open:
    """A node in the frontier: its rows, weights, depth, features, and its best split
    (None: it stays a leaf) with where each case goes."""

    node: int
    rows: np.ndarray
    w: np.ndarray
    depth: int
    available: np.ndarray
    split: Split | None = None
    branch: np.ndarray | None = None
    share: np.ndarray | None = None


def grow_best_first(
    X: np.ndarray,
    y: np.ndarray,
    sample_weight: np.ndarray,
    *,
    max_leaf_nodes: int,
    find_split: SplitFinder,
    node_stats,
    n_classes: int,
    max_depth: int | None = None,
    min_samples_split: int = 2,
    min_gain: float = -np.inf,
    missing="error",
    available: np.ndarray | None = None,
    metadata: dict | None = None,
    column=None,
) -> Tree:
    """Grow a tree best-first until it has ``max_leaf_nodes`` leaves (see the module
    docstring).

    The arguments are those of :func:`treebook.growers.recursive.grow_tree` — the learner's
    ``find_split`` (whose ``Split.score`` is the priority: CART's weighted impurity
    improvement), its ``node_stats(rows, w) -> NodeStats`` (required here), the stopping
    rules ``max_depth``, ``min_samples_split`` and ``min_gain`` (a split scoring less is
    not made), the ``missing`` routing policy and the ``available`` features — plus
    ``max_leaf_nodes``, an int >= 2. ``column(rows, feature)``: the values of one
    feature at the given rows, to route them by the chosen split (default
    ``X[rows, feature]``; a ``scipy.sparse`` ``X`` passes its own, as
    :func:`treebook.growers.sparse.grow_sparse_cart` does, with its own ``find_split``).
    """
    if isinstance(max_leaf_nodes, bool) or not isinstance(max_leaf_nodes, (int, np.integer)) \
            or max_leaf_nodes < 2:
        raise ValueError(f"max_leaf_nodes must be an int >= 2; got {max_leaf_nodes!r}")
    policy = None if missing == "error" else get_routing(missing)
    n, m = X.shape
    if column is None:
        def column(rows, feature):
            return X[rows, feature]
    builder = TreeBuilder(is_regression=n_classes == 0)
    max_depth = np.inf if max_depth is None else max_depth

    def open_node(parent: int, rows, w, depth: int, avail, expandable: bool) -> _Open:
        """Add the node to the tree as a leaf and, if it may grow, find its split."""
        s = NodeStats(*node_stats(rows, w))
        n_pos = np.count_nonzero(w > 0)
        node = builder.add_node(parent, s.value, s.weighted_n, n_pos, s.impurity)
        rec = _Open(node, rows, w, depth, avail)
        if (not expandable or s.pure or depth >= max_depth or n_pos < min_samples_split
                or not avail.any()):
            return rec
        split = find_split(X, y, w, rows, avail)
        if split is None or not split.score >= min_gain:
            return rec
        branch, share, known_w = split.route_cases(column(rows, split.feature), w,
                                                   policy or "stop")
        if policy is None and np.any(branch < 0):
            raise ValueError(
                f"feature {split.feature} has missing values at a node, but this learner "
                "does not handle missing values")
        if np.count_nonzero(known_w > 0) < 2:
            return rec  # the split separates nothing: stay a leaf
        rec.split, rec.branch, rec.share = split, branch, share
        return rec

    def priority(rec: _Open) -> float:
        return float(rec.split.score) if rec.split is not None else 0.0

    avail0 = np.ones(m, dtype=bool) if available is None else np.asarray(available, bool).copy()
    frontier = Frontier()
    root = open_node(-1, np.arange(n), np.asarray(sample_weight, dtype=float), 0, avail0, True)
    frontier.push(priority(root), root)
    leaves = 1
    while frontier and leaves < max_leaf_nodes:
        _, rec = frontier.pop()
        split = rec.split
        if split is None or leaves + split.n_branches - 1 > max_leaf_nodes:
            continue  # stays a leaf
        builder.set_split(rec.node, split.feature, split.kind, split.threshold,
                          split.branch_of_code)
        leaves += split.n_branches - 1
        child_avail = rec.available
        if split.kind == NodeKind.MULTIWAY:
            child_avail = rec.available.copy()
            child_avail[split.feature] = False  # a categorical attribute is used up
        is_missing = rec.branch == FAN
        children = []
        for b in range(split.n_branches):
            sel = rec.branch == b
            c_rows, c_w = rec.rows[sel], rec.w[sel]
            if np.any(is_missing):
                c_rows = np.concatenate([c_rows, rec.rows[is_missing]])
                c_w = np.concatenate([c_w, rec.w[is_missing] * rec.share[b]])
            # once the tree has its k leaves no child can grow: skip its split search
            children.append(open_node(rec.node, c_rows, c_w, rec.depth + 1, child_avail,
                                      leaves < max_leaf_nodes))
        for child in children:
            frontier.push(priority(child), child)
        rec.rows = rec.w = rec.branch = None  # the children hold the cases now
    return builder.build(**(metadata or {}))
