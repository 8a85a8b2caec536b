"""The prediction walk: rows in groups of eight against one row at a time, and scikit-learn.

``Tree.apply`` on a CART tree calls :func:`treebook.kernels.walk.walk_thresholds`, which takes
one row at a time to its stop, reading one 16-byte record per node (since 2 December
2026; before, four separate tables). Until 1 December 2026 the same kernel walked rows in groups of eight, one step of
each in turn (``walk_in_groups_of_eight`` below is that kernel, copied), to keep eight
independent memory reads under way. This script times both on the same packed tables of a
fully grown tree, with scikit-learn's ``predict`` on the same rows in the same run, and
checks they reach the same nodes.

Usage::

    python benchmarks/bench_walk.py                  # n = 1e5 and 1e6, best of 5
    python benchmarks/bench_walk.py --sizes 1e5 --repeats 3

Prints times (best of ``--repeats``) and ratios; nothing asserts a time.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def walk_in_groups_of_eight(X, feature, threshold, known_bits, right_bits, child, out):
    """The grouped walk ``kernels.walk_thresholds`` used before (same tables, same rule)."""
    n = X.shape[0]
    group = 8
    node = np.zeros(group, dtype=np.int64)  # -1 - i: stopped at node i
    for start in range(0, n, group):
        g = min(group, n - start)
        for r in range(g):
            node[r] = 0
        moving = g
        while moving > 0:
            moving = 0
            for r in range(g):
                i = node[r]
                if i < 0:
                    continue
                f = feature[i]
                if f >= 0:
                    x = X[start + r, f]
                    b = -1
                    if x != x:
                        b = -1
                    elif known_bits[i] == 0:
                        b = 1 if x > threshold[i] else 0
                    elif x > -1.0 and x < 63.0:
                        c = int(x)
                        if (known_bits[i] >> c) & 1:
                            b = (right_bits[i] >> c) & 1
                    if b < 0:
                        node[r] = -1 - i
                    else:
                        node[r] = child[2 * i + b]
                        moving += 1
        for r in range(g):
            out[start + r] = node[r] if node[r] >= 0 else -1 - node[r]


def packed_tables(tree):
    """The tables the grouped walk reads (those ``walk_thresholds`` read until 2 December
    2026, when it moved to one packed record per node: ``Tree.tables``)."""
    from treebook.core.tree import NodeKind

    stops = (tree.kind == NodeKind.LEAF) | (tree.weighted_n <= 0)
    feature = np.where(stops, -1, tree.feature).astype(np.int64)
    child = np.repeat(np.arange(tree.node_count, dtype=np.int64), 2)
    ids = np.flatnonzero(~stops)
    child[2 * ids] = tree.children[tree.children_ptr[ids]]
    child[2 * ids + 1] = tree.children[tree.children_ptr[ids] + 1]
    zeros = np.zeros(tree.node_count, dtype=np.int64)
    return feature, tree.threshold, zeros, zeros.copy(), child


def best_of(fn, repeats: int) -> float:
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv=None) -> None:
    from sklearn.datasets import make_classification
    from sklearn.tree import DecisionTreeClassifier

    from treebook import CARTClassifier
    from treebook.kernels.walk import walk_thresholds

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e5, 1e6])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    print("| n | nodes | grouped (ms) | one row at a time (ms) | one-at-a-time / grouped "
          "| treebook predict / scikit-learn predict |")
    print("|---|---|---|---|---|---|")
    for n in map(int, args.sizes):
        X, y = make_classification(n_samples=n, n_features=10, n_informative=5,
                                   random_state=0)
        model = CARTClassifier().fit(X, y)
        sk = DecisionTreeClassifier(random_state=0).fit(X, y)
        tables = packed_tables(model.tree_)
        a, b = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
        walk_in_groups_of_eight(X[:10], *tables, a[:10])
        t = model.tree_.tables  # the packed records the walk reads (built with the tree)
        packed = (t.packed, t.packed_threshold, t.subset_bits)
        walk_thresholds(X[:10], *packed, b[:10])
        grouped = best_of(lambda: walk_in_groups_of_eight(X, *tables, a), args.repeats)
        single = best_of(lambda: walk_thresholds(X, *packed, b), args.repeats)
        if not np.array_equal(a, b):
            raise SystemExit("the two walks reached different nodes")
        ours = best_of(lambda: model.predict(X), args.repeats)
        theirs = best_of(lambda: sk.predict(X), args.repeats)
        print(f"| {n:,} | {model.tree_.node_count:,} | {grouped * 1e3:.1f} | "
              f"{single * 1e3:.1f} | {single / grouped:.2f} | {ours / theirs:.2f} |")


if __name__ == "__main__":
    main()
