"""C4.5 against Weka's J48, building the same tree, both warm, in one run.

Issue 26's first goal: treebook's ``C45Classifier`` no slower than J48 on UCI Adult and on
the sum over the 15 ARFF sets of ``tests/oracles/test_j48.py``. The J48 side is
``benchmarks/java/J48Timer.java``: one JVM, ``--warmup`` builds per data set (the JIT
compiles J48), then ``--repeats`` timed builds of ``new J48()`` on a copy of the data.
The treebook side: one fit per data set first (numba compiles or loads its kernels), then
``--repeats`` timed fits. Both take the data already read (ARFF parsing is not timed) and
both use J48's defaults (``-C 0.25 -M 2``; treebook's defaults are the same). Adult is
written as ARFF (nominal values declared in sorted order, ``?`` for unknown) and read back
through the oracle's dump, so both programs see the same values.

Every row checks that the two trees have the same number of leaves that hold training
cases (J48 also keeps an empty leaf for every category absent at a node, which treebook
does not store; ``tests/oracles/test_j48.py`` checks the leaves themselves): a ratio of
two different trees would mean nothing. Printed: per data set the best and median times
and the ratio of the medians treebook / J48; for the 15 sets, the ratio of the summed
medians and the geometric mean of the per-set ratios. Wall-clock times on whatever else
the machine runs; nothing is asserted.

    python benchmarks/bench_c45_j48.py --csv benchmarks/experiments/results/c45_j48_speed.csv
    python benchmarks/bench_c45_j48.py --smoke      # two small sets, one repeat
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
# the J48 oracle's data sets and ARFF reader (tests/oracles), not a copy of them
sys.path.insert(0, str(ROOT / "tests"))
from oracles.test_j48 import DATASETS  # noqa: E402
from oracles.weka import EXAMPLES, WEKA_JAR, _leaves, read_arff  # noqa: E402

BUILD = ROOT / "_build" / "bench_c45_j48"
JAVA = Path(__file__).resolve().parent / "java" / "J48Timer.java"
COLUMNS = ("dataset", "rows", "columns", "repeats", "j48_best_s", "j48_median_s",
           "treebook_best_s", "treebook_median_s", "ratio", "j48_size", "j48_leaves",
           "j48_nonempty_leaves", "treebook_size", "treebook_nonempty_leaves", "same_shape")


def write_adult_arff(path: Path) -> None:
    """UCI Adult's training split as ARFF: numeric columns as numeric, the rest nominal
    with their values declared in sorted order; ``?`` for unknown."""
    from treebook.datasets import load_adult

    X, y = load_adult(return_X_y=True)
    frame = X.copy()
    frame["income"] = np.asarray(y)

    def quote(v):
        return "'" + str(v).replace("\\", "\\\\").replace("'", "\\'") + "'"

    lines = ["@relation adult"]
    nominal = {}
    for col in frame.columns:
        if pd.api.types.is_numeric_dtype(frame[col]):
            lines.append(f"@attribute {quote(col)} numeric")
        else:
            values = sorted(frame[col].dropna().unique())
            nominal[col] = True
            lines.append(f"@attribute {quote(col)} {{{','.join(quote(v) for v in values)}}}")
    lines.append("@data")
    cells = [frame[c].map(lambda v: "?" if pd.isna(v) else quote(v)) if c in nominal
             else frame[c].astype(str) for c in frame.columns]
    lines.extend(",".join(row) for row in zip(*cells))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def run_j48(jobs, warmup: int, repeats: int) -> dict:
    BUILD.mkdir(parents=True, exist_ok=True)
    if (not (BUILD / "J48Timer.class").exists()
            or (BUILD / "J48Timer.class").stat().st_mtime < JAVA.stat().st_mtime):
        subprocess.run(["javac", "-cp", str(WEKA_JAR), "-d", str(BUILD), str(JAVA)], check=True)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        for name, path in jobs:
            fh.write(f"{name}\t{path}\t-C 0.25 -M 2\t{warmup}\t{repeats}\n")
    try:
        out = subprocess.run(["java", "-Xmx4g", "-cp", f"{WEKA_JAR}:{BUILD}", "J48Timer",
                              fh.name], check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(fh.name)
    result = {}
    for block in out.split("\nEND")[:-1]:
        head, _, text = block.strip("\n").partition("\n")
        f = head.split("\t")
        result[f[1]] = dict(j48_best_s=float(f[2]), j48_median_s=float(f[3]),
                            j48_size=int(f[4]), j48_leaves=int(f[5]),
                            j48_nonempty_leaves=len(_leaves(text)))
    return result


def time_treebook(X, y, repeats: int) -> dict:
    from treebook import C45Classifier

    C45Classifier().fit(X, y)  # compile or load the kernels
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        model = C45Classifier().fit(X, y)
        times.append(time.perf_counter() - t)
    tree = model.tree_
    nonempty = int((tree.is_leaf & (np.asarray(tree.weighted_n) > 0)).sum())
    return dict(treebook_best_s=min(times), treebook_median_s=statistics.median(times),
                treebook_size=int(tree.node_count), treebook_nonempty_leaves=nonempty)


def main(argv=None) -> pd.DataFrame:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--warmup", type=int, default=5, help="J48 builds before timing")
    ap.add_argument("--datasets", nargs="*", default=["adult", *DATASETS])
    ap.add_argument("--smoke", action="store_true",
                    help="two small sets, one warm-up and one repeat (a test that it runs)")
    ap.add_argument("--csv", help="write the table here, with its header")
    args = ap.parse_args(argv)
    if args.smoke:
        args.datasets, args.repeats, args.warmup = ["weather.numeric", "iris"], 1, 1
    if not WEKA_JAR.exists():
        sys.exit(f"error: {WEKA_JAR} is missing: install Debian's 'weka' (make crosscheck does)")

    BUILD.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name in args.datasets:
        if name == "adult":
            paths[name] = BUILD / "adult.arff"
            write_adult_arff(paths[name])
        else:
            paths[name] = EXAMPLES / f"{name}.arff"
    j48 = run_j48(list(paths.items()), args.warmup, args.repeats)
    rows = []
    for name, path in paths.items():
        X, y, _ = read_arff(path, BUILD)
        row = dict(dataset=name, rows=len(X), columns=X.shape[1], repeats=args.repeats,
                   **j48[name], **time_treebook(X, y, args.repeats))
        row["ratio"] = row["treebook_median_s"] / row["j48_median_s"]
        row["same_shape"] = row["j48_nonempty_leaves"] == row["treebook_nonempty_leaves"]
        rows.append(row)
        print(f"{name:18s} n={row['rows']:6d}  J48 {row['j48_median_s'] * 1e3:9.2f} ms  "
              f"treebook {row['treebook_median_s'] * 1e3:9.2f} ms  ratio {row['ratio']:6.2f}"
              f"  leaves {row['j48_nonempty_leaves']}/{row['treebook_nonempty_leaves']}"
              f"{'' if row['same_shape'] else '  DIFFERENT TREES'}", flush=True)
    frame = pd.DataFrame(rows, columns=COLUMNS)
    sets = frame[frame["dataset"] != "adult"]
    if len(sets):
        print(f"the {len(sets)} ARFF sets: summed medians J48 {sets['j48_median_s'].sum():.4f} s, "
              f"treebook {sets['treebook_median_s'].sum():.4f} s, ratio "
              f"{sets['treebook_median_s'].sum() / sets['j48_median_s'].sum():.2f}; geometric "
              f"mean of the per-set ratios {np.exp(np.log(sets['ratio']).mean()):.2f}")
    if args.csv:
        from treebook.teaching.experiments import write_results

        command = "python benchmarks/bench_c45_j48.py " + " ".join(argv or sys.argv[1:])
        write_results(frame, args.csv, command.strip())
    return frame


if __name__ == "__main__":
    main()
