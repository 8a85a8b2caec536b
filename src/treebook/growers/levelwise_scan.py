"""The level-wise grower's score step: every cut of every open node of one depth.

For one feature, cumulative sums of the class weights (or of ``w``, ``w·y``) along its
attribute list, each node's from zero (:func:`segment_cumsum`), give the left sums of
every cut of every node (:func:`cut_scores`), as the recursive grower adds them; a segmented maximum keeps each node's best
(:func:`keep_best`). The compiled engine runs the same scan in
:func:`treebook.kernels.cart.scan_feature`, and categorical columns go through CART's
subset search node by node. :func:`choose_cuts` is the step the driver
(:func:`treebook.growers.levelwise.grow_levelwise`) calls.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.feature_draw import features_to_consider, node_permutation
from ..core.cart_scores import FEATURE_THRESHOLD, tie_floor
from ..kernels import cart as kernels
from ..kernels.subsets import scan_subsets
from .attribute_lists import NO_LABELS, NO_RANKS, NO_Y, ROW_BITS, code_bits, entry_rows

__all__ = ["LevelData", "Level", "choose_cuts", "features_per_node", "cut_scores",
           "keep_best", "keep_best_missing", "segment_cumsum"]

@dataclass(frozen=True)
class LevelData:
    """What every level's steps read: targets, weights and the fixed choices of the fit."""

    y: np.ndarray
    w: np.ndarray
    unit: bool          # every weight is 1: left weights are positions
    regression: bool
    K: int
    ybits: int          # 1 when the class rides in the attribute lists (two classes)
    msl: int            # min_samples_leaf
    crit: object        # the criterion (treebook.core.criteria)
    mwl: float = 0.0    # min_weight_leaf: the least weight of a child
    X: np.ndarray | None = None  # the features (the packed scan compares close values)
    compiled_subsets: bool = False  # categorical columns by kernels.subsets.scan_subsets
    max_exhaustive: int = 12        # K >= 3: every subset up to this many categories


@dataclass(frozen=True)
class Level:
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
    def of(cls, seg_len, open_value, open_W, data: LevelData, full: bool = True) -> "Level":
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


def segment_cumsum(c, starts, seg_len):
    """Running sums of ``c`` in place, each segment's from zero: bit for bit what
    ``np.cumsum`` of the segment alone gives (the recursive grower's prefix sums of one
    node), since every sum adds the same numbers in the same order.

    One cumulative sum over the whole array with each segment's offset subtracted would
    round differently (its error grows with everything summed before the segment). So
    the segments are cut out into padded tables, one per power-of-two length class, and
    ``np.cumsum`` runs along each table's rows (zeros pad the rows' ends, after every sum
    that is kept)."""
    n_seg = starts.shape[0]
    if n_seg == 1:
        np.cumsum(c[starts[0]:starts[0] + seg_len[0]], out=c[starts[0]:starts[0] + seg_len[0]])
        return c
    width_class = np.frexp((seg_len - 1).astype(float))[1]  # 2**e >= length
    for e in np.unique(width_class).tolist():
        sel = np.flatnonzero(width_class == e)
        lens = seg_len[sel]
        if lens.max() == 1:
            continue  # one-row segments are their own sums
        col = np.arange(int(lens.sum()), dtype=np.intp)
        col -= np.repeat(np.cumsum(lens) - lens, lens)
        src = np.repeat(starts[sel], lens)
        src += col
        row = np.repeat(np.arange(sel.shape[0], dtype=np.intp), lens)
        table = np.zeros((sel.shape[0], 1 << e))
        table[row, col] = c[src]
        np.cumsum(table, axis=1, out=table)
        c[src] = table[row, col]
    return c


def _sub_segments(starts, seg_len, cut_at):
    """The segments split before positions ``cut_at`` (each inside its segment, or at its
    start): the sums restart there too."""
    sub = np.union1d(starts, cut_at)
    return sub, np.diff(np.append(sub, starts[-1] + seg_len[-1]))


def cut_scores(P, reach_f, level: Level, data: LevelData, missing_rank: int = -1, x_f=None):
    """Score step: the criterion's scan score of the cut after every position of one
    feature's attribute list ``P`` (``-inf`` where no cut may be made).

    With missing values in the column (``missing_rank >= 0``, the rank of NaN in ``P``;
    ``x_f``: the column) also scikit-learn's other candidates: returns ``(score,
    score_left, last)``, where ``score`` has the missing block on the right of each cut
    of the known values, ``score_left`` on the left, and ``score_left[last[j]]`` (the
    cut after node ``j``'s last known value) is the split of the known rows from the
    missing ones (threshold +inf), which scikit-learn tries last. A node with missing
    values and constant known ones has no candidate (:func:`treebook.growers.cart_search.learn_candidates`).
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
        chk = np.flatnonzero(code_bits(P[:-1], 1 << ybits).view(bool))
        chk = chk[~invalid[chk]]
        close_ranks, first_far = reach_f
        far = first_far[np.searchsorted(close_ranks, g[chk] >> 1)]
        invalid[chk[(g[chk + 1] >> 1) < far]] = True
    if missing:
        rank_bad = invalid.copy()  # the cuts no side of the missing block can make
        invalid |= level.base_bad
        n_miss = np.add.reduceat(((g >> 1) == missing_rank).astype(np.int64), starts)
    del g
    rows = None if (unit and K == 2) else P & ROW_BITS
    # Every sum runs from zero at each node's first position, in list order (ties in row
    # order: the lists are sorted stably), as the recursive grower's prefix sums of the
    # node do (:func:`treebook.core.splits.threshold_tables`); with missing values also
    # from zero at the missing block, in row order (its ``np.bincount``). Unit weights
    # give integer counts, exact however they are summed.
    sums_at, sums_len = starts, seg_len
    if missing:
        last = starts + seg_len - n_miss - 1  # each node's last known position
        has = n_miss > 0
        sums_at, sums_len = _sub_segments(starts, seg_len, (last + 1)[has])
        block_end = starts + seg_len - 1  # the missing block's sums are at its end
    if unit:
        w_left, w_right = level.w_left, level.w_right
    else:
        ws = w[rows]
    if data.regression:
        mean_pos = level.mean_pos
        if unit:
            s1 = segment_cumsum(y[rows].astype(np.float64), sums_at, sums_len)
            w_sum = w_left
        else:
            s1 = segment_cumsum(ws * y[rows], sums_at, sums_len)
            w_sum = w_left = segment_cumsum(ws.copy(), sums_at, sums_len)
            w_right = np.repeat(level.open_W, seg_len)
            w_right -= w_left
        # s_1 = Σ_left w·y - |D_1|·ȳ, as the recursive grower forms it
        c = s1 - w_sum * mean_pos
        score = crit.split_proxy(c, w_left, w_right)
        if missing:
            w_miss = (np.asarray(n_miss, dtype=float) if unit
                      else np.where(has, w_sum[block_end], 0.0))
            wl_left = w_left + np.repeat(w_miss, seg_len)
            wl_right = np.repeat(level.open_W, seg_len)
            wl_right -= wl_left
            s1 += np.repeat(np.where(has, s1[block_end], 0.0), seg_len)
            score_left = crit.split_proxy(s1 - wl_left * mean_pos, wl_left, wl_right)
    else:
        left = []
        for k in (range(2) if K == 2 and not unit else range(1, 2) if K == 2 else range(K)):
            if K == 2:
                ind = code_bits(P, 1)
                if k == 0:
                    ind = ind ^ 1
            else:
                ind = y[rows] == k
            if unit and not missing:
                # left counts inside each segment: one cumulative sum, restarted at
                # every segment by removing the previous total (exact: integers)
                c = ind.astype(np.float64)
                c[starts[1:]] -= level.open_value[:-1, k]
                np.cumsum(c, out=c)
            elif unit:
                c = segment_cumsum(ind.astype(np.float64), sums_at, sums_len)
            else:
                c = segment_cumsum(ws * ind, sums_at, sums_len)
            left.append(c)
            del c, ind
        if not unit:  # |D_1| = Σ_k C_1k, in class order (side_weight)
            w_left = left[0].copy()
            for c in left[1:]:
                w_left += c
            w_right = np.repeat(level.open_W, seg_len)
            w_right -= w_left
        if K == 2 and unit:
            left.insert(0, None)
        if missing:
            # missing on the left: add the missing block's class weights to every cut
            miss = [None if c is None else np.repeat(np.where(has, c[block_end], 0.0), seg_len)
                    for c in left]
            if unit:
                wl_left = w_left + np.repeat(n_miss.astype(float), seg_len)
            else:
                wl_left = left[0] + miss[0]
                for c, m_c in zip(left[1:], miss[1:]):
                    wl_left += c + m_c
            wl_right = np.repeat(level.open_W, seg_len)
            wl_right -= wl_left
        tot_pos = level.tot_pos
        if K == 2:
            l1 = left[1]
            score = crit.two_class_score(l1, tot_pos[1] - l1, w_left, w_right)
            if missing:
                l1 = l1 + miss[1]
                score_left = crit.two_class_score(l1, tot_pos[1] - l1, wl_left, wl_right)
        else:
            right = [tot_pos[k] - left[k] for k in range(K)]
            score = crit.split_proxy(left, right, w_left, w_right)
            if missing:
                left = [left[k] + miss[k] for k in range(K)]
                right = [tot_pos[k] - left[k] for k in range(K)]
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
    lo = x_f[P[starts] & ROW_BITS]
    hi = x_f[P[np.maximum(last, starts)] & ROW_BITS]
    varies = known & (hi > lo + FEATURE_THRESHOLD)
    j = np.flatnonzero(has & varies)
    score_left[last[j]] = score[last[j]]
    score[last[j]] = -np.inf
    score[np.repeat(has & ~varies, seg_len)] = -np.inf
    score_left[np.repeat(~(has & varies), seg_len)] = -np.inf
    return score, score_left, last


def keep_best(score, f: int, level: Level, best_val, best_f, best_p) -> None:
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


def keep_best_missing(score, score_left, last, f: int, level: Level, best_val, best_f,
                       best_p, best_go) -> None:
    """:func:`keep_best` for a feature with missing values (:func:`cut_scores`' three
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


def features_per_node(X, lists, level: Level, k: int, seed: int, columns, rows,
                       categorical) -> np.ndarray:
    """``(J, m)`` mask: the features each open node may split on under ``max_features=k``
    (:mod:`treebook.core.feature_draw`; a node's draw depends on its set of rows only).
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
            lo = X[entry_rows(P[starts]), f]
            hi = X[entry_rows(P[ends]), f]
            if np.isnan(hi).any():  # missing values sort last: the largest known value
                hi = np.fmax.reduceat(X[entry_rows(P), f], starts)
            varies[:, f] = hi > lo + FEATURE_THRESHOLD
    some = rows if rows is not None else entry_rows(lists[0])
    first = np.minimum.reduceat(some, starts)
    total = np.add.reduceat(some, starts, dtype=np.int64)
    perms = np.stack([node_permutation(seed, c, a, t, m)
                      for c, a, t in zip(seg_len.tolist(), first.tolist(), total.tolist())])
    return features_to_consider(perms, varies, k)


def _scan_compiled(P, reach_f, f, level: Level, data: LevelData, allowed_f, best, scratch):
    """Score and choose step for one numeric feature with :func:`treebook.kernels.cart.scan_feature`
    (Gini or squared error): the same numbers as :func:`cut_scores` + :func:`keep_best`."""
    kernels.scan_feature(
        P, data.ybits == 1, level.starts, level.seg_len,
        NO_LABELS if data.regression else data.y, data.y if data.regression else NO_Y,
        data.w, data.unit,
        kernels.SQUARED_ERROR_SCAN if data.regression else kernels.GINI_SCAN,
        0 if data.regression else data.K, level.open_value, level.open_W, data.msl,
        data.mwl, data.X[:, f], FEATURE_THRESHOLD, allowed_f, f, best[0], best[1], best[2],
        scratch[0], scratch[1])


def _scan_compiled_missing(P, reach_f, missing_rank, x_f, f, level: Level, data: LevelData,
                           allowed_f, best, best_go, scratch):
    """``_scan_compiled`` for a column with missing values, with
    :func:`treebook.kernels.cart.scan_feature_missing`: the numbers of :func:`cut_scores` +
    :func:`keep_best_missing`."""
    close_ranks, first_far = reach_f if reach_f is not None else (NO_RANKS, NO_RANKS)
    if len(scratch) == 3:  # the second score list, made once
        scratch.append(np.empty(scratch[0].shape[0]))
    kernels.scan_feature_missing(
        P, 32 + data.ybits, missing_rank, x_f, FEATURE_THRESHOLD, level.starts,
        level.seg_len, NO_LABELS if data.regression else data.y,
        data.y if data.regression else NO_Y, data.w, data.unit,
        kernels.SQUARED_ERROR_SCAN if data.regression else kernels.GINI_SCAN,
        0 if data.regression else data.K, level.open_value, level.open_W, data.msl,
        data.mwl, close_ranks, first_far, allowed_f, f, best[0], best[1], best[2], best_go,
        scratch[0], scratch[3], scratch[1], scratch[2])


def _subset_scan(X, f, rows, level: Level, data: LevelData, allowed_f, best, codes,
                 subset_split, n_categories: int) -> None:
    """Score and choose step for one categorical feature: ``subset_split`` (the recursive
    grower's subset search, :func:`treebook.growers.subsets.subset_candidates`) on every open node's
    rows, in increasing row order; a node keeps it when it beats its best by more than a
    tie, as :func:`keep_best` does."""
    best_val, best_f, best_p = best
    if data.compiled_subsets:
        boc = np.zeros((level.seg_len.shape[0], n_categories), dtype=np.int64)
        before = best_f.copy()
        scan_subsets(
            rows, X[:, f], level.starts, level.seg_len,
            NO_LABELS if data.regression else data.y, data.y if data.regression else NO_Y,
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


def _subset_scan_missing(X, f, rows, level: Level, data: LevelData, allowed_f, best, codes,
                         subset_split, learn_split, n_categories: int, best_go) -> None:
    """``_subset_scan`` (numpy, both engines) for a categorical column with missing
    values: a node with missing values searches with ``learn_split``
    (:func:`treebook.growers.cart_search.learn_candidates`, scikit-learn's candidates), the others with
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


def choose_cuts(lists, reach, level: Level, data: LevelData, allowed=None, *, X=None,
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
                score, score_left, last = cut_scores(lists[li], reach[li], level, data,
                                                      miss, X[:, f])
                if allowed is not None:
                    hide = np.repeat(~allowed_f, level.seg_len)
                    np.copyto(score, -np.inf, where=hide)
                    np.copyto(score_left, -np.inf, where=hide)
                keep_best_missing(score, score_left, last, f, level, best_val, best_f,
                                   best_p, best_go)
                go_f[best_f == f] = f
                continue
            score = cut_scores(lists[li], reach[li], level, data)
            if allowed is not None:
                np.copyto(score, -np.inf, where=np.repeat(~allowed_f, level.seg_len))
            keep_best(score, f, level, best_val, best_f, best_p)
    if categorical is not None:  # a subset kept earlier may have lost to a later cut
        codes = [c if c is not None and categorical[best_f[j]] else None
                 for j, c in enumerate(codes)]
    if missing_rank is None and learn_split is None:
        return best_f, best_p, codes
    # a go kept earlier may have lost to a later feature
    return best_f, best_p, codes, np.where((best_f >= 0) & (go_f == best_f), best_go, -1)
