"""Serving speed: one-row and batch ``predict`` of a fully grown CART tree against scikit-learn.

Issue 26's goals: one-row predict ≤ 1× scikit-learn's time and batch predict ≤ 0.8×,
with the walk tables built once per tree (``Tree.tables``) rather than on every call.
Both libraries grow a tree to purity on the same ``make_classification`` rows (10
features, 5 informative, a share ``--flip-y`` of labels flipped, so the tree is large:
about 13,000–18,000 nodes at 10⁵ rows), once on the numpy array and once on the same
data as a DataFrame of float64 columns. On fresh rows the script then times

* one-row ``predict`` and ``predict_proba``: the median of ``--calls`` calls, made in
  blocks of 50 that alternate between the two libraries (so both see the same load);
* batch ``predict`` of ``--batch`` rows: the median of ``--repeats`` calls, alternating.

Each time is taken as wall time and as the CPU time of the thread (``time.thread_time``;
on a shared machine the CPU time depends less on the other jobs). The ratio is treebook
÷ scikit-learn, so below 1 is faster. Before timing, the script records in ``agreement``
the share of the fresh rows on which the two trees predict the same class: they are two
trees grown to purity on the same rows, not one tree, since the libraries break ties
between equally good cuts differently, so it is below 1.

Usage::

    python benchmarks/bench_predict.py
    python benchmarks/bench_predict.py --calls 3000 --repeats 15 \\
        --csv benchmarks/experiments/results/bench_predict.csv

Prints one line per measurement; with ``--csv`` also writes the table under ``# command``,
``# date``, ``# load average`` and ``# commit`` lines. Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shlex
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_forest import current_commit  # noqa: E402  (the commit of the treebook imported)


def load() -> str:
    return ", ".join(f"{v:.1f}" for v in os.getloadavg())


def models(n: int, flip_y: float, batch: int):
    import pandas as pd
    from sklearn.datasets import make_classification
    from sklearn.tree import DecisionTreeClassifier

    from treebook import CARTClassifier

    X, y = make_classification(n_samples=n + batch, n_features=10, n_informative=5,
                               flip_y=flip_y, random_state=0)
    X_fit, y_fit, X_new = X[:n], y[:n], X[n:]
    cols = [f"x{j}" for j in range(X.shape[1])]
    df_fit, df_new = pd.DataFrame(X_fit, columns=cols), pd.DataFrame(X_new, columns=cols)
    out = {}
    for kind, fit_X, new_X in (("numpy", X_fit, X_new), ("pandas", df_fit, df_new)):
        tb = CARTClassifier().fit(fit_X, y_fit)
        sk = DecisionTreeClassifier(random_state=0).fit(fit_X, y_fit)
        agree = float(np.mean(tb.predict(new_X) == sk.predict(new_X)))
        out[kind] = (tb, sk, new_X, agree)
    return out


def one_call(fn, arg):
    t0, c0 = time.perf_counter(), time.thread_time()
    fn(arg)
    return time.perf_counter() - t0, time.thread_time() - c0


def one_row(tb_fn, sk_fn, rows, calls: int, block: int = 50):
    """Median wall and CPU seconds of one-row calls, in alternating blocks."""
    times = {"tb": [], "sk": []}
    take = (lambda i: rows[i % len(rows): i % len(rows) + 1]) if isinstance(
        rows, np.ndarray) else (lambda i: rows.iloc[i % len(rows): i % len(rows) + 1])
    singles = [take(i) for i in range(min(len(rows), 1000))]
    for b in range(max(1, calls // block)):
        order = [("tb", tb_fn), ("sk", sk_fn)]
        for lib, fn in (order if b % 2 == 0 else order[::-1]):
            for i in range(block):
                times[lib].append(one_call(fn, singles[(b * block + i) % len(singles)]))
    return {lib: np.median(np.array(v), axis=0) for lib, v in times.items()}


def batch_calls(tb_fn, sk_fn, rows, repeats: int):
    times = {"tb": [], "sk": []}
    for r in range(repeats):
        order = [("tb", tb_fn), ("sk", sk_fn)]
        for lib, fn in (order if r % 2 == 0 else order[::-1]):
            times[lib].append(one_call(fn, rows))
    return {lib: np.median(np.array(v), axis=0) for lib, v in times.items()}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=float, default=1e5, help="training rows")
    ap.add_argument("--flip-y", type=float, default=0.05)
    ap.add_argument("--batch", type=float, default=1e5, help="rows of the batch predict")
    ap.add_argument("--calls", type=int, default=2000, help="one-row calls per library")
    ap.add_argument("--repeats", type=int, default=11, help="batch calls per library")
    ap.add_argument("--csv", help="also write the table here (command, date, load, commit)")
    args = ap.parse_args(argv)
    commit, load_before = current_commit(), load()
    fitted = models(int(args.n), args.flip_y, int(args.batch))
    rows = []
    for kind, (tb, sk, new_X, agree) in fitted.items():
        tb.predict(new_X[:10] if kind == "numpy" else new_X.iloc[:10])  # compiled walk loaded
        for method in ("predict", "predict_proba"):
            res = one_row(getattr(tb, method), getattr(sk, method), new_X, args.calls)
            rows.append(dict(work="one row", input=kind, method=method, calls=args.calls,
                             nodes=tb.tree_.node_count, agreement=agree, **_cells(res)))
            _print(rows[-1])
        res = batch_calls(tb.predict, sk.predict, new_X, args.repeats)
        rows.append(dict(work=f"batch of {len(new_X):,}", input=kind, method="predict",
                         calls=args.repeats, nodes=tb.tree_.node_count, agreement=agree,
                         **_cells(res)))
        _print(rows[-1])
        if args.csv:
            write_csv(args.csv, rows, argv, commit, load_before)


def _cells(res) -> dict:
    (tw, tc), (sw, sc) = res["tb"], res["sk"]
    return dict(sklearn_s=sw, treebook_s=tw, ratio=tw / sw, sklearn_cpu_s=sc,
                treebook_cpu_s=tc, cpu_ratio=tc / sc, load=load())


def _print(row) -> None:
    print(f"{row['work']:18s} {row['input']:6s} {row['method']:13s} nodes {row['nodes']:,}: "
          f"scikit-learn {row['sklearn_s'] * 1e6:9.1f} us, treebook "
          f"{row['treebook_s'] * 1e6:9.1f} us, ratio {row['ratio']:.2f} (CPU time "
          f"{row['cpu_ratio']:.2f}); load {row['load']}", flush=True)


def write_csv(path: str, rows: list, argv, commit: str, load_before: str) -> None:
    import pandas as pd

    args = argv if argv is not None else sys.argv[1:]
    with open(path, "w") as fh:
        fh.write("# command: python benchmarks/bench_predict.py "
                 + " ".join(shlex.quote(a) for a in args) + "\n")
        fh.write(f"# date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} "
                 f"UTC ({os.cpu_count()} CPUs)\n")
        fh.write(f"# load average: {load_before} at the start, {load()} when written\n")
        fh.write(f"# commit: {commit}\n")
        pd.DataFrame(rows).to_csv(fh, index=False, float_format="%.4g")


if __name__ == "__main__":
    main()
