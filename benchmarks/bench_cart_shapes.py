"""CART against scikit-learn on every shape of data: fit, predict and peak memory, paired.

Shapes (``n`` rows, 10 columns, fully grown trees, default parameters):

* ``2 classes``, ``5 classes`` — ``make_classification(n_features=10, n_informative=5)``;
* ``regression`` — ``make_regression(n_features=10, n_informative=5, noise=10)``;
* ``fractional weights`` — the two-class data with ``sample_weight ~ U(0.5, 2)``;
* ``8 numeric + 2 categorical`` — the two-class data's first 8 columns plus two
  categorical columns of 6 and 12 categories that carry part of the signal; treebook gets
  a DataFrame with pandas categoricals, scikit-learn the same data one-hot encoded (the
  8 numeric columns plus 18 indicator columns).

For each shape and ``n``: ``--repeats`` pairs, the two libraries back to back, alternating
which goes first; each pair gives a fit ratio and a predict ratio (predict on the training
rows) treebook / scikit-learn, and the table shows their medians (below 1: treebook is
faster). **Peak memory** of the fit: each library fits once in a fresh process, after a
warm-up fit on 2,000 rows; the figure is the fit's peak RSS (``VmHWM`` after resetting it
through ``/proc/self/clear_refs``) minus the RSS before it (Linux only).

Usage::

    python benchmarks/bench_cart_shapes.py                       # n = 1e5, 1e6; 3 pairs
    python benchmarks/bench_cart_shapes.py --sizes 1e5 --repeats 5 --csv out.csv
    python benchmarks/bench_cart_shapes.py --sizes 1e5 1e6 --repeats 3 2    # per size
    python benchmarks/bench_cart_shapes.py --sizes 2000 --repeats 1 --shapes '2 classes' \
        --csv /tmp/shapes.csv                   # seconds: checks the CSV's format only

The committed table is ``benchmarks/experiments/results/cart_shapes.csv`` (its first lines
say the command, date and commit). Goals (issue 14): fit ≤ 0.3×, predict ≤ 1.0×, memory
≤ 1.5× scikit-learn's. Tests never assert a time; this script only prints them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time

import numpy as np

SHAPES = ("2 classes", "5 classes", "regression", "fractional weights",
          "8 numeric + 2 categorical")


def make_shape(shape: str, n: int, library: str):
    """``(X, y, sample_weight or None, estimator)`` of one shape for one library."""
    import pandas as pd
    from sklearn.datasets import make_classification, make_regression
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    from treebook import CARTClassifier, CARTRegressor

    regression = shape == "regression"
    if regression:
        X, y = make_regression(n_samples=n, n_features=10, n_informative=5, noise=10,
                               random_state=0)
    else:
        X, y = make_classification(n_samples=n, n_features=10, n_informative=5,
                                   n_classes=5 if shape == "5 classes" else 2, random_state=0)
    w = None
    if shape == "fractional weights":
        w = np.random.default_rng(0).uniform(0.5, 2.0, size=n)
    if shape.startswith("8 numeric"):
        rng = np.random.default_rng(1)
        # categories that follow a numeric column (signal) with noise
        c6 = np.where(rng.random(n) < 0.7, np.digitize(X[:, 8], [-1.5, -0.5, 0, 0.5, 1.5]),
                      rng.integers(0, 6, size=n))
        c12 = np.where(rng.random(n) < 0.5, np.digitize(X[:, 9], np.linspace(-2, 2, 11)),
                       rng.integers(0, 12, size=n))
        if library == "treebook":
            X = pd.DataFrame(X[:, :8], columns=[f"x{j}" for j in range(8)])
            X["c6"] = pd.Categorical.from_codes(c6, [f"a{j}" for j in range(6)])
            X["c12"] = pd.Categorical.from_codes(c12, [f"b{j}" for j in range(12)])
        else:
            X = np.hstack([X[:, :8], np.eye(6)[c6], np.eye(12)[c12]])
    if library == "treebook":
        est = CARTRegressor() if regression else CARTClassifier()
    else:
        est = (DecisionTreeRegressor(random_state=0) if regression
               else DecisionTreeClassifier(random_state=0))
    return X, y, w, est


def _fit(est, X, y, w):
    return est.fit(X, y) if w is None else est.fit(X, y, sample_weight=w)


def timed(fn, *args):
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def bench_time(shape: str, n: int, repeats: int) -> dict:
    data = {lib: make_shape(shape, n, lib) for lib in ("sklearn", "treebook")}
    for lib in data:  # warm-up: imports, compiled kernels loaded from the cache
        X, y, w, est = make_shape(shape, 2000, lib)
        _fit(est, X, y, w).predict(X)
    fit_r, pred_r, times = [], [], []
    for r in range(repeats):
        pair = {}
        for lib in (("sklearn", "treebook") if r % 2 == 0 else ("treebook", "sklearn")):
            X, y, w, est = data[lib]
            pair[lib] = (timed(_fit, est, X, y, w), timed(est.predict, X))
        fit_r.append(pair["treebook"][0] / pair["sklearn"][0])
        pred_r.append(pair["treebook"][1] / pair["sklearn"][1])
        times.append(pair)
        print(f"  {shape:>26} n={n:>9,} pair {r + 1}: fit {pair['sklearn'][0]:6.2f} / "
              f"{pair['treebook'][0]:6.2f} s, predict {pair['sklearn'][1]:.3f} / "
              f"{pair['treebook'][1]:.3f} s", file=sys.stderr, flush=True)
    med = lambda lib, k: float(np.median([p[lib][k] for p in times]))  # noqa: E731
    return {"shape": shape, "n": n, "repeats": repeats,
            "fit_sklearn_s": med("sklearn", 0), "fit_treebook_s": med("treebook", 0),
            "fit_ratio": float(np.median(fit_r)),
            "predict_sklearn_s": med("sklearn", 1), "predict_treebook_s": med("treebook", 1),
            "predict_ratio": float(np.median(pred_r))}


MEM_CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[4])
from bench_cart_shapes import make_shape, _fit
shape, n, lib = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def status_kib(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1])
X, y, w, est = make_shape(shape, 2000, lib)
_fit(est, X, y, w)  # warm up: lazy imports and caches are not the fit's memory
X, y, w, est = make_shape(shape, n, lib)
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")  # reset the high-water mark: VmHWM becomes the fit's own peak
base = status_kib("VmRSS")
_fit(est, X, y, w)
print(json.dumps({"extra_mib": (status_kib("VmHWM") - base) / 1024}))
"""


def bench_memory(shape: str, n: int) -> dict:
    out = {}
    for lib in ("sklearn", "treebook"):
        res = subprocess.run([sys.executable, "-c", MEM_CHILD, shape, str(n), lib,
                              os.path.dirname(os.path.abspath(__file__))],
                             check=True, capture_output=True, text=True)
        out[lib] = json.loads(res.stdout.strip().splitlines()[-1])["extra_mib"]
    return {"memory_sklearn_mib": out["sklearn"], "memory_treebook_mib": out["treebook"],
            "memory_ratio": out["treebook"] / max(out["sklearn"], 1e-9)}


COLUMNS = ("shape", "n", "repeats", "fit_sklearn_s", "fit_treebook_s", "fit_ratio",
           "predict_sklearn_s", "predict_treebook_s", "predict_ratio", "memory_sklearn_mib",
           "memory_treebook_mib", "memory_ratio")


def current_commit() -> str:
    res = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True, cwd=os.path.dirname(os.path.abspath(__file__)))
    return res.stdout.strip() or "unknown"


def write_csv(path: str, rows: list, argv, commit: str) -> None:
    """The table so far, with the command, date and commit (of the code that ran) on its
    first lines."""
    import shlex

    import pandas as pd

    from treebook.teaching.experiments import load_average

    with open(path, "w") as fh:
        fh.write("# command: python benchmarks/bench_cart_shapes.py "
                 + shlex.join(argv if argv is not None else sys.argv[1:]) + "\n")
        fh.write(f"# date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} "
                 f"UTC ({os.cpu_count()} CPUs)\n")
        fh.write(f"# commit: {commit}\n")
        # the same header key as the experiment scripts' (read_results puts it in attrs)
        fh.write(f"# load average: {load_average()} (when written)\n")
        pd.DataFrame(rows).reindex(columns=[c for c in COLUMNS if any(c in r for r in rows)]
                                   ).to_csv(fh, index=False, float_format="%.4g")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e5, 1e6])
    ap.add_argument("--repeats", type=int, nargs="+", default=[3],
                    help="pairs per shape: one number, or one per size")
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=SHAPES)
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--csv", help="also write the table here, row by row (with command, "
                                  "date and commit)")
    args = ap.parse_args(argv)
    commit = current_commit()  # the code this process imports
    rows = []
    reps = args.repeats * len(args.sizes) if len(args.repeats) == 1 else args.repeats
    for n, r in zip((int(s) for s in args.sizes), reps):
        for shape in args.shapes:
            row = bench_time(shape, n, r)
            if not args.no_memory:
                row.update(bench_memory(shape, n))
            rows.append(row)
            if args.csv:
                write_csv(args.csv, rows, argv, commit)
    print("| shape | n | fit ratio | predict ratio | memory ratio | fit sk / tb (s) |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        mem = f"{r['memory_ratio']:.2f}×" if "memory_ratio" in r else "–"
        print(f"| {r['shape']} | {r['n']:,} | {r['fit_ratio']:.2f}× | "
              f"{r['predict_ratio']:.2f}× | {mem} | "
              f"{r['fit_sklearn_s']:.2f} / {r['fit_treebook_s']:.2f} |")
    print("goals: fit ≤ 0.3×, predict ≤ 1.0×, memory ≤ 1.5× scikit-learn's")


if __name__ == "__main__":
    main()
