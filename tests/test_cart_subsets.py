"""CART's subset search on many-level categorical columns (issue 22): the prefix-sum search
chooses what the mask definition chooses, the compiled kernel agrees with numpy, and a
node's memory is O(K·L), not O(K·L²)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_kernels import assert_identical
from treebook.core.cart_scores import first_best, subset_branch_of_code
from treebook.core.criteria import GINI, SQUARED_ERROR
from treebook.growers.levelwise import grow_levelwise
from treebook.growers.subsets import (MAX_EXHAUSTIVE_CATEGORIES, SubsetCandidates,
                                      category_stats, subset_candidates, subset_masks)


def _reference_split(codes, y, w, n_classes, n_categories, msl):
    """The subset search by its definition, with dense masks (the pre-issue-22 code):
    Breiman's cuts (or, K >= 3, the cuts along each class's proportion, every subset up
    to 12 categories), each side's weights and Gini / squared-error score written out,
    the first best winning. Small L only: it builds (K·(L-1), L) masks."""
    stats, rows = category_stats(codes, y, w, n_classes, n_categories)
    present = np.flatnonzero(rows > 0)
    tot = stats[:, 0] if n_classes == 0 else stats.sum(axis=1)
    pos = np.flatnonzero(tot > 0)
    if n_classes >= 3 and present.size <= MAX_EXHAUSTIVE_CATEGORIES:
        masks = [m for m in (np.array([(q >> b) & 1 for b in range(present.size - 1)] + [0],
                                      bool) for q in range(1, 2 ** (present.size - 1)))]
        masks = [np.isin(np.arange(n_categories), present[m]) for m in masks]
    else:
        keys = ([stats[pos, 1] / stats[pos, 0]] if n_classes == 0 else
                [stats[pos, 1] / tot[pos]] if n_classes == 2 else
                [stats[pos, k] / tot[pos] for k in range(n_classes)])
        masks = []
        for key in keys:
            order = pos[np.argsort(key, kind="stable")]
            masks += [np.isin(np.arange(n_categories), order[:i + 1])
                      for i in range(order.size - 1)]
    W = w.sum()
    scores = []
    for m in masks:
        left = m[codes]
        n_l = left.sum()
        w_l, w_r = w[left].sum(), w[~left].sum()
        if n_l < msl or codes.size - n_l < msl or w_l <= 0 or w_r <= 0:
            scores.append(-np.inf)
            continue
        if n_classes == 0:  # the squared-error proxy: (S_l - W_l ȳ)² (1/W_l + 1/W_r)
            s = np.dot(w[left], y[left]) - w_l * np.dot(w, y) / W
            scores.append(s * s * (1 / w_l + 1 / w_r))
        else:  # Gini's proxy: Σ_k l_k²/W_l + Σ_k r_k²/W_r; two classes: l_1²/W_l + r_1²/W_r
            lk = np.bincount(y[left], w[left], minlength=n_classes)
            rk = np.bincount(y[~left], w[~left], minlength=n_classes)
            if n_classes == 2:
                lk, rk = lk[1:], rk[1:]
            scores.append((lk ** 2).sum() / w_l + (rk ** 2).sum() / w_r)
    top, i = first_best(np.array(scores))
    return top, subset_branch_of_code(masks[i], present)


def _node(codes, y, w, n_classes):
    if n_classes == 0:
        return np.array([np.dot(w, y) / w.sum()]), w.sum()
    return np.bincount(y, w, minlength=n_classes).astype(float), w.sum()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from([0, 2, 3, 4]), st.sampled_from([1, 3]),
       st.sampled_from([5, 11, 40]))
def test_prefix_sum_search_chooses_the_mask_definitions_subset(seed, k, msl, L):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(L, 6 * L))
    codes = rng.integers(0, L, size=n)
    w = rng.integers(1, 4, size=n).astype(float)  # integer weights: every sum is exact
    y = (rng.integers(0, 9, size=n) - codes % 4 + 0.5 * (codes % 3)).round() if k == 0 else \
        (codes * 7 + rng.integers(0, 3, size=n)) % k
    crit = SQUARED_ERROR if k == 0 else GINI
    got = subset_candidates(codes, y, w, _node(codes, y, w, k), k, L, crit, msl)
    want = _reference_split(codes, y, w, k, L, msl)
    if not np.isfinite(want[0]):
        assert got is None
        return
    assert got is not None
    assert np.isclose(got[0], want[0], rtol=1e-12)
    assert np.array_equal(got[2], want[1])


@pytest.mark.parametrize("k", [0, 2, 3, 5])
@pytest.mark.parametrize("weights", ["unit", "fractional", "with zeros"])
def test_compiled_kernel_equals_numpy_on_many_levels(k, weights):
    """The compiled search and numpy's on 300-level columns: every tree array, bit for bit
    (both add each ordering's sums in the order's sequence)."""
    rng = np.random.default_rng(k + 10 * len(weights))
    n, L = 3000, 300
    X = np.stack([rng.integers(0, L, size=n), rng.integers(0, 40, size=n),
                  rng.normal(size=n)], axis=1).astype(float)
    signal = np.sin(X[:, 0]) + (X[:, 1] % 5 == 0) + 0.3 * X[:, 2]
    y = signal + rng.normal(size=n) if k == 0 else \
        (np.floor(2 * signal).astype(np.int64) + rng.integers(0, 2, size=n)) % k
    w = {"unit": np.ones(n), "fractional": rng.uniform(0.2, 2.0, size=n),
         "with zeros": rng.integers(0, 3, size=n).astype(float)}[weights]
    params = dict(n_classes=k, criterion="squared_error" if k == 0 else "gini",
                  categorical=np.array([True, True, False]), n_categories=[L, 40, 0],
                  max_depth=6, subset_split=subset_candidates,
                  max_exhaustive_categories=MAX_EXHAUSTIVE_CATEGORIES)
    compiled = grow_levelwise(X, y, w, engine="compiled", **params)
    numpy = grow_levelwise(X, y, w, engine="numpy", **params)
    assert compiled.node_count > 20
    assert_identical(compiled, numpy)


def test_candidates_are_held_as_orderings():
    """10^4 categories, three classes: no mask is built; the node's candidates are
    three orderings of the positive-weight categories, cut L - 1 ways each."""
    rng = np.random.default_rng(0)
    L = 10_000
    stats = rng.integers(0, 4, size=(L, 3)).astype(float)
    rows = stats.sum(axis=1).astype(np.int64)
    cand = SubsetCandidates(stats, rows, 3, L)
    assert cand.masks is None and len(cand.orders) == 3
    n_pos = int((rows > 0).sum())
    assert len(cand) == 3 * (n_pos - 1)
    q = len(cand) - 1  # the last cut of the order by class 2: all but its last category
    assert cand.mask(q).sum() == n_pos - 1 and not cand.mask(q)[cand.orders[2][-1]]
    # the materialised masks (small L) are the candidates', in candidate order
    small = SubsetCandidates(stats[:30], rows[:30], 3, 30)
    masks = subset_masks(stats[:30], np.flatnonzero(rows[:30] > 0), 3, 30)
    assert np.array_equal(masks, np.stack([small.mask(q) for q in range(len(small))]))


@pytest.mark.parametrize("k", [0, 2, 3])
def test_a_nodes_search_memory_is_linear_in_the_levels(k):
    """Peak memory of one node's search on 20,000 categories stays within a constant
    times K·L doubles (the masks of the mask definition would take K·L² bytes, 1.2 GB
    for K = 3)."""
    rng = np.random.default_rng(1)
    L = 20_000
    n = 5 * L
    codes = rng.integers(0, L, size=n)
    y = rng.normal(size=n) + codes % 7 if k == 0 else rng.integers(0, k, size=n)
    w = np.ones(n)
    crit = SQUARED_ERROR if k == 0 else GINI
    node = _node(codes, y, w, k)
    stats, rows = category_stats(codes, y, w, k, L)
    from treebook.growers.subsets import subset_split_of_stats
    tracemalloc.start()
    found = subset_split_of_stats(stats, rows, node, k, L, crit, 1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert found is not None and found[2].shape == (L,)
    assert peak <= 16 * 8 * max(k, 2) * L, peak
