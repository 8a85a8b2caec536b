"""The binned grower on Dask: each partition (a block of rows) summarised and binned
once where it lives (:func:`bin_block`; the codes are persisted there, with each row's
node beside them), each level's histograms summed over the partition's rows there
(:func:`partition_level`) and reduced by :func:`treebook.growers.hist.tree_sum` in
partition order: the same bits as one machine with ``block_size`` equal to the chunk
size. What crosses a process per level is one summed histogram per partition (and the
reduction's partial sums), never a row.
"""

from __future__ import annotations

import pickle
import time

import numpy as np

from .._optional import require_optional
from ..kernels.hist import level_histogram
from .binning import merge_summaries, value_summary
from .hist import combine_histograms, tree_sum

__all__ = ["dask_blocks", "block_summary", "merge_block_summaries", "bin_block",
           "partition_level", "combine_timed", "delayed_tree_sum", "DASK_NEEDED_BY"]

#: what needs dask, in the ImportError of a missing extra ``treebook[scale]``
DASK_NEEDED_BY = "fitting on a Dask collection"

def dask_blocks(X, y, w):
    """Per-partition delayed ``(X, y, w)`` numpy blocks of Dask collections; ``y`` and
    ``w`` may name columns of a Dask DataFrame ``X`` (so each partition is read once).
    Returns ``(blocks, names, from_pandas, categories)``: ``categories[f]`` the labels of
    a categorical column (a pandas ``category`` dtype with known categories; its codes
    are the bins), None for a numeric one."""
    dask = require_optional("dask", DASK_NEEDED_BY)
    da = require_optional("dask.array", DASK_NEEDED_BY)

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


def block_summary(block, sketch_points, classification):
    x, y, w = block
    if np.any(w < 0) or not np.all(np.isfinite(w)):
        raise ValueError("sample_weight must be finite and >= 0")
    keep = w > 0
    x, y = x[keep], y[keep]
    labels = np.unique(y) if classification else None
    return [value_summary(x[:, f], sketch_points) for f in range(x.shape[1])], labels, x.shape[0]


def merge_block_summaries(a, b):
    feats = [merge_summaries([fa, fb]) for fa, fb in zip(a[0], b[0])]
    labels = None if a[1] is None else np.union1d(a[1], b[1])
    return feats, labels, a[2] + b[2]


def bin_block(block, mapper, classes):
    """A partition binned once: ``(codes, target, weight)`` of its rows of positive
    weight — codes of ``mapper.code_dtype``, the class index (classification,
    ``classes`` sorted) or the response as float."""
    x, y, w = block
    keep = w > 0
    codes = mapper.transform(x[keep])
    if classes is not None:
        target = np.searchsorted(classes, y[keep]).astype(float)
    else:
        target = np.asarray(y[keep], dtype=float)
    return codes, target, np.ascontiguousarray(w[keep], dtype=float)


def partition_level(binned, node_of_row, table, slot, build, n_build, n_bins, n_classes):
    """One level's pass over a binned partition: ``(node_of_row, partial)``, the rows'
    nodes after the pass (a new array: a persisted input is never written) and
    ``partial = (hist, totals, ymin, ymax, seconds, sent)``, the kernel's sums, the
    seconds it took and ``sent``, the bytes of those sums pickled (what the partition
    sends: measured, not computed)."""
    codes, target, weight = binned
    node_of_row = (np.zeros(codes.shape[0], np.int32) if node_of_row is None
                   else node_of_row.copy())
    t = time.perf_counter()
    got = level_histogram(codes, target, weight, node_of_row, *table, slot, build,
                          len(build), n_build, n_bins, n_classes)
    seconds = time.perf_counter() - t
    return node_of_row, (*got, seconds, len(pickle.dumps(got, protocol=5)))


def combine_timed(a, b):
    """:func:`treebook.growers.hist.combine_histograms` of two partials, their kernel
    seconds added, the larger of their sent bytes kept."""
    return (*combine_histograms(a[:4], b[:4]), a[4] + b[4], max(a[5], b[5]))


def delayed_tree_sum(parts, combine):
    dask = require_optional("dask", DASK_NEEDED_BY)

    return tree_sum(parts, combine=lambda a, b: dask.delayed(combine)(a, b))
