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

``--surrogate`` measures rpart's rule instead (two classes; the recursive grower, the
only one with surrogates): ``CARTClassifier.like_rpart(cp=0)`` (minsplit 20, minbucket 7,
five surrogates, grown in full) against R's ``rpart(cp = 0, xval = 0, maxcompete = 0,
maxsurrogate = 5, usesurrogate = 2)`` on the same rows (timed inside R around the
``rpart`` call only, through ``Rscript``), and against treebook's ``missing="learn"``
level-wise tree with the same minsplit/minbucket.

Usage::

    python benchmarks/bench_missing.py                  # n = 1e5, 3 rounds
    python benchmarks/bench_missing.py --n 2e4 --rounds 5 --recursive-rounds 5
    python benchmarks/bench_missing.py --surrogate --n 2e4 --rounds 3
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


R_FIT = r"""
args <- commandArgs(trailingOnly = TRUE)
suppressMessages(library(rpart))
d <- read.csv(args[1])
d$y <- factor(d$y)
ctl <- rpart.control(cp = 0, xval = 0, maxcompete = 0, maxsurrogate = 5,
                     usesurrogate = 2, minsplit = 20, minbucket = 7)
for (r in seq_len(as.integer(args[2]))) {
  t <- system.time(fit <- rpart(y ~ ., data = d, method = "class", control = ctl))
  cat(t[["elapsed"]], nrow(fit$frame), "\n")
}
"""


def surrogate_rounds(n: int, frac: float, rounds: int) -> None:
    import os
    import subprocess
    import tempfile

    import pandas as pd

    from treebook import CARTClassifier

    X, y = make("2 classes", n, frac)
    cols = [f"x{j}" for j in range(X.shape[1])]
    df = pd.DataFrame(X, columns=cols)
    with tempfile.TemporaryDirectory() as tmp:
        csv, script = os.path.join(tmp, "d.csv"), os.path.join(tmp, "fit.R")
        df.assign(y=y).to_csv(csv, index=False, na_rep="NA")
        with open(script, "w") as fh:
            fh.write(R_FIT)
        out = subprocess.run(["Rscript", script, csv, str(rounds)], capture_output=True,
                             text=True, check=True).stdout.split()
    r_times = [float(t) for t in out[0::2]]
    r_nodes = int(out[1])
    warm = make("2 classes", 2000, frac, 1)  # load the kernels, warm the caches
    fit_time(lambda: CARTClassifier.like_rpart(cp=0.0), *warm)
    fit_time(lambda: CARTClassifier(min_samples_split=20, min_samples_leaf=7), *warm)
    sur, learn = [], []
    for _ in range(rounds):
        t, sur_nodes = fit_time(lambda: CARTClassifier.like_rpart(cp=0.0), X, y)
        sur.append(t)
        t, learn_nodes = fit_time(
            lambda: CARTClassifier(min_samples_split=20, min_samples_leaf=7), X, y)
        learn.append(t)
    print(f"n = {n:,}, 10 features, {frac:.0%} NaN, 2 classes; medians of {rounds} fits")
    print(f"  rpart (cp=0, 5 surrogates)                {np.median(r_times):8.3f} s"
          f"  {r_nodes} nodes")
    print(f"  treebook like_rpart(cp=0) (recursive)     {np.median(sur):8.3f} s"
          f"  {sur_nodes} nodes  = {np.median(sur) / np.median(r_times):.1f}× rpart")
    print(f"  treebook missing='learn' (level-wise)     {np.median(learn):8.3f} s"
          f"  {learn_nodes} nodes  = {np.median(learn) / np.median(r_times):.2f}× rpart")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=float, default=1e5)
    ap.add_argument("--frac", type=float, default=0.1, help="share of values set to NaN")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--recursive-rounds", type=int, default=1)
    ap.add_argument("--shapes", nargs="+", default=["2 classes", "regression"])
    ap.add_argument("--surrogate", action="store_true",
                    help="rpart's surrogates: treebook against R's rpart")
    args = ap.parse_args(argv)
    n = int(args.n)
    if args.surrogate:
        surrogate_rounds(n, args.frac, args.rounds)
        return
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
