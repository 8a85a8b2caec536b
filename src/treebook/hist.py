"""Binned (histogram) CART: one machine, and the same per-level sums on Dask partitions.

Exact CART (:mod:`treebook.cart`) scans every sorted column at every node. Large-scale
growers — PLANET :cite:p:`panda2009planet`, Spark MLlib's ``DecisionTree``
:cite:p:`meng2016mllib`, LightGBM :cite:p:`ke2017lightgbm` and XGBoost's ``hist`` — instead

1. **bin** every numeric feature once: at most ``max_bins`` bins per feature, cut at
   quantiles of its values (``bin_edges``; a feature with at most ``max_bins``
   distinct values gets one bin per value);
2. per depth level, in **one pass over the rows**, sum a **histogram** per
   (node, feature, bin): the weighted class counts and the row count (classification),
   or ``Σw``, ``Σwy``, ``Σwy²`` and the row count (regression) — ``level_histogram``;
3. choose every node's split from its histograms alone — cuts lie only between bins —
   with the same criterion objects (``treebook.core.criteria``) and the same rules
   (midpoint thresholds, ``min_samples_leaf``, ties to the first feature and the smallest
   cut) as exact CART — ``best_bin_split``.

Because step 3 only reads sums, the rows can live anywhere: step 2 runs on each data
partition and the partial histograms are added up (``tree_sum``, a pairwise
reduction in partition order, so that sums of fractional weights come out the same bits
every time). :class:`HistCARTClassifier` and :class:`HistCARTRegressor` fit numpy/pandas
data on one machine and Dask arrays or DataFrames (the ``scale`` extra) on a cluster,
with one grower (``grow_hist``) for both: only the function that returns a level's
histograms differs.

**Equal to exact CART.** When every distinct value of a feature has its own bin, the
candidate cuts at a node are exactly exact CART's (between adjacent values present at
the node) and the threshold is the same midpoint ``v/2 + v'/2`` of those two values
(each bin remembers its smallest and largest training value). With one block of rows
(the default) the node statistics are summed in row order as exact CART sums them, so
the two grow the same tree (tested on several data sets).

**Reproducible sums.** The order in which floating-point numbers are added is part of
the definition: inside a block of rows, sequentially in row order; across blocks,
``tree_sum``. ``block_size=b`` on one machine uses blocks of ``b`` rows, which are
exactly the partitions of a Dask array chunked by ``b`` rows: the two trees are then
equal bit for bit, fractional weights included.

**Categorical columns** (pandas categorical/object/bool, as for
:class:`treebook.cart.CARTClassifier`): the bins are the categories, one each, whatever
``max_bins`` says, and a node splits them into two subsets as exact CART does —
Breiman's ordering for two classes and regression, every subset (or the per-class
orderings) for three classes or more (``treebook.growers.subsets.subset_split_of_stats``, on
the per-category sums the histogram already holds). On Dask a categorical column must
have a pandas ``category`` dtype with known categories, so every partition uses the
same codes.

**Missing values** (NaN) fall in a **missing bin** of their own. A node whose rows miss
the feature tries every candidate with the missing bin on the right, then on the left,
then the split of the known rows from the missing ones — scikit-learn's
``DecisionTree`` rule (``missing="learn"`` of exact CART), in exact CART's order
(``treebook.growers.cart_search.learn_split_of_sums``); a node that saw no missing value sends one
to the child with more training rows, ties to the right
(``treebook.growers.cart_search.missing_rule_of_tree``). With every value in its own bin the tree
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

import time

import numpy as np

from .core.base import (DecisionTreeClassifierBase, DecisionTreeRegressorBase, Interval,
                        Options, Registered)
from .core.criteria import Criterion, criterion_names, get_criterion
from .growers.binning import BinMapper
from .growers.hist import grow_hist, numpy_level_histograms
from ._optional import require_optional
from .growers.hist_dask import (DASK_NEEDED_BY, bin_block, block_summary, combine_timed,
                                dask_blocks, delayed_tree_sum, merge_block_summaries,
                                partition_level)

__all__ = ["HistCARTClassifier", "HistCARTRegressor"]


_HIST_CONSTRAINTS = {
    "max_depth": Interval(int, 0, None, allow_none=True),
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

    def _grow_params(self, min_impurity_decrease=None):
        """The grower's parameters; ``min_impurity_decrease`` overrides the estimator's (a
        regressor's, in the units of its scaled responses)."""
        if min_impurity_decrease is None:
            min_impurity_decrease = self.min_impurity_decrease
        return dict(criterion=self.criterion, max_depth=self.max_depth,
                    min_samples_split=self.min_samples_split,
                    min_samples_leaf=self.min_samples_leaf,
                    min_impurity_decrease=min_impurity_decrease,
                    histogram_budget_mb=self.histogram_budget_mb)

    def _accepts_missing(self) -> bool:
        return True  # the missing bin (scikit-learn's rule, CART's missing="learn")

    def _grow_binned(self, X, y, w, n_classes, classes, min_impurity_decrease=None):
        t0 = time.perf_counter()
        n_categories = [0 if c is None else max(len(c), 1) for c in self.encoder_.categories]
        mapper = BinMapper.fit(X, self.max_bins, block_size=self.block_size,
                               sketch_points=self._sketch(), n_categories=n_categories)
        self.bin_mapper_ = mapper
        codes = mapper.transform(X)  # binned once: uint8 or uint16, kept for every level
        self.timings_ = [("bin", -1, time.perf_counter() - t0)]
        target = y.astype(float)
        level = numpy_level_histograms(codes, target, np.ascontiguousarray(w, dtype=float),
                                       mapper.missing_bin + 1, n_classes, self.block_size)
        return grow_hist(level, mapper, n_classes=n_classes,
                         metadata=self._metadata_hist(classes), on_level=self._record_level,
                         timings=self.timings_, **self._grow_params(min_impurity_decrease))

    def _record_level(self, depth, n_open):
        self.levels_.append((depth, n_open))

    def fit(self, X, y, sample_weight=None):
        """Fit on numpy/pandas data (one machine) or on Dask collections: a Dask array
        ``X`` chunked by rows with Dask ``y``/``sample_weight``, or a Dask DataFrame
        ``X`` with ``y`` (and ``sample_weight``) Dask Series or names of its columns.
        Dask data are computed with the active scheduler (a ``distributed.Client`` if
        one is running): one pass reads the partitions to summarise their values, a
        second reads and bins them, and their codes stay (persisted) where they were
        binned, with each row's node beside them; every depth level is then one pass
        over the codes, and only each partition's summed histograms leave it."""
        self.levels_ = []
        self.timings_ = []
        if _is_dask(X):
            return self._fit_dask(X, y, sample_weight)
        return super().fit(X, y, sample_weight)

    def _fit_dask(self, X, y, sample_weight):
        dask = require_optional("dask", DASK_NEEDED_BY)

        self._validate_params()
        clock = time.perf_counter
        t0 = clock()
        blocks, names, from_pandas, categories = dask_blocks(X, y, sample_weight)
        classification = self._estimator_type == "classifier"
        summaries = [dask.delayed(block_summary)(b, self._sketch(), classification)
                     for b in blocks]
        feats, labels, n_rows = dask.compute(
            delayed_tree_sum(summaries, merge_block_summaries))[0]
        if n_rows == 0:
            raise ValueError("no row has a positive sample_weight")
        mapper = BinMapper.from_summaries(
            feats, self.max_bins, [0 if c is None else max(len(c), 1) for c in categories])
        self.bin_mapper_ = mapper
        classes = labels if classification else None
        n_classes = len(classes) if classification else 0
        n_bins = mapper.missing_bin + 1
        t1 = clock()
        # bin once: each partition's codes, targets and weights stay where they are
        binned = list(dask.persist(*[dask.delayed(bin_block)(b, mapper, classes)
                                     for b in blocks]))
        dask.compute(*[dask.delayed(len)(b) for b in binned])  # wait for the codes
        self.timings_ += [("summarise", -1, t1 - t0), ("bin", -1, clock() - t1)]
        nodes = [None] * len(binned)

        def level(table, slot, build, n_build):
            outs = [dask.delayed(partition_level, nout=2)(b, nd, table, slot, build, n_build,
                                                          n_bins, n_classes)
                    for b, nd in zip(binned, nodes)]
            total = delayed_tree_sum([o[1] for o in outs], combine_timed)
            *moved, total = dask.persist(*[o[0] for o in outs], total)
            nodes[:] = moved  # the rows' nodes after this pass, where the codes are
            got = dask.compute(total)[0]
            self.timings_ += [("kernel", len(self.levels_), got[4]),
                              ("sent_bytes", len(self.levels_), got[5])]
            return got[:4]

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
                         on_level=self._record_level, timings=self.timings_,
                         **self._grow_params())
        return self._set_tree(tree)


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
        most ``sketch_points`` order statistics, ``value_summary``).
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

    def _grow(self, X, y, w, *, min_impurity_decrease):
        return self._grow_binned(X, y, w, 0, None, min_impurity_decrease)
