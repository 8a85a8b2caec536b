"""C4.5's fast grower (presorted lists, compiled scans) grows the readable grower's tree.

The readable grower (``grower="readable"``: :func:`treebook.growers.recursive.grow_tree` with
:func:`treebook.growers.c45_search.c45_split_finder`) is the definition. Every case here fits both and
compares every array of the unpruned and the pruned tree exactly (``np.array_equal``:
thresholds, class counts, weights, impurities, children, category maps), on numeric,
categorical and mixed data, with ties, unknown values (fractional cases), weights, and
every option set of J48 the estimator has (-B, -S, -M, -C, -U, -O, PEP, ``missing``,
``max_depth``). The kernels' sums are checked against numpy's own.
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pandas as pd
import pytest

from treebook import C45Classifier
from treebook.kernels.c45 import numpy_sum
from treebook.datasets import load_golf


def assert_equal_values(x, y, name):
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        x, y = np.asarray(x), np.asarray(y)
        assert x.shape == y.shape and x.dtype == y.dtype, name
        assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), name
    elif isinstance(x, (tuple, list)):
        assert isinstance(y, (tuple, list)) and len(x) == len(y), name
        for u, v in zip(x, y):
            assert_equal_values(u, v, name)
    elif isinstance(x, dict):
        assert isinstance(y, dict) and x.keys() == y.keys(), name
        for k in x:
            assert_equal_values(x[k], y[k], f"{name}[{k!r}]")
    else:
        assert x == y, name


def assert_same_tree(a, b):
    """Every field of two trees equal, floats to the bit."""
    for f in fields(a):
        assert_equal_values(getattr(a, f.name), getattr(b, f.name), f.name)


def fit_both(X, y, w=None, **params):
    fast = C45Classifier(grower="fast", **params).fit(X, y, sample_weight=w)
    readable = C45Classifier(grower="readable", **params).fit(X, y, sample_weight=w)
    assert_same_tree(fast.unpruned_tree_, readable.unpruned_tree_)
    assert_same_tree(fast.tree_, readable.tree_)
    return fast, readable


def numeric_data(n=400, n_classes=3, seed=0, nan=0.0, ties=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    if ties:  # few distinct values: long runs of equal values in every sorted list
        X = np.round(X * 2) / 2
    X[:, 3] = X[:, 0] * 3.0  # the same cuts as column 0, scored through other numbers
    score = X[:, 0] + X[:, 1] ** 2 + 0.5 * rng.normal(size=n)
    y = np.digitize(score, np.quantile(score, np.arange(1, n_classes) / n_classes))
    if nan:
        X[rng.random(X.shape) < nan] = np.nan
    return X, y


def mixed_frame(n=400, seed=0, nan=0.0):
    rng = np.random.default_rng(seed)
    X, y = numeric_data(n, 3, seed)
    frame = pd.DataFrame(X[:, :3], columns=["a", "b", "c"])
    codes = np.where(rng.random(n) < 0.7, np.digitize(X[:, 1], [-1, 0, 1]),
                     rng.integers(0, 4, size=n))
    frame["k4"] = pd.Categorical.from_codes(codes, list("pqrs"))
    frame["k7"] = pd.Categorical.from_codes(rng.integers(0, 7, size=n), list("ABCDEFG"))
    if nan:
        for col in frame.columns:
            frame.loc[rng.random(n) < nan, col] = np.nan
    return frame, y


OPTION_SETS = [
    {},
    {"binary_splits": True},
    {"subtree_raising": False},
    {"min_samples_leaf": 1},
    {"min_samples_leaf": 7},
    {"confidence": 0.05},
    {"pruning": None},
    {"pruning": None, "collapse": False},
    {"pruning": "pep"},
    {"mdl_correction": False},
    {"max_depth": 3},
    {"missing": "stop"},
]


@pytest.mark.parametrize("params", OPTION_SETS, ids=lambda p: str(p) or "defaults")
def test_mixed_with_unknowns_every_option(params):
    X, y = mixed_frame(350, seed=1, nan=0.08)
    fit_both(X, y, **params)


@pytest.mark.parametrize("n_classes", [2, 3, 9])
@pytest.mark.parametrize("ties", [False, True])
def test_numeric(n_classes, ties):
    X, y = numeric_data(400, n_classes, seed=n_classes, ties=ties)
    fast, _ = fit_both(X, y)
    assert fast.unpruned_tree_.node_count > 3


@pytest.mark.parametrize("ties", [False, True])
def test_numeric_unknowns_fractional_weights(ties):
    X, y = numeric_data(400, 3, seed=5, nan=0.15, ties=ties)
    w = np.random.default_rng(5).uniform(0.2, 3.0, size=X.shape[0])
    fast, _ = fit_both(X, y, w)
    # the unknowns did go down every branch: some node's weight is not a sum of whole w
    assert fast.unpruned_tree_.node_count > 3


@pytest.mark.parametrize("params", [{}, {"binary_splits": True}])
def test_categorical_only(params):
    X, y = mixed_frame(300, seed=2, nan=0.05)
    fit_both(X[["k4", "k7"]], y, **params)


def test_mixed_weights():
    X, y = mixed_frame(400, seed=3)
    w = np.random.default_rng(3).uniform(0.5, 2.0, size=len(y))
    fit_both(X, y, w)
    fit_both(X, y, w, binary_splits=True)


def test_golf_with_unknown_outlook():
    X, y = load_golf(return_X_y=True)
    X = X.copy()
    X.loc[11, "outlook"] = np.nan  # Quinlan 1993, ch. 3
    fit_both(X, y, min_samples_leaf=1)


def test_fast_is_default_and_readable_is_selectable():
    assert C45Classifier().grower == "fast"
    with pytest.raises(ValueError, match="grower"):
        C45Classifier(grower="quick").fit(*numeric_data(50))


@pytest.mark.parametrize("k", [1, 2, 3, 7, 8, 9, 16, 17, 127, 128, 129, 300, 5000])
def test_numpy_sum_adds_as_numpy_does(k):
    rng = np.random.default_rng(k)
    for _ in range(20):
        a = rng.random(k) * 10.0 ** rng.uniform(-6, 6, size=k)
        assert numpy_sum(a) == a.sum()


@pytest.mark.parametrize("seed", range(4))
def test_partition_gives_each_child_its_stable_sort(seed):
    """A child's list of an attribute is what a stable sort of the child's cases (its
    branch's cases, then the fanned ones, as grow_tree builds it) gives."""
    from treebook.growers.c45 import _sorted_lists
    from treebook.kernels.c45 import FAN_CODE, partition_sorted_lists

    rng = np.random.default_rng(seed)
    n, nb = 300, 3
    X = rng.integers(0, 6, size=(n, 2)).astype(float)  # long runs of ties
    X[rng.random(X.shape) < 0.2] = np.nan
    rows = rng.permutation(n)[:200]                   # a node: some rows, in some order
    go = rng.choice([0, 1, 2, FAN_CODE, -1], size=rows.shape[0], p=[.3, .3, .2, .15, .05])
    numeric = np.array([0, 1])
    node_X = X[rows]
    order, ptr = _sorted_lists(node_X, numeric)       # the node's lists: node positions
    out_ptr = np.zeros((nb, 3), dtype=np.int64)
    out = np.empty(order.shape[0] * nb, dtype=np.int64)
    partition_sorted_lists(order, ptr, numeric, X, rows, go, nb, out, out_ptr)
    for b in range(nb):
        child = np.concatenate([np.flatnonzero(go == b), np.flatnonzero(go == FAN_CODE)])
        for i, f in enumerate(numeric):
            x = node_X[child, f]
            known = np.flatnonzero(~np.isnan(x))
            expected = known[np.argsort(x[known], kind="stable")]
            assert np.array_equal(out[out_ptr[b, i]:out_ptr[b, i + 1]], expected)


@pytest.mark.parametrize("seed", range(6))
def test_batched_categorical_candidates_are_the_readable_ones_bit_for_bit(seed):
    """The fast grower scores a node's multiway candidates in one numpy call per number of
    categories, small tables padded with zero rows; every number must be
    ``categorical_candidate``'s exactly (the choice compares gains within 1e-3 and ratios
    within 1e-6, but the tree's recorded scores are compared exactly)."""
    from treebook.growers.c45 import _categorical_candidates
    from treebook.growers.c45_search import C45Context, categorical_candidate

    rng = np.random.default_rng(seed)
    n, K = 300, int(rng.integers(2, 6))
    sizes = [1, 2, 3, 5, 6, 6, 7, 8, 12, 41]  # below, at and above the padding bound
    X = np.column_stack([rng.integers(0, v, n).astype(float) for v in sizes])
    X[rng.random(X.shape) < 0.1] = np.nan
    y = rng.integers(0, K, n)
    w = rng.uniform(0.05, 3.0, n) if seed % 2 else np.ones(n)
    ctx = C45Context.from_data(X, [True] * len(sizes), sizes, K, 2, True)
    rows = np.flatnonzero(rng.random(n) < 0.7)
    got = _categorical_candidates(ctx, X, rows, y[rows], w[rows], list(range(len(sizes))))
    for f, v in enumerate(sizes):
        ref = categorical_candidate(X[rows, f], y[rows], w[rows], feature=f, n_categories=v,
                                    n_classes=K, min_samples_leaf=2)
        assert (got[f] is None) == (ref is None)
        if ref is None:
            continue
        for name in ("gain", "split_info", "gain_ratio", "raw_gain", "admissible", "kind"):
            assert getattr(got[f], name) == getattr(ref, name), (f, name)
        assert np.array_equal(got[f].table, ref.table)
        assert np.array_equal(got[f].missing, ref.missing)
