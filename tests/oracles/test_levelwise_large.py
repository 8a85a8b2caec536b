"""The level-wise grower equals the recursive one on fully grown 10⁵-row trees (issue 23).

`tests/test_levelwise.py` checks every node of fully grown 10⁴-row trees in `make test`;
here the same comparison runs at 10⁵ rows, where the deepest nodes hold a handful of the
level's 10⁵ weights, so a running sum with a per-node offset (the defect issue 23 removed)
would round differently from the recursive grower's sums started at zero. The recursive
grower needs about a minute per tree at this size, so this lives in `make crosscheck`.
"""

from __future__ import annotations

import numpy as np
import pytest

from treebook.growers.cart_search import grow_cart

FIELDS = ("kind", "feature", "threshold", "children_ptr", "children", "code_ptr",
          "branch_of_code", "parent", "depth", "value", "weighted_n", "n_samples", "impurity")


@pytest.mark.parametrize("case", ["fractional", "regression"])
def test_every_node_equal_on_a_fully_grown_100k_row_tree(case):
    rng = np.random.default_rng(2023)
    n = 100_000
    # values on grids, so nodes hold ties; fractional weights make every sum inexact
    X = np.stack([np.round(rng.normal(size=n), 2), np.round(rng.normal(size=n), 1),
                  np.round(rng.normal(size=n), 3)], axis=1)
    w = rng.uniform(0.2, 2.0, size=n)
    if case == "regression":
        y = X[:, 0] ** 2 + np.sin(3 * X[:, 1]) + rng.normal(size=n)
        params = dict(n_classes=0, criterion="squared_error")
    else:
        y = (rng.integers(0, 3, size=n) + (X[:, 0] > 0)) % 3
        params = dict(n_classes=3, criterion="gini")
    rec = grow_cart(X, y, w, grower="recursive", **params)
    lev = grow_cart(X, y, w, grower="levelwise", **params)
    assert rec.node_count > 10_000  # fully grown: thousands of small nodes at the bottom
    for name in FIELDS:
        a, b = getattr(rec, name), getattr(lev, name)
        assert a.dtype == b.dtype, (name, a.dtype, b.dtype)
        mismatch = ~((a == b) | (np.isnan(a) & np.isnan(b)) if a.dtype.kind == "f" else a == b)
        assert not mismatch.any(), (
            f"{name} differs first at index {np.flatnonzero(mismatch.reshape(len(a), -1).any(1))[0]}"
            if a.shape == b.shape else f"{name}: shapes {a.shape} and {b.shape}")
