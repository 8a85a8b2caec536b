"""CART against scikit-learn: fit time, predict time and peak memory, measured in one run.

Data: ``make_classification(n_samples=n, n_features=10, n_informative=5, random_state=0)``;
both estimators with default parameters (a fully grown tree). For each ``n``:

* **fit** and **predict** (on the training rows): ``--repeats`` paired runs, the two
  libraries one after the other, alternating which goes first; the table shows the median
  time of each and the median of the per-pair ratios treebook / scikit-learn;
* **peak memory of fit**: each library fits once in a fresh subprocess that loads the
  data from a ``.npy`` file, imports the library, fits once on 2,000 rows (so that lazy
  imports and caches are in place) and then records its resident set size; the figure
  is the peak RSS during the fit (``VmHWM`` after resetting it through
  ``/proc/self/clear_refs``) minus that baseline, i.e. the extra memory the full fit
  needed, data and imports excluded (Linux only);
* the **naive scan** (chapter 4): the per-threshold mask loop of
  :func:`treebook.teaching.cart_readable.naive_best_threshold` against the sorted scan of one feature at the
  root, at n = 10³ and 10⁴.

Usage::

    python benchmarks/bench_cart.py                 # n = 1e5 and 1e6 (several minutes)
    python benchmarks/bench_cart.py --sizes 1e5 --repeats 3

Timings depend on the machine and on whatever else runs on it; the ratios are what the
book quotes, and they come from pairs measured back to back.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

MEM_CHILD = r"""
import json, sys, time
import numpy as np
lib, path = sys.argv[1], sys.argv[2]
X = np.load(path + "_X.npy"); y = np.load(path + "_y.npy")
if lib == "sklearn":
    from sklearn.tree import DecisionTreeClassifier as Est
    est = Est(random_state=0)
else:
    from treebook import CARTClassifier as Est
    est = Est()
def status_kib(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1])
est.fit(X[:2000], y[:2000])  # warm up: lazy imports and caches are not the fit's memory
# reset the high-water mark (Linux: "5" > clear_refs), so VmHWM is the fit's own peak;
# ru_maxrss would not do: Linux carries it over from the parent across fork and exec
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")
base = status_kib("VmRSS")
t = time.perf_counter()
est.fit(X, y)
fit_s = time.perf_counter() - t
peak = status_kib("VmHWM")
print(json.dumps({"base_mib": base / 1024, "peak_mib": peak / 1024,
                  "extra_mib": (peak - base) / 1024, "fit_s": fit_s}))
"""


def make_data(n: int):
    from sklearn.datasets import make_classification

    return make_classification(n_samples=n, n_features=10, n_informative=5, random_state=0)


def timed(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t, out


def bench_time(n: int, repeats: int):
    from sklearn.tree import DecisionTreeClassifier

    from treebook import CARTClassifier

    X, y = make_data(n)
    rows = []
    for r in range(repeats):
        pair = {}
        order = ["sklearn", "treebook"] if r % 2 == 0 else ["treebook", "sklearn"]
        for lib in order:
            est = DecisionTreeClassifier(random_state=0) if lib == "sklearn" else CARTClassifier()
            fit_s, _ = timed(est.fit, X, y)
            pred_s, pred = timed(est.predict, X)
            pair[lib] = (fit_s, pred_s, est)
        rows.append(pair)
        print(f"  n={n:>8,} pair {r + 1}/{repeats}: fit sklearn {pair['sklearn'][0]:7.2f} s, "
              f"treebook {pair['treebook'][0]:7.2f} s; predict {pair['sklearn'][1]:.3f} s, "
              f"{pair['treebook'][1]:.3f} s", flush=True)
    sk_est, tb_est = rows[-1]["sklearn"][2], rows[-1]["treebook"][2]
    agree = float(np.mean(sk_est.predict(X) == tb_est.predict(X)))
    med = lambda k, lib: float(np.median([p[lib][k] for p in rows]))  # noqa: E731
    ratio = lambda k: float(np.median([p["treebook"][k] / p["sklearn"][k] for p in rows]))  # noqa: E731
    return {
        "n": n, "fit_sk": med(0, "sklearn"), "fit_tb": med(0, "treebook"), "fit_ratio": ratio(0),
        "pred_sk": med(1, "sklearn"), "pred_tb": med(1, "treebook"), "pred_ratio": ratio(1),
        "leaves_sk": int(sk_est.get_n_leaves()), "leaves_tb": int(tb_est.n_leaves_),
        "depth_sk": int(sk_est.get_depth()), "depth_tb": int(tb_est.depth_), "agree": agree,
    }


def bench_memory(n: int):
    X, y = make_data(n)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "data")
        np.save(path + "_X.npy", X)
        np.save(path + "_y.npy", y)
        out = {}
        for lib in ("sklearn", "treebook"):
            res = subprocess.run([sys.executable, "-c", MEM_CHILD, lib, path], check=True,
                                 capture_output=True, text=True)
            out[lib] = json.loads(res.stdout.strip().splitlines()[-1])
    return out


def bench_naive(sizes=(1_000, 10_000)):
    from treebook.growers.cart_search import cart_split_finder
    from treebook.teaching.cart_readable import naive_best_threshold

    rows = []
    for n in sizes:
        X, y = make_data(n)
        x = X[:, 0]
        naive_s, (t_naive, _) = timed(naive_best_threshold, x, y, 2)
        finder = cart_split_finder(n_classes=2, criterion="gini", categorical=[False],
                                   n_categories=[0], min_samples_leaf=1,
                                   min_impurity_decrease=0.0, root_weight=float(n))
        reps = 20
        t0 = time.perf_counter()
        for _ in range(reps):
            split = finder(x[:, None], y, np.ones(n), np.arange(n), np.array([True]))
        sorted_s = (time.perf_counter() - t0) / reps
        assert split.threshold == t_naive, "the two scans disagree"
        rows.append((n, naive_s, sorted_s))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e5, 1e6])
    ap.add_argument("--repeats", type=int, default=None,
                    help="paired runs per size (default 5 for n <= 1e5, else 3)")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--no-naive", action="store_true")
    args = ap.parse_args(argv)

    import sklearn

    import treebook

    print(f"CART vs scikit-learn {sklearn.__version__} (treebook {treebook.__version__}, "
          f"numpy {np.__version__}, {os.cpu_count()} CPUs)")
    print("data: make_classification(n_features=10, n_informative=5, random_state=0); "
          "default parameters\n")
    results = []
    for n in (int(s) for s in args.sizes):
        reps = args.repeats or (5 if n <= 100_000 else 3)
        res = bench_time(n, reps)
        res["reps"] = reps
        if not args.no_memory:
            mem = bench_memory(n)
            res["mem_sk"] = mem["sklearn"]["extra_mib"]
            res["mem_tb"] = mem["treebook"]["extra_mib"]
            res["mem_ratio"] = res["mem_tb"] / res["mem_sk"]
        results.append(res)

    print("\n| n | reps | fit sklearn (s) | fit treebook (s) | **fit ratio** | predict sklearn (s) "
          "| predict treebook (s) | **predict ratio** | fit memory sklearn (MiB) "
          "| fit memory treebook (MiB) | **memory ratio** | leaves sk / tb | same predictions |")
    print("|" + "---|" * 13)
    for r in results:
        mem = (f"{r['mem_sk']:.0f} | {r['mem_tb']:.0f} | **{r['mem_ratio']:.2f}×**"
               if "mem_sk" in r else "– | – | –")
        print(f"| {r['n']:,} | {r['reps']} | {r['fit_sk']:.2f} | {r['fit_tb']:.2f} | "
              f"**{r['fit_ratio']:.2f}×** | {r['pred_sk']:.3f} | {r['pred_tb']:.3f} | "
              f"**{r['pred_ratio']:.2f}×** | {mem} | {r['leaves_sk']} / {r['leaves_tb']} | "
              f"{100 * r['agree']:.2f} % |")
    print("\ntargets: fit ≤ 0.5×, predict ≤ 2×, memory ≤ 2.5× scikit-learn's")

    if not args.no_naive:
        print("\nnaive mask scan vs sorted scan, one feature at the root (chapter 4)")
        print("| n | naive scan (s) | sorted scan (s) | speed-up |")
        print("|---|---|---|---|")
        for n, naive_s, sorted_s in bench_naive():
            print(f"| {n:,} | {naive_s:.3f} | {sorted_s:.5f} | {naive_s / sorted_s:,.0f}× |")


if __name__ == "__main__":
    main()
