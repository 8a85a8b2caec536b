"""CART fit time against scikit-learn on several shapes of data, paired runs.

``bench_cart.py`` measures one shape, two classes on 10 numeric features, which is the
level-wise grower's best case (the class rides inside each attribute-list entry). This
script times the fit on ``n`` cases for two, three and five classes
(``make_classification(n_features=10, n_informative=5)``) and for regression
(``make_regression(n_features=10, n_informative=5, noise=10)``), fully grown trees,
``--repeats`` pairs per shape, the two libraries back to back; it prints the median of
the per-pair ratios treebook / scikit-learn (below 1: treebook is faster).

Usage::

    python benchmarks/bench_cart_shapes.py             # n = 1e5, 3 repeats
    python benchmarks/bench_cart_shapes.py --n 2e5 --repeats 5

Chapter 4 quotes one run (December 2026, a 2-core machine shared with other jobs):
median ratios 0.07 (two classes; that run's scikit-learn times were inflated by load,
bench_cart.py's 0.3 is the figure to quote), 0.43 (three classes), 0.56 (five), 0.85
(regression).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=float, default=1e5)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    from sklearn.datasets import make_classification, make_regression
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    from treebook import CARTClassifier, CARTRegressor

    n = int(args.n)
    shapes = []
    for k in (2, 3, 5):
        X, y = make_classification(n_samples=n, n_features=10, n_informative=5,
                                   n_classes=k, random_state=0)
        shapes.append((f"{k} classes", X, y, DecisionTreeClassifier(random_state=0),
                       CARTClassifier()))
    X, y = make_regression(n_samples=n, n_features=10, n_informative=5, noise=10,
                           random_state=0)
    shapes.append(("regression", X, y, DecisionTreeRegressor(random_state=0),
                   CARTRegressor()))
    print(f"n = {n:,}; fit time, treebook / scikit-learn (median of {args.repeats} pairs)")
    for name, X, y, sk, tb in shapes:
        ratios = []
        for r in range(args.repeats):
            pair = [(sk, 0.0), (tb, 0.0)]
            order = pair if r % 2 == 0 else pair[::-1]   # alternate which goes first
            times = {}
            for est, _ in order:
                t0 = time.perf_counter()
                est.fit(X, y)
                times[id(est)] = time.perf_counter() - t0
            ratios.append(times[id(tb)] / times[id(sk)])
        print(f"{name:>12}: {np.median(ratios):.2f}  (pairs: "
              + ", ".join(f"{q:.2f}" for q in ratios) + ")")


if __name__ == "__main__":
    main()
