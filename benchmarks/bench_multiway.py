"""ID3 and CLS: the level-wise multiway grower against the recursive one, paired.

Both growers build the identical tree (``tests/test_multiway_fast.py``); this script
times them. Data (``n`` rows, seed 0):

* ``categorical`` — 10 features of 5 values (a DataFrame of pandas categoricals); the
  class is a function of three of them, with 10 % of the labels replaced at random
  (ID3 and CLS);
* ``numeric`` — 5 standard normal features rounded to 3 decimals, the class a function
  of two of them with 10 % noise (CLS: binary thresholds).

Every fit has ``max_depth`` (``--max-depth``, default 8), so the tree size stays bounded
as ``n`` grows. For each learner, data and ``n``: ``--repeats`` pairs, the two growers
back to back, alternating which goes first; each pair gives a ratio levelwise /
recursive, and the table shows the medians of each grower's time and of the ratios
(below 1: the level-wise grower is faster). Times are wall-clock seconds on whatever the
machine is doing; tests never assert them.

Usage::

    python benchmarks/bench_multiway.py                                  # 1e4 1e5 1e6
    python benchmarks/bench_multiway.py --sizes 1e4 1e5 --repeats 5 --csv out.csv
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
import time

import numpy as np

from treebook import CLSClassifier, ID3Classifier

LEARNERS = [("ID3", "categorical", ID3Classifier),
            ("CLS", "categorical", CLSClassifier),
            ("CLS", "numeric", CLSClassifier)]


def make_data(kind: str, n: int, seed: int = 0):
    """``(X, y)``: a DataFrame of pandas categoricals, or a float array of rounded normals."""
    rng = np.random.default_rng(seed)
    if kind == "categorical":
        codes = rng.integers(0, 5, (n, 10))
        y = ((codes[:, 0] + 2 * (codes[:, 1] > 2) + (codes[:, 2] == 4)) % 3)
        import pandas as pd

        names = np.array(list("abcde"), dtype=object)
        X = pd.DataFrame({f"c{j}": pd.Categorical(names[codes[:, j]], categories=list("abcde"))
                          for j in range(10)})
    else:
        X = rng.normal(size=(n, 5)).round(3)
        y = ((X[:, 0] > 0.3).astype(int) + (X[:, 0] + X[:, 1] > 0.5)) % 3
    noisy = rng.random(n) < 0.1
    y = np.where(noisy, rng.integers(0, 3, n), y)
    return X, y


def time_fit(est, X, y) -> tuple[float, object]:
    t0 = time.perf_counter()
    est.fit(X, y)
    return time.perf_counter() - t0, est


def run(sizes, repeats, max_depth):
    rows = []
    # compile the kernels (numba cache) before any timing
    X, y = make_data("numeric", 500)
    CLSClassifier(max_depth=3).fit(X, y)
    X, y = make_data("categorical", 500)
    ID3Classifier(max_depth=3).fit(X, y)
    for n in sizes:
        for name, kind, est in LEARNERS:
            X, y = make_data(kind, n)
            fast, slow, ratio, nodes = [], [], [], None
            for r in range(repeats):
                order = ("levelwise", "recursive") if r % 2 == 0 else ("recursive", "levelwise")
                t = {}
                for g in order:
                    t[g], model = time_fit(est(max_depth=max_depth, grower=g), X, y)
                    nodes = model.tree_.node_count
                fast.append(t["levelwise"])
                slow.append(t["recursive"])
                ratio.append(t["levelwise"] / t["recursive"])
            row = dict(learner=name, data=kind, n=n, nodes=nodes, repeats=repeats,
                       recursive_s=float(np.median(slow)), levelwise_s=float(np.median(fast)),
                       ratio=float(np.median(ratio)))
            rows.append(row)
            print(f"{name:4s} {kind:12s} n={n:>8d} nodes={nodes:>6d}  recursive "
                  f"{row['recursive_s']:8.3f} s  levelwise {row['levelwise_s']:8.3f} s  "
                  f"ratio {row['ratio']:.3f}", flush=True)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e4, 1e5, 1e6])
    ap.add_argument("--repeats", nargs="+", type=int, default=[5, 3, 1],
                    help="pairs per size (one number for all, or one per size)")
    ap.add_argument("--max-depth", type=int, default=8)
    ap.add_argument("--csv", default=None)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes]
    reps = args.repeats * len(sizes) if len(args.repeats) == 1 else args.repeats
    if len(reps) != len(sizes):
        ap.error("--repeats: one number, or one per size")
    rows = []
    for n, r in zip(sizes, reps):
        rows += run([n], r, args.max_depth)
    if args.csv:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        with open(args.csv, "w") as fh:
            fh.write(f"# command: python {' '.join(sys.argv)}\n")
            fh.write(f"# date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}\n")
            fh.write(f"# commit: {commit}\n")
            fh.write("# machine: 2 cores shared with other jobs running at the same time\n")
            keys = list(rows[0])
            fh.write(",".join(keys) + "\n")
            for row in rows:
                fh.write(",".join(f"{row[k]:.4g}" if isinstance(row[k], float) else str(row[k])
                                  for k in keys) + "\n")


if __name__ == "__main__":
    main()
