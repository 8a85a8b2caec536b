"""Test error of CART against ``max_leaf_nodes`` (best-first growth), by repeated
cross-validation on the HMDA mortgage data. Chapter 4 reads the CSV this script writes.

For each repeat ``r`` a stratified 5-fold split (shuffled with seed ``r``); in every fold,
``CARTClassifier(max_leaf_nodes=k)`` for each budget ``k`` of :data:`BUDGETS` and the
fully grown tree (``k = 0`` in the file: no limit) are fitted on four folds and scored on
the fifth. Nothing is tuned: every budget is reported, so the chapter can show the whole
curve with its standard errors and the paired differences from the full tree. For
comparison, ``k = -1`` (:data:`CCP`) is CART's own answer: the fully grown tree pruned by
cost-complexity at the 1-SE α of ``select_alpha_cv`` (5 inner folds of the four training
folds, seeded by ``5 * repeat + fold``).

The column ``insurance`` (the applicant was denied private mortgage insurance) is left out
of the features (:data:`DROPPED`): an insurer decides it within the same application, 44 of
the 48 applicants it marks were then denied, so it carries the outcome into the features
instead of predicting it. The header line ``dropped`` records it.

Usage::

    nice python benchmarks/experiments/max_leaf_nodes_cv.py --repeats 5  # the committed run
    python benchmarks/experiments/max_leaf_nodes_cv.py --repeats 1     # a quick look
    python benchmarks/experiments/max_leaf_nodes_cv.py --smoke --out /tmp/mln   # seconds

The full run writes ``benchmarks/experiments/results/max_leaf_nodes_cv.csv``: ``#`` lines
with the command, date and commit, then one row per (repeat, fold, budget).
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from treebook import CARTClassifier
from treebook.datasets import load_hmda
from treebook.prune.cost_complexity import select_alpha_cv
from treebook.teaching.experiments import load_average, results_path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks" / "experiments" / "results" / "max_leaf_nodes_cv.csv"
#: not a budget: the fully grown tree pruned at the 1-SE α of an inner cross-validation
CCP = -1
#: the leaf budgets (0: no limit, the fully grown tree; -1: :data:`CCP`)
BUDGETS = (2, 4, 8, 16, 32, 64, 0, CCP)
FOLDS = 5
#: features left out, and why: decided with the loan, it leaks the outcome
DROPPED = ("insurance",)
#: ``--smoke``: one repeat of 2-fold CV, three budgets (one of them no limit) and CCP
SMOKE = dict(repeats=range(1), budgets=(2, 8, 0, CCP), folds=2)


def run(repeats=range(10), budgets=BUDGETS, folds: int = FOLDS) -> pd.DataFrame:
    """One row per (repeat, fold, budget): test error and leaves of the fitted tree, and
    whether it is a constant classifier (every leaf predicts the same class)."""
    X, y = load_hmda(return_X_y=True)
    X = X.drop(columns=list(DROPPED))
    y = np.asarray(y)
    rows = []
    for r in repeats:
        split = StratifiedKFold(n_splits=folds, shuffle=True, random_state=r)
        for f, (train, test) in enumerate(split.split(X, y)):
            for k in budgets:
                if k == CCP:
                    inner = select_alpha_cv(CARTClassifier(), X.iloc[train], y[train], cv=5,
                                            random_state=folds * r + f)
                    model = CARTClassifier(ccp_alpha=inner.alpha)
                else:
                    model = CARTClassifier(max_leaf_nodes=k or None)
                model.fit(X.iloc[train], y[train])
                error = float(np.mean(model.predict(X.iloc[test]) != y[test]))
                tree = model.tree_
                # a constant classifier: every leaf predicts the same class
                constant = np.unique(tree.value[tree.is_leaf].argmax(axis=1)).size == 1
                rows.append((r, f, k, error, model.get_n_leaves(), bool(constant)))
    return pd.DataFrame(rows, columns=["repeat", "fold", "max_leaf_nodes", "test_error",
                                       "leaves", "constant"])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", type=Path, default=OUT,
                    help="CSV path, or a folder for max_leaf_nodes_cv.csv")
    ap.add_argument("--smoke", action="store_true", help=f"the tiny configuration {SMOKE}")
    args = ap.parse_args(argv)
    args.out = results_path(args.out, OUT.name)
    table = run(**SMOKE) if args.smoke else run(range(args.repeats))
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "unknown"
    command = "python benchmarks/experiments/max_leaf_nodes_cv.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    with open(args.out, "w") as fh:
        fh.write(f"# command: {command.strip()}\n"
                 f"# date: {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}\n"
                 f"# commit: {commit}\n"
                 f"# dropped: {', '.join(DROPPED)} (decided with the loan: leaks the outcome)\n"
                 f"# load average: {load_average()} (when written)\n")
        table.to_csv(fh, index=False, float_format="%.10g")


if __name__ == "__main__":
    main()
