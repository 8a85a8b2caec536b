"""What validating a tree costs (issue 22): ``validate_tree`` against loading the model.

Fits a ``CARTRegressor`` on noise until its tree has about ``--nodes`` nodes (10^5 by
default), writes it with ``to_json`` and, ``--repeats`` times each, times
``validate_tree(tree)`` (what every ``Tree`` construction now runs) and
``from_json(text)`` (which includes one validation). Prints medians and the ratio
validation / loading; with ``--csv`` appends a row whose header records the command,
commit, date and load average. Times are wall-clock on whatever the machine is doing:
nothing here is asserted.

    python benchmarks/bench_tree_validation.py --nodes 100000 --repeats 5
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import time

import numpy as np

from treebook import CARTRegressor
from treebook.core.tree_validation import validate_tree
from treebook.io.serialize import from_json, to_json


def _median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--csv")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    n = (args.nodes + 1) // 2  # a regression tree on noise splits down to single rows
    X, y = rng.normal(size=(n, 5)), rng.normal(size=n)
    model = CARTRegressor().fit(X, y)
    tree = model.tree_
    text = to_json(model)
    validate_s = _median_time(lambda: validate_tree(tree), args.repeats)
    load_s = _median_time(lambda: from_json(text, max_nodes=max(10**6, 2 * tree.node_count)),
                          args.repeats)
    row = {"nodes": tree.node_count, "document_mb": round(len(text) / 2**20, 2),
           "repeats": args.repeats, "validate_ms": round(1e3 * validate_s, 3),
           "load_ms": round(1e3 * load_s, 1), "validate_over_load": round(validate_s / load_s, 5)}
    print(", ".join(f"{k}={v}" for k, v in row.items()))
    if args.csv:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        new = not os.path.exists(args.csv)
        with open(args.csv, "a") as f:
            if new:
                f.write(f"# command: python {' '.join(sys.argv)}\n# commit: {commit}\n"
                        f"# date: {datetime.datetime.now(datetime.timezone.utc).isoformat()}\n"
                        f"# load average: {os.getloadavg()}\n")
                f.write(",".join(row) + "\n")
            f.write(",".join(str(v) for v in row.values()) + "\n")


if __name__ == "__main__":
    main()
