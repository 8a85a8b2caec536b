"""Binned (histogram) CART: one machine, and the same per-level sums on Dask partitions.

Exact CART (:mod:`treebook.cart`) scans every sorted column at every node. Large-scale
growers — PLANET :cite:p:`panda2009planet`, Spark MLlib's ``DecisionTree``
:cite:p:`meng2016mllib`, LightGBM :cite:p:`ke2017lightgbm` and XGBoost's ``hist`` — instead

1. **bin** every numeric feature once: at most ``max_bins`` bins per feature, cut at
   quantiles of its values (:func:`bin_edges`; a feature with at most ``max_bins``
   distinct values gets one bin per value);
2. per depth level, in **one pass over the rows**, sum a **histogram** per
   (node, feature, bin): the weighted class counts and the row count (classification),
   or ``Σw``, ``Σwy``, ``Σwy²`` and the row count (regression) — :func:`level_histogram`;
3. choose every node's split from its histograms alone — cuts lie only between bins —
   with the same criterion objects (``treebook.core.criteria``) and the same rules
   (midpoint thresholds, ``min_samples_leaf``, ties to the first feature and the smallest
   cut) as exact CART — :func:`best_bin_split`.

Because step 3 only reads sums, the rows can live anywhere: step 2 runs on each data
partition and the partial histograms are added up (:func:`tree_sum`, a pairwise
reduction in partition order, so that sums of fractional weights come out the same bits
every time). :class:`HistCARTClassifier` and :class:`HistCARTRegressor` fit numpy/pandas
data on one machine and Dask arrays or DataFrames (the ``scale`` extra) on a cluster,
with one grower (:func:`grow_hist`) for both: only the function that returns a level's
histograms differs.

**Equal to exact CART.** When every distinct value of a feature has its own bin, the
candidate cuts at a node are exactly exact CART's (between adjacent values present at
the node) and the threshold is the same midpoint ``v/2 + v'/2`` of those two values
(each bin remembers its smallest and largest training value). With one block of rows
(the default) the node statistics are summed in row order as exact CART sums them, so
the two grow the same tree (tested on several data sets).

**Reproducible sums.** The order in which floating-point numbers are added is part of
the definition: inside a block of rows, sequentially in row order; across blocks,
:func:`tree_sum`. ``block_size=b`` on one machine uses blocks of ``b`` rows, which are
exactly the partitions of a Dask array chunked by ``b`` rows: the two trees are then
equal bit for bit, fractional weights included.

**Categorical columns** (pandas categorical/object/bool, as for
:class:`treebook.cart.CARTClassifier`): the bins are the categories, one each, whatever
``max_bins`` says, and a node splits them into two subsets as exact CART does —
Breiman's ordering for two classes and regression, every subset (or the per-class
orderings) for three classes or more (:func:`treebook.cart.subset_split_of_stats`, on
the per-category sums the histogram already holds). On Dask a categorical column must
have a pandas ``category`` dtype with known categories, so every partition uses the
same codes.

**Missing values** (NaN) fall in a **missing bin** of their own. A node whose rows miss
the feature tries every candidate with the missing bin on the right, then on the left,
then the split of the known rows from the missing ones — scikit-learn's
``DecisionTree`` rule (``missing="learn"`` of exact CART), in exact CART's order
(:func:`treebook.cart.learn_split_of_sums`); a node that saw no missing value sends one
to the child with more training rows, ties to the right
(:func:`treebook.cart.missing_rule_of_tree`). With every value in its own bin the tree
is exact CART's with ``missing="learn"`` (tested with integer weights; fractional ones
may round differently, the known rows' sums being added per bin).

scikit-learn's ``HistGradientBoosting`` (1.9, ``splitting.pyx``, ``grower.py``) learns
the side the same way — a left-to-right scan with the missing bin right (its last cut
is known | missing), then a right-to-left scan with it left, kept only if strictly
better — with three differences: its gain is the gradient/hessian loss, not an
impurity; it decides "had missing values" per *feature over the whole training set*, so
at a node whose rows miss nothing, while other rows do, the empty missing bin goes
right (the first scan wins the tie) where this grower sends it to the larger child; and
its categorical splits treat missing as a category of their own.

**Limits.** No ``max_features``, ``max_leaf_nodes``, ``min_weight_fraction_leaf`` or
pruning options.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .core.base import (DecisionTreeClassifierBase, DecisionTreeRegressorBase, Interval,
                   Options, Registered, validate_params)
from .core.checks import require_optional
from .core.criteria import Criterion, criterion_names, get_criterion
from .cart import (learn_split_of_sums, missing_rule_of_tree, subset_masks,
                   subset_split_of_stats)
from .core.splits import (CONSTANT_RESIDUE, FEATURE_THRESHOLD, IMPURITY_TOLERANCE,
                     class_split_score, first_best, midpoint_threshold,
                     subset_branch_of_code, tie_floor)
from .core.tree import NodeKind, Tree, TreeBuilder

__all__ = [
    "BinMapper",
    "bin_edges",
    "value_summary",
    "merge_summaries",
    "level_histogram",
    "combine_histograms",
    "tree_sum",
    "numpy_level_histograms",
    "best_bin_split",
    "BinSplit",
    "grow_hist",
    "HistCARTClassifier",
    "HistCARTRegressor",
]


# ============================================================================ binning
def value_summary(x, max_points: int | None = None):
    """A mergeable summary of one column of one block of rows: ``(values, counts)``.

    ``max_points=None`` (the *exact* pass): the distinct values and how many rows hold
    each. Otherwise (the *sketch*): if the block has at most ``max_points`` distinct
    values, the same exact answer; else ``max_points`` order statistics of the sorted
    block (those of rank ``⌈k·n/max_points⌉``, ``k = 1 … max_points``, plus the minimum),
    each standing for the rows from the previous one up to it. Missing values (NaN) are
    left out: they get a bin of their own. Merged over blocks
    (:func:`merge_summaries`), a rank read from the sketch is off by less than
    ``n_block/max_points`` rows per block: less than ``n/max_points`` in all.
    """
    x = np.asarray(x, dtype=float)
    x = x[~np.isnan(x)]  # missing values have their own bin (BinMapper.missing_bin)
    values, counts = np.unique(x, return_counts=True)
    if max_points is None or values.size <= max_points:
        return values, counts.astype(np.int64)
    xs = np.sort(x)
    n = xs.size
    ranks = np.unique(np.concatenate(
        [[0], np.ceil(np.arange(1, max_points + 1) * n / max_points).astype(np.int64) - 1]))
    counts = np.diff(np.concatenate([[-1], ranks]))
    return xs[ranks], counts.astype(np.int64)


def merge_summaries(summaries):
    """Merge ``(values, counts)`` summaries of several blocks: equal values add their
    counts (integers, so the order of the blocks does not matter)."""
    summaries = list(summaries)
    values = np.concatenate([s[0] for s in summaries])
    counts = np.concatenate([s[1] for s in summaries])
    distinct, inverse = np.unique(values, return_inverse=True)
    return distinct, np.bincount(inverse, weights=counts, minlength=distinct.size).astype(np.int64)


@validate_params({"max_bins": Interval(int, 2, 65535)})
def bin_edges(values, counts, max_bins: int = 256):
    """Bins of one feature from its distinct ``values`` (sorted) and their row ``counts``.

    Returns ``(edges, lo, hi)``: bin ``b`` holds ``edges[b-1] < x <= edges[b]``
    (``len(edges) = n_bins - 1``), and ``lo[b]``/``hi[b]`` are the smallest and largest
    known value in it. With ``D <= max_bins`` distinct values every value is a bin and the
    edges are the midpoints between neighbours. Otherwise the bins are quantile bins: for
    each target rank ``k·N/max_bins`` (``k = 1 … max_bins-1``, ``N`` rows) cut after the
    value whose cumulative count is nearest to it (of the first value reaching it and the
    one before; a tie goes to the first), merged where two targets pick one value — so a
    value holding many rows is never split, and there may be fewer bins.
    """
    values = np.asarray(values, dtype=float)
    counts = np.asarray(counts, dtype=np.int64)
    if values.ndim != 1 or values.shape != counts.shape or values.size == 0:
        raise ValueError("values and counts must be 1-d arrays of one equal, non-zero length")
    D = values.size
    if D <= max_bins:
        return midpoint_threshold(values[:-1], values[1:]), values.copy(), values.copy()
    cum = np.cumsum(counts)
    targets = cum[-1] * np.arange(1, max_bins) / max_bins
    j = np.searchsorted(cum, targets, side="left")  # first value reaching each target
    prev = np.maximum(j - 1, 0)
    nearer = (j > 0) & (targets - cum[prev] < cum[j] - targets)
    last = np.unique(np.where(nearer, prev, j))  # the last value of each bin
    last = last[last < D - 1]
    first = np.concatenate([[0], last + 1])
    last = np.concatenate([last, [D - 1]])
    return midpoint_threshold(values[last[:-1]], values[first[1:]]), values[first], values[last]


@dataclass(frozen=True, eq=False)
class BinMapper:
    """The bins of every feature: ``edges[f]``, ``lo[f]``, ``hi[f]`` as from
    :func:`bin_edges`; ``categorical[f]`` marks a column of category codes ``0 … L-1``,
    whose bins are its categories (bin ``c`` = category ``c``). Every feature also has
    the **missing bin** :attr:`missing_bin` (one past the largest bin of any feature),
    where NaN goes. :meth:`transform` maps values to bin codes."""

    edges: tuple
    lo: tuple
    hi: tuple
    categorical: tuple = ()

    @classmethod
    def from_summaries(cls, per_feature, max_bins: int, n_categories=None) -> "BinMapper":
        """From one merged ``(values, counts)`` summary per feature; ``n_categories[f]``
        (0 for a numeric feature) makes feature ``f`` categorical with that many bins."""
        n_categories = [0] * len(per_feature) if n_categories is None else list(n_categories)
        parts = []
        for (v, c), L in zip(per_feature, n_categories):
            if L:  # one bin per category, whatever max_bins says
                codes = np.arange(L, dtype=float)
                parts.append((codes[:-1] + 0.5, codes, codes))
            elif v.size == 0:  # every value missing: one (empty) known bin
                parts.append((np.empty(0), np.zeros(1), np.zeros(1)))
            else:
                parts.append(bin_edges(v, c, max_bins))
        if max((p[0].size + 1 for p in parts), default=0) > 65535:
            raise ValueError("a categorical column has more than 65535 categories: bin "
                             "codes (uint16) cannot hold them with the missing bin")
        return cls(*(tuple(p[i] for p in parts) for i in range(3)),
                   categorical=tuple(bool(L) for L in n_categories))

    @classmethod
    def fit(cls, X, max_bins: int = 256, *, block_size: int | None = None,
            sketch_points: int | None = None, n_categories=None) -> "BinMapper":
        """Bins from a numeric matrix (NaN for missing; category codes in the columns
        with ``n_categories[f] > 0``), summarised per block of ``block_size`` rows with
        :func:`value_summary` (``sketch_points=None``: exact) and merged."""
        X = np.asarray(X, dtype=float)
        blocks = _blocks(X.shape[0], block_size)
        return cls.from_summaries(
            [merge_summaries(value_summary(X[a:b, f], sketch_points) for a, b in blocks)
             for f in range(X.shape[1])], max_bins, n_categories)

    @property
    def n_bins(self) -> np.ndarray:
        """Known-value bins per feature (the missing bin not counted)."""
        return np.array([e.size + 1 for e in self.edges])

    @property
    def missing_bin(self) -> int:
        """The bin code of a missing value, the same for every feature."""
        return int(self.n_bins.max())

    @property
    def is_categorical(self) -> np.ndarray:
        return np.array(self.categorical if self.categorical else [False] * len(self.edges))

    def transform(self, X) -> np.ndarray:
        """Bin codes, shape ``(n, m)``: ``code = #{edges < x}`` (``uint16``); NaN gets
        :attr:`missing_bin`."""
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != len(self.edges):
            raise ValueError(f"X must have {len(self.edges)} columns; got shape {X.shape}")
        out = np.empty(X.shape, dtype=np.uint16)
        for f, e in enumerate(self.edges):
            x = X[:, f]
            out[:, f] = np.where(np.isnan(x), self.missing_bin,
                                 np.searchsorted(e, x, side="left"))
        return out


def _blocks(n: int, block_size: int | None):
    if block_size is None or block_size >= n:
        return [(0, n)]
    return [(a, min(a + block_size, n)) for a in range(0, n, block_size)]


# ============================================================================ histograms
@njit(cache=True)
def level_histogram(codes, target, weight, feature, route, left, right, slot, n_slots,
                    n_bins, n_classes):
    """One pass over a block of rows: the histograms of every open node of a level.

    Each row walks the tree grown so far in bin space (at node ``i`` it goes to
    ``right[i]`` when ``route[i, codes[row, feature[i]]]`` is 1, else to ``left[i]``:
    a threshold, a subset of categories and the side of the missing bin are all one row
    of ``route``; ``feature[i] < 0`` at a leaf). ``n_bins``: bins per feature in the
    histogram, the missing bin included. If its leaf is open (``slot[leaf] = s >= 0``) its
    weight is added to ``hist[s, f, codes[row, f], :]`` for every feature ``f``:

    * classification (``n_classes = K > 0``): channel ``k`` = weight of class ``k``,
      channel ``K`` = rows;
    * regression (``n_classes = 0``): channels ``Σw``, ``Σwy``, ``Σwy²``, rows.

    ``totals[s]`` are the same sums over the node's rows (classification: the class
    weights, then ``Σw``, then rows), and ``ymin``/``ymax`` the extreme responses
    (regression). Every sum runs sequentially in row order.
    """
    n, m = codes.shape
    n_channels = n_classes + 1 if n_classes > 0 else 4
    hist = np.zeros((n_slots, m, n_bins, n_channels))
    totals = np.zeros((n_slots, n_classes + 2 if n_classes > 0 else 4))
    ymin = np.full(n_slots, np.inf)
    ymax = np.full(n_slots, -np.inf)
    for i in range(n):
        node = 0
        while feature[node] >= 0:
            if route[node, codes[i, feature[node]]]:
                node = right[node]
            else:
                node = left[node]
        s = slot[node]
        if s < 0:
            continue
        w = weight[i]
        if n_classes > 0:
            k = np.int64(target[i])
            totals[s, k] += w
            totals[s, n_classes] += w
            totals[s, n_classes + 1] += 1.0
            for f in range(m):
                b = codes[i, f]
                hist[s, f, b, k] += w
                hist[s, f, b, n_classes] += 1.0
        else:
            yv = target[i]
            wy = w * yv
            wyy = wy * yv
            totals[s, 0] += w
            totals[s, 1] += wy
            totals[s, 2] += wyy
            totals[s, 3] += 1.0
            ymin[s] = min(ymin[s], yv)
            ymax[s] = max(ymax[s], yv)
            for f in range(m):
                b = codes[i, f]
                hist[s, f, b, 0] += w
                hist[s, f, b, 1] += wy
                hist[s, f, b, 2] += wyy
                hist[s, f, b, 3] += 1.0
    return hist, totals, ymin, ymax


def combine_histograms(a, b):
    """Two blocks' ``(hist, totals, ymin, ymax)`` as one: sums add, extremes combine."""
    return (a[0] + b[0], a[1] + b[1], np.minimum(a[2], b[2]), np.maximum(a[3], b[3]))


def tree_sum(parts, combine=combine_histograms):
    """Reduce ``parts`` pairwise in order — ``((p0+p1)+(p2+p3))+p4`` — with ``combine``.

    The shape of the reduction depends only on the number of parts, so any machine (or
    a Dask graph built with the same function) adds the same numbers in the same order.
    """
    parts = list(parts)
    if not parts:
        raise ValueError("parts must not be empty")
    while len(parts) > 1:
        pairs = [combine(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
        parts = pairs + (parts[-1:] if len(parts) % 2 else [])
    return parts[0]


# ============================================================================ splits
@dataclass(frozen=True)
class BinSplit:
    """A node's binned split: ``score``, ``feature``, ``route`` (per bin of the feature,
    the missing bin last: 1 = right), the tree's test — ``threshold`` (numeric) or
    ``branch_of_code`` (categorical) — and ``missing_go`` (the side of the missing
    values, -1 when the node had none)."""

    score: float
    feature: int
    route: np.ndarray
    threshold: float = np.nan
    branch_of_code: np.ndarray | None = None
    missing_go: int = -1


def _sums(h, n_classes):
    """The channels CART's scans read: class weights, or ``[Σ w, Σ w·y]``."""
    return h[..., :n_classes] if n_classes else h[..., :2]


def _threshold_bin_split(f, h, hm, lo, hi, value, total_w, n_classes, criterion,
                         min_samples_leaf):
    """Numeric feature ``f``: exact CART's threshold scan (no missing value at the node,
    :func:`treebook.cart.cart_split_finder`) or scikit-learn's missing-value scan
    (:func:`treebook.cart.learn_split_of_sums`), on bins."""
    rows = h[:, -1]
    n_miss = int(hm[-1])
    nonempty = np.flatnonzero(rows > 0)
    if nonempty.size == 0 or (n_miss == 0 and nonempty.size < 2):
        return None
    if n_miss and not hi[nonempty[-1]] > lo[nonempty[0]] + FEATURE_THRESHOLD:
        return None  # constant known values: scikit-learn skips the feature
    cuts, nxt = nonempty[:-1], nonempty[1:]
    prefix = np.cumsum(h, axis=0)[cuts]
    lower, upper = hi[cuts], lo[nxt]
    n_left = prefix[:, -1]
    n_known = int(rows.sum())
    route = np.zeros(h.shape[0] + 1, np.int8)
    if n_miss:
        ok = upper > lower + FEATURE_THRESHOLD
        cuts, lower, upper, prefix = cuts[ok], lower[ok], upper[ok], prefix[ok]
        found = learn_split_of_sums(_sums(prefix, n_classes), prefix[:, -1].astype(np.int64),
                                    _sums(h.sum(axis=0), n_classes), _sums(hm, n_classes),
                                    n_known, n_miss, (value, total_w), n_classes, criterion,
                                    min_samples_leaf)
        if found is None:
            return None
        score, j, go = found
        route[-1] = go
        if j < 0:
            return BinSplit(score, f, route, threshold=np.inf, missing_go=go)
        route[cuts[j] + 1:-1] = 1
        return BinSplit(score, f, route, float(midpoint_threshold(lower[j], upper[j])),
                        missing_go=go)
    ok = (upper > lower + FEATURE_THRESHOLD) & (n_left >= min_samples_leaf) \
        & (n_known - n_left >= min_samples_leaf)
    if not ok.any():
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        if n_classes == 0:
            w_left = prefix[:, 0]
            score = criterion.split_proxy(prefix[:, 1] - w_left * value[0], w_left,
                                          total_w - w_left)
        else:
            left_table = prefix[:, :n_classes]
            w_left = left_table.sum(axis=1)
            score = class_split_score(left_table, value, w_left, total_w - w_left,
                                      n_classes, criterion)
    score, i = first_best(np.where(ok, score, -np.inf))
    route[cuts[i] + 1:-1] = 1
    return BinSplit(score, f, route, float(midpoint_threshold(lower[i], upper[i])))


def _subset_bin_split(f, h, hm, value, total_w, n_classes, criterion, min_samples_leaf):
    """Categorical feature ``f`` (bins = categories): exact CART's subset search
    (:func:`treebook.cart.subset_split_of_stats`) or, with missing values at the node,
    scikit-learn's rule on the same subsets (:func:`treebook.cart.learn_split_of_sums`),
    from the per-category sums of the histogram."""
    stats = _sums(h, n_classes)
    rows_per_cat = h[:, -1].astype(np.int64)
    n_miss = int(hm[-1])
    L = h.shape[0]
    route = np.zeros(L + 1, np.int8)
    if n_miss == 0:
        found = subset_split_of_stats(stats, rows_per_cat, (value, total_w), n_classes, L,
                                      criterion, min_samples_leaf)
        if found is None:
            return None
        score, _, boc = found
        route[:L] = boc == 1
        return BinSplit(score, f, route, branch_of_code=boc)
    present = np.flatnonzero(rows_per_cat > 0)
    if present.size < 2:
        return None
    masks = subset_masks(stats, present, n_classes, L)
    found = learn_split_of_sums(masks.astype(float) @ stats,
                                masks.astype(np.int64) @ rows_per_cat, stats.sum(axis=0),
                                _sums(hm, n_classes), int(rows_per_cat.sum()), n_miss,
                                (value, total_w), n_classes, criterion, min_samples_leaf)
    if found is None:
        return None
    score, j, go = found
    mask = masks[j] if j >= 0 else np.isin(np.arange(L), present)
    boc = subset_branch_of_code(mask, present)
    route[:L] = boc == 1
    route[-1] = go
    return BinSplit(score, f, route, branch_of_code=boc, missing_go=go)


def best_bin_split(hist, total_w, value, lo, hi, n_bins, *, n_classes, criterion,
                   min_samples_leaf=1, categorical=None):
    """The best split of one node from its histograms: a :class:`BinSplit`, or None.

    ``hist[f, b, :]`` are the node's sums in bin ``b`` of feature ``f`` (as from
    :func:`level_histogram`; the last bin is the missing bin), ``total_w``/``value`` the
    node's weight and value (class weights, or ``[ȳ]``), ``categorical[f]`` whether
    feature ``f``'s bins are categories. Numeric: a cut lies after every non-empty bin
    that has a non-empty bin after it; its left side is the prefix sum over bins, its
    threshold the midpoint of the largest value left (``hi`` of the bin) and the
    smallest right (``lo`` of the next non-empty bin), admissible when they differ by
    more than ``FEATURE_THRESHOLD``, as in exact CART. Categorical: CART's subsets of
    the categories present (Breiman's ordering for two classes and regression). With
    missing values at the node, scikit-learn's rule: each candidate with the missing bin
    right, then left, then known | missing. Both sides keep ``min_samples_leaf`` rows;
    ties go to the first feature, then the first candidate.
    """
    m = hist.shape[0]
    categorical = np.zeros(m, bool) if categorical is None else np.asarray(categorical, bool)
    B = hist.shape[1] - 1
    best = None
    for f in range(m):
        h, hm = hist[f, : n_bins[f]], hist[f, B]
        if categorical[f]:
            cand = _subset_bin_split(f, h, hm, value, total_w, n_classes, criterion,
                                     min_samples_leaf)
        else:
            cand = _threshold_bin_split(f, h, hm, lo[f], hi[f], value, total_w, n_classes,
                                        criterion, min_samples_leaf)
        if cand is not None and (best is None or tie_floor(cand.score) > best.score):
            best = cand
    return best


def _node_stats(totals, ymin, ymax, n_classes, criterion):
    """``(value, weighted_n, n_samples, impurity)`` of nodes from their summed totals,
    with the formulas of :func:`treebook.core.splits.node_summaries`."""
    if n_classes == 0:
        W, S1, S2, n = totals[:, 0], totals[:, 1], totals[:, 2], totals[:, 3]
        safe = np.where(W > 0, W, 1.0)
        value = (S1 / safe)[:, None]
        impurity = np.asarray(criterion.impurity_from_sums(W, S1, S2, check=False), float)
        tiny = (impurity > 0) & (impurity <= CONSTANT_RESIDUE * (S2 / safe)) & (ymin == ymax)
        impurity = np.where(tiny, 0.0, impurity)
    else:
        value = totals[:, :n_classes].copy()
        W, n = totals[:, n_classes], totals[:, n_classes + 1]
        impurity = np.asarray(criterion.node_impurity(value), dtype=float)
    return value, W, n.astype(np.int64), impurity.reshape(-1)


def _children_improvement(h, route, total_w, node_imp, root_w, n_classes, criterion):
    """Scikit-learn's weighted improvement of a split, from the chosen feature's bins
    (missing bin included) and its ``route``."""
    left, right = h[route == 0].sum(axis=0), h[route == 1].sum(axis=0)
    sides = np.stack([left, right])
    if n_classes == 0:
        W, S1, S2 = sides[:, 0], sides[:, 1], sides[:, 2]
        imp = np.asarray(criterion.impurity_from_sums(W, S1, S2, check=False), float)
    else:
        W = sides[:, :n_classes].sum(axis=1)
        imp = np.asarray(criterion.node_impurity(sides[:, :n_classes]), float)
    return (total_w / root_w) * (node_imp - W[1] / total_w * imp[1] - W[0] / total_w * imp[0])


def grow_hist(level_histograms, mapper: BinMapper, *, n_classes: int, criterion,
              max_depth=None, min_samples_split: int = 2, min_samples_leaf: int = 1,
              min_impurity_decrease: float = 0.0, metadata: dict | None = None,
              on_level=None, histogram_budget_mb: float = 256.0) -> Tree:
    """Grow a binned CART tree, one depth level per pass over the data.

    ``level_histograms(split_table, n_slots)`` returns the summed
    ``(hist, totals, ymin, ymax)`` of :func:`level_histogram` for the ``n_slots`` open
    nodes; ``split_table = (feature, route, left, right, slot)`` is the tree so far in bin
    space (``route[i]``: per bin of node ``i``'s feature, 1 = right). On one machine it
    runs the kernel over blocks of rows; on Dask, over the partitions, reduced by
    :func:`tree_sum`. The driver does everything else: node statistics, stopping rules
    (exact CART's: pure, ``max_depth``, fewer than ``max(min_samples_split,
    2·min_samples_leaf)`` rows, ``min_impurity_decrease``) and :func:`best_bin_split`.
    ``on_level(depth, n_open)`` is called after each level. The tree's rule for missing
    values is CART's ``missing="learn"`` (:func:`treebook.cart.missing_rule_of_tree`).

    Memory: a level's histograms take ``n_open · m · (B + 1) · C · 8`` bytes. When that
    exceeds ``histogram_budget_mb``, the open nodes are processed in groups that fit, one
    pass per group (Spark MLlib's node groups under ``maxMemoryInMB``); the sums per
    node, and so the tree, do not depend on the grouping.
    """
    criterion = get_criterion(criterion, regression=n_classes == 0)
    max_depth = np.inf if max_depth is None else max_depth
    min_split = max(min_samples_split, 2 * min_samples_leaf)
    lo, hi, n_bins = mapper.lo, mapper.hi, mapper.n_bins
    categorical = mapper.is_categorical
    width = mapper.missing_bin + 1  # histogram bins per feature, the missing bin last
    per_node_bytes = len(n_bins) * width * (n_classes + 1 if n_classes else 4) * 8
    builder = TreeBuilder(is_regression=n_classes == 0)
    # the tree in bin space, indexed by builder node id
    feature, left, right = [-1], [-1], [-1]
    route = [np.zeros(width, np.int8)]
    open_nodes, parents = [0], [-1]  # this level's open nodes (node id, parent id)
    root_w, depth = None, 0
    while open_nodes:
        hist, totals, ymin, ymax = _level_in_groups(
            level_histograms, (feature, route, left, right), open_nodes,
            max(1, int(histogram_budget_mb * 2**20 // per_node_bytes)))
        value, W, n, imp = _node_stats(totals, ymin, ymax, n_classes, criterion)
        for s, (node, parent) in enumerate(zip(open_nodes, parents)):
            got = builder.add_node(parent, value[s], W[s], n[s], imp[s])
            if got != node:
                raise RuntimeError("binned grower lost track of its nodes")
        if root_w is None:
            root_w = float(W[0])
        if on_level is not None:
            on_level(depth, len(open_nodes))
        next_open, next_parents = [], []
        for s, node in enumerate(open_nodes):
            if imp[s] <= IMPURITY_TOLERANCE or depth >= max_depth or n[s] < min_split:
                continue
            best = best_bin_split(hist[s], W[s], value[s], lo, hi, n_bins,
                                  n_classes=n_classes, criterion=criterion,
                                  min_samples_leaf=min_samples_leaf, categorical=categorical)
            if best is None:
                continue
            f = best.feature
            r = np.zeros(width, np.int8)
            r[: n_bins[f]] = best.route[:-1]
            r[-1] = best.route[-1]
            gain = _children_improvement(hist[s, f], r, W[s], imp[s], root_w, n_classes,
                                         criterion)
            if gain + IMPURITY_TOLERANCE < min_impurity_decrease:
                continue
            if best.branch_of_code is not None:
                builder.set_split(node, f, NodeKind.SUBSET, branch_of_code=best.branch_of_code)
            else:
                builder.set_split(node, f, NodeKind.THRESHOLD, best.threshold)
            if best.missing_go >= 0:
                builder.set_missing_rule(node, best.missing_go)
            kids = [len(feature), len(feature) + 1]
            feature[node], route[node], left[node], right[node] = f, r, kids[0], kids[1]
            for _ in kids:
                feature.append(-1), route.append(route[0]), left.append(-1), right.append(-1)
            next_open += kids
            next_parents += [node, node]
        open_nodes, parents = next_open, next_parents
        depth += 1
    return missing_rule_of_tree(builder.build(**(metadata or {})), "learn")


def _level_in_groups(level_histograms, tree_lists, open_nodes, group):
    """A level's histograms, ``group`` open nodes per pass, stacked in node order."""
    feature, route, left, right = tree_lists
    arrays = [np.array(feature, np.int64), np.stack(route),
              np.array(left, np.int64), np.array(right, np.int64)]
    out = []
    for g0 in range(0, len(open_nodes), group):
        nodes = open_nodes[g0 : g0 + group]
        slot = np.full(len(feature), -1, dtype=np.int64)
        slot[nodes] = np.arange(len(nodes))
        out.append(level_histograms((*arrays, slot), len(nodes)))
    if len(out) == 1:
        return out[0]
    return tuple(np.concatenate([o[i] for o in out]) for i in range(4))


def numpy_level_histograms(codes, target, weight, n_bins: int, n_classes: int,
                           block_size: int | None = None):
    """``level_histograms`` for :func:`grow_hist` on arrays in memory: the kernel over
    blocks of ``block_size`` rows, combined by :func:`tree_sum`."""
    blocks = _blocks(codes.shape[0], block_size)

    def level(table, n_slots):
        return tree_sum(level_histogram(codes[a:b], target[a:b], weight[a:b], *table,
                                        n_slots, n_bins, n_classes) for a, b in blocks)

    return level


# ============================================================================ Dask
def _dask_blocks(X, y, w):
    """Per-partition delayed ``(X, y, w)`` numpy blocks of Dask collections; ``y`` and
    ``w`` may name columns of a Dask DataFrame ``X`` (so each partition is read once).
    Returns ``(blocks, names, from_pandas, categories)``: ``categories[f]`` the labels of
    a categorical column (a pandas ``category`` dtype with known categories; its codes
    are the bins), None for a numeric one."""
    dask = require_optional("dask", _DASK_NEEDED_BY)
    da = require_optional("dask.array", _DASK_NEEDED_BY)

    if isinstance(X, da.Array):
        if X.ndim != 2 or len(X.chunks[1]) != 1:
            raise ValueError("a Dask array X must be 2-d and chunked by rows only")
        if isinstance(y, str) or isinstance(w, str):
            raise TypeError("y and sample_weight name columns only when X is a DataFrame")
        xs = list(X.to_delayed().ravel())
        ys = list(da.asarray(y).rechunk((X.chunks[0],)).to_delayed().ravel())
        ws = (list(da.asarray(w).rechunk((X.chunks[0],)).to_delayed().ravel())
              if w is not None else [None] * len(xs))
        return ([dask.delayed(_as_block)(a, b, c, None) for a, b, c in zip(xs, ys, ws)],
                [f"x{j}" for j in range(X.shape[1])], False, [None] * X.shape[1])
    # a Dask DataFrame
    features = [c for c in X.columns if not (isinstance(y, str) and c in (y, w))]
    categories = [_dask_categories(X, c) for c in features]
    kinds = [c is not None for c in categories]
    if isinstance(y, str):
        parts = X.to_delayed()
        return ([dask.delayed(_frame_block)(p, features, y, w, kinds) for p in parts],
                [str(c) for c in features], True, categories)
    if isinstance(w, str):
        raise TypeError("sample_weight names a column only when y does too")
    xs, ys = X.to_delayed(), y.to_delayed()
    ws = w.to_delayed() if w is not None else [None] * len(xs)
    return ([dask.delayed(_as_block)(a, b, c, kinds) for a, b, c in zip(xs, ys, ws)],
            [str(c) for c in features], True, categories)


def _dask_categories(X, column):
    """The category labels of a Dask DataFrame column (None: numeric); a text or
    unknown-category column is refused, since partitions could not agree on codes."""
    import pandas as pd

    dt = X[column].dtype
    if isinstance(dt, pd.CategoricalDtype):
        if not X[column].cat.known:
            raise ValueError(f"column {column!r} is categorical with unknown categories: "
                             "call .cat.as_known() first, so every partition uses the same codes")
        return np.asarray(X[column].cat.categories, dtype=object)
    if pd.api.types.is_numeric_dtype(dt) and not pd.api.types.is_bool_dtype(dt):
        return None
    raise TypeError(f"column {column!r} has dtype {dt}: on Dask, a categorical column must "
                    "have a pandas 'category' dtype with known categories "
                    "(X[c].astype('category').cat.as_known())")


def _frame_matrix(frame, features, kinds):
    """A partition's features as floats: numbers as they are, categories as their codes
    (NaN for a missing value)."""
    cols = []
    for c, is_cat in zip(features, kinds):
        if is_cat:
            codes = frame[c].cat.codes.to_numpy().astype(float)
            codes[codes < 0] = np.nan
            cols.append(codes)
        else:
            cols.append(frame[c].to_numpy(dtype=float, na_value=np.nan))
    return np.column_stack(cols) if cols else np.empty((len(frame), 0))


def _as_block(x, y, w, kinds):
    x = np.asarray(x, dtype=float) if kinds is None else _frame_matrix(x, list(x.columns),
                                                                       kinds)
    y = np.asarray(y)
    w = np.ones(x.shape[0]) if w is None else np.asarray(w, dtype=float)
    return x, y, w


def _frame_block(frame, features, y, w, kinds):
    return (_frame_matrix(frame, features, kinds), frame[y].to_numpy(),
            np.ones(len(frame)) if w is None else frame[w].to_numpy(dtype=float))


def _block_summary(block, sketch_points, classification):
    x, y, w = block
    if np.any(w < 0) or not np.all(np.isfinite(w)):
        raise ValueError("sample_weight must be finite and >= 0")
    keep = w > 0
    x, y = x[keep], y[keep]
    labels = np.unique(y) if classification else None
    return [value_summary(x[:, f], sketch_points) for f in range(x.shape[1])], labels, x.shape[0]


def _merge_block_summaries(a, b):
    feats = [merge_summaries([fa, fb]) for fa, fb in zip(a[0], b[0])]
    labels = None if a[1] is None else np.union1d(a[1], b[1])
    return feats, labels, a[2] + b[2]


def _block_histogram(block, mapper, classes, table, n_slots, n_bins, n_classes):
    x, y, w = block
    keep = w > 0
    codes = mapper.transform(x[keep])
    if n_classes:
        target = np.searchsorted(classes, y[keep]).astype(float)
    else:
        target = np.asarray(y[keep], dtype=float)
    return level_histogram(codes, target, w[keep], *table, n_slots, n_bins, n_classes)


def _delayed_tree_sum(parts, combine):
    dask = require_optional("dask", _DASK_NEEDED_BY)

    return tree_sum(parts, combine=lambda a, b: dask.delayed(combine)(a, b))


# ============================================================================ estimators
_HIST_CONSTRAINTS = {
    "max_depth": Interval(int, 1, None, allow_none=True),
    "min_samples_split": Interval(int, 2, None),
    "min_samples_leaf": Interval(int, 1, None),
    "min_impurity_decrease": Interval(float, 0.0, None),
    "max_bins": Interval(int, 2, 65535),
    "block_size": Interval(int, 1, None, allow_none=True),
    "binning": Options("exact", "sketch"),
    "sketch_points": Interval(int, 2, None),
    "histogram_budget_mb": Interval(float, 0.0, None, closed="neither"),
}


class _HistMixin:
    """Shared by the binned classifier and regressor."""

    def _sketch(self):
        return None if self.binning == "exact" else self.sketch_points

    def _metadata_hist(self, classes):
        meta = self._metadata(classes)
        meta.setdefault("extra", {}).update(algorithm="CART (binned)",
                                            criterion=get_criterion(self.criterion).name,
                                            max_bins=self.max_bins)
        return meta

    def _grow_params(self):
        return dict(criterion=self.criterion, max_depth=self.max_depth,
                    min_samples_split=self.min_samples_split,
                    min_samples_leaf=self.min_samples_leaf,
                    min_impurity_decrease=self.min_impurity_decrease,
                    histogram_budget_mb=self.histogram_budget_mb)

    def _accepts_missing(self) -> bool:
        return True  # the missing bin (scikit-learn's rule, CART's missing="learn")

    def _grow_binned(self, X, y, w, n_classes, classes):
        n_categories = [0 if c is None else max(len(c), 1) for c in self.encoder_.categories]
        mapper = BinMapper.fit(X, self.max_bins, block_size=self.block_size,
                               sketch_points=self._sketch(), n_categories=n_categories)
        self.bin_mapper_ = mapper
        codes = mapper.transform(X)
        target = y.astype(float)
        level = numpy_level_histograms(codes, target, np.ascontiguousarray(w, dtype=float),
                                       mapper.missing_bin + 1, n_classes, self.block_size)
        return grow_hist(level, mapper, n_classes=n_classes,
                         metadata=self._metadata_hist(classes), on_level=self._record_level,
                         **self._grow_params())

    def _record_level(self, depth, n_open):
        self.levels_.append((depth, n_open))

    def fit(self, X, y, sample_weight=None):
        """Fit on numpy/pandas data (one machine) or on Dask collections: a Dask array
        ``X`` chunked by rows with Dask ``y``/``sample_weight``, or a Dask DataFrame
        ``X`` with ``y`` (and ``sample_weight``) Dask Series or names of its columns.
        Dask data are computed with the active scheduler (a ``distributed.Client`` if
        one is running): one pass for the bins, then one per depth level."""
        self.levels_ = []
        if _is_dask(X):
            return self._fit_dask(X, y, sample_weight)
        return super().fit(X, y, sample_weight)

    def _fit_dask(self, X, y, sample_weight):
        dask = require_optional("dask", _DASK_NEEDED_BY)

        self._validate_params()
        blocks, names, from_pandas, categories = _dask_blocks(X, y, sample_weight)
        classification = self._estimator_type == "classifier"
        summaries = [dask.delayed(_block_summary)(b, self._sketch(), classification)
                     for b in blocks]
        feats, labels, n_rows = dask.compute(
            _delayed_tree_sum(summaries, _merge_block_summaries))[0]
        if n_rows == 0:
            raise ValueError("no row has a positive sample_weight")
        mapper = BinMapper.from_summaries(
            feats, self.max_bins, [0 if c is None else max(len(c), 1) for c in categories])
        self.bin_mapper_ = mapper
        classes = labels if classification else None
        n_classes = len(classes) if classification else 0
        n_bins = mapper.missing_bin + 1

        def level(table, n_slots):
            parts = [dask.delayed(_block_histogram)(b, mapper, classes, table, n_slots,
                                                    n_bins, n_classes) for b in blocks]
            return dask.compute(_delayed_tree_sum(parts, combine_histograms))[0]

        from .core.encoding import FeatureEncoder

        self.encoder_ = FeatureEncoder(tuple(names), tuple(categories), from_pandas)
        self.n_features_in_ = len(names)
        if from_pandas:
            self.feature_names_in_ = np.array(names, dtype=object)
        if classification:
            self.classes_ = classes
            self.n_classes_ = n_classes
        meta = self._metadata_hist(classes)
        tree = grow_hist(level, mapper, n_classes=n_classes, metadata=meta,
                         on_level=self._record_level, **self._grow_params())
        return self._set_tree(tree)


_DASK_NEEDED_BY = "fitting on a Dask collection"


def _is_dask(X) -> bool:
    mod = type(X).__module__ or ""
    return mod.startswith("dask")


class HistCARTClassifier(_HistMixin, DecisionTreeClassifierBase):
    """Binned CART classification tree: the splits of :class:`treebook.cart.CARTClassifier`
    restricted to cuts between quantile bins (see the module docstring).

    Parameters
    ----------
    criterion : ``"gini"`` (default), ``"entropy"``, ``"misclassification"`` or any
        registered classification criterion.
    max_depth, min_samples_split, min_samples_leaf, min_impurity_decrease : as for
        :class:`~treebook.cart.CARTClassifier` (counts only, no fractions).
    max_bins : int in [2, 65535]
        at most this many bins per feature (default 256). A
        feature with at most ``max_bins`` distinct values gets one bin per value, and
        then the tree is exact CART's.
    block_size : int or None
        rows per block of the histogram sums (None: one block);
        set it to the Dask chunk size to reproduce a distributed fit bit for bit.
    binning : ``"exact"`` (distinct values counted exactly) or ``"sketch"`` (per block at
        most ``sketch_points`` order statistics, :func:`value_summary`).
    sketch_points : int ≥ 2
        the size of each block's sketch (default 4096).
    histogram_budget_mb : float > 0
        the most memory one pass's histograms may take;
        a level with more open nodes is computed in several passes (default 256).

    Notes
    -----
    Attributes after ``fit``: ``tree_``, ``classes_``, ``bin_mapper_`` (the bins),
    ``levels_`` (``(depth, open nodes)`` of every pass over the data).
    """

    _parameter_constraints = {
        "criterion": Registered(lambda: criterion_names(regression=False), objects=Criterion),
        **_HIST_CONSTRAINTS,
    }

    def __init__(self, criterion="gini", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_impurity_decrease=0.0, max_bins=256,
                 block_size=None, binning="exact", sketch_points=4096,
                 histogram_budget_mb=256.0):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_bins = max_bins
        self.block_size = block_size
        self.binning = binning
        self.sketch_points = sketch_points
        self.histogram_budget_mb = histogram_budget_mb

    def _grow(self, X, y, w):
        return self._grow_binned(X, y, w, self.n_classes_, self.classes_)


class HistCARTRegressor(_HistMixin, DecisionTreeRegressorBase):
    """Binned CART regression tree (least squares): :class:`HistCARTClassifier`'s
    parameters with ``criterion="squared_error"``."""

    _parameter_constraints = {
        "criterion": Registered(lambda: criterion_names(regression=True), objects=Criterion),
        **_HIST_CONSTRAINTS,
    }

    def __init__(self, criterion="squared_error", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_impurity_decrease=0.0, max_bins=256,
                 block_size=None, binning="exact", sketch_points=4096,
                 histogram_budget_mb=256.0):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_bins = max_bins
        self.block_size = block_size
        self.binning = binning
        self.sketch_points = sketch_points
        self.histogram_budget_mb = histogram_budget_mb

    def _grow(self, X, y, w):
        return self._grow_binned(X, y, w, 0, None)
