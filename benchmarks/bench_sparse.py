"""CART on sparse input: treebook (``treebook.growers.sparse``) against scikit-learn.

Both libraries fit the same CSC matrix (never densified): ``n`` rows, ``m`` features,
``density`` of stored entries, each a small count 1-9 (as word counts in a bag of words
are), and a binary label from a sparse linear rule on 50 features with 10 % of the labels
flipped. Per configuration the script prints the fit times of both libraries (wall clock, the
median of ``--repeat`` pairs that alternate which library goes first, so both see the
same load), the median of the per-pair ratios, the node counts
and whether the trees predict alike on the training rows (scikit-learn breaks ties between
equally good splits at random, so the trees may differ where splits tie).

  .venv/bin/python benchmarks/bench_sparse.py                 # the issue's 10^5 x 10^4, 1 %
  .venv/bin/python benchmarks/bench_sparse.py --quick         # a reduced configuration
  .venv/bin/python benchmarks/bench_sparse.py --csv FILE      # also write the table as CSV
  .venv/bin/python benchmarks/bench_sparse.py --options [--quick]   # max_features, max_leaf_nodes
  .venv/bin/python benchmarks/bench_sparse.py --depth-limited      # skip the unlimited tree

At 10^5 x 10^4 the tree grown without a depth limit takes scikit-learn more than half an
hour on a shared 2-core machine; ``--depth-limited`` leaves that configuration out.

With ``--options`` the configurations are the random features per node
(``max_features="sqrt"``, depth limit 10), best-first growth (``max_leaf_nodes=100``) and
both; the two libraries draw their random features differently, so with
``max_features`` their trees differ and only the times compare.

Timing is of ``fit`` only; the matrix is built once per configuration. The CSV header
(command, date, commit, load average at the start and when written) is written here, by
``treebook.teaching.experiments.write_results``. Never asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np
import scipy.sparse as sp
from sklearn.tree import DecisionTreeClassifier

from treebook import CARTClassifier


def sparse_counts(n, m, density, seed=0):
    """A CSC matrix of ``round(n·m·density)`` entries at distinct random positions, each a
    count 1-9, and labels from a sparse linear rule (10 % flipped)."""
    rng = np.random.default_rng(seed)
    k = int(round(n * m * density))
    # distinct positions without a permutation of all n·m cells
    pos = np.unique(rng.integers(0, n * m, size=int(k * 1.01) + 10))[:k]
    rng.shuffle(pos)
    pos = np.sort(pos[:k])
    X = sp.csr_matrix((rng.integers(1, 10, pos.size).astype(float),
                       (pos // m, pos % m)), shape=(n, m)).tocsc()
    coef = np.zeros(m)
    coef[rng.choice(m, 50, replace=False)] = rng.normal(size=50)
    s = X @ coef
    y = (s > np.median(s)).astype(int)
    flip = rng.random(n) < 0.10
    y[flip] = 1 - y[flip]
    return X, y


def best_time(fit, repeat):
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        model = fit()
        best = min(best, time.perf_counter() - t0)
    return best, model


def paired_times(fit_sk, fit_tb, repeat):
    """``repeat`` pairs of fits, alternating which library goes first: the median time of
    each, the median of the per-pair ratios (treebook / scikit-learn) and the last models."""
    t_sk, t_tb = [], []
    for r in range(repeat):
        for lib in (("sk", "tb") if r % 2 == 0 else ("tb", "sk")):
            t0 = time.perf_counter()
            model = (fit_sk if lib == "sk" else fit_tb)()
            (t_sk if lib == "sk" else t_tb).append(time.perf_counter() - t0)
            if lib == "sk":
                sk = model
            else:
                tb = model
    ratios = np.array(t_tb) / np.array(t_sk)
    return float(np.median(t_sk)), float(np.median(t_tb)), float(np.median(ratios)), sk, tb


def load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="reduced configuration")
    ap.add_argument("--repeat", type=int, default=1, help="alternating pairs per configuration")
    ap.add_argument("--depth-limited", action="store_true",
                    help="leave out the tree grown without a depth limit")
    ap.add_argument("--csv", help="write the table as CSV (with command/date/commit lines)")
    ap.add_argument("--options", action="store_true",
                    help="max_features and max_leaf_nodes instead of depth limits")
    args = ap.parse_args(argv)
    size = (20_000, 2_000, 0.01) if args.quick else (100_000, 10_000, 0.01)
    if args.options:
        configs = [(*size, {"max_features": "sqrt", "random_state": 0, "max_depth": 10}),
                   (*size, {"max_leaf_nodes": 100}),
                   (*size, {"max_leaf_nodes": 100, "max_features": "sqrt", "random_state": 0})]
    else:
        configs = [(*size, {"max_depth": 8 if args.quick else 10})]
        if not args.depth_limited:
            configs.append((*size, {}))
    load_start = load()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    # compile the kernels (cached on disk after the first run) outside the timing
    Xw, yw = sparse_counts(300, 50, 0.1)
    CARTClassifier(max_depth=3).fit(Xw, yw)
    rows = []
    head = f"{'n':>8} {'m':>6} {'dens':>5} {'options':>40} {'treebook s':>10} " \
           f"{'sklearn s':>10} {'ratio':>6} {'nodes tb':>8} {'nodes sk':>8} {'agree':>6}"
    print(head)
    for n, m, density, params in configs:
        X, y = sparse_counts(n, m, density)
        sk_params = {"random_state": 0, **params}
        t_sk, t_tb, ratio, sk, tb = paired_times(
            lambda: DecisionTreeClassifier(**sk_params).fit(X, y),
            lambda: CARTClassifier(**params).fit(X, y), args.repeat)
        agree = float(np.mean(sk.predict(X) == tb.predict(X)))
        depth = params.get("max_depth")
        options = ", ".join(f"{k}={v}" for k, v in params.items()) or "none"
        row = dict(n=n, m=m, density=density, max_depth="None" if depth is None else depth,
                   options=options, repeats=args.repeat, treebook_s=t_tb, sklearn_s=t_sk,
                   ratio=ratio,
                   nodes_treebook=tb.tree_.node_count, nodes_sklearn=sk.tree_.node_count,
                   train_agreement=agree, load_start=load_start, load=load())
        rows.append(row)
        print(f"{n:>8} {m:>6} {density:>5} {options:>40} {t_tb:>10.2f} {t_sk:>10.2f} "
              f"{ratio:>5.2f}x {row['nodes_treebook']:>8} {row['nodes_sklearn']:>8} "
              f"{agree:>6.3f}", flush=True)
    if args.csv:
        import pandas as pd

        from treebook.teaching.experiments import write_results

        frame = pd.DataFrame(rows)
        command = f"python {' '.join(sys.argv)}"
        write_results(frame, args.csv, command, commit=commit)

if __name__ == "__main__":
    main()
