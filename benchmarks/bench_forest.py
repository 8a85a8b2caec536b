"""Random-forest fit and predict time: treebook's forest against scikit-learn's, same run.

The shape of the speed issue: ``make_classification`` with 2·10⁴ rows and 20 features
(10 informative, two classes), 50 trees grown to purity, ``max_features="sqrt"``,
``n_jobs=1``; the regressor on ``make_regression`` of the same shape (``max_features=1.0``,
both packages' default). Each repeat fits scikit-learn's forest and treebook's one after
the other with the same ``random_state`` (the order alternates between repeats), then times
``predict_proba`` (``predict``) on 2·10⁴ fresh rows. The numbers kept are the fastest of
``--repeats`` (the least disturbed by the other jobs of a shared machine), in wall time
and in the CPU time of the process (the fits are single-threaded, so CPU time is the
steadier measure on a loaded machine); the ratio is treebook / scikit-learn, so below 1
is faster.

Usage::

    python benchmarks/bench_forest.py                           # both tasks, best of 3
    PYTHONPATH=/path/to/old/checkout/src python benchmarks/bench_forest.py   # older code
    python benchmarks/bench_forest.py --repeats 5 --csv benchmarks/experiments/results/bench_forest.csv

Prints one line per task; with ``--csv`` also writes the table under ``# command``,
``# date`` (with the load average), ``# commit`` lines. Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import time

import numpy as np

TASKS = ("classification", "regression")


def data(task: str, n: int, m: int, seed: int):
    from sklearn.datasets import make_classification, make_regression

    if task == "classification":
        X, y = make_classification(n_samples=2 * n, n_features=m, n_informative=10,
                                   random_state=seed)
    else:
        X, y = make_regression(n_samples=2 * n, n_features=m, n_informative=10, noise=10.0,
                               random_state=seed)
    return X[:n], y[:n], X[n:]


def forests(task: str, trees: int):
    from sklearn import ensemble as sk

    from treebook import ensemble as tb

    if task == "classification":
        kw = dict(n_estimators=trees, max_features="sqrt", n_jobs=1)
        return (lambda s: sk.RandomForestClassifier(random_state=s, **kw),
                lambda s: tb.RandomForestClassifier(random_state=s, **kw))
    kw = dict(n_estimators=trees, max_features=1.0, n_jobs=1)
    return (lambda s: sk.RandomForestRegressor(random_state=s, **kw),
            lambda s: tb.RandomForestRegressor(random_state=s, **kw))


def timed(fn):
    """``(wall seconds, CPU seconds of this process, result)``: on a shared machine the
    CPU time of these single-threaded fits (``n_jobs=1``) depends far less on the other
    jobs than the wall time does."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - t0, time.process_time() - c0, out


def bench(task: str, n: int, m: int, trees: int, repeats: int) -> dict:
    X, y, X_new = data(task, n, m, seed=0)
    make_sk, make_tb = forests(task, trees)
    # warm-up: imports and the compiled kernels loaded from numba's cache
    make_tb(0).set_params(n_estimators=2).fit(X[:500], y[:500])
    best = {k: np.inf for k in ("sk_fit", "tb_fit", "sk_pred", "tb_pred", "sk_cpu", "tb_cpu")}
    predict = "predict_proba" if task == "classification" else "predict"
    for r in range(repeats):
        order = [("sk", make_sk), ("tb", make_tb)]
        for lib, make in (order if r % 2 == 0 else order[::-1]):
            t_fit, c_fit, model = timed(lambda: make(r).fit(X, y))
            t_pred, _, _ = timed(lambda: getattr(model, predict)(X_new))
            best[f"{lib}_fit"] = min(best[f"{lib}_fit"], t_fit)
            best[f"{lib}_cpu"] = min(best[f"{lib}_cpu"], c_fit)
            best[f"{lib}_pred"] = min(best[f"{lib}_pred"], t_pred)
    return dict(task=task, n=n, features=m, trees=trees, repeats=repeats,
                fit_sklearn_s=best["sk_fit"], fit_treebook_s=best["tb_fit"],
                fit_ratio=best["tb_fit"] / best["sk_fit"],
                fit_cpu_sklearn_s=best["sk_cpu"], fit_cpu_treebook_s=best["tb_cpu"],
                fit_cpu_ratio=best["tb_cpu"] / best["sk_cpu"],
                predict_sklearn_s=best["sk_pred"], predict_treebook_s=best["tb_pred"],
                predict_ratio=best["tb_pred"] / best["sk_pred"])


def current_commit() -> str:
    """The commit of the treebook this process imports (so that an older checkout put
    first on ``PYTHONPATH`` is named as the code measured), marked when its source
    differs from that commit."""
    import treebook

    where = os.path.dirname(os.path.abspath(treebook.__file__))
    res = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True, cwd=where)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "."],
                           capture_output=True, text=True, cwd=where).stdout.strip()
    return (res.stdout.strip() or "unknown") + (" (src modified)" if dirty else "")


def write_csv(path: str, rows: list, argv, commit: str, load_before: str) -> None:
    import pandas as pd

    with open(path, "w") as fh:
        fh.write("# command: python benchmarks/bench_forest.py "
                 + " ".join(argv if argv is not None else sys.argv[1:]) + "\n")
        load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
        fh.write(f"# date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} "
                 f"UTC ({os.cpu_count()} CPUs)\n")
        fh.write(f"# load average: {load_before} at the start, {load} when written\n")
        fh.write(f"# commit: {commit}\n")
        pd.DataFrame(rows).to_csv(fh, index=False, float_format="%.4g")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=float, default=2e4)
    ap.add_argument("--features", type=int, default=20)
    ap.add_argument("--trees", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--tasks", nargs="+", default=list(TASKS), choices=TASKS)
    ap.add_argument("--csv", help="also write the table here (with command, date, load "
                                  "average and commit)")
    args = ap.parse_args(argv)
    commit = current_commit()
    load_before = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    rows = []
    for task in args.tasks:
        row = bench(task, int(args.n), args.features, args.trees, args.repeats)
        rows.append(row)
        print(f"{task:15s} fit: scikit-learn {row['fit_sklearn_s']:.2f} s, treebook "
              f"{row['fit_treebook_s']:.2f} s, ratio {row['fit_ratio']:.2f} (CPU time ratio "
              f"{row['fit_cpu_ratio']:.2f}); predict ratio "
              f"{row['predict_ratio']:.2f}", flush=True)
        if args.csv:
            write_csv(args.csv, rows, argv, commit, load_before)


if __name__ == "__main__":
    main()
