"""Fit time with missing values: treebook level-wise vs recursive vs scikit-learn, paired.

Data: ``make_classification`` (2 classes) and ``make_regression`` (``n`` rows, 10
features, 5 informative; float32-representable, as scikit-learn grows on float32), then
10 % of all values set to NaN independently. Every library fits the fully grown tree
with its own rule for missing values:

* ``treebook level-wise`` — ``CARTClassifier()`` / ``CARTRegressor()``
  (``missing="learn"``, ``grower="auto"``: the level-wise grower, compiled kernels);
* ``treebook recursive`` — the same with ``grower="recursive"`` (the readable grower);
* ``scikit-learn`` — ``DecisionTreeClassifier`` / ``DecisionTreeRegressor`` (1.9, NaN
  support built in; the same rule, the same tree up to ties).

One round fits the three back to back, in an order that rotates from round to round;
each round gives the ratios level-wise / scikit-learn, recursive / scikit-learn and
level-wise / recursive, and the script prints their medians (below 1: the first is
faster). The recursive grower is slow at 10⁵ rows (minutes): ``--recursive-rounds``
limits how many rounds include it (default 1). Times depend on the machine's load; tests
never assert a time, this script only prints them.

Usage::

    python benchmarks/bench_missing.py                  # n = 1e5, 3 rounds
    python benchmarks/bench_missing.py --n 2e4 --rounds 5 --recursive-rounds 5
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def make(shape: str, n: int, frac: float, seed: int = 0):
    from sklearn.datasets import make_classification, make_regression

    if shape == "regression":
        X, y = make_regression(n_samples=n, n_features=10, n_informative=5, noise=10,
                               random_state=seed)
    else:
        X, y = make_classification(n_samples=n, n_features=10, n_informative=5,
                                   random_state=seed)
    X = X.astype(np.float32).astype(np.float64)
    X[np.random.default_rng(seed).random(X.shape) < frac] = np.nan
    return X, y


def estimators(shape: str):
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    from treebook import CARTClassifier, CARTRegressor

    if shape == "regression":
        return {"level-wise": lambda: CARTRegressor(),
                "recursive": lambda: CARTRegressor(grower="recursive"),
                "scikit-learn": lambda: DecisionTreeRegressor(random_state=0)}
    return {"level-wise": lambda: CARTClassifier(),
            "recursive": lambda: CARTClassifier(grower="recursive"),
            "scikit-learn": lambda: DecisionTreeClassifier(random_state=0)}


def fit_time(make_est, X, y) -> tuple[float, int]:
    est = make_est()
    t0 = time.perf_counter()
    est.fit(X, y)
    return time.perf_counter() - t0, int(est.tree_.node_count)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=float, default=1e5)
    ap.add_argument("--frac", type=float, default=0.1, help="share of values set to NaN")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--recursive-rounds", type=int, default=1)
    ap.add_argument("--shapes", nargs="+", default=["2 classes", "regression"])
    args = ap.parse_args(argv)
    n = int(args.n)
    print(f"n = {n:,}, 10 features, {args.frac:.0%} NaN; medians of paired rounds")
    print(f"{'shape':<12} {'lib':<14} {'median fit s':>12} {'nodes':>7}")
    for shape in args.shapes:
        X, y = make(shape, n, args.frac)
        ests = estimators(shape)
        warm = make(shape, 2000, args.frac, seed=1)  # compile the kernels, warm caches
        for name in ("level-wise", "scikit-learn"):
            fit_time(ests[name], *warm)
        times = {name: [] for name in ests}
        nodes = {}
        ratios = {"level-wise / scikit-learn": [], "recursive / scikit-learn": [],
                  "level-wise / recursive": []}
        for r in range(args.rounds):
            names = ["level-wise", "scikit-learn"]
            if r < args.recursive_rounds:
                names.append("recursive")
            names = names[r % len(names):] + names[:r % len(names)]
            t = {}
            for name in names:
                t[name], nodes[name] = fit_time(ests[name], X, y)
                times[name].append(t[name])
            ratios["level-wise / scikit-learn"].append(t["level-wise"] / t["scikit-learn"])
            if "recursive" in t:
                ratios["recursive / scikit-learn"].append(t["recursive"] / t["scikit-learn"])
                ratios["level-wise / recursive"].append(t["level-wise"] / t["recursive"])
        for name, ts in times.items():
            if ts:
                print(f"{shape:<12} {name:<14} {np.median(ts):>12.3f} {nodes[name]:>7}")
        for name, rs in ratios.items():
            if rs:
                print(f"{shape:<12} {name:<28} {np.median(rs):6.3f}×  ({len(rs)} pairs)")


if __name__ == "__main__":
    main()
