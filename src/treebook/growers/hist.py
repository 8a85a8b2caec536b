"""The binned grower: CART's splits chosen from per-(node, feature, bin) histograms.

:func:`grow_hist` grows level by level on rows binned once. Each level's sums come from
a function it is given (:func:`numpy_level_histograms` on one machine, partition by
partition on Dask: :mod:`treebook.growers.hist_dask`), added up by :func:`tree_sum` in a
fixed order; a pass builds the histogram of the smaller child of every split only, and
the sibling's is the parent's minus it (:func:`sibling_histogram`).
:func:`best_bin_split` chooses each node's split from its histograms alone, with exact
CART's criteria and rules; the learner is :mod:`treebook.hist`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..core.criteria import get_criterion
from ..core.splits import CONSTANT_RESIDUE
from ..core.cart_scores import FEATURE_THRESHOLD, IMPURITY_TOLERANCE, class_split_score, first_best, midpoint_threshold, tie_floor
from ..core.tree import NodeKind, Tree, TreeBuilder
from ..kernels.hist import level_histogram
from .binning import BinMapper, row_blocks
from .cart_search import learn_split_of_sums, missing_rule_of_tree
from .subsets import SubsetCandidates, subset_split_of_stats

__all__ = ["combine_histograms", "tree_sum", "numpy_level_histograms", "best_bin_split",
           "BinSplit", "grow_hist", "sibling_histogram"]

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
    :func:`treebook.growers.cart_search.cart_split_finder`) or scikit-learn's missing-value scan
    (:func:`treebook.growers.cart_search.learn_split_of_sums`), on bins."""
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
    (:func:`treebook.growers.subsets.subset_split_of_stats`) or, with missing values at the node,
    scikit-learn's rule on the same subsets (:func:`treebook.growers.cart_search.learn_split_of_sums`),
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
    cands = SubsetCandidates(stats, rows_per_cat, n_classes, L)
    if cands.present.size < 2:
        return None
    left, n_left = cands.sums()
    found = learn_split_of_sums(left, n_left, stats.sum(axis=0),
                                _sums(hm, n_classes), int(rows_per_cat.sum()), n_miss,
                                (value, total_w), n_classes, criterion, min_samples_leaf)
    if found is None:
        return None
    score, j, go = found
    boc = cands.branch_of_code(j)
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


def sibling_histogram(parent, built, n_classes):
    """The histogram of a split's other child: ``parent - built``, bin by bin.

    The row counts (the last channel) are integers, so their difference is exact, and so
    is every channel when the weights (and, in regression, ``w·y`` and ``w·y²``) are
    integers. Otherwise the difference is rounded, but it is the same on every machine:
    both operands are sums reduced in a fixed order (:func:`tree_sum`), and the
    subtraction runs on the driver. A bin the child holds no row of gets exact zeros,
    and a channel that cannot be negative (weights, ``Σwy²``) is clamped at zero, so
    that rounding never makes an empty class or bin look occupied by a negative weight.
    """
    other = parent - built
    other[other[..., -1] == 0] = 0.0
    nonneg = list(range(n_classes + 1)) if n_classes else [0, 2]
    other[..., nonneg] = np.maximum(other[..., nonneg], 0.0)
    return other


def grow_hist(level_histograms, mapper: BinMapper, *, n_classes: int, criterion,
              max_depth=None, min_samples_split: int = 2, min_samples_leaf: int = 1,
              min_impurity_decrease: float = 0.0, metadata: dict | None = None,
              on_level=None, histogram_budget_mb: float = 256.0, timings=None) -> Tree:
    """Grow a binned CART tree, one depth level per pass over the binned rows.

    ``level_histograms(split_table, slot, build, n_build)`` returns the summed
    ``(hist, totals, ymin, ymax)`` of :func:`treebook.kernels.hist.level_histogram`:
    ``split_table = (feature, route, left, right)`` holds the splits of the previous
    level in bin space (``route[i]``: per bin of node ``i``'s feature, 1 = right; the
    rows of those nodes move one step down, the rows of closed leaves stay where they
    are), ``slot[node]`` numbers this level's open nodes and ``build[slot]`` the
    ``n_build`` histograms the pass builds. On one machine it runs the kernel over
    blocks of rows; on Dask, over the persisted partitions, reduced by :func:`tree_sum`.

    Of the two children of a split, the pass builds the histogram of the one with fewer
    rows (ties: the left; the counts are read from the parent's histogram, exactly), and
    the other is :func:`sibling_histogram` of the parent's — LightGBM's subtraction,
    which halves the rows the histograms are built from at least. The node statistics
    (value, weight, impurity) are summed directly for every open node, never subtracted.
    The driver does everything else: stopping rules (exact CART's: pure, ``max_depth``,
    fewer than ``max(min_samples_split, 2·min_samples_leaf)`` rows,
    ``min_impurity_decrease``) and :func:`best_bin_split`. ``on_level(depth, n_open)`` is
    called after each level; ``timings``, a list, receives ``(phase, depth, seconds)`` for
    the phases ``"histogram"`` (the passes), ``"subtract"`` and ``"choose"``. The tree's
    rule for missing values is CART's ``missing="learn"``
    (:func:`treebook.growers.cart_search.missing_rule_of_tree`).

    Memory: a built histogram takes ``m · (B + 1) · C · 8`` bytes. When a level's exceed
    ``histogram_budget_mb``, they are built in groups that fit, one pass per group
    (Spark MLlib's node groups under ``maxMemoryInMB``); the sums per node, and so the
    tree, do not depend on the grouping.
    """
    criterion = get_criterion(criterion, regression=n_classes == 0)
    max_depth = np.inf if max_depth is None else max_depth
    min_split = max(min_samples_split, 2 * min_samples_leaf)
    lo, hi, n_bins = mapper.lo, mapper.hi, mapper.n_bins
    categorical = mapper.is_categorical
    width = mapper.missing_bin + 1  # histogram bins per feature, the missing bin last
    per_node_bytes = len(n_bins) * width * (n_classes + 1 if n_classes else 4) * 8
    group = max(1, int(histogram_budget_mb * 2**20 // per_node_bytes))
    builder = TreeBuilder(is_regression=n_classes == 0)
    # the tree in bin space, indexed by builder node id
    feature, left, right = [-1], [-1], [-1]
    route = [np.zeros(width, np.int8)]
    open_nodes, parents = [0], [-1]  # this level's open nodes (node id, parent id)
    build_nodes = [0]                # the open nodes whose histograms a pass builds
    parent_hist = {}                 # histograms of the nodes split at the last level
    root_w, depth = None, 0
    clock = time.perf_counter
    while open_nodes:
        t0 = clock()
        built, totals, ymin, ymax = _level_in_groups(
            level_histograms, (feature, route, left, right), open_nodes, build_nodes, group)
        t1 = clock()
        hist = _level_hists(open_nodes, parents, build_nodes, built, parent_hist, n_classes)
        parent_hist = {}
        t2 = clock()
        value, W, n, imp = _node_stats(totals, ymin, ymax, n_classes, criterion)
        for s, (node, parent) in enumerate(zip(open_nodes, parents)):
            got = builder.add_node(parent, value[s], W[s], n[s], imp[s])
            if got != node:
                raise RuntimeError("binned grower lost track of its nodes")
        if root_w is None:
            root_w = float(W[0])
        if on_level is not None:
            on_level(depth, len(open_nodes))
        next_open, next_parents, next_build = [], [], []
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
            n_left = int(hist[s, f, r == 0, -1].sum())  # rows: exact
            next_build.append(kids[0] if 2 * n_left <= n[s] else kids[1])
            parent_hist[node] = hist[s]
            next_open += kids
            next_parents += [node, node]
        if timings is not None:
            timings += [("histogram", depth, t1 - t0), ("subtract", depth, t2 - t1),
                        ("choose", depth, clock() - t2)]
        open_nodes, parents, build_nodes = next_open, next_parents, next_build
        depth += 1
    return missing_rule_of_tree(builder.build(**(metadata or {})), "learn")


def _level_hists(open_nodes, parents, build_nodes, built, parent_hist, n_classes):
    """Every open node's histogram, in slot order: built, or its parent's minus its
    built sibling's."""
    index = {node: i for i, node in enumerate(build_nodes)}
    out = np.empty((len(open_nodes),) + built.shape[1:])
    for s, (node, parent) in enumerate(zip(open_nodes, parents)):
        if node in index:
            out[s] = built[index[node]]
    for s, (node, parent) in enumerate(zip(open_nodes, parents)):
        if node not in index:
            sibling = open_nodes[s - 1] if s % 2 else open_nodes[s + 1]
            out[s] = sibling_histogram(parent_hist[parent], built[index[sibling]], n_classes)
    return out


def _level_in_groups(level_histograms, tree_lists, open_nodes, build_nodes, group):
    """A level's totals (every open node) and built histograms, ``group`` of them per
    pass, stacked in build order."""
    feature, route, left, right = tree_lists
    arrays = (np.array(feature, np.int64), np.stack(route), np.array(left, np.int64),
              np.array(right, np.int64))
    slot = np.full(len(feature), -1, dtype=np.int64)
    slot[open_nodes] = np.arange(len(open_nodes))
    built, first = [], None
    for g0 in range(0, len(build_nodes), group):
        nodes = build_nodes[g0 : g0 + group]
        build = np.full(len(open_nodes), -1, dtype=np.int64)
        build[slot[nodes]] = np.arange(len(nodes))
        got = level_histograms(arrays, slot, build, len(nodes))
        built.append(got[0])
        first = got if first is None else first
    hist = built[0] if len(built) == 1 else np.concatenate(built)
    return hist, first[1], first[2], first[3]


def numpy_level_histograms(codes, target, weight, n_bins: int, n_classes: int,
                           block_size: int | None = None):
    """``level_histograms`` for :func:`grow_hist` on arrays in memory: the kernel over
    blocks of ``block_size`` rows, combined by :func:`tree_sum`. ``codes`` are binned
    once; the node of every row is kept beside them (``int32``), updated by each pass."""
    blocks = row_blocks(codes.shape[0], block_size)
    node_of_row = np.zeros(codes.shape[0], dtype=np.int32)

    def level(table, slot, build, n_build):
        return tree_sum(level_histogram(codes[a:b], target[a:b], weight[a:b],
                                        node_of_row[a:b], *table, slot, build, len(build),
                                        n_build, n_bins, n_classes) for a, b in blocks)

    return level
