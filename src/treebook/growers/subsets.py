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

**Cost.** The cuts along one ordering are scored from prefix sums: sort the ``L``
categories once (``O(L log L)``), then the sums left of cut ``i`` are
``Σ_{a ≤ i} stats[order[a]]``, one addition per cut. A node therefore costs
``O(K·L log L)`` time and ``O(K·L)`` memory with ``K`` orderings (one for two classes and
regression), never an ``(L-1) × L`` mask per ordering (:class:`SubsetCandidates`).
"""

from __future__ import annotations

import numpy as np

from ..core.cart_scores import all_subset_masks, category_order, class_split_score, first_best, subset_branch_of_code
from ..core.splits import categorical_table

__all__ = ["MAX_EXHAUSTIVE_CATEGORIES", "category_stats", "SubsetCandidates", "subset_masks",
           "node_subset_candidates", "subset_split_of_stats", "subset_candidates"]

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


class SubsetCandidates:
    """The left sets CART scores at a node, held as orderings of the categories rather
    than as masks.

    With the per-category sums ``stats`` of :func:`category_stats` (or the same sums from
    a histogram) and the node's ``rows_per_cat``: Breiman's ordering for two classes (by
    the class-1 proportion ``p_1(c)``) and regression (by the mean ``ȳ(c)``), the
    orderings by each class's proportion ``p_k(c)`` for ``K ≥ 3`` classes, each giving
    the cuts "the first ``i + 1`` categories of the order go left" (``i = 0 … L-2``,
    categories of zero weight are in no order and go right); or, for ``K ≥ 3`` with at
    most ``MAX_EXHAUSTIVE_CATEGORIES`` categories present, every subset
    (:func:`treebook.core.cart_scores.all_subset_masks`, ``2^(L-1) - 1`` masks).

    Candidate ``q`` is cut ``q mod (L-1)`` of ordering ``q div (L-1)``, orderings in class
    order: the order in which ties are broken (the first best wins).
    :meth:`blocks` gives each ordering's sums left of its cuts by prefix sums
    (``O(K·L)`` memory per ordering); :meth:`mask` rebuilds one candidate's left set.
    """

    def __init__(self, stats, rows_per_cat, n_classes: int, n_categories: int):
        self.stats = np.asarray(stats, dtype=float)
        self.rows_per_cat = np.asarray(rows_per_cat, dtype=np.int64)
        self.n_categories = n_categories
        self.present = np.flatnonzero(self.rows_per_cat > 0)
        self.masks = None
        if n_classes == 0:
            Wc, S1c = self.stats[:, 0], self.stats[:, 1]
            means = np.divide(S1c, Wc, out=np.zeros_like(S1c), where=Wc > 0)
            self.orders = [category_order(Wc[:, None], means=means)]
        elif n_classes == 2:
            self.orders = [category_order(self.stats)]
        elif self.present.size <= MAX_EXHAUSTIVE_CATEGORIES:
            self.orders = []
            self.masks = all_subset_masks(self.present, n_categories)
        else:
            self.orders = [category_order(self.stats, by=k) for k in range(n_classes)]
        self.n_cuts = max(self.orders[0].size - 1, 0) if self.orders else 0

    def __len__(self) -> int:
        return self.masks.shape[0] if self.masks is not None else self.n_cuts * len(self.orders)

    def blocks(self):
        """Per ordering (or once, for the masks): ``(left, n_left)``, the sums of
        ``stats`` over each candidate's left categories ``(S_b, width)`` and their
        number of rows ``(S_b,)``, in candidate order. Along an ordering these are
        prefix sums, added in the order's sequence."""
        if self.masks is not None:
            yield (self.masks.astype(float) @ self.stats,
                   self.masks.astype(np.int64) @ self.rows_per_cat)
            return
        for order in self.orders:
            yield (np.cumsum(self.stats[order], axis=0)[:-1],
                   np.cumsum(self.rows_per_cat[order])[:-1])

    def sums(self):
        """All the candidates' ``(left, n_left)`` at once (:meth:`blocks` stacked)."""
        blocks = list(self.blocks())
        width = self.stats.shape[1]
        if not blocks:
            return np.zeros((0, width)), np.zeros(0, np.int64)
        return np.concatenate([b[0] for b in blocks]), np.concatenate([b[1] for b in blocks])

    def mask(self, q: int) -> np.ndarray:
        """Candidate ``q``'s left set as a boolean mask over the ``n_categories`` codes."""
        if self.masks is not None:
            return self.masks[q]
        order = self.orders[q // self.n_cuts]
        out = np.zeros(self.n_categories, dtype=bool)
        out[order[:q % self.n_cuts + 1]] = True
        return out

    def branch_of_code(self, q: int) -> np.ndarray:
        """``branch_of_code`` of candidate ``q`` (``-1`` for the absent categories), or
        for ``q = -1`` every present category left (the known | missing split)."""
        mask = (np.isin(np.arange(self.n_categories), self.present) if q < 0
                else self.mask(q))
        return subset_branch_of_code(mask, self.present)


def subset_masks(stats, present, n_classes: int, n_categories: int) -> np.ndarray:
    """The category subsets CART scores at a node, as left masks ``(S, L)`` — the
    candidates of :class:`SubsetCandidates` materialised (for small ``L``: the search
    itself never builds them). ``present``: the categories with rows at the node."""
    rows = np.zeros(n_categories, dtype=np.int64)
    rows[np.asarray(present, dtype=np.int64)] = 1
    cand = SubsetCandidates(stats, rows, n_classes, n_categories)
    if not len(cand):
        return np.zeros((0, n_categories), dtype=bool)
    return np.stack([cand.mask(q) for q in range(len(cand))])


def node_subset_candidates(codes, y, w, n_classes: int, n_categories: int):
    """:class:`SubsetCandidates` of a node's rows, or None with < 2 categories present."""
    stats, rows_per_cat = category_stats(codes, y, w, n_classes, n_categories)
    cand = SubsetCandidates(stats, rows_per_cat, n_classes, n_categories)
    return cand if cand.present.size >= 2 else None


def subset_split_of_stats(stats, rows_per_cat, node, n_classes, n_categories, criterion,
                          min_samples_leaf, min_weight_leaf=0.0):
    """Best split of a categorical feature into two category subsets, from its
    per-category sums (:func:`category_stats`): ``(score, nan, branch_of_code)`` or None.
    ``node = (value, W)``: the node's class weights (mean response) and weight.

    Each ordering of :class:`SubsetCandidates` is scored from its prefix sums and only
    its scores are kept, so a node with ``L`` categories costs ``O(K·L log L)`` time and
    ``O(K·L)`` memory; the first candidate tying with the best score wins
    (:func:`treebook.core.cart_scores.first_best`)."""
    value, W = node
    cand = SubsetCandidates(stats, rows_per_cat, n_classes, n_categories)
    if cand.present.size < 2 or not len(cand):
        return None
    n_rows = int(cand.rows_per_cat.sum())
    scores = []
    for left, n_left in cand.blocks():
        w_left = left[:, 0] if n_classes == 0 else left.sum(axis=1)
        ok = (n_left >= min_samples_leaf) & (n_rows - n_left >= min_samples_leaf)
        w_right = W - w_left
        if min_weight_leaf > 0:
            ok &= (w_left >= min_weight_leaf) & (w_right >= min_weight_leaf)
        with np.errstate(divide="ignore", invalid="ignore"):
            if n_classes == 0:
                score = criterion.split_proxy(left[:, 1] - w_left * value[0], w_left, w_right)
            else:
                score = class_split_score(left, value, w_left, w_right, n_classes, criterion)
        scores.append(np.where(ok, score, -np.inf))
    score = np.concatenate(scores)
    if not np.isfinite(score).any():
        return None
    score, q = first_best(score)
    return score, np.nan, cand.branch_of_code(q)


def subset_candidates(codes, y, w, node, n_classes, n_categories, criterion,
                       min_samples_leaf, min_weight_leaf=0.0):
    """Best split of a categorical feature into two category subsets
    (:func:`subset_split_of_stats` on the node's rows)."""
    stats, rows_per_cat = category_stats(codes, y, w, n_classes, n_categories)
    return subset_split_of_stats(stats, rows_per_cat, node, n_classes, n_categories,
                                 criterion, min_samples_leaf, min_weight_leaf)
