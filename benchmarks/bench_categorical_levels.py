"""CART on one categorical column of many levels: depth-1 fit time and peak memory
against the number of levels ``L`` (issue 22).

Data: ``n = --rows-per-level × L`` rows, one pandas categorical column whose ``L``
categories are drawn uniformly; each category ``c`` has an effect ``e_c ~ U(0, 1)``, and
the target is two classes (``⌊2 e_c + u⌋ mod 2``), three classes (``⌊3 e_c + u⌋ mod 3``,
``u ~ U(0, 1)`` per row) or regression (``e_c + N(0, 1)``). The learner is
``CARTClassifier`` / ``CARTRegressor(max_depth=1)`` with the level-wise grower (the
compiled subset search, ``kernels.subsets.scan_subsets``) and the recursive one (the
numpy search, ``growers.subsets.subset_split_of_stats``). Three classes with more than 12
categories take the package's heuristic (the cuts along each class's proportion), so
``K = 3`` scores ``3 (L - 1)`` subsets.

Reference, in the same run: the same learner on a numeric column of the same ``n`` rows
(``e_c`` plus noise), so ``ratio`` = categorical fit / numeric fit; a subset search that
is ``O(K·L log L)`` keeps it near a constant as ``L`` grows. Fit times are medians of
``--repeats`` fits after a warm-up fit (imports, compiled kernels from the cache).
**Peak memory**: in one child process per target and grower (increasing ``L``), each
fit's peak RSS (``VmHWM`` after resetting it through ``/proc/self/clear_refs``) minus the
RSS before it (Linux only), the data already built.

The script prints, per target and grower, the least-squares slope of ``log fit time``
against ``log L`` over ``10^3 ≤ L ≤ 10^5`` (issue 22's target: ≤ 1.2), and writes it into
the CSV's last header lines.

Usage::

    python benchmarks/bench_categorical_levels.py            # L = 1e2 … 1e5, 3 repeats
    python benchmarks/bench_categorical_levels.py --levels 1e3 1e4 --repeats 5
    python benchmarks/bench_categorical_levels.py --smoke --out /tmp/x.csv   # seconds

The committed table is ``benchmarks/experiments/results/categorical_levels.csv``. Tests
never assert a time (``tests/test_bench_categorical_levels_smoke.py`` runs ``--smoke``).
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

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "experiments", "results", "categorical_levels.csv")
TARGETS = ("2 classes", "3 classes", "regression")
GROWERS = ("levelwise", "recursive")
COLUMNS = ("target", "grower", "L", "n", "repeats", "fit_s", "numeric_fit_s", "ratio",
           "peak_mib", "numeric_peak_mib", "root_left_categories")


def make_data(target: str, L: int, rows_per_level: int, seed: int = 0):
    """``(X_categorical, X_numeric, y)``: the benchmark's data (module docstring)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    n = rows_per_level * L
    codes = rng.integers(0, L, size=n)
    effect = rng.random(L)
    X = pd.DataFrame({"c": pd.Categorical.from_codes(codes, [f"v{j}" for j in range(L)])})
    Xn = pd.DataFrame({"x": effect[codes] + rng.normal(scale=0.3, size=n)})
    if target == "regression":
        y = effect[codes] + rng.normal(size=n)
    else:
        K = 2 if target == "2 classes" else 3
        y = np.floor(K * effect[codes] + rng.random(n)).astype(np.int64) % K
    return X, Xn, y


def make_estimator(target: str, grower: str):
    from treebook import CARTClassifier, CARTRegressor

    cls = CARTRegressor if target == "regression" else CARTClassifier
    return cls(max_depth=1, grower=grower)


def _median_fit(target, grower, X, y, repeats):
    times = []
    for _ in range(repeats):
        est = make_estimator(target, grower)
        t = time.perf_counter()
        est.fit(X, y)
        times.append(time.perf_counter() - t)
    return float(np.median(times)), est


def bench_time(target: str, grower: str, L: int, rows_per_level: int, repeats: int) -> dict:
    X, Xn, y = make_data(target, L, rows_per_level)
    wx, wxn, wy = make_data(target, 50, 10, seed=1)  # warm-up on small data
    make_estimator(target, grower).fit(wx, wy)
    make_estimator(target, grower).fit(wxn, wy)
    fit_s, est = _median_fit(target, grower, X, y, repeats)
    numeric_s, _ = _median_fit(target, grower, Xn, y, repeats)
    tree = est.tree_
    left = int((tree.codes_of(0) == 0).sum()) if tree.node_count > 1 else 0
    print(f"  {target:>10} {grower:>9} L={L:>7,} n={X.shape[0]:>9,}: fit {fit_s:7.3f} s, "
          f"numeric {numeric_s:7.3f} s", file=sys.stderr, flush=True)
    return {"target": target, "grower": grower, "L": L, "n": int(X.shape[0]),
            "repeats": repeats, "fit_s": fit_s, "numeric_fit_s": numeric_s,
            "ratio": fit_s / numeric_s, "root_left_categories": left}


MEM_CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from bench_categorical_levels import make_data, make_estimator
config = json.loads(sys.argv[2])
def status_kib(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1])
def peak_mib(target, grower, X, y):
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")  # reset the high-water mark: VmHWM becomes the fit's own peak
    base = status_kib("VmRSS")
    make_estimator(target, grower).fit(X, y)
    return (status_kib("VmHWM") - base) / 1024
out = []
for target in config["targets"]:
    for grower in config["growers"]:
        wx, wxn, wy = make_data(target, 50, 10, seed=1)
        make_estimator(target, grower).fit(wx, wy)  # warm up: imports and caches
        make_estimator(target, grower).fit(wxn, wy)
        for L in config["levels"]:
            X, Xn, y = make_data(target, L, config["rows_per_level"])
            out.append([target, grower, L, peak_mib(target, grower, X, y),
                        peak_mib(target, grower, Xn, y)])
            del X, Xn, y
print(json.dumps(out))
"""


def bench_memory(targets, growers, levels, rows_per_level: int) -> dict:
    """``{(target, grower, L): (categorical peak MiB, numeric peak MiB)}``: one child
    process per target and grower, fitting in increasing ``L`` (a heap grown by a larger
    fit would hide a smaller fit's peak; the high-water mark is reset before each)."""
    out = {}
    for target in targets:
        for grower in growers:
            config = {"targets": [target], "growers": [grower],
                      "levels": sorted(levels), "rows_per_level": rows_per_level}
            res = subprocess.run([sys.executable, "-c", MEM_CHILD, HERE, json.dumps(config)],
                                 check=True, capture_output=True, text=True)
            out.update({(t, g, int(L)): (a, b) for t, g, L, a, b
                        in json.loads(res.stdout.strip().splitlines()[-1])})
    return out


def log_slope(rows, target, grower, lo=1e3, hi=1e5):
    """Least-squares slope of ``log fit_s`` on ``log L`` over ``lo ≤ L ≤ hi`` (None with
    fewer than two levels there)."""
    pts = [(r["L"], r["fit_s"]) for r in rows
           if r["target"] == target and r["grower"] == grower and lo <= r["L"] <= hi]
    if len(pts) < 2:
        return None
    L, t = np.log(np.array(pts, dtype=float)).T
    return float(np.polyfit(L, t, 1)[0])


def current_commit() -> str:
    def git(*args):
        return subprocess.run(["git", *args], capture_output=True, text=True,
                              cwd=HERE).stdout.strip()
    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    return commit + (" (with uncommitted changes in src/)"
                     if git("status", "--porcelain", "--", "../src") else "")


def write_csv(path: str, rows: list, argv, commit: str, slopes=None) -> None:
    """The table so far, after ``#`` lines: command, commit, date and load average (and
    the slopes, once known)."""
    import pandas as pd

    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as fh:
        fh.write("# command: python benchmarks/bench_categorical_levels.py "
                 + " ".join(argv if argv is not None else sys.argv[1:]) + "\n")
        fh.write(f"# commit: {commit}\n")
        fh.write(f"# date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC\n")
        load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
        fh.write(f"# load average: {load} when written ({os.cpu_count()} CPUs)\n")
        for (target, grower), s in (slopes or {}).items():
            shown = "n/a" if s is None else f"{s:.3f}"
            fh.write(f"# slope of log fit_s on log L, 1e3 <= L <= 1e5, {target}, {grower}: "
                     f"{shown}\n")
        pd.DataFrame(rows).reindex(columns=list(COLUMNS)).to_csv(fh, index=False,
                                                                float_format="%.4g")


def read_csv(path):
    import pandas as pd

    return pd.read_csv(path, comment="#")


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", nargs="+", type=float, default=[1e2, 1e3, 1e4, 1e5])
    ap.add_argument("--rows-per-level", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--targets", nargs="+", default=list(TARGETS), choices=TARGETS)
    ap.add_argument("--growers", nargs="+", default=list(GROWERS), choices=GROWERS)
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--smoke", action="store_true",
                    help="L = 100, 300; 1 repeat; 5 rows per level (seconds, for tests)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="the CSV to write")
    args = ap.parse_args(argv)
    if args.smoke:
        args.levels, args.repeats, args.rows_per_level = [100, 300], 1, 5
    levels = [int(v) for v in args.levels]
    commit = current_commit()  # the code this process imports
    rows = []
    mem = ({} if args.no_memory
           else bench_memory(args.targets, args.growers, levels, args.rows_per_level))
    for target in args.targets:
        for grower in args.growers:
            for L in levels:
                row = bench_time(target, grower, L, args.rows_per_level, args.repeats)
                if (target, grower, L) in mem:
                    row["peak_mib"], row["numeric_peak_mib"] = mem[target, grower, L]
                rows.append(row)
                write_csv(args.out, rows, argv, commit)
    slopes = {(t, g): log_slope(rows, t, g) for t in args.targets for g in args.growers}
    write_csv(args.out, rows, argv, commit, slopes)
    print("| target | grower | L | n | fit (s) | numeric (s) | ratio | peak MiB |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        peak = f"{r['peak_mib']:.1f}" if "peak_mib" in r else "–"
        print(f"| {r['target']} | {r['grower']} | {r['L']:,} | {r['n']:,} | "
              f"{r['fit_s']:.3f} | {r['numeric_fit_s']:.3f} | {r['ratio']:.2f} | {peak} |")
    for (t, g), s in slopes.items():
        print(f"slope of log fit time on log L (1e3 … 1e5), {t}, {g}: "
              + ("n/a" if s is None else f"{s:.2f}") + "  (target ≤ 1.2)")
    return {"rows": rows, "slopes": slopes}


if __name__ == "__main__":
    main()
