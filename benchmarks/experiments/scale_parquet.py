"""The scale run of chapter 8: binned CART on Parquet partitions through Dask.

1. Writes ``--rows`` synthetic rows (10 numeric features, 3 classes, fractional sample
   weights; seeded per partition) as Parquet files of ``--partition-rows`` rows each
   under ``--path`` — one partition in memory at a time.
2. Fits :class:`treebook.hist.HistCARTClassifier` on them on a
   ``distributed.LocalCluster`` (127.0.0.1, no dashboard, one thread per worker
   process). The fit reads every partition twice — once to summarise its values, once
   to bin them — and keeps the codes (``uint8`` up to 255 bins) persisted in the
   workers, with each row's node beside them; every level is then a pass over codes
   already in memory.
3. Records per configuration (rows ``n``, ``max_bins``, workers) one row per phase:
   ``read`` (a separate pass that only reads the Parquet files, to separate I/O from
   the algorithm), ``summarise`` and ``bin`` (the two reading passes of the fit), and
   per level ``pass`` (the wall time of the level's pass, from the driver),
   ``histogram`` (the kernel's seconds summed over the partitions, measured in the
   workers), ``reduce`` (``pass`` minus ``histogram``/workers: scheduling, transfer
   and the pairwise additions) and ``choose`` (``subtract`` + the splits, on the
   driver); ``bytes_per_partition`` is what a partition sent at that level, its
   partial sums pickled (measured); and the peak RSS of the driver and of the largest
   worker process (``ru_maxrss``).

Usage::

    nice python benchmarks/experiments/scale_parquet.py             # the committed run
    python benchmarks/experiments/scale_parquet.py --smoke --out /tmp/sp   # 4·10^3 rows,
                                                     # the Parquet files in /tmp/sp too

The default run writes ``benchmarks/experiments/results/scale_parquet.csv`` with header
lines (command, date, commit, load average). Times are wall-clock on a shared machine:
they show how the cost is made up, not what a dedicated cluster would take.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from datetime import datetime, timezone

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")
N_FEATURES = 10


def make_partition(index: int, rows: int, seed: int = 0):
    """One partition of the synthetic data (a pandas DataFrame): ``x0 … x9`` normal,
    a 3-class label from a noisy rule on four features, weights uniform on [0.5, 2)."""
    import pandas as pd

    rng = np.random.default_rng([seed, index])
    X = rng.standard_normal((rows, N_FEATURES))
    score = X[:, 0] + 0.8 * X[:, 1] * X[:, 2] - 0.5 * X[:, 3] + 0.7 * rng.standard_normal(rows)
    y = np.digitize(score, [-0.6, 0.6])
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(N_FEATURES)])
    frame["y"] = y.astype(np.int64)
    frame["w"] = rng.uniform(0.5, 2.0, rows)
    return frame


def write_parquet(path: str, rows: int, partition_rows: int) -> list[str]:
    """Write the data set as Parquet files (one partition each); reuse files that exist."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    os.makedirs(path, exist_ok=True)
    files = []
    for i, start in enumerate(range(0, rows, partition_rows)):
        n = min(partition_rows, rows - start)
        name = os.path.join(path, f"part-{i:05d}-{n}.parquet")
        if not os.path.exists(name):
            pq.write_table(pa.Table.from_pandas(make_partition(i, n), preserve_index=False),
                           name)
        files.append(name)
    return files


def _read(name):
    import pandas as pd
    import pyarrow.parquet as pq

    return pq.read_table(name).to_pandas()


def frame_of(files):
    """A Dask DataFrame with one partition per file (read again at every pass)."""
    import dask
    import dask.dataframe as dd

    meta = make_partition(0, 1).iloc[:0]
    return dd.from_delayed([dask.delayed(_read)(f) for f in files], meta=meta,
                           verify_meta=False)


def _peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _read_all(files):
    """Seconds to read every file once (the I/O a pass over Parquet costs)."""
    import dask

    t = time.perf_counter()
    dask.compute(*[dask.delayed(len)(dask.delayed(_read)(f)) for f in files])
    return time.perf_counter() - t


def run_one(files, max_bins, workers, max_depth):
    """Fit once on a fresh cluster; one row per phase (and level) of the result table."""
    import distributed

    from treebook.hist import HistCARTClassifier

    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                  scheduler_kwargs={"dashboard": False},
                                  memory_limit="3GiB") as cluster, \
            distributed.Client(cluster) as client:
        client.run(lambda: __import__("treebook.hist"))  # imports are not the algorithm's
        read_seconds = _read_all(files)
        est = HistCARTClassifier(max_bins=max_bins, max_depth=max_depth, binning="sketch")
        est.fit(frame_of(files), "y", "w")
        worker_rss = max(client.run(_peak_rss_mb).values())
    n = sum(int(os.path.basename(f).split("-")[2].split(".")[0]) for f in files)
    base = dict(n=n, max_bins=max_bins, workers=workers, partitions=len(files),
                leaves=est.tree_.n_leaves, worker_peak_rss_mb=round(worker_rss, 1),
                driver_peak_rss_mb=round(_peak_rss_mb(), 1))
    opened = dict(est.levels_)
    rows = [dict(base, phase="read", level=-1, open_nodes=0, seconds=read_seconds,
                 bytes_per_partition=0)]
    per = {}
    for phase, level, value in est.timings_:
        per[(phase, level)] = per.get((phase, level), 0.0) + value
    for phase in ("summarise", "bin"):
        rows.append(dict(base, phase=phase, level=-1, open_nodes=0,
                         seconds=per[(phase, -1)], bytes_per_partition=0))
    for level in sorted(opened):
        kernel = per[("kernel", level)]
        wall = per[("histogram", level)]
        sent = int(per[("sent_bytes", level)])
        for phase, seconds in [("pass", wall), ("histogram", kernel),
                               ("reduce", wall - kernel / workers),
                               ("choose", per[("subtract", level)] + per[("choose", level)])]:
            rows.append(dict(base, phase=phase, level=level, open_nodes=opened[level],
                             seconds=seconds, bytes_per_partition=sent))
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--path", default="/tmp/treebook_scale")
    p.add_argument("--rows", type=int, default=5_000_000)
    p.add_argument("--partition-rows", type=int, default=500_000)
    p.add_argument("--max-depth", type=int, default=6)
    p.add_argument("--out", default=os.path.join(RESULTS, "scale_parquet.csv"),
                   help="CSV path, or a folder for scale_parquet.csv")
    p.add_argument("--smoke", action="store_true",
                   help="4·10^3 rows in partitions of 10^3 (the files beside --out), one "
                        "configuration, depth 2")
    args = p.parse_args(argv)
    from treebook.teaching.experiments import load_average, results_path

    args.out = str(results_path(args.out, "scale_parquet.csv"))
    if args.smoke:
        args.rows, args.partition_rows = 4_000, 1_000
        args.path = os.path.join(os.path.dirname(args.out), "scale_parquet_smoke_data")
    import pandas as pd

    files = write_parquet(args.path, args.rows, args.partition_rows)
    per_file = args.partition_rows
    n_full = len(files)
    small = max(1, n_full // 10)
    configs = [  # (files used, max_bins, workers); sized for ~8 min on 2 shared cores
        (max(1, n_full // 5), 255, 2),              # 10^6 rows
        (max(1, n_full // 5), 255, 1),              # against workers
        (max(1, n_full // 5), 63, 2),               # against bins
        (n_full, 255, 2),                           # 5·10^6 rows
    ]
    if args.smoke:  # one cluster of one worker (start-up is most of a smoke run), 2 levels
        configs, args.max_depth = [(n_full, 16, 1)], 2
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                                cwd=HERE).stdout.strip()
    except OSError:
        commit = "unknown"
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    rows = []
    for k, bins, workers in configs:
        t = time.perf_counter()
        rows += run_one(files[:k], bins, workers, args.max_depth)
        print(f"n={k * per_file} bins={bins} workers={workers}: "
              f"{time.perf_counter() - t:.1f} s", flush=True)
        table = pd.DataFrame(rows)
        with open(args.out, "w") as fh:  # after every configuration: a partial run is kept
            fh.write(f"# command: python benchmarks/experiments/scale_parquet.py "
                     f"{' '.join(argv if argv is not None else sys.argv[1:])}\n")
            fh.write(f"# date: {datetime.now(timezone.utc).isoformat(timespec='seconds')}\n")
            fh.write(f"# commit: {commit}\n")
            fh.write(f"# load average: {load_average()} (when written)\n")
            table.to_csv(fh, index=False)
    print(table.to_string())
    return table


if __name__ == "__main__":
    main()
