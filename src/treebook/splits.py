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
    stops here at prediction time and receives this node's class distribution. That
    predicts what C4.5 predicts when it labels an empty branch with its parent's majority
    (Quinlan 1993); ID3 as Li Hang states it makes branches only for non-empty subsets and
    leaves unseen values undefined.
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


# =========================================================================================
# CART (chapter 4): binary splits — the score a scan maximises, thresholds, category subsets
# =========================================================================================
#: scikit-learn's ``FEATURE_THRESHOLD``: two sorted values closer than this are treated as
#: equal, so no cut is placed between them
FEATURE_THRESHOLD = 1e-7


#: scores closer than this (relative) tie: the first feature, then the smallest threshold,
#: wins. Two features that cut the same rows give the same score up to rounding (their
#: weights are summed in different orders), and must tie.
SCORE_RTOL = 1e-12


def tie_floor(best):
    """The lowest score that ties with ``best``: ``best - SCORE_RTOL·|best|``."""
    best = np.asarray(best, dtype=float)
    return best - SCORE_RTOL * np.abs(np.where(np.isfinite(best), best, 0.0))


def midpoint_threshold(lower, upper):
    """CART's cut between two adjacent distinct values: ``t = v_i/2 + v_{i+1}/2``.

    Halves are added (not ``(v_i + v_{i+1})/2``) so huge values cannot overflow. If the
    midpoint rounds up to ``v_{i+1}`` (two floats one unit in the last place apart) or is
    infinite, ``v_i`` is used instead, so ``x <= t`` always sends ``v_i`` left and
    ``v_{i+1}`` right.
    """
    lower = np.asarray(lower, dtype=float)
    upper = np.asarray(upper, dtype=float)
    t = lower / 2.0 + upper / 2.0
    bad = (t >= upper) | ~np.isfinite(t)
    return np.where(bad, lower, t) if np.ndim(t) else float(lower if bad else t)


def _xlnx(c):
    """``c · ln c`` with ``0 · ln 0 = 0``."""
    c = np.asarray(c, dtype=float)
    return c * np.log(np.where(c > 0, c, 1.0))


def gini_split_score(left, right, w_left, w_right):
    r"""The part of ``|D_1|·Gini(D_1) + |D_2|·Gini(D_2)`` that varies with the cut, negated.

    ``left``/``right`` are sequences of ``K`` arrays of class weights on each side of many
    candidate cuts, ``w_left``/``w_right`` the side totals. Since
    ``|D_v| Gini(D_v) = |D_v| - Σ_k C_{vk}² / |D_v|``, maximising

    .. math:: s = \sum_k C_{1k}^2/|D_1| + \sum_k C_{2k}^2/|D_2|

    minimises the weighted Gini of the children (the node's ``|D|`` is a constant). With
    two classes ``C_{v0} = |D_v| - C_{v1}`` reduces it to ``2(C_{11}^2/|D_1| +
    C_{21}^2/|D_2|)`` plus a constant, so only class 1 is used. Both growers call this one
    function, so equal counts give bit-for-bit equal scores.
    """
    if len(left) == 2:
        return left[1] * left[1] / w_left + right[1] * right[1] / w_right
    s_left = sum(c * c for c in left)
    s_right = sum(c * c for c in right)
    return s_left / w_left + s_right / w_right


def entropy_split_score(left, right, w_left, w_right):
    r"""Negated ``|D_1|·H(D_1) + |D_2|·H(D_2)`` up to a constant, in nats:
    ``Σ_k (C_{1k} ln C_{1k} + C_{2k} ln C_{2k}) - |D_1| ln |D_1| - |D_2| ln |D_2|``
    (since ``|D_v| H(D_v) = |D_v| ln |D_v| - Σ_k C_{vk} ln C_{vk}``, over ``ln 2``)."""
    s = sum(_xlnx(c) for c in left) + sum(_xlnx(c) for c in right)
    return s - _xlnx(w_left) - _xlnx(w_right)


def squared_error_split_score(s_left, w_left, w_right):
    r"""Negated squared error of the children up to a constant, from *centred* sums.

    With ``s_1 = Σ_{i∈D_1} w_i (y_i - ȳ)`` (``ȳ`` the node mean; the right side has
    ``s_2 = -s_1``) the children's squared error is ``SSE(D) - s_1²(1/|D_1| + 1/|D_2|)``,
    so the score is ``s_1² (1/|D_1| + 1/|D_2|)``. Centring keeps the prefix sums small,
    which matters when one cumulative sum runs over many nodes at once.
    """
    return s_left * s_left * (1.0 / w_left + 1.0 / w_right)


SPLIT_SCORES = {"gini": gini_split_score, "entropy": entropy_split_score}


def category_order(table, *, by: str = "class1", means=None):
    """Codes of the categories present in ``table`` (``(L, K)`` class weights per
    category), in Breiman's order: by the proportion of class 1 (``by="class1"``), of
    class ``k`` (``by=k``), or by ``means`` (regression). Ties keep code order."""
    table = np.asarray(table, dtype=float)
    tot = table.sum(axis=1)
    present = np.flatnonzero(tot > 0)
    if means is not None:
        key = np.asarray(means, dtype=float)[present]
    else:
        k = 1 if by == "class1" else int(by)
        key = table[present, k] / tot[present]
    return present[np.argsort(key, kind="stable")]


def ordered_subset_masks(order, n_categories: int) -> np.ndarray:
    """The ``L - 1`` left sets of the cuts along an ordering: row ``i`` is True for the
    first ``i + 1`` categories of ``order`` (shape ``(L - 1, n_categories)``)."""
    order = np.asarray(order, dtype=np.int64)
    L = order.shape[0]
    masks = np.zeros((max(L - 1, 0), n_categories), dtype=bool)
    rank = np.empty(n_categories, dtype=np.int64)
    rank[order] = np.arange(L)
    if L > 1:
        masks[:, order] = rank[order][None, :] <= np.arange(L - 1)[:, None]
    return masks


def all_subset_masks(present, n_categories: int) -> np.ndarray:
    """Every binary partition of the ``present`` categories, once each: the
    ``2^(L-1) - 1`` left sets that leave the last present category on the right."""
    present = np.asarray(present, dtype=np.int64)
    L = present.shape[0]
    if L < 2:
        return np.zeros((0, n_categories), dtype=bool)
    codes = np.arange(1, 2 ** (L - 1), dtype=np.int64)
    bits = ((codes[:, None] >> np.arange(L - 1)[None, :]) & 1).astype(bool)
    masks = np.zeros((codes.shape[0], n_categories), dtype=bool)
    masks[:, present[:-1]] = bits
    return masks


def subset_tables(table, masks) -> np.ndarray:
    """Class weights of the two sides of each left set: ``(S, 2, K)`` from a per-category
    table ``(L, K)`` and boolean left-set masks ``(S, L)``."""
    table = np.asarray(table, dtype=float)
    masks = np.asarray(masks, dtype=float)
    left = masks @ table
    return np.stack([left, table.sum(axis=0)[None, :] - left], axis=1)


def subset_branch_of_code(left_mask, present) -> np.ndarray:
    """``branch_of_code`` of a SUBSET node: 0 for left categories, 1 for the other
    present ones, -1 (no branch: stop here) for categories absent at the node."""
    left_mask = np.asarray(left_mask, dtype=bool)
    out = np.full(left_mask.shape[0], UNSEEN, dtype=np.int64)
    out[np.asarray(present, dtype=np.int64)] = 1
    out[left_mask] = 0
    return out
