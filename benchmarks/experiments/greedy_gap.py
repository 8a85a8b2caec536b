"""How far from optimal is greedy? Chapter 9 reads the CSVs this script writes.

Three parts, each a CSV under ``benchmarks/experiments/results/`` whose header lines
(``# command``, ``# commit``, ``# date``, ``# load average``) this script writes:

* ``greedy_gap.csv`` — the fifteen data sets of chapter 6 (``pruning_comparison``), one
  stratified 70/30 split (seed 0), depths 2, 3, 4. Per data set and depth: CART's
  depth-``d`` tree (Gini), the optimal tree under Gini, the optimal misclassification
  tree, C4.5 (``binary_splits=True, max_depth=d``) against the optimal tree under C4.5's
  pessimistic error count, and cost-complexity at α = ``--alpha``: the best subtree of
  CART's depth-``d`` tree (``ccp_alpha``) against the optimum at α. Each row is one
  learner: its training objective (``R_α`` under the criterion named in ``objective``),
  its training and test error, leaves, and for the optimal trees the lower bound, whether
  optimality was proved within ``--time-limit`` seconds and the seconds taken.
* ``greedy_gap_cv.csv`` — out-of-sample: 5-fold cross-validation (stratified, seed 0)
  with the depth (1, 2, 3) tuned by an inner 3-fold CV for CART and for the optimal
  misclassification tree (``--cv-time-limit`` per inner fit); one row per data set, fold
  and learner: the chosen depth and the test error.
* ``greedy_gap_time.csv`` — run time against n (the first n rows of a shuffled breast
  cancer data set) and depth, with and without the bounds, and ConTree (``pycontree``,
  when installed) on the same rows for reference.

Usage::

    nice python benchmarks/experiments/greedy_gap.py            # the committed run
    python benchmarks/experiments/greedy_gap.py --smoke --out /tmp/gg   # seconds
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import subprocess
import sys
import time
from datetime import datetime, timezone

import numpy as np
import pandas as pd

from treebook import C45Classifier, CARTClassifier, OptimalTreeClassifier
from treebook.prune.error_based import estimated_errors
from treebook.teaching.experiments import read_results

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")

_spec = importlib.util.spec_from_file_location("pruning_comparison",
                                               os.path.join(HERE, "pruning_comparison.py"))
pruning_comparison = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pruning_comparison)

DATASETS = pruning_comparison.DATASETS
REDUCED = ("iris", "wine", "biopsy")
DEPTHS = (2, 3, 4)


def load_dataset(name: str):
    return pruning_comparison.load_dataset(name)


# ------------------------------------------------------------------------ objectives
def leaf_objective(tree, criterion: str, alpha: float = 0.0, confidence: float = 0.25) -> float:
    """``R_α`` of a fitted tree on its own training counts: ``Σ_leaves |D_l|·I(l) / |D| +
    α·leaves``, ``I`` the misclassification error, Gini, entropy (bits) or C4.5's
    pessimistic rate (the leaf's ``N·U_CF(E, N)``)."""
    from treebook.core.criteria import get_criterion

    leaves = tree.is_leaf & (tree.weighted_n > 0)
    value, W = tree.value[leaves], tree.weighted_n[leaves]
    if criterion == "pessimistic":
        cost = estimated_errors(W, W - value.max(axis=1), confidence)
    else:
        cost = W * np.asarray(get_criterion(criterion).node_impurity(value), float)
    return float(cost.sum() / tree.weighted_n[0] + alpha * np.count_nonzero(tree.is_leaf))


def _error(model, X, y) -> float:
    return float(1.0 - model.score(X, y))


def _row(name, depth, learner, objective, model, Xtr, ytr, Xte, yte, alpha=0.0, **extra):
    row = dict(dataset=name, n_train=len(ytr), depth=depth, learner=learner,
               objective=objective, alpha=alpha,
               train_objective=(model.objective_ if hasattr(model, "objective_")
                                else leaf_objective(model.tree_, objective, alpha)),
               train_error=_error(model, Xtr, ytr), test_error=_error(model, Xte, yte),
               leaves=int(model.tree_.n_leaves), tree_depth=int(model.tree_.max_depth))
    row.update(extra)
    return row


def _optimal(name, depth, objective, Xtr, ytr, Xte, yte, time_limit, alpha=0.0):
    m = OptimalTreeClassifier(max_depth=depth, criterion=objective, ccp_alpha=alpha,
                              time_limit=time_limit).fit(Xtr, ytr)
    return _row(name, depth, f"optimal-{objective}", objective, m, Xtr, ytr, Xte, yte, alpha,
                lower_bound=m.lower_bound_, proved=m.optimal_, full_space=m.full_space_,
                seconds=m.search_.seconds)


def run_gaps(datasets=DATASETS, depths=DEPTHS, *, time_limit=10.0, alpha=0.01,
             log=print) -> pd.DataFrame:
    """The training-objective comparison (``greedy_gap.csv``)."""
    from sklearn.model_selection import train_test_split

    rows = []
    for name in datasets:
        X, y = load_dataset(name)
        tr, te = train_test_split(np.arange(len(y)), test_size=0.3, random_state=0,
                                  stratify=y)
        Xtr, ytr, Xte, yte = X.iloc[tr], y.iloc[tr], X.iloc[te], y.iloc[te]
        for d in depths:
            t0 = time.perf_counter()
            cart = CARTClassifier(max_depth=d).fit(Xtr, ytr)
            rows.append(_row(name, d, "CART", "gini", cart, Xtr, ytr, Xte, yte,
                             misclassification=leaf_objective(cart.tree_, "misclassification")))
            rows.append(_optimal(name, d, "gini", Xtr, ytr, Xte, yte, time_limit))
            rows.append(_optimal(name, d, "misclassification", Xtr, ytr, Xte, yte, time_limit))
            c45 = C45Classifier(binary_splits=True, max_depth=d).fit(Xtr, ytr)
            rows.append(_row(name, d, "C4.5", "pessimistic", c45, Xtr, ytr, Xte, yte))
            rows.append(_optimal(name, d, "pessimistic", Xtr, ytr, Xte, yte, time_limit))
            ccp = CARTClassifier(max_depth=d, ccp_alpha=alpha).fit(Xtr, ytr)
            rows.append(_row(name, d, "CART-ccp", "gini", ccp, Xtr, ytr, Xte, yte, alpha))
            rows.append({**_optimal(name, d, "gini", Xtr, ytr, Xte, yte, time_limit, alpha),
                         "learner": "optimal-gini-ccp"})
            log(f"{name:14s} depth {d}: {time.perf_counter() - t0:6.1f} s")
    frame = pd.DataFrame(rows)
    # the optimal misclassification tree's Gini objective and CART's misclassification,
    # so that the loss from greed and from the objective can be told apart
    return frame


# ------------------------------------------------------------------------ nested CV
def run_cv(datasets=DATASETS, *, depths=(1, 2, 3), outer=5, inner=3, time_limit=2.0,
           log=print) -> pd.DataFrame:
    """Depth tuned by inner CV, error on the outer test fold (``greedy_gap_cv.csv``)."""
    from sklearn.model_selection import StratifiedKFold

    learners = {"CART": lambda d: CARTClassifier(max_depth=d),
                "optimal-misclassification": lambda d: OptimalTreeClassifier(
                    max_depth=d, time_limit=time_limit)}
    rows = []
    for name in datasets:
        X, y = load_dataset(name)
        t0 = time.perf_counter()
        outer_cv = StratifiedKFold(outer, shuffle=True, random_state=0)
        for fold, (tr, te) in enumerate(outer_cv.split(X, y.astype(str))):
            Xtr, ytr = X.iloc[tr], y.iloc[tr]
            inner_cv = list(StratifiedKFold(inner, shuffle=True, random_state=1).split(
                Xtr, ytr.astype(str)))
            for learner, make in learners.items():
                errs = {}
                proved = True
                for d in depths:
                    e = []
                    for itr, ite in inner_cv:
                        m = make(d).fit(Xtr.iloc[itr], ytr.iloc[itr])
                        proved &= bool(getattr(m, "optimal_", True))
                        e.append(_error(m, Xtr.iloc[ite], ytr.iloc[ite]))
                    errs[d] = float(np.mean(e))
                best = min(depths, key=lambda d: (errs[d], d))  # ties: the shallower
                m = make(best).fit(Xtr, ytr)
                pred = m.predict(X.iloc[te])
                rows.append(dict(dataset=name, fold=fold, learner=learner, depth=best,
                                 n_train=len(tr), n_test=len(te),
                                 test_error=float(np.mean(pred != y.iloc[te].to_numpy())),
                                 constant=bool(m.tree_.n_leaves == 1),
                                 proved=bool(getattr(m, "optimal_", True)) and proved))
        log(f"{name:14s} nested CV: {time.perf_counter() - t0:6.1f} s")
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------ run time
def run_time(ns=(50, 100, 200, 400, 569), depths=(2, 3, 4), *, time_limit=30.0,
             log=print) -> pd.DataFrame:
    """Seconds against n and depth, with and without bounds (``greedy_gap_time.csv``)."""
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    perm = np.random.default_rng(0).permutation(len(y))
    X, y = X[perm], y[perm]
    OptimalTreeClassifier(max_depth=2).fit(X[:30], y[:30])  # compile the kernels first
    try:
        from pycontree import ConTree
    except ImportError:  # the reference is optional
        ConTree = None
    rows = []
    for d in depths:
        for n in ns:
            for bounds in (True, False):
                from treebook.growers.optimal import solve_optimal

                est = OptimalTreeClassifier(max_depth=d, time_limit=time_limit)
                prob = est.problem(X[:n], y[:n])
                res = solve_optimal(prob, d, time_limit=time_limit, use_bounds=bounds)
                rows.append(dict(n=n, depth=d, solver="treebook", bounds=bounds,
                                 seconds=res.seconds, proved=res.complete,
                                 objective=res.cost / n, subproblems=res.subproblems))
            if ConTree is not None:
                t0 = time.perf_counter()
                c = ConTree(max_depth=d, time_limit=time_limit).fit(X[:n], y[:n])
                sec = time.perf_counter() - t0
                rows.append(dict(n=n, depth=d, solver="ConTree", bounds=True, seconds=sec,
                                 proved=sec < time_limit,
                                 objective=float(np.mean(c.predict(X[:n]) != y[:n])),
                                 subproblems=np.nan))
            log(f"run time n={n} depth={d} done")
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------ files
def _commit() -> str:
    """The commit of the code this process runs, read when the script starts (a commit
    made while it runs is not the code it ran); ``-dirty`` when the package or this
    script had uncommitted changes."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True, cwd=HERE).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "../../src", "."],
                               capture_output=True, text=True, check=True, cwd=HERE).stdout
        return head + ("-dirty" if dirty.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


COMMIT = _commit()


def write_csv(frame: pd.DataFrame, path: str, command: str, load_before) -> None:
    """The CSV with its header lines: command, commit, date (UTC) and the load average
    before and after the run (this machine is shared)."""
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    after = os.getloadavg()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"# command: {command}\n# commit: {COMMIT}\n# date: {date}\n"
                 f"# load average: {' '.join(f'{x:.2f}' for x in load_before)} (before), "
                 f"{' '.join(f'{x:.2f}' for x in after)} (after)\n")
        frame.to_csv(fh, index=False)


# the header lines go to ``attrs``, as for every results file of the package's experiments
read_csv = read_results


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--smoke", action="store_true", help="two tiny data sets, seconds")
    ap.add_argument("--out", default=RESULTS, help="folder of the CSVs")
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--cv-time-limit", type=float, default=2.0)
    ap.add_argument("--alpha", type=float, default=0.01)
    ap.add_argument("--parts", nargs="+", default=["gap", "cv", "time"],
                    choices=["gap", "cv", "time"])
    ap.add_argument("--datasets", nargs="+", default=None)
    args = ap.parse_args(argv)
    command = "python benchmarks/experiments/greedy_gap.py " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    os.makedirs(args.out, exist_ok=True)
    if args.smoke:
        datasets, depths, tl, cv_tl = ("iris", "wine"), (2,), 0.5, 0.2
    else:
        datasets, depths, tl, cv_tl = DATASETS, DEPTHS, args.time_limit, args.cv_time_limit
    datasets = tuple(args.datasets) if args.datasets else datasets
    if "gap" in args.parts:
        load = os.getloadavg()
        frame = run_gaps(datasets, depths, time_limit=tl, alpha=args.alpha)
        write_csv(frame, os.path.join(args.out, "greedy_gap.csv"), command, load)
    if "cv" in args.parts:
        load = os.getloadavg()
        frame = run_cv(datasets, depths=(1, 2) if args.smoke else (1, 2, 3),
                       outer=3 if args.smoke else 5, inner=2 if args.smoke else 3,
                       time_limit=cv_tl)
        write_csv(frame, os.path.join(args.out, "greedy_gap_cv.csv"), command, load)
    if "time" in args.parts:
        load = os.getloadavg()
        frame = (run_time(ns=(40, 80), depths=(2,), time_limit=1.0) if args.smoke
                 else run_time(time_limit=30.0))
        write_csv(frame, os.path.join(args.out, "greedy_gap_time.csv"), command, load)


if __name__ == "__main__":
    main()
