"""The in-memory scale runs of chapter 8: the binned grower's phases, one tree against
LightGBM, and 10^7 rows in bounded memory.

1. **Phases** (``scale_phases.csv``): :class:`treebook.hist.HistCARTRegressor` and
   :class:`treebook.hist.HistCARTClassifier` on ``n`` synthetic rows in memory
   (``scale_parquet.make_partition``: 10 normal features, a 3-class label, a real
   response, fractional weights), depth 6, 255 bins (``uint8`` codes): the seconds of
   every phase the estimator records in ``timings_`` — ``bin`` (the bins and the codes,
   once), then per level ``histogram`` (the pass over the rows: the smaller children's
   histograms and every open node's totals), ``subtract`` (the siblings) and ``choose``
   (the splits, on the driver). In memory there is no ``read`` and, with one block, no
   ``reduce``: those are the Parquet run's (``scale_parquet.py``).
2. **LightGBM** (``scale_lightgbm.csv``): one regression tree of the same depth and
   bins on the same rows, unit weights — LightGBM 4.7 with ``num_iterations=1``,
   ``learning_rate=1``, ``num_leaves=2^depth``, no regularisation
   (``lambda_l1 = lambda_l2 = min_gain_to_split = min_sum_hessian_in_leaf = 0``,
   ``min_data_in_leaf=1``), one thread, ``boost_from_average=false`` — against the
   binned regressor with ``max_bins=255``. Each side is timed as *bin* (LightGBM's
   ``Dataset.construct``; our ``bin`` phase) and *tree* (``lgb.train``; our levels),
   ``--repeats`` times alternately; the CSV keeps every repeat and the load average.
   Both grow the full depth-6 tree of variance-reducing splits; the CSV records each
   tree's training mean squared error as a check that they fit the same thing.
3. **Memory** (``scale_memory.csv``): a child process fits the binned regressor on
   ``--memory-rows`` rows (default 10^7) generated in it, with
   ``MALLOC_MMAP_THRESHOLD_=65536`` (large buffers are mmapped and returned on free,
   so the peak counts what is live), and reports its peak resident set (``VmHWM`` of
   ``/proc/self/status``) after the data are made and after the fit, with the bytes of
   the data (``X``, ``y``, ``w``) and of the codes.

Usage::

    nice python benchmarks/experiments/scale_inmemory.py          # the committed run
    python benchmarks/experiments/scale_inmemory.py --smoke --out /tmp/si

Times are wall-clock on a shared machine (the load average is in every row): compare
the ratios measured in the same run, not the seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")
sys.path.insert(0, HERE)

from scale_parquet import make_partition  # noqa: E402  the same synthetic rows

DEPTH, BINS = 6, 255


def data(n, seed=0, chunk=1_000_000):
    """``X`` (n × 10), the 3-class label, a real response and fractional weights, made
    ``chunk`` rows at a time (partition ``i`` of ``scale_parquet.make_partition``) into
    arrays allocated once, so that making the data never holds two copies of them."""
    X = np.empty((n, 10))
    y = np.empty(n, np.int64)
    w = np.empty(n)
    for i, a in enumerate(range(0, n, chunk)):
        b = min(a + chunk, n)
        frame = make_partition(i, b - a, seed)
        X[a:b] = frame[[f"x{j}" for j in range(10)]].to_numpy()
        y[a:b], w[a:b] = frame["y"].to_numpy(), frame["w"].to_numpy()
        del frame
    r = X[:, 0] + 0.8 * X[:, 1] * X[:, 2] - 0.5 * np.sin(3 * X[:, 3]) + 0.3 * y
    return X, y, r, w


def phases(n, repeat):
    from treebook.hist import HistCARTClassifier, HistCARTRegressor
    from treebook.teaching.experiments import load_average

    X, y, r, w = data(n)
    rows = []
    for name, est, target in [("regression", HistCARTRegressor, r),
                              ("classification", HistCARTClassifier, y)]:
        m = est(max_depth=DEPTH, max_bins=BINS).fit(X, target, w)
        load = load_average().split()[0]
        for phase, depth, seconds in m.timings_:
            rows.append(dict(task=name, n=n, repeat=repeat, phase=phase, level=depth,
                             seconds=seconds, ns_per_row=1e9 * seconds / n,
                             open_nodes=dict(m.levels_).get(depth, 0),
                             leaves=m.tree_.n_leaves, load1=load))
    return rows


def lightgbm_vs_binned(n, repeat):
    import lightgbm as lgb

    from treebook.hist import HistCARTRegressor
    from treebook.teaching.experiments import load_average

    X, _, r, _ = data(n)
    params = dict(objective="regression", num_iterations=1, learning_rate=1.0,
                  num_leaves=2 ** DEPTH, max_depth=DEPTH, max_bin=BINS, min_data_in_leaf=1,
                  min_sum_hessian_in_leaf=0.0, lambda_l1=0.0, lambda_l2=0.0,
                  min_gain_to_split=0.0, num_threads=1, boost_from_average=False,
                  bin_construct_sample_cnt=n, verbose=-1, deterministic=True,
                  force_row_wise=True)
    t0 = time.perf_counter()
    ds = lgb.Dataset(X, r, params=params, free_raw_data=False).construct()
    t1 = time.perf_counter()
    booster = lgb.train(params, ds)
    t2 = time.perf_counter()
    mse_lgb = float(np.mean((booster.predict(X) - r) ** 2))
    m = HistCARTRegressor(max_depth=DEPTH, max_bins=BINS).fit(X, r)
    t3 = time.perf_counter()
    bin_s = sum(s for p, _, s in m.timings_ if p == "bin")
    mse_ours = float(np.mean((m.predict(X) - r) ** 2))
    load = load_average().split()[0]
    leaves_lgb = booster.dump_model()["tree_info"][0]["num_leaves"]
    return [dict(n=n, repeat=repeat, learner="LightGBM 4.7", bin_seconds=t1 - t0,
                 tree_seconds=t2 - t1, total_seconds=t2 - t0, train_mse=mse_lgb,
                 leaves=leaves_lgb, load1=load),
            dict(n=n, repeat=repeat, learner="treebook hist", bin_seconds=bin_s,
                 tree_seconds=(t3 - t2) - bin_s, total_seconds=t3 - t2, train_mse=mse_ours,
                 leaves=m.tree_.n_leaves, load1=load)]


CHILD = r"""
import json, sys, time, numpy as np
sys.path.insert(0, {here!r})
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) / 1024.0
from scale_inmemory import data
from treebook.hist import HistCARTRegressor
base = hwm()
X, y, r, w = data({n})
del y
made = hwm()
t = time.perf_counter()
m = HistCARTRegressor(max_depth={depth}, max_bins={bins}).fit(X, r, w)
seconds = time.perf_counter() - t
codes_mb = X.shape[0] * X.shape[1] * m.bin_mapper_.code_dtype.itemsize / 2**20
print(json.dumps(dict(base_mib=base, after_data_mib=made, peak_mib=hwm(),
                      data_mib=(X.nbytes + r.nbytes + w.nbytes) / 2**20, codes_mib=codes_mb,
                      fit_seconds=seconds, leaves=int(m.tree_.n_leaves),
                      code_dtype=str(m.bin_mapper_.code_dtype))))
"""


def memory(n):
    from treebook.teaching.experiments import load_average

    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536"}
    done = subprocess.run([sys.executable, "-c", CHILD.format(here=HERE, n=n, depth=DEPTH,
                                                               bins=BINS)],
                          capture_output=True, text=True, env=env, timeout=900)
    if done.returncode:
        raise RuntimeError(f"the memory child failed:\n{done.stderr[-2000:]}")
    got = json.loads(done.stdout.strip().splitlines()[-1])
    return [dict(n=n, **got, load1=load_average().split()[0])]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--memory-rows", type=int, default=10_000_000)
    p.add_argument("--out", default=RESULTS, help="a folder for the three CSVs")
    p.add_argument("--smoke", action="store_true", help="2·10^3 rows, one repeat")
    args = p.parse_args(argv)
    from treebook.teaching.experiments import results_path, write_results

    if args.smoke:
        args.sizes, args.repeats, args.memory_rows = [2_000], 1, 20_000
    command = ("python benchmarks/experiments/scale_inmemory.py "
               + " ".join(argv if argv is not None else sys.argv[1:])).strip()
    ph, lg = [], []
    for n in args.sizes:
        for k in range(args.repeats):
            ph += phases(n, k)
            lg += lightgbm_vs_binned(n, k)
            print(f"n={n} repeat {k} done", flush=True)
    write_results(pd.DataFrame(ph), results_path(args.out, "scale_phases.csv"), command)
    write_results(pd.DataFrame(lg), results_path(args.out, "scale_lightgbm.csv"), command)
    mem = memory(args.memory_rows)
    write_results(pd.DataFrame(mem), results_path(args.out, "scale_memory.csv"), command)
    print(pd.DataFrame(lg).groupby(["n", "learner"])[["bin_seconds", "tree_seconds",
                                                       "total_seconds"]].median())
    print(pd.DataFrame(mem).T)


if __name__ == "__main__":
    main()
