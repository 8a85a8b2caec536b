"""C4.5: the fast grower against the readable one (and CART's for context), same run.

For each shape and size, ``--repeats`` pairs: the readable grower (``grower="readable"``,
the textbook recursion that sorts every node), the fast grower (``grower="fast"``: each
numeric column sorted once, compiled scans) and, for context, ``CARTClassifier`` with
its default (level-wise) grower, fitted one after another on the same data, in
alternating order. Printed: medians of the times and the median of the paired ratios
readable / fast. Two settings of C4.5: ``fit`` (the defaults, error-based pruning with
subtree raising, which both growers share) and ``grow`` (``pruning=None``: growth and
collapse only). Every pair also checks that the two C4.5 trees are equal.

Shapes (``make_classification``, 2 classes, 10 features, seeded):

* ``numeric`` — 10 numeric columns;
* ``mixed`` — 8 numeric columns and two categorical ones of 6 and 12 categories
  (``benchmarks/bench_cart_shapes.py``'s "8 numeric + 2 categorical").

Times are wall-clock on whatever the machine is doing: nothing here is asserted.

    python benchmarks/bench_c45.py --sizes 1e3 5e3 2e4 1e5 --repeats 5 5 3 1 \\
        --csv benchmarks/experiments/results/c45_speed.csv
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_cart_shapes import make_shape  # noqa: E402

SHAPES = {"numeric": "2 classes", "mixed": "8 numeric + 2 categorical"}
COLUMNS = ("shape", "n", "setting", "repeats", "readable_s", "fast_s", "cart_s",
           "speedup", "speedup_min", "speedup_max", "fast_over_cart", "nodes")


def data(shape: str, n: int):
    X, y, _, _ = make_shape(SHAPES[shape], n, "treebook")
    return X, y


def timed(est, X, y):
    t = time.perf_counter()
    est.fit(X, y)
    return time.perf_counter() - t, est


def bench(shape: str, n: int, setting: str, repeats: int) -> dict:
    from treebook import C45Classifier, CARTClassifier

    X, y = data(shape, n)
    params = {} if setting == "fit" else {"pruning": None}
    times = {"readable": [], "fast": [], "cart": []}
    nodes = 0
    for r in range(repeats):
        order = ["readable", "fast", "cart"] if r % 2 == 0 else ["cart", "fast", "readable"]
        fitted = {}
        for which in order:
            est = (CARTClassifier() if which == "cart"
                   else C45Classifier(grower=which, **params))
            t, fitted[which] = timed(est, X, y)
            times[which].append(t)
        a, b = fitted["fast"].tree_, fitted["readable"].tree_
        if not (a.node_count == b.node_count and np.array_equal(a.threshold, b.threshold,
                                                                equal_nan=True)
                and np.array_equal(a.value, b.value)):
            raise AssertionError(f"{shape} n={n}: the fast and readable trees differ")
        nodes = a.node_count
    ratio = np.array(times["readable"]) / np.array(times["fast"])
    med = {k: float(np.median(v)) for k, v in times.items()}
    return {"shape": shape, "n": n, "setting": setting, "repeats": repeats,
            "readable_s": med["readable"], "fast_s": med["fast"], "cart_s": med["cart"],
            "speedup": float(np.median(ratio)), "speedup_min": float(ratio.min()),
            "speedup_max": float(ratio.max()),
            "fast_over_cart": float(np.median(np.array(times["fast"])
                                              / np.array(times["cart"]))),
            "nodes": nodes}


def current_commit() -> str:
    res = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True, cwd=os.path.dirname(os.path.abspath(__file__)))
    return res.stdout.strip() or "unknown"


def write_csv(path: str, rows: list, argv, commit: str) -> None:
    import pandas as pd

    with open(path, "w") as fh:
        fh.write("# command: python benchmarks/bench_c45.py "
                 + " ".join(argv if argv is not None else sys.argv[1:]) + "\n")
        fh.write(f"# date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} "
                 f"UTC ({os.cpu_count()} CPUs, shared with other jobs)\n")
        fh.write(f"# commit: {commit}\n")
        pd.DataFrame(rows, columns=COLUMNS).to_csv(fh, index=False, float_format="%.4g")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e3, 5e3, 2e4])
    ap.add_argument("--repeats", nargs="+", type=int, default=[3],
                    help="pairs per cell: one number, or one per size")
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    ap.add_argument("--settings", nargs="+", default=["fit", "grow"], choices=["fit", "grow"])
    ap.add_argument("--csv", help="also write the table here, row by row")
    args = ap.parse_args(argv)
    commit = current_commit()
    reps = args.repeats * len(args.sizes) if len(args.repeats) == 1 else args.repeats
    from treebook import C45Classifier, CARTClassifier

    for shape in args.shapes:  # warm-up: imports, compiled kernels loaded from the cache
        C45Classifier().fit(*data(shape, 500))
        CARTClassifier().fit(*data(shape, 500))
    rows = []
    print("| shape | n | setting | readable (s) | fast (s) | readable / fast | fast / CART |")
    print("|---|---|---|---|---|---|---|")
    for n, r in zip((int(s) for s in args.sizes), reps):
        for shape in args.shapes:
            for setting in args.settings:
                row = bench(shape, n, setting, r)
                rows.append(row)
                print(f"| {shape} | {n:,} | {setting} | {row['readable_s']:.3g} | "
                      f"{row['fast_s']:.3g} | {row['speedup']:.2f}× | "
                      f"{row['fast_over_cart']:.2f}× |", flush=True)
                if args.csv:
                    write_csv(args.csv, rows, argv, commit)


if __name__ == "__main__":
    main()
