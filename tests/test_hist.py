"""Binned CART (treebook.hist): equal to exact CART with one bin per value; its bins,
reductions and validation; the Dask grower equal to the single-machine one bit for bit."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris, load_wine

from treebook import CARTClassifier, CARTRegressor
from treebook.growers.binning import BinMapper, bin_edges, merge_summaries, value_summary
from treebook.hist import HistCARTClassifier, HistCARTRegressor
from treebook.growers.hist import tree_sum


def assert_same_tree(a, b, values_exact=True):
    ta, tb = a.tree_, b.tree_
    assert ta.node_count == tb.node_count
    for field in ("kind", "feature", "children", "parent", "depth", "n_samples"):
        np.testing.assert_array_equal(getattr(ta, field), getattr(tb, field), err_msg=field)
    np.testing.assert_array_equal(ta.threshold, tb.threshold)
    for field in ("value", "weighted_n", "impurity"):
        if values_exact:
            np.testing.assert_array_equal(getattr(ta, field), getattr(tb, field), err_msg=field)
        else:
            np.testing.assert_allclose(getattr(ta, field), getattr(tb, field), rtol=1e-12)


ALL_BINS = 65535  # more bins than any feature here has distinct values


@pytest.mark.parametrize("load", [load_iris, load_wine, load_breast_cancer])
@pytest.mark.parametrize("params", [{}, {"criterion": "entropy", "min_samples_leaf": 3},
                                    {"max_depth": 3, "min_samples_split": 10}])
def test_equals_exact_cart_classification(load, params):
    X, y = load(return_X_y=True)
    assert_same_tree(CARTClassifier(**params).fit(X, y),
                     HistCARTClassifier(max_bins=ALL_BINS, **params).fit(X, y))


def test_equals_exact_cart_integer_weights_and_regression():
    X, y = load_breast_cancer(return_X_y=True)
    w = np.random.default_rng(3).integers(1, 4, size=len(y)).astype(float)
    assert_same_tree(CARTClassifier().fit(X, y, w),
                     HistCARTClassifier(max_bins=ALL_BINS).fit(X, y, w))
    X, y = load_diabetes(return_X_y=True)
    for params in ({}, {"max_depth": 5, "min_samples_leaf": 5}):
        assert_same_tree(CARTRegressor(**params).fit(X, y),
                         HistCARTRegressor(max_bins=ALL_BINS, **params).fit(X, y))


def test_thresholds_are_midpoints_of_values_present_at_the_node():
    # the root cuts x0 at 2.5; the right node holds x1 values {0, 3} only, so exact CART
    # cuts between 0 and 3 at 1.5 although every value 0..3 has its own global bin
    X = np.array([[0, 0], [1, 1], [2, 2], [3, 0], [4, 3], [5, 0], [6, 3]], float)
    y = np.array([0, 0, 0, 1, 1, 1, 1])
    y[[4, 6]] = 0
    h = HistCARTClassifier().fit(X, y)
    assert_same_tree(CARTClassifier().fit(X, y), h)
    assert 1.5 in h.tree_.threshold


def test_few_bins_hand_example():
    # x = 0..9 in two quantile bins: {0..4} and {5..9}; the only cut is at 4.5
    x = np.arange(10.0)[:, None]
    y = (x[:, 0] >= 3).astype(int)
    h = HistCARTClassifier(max_bins=2).fit(x, y)
    assert h.tree_.node_count == 3
    assert h.tree_.threshold[0] == 4.5
    np.testing.assert_array_equal(h.tree_.value[1], [3.0, 2.0])


def test_bin_edges_by_hand():
    # at most max_bins distinct values: one bin each, edges at midpoints
    edges, lo, hi = bin_edges([1.0, 2.0, 4.0], [1, 1, 1], max_bins=3)
    np.testing.assert_array_equal(edges, [1.5, 3.0])
    # 8 rows, a heavy last value: the target rank 4 is nearer 3 rows (after value 3)
    edges, lo, hi = bin_edges([1.0, 2.0, 3.0, 4.0], [1, 1, 1, 5], max_bins=2)
    np.testing.assert_array_equal(edges, [3.5])
    np.testing.assert_array_equal(lo, [1.0, 4.0])
    np.testing.assert_array_equal(hi, [3.0, 4.0])
    # 100 equally common values in 4 bins: 25 per bin
    edges, _, _ = bin_edges(np.arange(100.0), np.ones(100, int), max_bins=4)
    np.testing.assert_array_equal(edges, [24.5, 49.5, 74.5])


def test_sketch_rank_error_is_bounded():
    rng = np.random.default_rng(0)
    x = rng.normal(size=20_000)
    blocks = np.array_split(x, 7)
    points = 50
    values, counts = merge_summaries(value_summary(b, points) for b in blocks)
    est_rank = np.cumsum(counts)
    true_rank = np.searchsorted(np.sort(x), values, side="right")
    assert np.max(np.abs(est_rank - true_rank)) <= x.size / points
    assert values[0] == x.min() and values[-1] == x.max()
    # few distinct values per block: the sketch is exact
    z = rng.integers(0, 10, size=1000).astype(float)
    np.testing.assert_array_equal(merge_summaries([value_summary(z, 20)])[1],
                                  np.bincount(z.astype(int)))


def test_tree_sum_reduces_pairwise_in_order():
    assert tree_sum(list("abcde"), combine=lambda a, b: f"({a}+{b})") == "(((a+b)+(c+d))+e)"
    assert tree_sum(["a"], combine=None) == "a"
    with pytest.raises(ValueError, match="parts"):
        tree_sum([])


def test_bin_mapper_transform_matches_edges():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(500, 3))
    m = BinMapper.fit(X, max_bins=8)
    codes = m.transform(X)
    for f in range(3):
        assert codes[:, f].max() == m.n_bins[f] - 1
        inside = np.r_[-np.inf, m.edges[f]][codes[:, f]] < X[:, f]
        assert inside.all() and (X[:, f] <= np.r_[m.edges[f], np.inf][codes[:, f]]).all()


def test_bad_input():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="max_bins"):
        HistCARTClassifier(max_bins=1).fit(X, y)
    with pytest.raises(ValueError, match="binning"):
        HistCARTClassifier(binning="approx").fit(X, y)
    with pytest.raises(TypeError, match="max_bins"):
        bin_edges([1.0, 2.0], [1, 1], max_bins=2.5)
    with pytest.raises(ValueError, match="65535 categories"):
        BinMapper.from_summaries([(np.array([1.0]), np.array([1]))], 8, [70_000])
    Xn = X.copy()
    Xn[0, 0] = np.inf
    with pytest.raises(ValueError, match="inf"):
        HistCARTClassifier().fit(Xn, y)


def _mixed_frame(n, seed, missing=0.0):
    """Numbers, a few-valued number, a 2-level and a 7-level category; NaN in a share
    ``missing`` of the cells of three columns. Targets: 2 and 3 classes, integer
    responses, integer weights (so that every sum is exact)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    a = np.round(rng.normal(size=n), 1)
    b = rng.integers(0, 6, n).astype(float)
    c = rng.choice(list("pqrstuv"), n)
    d = rng.choice(["yes", "no"], n)
    logit = a + (c == "q") - (c == "t") * 1.5 + 0.3 * b + (d == "yes")
    y2 = (logit + rng.normal(scale=0.7, size=n) > 0.8).astype(int)
    y3 = np.where(c == "v", 2, y2)
    yr = np.round(4 * a + 3 * (c == "r") + b + rng.normal(size=n))
    w = rng.integers(1, 4, n).astype(float)
    frame = pd.DataFrame({"a": a, "b": b, "c": pd.Categorical(c), "d": d})
    if missing:
        for col in ("a", "c", "d"):
            frame.loc[rng.random(n) < missing, col] = np.nan
    return frame, y2, y3, yr, w


@pytest.mark.parametrize("missing", [0.0, 0.12], ids=["no-NaN", "NaN"])
@pytest.mark.parametrize("params", [{}, {"min_samples_leaf": 4, "max_depth": 6},
                                    {"criterion": "entropy", "min_samples_split": 12}])
def test_categorical_and_missing_equal_exact_cart(missing, params):
    # every distinct value has its own bin and every category is a bin: exact CART's
    # subset search (Breiman's ordering, or every subset for 3 classes) and, with NaN,
    # its missing="learn" rule give the same tree
    frame, y2, y3, yr, w = _mixed_frame(600, 11, missing)
    for y in (y2, y3):
        for weights in (None, w):
            exact = CARTClassifier(**params).fit(frame, y, weights)
            binned = HistCARTClassifier(max_bins=ALL_BINS, **params).fit(frame, y, weights)
            assert_same_tree(exact, binned)
            np.testing.assert_array_equal(exact.tree_.missing_go, binned.tree_.missing_go)
            np.testing.assert_array_equal(exact.predict_proba(frame),
                                          binned.predict_proba(frame))
            assert (exact.tree_.kind == 3).any() or (exact.tree_.kind == 2).any()
    params = {k: v for k, v in params.items() if k != "criterion"}
    for weights in (None, w):
        exact = CARTRegressor(**params).fit(frame, yr, weights)
        binned = HistCARTRegressor(max_bins=ALL_BINS, **params).fit(frame, yr, weights)
        assert_same_tree(exact, binned)
        np.testing.assert_array_equal(exact.predict(frame), binned.predict(frame))


def test_categorical_splits_are_subsets_and_missing_learns_its_side():
    from treebook.core.tree import NodeKind

    frame, y2, *_ = _mixed_frame(600, 11, 0.12)
    h = HistCARTClassifier(max_bins=16).fit(frame, y2)
    kinds = h.tree_.kind[h.tree_.feature == 2]
    assert kinds.size and np.all(kinds == NodeKind.SUBSET)  # column c: never a threshold
    assert h.bin_mapper_.n_bins[2] == 7  # 7 categories: 7 bins, although max_bins = 16
    assert h.bin_mapper_.missing_bin == 16
    # by hand: x missing exactly where y = 1; the best split is known | missing, and the
    # missing values go right although the left child has more rows (the side is learnt)
    x = np.array([[0.0], [1.0], [2.0], [3.0], [np.nan], [np.nan]])
    t = HistCARTClassifier().fit(x, [0, 0, 0, 0, 1, 1]).tree_
    assert t.node_count == 3 and t.threshold[0] == np.inf and t.missing_go[0] == 1


# distributed's scheduler always serves HTTP routes (health, metrics); with
# dashboard_address=None it takes port 8787. A free port on 127.0.0.1 and no dashboard:
LOCAL_ONLY = dict(dashboard_address="127.0.0.1:0", scheduler_kwargs={"dashboard": False})


def test_dask_tree_equals_single_machine_bit_for_bit():
    # the scale extra is pinned in requirements.txt: a missing Dask fails here, never skips
    import dask.array as da
    import dask.dataframe as dd
    import distributed
    import pandas as pd

    rng = np.random.default_rng(7)
    n, chunk = 2_000, 450
    X = rng.normal(size=(n, 4))
    X[:, 2] = np.round(X[:, 2], 1)
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(scale=0.5, size=n) > 0).astype(int) \
        + (X[:, 3] > 1)
    w = rng.uniform(0.1, 3.0, size=n)  # fractional weights: the order of sums matters
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"]).assign(target=X[:, 0] * 2.5 + y, wt=w)
    # a categorical column and missing values: the same bins on every partition
    frame["e"] = pd.Categorical(rng.choice(["lo", "mid", "hi", "top"], n))
    frame.loc[rng.random(n) < 0.1, "e"] = np.nan
    frame.loc[rng.random(n) < 0.1, "b"] = np.nan
    frame["target"] += (frame["e"] == "hi") * 2.0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", **LOCAL_ONLY) as cluster, \
            distributed.Client(cluster):
        for binning in ("exact", "sketch"):
            params = dict(max_bins=32, max_depth=6, block_size=chunk, binning=binning,
                          sketch_points=64)
            single = HistCARTClassifier(**params).fit(X, y, w)
            dist = HistCARTClassifier(**params).fit(
                da.from_array(X, chunks=(chunk, 4)), da.from_array(y, chunks=chunk),
                da.from_array(w, chunks=chunk))
            assert single.tree_.node_count > 30
            assert_same_tree(single, dist)
            np.testing.assert_array_equal(single.predict_proba(X), dist.predict_proba(X))
        ddf = dd.from_pandas(frame, chunksize=chunk)
        assert [len(p) for p in ddf.partitions] == [450, 450, 450, 450, 200]
        features = ["a", "b", "c", "d", "e"]
        single = HistCARTRegressor(max_bins=16, max_depth=5, block_size=chunk).fit(
            frame[features], frame["target"], frame["wt"])
        dist = HistCARTRegressor(max_bins=16, max_depth=5).fit(ddf, "target", "wt")
        assert_same_tree(single, dist)
        np.testing.assert_array_equal(single.tree_.missing_go, dist.tree_.missing_go)
        assert 4 in single.tree_.feature  # the categorical column (with NaN) splits
        np.testing.assert_array_equal(single.predict(frame[features]),
                                      dist.predict(frame[features]))
        assert list(dist.feature_names_in_) == features
        # the same with y and the weights as Dask Series
        dist2 = HistCARTClassifier(max_bins=16, max_depth=4).fit(
            ddf[features], ddf["target"] > 1, ddf["wt"])
        single2 = HistCARTClassifier(max_bins=16, max_depth=4, block_size=chunk).fit(
            frame[features], frame["target"] > 1, frame["wt"])
        assert_same_tree(single2, dist2)
        with pytest.raises(TypeError, match="category' dtype"):
            HistCARTRegressor().fit(ddf.assign(e=ddf["e"].astype(str)), "target")
        assert dist.levels_ == [(d, 2 ** d) for d in range(6)]


import warnings  # noqa: E402

from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Estimator .* does not inherit from")

    @parametrize_with_checks([HistCARTClassifier(), HistCARTRegressor()])
    def test_sklearn_estimator_checks(estimator, check):
        """scikit-learn's estimator checks, as for the other learners (issue 12)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check(estimator)


def test_node_groups_under_a_memory_budget_give_the_same_tree():
    X, y = load_breast_cancer(return_X_y=True)
    w = np.random.default_rng(5).uniform(0.2, 2.0, size=len(y))
    whole = HistCARTClassifier(max_bins=64).fit(X, y, w)
    # 30 features × 64 bins × 3 channels × 8 bytes = 46 kB per node: 0.1 MB holds 2 nodes
    grouped = HistCARTClassifier(max_bins=64, histogram_budget_mb=0.1).fit(X, y, w)
    assert max(n for _, n in whole.levels_) > 2
    assert_same_tree(whole, grouped)
    with pytest.raises(ValueError, match="histogram_budget_mb"):
        HistCARTClassifier(histogram_budget_mb=0.0).fit(X, y)


def test_a_pass_moves_rows_one_step_and_skips_closed_leaves():
    from treebook.kernels.hist import level_histogram

    # node 0 split on feature 0 (bins 0, 1 left; 2 right) at the last level; node 3 is an
    # older closed leaf: its rows are neither moved nor counted
    codes = np.array([[0, 1], [2, 0], [1, 1], [2, 1], [0, 0]], np.uint8)
    node_of_row = np.array([0, 0, 0, 0, 3], np.int32)
    feature = np.array([0, -1, -1, -1])
    route = np.zeros((4, 4), np.int8)
    route[0, 2] = 1
    left, right = np.array([1, -1, -1, -1]), np.array([2, -1, -1, -1])
    slot = np.array([-1, 0, 1, -1])
    build = np.array([-1, 0])  # only the right child's histogram is built
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    hist, totals, _, _ = level_histogram(codes, np.array([0.0, 1, 0, 1, 0]), w, node_of_row,
                                         feature, route, left, right, slot, build, 2, 1, 4, 2)
    np.testing.assert_array_equal(node_of_row, [1, 2, 1, 2, 3])
    np.testing.assert_array_equal(totals, [[4.0, 0, 4, 2], [0, 6, 6, 2]])
    np.testing.assert_array_equal(hist[0, 1, :, :], [[0, 2, 1], [0, 4, 1], [0, 0, 0],
                                                     [0, 0, 0]])
    # a second pass of the same level (another node group) moves nobody again
    level_histogram(codes, np.zeros(5), w, node_of_row, feature, route, left, right, slot,
                    build, 2, 1, 4, 2)
    np.testing.assert_array_equal(node_of_row, [1, 2, 1, 2, 3])


def test_sibling_by_subtraction():
    from treebook.growers.hist import sibling_histogram

    rng = np.random.default_rng(2)
    n = 400
    code = rng.integers(0, 6, n)
    k = rng.integers(0, 3, n)
    side = rng.random(n) < 0.4

    def hist(rows, w):  # (1 feature, 6 bins, 3 classes + rows), summed in row order
        h = np.zeros((1, 6, 4))
        for i in np.flatnonzero(rows):
            h[0, code[i], k[i]] += w[i]
            h[0, code[i], 3] += 1.0
        return h

    w_int = rng.integers(1, 5, n).astype(float)  # integer sums: subtraction is exact
    other = sibling_histogram(hist(np.ones(n, bool), w_int), hist(side, w_int), 3)
    np.testing.assert_array_equal(other, hist(~side, w_int))
    w = rng.uniform(0.1, 2.0, n)  # fractional: rounded, never negative, empty bins zero
    other = sibling_histogram(hist(np.ones(n, bool), w), hist(side, w), 3)
    np.testing.assert_allclose(other, hist(~side, w), rtol=1e-12, atol=1e-12)
    assert (other >= 0).all()
    np.testing.assert_array_equal(other[..., 3], hist(~side, w)[..., 3])
    absent = hist(~side, w) == 0
    np.testing.assert_array_equal(other[absent], 0.0)


def test_codes_are_uint8_up_to_255_bins_else_uint16():
    X = np.arange(1000.0)[:, None]
    assert BinMapper.fit(X, max_bins=255).transform(X).dtype == np.uint8
    assert BinMapper.fit(X, max_bins=256).transform(X).dtype == np.uint16
