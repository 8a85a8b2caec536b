"""CART's binary splits (chapter 4): the score a sorted scan maximises, the tolerances it
uses, midpoint thresholds, and category subsets.

Every CART-style grower (recursive, level-wise, sparse, binned) scores a cut with the
same expressions: :func:`gini_split_score`, :func:`entropy_split_score` and
:func:`squared_error_split_score` (proxies of the impurity decrease, higher is better,
through :func:`class_split_score`), breaks ties with :data:`SCORE_RTOL`
(:func:`first_best`, :func:`tie_floor`), places a threshold at
:func:`midpoint_threshold`, and builds subset splits from :func:`category_order`,
:func:`ordered_subset_masks` and :func:`all_subset_masks`.
"""

from __future__ import annotations

import numpy as np

from ..kernels import FEATURE_THRESHOLD as _FEATURE_THRESHOLD
from .splits import UNSEEN

__all__ = ["IMPURITY_TOLERANCE", "FEATURE_THRESHOLD", "SCORE_RTOL", "tie_floor", "first_best",
           "side_weight", "class_split_score", "midpoint_threshold", "gini_split_score",
           "entropy_split_score", "squared_error_split_score", "category_order",
           "ordered_subset_masks", "all_subset_masks", "subset_tables",
           "subset_branch_of_code"]

#: scikit-learn's ``EPSILON`` (machine epsilon), CART's one tolerance on impurity: a node
#: whose impurity is ``<= IMPURITY_TOLERANCE`` is pure, and a split is kept when its
#: ``improvement + IMPURITY_TOLERANCE >= min_impurity_decrease``
IMPURITY_TOLERANCE = float(np.finfo(np.float64).eps)


#: scikit-learn's ``FEATURE_THRESHOLD``: two sorted values closer than this are treated as
#: equal, so no cut is placed between them (defined with the kernels, which compile it in)
FEATURE_THRESHOLD = _FEATURE_THRESHOLD


#: scores closer than this (relative) tie: the first feature, then the smallest threshold,
#: wins. Two features that cut the same rows give the same score up to rounding (their
#: weights are summed in different orders), and must tie.
SCORE_RTOL = 1e-12


def tie_floor(best):
    """The lowest score that ties with ``best``: ``best - SCORE_RTOL·|best|``."""
    best = np.asarray(best, dtype=float)
    return best - SCORE_RTOL * np.abs(np.where(np.isfinite(best), best, 0.0))


def first_best(score):
    """``(top, i)``: the largest of the candidate scores ``score`` (1-d, ``-inf`` for an
    inadmissible candidate) and the first index whose score ties with it
    (:func:`tie_floor`) — CART's rule "ties go to the smallest threshold" when the
    candidates are in increasing order of their cut."""
    score = np.asarray(score, dtype=float)
    if score.ndim != 1 or score.size == 0:
        raise ValueError(f"score must be a non-empty 1-d array; got shape {score.shape}")
    top = float(score.max())
    return top, int(np.flatnonzero(score >= tie_floor(top))[0])


def side_weight(left_table):
    """The weight ``|D_1| = Σ_k C_{1k}`` of one side of many candidate cuts, from its class
    weights ``left_table[c, k]``, added in class order: ``((C_{10} + C_{11}) + C_{12}) + …``.

    The order is stated (not left to ``np.sum``, which adds eight or more numbers
    pairwise) so that every CART grower, compiled or not, rounds ``|D_1|`` alike: the
    level-wise grower's kernels (:func:`treebook.kernels.cart.scan_feature`) add the same
    numbers in this order. For fewer than eight classes it is ``left_table.sum(axis=1)``
    bit for bit.
    """
    left_table = np.asarray(left_table, dtype=float)
    if left_table.ndim != 2 or left_table.shape[1] == 0:
        raise ValueError(f"left_table must have shape (candidates, K) with K >= 1; got "
                         f"{left_table.shape}")
    total = left_table[:, 0].copy()
    for k in range(1, left_table.shape[1]):
        total += left_table[:, k]
    return total


def class_split_score(left_table, value, w_left, w_right, n_classes: int, criterion):
    """The scan score of binary splits of a classification node, one per candidate.

    ``left_table[c, k]``: the weight of class ``k`` left of candidate ``c``; ``value``:
    the node's class weights (so the right side is ``value - left``); ``w_left``,
    ``w_right``: each side's weight. Two classes use the criterion's
    :meth:`~treebook.core.criteria.Criterion.two_class_score` (class-1 weights alone), more
    classes its ``split_proxy`` on the per-class columns — the arrangement of the sums
    the level-wise grower uses, so that every CART grower (exact, sparse, binned) scores
    a candidate with the same floating-point operations.
    """
    left_table = np.asarray(left_table, dtype=float)
    if left_table.ndim != 2 or left_table.shape[1] < n_classes:
        raise ValueError(f"left_table must have shape (candidates, {n_classes}); got "
                         f"{left_table.shape}")
    if n_classes == 2:
        l1 = left_table[:, 1]
        return criterion.two_class_score(l1, value[1] - l1, w_left, w_right)
    left = [left_table[:, k] for k in range(n_classes)]
    right = [value[k] - left[k] for k in range(n_classes)]
    return criterion.split_proxy(left, right, w_left, w_right)


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
