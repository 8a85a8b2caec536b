"""Chapter 7, section 3: the 24 % minority class of Adult — weights, thresholds, criteria.

One CART shape fixed in advance, inside the tutorial's ranges (``max_depth=8``,
``min_samples_leaf=20``; ``?`` the category "missing"), grown four ways: criterion Gini
or entropy × ``class_weight`` None or ``"balanced"``. Each is scored by stratified
``--splits``-fold CV repeated ``--repeats`` times with two decision rules:

* ``argmax``: the class with the larger leaf proportion (threshold 0.5 on P(>50K));
* ``F1 threshold``: the threshold that maximises F1 on the precision–recall curve of
  out-of-fold probabilities from ``--inner``-fold CV *inside the outer training rows*
  (the outer test fold is never used to choose it).

Finally each is fitted on all training rows (threshold from ``--inner``-fold CV on them)
and scored once on UCI's test split. ``results/adult_imbalance_curves.csv`` holds the
ROC and PR curves of the out-of-fold probabilities of the first repeat.

Usage::

    nice python benchmarks/experiments/adult_imbalance.py                # full
    python benchmarks/experiments/adult_imbalance.py --rows 3000 --splits 3 --repeats 1
    python benchmarks/experiments/adult_imbalance.py --smoke --out /tmp/adult_imbalance   # seconds
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adult_common import RESULTS, adult, command, parser  # noqa: E402

from treebook import CARTClassifier  # noqa: E402
from treebook.core.base import clone  # noqa: E402
from treebook.teaching.experiments import (best_f1_threshold, fill_missing,  # noqa: E402
                                  out_of_fold_proba, repeated_folds, threshold_scores,
                                  write_results)

POSITIVE = ">50K"
SHAPE = {"max_depth": 8, "min_samples_leaf": 20}
MODELS = {f"{crit}, {'balanced' if cw else 'unweighted'}":
          CARTClassifier(criterion=crit, class_weight=cw, **SHAPE)
          for crit in ("gini", "entropy") for cw in (None, "balanced")}


def evaluate(model, X_tr, y_tr, X_te, y_te, inner: int, seed: int):
    """Scores with both decision rules, the threshold chosen inside (X_tr, y_tr)."""
    inner_folds = [f for f in repeated_folds(y_tr, inner, 1, seed)]
    oof = out_of_fold_proba(model, X_tr, y_tr, inner_folds)
    threshold, _ = best_f1_threshold(y_tr == POSITIVE, oof)
    fitted = clone(model).fit(X_tr, y_tr)
    p = fitted.predict_proba(X_te)[:, list(fitted.classes_).index(POSITIVE)]
    # argmax of two classes = P(positive) > 1/2 (a tie at 1/2 goes to the first class)
    argmax = threshold_scores(y_te == POSITIVE, p, np.nextafter(0.5, 1))
    tuned = threshold_scores(y_te == POSITIVE, p, threshold)
    return p, [{"rule": "argmax", "threshold": 0.5, **argmax},
               {"rule": "F1 threshold", "threshold": threshold, **tuned}], fitted


def main():
    p = parser(__doc__, splits=3, repeats=2)
    p.add_argument("--inner", type=int, default=3)
    args = p.parse_args()
    X, y = adult("train", args.rows)
    X = fill_missing(X)
    X_test, y_test = adult("test", args.test_rows)
    X_test = fill_missing(X_test)
    rows, curves = [], []
    folds = repeated_folds(y, args.splits, args.repeats, random_state=0)
    for name, model in MODELS.items():
        oof = np.full(len(y), np.nan)
        leaves = []
        for f in folds:
            proba, scored, fitted = evaluate(model, X.iloc[f.train], y[f.train], X.iloc[f.test],
                                             y[f.test], args.inner, 1 + f.fold)
            if f.repeat == 0:
                oof[f.test] = proba
            rows += [{"model": name, "split": "cv", "repeat": f.repeat, "fold": f.fold, **s,
                      "n_leaves": fitted.tree_.n_leaves} for s in scored]
        _, scored, fitted = evaluate(model, X, y, X_test, y_test, args.inner, 99)
        rows += [{"model": name, "split": "test", "repeat": -1, "fold": -1, **s,
                  "n_leaves": fitted.tree_.n_leaves} for s in scored]
        curves.append(curve_points(name, y == POSITIVE, oof))
        print(pd.DataFrame(rows[-2:])[["model", "rule", "threshold", "accuracy",
                                       "balanced_accuracy", "f1", "auc"]].to_string(index=False),
              flush=True)
    write_results(pd.DataFrame(rows), args.out or RESULTS / "adult_imbalance.csv", command())
    write_results(pd.concat(curves, ignore_index=True),
                  (Path(args.out).with_name(Path(args.out).stem + "_curves.csv") if args.out
                   else RESULTS / "adult_imbalance_curves.csv"), command())


def curve_points(name, y_true, score) -> pd.DataFrame:
    from sklearn.metrics import precision_recall_curve, roc_curve

    fpr, tpr, _ = roc_curve(y_true, score)
    precision, recall, _ = precision_recall_curve(y_true, score)
    return pd.concat([pd.DataFrame({"model": name, "curve": "roc", "x": fpr, "y": tpr}),
                      pd.DataFrame({"model": name, "curve": "pr", "x": recall, "y": precision})])


if __name__ == "__main__":
    main()
