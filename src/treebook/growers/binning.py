"""Binning for the binned grower: each numeric feature's values cut once into at most
``max_bins`` bins at quantiles (:func:`bin_edges`), from exact values or mergeable
summaries of partitions (:func:`value_summary`, :func:`merge_summaries`);
:class:`BinMapper` turns rows into bin codes (categories are their own bins; NaN has a
missing bin).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.base import Interval, validate_params
from ..core.cart_scores import midpoint_threshold

__all__ = ["BinMapper", "bin_edges", "value_summary", "merge_summaries", "row_blocks"]

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
    if len(summaries) == 1:  # one block: already distinct and counted
        return summaries[0][0], np.asarray(summaries[0][1], dtype=np.int64)
    values = np.concatenate([s[0] for s in summaries])
    counts = np.concatenate([s[1] for s in summaries])
    distinct, inverse = np.unique(values, return_inverse=True)
    return distinct, np.bincount(inverse, weights=counts, minlength=distinct.size).astype(np.int64)


@validate_params({"max_bins": Interval(int, 2, 65535)})
def bin_edges(values, counts, max_bins: int = 256):
    """Bins of one feature from its distinct ``values`` (sorted) and their row ``counts``
    (or, as floats, the total weight of each value).

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
    counts = np.asarray(counts)
    if counts.dtype.kind != "f":  # row counts; CHAID passes case weights as floats
        counts = counts.astype(np.int64)
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
        blocks = row_blocks(X.shape[0], block_size)
        n_categories = [0] * X.shape[1] if n_categories is None else list(n_categories)
        # one feature at a time: an exact summary of a continuous column is as large as
        # the column, so the summaries of all features at once would double the data
        pieces = [cls.from_summaries(
            [merge_summaries(value_summary(X[a:b, f], sketch_points) for a, b in blocks)],
            max_bins, [n_categories[f]]) for f in range(X.shape[1])]
        return cls(*(tuple(getattr(p, k)[0] for p in pieces) for k in ("edges", "lo", "hi")),
                   categorical=tuple(p.categorical[0] for p in pieces))

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

    @property
    def code_dtype(self):
        """The narrowest code type: ``uint8`` when every code, the missing bin included,
        is below 256 (at most 255 known bins per feature), else ``uint16``."""
        return np.dtype(np.uint8) if self.missing_bin <= 255 else np.dtype(np.uint16)

    def transform(self, X) -> np.ndarray:
        """Bin codes, shape ``(n, m)``, C order: ``code = #{edges < x}``, of
        :attr:`code_dtype`; NaN gets :attr:`missing_bin`."""
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != len(self.edges):
            raise ValueError(f"X must have {len(self.edges)} columns; got shape {X.shape}")
        out = np.empty(X.shape, dtype=self.code_dtype)
        for f, e in enumerate(self.edges):
            x = X[:, f]
            out[:, f] = np.where(np.isnan(x), self.missing_bin,
                                 np.searchsorted(e, x, side="left"))
        return out


def row_blocks(n: int, block_size: int | None):
    if block_size is None or block_size >= n:
        return [(0, n)]
    return [(a, min(a + block_size, n)) for a in range(0, n, block_size)]
