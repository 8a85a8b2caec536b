"""Splitting criteria on imbalanced data: repeated stratified 5-fold cross-validation of
trees that differ only in their criterion, on HMDA and on synthetic data whose minority
share is the one thing that varies. Chapter 5 reads the CSV this script writes.

Learners (depth limit 4, see :func:`learners`): ``CriterionTreeClassifier`` with
information gain, gain ratio and Gini gain; ``CLSClassifier`` with the likelihood score,
the positive-class score, and the likelihood score with a G-test stop at α = 0.01; and,
for reference, ``C45Classifier`` and ``CARTClassifier`` at the same depth limit.

Data (see :func:`make_imbalanced`): HMDA (2,380 applications, 12 % denied), and 2,000
synthetic cases with a minority share of 50 %, 20 %, 10 % and 5 % (seed 2026).

For each repeat ``r`` a stratified 5-fold split shuffled with seed ``r``; every learner
meets the same folds, so the chapter takes paired differences fold by fold.

Usage::

    nice python benchmarks/experiments/cls_imbalance.py --repeats 10   # the committed run
    python benchmarks/experiments/cls_imbalance.py --smoke --out /tmp/cls   # seconds

The full run writes ``benchmarks/experiments/results/cls_imbalance.csv``: ``#`` lines with
the command, date, commit and load average, then one row per (data, criterion, repeat,
fold).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.metrics import average_precision_score, balanced_accuracy_score, recall_score
from sklearn.model_selection import StratifiedKFold

from treebook import CLSClassifier
from treebook.c45 import C45Classifier
from treebook.cart import CARTClassifier
from treebook.cls import CriterionTreeClassifier
from treebook.core.impurity import gain_ratio, gini_gain, information_gain
from treebook.datasets import load_hmda
from treebook.teaching.experiments import results_path, write_results

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks" / "experiments" / "results" / "cls_imbalance.csv"
DEPTH = 4
SHARES = (0.5, 0.2, 0.1, 0.05)
FOLDS = 5
#: ``--smoke``: one repeat of 2-fold CV on HMDA's first 400 rows and on one synthetic
#: share at n = 300
SMOKE = dict(repeats=range(1), shares=(0.2,), n_synthetic=300, hmda_rows=400, folds=2)


def learners(positive):
    """Each criterion (and the two full learners) as a function that returns a fresh,
    unfitted tree."""
    def by(criterion):
        return lambda: CriterionTreeClassifier(criterion, max_depth=DEPTH)

    return {
        "information gain": by(information_gain),
        "gain ratio": by(gain_ratio),
        "Gini gain": by(gini_gain),
        "CLS likelihood": lambda: CLSClassifier(max_depth=DEPTH),
        "CLS positive class": lambda: CLSClassifier(
            score="positive_class", positive_class=positive, max_depth=DEPTH),
        "CLS likelihood, α = 0.01": lambda: CLSClassifier(significance=0.01,
                                                           max_depth=DEPTH),
        "C45Classifier": lambda: C45Classifier(max_depth=DEPTH),
        "CARTClassifier": lambda: CARTClassifier(max_depth=DEPTH),
    }


def make_imbalanced(n, minority, seed):
    """``n`` cases, a share ``minority`` of class "pos": two numeric features whose mean
    shifts with the class (by 1 and 0.7 standard deviations), a four-valued categorical
    feature whose distribution depends on the class, and two features unrelated to it
    (a numeric one, and a categorical one with twelve values)."""
    rng = np.random.default_rng(seed)
    pos = rng.random(n) < minority
    # the four categories of c4: probabilities by class, drawn by inversion
    probs = np.where(pos[:, None], [0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4])
    c4 = (rng.random(n)[:, None] > probs.cumsum(axis=1)[:, :3]).sum(axis=1)
    X = pd.DataFrame({
        "x1": rng.normal(1.0 * pos, 1.0).round(2),
        "x2": rng.normal(0.7 * pos, 1.0).round(2),
        "noise": rng.normal(0.0, 1.0, n).round(2),
        "c4": np.array(list("abcd"))[c4],
        "c12": np.array([f"g{j:02d}" for j in range(12)])[rng.integers(0, 12, n)],
    })
    return X, pd.Series(np.where(pos, "pos", "neg"), name="y")


def cross_validate(X, y, positive, repeats=range(10), folds=FOLDS):
    """Per criterion, repeat and fold: balanced accuracy, PR-AUC, minority recall and
    leaves; and the predicted probabilities of the positive class."""
    rows, predictions = [], {}
    for repeat in repeats:
        splitter = StratifiedKFold(folds, shuffle=True, random_state=repeat)
        for fold, (train, test) in enumerate(splitter.split(X, y)):
            truth = y.iloc[test].to_numpy()
            for name, make in learners(positive).items():
                model = make().fit(X.iloc[train], y.iloc[train])
                column = list(model.classes_).index(positive)
                proba = model.predict_proba(X.iloc[test])[:, column]
                pred = model.predict(X.iloc[test])
                predictions[name, repeat, fold] = proba
                rows.append({
                    "criterion": name, "repeat": repeat, "fold": fold,
                    "balanced_accuracy": balanced_accuracy_score(truth, pred),
                    "pr_auc": average_precision_score(truth == positive, proba),
                    "minority_recall": recall_score(truth, pred, pos_label=positive),
                    "leaves": model.n_leaves_})
    return pd.DataFrame(rows), predictions


def datasets(shares=SHARES, n_synthetic=2000, hmda_rows=None):
    """``{name: (X, y, positive class)}``: HMDA, then the synthetic sets."""
    X, y = load_hmda(return_X_y=True)
    if hmda_rows is not None:
        X, y = X.iloc[:hmda_rows], y.iloc[:hmda_rows]
    out = {"HMDA": (X, y, "yes")}
    for share in shares:
        Xs, ys = make_imbalanced(n_synthetic, share, seed=2026)
        out[f"synthetic {share:.0%}"] = (Xs, ys, "pos")
    return out


def run(repeats=range(10), shares=SHARES, n_synthetic=2000, hmda_rows=None, folds=FOLDS):
    """One row per (data, criterion, repeat, fold)."""
    frames = []
    for name, (X, y, positive) in datasets(shares, n_synthetic, hmda_rows).items():
        frame, _ = cross_validate(X, y, positive, repeats, folds)
        frames.append(frame.assign(data=name))
    table = pd.concat(frames, ignore_index=True)
    return table[["data"] + [c for c in table.columns if c != "data"]]


def paired_differences(results, metric, reference="information gain", test_share=0.2):
    """Mean per-fold difference (criterion − reference) of ``metric`` over the J folds
    of the repeats, with Nadeau and Bengio's corrected standard error
    ``s * sqrt(1/J + n_test/n_train)`` and a 95 % t interval with J − 1 df."""
    wide = results.pivot_table(index=["repeat", "fold"], columns="criterion",
                               values=metric, sort=False)
    diff = wide.sub(wide[reference], axis=0).drop(columns=reference)
    J = len(diff)
    mean = diff.mean()
    se = np.sqrt((1 / J + test_share / (1 - test_share)) * diff.var(ddof=1))
    half = stats.t.ppf(0.975, J - 1) * se
    return pd.DataFrame({"mean": mean, "SE": se, "low": mean - half,
                         "high": mean + half})


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--out", type=Path, default=OUT,
                    help="CSV path, or a folder for cls_imbalance.csv")
    ap.add_argument("--smoke", action="store_true", help=f"the tiny configuration {SMOKE}")
    args = ap.parse_args(argv)
    path = results_path(args.out, OUT.name)
    table = run(**SMOKE) if args.smoke else run(range(args.repeats))
    command = "python benchmarks/experiments/cls_imbalance.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    write_results(table, path, command.strip())
    print(f"wrote {len(table)} rows to {path}")


if __name__ == "__main__":
    main()
