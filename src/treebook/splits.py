"""Candidate splits for one node, and the statistics every criterion scores them by.

A criterion (:mod:`treebook.impurity`) scores a *contingency table*: the class counts of
each branch, shape ``(V, K)``. This module turns a node's cases into such tables:

* :func:`categorical_table` — one branch per category (a multiway split, ID3/C4.5/CLS);
* :func:`threshold_tables` — every binary cut ``x <= t`` of a numeric feature at once,
  from **one sort and one cumulative sum** (a ``(n_cuts, 2, K)`` stack of tables), never
  the O(n²) loop that builds a mask per candidate threshold;
* :func:`threshold_moments` — the same scan for regression (sums of ``w``, ``w·y``,
  ``w·y²`` on each side).

A chosen split is a :class:`Split`; :func:`branch_index` sends feature values down it
with the same rules :class:`treebook.tree.Tree` uses at prediction time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .tree import NodeKind

__all__ = [
    "Split",
    "branch_index",
    "best_index",
    "categorical_table",
    "multiway_split",
    "threshold_tables",
    "threshold_moments",
]

MISSING = -2  # branch_index code for a missing value
UNSEEN = -1  # branch_index code for a category with no branch


@dataclass
class Split:
    """A test at a node. ``score`` is what the learner maximised (gain, ratio, …)."""

    feature: int
    kind: NodeKind
    score: float
    threshold: float = np.nan
    branch_of_code: np.ndarray | None = None
    n_branches: int = 2
    info: dict | None = None  # learner-specific numbers (gain, split info, …) for display


def branch_index(split: Split, x: np.ndarray) -> np.ndarray:
    """Branch taken by each value of ``x``: ``0 … V-1``, ``-1`` unseen, ``-2`` missing."""
    x = np.asarray(x, dtype=float)
    out = np.full(x.shape[0], UNSEEN, dtype=np.int64)
    missing = np.isnan(x)
    known = ~missing
    if split.kind == NodeKind.THRESHOLD:
        out[known] = (x[known] > split.threshold).astype(np.int64)
    else:
        codes = x[known].astype(np.int64)
        table = split.branch_of_code
        ok = (codes >= 0) & (codes < table.shape[0])
        b = np.full(codes.shape[0], UNSEEN, dtype=np.int64)
        b[ok] = table[codes[ok]]
        out[known] = b
    out[missing] = MISSING
    return out


def best_index(scores, rtol: float = 1e-12) -> int:
    """Index of the best score; ties (within ``rtol``) go to the first, i.e. the first
    attribute in column order. A tolerance is needed because the same partition scored
    through different arithmetic paths can differ in the last bits."""
    s = np.asarray(scores, dtype=float)
    if s.size == 0:
        raise ValueError("scores is empty")
    top = np.nanmax(s)
    return int(np.flatnonzero(s >= top - rtol * max(1.0, abs(top)))[0])


def categorical_table(codes, y, w, n_categories: int, n_classes: int):
    """Class counts per category: ``(table, missing)``.

    ``table[c, k]`` is the weight of cases with category code ``c`` and class ``k``;
    ``missing[k]`` the weight of class-``k`` cases whose value is missing (NaN).
    """
    codes = np.asarray(codes, dtype=float)
    known = ~np.isnan(codes)
    c = codes[known].astype(np.int64)
    flat = np.bincount(c * n_classes + y[known], weights=w[known],
                       minlength=n_categories * n_classes)
    missing = np.bincount(y[~known], weights=w[~known], minlength=n_classes)
    return flat.reshape(n_categories, n_classes), missing.astype(float)


def multiway_split(feature: int, table: np.ndarray, score: float, **info) -> Split:
    """A multiway split with one branch per category that has cases at this node.

    Categories absent at the node get no branch (code → -1): a case with such a value
    stops here at prediction time and receives this node's class distribution, which is
    what ID3 and C4.5 do when they label an empty branch with the parent's majority.
    """
    present = table.sum(axis=1) > 0
    branch_of_code = np.where(present, np.cumsum(present) - 1, UNSEEN).astype(np.int64)
    return Split(feature=feature, kind=NodeKind.MULTIWAY, score=float(score),
                 branch_of_code=branch_of_code, n_branches=int(present.sum()),
                 info=info or None)


def _sorted_known(x, w):
    x = np.asarray(x, dtype=float)
    known = ~np.isnan(x)
    idx = np.flatnonzero(known)
    order = idx[np.argsort(x[idx], kind="stable")]
    return order, x[order]


def threshold_tables(x, y, w, n_classes: int):
    """Every binary cut of a numeric feature, scored from one sorted scan.

    Sort the cases with known ``x``; the class counts left of position ``i`` are the
    cumulative sum of one-hot weights (a prefix sum). A cut is possible only between two
    *distinct* adjacent values ``v_i < v_{i+1}``.

    Returns a dict with

    * ``tables`` — shape ``(n_cuts, 2, K)``: left (``x <= cut``) and right class counts;
    * ``lower``, ``upper`` — the values either side of each cut (``v_i``, ``v_{i+1}``):
      CART cuts at the midpoint, C4.5 reports ``v_i``, the largest value not above it;
    * ``known`` — class counts of the cases with a known value; ``missing`` — of the rest.
    """
    y = np.asarray(y)
    w = np.asarray(w, dtype=float)
    order, xs = _sorted_known(x, w)
    ys, ws = y[order], w[order]
    onehot = np.zeros((xs.shape[0], n_classes))
    onehot[np.arange(xs.shape[0]), ys] = ws
    prefix = np.cumsum(onehot, axis=0)
    known = prefix[-1] if xs.size else np.zeros(n_classes)
    cut = np.flatnonzero(xs[1:] > xs[:-1])  # cut after sorted position `cut`
    left = prefix[cut]
    tables = np.stack([left, known - left], axis=1)
    miss = np.isnan(np.asarray(x, dtype=float))
    missing = np.bincount(y[miss], weights=w[miss], minlength=n_classes).astype(float)
    return {"tables": tables, "lower": xs[cut], "upper": xs[cut + 1],
            "known": known, "missing": missing}


def threshold_moments(x, y, w):
    """The regression version of :func:`threshold_tables`.

    Returns ``lower``, ``upper`` and, for the left side of every cut, the prefix sums
    ``W = Σ w``, ``S1 = Σ w·y``, ``S2 = Σ w·y²`` (arrays of shape ``(n_cuts,)``), plus the
    totals ``W_tot, S1_tot, S2_tot`` over known cases.
    """
    y = np.asarray(y, dtype=float)
    w = np.asarray(w, dtype=float)
    order, xs = _sorted_known(x, w)
    ws, wy = w[order], w[order] * y[order]
    W, S1, S2 = np.cumsum(ws), np.cumsum(wy), np.cumsum(wy * y[order])
    cut = np.flatnonzero(xs[1:] > xs[:-1])
    tot = (W[-1], S1[-1], S2[-1]) if xs.size else (0.0, 0.0, 0.0)
    return {"lower": xs[cut], "upper": xs[cut + 1], "W": W[cut], "S1": S1[cut], "S2": S2[cut],
            "W_tot": tot[0], "S1_tot": tot[1], "S2_tot": tot[2]}
