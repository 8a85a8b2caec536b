"""CART's categorical subset search: the two category subsets a node splits into.

A categorical feature with the categories ``1 … L`` present at a node splits them into a
left and a right subset. There are ``2^(L-1) - 1`` such splits; CART scores:

* two classes, or regression: the ``L - 1`` cuts along the categories sorted by the
  proportion of class 1 (by the mean response) — one of them is optimal (Breiman et al.
  1984, §9.4; Fisher 1958 for regression; chapter 4 proves it);
* three or more classes: every subset when at most ``MAX_EXHAUSTIVE_CATEGORIES``
  categories are present, else, for each class ``k``, the cuts along the order of the
  proportion of class ``k`` (a heuristic, not guaranteed optimal).

The search works on per-category sums (:func:`category_stats`), so the recursive grower,
the level-wise grower and the binned grower (:mod:`treebook.hist`, from histograms) share
it: :func:`subset_split_of_stats` is the one place a subset split is chosen.
"""

from __future__ import annotations

import numpy as np

from ..core.cart_scores import all_subset_masks, category_order, class_split_score, first_best, ordered_subset_masks, subset_branch_of_code, subset_tables
from ..core.splits import categorical_table

__all__ = ["MAX_EXHAUSTIVE_CATEGORIES", "category_stats", "subset_masks", "node_subset_masks",
           "subset_split_of_stats", "subset_candidates"]

#: with three or more classes, every subset split is tried up to this many categories
MAX_EXHAUSTIVE_CATEGORIES = 12


def category_stats(codes, y, w, n_classes: int, n_categories: int):
    """Per-category sums of a node's rows: ``(stats, rows_per_category)``, ``stats`` the
    class table ``(L, K)`` (:func:`treebook.core.splits.categorical_table`) or, for
    regression (``n_classes=0``), ``[Σ w, Σ w·y]`` per category. ``codes``: integer
    category codes ``0 … L-1`` (no missing values)."""
    codes = np.asarray(codes, dtype=np.int64)
    rows_per_cat = np.bincount(codes, minlength=n_categories)
    if n_classes == 0:
        Wc = np.bincount(codes, weights=w, minlength=n_categories)
        S1c = np.bincount(codes, weights=w * y, minlength=n_categories)
        return np.stack([Wc, S1c], axis=1), rows_per_cat
    table, _ = categorical_table(codes.astype(float), y, w, n_categories, n_classes)
    return table, rows_per_cat


def subset_masks(stats, present, n_classes: int, n_categories: int) -> np.ndarray:
    """The category subsets CART scores at a node, as left masks ``(S, L)``, from the
    per-category sums ``stats`` of :func:`category_stats` (or the same sums from a
    histogram) and the ``present`` categories: Breiman's ordering for two classes (by
    class-1 proportion) and regression (by mean), all subsets of the present categories
    for K >= 3 up to ``MAX_EXHAUSTIVE_CATEGORIES``, else the orderings by each class."""
    if n_classes == 0:
        Wc, S1c = stats[:, 0], stats[:, 1]
        means = np.divide(S1c, Wc, out=np.zeros_like(S1c), where=Wc > 0)
        return ordered_subset_masks(category_order(Wc[:, None], means=means), n_categories)
    if n_classes == 2:
        return ordered_subset_masks(category_order(stats), n_categories)
    if present.size <= MAX_EXHAUSTIVE_CATEGORIES:
        return all_subset_masks(present, n_categories)
    return np.concatenate([ordered_subset_masks(category_order(stats, by=k), n_categories)
                           for k in range(n_classes)])


def node_subset_masks(codes, y, w, n_classes: int, n_categories: int):
    """:func:`subset_masks` of a node's rows: ``(masks, stats, rows_per_category,
    present)``, or None with < 2 categories present."""
    stats, rows_per_cat = category_stats(codes, y, w, n_classes, n_categories)
    present = np.flatnonzero(rows_per_cat > 0)
    if present.size < 2:
        return None
    return subset_masks(stats, present, n_classes, n_categories), stats, rows_per_cat, present


def subset_split_of_stats(stats, rows_per_cat, node, n_classes, n_categories, criterion,
                          min_samples_leaf, min_weight_leaf=0.0):
    """Best split of a categorical feature into two category subsets, from its
    per-category sums (:func:`category_stats`): ``(score, nan, branch_of_code)`` or None.
    ``node = (value, W)``: the node's class weights (mean response) and weight."""
    value, W = node
    present = np.flatnonzero(rows_per_cat > 0)
    if present.size < 2:
        return None
    masks = subset_masks(stats, present, n_classes, n_categories)
    if n_classes == 0:
        sides = masks.astype(float) @ stats
        w_left = sides[:, 0]
        s_left = sides[:, 1] - w_left * value[0]
    else:
        left_table = subset_tables(stats, masks)[:, 0, :]
        w_left = left_table.sum(axis=1)
    n_left = masks.astype(np.int64) @ rows_per_cat
    n_rows = int(rows_per_cat.sum())
    ok = (n_left >= min_samples_leaf) & (n_rows - n_left >= min_samples_leaf)
    w_right = W - w_left
    if min_weight_leaf > 0:
        ok &= (w_left >= min_weight_leaf) & (w_right >= min_weight_leaf)
    if not ok.any():
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        if n_classes == 0:
            score = criterion.split_proxy(s_left, w_left, w_right)
        else:
            score = class_split_score(left_table, value, w_left, w_right, n_classes, criterion)
    score, i = first_best(np.where(ok, score, -np.inf))
    return score, np.nan, subset_branch_of_code(masks[i], present)


def subset_candidates(codes, y, w, node, n_classes, n_categories, criterion,
                       min_samples_leaf, min_weight_leaf=0.0):
    """Best split of a categorical feature into two category subsets
    (:func:`subset_split_of_stats` on the node's rows)."""
    stats, rows_per_cat = category_stats(codes, y, w, n_classes, n_categories)
    return subset_split_of_stats(stats, rows_per_cat, node, n_classes, n_categories,
                                 criterion, min_samples_leaf, min_weight_leaf)
