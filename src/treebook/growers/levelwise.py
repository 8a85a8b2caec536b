"""The fast exact grower: all nodes of one depth split together, from one presort.

The recursive grower (:func:`treebook.growers.recursive.grow_tree`) sorts the cases of every node for
every feature: ``O(n log n)`` per node and feature, and Python work per node. This grower
does what SLIQ {cite}`mehta1996` and SPRINT {cite}`shafer1996` do with their *presorted
attribute lists*, in numpy:

1. **Presort once.** For each feature, an *attribute list*: one ``int64`` per row,
   sorted by the feature's value, packing the row id, the value's dense rank and (two
   classes) the row's class (:func:`treebook.growers.attribute_lists.presort`). The compiled scan's lists take half
   that: one ``uint32`` with the row id, a "new value starts here" bit, the ``close``
   bit and the class (:func:`treebook.kernels.cart.pack_list`).
2. **Nodes as segments.** At every depth the open nodes' rows lie in each list as
   consecutive segments, the same segments for every feature, each sorted by value.
3. **Score every cut of every node at once.** Cumulative sums of the class weights
   along a list, restarted from zero at each segment, give the left counts of every cut
   of every node; :mod:`treebook.core.splits`' CART scores turn them into scores; a segmented maximum
   (``np.maximum.reduceat``) picks each node's best cut. The Python loop runs over
   features and depths, never over nodes or rows.
4. **Stable partition.** Each node sends its rows left or right. The left rows of a
   whole list, taken in order, then the right ones, keep every child's rows sorted; the
   children's sizes are known, so where each child's block goes is the same for every
   feature. No list is sorted again.

Categorical columns are searched node by node with the recursive grower's subset search
(Breiman's order for two classes and regression; every subset, or the orders by each
class, for three or more), on each node's rows in increasing order, which a row-id list
partitioned with the others provides. The result
equals the recursive grower's tree: the same cut candidates (a cut lies between sorted
neighbours ``v < v'`` with ``v' > v + 1e-7``), the same scores, the same tie rule (scores
within a relative ``1e-12`` tie; the first feature in column order wins, then the
smallest threshold), the same node statistics summed in the same order, and the same
prefix sums: each node's start from zero and add its rows in the recursive grower's order
(the presort is stable, so tied values keep row order), never one running sum over the
whole list minus an offset, whose rounding grows with the level's total weight. So the
trees are identical bit for bit with fractional weights and in regression too, where
two features whose cuts tie to within ``1e-12`` are decided alike.

**Missing values** (``missing="learn"``, scikit-learn's rule, as
:func:`treebook.growers.cart_search.cart_split_finder`): NaN sorts after every known value with a rank
of its own, so in each node's segment the missing rows are the last block, and the
stable partition keeps them there. The block's weights are the node's minus the running
sums at its last known position; each cut is scored with the block on the right (the
usual score) and on the left, and the cut after the last known value is the split known
| missing (threshold +inf), in scikit-learn's order of candidates. The tree's
``missing_go`` records the side.

**Engines.** ``engine="numpy"`` is the reference: every step above in whole-array numpy
operations. ``engine="compiled"`` (the default) runs the scan, the subset search and the
partition as the loops of :mod:`treebook.kernels.cart` (chapter 8), which add the same numbers
in the same order, so both engines build the same tree bit for bit.

Indices are ``intp`` wherever an array indexes another: numpy converts a narrower index
array on every gather, which costs more than the memory saved.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.criteria import GINI, SQUARED_ERROR, get_criterion
from ..core.cart_scores import IMPURITY_TOLERANCE, midpoint_threshold
from ..core.splits import node_summaries, summaries_from_sums
from ..core.tree import NodeKind, Tree, apply_binary
from ..kernels import cart as kernels
from .attribute_lists import NO_LABELS, NO_Y, partition_lists, presort, rows_going_right
from .levelwise_scan import Level, LevelData, choose_cuts, features_per_node

__all__ = ["grow_levelwise", "apply_binary", "node_summaries"]


class _Nodes:
    """The grown nodes, level by level (ids in creation order), before pre-ordering.

    Each level is kept as the arrays it was computed in (no per-node Python work); the
    tree's arrays are made once, at the end, one at a time, each level's arrays dropped
    as soon as they are copied (so the peak is about one tree, not two)."""

    def __init__(self, n_out: int, compiled: bool = False):
        self.parent, self.value = [], []
        self.weighted_n, self.n_samples, self.impurity = [], [], []
        self.level_size = []  # level d holds the nodes of depth d
        self.n_out = n_out
        self.compiled = compiled  # renumber with kernels.preorder (else array operations)
        self.count = 0
        self.split_ids, self.split_feature, self.split_threshold, self.split_left = [], [], [], []
        self.codes = {}  # SUBSET nodes: node id -> branch_of_code

    def add(self, parent, depth, value, W, n, impurity) -> np.ndarray:
        k = int(np.shape(W)[0])
        if depth != len(self.level_size):
            raise ValueError("nodes are added one depth at a time, root first")
        ids = np.arange(self.count, self.count + k)
        self.count += k
        self.level_size.append(k)
        self.parent.append(np.asarray(parent, dtype=np.int64))
        self.value.append(np.asarray(value, dtype=float).reshape(k, self.n_out))
        self.weighted_n.append(np.asarray(W, dtype=float))
        self.n_samples.append(np.asarray(n, dtype=np.int64))
        self.impurity.append(np.asarray(impurity, dtype=float))
        return ids

    def split(self, ids, feature, threshold, left_child, codes=None) -> None:
        """Record the tests of nodes ``ids``; ``codes``: for each, its ``branch_of_code``
        (a SUBSET split) or None (a threshold)."""
        self.split_ids.append(ids)
        self.split_feature.append(feature)
        self.split_threshold.append(threshold)
        self.split_left.append(left_child)
        if codes is not None:
            for i, c in zip(np.asarray(ids).tolist(), codes):
                if c is not None:
                    self.codes[i] = np.asarray(c, dtype=np.int64)

    def _preorder(self, left) -> np.ndarray:
        """``pre[i]``: node ``i``'s id in depth-first pre-order, left before right
        (``left[i]``: its left child, the right one is ``left[i] + 1``; -1 at a leaf)."""
        N = self.count
        pre = np.zeros(N, dtype=np.int64)
        if self.compiled:
            kernels.preorder(left, pre, np.empty(len(self.level_size) + 2, dtype=np.int64))
            return pre
        is_split = left >= 0
        # subtree sizes bottom-up: children always have larger ids than their parent
        size = np.ones(N, dtype=np.int64)
        levels = np.split(np.arange(N), np.cumsum(self.level_size)[:-1])
        for ids in reversed(levels):
            s = ids[is_split[ids]]
            size[s] += size[left[s]] + size[left[s] + 1]
        for ids in levels:
            s = ids[is_split[ids]]
            pre[left[s]] = pre[s] + 1
            pre[left[s] + 1] = pre[s] + 1 + size[left[s]]
        return pre

    def _take(self, name: str, inv) -> np.ndarray:
        """Field ``name`` of every node, in the new order; its level arrays are dropped."""
        parts = getattr(self, name)
        setattr(self, name, None)
        flat = np.concatenate(parts) if len(parts) > 1 else parts[0]
        del parts
        return flat[inv]

    def tree(self, is_regression: bool, metadata: dict) -> Tree:
        """Renumber in depth-first pre-order (left before right) and freeze, with the
        same arrays and dtypes as :meth:`treebook.core.tree.TreeBuilder.build`. Call once."""
        N = self.count
        left = np.full(N, -1, dtype=np.int64)  # left child (the right one is left + 1)
        if self.split_ids:
            s_ids = np.concatenate(self.split_ids)
            left[s_ids] = np.concatenate(self.split_left)
        pre = self._preorder(left)
        inv = np.empty(N, dtype=np.int64)
        inv[pre] = np.arange(N)  # inv[new id] = old id
        l_new = left[inv]  # the left child's old id, in the new order
        del left
        split_new = l_new >= 0
        children = np.empty((int(np.count_nonzero(split_new)), 2), dtype=np.int64)
        children[:, 0] = pre[l_new[split_new]]
        children[:, 1] = pre[l_new[split_new] + 1]
        del l_new
        children_ptr = np.zeros(N + 1, dtype=np.int64)
        np.cumsum(split_new, out=children_ptr[1:])
        children_ptr *= 2
        parent = self._take("parent", inv)
        np.copyto(parent, pre[np.maximum(parent, 0)], where=parent >= 0)
        kind = np.where(split_new, NodeKind.THRESHOLD, NodeKind.LEAF).astype(np.int8)
        del split_new
        code_ptr = np.zeros(N + 1, dtype=np.int64)
        branch_of_code = np.empty(0, dtype=np.int64)
        if self.codes:
            old = np.fromiter(self.codes, dtype=np.int64)
            kind[pre[old]] = NodeKind.SUBSET
            n_codes = np.zeros(N, dtype=np.int64)
            n_codes[pre[old]] = [c.size for c in self.codes.values()]
            code_ptr[1:] = np.cumsum(n_codes)
            subset_new = np.sort(pre[old])
            branch_of_code = np.concatenate([self.codes[int(inv[i])] for i in subset_new])
        del pre
        feature = np.full(N, -1, dtype=np.int64)
        threshold = np.full(N, np.nan)
        if self.split_ids:
            feature[s_ids] = np.concatenate(self.split_feature)
            threshold[s_ids] = np.concatenate(self.split_threshold)
            del s_ids
        self.split_ids = self.split_feature = self.split_threshold = self.split_left = None
        feature = feature[inv]
        threshold = threshold[inv]
        depth = np.repeat(np.arange(len(self.level_size), dtype=np.int64),
                          self.level_size)[inv]
        return Tree(
            kind=kind,
            feature=feature,
            threshold=threshold,
            children_ptr=children_ptr,
            children=children.ravel(),
            code_ptr=code_ptr,
            branch_of_code=branch_of_code.astype(np.int64),
            parent=parent,
            depth=depth,
            value=self._take("value", inv),
            weighted_n=self._take("weighted_n", inv),
            n_samples=self._take("n_samples", inv),
            impurity=self._take("impurity", inv),
            is_regression=is_regression,
            **metadata,
        )


def _child_summaries(alive, n_alive: int, node_of_row, go_right, has_cut, data: LevelData,
                     J: int):
    """The children's statistics of one level (:func:`treebook.core.splits.node_summaries`'s
    numbers) by :func:`treebook.kernels.cart.child_sums`, which also drops the rows of nodes
    without a cut from ``alive[:n_alive]``, in place."""
    K = data.K
    counts = np.zeros(2 * J, dtype=np.int64)
    W = np.zeros(2 * J)
    S1 = np.zeros(2 * J if data.regression else 1)
    S2 = np.zeros_like(S1)
    flat = np.zeros(1 if data.regression else 2 * J * K)
    k = kernels.child_sums(alive, n_alive, node_of_row, go_right, has_cut,
                           NO_LABELS if data.regression else data.y,
                           data.y if data.regression else NO_Y, data.w, data.unit, K,
                           counts, W, S1, S2, flat)
    if data.unit:
        W = counts.astype(float)

    def rows():  # only for nodes whose variance is rounding residue
        r = alive[:k]
        keys = 2 * node_of_row[r].astype(np.intp) + go_right[r]
        return keys, data.y[r], None if data.unit else data.w[r]

    return summaries_from_sums(counts, W, (S1, S2) if data.regression else flat, K,
                               data.crit, rows)


def grow_levelwise(
    X: np.ndarray,
    y: np.ndarray,
    sample_weight: np.ndarray,
    *,
    n_classes: int,
    criterion=None,
    max_depth: int | None = None,
    min_samples_split: int = 2,
    min_samples_leaf: int = 1,
    min_impurity_decrease: float = 0.0,
    metadata: dict | None = None,
    max_features: int | None = None,
    seed: int = 0,
    min_weight_leaf: float = 0.0,
    categorical=None,
    n_categories=None,
    subset_split=None,
    max_exhaustive_categories: int = 12,
    engine: str = "compiled",
    missing: str = "error",
    learn_split=None,
    feature_order=None,
) -> Tree:
    """Grow a CART tree level by level (see the module docstring).

    Parameters are CART's (:class:`treebook.cart.CARTClassifier`); ``criterion`` is a
    name in :data:`treebook.core.criteria.CRITERIA` or a criterion (default ``"gini"``, or
    ``"squared_error"`` when ``n_classes=0`` means regression). Rows with zero weight take no part, as in
    scikit-learn. A node is a leaf when its depth is ``max_depth``, it has fewer than
    ``max(min_samples_split, 2·min_samples_leaf)`` rows, its impurity is
    ``<= IMPURITY_TOLERANCE``,
    no cut leaves ``min_samples_leaf`` rows on both sides, or the best cut's weighted
    improvement ``(|D|/|D_root|)·(I(D) - |D_1|/|D|·I(D_1) - |D_2|/|D|·I(D_2))`` plus
    ``IMPURITY_TOLERANCE`` is below ``min_impurity_decrease``.

    ``feature_order`` (a permutation of the columns, default column order) is the order in
    which each node's features are scanned: between features whose best cuts tie, the
    first in that order wins (:func:`treebook.growers.cart_search.cart_split_finder` uses
    the same order).

    ``categorical`` (a mask over the columns) marks columns of category codes ``0 …
    n_categories[f] - 1``; each open node searches them with ``subset_split`` (CART's
    subset search, :func:`treebook.growers.subsets.subset_candidates`, which
    :func:`treebook.growers.cart_search.grow_cart` passes), on its rows in increasing order, so the
    split is the recursive grower's; the compiled engine runs the same search in
    :func:`treebook.kernels.cart.scan_subsets` (Gini and squared error, fewer than 8 classes;
    every subset up to ``max_exhaustive_categories`` present categories). ``engine="compiled"`` scores Gini and squared-error
    cuts and partitions the lists with :mod:`treebook.kernels.cart`; ``"numpy"`` is the
    reference, in array operations only; both build the same tree bit for bit.

    ``missing="learn"`` accepts missing values (NaN) with scikit-learn's rule (as
    :func:`treebook.growers.cart_search.cart_split_finder`): they sort last in every attribute list, a
    node with missing values of a feature also tries each cut with them on the left and
    the split known | missing (threshold +inf), and the tree's ``missing_go`` keeps the
    side chosen (-1 where a node saw none). Categorical columns with missing values are
    searched with ``learn_split`` (:func:`treebook.growers.cart_search.learn_candidates`) at the nodes
    that have some. ``"error"`` (the default) refuses them.
    """
    growth = _Growth(X, y, sample_weight, n_classes=n_classes, criterion=criterion,
                     max_depth=max_depth, min_samples_split=min_samples_split,
                     min_samples_leaf=min_samples_leaf,
                     min_impurity_decrease=min_impurity_decrease, max_features=max_features,
                     seed=seed, min_weight_leaf=min_weight_leaf, categorical=categorical,
                     n_categories=n_categories, subset_split=subset_split,
                     max_exhaustive_categories=max_exhaustive_categories, engine=engine,
                     missing=missing, learn_split=learn_split, feature_order=feature_order)
    if not growth.root_is_leaf():
        growth.presort()
        while growth.open_ids.size:
            level = growth.level()
            cuts = growth.choose_cuts(level)           # each open node's best cut
            if not cuts.has_cut.any():
                break
            growth.mark_sides(cuts, level)             # which rows go right; thresholds
            kids = growth.child_summaries(cuts)        # the children's statistics
            split = growth.improving(cuts, kids)       # the cuts that improve enough
            if not split.any():
                break
            if not growth.record_and_advance(cuts, kids, split, level):
                break                                  # no child is open
        level = cuts = kids = None                     # dropped before the tree is made
    return growth.tree(metadata)


@dataclass
class _Cuts:
    """One level's chosen cuts: per open node the feature (-1: none), the cut position in
    its attribute list, the subset codes (categorical), the side of its missing rows."""

    best_f: np.ndarray
    best_p: np.ndarray
    codes: list
    best_go: np.ndarray | None
    has_cut: np.ndarray
    cut_nodes: np.ndarray
    feat: np.ndarray | None = None
    thr: np.ndarray | None = None


@dataclass
class _Children:
    """The two children of every open node (slots ``2j``, ``2j + 1``): value, weight,
    row count, impurity; ``key``: each row's slot (the numpy engine's, reused to advance)."""

    value: np.ndarray
    W: np.ndarray
    n: np.ndarray
    imp: np.ndarray
    key: np.ndarray | None = None


class _Growth:
    """The state of one level-wise growth; its methods are the steps of
    :func:`grow_levelwise`, in the order the driver calls them."""

    def __init__(self, X, y, sample_weight, *, n_classes, criterion, max_depth,
                 min_samples_split, min_samples_leaf, min_impurity_decrease, max_features,
                 seed, min_weight_leaf, categorical, n_categories, subset_split,
                 max_exhaustive_categories, engine, missing, learn_split, feature_order=None):
        """Check the inputs, drop zero-weight rows, and make the root."""
        self.feature_order = feature_order
        if engine not in ("compiled", "numpy"):
            raise ValueError(f"engine must be 'compiled' or 'numpy'; got {engine!r}")
        X = np.asarray(X, dtype=float)
        w = np.asarray(sample_weight, dtype=float)
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D; got shape {X.shape}")
        if missing not in ("error", "learn"):
            raise ValueError(f"missing must be 'error' or 'learn'; got {missing!r}")
        if np.isinf(X).any() or (missing == "error" and np.isnan(X).any()):
            raise ValueError("the level-wise grower needs finite numeric features (no inf; "
                             "NaN only with missing='learn')")
        categorical = (np.zeros(X.shape[1], dtype=bool) if categorical is None
                       else np.asarray(categorical, dtype=bool))
        if categorical.shape != (X.shape[1],):
            raise ValueError(f"categorical must have one entry per column ({X.shape[1]}); "
                             f"got shape {categorical.shape}")
        if categorical.any() and (subset_split is None or n_categories is None):
            raise ValueError("categorical columns need subset_split and n_categories "
                             "(grow them through treebook.growers.cart_search.grow_cart)")
        if np.any(w == 0):
            keep = w > 0
            X, y, w = X[keep], np.asarray(y)[keep], w[keep]
        n, m = X.shape
        self.regression = regression = n_classes == 0
        self.K = K = n_classes
        if criterion is None:
            criterion = "squared_error" if regression else "gini"
        self.crit = get_criterion(criterion, regression=regression)
        self.compiled = engine == "compiled"
        self.scan_compiled = self.compiled and self.crit in (GINI, SQUARED_ERROR)
        self.max_depth = np.inf if max_depth is None else max_depth
        self.msl = int(min_samples_leaf)
        self.mss = max(int(min_samples_split), 2 * self.msl)
        self.mwl = float(min_weight_leaf)
        self.min_impurity_decrease = min_impurity_decrease
        self.unit = bool(np.all(w == 1.0))
        self.y = (np.asarray(y, dtype=float) if regression else
                  np.asarray(y).astype(np.int8 if K <= 127 else np.int64))
        self.ybits = 1 if K == 2 else 0
        if n >= 2**29:
            raise ValueError("the level-wise grower handles fewer than 2**29 rows")
        self.X, self.w, self.n = X, w, n
        self.categorical, self.n_categories = categorical, n_categories
        self.subset_split, self.learn_split = subset_split, learn_split
        self.max_exhaustive = int(max_exhaustive_categories)
        self.max_features, self.seed, self.missing = max_features, seed, missing
        self.nodes = _Nodes(1 if regression else K, compiled=self.compiled)
        # the root: node sums with unit weights are counts (the same numbers)
        value, W, ns, impurity = node_summaries(np.zeros(n, np.intp), self.y,
                                                None if self.unit else w, 1, K, self.crit)
        self.W_root = float(W[0])
        self.nodes.add([-1], 0, value, W, ns, impurity)
        self.root = (ns[0], impurity[0])
        self.open_value, self.open_W, self.open_imp = value, W, impurity
        self.open_ids = np.array([0])
        self.depth = 0
        self.missing_go_of = {}  # split node id (creation order) -> where its missing rows go
        self.has_missing = False

    def root_is_leaf(self) -> bool:
        ns, impurity = self.root
        return bool(0 >= self.max_depth or ns < self.mss or impurity <= IMPURITY_TOLERANCE
                    or self.W_root < 2 * self.mwl)

    def presort(self) -> None:
        """Build the attribute lists once, and the buffers every level reuses."""
        X, categorical, n = self.X, self.categorical, self.n
        numeric = np.flatnonzero(~categorical)
        self.columns = np.full(X.shape[1], -1, dtype=np.int64)  # feature -> its list
        self.columns[numeric] = np.arange(numeric.size)
        # missing values (missing="learn") in a numeric column: the int64 lists, which give
        # NaN a rank of its own (the packed lists have no room for it)
        nan_numeric = self.missing == "learn" and bool(np.isnan(X[:, numeric]).any())
        missing_rank = [] if self.missing == "learn" else None
        self.lists, self.reach = presort(X, self.y, self.ybits, numeric.tolist(), missing_rank,
                                         packed=self.scan_compiled and not nan_numeric)
        # the rank of NaN in each list, and what each split did with the missing rows
        if missing_rank is not None and max(missing_rank, default=-1) < 0:
            missing_rank = None
        self.missing_rank = missing_rank
        self.has_missing = missing_rank is not None or (
            self.missing == "learn" and bool(np.isnan(X[:, categorical]).any()))
        if self.has_missing and categorical.any() and self.learn_split is None:
            raise ValueError("categorical columns with missing values need learn_split "
                             "(grow them through treebook.growers.cart_search.grow_cart)")
        # the open nodes' rows, in increasing order within each node: a list partitioned
        # like the others (categorical subsets, and max_features when no column is numeric)
        self.need_rows = bool(categorical.any()) or numeric.size == 0
        if self.need_rows:
            self.lists.append(np.arange(n, dtype=np.int32))
        self.data = LevelData(y=self.y, w=self.w, unit=self.unit, regression=self.regression,
                              K=self.K, ybits=self.ybits, msl=self.msl, mwl=self.mwl,
                              crit=self.crit, compiled_subsets=self.scan_compiled and self.K < 8,
                              max_exhaustive=self.max_exhaustive, X=X)
        self.spare = ({P.dtype.char: np.empty(n, dtype=P.dtype) for P in self.lists}
                      if self.compiled else None)  # partition targets, one per list layout
        self.scratch = None
        if self.scan_compiled:  # the scan's scores (one per position) and class sums
            self.scratch = [np.empty(n), np.zeros(max(self.K, 1)), np.zeros(max(self.K, 1))]
        self.seg_len = np.array([n], dtype=np.int64)
        self.node_of_row = np.zeros(n, dtype=np.int32)  # open-node index of each row, -1 closed
        self.alive = np.arange(n, dtype=np.int32)  # rows in open nodes, increasing
        self.n_alive = n  # the compiled engine keeps them in alive[:n_alive]
        self.go_right = np.zeros(n, dtype=np.int8)

    def level(self) -> Level:
        """The open nodes of this depth as segments of the attribute lists."""
        return Level.of(self.seg_len, self.open_value, self.open_W, self.data,
                        full=not self.scan_compiled)

    def choose_cuts(self, level: Level) -> _Cuts:
        """Score every cut of every open node, feature by feature; keep each node's best."""
        rows = self.lists[-1] if self.need_rows else None
        allowed = (None if self.max_features is None else
                   features_per_node(self.X, self.lists, level, self.max_features, self.seed,
                                     self.columns, rows, self.categorical))
        chosen = choose_cuts(
            self.lists, self.reach, level, self.data, allowed, X=self.X, columns=self.columns,
            categorical=self.categorical if self.need_rows else None,
            rows=rows, subset_split=self.subset_split, n_categories=self.n_categories,
            compiled=self.scan_compiled, scratch=self.scratch, missing_rank=self.missing_rank,
            learn_split=self.learn_split if self.has_missing else None,
            feature_order=self.feature_order)
        best_f, best_p, codes = chosen[:3]
        has_cut = best_f >= 0
        return _Cuts(best_f, best_p, codes, chosen[3] if self.has_missing else None, has_cut,
                     np.flatnonzero(has_cut))

    def mark_sides(self, cuts: _Cuts, level: Level) -> None:
        """Partition step, first half: ``go_right`` of every row of a cut node, and the
        cuts' thresholds (midpoints of the two values either side; +inf for known |
        missing)."""
        X = self.X
        lower_row, upper_row = rows_going_right(
            self.lists, cuts.best_f, cuts.best_p, cuts.cut_nodes, level, self.go_right,
            self.columns, cuts.codes if self.need_rows else None, X,
            self.lists[-1] if self.need_rows else None, self.compiled, cuts.best_go)
        feat = cuts.best_f[cuts.cut_nodes]
        num_cut = lower_row >= 0
        thr = np.full(cuts.cut_nodes.size, np.nan)
        thr[num_cut] = midpoint_threshold(X[lower_row[num_cut], feat[num_cut]],
                                          X[upper_row[num_cut], feat[num_cut]])
        if self.has_missing:  # known | missing: the threshold +inf
            thr[num_cut & np.isnan(X[np.maximum(upper_row, 0), feat])] = np.inf
        cuts.feat, cuts.thr = feat, thr

    def child_summaries(self, cuts: _Cuts) -> _Children:
        """The children's statistics, rows in increasing order (as the recursive grower
        adds them)."""
        J = self.open_ids.size
        if self.compiled:  # the same sums in the same order, in one loop; alive shrinks
            c_value, c_W, c_n, c_imp = _child_summaries(self.alive, self.n_alive,
                                                        self.node_of_row, self.go_right,
                                                        cuts.has_cut, self.data, J)
            self.n_alive = int(c_n.sum())
            return _Children(c_value, c_W, c_n, c_imp)
        alive = self.alive = self.alive[cuts.has_cut[self.node_of_row[self.alive]]]
        key = self.node_of_row[alive].astype(np.intp)  # 2·node + side
        key *= 2
        key += self.go_right[alive]
        c_value, c_W, c_n, c_imp = node_summaries(key, self.y[alive],
                                                  None if self.unit else self.w[alive],
                                                  2 * J, self.K, self.crit)
        return _Children(c_value, c_W, c_n, c_imp, key)

    def improving(self, cuts: _Cuts, kids: _Children) -> np.ndarray:
        """The open nodes whose cut's weighted improvement (scikit-learn's formula) plus
        ``IMPURITY_TOLERANCE`` reaches ``min_impurity_decrease``."""
        WL, WR = kids.W[0::2], kids.W[1::2]
        impL, impR = kids.imp[0::2], kids.imp[1::2]
        Wt = self.open_W
        improvement = (Wt / self.W_root) * (self.open_imp - (WR / Wt * impR)
                                            - (WL / Wt * impL))
        return cuts.has_cut & ~(improvement + IMPURITY_TOLERANCE < self.min_impurity_decrease)

    def record_and_advance(self, cuts: _Cuts, kids: _Children, do_split, level) -> bool:
        """Add the children of the nodes that split, then move every attribute list's rows
        into the open children's segments (the stable partition); False when no child is
        open."""
        s_nodes = np.flatnonzero(do_split)
        slots = np.stack([2 * s_nodes, 2 * s_nodes + 1], axis=1).ravel()
        c_value, c_W, c_n, c_imp = kids.value, kids.W, kids.n, kids.imp
        child_ids = self.nodes.add(np.repeat(self.open_ids[s_nodes], 2), self.depth + 1,
                                   c_value[slots], c_W[slots], c_n[slots], c_imp[slots])
        in_cut = np.searchsorted(cuts.cut_nodes, s_nodes)
        self.nodes.split(self.open_ids[s_nodes], cuts.feat[in_cut], cuts.thr[in_cut],
                         child_ids[0::2],
                         [cuts.codes[j] for j in s_nodes.tolist()] if self.need_rows else None)
        if self.has_missing:
            self.missing_go_of.update(zip(self.open_ids[s_nodes].tolist(),
                                          cuts.best_go[s_nodes].tolist()))
        # the open children, in order, and each feature's rows partitioned into them
        child_open = ((c_n[slots] >= self.mss) & (c_imp[slots] > IMPURITY_TOLERANCE)
                      & (self.depth + 1 < self.max_depth) & (c_W[slots] >= 2 * self.mwl))
        self.depth += 1
        open_slots = slots[child_open]
        if open_slots.size == 0:
            return False
        J = self.open_ids.size
        slot_size = c_n.astype(np.int64)
        slot_size[0::2][~cuts.has_cut] = self.seg_len[~cuts.has_cut]  # uncut: all on side 0
        partition_lists(self.lists, self.go_right, slot_size, open_slots, level.n_a,
                        self.compiled, self.seg_len, self.spare)
        new_index = np.full(2 * J, -1, dtype=np.int32)
        new_index[open_slots] = np.arange(open_slots.size)
        if self.compiled:
            self.n_alive = kernels.advance_rows(self.alive, self.n_alive, self.node_of_row,
                                                self.go_right, new_index)
        else:
            self.node_of_row[self.alive] = new_index[kids.key]
            kids.key = None
            self.alive = self.alive[self.node_of_row[self.alive] >= 0]
        self.open_ids = child_ids[child_open]
        self.seg_len = slot_size[open_slots]
        self.open_value = c_value[open_slots]
        self.open_W = c_W[open_slots]
        self.open_imp = c_imp[open_slots]
        return True

    def tree(self, metadata) -> Tree:
        """The grown tree, in pre-order; the lists and buffers are dropped first."""
        for name in ("lists", "reach", "spare", "scratch", "node_of_row", "alive", "go_right"):
            self.__dict__.pop(name, None)
        return _with_missing_go(self.nodes.tree(self.regression, metadata or {}),
                                self.missing_go_of, self.missing)


def _with_missing_go(tree: Tree, missing_go_of: dict, missing: str) -> Tree:
    """The tree with ``missing_go`` (``missing="learn"``): ``missing_go_of`` maps the
    grower's node ids (breadth first, left before right: the order ``_Nodes``
    creates them in) to the side a split sent its missing rows; -1 elsewhere."""
    if missing != "learn" or not missing_go_of:
        return tree
    from dataclasses import replace

    order = [np.array([0])]  # the tree's ids, breadth first, left child before right
    while True:
        cur = order[-1]
        cur = cur[~tree.is_leaf[cur]]
        if cur.size == 0:
            break
        ptr = tree.children_ptr[cur]
        order.append(np.stack([tree.children[ptr], tree.children[ptr + 1]], axis=1).ravel())
    new_id = np.concatenate(order)
    go = np.full(tree.node_count, -1, dtype=np.int64)
    old = np.fromiter(missing_go_of.keys(), dtype=np.int64)
    go[new_id[old]] = np.fromiter(missing_go_of.values(), dtype=np.int64)
    return replace(tree, missing_go=go)
