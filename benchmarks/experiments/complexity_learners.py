"""Fit time against n and against the depth limit, for every learner (chapter 8).

The CLS tutorial's table gives ID3 and CLS a cost of O(n·m·d) and C4.5 O(n·m·d·log n).
This script times ``fit`` (CPU seconds, best of ``--repeat``) of

* ID3 (categorical data: ID3 takes discrete attributes only),
* C4.5 (``pruning=None``: growing only), CLS, and CART with each of its growers
  (``grower="levelwise"`` on numeric data, ``"recursive"`` on both),
* ID3 and CLS with each of theirs: the labels ``ID3`` and ``CLS`` are the recursive
  grower (``grower="recursive"``, what the first committed run measured), ``ID3
  levelwise`` and ``CLS levelwise`` the level-wise multiway grower (their default),

on numeric data (5 standard normal features, rounded to 3 decimals) and on categorical
data (5 features of 3 values), with a depth limit of 4, for n = 1,000 … 256,000; and
against the depth limit at fixed n (numeric). Each row also records the tree's node
count and its exact case-feature work ``W = m · Σ_{internal t} n_t``. The chapter fits
the log-log slopes.

  nice python benchmarks/experiments/complexity_learners.py            # full (≈ 15 min)
  python benchmarks/experiments/complexity_learners.py --quick         # reduced
  python benchmarks/experiments/complexity_learners.py --smoke --out /tmp/cl   # seconds
  python benchmarks/experiments/complexity_learners.py --learners "ID3 levelwise" --append

``--learners`` runs only the learners with those labels; ``--append`` adds their rows to
the committed CSV (after comment lines with their own command, date and commit) instead
of replacing it.

The full run writes ``benchmarks/experiments/results/complexity_learners.csv`` with
command, date and commit lines first.
"""

from __future__ import annotations

import argparse
import datetime
import shlex
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from treebook import C45Classifier, CARTClassifier, CLSClassifier, ID3Classifier
from treebook.teaching.experiments import load_average, results_path

#: (learner label, data kind, factory(max_depth))
LEARNERS = [
    ("ID3", "categorical", lambda d: ID3Classifier(max_depth=d, grower="recursive")),
    ("C4.5", "numeric", lambda d: C45Classifier(max_depth=d, pruning=None)),
    ("C4.5", "categorical", lambda d: C45Classifier(max_depth=d, pruning=None)),
    ("CLS", "numeric", lambda d: CLSClassifier(max_depth=d, grower="recursive")),
    ("CLS", "categorical", lambda d: CLSClassifier(max_depth=d, grower="recursive")),
    ("ID3 levelwise", "categorical", lambda d: ID3Classifier(max_depth=d, grower="levelwise")),
    ("CLS levelwise", "numeric", lambda d: CLSClassifier(max_depth=d, grower="levelwise")),
    ("CLS levelwise", "categorical",
     lambda d: CLSClassifier(max_depth=d, grower="levelwise")),
    ("CART levelwise", "numeric", lambda d: CARTClassifier(max_depth=d, grower="levelwise")),
    ("CART recursive", "numeric", lambda d: CARTClassifier(max_depth=d, grower="recursive")),
    ("CART recursive", "categorical",
     lambda d: CARTClassifier(max_depth=d, grower="recursive")),
]
M = 5


def make_data(n_max, seed=0):
    rng = np.random.default_rng(seed)
    X_num = rng.normal(size=(n_max, M)).round(3)
    y_num = np.where(X_num[:, 0] + X_num[:, 1] + rng.normal(size=n_max) > 0, "b", "a")
    X_cat = np.array(list("pqr"), dtype=object)[rng.integers(0, 3, size=(n_max, M))]
    y_cat = np.where((X_cat[:, 0] == "p") ^ (rng.random(n_max) < 0.3), "b", "a")
    return {"numeric": (X_num, y_num), "categorical": (X_cat, y_cat)}


def fit_once(make, X, y, repeat):
    best, tree = np.inf, None
    for _ in range(repeat):
        t0 = time.process_time()
        tree = make().fit(X, y).tree_
        best = min(best, time.process_time() - t0)
    return best, tree


def measure(sizes, depths, n_depth, repeat=1, depth=4, learners=LEARNERS):
    """One row per (learner, data, n, max_depth): CPU seconds, nodes, depth, work."""
    data = make_data(max(max(sizes), n_depth))
    rows = []
    for label, kind, make in learners:
        X, y = data[kind]
        plan = [("n", n, depth) for n in sizes]
        if kind == "numeric":
            plan += [("depth", n_depth, d) for d in depths]
        for sweep, n, d in plan:
            sec, tree = fit_once(lambda: make(d), X[:n], y[:n], repeat)
            rows.append(dict(learner=label, data=kind, sweep=sweep, n=n, m=M, max_depth=d,
                             cpu_seconds=sec, nodes=tree.node_count, depth=tree.max_depth,
                             work=int(M * tree.n_samples[~tree.is_leaf].sum())))
    return pd.DataFrame(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--smoke", action="store_true",
                    help="n = 200, 400 and depths 1, 2, once: every learner in seconds, "
                         "written to --out")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results"
                                         / "complexity_learners.csv"),
                    help="CSV path, or a folder for complexity_learners.csv")
    ap.add_argument("--learners", nargs="+", default=None,
                    help="labels of the learners to run (default: all)")
    ap.add_argument("--append", action="store_true",
                    help="append the rows to --out instead of replacing it")
    args = ap.parse_args(argv)
    args.out = str(results_path(args.out, "complexity_learners.csv"))
    learners = LEARNERS
    if args.learners:
        unknown = set(args.learners) - {label for label, _, _ in LEARNERS}
        if unknown:
            ap.error(f"--learners: unknown labels {sorted(unknown)}")
        learners = [entry for entry in LEARNERS if entry[0] in args.learners]
    if args.quick:
        table = measure([1000, 4000, 16000], [2, 4, 6], 4000, repeat=1, learners=learners)
        print(table.to_string())
        return
    if args.smoke:
        table = measure([200, 400], [1, 2], 400, repeat=1, learners=learners)
    else:
        sizes = [1000 * 2 ** k for k in range(9)]  # 1,000 … 256,000
        table = measure(sizes, [1, 2, 3, 4, 5, 6, 8, 10], 32000, repeat=args.repeat,
                        learners=learners)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    with open(args.out, "a" if args.append else "w") as fh:
        fh.write(f"# command: python {shlex.join(sys.argv)}\n")
        fh.write(f"# date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}\n")
        fh.write(f"# commit: {commit}\n")
        fh.write(f"# load average: {load_average()} (when written)\n")
        table.to_csv(fh, index=False, header=not args.append)
    print(table.to_string())


if __name__ == "__main__":
    main()
