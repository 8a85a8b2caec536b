"""Chapter 7, section 2: tuning CART on Adult, with nested cross-validation.

Outer loop: stratified ``--splits``-fold CV repeated ``--repeats`` times on Adult's
training split (``fnlwgt``, ``education-num`` dropped; ``?`` the category "missing").
Inside each outer training set only:

* **grid**: ``--inner``-fold CV over ``max_depth`` 2–16 × ``min_samples_leaf``
  {1, 5, 10, 20, 50, 100} (:func:`treebook.teaching.experiments.grid_scores`: one fit at
  depth 16 per fold and leaf size, cut with ``Tree.truncate``); two choices are read off
  the same table: the best cell of the **tutorial's range** (depth 3–10, leaf 5–20) and
  the best cell of the **wide** grid;
* **alpha**: ``ccp_alpha`` of a fully grown tree (``min_samples_leaf=1``) by
  ``--inner``-fold CV (:func:`treebook.teaching.experiments.alpha_tuner`), read off one CV table
  by the minimum and by the 1-SE rule.

Each choice is refitted on the outer training set and scored on the outer test fold.

Usage::

    nice python benchmarks/experiments/adult_tuning.py                   # full
    python benchmarks/experiments/adult_tuning.py --rows 3000 --splits 3 --repeats 1
    python benchmarks/experiments/adult_tuning.py --smoke --out /tmp/adult_tuning   # seconds

With ``--tuners alpha``, only the α tuners run (no grid, no ``_grid.csv``): the grid does
not use the α code, so a change there is re-run in minutes; the chapter takes a tuner's
rows from the runs that name it with ``--tuners`` when there are any.
With ``--folds``, only those outer folds are run (the folds are the same in every
process: they depend only on the seed); the chapter reads every
``results/adult_tuning*.csv``. Writes ``results/adult_tuning.csv`` (one row per outer fold and tuner, with the chosen
parameters, the inner CV accuracy of the choice, and the outer scores) and
``results/adult_tuning_grid.csv`` (the inner CV table of every outer fold).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adult_common import RESULTS, adult, command, parser  # noqa: E402

from treebook import CARTClassifier  # noqa: E402
from treebook.core.base import clone  # noqa: E402
from treebook.prune.cost_complexity import choose_alpha  # noqa: E402
from treebook.teaching.experiments import (alpha_tuner, fill_missing, grid_scores,  # noqa: E402
                                  repeated_folds, scores, write_results)

DEPTHS = list(range(2, 17))
LEAVES = [1, 5, 10, 20, 50, 100]
TUTORIAL = {"max_depth": (3, 10), "min_samples_leaf": (5, 20)}


def main():
    p = parser(__doc__, splits=3, repeats=2)
    p.add_argument("--inner", type=int, default=3)
    p.add_argument("--folds", type=int, nargs="*", default=None,
                   help="run only these outer folds (indices 0 .. splits*repeats-1), e.g. to "
                        "share the work between processes; each writes its own --out")
    p.add_argument("--tuners", nargs="+", default=["grid", "alpha"], choices=["grid", "alpha"],
                   help="which tuners to run (the grid's rows and _grid.csv only with grid)")
    args = p.parse_args()
    X, y = adult("train", args.rows)
    X = fill_missing(X)
    rows, grids = [], []
    outer = repeated_folds(y, args.splits, args.repeats, random_state=0)
    for f in outer if args.folds is None else [outer[i] for i in args.folds]:
        X_tr, y_tr, X_te, y_te = X.iloc[f.train], y[f.train], X.iloc[f.test], y[f.test]
        if "grid" in args.tuners:
            t0 = time.perf_counter()
            grid = grid_scores(CARTClassifier(), X_tr, y_tr, DEPTHS, LEAVES,
                               repeated_folds(y_tr, args.inner, 1, random_state=1 + f.fold))
            grids.append(grid.assign(repeat=f.repeat, fold=f.fold))
            inside = (grid["max_depth"].between(*TUTORIAL["max_depth"])
                      & grid["min_samples_leaf"].between(*TUTORIAL["min_samples_leaf"]))
            grid_seconds = time.perf_counter() - t0
            for name, table in (("grid, tutorial range", grid[inside]), ("grid, wide", grid)):
                best = table.loc[table["accuracy"].idxmax()]
                params = {"max_depth": int(best["max_depth"]),
                          "min_samples_leaf": int(best["min_samples_leaf"])}
                fitted = CARTClassifier(**params).fit(X_tr, y_tr)
                rows.append({"repeat": f.repeat, "fold": f.fold, "tuner": name, **params,
                             "inner_accuracy": float(best["accuracy"]),
                             **scores(fitted, X_te, y_te), "tune_seconds": grid_seconds})
        if "alpha" in args.tuners:
            t0 = time.perf_counter()
            _, _, table = alpha_tuner(CARTClassifier(), cv=args.inner, rule="min",
                                      random_state=1 + f.fold)(X_tr, y_tr)
            err, se = table["cv_error"].to_numpy(), table["std_error"].to_numpy()
            # the package's rule (ties of the least error to the largest α)
            choice = {rule: choose_alpha(err, se, rule)[1] for rule in ("min", "1se")}
            alpha_seconds = time.perf_counter() - t0
            for rule, k in choice.items():
                alpha = float(table["alpha"].iloc[k])
                fitted = CARTClassifier(ccp_alpha=alpha).fit(X_tr, y_tr)
                rows.append({"repeat": f.repeat, "fold": f.fold, "tuner": f"alpha, {rule}",
                             "ccp_alpha": alpha, "inner_accuracy": 1 - float(err[k]),
                             **scores(fitted, X_te, y_te), "tune_seconds": alpha_seconds})
        last = pd.DataFrame(rows[-2 * len(args.tuners):])
        print(last[[c for c in ("tuner", "max_depth", "min_samples_leaf", "ccp_alpha",
                                "inner_accuracy", "accuracy", "n_leaves") if c in last]]
              .to_string(index=False), flush=True)
        # written after every outer fold, so an interrupted run keeps what it finished
        write_results(pd.DataFrame(rows), args.out or RESULTS / "adult_tuning.csv", command())
        if grids:
            write_results(pd.concat(grids, ignore_index=True),
                          (Path(args.out).with_name(Path(args.out).stem + "_grid.csv")
                           if args.out else RESULTS / "adult_tuning_grid.csv"), command())


if __name__ == "__main__":
    main()
