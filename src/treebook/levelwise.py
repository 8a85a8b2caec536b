"""The fast exact grower: all nodes of one depth split together, from one presort.

The recursive grower (:func:`treebook.grow.grow_tree`) sorts the cases of every node for
every feature: ``O(n log n)`` per node and feature, and Python work per node. This grower
does what SLIQ {cite}`mehta1996` and SPRINT {cite}`shafer1996` do with their *presorted
attribute lists*, in numpy:

1. **Presort once.** For each feature, an *attribute list*: one ``int64`` per row,
   sorted by the feature's value, packing the row id, the value's dense rank and (two
   classes) the row's class (:func:`_presort`). The compiled scan's lists take half
   that: one ``uint32`` with the row id, a "new value starts here" bit, the ``close``
   bit and the class (:func:`treebook.kernels.pack_list`).
2. **Nodes as segments.** At every depth the open nodes' rows lie in each list as
   consecutive segments, the same segments for every feature, each sorted by value.
3. **Score every cut of every node at once.** One cumulative sum of the class weights
   along a list, restarted at each segment, gives the left counts of every cut of every
   node; :mod:`treebook.splits`' CART scores turn them into scores; a segmented maximum
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
smallest threshold), the same node statistics summed in the same order. With integer
weights (or none) every count is an exact integer and the trees are identical bit for
bit; with fractional weights or regression the prefix sums are rounded differently, so
two different cuts whose scores agree to about ``1e-12`` may be chosen differently.

**Missing values** (``missing="learn"``, scikit-learn's rule, as
:func:`treebook.cart.cart_split_finder`): NaN sorts after every known value with a rank
of its own, so in each node's segment the missing rows are the last block, and the
stable partition keeps them there. The block's weights are the node's minus the running
sums at its last known position; each cut is scored with the block on the right (the
usual score) and on the left, and the cut after the last known value is the split known
| missing (threshold +inf), in scikit-learn's order of candidates. The tree's
``missing_go`` records the side.

**Engines.** ``engine="numpy"`` is the reference: every step above in whole-array numpy
operations. ``engine="compiled"`` (the default) runs the scan, the subset search and the
partition as the loops of :mod:`treebook.kernels` (chapter 8), which add the same numbers
in the same order, so both engines build the same tree bit for bit.

Indices are ``intp`` wherever an array indexes another: numpy converts a narrower index
array on every gather, which costs more than the memory saved.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from . import kernels
from .criteria import GINI, SQUARED_ERROR, get_criterion
from .feature_draw import features_to_consider, node_permutation
from .splits import (
    FEATURE_THRESHOLD,
    IMPURITY_TOLERANCE,
    midpoint_threshold,
    node_summaries,
    summaries_from_sums,
    tie_floor,
)
from .tree import NodeKind, Tree, apply_binary

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
        same arrays and dtypes as :meth:`treebook.tree.TreeBuilder.build`. Call once."""
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


def _child_summaries(alive, n_alive: int, node_of_row, go_right, has_cut, data: _Data,
                     J: int):
    """The children's statistics of one level (:func:`treebook.splits.node_summaries`'s
    numbers) by :func:`treebook.kernels.child_sums`, which also drops the rows of nodes
    without a cut from ``alive[:n_alive]``, in place."""
    K = data.K
    counts = np.zeros(2 * J, dtype=np.int64)
    W = np.zeros(2 * J)
    S1 = np.zeros(2 * J if data.regression else 1)
    S2 = np.zeros_like(S1)
    flat = np.zeros(1 if data.regression else 2 * J * K)
    k = kernels.child_sums(alive, n_alive, node_of_row, go_right, has_cut,
                           _NO_LABELS if data.regression else data.y,
                           data.y if data.regression else _NO_Y, data.w, data.unit, K,
                           counts, W, S1, S2, flat)
    if data.unit:
        W = counts.astype(float)

    def rows():  # only for nodes whose variance is rounding residue
        r = alive[:k]
        keys = 2 * node_of_row[r].astype(np.intp) + go_right[r]
        return keys, data.y[r], None if data.unit else data.w[r]

    return summaries_from_sums(counts, W, (S1, S2) if data.regression else flat, K,
                               data.crit, rows)


def _presort(X, y, ybits, columns=None, missing_rank=None, packed=False):
    """The attribute lists: for each feature (each of ``columns``, default all) one
    ``int64`` per row, sorted by ``x_f``::

        (code << 32) | row,    code = ((2·rank + close) << ybits) | class

    ``rank`` is the dense rank of the row's value; ``close`` is 1 when the next larger
    value is within ``FEATURE_THRESHOLD``. Missing values (NaN) sort after every known
    one with one rank of their own, so in every node's segment the missing rows are its
    last block; ``missing_rank`` (a list), if given, receives that rank for each feature
    (-1: the column has no missing value). Only after such a value can two distinct
    neighbours inside a node be too close to cut between, so only there does the scan
    look further: ``reach[f]`` maps those ranks to the first rank far enough above them.
    With two classes the class rides along (``ybits = 1``), so no level gathers it.

    ``packed=True`` (the compiled scan): half the memory, one ``uint32`` per row,
    ``(row << 3) | (new << 2) | (close << 1) | class`` (:func:`treebook.kernels.pack_list`:
    ``new`` marks the first row of each value, so equal values need no rank), and no
    ``reach`` (after a ``close`` value the scan compares the two values themselves).
    """
    n, m = X.shape
    lists, reach = [], []
    for f in (range(m) if columns is None else columns):
        if packed:
            x = np.ascontiguousarray(X[:, f])
            o = np.argsort(x)
            out = np.empty(n, dtype=np.uint32)
            kernels.pack_list(o, x, y if ybits else _NO_LABELS, bool(ybits), FEATURE_THRESHOLD,
                              out)
            lists.append(out)
            reach.append(None)
            del x, o
            continue
        o = np.argsort(X[:, f])  # equal values in any order: no count at a cut depends on it
        xs = X[o, f]
        new = np.empty(n, dtype=bool)
        new[0] = True
        np.greater(xs[1:], xs[:-1], out=new[1:])
        has_nan = n > 0 and bool(np.isnan(xs[-1]))
        if has_nan:  # missing values (NaN) sort last and share one rank past the others
            new[int(np.searchsorted(np.isnan(xs), True))] = True
        code = np.cumsum(new, dtype=np.int64)
        code -= 1  # the rank
        u = xs[new]
        if has_nan:
            u[-1] = np.inf  # the missing rows' rank: never close to a known value
        if missing_rank is not None:
            missing_rank.append(u.shape[0] - 1 if has_nan else -1)
        del xs, new
        close = np.zeros(u.shape[0], dtype=bool)
        close[:-1] = u[1:] <= u[:-1] + FEATURE_THRESHOLD
        if close.any():
            r = np.flatnonzero(close)
            reach.append((r, np.searchsorted(u, u[r] + FEATURE_THRESHOLD, side="right")))
        else:
            reach.append(None)
        flag = close[code]
        code <<= 1
        code |= flag
        del flag, close, u
        if ybits:
            code <<= ybits
            code |= y[o]
        code <<= 32
        code |= o
        lists.append(code)
        del o, code
    return lists, reach


def _code_bits(P, mask):
    """Bits 32-39 of each entry of an attribute list, ``& mask``, as ``uint8``: read
    through a byte view of the ``int64`` array (no 8-byte temporary). Bit 0 of ``mask``
    is the class (two classes), the next bit the ``close`` flag."""
    byte = 4 if sys.byteorder == "little" else 3
    return P.view(np.uint8)[byte::8] & mask


_ROW = np.int64(0xFFFFFFFF)  # the row id in the low 32 bits of an attribute-list entry


def _entry_rows(entries):
    """The row ids of attribute-list entries: the low 32 bits of an ``int64`` entry, the
    bits above the 3 flags of a packed ``uint32`` one."""
    if entries.dtype == np.uint32:
        return (entries >> 3).astype(np.intp)
    return entries & _ROW


@dataclass(frozen=True)
class _Data:
    """What every level's steps read: targets, weights and the fixed choices of the fit."""

    y: np.ndarray
    w: np.ndarray
    unit: bool          # every weight is 1: left weights are positions
    regression: bool
    K: int
    ybits: int          # 1 when the class rides in the attribute lists (two classes)
    msl: int            # min_samples_leaf
    crit: object        # the criterion (treebook.criteria)
    mwl: float = 0.0    # min_weight_leaf: the least weight of a child
    X: np.ndarray | None = None  # the features (the packed scan compares close values)
    compiled_subsets: bool = False  # categorical columns by kernels.scan_subsets
    max_exhaustive: int = 12        # K >= 3: every subset up to this many categories


@dataclass(frozen=True)
class _Level:
    """The open nodes of one depth, as consecutive segments of every attribute list."""

    seg_len: np.ndarray
    starts: np.ndarray
    node_of_pos: np.ndarray
    base_bad: np.ndarray    # positions no feature may cut after (segment ends, leaf sizes)
    open_value: np.ndarray
    open_W: np.ndarray
    w_left: np.ndarray | None   # unit weights: the left weight of every cut
    w_right: np.ndarray | None
    mean_pos: np.ndarray | None  # regression: the node mean at every position
    tot_pos: list | None         # classification: the node's class weights at every position

    @property
    def n_a(self) -> int:
        return int(self.node_of_pos.shape[0])

    @classmethod
    def of(cls, seg_len, open_value, open_W, data: _Data, full: bool = True) -> "_Level":
        """The level's segments; ``full=False``: only what the compiled kernels read."""
        J = seg_len.shape[0]
        n_a = int(seg_len.sum())
        msl = data.msl
        starts = np.concatenate([[0], np.cumsum(seg_len)[:-1]]).astype(np.int64)
        if not full:
            return cls(seg_len, starts, np.empty(n_a, dtype=np.int8), None, open_value,
                       open_W, None, None, None, None)
        node_of_pos = np.repeat(np.arange(J, dtype=np.int32), seg_len)
        # no cut after a segment's last row; min_samples_leaf rows on each side
        base_bad = np.zeros(n_a, dtype=bool)
        base_bad[starts + seg_len - 1] = True
        if msl > 1:
            pos_in_seg = np.arange(n_a) - np.repeat(starts, seg_len)
            base_bad |= pos_in_seg < msl - 1
            pos_in_seg -= np.repeat(seg_len, seg_len)
            base_bad |= pos_in_seg > -msl - 1  # right side: len - p - 1 < msl
            del pos_in_seg
        w_left = w_right = mean_pos = tot_pos = None
        if data.unit:
            w_left = np.arange(1.0, n_a + 1.0)
            w_left -= np.repeat(starts.astype(float), seg_len)
            w_right = np.repeat(open_W, seg_len)
            w_right -= w_left
        if data.regression:
            mean_pos = np.repeat(open_value[:, 0], seg_len)
        else:
            K = data.K
            tot_pos = ([np.repeat(open_value[:, k], seg_len) for k in range(K)] if K > 2
                       else [None, np.repeat(open_value[:, 1], seg_len)])
        return cls(seg_len, starts, node_of_pos, base_bad, open_value, open_W, w_left,
                   w_right, mean_pos, tot_pos)


def _segment_cumsum(c, starts, seg_len):
    """Cumulative sums of ``c`` in place, restarted at every segment start."""
    base = c[starts]
    np.cumsum(c, out=c)
    c -= np.repeat(c[starts] - base, seg_len)
    return c


def _cut_scores(P, reach_f, level: _Level, data: _Data, missing_rank: int = -1, x_f=None):
    """Score step: the criterion's scan score of the cut after every position of one
    feature's attribute list ``P`` (``-inf`` where no cut may be made).

    With missing values in the column (``missing_rank >= 0``, the rank of NaN in ``P``;
    ``x_f``: the column) also scikit-learn's other candidates: returns ``(score,
    score_left, last)``, where ``score`` has the missing block on the right of each cut
    of the known values, ``score_left`` on the left, and ``score_left[last[j]]`` (the
    cut after node ``j``'s last known value) is the split of the known rows from the
    missing ones (threshold +inf), which scikit-learn tries last. A node with missing
    values and constant known ones has no candidate (:func:`treebook.cart._learn_candidates`).
    """
    n_a, starts, seg_len = level.n_a, level.starts, level.seg_len
    y, w, unit, K, ybits, crit = data.y, data.w, data.unit, data.K, data.ybits, data.crit
    missing = missing_rank >= 0
    g = P >> (32 + ybits)  # 2·rank + close: equal ranks cannot be cut apart
    invalid = np.empty(n_a, dtype=bool)
    np.equal(g[1:], g[:-1], out=invalid[:-1])
    invalid[-1] = True
    if not missing:
        invalid |= level.base_bad
    if reach_f is not None:
        # after a value with a close successor: is the next rank far enough?
        chk = np.flatnonzero(_code_bits(P[:-1], 1 << ybits).view(bool))
        chk = chk[~invalid[chk]]
        close_ranks, first_far = reach_f
        far = first_far[np.searchsorted(close_ranks, g[chk] >> 1)]
        invalid[chk[(g[chk + 1] >> 1) < far]] = True
    if missing:
        rank_bad = invalid.copy()  # the cuts no side of the missing block can make
        invalid |= level.base_bad
        n_miss = np.add.reduceat(((g >> 1) == missing_rank).astype(np.int64), starts)
    del g
    rows = None if (unit and K == 2) else P & _ROW
    if unit:
        w_left, w_right = level.w_left, level.w_right
    else:
        ws = w[rows]
        w_left = np.cumsum(ws)
        w_left -= np.repeat(w_left[starts] - ws[starts], seg_len)
        w_right = np.repeat(level.open_W, seg_len)
        w_right -= w_left
    if missing:
        last = starts + seg_len - n_miss - 1  # each node's last known position
        # missing on the left: add the missing block (the node minus its known part)
        w_miss = np.repeat(level.open_W - w_left[last], seg_len)
        wl_left = w_left + w_miss
        wl_right = np.repeat(level.open_W, seg_len)
        wl_right -= wl_left
        del w_miss
    if data.regression:
        c = y[rows] - level.mean_pos  # centred responses, weighted below
        if not unit:
            c *= ws
        _segment_cumsum(c, starts, seg_len)
        score = crit.split_proxy(c, w_left, w_right)
        if missing:
            c += np.repeat(c[starts + seg_len - 1] - c[last], seg_len)
            score_left = crit.split_proxy(c, wl_left, wl_right)
    else:
        left = []
        for k in (range(1, 2) if K == 2 else range(K)):
            ind = _code_bits(P, 1) if K == 2 else (y[rows] == k)
            if unit:
                # left counts inside each segment: one cumulative sum, restarted at
                # every segment by removing the previous total
                c = ind.astype(np.float64)
                c[starts[1:]] -= level.open_value[:-1, k]
                np.cumsum(c, out=c)
            else:
                c = _segment_cumsum(ws * ind, starts, seg_len)
            left.append(c)
            del c, ind
        tot_pos = level.tot_pos
        if K == 2:
            l1 = left.pop()
            score = crit.two_class_score(l1, tot_pos[1] - l1, w_left, w_right)
            if missing:
                l1 += np.repeat(level.open_value[:, 1] - l1[last], seg_len)
                score_left = crit.two_class_score(l1, tot_pos[1] - l1, wl_left, wl_right)
        else:
            right = [tot_pos[k] - left[k] for k in range(K)]
            score = crit.split_proxy(left, right, w_left, w_right)
            if missing:
                for k in range(K):
                    left[k] += np.repeat(level.open_value[:, k] - left[k][last], seg_len)
                    right[k] = tot_pos[k] - left[k]
                score_left = crit.split_proxy(left, right, wl_left, wl_right)
    if data.mwl > 0:
        invalid |= (w_left < data.mwl) | (w_right < data.mwl)
    np.copyto(score, -np.inf, where=invalid)
    if not missing:
        return score
    # missing on the left: a cut of the known values, each side keeping msl rows / mwl
    pos = np.arange(n_a) - np.repeat(starts, seg_len)  # position in the node
    bad_left = rank_bad | (pos >= np.repeat(last - starts, seg_len))
    bad_left |= pos + 1 + np.repeat(n_miss, seg_len) < data.msl
    bad_left |= np.repeat(last - starts, seg_len) - pos < data.msl
    if data.mwl > 0:
        bad_left |= (wl_left < data.mwl) | (wl_right < data.mwl)
    np.copyto(score_left, -np.inf, where=bad_left)
    del pos, bad_left
    # the split known | missing (+inf), tried last; nodes without missing values keep
    # only the usual cuts; nodes with constant (or no) known values have no candidate
    has = n_miss > 0
    known = last >= starts
    lo = x_f[P[starts] & _ROW]
    hi = x_f[P[np.maximum(last, starts)] & _ROW]
    varies = known & (hi > lo + FEATURE_THRESHOLD)
    j = np.flatnonzero(has & varies)
    score_left[last[j]] = score[last[j]]
    score[last[j]] = -np.inf
    score[np.repeat(has & ~varies, seg_len)] = -np.inf
    score_left[np.repeat(~(has & varies), seg_len)] = -np.inf
    return score, score_left, last


def _keep_best(score, f: int, level: _Level, best_val, best_f, best_p) -> None:
    """Choose step: where feature ``f`` beats each node's best cut so far, record it.

    A later feature must beat the best so far by more than a tie; within the feature,
    the first cut that ties with its maximum wins (the smallest threshold)."""
    seg_max = np.maximum.reduceat(score, level.starts)
    better = tie_floor(seg_max) > best_val
    if better.any():
        target = np.repeat(np.where(better, tie_floor(seg_max), np.inf), level.seg_len)
        hit = np.flatnonzero(score >= target)
        del target
        hn = level.node_of_pos[hit]
        first = np.ones(hit.shape[0], dtype=bool)
        first[1:] = hn[1:] != hn[:-1]
        hn, hp = hn[first], hit[first]
        best_val[hn] = seg_max[hn]
        best_f[hn] = f
        best_p[hn] = hp


def _keep_best_missing(score, score_left, last, f: int, level: _Level, best_val, best_f,
                       best_p, best_go) -> None:
    """:func:`_keep_best` for a feature with missing values (:func:`_cut_scores`' three
    outputs), in scikit-learn's order of candidates: the cuts with the missing block on
    the right, then on the left, then known | missing. ``best_go[j]``: where node ``j``'s
    missing rows go (1 right, 0 left; -1 when it has none)."""
    starts, seg_len = level.starts, level.seg_len
    top = np.maximum(np.maximum.reduceat(score, starts),
                     np.maximum.reduceat(score_left, starts))
    better = tie_floor(top) > best_val
    if not better.any():
        return
    target = np.repeat(np.where(better, tie_floor(top), np.inf), seg_len)
    firsts = []
    for sc in (score, score_left):
        first = np.full(starts.shape[0], -1, dtype=np.int64)
        hit = np.flatnonzero(sc >= target)
        hn = level.node_of_pos[hit]
        keep = np.ones(hit.shape[0], dtype=bool)
        keep[1:] = hn[1:] != hn[:-1]
        first[hn[keep]] = hit[keep]
        firsts.append(first)
    del target
    hn = np.flatnonzero(better)
    on_right = firsts[0][hn] >= 0
    p = np.where(on_right, firsts[0][hn], firsts[1][hn])
    best_val[hn] = top[hn]
    best_f[hn] = f
    best_p[hn] = p
    has = last[hn] < starts[hn] + seg_len[hn] - 1
    best_go[hn] = np.where(has, np.where(on_right | (p == last[hn]), 1, 0), -1)


def _features_per_node(X, lists, level: _Level, k: int, seed: int, columns, rows,
                       categorical) -> np.ndarray:
    """``(J, m)`` mask: the features each open node may split on under ``max_features=k``
    (:mod:`treebook.feature_draw`; a node's draw depends on its set of rows only).
    ``columns[f]``: feature ``f``'s attribute list (numeric), ``rows``: every open node's
    rows, or None."""
    starts, seg_len = level.starts, level.seg_len
    ends = starts + seg_len - 1
    m = X.shape[1]
    varies = np.empty((seg_len.shape[0], m), dtype=bool)
    for f in range(m):
        if categorical[f]:  # at least two categories at the node (missing ones ignored)
            x = X[rows, f]
            varies[:, f] = np.fmax.reduceat(x, starts) > np.fmin.reduceat(x, starts)
        else:
            P = lists[columns[f]]
            lo = X[_entry_rows(P[starts]), f]
            hi = X[_entry_rows(P[ends]), f]
            if np.isnan(hi).any():  # missing values sort last: the largest known value
                hi = np.fmax.reduceat(X[_entry_rows(P), f], starts)
            varies[:, f] = hi > lo + FEATURE_THRESHOLD
    some = rows if rows is not None else _entry_rows(lists[0])
    first = np.minimum.reduceat(some, starts)
    total = np.add.reduceat(some, starts, dtype=np.int64)
    perms = np.stack([node_permutation(seed, c, a, t, m)
                      for c, a, t in zip(seg_len.tolist(), first.tolist(), total.tolist())])
    return features_to_consider(perms, varies, k)


def _scan_compiled(P, reach_f, f, level: _Level, data: _Data, allowed_f, best, scratch):
    """Score and choose step for one numeric feature with :func:`treebook.kernels.scan_feature`
    (Gini or squared error): the same numbers as :func:`_cut_scores` + :func:`_keep_best`."""
    kernels.scan_feature(
        P, data.ybits == 1, level.starts, level.seg_len,
        _NO_LABELS if data.regression else data.y, data.y if data.regression else _NO_Y,
        data.w, data.unit,
        kernels.SQUARED_ERROR_SCAN if data.regression else kernels.GINI_SCAN,
        0 if data.regression else data.K, level.open_value, level.open_W, data.msl,
        data.mwl, data.X[:, f], FEATURE_THRESHOLD, allowed_f, f, best[0], best[1], best[2],
        scratch[0], scratch[1], scratch[2])


def _scan_compiled_missing(P, reach_f, missing_rank, x_f, f, level: _Level, data: _Data,
                           allowed_f, best, best_go, scratch):
    """:func:`_scan_compiled` for a column with missing values, with
    :func:`treebook.kernels.scan_feature_missing`: the numbers of :func:`_cut_scores` +
    :func:`_keep_best_missing`."""
    close_ranks, first_far = reach_f if reach_f is not None else (_NO_RANKS, _NO_RANKS)
    if len(scratch) == 3:  # the second score list and two class vectors, made once
        scratch.extend([np.empty(scratch[0].shape[0]), np.zeros_like(scratch[1]),
                        np.zeros_like(scratch[1])])
    kernels.scan_feature_missing(
        P, 32 + data.ybits, missing_rank, x_f, FEATURE_THRESHOLD, level.starts,
        level.seg_len, _NO_LABELS if data.regression else data.y,
        data.y if data.regression else _NO_Y, data.w, data.unit,
        kernels.SQUARED_ERROR_SCAN if data.regression else kernels.GINI_SCAN,
        0 if data.regression else data.K, level.open_value, level.open_W, data.msl,
        data.mwl, close_ranks, first_far, allowed_f, f, best[0], best[1], best[2], best_go,
        scratch[0], scratch[3], scratch[1], scratch[2], scratch[4], scratch[5])


_NO_RANKS = np.zeros(1, dtype=np.int64)
_NO_LABELS = np.zeros(1, dtype=np.int8)
_NO_Y = np.zeros(1)


def _subset_scan(X, f, rows, level: _Level, data: _Data, allowed_f, best, codes,
                 subset_split, n_categories: int) -> None:
    """Score and choose step for one categorical feature: ``subset_split`` (the recursive
    grower's subset search, :func:`treebook.cart._subset_candidates`) on every open node's
    rows, in increasing row order; a node keeps it when it beats its best by more than a
    tie, as :func:`_keep_best` does."""
    best_val, best_f, best_p = best
    if data.compiled_subsets:
        boc = np.zeros((level.seg_len.shape[0], n_categories), dtype=np.int64)
        before = best_f.copy()
        kernels.scan_subsets(
            rows, X[:, f], level.starts, level.seg_len,
            _NO_LABELS if data.regression else data.y, data.y if data.regression else _NO_Y,
            data.w, 0 if data.regression else data.K, n_categories, level.open_value,
            level.open_W, data.msl, data.mwl, data.max_exhaustive, allowed_f, f, best_val,
            best_f, boc)
        for j in np.flatnonzero((best_f == f) & (before != f)).tolist():
            best_p[j] = -1
            codes[j] = boc[j]
        return
    x_all = X[rows, f]
    for j, (s, n_j) in enumerate(zip(level.starts.tolist(), level.seg_len.tolist())):
        if not allowed_f[j]:
            continue
        r = rows[s:s + n_j]
        x = x_all[s:s + n_j]
        if x.min() == x.max():
            continue
        cand = subset_split(x, data.y[r], data.w[r], (level.open_value[j], level.open_W[j]),
                            data.K, n_categories, data.crit, data.msl, data.mwl)
        if cand is not None and tie_floor(cand[0]) > best_val[j]:
            best_val[j] = cand[0]
            best_f[j] = f
            best_p[j] = -1
            codes[j] = cand[2]


def _subset_scan_missing(X, f, rows, level: _Level, data: _Data, allowed_f, best, codes,
                         subset_split, learn_split, n_categories: int, best_go) -> None:
    """:func:`_subset_scan` (numpy, both engines) for a categorical column with missing
    values: a node with missing values searches with ``learn_split``
    (:func:`treebook.cart._learn_candidates`, scikit-learn's candidates), the others with
    ``subset_split``; ``best_go[j]``: where node ``j``'s missing rows go."""
    best_val, best_f, best_p = best
    x_all = X[rows, f]
    for j, (s, n_j) in enumerate(zip(level.starts.tolist(), level.seg_len.tolist())):
        if not allowed_f[j]:
            continue
        r = rows[s:s + n_j]
        x = x_all[s:s + n_j]
        nan = np.isnan(x)
        node = (level.open_value[j], level.open_W[j])
        go = -1
        if nan.any():
            cand = learn_split(x, data.y[r], data.w[r], node, data.K, data.crit, True,
                               n_categories, data.msl, data.mwl)
            if cand is not None:
                go = cand[3]
        else:
            if x.min() == x.max():
                continue
            cand = subset_split(x, data.y[r], data.w[r], node, data.K, n_categories,
                                data.crit, data.msl, data.mwl)
        if cand is not None and tie_floor(cand[0]) > best_val[j]:
            best_val[j] = cand[0]
            best_f[j] = f
            best_p[j] = -1
            codes[j] = cand[2]
            best_go[j] = go


def _choose_cuts(lists, reach, level: _Level, data: _Data, allowed=None, *, X=None,
                 columns=None, categorical=None, rows=None, subset_split=None,
                 n_categories=None, compiled=False, scratch=None, missing_rank=None,
                 learn_split=None, feature_order=None):
    """Score and choose for one level: each open node's best feature and cut position
    (``best_f = -1``: no admissible cut), features scanned in ``feature_order`` (default
    column order; a later feature wins only by more than a tie). ``allowed``: the features each
    node may use (``max_features``), or None for all. With categorical features, also
    each node's ``branch_of_code`` (None for a threshold). ``missing_rank``: per list,
    the rank of its missing values (-1: none), or None when no column has any; then
    also returns where each node's missing rows go (1 right, 0 left, -1 none)."""
    J = level.seg_len.shape[0]
    best_val = np.full(J, -np.inf)
    best_f = np.full(J, -1, dtype=np.int64)
    best_p = np.zeros(J, dtype=np.int64)
    best_go = np.full(J, -1, dtype=np.int64)
    go_f = np.full(J, -1, dtype=np.int64)  # the feature best_go was set by
    codes = [None] * J
    m = len(lists) if columns is None else len(columns)
    everyone = np.ones(J, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for f in (range(m) if feature_order is None else feature_order):
            f = int(f)
            allowed_f = everyone if allowed is None else allowed[:, f]
            if allowed is not None and not allowed_f.any():
                continue
            if categorical is not None and categorical[f]:
                if learn_split is not None and np.isnan(X[:, f]).any():
                    _subset_scan_missing(X, f, rows, level, data, allowed_f,
                                         (best_val, best_f, best_p), codes, subset_split,
                                         learn_split, n_categories[f], best_go)
                    go_f[best_f == f] = f
                    continue
                _subset_scan(X, f, rows, level, data, allowed_f, (best_val, best_f, best_p),
                             codes, subset_split, n_categories[f])
                continue
            li = f if columns is None else columns[f]
            miss = -1 if missing_rank is None else missing_rank[li]
            if compiled:
                if miss >= 0 or lists[li].dtype != np.uint32:  # the int64 lists (NaN)
                    _scan_compiled_missing(lists[li], reach[li], miss, X[:, f], f, level,
                                           data, allowed_f, (best_val, best_f, best_p),
                                           best_go, scratch)
                    go_f[best_f == f] = f
                    continue
                _scan_compiled(lists[li], reach[li], f, level, data, allowed_f,
                               (best_val, best_f, best_p), scratch)
                continue
            if miss >= 0:
                score, score_left, last = _cut_scores(lists[li], reach[li], level, data,
                                                      miss, X[:, f])
                if allowed is not None:
                    hide = np.repeat(~allowed_f, level.seg_len)
                    np.copyto(score, -np.inf, where=hide)
                    np.copyto(score_left, -np.inf, where=hide)
                _keep_best_missing(score, score_left, last, f, level, best_val, best_f,
                                   best_p, best_go)
                go_f[best_f == f] = f
                continue
            score = _cut_scores(lists[li], reach[li], level, data)
            if allowed is not None:
                np.copyto(score, -np.inf, where=np.repeat(~allowed_f, level.seg_len))
            _keep_best(score, f, level, best_val, best_f, best_p)
    if categorical is not None:  # a subset kept earlier may have lost to a later cut
        codes = [c if c is not None and categorical[best_f[j]] else None
                 for j, c in enumerate(codes)]
    if missing_rank is None and learn_split is None:
        return best_f, best_p, codes
    # a go kept earlier may have lost to a later feature
    return best_f, best_p, codes, np.where((best_f >= 0) & (go_f == best_f), best_go, -1)


def _rows_going_right(lists, best_f, best_p, cut_nodes, level: _Level, go_right,
                      columns=None, codes=None, X=None, rows=None, compiled=False,
                      best_go=None):
    """Partition step (rows): set ``go_right`` for the rows after each chosen cut (or, for
    a subset split, the rows whose category goes right), and return the rows either side
    of every threshold cut (their values make the threshold; -1 for subset splits).
    ``best_go[j]`` (or None): where node ``j``'s missing rows go (1 right, 0 left); they
    are the last block of its segment, so a cut sends them right unless told left."""
    starts, seg_len = level.starts, level.seg_len
    lower_row = np.full(cut_nodes.size, -1, dtype=np.int64)
    upper_row = np.full(cut_nodes.size, -1, dtype=np.int64)
    go_right[:] = 0
    is_subset = (np.array([codes[j] is not None for j in cut_nodes.tolist()], dtype=bool)
                 if codes is not None else np.zeros(cut_nodes.size, dtype=bool))
    for i in np.flatnonzero(is_subset):
        j = cut_nodes[i]
        r = rows[starts[j]:starts[j] + seg_len[j]]
        x = X[r, best_f[j]]
        nan = np.isnan(x)
        if nan.any():
            go_right[r[nan]] = best_go[j] == 1
            r, x = r[~nan], x[~nan]
        go_right[r] = codes[j][x.astype(np.int64)] == 1
    num = ~is_subset
    for f in np.unique(best_f[cut_nodes[num]]):
        sel = num & (best_f[cut_nodes] == f)
        js = cut_nodes[sel]
        P = lists[f if columns is None else columns[f]]
        lower_row[sel] = _entry_rows(P[best_p[js]])
        upper_row[sel] = _entry_rows(P[best_p[js] + 1])
        if compiled:
            kernels.mark_right(P, starts, seg_len, js, best_p, go_right)
            continue
        lens = seg_len[js]
        pos = np.repeat(starts[js] - np.concatenate([[0], np.cumsum(lens)[:-1]]),
                        lens) + np.arange(int(lens.sum()))
        go_right[P[pos] & _ROW] = pos > np.repeat(best_p[js], lens)
        del pos
    if best_go is not None:  # missing rows sent left: they sit after the cut, so undo
        left_nodes = cut_nodes[num][best_go[cut_nodes[num]] == 0]
        for f in np.unique(best_f[left_nodes]):
            js = left_nodes[best_f[left_nodes] == f]
            lens = seg_len[js]
            pos = np.repeat(starts[js] - np.concatenate([[0], np.cumsum(lens)[:-1]]),
                            lens) + np.arange(int(lens.sum()))
            r = _entry_rows(lists[f if columns is None else columns[f]][pos])
            go_right[r[np.isnan(X[r, f])]] = 0
    return lower_row, upper_row


def _partition_lists(lists, go_right, slot_size, open_slots, n_a: int,
                     compiled: bool = False, seg_len=None, spare=None) -> None:
    """Partition step (lists): every attribute list, reordered in place so that the open
    children's rows form consecutive segments, each still sorted (a stable partition).

    Every slot (node ``j``, side ``b``) gets a region of the new lists: open children
    first, in order, then all other rows (closed children, nodes that became leaves).
    Within a node the left rows keep their order, and so do the right ones: the left rows
    of all nodes, in list order, fill the left slots one after another (likewise the right
    ones), so their places are the same for every feature.
    """
    is_open = np.zeros(slot_size.shape[0], dtype=bool)
    is_open[open_slots] = True
    slot_rank = np.concatenate([np.flatnonzero(is_open), np.flatnonzero(~is_open)])
    slot_base = np.empty(slot_size.shape[0], dtype=np.int64)
    slot_base[slot_rank] = np.concatenate([[0], np.cumsum(slot_size[slot_rank])[:-1]])
    n_new = int(slot_size[open_slots].sum())
    if compiled:  # the same stable partition, one loop per list, into a spare buffer
        starts = np.concatenate([[0], np.cumsum(seg_len)[:-1]]).astype(np.int64)
        for f in range(len(lists)):
            P = lists[f]
            out = spare[P.dtype.char][:n_new]  # one spare list per layout
            (kernels.partition_packed if P.dtype == np.uint32 else kernels.partition_list)(
                P, go_right, starts, seg_len, slot_base, is_open, out)
            lists[f] = out
            spare[P.dtype.char] = P if P.base is None else P.base  # the old list's memory is next
        return
    dest = []
    for b in (0, 1):
        size_b = slot_size[b::2]
        before = np.concatenate([[0], np.cumsum(size_b)[:-1]])
        dest.append(np.arange(int(size_b.sum())) + np.repeat(slot_base[b::2] - before,
                                                               size_b))
    for f in range(len(lists)):
        P = lists[f]
        rows = P & _ROW
        right = go_right[rows].view(bool)
        del rows
        full = np.empty(n_a, dtype=np.int64)
        full[dest[0]] = P[~right]
        full[dest[1]] = P[right]
        del right, P
        lists[f] = full[:n_new]
        del full


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
    name in :data:`treebook.criteria.CRITERIA` or a criterion (default ``"gini"``, or
    ``"squared_error"`` when ``n_classes=0`` means regression). Rows with zero weight take no part, as in
    scikit-learn. A node is a leaf when its depth is ``max_depth``, it has fewer than
    ``max(min_samples_split, 2·min_samples_leaf)`` rows, its impurity is
    ``<= IMPURITY_TOLERANCE``,
    no cut leaves ``min_samples_leaf`` rows on both sides, or the best cut's weighted
    improvement ``(|D|/|D_root|)·(I(D) - |D_1|/|D|·I(D_1) - |D_2|/|D|·I(D_2))`` plus
    ``IMPURITY_TOLERANCE`` is below ``min_impurity_decrease``.

    ``feature_order`` (a permutation of the columns, default column order) is the order in
    which each node's features are scanned: between features whose best cuts tie, the
    first in that order wins (:func:`treebook.cart.cart_split_finder` uses the same order).

    ``categorical`` (a mask over the columns) marks columns of category codes ``0 …
    n_categories[f] - 1``; each open node searches them with ``subset_split`` (CART's
    subset search, :func:`treebook.cart._subset_candidates`, which
    :func:`treebook.cart.grow_cart` passes), on its rows in increasing order, so the
    split is the recursive grower's; the compiled engine runs the same search in
    :func:`treebook.kernels.scan_subsets` (Gini and squared error, fewer than 8 classes;
    every subset up to ``max_exhaustive_categories`` present categories). ``engine="compiled"`` scores Gini and squared-error
    cuts and partitions the lists with :mod:`treebook.kernels`; ``"numpy"`` is the
    reference, in array operations only; both build the same tree bit for bit.

    ``missing="learn"`` accepts missing values (NaN) with scikit-learn's rule (as
    :func:`treebook.cart.cart_split_finder`): they sort last in every attribute list, a
    node with missing values of a feature also tries each cut with them on the left and
    the split known | missing (threshold +inf), and the tree's ``missing_go`` keeps the
    side chosen (-1 where a node saw none). Categorical columns with missing values are
    searched with ``learn_split`` (:func:`treebook.cart._learn_candidates`) at the nodes
    that have some. ``"error"`` (the default) refuses them.
    """
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
                         "(grow them through treebook.cart.grow_cart)")
    if np.any(w == 0):
        keep = w > 0
        X, y, w = X[keep], np.asarray(y)[keep], w[keep]
    n, m = X.shape
    regression = n_classes == 0
    K = n_classes
    if criterion is None:
        criterion = "squared_error" if regression else "gini"
    crit = get_criterion(criterion, regression=regression)
    compiled = engine == "compiled"
    scan_compiled = compiled and crit in (GINI, SQUARED_ERROR)
    max_depth = np.inf if max_depth is None else max_depth
    msl = int(min_samples_leaf)
    mss = max(int(min_samples_split), 2 * msl)
    unit = bool(np.all(w == 1.0))
    wn = None if unit else w  # node sums: with unit weights, counts (the same numbers)
    y = np.asarray(y, dtype=float) if regression else np.asarray(y).astype(
        np.int8 if K <= 127 else np.int64)
    ybits = 1 if K == 2 else 0
    if n >= 2**29:
        raise ValueError("the level-wise grower handles fewer than 2**29 rows")
    nodes = _Nodes(1 if regression else K, compiled=compiled)

    # ---- root
    value, W, ns, impurity = node_summaries(np.zeros(n, np.intp), y, wn, 1, K, crit)
    W_root = float(W[0])
    nodes.add([-1], 0, value, W, ns, impurity)
    mwl = float(min_weight_leaf)
    if 0 >= max_depth or ns[0] < mss or impurity[0] <= IMPURITY_TOLERANCE or W_root < 2 * mwl:
        return nodes.tree(regression, metadata or {})

    numeric = np.flatnonzero(~categorical)
    columns = np.full(m, -1, dtype=np.int64)  # feature -> its attribute list
    columns[numeric] = np.arange(numeric.size)
    # missing values (missing="learn") in a numeric column: the int64 lists, which give
    # NaN a rank of its own (the packed lists have no room for it)
    nan_numeric = missing == "learn" and bool(np.isnan(X[:, numeric]).any())
    missing_rank = [] if missing == "learn" else None
    lists, reach = _presort(X, y, ybits, numeric.tolist(), missing_rank,
                            packed=scan_compiled and not nan_numeric)
    # the rank of NaN in each list, and what each split did with the missing rows
    if missing_rank is not None and max(missing_rank, default=-1) < 0:
        missing_rank = None
    has_missing = missing_rank is not None or (
        missing == "learn" and bool(np.isnan(X[:, categorical]).any()))
    if has_missing and categorical.any() and learn_split is None:
        raise ValueError("categorical columns with missing values need learn_split "
                         "(grow them through treebook.cart.grow_cart)")
    missing_go_of = {}  # split node id (creation order) -> where its missing rows go
    # the open nodes' rows, in increasing order within each node: a list partitioned like
    # the others (categorical subsets, and max_features when no column is numeric)
    need_rows = bool(categorical.any()) or numeric.size == 0
    if need_rows:
        lists.append(np.arange(n, dtype=np.int32))
    data = _Data(y=y, w=w, unit=unit, regression=regression, K=K, ybits=ybits, msl=msl, mwl=mwl,
                 crit=crit, compiled_subsets=scan_compiled and K < 8,
                 max_exhaustive=int(max_exhaustive_categories), X=X)
    spare = ({P.dtype.char: np.empty(n, dtype=P.dtype) for P in lists} if compiled
             else None)  # partition targets, one per list layout
    scratch = None
    if scan_compiled:  # the scan's scores (one per position) and class sums
        scratch = [np.empty(n), np.zeros(max(K, 1)), np.zeros(max(K, 1))]
    seg_len = np.array([n], dtype=np.int64)
    node_of_row = np.zeros(n, dtype=np.int32)  # open-node index of each row, -1 when closed
    alive = np.arange(n, dtype=np.int32)  # rows in open nodes, increasing
    n_alive = n  # the compiled engine keeps them in alive[:n_alive]
    go_right = np.zeros(n, dtype=np.int8)
    open_value, open_W, open_imp = value, W, impurity
    open_ids = np.array([0])
    depth = 0

    while open_ids.size:
        J = open_ids.size
        level = _Level.of(seg_len, open_value, open_W, data, full=not scan_compiled)
        rows = lists[-1] if need_rows else None
        allowed = (None if max_features is None
                   else _features_per_node(X, lists, level, max_features, seed, columns, rows,
                                           categorical))
        # ---- score every cut of every open node, feature by feature; keep each node's best
        best_go = None
        chosen = _choose_cuts(
            lists, reach, level, data, allowed, X=X, columns=columns,
            categorical=categorical if need_rows else None,
            rows=rows, subset_split=subset_split, n_categories=n_categories,
            compiled=scan_compiled, scratch=scratch, missing_rank=missing_rank,
            learn_split=learn_split if has_missing else None, feature_order=feature_order)
        best_f, best_p, codes = chosen[:3]
        if has_missing:
            best_go = chosen[3]
        has_cut = best_f >= 0
        if not has_cut.any():
            break
        # ---- partition: which rows go right of the chosen cut, and the thresholds
        cut_nodes = np.flatnonzero(has_cut)
        lower_row, upper_row = _rows_going_right(lists, best_f, best_p, cut_nodes, level,
                                                 go_right, columns,
                                                 codes if need_rows else None, X, rows,
                                                 compiled, best_go)
        feat = best_f[cut_nodes]
        num_cut = lower_row >= 0
        thr = np.full(cut_nodes.size, np.nan)
        thr[num_cut] = midpoint_threshold(X[lower_row[num_cut], feat[num_cut]],
                                          X[upper_row[num_cut], feat[num_cut]])
        if has_missing:  # known | missing: the threshold +inf
            thr[num_cut & np.isnan(X[np.maximum(upper_row, 0), feat])] = np.inf

        # ---- children statistics, rows in increasing order (as the recursive grower adds)
        if compiled:  # the same sums in the same order, in one loop; alive shrinks in place
            c_value, c_W, c_n, c_imp = _child_summaries(alive, n_alive, node_of_row, go_right,
                                                        has_cut, data, J)
            n_alive = int(c_n.sum())
        else:
            alive = alive[has_cut[node_of_row[alive]]]
            key = node_of_row[alive].astype(np.intp)  # 2·node + side
            key *= 2
            key += go_right[alive]
            c_value, c_W, c_n, c_imp = node_summaries(key, y[alive],
                                                      None if unit else w[alive], 2 * J, K,
                                                      crit)
        WL, WR = c_W[0::2], c_W[1::2]
        impL, impR = c_imp[0::2], c_imp[1::2]
        Wt = open_W
        improvement = (Wt / W_root) * (open_imp - (WR / Wt * impR) - (WL / Wt * impL))
        do_split = has_cut & ~(improvement + IMPURITY_TOLERANCE < min_impurity_decrease)
        if not do_split.any():
            break
        s_nodes = np.flatnonzero(do_split)
        slots = np.stack([2 * s_nodes, 2 * s_nodes + 1], axis=1).ravel()
        child_ids = nodes.add(np.repeat(open_ids[s_nodes], 2), depth + 1, c_value[slots],
                              c_W[slots], c_n[slots], c_imp[slots])
        in_cut = np.searchsorted(cut_nodes, s_nodes)
        nodes.split(open_ids[s_nodes], feat[in_cut], thr[in_cut], child_ids[0::2],
                    [codes[j] for j in s_nodes.tolist()] if need_rows else None)
        if has_missing:
            missing_go_of.update(zip(open_ids[s_nodes].tolist(), best_go[s_nodes].tolist()))

        # ---- the open children, in order, and each feature's rows partitioned into them
        child_open = ((c_n[slots] >= mss) & (c_imp[slots] > IMPURITY_TOLERANCE)
                      & (depth + 1 < max_depth) & (c_W[slots] >= 2 * mwl))
        depth += 1
        open_slots = slots[child_open]
        if open_slots.size == 0:
            break
        slot_size = c_n.astype(np.int64)
        slot_size[0::2][~has_cut] = seg_len[~has_cut]  # rows of uncut nodes sit on side 0
        _partition_lists(lists, go_right, slot_size, open_slots, level.n_a, compiled, seg_len,
                         spare)
        new_index = np.full(2 * J, -1, dtype=np.int32)
        new_index[open_slots] = np.arange(open_slots.size)
        if compiled:
            n_alive = kernels.advance_rows(alive, n_alive, node_of_row, go_right, new_index)
        else:
            node_of_row[alive] = new_index[key]
            del key
            alive = alive[node_of_row[alive] >= 0]
        open_ids = child_ids[child_open]
        seg_len = slot_size[open_slots]
        open_value = c_value[open_slots]
        open_W = c_W[open_slots]
        open_imp = c_imp[open_slots]
    del lists, rows, spare, scratch, level, node_of_row, alive, go_right  # before the tree
    return _with_missing_go(nodes.tree(regression, metadata or {}), missing_go_of, missing)


def _with_missing_go(tree: Tree, missing_go_of: dict, missing: str) -> Tree:
    """The tree with ``missing_go`` (``missing="learn"``): ``missing_go_of`` maps the
    grower's node ids (breadth first, left before right: the order :class:`_Nodes`
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
