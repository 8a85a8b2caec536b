"""Binned against exact CART: test accuracy on real data, repeated cross-validation.

For each data set, ``--repeats`` repetitions of stratified ``--folds``-fold
cross-validation (seed = repeat). On each training fold, exact CART
(:class:`treebook.CARTClassifier`) and binned CART
(:class:`treebook.hist.HistCARTClassifier`) with each ``max_bins`` in ``--bins`` are
grown with the same stopping rules (``--max-depth``, ``--min-samples-leaf``); each is
scored on the held-out fold. The table holds every fold; chapter 8 reports, per data set
and ``max_bins``, the mean paired difference (binned − exact) with its standard error
over the repeats (the mean of each repeat's folds, so folds that share training rows are
not counted as independent).

Every learner sees the same numeric matrix:

* categorical columns become integer codes (categories in sorted order, a missing value
  a code of its own, after the others), so CART cuts them as ordered numbers — the
  treatment both learners share, chosen because binned CART here is numeric-only;
* a missing numeric value is replaced by the training fold's median (credit only);
* Adult drops ``fnlwgt`` (a sampling weight, not a feature) and ``education`` (the
  same as ``education-num``), as :func:`treebook.datasets.load_adult` advises.

Usage::

    nice python benchmarks/experiments/hist_accuracy.py          # the committed run
    python benchmarks/experiments/hist_accuracy.py --datasets breast_cancer --repeats 1
    python benchmarks/experiments/hist_accuracy.py --smoke --out /tmp/ha       # seconds

writes ``benchmarks/experiments/results/hist_accuracy.csv`` (header lines: command, date,
commit).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from datetime import datetime, timezone

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from treebook import CARTClassifier
from treebook.teaching.experiments import mean_se
from treebook.hist import HistCARTClassifier
from treebook.teaching.experiments import load_average, results_path

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")


def codes_and_numbers(X: pd.DataFrame) -> pd.DataFrame:
    """Categorical (object) columns as integer codes, sorted categories, missing last."""
    out = {}
    for name, col in X.items():
        if col.dtype == object or isinstance(col.dtype, pd.CategoricalDtype):
            cats = sorted(col.dropna().astype(str).unique())
            codes = pd.Categorical(col.astype("string"), categories=cats).codes.astype(float)
            out[name] = np.where(codes < 0, len(cats), codes)
        else:
            out[name] = col.to_numpy(dtype=float)
    return pd.DataFrame(out)


def load(name: str):
    """``(X, y)``: X a float DataFrame (NaN only where a numeric value is missing)."""
    import treebook.datasets as tbd
    from sklearn import datasets as skd

    if name == "adult":
        X, y = tbd.load_adult(return_X_y=True)
        X = X.drop(columns=["fnlwgt", "education"])
    elif name in ("credit", "hmda"):
        X, y = getattr(tbd, f"load_{name}")(return_X_y=True)
    elif name == "synthetic":
        Xa, y = skd.make_classification(n_samples=20_000, n_features=10, n_informative=6,
                                        n_redundant=2, n_classes=3, flip_y=0.05,
                                        random_state=0)
        X = pd.DataFrame(Xa, columns=[f"x{j}" for j in range(10)])
    else:
        Xa, y = getattr(skd, f"load_{name}")(return_X_y=True)
        X = pd.DataFrame(Xa)
    return codes_and_numbers(X), np.asarray(y)


DATASETS = ("adult", "credit", "hmda", "digits", "breast_cancer", "synthetic")
#: ``--smoke``: categorical codes and missing values (credit) and a plain numeric set
SMOKE = dict(datasets=["credit", "breast_cancer"], repeats=1, folds=2, bins=[4, 16])


def run(datasets, repeats, folds, bins, max_depth, min_samples_leaf, log=print):
    rows = []
    for name in datasets:
        X, y = load(name)
        for r in range(repeats):
            cv = StratifiedKFold(n_splits=folds, shuffle=True, random_state=r)
            for k, (tr, te) in enumerate(cv.split(X, y)):
                Xtr, Xte = X.iloc[tr], X.iloc[te]
                med = Xtr.median()
                Xtr, Xte = Xtr.fillna(med).to_numpy(), Xte.fillna(med).to_numpy()
                params = dict(max_depth=max_depth, min_samples_leaf=min_samples_leaf)
                learners = [("exact", 0, CARTClassifier(**params))]
                learners += [("binned", b, HistCARTClassifier(max_bins=b, **params))
                             for b in bins]
                for kind, b, est in learners:
                    est.fit(Xtr, y[tr])
                    rows.append(dict(dataset=name, n=len(y), features=X.shape[1],
                                     repeat=r, fold=k, learner=kind, max_bins=b,
                                     accuracy=est.score(Xte, y[te]),
                                     leaves=est.tree_.n_leaves))
        log(f"{name}: done", flush=True)
    return pd.DataFrame(rows)


def paired_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per data set and ``max_bins``: exact and binned accuracy and the paired difference
    (binned − exact), each the mean of the ``J`` = repeats × folds fold scores ± its
    standard error corrected for the overlapping training sets of repeated k-fold CV
    (Nadeau and Bengio: ``mean_se(..., n_splits=k)``, ``(1/J + 1/(k − 1)) s²``). An
    interval uses t with ``J − 1`` degrees of freedom (``scores − 1``)."""
    exact = table[table.learner == "exact"].set_index(["dataset", "repeat", "fold"])
    out = []
    for (name, b), g in table[table.learner == "binned"].groupby(["dataset", "max_bins"]):
        g = g.set_index(["dataset", "repeat", "fold"])
        acc_b = g.accuracy.to_numpy()
        acc_e = exact.accuracy.loc[g.index].to_numpy()
        k = int(g.index.get_level_values("fold").nunique())
        J = acc_b.size

        def se(v):
            return mean_se(v, n_splits=k)[1] if J > 1 and k > 1 else float("nan")

        out.append(dict(dataset=name, max_bins=int(b), exact=acc_e.mean(), exact_se=se(acc_e),
                        binned=acc_b.mean(), binned_se=se(acc_b),
                        difference=(acc_b - acc_e).mean(), difference_se=se(acc_b - acc_e),
                        repeats=int(g.index.get_level_values("repeat").nunique()),
                        folds=k, scores=J))
    return pd.DataFrame(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--datasets", nargs="+", default=list(DATASETS))
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--bins", type=int, nargs="+", default=[4, 16, 64, 256])
    p.add_argument("--max-depth", type=int, default=10)
    p.add_argument("--min-samples-leaf", type=int, default=5)
    p.add_argument("--out", default=os.path.join(RESULTS, "hist_accuracy.csv"),
                   help="CSV path, or a folder for hist_accuracy.csv")
    p.add_argument("--smoke", action="store_true", help=f"the tiny configuration {SMOKE}")
    args = p.parse_args(argv)
    if args.smoke:
        vars(args).update(SMOKE)
    args.out = str(results_path(args.out, "hist_accuracy.csv"))
    table = run(args.datasets, args.repeats, args.folds, args.bins, args.max_depth,
                args.min_samples_leaf)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip() or "unknown"
    with open(args.out, "w") as fh:
        fh.write(f"# command: python benchmarks/experiments/hist_accuracy.py "
                 f"{' '.join(argv if argv is not None else sys.argv[1:])}\n")
        fh.write(f"# date: {datetime.now(timezone.utc).isoformat(timespec='seconds')}\n")
        fh.write(f"# commit: {commit}\n")
        fh.write(f"# load average: {load_average()} (when written)\n")
        table.to_csv(fh, index=False)
    print(paired_summary(table).round(4).to_string())


if __name__ == "__main__":
    main()
